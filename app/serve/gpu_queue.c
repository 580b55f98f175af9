/* gpu_queue: the class server's GPU. A Check whose every trace goal is met is also timed on this
 * machine's card (app/gpu_time.h: a fresh `warpscope bench --kernel` process, its run sandboxed),
 * in a queue of its own so that a Check's emulator part never waits behind it: half the
 * cores' threads (two at least) build the file for the card (nvcc, in the sandbox, at a lower
 * priority than the emulator's builds),
 * then each file is timed in a process of its own, one on the card at a time: SERVE_GPU_TURNS
 * processes per GPU start beside it (CUDA's start is most of a timing's time) and each loads the
 * learner's file only when it has the card's turn (gpu_time_desc.turn). The queue holds SERVE_GPU_QUEUE files; past it a
 * timing is answered "busy" with a Retry-After (429 where it is asked for alone). Each timing is a
 * row of the record (lab_gpu), so that any server of the class answers GET /api/gpu, the student's
 * chart and the class's leaderboard. The card's best read and CUB's figure are measured once, in a
 * process of warpscope's own (gpu_time_calibrate), and a figure faster than that read is refused. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "app/cmd/cmd.h"
#include "app/gpu_time.h"
#include "app/learn/exercise.h"
#include "app/serve/serve.h"
#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"

enum {
    SERVE_GPU_QUEUE = 64,      /* files waiting for the card (built or being built), per server, unless --gpu-queue says */
    SERVE_GPU_BUILDERS_MAX = 16, /* nvcc builds at once: half the cores, at least 2, at a lower priority */
    SERVE_GPU_DEVICES = 8,
    SERVE_GPU_TURNS = 4,       /* timings started per GPU, one of them on the card */
    SERVE_GPU_KEEP_S = 900,    /* the same bytes of the same exercise timed within this are not timed again */
    SERVE_GPU_LIMIT_S = 60,    /* one timing's start of CUDA, and again its card's turn to its end, unless --gpu-limit says: past it the process is killed */
    SERVE_GPU_NICE = 10,       /* the builds for the card give way to the emulator's */
    SERVE_GPU_WAIT_S = 8,      /* a timing is queued only while its verdict is likely within this, at the measured pace, which lags the queue (with 10 s a lab of 200's verdicts came at p95 11.1 s, with 8 s 8.6 s: docs/classroom.md) */
};

typedef struct gpu_job {
    int64_t id, class_id;
    char student[4 * SERVE_NAME_CHARS + 1];
    size_t exercise;           /* s->ex[exercise] */
    char file[4400];           /* the learner's source, kept by content (api.c) */
    uint64_t seed;             /* the drawn size */
    double queued_ms;          /* when it was queued (monotonic) */
    unsigned ahead;            /* jobs in the queue then */
    /* an exercise with a card goal: the Check's judgement, its picture and source, recorded again
     * with the card's mark once timed */
    exercise_judgement *judged;
    char *picture, *source;
    struct gpu_job *next;
} gpu_job;

struct serve_gpu {
    char card[128];
    int devices;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gpu_job *build_head, *run_head; /* FIFO each */
    unsigned queued;           /* jobs in either */
    int running_devices;       /* timings under way */
    double job_ms_avg;         /* a timing's time, process start to end (its wait for the card's turn included) */
    double build_ms_avg, turn_ms_avg; /* nvcc's build; the card's turn held */
    double pace_ms;            /* queued to answered, over the jobs that were in the queue then, plus one */
    unsigned timed;
    double best_read_gbs[SERVE_GPU_DEVICES], cub_gbs[SERVE_GPU_DEVICES]; /* the card's own, at 2^26 (gpu_time_calibrate) */
    int calibrated[SERVE_GPU_DEVICES];
    char calibration_error[600];
    pthread_mutex_t turn[SERVE_GPU_DEVICES]; /* the card's: one timing on it at a time */
    pthread_t builders[SERVE_GPU_BUILDERS_MAX], runners[SERVE_GPU_DEVICES * SERVE_GPU_TURNS];
    int nbuilders, nrunners;
    serve_ctx *s;
    int quit; /* serve_gpu_stop: the threads end */
    unsigned limit_s, queue_max;
    int stand_in; /* WARPSCOPE_GPU_TIMER: the tests' stand-in times the file as it is (nothing is built for a card not there) */
};

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* a running mean that follows the latest: *avg moved a fifth of the way to x (x itself while *avg is 0) */
static void follow(double *avg, double x)
{
    *avg = *avg > 0 ? 0.8 * *avg + 0.2 * x : x;
}

