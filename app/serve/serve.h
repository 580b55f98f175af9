/* serve: what the class server's files share (internal to app/serve/). serve.c owns the HTTP layer
 * (libmicrohttpd, a thread per connection), the limits and the build queue; api.c the handlers;
 * record.h the class record; class_page.c the teacher's page. */
#ifndef WARPSCOPE_SERVE_H
#define WARPSCOPE_SERVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "app/learn/lesson.h"
#include "app/serve/record.h"

/* The limits, each with why. */
enum {
    SERVE_SOURCE_MAX = 1 << 20,        /* bytes of a learner's source: the build's own limit (build.c: OWN_FILE_MAX) */
    SERVE_BODY_MAX = 4 << 20,          /* bytes of a request body: 1 MiB of source escaped in JSON stays below it
                                          (unless most of it is control characters, \u00XX); nginx's limit too */
    SERVE_BODIES_BUDGET = 64 << 20,    /* bytes of every body in flight together: sixteen of the largest; past it a body
                                          is refused (503, Retry-After) and not kept */
    SERVE_JSON_VALUES = 256,           /* values a body's JSON may hold (the fields, 48 defines): parsed only within it,
                                          so that 4 MB of [0,0,...] is refused before cJSON makes 2 million nodes */
    SERVE_JSON_DEPTH = 8,              /* nesting of a body's JSON */
    SERVE_FIELD_MAX = 256,             /* bytes of entry, schedule, a define, an exercise */
    SERVE_NAME_CHARS = 64,             /* characters of a student's name */
    SERVE_N_MAX = 1 << 20,             /* elements of a trace asked for: a second of the emulator at most */
    SERVE_STUDENT_RATE = 600,          /* requests one student (a session) may make in a minute */
    SERVE_CLIENT_RATE = 1200,          /* requests of one address without a session in a minute: the page's files and the
                                          joins of a lab behind one address (60 students load the page's dozen files) */
    SERVE_BUSY_RETRY_S = 2,            /* Retry-After when the sandbox could not start for a moment */
    SERVE_CONNECTIONS = 4096,          /* connections at once (each a thread of a few pages while it waits) */
    SERVE_CONNECTIONS_PER_IP = 384,    /* of them from one address: a lab of 60 browsers behind one NAT address at six
                                          each; eight addresses at most still leave a quarter of the places free */
    SERVE_HEADERS_S = 10,              /* a request's headers arrive within this of its connection (or of the answer before
                                          it on a kept-alive one), else the connection is closed */
    SERVE_BODY_S = 60,                 /* and its body within this of its headers (4 MiB at 70 kB/s) */
    SERVE_IDLE_S = 30,                 /* a connection quiet this long is closed */
    SERVE_QUEUE_PER_WORKER = 8,        /* builds waiting for a worker, per worker, before 429 */
    SERVE_LIGHT_PER_WORKER = 4,        /* cached traces (a run of ~0.1 s, no build) at once, per worker */
    SERVE_SLOW_RUN_MS = 1000,          /* a cached trace that ran this long is queued with builds from then on: a loop
                                          never holds the places of other students' cached traces twice */
    SERVE_CHECK_AGE_S = 10,            /* a check waiting this long goes before the traces that came after it */
    SERVE_START_WAIT_S = 20,           /* a build or check that cannot start within this is answered 429 with a
                                          Retry-After: with its own run, no answer comes later than about 30 s */
    SERVE_CHECKS_KEEP_FREE = 4,        /* of every this many workers, one a check may not take: a trace is Run, pressed
                                        * while the learner waits, and a check is 18 runs or more */
    SERVE_RUN_LIMIT_S = 5,             /* a learner's run on the server, unless --run-limit says (the command line's is 15 s) */
    SERVE_SESSION_HEX = 32,            /* a session's secret: 128 random bits, in hex */
};

/* A file of the page, held in memory. */
typedef struct serve_file {
    char name[128];    /* "index.html": the path after / */
    const char *type;  /* its Content-Type */
    unsigned char *data;
    size_t len;
    char etag[24];     /* "\"HEX\"": its content's hash, for a browser's If-None-Match */
} serve_file;

/* One exercise the server judges. */
typedef struct serve_exercise {
    char path[4200];
    lesson l;
} serve_exercise;

/* The jobs the server runs: a trace built (a new file), a trace whose build is cached, a check. */
typedef enum serve_job { SERVE_JOB_BUILT, SERVE_JOB_CACHED, SERVE_JOB_CHECK, SERVE_JOB_KINDS } serve_job;
typedef struct serve_tally {
    uint64_t count;
    double ms, max_ms; /* their time running (not waiting), in all, and the longest */
} serve_tally;

