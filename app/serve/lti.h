/* lti: warpscope serve as an LTI 1.3 Advantage tool (internal to app/serve/). A platform (Moodle,
 * Canvas, ...) registered from a file (--lti FILE); the OIDC login initiation and the launch, its
 * id_token verified by cjose (OpenSSL) against the platform's JWKS; a student's launch makes a
 * student session in the open class, an instructor's signs the teacher in; Deep Linking places
 * exercises; Assignment and Grade Services carry each Check's score to the platform's gradebook
 * (libcurl), from a queue in the class record, never in the Check's way. */
#ifndef WARPSCOPE_LTI_H
#define WARPSCOPE_LTI_H

#include <stddef.h>
#include <stdint.h>

#include "app/serve/serve.h"

typedef struct lti lti;

/* The tool, opened from the platform's registration (a JSON file, docs/lti.md) and the tool's own
 * key (key_path, a JWK or PEM file; NULL: STATE/lti-key.json, made once, 0600). NULL with err. */
lti *lti_open(const char *config_path, const char *key_path, const char *state_dir, serve_ctx *s, char *err, size_t errlen);
/* What it is, for the start-up line. */
const char *lti_describe(const lti *t);
void lti_close(lti *t);

/* The routes (serve.c's table): each answers 404 when the server is no LTI tool. */
void lti_login(serve_ctx *s, const serve_request *q, serve_reply *r);    /* GET or POST /lti/login */
void lti_launch(serve_ctx *s, const serve_request *q, serve_reply *r);   /* POST /lti/launch */
void lti_jwks(serve_ctx *s, const serve_request *q, serve_reply *r);     /* GET /lti/jwks */
void lti_deeplink(serve_ctx *s, const serve_request *q, serve_reply *r); /* POST /lti/deeplink: the teacher's choice */

/* A Check judged: its score queued for the platform when the student came by a launch of the
 * exercise's link (nothing otherwise). Never blocks on the platform. */
void lti_score(serve_ctx *s, int64_t class_id, const char *student, const char *exercise, int met, int goals, int64_t at_ms);
/* A student removed from a class by the teacher (record_remove_student): their platform identity,
 * links and queued scores too, so that the name is free and a later launch of theirs names them
 * afresh. 0 (also where the server is no LTI tool), or -1 with err. */
int lti_forget(serve_ctx *s, int64_t class_id, const char *student, char *err, size_t errlen);

#endif
