/* lti_none: warpscope serve in a build without cjose or libcurl: no LTI tool (lti.h), and --lti says what to install. */
#include <stdio.h>

#include "app/serve/lti.h"

lti *lti_open(const char *config_path, const char *key_path, const char *state_dir, serve_ctx *s, char *err, size_t errlen)
{
    (void)config_path, (void)key_path, (void)state_dir, (void)s;
    snprintf(err, errlen, "--lti: this warpscope was built without LTI: install libcjose-dev, libcurl4-openssl-dev and libssl-dev "
                          "(tools/setup-debian.sh) and build again");
    return NULL;
}
const char *lti_describe(const lti *t) { (void)t; return ""; }
void lti_close(lti *t) { (void)t; }
static void no_lti(serve_reply *r) { reply_error(r, 404, "this server is no LTI tool (warpscope serve --lti FILE)"); }
void lti_login(serve_ctx *s, const serve_request *q, serve_reply *r) { (void)s, (void)q; no_lti(r); }
void lti_launch(serve_ctx *s, const serve_request *q, serve_reply *r) { (void)s, (void)q; no_lti(r); }
void lti_jwks(serve_ctx *s, const serve_request *q, serve_reply *r) { (void)s, (void)q; no_lti(r); }
void lti_deeplink(serve_ctx *s, const serve_request *q, serve_reply *r) { (void)s, (void)q; no_lti(r); }
void lti_score(serve_ctx *s, int64_t class_id, const char *student, const char *exercise, int met, int goals, int64_t at_ms)
{
    (void)s, (void)class_id, (void)student, (void)exercise, (void)met, (void)goals, (void)at_ms;
}
int lti_forget(serve_ctx *s, int64_t class_id, const char *student, char *err, size_t errlen)
{
    (void)s, (void)class_id, (void)student, (void)err, (void)errlen;
    return 0;
}
