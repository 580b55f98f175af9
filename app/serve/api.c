/* api: the class server's handlers. A learner's source is written to a private folder of its own
 * (kernel.cu) and handed to the same library code as `warpscope capture --kernel` (capture_own) and
 * `warpscope exercise check --json` (exercise_judge), which build and run it in the sandbox; what
 * comes back is a trace read by the validating reader. Messages name the learner's file as
 * kernel.cu, never the server's folders. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/cmd/cmd.h"
#include "app/serve/serve.h"
#include "app/serve/lti.h"
#include "app/learn/exercise.h"
#include "app/version.h"
#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"
#include "trace/capture/schedule.h"
#include "trace/trace.h"

#define LEARNER_FILE "kernel.cu"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* what is told of each Check judged (serve.h); none yet */
serve_judged_fn const serve_judged_hooks[2] = {NULL, NULL};

/* ---- the learner's folder ---- */

/* A learner's source is kept at a path named by its content, CACHE/serve-sources/HASH-LENGTH/kernel.cu, so that the
 * same source is the same path in every request, every server of this machine and after a restart:
 * the build's cache key holds the path (it is the #line of the rewrite), and a source seen before is
 * then built once. Written whole to a part file and renamed; kept (serve_sweep_sources removes
 * those unused for a day). */
typedef struct learner_dir {
    char dir[PATH_MAX + 256], file[PATH_MAX + 272];
} learner_dir;

uint64_t serve_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static int same_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "rbe");
    if (!f) return 0;
    int same = 1;
    char buf[65536];
    size_t off = 0, k;
    while (same && (k = fread(buf, 1, sizeof buf, f)) > 0) {
        same = off + k <= len && memcmp(buf, text + off, k) == 0;
        off += k;
    }
    fclose(f);
    return same && off == len;
}

/* where a source is kept (nothing written): 1 when it is there already, the same bytes */
static int learner_path(serve_ctx *s, const char *source, size_t len, learner_dir *ld)
{
    uint64_t a = serve_fnv1a(SERVE_FNV_BASIS, source, len), b = serve_fnv1a(0x9e3779b97f4a7c15ull, source, len);
    snprintf(ld->dir, sizeof ld->dir, "%s/%016llx%016llx-%zu", s->sources, (unsigned long long)a, (unsigned long long)b, len);
    snprintf(ld->file, sizeof ld->file, "%s/" LEARNER_FILE, ld->dir);
    return same_file(ld->file, source, len);
}

/* the source written where learner_path says: only once its build has a worker (a request refused
 * writes nothing) */
static int learner_write(serve_ctx *s, const char *source, size_t len, learner_dir *ld)
{
    static unsigned seq;
    learner_path(s, source, len, ld);
    if (mkdir(ld->dir, 0700) && errno != EEXIST) return -1;
    utimensat(AT_FDCWD, ld->dir, NULL, 0); /* used now: the sweep keeps it */
    if (same_file(ld->file, source, len)) return 0;
    char part[PATH_MAX + 320];
    snprintf(part, sizeof part, "%s.%ld.%u.part", ld->file, (long)getpid(), __atomic_add_fetch(&seq, 1u, __ATOMIC_RELAXED));
    FILE *f = fopen(part, "wxe");
    if (!f) return -1;
    int ok = fwrite(source, 1, len, f) == len;
    if (fclose(f) || !ok || rename(part, ld->file)) { unlink(part); return -1; }
    return 0;
}

static void learner_remove(const learner_dir *ld) { (void)ld; }

void serve_sweep_sources(const char *dir, double max_age_s)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    time_t now = time(NULL);
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[PATH_MAX + 256];
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        if (lstat(sub, &st) || !S_ISDIR(st.st_mode) || difftime(now, st.st_mtime) < max_age_s) continue;
        DIR *in = opendir(sub);
        struct dirent *f;
        while (in && (f = readdir(in))) {
            if (strcmp(f->d_name, ".") && strcmp(f->d_name, "..")) unlinkat(dirfd(in), f->d_name, 0);
        }
        if (in) closedir(in);
        rmdir(sub);
    }
    if (d) closedir(d);
}

/* every "DIR/" of the learner's folder out of a message: it then names kernel.cu alone */
static void strip_dir(char *msg, const char *dir)
{
    size_t n = strlen(dir);
    for (char *p; (p = strstr(msg, dir)) != NULL;) {
        size_t cut = n + (p[n] == '/');
        memmove(p, p + cut, strlen(p + cut) + 1);
    }
}

/* The first "kernel.cu:LINE[:COLUMN]: message" of an error: its line and column (0: none) and
 * where its message starts. */
static const char *locate(const char *err, long *line, long *col)
{
    *line = *col = 0;
    for (const char *p = strstr(err, LEARNER_FILE ":"); p; p = strstr(p + 1, LEARNER_FILE ":")) {
        char *end;
        const char *q = p + strlen(LEARNER_FILE ":");
        long l = strtol(q, &end, 10);
        if (end == q || l <= 0) continue;
        *line = l;
        if (*end == ':' && end[1] >= '0' && end[1] <= '9') {
            *col = strtol(end + 1, &end, 10);
        }
        if (*end == ':') end++;
        while (*end == ' ') end++;
        return end;
    }
    return err;
}

/* a build or run that failed for want of disk (the build cache's, the sources'): the server's trouble, not the file's */
static int disk_full(const char *msg)
{
    return strstr(msg, "No space left on device") || strstr(msg, "Disk quota exceeded");
}

/* 503 with Retry-After, naming no path of the server's */
static void reply_disk_full(serve_reply *r)
{
    reply_error(r, 503, "the server's disk is full (its build cache): nothing is wrong with your file; tell the teacher, and try again later");
    snprintf(r->value_buf, sizeof r->value_buf, "%u", 60u);
    r->header = MHD_HTTP_HEADER_RETRY_AFTER;
    r->value = r->value_buf;
}

/* 503 with Retry-After: the sandbox could not start (processes or namespaces at a limit for a moment) */
static void reply_busy(serve_reply *r, const char *err)
{
    reply_error(r, 503, "%s", err);
    snprintf(r->value_buf, sizeof r->value_buf, "%u", SERVE_BUSY_RETRY_S);
    r->header = MHD_HTTP_HEADER_RETRY_AFTER;
    r->value = r->value_buf;
}

/* 422: {"error": {"line", "column", "message", "text", "field"}}: line and column in kernel.cu (null when
 * the message has none); field "entry" when the entry is what is wrong (its column then is the
 * entry's), else "source" */
