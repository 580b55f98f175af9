/* serve: `warpscope serve`, the class server. HTTP is libmicrohttpd's (Debian's 0.9.75), a thread
 * per connection with its own polling thread, so that a request waiting for a build blocks only its
 * own connection; no HTTP is parsed here. Requests are routed by one table (method, path, handler).
 * Limits: a body's size (413 past SERVE_BODY_MAX, read no further), requests per client and minute
 * and builds per client (429), connections at once and per address (libmicrohttpd refuses the
 * rest), and the build queue: --workers builds at once, SERVE_QUEUE_PER_WORKER more waiting per
 * worker, then 429 with a Retry-After measured from the builds that finished; a trace (Run) goes
 * before a check, and checks leave a quarter of the workers (one of 2 or 3) to traces. A learner's file is
 * built and run in the sandbox (trace/capture/own), never in this process. SIGINT and SIGTERM stop
 * it: running builds are cancelled, waiting ones answered 503, then the daemon is stopped. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/cmd/cmd.h"
#include "app/serve/serve.h"
#include "app/serve/lti.h"
#include "app/version.h"
#include "app/web_pack.h"
#include "trace/capture/own/sandbox.h"
#include "trace/infile.h"

static volatile int stop_signal; /* the signal that stops the server */

static void on_stop(int sig) { stop_signal = sig; }

/* ---- where warpscope's data and its page are ---- */

/* The page: WARPSCOPE_WEB, else the build's web/ beside the program, else the installed
 * share/warpscope/web (the data, assets/, lessons/ and include/, is find_data's). */
static void find_web(char *web, size_t len)
{
    const char *env = getenv("WARPSCOPE_WEB");
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    web[0] = 0;
    if (env && *env) { snprintf(web, len, "%s", env); return; }
    if (n <= 0) return;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const beside[] = {"web", "../share/warpscope/web"};
    for (size_t i = 0; i < 2 && !web[0]; i++) {
        char probe[PATH_MAX + 64];
        struct stat st;
        snprintf(probe, sizeof probe, "%s/%s/index.html", exe, beside[i]);
        if (stat(probe, &st) == 0 && S_ISREG(st.st_mode)) snprintf(web, len, "%s/%s", exe, beside[i]);
    }
}

/* Content types by a name's ending: one table. The gzipped module and pack go as they are (the
 * page unzips them as they arrive). */
static const struct {
    const char *ending, *type;
} content_types[] = {
    {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"}, {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},   {".json", "application/json"},             {".wasm", "application/wasm"},
    {".svg", "image/svg+xml"},             {".png", "image/png"},                     {".gz", "application/octet-stream"},
    {".pack", "application/octet-stream"}, {".map", "application/json"},              {".txt", "text/plain; charset=utf-8"},
};

static const char *content_type(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof content_types / sizeof content_types[0]; i++) {
        size_t e = strlen(content_types[i].ending);
        if (n >= e && strcmp(name + n - e, content_types[i].ending) == 0) return content_types[i].type;
    }
    return "application/octet-stream";
}

static int add_file(serve_ctx *s, const char *dir, const char *rel)
{
    char path[2 * PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    struct stat st;
    char why[300];
    int fd = infile_open(path, &st, why, sizeof why);
    if (fd < 0) return 0; /* not a regular file: not served */
    serve_file f = {0};
    if (st.st_size > (off_t)1 << 30 || !(f.data = malloc((size_t)st.st_size + 1))) { close(fd); return -1; }
    for (ssize_t k; f.len < (size_t)st.st_size && (k = read(fd, f.data + f.len, (size_t)st.st_size - f.len)) > 0;) f.len += (size_t)k;
    close(fd);
    serve_file *grown = realloc(s->files, (s->nfiles + 1) * sizeof *grown);
    if (!grown) { free(f.data); return -1; }
    s->files = grown;
    snprintf(f.name, sizeof f.name, "%s", rel);
    f.type = content_type(rel);
    snprintf(f.etag, sizeof f.etag, "\"%016llx\"", (unsigned long long)serve_fnv1a(SERVE_FNV_BASIS, f.data, f.len));
    s->files[s->nfiles++] = f;
    return 0;
}

/* The page's files into memory: every regular file of the built page's folder and of its
 * folders one level down (the editor's bundle); when it has no pack, one written now, as
 * `warpscope web -o DIR` writes it, into the server's private folder. */
static void load_page(serve_ctx *s, const char *web, const data_dirs *dd)
{
    if (!web[0]) {
        snprintf(s->page_note, sizeof s->page_note,
                 "the page is not built here (cmake --build BUILD --target web; or set WARPSCOPE_WEB to its folder): / says so, the API works");
        return;
    }
    DIR *d = opendir(web);
    struct dirent *e;
    int have_pack = 0;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) > 60) continue;
        char sub[PATH_MAX + 80];
        snprintf(sub, sizeof sub, "%s/%s", web, e->d_name);
        struct stat st;
        if (stat(sub, &st)) continue;
        if (S_ISREG(st.st_mode)) {
            add_file(s, web, e->d_name);
            have_pack |= strncmp(e->d_name, "warpscope.pack", 14) == 0;
        } else if (S_ISDIR(st.st_mode)) {
            DIR *d2 = opendir(sub);
            struct dirent *e2;
            while (d2 && (e2 = readdir(d2))) {
                char rel[128];
                if (e2->d_name[0] == '.' || strlen(e2->d_name) > 60) continue;
                snprintf(rel, sizeof rel, "%s/%s", e->d_name, e2->d_name);
                add_file(s, web, rel);
            }
            if (d2) closedir(d2);
        }
    }
    if (d) closedir(d);
    if (!have_pack) {
        char err[512];
        web_pack_stats st;
        if (web_pack_write(&(web_pack_opts){.dir = s->tmp, .lesson_dir = dd->lessons, .assets_dir = dd->assets, .cancel = &stop_signal}, &st, err,
                           sizeof err) == 0)
        {
            add_file(s, s->tmp, "warpscope.pack");
            add_file(s, s->tmp, "warpscope.rest.pack");
        } else snprintf(s->page_note, sizeof s->page_note, "the page's data could not be written: %s", err);
        char pack[sizeof s->tmp + 32];
        snprintf(pack, sizeof pack, "%s/warpscope.pack", s->tmp);
        unlink(pack);
        snprintf(pack, sizeof pack, "%s/warpscope.rest.pack", s->tmp);
        unlink(pack);
    }
}

/* ---- the exercises ---- */

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct class_pick {
    int64_t want, id; /* want 0: the open one, else the newest */
    char code[64];
    int open_seen;
} class_pick;

static void pick_class(void *ud, const record_class *c)
{
    class_pick *p = ud;
    int take = p->want ? c->id == p->want : (!p->id || (!p->open_seen && strcmp(c->state, "open") == 0));
    if (!take) return;
    p->id = c->id;
    snprintf(p->code, sizeof p->code, "%s", c->code);
    if (strcmp(c->state, "open") == 0) p->open_seen = 1;
}

