/* warpscope: the command line. Owns all printing and exit codes; the libraries only return a
 * status and a message. Exit 0 on success, 2 on bad usage or bad input (one line saying what and
 * where), as the README documents. The commands and their flags are one table (app/commands.c):
 * main finds the row, answers --help from it, scans exactly the flags it lists, and calls its
 * handler below with the values. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace/analysis.h"
#include "app/bench.h"
#include "trace/capture/capture.h"
#include "app/cli.h"
#include "app/commands.h"
#include "app/export/export.h"
#include "trace/cards.h"
#include "trace/ladder.h"
#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"
#include "trace/capture/schedule.h"
#include "trace/sources.h"
#include "trace/outfile.h"
#include "trace/infile.h"
#include "trace/json_internal.h"
#include <cjson/cJSON.h>
#include "app/learn/exercise.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "app/learn/progress.h"
#include "trace/trace.h"
#include "trace/words.h"
#include "app/verify.h"
#include "app/web_pack.h"
#include "app/viewer/viewer.h"

enum { EXIT_BAD = 2, EXIT_WRONG = 1 /* a result off its reference: the trace is written, the finding reported */,
       EXIT_INTERRUPTED = 130 /* 128 + SIGINT, as shells report it */ };

/* The command being run, for the pointer at the end of a usage error (main sets it once). */
static const ws_command *running;

static int usage_error(const char *fmt, const char *a, const char *b)
{
    char title[64];
    fprintf(stderr, "warpscope: ");
    fprintf(stderr, fmt, a, b);
    if (running && running->name[0]) fprintf(stderr, " (%s --help lists its flags)\n", commands_title(running, title, sizeof title));
    else fprintf(stderr, " (warpscope help lists the commands)\n");
    return EXIT_BAD;
}

/* ---- where the data is ---- */

#ifndef WS_DATA_FROM_BIN
#define WS_DATA_FROM_BIN "../share/warpscope" /* GNUInstallDirs: from CMAKE_INSTALL_BINDIR to CMAKE_INSTALL_DATADIR/warpscope */
#endif

enum { DATA_PATH_MAX = PATH_MAX + 64 }; /* the program's folder and a few names after it */
typedef struct data_dirs {
    char assets[DATA_PATH_MAX + 16], lessons[DATA_PATH_MAX + 16], include[DATA_PATH_MAX + 16];
} data_dirs;

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_assets(const char *dir)
{
    char probe[DATA_PATH_MAX + 16];
    snprintf(probe, sizeof probe, "%s/assets", dir);
    return is_dir(probe);
}

/* The folders of assets and lessons, found relative to the program itself: installed as
 * PREFIX/bin/warpscope it reads PREFIX/share/warpscope; in a build folder, configure made
 * BUILD/share/warpscope (links to the source's assets/ and lessons/). WARPSCOPE_DATA names the
 * folder that holds both, WARPSCOPE_ASSETS the assets alone. 0, or one line on stderr and 2. */
static int find_data(data_dirs *d, int need_assets, int need_lessons)
{
    const char *data = getenv("WARPSCOPE_DATA"), *assets = getenv("WARPSCOPE_ASSETS");
    char base[DATA_PATH_MAX] = "", tried[2][DATA_PATH_MAX] = {"", ""};
    if (data && *data) {
        snprintf(base, sizeof base, "%s", data);
    } else {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = '\0';
            char *slash = strrchr(exe, '/');
            if (slash) *slash = '\0';
            snprintf(tried[0], sizeof tried[0], "%s/%s", exe, WS_DATA_FROM_BIN); /* installed */
            snprintf(tried[1], sizeof tried[1], "%s/share/warpscope", exe);      /* a build folder */
            const char *found = has_assets(tried[0]) ? tried[0] : has_assets(tried[1]) ? tried[1] : NULL;
            if (found) snprintf(base, sizeof base, "%s", found);
        }
    }
    snprintf(d->assets, sizeof d->assets, "%s/assets", base);
    snprintf(d->lessons, sizeof d->lessons, "%s/lessons", base);
    snprintf(d->include, sizeof d->include, "%s/include", base);
    if (assets && *assets) snprintf(d->assets, sizeof d->assets, "%s", assets);
    if (!base[0] && (need_lessons || (need_assets && !(assets && *assets)))) {
        if (tried[0][0])
            fprintf(stderr, "warpscope: cannot find warpscope's data (assets/ and lessons/) in %s or %s; set WARPSCOPE_DATA to the folder that holds them\n",
                    tried[0], tried[1]);
        else
            fprintf(stderr, "warpscope: cannot tell where the program is (/proc/self/exe); set WARPSCOPE_DATA to the folder that holds assets/ and lessons/\n");
        return EXIT_BAD;
    }
    static const struct {
        const char *what, *env;
    } names[2] = {{"assets", "WARPSCOPE_ASSETS"}, {"lessons", "WARPSCOPE_DATA"}};
    for (int k = 0; k < 2; k++) {
        const char *dir = k ? d->lessons : d->assets;
        if (!(k ? need_lessons : need_assets) || is_dir(dir)) continue;
        const char *env = k == 0 && assets && *assets ? names[0].env : data && *data ? "WARPSCOPE_DATA" : NULL;
        fprintf(stderr, "warpscope: %s: no such folder (warpscope's %s)%s%s%s\n", dir, names[k].what, env ? "; check " : "", env ? env : "",
                env ? "" : "; the installation is incomplete");
        return EXIT_BAD;
    }
    return 0;
}

/* ---- flags: the values the table's scan gave ---- */

typedef struct cli {
    capture_desc cap;
    const char *backend;
    const char *out, *file;
    long pass, block_index; /* -1: not given */
    const char *card;       /* --card: an id of trace/cards.h; NULL: the trace's GPU or the default */
} cli;

/* A trace's title: its version's, or for a kernel of one's own the file's name. */
static const char *title_of(const trace_provenance *p, const ladder_version *v)
{
    return v ? v->title : strcmp(p->version, OWN_VERSION) == 0 ? p->source : "(unknown version)";
}

/* --kernel FILE, --entry, --define: a kernel of one's own, captured as version OWN_VERSION; it
 * compiles against the headers in warpscope's data (include/). The strings live as long as the
 * command: read_viewer copies the capture description out of the cli it fills. */
static int read_kernel_flags(const cli_value *v, cli *c)
{
    static data_dirs d;
    static char defines_text[OWN_DEFINES_MAX * OWN_DEFINE_LEN];
    static const char *defines[OWN_DEFINES_MAX + 2];
    if (v[WF_VERSION].given) return usage_error("give --kernel or --version, not both (%s, %s)", v[WF_KERNEL].text, v[WF_VERSION].text);
    if (find_data(&d, 1, 0)) return EXIT_BAD;
    c->cap.kernel = v[WF_KERNEL].text;
    c->cap.version = OWN_VERSION;
    c->cap.entry = v[WF_ENTRY].given ? v[WF_ENTRY].text : NULL;
    c->cap.include_dir = d.include;
    if (v[WF_RESULT].given) {
        const char *r = v[WF_RESULT].text;
        if (strcmp(r, "in") && strcmp(r, "out")) return usage_error("--result must be out or in, got \"%s\"%s", r, "");
        c->cap.result_in = strcmp(r, "in") == 0;
    }
    if (v[WF_DEFINE].given) {
        if (strlen(v[WF_DEFINE].text) >= sizeof defines_text) {
            char lim[32];
            snprintf(lim, sizeof lim, "%zu", sizeof defines_text - 1);
            return usage_error("--define: longer than the %s bytes warpscope takes%s", lim, "");
        }
        snprintf(defines_text, sizeof defines_text, "%s", v[WF_DEFINE].text);
        int n = 0; /* one past the limit, so that build.c names the excess */
        for (char *tok = strtok(defines_text, ","); tok && n <= OWN_DEFINES_MAX; tok = strtok(NULL, ",")) defines[n++] = tok;
        defines[n] = NULL;
        c->cap.defines = defines;
    }
    return 0;
}