static void push(gpu_job **head, gpu_job *j)
{
    j->next = NULL;
    while (*head) head = &(*head)->next;
    *head = j;
}

static gpu_job *pop(gpu_job **head)
{
    gpu_job *j = *head;
    if (j) *head = j->next;
    return j;
}

/* the capture_desc of the exercise's launch of file (as exercise_judge builds it) */
static void job_desc(const serve_ctx *s, const gpu_job *j, capture_desc *d, const char **defines)
{
    const lesson_exercise *x = s->ex[j->exercise].l.exercise;
    memset(d, 0, sizeof *d);
    int k = 0;
    for (int i = 0; i < 4 && x->defines[i][0]; i++) defines[k++] = x->defines[i];
    defines[k] = NULL;
    d->kernel = j->file;
    d->entry = x->entry;
    d->defines = defines;
    d->include_dir = s->include_dir;
    d->cancel = s->stop;
}

/* ---- what a timing says: the answer of GET /api/gpu ---- */

static char *result_json(const serve_gpu *g, const gpu_job *j, const char *exercise, const gpu_timing *t, const char *failure)
{
    static const char *const states[] = {[GPU_NONE] = "failed", [GPU_TIMED] = "timed", [GPU_WRONG] = "wrong", [GPU_FAILED] = "failed"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)j->id);
    cJSON_AddStringToObject(o, "exercise", exercise);
    cJSON_AddStringToObject(o, "state", failure ? "failed" : states[t->state]);
    cJSON_AddStringToObject(o, "card", t && t->card[0] ? t->card : g->card);
    if (failure) {
        cJSON_AddStringToObject(o, "error", failure);
        cJSON *line = cJSON_AddObjectToObject(o, "line");
        char en[800], zh[800];
        snprintf(en, sizeof en, "did not run on the card: %s", failure);
        snprintf(zh, sizeof zh, "没能在卡上运行：%s", failure);
        cJSON_AddStringToObject(line, "en", en);
        cJSON_AddStringToObject(line, "zh", zh);
    } else {
        cJSON_AddNumberToObject(o, "gbs", round(t->gbs * 10) / 10);
        cJSON_AddNumberToObject(o, "best_read_gbs", round(t->best_read_gbs * 10) / 10);
        cJSON_AddNumberToObject(o, "fraction", round(t->fraction * 10000) / 10000);
        cJSON_AddNumberToObject(o, "cub_gbs", round(t->cub_gbs * 10) / 10);
        cJSON_AddNumberToObject(o, "n", (double)t->largest);
        cJSON *sizes = cJSON_AddArrayToObject(o, "sizes");
        for (size_t i = 0; i < t->nsizes; i++) {
            const gpu_size_time *z = &t->sizes[i];
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "n", (double)z->n);
            cJSON_AddBoolToObject(e, "ok", z->ok);
            if (z->ok) cJSON_AddNumberToObject(e, "gbs", round(z->gbs * 10) / 10);
            else if (isfinite(z->got) && isfinite(z->reference)) {
                cJSON_AddNumberToObject(e, "got", z->got);
                cJSON_AddNumberToObject(e, "reference", z->reference);
            }
            cJSON_AddItemToArray(sizes, e);
        }
        if (t->error[0]) cJSON_AddStringToObject(o, "error", t->error);
        cJSON *line = cJSON_AddObjectToObject(o, "line");
        char text[900];
        gpu_time_line(t, LESSON_EN, text, sizeof text);
        cJSON_AddStringToObject(line, "en", text);
        gpu_time_line(t, LESSON_ZH, text, sizeof text);
        cJSON_AddStringToObject(line, "zh", text);
        cJSON_AddNumberToObject(o, "timing_ms", round(t->wall_ms));
    }
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

