/* warpscope: the command line. Owns all printing and exit codes; the libraries only return a
 * status and a message. Exit 0 on success, 2 on bad usage or bad input (one line saying what and
 * where), as the README documents. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "trace/analysis.h"
#include "app/bench.h"
#include "trace/capture/capture.h"
#include "app/cli.h"
#include "app/export/export.h"
#include "trace/ladder.h"
#include "trace/capture/schedule.h"
#include "trace/sources.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "app/learn/progress.h"
#include "trace/trace.h"
#include "app/verify.h"
#include "app/viewer/viewer.h"

enum { EXIT_BAD = 2, EXIT_WRONG = 1 /* a result off its reference: the trace is written, the finding reported */,
       EXIT_INTERRUPTED = 130 /* 128 + SIGINT, as shells report it */ };

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "warpscope: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (warpscope help lists the commands)\n");
    return EXIT_BAD;
}

static void print_help(void)
{
    puts("warpscope: watch the CUDA reduction ladder run, warp by warp\n"
         "\n"
         "  warpscope                      the viewer on v0, a block of 64 threads, traced by the emulator\n"
         "  warpscope view (FILE | --version ID [capture flags]) [viewer flags] [--keys K1,K2...]\n"
         "  warpscope render (FILE | --version ID [capture flags]) [viewer flags] [--event E | --phase P | --step S]\n"
         "                   (-o out.png | --frames DIR)\n"
         "  warpscope learn [LESSON]       the lessons (a menu), or one: PgDn/PgUp next/back, Enter answers\n"
         "  warpscope render --learn LESSON [--actions lesson:1,type:3,answer] ... -o out.png   a lesson step, headless\n"
         "     viewer flags: [--compare ID2] [--size WxH] [--theme light|dark] [--lang en|zh] [--presenter] [--fine]\n"
         "                   [--pass P] [--block-index I]  (the traced block shown; default 0, 0)\n"
         "                   [--actions A1,A2...]  (actions: step:N, phase:N, seek-step:N, version:ID, compare:ID|next|off, lang:zh, ...)\n"
         "  warpscope render --bench FILE -o out.png    the benchmark chart\n"
         "  warpscope export (FILE | --version ID [capture flags] | --lesson ID|FILE) [viewer flags]\n"
         "                   [--from S --to S | --step S | --phase P] [--fps F] [--speed STEPS_PER_S] [--no-motion]\n"
         "                   -o OUT.gif | OUT.mp4 | OUT.webm | OUT.svg (one step) | FOLDER (PNG frames)\n"
         "  warpscope ladder               per-version stats of the whole ladder (emulator, block 256)\n"
         "  warpscope list                 the versions: id, title, summary\n"
         "  warpscope capture --version ID [capture flags] -o FILE\n"
         "  warpscope stats (FILE | --version ID [capture flags]) [--json] [--all-blocks] [--pass P] [--block-index I]\n"
         "  warpscope hazards --version ID [capture flags] [--json]   races, like compute-sanitizer racecheck\n"
         "  warpscope perf capture|draw|export   benchmarks: capture time and trace size; frame time of the viewer;\n"
         "                                 a 30-step comparison written as a GIF\n"
         "  warpscope bench [--sizes LIST] [--versions LIST] [--reps R] [--block B] [--json FILE] [--csv FILE]\n"
         "                                 every version on a CUDA GPU against CUB, Thrust and the bandwidth ceiling\n"
         "\n"
         "capture flags:\n"
         "  --block B          threads per block, a power of two from 32 (64 for v4, v4s) to 1024; default 256\n"
         "  --n N              elements to reduce, N >= 1; default one block's worth (block * elements per thread)\n"
         "  --data PATTERN     ones | ramp | random-int | random-float; default random-int (0..9)\n"
         "  --seed S           seed of the random patterns; default 1\n"
         "  --ept E            elements per thread for v6, v7, v8; default 8\n"
         "  --blocks-traced K  blocks recorded in each pass; default 1\n"
         "  --backend B        cpu (the emulator, default) | gpu | auto (the GPU when there is one, else the emulator)\n"
         "  --workers W        emulator threads, default one per core (the trace is the same whatever W)\n"
         "  --pass P, --block-index I   which pass and block stats, render and view show; default 0, 0\n"
         "  --schedule S       lockstep (default) | its:SEED | lanes-up | lanes-down | adversarial (emulator only)\n"
         "  --warp-order W     in-order (default) | reversed | seeded:SEED\n"
         "  --drop-barrier L   break it: leave out the __syncthreads() at source line L\n"
         "  --drop-syncwarp L  break it: leave out the __syncwarp() at source line L\n"
         "  FILE names ending in .wstrace use the compact encoding; other names JSON"
         "\n"
         "  warpscope verify [--versions LIST] [--blocks LIST] [--md FILE]   GPU against emulator, warp by warp\n"
         "  warpscope lesson check FILE...   validate lessons: schema, both languages, every query on its trace\n"
         "  warpscope lesson list [--dir D]  the lessons, with your progress\n"
         "  warpscope lesson print FILE [--lang en|zh]   a lesson as text: narration, questions, answers");
}

/* ---- flags ---- */

typedef struct cli {
    capture_desc cap;
    const char *backend;
    const char *out, *file;
    int json, all_blocks;
    long pass, block_index; /* -1: not given */
} cli;

/* The flags of the commands that capture or read a trace, in one table: the scanner (cli.h)
 * reads them, the group says which commands take them, parse_flags gives them meaning. */
enum { G_CAPTURE = 1, G_OUT = 2, G_JSON = 4, G_FILE = 8 };
enum { F_VERSION, F_BLOCK, F_N, F_DATA, F_SEED, F_EPT, F_BLOCKS_TRACED, F_BACKEND, F_WORKERS, F_SCHEDULE, F_WARP_ORDER,
       F_DROP_BARRIER, F_DROP_SYNCWARP, F_PASS, F_BLOCK_INDEX, F_OUT, F_OUTPUT, F_JSON, F_ALL_BLOCKS, F_COUNT };
static const struct {
    cli_spec spec;
    unsigned group;
} flag_table[F_COUNT] = {
    [F_VERSION] = {{"--version", CLI_TEXT, 0, 0, NULL}, G_CAPTURE},
    [F_BLOCK] = {{"--block", CLI_NUMBER, 1, 1024, NULL}, G_CAPTURE},
    [F_N] = {{"--n", CLI_NUMBER, 1, (uint64_t)1 << 31, NULL}, G_CAPTURE},
    [F_DATA] = {{"--data", CLI_TEXT, 0, 0, NULL}, G_CAPTURE},
    [F_SEED] = {{"--seed", CLI_NUMBER, 0, UINT64_MAX, NULL}, G_CAPTURE},
    [F_EPT] = {{"--ept", CLI_NUMBER, 1, 4096, NULL}, G_CAPTURE},
    [F_BLOCKS_TRACED] = {{"--blocks-traced", CLI_NUMBER, 1, UINT32_MAX, NULL}, G_CAPTURE},
    [F_BACKEND] = {{"--backend", CLI_TEXT, 0, 0, NULL}, G_CAPTURE},
    [F_WORKERS] = {{"--workers", CLI_NUMBER, 1, 64, NULL}, G_CAPTURE},
    [F_SCHEDULE] = {{"--schedule", CLI_TEXT, 0, 0, NULL}, G_CAPTURE},
    [F_WARP_ORDER] = {{"--warp-order", CLI_TEXT, 0, 0, NULL}, G_CAPTURE},
    [F_DROP_BARRIER] = {{"--drop-barrier", CLI_NUMBER, 1, 1000000, NULL}, G_CAPTURE},
    [F_DROP_SYNCWARP] = {{"--drop-syncwarp", CLI_NUMBER, 1, 1000000, NULL}, G_CAPTURE},
    [F_PASS] = {{"--pass", CLI_NUMBER, 0, UINT32_MAX, NULL}, G_FILE},
    [F_BLOCK_INDEX] = {{"--block-index", CLI_NUMBER, 0, UINT32_MAX, NULL}, G_FILE},
    [F_OUT] = {{"-o", CLI_TEXT, 0, 0, "a file name"}, G_OUT},
    [F_OUTPUT] = {{"--output", CLI_TEXT, 0, 0, "a file name"}, G_OUT},
    [F_JSON] = {{"--json", CLI_SWITCH, 0, 0, NULL}, G_JSON},
    [F_ALL_BLOCKS] = {{"--all-blocks", CLI_SWITCH, 0, 0, NULL}, G_JSON},
};

