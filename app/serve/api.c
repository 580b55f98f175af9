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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/cmd/cmd.h"
#include "app/serve/serve.h"
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

static int learner_write(serve_ctx *s, const char *source, size_t len, learner_dir *ld)
{
    static unsigned seq;
    uint64_t a = serve_fnv1a(SERVE_FNV_BASIS, source, len), b = serve_fnv1a(0x9e3779b97f4a7c15ull, source, len);
    snprintf(ld->dir, sizeof ld->dir, "%s/%016llx%016llx-%zu", s->sources, (unsigned long long)a, (unsigned long long)b, len);
    snprintf(ld->file, sizeof ld->file, "%s/" LEARNER_FILE, ld->dir);
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

/* Parses the body into an object: NULL with r filled (400) when it is not one. */
static cJSON *body_object(const serve_request *q, serve_reply *r)
{
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
        p += n;
    }
    return 1;
}

/* ---- GET /api/health ---- */

void api_health(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    (void)q;
    cJSON *o = cJSON_CreateObject();
    char version[160];
    snprintf(version, sizeof version, "%s (%s)", ws_version, ws_commit);
    cJSON_AddBoolToObject(o, "ok", 1);
    cJSON_AddStringToObject(o, "version", version);
    cJSON_AddStringToObject(o, "sandbox", s->sandbox);
    cJSON_AddStringToObject(o, "record", s->rec->ops->name);
    pthread_mutex_lock(&s->mu);
    cJSON_AddNumberToObject(o, "workers", s->workers);
    cJSON_AddNumberToObject(o, "building", s->running);
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
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

/* ---- POST /api/trace ---- */

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
            defines[nd++] = e->valuestring;
        }
    }
    learner_dir ld;
    if (learner_write(s, source, strlen(source), &ld)) { reply_error(r, 500, "cannot write the source: %s", strerror(errno)); cJSON_Delete(o); return; }
    capture_desc d = {.version = OWN_VERSION, .kernel = ld.file, .entry = entry, .defines = defines, .include_dir = s->include_dir,
                      .n = (uint64_t)n, .block = (unsigned)block, .schedule = schedule && *schedule ? schedule : NULL, .data = data,
                      .seed = seed >= 0 ? (uint64_t)seed : 0, .seed_set = seed >= 0, .cancel = s->stop};
    serve_job kind = own_capture_cached(&d) ? SERVE_JOB_CACHED : SERVE_JOB_BUILT; /* built before: a run, not queued behind builds */
    if (serve_job_begin(s, r, kind)) { learner_remove(&ld); cJSON_Delete(o); return; }
    double t0 = now_ms();
    trace t;
    trace_init(&t);
    char err[8192] = "";
    int rc = capture_own(&d, &t, err, sizeof err);
    serve_job_end(s, now_ms() - t0, kind);
    learner_remove(&ld);
    cJSON_Delete(o);
    if (rc) {
        trace_free(&t);
        if (*s->stop) { reply_error(r, 503, "the server is stopping"); return; }
        strip_dir(err, ld.dir);
        if (strstr(err, SANDBOX_BUSY)) reply_busy(r, err); /* the machine's, for a moment */
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
enum { VERDICTS_KEPT = 64, VERDICT_SOURCE_MAX = 64 << 10 };
typedef struct verdict {
    char exercise[128];
    char *source;        /* NULL: an empty place */
    exercise_judgement j;
    char *picture;       /* the exercise's own capture, as JSON (may be NULL) */
    uint64_t used;
} verdict;
static verdict verdicts[VERDICTS_KEPT];
static uint64_t verdicts_clock;
static pthread_mutex_t verdicts_mu = PTHREAD_MUTEX_INITIALIZER;

/* 1 with the judgement and a copy of its picture when this exercise's file was judged before */
static int verdict_find(const char *exercise, const char *source, exercise_judgement *j, char **picture)
{
    int found = 0;
    pthread_mutex_lock(&verdicts_mu);
    for (int i = 0; i < VERDICTS_KEPT && !found; i++) {
        verdict *v = &verdicts[i];
        if (!v->source || strcmp(v->exercise, exercise) || strcmp(v->source, source)) continue;
        *j = v->j;
        *picture = v->picture ? strdup(v->picture) : NULL;
        v->used = ++verdicts_clock;
        found = 1;
    }
    pthread_mutex_unlock(&verdicts_mu);
    return found;
}

static void verdict_keep(const char *exercise, const char *source, const exercise_judgement *j, const char *picture)
{
    if (j->error[0] || strlen(source) > VERDICT_SOURCE_MAX || strlen(exercise) >= sizeof verdicts[0].exercise) return;
    pthread_mutex_lock(&verdicts_mu);
    verdict *v = &verdicts[0];
    for (int i = 1; i < VERDICTS_KEPT && v->source; i++) /* an empty place, else the least recently used */
        if (!verdicts[i].source || verdicts[i].used < v->used) v = &verdicts[i];
    free(v->source);
    free(v->picture);
    snprintf(v->exercise, sizeof v->exercise, "%s", exercise);
    v->source = strdup(source);
    v->picture = picture ? strdup(picture) : NULL;
    v->j = *j;
    v->used = ++verdicts_clock;
    pthread_mutex_unlock(&verdicts_mu);
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

/* The answer to a check, and its try in the class record: takes j and picture. */
static void check_answer(serve_ctx *s, serve_reply *r, const lesson *l, exercise_judgement *j, char *picture, const char *student)
{
    const lesson_exercise *x = l->exercise;
    cJSON *report = check_report(s, l, j);
    int first_missed = -1;
    for (size_t g = 0; g < x->ngoals && first_missed < 0; g++)
        if (j->marks[g].state != EXERCISE_MET) first_missed = (int)g;
    char *report_text = cJSON_PrintUnformatted(report);
    record_try tr = {.student = student, .exercise = l->id, .at_ms = wall_ms(), .met = (int)j->met, .goals = (int)x->ngoals,
                     .first_missed = first_missed, .ran = j->runs > 0, .error = j->error, .report = report_text ? report_text : "{}",
                     .trace = picture};
    char rerr[600];
    if (s->rec->ops->add(s->rec, &tr, rerr, sizeof rerr)) {
        fprintf(stderr, "warpscope: serve: a try of %s by a student was not recorded: %s\n", l->id, rerr);
        reply_error(r, 503, "the judgement was made but the class record could not be written (%s): try again", rerr);
    } else {
        cJSON_AddStringToObject(report, "student", student);
        cJSON_AddBoolToObject(report, "recorded", 1);
        reply_json(r, 200, cJSON_PrintUnformatted(report));
    }
    free(report_text);
    cJSON_Delete(report);
    free(picture);
    free(j);
}

void api_check(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    static const char *const fields[] = {"exercise", "source", "student", NULL};
    cJSON *o = body_object(q, r);
    if (!o) return;
    const char *name, *source, *student;
    char number[24];
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(o, "exercise");
    if (cJSON_IsNumber(ex) && ex->valuedouble >= 0 && ex->valuedouble < 1000 && ex->valuedouble == (double)(int)ex->valuedouble) {
        snprintf(number, sizeof number, "%d", (int)ex->valuedouble); /* 2 as "2": an exercise's number */
        cJSON_ReplaceItemInObjectCaseSensitive(o, "exercise", cJSON_CreateString(number));
    }
    if (known_fields(o, fields, r) || text_field(o, "exercise", 1, SERVE_FIELD_MAX, &name, r) ||
        text_field(o, "source", 1, SERVE_SOURCE_MAX, &source, r) || text_field(o, "student", 1, 64, &student, r)) {
        cJSON_Delete(o);
        return;
    }
    if (!*student || !plain_text(student)) {
        reply_error(r, 400, "the field \"student\" must be a name of 1 to 64 bytes of UTF-8 text, without control characters");
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
    const lesson_exercise *x = l->exercise;
    exercise_judgement *j = calloc(1, sizeof *j);
    char *picture = NULL; /* the exercise's own capture of the file: the picture the teacher opens */
    if (!j) { reply_error(r, 500, "out of memory"); cJSON_Delete(o); return; }
    if (verdict_find(l->id, source, j, &picture)) { check_answer(s, r, l, j, picture, student); cJSON_Delete(o); return; }
    learner_dir ld;
    if (learner_write(s, source, strlen(source), &ld)) { reply_error(r, 500, "cannot write the source: %s", strerror(errno)); free(j); cJSON_Delete(o); return; }
    if (serve_job_begin(s, r, SERVE_JOB_CHECK)) { learner_remove(&ld); free(j); cJSON_Delete(o); return; }
    double t0 = now_ms();
    int rc = exercise_judge(l, ld.file, s->include_dir, s->stop, j, err, sizeof err);
    if (rc == 0 && j->runs > 0 && !*s->stop) {
        const char *defines[5] = {NULL};
        size_t nd = 0;
        for (size_t k = 0; k < 4; k++)
            if (x->defines[k][0]) defines[nd++] = x->defines[k];
        capture_desc d = {.version = OWN_VERSION, .kernel = ld.file, .entry = x->entry, .defines = defines, .include_dir = s->include_dir,
                          .block = x->block, .n = x->n, .data = x->data[0] ? x->data : NULL, .cancel = s->stop};
        trace t;
        trace_init(&t);
        char terr[2048];
        if (capture_own(&d, &t, terr, sizeof terr) == 0) {
            snprintf(t.prov.source, sizeof t.prov.source, "%s", LEARNER_FILE);
            picture = trace_to_json(&t);
        }
        trace_free(&t);
    }
    serve_job_end(s, now_ms() - t0, SERVE_JOB_CHECK);
    learner_remove(&ld);
    if (rc || *s->stop) {
        if (*s->stop) reply_error(r, 503, "the server is stopping");
        else if (strstr(err, SANDBOX_BUSY)) reply_busy(r, err);
        else reply_error(r, 500, "the exercise could not be judged: %s", err);
        free(j);
        free(picture);
        cJSON_Delete(o);
        return;
    }
    strip_dir(j->error, ld.dir);
    if (!*s->stop && picture) verdict_keep(l->id, source, j, picture);
    check_answer(s, r, l, j, picture, student);
    cJSON_Delete(o);
}

/* ---- the teacher's view ---- */

/* The token, from "Authorization: Bearer T" or (for links the page opens) ?token=T: compared in
 * time that does not depend on where it differs. */
static int authorised(serve_ctx *s, const serve_request *q, int query_too)
{
    const char *h = q->header(q->conn, MHD_HTTP_HEADER_AUTHORIZATION), *given = NULL;
    if (h && strncmp(h, "Bearer ", 7) == 0) given = h + 7;
    else if (query_too) given = q->arg(q->conn, "token");
    if (!given) return 0;
    size_t n = strlen(s->token), m = strlen(given);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < n; i++) diff |= (unsigned char)(s->token[i] ^ (i < m ? given[i] : 0));
    return diff == 0;
}

static void unauthorised(serve_reply *r)
{
    reply_error(r, 401, "the class is shown with its token: the header Authorization: Bearer TOKEN (warpscope serve printed it)");
    r->header = MHD_HTTP_HEADER_WWW_AUTHENTICATE;
    r->value = "Bearer realm=\"warpscope class\"";
}

typedef struct class_build {
    serve_ctx *s;
    cJSON *students, *current;
    char name[80];
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
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "exercise", row->exercise);
    cJSON_AddNumberToObject(e, "met", row->met);
    cJSON_AddNumberToObject(e, "goals", row->goals);
    cJSON_AddBoolToObject(e, "solved", row->met == row->goals);
    cJSON_AddBoolToObject(e, "ran", row->ran);
    const lesson *l = exercise_by_id(b->s, row->exercise);
    if (row->first_missed >= 0 && l && (size_t)row->first_missed < l->exercise->ngoals) {
        cJSON *m = cJSON_AddObjectToObject(e, "first_missed");
        cJSON_AddNumberToObject(m, "index", row->first_missed);
        cJSON_AddStringToObject(m, "en", l->exercise->goals[row->first_missed].say.s[LESSON_EN]);
        cJSON_AddStringToObject(m, "zh", l->exercise->goals[row->first_missed].say.s[LESSON_ZH]);
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

void api_class(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    if (!authorised(s, q, 0)) { unauthorised(r); return; }
    cJSON *o = cJSON_CreateObject(), *exs = cJSON_AddArrayToObject(o, "exercises");
    for (size_t i = 0; i < s->nex; i++) {
        const lesson *l = &s->ex[i].l;
        cJSON *e = cJSON_CreateObject(), *t = cJSON_AddObjectToObject(e, "title"), *goals = cJSON_AddArrayToObject(e, "goals");
        cJSON_AddStringToObject(e, "id", l->id);
        cJSON_AddStringToObject(t, "en", l->title.s[LESSON_EN]);
        cJSON_AddStringToObject(t, "zh", l->title.s[LESSON_ZH]);
        for (size_t g = 0; g < l->exercise->ngoals; g++) {
            cJSON *gg = cJSON_CreateObject();
            cJSON_AddStringToObject(gg, "en", l->exercise->goals[g].say.s[LESSON_EN]);
            cJSON_AddStringToObject(gg, "zh", l->exercise->goals[g].say.s[LESSON_ZH]);
            cJSON_AddItemToArray(goals, gg);
        }
        cJSON_AddItemToArray(exs, e);
    }
    class_build b = {.s = s, .students = cJSON_AddArrayToObject(o, "students")};
    char err[600];
    if (s->rec->ops->list(s->rec, add_row, &b, err, sizeof err)) {
        cJSON_Delete(o);
        reply_error(r, 503, "the class record could not be read: %s", err);
        return;
    }
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

void api_class_last(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    if (!authorised(s, q, 1)) { unauthorised(r); return; }
    const char *student = q->arg(q->conn, "student"), *exercise = q->arg(q->conn, "exercise");
    if (!student || !exercise) { reply_error(r, 400, "give ?student=NAME&exercise=ID"); return; }
    char *text = NULL, err[600];
    if (s->rec->ops->last_trace(s->rec, student, exercise, &text, err, sizeof err)) {
        reply_error(r, 503, "the class record could not be read: %s", err);
        return;
    }
    if (!text) { reply_error(r, 404, "no picture of %s's last try of %s (it did not run?)", student, exercise); return; }
    reply_json(r, 200, text);
}

void api_class_page(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    const char *lang = q->arg(q->conn, "lang");
    int zh = lang && strcmp(lang, "zh") == 0;
    if (!authorised(s, q, 1)) {
        unauthorised(r);
        free(r->body);
        r->type = "text/html; charset=utf-8";
        r->body = strdup(zh ? "<!doctype html><meta charset=utf-8><title>班级</title><p>需要班级的令牌：/class?token=令牌（warpscope serve 启动时打印）。\n"
                            : "<!doctype html><meta charset=utf-8><title>Class</title><p>The class needs its token: /class?token=TOKEN "
                              "(warpscope serve printed it when it started).\n");
        r->len = r->body ? strlen(r->body) : 0;
        return;
    }
    r->status = 200;
    r->type = "text/html; charset=utf-8";
    r->body = class_page_html(s->token, zh, &r->len);
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