static void job_free(gpu_job *j)
{
    if (!j) return;
    free(j->judged);
    free(j->picture);
    free(j->source);
    free(j);
}

/* the card goal's mark from the timing, and the try recorded again with it; its words for the answer */
static void judge_card(serve_gpu *g, gpu_job *j, const gpu_timing *t, const char *failure, cJSON *o)
{
    serve_ctx *s = g->s;
    const lesson *l = &s->ex[j->exercise].l;
    const lesson_exercise *x = l->exercise;
    gpu_timing none;
    if (!t) { /* it did not run on the card */
        memset(&none, 0, sizeof none);
        none.state = GPU_FAILED;
        snprintf(none.error, sizeof none.error, "%s", failure ? failure : "not timed");
        t = &none;
    }
    exercise_judge_timing(x, j->judged, t);
    record_try tr;
    char err[600];
    int rc = record_judgement(s, j->class_id, j->student, l, j->judged, j->picture, j->source, &tr, err, sizeof err);
    if (rc) fprintf(stderr, "warpscope: serve: the card goal of a try of %s was not recorded: %s\n", l->id, err);
    const exercise_mark *m = &j->judged->marks[x->ngoals];
    cJSON *c = cJSON_AddObjectToObject(o, "card_goal");
    cJSON_AddBoolToObject(c, "met", m->state == EXERCISE_MET);
    cJSON_AddNumberToObject(c, "met_goals", (double)j->judged->met);
    cJSON_AddNumberToObject(c, "goals", (double)exercise_goal_count(x));
    cJSON_AddBoolToObject(c, "recorded", rc == 0);
    for (int lang = 0; lang < LESSON_LANGS; lang++) {
        char line[900];
        exercise_checklist_line(x, j->judged, x->ngoals, (lesson_lang)lang, line, sizeof line);
        cJSON_AddStringToObject(c, lesson_lang_keys[lang], line);
    }
}

static void finish(serve_gpu *g, gpu_job *j, const gpu_timing *t, const char *failure)
{
    serve_ctx *s = g->s;
    const lesson *l = &s->ex[j->exercise].l;
    char *text = result_json(g, j, l->id, t, failure), err[600];
    if (j->judged && text) { /* the card goal, judged and recorded, said in the answer */
        cJSON *o = cJSON_Parse(text);
        if (o) {
            judge_card(g, j, t, failure, o);
            free(text);
            text = cJSON_PrintUnformatted(o);
            cJSON_Delete(o);
        }
    }
    static const char *const states[] = {[GPU_NONE] = "failed", [GPU_TIMED] = "timed", [GPU_WRONG] = "wrong", [GPU_FAILED] = "failed"};
    const char *state = failure ? "failed" : states[t->state];
    int ok = !failure && t->state == GPU_TIMED;
    if (record_gpu_set(s->rec, j->id, state, ok ? t->gbs : 0, ok ? t->fraction : 0, text ? text : "{}", wall_ms(), err, sizeof err))
        fprintf(stderr, "warpscope: serve: the GPU's timing %" PRId64 " was not recorded: %s\n", j->id, err);
    free(text);
    pthread_mutex_lock(&g->mu);
    g->queued--;
    if (j->queued_ms > 0) {
        follow(&g->pace_ms, (mono_ms() - j->queued_ms) / (double)(j->ahead + 1));
    }
    pthread_mutex_unlock(&g->mu);
    job_free(j);
}

/* ---- the threads ---- */

static void *builder(void *arg)
{
    serve_gpu *g = arg;
    setpriority(PRIO_PROCESS, 0, SERVE_GPU_NICE); /* this thread and the build steps it starts */
    for (;;) {
        pthread_mutex_lock(&g->mu);
        while (!g->build_head && !*g->s->stop && !g->quit) pthread_cond_wait(&g->cv, &g->mu);
        gpu_job *j = *g->s->stop || g->quit ? NULL : pop(&g->build_head);
        pthread_mutex_unlock(&g->mu);
        if (!j) return NULL;
        capture_desc d;
        const char *defines[5];
        job_desc(g->s, j, &d, defines);
        char so[4400], err[2048];
        double t0 = mono_ms();
        int failed = !g->stand_in && own_build(&d, OWN_GPU_PLAIN, so, sizeof so, err, sizeof err);
        pthread_mutex_lock(&g->mu);
        follow(&g->build_ms_avg, mono_ms() - t0);
        pthread_mutex_unlock(&g->mu);
        if (failed) {
            char why[800];
            snprintf(why, sizeof why, "nvcc could not build it: %.700s", err);
            finish(g, j, NULL, why);
            continue;
        }
        pthread_mutex_lock(&g->mu);
        push(&g->run_head, j);
        pthread_cond_broadcast(&g->cv);
        pthread_mutex_unlock(&g->mu);
    }
}