/* The capture flags, the block shown, -o and the trace file, as the command takes them. */
static int read_capture(const ws_call *k, cli *c)
{
    const cli_value *v = k->v;
    memset(c, 0, sizeof *c);
    c->pass = c->block_index = -1;
    if (k->cmd->operand == WS_OPERAND_TRACE && k->npos) c->file = k->pos[0];
    if (v[WF_OUT].given) c->out = v[WF_OUT].text;
    if (v[WF_OUTPUT].given) c->out = v[WF_OUTPUT].text;
    if (v[WF_VERSION].given) c->cap.version = v[WF_VERSION].text;
    if (v[WF_DATA].given) c->cap.data = v[WF_DATA].text;
    if (v[WF_BACKEND].given) {
        const char *b = v[WF_BACKEND].text;
        if (strcmp(b, "auto") && strcmp(b, "cpu") && strcmp(b, "gpu")) return usage_error("--backend must be auto, cpu or gpu, got \"%s\"%s", b, "");
        c->backend = b;
    }
    if (v[WF_BLOCK].given) c->cap.block = (unsigned)v[WF_BLOCK].num;
    if (v[WF_N].given) c->cap.n = v[WF_N].num;
    if (v[WF_SEED].given) { c->cap.seed = v[WF_SEED].num; c->cap.seed_set = 1; }
    if (v[WF_EPT].given) c->cap.ept = (unsigned)v[WF_EPT].num;
    if (v[WF_SCHEDULE].given) c->cap.schedule = v[WF_SCHEDULE].text;
    if (v[WF_WARP_ORDER].given) c->cap.warp_order = v[WF_WARP_ORDER].text;
    if (v[WF_DROP_BARRIER].given) c->cap.drop_barrier = (unsigned)v[WF_DROP_BARRIER].num;
    if (v[WF_DROP_SYNCWARP].given) c->cap.drop_syncwarp = (unsigned)v[WF_DROP_SYNCWARP].num;
    if (v[WF_BLOCKS_TRACED].given) c->cap.blocks_traced = (unsigned)v[WF_BLOCKS_TRACED].num;
    if (v[WF_WORKERS].given) c->cap.workers = (unsigned)v[WF_WORKERS].num;
    if (v[WF_KERNEL].given && read_kernel_flags(v, c)) return EXIT_BAD;
    if (v[WF_CARD].given) {
        if (!card_find(v[WF_CARD].text)) { /* a spelling whole, never a part: "h1000" is no H100 */
            char why[512];
            card_unknown(v[WF_CARD].text, why, sizeof why);
            return usage_error("--card: %s%s", why, "");
        }
        c->card = v[WF_CARD].text;
        c->cap.card = c->card; /* a kernel of one's own asks the card what it is */
    }
    if (v[WF_PASS].given) c->pass = (long)v[WF_PASS].num;
    if (v[WF_BLOCK_INDEX].given) c->block_index = (long)v[WF_BLOCK_INDEX].num;
    if (c->file && c->cap.kernel) return usage_error("give a trace file or --kernel, not both (%s, %s)", c->file, c->cap.kernel);
    if (c->file && c->cap.version) return usage_error("give a trace file or --version, not both (%s, %s)", c->file, c->cap.version);
    /* the block asked for must be traced */
    if (!c->file && c->block_index >= 0 && c->cap.blocks_traced <= (unsigned long)c->block_index)
        c->cap.blocks_traced = (unsigned)c->block_index + 1;
    return 0;
}

/* ---- progress and Ctrl+C ---- */

/* Set by SIGINT or SIGTERM (to the signal's number); long work (the emulator, drawing frames,
 * writing a file) polls it and stops cleanly, writing nothing. */
static volatile int interrupted;

static void on_sigint(int sig) { interrupted = sig; }

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
    const char *what, *unit; /* "capturing", "blocks" */
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
    p->unit = "blocks";
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
        fprintf(stderr, "\r\033[Kwarpscope: %s [%s] %3.0f%% (%" PRIu64 "/%" PRIu64 " %s, %.0f s)", p->what, bar, 100.0 * f,
                done, total, p->unit, t - p->start);
    } else {
        fprintf(stderr, "warpscope: %s: %.0f%% (%" PRIu64 " of %" PRIu64 " %s, %.0f s)\n", p->what, 100.0 * f, done, total, p->unit,
                t - p->start);
    }
    fflush(stderr);
}

static void work_bar_end(work_bar *p)
{
    if (p->shown && p->tty) fprintf(stderr, "\r\033[K");
}

/* 130 after SIGINT, 143 after SIGTERM: 128 + the signal, as shells report it */
static int report_interrupt(const char *what)
{
    fprintf(stderr, "warpscope: interrupted%s%s\n", what ? "; " : "", what ? what : "");
    return interrupted ? 128 + interrupted : EXIT_INTERRUPTED;
}

static int do_capture_with(const char *backend, const capture_desc *desc, trace *t)
{
    char err[512], note[600];
    capture_desc d = *desc;
    trace_init(t);
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

/* capture and hazards: a version to capture, given by --version */
static int read_version_to_capture(const ws_call *k, cli *c)
{
    int rc = read_capture(k, c);
    if (rc) return rc;
    if (!c->cap.version) return usage_error("%s needs --version ID%s", k->cmd->name, "");
    return 0;
}

/* ---- view and render ---- */

/* The viewer's flags and, through read_capture, what it shows. */
enum { VIEW_TRACE_ALL_N = 1 << 20 };

static int read_viewer(const ws_call *k, viewer_opts *o)
{
    const cli_value *v = k->v;
    memset(o, 0, sizeof *o);
    o->event = o->phase = o->step = -1;
    if (v[WF_SIZE].given) {
        unsigned w = 0, h = 0;
        char tail;
        if (sscanf(v[WF_SIZE].text, "%ux%u%c", &w, &h, &tail) != 2 || w < 320 || h < 200 || w > 8192 || h > 8192)
            return usage_error("--size expects WIDTHxHEIGHT from 320x200 to 8192x8192, got \"%s\"%s", v[WF_SIZE].text, "");
        o->width = (int)w;
        o->height = (int)h;
    }
    if (v[WF_LANG].given && strcmp(v[WF_LANG].text, "en") && strcmp(v[WF_LANG].text, "zh"))
        return usage_error("--lang must be en or zh, got \"%s\"%s", v[WF_LANG].text, "");
    o->compare = v[WF_COMPARE].text;
    o->theme = v[WF_THEME].text;
    o->frames = v[WF_FRAMES].text;
    o->metrics = v[WF_METRICS].text;
    o->bench = v[WF_BENCH].text;
    o->keys = v[WF_KEYS].text;
    o->lang = v[WF_LANG].text;
    o->actions = v[WF_ACTIONS].text;
    o->learn = v[WF_LEARN].text;
    o->fine = v[WF_FINE].given;
    o->presenter = v[WF_PRESENTER].given;
    if (v[WF_EVENT].given) o->event = (long)v[WF_EVENT].num;
    if (v[WF_PHASE].given) o->phase = (long)v[WF_PHASE].num;
    if (v[WF_STEP].given) o->step = (long)v[WF_STEP].num;
    cli c;
    int rc = read_capture(k, &c);
    if (rc) return rc;
    if ((o->event >= 0) + (o->phase >= 0) + (o->step >= 0) > 1) return usage_error("give one of --event, --phase, --step%s%s", "", "");
    /* the grid view shows every block's partial sum where tracing them all costs well under a
     * second (a whole 2^20 grid of any version: perf capture); beyond, --blocks-traced asks */
    if (!k->v[WF_BLOCKS_TRACED].given && !c.file && !c.cap.kernel && c.cap.n <= VIEW_TRACE_ALL_N) c.cap.blocks_traced = UINT32_MAX;
    o->card = c.card;
    o->pass = c.pass >= 0 ? (unsigned)c.pass : 0;
    o->block_index = c.block_index >= 0 ? (unsigned)c.block_index : 0;
    o->cap = c.cap;
    o->backend = c.backend;
    o->file = c.file;
    o->out = c.out;
    return 0;
}

/* render and export, headless: the capture shows its progress and stops on SIGINT or SIGTERM, and
 * so do drawing and writing the frames (viewer_opts.cap.cancel) */
static void with_progress(viewer_opts *o, work_bar *bar)
{
    work_bar_begin(bar, "capturing");
    o->cap.cancel = &interrupted;
    o->cap.progress = work_bar_update;
    o->cap.progress_user = bar;
}

/* export: after its capture, the same line counts the steps written */
static void export_progress(void *user, uint64_t done, uint64_t total)
{
    work_bar *p = user;
    const char *what = p->what, *unit = p->unit; /* a capture during the export counts its blocks again */
    p->what = "exporting";
    p->unit = "steps";
    work_bar_update(p, done, total);
    p->what = what;
    p->unit = unit;
}

static int viewer_stopped(int rc, work_bar *bar)
{
    work_bar_end(bar);
    return rc == VIEWER_STOPPED ? report_interrupt("nothing written") : rc;
}

/* the viewer's data: its assets always, the lessons when it shows one (d holds the paths) */
static int find_viewer_data(viewer_opts *o, data_dirs *d, int need_lessons)
{
    int rc = find_data(d, 1, need_lessons);
    if (rc) return rc;
    o->assets_dir = d->assets;
    o->lesson_dir = d->lessons;
    return 0;
}

/* warpscope with no command: v0, at the block size every command takes by default (256) */
int cmd_default(const ws_call *k)
{
    (void)k;
    data_dirs d;
    viewer_opts o;
    memset(&o, 0, sizeof o);
    o.cap.version = "v0";
    o.cap.blocks_traced = UINT32_MAX; /* one block: the grid view has its partial sum, as view's has */
    o.event = o.phase = o.step = -1;
    int rc = find_viewer_data(&o, &d, 0);
    return rc ? rc : viewer_window(&o);
}

int cmd_view(const ws_call *k)
{
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc || (rc = find_viewer_data(&o, &d, 0))) return rc;
    return viewer_window(&o);
}