static void reply_learner_error(serve_reply *r, char *err)
{
    long line, col;
    int entry = strncmp(err, "--entry:", 8) == 0 || strstr(err, "the entry ") != NULL;
    if (strncmp(err, "--entry:", 8) == 0) memmove(err, err + 2, strlen(err + 2) + 1); /* the field's name, not the flag's */
    const char *msg = locate(err, &line, &col);
    cJSON *o = cJSON_CreateObject(), *e = cJSON_AddObjectToObject(o, "error");
    cJSON_AddStringToObject(e, "field", entry ? "entry" : "source");
    if (line) cJSON_AddNumberToObject(e, "line", (double)line);
    else cJSON_AddNullToObject(e, "line");
    if (col) cJSON_AddNumberToObject(e, "column", (double)col);
    else cJSON_AddNullToObject(e, "column");
    size_t n = strcspn(msg, "\n");
    char *first = strndup(msg, n);
    cJSON_AddStringToObject(e, "message", first ? first : msg);
    cJSON_AddStringToObject(e, "text", err);
    free(first);
    reply_json(r, 422, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

/* ---- the request's JSON ---- */

/* The body's JSON within a budget, before cJSON sees it: its values (a scalar, an array, an object
 * each one; a key is not) at most SERVE_JSON_VALUES, nested at most SERVE_JSON_DEPTH, and no NUL
 * in a string (\u0000 would cut it where C reads it). 0, or -1 with r filled (400). */
static int json_budget(const char *b, size_t n, serve_reply *r)
{
    size_t values = 0, depth = 0;
    int in_string = 0;
    for (size_t i = 0; i < n; i++) {
        char c = b[i];
        if (in_string) {
            if (c == '\\') {
                if (i + 5 < n && b[i + 1] == 'u' && !memcmp(b + i + 2, "0000", 4)) {
                    reply_error(r, 400, "a NUL character (\\u0000) in a string of the body: none is allowed");
                    return -1;
                }
                i++;
            } else if (c == '"') in_string = 0;
            continue;
        }
        if (c == '"') { in_string = 1; values++; continue; }
        if (c == ':') { values--; continue; } /* the string before it was a key */
        if (c == '[' || c == '{') {
            values++;
            if (++depth > SERVE_JSON_DEPTH) { reply_error(r, 400, "the body's JSON is nested deeper than %d", SERVE_JSON_DEPTH); return -1; }
        } else if (c == ']' || c == '}') {
            if (depth) depth--;
        } else if (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        } else if (!i || strchr(",[:{ \n\r\t", b[i - 1])) values++; /* a number, true, false, null begins */
        if (values > SERVE_JSON_VALUES) { reply_error(r, 400, "the body's JSON holds more than %d values", SERVE_JSON_VALUES); return -1; }
    }
    return 0;
}

/* Parses the body into an object: NULL with r filled (400) when it is not one. */
static cJSON *body_object(const serve_request *q, serve_reply *r)
{
    if (json_budget(q->body, q->len, r)) return NULL;
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithLengthOpts(q->body, q->len, &end, 0);
    if (!o) {
        reply_error(r, 400, "the body is not JSON (at byte %zu of %zu)", end && end >= q->body ? (size_t)(end - q->body) : 0, q->len);
        return NULL;
    }
    if (!cJSON_IsObject(o)) {
        reply_error(r, 400, "the body must be a JSON object");
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Every field of o is one of names (NULL-terminated): 0, or -1 with r filled (400). */
static int known_fields(const cJSON *o, const char *const *names, serve_reply *r)
{
    for (const cJSON *f = o->child; f; f = f->next) {
        size_t i = 0;
        while (names[i] && strcmp(names[i], f->string)) i++;
        if (names[i]) continue;
        char list[256] = "";
        for (size_t k = 0; names[k]; k++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", k ? ", " : "", names[k]);
        reply_error(r, 400, "unknown field \"%.64s\": the fields are %s", f->string, list);
        return -1;
    }
    return 0;
}

/* A string field: its text (NULL when absent and optional), or -1 with r filled. */
static int text_field(const cJSON *o, const char *name, int required, size_t max, const char **out, serve_reply *r)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    *out = NULL;
    if (!f || cJSON_IsNull(f)) {
        if (!required) return 0;
        reply_error(r, 400, "the field \"%s\" is missing", name);
        return -1;
    }
    if (!cJSON_IsString(f)) { reply_error(r, 400, "the field \"%s\" must be a string", name); return -1; }
    if (strlen(f->valuestring) > max) {
        reply_error(r, max == SERVE_SOURCE_MAX ? 413 : 400, "the field \"%s\" is %zu bytes, over the %zu allowed", name, strlen(f->valuestring), max);
        return -1;
    }
    *out = f->valuestring;
    return 0;
}

static int number_field(const cJSON *o, const char *name, double lo, double hi, double *out, serve_reply *r)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!f || cJSON_IsNull(f)) return 0;
    if (!cJSON_IsNumber(f) || f->valuedouble != (double)(long long)f->valuedouble || f->valuedouble < lo || f->valuedouble > hi) {
        reply_error(r, 400, "the field \"%s\" must be a whole number from %.0f to %.0f", name, lo, hi);
        return -1;
    }
    *out = f->valuedouble;
    return 0;
}

/* Text of the learner's (a name) is shown to a teacher: UTF-8, no control characters. */
static int plain_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p < 0x20 || *p == 0x7f) return 0;
        size_t n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
        if (!n || (n == 2 && *p < 0xC2)) return 0;
        for (size_t i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80) return 0;
        if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) return 0; /* C1 controls */
        /* overlong forms, UTF-16's surrogates, past U+10FFFF: not UTF-8 (RFC 3629) */
        if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) || (p[0] == 0xF0 && p[1] < 0x90) || p[0] > 0xF4 ||
            (p[0] == 0xF4 && p[1] >= 0x90))
            return 0;
        p += n;
    }
    return 1;
}

/* A student's name: 1 to SERVE_NAME_CHARS characters of UTF-8 text, no control characters, not
 * only spaces. */
static int name_ok(const char *name)
{
    if (!plain_text(name) || !name[strspn(name, " ")]) return 0;
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) chars += (*p & 0xC0) != 0x80;
    return chars >= 1 && chars <= SERVE_NAME_CHARS;
}

/* The names warpscope's own headers use in their code (the learner's build includes them after the
 * defines): a define of one of them would break a line of the header, so it is refused with the
 * field's name. Read once from the headers the build includes; their comments, strings and
 * characters are skipped (a word of a comment is no name: THREAD_PER_BLOCK, which the seeds define,
 * is only spoken of). */
static const char *const header_files[] = {"trace/capture/ws_cuda.h", "trace/capture/emu.h", "trace/capture/own/ws_user.h"};
static char *header_words;     /* " word word ... ": each name once, between spaces */
static pthread_mutex_t header_mu = PTHREAD_MUTEX_INITIALIZER;

static int is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

static int header_uses(serve_ctx *s, const char *name, size_t len)
{
    pthread_mutex_lock(&header_mu);
    if (!header_words) {
        size_t cap = 1 << 16, used = 1;
        header_words = calloc(1, cap);
        if (header_words) header_words[0] = ' ';
        for (size_t f = 0; header_words && f < sizeof header_files / sizeof header_files[0]; f++) {
            char path[sizeof s->include_dir + 64];
            snprintf(path, sizeof path, "%s/%s", s->include_dir, header_files[f]);
            FILE *in = fopen(path, "re");
            int c, prev = 0, state = 0; /* 0 code, 1 a // comment, 2 a comment, 3 a string, 4 a character */
            char w[80];
            size_t n = 0;
            while (in && (c = fgetc(in)) != EOF) {
                if (state == 0 && is_word((char)c) && (n || c < '0' || c > '9')) { /* a name's letters (a number's are skipped) */
                    if (n < sizeof w - 1) w[n] = (char)c;
                    n++;
                    prev = c;
                    continue;
                }
                if (n && n < sizeof w - 1) { /* a name ends */
                    char probe[84];
                    snprintf(probe, sizeof probe, " %.*s ", (int)n, w);
                    if (!strstr(header_words, probe) && used + n + 2 < cap) {
                        memcpy(header_words + used, probe + 1, n + 1);
                        used += n + 1;
                    }
                }
                if (state == 0 && is_word((char)c)) { while ((c = fgetc(in)) != EOF && is_word((char)c)) {} } /* a number */
                n = 0;
                if (c == EOF) break;
                if (state == 0 && prev == '/' && c == '/') state = 1;
                else if (state == 0 && prev == '/' && c == '*') { state = 2; c = 0; }
                else if (state == 0 && c == '"') state = 3;
                else if (state == 0 && c == '\'') state = 4;
                else if (state == 1 && c == '\n') state = 0;
                else if (state == 2 && prev == '*' && c == '/') { state = 0; c = 0; }
                else if ((state == 3 && c == '"') || (state == 4 && c == '\'')) state = 0;
                else if ((state == 3 || state == 4) && c == '\\') { fgetc(in); c = 0; } /* an escaped character */
                prev = c;
            }
            if (in) fclose(in);
        }
    }
    char probe[OWN_DEFINE_LEN + 3];
    snprintf(probe, sizeof probe, " %.*s ", (int)len, name);
    int used = header_words && strstr(header_words, probe) != NULL;
    pthread_mutex_unlock(&header_mu);
    return used;
}

/* defines: NAME or NAME=VALUE, NAME a C identifier that neither begins with _ (the compiler's) nor
 * is a name of warpscope's headers, VALUE without control characters. 0, or -1 with r filled (400). */