typedef struct runner_arg {
    serve_gpu *g;
    int device;
} runner_arg;

static void *runner(void *arg)
{
    runner_arg *ra = arg;
    serve_gpu *g = ra->g;
    int dev = ra->device;
    free(ra);
    for (;;) {
        pthread_mutex_lock(&g->mu);
        while (!g->run_head && !*g->s->stop && !g->quit) pthread_cond_wait(&g->cv, &g->mu);
        gpu_job *j = *g->s->stop || g->quit ? NULL : pop(&g->run_head);
        if (j) g->running_devices++;
        pthread_mutex_unlock(&g->mu);
        if (!j) return NULL;
        char err[800];
        pthread_mutex_lock(&g->turn[dev]);
        if (!g->calibrated[dev]) { /* once: the card's own figures, no learner's code in that process, the card its alone */
            double best = 0, cub = 0;
            if (gpu_time_calibrate((uint64_t)1 << 26, dev, g->limit_s, g->s->stop, &best, &cub, err, sizeof err) == 0) {
                g->best_read_gbs[dev] = best;
                g->cub_gbs[dev] = cub;
                g->calibrated[dev] = 1;
            } else
                snprintf(g->calibration_error, sizeof g->calibration_error, "%.590s", err);
        }
        double best_read = g->best_read_gbs[dev], cub = g->cub_gbs[dev];
        pthread_mutex_unlock(&g->turn[dev]);
        capture_desc d;
        const char *defines[5];
        job_desc(g->s, j, &d, defines);
        gpu_time_desc td = {.kernel = j->file, .entry = d.entry, .limit_s = g->limit_s, .include_dir = NULL, .device = dev,
                            .trusted_best_read_gbs = best_read, .trusted_cub_gbs = cub, .turn = &g->turn[dev]};
        for (int i = 0; i < GPU_TIME_DEFINES_MAX && defines[i]; i++) td.defines[i] = defines[i];
        td.nsizes = gpu_time_sizes(g->s->ex[j->exercise].l.exercise, j->seed, td.sizes, GPU_TIME_SIZES_MAX);
        gpu_timing t;
        double t0 = mono_ms();
        int rc = gpu_time_file(&td, &t, g->s->stop, err, sizeof err);
        double ms = mono_ms() - t0;
        pthread_mutex_lock(&g->mu);
        g->running_devices--;
        follow(&g->job_ms_avg, ms);
        if (rc == 0 && t.turn_ms > 0) follow(&g->turn_ms_avg, t.turn_ms);
        g->timed++;
        pthread_mutex_unlock(&g->mu);
        if (rc && *g->s->stop) { /* stopping: said so, not blamed on the file */
            finish(g, j, NULL, "the server stopped before it was timed: press Check again");
            continue;
        }
        finish(g, j, rc ? NULL : &t, rc ? err : NULL);
    }
}

/* the GPUs the driver names (at least one where a stand-in times) */
static int count_devices(void)
{
    if (getenv("WARPSCOPE_GPU_TIMER") && *getenv("WARPSCOPE_GPU_TIMER")) return 1;
    DIR *dir = opendir("/proc/driver/nvidia/gpus");
    int n = 0;
    for (struct dirent *e; dir && (e = readdir(dir));)
        if (e->d_name[0] != '.') n++;
    if (dir) closedir(dir);
    return n < 1 ? 1 : n > SERVE_GPU_DEVICES ? SERVE_GPU_DEVICES : n;
}