/* Reads the flags the command takes (--flag value, --flag=value); a positional argument is the
 * input file, where the command takes one. */
static int parse_flags(int argc, char **argv, cli *c, int allow_capture, int allow_out, int allow_json, int allow_file)
{
    unsigned groups = (allow_capture ? G_CAPTURE : 0) | (allow_out ? G_OUT : 0) | (allow_json ? G_JSON : 0) | (allow_file ? G_FILE : 0);
    cli_spec specs[F_COUNT];
    int which[F_COUNT]; /* specs[k] is flag_table[which[k]] */
    size_t n = 0;
    for (int f = 0; f < F_COUNT; f++)
        if (flag_table[f].group & groups) { specs[n] = flag_table[f].spec; which[n++] = f; }
    cli_value got[F_COUNT], v[F_COUNT];
    const char *pos[2];
    size_t npos;
    char why[400];
    if (cli_scan(specs, n, argc, argv, got, pos, allow_file ? 2 : 0, &npos, why, sizeof why)) return usage_error("%s%s", why, "");
    if (npos == 2) return usage_error("two input files given: \"%s\" and \"%s\"", pos[0], pos[1]);
    memset(v, 0, sizeof v);
    for (size_t k = 0; k < n; k++) v[which[k]] = got[k];
    if (npos) c->file = pos[0];
    if (v[F_OUT].given) c->out = v[F_OUT].text;
    if (v[F_OUTPUT].given) c->out = v[F_OUTPUT].text;
    c->json |= v[F_JSON].given;
    c->all_blocks |= v[F_ALL_BLOCKS].given;
    if (v[F_VERSION].given) c->cap.version = v[F_VERSION].text;
    if (v[F_DATA].given) c->cap.data = v[F_DATA].text;
    if (v[F_BACKEND].given) {
        const char *b = v[F_BACKEND].text;
        if (strcmp(b, "auto") && strcmp(b, "cpu") && strcmp(b, "gpu")) return usage_error("--backend must be auto, cpu or gpu, got \"%s\"%s", b, "");
        c->backend = b;
    }
    if (v[F_BLOCK].given) c->cap.block = (unsigned)v[F_BLOCK].num;
    if (v[F_N].given) c->cap.n = v[F_N].num;
    if (v[F_SEED].given) { c->cap.seed = v[F_SEED].num; c->cap.seed_set = 1; }
    if (v[F_EPT].given) c->cap.ept = (unsigned)v[F_EPT].num;
    if (v[F_SCHEDULE].given) c->cap.schedule = v[F_SCHEDULE].text;
    if (v[F_WARP_ORDER].given) c->cap.warp_order = v[F_WARP_ORDER].text;
    if (v[F_DROP_BARRIER].given) c->cap.drop_barrier = (unsigned)v[F_DROP_BARRIER].num;
    if (v[F_DROP_SYNCWARP].given) c->cap.drop_syncwarp = (unsigned)v[F_DROP_SYNCWARP].num;
    if (v[F_BLOCKS_TRACED].given) c->cap.blocks_traced = (unsigned)v[F_BLOCKS_TRACED].num;
    if (v[F_WORKERS].given) c->cap.workers = (unsigned)v[F_WORKERS].num;
    if (v[F_PASS].given) c->pass = (long)v[F_PASS].num;
    if (v[F_BLOCK_INDEX].given) c->block_index = (long)v[F_BLOCK_INDEX].num;
    return 0;
}

/* ---- progress and Ctrl+C ---- */

/* Set by SIGINT; long work (the emulator, writing a file) polls it and stops cleanly. */
static volatile int interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progress of one long step: silent for its first second, then a bar redrawn in place on a
 * terminal, or a plain line every few seconds when stderr is a file or a pipe. */
typedef struct work_bar {
    const char *what;
    double start, last;
    int tty, shown;
} work_bar;

enum { BAR_WIDTH = 30 };
#define PROGRESS_QUIET_S 1.0 /* work shorter than this prints nothing */
#define PROGRESS_TTY_S 0.1   /* redraw interval on a terminal */
#define PROGRESS_LINE_S 5.0  /* interval between plain lines */

static void work_bar_begin(work_bar *p, const char *what)
{
    p->what = what;
    p->start = p->last = now_s();
    p->tty = isatty(STDERR_FILENO);
    p->shown = 0;
}

static void work_bar_update(void *user, uint64_t done, uint64_t total)
{
    work_bar *p = user;
    double t = now_s();
    if (t - p->start < PROGRESS_QUIET_S) return;
    if (p->shown && t - p->last < (p->tty ? PROGRESS_TTY_S : PROGRESS_LINE_S)) return;
    p->last = t;
    p->shown = 1;
    double f = total ? (double)done / (double)total : 0.0;
    if (p->tty) {
        char bar[BAR_WIDTH + 1];
        int full = (int)(f * BAR_WIDTH);
        for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < full ? '#' : '.';
        bar[BAR_WIDTH] = '\0';
        fprintf(stderr, "\r\033[Kwarpscope: %s [%s] %3.0f%% (%" PRIu64 "/%" PRIu64 " blocks, %.0f s)", p->what, bar, 100.0 * f,
                done, total, t - p->start);
    } else {
        fprintf(stderr, "warpscope: %s: %.0f%% (%" PRIu64 " of %" PRIu64 " blocks, %.0f s)\n", p->what, 100.0 * f, done, total,
                t - p->start);
    }
    fflush(stderr);
}

static void work_bar_end(work_bar *p)
{
    if (p->shown && p->tty) fprintf(stderr, "\r\033[K");
}

static int report_interrupt(const char *what)
{
    fprintf(stderr, "warpscope: interrupted%s%s\n", what ? "; " : "", what ? what : "");
    return EXIT_INTERRUPTED;
}

static int do_capture_with(const char *backend, const capture_desc *desc, trace *t)
{
    char err[512], note[600];
    capture_desc d = *desc;
    work_bar p;
    char what[64];
    snprintf(what, sizeof what, "capturing %s", d.version ? d.version : "");
    work_bar_begin(&p, what);
    d.cancel = &interrupted;
    d.progress = work_bar_update;
    d.progress_user = &p;
    int rc = capture_with(backend, &d, t, note, sizeof note, err, sizeof err);
    work_bar_end(&p);
    if (rc && interrupted) return report_interrupt("nothing written");
    if (rc) {
        fprintf(stderr, "warpscope: %s\n", err);
        return EXIT_BAD;
    }
    if (note[0]) fprintf(stderr, "warpscope: %s\n", note);
    return 0;
}

static int do_capture(const capture_desc *d, trace *t) { return do_capture_with("cpu", d, t); }

/* ---- view and render ---- */