static int load_exercises(serve_ctx *s, const char *lessons, char *err, size_t errlen)
{
    char dir[DATA_PATH_MAX + 48];
    snprintf(dir, sizeof dir, "%s/exercises", lessons);
    DIR *d = opendir(dir);
    if (!d) { snprintf(err, errlen, "%.1000s: %s (warpscope's exercises)", dir, strerror(errno)); return -1; }
    struct dirent *e;
    size_t cap = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json")) continue;
        if (s->nex == cap) {
            cap = cap ? 2 * cap : 16;
            char **f = realloc(s->ex_files, cap * sizeof *f);
            if (!f) break;
            s->ex_files = f;
        }
        if (asprintf(&s->ex_files[s->nex], "%s/%s", dir, e->d_name) < 0) break;
        s->nex++;
    }
    closedir(d);
    if (!s->nex) { snprintf(err, errlen, "%.1000s: no exercises (*.json) there", dir); return -1; }
    qsort(s->ex_files, s->nex, sizeof *s->ex_files, by_name);
    s->ex = calloc(s->nex, sizeof *s->ex);
    if (!s->ex) { snprintf(err, errlen, "out of memory"); return -1; }
    for (size_t i = 0; i < s->nex; i++) {
        snprintf(s->ex[i].path, sizeof s->ex[i].path, "%s", s->ex_files[i]);
        if (lesson_load(&s->ex[i].l, s->ex_files[i], err, errlen)) return -1;
        if (!s->ex[i].l.exercise) { snprintf(err, errlen, "%.1000s: a lesson, not an exercise", s->ex_files[i]); return -1; }
    }
    return 0;
}

/* ---- replies ---- */

void reply_json(serve_reply *r, unsigned status, char *text)
{
    r->status = status;
    r->type = "application/json";
    r->body = text;
    r->len = text ? strlen(text) : 0;
}

/* The message as a JSON string: quotes, backslashes and control bytes escaped. */
static void json_escape(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && o + 7 < len; p++) {
        if (*p == '"' || *p == '\\') { out[o++] = '\\'; out[o++] = (char)*p; }
        else if (*p == '\n') { out[o++] = '\\'; out[o++] = 'n'; }
        else if (*p < 0x20 || *p == 0x7f) o += (size_t)snprintf(out + o, len - o, "\\u%04x", *p);
        else out[o++] = (char)*p;
    }
    out[o] = 0;
}