static int defines_ok(serve_ctx *s, const char *d, serve_reply *r)
{
    size_t n = 0;
    while (is_word(d[n])) n++;
    if (!n || (d[0] >= '0' && d[0] <= '9') || (d[n] && d[n] != '=')) {
        reply_error(r, 400, "the field \"defines\": \"%.60s\" is not NAME or NAME=VALUE (NAME a C identifier)", d);
        return -1;
    }
    if (d[0] == '_' || header_uses(s, d, n)) {
        reply_error(r, 400, "the field \"defines\": %.*s is a name warpscope's CUDA header uses (or the compiler's, beginning with _): choose another",
                    (int)(n < 64 ? n : 64), d);
        return -1;
    }
    if (!plain_text(d + n)) {
        reply_error(r, 400, "the field \"defines\": the value of %.*s holds a control character or is not UTF-8", (int)(n < 64 ? n : 64), d);
        return -1;
    }
    return 0;
}

/* ---- GET /api/health ---- */

void api_health(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    (void)q;
    cJSON *o = cJSON_CreateObject();
    char version[160], err[600];
    snprintf(version, sizeof version, "%s (%s)", ws_version, ws_commit);
    /* the record answers, or this instance cannot serve a student (a proxy's health check sees 503) */
    int up = record_ping(s->rec, err, sizeof err) == 0;
    cJSON_AddBoolToObject(o, "ok", up);
    if (!up) cJSON_AddStringToObject(o, "error", "the class record cannot be reached");
    cJSON_AddStringToObject(o, "version", version);
    cJSON_AddStringToObject(o, "sandbox", s->sandbox);
    cJSON_AddStringToObject(o, "record", s->rec->ops->name);
    pthread_mutex_lock(&s->mu);
    cJSON_AddNumberToObject(o, "workers", s->workers);
    cJSON_AddNumberToObject(o, "building", s->running);
    cJSON_AddNumberToObject(o, "tracing", s->light_running); /* runs of files built before */
    cJSON_AddNumberToObject(o, "waiting", s->waiting);
    cJSON_AddNumberToObject(o, "queue", s->queue_max);
    /* what it ran since it started, by kind: how many, and their time running (a class's build rate
     * is built.count over up_s; several servers behind a proxy each say their own) */
    static const char *const kinds[SERVE_JOB_KINDS] = {[SERVE_JOB_BUILT] = "built", [SERVE_JOB_CACHED] = "cached", [SERVE_JOB_CHECK] = "checked"};
    cJSON *ran = cJSON_AddObjectToObject(o, "ran");
    cJSON_AddNumberToObject(ran, "up_s", floor((now_ms() - s->started_ms) / 100.0) / 10.0);
    for (int k = 0; k < SERVE_JOB_KINDS; k++) {
        const serve_tally *t = &s->tally[k];
        cJSON *e = cJSON_AddObjectToObject(ran, kinds[k]);
        cJSON_AddNumberToObject(e, "count", (double)t->count);
        cJSON_AddNumberToObject(e, "mean_ms", t->count ? round(t->ms / (double)t->count) : 0);
        cJSON_AddNumberToObject(e, "max_ms", round(t->max_ms));
    }
    pthread_mutex_unlock(&s->mu);
    cJSON_AddNumberToObject(o, "source_max", SERVE_SOURCE_MAX);
    serve_gpu_health(s, o);
    reply_json(r, up ? 200 : 503, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

/* ---- POST /api/trace ---- */

/* The files whose cached run took SERVE_SLOW_RUN_MS or more (by their source and entry): a small
 * table, the oldest replaced. mark: 1 notes one, 0 asks. */
enum { SLOW_KEPT = 256 };
static uint64_t slow_keys[SLOW_KEPT];
static unsigned slow_next;
static pthread_mutex_t slow_mu = PTHREAD_MUTEX_INITIALIZER;

static int slow_run(uint64_t key, int mark)
{
    int found = 0;
    pthread_mutex_lock(&slow_mu);
    for (unsigned i = 0; i < SLOW_KEPT && !found; i++) found = slow_keys[i] == key;
    if (mark && !found) slow_keys[slow_next++ % SLOW_KEPT] = key;
    pthread_mutex_unlock(&slow_mu);
    return found;
}

void api_trace(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"source", "entry", "defines", "n", "block", "schedule", "data", "seed", NULL};
    cJSON *o = body_object(q, r);
    if (!o) return;
    const char *source, *entry, *schedule, *data;
    double n = 0, block = 0, seed = -1;
    static const char *const datas[] = {"ones", "ramp", "random-int", "random-float", "random-negative", NULL};
    if (known_fields(o, fields, r) || text_field(o, "source", 1, SERVE_SOURCE_MAX, &source, r) ||
        text_field(o, "entry", 1, 1024, &entry, r) || text_field(o, "schedule", 0, 64, &schedule, r) ||
        text_field(o, "data", 0, 32, &data, r) || number_field(o, "n", 1, SERVE_N_MAX, &n, r) ||
        number_field(o, "block", 1, 1024, &block, r) || number_field(o, "seed", 0, 4294967295.0, &seed, r)) {
        cJSON_Delete(o);
        return;
    }
    if (schedule && *schedule) {
        emu_schedule es;
        int adversarial;
        char err[300];
        if (schedule_parse(schedule, &es, &adversarial, err, sizeof err)) { reply_error(r, 400, "the field \"schedule\": %s", err); cJSON_Delete(o); return; }
    }
    if (data) {
        size_t i = 0;
        while (datas[i] && strcmp(datas[i], data)) i++;
        if (!datas[i]) { reply_error(r, 400, "the field \"data\" must be ones, ramp, random-int, random-float or random-negative"); cJSON_Delete(o); return; }
    }
    const char *defines[OWN_DEFINES_MAX + 1] = {NULL};
    const cJSON *df = cJSON_GetObjectItemCaseSensitive(o, "defines");
    if (df && !cJSON_IsNull(df)) {
        size_t nd = 0;
        const cJSON *e;
        if (!cJSON_IsArray(df) || cJSON_GetArraySize(df) > OWN_DEFINES_MAX) {
            reply_error(r, 400, "the field \"defines\" must be an array of at most %d strings NAME or NAME=VALUE", OWN_DEFINES_MAX);
            cJSON_Delete(o);
            return;
        }
        cJSON_ArrayForEach(e, df) {
            if (!cJSON_IsString(e) || !*e->valuestring || strlen(e->valuestring) >= OWN_DEFINE_LEN) {
                reply_error(r, 400, "the field \"defines\" must be an array of strings NAME or NAME=VALUE, each under %d bytes", OWN_DEFINE_LEN);
                cJSON_Delete(o);
                return;
            }
            if (defines_ok(s, e->valuestring, r)) { cJSON_Delete(o); return; }
            defines[nd++] = e->valuestring;
        }
    }
    learner_dir ld;
    int kept = learner_path(s, source, strlen(source), &ld);
    capture_desc d = {.version = OWN_VERSION, .kernel = ld.file, .entry = entry, .defines = defines, .include_dir = s->include_dir,
                      .n = (uint64_t)n, .block = (unsigned)block, .schedule = schedule && *schedule ? schedule : NULL, .data = data,
                      .seed = seed >= 0 ? (uint64_t)seed : 0, .seed_set = seed >= 0, .cancel = q->cancel};
    /* built before: a run, not queued behind builds; unless its run was slow before (a loop), which
     * then waits with the builds instead of holding a cached trace's place */
    uint64_t run_key = serve_fnv1a(serve_fnv1a(SERVE_FNV_BASIS, source, strlen(source)), entry, strlen(entry));
    serve_job kind = kept && own_capture_cached(&d) && !slow_run(run_key, 0) ? SERVE_JOB_CACHED : SERVE_JOB_BUILT;
    if (serve_job_begin(s, r, kind, q->cancel)) { cJSON_Delete(o); return; }
    if (!kept && serve_source_admit(s, q, strlen(source), r)) { serve_job_end(s, -1, kind); cJSON_Delete(o); return; }
    if (learner_write(s, source, strlen(source), &ld)) {
        int e = errno;
        serve_job_end(s, -1, kind);
        if (e == ENOSPC || e == EDQUOT) reply_disk_full(r);
        else reply_error(r, 500, "cannot keep the source: %s", strerror(e));
        cJSON_Delete(o);
        return;
    }
    double t0 = now_ms();
    trace t;
    trace_init(&t);
    char err[8192] = "";
    int rc = capture_own(&d, &t, err, sizeof err);
    double ms = now_ms() - t0;
    serve_job_end(s, ms, kind);
    if (kind == SERVE_JOB_CACHED && ms > SERVE_SLOW_RUN_MS) slow_run(run_key, 1);
    learner_remove(&ld);
    cJSON_Delete(o);
    if (rc) {
        trace_free(&t);
        if (*s->stop) { reply_error(r, 503, "the server is stopping"); return; }
        if (*q->cancel) { reply_error(r, 409, "this Run was replaced by your newer one"); return; }
        strip_dir(err, ld.dir);
        if (disk_full(err)) reply_disk_full(r);
        else if (strstr(err, SANDBOX_BUSY)) reply_busy(r, err); /* the machine's, for a moment */
        else if (strstr(err, LEARNER_FILE) || strncmp(err, "--entry", 7) == 0) reply_learner_error(r, err); /* the learner's */
        else reply_error(r, 500, "%s", err); /* the server's: a cache, a process that could not start */
        return;
    }
    snprintf(t.prov.source, sizeof t.prov.source, "%s", LEARNER_FILE);
    reply_json(r, 200, trace_to_json(&t));
    trace_free(&t);
    if (!r->body) reply_error(r, 500, "out of memory");
}

/* ---- POST /api/check ---- */

/* Checks judged before: the emulator is deterministic, so a file judged is judged the same again.
 * The last VERDICTS_KEPT judgements that every run finished (a run stopped by its wall clock on a
 * loaded machine is judged again), each with its exercise and the source's bytes compared whole,
 * answer a Check pressed again at once; the try is recorded as any other. */
/* The judgements of files judged before, kept in the record for every server of it (the least
 * recently used of VERDICTS_KEPT dropped), by the exercise, this build (a judgement is its judge's) and
 * the source's bytes, compared whole: a file that only shares a hash with another gets no verdict. */
enum { VERDICTS_KEPT = 256, VERDICT_SOURCE_MAX = 64 << 10 };

static void verdict_key(const char *exercise, const char *source, char *out, size_t len)
{
    uint64_t h = serve_fnv1a(SERVE_FNV_BASIS, source, strlen(source));
    snprintf(out, len, "%.128s %s %s %zu %016llx-%zu", exercise, ws_version, ws_commit, sizeof(exercise_judgement), (unsigned long long)h,
             strlen(source));
}

/* 1 with the judgement and its picture (malloc'd, may be NULL) when this exercise's file was judged before */
static int verdict_find(serve_ctx *s, const char *exercise, const char *source, exercise_judgement *j, char **picture)
{
    char key[400], err[600], *text = NULL;
    *picture = NULL;
    if (strlen(source) > VERDICT_SOURCE_MAX) return 0;
    verdict_key(exercise, source, key, sizeof key);
    if (record_verdict_find(s->rec, key, source, wall_ms(), &text, picture, err, sizeof err) != 1) return 0;
    /* the judgement as this build wrote it: its bytes in hex */
    int ok = strlen(text) == 2 * sizeof *j;
    unsigned char *b = (unsigned char *)j;
    for (size_t i = 0; ok && i < sizeof *j; i++) {
        unsigned v;
        ok = sscanf(text + 2 * i, "%2x", &v) == 1;
        b[i] = (unsigned char)v;
    }
    free(text);
    if (!ok || j->met > LESSON_GOALS_MAX) {
        memset(j, 0, sizeof *j);
        free(*picture);
        *picture = NULL;
        return 0;
    }
    j->error[sizeof j->error - 1] = 0;
    return 1;
}

static void verdict_keep(serve_ctx *s, const char *exercise, const char *source, const exercise_judgement *j, const char *picture)
{
    if (j->error[0] || strlen(source) > VERDICT_SOURCE_MAX) return;
    char key[400], err[600], *text = malloc(2 * sizeof *j + 1);
    if (!text) return;
    const unsigned char *b = (const unsigned char *)j;
    for (size_t i = 0; i < sizeof *j; i++) snprintf(text + 2 * i, 3, "%02x", b[i]);
    verdict_key(exercise, source, key, sizeof key);
    record_verdict_keep(s->rec, key, source, wall_ms(), text, picture, VERDICTS_KEPT, err, sizeof err); /* not kept: judged again next time */
    free(text);
}

/* The report of one file, as `exercise check --json` writes it (its "files" holds this file). */
static cJSON *check_report(serve_ctx *s, const lesson *l, const exercise_judgement *j)
{
    cJSON *report = cJSON_CreateObject(), *files = cJSON_CreateArray();
    cJSON_AddStringToObject(report, "exercise", l->id);
    cJSON_AddStringToObject(report, "sandbox", s->sandbox);
    cJSON_AddItemToObject(report, "files", files);
    cJSON_AddItemToArray(files, exercise_report_file(l, LEARNER_FILE, j));
    return report;
}

/* What identifies a judgement in the record: the goals met, each goal's state, whether it ran, the
 * error (the values measured and the run that broke a goal vary with the hidden input: a Check
 * pressed again with the same outcome is the same judgement). */
static char *judgement_key(const lesson_exercise *x, const exercise_judgement *j)
{
    char *key = NULL;
    char states[LESSON_GOALS_MAX + 2];
    size_t g = 0;
    for (; g < exercise_goal_count(x) && g < LESSON_GOALS_MAX + 1; g++) states[g] = (char)('0' + (int)j->marks[g].state);
    states[g] = 0;
    uint64_t h = serve_fnv1a(SERVE_FNV_BASIS, j->error, strlen(j->error));
    if (asprintf(&key, "%zu/%zu %s %d %016llx", j->met, exercise_goal_count(x), states, j->runs > 0, (unsigned long long)h) < 0) key = NULL;
    return key;
}

/* The answer to a check, and its try in the class record: takes j and picture. */
/* every goal on the trace met: the file is timed on the GPU where there is one */
static int trace_goals_met(const lesson *l, const exercise_judgement *j)
{
    const lesson_exercise *x = l->exercise;
    if (j->error[0] || !j->runs) return 0;
    for (size_t g = 0; g < x->ngoals; g++)
        if (j->marks[g].state != EXERCISE_MET) return 0;
    return 1;
}

/* the key of a source's bytes (the GPU's timings of the same bytes are the same) */
static void source_key(const char *source, char *out, size_t len)
{
    snprintf(out, len, "%016llx-%zu", (unsigned long long)serve_fnv1a(SERVE_FNV_BASIS, source, strlen(source)), strlen(source));
}

/* A judgement into the class record as the student's try (and to the course's gradebook, when the
 * student came from it): 0, or a RECORD_* refusal, or -1 with err. tr is what was recorded. */
int record_judgement(serve_ctx *s, int64_t class_id, const char *student, const lesson *l, const struct exercise_judgement *j, const char *picture,
                     const char *source, record_try *tr, char *err, size_t errlen)
{
    const lesson_exercise *x = l->exercise;
    int first_missed = -1;
    for (size_t g = 0; g < exercise_goal_count(x) && first_missed < 0; g++)
        if (j->marks[g].state != EXERCISE_MET) first_missed = (int)g;
    cJSON *report = check_report(s, l, j);
    char *report_text = cJSON_PrintUnformatted(report), *key = judgement_key(x, j);
    cJSON_Delete(report);
    *tr = (record_try){.class_id = class_id, .student = student, .exercise = l->id, .at_ms = wall_ms(), .met = (int)j->met,
                       .goals = (int)exercise_goal_count(x), .first_missed = first_missed, .ran = j->runs > 0, .error = j->error,
                       .judgement = key ? key : "", .report = report_text ? report_text : "{}", .trace = picture, .source = source};
    int rc = s->rec ? record_add(s->rec, tr, err, errlen) : -1;
    if (rc == 0) {
        lti_score(s, class_id, student, l->id, tr->met, tr->goals, tr->at_ms);
        for (size_t i = 0; i < sizeof serve_judged_hooks / sizeof serve_judged_hooks[0]; i++)
            if (serve_judged_hooks[i]) serve_judged_hooks[i](s, tr);
    }
    tr->judgement = tr->report = NULL; /* freed here: what stays is the numbers */
    free(key);
    free(report_text);
    return rc;
}

static void check_answer(serve_ctx *s, const serve_request *q, serve_reply *r, size_t exercise, exercise_judgement *j, char *picture,
                         const char *source, const char *file)
{
    const lesson *l = &s->ex[exercise].l;
    learner_dir kept; /* a judgement kept from before: the source is written again for the card where it was swept */
    if (!file && s->gpu && trace_goals_met(l, j) && learner_write(s, source, strlen(source), &kept) == 0) file = kept.file;
    const char *student = q->student;
    cJSON *report = check_report(s, l, j);
    record_try tr;
    char rerr[600];
    int rc = record_judgement(s, q->class_id, student, l, j, picture, source, &tr, rerr, sizeof rerr);
    if (rc == RECORD_STUDENT_FULL)
        reply_error(r, 403, "your record is full: %d different judgements kept; ask the teacher to remove your tries", RECORD_ROWS_PER_STUDENT);
    else if (rc == RECORD_BYTES_FULL)
        reply_error(r, 403, "the class record is full (%d MiB of pictures and sources): ask the teacher to remove tries or archive a class",
                    RECORD_BYTES_MAX >> 20);
    else if (rc) {
        fprintf(stderr, "warpscope: serve: a try of %s by a student was not recorded: %s\n", l->id, rerr);
        reply_error(r, 503, "the judgement was made but the class record could not be written (%s): try again", rerr);
    } else {
        cJSON_AddStringToObject(report, "student", student);
        cJSON_AddBoolToObject(report, "recorded", 1);
        if (s->gpu) { /* the card's timing, in its own queue: the page asks GET /api/gpu?id= for it */
            unsigned busy = 0;
            if (l->exercise->operation != LESSON_SUM) { /* bench checks every run on the card against a sum */
                cJSON *g = cJSON_AddObjectToObject(report, "gpu");
                cJSON_AddStringToObject(g, "state", "not-timed");
                cJSON_AddStringToObject(g, "why", "the card's timing checks a sum; this exercise's result is a maximum");
            } else if (trace_goals_met(l, j) && file) {
                char skey[48];
                source_key(source, skey, sizeof skey);
                serve_gpu_submit(s, q->class_id, student, exercise, file, skey, j, picture, source, report, &busy);
            } else {
                cJSON *g = cJSON_AddObjectToObject(report, "gpu");
                cJSON_AddStringToObject(g, "state", "not-timed");
                cJSON_AddStringToObject(g, "why", "a file is timed on the card once every goal on the trace is met");
            }
        }
        reply_json(r, 200, cJSON_PrintUnformatted(report));
    }
    cJSON_Delete(report);
    free(picture);
    free(j);
}

void api_check(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"exercise", "source", "student", NULL};
    cJSON *o = body_object(q, r);
    if (!o) return;
    const char *name, *source, *student; /* the student is the session's: a name sent must be its own */
    char number[24];
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(o, "exercise");
    if (cJSON_IsNumber(ex) && ex->valuedouble >= 0 && ex->valuedouble < 1000 && ex->valuedouble == (double)(int)ex->valuedouble) {
        snprintf(number, sizeof number, "%d", (int)ex->valuedouble); /* 2 as "2": an exercise's number */
        cJSON_ReplaceItemInObjectCaseSensitive(o, "exercise", cJSON_CreateString(number));
    }
    if (known_fields(o, fields, r) || text_field(o, "exercise", 1, SERVE_FIELD_MAX, &name, r) ||
        text_field(o, "source", 1, SERVE_SOURCE_MAX, &source, r) || text_field(o, "student", 0, 4 * SERVE_NAME_CHARS, &student, r)) {
        cJSON_Delete(o);
        return;
    }
    if (student && strcmp(student, q->student)) {
        reply_error(r, 400, "the field \"student\": you joined the class as %s (a try is always the session's)", q->student);
        cJSON_Delete(o);
        return;
    }
    char err[8192];
    long i = lesson_match(s->ex_files, s->nex, name, "exercise", err, sizeof err);
    if (i < 0) {
        for (size_t k = 0; k < s->nex; k++) strip_dir(err, s->ex[k].path); /* the exercises by name, not by the server's paths */
        reply_error(r, 400, "the field \"exercise\": %s", err);
        cJSON_Delete(o);
        return;
    }
    const lesson *l = &s->ex[i].l;
    exercise_judgement *j = calloc(1, sizeof *j);
    char *picture = NULL; /* the exercise's own capture of the file: the picture the teacher opens */
    if (!j) { reply_error(r, 500, "out of memory"); cJSON_Delete(o); return; }
    if (verdict_find(s, l->id, source, j, &picture)) { check_answer(s, q, r, (size_t)i, j, picture, source, NULL); cJSON_Delete(o); return; }
    learner_dir ld;
    if (serve_job_begin(s, r, SERVE_JOB_CHECK, q->cancel)) { free(j); cJSON_Delete(o); return; }
    if (!learner_path(s, source, strlen(source), &ld) && serve_source_admit(s, q, strlen(source), r)) {
        serve_job_end(s, -1, SERVE_JOB_CHECK);
        free(j);
        cJSON_Delete(o);
        return;
    }
    if (learner_write(s, source, strlen(source), &ld)) {
        int e = errno;
        serve_job_end(s, -1, SERVE_JOB_CHECK);
        if (e == ENOSPC || e == EDQUOT) reply_disk_full(r);
        else reply_error(r, 500, "cannot keep the source: %s", strerror(e));
        free(j);
        cJSON_Delete(o);
        return;
    }
    double t0 = now_ms();
    trace t; /* the picture, made in the check's sandbox with its runs */
    int rc = exercise_judge_pictured(l, ld.file, s->include_dir, q->cancel, j, &t, err, sizeof err);
    if (rc == 0 && j->runs > 0 && !*s->stop && t.nevents) {
        snprintf(t.prov.source, sizeof t.prov.source, "%s", LEARNER_FILE);
        picture = trace_to_json(&t);
    }
    trace_free(&t);
    serve_job_end(s, now_ms() - t0, SERVE_JOB_CHECK);
    learner_remove(&ld);
    if (rc || *s->stop || *q->cancel) {
        if (*s->stop || *q->cancel) reply_error(r, 503, "the server is stopping");
        else if (disk_full(err)) reply_disk_full(r);
        else if (strstr(err, SANDBOX_BUSY)) reply_busy(r, err);
        else reply_error(r, 500, "the exercise could not be judged: %s", err);
        free(j);
        free(picture);
        cJSON_Delete(o);
        return;
    }
    strip_dir(j->error, ld.dir);
    if (disk_full(j->error)) { /* the build could not be kept: the server's, not a verdict on the file */
        reply_disk_full(r);
        free(j);
        free(picture);
        cJSON_Delete(o);
        return;
    }
    if (!*s->stop && picture) verdict_keep(s, l->id, source, j, picture);
    check_answer(s, q, r, (size_t)i, j, picture, source, ld.file);
    cJSON_Delete(o);
}

