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
    SERVE_JOINS_PER_ADDRESS = 300,     /* joins tried from one address in SERVE_JOIN_WINDOW_S: a lab of 200 behind one NAT
                                          address joins in a minute, a few names typed twice; one address cannot take a
                                          class of 1000 names in a morning */
    SERVE_JOINS_PER_CLASS = 1200,      /* joins tried into one class (by its code) in SERVE_JOIN_WINDOW_S: a lecture hall */
    SERVE_JOIN_WINDOW_S = 600,         /* the window of both */
    SERVE_SOURCE_BYTES_STUDENT = 32 << 20, /* bytes of new sources kept for one student in SERVE_SOURCE_WINDOW_S: 32
                                          sources of the largest, thousands of a real kernel's few kB */
    SERVE_SOURCE_BYTES_CLASS = 1 << 30, /* and for one class: the disk a day's sweep clears stays bounded */
    SERVE_SOURCE_WINDOW_S = 3600,
    SERVE_FLIGHT_STALE_S = 180,        /* a Check held in the record this long is taken as lost with its server (a check's
                                          18 runs or more at the run limit and its wait fit well within it) */
    SERVE_ALIVE_S = 2,                 /* a server says it is alive in the record this often... */
    SERVE_ALIVE_LAPSE_S = 10,          /* ...and a hold of a server silent this long is dropped (it was killed) */
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
    char instance[40];        /* this server among those of the record (a random name): its holds and its heartbeat */
    struct serve_gpu *gpu;    /* the GPU's queue (gpu_queue.c), or NULL: no GPU here */
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
    char value_buf[64];
    char cookie[160];         /* a Set-Cookie, or "" */
} serve_reply;

/* A request as a handler sees it. */
typedef struct serve_request {
    const char *method, *path;
    const char *body;
    size_t len;
    const char *client;       /* its address (or X-Real-IP from a proxy on this machine) */
    int tls;                  /* the browser's connection is TLS (X-Forwarded-Proto: https from a proxy on this machine):
                                 its cookies are Secure */
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
void api_class_signout(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_grades(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_join(serve_ctx *s, const serve_request *q, serve_reply *r);

/* Whether the request is the teacher's: the token in Authorization: Bearer, or the cookie of a sign-in. */
int serve_teacher(serve_ctx *s, const serve_request *q);
/* Sets a cookie on the reply (HttpOnly, SameSite=Strict; Secure when q->tls). */
void serve_set_cookie(const serve_request *q, serve_reply *r, const char *name, const char *value, int max_age_s);
/* A student's session begun: a new session id joined as name to the open class whose code is code
 * (record_join: 0, or a RECORD_* refusal; -1 with err), its cookie set on r. /api/join calls it for a
 * name typed; a launch from a course's platform calls it for the identity it verified. */
int serve_student_begin(serve_ctx *s, const serve_request *q, serve_reply *r, const char *code, const char *name, int64_t *class_id, char *err,
                        size_t errlen);
/* Called once a Check's judgement is recorded (the try as kept: class, student, exercise, met of
 * goals), on the request's thread after its answer is made: a course's gradebook is told here. A
 * NULL is no hook; a file that adds one fills a place of this table. */
typedef void (*serve_judged_fn)(serve_ctx *s, const record_try *t);
extern serve_judged_fn const serve_judged_hooks[2];
/* Whether one more join may be tried now from q->client into the class whose code is code: 0, or
 * -1 with r filled (429, Retry-After; 503 when the record does not answer). Counted in the record, for every
 * server of it. A join through a verified identity need not ask. */
int serve_join_admit(serve_ctx *s, const serve_request *q, const char *code, serve_reply *r);
/* Whether a new source of bytes may be kept for q's student (or address) and class now: 0, or -1 with
 * r filled (429, Retry-After; 503 when the record does not answer). Counted in the record, for every server of it. */
int serve_source_admit(serve_ctx *s, const serve_request *q, size_t bytes, serve_reply *r);
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
void serve_job_end(serve_ctx *s, double ms, serve_job kind); /* ms < 0: the place given back, nothing ran */

/* Removes the folders of sources unused for max_age_s seconds. */
void serve_sweep_sources(const char *dir, double max_age_s);

/* the GPU's queue (gpu_queue.c): started where a GPU is found (asked: --gpu, where none is an
 * error), limit_s a timing's limit and queue_max the files waiting (0: the defaults); -1 with err */
struct cJSON;
typedef struct serve_gpu serve_gpu;
int serve_gpu_start(serve_ctx *s, int asked, unsigned limit_s, unsigned queue_max, char *err, size_t errlen);
void serve_gpu_stop(serve_ctx *s);
const char *serve_gpu_card(const serve_ctx *s); /* NULL: no GPU */
void serve_gpu_health(serve_ctx *s, struct cJSON *o);
/* a solved Check's file into the queue: answer gains "gpu" (queued with its id, the same bytes'
 * timing from a moment ago, busy, or failed). 1 when the queue is full (*busy_s: Retry-After), else 0 */
struct exercise_judgement;
int serve_gpu_submit(serve_ctx *s, int64_t class_id, const char *student, size_t exercise, const char *file, const char *source_key,
                     const struct exercise_judgement *j, const char *picture, const char *source, struct cJSON *answer, unsigned *busy_s);
/* a judgement into the class record as the student's try, and to the course's gradebook (api.c):
 * 0, a RECORD_* refusal, or -1 with err */
int record_judgement(serve_ctx *s, int64_t class_id, const char *student, const lesson *l, const struct exercise_judgement *j, const char *picture,
                     const char *source, record_try *tr, char *err, size_t errlen);
void api_gpu(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_gpu_time(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_gpu_tries(serve_ctx *s, const serve_request *q, serve_reply *r);
void api_class_leaderboard(serve_ctx *s, const serve_request *q, serve_reply *r);
/* the class a teacher's request names (?class=N), else the open one, else the newest */
int64_t serve_class_asked(serve_ctx *s, const serve_request *q, int *fail);

/* The teacher's page (class_page.c), in English or Chinese: its HTML. */
/* signed_in 0: the sign-in form. */
char *class_page_html(int signed_in, int zh, size_t *len);

/* A class's grades as CSV (grades.c: the columns and why), section the class's join code: malloc'd,
 * its length in *len; NULL with err when the record could not be read. */
char *grades_csv(record *r, int64_t class_id, const char *section, const serve_exercise *ex, size_t nex, size_t *len, char *err, size_t errlen);

#endif