/* Viewer flags are taken here; the rest (capture flags, -o, a file) go through parse_flags. */
static int parse_viewer(int argc, char **argv, viewer_opts *o, int headless)
{
    memset(o, 0, sizeof *o);
    o->event = o->phase = o->step = -1;
    /* the viewer's own flags; the rest are capture flags, -o and the trace file (parse_flags) */
    enum { V_COMPARE, V_THEME, V_SIZE, V_EVENT, V_PHASE, V_STEP, V_FRAMES, V_BENCH, V_KEYS, V_LANG, V_ACTIONS, V_LEARN, V_FINE,
           V_PRESENTER, V_COUNT };
    static const cli_spec specs[V_COUNT] = {
        [V_COMPARE] = {"--compare", CLI_TEXT, 0, 0, NULL},        [V_THEME] = {"--theme", CLI_TEXT, 0, 0, NULL},
        [V_SIZE] = {"--size", CLI_TEXT, 0, 0, NULL},              [V_EVENT] = {"--event", CLI_NUMBER, 0, 100000000, NULL},
        [V_PHASE] = {"--phase", CLI_NUMBER, 0, 100000000, NULL},  [V_STEP] = {"--step", CLI_NUMBER, 0, 100000000, NULL},
        [V_FRAMES] = {"--frames", CLI_TEXT, 0, 0, "a folder"},    [V_BENCH] = {"--bench", CLI_TEXT, 0, 0, "a results file"},
        [V_KEYS] = {"--keys", CLI_TEXT, 0, 0, NULL},              [V_LANG] = {"--lang", CLI_TEXT, 0, 0, NULL},
        [V_ACTIONS] = {"--actions", CLI_TEXT, 0, 0, NULL},        [V_LEARN] = {"--learn", CLI_TEXT, 0, 0, "a lesson"},
        [V_FINE] = {"--fine", CLI_SWITCH, 0, 0, NULL},            [V_PRESENTER] = {"--presenter", CLI_SWITCH, 0, 0, NULL}};
    cli_value v[V_COUNT];
    char **rest = calloc((size_t)argc + 1, sizeof *rest), why[400];
    int nrest = 0;
    if (!rest) return usage_error("out of memory%s%s", "", "");
    if (cli_scan_known(specs, V_COUNT, argc, argv, v, rest, &nrest, why, sizeof why)) { free(rest); return usage_error("%s%s", why, ""); }
    for (int k = V_EVENT; k <= V_FRAMES; k++)
        if (v[k].given && !headless) { free(rest); return usage_error("%s is for warpscope render%s", specs[k].name, ""); }
    if (v[V_KEYS].given && headless) { free(rest); return usage_error("--keys drives the window (warpscope view)%s%s", "", ""); }
    if (v[V_SIZE].given) {
        unsigned w = 0, h = 0;
        char tail;
        if (sscanf(v[V_SIZE].text, "%ux%u%c", &w, &h, &tail) != 2 || w < 320 || h < 200 || w > 8192 || h > 8192) {
            free(rest);
            return usage_error("--size expects WIDTHxHEIGHT from 320x200 to 8192x8192, got \"%s\"%s", v[V_SIZE].text, "");
        }
        o->width = (int)w;
        o->height = (int)h;
    }
    if (v[V_LANG].given && strcmp(v[V_LANG].text, "en") && strcmp(v[V_LANG].text, "zh")) {
        free(rest);
        return usage_error("--lang must be en or zh, got \"%s\"%s", v[V_LANG].text, "");
    }
    o->compare = v[V_COMPARE].text;
    o->theme = v[V_THEME].text;
    o->frames = v[V_FRAMES].text;
    o->bench = v[V_BENCH].text;
    o->keys = v[V_KEYS].text;
    o->lang = v[V_LANG].text;
    o->actions = v[V_ACTIONS].text;
    o->learn = v[V_LEARN].text;
    o->fine = v[V_FINE].given;
    o->presenter = v[V_PRESENTER].given;
    if (v[V_EVENT].given) o->event = (long)v[V_EVENT].num;
    if (v[V_PHASE].given) o->phase = (long)v[V_PHASE].num;
    if (v[V_STEP].given) o->step = (long)v[V_STEP].num;
    cli c;
    memset(&c, 0, sizeof c);
    c.pass = c.block_index = -1;
    int rc = parse_flags(nrest, rest, &c, 1, headless, 0, 1);
    free(rest);
    if (rc) return rc;
    if (c.file && c.cap.version) return usage_error("give a trace file or --version, not both (%s, %s)", c.file, c.cap.version);
    if ((o->event >= 0) + (o->phase >= 0) + (o->step >= 0) > 1) return usage_error("give one of --event, --phase, --step%s%s", "", "");
    if (!c.file && c.block_index >= 0 && c.cap.blocks_traced <= (unsigned long)c.block_index)
        c.cap.blocks_traced = (unsigned)c.block_index + 1; /* the block asked for must be traced */
    o->pass = c.pass >= 0 ? (unsigned)c.pass : 0;
    o->block_index = c.block_index >= 0 ? (unsigned)c.block_index : 0;
    o->cap = c.cap;
    o->backend = c.backend;
    o->file = c.file;
    o->out = c.out;
    return 0;
}

static int cmd_view(int argc, char **argv)
{
    viewer_opts o;
    int rc = parse_viewer(argc, argv, &o, 0);
    if (rc) return rc;
    return viewer_window(&o);
}

/* warpscope learn [LESSON] [viewer flags]: the lesson menu, or one lesson */
static int cmd_learn(int argc, char **argv)
{
    const char *name = "";
    if (argc > 0 && argv[0][0] != '-') { name = argv[0]; argc--; argv++; }
    viewer_opts o;
    int rc = parse_viewer(argc, argv, &o, 0);
    if (rc) return rc;
    if (o.file || o.cap.version) return usage_error("learn takes a lesson, not a trace or --version (%s)%s", o.file ? o.file : o.cap.version, "");
    o.learn = name;
    o.lesson_dir = WS_LESSON_DIR;
    return viewer_window(&o);
}

static int cmd_render(int argc, char **argv)
{
    viewer_opts o;
    int rc = parse_viewer(argc, argv, &o, 1);
    if (rc) return rc;
    o.lesson_dir = WS_LESSON_DIR;
    if (!o.out && !o.frames) return usage_error("render needs -o out.png or --frames DIR%s%s", "", "");
    if (!o.file && !o.cap.version && !o.bench && !o.learn) return usage_error("render needs a trace file, --version ID, --learn LESSON or --bench FILE%s%s", "", "");
    return viewer_render(&o);
}

/* ---- export ---- */