/* POST /api/gpu {"exercise", "source"}: a file judged solved before, timed on the card again (the
 * page's "time it again" after the queue was full): 202 with the timing's id, 409 when the file is
 * not one whose every trace goal was met, 429 with a Retry-After when the card's queue is full, 404
 * where this server has no GPU. */
void api_gpu_time(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"exercise", "source", NULL};
    if (!s->gpu) { reply_error(r, 404, "this server has no GPU: a Check is judged on the trace only"); return; }
    cJSON *o = body_object(q, r);
    if (!o) return;
    const char *name, *source;
    if (known_fields(o, fields, r) || text_field(o, "exercise", 1, SERVE_FIELD_MAX, &name, r) ||
        text_field(o, "source", 1, SERVE_SOURCE_MAX, &source, r)) {
        cJSON_Delete(o);
        return;
    }
    char err[8192];
    long i = lesson_match(s->ex_files, s->nex, name, "exercise", err, sizeof err);
    if (i < 0) {
        for (size_t k = 0; k < s->nex; k++) strip_dir(err, s->ex[k].path);
        reply_error(r, 400, "the field \"exercise\": %s", err);
        cJSON_Delete(o);
        return;
    }
    const lesson *l = &s->ex[i].l;
    exercise_judgement *j = calloc(1, sizeof *j);
    char *picture = NULL;
    learner_dir ld;
    if (l->exercise->operation != LESSON_SUM) {
        reply_error(r, 409, "the card's timing checks a sum; this exercise's result is a maximum");
    } else if (!j || !verdict_find(s, l->id, source, j, &picture) || !trace_goals_met(l, j)) {
        reply_error(r, 409, "only a file whose every goal on the trace is met is timed on the card: press Check first");
    } else if (learner_write(s, source, strlen(source), &ld)) {
        reply_error(r, 500, "cannot keep the source: %s", strerror(errno));
    } else {
        cJSON *answer = cJSON_CreateObject();
        char key[48];
        unsigned busy = 0;
        source_key(source, key, sizeof key);
        if (serve_gpu_submit(s, q->class_id, q->student, (size_t)i, ld.file, key, j, picture, source, answer, &busy)) {
            reply_error(r, 429, "the card's queue is full: try again in %u s", busy);
            snprintf(r->value_buf, sizeof r->value_buf, "%u", busy);
            r->header = MHD_HTTP_HEADER_RETRY_AFTER;
            r->value = r->value_buf;
        } else
            reply_json(r, 202, cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(answer, "gpu")));
        cJSON_Delete(answer);
    }
    free(j);
    free(picture);
    cJSON_Delete(o);
}