/* warpscope learn [LESSON] [viewer flags]: the lesson menu, or one lesson */
int cmd_learn(const ws_call *k)
{
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc || (rc = find_viewer_data(&o, &d, 1))) return rc;
    o.learn = k->npos ? k->pos[0] : "";
    return viewer_window(&o);
}

static int exercise_viewer(const char *name, const char *file, viewer_opts *o);

int cmd_render(const ws_call *k)
{
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc) return rc;
    if (!o.out && !o.frames) return usage_error("render needs -o out.png or --frames DIR%s%s", "", "");
    if (k->v[WF_EXERCISE].given && (rc = exercise_viewer(k->v[WF_EXERCISE].text, o.cap.kernel, &o))) return rc;
    if (!o.file && !o.cap.version && !o.bench && !o.learn)
        return usage_error("render needs a trace file, --version ID, --learn LESSON, --exercise EXERCISE or --bench FILE%s%s", "", "");
    if ((rc = find_viewer_data(&o, &d, o.learn != NULL))) return rc;
    work_bar bar;
    with_progress(&o, &bar);
    return viewer_stopped(viewer_render(&o), &bar);
}

/* ---- export ---- */

int cmd_export(const ws_call *k)
{
    const cli_value *v = k->v;
    export_opts eo;
    memset(&eo, 0, sizeof eo);
    int rc = read_viewer(k, &eo.v);
    if (rc) return rc;
    eo.from = v[WF_FROM].given ? (long)v[WF_FROM].num : -1;
    eo.to = v[WF_TO].given ? (long)v[WF_TO].num : -1;
    eo.no_motion = v[WF_NO_MOTION].given;
    eo.lesson = v[WF_LESSON].given ? v[WF_LESSON].text : eo.v.learn; /* render's spelling, --learn, works too */
    static const struct { ws_flag flag; double lo, hi; } reals[] = {{WF_FPS, 1, EXPORT_FPS_MAX}, {WF_SPEED, 0.1, 60}};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        const cli_value *x = &v[reals[i].flag];
        if (!x->given) continue;
        char *end;
        errno = 0;
        double d = strtod(x->text, &end);
        if (errno || end == x->text || *end || !(d >= reals[i].lo && d <= reals[i].hi)) {
            fprintf(stderr, "warpscope: %s expects a number from %g to %g, got \"%s\"\n", ws_flags[reals[i].flag].spec.name, reals[i].lo,
                    reals[i].hi, x->text);
            return EXIT_BAD;
        }
        if (reals[i].flag == WF_FPS) eo.fps = d;
        else eo.speed = d;
    }
    eo.out = eo.v.out;
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
    data_dirs d;
    if ((rc = find_viewer_data(&eo.v, &d, eo.lesson != NULL))) return rc;
    work_bar bar;
    with_progress(&eo.v, &bar);
    eo.progress = export_progress;
    eo.progress_user = &bar;
    return viewer_stopped(viewer_export(&eo), &bar);
}

/* ---- list ---- */

/* warpscope web -o DIR: the page's data */
int cmd_web(const ws_call *k)
{
    const char *dir = k->v[WF_OUT].text;
    if (!dir) return usage_error("give -o DIR, the folder the page's data goes into%s%s", "", "");
    if (!is_dir(dir)) return usage_error("%s: no such folder%s", dir, "");
    data_dirs d;
    int rc = find_data(&d, 1, 1);
    if (rc) return rc;
    catch_interrupts();
    char err[512] = "";
    web_pack_stats st;
    rc = web_pack_write(&(web_pack_opts){.dir = dir, .lesson_dir = d.lessons, .assets_dir = d.assets, .cancel = &interrupted}, &st, err,
                        sizeof err);
    if (rc == -2 || (rc && interrupted)) return report_interrupt("nothing written");
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    fprintf(stderr, "warpscope: %zu files and %zu traces (%.1f MB) -> %s/warpscope.pack%s\n", st.files, st.traces, (double)st.bytes / 1e6,
            dir, "");
    if (st.skipped) fprintf(stderr, "warpscope: %zu captures did not run and are not in the pack (the page says so where they are asked for)\n", st.skipped);
    return 0;
}

/* warpscope cards: the card table */
int cmd_cards(const ws_call *k)
{
    (void)k;
    printf("%-10s %-22s %4s %5s %14s %13s %13s %13s\n", "card", "name", "cc", "SMs", "threads/SM", "blocks/SM", "registers/SM",
           "shared/SM");
    for (size_t i = 0; i < ncards; i++) {
        const card *c = &cards[i];
        printf("%-10s %-22s %2u.%u %5u %14u %13u %13u %10u KB\n", c->id, c->name, c->cc_major, c->cc_minor, c->sms, c->threads_per_sm,
               c->blocks_per_sm, c->regs_per_sm, c->shared_per_sm / 1024);
    }
    printf("\nThe SMs a kernel's blocks are shared among, and what one SM holds (CUDA C++ Programming Guide, compute\n"
           "capabilities); --card NAME puts a launch on one: warpscope stats --card gtx1060 --version v2 --n 2^20\n");
    return 0;
}

/* One pass's schedule on a card: as JSON (an object) or as a sentence. */
static void print_schedule(FILE *out, const trace *t, unsigned pass, const char *name, int json)
{
    const card *cd = card_for_trace(t, name);
    card_schedule s;
    char err[256];
    int bad = !cd || card_schedule_pass(cd, t, pass, &s, err, sizeof err);
    const trace_pass *p = &t->passes[pass];
    card_observed o;
    int seen = card_observe(t, pass, &o) == 0;
    if (json) {
        fprintf(out, ",\n \"schedule\": ");
        if (bad) { fprintf(out, "null"); return; }
        fprintf(out, "{\"card\": \"%s\", \"card_name\": \"%s\", \"grid\": %u, \"block\": %u, \"shared_bytes\": %u, \"registers\": ", cd->id,
               cd->name, p->grid, p->block, p->shared_bytes);
        if (p->registers) fprintf(out, "%u", p->registers);
        else fprintf(out, "null");
        fprintf(out, ", \"sms\": %u, \"blocks_per_sm\": %u, \"resident_blocks\": %" PRIu64 ", \"waves\": %" PRIu64
               ", \"last_wave_blocks\": %" PRIu64 ", \"occupancy\": %.4f, \"limited_by\": \"%s\", \"blocks_per_sm_by\": {",
               s.sms, s.blocks_per_sm, s.resident_blocks, s.waves, s.last_wave_blocks, s.occupancy, card_limit_word(s.limit));
        for (int k = 0; k < CARD_LIMIT_COUNT; k++) {
            fprintf(out, "%s\"%s\": ", k ? ", " : "", card_limit_word((card_limit)k));
            if (s.by[k] == UINT32_MAX) fprintf(out, "null");
            else fprintf(out, "%u", s.by[k]);
        }
        fprintf(out, "}, \"observed\": ");
        if (seen) fprintf(out, "{\"blocks\": %" PRIu64 ", \"sms_used\": %u, \"most_blocks_live_on_one_sm\": %u, \"blocks_started_before_first_ended\": %" PRIu64
                         ", \"span_ns\": %" PRIu64 "}}", o.blocks, o.sms_used, o.most_live_on_one_sm, o.started_before_first_end, o.span_ns);
        else fprintf(out, "null}");
        return;
    }
    if (bad) { fprintf(out, "\nschedule: %s\n", cd ? err : "no such card"); return; }
    fprintf(out, "\non the %s (%u SMs; --card picks another): %u block%s of %u threads per SM (limited by %s), %" PRIu64
           " at once; pass %u's grid of %u block%s takes %" PRIu64 " wave%s, the last filling %" PRIu64 " of %" PRIu64 " slots%s\n",
           cd->name, s.sms, s.blocks_per_sm, s.blocks_per_sm == 1 ? "" : "s", p->block, card_limit_text(s.limit), s.resident_blocks,
           pass, p->grid, p->grid == 1 ? "" : "s", s.waves, s.waves == 1 ? "" : "s", s.last_wave_blocks, s.resident_blocks,
           p->registers ? "" : " (registers per thread are not in the trace: left out)");
    if (seen)
        fprintf(out, "as it ran on the %s: %" PRIu64 " blocks on %u SMs, at most %u live on one SM, %" PRIu64 " started before the first ended; %.1f us "
               "from the first start to the last end\n", t->prov.device, o.blocks, o.sms_used, o.most_live_on_one_sm, o.started_before_first_end, (double)o.span_ns / 1000.0);
}