/* Export's own flags are taken here; the rest are render's (parse_viewer). */
static int cmd_export(int argc, char **argv)
{
    export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.from = eo.to = -1;
    /* export's own flags; the rest are render's (parse_viewer) */
    enum { X_FROM, X_TO, X_FPS, X_SPEED, X_LESSON, X_NO_MOTION, X_FRAMES, X_BENCH, X_COUNT };
    static const cli_spec specs[X_COUNT] = {
        [X_FROM] = {"--from", CLI_NUMBER, 0, 100000000, NULL}, [X_TO] = {"--to", CLI_NUMBER, 0, 100000000, NULL},
        [X_FPS] = {"--fps", CLI_TEXT, 0, 0, NULL},             [X_SPEED] = {"--speed", CLI_TEXT, 0, 0, NULL},
        [X_LESSON] = {"--lesson", CLI_TEXT, 0, 0, "a lesson"},  [X_NO_MOTION] = {"--no-motion", CLI_SWITCH, 0, 0, NULL},
        [X_FRAMES] = {"--frames", CLI_TEXT, 0, 0, NULL},        [X_BENCH] = {"--bench", CLI_TEXT, 0, 0, NULL}};
    cli_value v[X_COUNT];
    char **rest = calloc((size_t)argc + 1, sizeof *rest), why[400];
    int nrest = 0;
    if (!rest) return usage_error("out of memory%s%s", "", "");
    if (cli_scan_known(specs, X_COUNT, argc, argv, v, rest, &nrest, why, sizeof why)) { free(rest); return usage_error("%s%s", why, ""); }
    if (v[X_FRAMES].given || v[X_BENCH].given) {
        free(rest);
        return usage_error("%s is for warpscope render (export writes frames with -o FOLDER)%s", specs[v[X_FRAMES].given ? X_FRAMES : X_BENCH].name, "");
    }
    if (v[X_FROM].given) eo.from = (long)v[X_FROM].num;
    if (v[X_TO].given) eo.to = (long)v[X_TO].num;
    eo.no_motion = v[X_NO_MOTION].given;
    eo.lesson = v[X_LESSON].text;
    static const struct { int flag; double lo, hi; } reals[] = {{X_FPS, 1, EXPORT_FPS_MAX}, {X_SPEED, 0.1, 60}};
    for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++) {
        const cli_value *x = &v[reals[k].flag];
        if (!x->given) continue;
        char *end;
        errno = 0;
        double d = strtod(x->text, &end);
        if (errno || end == x->text || *end || !(d >= reals[k].lo && d <= reals[k].hi)) {
            free(rest);
            fprintf(stderr, "warpscope: %s expects a number from %g to %g, got \"%s\"\n", specs[reals[k].flag].name, reals[k].lo, reals[k].hi, x->text);
            return EXIT_BAD;
        }
        if (reals[k].flag == X_FPS) eo.fps = d;
        else eo.speed = d;
    }
    int rc = parse_viewer(nrest, rest, &eo.v, 1);
    free(rest);
    if (rc) return rc;
    eo.out = eo.v.out;
    eo.v.lesson_dir = WS_LESSON_DIR;
    if (eo.v.learn && !eo.lesson) eo.lesson = eo.v.learn; /* render's spelling, --learn, works too */
    const viewer_opts *o = &eo.v;
    if (!eo.out) return usage_error("export needs -o OUT: a .gif, .mp4, .webm or .svg file, or a folder for PNG frames%s%s", "", "");
    if (eo.lesson && !eo.lesson[0]) return usage_error("--lesson needs a lesson: an id (\"03\") or a file%s%s", "", "");
    if (eo.lesson && (o->file || o->cap.version || o->compare))
        return usage_error("--lesson shows what the lesson shows: give no trace file, --version or --compare with it%s%s", "", "");
    if (eo.lesson && (eo.from >= 0 || eo.to >= 0 || o->step >= 0 || o->phase >= 0 || o->event >= 0))
        return usage_error("--lesson exports every step of the lesson: no --from, --to, --step, --phase or --event%s%s", "", "");
    if (!eo.lesson && !o->file && !o->cap.version) return usage_error("export needs a trace file, --version ID or --lesson FILE%s%s", "", "");
    if ((eo.from >= 0 || eo.to >= 0) && (o->step >= 0 || o->phase >= 0 || o->event >= 0))
        return usage_error("give --from/--to or one of --step, --phase, --event%s%s", "", "");
    return viewer_export(&eo);
}

/* ---- list ---- */

static int cmd_list(void)
{
    for (size_t i = 0; i < ladder_count; i++) {
        const ladder_version *v = &ladder_versions[i];
        printf("%-6s %-44s %s\n", v->id, v->title, v->summary);
        printf("%-6s %-44s also: %s; blocks %u-%u\n", "", "", v->aliases, v->min_block, v->max_block);
    }
    return 0;
}

/* ---- stats ---- */

typedef struct stats {
    analysis_counters *phases, totals;
    size_t nphases;
} stats;

static int compute_stats(const trace *t, unsigned pass, unsigned block, stats *s)
{
    if (pass >= t->npasses) {
        fprintf(stderr, "warpscope: --pass %u: the trace has pass%s 0%s%zu\n", pass, t->npasses > 1 ? "es" : "",
                t->npasses > 1 ? " to " : "", t->npasses > 1 ? t->npasses - 1 : (size_t)0);
        return EXIT_BAD;
    }
    if (block >= t->passes[pass].grid) {
        fprintf(stderr, "warpscope: --block-index %u: pass %u has blocks 0 to %u\n", block, pass, t->passes[pass].grid - 1);
        return EXIT_BAD;
    }
    if (analysis_phases(t, pass, block, &s->phases, &s->nphases, &s->totals)) {
        fprintf(stderr, "warpscope: the trace holds no events of block %u of pass %u (blocks 0 to %u were traced; --blocks-traced)\n",
                block, pass, t->prov.blocks_traced ? t->prov.blocks_traced - 1 : 0);
        return EXIT_BAD;
    }
    return 0;
}

/* Totals summed over every traced block of a pass (what a profiler counts for a whole launch,
 * when every block is traced), in one pass over the events. Returns the number of blocks, or -1
 * when out of memory. */
static int all_blocks_totals(const trace *t, unsigned pass, analysis_counters *sum)
{
    analysis_grid g;
    memset(sum, 0, sizeof *sum);
    if (analysis_grid_build(t, &g)) return -1;
    int n = analysis_grid_totals(&g, pass, sum);
    analysis_grid_free(&g);
    return n;
}

/* Every block's partial sum in a pass (what thread 0 stored at element blockIdx.x, the grid
 * view's tiles), as a JSON array by block index: null where the block was not traced. */
static void json_partials(const trace *t, unsigned pass)
{
    analysis_grid g;
    printf("[");
    if (pass < t->npasses && !analysis_grid_build(t, &g)) {
        for (unsigned b = 0; b < t->passes[pass].grid; b++) {
            const analysis_block *ab = analysis_grid_find(&g, pass, b);
            if (ab && ab->has_partial) printf("%s%.9g", b ? ", " : "", (double)ab->partial);
            else printf("%snull", b ? ", " : "");
        }
        analysis_grid_free(&g);
    }
    printf("]");
}

/* A JSON string: quotes, backslashes and control characters escaped, so the output stays JSON
 * whatever a trace file's provenance holds. */
static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

/* One line on stderr when a result is off its double-precision reference by more than the
 * tolerance for its n (a wrong result is a finding, not a number); 1 then, else 0. */
static int report_result(const trace *t)
{
    if (trace_result_ok(t) != 0) return 0;
    fprintf(stderr, "warpscope: WRONG RESULT: %s computed %.9g, the double-precision reference is %.17g; off by %.3g, more than the %.3g allowed for n = %" PRIu64 "\n",
            t->prov.version, (double)t->result, t->reference, fabs((double)t->result - t->reference), t->tolerance, t->prov.n);
    return 1;
}

static void json_counters(const analysis_counters *c)
{
    printf("{\"active_threads\": %" PRIu64 ", \"idle_threads\": %" PRIu64 ", \"warp_instructions\": %" PRIu64
           ", \"divergent_warp_instructions\": %" PRIu64 ", \"bank_conflicts_load\": %" PRIu64
           ", \"bank_conflicts_store\": %" PRIu64 ", \"shared_loads\": %" PRIu64 ", \"shared_stores\": %" PRIu64
           ", \"global_requests\": %" PRIu64 ", \"global_sectors\": %" PRIu64 ", \"global_sectors_min\": %" PRIu64
           ", \"shuffles\": %" PRIu64 ", \"barriers\": %" PRIu64 ", \"simd_efficiency\": %.6f}",
           c->active_threads, c->idle_threads, c->warp_instructions, c->divergent_warp_instructions,
           c->bank_conflicts_load, c->bank_conflicts_store, c->shared_loads, c->shared_stores, c->global_requests,
           c->global_sectors, c->global_sectors_min, c->shuffles, c->barriers, c->simd_efficiency);
}