/* ---- who asks: the teacher, a student ---- */

void serve_secret(char *out)
{
    unsigned char raw[SERVE_SESSION_HEX / 2];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t k = getrandom(raw + got, sizeof raw - got, 0);
        if (k > 0) got += (size_t)k;
    }
    for (size_t i = 0; i < sizeof raw; i++) snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

/* a and b equal, in time that does not depend on where they differ */
static int same_secret(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < n; i++) diff |= (unsigned char)(a[i] ^ (i < m ? b[i] : 0));
    return diff == 0;
}

/* The teacher: "Authorization: Bearer TOKEN" (scripts), or the cookie of a sign-in at /class (the
 * page). Never a token in an address: a projector shows the address bar. */
int serve_teacher(serve_ctx *s, const serve_request *q)
{
    const char *h = q->header(q->conn, MHD_HTTP_HEADER_AUTHORIZATION);
    if (h && strncmp(h, "Bearer ", 7) == 0) return same_secret(s->token, h + 7);
    const char *c = MHD_lookup_connection_value(q->conn, MHD_COOKIE_KIND, "ws_teacher");
    int yes = 0;
    char err[300];
    if (c && strlen(c) == SERVE_SESSION_HEX && strspn(c, "0123456789abcdef") == SERVE_SESSION_HEX)
        record_teacher_is(s->rec, c, wall_ms(), &yes, err, sizeof err);
    return yes;
}