void reply_error(serve_reply *r, unsigned status, const char *fmt, ...)
{
    char msg[2048], esc[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_escape(msg, esc, sizeof esc);
    char *text = NULL;
    if (asprintf(&text, "{\"error\": {\"message\": \"%s\"}}\n", esc) < 0) text = NULL;
    reply_json(r, status, text);
}

/* ---- the build queue ---- */

/* a cached trace's place: SERVE_LIGHT_PER_WORKER per worker run at once, as many wait as builds may */
static int replaced(serve_reply *r)
{
    reply_error(r, 409, "this Run was replaced by your newer one");
    return -3;
}

static int light_begin(serve_ctx *s, serve_reply *r, volatile int *cancel)
{
    unsigned most = s->workers * SERVE_LIGHT_PER_WORKER;
    if (s->light_running >= most && s->light_waiting >= s->queue_max) {
        pthread_mutex_unlock(&s->mu);
        reply_error(r, 429, "the server is running %u traces and %u more are waiting: try again in 1 s", most, s->queue_max);
        snprintf(r->value_buf, sizeof r->value_buf, "1");
        r->header = MHD_HTTP_HEADER_RETRY_AFTER;
        r->value = r->value_buf;
        return -1;
    }
    s->light_waiting++;
    while (s->light_running >= most && !*s->stop && !*cancel) pthread_cond_wait(&s->cv, &s->mu);
    s->light_waiting--;
    if (*cancel && !*s->stop) {
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        return replaced(r);
    }
    if (*s->stop) {
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        reply_error(r, 503, "the server is stopping");
        return -2;
    }
    s->light_running++;
    pthread_mutex_unlock(&s->mu);
    return 0;
}

/* Whether a job of this kind may take a worker now: a trace when one is free and no check that has
 * waited SERVE_CHECK_AGE_S is owed it; a check when one is free, no trace waits (or it has itself
 * waited that long), and checks hold fewer than checks_most, or no trace runs either (a lab that
 * is all checks uses every worker; a trace that comes then waits for the first to end, a check
 * being about half a second, and goes before the checks that wait). */
static int may_start(const serve_ctx *s, int check, int aged)
{
    if (s->running >= s->workers) return 0;
    if (!check) return !(s->checks_aged && s->checks_running < s->checks_most);
    return (s->checks_running < s->checks_most || s->running == s->checks_running) && (!s->builds_waiting || aged);
}

/* 429 with a Retry-After: how long until a place is likely, the builds ahead over the workers at
 * the measured pace; the queue full (waited 0) or no place within SERVE_START_WAIT_S (1). Called
 * with s->mu held, which it lets go; -1. */
static int no_place(serve_ctx *s, serve_reply *r, int waited)
{
    double avg = s->jobs_done ? s->job_ms_avg : 2000.0;
    unsigned secs = (unsigned)ceil(avg * ((double)s->waiting / s->workers + 1.0) / 1000.0), waiting = s->waiting;
    secs = secs ? secs : 1;
    pthread_mutex_unlock(&s->mu);
    if (waited) reply_error(r, 429, "the server's %u workers were busy for %d s: try again in %u s", s->workers, SERVE_START_WAIT_S, secs);
    else reply_error(r, 429, "the server is building %u files and %u more are waiting: try again in %u s", s->workers, waiting, secs);
    snprintf(r->value_buf, sizeof r->value_buf, "%u", secs);
    r->header = MHD_HTTP_HEADER_RETRY_AFTER;
    r->value = r->value_buf;
    return -1;
}

int serve_job_begin(serve_ctx *s, serve_reply *r, serve_job kind, volatile int *cancel)
{
    pthread_mutex_lock(&s->mu);
    if (kind == SERVE_JOB_CACHED) return light_begin(s, r, cancel);
    int check = kind == SERVE_JOB_CHECK, aged = 0;
    if (!may_start(s, check, 0) && s->waiting >= s->queue_max) return no_place(s, r, 0);
    /* a trace (Run, which the learner waits for) goes before a waiting check, but a check that has
     * waited SERVE_CHECK_AGE_S goes before traces: checks are never starved */
    struct timespec deadline, give_up;
    clock_gettime(CLOCK_REALTIME, &deadline);
    give_up = deadline;
    deadline.tv_sec += SERVE_CHECK_AGE_S;
    give_up.tv_sec += SERVE_START_WAIT_S;
    s->waiting++;
    s->builds_waiting += (unsigned)!check;
    int late = 0;
    while (!*s->stop && !*cancel && !may_start(s, check, aged)) {
        const struct timespec *until = check && !aged ? &deadline : &give_up;
        if (pthread_cond_timedwait(&s->cv, &s->mu, until) != ETIMEDOUT) continue;
        if (until == &give_up) { late = 1; break; }
        aged = 1;
        s->checks_aged++;
    }
    s->waiting--;
    s->builds_waiting -= (unsigned)!check;
    s->checks_aged -= (unsigned)aged;
    pthread_cond_broadcast(&s->cv); /* who waited on this one (a check behind this trace, a trace behind an aged check) looks again */
    if (late && !*s->stop && !*cancel) return no_place(s, r, 1); /* asked again later, never answered late */
    if (*cancel && !*s->stop) {
        pthread_mutex_unlock(&s->mu);
        return replaced(r);
    }
    if (*s->stop) {
        pthread_mutex_unlock(&s->mu);
        reply_error(r, 503, "the server is stopping");
        return -2;
    }
    s->running++;
    s->checks_running += (unsigned)check;
    pthread_mutex_unlock(&s->mu);
    return 0;
}

void serve_job_end(serve_ctx *s, double ms, serve_job kind)
{
    pthread_mutex_lock(&s->mu);
    serve_tally *t = &s->tally[kind];
    if (ms >= 0) { /* a place given back before anything ran (ms < 0) is no job */
        t->count++;
        t->ms += ms;
        if (ms > t->max_ms) t->max_ms = ms;
    }
    if (kind == SERVE_JOB_CACHED) {
        s->light_running--;
    } else {
        s->running--;
        s->checks_running -= (unsigned)(kind == SERVE_JOB_CHECK);
        if (ms >= 0) {
            s->jobs_done++;
            s->job_ms_avg = s->jobs_done == 1 ? ms : 0.8 * s->job_ms_avg + 0.2 * ms;
        }
    }
    pthread_cond_broadcast(&s->cv); /* builds and cached runs wait on one condition */
    pthread_mutex_unlock(&s->mu);
}

/* ---- clients: requests per minute, joins, sources' bytes and a student's Runs are counted in the
 * record (record_count), one count for every server of it; what is this server's own is the build
 * in flight and its flag (a Run replaced here, or by its generation in the record). By student (a
 * session) or, without one, by address: a lab behind one NAT address is sixty students, each with
 * limits of its own ---- */

static int64_t wall_now_ms(void);

enum { CLIENT_SLOTS = 8192, RUNS_LOOK_MS = 300 /* how often a Run in flight here looks for a newer one elsewhere */ };
typedef struct client_slot {
    char key[200];            /* "s CLASS NAME" for a student, "a ADDRESS" for an address */
    time_t used;              /* when it was last asked for */
    unsigned builds;
    int check;                /* the build in flight is a check (not replaced: a second is refused) */
    volatile int *cancel;     /* the build in flight's flag (NULL: none) */
    int64_t gen;              /* the Run in flight's number among the student's Runs in the record (0: none) */
} client_slot;
static client_slot clients[CLIENT_SLOTS];
static pthread_mutex_t clients_mu = PTHREAD_MUTEX_INITIALIZER;

static client_slot *client_find(const char *key)
{
    uint64_t h = serve_fnv1a(SERVE_FNV_BASIS, key, strlen(key));
    client_slot *oldest = NULL;
    for (size_t k = 0; k < 16; k++) { /* a short probe; a full table reuses the oldest idle slot of the probed ones */
        client_slot *c = &clients[(h + k) % CLIENT_SLOTS];
        if (!c->key[0] || strcmp(c->key, key) == 0) return c;
        if (!c->builds && (!oldest || c->used < oldest->used)) oldest = c;
    }
    client_slot *c = oldest ? oldest : &clients[h % CLIENT_SLOTS];
    memset(c, 0, sizeof *c);
    return c;
}

static void retry_after(serve_reply *r, unsigned secs)
{
    snprintf(r->value_buf, sizeof r->value_buf, "%u", secs);
    r->header = MHD_HTTP_HEADER_RETRY_AFTER;
    r->value = r->value_buf;
}

/* n keys counted together in the record within a window of window_s (record_count): 0, 1 + the key
 * over its most, or -1 with err when the record does not answer */
static int shared_count(serve_ctx *s, int n, const char *const *keys, time_t window_s, const int64_t *add, const int64_t *most, int64_t *value,
                        char *err, size_t errlen)
{
    int64_t now = wall_now_ms(), w = (int64_t)window_s * 1000;
    int over = 0;
    if (record_count(s->rec, n, keys, (now / w + 1) * w, add, most, now, &over, value, err, errlen)) return -1;
    return over;
}

/* the key of a student's Runs' generation in the record */
static void runs_key(const char *key, char *out, size_t len) { snprintf(out, len, "g %s", key); }

/* 0, or -1 when the client is over its rate or has a check in flight (r filled with 429). A build
 * (build: 1 a Run, 2 a Check) while a Run is in flight stops that Run: the student's newest is the
 * one answered, on this server at once, on another when it next looks at the record (runs_look). */
static int client_admit(serve_ctx *s, const char *key, const char *who, int build, volatile int *cancel, serve_reply *r)
{
    time_t now = time(NULL);
    int64_t rate = key[0] == 's' ? SERVE_STUDENT_RATE : SERVE_CLIENT_RATE, one = 1, gen = 0;
    char rkey[220], err[600];
    snprintf(rkey, sizeof rkey, "r %s", key);
    const char *keys[1] = {rkey};
    /* a count the record could not keep refuses nothing: the request meets the record's trouble itself
     * (and /api/health says it) */
    int over = shared_count(s, 1, keys, 60, &one, &rate, NULL, err, sizeof err) > 0;
    if (!over && build && key[0] == 's') { /* this build's number: a newer Run or Check anywhere replaces a Run */
        static const int64_t unbounded = INT64_MAX / 2;
        runs_key(key, rkey, sizeof rkey);
        int64_t until = INT64_MAX / 4; /* a generation never starts again */
        int o = 0;
        if (record_count(s->rec, 1, keys, until, &one, &unbounded, wall_now_ms(), &o, &gen, err, sizeof err)) gen = 0;
    }
    pthread_mutex_lock(&clients_mu);
    client_slot *c = client_find(key);
    if (!c->key[0]) snprintf(c->key, sizeof c->key, "%s", key);
    c->used = now;
    int busy = !over && build && c->builds && c->check;
    if (!over && !busy && build) {
        if (c->cancel) *c->cancel = 1; /* the Run in flight: replaced */
        c->builds++;
        c->check = build == 2;
        c->cancel = cancel;
        c->gen = gen;
    }
    unsigned wait = over ? (unsigned)(60 - now % 60) : 2;
    pthread_mutex_unlock(&clients_mu);
    if (!over && !busy) {
        if (build) { /* a replaced Run waiting for a place looks at its flag */
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
        }
        return 0;
    }
    if (over) reply_error(r, 429, "more than %lld requests from %s in a minute: try again in %u s", (long long)rate, who, wait);
    else reply_error(r, 429, "your Check is still being judged: its answer comes first");
    retry_after(r, wait);
    return -1;
}

/* Whether a Run of key numbered gen is still the student's newest in the record (1), or a newer one
 * was sent, to this server or another (0). */
static int run_newest(serve_ctx *s, const char *key, int64_t gen)
{
    char gkey[220], err[600];
    int64_t now_gen = 0;
    runs_key(key, gkey, sizeof gkey);
    if (!gen || record_count_get(s->rec, gkey, wall_now_ms(), &now_gen, err, sizeof err)) return 1; /* unknown: it stands */
    return now_gen <= gen;
}

/* Every RUNS_LOOK_MS, each Run in flight here whose student sent a newer one (to any server) is
 * stopped, as a second Run here stops the first. */
static void *runs_look(void *arg)
{
    serve_ctx *s = arg;
    enum { LOOK_MOST = 256 };
    static struct { char key[200]; int64_t gen; } look[LOOK_MOST];
    while (!*s->stop) {
        struct timespec ts = {0, RUNS_LOOK_MS * 1000000L};
        nanosleep(&ts, NULL);
        size_t n = 0;
        pthread_mutex_lock(&clients_mu);
        for (size_t i = 0; i < CLIENT_SLOTS && n < LOOK_MOST; i++)
            if (clients[i].cancel && !clients[i].check && clients[i].gen) {
                memcpy(look[n].key, clients[i].key, sizeof look[n].key);
                look[n++].gen = clients[i].gen;
            }
        pthread_mutex_unlock(&clients_mu);
        int stopped = 0;
        for (size_t k = 0; k < n && !*s->stop; k++) {
            if (run_newest(s, look[k].key, look[k].gen)) continue;
            pthread_mutex_lock(&clients_mu); /* the slot's flag is its request's while the request holds it */
            client_slot *c = client_find(look[k].key);
            if (c->cancel && c->gen == look[k].gen) { *c->cancel = 1; stopped = 1; }
            pthread_mutex_unlock(&clients_mu);
        }
        if (stopped) { /* a replaced Run waiting for a place looks at its flag */
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
        }
    }
    return NULL;
}

int serve_join_admit(serve_ctx *s, const serve_request *q, const char *code, serve_reply *r)
{
    time_t now = time(NULL);
    char ka[200], kc[200], err[600];
    snprintf(ka, sizeof ka, "j %s", q->client);
    snprintf(kc, sizeof kc, "k %.64s", code);
    const char *keys[2] = {ka, kc};
    const int64_t most[2] = {SERVE_JOINS_PER_ADDRESS, SERVE_JOINS_PER_CLASS}, add[2] = {1, 1};
    int over = shared_count(s, 2, keys, SERVE_JOIN_WINDOW_S, add, most, NULL, err, sizeof err);
    if (over == 0) return 0;
    if (over < 0) {
        reply_error(r, 503, "the class record could not be written: %s", err);
        return -1;
    }
    unsigned wait = (unsigned)(SERVE_JOIN_WINDOW_S - now % SERVE_JOIN_WINDOW_S);
    reply_error(r, 429, "more than %lld joins %s in %d minutes: try again in %u s", (long long)most[over - 1],
                over > 1 ? "into this class" : "from your address", SERVE_JOIN_WINDOW_S / 60, wait);
    retry_after(r, wait);
    return -1;
}

int serve_source_admit(serve_ctx *s, const serve_request *q, size_t bytes, serve_reply *r)
{
    time_t now = time(NULL);
    char ks[200], kc[200], err[600];
    if (q->student) snprintf(ks, sizeof ks, "q %lld %s", (long long)q->class_id, q->student);
    else snprintf(ks, sizeof ks, "q a %s", q->client);
    snprintf(kc, sizeof kc, "Q %lld", (long long)q->class_id);
    const char *keys[2] = {ks, kc};
    const int64_t most[2] = {SERVE_SOURCE_BYTES_STUDENT, SERVE_SOURCE_BYTES_CLASS}, add[2] = {(int64_t)bytes, (int64_t)bytes};
    int over = shared_count(s, 2, keys, SERVE_SOURCE_WINDOW_S, add, most, NULL, err, sizeof err);
    if (over == 0) return 0;
    if (over < 0) {
        reply_error(r, 503, "the class record could not be written: %s", err);
        return -1;
    }
    unsigned wait = (unsigned)(SERVE_SOURCE_WINDOW_S - now % SERVE_SOURCE_WINDOW_S);
    reply_error(r, 429, "%s sent more than %lld MiB of new sources this hour: try again in %u s (a source sent before costs nothing)",
                over > 1 ? "the class" : "you", (long long)(most[over - 1] >> 20), wait);
    retry_after(r, wait);
    return -1;
}

static void client_build_done(const char *key, volatile int *cancel)
{
    pthread_mutex_lock(&clients_mu);
    client_slot *c = client_find(key);
    if (c->builds) c->builds--;
    if (c->cancel == cancel) { c->cancel = NULL; c->check = 0; c->gen = 0; }
    pthread_mutex_unlock(&clients_mu);
}

/* the Run in flight's generation, for its answer */
static int64_t client_gen(const char *key, volatile int *cancel)
{
    pthread_mutex_lock(&clients_mu);
    client_slot *c = client_find(key);
    int64_t g = c->cancel == cancel ? c->gen : 0;
    pthread_mutex_unlock(&clients_mu);
    return g;
}

static int64_t wall_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* the student's Check in flight, held in the record: 0 taken, -1 with r filled (429 when another
 * server judges one of theirs, 503 when the record does not answer; *busy says which) */