static void print_row(const char *label, const analysis_counters *c)
{
    printf("%-6s %7" PRIu64 " %6" PRIu64 " %10" PRIu64 " %10" PRIu64 " %7" PRIu64 "/%-7" PRIu64 " %7.1f%% %8" PRIu64 "/%-6" PRIu64 " %5" PRIu64 "\n",
           label, c->active_threads, c->idle_threads, c->warp_instructions, c->divergent_warp_instructions,
           c->bank_conflicts_load, c->bank_conflicts_store, 100.0 * c->simd_efficiency, c->global_sectors,
           c->global_sectors_min, c->shuffles);
}

static int cmd_stats(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    c.pass = c.block_index = -1;
    int rc = parse_flags(argc, argv, &c, 1, 0, 1, 1);
    if (rc) return rc;
    if (c.file && c.cap.version) return usage_error("give a trace file or --version, not both (%s, %s)", c.file, c.cap.version);
    if (!c.file && !c.cap.version) return usage_error("stats needs a trace file or --version ID%s%s", "", "");
    trace t;
    trace_init(&t);
    if (c.file) {
        char err[512];
        /* reading writes nothing: Ctrl+C may end it at once */
        signal(SIGINT, SIG_DFL);
        int rrc = trace_read_file(&t, c.file, err, sizeof err);
        catch_interrupts();
        if (rrc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    } else {
        /* the block asked for must be traced */
        if (c.block_index >= 0 && c.cap.blocks_traced <= (unsigned long)c.block_index)
            c.cap.blocks_traced = (unsigned)c.block_index + 1;
        if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) return rc;
    }
    unsigned pass = c.pass >= 0 ? (unsigned)c.pass : 0, block = c.block_index >= 0 ? (unsigned)c.block_index : 0;
    stats s;
    if ((rc = compute_stats(&t, pass, block, &s))) { trace_free(&t); return rc; }
    const ladder_version *v = ladder_find(t.prov.version);
    const trace_provenance *p = &t.prov;
    if (c.json) {
        int ok = trace_result_ok(&t);
        printf("{\"version\": ");
        json_str(p->version);
        printf(", \"title\": ");
        json_str(v ? v->title : "");
        printf(", \"device\": ");
        json_str(p->device);
        printf(", \"block\": %u, \"n\": %" PRIu64 ", \"data\": ", p->block, p->n);
        json_str(p->data);
        printf(", \"seed\": %" PRIu64 ", \"elems_per_thread\": %u, \"passes\": %zu, \"result\": %.9g, \"reference\": %.17g, \"tolerance\": %.17g, \"result_ok\": %s,\n"
               " \"pass\": %u, \"block_index\": %u, \"phases\": [",
               p->seed, p->elems_per_thread, t.npasses, (double)t.result, t.reference, t.tolerance,
               ok < 0 ? "null" : ok ? "true" : "false", pass, block);
        for (size_t i = 0; i < s.nphases; i++) {
            printf("%s\n  ", i ? "," : "");
            json_counters(&s.phases[i]);
        }
        printf("],\n \"totals\": ");
        json_counters(&s.totals);
        if (c.all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, pass, &all);
            printf(",\n \"all_blocks\": %d, \"totals_all_blocks\": ", nb);
            json_counters(&all);
            printf(",\n \"partials_all_blocks\": ");
            json_partials(&t, pass);
        }
        printf("}\n");
    } else {
        printf("%s: %s\n", p->version, v ? v->title : "(unknown version)");
        printf("%s, block %u, n %" PRIu64 ", data %s (seed %" PRIu64 "), %zu pass%s; counters of block %u, pass %u\n\n",
               p->device, p->block, p->n, p->data, p->seed, t.npasses, t.npasses == 1 ? "" : "es", block, pass);
        printf("%-6s %7s %6s %10s %10s %15s %8s %15s %5s\n", "phase", "active", "idle", "warp-instr", "divergent",
               "conflicts ld/st", "SIMD", "sectors/min", "shfl");
        for (size_t i = 0; i < s.nphases; i++) {
            char label[24];
            snprintf(label, sizeof label, "%zu", i);
            print_row(label, &s.phases[i]);
        }
        print_row("total", &s.totals);
        if (c.all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, pass, &all);
            char label[32];
            snprintf(label, sizeof label, "%d blk", nb);
            print_row(label, &all);
        }
        int ok = trace_result_ok(&t);
        printf("\nresult %.9g, double-precision reference %.17g, difference %.3g: %s\n", (double)t.result, t.reference,
               fabs((double)t.result - t.reference),
               ok < 0 ? "not checked (the trace carries no tolerance)" : ok ? "within the tolerance for this n" : "WRONG");
    }
    int wrong = report_result(&t);
    free(s.phases);
    trace_free(&t);
    return wrong ? EXIT_WRONG : 0;
}

/* ---- capture ---- */

static int cmd_capture(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    c.pass = c.block_index = -1;
    int rc = parse_flags(argc, argv, &c, 1, 1, 0, 0);
    if (rc) return rc;
    if (!c.cap.version) return usage_error("capture needs --version ID%s%s", "", "");
    if (!c.out) return usage_error("capture needs -o FILE%s%s", "", "");
    trace t;
    trace_init(&t);
    if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) return rc;
    char err[512];
    double t0 = now_s();
    int wrc = trace_save(&t, c.out, &interrupted, err, sizeof err);
    if (wrc) {
        trace_free(&t);
        if (wrc == -2) return report_interrupt("nothing written");
        fprintf(stderr, "warpscope: %s\n", err);
        return EXIT_BAD;
    }
    if (now_s() - t0 > PROGRESS_QUIET_S) fprintf(stderr, "warpscope: wrote %s in %.1f s\n", c.out, now_s() - t0);
    fprintf(stderr, "warpscope: %s captured on %s: %zu events, block %u, n %" PRIu64 ", result %.9g -> %s\n",
            t.prov.version, t.prov.device, t.nevents, t.prov.block, t.prov.n, (double)t.result, c.out);
    int wrong = report_result(&t);
    trace_free(&t);
    return wrong ? EXIT_WRONG : 0;
}

/* ---- hazards ---- */