int cmd_list(const ws_call *k)
{
    (void)k;
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
        if (t->npasses == 1) fprintf(stderr, "warpscope: --pass %u: the trace has 1 pass (0)\n", pass);
        else fprintf(stderr, "warpscope: --pass %u: the trace has %zu passes (0 to %zu)\n", pass, t->npasses, t->npasses - 1);
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

/* Every traced block's partial sum in a pass (what thread 0 stored at element blockIdx.x, the grid
 * view's tiles), as a JSON object keyed by block index: only the blocks the trace holds, so the
 * output follows the file's size, not the grid it declares. */
static void json_partials(const trace *t, unsigned pass)
{
    analysis_grid g;
    printf("{");
    if (pass < t->npasses && !analysis_grid_build(t, &g)) {
        int first = 1;
        for (size_t i = g.pass_first[pass]; i < g.pass_first[pass + 1]; i++) {
            const analysis_block *ab = &g.blocks[i];
            if (!ab->has_partial) continue;
            printf("%s\"%u\": %.9g", first ? "" : ", ", ab->block, (double)ab->partial);
            first = 0;
        }
        analysis_grid_free(&g);
    }
    printf("}");
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
    if (trace_result_verdict(t) == TRACE_RACING) { /* right here, but not a result to trust: said, not an error */
        char verdict[400];
        trace_verdict_words(t, verdict, sizeof verdict);
        fprintf(stderr, "warpscope: RACING: %s computed %.9g, %s\n", t->prov.version, (double)t->result, verdict);
    }
    if (trace_result_ok(t) != 0) return 0;
    char partials[400] = "";
    if (trace_unsummed_partials(t, partials + 2, sizeof partials - 2)) memcpy(partials, ": ", 2);
    fprintf(stderr, "warpscope: WRONG RESULT: %s computed %.9g, the double-precision reference is %.17g; off by %.3g, more than the %.3g allowed for n = %" PRIu64 "%s\n",
            t->prov.version, (double)t->result, t->reference, fabs((double)t->result - t->reference), t->tolerance, t->prov.n, partials);
    return 1;
}

/* the exit status of a command done with its trace: EXIT_WRONG when the sum is wrong */
static int finish_with_result(trace *t)
{
    int wrong = report_result(t);
    trace_free(t);
    return wrong ? EXIT_WRONG : 0;
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

int cmd_stats(const ws_call *k)
{
    cli c;
    int rc = read_capture(k, &c);
    if (rc) return rc;
    int json = k->v[WF_JSON].given, all_blocks = k->v[WF_ALL_BLOCKS].given;
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
        if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) return rc;
    }
    unsigned pass = c.pass >= 0 ? (unsigned)c.pass : 0, block = c.block_index >= 0 ? (unsigned)c.block_index : 0;
    stats s;
    if ((rc = compute_stats(&t, pass, block, &s))) { trace_free(&t); return rc; }
    const ladder_version *v = ladder_find(t.prov.version);
    const trace_provenance *p = &t.prov;
    if (json) {
        int ok = trace_result_ok(&t);
        printf("{\"version\": ");
        json_str(p->version);
        printf(", \"title\": ");
        json_str(title_of(p, v));
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
        print_schedule(stdout, &t, pass, c.card, 1);
        if (all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, pass, &all);
            printf(",\n \"all_blocks\": %d, \"totals_all_blocks\": ", nb);
            json_counters(&all);
            printf(",\n \"partials_all_blocks\": ");
            json_partials(&t, pass);
        }
        printf("}\n");
    } else {
        printf("%s: %s\n", p->version, title_of(p, v));
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
        if (all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, pass, &all);
            char label[32];
            snprintf(label, sizeof label, "%d blk", nb);
            print_row(label, &all);
        }
        char verdict[400];
        trace_verdict_words(&t, verdict, sizeof verdict);
        printf("\nresult %.9g, double-precision reference %.17g, difference %.3g: %s\n", (double)t.result, t.reference,
               fabs((double)t.result - t.reference), verdict);
        char partials[400];
        if (trace_result_ok(&t) == 0 && trace_unsummed_partials(&t, partials, sizeof partials)) printf("%s\n", partials);
        print_schedule(stdout, &t, pass, c.card, 0);
    }
    free(s.phases);
    return finish_with_result(&t);
}

/* ---- capture ---- */

int cmd_capture(const ws_call *k)
{
    cli c;
    int rc = read_version_to_capture(k, &c);
    if (rc) return rc;
    if (!c.out) return usage_error("capture needs -o FILE%s%s", "", "");
    trace t;
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
    if (c.card) print_schedule(stderr, &t, 0, c.card, 0); /* --card: pass 0 on that card */
    return finish_with_result(&t);
}

/* ---- hazards ---- */