int serve_gpu_start(serve_ctx *s, int asked, unsigned limit_s, unsigned queue_max, char *err, size_t errlen)
{
    char name[128];
    if (!gpu_time_present(name, sizeof name)) {
        if (asked) {
            snprintf(err, errlen, "--gpu: no GPU here (no NVIDIA driver's GPU in /proc/driver/nvidia/gpus, or a warpscope built without CUDA)");
            return -1;
        }
        return 0;
    }
    serve_gpu *g = calloc(1, sizeof *g);
    if (!g) { snprintf(err, errlen, "out of memory"); return -1; }
    snprintf(g->card, sizeof g->card, "%s", name);
    g->s = s;
    g->devices = count_devices();
    g->limit_s = limit_s ? limit_s : SERVE_GPU_LIMIT_S;
    g->queue_max = queue_max ? queue_max : SERVE_GPU_QUEUE;
    g->stand_in = getenv("WARPSCOPE_GPU_TIMER") && *getenv("WARPSCOPE_GPU_TIMER");
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int builders = cores / 2 < 2 ? 2 : cores / 2 > SERVE_GPU_BUILDERS_MAX ? SERVE_GPU_BUILDERS_MAX : (int)(cores / 2);
    for (int i = 0; i < builders; i++)
        if (pthread_create(&g->builders[g->nbuilders], NULL, builder, g) == 0) g->nbuilders++;
    for (int i = 0; i < g->devices; i++) pthread_mutex_init(&g->turn[i], NULL);
    for (int i = 0; i < g->devices * SERVE_GPU_TURNS; i++) {
        runner_arg *ra = malloc(sizeof *ra);
        if (!ra) break;
        *ra = (runner_arg){g, i % g->devices};
        if (pthread_create(&g->runners[g->nrunners], NULL, runner, ra) == 0) g->nrunners++;
        else free(ra);
    }
    if (!g->nbuilders || !g->nrunners) {
        snprintf(err, errlen, "cannot start the GPU's queue");
        s->gpu = g; /* its threads are stopped and joined by serve_gpu_stop */
        return -1;
    }
    s->gpu = g;
    return 0;
}

void serve_gpu_stop(serve_ctx *s)
{
    serve_gpu *g = s->gpu;
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    g->quit = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    for (int i = 0; i < g->nbuilders; i++) pthread_join(g->builders[i], NULL);
    for (int i = 0; i < g->nrunners; i++) pthread_join(g->runners[i], NULL);
    char err[600];
    for (gpu_job **h = &g->build_head; h; h = h == &g->build_head ? &g->run_head : NULL)
        for (gpu_job *j; (j = pop(h));) { /* said in the record, so that a page polling it stops */
            record_gpu_set(s->rec, j->id, "failed", 0, 0, "{\"state\":\"failed\",\"error\":\"the server stopped before it was timed: press Check again\"}",
                           wall_ms(), err, sizeof err);
            job_free(j);
        }
    for (int i = 0; i < g->devices; i++) pthread_mutex_destroy(&g->turn[i]);
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g);
    s->gpu = NULL;
}

const char *serve_gpu_card(const serve_ctx *s) { return s->gpu ? s->gpu->card : NULL; }

void serve_gpu_health(serve_ctx *s, cJSON *o)
{
    serve_gpu *g = s->gpu;
    if (!g) { cJSON_AddNullToObject(o, "gpu"); return; }
    cJSON *e = cJSON_AddObjectToObject(o, "gpu");
    pthread_mutex_lock(&g->mu);
    cJSON_AddStringToObject(e, "card", g->card);
    cJSON_AddNumberToObject(e, "devices", g->devices);
    cJSON_AddNumberToObject(e, "queue", g->queued);
    cJSON_AddNumberToObject(e, "queue_max", g->queue_max);
    cJSON_AddNumberToObject(e, "limit_s", g->limit_s);
    cJSON_AddNumberToObject(e, "timing", g->running_devices);
    cJSON_AddNumberToObject(e, "timed", g->timed);
    cJSON_AddNumberToObject(e, "mean_ms", round(g->job_ms_avg));
    cJSON_AddNumberToObject(e, "build_ms", round(g->build_ms_avg));
    cJSON_AddNumberToObject(e, "turn_ms", round(g->turn_ms_avg));
    cJSON_AddNumberToObject(e, "pace_ms", round(g->pace_ms));
    if (g->calibrated[0]) {
        cJSON_AddNumberToObject(e, "best_read_gbs", round(g->best_read_gbs[0] * 10) / 10);
        cJSON_AddNumberToObject(e, "cub_gbs", round(g->cub_gbs[0] * 10) / 10);
    } else if (g->calibration_error[0])
        cJSON_AddStringToObject(e, "calibration_error", g->calibration_error);
    pthread_mutex_unlock(&g->mu);
}