static int flight_take(serve_ctx *s, const serve_request *q, int *busy, serve_reply *r)
{
    char err[600];
    if (record_flight_take(s->rec, q->class_id, q->student, s->instance, wall_now_ms(), (int64_t)SERVE_FLIGHT_STALE_S * 1000,
                           (int64_t)SERVE_ALIVE_LAPSE_S * 1000, busy, err, sizeof err)) {
        *busy = 1; /* its local place is given back by the caller too */
        reply_error(r, 503, "the class record could not be written: %s", err);
        return -1;
    }
    if (!*busy) return 0;
    reply_error(r, 429, "your Check is still being judged: its answer comes first");
    retry_after(r, 2);
    return -1;
}

static void flight_give(serve_ctx *s, const serve_request *q)
{
    char err[600];
    record_flight_give(s->rec, q->class_id, q->student, err, sizeof err);
}

/* every build in flight stops (SIGINT, SIGTERM) */
static void clients_cancel_all(void)
{
    pthread_mutex_lock(&clients_mu);
    for (size_t i = 0; i < CLIENT_SLOTS; i++)
        if (clients[i].cancel) *clients[i].cancel = 1;
    pthread_mutex_unlock(&clients_mu);
}

/* ---- connections: a deadline for the headers and one for the body ----
 * libmicrohttpd's timeout is for a quiet connection: a byte every few seconds resets it, so 2000
 * connections trickling headers would hold every place. Each connection is noted here as it opens
 * (MHD_OPTION_NOTIFY_CONNECTION), with the phase it is in and since when; the main loop shuts down
 * (shutdown(2), never close: the descriptor stays libmicrohttpd's) those past their phase's deadline.
 * A request being answered (a build it waits for) has none. */
enum { PHASE_HEADERS, PHASE_BODY, PHASE_ANSWER };
typedef struct conn_note {
    int fd;
    int phase;
    double since;
    struct conn_note *prev, *next;
} conn_note;
static conn_note *conns;
static pthread_mutex_t conns_mu = PTHREAD_MUTEX_INITIALIZER;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context, enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        conn_note *n = calloc(1, sizeof *n);
        if (!n) return;
        n->fd = ci ? (int)ci->connect_fd : -1;
        n->since = mono_s();
        pthread_mutex_lock(&conns_mu);
        n->next = conns;
        if (conns) conns->prev = n;
        conns = n;
        pthread_mutex_unlock(&conns_mu);
        *socket_context = n;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        conn_note *n = *socket_context;
        pthread_mutex_lock(&conns_mu);
        if (n->prev) n->prev->next = n->next;
        else conns = n->next;
        if (n->next) n->next->prev = n->prev;
        pthread_mutex_unlock(&conns_mu);
        free(n);
        *socket_context = NULL;
    }
}

static void conn_phase(struct MHD_Connection *c, int phase)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (!ci || !ci->socket_context) return;
    conn_note *n = ci->socket_context;
    pthread_mutex_lock(&conns_mu);
    n->phase = phase;
    n->since = mono_s();
    pthread_mutex_unlock(&conns_mu);
}

/* the connections past their deadline: shut down (their thread sees the end and closes them) */
static unsigned conns_sweep(void)
{
    static const double deadline[] = {[PHASE_HEADERS] = SERVE_HEADERS_S, [PHASE_BODY] = SERVE_BODY_S, [PHASE_ANSWER] = 1e300};
    double now = mono_s();
    unsigned cut = 0;
    pthread_mutex_lock(&conns_mu);
    for (conn_note *n = conns; n; n = n->next)
        if (n->fd >= 0 && now - n->since > deadline[n->phase]) {
            shutdown(n->fd, SHUT_RDWR);
            n->fd = -1;
            cut++;
        }
    pthread_mutex_unlock(&conns_mu);
    return cut;
}

/* ---- bodies: one budget for every body in flight ---- */

static size_t bodies_held;
static pthread_mutex_t bodies_mu = PTHREAD_MUTEX_INITIALIZER;

/* 0 when n more bytes fit the budget (then they are counted), -1 when not */
static int bodies_take(size_t n)
{
    pthread_mutex_lock(&bodies_mu);
    int ok = bodies_held + n <= SERVE_BODIES_BUDGET;
    if (ok) bodies_held += n;
    pthread_mutex_unlock(&bodies_mu);
    return ok ? 0 : -1;
}

static void bodies_give(size_t n)
{
    pthread_mutex_lock(&bodies_mu);
    bodies_held -= n;
    pthread_mutex_unlock(&bodies_mu);
}

/* ---- routing ---- */