/* a cookie the page's scripts cannot read and no other site's request carries; Secure behind TLS */
void serve_set_cookie(const serve_request *q, serve_reply *r, const char *name, const char *value, int max_age_s)
{
    snprintf(r->cookie, sizeof r->cookie, "%s=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d%s", name, value, max_age_s, q->tls ? "; Secure" : "");
}

/* POST /api/class/signin {"token": T}: the teacher's cookie for a day */
void api_class_signin(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"token", NULL};
    cJSON *o = body_object(q, r);
    const char *token;
    if (!o) return;
    if (known_fields(o, fields, r) || text_field(o, "token", 1, 200, &token, r)) { cJSON_Delete(o); return; }
    int ok = same_secret(s->token, token);
    cJSON_Delete(o);
    if (!ok) { reply_error(r, 401, "that is not the class's token (warpscope serve printed it, or was given it with --token)"); return; }
    char secret[SERVE_SESSION_HEX + 1], err[600];
    serve_secret(secret);
    if (record_teacher_add(s->rec, secret, wall_ms(), err, sizeof err)) { reply_error(r, 503, "the class record could not be written: %s", err); return; }
    serve_set_cookie(q, r, "ws_teacher", secret, 12 * 3600);
    reply_json(r, 200, strdup("{\"signed_in\": true}\n"));
}

/* POST /api/class/signout: the sign-in of this browser ends (its cookie cleared, its row gone) */
void api_class_signout(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    const char *c = MHD_lookup_connection_value(q->conn, MHD_COOKIE_KIND, "ws_teacher");
    char err[600];
    if (c && strlen(c) == SERVE_SESSION_HEX && strspn(c, "0123456789abcdef") == SERVE_SESSION_HEX && record_teacher_end(s->rec, c, err, sizeof err)) {
        reply_error(r, 503, "the class record could not be written: %s", err);
        return;
    }
    serve_set_cookie(q, r, "ws_teacher", "", 0);
    reply_json(r, 200, strdup("{\"signed_in\": false}\n"));
}

int serve_student_begin(serve_ctx *s, const serve_request *q, serve_reply *r, const char *code, const char *name, int64_t *class_id, char *err,
                        size_t errlen)
{
    /* always a new session id: one the browser brought may be one an attacker chose (fixation) */
    char secret[SERVE_SESSION_HEX + 1];
    serve_secret(secret);
    int rc = record_join(s->rec, code, name, secret, q->session, wall_ms(), class_id, err, errlen);
    if (rc == 0) serve_set_cookie(q, r, "ws_session", secret, 30 * 86400);
    return rc;
}

/* POST /api/join {"name": NAME, "code": CODE}: the student's session (a cookie), their name taken
 * in the open class whose code it is ("" or none: the class without a code) */
void api_join(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"name", "code", NULL};
    cJSON *o = body_object(q, r);
    const char *name, *code;
    if (!o) return;
    if (known_fields(o, fields, r) || text_field(o, "name", 1, 4 * SERVE_NAME_CHARS, &name, r) || text_field(o, "code", 0, 64, &code, r)) {
        cJSON_Delete(o);
        return;
    }
    if (!name_ok(name)) {
        reply_error(r, 400, "the field \"name\" must be 1 to %d characters of UTF-8 text, without control characters", SERVE_NAME_CHARS);
        cJSON_Delete(o);
        return;
    }
    if (serve_join_admit(s, q, code ? code : "", r)) { cJSON_Delete(o); return; }
    int64_t cls = 0;
    char err[600];
    int rc = serve_student_begin(s, q, r, code ? code : "", name, &cls, err, sizeof err);
    static const struct {
        int rc;
        unsigned status;
        const char *say;
    } refusals[] = {
        {RECORD_NO_CLASS, 404, "no class is open with that code: ask the teacher for it"},
        {RECORD_NAME_TAKEN, 409, "another student of this class joined with that name: add your family name or a number"},
        {RECORD_NOT_ON_ROSTER, 403, "that name is not on the class's roster: write it as the teacher's list has it"},
        {RECORD_CLASS_FULL, 403, "the class is full"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        if (rc == refusals[i].rc) { reply_error(r, refusals[i].status, "%s", refusals[i].say); cJSON_Delete(o); return; }
    if (rc) { reply_error(r, 503, "the class record could not be written: %s", err); cJSON_Delete(o); return; }
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "name", name);
    cJSON_AddNumberToObject(a, "class", (double)cls);
    cJSON_Delete(o);
    reply_json(r, 200, cJSON_PrintUnformatted(a));
    cJSON_Delete(a);
}