/* 1 when a file queued now would likely wait past SERVE_GPU_WAIT_S: the queue's files at the
 * measured pace (never while fewer are queued than the card's turns and the builders take at once) */
static int too_slow(const serve_gpu *g)
{
    unsigned at_once = (unsigned)(g->devices * SERVE_GPU_TURNS);
    return g->pace_ms > 0 && g->queued >= at_once && g->pace_ms * (double)(g->queued + 1) > SERVE_GPU_WAIT_S * 1000.0;
}

/* the seconds until a place in the queue is likely: the files ahead at the measured pace */
static unsigned retry_after(const serve_gpu *g)
{
    if (g->pace_ms > 0) { /* until the queue is short enough for the wait above */
        double over = g->pace_ms * (double)(g->queued + 1) - SERVE_GPU_WAIT_S * 1000.0;
        unsigned secs = over > 0 ? (unsigned)ceil(over / 1000.0) : 1;
        return secs < 1 ? 1 : secs > 600 ? 600 : secs;
    }
    double avg = g->timed ? g->job_ms_avg : 5000.0;
    /* SERVE_GPU_TURNS timings of a card overlap (all but one starting CUDA) */
    unsigned secs = (unsigned)ceil(avg * (double)g->queued / (double)(g->devices ? g->devices * SERVE_GPU_TURNS : 1) / 1000.0 / 4.0);
    return secs < 1 ? 1 : secs > 600 ? 600 : secs;
}

int serve_gpu_submit(serve_ctx *s, int64_t class_id, const char *student, size_t exercise, const char *file, const char *source_key,
                     const exercise_judgement *judged, const char *picture, const char *source, cJSON *answer, unsigned *busy_s)
{
    serve_gpu *g = s->gpu;
    *busy_s = 0;
    if (!g) return 0;
    const lesson *l = &s->ex[exercise].l;
    cJSON *e = cJSON_AddObjectToObject(answer, "gpu");
    char err[600];
    /* the same bytes timed a moment ago (by anyone): that timing again, under this student's name */
    record_gpu old;
    int64_t id = 0;
    getrandom(&id, sizeof id, 0);
    id = (id & (((int64_t)1 << 52) - 1)) | 1; /* a JSON number exactly */
    if (!(l->exercise->gpu_fraction > 0) && record_gpu_recent(s->rec, l->id, source_key, wall_ms() - (int64_t)SERVE_GPU_KEEP_S * 1000, &old, err, sizeof err) == 0 && old.found && old.result) {
        cJSON *r = cJSON_Parse(old.result);
        if (r) {
            cJSON_ReplaceItemInObjectCaseSensitive(r, "id", cJSON_CreateNumber((double)id));
            char *text = cJSON_PrintUnformatted(r);
            cJSON_Delete(r);
            if (text && record_gpu_add(s->rec, id, class_id, student, l->id, source_key, wall_ms(), s->instance, err, sizeof err) == 0 &&
                record_gpu_set(s->rec, id, old.state, old.gbs, old.fraction, text, wall_ms(), err, sizeof err) == 0) {
                cJSON_AddNumberToObject(e, "id", (double)id);
                cJSON_AddStringToObject(e, "state", old.state);
                free(text);
                record_gpu_free(&old);
                return 0;
            }
            free(text);
        }
    }
    record_gpu_free(&old);
    pthread_mutex_lock(&g->mu);
    if (g->queued >= g->queue_max || too_slow(g)) {
        *busy_s = retry_after(g);
        pthread_mutex_unlock(&g->mu);
        cJSON_AddStringToObject(e, "state", "busy");
        cJSON_AddNumberToObject(e, "retry_after_s", *busy_s);
        return 1;
    }
    g->queued++;
    pthread_mutex_unlock(&g->mu);
    gpu_job *j = calloc(1, sizeof *j);
    if (j && l->exercise->gpu_fraction > 0 && judged) { /* the card goal: the try recorded again once timed */
        j->judged = malloc(sizeof *j->judged);
        j->picture = picture ? strdup(picture) : NULL;
        j->source = strdup(source ? source : "");
        if (!j->judged || !j->source || (picture && !j->picture)) { job_free(j); j = NULL; }
        else memcpy(j->judged, judged, sizeof *j->judged);
    }
    if (!j || record_gpu_add(s->rec, id, class_id, student, l->id, source_key, wall_ms(), s->instance, err, sizeof err)) {
        job_free(j);
        pthread_mutex_lock(&g->mu);
        g->queued--;
        pthread_mutex_unlock(&g->mu);
        cJSON_AddStringToObject(e, "state", "failed");
        cJSON_AddStringToObject(e, "error", "the timing could not be recorded: press Check again");
        return 0;
    }
    j->id = id;
    j->class_id = class_id;
    snprintf(j->student, sizeof j->student, "%s", student);
    j->exercise = exercise;
    snprintf(j->file, sizeof j->file, "%s", file);
    getrandom(&j->seed, sizeof j->seed, 0);
    pthread_mutex_lock(&g->mu);
    j->queued_ms = mono_ms();
    j->ahead = g->queued - 1;
    push(&g->build_head, j);
    unsigned position = g->queued;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    cJSON_AddNumberToObject(e, "id", (double)id);
    cJSON_AddStringToObject(e, "state", "queued");
    cJSON_AddNumberToObject(e, "position", position);
    return 0;
}