/* who may ask: anyone, a student who joined (a session), the teacher (the token or a sign-in) */
enum { WHO_ANYONE, WHO_STUDENT, WHO_TEACHER };
typedef void (*route_fn)(serve_ctx *s, const serve_request *q, serve_reply *r);
static const struct route {
    const char *method, *path;
    int prefix;     /* 1: path is a prefix (the page's files) */
    int build;      /* 1: a Run (a second replaces it), 2: a Check: each builds a learner's file */
    int who;
    route_fn fn;
} routes[] = {
    {"GET", "/api/health", 0, 0, WHO_ANYONE, api_health},
    {"POST", "/api/join", 0, 0, WHO_ANYONE, api_join},
    {"POST", "/api/trace", 0, 1, WHO_STUDENT, api_trace},
    {"POST", "/api/check", 0, 2, WHO_STUDENT, api_check},
    {"GET", "/api/gpu/tries", 0, 0, WHO_STUDENT, api_gpu_tries}, /* the card's timings (gpu_queue.c) */
    {"GET", "/api/gpu", 0, 0, WHO_STUDENT, api_gpu},
    {"POST", "/api/gpu", 0, 0, WHO_STUDENT, api_gpu_time},
    {"GET", "/api/class/leaderboard", 0, 0, WHO_TEACHER, api_class_leaderboard},
    {"GET", "/api/class/last", 0, 0, WHO_TEACHER, api_class_last},
    {"GET", "/api/class/source", 0, 0, WHO_TEACHER, api_class_source},
    {"POST", "/api/class/signin", 0, 0, WHO_ANYONE, api_class_signin},
    {"POST", "/api/class/signout", 0, 0, WHO_ANYONE, api_class_signout},
    {"POST", "/api/class/open", 0, 0, WHO_TEACHER, api_class_open},
    {"POST", "/api/class/state", 0, 0, WHO_TEACHER, api_class_state},
    {"POST", "/api/class/remove", 0, 0, WHO_TEACHER, api_class_remove},
    {"GET", "/api/class/grades.csv", 0, 0, WHO_TEACHER, api_class_grades},
    {"GET", "/api/class", 0, 0, WHO_TEACHER, api_class},
    {"GET", "/class", 0, 0, WHO_ANYONE, api_class_page},
    {"GET", "/lti/login", 0, 0, WHO_ANYONE, lti_login}, /* LTI 1.3 (lti.c): the platform's login, launch, the tool's keys */
    {"POST", "/lti/login", 0, 0, WHO_ANYONE, lti_login},
    {"POST", "/lti/launch", 0, 0, WHO_ANYONE, lti_launch},
    {"POST", "/lti/deeplink", 0, 0, WHO_ANYONE, lti_deeplink},
    {"GET", "/lti/jwks", 0, 0, WHO_ANYONE, lti_jwks},
    {"GET", "/", 1, 0, WHO_ANYONE, api_page}, /* HEAD asks any GET route: its headers, no body */
};

/* One connection's request as it arrives. */
typedef struct pending {
    char *body;
    size_t len, cap;
    size_t held;              /* bytes of the budget it holds */
    int too_big, no_room;
    char client[64];
    int tls;                  /* a proxy on this machine said the browser's connection is TLS (X-Forwarded-Proto) */
    volatile int cancel;      /* its build's flag (serve_request.cancel) */
} pending;

static const char *get_arg(void *conn, const char *name) { return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name); }
static const char *get_header(void *conn, const char *name) { return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name); }

static void client_of(struct MHD_Connection *c, char *out, size_t len, int *tls)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    out[0] = 0;
    int loopback = 0;
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET) {
            const struct sockaddr_in *in = (const void *)sa;
            inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)len);
            loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
        } else if (sa->sa_family == AF_INET6) {
            const struct sockaddr_in6 *in6 = (const void *)sa;
            inet_ntop(AF_INET6, &in6->sin6_addr, out, (socklen_t)len);
            loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
        }
    }
    /* behind a proxy on this machine (nginx), the client is the one it names */
    const char *real = loopback ? MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Real-IP") : NULL,
               *proto = loopback ? MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-Proto") : NULL;
    *tls = proto && strcmp(proto, "https") == 0;
    if (real && *real && strlen(real) < len && strspn(real, "0123456789abcdefABCDEF.:") == strlen(real)) snprintf(out, len, "%s", real);
    if (!out[0]) snprintf(out, len, "unknown");
}

static serve_ctx *the_server;

static enum MHD_Result send_reply(struct MHD_Connection *c, serve_reply *r)
{
    /* the body as it is: a page file stays, an answer is freed when sent (a trace may be megabytes);
     * to HEAD libmicrohttpd sends the length alone */
    struct MHD_Response *resp;
    if (r->body_static || !r->body) resp = MHD_create_response_from_buffer(r->body ? r->len : 0, r->body ? r->body : (char *)"", MHD_RESPMEM_PERSISTENT);
    else if (!(resp = MHD_create_response_from_buffer_with_free_callback(r->len, r->body, free))) free(r->body);
    if (!resp) return MHD_NO;
    if (r->type) MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->type);
    if (r->header) MHD_add_response_header(resp, r->header, r->value);
    if (r->cookie[0]) MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, r->cookie);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    /* a page file may be kept and is asked again each time (304 while its ETag holds: a lab of thirty
     * on a slow link loads the page's megabytes once); answers and the teacher's page are never kept */
    if (r->etag) MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, r->etag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, r->etag ? "no-cache" : "no-store");
    enum MHD_Result ret = MHD_queue_response(c, r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* A POST comes as JSON from the server's own page: Content-Type application/json (a form of
 * another site cannot send it without asking first, which this server never allows), and an
 * Origin, when the browser sends one, naming the Host asked. 0, or -1 with r filled (415, 403). */
static int post_checked(struct MHD_Connection *c, serve_reply *r)
{
    const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *site = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site");
    size_t tn = type ? strcspn(type, ";") : 0;
    while (tn && type[tn - 1] == ' ') tn--;
    if (!type || tn != 16 || strncasecmp(type, "application/json", 16)) {
        reply_error(r, 415, "a POST's body is JSON: Content-Type: application/json");
        return -1;
    }
    if (origin) {
        const char *rest = !strncmp(origin, "http://", 7) ? origin + 7 : !strncmp(origin, "https://", 8) ? origin + 8 : NULL;
        if (!rest || !host || strcasecmp(rest, host)) {
            reply_error(r, 403, "a POST comes from this server's own page (its Origin names another site)");
            return -1;
        }
    }
    if (site && strcmp(site, "same-origin") && strcmp(site, "none")) {
        reply_error(r, 403, "a POST comes from this server's own page (Sec-Fetch-Site: %.40s)", site);
        return -1;
    }
    return 0;
}

