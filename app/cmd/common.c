/* What the commands share: exit codes, where the data is, the capture flags read into a
 * capture description, progress bars and Ctrl+C, and the viewer's flags. */
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
#include "app/cmd/cmd.h"

/* The command being run, for the pointer at the end of a usage error (main sets it once). */
const ws_command *running;

int usage_error(const char *fmt, const char *a, const char *b)
{
    char title[64];
    fprintf(stderr, "warpscope: ");
    fprintf(stderr, fmt, a, b);
    if (running && running->name[0]) fprintf(stderr, " (%s --help lists its flags)\n", commands_title(running, title, sizeof title));
    else fprintf(stderr, " (warpscope help lists the commands)\n");
    return EXIT_BAD;
}

/* ---- where the data is ---- */


int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int has_assets(const char *dir)
{
    char probe[DATA_PATH_MAX + 16];
    snprintf(probe, sizeof probe, "%s/assets", dir);
    return is_dir(probe);
}

/* The folders of assets and lessons, found relative to the program itself: installed as
 * PREFIX/bin/warpscope it reads PREFIX/share/warpscope; in a build folder, configure made
 * BUILD/share/warpscope (links to the source's assets/ and lessons/). WARPSCOPE_DATA names the
 * folder that holds both, WARPSCOPE_ASSETS the assets alone. 0, or one line on stderr and 2. */
int find_data(data_dirs *d, int need_assets, int need_lessons)
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


/* A trace's title: its version's, or for a kernel of one's own the file's name. */
const char *title_of(const trace_provenance *p, const ladder_version *v)
{
    return v ? v->title : strcmp(p->version, OWN_VERSION) == 0 ? p->source : "(unknown version)";
}

/* --kernel FILE, --entry, --define: a kernel of one's own, captured as version OWN_VERSION; it
 * compiles against the headers in warpscope's data (include/). The strings live as long as the
 * command: read_viewer copies the capture description out of the cli it fills. */
int read_kernel_flags(const cli_value *v, cli *c)
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
int read_capture(const ws_call *k, cli *c)
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
    if (v[WF_TYPE].given) { /* one of trace.h's TRACE_TYPES, for a kernel of one's own */
        const char *ty = v[WF_TYPE].text;
        if (trace_type_from_name(ty) < 0 || !*ty) return usage_error("--type must be float, int, unsigned, double or long long, got \"%s\"%s", ty, "");
        if (!c->cap.kernel && trace_type_from_name(ty) != TRACE_TYPE_FLOAT)
            return usage_error("--type %s takes a --kernel of your own: the ladder's versions sum floats%s", ty, "");
        c->cap.type = ty;
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
volatile int interrupted;

static void on_sigint(int sig) { interrupted = sig; }

void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


void work_bar_begin(work_bar *p, const char *what)
{
    p->what = what;
    p->unit = "blocks";
    p->start = p->last = now_s();
    p->tty = isatty(STDERR_FILENO);
    p->shown = 0;
}

void work_bar_update(void *user, uint64_t done, uint64_t total)
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

void work_bar_end(work_bar *p)
{
    if (p->shown && p->tty) fprintf(stderr, "\r\033[K");
}

/* 130 after SIGINT, 143 after SIGTERM: 128 + the signal, as shells report it */
int report_interrupt(const char *what)
{
    fprintf(stderr, "warpscope: interrupted%s%s\n", what ? "; " : "", what ? what : "");
    return interrupted ? 128 + interrupted : EXIT_INTERRUPTED;
}

int do_capture_with(const char *backend, const capture_desc *desc, trace *t)
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

int do_capture(const capture_desc *d, trace *t) { return do_capture_with("cpu", d, t); }

/* capture and hazards: a version to capture, given by --version */
int read_version_to_capture(const ws_call *k, cli *c)
{
    int rc = read_capture(k, c);
    if (rc) return rc;
    if (!c->cap.version) return usage_error("%s needs --version ID%s", k->cmd->name, "");
    return 0;
}

/* ---- view and render ---- */

/* The viewer's flags and, through read_capture, what it shows. */

int read_viewer(const ws_call *k, viewer_opts *o)
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
    if (v[WF_VIEW].given) { /* a view is the action that opens it, before the others */
        static const struct { const char *view, *action; } views[] = {{"passes", "passes"}, {"grid", "grid"}, {"bench", "bench"}};
        static char with_view[1024];
        const char *act = NULL;
        for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
            if (!strcmp(v[WF_VIEW].text, views[i].view)) act = views[i].action;
        if (!act) return usage_error("--view must be passes, grid or bench, got \"%s\"%s", v[WF_VIEW].text, "");
        snprintf(with_view, sizeof with_view, "%s%s%s", act, o->actions ? "," : "", o->actions ? o->actions : "");
        o->actions = with_view;
    }
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
void with_progress(viewer_opts *o, work_bar *bar)
{
    work_bar_begin(bar, "capturing");
    o->cap.cancel = &interrupted;
    o->cap.progress = work_bar_update;
    o->cap.progress_user = bar;
}

/* export: after its capture, the same line counts the steps written */
void export_progress(void *user, uint64_t done, uint64_t total)
{
    work_bar *p = user;
    const char *what = p->what, *unit = p->unit; /* a capture during the export counts its blocks again */
    p->what = "exporting";
    p->unit = "steps";
    work_bar_update(p, done, total);
    p->what = what;
    p->unit = unit;
}

int viewer_stopped(int rc, work_bar *bar)
{
    work_bar_end(bar);
    return rc == VIEWER_STOPPED ? report_interrupt("nothing written") : rc;
}

/* the viewer's data: its assets always, the lessons when it shows one (d holds the paths) */
int find_viewer_data(viewer_opts *o, data_dirs *d, int need_lessons)
{
    int rc = find_data(d, 1, need_lessons);
    if (rc) return rc;
    o->assets_dir = d->assets;
    o->lesson_dir = d->lessons;
    return 0;
}

/* warpscope with no command: v0, at the block size every command takes by default (256) */