int cmd_hazards(const ws_call *k)
{
    cli c;
    int rc = read_version_to_capture(k, &c);
    if (rc) return rc;
    if (c.backend && strcmp(c.backend, "cpu")) return usage_error("hazards runs on the emulator (--backend cpu); compute-sanitizer racecheck is the GPU's%s%s", "", "");
    trace t;
    if ((rc = do_capture(&c.cap, &t))) return rc;
    const trace_provenance *p = &t.prov;
    double tol = t.tolerance; /* the capture's own, carried in the trace */
    int right = trace_result_ok(&t) != 0; /* within the tolerance under this schedule; "verdict" weighs the races too */
    static const char *const verdict_names[] = {[TRACE_UNCHECKED] = "unchecked", [TRACE_RIGHT] = "right", [TRACE_RACING] = "racing",
                                                [TRACE_WRONG] = "wrong"};
    uint64_t pairs = 0;
    for (size_t i = 0; i < t.nhazards; i++) pairs += t.hazards[i].count;
    if (k->v[WF_JSON].given) {
        printf("{\"version\": \"%s\", \"block\": %u, \"n\": %" PRIu64 ", \"data\": \"%s\", \"seed\": %" PRIu64
               ", \"schedule\": \"%s\", \"drop_barrier\": %u, \"drop_syncwarp\": %u, \"race_check\": \"%s\",\n"
               " \"result\": %.9g, \"reference\": %.17g, \"tolerance\": %.3g, \"right\": %s, \"verdict\": \"%s\", \"pairs\": %" PRIu64
               ",\n \"hazards\": [",
               p->version, p->block, p->n, p->data, p->seed, p->schedule, p->drop_barrier, p->drop_syncwarp, p->race_check,
               (double)t.result, t.reference, tol, right ? "true" : "false", verdict_names[trace_result_verdict(&t)], pairs);
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
    printf("%s: %s\n", p->version, title_of(p, v));
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
        for (int l = 0; l < 2; l++) {
            int seen = 0;
            for (size_t j = 0; j < nshown; j++) seen |= shown[j] == lines[l];
            if (seen || nshown == 64) continue;
            shown[nshown++] = lines[l];
            char text[160];
            trace_text_line_copy(sources_find(p->source), lines[l], text, sizeof text);
            printf("%s:%u: %s\n", p->source, lines[l], text);
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

int cmd_perf_draw(const ws_call *k)
{
    (void)k;
    data_dirs d;
    int rc = find_data(&d, 1, 0);
    return rc ? rc : viewer_perf_draw(d.assets);
}

int cmd_perf_export(const ws_call *k)
{
    (void)k;
    data_dirs d;
    int rc = find_data(&d, 1, 0);
    return rc ? rc : viewer_perf_export(d.assets);
}

int cmd_perf_capture(const ws_call *k)
{
    (void)k;
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

/* A one-kernel file as a learner writes it (sequential addressing), for perf kernel. */
static const char perf_kernel_file[] =
    "__global__ void reduce(const float *in, float *out, unsigned n)\n"
    "{\n"
    "    __shared__ float sdata[256];\n"
    "    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    sdata[tid] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        if (tid < s) sdata[tid] += sdata[tid + s];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (tid == 0) out[blockIdx.x] = sdata[0];\n"
    "}\n";

/* Removes the files perf kernel's cache folder holds, then the folders. */
static void remove_cache(const char *root)
{
    char dir[PATH_MAX], path[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s/warpscope", root);
    DIR *dh = opendir(dir);
    for (struct dirent *de; dh && (de = readdir(dh));) {
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    if (dh) closedir(dh);
    rmdir(dir);
}

int cmd_perf_kernel(const ws_call *k)
{
    (void)k;
    enum { COLD = 3, WARM = 9 };
    data_dirs d;
    int rc = find_data(&d, 1, 0);
    if (rc) return rc;
    char root[] = "/tmp/warpscope-perf-XXXXXX", file[sizeof root + 16];
    if (!mkdtemp(root)) { fprintf(stderr, "warpscope: cannot make a folder in /tmp: %s\n", strerror(errno)); return EXIT_BAD; }
    snprintf(file, sizeof file, "%s/reduce.cu", root);
    FILE *f = fopen(file, "w");
    if (!f || fputs(perf_kernel_file, f) < 0 || fclose(f)) {
        fprintf(stderr, "warpscope: cannot write %s\n", file);
        rmdir(root);
        return EXIT_BAD;
    }
    const char *old = getenv("XDG_CACHE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_CACHE_HOME", root, 1);
    capture_desc c;
    memset(&c, 0, sizeof c);
    c.version = OWN_VERSION;
    c.kernel = file;
    c.entry = "reduce<<<(n + 255) / 256, 256>>>(in, out, n)";
    c.include_dir = d.include;
    c.n = 256;
    c.cancel = &interrupted;
    double cold[COLD], warm[WARM], build[WARM], traced[WARM];
    char err[1024] = "";
    printf("a one-kernel file (sequential addressing, 12 lines), n = 256, median of %d cold and %d cached runs\n", COLD, WARM);
    for (int r = 0; r < COLD + WARM && !rc; r++) {
        if (r < COLD) remove_cache(root);
        trace t;
        trace_init(&t);
        double t0 = now_ms();
        if (capture_own(&c, &t, err, sizeof err)) rc = EXIT_BAD;
        double ms = now_ms() - t0;
        trace_free(&t);
        own_build_info info;
        own_last_build(&info);
        if (r < COLD) cold[r] = ms;
        else warm[r - COLD] = ms, build[r - COLD] = info.build_ms, traced[r - COLD] = info.run_ms;
    }
    /* a new process each time, the object in the cache: what a learner's second run costs */
    double proc[WARM];
    char exe[PATH_MAX] = "", cmd[2 * PATH_MAX + 200];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(cmd, sizeof cmd, "'%s' stats --kernel '%s' --entry '%s' --n 256 >/dev/null 2>&1", exe, file, c.entry);
    for (int r = 0; r < WARM && !rc; r++) {
        double t0 = now_ms();
        if (system(cmd) != 0) { rc = EXIT_BAD; snprintf(err, sizeof err, "a second warpscope (stats --kernel) failed"); }
        proc[r] = now_ms() - t0;
    }
    remove_cache(root);
    unlink(file);
    rmdir(root);
    if (saved) setenv("XDG_CACHE_HOME", saved, 1);
    else unsetenv("XDG_CACHE_HOME");
    free(saved);
    if (rc) {
        if (interrupted) return report_interrupt(NULL);
        fprintf(stderr, "warpscope: perf kernel: %s\n", err);
        return rc;
    }
    qsort(cold, COLD, sizeof *cold, cmp_double);
    qsort(warm, WARM, sizeof *warm, cmp_double);
    qsort(build, WARM, sizeof *build, cmp_double);
    qsort(traced, WARM, sizeof *traced, cmp_double);
    printf("cold (parse, compile, load, trace) %8.1f ms   target 3000 ms: %s\n", cold[COLD / 2], cold[COLD / 2] <= 3000 ? "met" : "MISSED");
    printf("cached: key, lookup and loading    %8.1f ms   target 50 ms: %s\n", build[WARM / 2], build[WARM / 2] <= 50 ? "met" : "MISSED");
    qsort(proc, WARM, sizeof *proc, cmp_double);
    printf("cached: the whole capture          %8.1f ms (in this process, the object already loaded)\n", warm[WARM / 2]);
    printf("cached: warpscope stats, a new process %4.1f ms\n", proc[WARM / 2]);
    printf("tracing it (the entry's launches)  %8.1f ms\n", traced[WARM / 2]);
    return 0;
}

/* ---- default: the ladder at a glance ---- */

int cmd_ladder(const ws_call *k)
{
    (void)k;
    printf("The reduction ladder in the CPU emulator: each version at its default block, one block's worth of its default data;\n"
           "counters of block 0 summed over its phases (conflicts are extra shared-memory wavefronts).\n\n");
    printf("%-6s %-44s %5s %6s %7s %10s %9s %15s %6s %13s %12s\n", "id", "title", "block", "phases", "idle", "warp-instr",
           "divergent", "conflicts ld/st", "SIMD", "sectors/min", "result/ref");
    for (size_t i = 0; i < ladder_count; i++) {
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = ladder_versions[i].id;
        trace t;
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

static void work_bar_end(work_bar *p);

/* a lesson's problem, one line (ud: a progress bar to clear first, or NULL) */
static void print_report(void *ud, const char *message)
{
    if (interrupted) return; /* what a stopped capture reports is not the lesson's fault */
    if (ud) {
        work_bar *bar = ud;
        work_bar_end(bar);
        if (bar->tty) bar->shown = 0;
    }
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

int cmd_lesson_print(const ws_call *k)
{
    const cli_value *lang_v = &k->v[WF_LANG];
    lesson_lang lang = LESSON_EN;
    if (lang_v->given && !strcmp(lang_v->text, "zh")) lang = LESSON_ZH;
    else if (lang_v->given && strcmp(lang_v->text, "en")) return usage_error("--lang must be en or zh, got \"%s\"%s", lang_v->text, "");
    if (!k->npos) return usage_error("lesson print needs a lesson file%s%s", "", "");
    const char *name = k->pos[0];
    struct stat st;
    if (strchr(name, '/') || stat(name, &st) == 0) return lesson_print(name, lang);
    /* a lesson of warpscope's own, by number, name or id */
    data_dirs d;
    int rc = find_data(&d, 0, 1);
    if (rc) return rc;
    size_t n;
    char **files = lesson_files(d.lessons, &n), err[600], path[PATH_MAX];
    long i = lesson_match(files, n, name, "lesson", err, sizeof err);
    if (i >= 0) snprintf(path, sizeof path, "%s", files[i]);
    for (size_t j = 0; j < n; j++) free(files[j]);
    free(files);
    if (i < 0) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    return lesson_print(path, lang);
}

/* the headers a kernel of one's own compiles against (warpscope's data, include/); NULL when
 * the data is not found (find_data said why) */
static const char *exercise_include_dir(void)
{
    static data_dirs d;
    return d.include[0] || find_data(&d, 1, 0) == 0 ? d.include : NULL;
}

/* ---- exercises ---- */

/* The exercises (lessons/exercises of warpscope's data), sorted; NULL with one line on stderr. */
static char **exercise_files(char *dir, size_t dirlen, size_t *n)
{
    data_dirs d;
    *n = 0;
    if (find_data(&d, 1, 1)) return NULL;
    snprintf(dir, dirlen, "%s/exercises", d.lessons);
    char **files = lesson_files(dir, n);
    if (!*n) fprintf(stderr, "warpscope: %s: no exercises (*.json) there\n", dir);
    return files;
}

static void files_free(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++) free(files[i]);
    free(files);
}

/* Exercise `name` (a number, a file name or an id) into l: 0, or one line on stderr and 2. */
static int exercise_load(const char *name, lesson *l)
{
    char dir[DATA_PATH_MAX + 32], err[1600];
    size_t n;
    char **files = exercise_files(dir, sizeof dir, &n);
    if (!n) { free(files); return EXIT_BAD; }
    long i = lesson_match(files, n, name, "exercise", err, sizeof err);
    int rc = 0;
    if (i < 0 || lesson_load(l, files[i], err, sizeof err)) {
        fprintf(stderr, "warpscope: %s\n", err);
        rc = EXIT_BAD;
    } else if (!l->exercise) {
        fprintf(stderr, "warpscope: %s is a lesson, not an exercise (warpscope learn %s)\n", files[i], name);
        lesson_free(l);
        rc = EXIT_BAD;
    }
    files_free(files, n);
    return rc;
}

/* The viewer on `file` (NULL: the exercise's starting file) with the exercise's launch and its
 * checklist. The exercise lives as long as the command. */
static int exercise_viewer(const char *name, const char *file, viewer_opts *o)
{
    static lesson l;
    static data_dirs d;
    static const char *defines[5];
    if (o->cap.version && strcmp(o->cap.version, OWN_VERSION) != 0)
        return usage_error("--exercise judges a kernel file of yours (--kernel), not --version %s%s", o->cap.version, "");
    int rc = exercise_load(name, &l);
    if (rc || (rc = find_data(&d, 1, 0) ? EXIT_BAD : 0)) return rc;
    const lesson_exercise *x = l.exercise;
    size_t nd = 0;
    for (size_t i = 0; i < 4; i++)
        if (x->defines[i][0]) defines[nd++] = x->defines[i];
    defines[nd] = NULL;
    o->exercise = &l;
    o->cap.version = OWN_VERSION;
    o->cap.kernel = file ? file : x->start;
    o->cap.entry = x->entry;
    o->cap.defines = defines;
    o->cap.include_dir = d.include;
    if (x->block) o->cap.block = x->block;
    if (x->n) o->cap.n = x->n;
    if (x->data[0]) o->cap.data = x->data;
    return 0;
}

/* Where a learner's copies of the starting files go: $XDG_DATA_HOME/warpscope/exercises, else
 * ~/.local/share/warpscope/exercises. 0, or -1 when neither variable names an absolute folder. */
static int exercise_home(char *dir, size_t len)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') snprintf(dir, len, "%s/warpscope/exercises", xdg);
    else if (home && home[0] == '/') snprintf(dir, len, "%s/.local/share/warpscope/exercises", home);
    else return -1;
    return 0;
}

/* mkdir -p, 0700 for the folders it makes */
static int make_dirs(const char *path)
{
    char p[DATA_PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = '\0';
        if (mkdir(p, 0700) && errno != EEXIST) return -1;
        *c = '/';
    }
    return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

/* The exercises, a line each: number, name, solved or not, title. 0, or 2 after its lines. */
static int exercise_list_print(int zh)
{
    char dir[DATA_PATH_MAX + 32], err[1600], pdir[1024];
    size_t n;
    char **files = exercise_files(dir, sizeof dir, &n);
    if (!n) { free(files); return EXIT_BAD; }
    progress prog;
    int have_prog = progress_default_dir(pdir, sizeof pdir, err, sizeof err) == 0 && progress_load(&prog, pdir, err, sizeof err) == 0;
    if (!have_prog) fprintf(stderr, "warpscope: progress not shown: %s\n", err);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        lesson l;
        if (lesson_load(&l, files[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); rc = EXIT_BAD; continue; }
        const progress_entry *e = have_prog ? progress_find(&prog, l.id, 0) : NULL;
        const char *base = strrchr(files[i], '/');
        base = base ? base + 1 : files[i];
        printf("%.*s  %-22s  %-10s  %s\n", (int)strcspn(base, "-"), base, l.id + (strncmp(l.id, "exercise-", 9) ? 0 : 9),
               e && e->done ? (zh ? "已完成" : "solved") : (zh ? "未完成" : "-"), l.title.s[zh ? LESSON_ZH : LESSON_EN]);
        lesson_free(&l);
    }
    if (have_prog) progress_free(&prog);
    files_free(files, n);
    return rc;
}

int cmd_exercise_list(const ws_call *k)
{
    const char *lang = k->v[WF_LANG].text;
    if (lang && strcmp(lang, "en") && strcmp(lang, "zh")) return usage_error("--lang must be en or zh, got \"%s\"%s", lang, "");
    return exercise_list_print(lang && !strcmp(lang, "zh"));
}

int cmd_exercise_start(const ws_call *k)
{
    if (k->npos != 1) return usage_error("exercise start needs one exercise: a number or name (warpscope exercise list)%s%s", "", "");
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc || (rc = exercise_viewer(k->pos[0], NULL, &o))) return rc;
    /* the learner's copy, in a folder of theirs: never the starting file itself */
    char dir[DATA_PATH_MAX], path[DATA_PATH_MAX + 600];
    if (k->v[WF_DIR].given) snprintf(dir, sizeof dir, "%s", k->v[WF_DIR].text);
    else if (exercise_home(dir, sizeof dir)) return usage_error("say where your copy goes with --dir: neither XDG_DATA_HOME nor HOME is set%s%s", "", "");
    const char *base = strrchr(o.exercise->exercise->start, '/');
    snprintf(path, sizeof path, "%s/%s", dir, base ? base + 1 : o.exercise->exercise->start);
    struct stat st;
    if (outfile_is_input(path, o.cap.kernel))
        return usage_error("--dir %s is the exercises' own folder: your copy goes in a folder of yours%s", dir, "");
    if (stat(path, &st) == 0) {
        fprintf(stderr, "warpscope: your file %s is there already: it is kept, and opened\n", path);
    } else {
        char err[600];
        char *text = NULL;
        size_t len;
        if (make_dirs(dir)) { fprintf(stderr, "warpscope: cannot make %s: %s\n", dir, strerror(errno)); return EXIT_BAD; }
        if (json_read_file(o.cap.kernel, 1 << 20, &text, &len, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
        outfile f;
        rc = outfile_open_mode(&f, path, 0644, err, sizeof err);
        if (!rc) {
            fwrite(text, 1, len, f.f);
            rc = outfile_commit(&f, err, sizeof err);
        }
        free(text);
        if (rc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
        fprintf(stderr, "warpscope: your copy of the starting file: %s (edit it in your editor; the window follows each save)\n", path);
    }
    static char kept[DATA_PATH_MAX + 600];
    snprintf(kept, sizeof kept, "%s", path);
    o.cap.kernel = kept;
    o.save_progress = 1;
    if ((rc = find_viewer_data(&o, &d, 0))) return rc;
    return viewer_window(&o);
}

/* The length of the UTF-8 character at s (1 to 4), or 0 where s starts no well-formed one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_char(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) || (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

/* The code point of the well-formed UTF-8 character of n bytes at p. */
static uint32_t utf8_code(const unsigned char *p, size_t n)
{
    uint32_t cp = n == 1 ? p[0] : p[0] & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) cp = cp << 6 | (p[i] & 0x3Fu);
    return cp;
}

/* A control character (C0, DEL, C1) or a bidirectional override or isolate (U+202A..E,
 * U+2066..9: they reorder what a terminal shows after them). */
static int hidden_code(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Text of the learner's (a file name, a message naming it) on one line of the text report: a
 * control byte (or a C1 control, or a bidirectional override, which reorders what follows) is
 * written as \n, \t, \r or \xNN (\u202E), each byte that is not UTF-8 as \xNN; a name that
 * needed any of these is written in double quotes with its quotes and backslashes escaped, as git
 * quotes paths, so that it can neither start a line of its own nor pass for another. */
static void print_escaped(FILE *out, const char *text, int name)
{
    const unsigned char *s = (const unsigned char *)text;
    int quote = 0;
    for (const unsigned char *p = s; *p && name && !quote;) {
        size_t n = utf8_char(p);
        int hidden = n && hidden_code(utf8_code(p, n));
        quote = !n || hidden || *p == '"' || *p == '\\';
        p += n ? n : 1;
    }
    if (quote) fputc('"', out);
    for (const unsigned char *p = s; *p;) {
        size_t n = utf8_char(p);
        uint32_t cp = n ? utf8_code(p, n) : 0;
        if (!n) fprintf(out, "\\x%02X", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p == '\r') fputs("\\r", out);
        else if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\x%02X", *p);
        else if (hidden_code(cp)) fprintf(out, "\\u%04X", (unsigned)cp);
        else if (quote && (*p == '"' || *p == '\\')) fprintf(out, "\\%c", *p);
        else fwrite(p, 1, n, out);
        p += n ? n : 1;
    }
    if (quote) fputc('"', out);
}

/* A JSON string of the report from bytes that need not be UTF-8 (a file name is any bytes but / and
 * NUL): each byte that is not part of a well-formed UTF-8 character becomes U+FFFD, the
 * replacement character (one per byte), so the report is always valid JSON; cJSON escapes the
 * quotes and the control characters. The text report keeps such a name's bytes, as \xNN. */
static cJSON *add_text(cJSON *o, const char *key, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text);
    char *clean = malloc(3 * len + 1), *c = clean;
    if (!clean) return NULL;
    for (const unsigned char *p = s; *p;) {
        size_t n = utf8_char(p);
        if (n) memcpy(c, p, n);
        else memcpy(c, "\xEF\xBF\xBD", 3);
        c += n ? n : 3;
        p += n ? n : 1;
    }
    *c = 0;
    cJSON *item = cJSON_AddStringToObject(o, key, clean);
    free(clean);
    return item;
}

/* One file's checklist, as text or as a JSON object of the report. */
static void exercise_print(const lesson *l, const char *file, const exercise_judgement *j, cJSON *report)
{
    const lesson_exercise *x = l->exercise;
    if (report) {
        cJSON *f = cJSON_CreateObject(), *goals = cJSON_CreateArray();
        add_text(f, "file", file);
        cJSON_AddBoolToObject(f, "ran", j->runs > 0);
        cJSON_AddNumberToObject(f, "runs", (double)j->runs);
        if (j->error[0]) add_text(f, "error", j->error);
        cJSON_AddNumberToObject(f, "met", (double)j->met);
        cJSON_AddBoolToObject(f, "solved", j->met == x->ngoals);
        for (size_t g = 0; g < x->ngoals; g++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "goal", x->goals[g].say.s[LESSON_EN]);
            cJSON_AddStringToObject(o, lesson_bound_keys[x->goals[g].bound], "");
            cJSON_DeleteItemFromObject(o, lesson_bound_keys[x->goals[g].bound]);
            cJSON_AddNumberToObject(o, lesson_bound_keys[x->goals[g].bound], x->goals[g].limit);
            if (j->marks[g].state == EXERCISE_NOT_RUN) cJSON_AddNullToObject(o, "value");
            else cJSON_AddNumberToObject(o, "value", j->marks[g].value);
            cJSON_AddBoolToObject(o, "met", j->marks[g].state == EXERCISE_MET);
            cJSON_AddBoolToObject(o, "every_run", x->goals[g].every_run);
            if (j->marks[g].run[0]) add_text(o, "broken_at", j->marks[g].run);
            cJSON_AddItemToArray(goals, o);
        }
        cJSON_AddItemToObject(f, "goals", goals);
        cJSON_AddItemToArray(cJSON_GetObjectItem(report, "files"), f);
        return;
    }
    print_escaped(stdout, file, 1);
    printf(": %zu of %zu goals met in %zu runs%s", j->met, x->ngoals, j->runs, !j->error[0] ? "" : j->runs ? "; " : "; did not run: ");
    print_escaped(stdout, j->error, 0);
    putchar('\n');
    for (size_t g = 0; g < x->ngoals; g++) {
        char line[400];
        exercise_goal_line(&x->goals[g], &j->marks[g], LESSON_EN, line, sizeof line);
        printf("  %s %s\n", j->marks[g].state == EXERCISE_MET ? "[x]" : j->marks[g].state == EXERCISE_NOT_MET ? "[ ]" : "[-]", line);
    }
}

int cmd_exercise_check(const ws_call *k)
{
    if (k->npos < 2) return usage_error("exercise check needs an exercise and the kernel files to judge%s%s", "", "");
    lesson l;
    int rc = exercise_load(k->pos[0], &l);
    if (rc) return rc;
    data_dirs d;
    if (find_data(&d, 1, 0)) { lesson_free(&l); return EXIT_BAD; }
    char sandbox[400]; /* the protections each file is judged under, said with the verdicts */
    sandbox_describe(sandbox, sizeof sandbox);
    cJSON *report = NULL;
    if (k->v[WF_JSON].given) {
        report = cJSON_CreateObject();
        cJSON_AddStringToObject(report, "exercise", l.id);
        cJSON_AddStringToObject(report, "sandbox", sandbox);
        cJSON_AddItemToObject(report, "files", cJSON_CreateArray());
    }
    if (!report) printf("exercise %s: %s (%zu goals)\nsandbox: %s\n", l.id + (strncmp(l.id, "exercise-", 9) ? 0 : 9), l.title.s[LESSON_EN],
                        l.exercise->ngoals, sandbox);
    int bad = 0, missed = 0;
    for (size_t i = 1; i < k->npos && !interrupted; i++) {
        struct stat st;
        if (stat(k->pos[i], &st) || !S_ISREG(st.st_mode)) { /* said, in the report too; the others are still judged */
            char why[64]; /* a FIFO is looked at, never opened: it would wait for a writer */
            if (stat(k->pos[i], &st)) snprintf(why, sizeof why, "no such file");
            else snprintf(why, sizeof why, "is %s, not a regular file", infile_kind(&st));
            fputs("warpscope: ", stderr);
            print_escaped(stderr, k->pos[i], 1);
            fprintf(stderr, ": %s\n", why);
            if (report) {
                cJSON *f = cJSON_CreateObject();
                add_text(f, "file", k->pos[i]);
                cJSON_AddBoolToObject(f, "ran", 0);
                cJSON_AddStringToObject(f, "error", why);
                cJSON_AddItemToArray(cJSON_GetObjectItem(report, "files"), f);
            }
            bad = 1;
            continue;
        }
        exercise_judgement j;
        char err[1600];
        if (exercise_judge(&l, k->pos[i], d.include, &interrupted, &j, err, sizeof err)) {
            if (interrupted) break;
            fprintf(stderr, "warpscope: %s\n", err);
            bad = 1;
            break;
        }
        exercise_print(&l, k->pos[i], &j, report);
        missed |= j.met != l.exercise->ngoals;
        if (k->npos == 2 && j.met == l.exercise->ngoals && exercise_record_solved(&l, err, sizeof err)) /* one file: the learner's own */
            fprintf(stderr, "warpscope: not recorded as solved: %s\n", err);
        fflush(stdout);
    }
    lesson_free(&l);
    if (interrupted) { cJSON_Delete(report); return report_interrupt(NULL); }
    if (report) {
        char *text = cJSON_Print(report);
        if (text) puts(text);
        free(text);
        cJSON_Delete(report);
    }
    if (fflush(stdout)) return EXIT_BAD;
    return bad ? EXIT_BAD : missed ? 1 : 0;
}

int cmd_lesson_check(const ws_call *k)
{
    char err[1600];
    if (!k->npos) return usage_error("lesson check needs lesson files%s%s", "", "");
    size_t bad = 0;
    work_bar bar; /* a line after the first second: lessons checked of those given */
    work_bar_begin(&bar, "checking");
    bar.unit = k->npos > 1 ? "files" : "file";
    for (size_t i = 0; i < k->npos; i++) {
        work_bar_update(&bar, i, k->npos);
        lesson l;
        if (lesson_load(&l, k->pos[i], err, sizeof err)) { print_report(&bar, err); bad++; continue; }
        size_t nq = 0;
        for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
        size_t e = l.nsteps ? player_check(&l, &interrupted, print_report, &bar) : 0;
        if (l.exercise && !interrupted) e += exercise_check(&l, exercise_include_dir(), &interrupted, print_report, &bar);
        work_bar_end(&bar); /* the line's place, for what follows */
        if (bar.tty) bar.shown = 0;
        if (interrupted) {
            lesson_free(&l);
            return report_interrupt(NULL);
        }
        if (!e && l.exercise)
            printf("%s: ok: %s, an exercise of %zu goals: the starting file runs and misses some (the tests judge the model solution)\n",
                   k->pos[i], l.id, l.exercise->ngoals);
        else if (!e) printf("%s: ok: %s, %zu steps, %zu questions\n", k->pos[i], l.id, l.nsteps, nq);
        bad += e;
        lesson_free(&l);
    }
    return bad ? EXIT_BAD : 0;
}

int cmd_lesson_list(const ws_call *k)
{
    char err[1600];
    data_dirs d;
    const char *dir = k->v[WF_DIR].text, *lang = k->v[WF_LANG].text;
    if (lang && strcmp(lang, "en") && strcmp(lang, "zh")) return usage_error("--lang must be en or zh, got \"%s\"%s", lang, "");
    int zh = lang && !strcmp(lang, "zh");
    if (!dir) {
        int rc = find_data(&d, 0, 1);
        if (rc) return rc;
        dir = d.lessons;
    }
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
        if (!e) snprintf(mark, sizeof mark, "%s", zh ? "新" : "new");
        else if (e->done) snprintf(mark, sizeof mark, zh ? "已完成，答对 %u/%zu" : "done, %u/%zu right", progress_count_solved(e), nq);
        else snprintf(mark, sizeof mark, zh ? "第 %zu/%zu 步，答对 %u/%zu" : "step %zu/%zu, %u/%zu right", e->step + 1, l.nsteps, progress_count_solved(e), nq);
        if (lang) printf("%-22s %-24s %s\n", l.id, mark, l.title.s[zh ? LESSON_ZH : LESSON_EN]);
        else printf("%-22s %-24s %s  |  %s\n", l.id, mark, l.title.s[LESSON_EN], l.title.s[LESSON_ZH]);
        lesson_free(&l);
    }
    for (size_t i = 0; files && files[i]; i++) free(files[i]);
    free(files);
    free(ids);
    if (have_prog) progress_free(&prog);
    if (!k->v[WF_DIR].given) { /* warpscope's own lessons: its exercises follow them */
        printf("\n%s\n", zh ? "练习（warpscope exercise start 编号）：" : "exercises (warpscope exercise start NUMBER):");
        int e = exercise_list_print(zh);
        if (e) rc = e;
    }
    return rc;
}

/* ---- the commands implemented elsewhere, help and version ---- */

/* --kernel for bench and verify: the capture description, or NULL without --kernel */
static const capture_desc *own_kernel(const ws_call *k, cli *c, int *rc)
{
    *rc = 0;
    if (!k->v[WF_KERNEL].given) return NULL;
    if ((*rc = read_capture(k, c))) return NULL;
    c->cap.cancel = &interrupted;
    return &c->cap;
}

int cmd_bench(const ws_call *k)
{
    cli c;
    int rc;
    const capture_desc *own = own_kernel(k, &c, &rc);
    if (rc) return rc;
    rc = bench_main(k->v, own, &interrupted);
    return interrupted ? report_interrupt("nothing written") : rc;
}

int cmd_verify(const ws_call *k)
{
    cli c;
    int rc;
    const capture_desc *own = own_kernel(k, &c, &rc);
    if (rc) return rc;
    rc = verify_main(k->v, own, &interrupted);
    return interrupted ? report_interrupt("nothing written") : rc;
}

int cmd_version(const ws_call *k)
{
    (void)k;
    commands_print_version(stdout);
    return 0;
}

/* "capture, draw or export": the subcommands of a command, from the table */
static const char *subs_of(const char *name, char *out, size_t outlen)
{
    size_t n = 0, len = 0;
    for (size_t i = 0; i < ws_command_count; i++) n += ws_commands[i].sub && !strcmp(ws_commands[i].name, name);
    out[0] = '\0';
    for (size_t i = 0, k = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        if (!c->sub || strcmp(c->name, name)) continue;
        int w = snprintf(out + len, outlen - len, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", c->sub);
        if (w < 0 || (size_t)w >= outlen - len) break;
        len += (size_t)w;
        k++;
    }
    return out;
}

/* The row of NAME [SUB]: 0, or one line on stderr and 2 (with the nearest names when close). A
 * command with subcommands and none given answers its first row with *whole set. */
static int lookup(const char *name, const char *sub, const ws_command **out, int *whole)
{
    char near[256], subs[256];
    const ws_command *c = commands_find(name, NULL);
    *whole = 0;
    if (!c) {
        if (commands_suggest(name, NULL, near, sizeof near))
            fprintf(stderr, "warpscope: unknown command \"%s\"; did you mean %s? (warpscope help lists the commands)\n", name, near);
        else
            fprintf(stderr, "warpscope: unknown command \"%s\" (warpscope help lists the commands)\n", name);
        return EXIT_BAD;
    }
    if (c->sub && !sub) {
        *out = c;
        *whole = 1;
        return 0;
    }
    if (c->sub && !(c = commands_find(name, sub))) {
        const ws_command *g = commands_find(name, NULL);
        subs_of(name, subs, sizeof subs);
        size_t nn = commands_suggest(sub, name, near, sizeof near);
        fprintf(stderr, "warpscope: %s takes one %s: %s, not \"%s\"%s%s%s (warpscope help %s)\n", name, g->what, subs, sub,
                nn ? "; did you mean " : "", nn ? near : "", nn ? "?" : "", name);
        return EXIT_BAD;
    }
    *out = c;
    return 0;
}

int cmd_help(const ws_call *k)
{
    const cli_value *v = k->v;
    int asked = v[WF_MAN].given + v[WF_COMPLETION].given + v[WF_MARKDOWN].given;
    if (asked > 1 || (asked && k->npos)) return usage_error("give one of COMMAND, --man, --completion SHELL or --markdown%s%s", "", "");
    if (v[WF_MAN].given) commands_print_man(stdout);
    else if (v[WF_MARKDOWN].given) commands_print_markdown(stdout);
    else if (v[WF_COMPLETION].given && commands_print_completion(stdout, v[WF_COMPLETION].text))
        return usage_error("--completion writes a script for bash, not \"%s\"%s", v[WF_COMPLETION].text, "");
    else if (!asked && !k->npos) commands_print_list(stdout);
    else if (!asked) {
        const ws_command *c;
        int whole, rc = lookup(k->pos[0], k->npos > 1 ? k->pos[1] : NULL, &c, &whole);
        if (rc) return rc;
        if (k->npos > 1 && !c->sub) return usage_error("%s has no subcommands, got \"%s\"", k->pos[0], k->pos[1]);
        commands_print_help(stdout, c, whole);
    }
    return fflush(stdout) == 0 ? 0 : EXIT_BAD;
}

/* "unknown flag" for the command: where other commands take it, which; else the nearest of its own */
static int unknown_flag(const ws_command *c, const char *arg, const cli_spec *specs, size_t n)
{
    char name[128], title[64], others[512], near[256], line[1200];
    const char *names[WS_CMD_GROUPS * WS_GROUP_MAX];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
    commands_title(c, title, sizeof title);
    for (size_t i = 0; i < n; i++) names[i] = specs[i].name;
    int elsewhere = commands_taking(name, c, others, sizeof others) > 0, close = words_suggest(name, names, n, near, sizeof near) > 0;
    if (close && elsewhere) /* bench --version: a typo of its --versions, and a flag of other commands */
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s; did you mean %s? (%s is for %s)", name, title, near, name, others);
    else if (elsewhere)
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s: %s is for %s", name, title, name, others);
    else if (close)
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s; did you mean %s?", name, title, near);
    else
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s", name, title);
    return usage_error("%s%s", line, "");
}

/* Scans exactly the flags the command's row lists, and its operands, then runs it. */
static int run(const ws_command *c, int argc, char **argv)
{
    ws_call k;
    cli_spec specs[WS_CMD_GROUPS * WS_GROUP_MAX];
    ws_flag which[WS_CMD_GROUPS * WS_GROUP_MAX];
    cli_value got[WS_CMD_GROUPS * WS_GROUP_MAX];
    size_t n = 0;
    memset(&k, 0, sizeof k);
    k.cmd = c;
    for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
        for (size_t u = 0; u < c->groups[g]->n; u++) {
            ws_flag f = c->groups[g]->use[u].flag;
            which[n] = f;
            specs[n++] = ws_flags[f].spec;
        }
    /* one more operand than allowed, to say "two input files" rather than "unexpected" */
    size_t maxpos = c->operand == WS_OPERAND_NONE ? 0 : c->operand == WS_OPERAND_FILES ? (size_t)argc : 2;
    const char **pos = calloc((size_t)argc + 1, sizeof *pos);
    if (!pos) { fprintf(stderr, "warpscope: out of memory\n"); return EXIT_BAD; }
    char why[600];
    int bad, rc = 0;
    if (cli_scan(specs, n, argc, argv, got, pos, maxpos, &k.npos, &bad, why, sizeof why)) {
        rc = bad >= 0 ? unknown_flag(c, argv[bad], specs, n) : usage_error("%s%s", why, "");
    } else if (k.npos == 2 && c->operand == WS_OPERAND_TRACE) {
        rc = usage_error("two input files given: \"%s\" and \"%s\"", pos[0], pos[1]);
    } else if (k.npos == 2 && c->operand != WS_OPERAND_FILES && c->operand != WS_OPERAND_COMMAND) {
        rc = usage_error("unexpected argument \"%s\"%s", pos[1], "");
    } else {
        for (size_t i = 0; i < n; i++) k.v[which[i]] = got[i];
        k.pos = pos;
        if (k.v[WF_UNSAFE].given) setenv("WARPSCOPE_UNSAFE", "1", 1); /* for every capture of a learner's file, however deep */
        /* the window takes Ctrl+C as SDL's quit event; everything else stops through `interrupted` */
        if (!(c->flags & WS_CMD_WINDOW)) catch_interrupts();
        rc = c->run(&k);
    }
    free(pos);
    return rc;
}

int main(int argc, char **argv)
{
    /* Large arrays (a trace's events and lanes) always get their own mapping, so that growing them
     * is a remap, not a copy; glibc would otherwise raise this threshold after the first large
     * free and copy a whole-grid trace several times while it grows. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    const ws_command *c = NULL;
    int first = 2, whole = 0, rc;
    if (argc < 2) return run(&ws_commands[0], 0, argv + 1); /* no command: the viewer on its built-in default */
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        commands_print_list(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        if (argc > 2) return usage_error("--version alone says which warpscope this is; to open a version: warpscope view --version %s%s", argv[2], "");
        commands_print_version(stdout);
        return 0;
    }
    if (argv[1][0] == '-') return usage_error("\"%s\" comes before a command: flags follow it (warpscope COMMAND [FLAGS])%s", argv[1], "");
    const char *sub = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    if ((rc = lookup(argv[1], sub, &c, &whole))) return rc;
    if (c->sub && !whole) first = 3;
    running = c;
    /* --help or -h anywhere among its arguments (not as a flag's value) */
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            commands_print_help(stdout, c, whole);
            return 0;
        }
        if (a[0] != '-' || strchr(a, '=')) continue;
        for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
            for (size_t u = 0; u < c->groups[g]->n; u++) {
                const cli_spec *sp = &ws_flags[c->groups[g]->use[u].flag].spec;
                if (!strcmp(sp->name, a) && sp->kind != CLI_SWITCH) i++;
            }
    }
    if (whole) { /* "perf" alone */
        char subs[256], line[512];
        snprintf(line, sizeof line, "%s takes one %s: %s", c->name, c->what, subs_of(c->name, subs, sizeof subs));
        running = NULL;
        fprintf(stderr, "warpscope: %s (warpscope help %s)\n", line, c->name);
        return EXIT_BAD;
    }
    return run(c, argc - first, argv + first);
}