/* the session's cookie, when it is one the server could have given */
static const char *session_of(struct MHD_Connection *c)
{
    const char *v = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "ws_session");
    return v && strlen(v) == SERVE_SESSION_HEX && strspn(v, "0123456789abcdef") == SERVE_SESSION_HEX ? v : NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
                                  const char *upload, size_t *upload_size, void **con_cls)
{
    (void)version;
    serve_ctx *s = cls;
    pending *p = *con_cls;
    if (!p) { /* the headers: nothing of the body yet */
        if (!(p = calloc(1, sizeof *p))) return MHD_NO;
        *con_cls = p;
        conn_phase(c, PHASE_BODY);
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        unsigned long long want = cl ? strtoull(cl, NULL, 10) : 0;
        if (want > SERVE_BODY_MAX) p->too_big = 1;
        else if (want) { /* the whole body's place, taken from the budget before a byte of it is read */
            if (bodies_take((size_t)want + 1)) p->no_room = 1;
            else if (!(p->body = malloc((size_t)want + 1))) { bodies_give((size_t)want + 1); p->no_room = 1; }
            else p->held = p->cap = (size_t)want + 1;
        }
        client_of(c, p->client, sizeof p->client, &p->tls);
        return MHD_YES;
    }
    if (*upload_size) { /* a piece of the body: kept while it fits its size and the budget, else dropped */
        if (!p->too_big && p->len + *upload_size > SERVE_BODY_MAX) p->too_big = 1;
        if (!p->too_big && !p->no_room) {
            if (p->len + *upload_size + 1 > p->cap) { /* a body without a length (chunked) grows within the budget */
                size_t cap = p->cap ? p->cap : 65536;
                while (cap < p->len + *upload_size + 1) cap *= 2;
                size_t more = cap - p->held;
                char *b = NULL;
                if (bodies_take(more) == 0 && !(b = realloc(p->body, cap))) bodies_give(more);
                if (!b) p->no_room = 1;
                else {
                    p->held = cap;
                    p->body = b;
                    p->cap = cap;
                }
            }
            if (!p->no_room) {
                memcpy(p->body + p->len, upload, *upload_size);
                p->len += *upload_size;
                p->body[p->len] = 0;
            }
        }
        *upload_size = 0;
        return MHD_YES;
    }
    conn_phase(c, PHASE_ANSWER);
    serve_reply r = {0};
    const struct route *rt = NULL, *path_match = NULL;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0] && !rt; i++) {
        if (routes[i].prefix && path_match) break; /* an address of the API asked with another method: 405, not a file */
        int hit = routes[i].prefix ? strncmp(url, routes[i].path, strlen(routes[i].path)) == 0 : strcmp(url, routes[i].path) == 0;
        if (!hit) continue;
        if (!path_match) path_match = &routes[i];
        if (strcmp(method, routes[i].method) == 0 || (strcmp(method, "HEAD") == 0 && strcmp(routes[i].method, "GET") == 0)) rt = &routes[i];
    }
    serve_request q = {.method = method, .path = url, .body = p->body ? p->body : "", .len = p->len, .client = p->client,
                       .arg = get_arg, .header = get_header, .conn = c, .session = session_of(c), .cancel = &p->cancel,
                       .tls = p->tls};
    char name[4 * SERVE_NAME_CHARS + 1] = "", key[200];
    int rc = 1;
    if (!rt && path_match) {
        reply_error(&r, 405, "%s %s: this address takes %s", method, url, path_match->method);
        r.header = MHD_HTTP_HEADER_ALLOW;
        r.value = path_match->method;
    } else if (!rt) reply_error(&r, 404, "%s: no such address", url);
    else if (p->too_big) reply_error(&r, 413, "the request's body is over %d MiB (a kernel's source may be 1 MiB)", SERVE_BODY_MAX >> 20);
    else if (p->no_room) {
        reply_error(&r, 503, "the server holds its most of requests' bodies at once: try again in 1 s");
        retry_after(&r, 1);
    } else if (strcmp(method, "POST") == 0 && strncmp(url, "/lti/", 5) && post_checked(c, &r)) { /* an LTI launch is the platform's form, from its site */
    } else if (q.session && (rc = record_session(s->rec, q.session, &q.class_id, name, sizeof name, key, sizeof key)) < 0 && rc != RECORD_CLOSED) {
        reply_error(&r, 503, "the class record could not be read: %s", key);
    } else if (rt->who == WHO_STUDENT && rc == RECORD_CLOSED) { /* 401: the page joins the open class again, with the name typed */
        reply_error(&r, 401, "the class you joined is closed: join the open one (the teacher gives its code)");
    } else if (rt->who == WHO_STUDENT && rc) {
        reply_error(&r, 401, "join the class first (POST /api/join {\"name\": \"YOUR NAME\"}): the page does it when you give your name");
    } else if (rt->who == WHO_TEACHER && !serve_teacher(s, &q)) {
        reply_error(&r, 401, "this is the teacher's: sign in at /class (or send Authorization: Bearer TOKEN)");
        r.header = MHD_HTTP_HEADER_WWW_AUTHENTICATE;
        r.value = "Bearer realm=\"warpscope class\"";
    } else {
        if (!rc) q.student = name;
        if (q.student) snprintf(key, sizeof key, "s %lld %s", (long long)q.class_id, name);
        else snprintf(key, sizeof key, "a %s", p->client);
        /* a student's Check: one in flight on every server of the record, not only on this one */
        int shared = rt->build == 2 && q.student, busy = 0;
        if (client_admit(s, key, q.student ? "you" : p->client, rt->build, &p->cancel, &r) == 0 &&
            (!shared || flight_take(s, &q, &busy, &r) == 0)) {
            rt->fn(s, &q, &r);
            int64_t gen = rt->build == 1 && q.student ? client_gen(key, &p->cancel) : 0;
            if (gen && r.status == 200 && !run_newest(s, key, gen)) { /* replaced on another server as it ran */
                if (!r.body_static) free(r.body);
                r = (serve_reply){0};
                reply_error(&r, 409, "this Run was replaced by your newer one");
            }
            if (shared) flight_give(s, &q);
            if (rt->build) client_build_done(key, &p->cancel);
        } else if (shared && busy) {
            client_build_done(key, &p->cancel);
        }
    }
    /* the body is answered: its place in the budget is free */
    free(p->body);
    p->body = NULL;
    bodies_give(p->held);
    p->held = 0;
    return send_reply(c, &r);
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)toe;
    pending *p = *con_cls;
    if (p) {
        free(p->body);
        bodies_give(p->held);
    }
    free(p);
    *con_cls = NULL;
    conn_phase(c, PHASE_HEADERS); /* a kept-alive connection's next request: its headers' deadline from now */
}

/* libmicrohttpd's messages, at most LOG_PER_MINUTE a minute: a client that opens and drops
 * thousands of connections must not fill the journal */
enum { LOG_PER_MINUTE = 30 };
static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    static time_t minute;
    static unsigned said;
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    pthread_mutex_lock(&mu);
    time_t now = time(NULL) / 60;
    if (now != minute) { minute = now; said = 0; }
    if (said < LOG_PER_MINUTE) fprintf(stderr, "warpscope: serve: %s%s", line, line[0] && line[strlen(line) - 1] == '\n' ? "" : "\n");
    else if (said == LOG_PER_MINUTE) fprintf(stderr, "warpscope: serve: more of libmicrohttpd's messages this minute left out\n");
    said++;
    pthread_mutex_unlock(&mu);
}

/* ---- the command ---- */

static void make_token(char *out, size_t len)
{
    unsigned char raw[16];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) { /* never expected; the clock then */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        for (size_t i = 0; i < sizeof raw; i++) raw[i] = (unsigned char)(((unsigned long)ts.tv_nsec >> (i % 4 * 8)) ^ ((unsigned long)getpid() >> (i % 2 * 8)) ^ i * 97);
    }
    for (size_t i = 0; i < sizeof raw && 2 * i + 2 < len; i++) snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[PATH_MAX + 256];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(p);
        else unlink(p);
    }
    if (d) closedir(d);
    rmdir(dir);
}

/* The teacher's token as given: --token, else the first line of --token-file, else $WARPSCOPE_TOKEN
 * (out "" when none: the server makes one). Returns where it came from, or NULL (said) when the
 * file cannot be read. */
static const char *token_given(const cli_value *v, char *out, size_t len)
{
    out[0] = 0;
    if (v[WF_TOKEN].given) { snprintf(out, len, "%s", v[WF_TOKEN].text); return "--token"; }
    if (v[WF_TOKEN_FILE].given) {
        FILE *f = fopen(v[WF_TOKEN_FILE].text, "r");
        if (!f || !fgets(out, (int)len, f)) {
            fprintf(stderr, "warpscope: --token-file %s: %s\n", v[WF_TOKEN_FILE].text, f ? "it is empty" : strerror(errno));
            if (f) fclose(f);
            return NULL;
        }
        fclose(f);
        out[strcspn(out, "\r\n")] = 0;
        return "--token-file";
    }
    const char *e = getenv("WARPSCOPE_TOKEN");
    if (e && *e) { snprintf(out, len, "%s", e); return "$WARPSCOPE_TOKEN"; }
    return "";
}