/* ---- the teacher's view ---- */

typedef struct class_build {
    serve_ctx *s;
    cJSON *students, *current;
    char name[4 * SERVE_NAME_CHARS + 1];
} class_build;

static const lesson *exercise_by_id(serve_ctx *s, const char *id)
{
    for (size_t i = 0; i < s->nex; i++)
        if (strcmp(s->ex[i].l.id, id) == 0) return &s->ex[i].l;
    return NULL;
}

static void add_row(void *ud, const record_row *row)
{
    class_build *b = ud;
    if (!b->current || strcmp(b->name, row->student)) {
        cJSON *st = cJSON_CreateObject();
        cJSON_AddStringToObject(st, "name", row->student);
        b->current = cJSON_AddArrayToObject(st, "exercises");
        cJSON_AddItemToArray(b->students, st);
        snprintf(b->name, sizeof b->name, "%s", row->student);
    }
    if (!row->exercise) return; /* joined, tried nothing yet */
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "exercise", row->exercise);
    cJSON_AddNumberToObject(e, "met", row->met);
    cJSON_AddNumberToObject(e, "goals", row->goals);
    cJSON_AddBoolToObject(e, "solved", row->met == row->goals);
    cJSON_AddBoolToObject(e, "ran", row->ran);
    const lesson *l = exercise_by_id(b->s, row->exercise);
    if (row->first_missed >= 0 && l && (size_t)row->first_missed < exercise_goal_count(l->exercise)) {
        cJSON *m = cJSON_AddObjectToObject(e, "first_missed");
        cJSON_AddNumberToObject(m, "index", row->first_missed);
        for (int lang = 0; lang < LESSON_LANGS; lang++) {
            char words[300];
            if ((size_t)row->first_missed < l->exercise->ngoals)
                snprintf(words, sizeof words, "%s", l->exercise->goals[row->first_missed].say.s[lang]);
            else
                exercise_card_goal(l->exercise, (lesson_lang)lang, words, sizeof words); /* the card's goal comes last */
            cJSON_AddStringToObject(m, lesson_lang_keys[lang], words);
        }
    } else cJSON_AddNullToObject(e, "first_missed");
    char when[40];
    time_t secs = (time_t)(row->at_ms / 1000);
    struct tm tmv;
    gmtime_r(&secs, &tmv);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    cJSON_AddStringToObject(e, "last_try", when);
    cJSON_AddNumberToObject(e, "last_try_ms", (double)row->at_ms);
    cJSON_AddNumberToObject(e, "tries", row->tries);
    cJSON_AddItemToArray(b->current, e);
}

typedef struct classes_build {
    cJSON *list;
    int64_t want;    /* the class asked for (0: the open one, else the newest) */
    cJSON *chosen;
} classes_build;

static void add_class(void *ud, const record_class *c)
{
    classes_build *b = ud;
    cJSON *k = cJSON_CreateObject();
    cJSON_AddNumberToObject(k, "id", (double)c->id);
    cJSON_AddStringToObject(k, "code", c->code);
    cJSON_AddStringToObject(k, "roster", c->roster);
    cJSON_AddStringToObject(k, "state", c->state);
    cJSON_AddNumberToObject(k, "opened_ms", (double)c->opened_ms);
    cJSON_AddNumberToObject(k, "students", c->students);
    cJSON_AddItemToArray(b->list, k);
    if (b->want == c->id) b->chosen = k;
}

/* the class a teacher's request names (?class=ID, or "class" in its body): 0 for the open one */
static int64_t class_named(const serve_request *q, const cJSON *body)
{
    const cJSON *f = body ? cJSON_GetObjectItemCaseSensitive(body, "class") : NULL;
    if (cJSON_IsNumber(f) && f->valuedouble >= 1 && f->valuedouble < 1e15) return (int64_t)f->valuedouble;
    const char *a = q->arg(q->conn, "class");
    return a && strspn(a, "0123456789") == strlen(a) && strlen(a) < 16 ? strtoll(a, NULL, 10) : 0;
}

static void newest_class(void *ud, const record_class *c)
{
    int64_t *newest = ud;
    if (!*newest) *newest = c->id; /* the list is newest first */
}

/* which class: the one named, else the open one, else the newest; 0 when there is none */
static int64_t class_which(serve_ctx *s, int64_t named, char *err, size_t errlen, int *fail);
int64_t serve_class_asked(serve_ctx *s, const serve_request *q, int *fail)
{
    char err[600];
    return class_which(s, class_named(q, NULL), err, sizeof err, fail);
}

static int64_t class_which(serve_ctx *s, int64_t named, char *err, size_t errlen, int *fail)
{
    int64_t open_id = 0, newest = 0;
    *fail = record_classes(s->rec, newest_class, &newest, &open_id, err, errlen) != 0;
    return named ? named : open_id ? open_id : newest;
}