typedef struct serve_ctx {
    char token[80];
    int64_t class_open;       /* the class open at start (record_classes), for the start-up line */
    char include_dir[4200];   /* trace/capture/ws_cuda.h and friends for a learner's build */
    char tmp[4200];           /* the server's private folder (the page's data when it is written here) */
    char sources[4200];       /* learners' sources by content (api.c: learner_write), in the build cache's folder */
    char sandbox[400];        /* the protections in force, as sandbox_describe says them */
    char page_note[600];      /* "" when the page is served, else why not */
    serve_file *files;
    size_t nfiles;
    serve_exercise *ex;
    size_t nex;
    char **ex_files;          /* their paths, for lesson_match */
    record *rec;
    volatile int *stop;       /* nonzero: stop (SIGINT, SIGTERM): builds are cancelled */
    /* the build queue */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned workers, running, waiting, queue_max;
    unsigned checks_running, checks_most, builds_waiting; /* traces go first; checks take checks_most workers at most */
    unsigned checks_aged;     /* checks that waited SERVE_CHECK_AGE_S: they go before traces */
    unsigned light_running, light_waiting; /* cached traces: runs alone, queued apart from builds */
    double job_ms_avg;        /* a build's time, averaged as they finish: the Retry-After */
    uint64_t jobs_done;
    serve_tally tally[SERVE_JOB_KINDS]; /* what this server ran, by kind (GET /api/health) */
    double started_ms;
    struct lti *lti;          /* the LTI 1.3 tool (lti.h), or NULL */
} serve_ctx;

/* What a handler answers. body is malloc'd (or NULL); header/value one extra header (may be NULL). */
typedef struct serve_reply {
    unsigned status;
    const char *type;
    char *body;
    size_t len;
    int body_static;          /* 1: body is not to be freed (a page file): kept by browsers, asked again each time (ETag) */
    const char *etag;         /* a page file's ETag, or NULL */
    const char *header, *value;
    char value_buf[32];
    char cookie[160];         /* a Set-Cookie, or "" */
} serve_reply;

/* A request as a handler sees it. */
typedef struct serve_request {
    const char *method, *path;
    const char *body;
    size_t len;
    const char *client;       /* its address (or X-Real-IP from a proxy on this machine) */
    const char *session;      /* the student's session (its cookie), or NULL */
    const char *student;      /* who it is (the session's name), or NULL */
    int64_t class_id;         /* and the class */
    volatile int *cancel;     /* set when this request's build is to stop: the student's next Run replaces it, or the
                                 server stops */
    const char *(*arg)(void *conn, const char *name);    /* a query argument, or NULL */
    const char *(*header)(void *conn, const char *name); /* a request header, or NULL */
    void *conn;
} serve_request;

/* The handlers (api.c): each fills r. */
void api_health(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_trace(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_check(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_last(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_page(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_source(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_signin(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_open(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_state(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_remove(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_join(serve_ctx *s, const serve_request *q, serve_reply *r);

/* Whether the request is the teacher's: the token in Authorization: Bearer, or the cookie of a sign-in. */
int serve_teacher(serve_ctx *s, const serve_request *q);
/* 128 random bits in hex (out: SERVE_SESSION_HEX + 1 bytes) */
void serve_secret(char *out);
void api_page(serve_ctx *s, const serve_request *q, serve_reply *r);

/* FNV-1a of n bytes from h (SERVE_FNV_BASIS to start): the server's one hash, for names and tags, never for trust. */
#define SERVE_FNV_BASIS 14695981039346656037ull
uint64_t serve_fnv1a(uint64_t h, const void *p, size_t n);

/* A JSON error {"error": {"message": ...}} with this status. */
void reply_error(serve_reply *r, unsigned status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void reply_json(serve_reply *r, unsigned status, char *text); /* takes text */

/* The build queue: waits for a worker (0), or says 429 (-1: full, r filled) or stop (-2). */
/* SERVE_JOB_CACHED (own_capture_cached said its build is there) waits only for other such runs */
/* cancel: the request's own (its build replaced by the student's next Run: -3, r filled with 409) */
int serve_job_begin(serve_ctx *s, serve_reply *r, serve_job kind, volatile int *cancel);
void serve_job_end(serve_ctx *s, double ms, serve_job kind);

/* Removes the folders of sources unused for max_age_s seconds. */
void serve_sweep_sources(const char *dir, double max_age_s);

/* The teacher's page (class_page.c), in English or Chinese: its HTML. */
/* signed_in 0: the sign-in form. */
char *class_page_html(int signed_in, int zh, size_t *len);

#endif