static void any_class(void *ud, const record_class *c)
{
    *(int64_t *)ud = c->id;
}

/* warpscope grades: a class's grades as CSV (grades.c), from a state folder or a database */
int cmd_grades(const ws_call *k)
{
    const cli_value *v = k->v;
    const char *state = v[WF_STATE].given ? v[WF_STATE].text : NULL, *db = v[WF_DB].given ? v[WF_DB].text : NULL;
    if (!state && !db) {
        fprintf(stderr, "warpscope: grades needs --state DIR (the class record, DIR/class.db) or --db postgres://... (warpscope grades --help)\n");
        return EXIT_BAD;
    }
    static data_dirs dd;
    static serve_ctx s;
    char err[1600];
    struct stat st;
    errno = 0;
    if (state && (stat(state, &st) || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "warpscope: --state %s: no class record there (%s)\n", state, errno ? strerror(errno) : "not a folder");
        return EXIT_BAD;
    }
    if (find_data(&dd, 0, 1)) return EXIT_BAD;
    if (load_exercises(&s, dd.lessons, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    int rc = EXIT_BAD;
    record *rec = record_open(state, db, err, sizeof err);
    class_pick pick = {.want = v[WF_CLASS].given ? (int64_t)v[WF_CLASS].num : 0};
    char *csv = NULL;
    size_t n = 0;
    if (!rec) fprintf(stderr, "warpscope: %s\n", err);
    else if (record_classes(rec, pick_class, &pick, NULL, err, sizeof err)) fprintf(stderr, "warpscope: the class record could not be read: %s\n", err);
    else if (!pick.id) fprintf(stderr, pick.want ? "warpscope: --class %lld: no such class in the record\n" : "warpscope: the record holds no class\n", (long long)pick.want);
    else if (!(csv = grades_csv(rec, pick.id, pick.code, s.ex, s.nex, &n, err, sizeof err))) fprintf(stderr, "warpscope: the class record could not be read: %s\n", err);
    else {
        const char *out = v[WF_OUT].given ? v[WF_OUT].text : NULL;
        char tmp[4200];
        FILE *f = stdout;
        if (out) { /* written beside, then renamed: never a half-written file */
            snprintf(tmp, sizeof tmp, "%s.part", out);
            f = fopen(tmp, "w");
        }
        if (!f) fprintf(stderr, "warpscope: -o %s: %s\n", out, strerror(errno));
        else {
            int bad = fwrite(csv, 1, n, f) != n;
            bad |= out ? fclose(f) != 0 : fflush(f) != 0;
            if (out && !bad && rename(tmp, out)) bad = 1;
            if (bad) {
                fprintf(stderr, "warpscope: %s: %s\n", out ? out : "the standard output", strerror(errno));
                if (out) unlink(tmp);
            } else rc = 0;
            if (out && !bad) fprintf(stderr, "warpscope: %s: class %lld's grades (%s)\n", out, (long long)pick.id, pick.code[0] ? pick.code : "no code");
        }
    }
    free(csv);
    record_close(rec);
    for (size_t i = 0; i < s.nex; i++) { lesson_free(&s.ex[i].l); free(s.ex_files[i]); }
    free(s.ex);
    free(s.ex_files);
    return rc;
}

int cmd_serve(const ws_call *k)
{
    const cli_value *v = k->v;
    unsigned port = v[WF_PORT].given ? (unsigned)v[WF_PORT].num : 8080;
    const char *bind_to = v[WF_BIND].given ? v[WF_BIND].text : "127.0.0.1";
    const char *state = v[WF_STATE].given ? v[WF_STATE].text : NULL;
    const char *db = v[WF_DB].given ? v[WF_DB].text : NULL;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    static serve_ctx s;
    memset(&s, 0, sizeof s);
    s.workers = v[WF_WORKERS].given ? (unsigned)v[WF_WORKERS].num : cores > 0 ? (unsigned)cores : 1;
    s.queue_max = s.workers * SERVE_QUEUE_PER_WORKER;
    s.checks_most = s.workers - s.workers / SERVE_CHECKS_KEEP_FREE;
    if (s.workers > 1 && s.checks_most == s.workers) s.checks_most--; /* 2 or 3 workers: one is kept for traces */
    struct timespec mono;
    clock_gettime(CLOCK_MONOTONIC, &mono); /* api.c's clock: /api/health's up_s */
    s.started_ms = (double)mono.tv_sec * 1e3 + (double)mono.tv_nsec / 1e6;
    s.stop = &stop_signal;
    char given[256] = "";
    const char *how = token_given(v, given, sizeof given);
    if (!how) return EXIT_BAD;
    if (given[0]) {
        const char *t = given;
        if (strlen(t) < 8 || strlen(t) >= sizeof s.token || strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~") != strlen(t)) {
            fprintf(stderr, "warpscope: %s: 8 to %zu letters, digits, - _ . or ~, got %zu characters (warpscope serve --help lists its flags)\n", how,
                    sizeof s.token - 1, strlen(t));
            return EXIT_BAD;
        }
        snprintf(s.token, sizeof s.token, "%s", t);
    } else make_token(s.token, sizeof s.token);
    struct sockaddr_storage addr;
    memset(&addr, 0, sizeof addr);
    struct sockaddr_in *a4 = (void *)&addr;
    struct sockaddr_in6 *a6 = (void *)&addr;
    int v6 = 0;
    if (inet_pton(AF_INET, bind_to, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, bind_to, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        v6 = 1;
    } else {
        fprintf(stderr, "warpscope: --bind: \"%s\" is not an IPv4 or IPv6 address (127.0.0.1, 0.0.0.0, ::) (warpscope serve --help lists its flags)\n", bind_to);
        return EXIT_BAD;
    }
    if (!state && !db) {
        fprintf(stderr, "warpscope: serve needs --state DIR (the class record, DIR/class.db) or --db postgres://... (warpscope serve --help lists its flags)\n");
        return EXIT_BAD;
    }
    static data_dirs dd;
    char web[PATH_MAX + 64], err[1600];
    if (find_data(&dd, 1, 1)) return EXIT_BAD;
    find_web(web, sizeof web);
    snprintf(s.include_dir, sizeof s.include_dir, "%s", dd.include);
    /* a learner's run on a server shares its workers: its own wall clock, set before any run */
    sandbox_set_run_wall_s(v[WF_RUN_LIMIT].given ? (unsigned)v[WF_RUN_LIMIT].num : SERVE_RUN_LIMIT_S);
    sandbox_describe(s.sandbox, sizeof s.sandbox); /* probed once, before any thread asks */
    if (!sandbox_confines_files() && !(getenv("WARPSCOPE_UNSAFE") && strcmp(getenv("WARPSCOPE_UNSAFE"), "1") == 0)) {
        fprintf(stderr, "warpscope: this machine cannot confine a learner's program (%s): serve runs strangers' files and refuses to start\n", s.sandbox);
        return EXIT_BAD;
    }
    if (load_exercises(&s, dd.lessons, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    if (!(s.rec = record_open(state, db, err, sizeof err))) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    make_token(s.instance, sizeof s.instance); /* alive before any request: a hold is taken only after */
    record_alive(s.rec, s.instance, wall_now_ms(), err, sizeof err);
    /* a class open from the start (anyone who reaches the server joins with a name) when none is:
     * the teacher opens one with a code or a roster at /class */
    /* only in a record with no class: a class the teacher closed stays closed across a restart */
    int opened = -1;
    for (int tries = 0; tries < 3 && opened; tries++) { /* servers starting together on one record: one opens it, the others see it */
        int64_t any = 0;
        opened = record_classes(s.rec, any_class, &any, &s.class_open, err, sizeof err) ||
                 (!any && record_class_open(s.rec, "", "", (int64_t)time(NULL) * 1000, &s.class_open, err, sizeof err));
    }
    /* a new token ends every sign-in made with the old one (the record keeps a hash of it) */
    char tag[24];
    int ended = 0;
    snprintf(tag, sizeof tag, "%016llx", (unsigned long long)serve_fnv1a(SERVE_FNV_BASIS, s.token, strlen(s.token)));
    if (!opened && record_teacher_token(s.rec, tag, &ended, err, sizeof err)) opened = -1;
    if (opened) {
        fprintf(stderr, "warpscope: %s\n", err);
        record_close(s.rec);
        return EXIT_BAD;
    }
    if (v[WF_LTI].given && !(s.lti = lti_open(v[WF_LTI].text, v[WF_LTI_KEY].given ? v[WF_LTI_KEY].text : NULL, state, &s, err, sizeof err))) {
        fprintf(stderr, "warpscope: %s\n", err);
        record_close(s.rec);
        return EXIT_BAD;
    }
    /* a connection is a descriptor: as many as the connections allowed, and the builds' own */
    struct rlimit nofile;
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < 2 * SERVE_CONNECTIONS + 256) {
        nofile.rlim_cur = nofile.rlim_max < 2 * SERVE_CONNECTIONS + 256 ? nofile.rlim_max : 2 * SERVE_CONNECTIONS + 256;
        setrlimit(RLIMIT_NOFILE, &nofile);
    }
    /* learners' sources in the build cache's folder, as private as it: CACHE/serve-sources (0700,
     * ours, no link; the cache's eviction passes folders by), where a service may write (systemd's
     * CacheDirectory) */
    char cache[4096];
    struct stat sst;
    if (own_cache_dir(cache, sizeof cache) == 0) snprintf(s.sources, sizeof s.sources, "%s/serve-sources", cache);
    for (char *c = s.sources + 1; *c; c++) /* its parents, as the cache makes them */
        if (*c == '/') { *c = 0; mkdir(s.sources, 0700); *c = '/'; }
    if (!s.sources[0] || (mkdir(s.sources, 0700) && errno != EEXIST) || lstat(s.sources, &sst) || !S_ISDIR(sst.st_mode) ||
        sst.st_uid != geteuid() || (sst.st_mode & 077)) {
        fprintf(stderr, "warpscope: %s: cannot keep learners' sources there (it must be a folder of this user's, 0700; set XDG_CACHE_HOME)\n",
                s.sources[0] ? s.sources : "the cache folder");
        lti_close(s.lti);
        record_close(s.rec);
        return EXIT_BAD;
    }
    serve_sweep_sources(s.sources, 86400.0);
    const char *tmpdir = getenv("TMPDIR");
    snprintf(s.tmp, sizeof s.tmp, "%s/warpscope-serve-XXXXXX", tmpdir && *tmpdir == '/' ? tmpdir : "/tmp");
    if (!mkdtemp(s.tmp)) {
        fprintf(stderr, "warpscope: cannot make a folder in %s: %s\n", tmpdir && *tmpdir == '/' ? tmpdir : "/tmp", strerror(errno));
        lti_close(s.lti);
        record_close(s.rec);
        return EXIT_BAD;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (serve_gpu_start(&s, v[WF_GPU].given, v[WF_GPU_LIMIT].given ? (unsigned)v[WF_GPU_LIMIT].num : 0,
                        v[WF_GPU_QUEUE].given ? (unsigned)v[WF_GPU_QUEUE].num : 0, err, sizeof err)) { /* the card's queue: threads of its own */
        fprintf(stderr, "warpscope: %s\n", err);
        serve_gpu_stop(&s);
        lti_close(s.lti);
        record_close(s.rec);
        remove_tree(s.tmp);
        return EXIT_BAD;
    }
    load_page(&s, web, &dd);
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    the_server = &s;
    /* poll(), not select(): select() takes no descriptor past FD_SETSIZE (1024), and the connections
     * allowed are more */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG |
                     (v6 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *daemon = stop_signal ? NULL :
        MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, &s, MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                         MHD_OPTION_NOTIFY_COMPLETED, on_done, &s, MHD_OPTION_NOTIFY_CONNECTION, on_connection, &s,
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS,
                         MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS_PER_IP, MHD_OPTION_CONNECTION_TIMEOUT,
                         (unsigned)SERVE_IDLE_S, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u, MHD_OPTION_END);
    int rc = 0;
    if (!daemon && !stop_signal) {
        fprintf(stderr, "warpscope: cannot listen on %s port %u (in use, or not an address of this machine?)\n", bind_to, port);
        rc = EXIT_BAD;
    } else if (daemon) {
        const union MHD_DaemonInfo *di = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
        unsigned bound = di ? di->port : port;
        char host[80];
        snprintf(host, sizeof host, v6 ? "[%s]" : "%s", strcmp(bind_to, "0.0.0.0") == 0 ? "127.0.0.1" : bind_to);
        printf("warpscope serve %s (%s) on http://%s:%u/ (%u workers, %s)\n", ws_version, ws_commit, host, bound, s.workers, s.rec->where);
        if (s.page_note[0]) printf("note: %s\n", s.page_note);
        printf("sandbox: %s\n", s.sandbox);
        if (s.lti) printf("%s\n", lti_describe(s.lti));
        if (s.gpu) printf("gpu: %s, every Check whose trace goals are met is also timed on it\n", serve_gpu_card(&s));
        /* the token is typed once at /class, never carried in an address (a projector shows it) */
        printf("the class: http://%s:%u/class (sign in with %s)\n", host, bound, given[0] ? how : "the token below");
        if (!given[0]) printf("the teacher's token: %s\n", s.token);
        fflush(stdout);
        pthread_t looker;
        int looking = pthread_create(&looker, NULL, runs_look, &s) == 0; /* without it, a Run is replaced on its own server only */
        for (unsigned tick = 0; !stop_signal; tick++) {
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
            if (tick % 5 == 0) conns_sweep(); /* twice a second: a deadline is met within half a second */
            if (tick % (SERVE_ALIVE_S * 10) == 0) record_alive(s.rec, s.instance, wall_now_ms(), err, sizeof err);
        }
        clients_cancel_all();
        /* no new connections; the waiting builds are answered 503 and the running ones cancelled,
         * each answered before the connections close (5 s at most) */
        MHD_socket listener = MHD_quiesce_daemon(daemon);
        if (listener != MHD_INVALID_SOCKET) close(listener);
        for (int waited = 0; waited < 100; waited++) {
            pthread_mutex_lock(&s.mu);
            pthread_cond_broadcast(&s.cv);
            unsigned busy = s.running + s.waiting;
            pthread_mutex_unlock(&s.mu);
            if (!busy) break;
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        struct timespec settle = {0, 100 * 1000 * 1000}; /* their answers leave */
        nanosleep(&settle, NULL);
        MHD_stop_daemon(daemon);
        if (looking) pthread_join(looker, NULL);
        fprintf(stderr, "warpscope: serve stopped (signal %d)\n", stop_signal);
    }
    serve_gpu_stop(&s);
    lti_close(s.lti);
    record_close(s.rec);
    remove_tree(s.tmp);
    for (size_t i = 0; i < s.nfiles; i++) free(s.files[i].data);
    free(s.files);
    for (size_t i = 0; i < s.nex; i++) { lesson_free(&s.ex[i].l); free(s.ex_files[i]); }
    free(s.ex);
    free(s.ex_files);
    return rc;
}