void api_class(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    cJSON *o = cJSON_CreateObject(), *exs = cJSON_AddArrayToObject(o, "exercises");
    for (size_t i = 0; i < s->nex; i++) {
        const lesson *l = &s->ex[i].l;
        cJSON *e = cJSON_CreateObject(), *t = cJSON_AddObjectToObject(e, "title"), *goals = cJSON_AddArrayToObject(e, "goals");
        cJSON_AddStringToObject(e, "id", l->id);
        cJSON_AddStringToObject(t, "en", l->title.s[LESSON_EN]);
        cJSON_AddStringToObject(t, "zh", l->title.s[LESSON_ZH]);
        for (size_t g = 0; g < exercise_goal_count(l->exercise); g++) {
            cJSON *gg = cJSON_CreateObject();
            for (int lang = 0; lang < LESSON_LANGS; lang++) {
                char words[300];
                if (g < l->exercise->ngoals) snprintf(words, sizeof words, "%s", l->exercise->goals[g].say.s[lang]);
                else exercise_card_goal(l->exercise, (lesson_lang)lang, words, sizeof words);
                cJSON_AddStringToObject(gg, lesson_lang_keys[lang], words);
            }
            cJSON_AddItemToArray(goals, gg);
        }
        cJSON_AddItemToArray(exs, e);
    }
    char err[600];
    int fail;
    classes_build cb = {.list = cJSON_AddArrayToObject(o, "classes")};
    cb.want = class_which(s, class_named(q, NULL), err, sizeof err, &fail);
    class_build b = {.s = s, .students = cJSON_AddArrayToObject(o, "students")};
    if (fail || record_classes(s->rec, add_class, &cb, NULL, err, sizeof err) ||
        (cb.want && record_list(s->rec, cb.want, add_row, &b, err, sizeof err))) {
        cJSON_Delete(o);
        reply_error(r, 503, "the class record could not be read: %s", err);
        return;
    }
    if (cb.chosen) cJSON_AddItemReferenceToObject(o, "class", cb.chosen);
    else cJSON_AddNullToObject(o, "class");
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

/* GET /api/class/last and /api/class/source ?student=NAME&exercise=ID[&class=ID]: the picture (a
 * trace) or the source of that student's latest try */
static void class_part(serve_ctx *s, const serve_request *q, serve_reply *r, const char *what)
{
    const char *student = q->arg(q->conn, "student"), *exercise = q->arg(q->conn, "exercise");
    if (!student || !exercise) { reply_error(r, 400, "give ?student=NAME&exercise=ID"); return; }
    char *text = NULL, err[600];
    int fail;
    int64_t cls = class_which(s, class_named(q, NULL), err, sizeof err, &fail);
    if (fail || record_last(s->rec, cls, student, exercise, what, &text, err, sizeof err)) {
        reply_error(r, 503, "the class record could not be read: %s", err);
        return;
    }
    if (!text) { reply_error(r, 404, "no %s of %.64s's last try of %.64s (it did not run?)", what, student, exercise); return; }
    if (strcmp(what, "picture") == 0) { reply_json(r, 200, text); return; }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "student", student);
    cJSON_AddStringToObject(o, "exercise", exercise);
    cJSON_AddStringToObject(o, "source", text);
    free(text);
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

void api_class_last(serve_ctx *s, const serve_request *q, serve_reply *r) { class_part(s, q, r, "picture"); }
void api_class_source(serve_ctx *s, const serve_request *q, serve_reply *r) { class_part(s, q, r, "source"); }

/* POST /api/class/open {"code": CODE, "roster": [NAME...]}: a new class, the others closed. A code
 * of letters and digits (none given: six made here; "": anyone who reaches the server joins);
 * a roster: the names that may join (none: any name). */
void api_class_open(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"code", "roster", NULL};
    cJSON *o = body_object(q, r);
    const char *code;
    if (!o) return;
    if (known_fields(o, fields, r) || text_field(o, "code", 0, 32, &code, r)) { cJSON_Delete(o); return; }
    char made[8];
    if (!code) { /* letters and digits no one misreads on a projector */
        static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        unsigned char raw[6];
        while (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {}
        for (size_t i = 0; i < sizeof raw; i++) made[i] = alphabet[raw[i] % (sizeof alphabet - 1)];
        made[6] = 0;
        code = made;
    }
    if (strspn(code, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != strlen(code)) {
        reply_error(r, 400, "the field \"code\": letters and digits, at most 32");
        cJSON_Delete(o);
        return;
    }
    char *roster = calloc(1, 1);
    size_t rlen = 0;
    const cJSON *ro = cJSON_GetObjectItemCaseSensitive(o, "roster"), *e;
    if (ro && !cJSON_IsNull(ro) && !cJSON_IsArray(ro)) { reply_error(r, 400, "the field \"roster\" must be an array of names"); goto out; }
    cJSON_ArrayForEach(e, ro) {
        if (!cJSON_IsString(e) || !name_ok(e->valuestring)) {
            reply_error(r, 400, "the field \"roster\": each name 1 to %d characters of UTF-8 text, without control characters", SERVE_NAME_CHARS);
            goto out;
        }
        size_t n = strlen(e->valuestring);
        char *grown = realloc(roster, rlen + n + 2);
        if (!grown) { reply_error(r, 500, "out of memory"); goto out; }
        roster = grown;
        memcpy(roster + rlen, e->valuestring, n);
        rlen += n;
        roster[rlen++] = '\n';
        roster[rlen] = 0;
    }
    int64_t id;
    char err[600];
    if (record_class_open(s->rec, code, roster, wall_ms(), &id, err, sizeof err)) reply_error(r, 503, "the class record could not be written: %s", err);
    else {
        cJSON *a = cJSON_CreateObject();
        cJSON_AddNumberToObject(a, "id", (double)id);
        cJSON_AddStringToObject(a, "code", code);
        reply_json(r, 200, cJSON_PrintUnformatted(a));
        cJSON_Delete(a);
    }
out:
    free(roster);
    cJSON_Delete(o);
}

/* POST /api/class/state {"class": ID, "state": "open" | "closed" | "archived"} */
void api_class_state(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"class", "state", NULL}, *const states[] = {"open", "closed", "archived"};
    cJSON *o = body_object(q, r);
    const char *state;
    if (!o) return;
    if (known_fields(o, fields, r) || text_field(o, "state", 1, 16, &state, r)) { cJSON_Delete(o); return; }
    size_t i = 0;
    while (i < 3 && strcmp(states[i], state)) i++;
    char err[600];
    int fail;
    int64_t cls = class_which(s, class_named(q, o), err, sizeof err, &fail);
    if (i == 3) reply_error(r, 400, "the field \"state\" is open, closed or archived");
    else if (fail || !cls) reply_error(r, 404, "no such class");
    else if (record_class_state(s->rec, cls, states[i], err, sizeof err)) reply_error(r, 503, "the class record could not be written: %s", err);
    else {
        char *a = NULL;
        if (asprintf(&a, "{\"class\": %lld, \"state\": \"%s\"}\n", (long long)cls, states[i]) < 0) a = NULL;
        reply_json(r, 200, a);
    }
    cJSON_Delete(o);
}

/* POST /api/class/remove {"class": ID, "student": NAME}: the student gone from the class: their tries,
 * their session (their next request is a stranger's) and their name (free for another to join with) */
void api_class_remove(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"class", "student", NULL};
    cJSON *o = body_object(q, r);
    const char *student;
    if (!o) return;
    if (known_fields(o, fields, r) || text_field(o, "student", 1, 4 * SERVE_NAME_CHARS, &student, r)) { cJSON_Delete(o); return; }
    char err[600];
    int fail;
    int64_t n = 0, cls = class_which(s, class_named(q, o), err, sizeof err, &fail);
    if (fail || !cls) reply_error(r, 404, "no such class");
    else if (record_remove_student(s->rec, cls, student, &n, err, sizeof err) || lti_forget(s, cls, student, err, sizeof err))
        reply_error(r, 503, "the class record could not be written: %s", err);
    else {
        cJSON *a = cJSON_CreateObject();
        cJSON_AddStringToObject(a, "student", student);
        cJSON_AddNumberToObject(a, "removed", (double)n);
        reply_json(r, 200, cJSON_PrintUnformatted(a));
        cJSON_Delete(a);
    }
    cJSON_Delete(o);
}

typedef struct class_code {
    int64_t id;
    char code[64];
} class_code;

static void code_of(void *ud, const record_class *c)
{
    class_code *k = ud;
    if (c->id == k->id) snprintf(k->code, sizeof k->code, "%s", c->code);
}

/* GET /api/class/grades.csv[?class=ID]: the class's grades as CSV (grades.c), a file to save */
void api_class_grades(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    char err[600];
    int fail;
    class_code k = {.id = class_which(s, class_named(q, NULL), err, sizeof err, &fail)};
    if (fail || !k.id) { reply_error(r, 404, "no such class"); return; }
    if (record_classes(s->rec, code_of, &k, NULL, err, sizeof err) ||
        !(r->body = grades_csv(s->rec, k.id, k.code, s->ex, s->nex, &r->len, err, sizeof err))) {
        reply_error(r, 503, "the class record could not be read: %s", err);
        return;
    }
    r->status = 200;
    r->type = "text/csv; charset=utf-8";
    r->header = "Content-Disposition";
    snprintf(r->value_buf, sizeof r->value_buf, "attachment; filename=\"class-%lld.csv\"", (long long)k.id);
    r->value = r->value_buf;
}

/* GET /class: the teacher's page once signed in, else the form that signs in (the token typed, sent
 * in a POST's body, never in an address) */
void api_class_page(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    const char *lang = q->arg(q->conn, "lang");
    int zh = lang && strcmp(lang, "zh") == 0;
    r->status = 200;
    r->type = "text/html; charset=utf-8";
    r->body = class_page_html(serve_teacher(s, q), zh, &r->len);
    if (!r->body) reply_error(r, 500, "out of memory");
}

/* ---- the page ---- */

void api_page(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    const char *name = q->path + 1;
    if (!*name) name = "index.html";
    for (size_t i = 0; i < s->nfiles; i++) {
        if (strcmp(s->files[i].name, name)) continue;
        const char *held = q->header(q->conn, MHD_HTTP_HEADER_IF_NONE_MATCH);
        r->etag = s->files[i].etag;
        r->body_static = 1;
        if (held && strstr(held, s->files[i].etag)) { /* the browser's copy is this one */
            r->status = 304;
            return;
        }
        r->status = 200;
        r->type = s->files[i].type;
        r->body = (char *)s->files[i].data;
        r->len = s->files[i].len;
        return;
    }
    if (strcmp(name, "index.html") == 0) {
        r->status = 503;
        r->type = "text/html; charset=utf-8";
        if (asprintf(&r->body, "<!doctype html><meta charset=utf-8><title>warpscope</title><p>warpscope serve: %s.\n<p>%s\n",
                     s->page_note[0] ? s->page_note : "the page is not here", "/api/health, /api/trace, /api/check and /class answer.") < 0)
            r->body = NULL;
        r->len = r->body ? strlen(r->body) : 0;
        return;
    }
    reply_error(r, 404, "/%s: no such file of the page", name);
}