/* The text of line n of a kernel file (without its indentation), or "". */
static void source_line(const char *file, unsigned n, char *out, size_t len)
{
    out[0] = '\0';
    const char *s = sources_find(file);
    for (unsigned k = 1; s && k < n; k++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    if (!s) return;
    s += strspn(s, " \t");
    size_t l = strcspn(s, "\n");
    snprintf(out, len, "%.*s", (int)(l < len ? l : len - 1), s);
}

static int cmd_hazards(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    int rc = parse_flags(argc, argv, &c, 1, 0, 1, 0);
    if (rc) return rc;
    if (!c.cap.version) return usage_error("hazards needs --version ID%s%s", "", "");
    if (c.backend && strcmp(c.backend, "cpu")) return usage_error("hazards runs on the emulator (--backend cpu); compute-sanitizer racecheck is the GPU's%s%s", "", "");
    trace t;
    trace_init(&t);
    if ((rc = do_capture(&c.cap, &t))) return rc;
    const trace_provenance *p = &t.prov;
    double tol = t.tolerance; /* the capture's own, carried in the trace */
    int right = trace_result_ok(&t) != 0;
    uint64_t pairs = 0;
    for (size_t i = 0; i < t.nhazards; i++) pairs += t.hazards[i].count;
    if (c.json) {
        printf("{\"version\": \"%s\", \"block\": %u, \"n\": %" PRIu64 ", \"data\": \"%s\", \"seed\": %" PRIu64
               ", \"schedule\": \"%s\", \"drop_barrier\": %u, \"drop_syncwarp\": %u, \"race_check\": \"%s\",\n"
               " \"result\": %.9g, \"reference\": %.17g, \"tolerance\": %.3g, \"right\": %s, \"pairs\": %" PRIu64 ",\n \"hazards\": [",
               p->version, p->block, p->n, p->data, p->seed, p->schedule, p->drop_barrier, p->drop_syncwarp, p->race_check,
               (double)t.result, t.reference, tol, right ? "true" : "false", pairs);
        for (size_t i = 0; i < t.nhazards; i++) {
            const trace_hazard *h = &t.hazards[i];
            printf("%s\n  {\"kind\": \"%s\", \"space\": \"%s\", \"buffer\": \"%s\", \"pass\": %u, \"word\": %" PRId64
                   ", \"count\": %u, \"first\": {\"line\": %u, \"block\": %u, \"thread\": %u, \"access\": \"%s\"}"
                   ", \"second\": {\"line\": %u, \"block\": %u, \"thread\": %u, \"access\": \"%s\"}}",
                   i ? "," : "", trace_hazard_label((trace_hazard_kind)h->kind), h->space == TRACE_SPACE_GLOBAL ? "global" : "shared",
                   h->space == TRACE_SPACE_GLOBAL && h->buf < t.nbuffers ? t.buffers[h->buf].name : "", h->pass, h->word,
                   h->count, h->first.line, h->first.block, h->first.thread, h->first.write ? "write" : "read",
                   h->second.line, h->second.block, h->second.thread, h->second.write ? "write" : "read");
        }
        printf("]}\n");
        trace_free(&t);
        return 0;
    }
    const ladder_version *v = ladder_find(p->version);
    printf("%s: %s\n", p->version, v ? v->title : "");
    printf("block %u, n %" PRIu64 ", data %s (seed %" PRIu64 "), schedule %s", p->block, p->n, p->data, p->seed, p->schedule);
    if (p->drop_barrier) printf(", without the __syncthreads() of line %u", p->drop_barrier);
    if (p->drop_syncwarp) printf(", without the __syncwarp() of line %u", p->drop_syncwarp);
    printf("\nresult %.9g against the double-precision reference %.17g: %s\n", (double)t.result, t.reference,
           right ? "right" : "WRONG");
    if (!t.nhazards) {
        printf("no hazards (%s memory watched)\n", p->race_check);
        trace_free(&t);
        return 0;
    }
    printf("%zu hazard%s (pairs of source lines), %" PRIu64 " racing pairs of accesses (%s memory watched):\n\n", t.nhazards,
           t.nhazards == 1 ? "" : "s", pairs, p->race_check);
    printf("%-4s %-6s %-7s %-26s %-26s %12s %7s\n", "kind", "space", "pass", "first (ran first)", "second", "word", "count");
    for (size_t i = 0; i < t.nhazards; i++) {
        const trace_hazard *h = &t.hazards[i];
        char a[64], b[64], w[40];
        snprintf(a, sizeof a, "line %u %s, thread %u", h->first.line, h->first.write ? "write" : "read", h->first.thread);
        snprintf(b, sizeof b, "line %u %s, thread %u", h->second.line, h->second.write ? "write" : "read", h->second.thread);
        if (h->first.block != h->second.block) {
            snprintf(a + strlen(a), sizeof a - strlen(a), " (block %u)", h->first.block);
            snprintf(b + strlen(b), sizeof b - strlen(b), " (block %u)", h->second.block);
        }
        if (h->space == TRACE_SPACE_GLOBAL)
            snprintf(w, sizeof w, "%s[%" PRId64 "]", h->buf < t.nbuffers ? t.buffers[h->buf].name : "?", h->word);
        else
            snprintf(w, sizeof w, "%" PRId64, h->word);
        printf("%-4s %-6s %-7u %-26s %-26s %12s %7u\n", trace_hazard_label((trace_hazard_kind)h->kind),
               h->space == TRACE_SPACE_GLOBAL ? "global" : "shared", h->pass, a, b, w, h->count);
    }
    /* the lines named, as the kernel file has them */
    unsigned shown[64];
    size_t nshown = 0;
    printf("\n");
    for (size_t i = 0; i < t.nhazards; i++) {
        unsigned lines[2] = {t.hazards[i].first.line, t.hazards[i].second.line};
        for (int k = 0; k < 2; k++) {
            int seen = 0;
            for (size_t j = 0; j < nshown; j++) seen |= shown[j] == lines[k];
            if (seen || nshown == 64) continue;
            shown[nshown++] = lines[k];
            char text[160];
            source_line(p->source, lines[k], text, sizeof text);
            printf("%s:%u: %s\n", p->source, lines[k], text);
        }
    }
    trace_free(&t);
    return 0;
}

/* ---- perf ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double trace_mb(const trace *t)
{
    return (double)(t->cap_events * sizeof *t->events + t->cap_lanes * sizeof *t->lane_addr + t->cap_vals * sizeof *t->values) / 1e6;
}

static void perf_row(const char *what, double wall, double cpu, const char *target, int ok)
{
    printf("%-58s %8.2f s %8.2f s  %-10s %s\n", what, wall, cpu, target, ok ? "met" : "MISSED");
}

/* The whole grid: a 2^20-element v2 launch with every block traced, then analysed; v6 at 2^24
 * with one traced block (what stats does); the whole-grid trace saved compact and loaded back. */
static int perf_grid(void)
{
    char err[512];
    trace t;
    trace_init(&t);
    unsigned workers = emu_default_workers();
    printf("\nthe whole grid (%u worker%s; wall and CPU time, one run each)\n", workers, workers == 1 ? "" : "s");
    printf("%-58s %10s %10s  %-10s\n", "", "wall", "CPU", "target");
    capture_desc d = {.version = "v2", .block = 256, .n = (uint64_t)1 << 20, .blocks_traced = 1u << 30};
    double w0 = now_s(), c0 = cpu_s();
    if (capture_cpu(&d, &t, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    analysis_grid g;
    if (analysis_grid_build(&t, &g)) { fprintf(stderr, "warpscope: out of memory\n"); trace_free(&t); return EXIT_BAD; }
    double w1 = now_s(), c1 = cpu_s();
    char what[128];
    snprintf(what, sizeof what, "v2, n 2^20, all %zu blocks traced + analysed (%zu events)", g.nblocks, t.nevents);
    perf_row(what, w1 - w0, c1 - c0, "<= 2 s", w1 - w0 <= 2.0);
    analysis_grid_free(&g);

    char path[] = "/tmp/warpscope-perf-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { fprintf(stderr, "warpscope: cannot make a temporary file in /tmp\n"); trace_free(&t); return EXIT_BAD; }
    close(fd);
    unlink(path);
    char file[64];
    snprintf(file, sizeof file, "%s.wstrace", path);
    w0 = now_s();
    int rc = trace_save(&t, file, NULL, err, sizeof err);
    w1 = now_s();
    trace_free(&t);
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    FILE *f = fopen(file, "rb");
    long bytes = 0;
    if (f) { fseek(f, 0, SEEK_END); bytes = ftell(f); fclose(f); }
    snprintf(what, sizeof what, "  save it compact (%.1f MB)", (double)bytes / 1e6);
    perf_row(what, w1 - w0, w1 - w0, "", 1);
    w0 = now_s();
    c0 = cpu_s();
    rc = trace_read_file(&t, file, err, sizeof err);
    if (!rc && analysis_grid_build(&t, &g)) rc = -1;
    w1 = now_s();
    c1 = cpu_s();
    remove(file);
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); trace_free(&t); return EXIT_BAD; }
    /* at most the file's bytes (read whole) and the trace's arrays live at once, then the grid */
    double mb = trace_mb(&t) + (double)bytes / 1e6 + (double)(t.nevents * sizeof *g.order + g.nblocks * sizeof *g.blocks) / 1e6;
    snprintf(what, sizeof what, "  load it back + the grid's facts (%.0f MB in memory)", mb);
    perf_row(what, w1 - w0, c1 - c0, "<= 1 s, < 300 MB", w1 - w0 <= 1.0 && mb < 300.0);
    analysis_grid_free(&g);
    trace_free(&t);

    capture_desc d6 = {.version = "v6", .n = (uint64_t)1 << 24};
    w0 = now_s();
    c0 = cpu_s();
    if (capture_cpu(&d6, &t, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    analysis_counters *ph, tot;
    size_t nph;
    if (analysis_phases(&t, 0, 0, &ph, &nph, &tot) == 0) free(ph);
    w1 = now_s();
    c1 = cpu_s();
    snprintf(what, sizeof what, "v6, n 2^24, one block traced (stats --version v6 --n 2^24)");
    perf_row(what, w1 - w0, c1 - c0, "<= 3 s", w1 - w0 <= 3.0);
    trace_free(&t);
    puts("times are wall-clock on this machine as it is (other processes count); CPU is summed over the workers");
    return 0;
}

static int cmd_perf(int argc, char **argv)
{
    if (argc < 1 || (strcmp(argv[0], "capture") != 0 && strcmp(argv[0], "draw") != 0 && strcmp(argv[0], "export") != 0))
        return usage_error("perf takes one benchmark: capture, draw or export%s%s", "", "");
    if (argc > 1) return usage_error("unexpected argument \"%s\"%s", argv[1], "");
    if (!strcmp(argv[0], "draw")) return viewer_perf_draw();
    if (!strcmp(argv[0], "export")) return viewer_perf_export();
    enum { REPS = 7 };
    static const unsigned blocks[] = {256, 1024};
    /* kept between captures, as the viewer keeps it: its stacks stay mapped */
    emu *warm = emu_create();
    if (!warm) { fprintf(stderr, "warpscope: out of memory for the emulator\n"); return EXIT_BAD; }
    printf("capture of one block (n = block * elements per thread), CPU emulator, median of %d runs;\n"
           "cold: a fresh emulator (a page fault per thread's stack), warm: one kept between captures\n", REPS);
    printf("%-6s %6s %8s %9s %9s %10s %10s %8s\n", "version", "block", "events", "cold", "warm", "to JSON", "JSON size", "target");
    for (size_t i = 0; i < ladder_count; i++) {
        for (size_t b = 0; b < 2; b++) {
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = ladder_versions[i].id;
            d.block = blocks[b];
            d.data = "random-float";
            double tc[REPS], tj[REPS], tw[REPS];
            size_t bytes = 0, events = 0;
            for (int r = 0; r < REPS; r++) {
                trace t;
                trace_init(&t);
                double t0 = now_ms();
                int rc = do_capture(&d, &t);
                if (rc) return rc;
                double t1 = now_ms();
                char *json = trace_to_json(&t);
                double t2 = now_ms();
                if (!json) { fprintf(stderr, "warpscope: out of memory\n"); trace_free(&t); return EXIT_BAD; }
                bytes = strlen(json);
                events = t.nevents;
                free(json);
                trace_free(&t);
                tc[r] = t1 - t0;
                tj[r] = t2 - t1;
                d.emu = warm;
                trace_init(&t);
                t0 = now_ms();
                rc = do_capture(&d, &t);
                tw[r] = now_ms() - t0;
                trace_free(&t);
                d.emu = NULL;
                if (rc) { emu_destroy(warm); return rc; }
            }
            qsort(tw, REPS, sizeof *tw, cmp_double);
            qsort(tc, REPS, sizeof *tc, cmp_double);
            qsort(tj, REPS, sizeof *tj, cmp_double);
            int ok = tw[REPS / 2] <= 10.0 && bytes < 1000000;
            printf("%-7s %6u %8zu %6.2f ms %6.2f ms %7.2f ms %7.1f kB %8s\n", ladder_versions[i].id, blocks[b], events,
                   tc[REPS / 2], tw[REPS / 2], tj[REPS / 2], (double)bytes / 1000.0, ok ? "met" : "MISSED");
        }
    }
    emu_destroy(warm);
    puts("target: a capture (warm) at most 10 ms, JSON under 1 MB");
    return perf_grid();
}

/* ---- default: the ladder at a glance ---- */

static int cmd_ladder(void)
{
    printf("The reduction ladder in the CPU emulator: each version at its default block, one block's worth of its default data;\n"
           "counters of block 0 summed over its phases (conflicts are extra shared-memory wavefronts).\n\n");
    printf("%-6s %-44s %5s %6s %7s %10s %9s %15s %6s %13s %12s\n", "id", "title", "block", "phases", "idle", "warp-instr",
           "divergent", "conflicts ld/st", "SIMD", "sectors/min", "result/ref");
    for (size_t i = 0; i < ladder_count; i++) {
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = ladder_versions[i].id;
        trace t;
        trace_init(&t);
        int rc = do_capture(&d, &t);
        if (rc) return rc;
        stats s;
        if ((rc = compute_stats(&t, 0, 0, &s))) { trace_free(&t); return rc; }
        const analysis_counters *c = &s.totals;
        char rr[40];
        snprintf(rr, sizeof rr, "%.9g/%.9g%s", (double)t.result, t.reference, trace_result_ok(&t) == 0 ? " WRONG" : "");
        printf("%-6s %-44s %5u %6zu %7" PRIu64 " %10" PRIu64 " %9" PRIu64 " %7" PRIu64 "/%-7" PRIu64 " %5.1f%% %6" PRIu64 "/%-6" PRIu64 " %12s\n",
               d.version, ladder_versions[i].title, t.prov.block, s.nphases, c->idle_threads, c->warp_instructions,
               c->divergent_warp_instructions, c->bank_conflicts_load, c->bank_conflicts_store,
               100.0 * c->simd_efficiency, c->global_sectors, c->global_sectors_min, rr);
        free(s.phases);
        trace_free(&t);
    }
    printf("\nMore: warpscope list | warpscope stats --version v2 | warpscope help\n");
    return 0;
}

/* ---- lessons: check and list (the player window is the viewer's) ---- */

#ifndef WS_LESSON_DIR
#define WS_LESSON_DIR "lessons"
#endif

static void print_report(void *ud, const char *message)
{
    (void)ud;
    fprintf(stderr, "warpscope: %s\n", message);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lesson files of a folder, sorted by name; NULL-terminated, malloc'd. */
static char **lesson_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    char **v = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || e->d_name[0] == '.') continue;
        char **nv = realloc(v, (*n + 2) * sizeof *nv);
        char *path = malloc(strlen(dir) + len + 2);
        if (!nv || !path) { free(path); free(nv ? nv : v); closedir(d); *n = 0; return NULL; }
        v = nv;
        sprintf(path, "%s/%s", dir, e->d_name);
        v[(*n)++] = path;
        v[*n] = NULL;
    }
    closedir(d);
    if (v) qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

/* The lesson as text, step by step: narration with its numbers filled in, each question and its
 * answer. What a teacher reads to prepare, and a lesson's author to proofread. */
static int lesson_print(const char *file, lesson_lang lang)
{
    char err[1600];
    lesson l;
    if (lesson_load(&l, file, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    player p;
    int rc = 0;
    if (player_open(&p, &l, NULL, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); lesson_free(&l); return EXIT_BAD; }
    static char buf[8192];
    printf("# %s\n\n", l.title.s[lang]);
    for (size_t i = 0; i < player_count(&p) && !rc; i++) {
        if (i && player_goto(&p, i, err, sizeof err)) { rc = EXIT_BAD; break; }
        const player_frame *f = player_current(&p);
        printf("## %zu/%zu  %s%s%s, step %zu (phase %u, line %u)\n", i + 1, player_count(&p), f->show->version,
               f->cap_compare.version ? " | " : "", f->cap_compare.version ? f->cap_compare.version : "", f->step,
               f->view->steps[f->step].phase, f->view->steps[f->step].line);
        if (player_text(&p, PLAYER_TEXT_SAY, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("%s\n", buf);
        const lesson_ask *a = player_question(&p);
        if (!a) { putchar('\n'); continue; }
        if (player_text(&p, PLAYER_TEXT_PROMPT, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("\n  ? [%s] %s\n", lesson_ask_keys[a->kind], buf);
        for (size_t o = 0; o < a->noptions; o++) {
            if (player_text(&p, PLAYER_TEXT_OPTION, o, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
            printf("    %c) %s\n", (int)('a' + o), buf);
        }
        query_value v;
        if (player_expected(&p, &v, err, sizeof err)) { rc = EXIT_BAD; break; }
        char ans[2048];
        if (a->kind == LESSON_ASK_CHOICE) {
            size_t k = 0;
            ans[0] = '\0';
            for (size_t o = 0; o < a->noptions; o++)
                if (query_set_has(&v, o)) k += (size_t)snprintf(ans + k, sizeof ans - k, "%s%c", k ? ", " : "", (int)('a' + o));
        } else {
            query_format(&v, "", ans, sizeof ans);
        }
        printf("  = %s\n", ans);
        if (player_text(&p, PLAYER_TEXT_EXPLAIN, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("  ! %s\n\n", buf);
    }
    if (rc) fprintf(stderr, "warpscope: %s\n", err);
    player_close(&p);
    lesson_free(&l);
    return rc;
}

static int cmd_lesson(int argc, char **argv)
{
    if (argc < 1 || (strcmp(argv[0], "check") && strcmp(argv[0], "list") && strcmp(argv[0], "print")))
        return usage_error("lesson takes check FILE..., list [--dir DIR] or print FILE [--lang en|zh]%s%s", "", "");
    char err[1600];
    if (!strcmp(argv[0], "print")) {
        static const cli_spec specs[] = {{"--lang", CLI_TEXT, 0, 0, NULL}};
        cli_value v[1];
        const char *pos[1], *file = NULL;
        size_t npos;
        if (cli_scan(specs, 1, argc - 1, argv + 1, v, pos, 1, &npos, err, sizeof err))
            return usage_error("%s (lesson print FILE [--lang en|zh])%s", err, "");
        lesson_lang lang = LESSON_EN;
        if (v[0].given && !strcmp(v[0].text, "zh")) lang = LESSON_ZH;
        else if (v[0].given && strcmp(v[0].text, "en")) return usage_error("--lang must be en or zh, got \"%s\"%s", v[0].text, "");
        if (npos) file = pos[0];
        if (!file) return usage_error("lesson print needs a lesson file%s%s", "", "");
        return lesson_print(file, lang);
    }
    if (!strcmp(argv[0], "check")) {
        if (argc < 2) return usage_error("lesson check needs lesson files%s%s", "", "");
        size_t bad = 0;
        for (int i = 1; i < argc; i++) {
            lesson l;
            if (lesson_load(&l, argv[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); bad++; continue; }
            size_t nq = 0;
            for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
            size_t e = player_check(&l, print_report, NULL);
            if (!e) printf("%s: ok: %s, %zu steps, %zu questions\n", argv[i], l.id, l.nsteps, nq);
            bad += e;
            lesson_free(&l);
        }
        return bad ? EXIT_BAD : 0;
    }
    static const cli_spec dir_spec[] = {{"--dir", CLI_TEXT, 0, 0, "a folder"}};
    cli_value dv[1];
    const char *dpos[1];
    size_t dnpos;
    if (cli_scan(dir_spec, 1, argc - 1, argv + 1, dv, dpos, 0, &dnpos, err, sizeof err))
        return usage_error("%s (lesson list [--dir DIR])%s", err, "");
    const char *dir = dv[0].given ? dv[0].text : WS_LESSON_DIR;
    size_t n;
    char **files = lesson_files(dir, &n);
    if (!n) { free(files); fprintf(stderr, "warpscope: %s: no lesson files (*.json) there\n", dir); return EXIT_BAD; }
    progress prog;
    char pdir[1024];
    int have_prog = progress_default_dir(pdir, sizeof pdir, err, sizeof err) == 0 && progress_load(&prog, pdir, err, sizeof err) == 0;
    if (!have_prog) fprintf(stderr, "warpscope: progress not shown: %s\n", err);
    int rc = 0;
    char (*ids)[sizeof ((lesson *)0)->id] = calloc(n, sizeof *ids);
    if (!ids) { fprintf(stderr, "warpscope: out of memory\n"); rc = EXIT_BAD; n = 0; }
    for (size_t i = 0; i < n; i++) {
        lesson l;
        if (lesson_load(&l, files[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); rc = EXIT_BAD; continue; }
        /* progress is kept by id: two files with one id would share it */
        size_t dup = 0;
        while (dup < i && strcmp(ids[dup], l.id) != 0) dup++;
        snprintf(ids[i], sizeof ids[i], "%s", l.id);
        if (dup < i) {
            fprintf(stderr, "warpscope: %s: id \"%s\" is already the id of %s\n", files[i], l.id, files[dup]);
            rc = EXIT_BAD;
        }
        size_t nq = 0;
        for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
        const progress_entry *e = have_prog ? progress_find(&prog, l.id, 0) : NULL;
        char mark[64];
        if (!e) snprintf(mark, sizeof mark, "new");
        else if (e->done) snprintf(mark, sizeof mark, "done, %u/%zu right", progress_count_solved(e), nq);
        else snprintf(mark, sizeof mark, "step %zu/%zu, %u/%zu right", e->step + 1, l.nsteps, progress_count_solved(e), nq);
        printf("%-22s %-24s %s  |  %s\n", l.id, mark, l.title.s[LESSON_EN], l.title.s[LESSON_ZH]);
        lesson_free(&l);
    }
    for (size_t i = 0; files && files[i]; i++) free(files[i]);
    free(files);
    free(ids);
    if (have_prog) progress_free(&prog);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) { /* the built-in default: v0 at a block small enough to read */
        viewer_opts o;
        memset(&o, 0, sizeof o);
        o.cap.version = "v0";
        o.cap.block = 64;
        o.event = o.phase = o.step = -1;
        return viewer_window(&o);
    }
    /* Large arrays (a trace's events and lanes) always get their own mapping, so that growing them
     * is a remap, not a copy; glibc would otherwise raise this threshold after the first large
     * free and copy a whole-grid trace several times while it grows. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    /* the window takes Ctrl+C as SDL's quit event; everything else stops through `interrupted` */
    if (strcmp(argv[1], "view") != 0) catch_interrupts();
    if (strcmp(argv[1], "ladder") == 0) return cmd_ladder();
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) { print_help(); return 0; }
    if (strcmp(cmd, "list") == 0) {
        if (argc > 2) return usage_error("unexpected argument \"%s\"%s", argv[2], "");
        return cmd_list();
    }
    if (strcmp(cmd, "stats") == 0) return cmd_stats(argc - 2, argv + 2);
    if (strcmp(cmd, "capture") == 0) return cmd_capture(argc - 2, argv + 2);
    if (strcmp(cmd, "perf") == 0) return cmd_perf(argc - 2, argv + 2);
    if (strcmp(cmd, "hazards") == 0) return cmd_hazards(argc - 2, argv + 2);
    if (strcmp(cmd, "view") == 0) return cmd_view(argc - 2, argv + 2);
    if (strcmp(cmd, "learn") == 0) return cmd_learn(argc - 2, argv + 2);
    if (strcmp(cmd, "verify") == 0) return verify_main(argc - 2, argv + 2);
    if (strcmp(cmd, "render") == 0) return cmd_render(argc - 2, argv + 2);
    if (strcmp(cmd, "export") == 0) return cmd_export(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0) return bench_main(argc - 2, argv + 2);
    if (strcmp(cmd, "lesson") == 0) return cmd_lesson(argc - 2, argv + 2);
    return usage_error("unknown command \"%s\"%s", cmd, "");
}