/* where a job of this server is: 1 and its place (1: next) while it waits; 0 when it is not waiting here */
static int position_of(serve_gpu *g, int64_t id, unsigned *pos, int *building)
{
    pthread_mutex_lock(&g->mu);
    unsigned k = (unsigned)g->running_devices;
    int found = 0;
    for (gpu_job *j = g->run_head; j && !found; j = j->next) {
        k++;
        if (j->id == id) found = 1, *building = 0;
    }
    for (gpu_job *j = g->build_head; j && !found; j = j->next) {
        k++;
        if (j->id == id) found = 1, *building = 1;
    }
    pthread_mutex_unlock(&g->mu);
    *pos = k;
    return found;
}

/* GET /api/gpu?id=N: the session's own timing */
void api_gpu(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    const char *a = q->arg ? q->arg(q->conn, "id") : NULL;
    char *end = NULL;
    long long id = a ? strtoll(a, &end, 10) : 0;
    if (!a || !*a || *end || id <= 0) { reply_error(r, 400, "GET /api/gpu?id=N: N is the id a Check's answer gave (\"gpu\": {\"id\": N})"); return; }
    record_gpu g;
    char err[600];
    if (record_gpu_get(s->rec, id, &g, err, sizeof err)) { reply_error(r, 503, "the class record cannot be read: %s", err); return; }
    if (!g.found || g.class_id != q->class_id || strcmp(g.student, q->student)) {
        record_gpu_free(&g);
        reply_error(r, 404, "no timing %lld of yours", id);
        return;
    }
    cJSON *o = NULL;
    if (strcmp(g.state, "queued") == 0 || strcmp(g.state, "running") == 0) {
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", (double)g.id);
        cJSON_AddStringToObject(o, "exercise", g.exercise);
        unsigned pos = 0;
        int building = 0;
        if (s->gpu && strcmp(g.owner, s->instance) == 0) {
            if (position_of(s->gpu, g.id, &pos, &building)) {
                cJSON_AddStringToObject(o, "state", "queued");
                cJSON_AddNumberToObject(o, "position", pos);
                cJSON_AddBoolToObject(o, "building", building);
            } else
                cJSON_AddStringToObject(o, "state", "running");
            cJSON_AddStringToObject(o, "card", s->gpu->card);
        } else if (g.owner_alive_ms < wall_ms() - (int64_t)SERVE_ALIVE_LAPSE_S * 1000) {
            /* its server stopped (killed) with it in its queue */
            cJSON_AddStringToObject(o, "state", "failed");
            cJSON_AddStringToObject(o, "error", "the server timing it stopped: press Check again");
        } else
            cJSON_AddStringToObject(o, "state", g.state); /* another server of the class is timing it */
    } else {
        o = cJSON_Parse(g.result ? g.result : "{}");
        if (!o) o = cJSON_CreateObject();
        cJSON_ReplaceItemInObjectCaseSensitive(o, "id", cJSON_CreateNumber((double)g.id));
    }
    cJSON_AddNumberToObject(o, "at_ms", (double)g.at_ms);
    record_gpu_free(&g);
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

typedef struct list_ud {
    cJSON *arr;
    int names; /* the leaderboard: names and ranks */
} list_ud;

static void add_try(void *ud, const record_gpu *g)
{
    list_ud *l = ud;
    cJSON *e = cJSON_CreateObject();
    if (l->names) {
        cJSON_AddNumberToObject(e, "rank", cJSON_GetArraySize(l->arr) + 1);
        cJSON_AddStringToObject(e, "name", g->student);
    } else {
        cJSON_AddNumberToObject(e, "id", (double)g->id);
        cJSON_AddStringToObject(e, "state", g->state);
    }
    cJSON_AddNumberToObject(e, "at_ms", (double)g->at_ms);
    cJSON_AddNumberToObject(e, "gbs", round(g->gbs * 10) / 10);
    cJSON_AddNumberToObject(e, "fraction", round(g->fraction * 10000) / 10000);
    cJSON_AddItemToArray(l->arr, e);
}

/* the exercise an argument names (its id, as /api/class and a Check's answer say it, its number or
 * its file's name), or -1 after answering 400 */
static long exercise_arg(serve_ctx *s, const serve_request *q, serve_reply *r, const char *path)
{
    const char *a = q->arg ? q->arg(q->conn, "exercise") : NULL;
    if (!a || !*a) { reply_error(r, 400, "GET %s?exercise=ID: name the exercise", path); return -1; }
    for (size_t k = 0; k < s->nex; k++)
        if (strcmp(s->ex[k].l.id, a) == 0) return (long)k;
    char err[2000];
    long i = lesson_match(s->ex_files, s->nex, a, "exercise", err, sizeof err);
    if (i < 0) reply_error(r, 400, "GET %s?exercise=ID: no exercise \"%.100s\" here (an id as GET /api/class says it, or a number)", path, a);
    return i;
}

/* GET /api/gpu/tries?exercise=ID: the session's timings of it, oldest first (its chart) */
void api_gpu_tries(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    long i = exercise_arg(s, q, r, "/api/gpu/tries");
    if (i < 0) return;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "exercise", s->ex[i].l.id);
    list_ud l = {cJSON_AddArrayToObject(o, "tries"), 0};
    char err[600];
    if (record_gpu_tries(s->rec, q->class_id, q->student, s->ex[i].l.id, add_try, &l, err, sizeof err)) {
        cJSON_Delete(o);
        reply_error(r, 503, "the class record cannot be read: %s", err);
        return;
    }
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}

/* GET /api/class/leaderboard?exercise=ID[&class=N]: each student's fastest timed try, fastest first */
void api_class_leaderboard(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    long i = exercise_arg(s, q, r, "/api/class/leaderboard");
    if (i < 0) return;
    int fail = 0;
    int64_t class_id = serve_class_asked(s, q, &fail);
    if (fail) { reply_error(r, 503, "the class record cannot be read"); return; }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "exercise", s->ex[i].l.id);
    if (s->gpu) cJSON_AddStringToObject(o, "card", s->gpu->card);
    else cJSON_AddNullToObject(o, "card");
    list_ud l = {cJSON_AddArrayToObject(o, "rows"), 1};
    char err[600];
    if (record_gpu_best(s->rec, class_id, s->ex[i].l.id, add_try, &l, err, sizeof err)) {
        cJSON_Delete(o);
        reply_error(r, 503, "the class record cannot be read: %s", err);
        return;
    }
    reply_json(r, 200, cJSON_PrintUnformatted(o));
    cJSON_Delete(o);
}
