/* viewer: see viewer.h. The only place that owns a session; it turns input into actions. */
#include "app/viewer/viewer.h"

#include "trace/cards.h"

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/learn/exercise.h"
#include "app/viewer/keys.h"
#include "app/viewer/learn.h"
#include "trace/ladder.h"
#include "trace/json_internal.h"
#include "trace/outfile.h"
#include "app/viewer/panels.h"
#include "app/draw/record.h"
#include "app/draw/render_sdl.h"
#include "app/viewer/scene.h"
#include "app/viewer/session.h"
#include "trace/sources.h"

/* the assets folder main found (beside the program, or WARPSCOPE_DATA / WARPSCOPE_ASSETS) */
static const char *asset_dir(const viewer_opts *o)
{
    return o->assets_dir && *o->assets_dir ? o->assets_dir : "assets";
}

typedef struct app {
    viewer_opts o;
    learn *L;            /* taking a lesson, or NULL */
    session s;
    results_set res;     /* one run per GPU: assets/bench-*.json, or the --bench file */
    int have_results;
    scene sc;
    struct stat own_seen; /* --kernel: the file as last traced (its size and time), to see it change */
    Uint32 own_checked;
    exercise_judgement judged; /* an exercise: the file's last judgement */
    size_t hints;         /* hints unlocked */
    unsigned requests;    /* the lesson requests already acted on */
    long pictured;        /* the missed goal whose picture is shown (-1: none missed; -2: none yet) */
    /* the card's timing of the file (o.card_time), on a thread of its own: the window goes on */
    SDL_Thread *timing;   /* in flight, or NULL */
    SDL_atomic_t timed;   /* 1 once the thread has filled card and card_rc */
    volatile int timing_cancel;
    viewer_card_timing card;
    int card_rc;
} app;

/* The window while a long capture runs (the grid's A): the status line says how far it is, the
 * window is redrawn, and Esc or closing the window stops the capture; SIGINT still does. */
typedef struct live_window {
    app *A;
    struct canvas *c;
    SDL_Window *win;
    volatile int cancel;
    volatile int *outer; /* the command line's flag (SIGINT, SIGTERM) */
    Uint32 last;
} live_window;
static live_window *live; /* the open window, or NULL (render, export) */

static void window_progress(void *user, uint64_t done, uint64_t total);

/* the session's loader: capture a version with the command line's capture flags */
static int load_capture(void *ctx, const char *version, const session_break *b, trace *t, char *note, size_t notelen, char *err, size_t errlen)
{
    const viewer_opts *o = ctx;
    capture_desc d = o->cap;
    d.version = version;
    if (b && b->blocks_traced) {
        d.blocks_traced = b->blocks_traced;
        if (live) { /* a capture of every block can take a while: show it, and let Esc stop it */
            live->cancel = 0;
            live->outer = o->cap.cancel;
            d.cancel = &live->cancel;
            d.progress = window_progress;
            d.progress_user = live;
        }
    }
    if (strcmp(version, OWN_VERSION) != 0) d.kernel = NULL; /* a version beside a kernel of one's own */
    if (b && b->schedule[0]) d.schedule = b->schedule;
    if (b && b->drop_barrier) d.drop_barrier = b->drop_barrier;
    if (b && b->n) d.n = b->n;
    const ladder_version *v = ladder_find(version);
    /* a block the version cannot run falls back to its default rather than failing */
    if (v && d.block && ladder_check_block(v, d.block, err, errlen)) d.block = 0;
    if (v && !v->ept_tunable) d.ept = 0;
    int rc = capture_with(o->backend, &d, t, note, notelen, err, errlen);
    if (rc && live && d.cancel == &live->cancel && live->cancel)
        snprintf(err, errlen, "stopped: the blocks traced before stay (A traces every block again)");
    return rc;
}

/* The text of a traced file: a version's kernel (embedded), or the learner's own file (--kernel),
 * read when the viewer starts; what the window shows is the file as it was traced. */
static char *own_text;
static const char *own_name;

/* A saved trace of a learner's file names the file, not its text: its source is the file of that
 * name beside the trace (a name of a .cu file, no folder), read once (a capture on a GPU machine,
 * looked at on another, keeps its source with it). */
static char beside_dir[4096], beside_name[256];
static char *beside_text;

/* a plain file's text, at most 1 MiB: not through a symbolic link (a trace shipped beside one could
 * show any file), not a FIFO or device (opened without waiting, then checked); NULL otherwise */
static char *read_beside(const char *path)
{
    enum { BESIDE_MAX = 1 << 20 };
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    char *text = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= BESIDE_MAX && (text = malloc((size_t)st.st_size + 1))) {
        size_t got = 0;
        for (ssize_t k; got < (size_t)st.st_size && (k = read(fd, text + got, (size_t)st.st_size - got)) > 0;) got += (size_t)k;
        text[got] = '\0';
    }
    if (fd >= 0) close(fd);
    return text;
}

static const char *find_source(const char *file)
{
    if (own_text && own_name && strcmp(file, own_name) == 0) return own_text;
    const char *s = sources_find(file);
    size_t n = strlen(file);
    if (s || !beside_dir[0] || n < 4 || n >= sizeof beside_name || strchr(file, '/') || strcmp(file + n - 3, ".cu")) return s;
    if (strcmp(beside_name, file) != 0) { /* once per name, found or not */
        free(beside_text);
        beside_text = NULL;
        snprintf(beside_name, sizeof beside_name, "%s", file);
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", beside_dir, file);
        beside_text = read_beside(path);
    }
    return beside_text;
}

static void note_trace_dir(const char *file)
{
    beside_dir[0] = beside_name[0] = '\0';
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (!file || (slash && (size_t)(slash - file) >= sizeof beside_dir)) return; /* none, or a folder too long to name */
    if (!slash) snprintf(beside_dir, sizeof beside_dir, ".");
    else if (slash == file) snprintf(beside_dir, sizeof beside_dir, "/");
    else snprintf(beside_dir, sizeof beside_dir, "%.*s", (int)(slash - file), file);
}

static void load_own_source(const viewer_opts *o)
{
    free(own_text);
    own_text = NULL;
    own_name = NULL;
    char err[300];
    size_t len;
    /* unreadable: the capture that follows says why */
    if (!o->cap.kernel || json_read_file(o->cap.kernel, 1 << 20, &own_text, &len, err, sizeof err)) return;
    const char *slash = strrchr(o->cap.kernel, '/');
    own_name = slash ? slash + 1 : o->cap.kernel;
}

static void apply(app *A, act_kind k, long i, const char *s)
{
    action a;
    memset(&a, 0, sizeof a);
    a.kind = k;
    a.i = i;
    if (s) snprintf(a.s, sizeof a.s, "%s", s);
    session_apply(&A->s, &a);
}

/* the card's timing, on its thread */
static int card_thread(void *user)
{
    app *A = user;
    A->card_rc = A->o.card_time(A->o.exercise, A->o.cap.kernel, &A->timing_cancel, &A->card);
    SDL_AtomicSet(&A->timed, 1);
    return 0;
}

/* stops a timing in flight (a new save, or the window closing): its result is not wanted */
static void card_stop(app *A)
{
    if (!A->timing) return;
    A->timing_cancel = 1;
    SDL_WaitThread(A->timing, NULL);
    A->timing = NULL;
    SDL_AtomicSet(&A->timed, 0);
}

/* the card's goal once its timing came back: the checklist follows, the speed on the status line, and
 * an exercise solved on the card recorded. 1 when something changed. */
static int card_done(app *A)
{
    if (!A->timing || !SDL_AtomicGet(&A->timed)) return 0;
    SDL_WaitThread(A->timing, NULL);
    A->timing = NULL;
    SDL_AtomicSet(&A->timed, 0);
    const viewer_opts *o = &A->o;
    const lesson_exercise *x = o->exercise->exercise;
    const char *slash = strrchr(o->cap.kernel, '/'), *name = slash ? slash + 1 : o->cap.kernel;
    A->s.status_id = STR_COUNT;
    int zh = A->s.lang == LANG_ZH;
    if (A->card_rc) {
        snprintf(A->s.status_text, sizeof A->s.status_text, str_get(A->s.lang, STR_EXERCISE_NOT_TIMED), A->card.error);
        fprintf(stderr, "warpscope: %s: not timed on the card: %s\n", name, A->card.error);
    } else {
        exercise_judge_card(x, &A->judged, (exercise_card)A->card.how, A->card.fraction, A->card.error);
        learn_exercise(&A->s, o->exercise, o->cap.kernel, &A->judged, A->hints);
        snprintf(A->s.status_text, sizeof A->s.status_text, str_get(A->s.lang, STR_EXERCISE_TIMED), A->card.card, A->card.speed[zh]);
        fprintf(stderr, "warpscope: %s: on %s: %s\nwarpscope: %s: %zu of %zu goals met\n", name, A->card.card, A->card.speed[0], name,
                A->judged.met, exercise_goal_count(x));
        char err[600];
        if (o->save_progress && A->judged.met == exercise_goal_count(x) && exercise_record_solved(o->exercise, err, sizeof err))
            fprintf(stderr, "warpscope: not recorded as solved: %s\n", err);
    }
    A->s.generation++;
    return 1;
}

/* An exercise: the file judged against its goals (each a capture: the compiled file is cached), the
 * checklist put in the session, and solved exercises recorded in the user's progress. A file that
 * meets every goal of the trace is then timed on the card where the window has one (card_done). */
static void exercise_judge_file(app *A)
{
    const viewer_opts *o = &A->o;
    char err[sizeof A->judged.error];
    card_stop(A); /* a timing of the file as it was */
    if (exercise_judge(o->exercise, o->cap.kernel, o->cap.include_dir, NULL, &A->judged, err, sizeof err)) {
        memset(&A->judged, 0, sizeof A->judged);
        for (size_t g = 0; g <= LESSON_GOALS_MAX; g++) A->judged.marks[g].state = EXERCISE_NOT_RUN; /* nothing was measured */
        snprintf(A->judged.error, sizeof A->judged.error, "%s", err);
    }
    learn_exercise(&A->s, o->exercise, o->cap.kernel, &A->judged, A->hints);
    /* the picture of the first missed goal, when that goal changes: edits that do not change it
     * leave the learner at the step they are looking at */
    long first = -1;
    for (size_t g = 0; g < o->exercise->exercise->ngoals && first < 0; g++)
        if (A->judged.marks[g].state == EXERCISE_NOT_MET) first = (long)g;
    if (first != A->pictured) {
        /* the goal's picture under the goal's own schedule: the race or the wrong tree it measured */
        const char *want = first >= 0 ? o->exercise->exercise->goals[first].schedule : "";
        if (strcmp(want[0] && strcmp(want, "lockstep") ? want : "", A->s.brk.schedule) != 0) apply(A, ACT_SCHEDULE, 0, want[0] ? want : "lockstep");
        learn_exercise_picture(&A->s, o->exercise, &A->judged);
    }
    A->pictured = first;
    if (o->save_progress) { /* the window: the terminal hears each judgement too */
        const char *slash = strrchr(o->cap.kernel, '/');
        fprintf(stderr, "warpscope: %s: %zu of %zu goals met\n", slash ? slash + 1 : o->cap.kernel, A->judged.met,
                exercise_goal_count(o->exercise->exercise));
    }
    if (o->save_progress && A->judged.met == exercise_goal_count(o->exercise->exercise) && exercise_record_solved(o->exercise, err, sizeof err))
        fprintf(stderr, "warpscope: not recorded as solved: %s\n", err);
    if (o->card_time && A->judged.runs && A->judged.met == o->exercise->exercise->ngoals) {
        A->timing_cancel = 0;
        SDL_AtomicSet(&A->timed, 0);
        A->timing = SDL_CreateThread(card_thread, "card", A);
        A->s.status_id = STR_COUNT;
        if (A->timing) {
            snprintf(A->s.status_text, sizeof A->s.status_text, str_get(A->s.lang, STR_EXERCISE_TIMING), o->gpu ? o->gpu : "GPU");
        } else {
            snprintf(A->s.status_text, sizeof A->s.status_text, str_get(A->s.lang, STR_EXERCISE_NOT_TIMED), SDL_GetError());
        }
    }
}

/* PageDown in an exercise unlocks the next hint */
static void exercise_requests(app *A)
{
    if (!A->o.exercise || A->s.lesson.requests == A->requests) return;
    A->hints = learn_exercise_requests(&A->s, &A->requests, A->hints, A->o.exercise->exercise->nhints);
    learn_exercise(&A->s, A->o.exercise, A->o.cap.kernel, &A->judged, A->hints);
}

/* Edit and watch: when the learner's file changes on disk, it is traced again and the window
 * stays at the same step where that step still exists; what does not compile or run is said on
 * the status line (and stderr) and the last good trace stays. 1 when something changed. */
static int own_reload(app *A)
{
    const viewer_opts *o = &A->o;
    struct stat st;
    if (!o->cap.kernel || SDL_GetTicks() - A->own_checked < 300) return 0;
    A->own_checked = SDL_GetTicks();
    if (stat(o->cap.kernel, &st) || (st.st_size == A->own_seen.st_size && st.st_mtim.tv_sec == A->own_seen.st_mtim.tv_sec &&
                                     st.st_mtim.tv_nsec == A->own_seen.st_mtim.tv_nsec))
        return 0;
    A->own_seen = st;
    trace t;
    trace_init(&t);
    char err[400], note[300];
    size_t step = A->s.pane[0].step;
    A->s.status_id = STR_COUNT;
    if (load_capture(&A->o, OWN_VERSION, &A->s.brk, &t, note, sizeof note, err, sizeof err) ||
        session_set_trace(&A->s, 0, &t, err, sizeof err)) {
        trace_free(&t);
        snprintf(A->s.status_text, sizeof A->s.status_text, "%s", err);
        fprintf(stderr, "warpscope: %s\n", err);
        if (o->exercise) exercise_judge_file(A);
        return 1;
    }
    long pictured = A->pictured;
    if (o->exercise) exercise_judge_file(A);
    load_own_source(o);
    /* the learner's step, unless the first missed goal changed and its picture took the pane */
    if (A->pictured == pictured && step < A->s.pane[0].m.nsteps) A->s.pane[0].step = step;
    snprintf(A->s.status_text, sizeof A->s.status_text, "%s changed: traced again, at step %zu", own_name ? own_name : o->cap.kernel,
             A->s.pane[0].step);
    fprintf(stderr, "warpscope: %s\n", A->s.status_text);
    A->s.generation++;
    return 1;
}


/* after each action of a script: the lesson driver's turn, and an exercise's hints */
static int after_action(void *ctx, char *err, size_t errlen)
{
    app *A = ctx;
    if (A->L && learn_update(A->L, &A->s, err, errlen)) return -1;
    exercise_requests(A);
    return 0;
}

static int apply_script(app *A, const char *script, char *err, size_t errlen)
{
    return session_apply_script(&A->s, script, after_action, A, err, errlen);
}

static int app_init(app *A, const viewer_opts *o, char *err, size_t errlen)
{
    load_own_source(o);
    note_trace_dir(o->file);
    memset(A, 0, sizeof *A);
    A->o = *o;
    if (o->cap.kernel) stat(o->cap.kernel, &A->own_seen); /* before its capture: a change during it is seen */
    /* one emulator for every capture of the session (switching versions): its stacks stay mapped;
     * NULL (out of memory) falls back to a fresh one per capture */
    A->o.cap.emu = emu_create();
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/themes", asset_dir(o));
    if (session_init(&A->s, dir, (session_loader){&A->o, load_capture}, err, errlen)) return -1;
    A->s.pass = o->pass;
    A->s.block_index = o->block_index;
    scene_init(&A->sc);
    if (o->theme && strcmp(o->theme, "light") && strcmp(o->theme, "dark")) {
        snprintf(err, errlen, "--theme must be light or dark, got \"%s\"", o->theme);
        return -1;
    }
    A->s.theme_index = o->theme && !strcmp(o->theme, "dark") ? 1 : 0;
    if (o->lang) {
        int l = str_lang_parse(o->lang);
        if (l < 0) { snprintf(err, errlen, "--lang must be en or zh, got \"%s\"", o->lang); return -1; }
        A->s.lang = (str_lang)l;
    }
    A->s.presenter = o->presenter;
    if (o->card && card_find(o->card)) snprintf(A->s.card, sizeof A->s.card, "%s", card_find(o->card)->id);
    A->s.scale = o->scale > 0 ? o->scale : 1.0;
    A->s.fine = o->fine;
    if (o->bench) {
        if (results_set_read_files(&A->res, &o->bench, 1, err, errlen)) return -1;
        A->have_results = 1;
    } else {
        char ignore[256];
        A->have_results = results_set_read_dir(&A->res, asset_dir(o), ignore, sizeof ignore) == 0 && A->res.count;
    }
    session_set_results(&A->s, A->have_results ? &A->res : NULL);
    if (o->bench && !o->file && !o->cap.version) {
        A->s.overlay = OVERLAY_BENCH;
        return o->actions ? apply_script(A, o->actions, err, errlen) : 0;
    }
    if (o->learn) { /* a lesson drives the panes */
        A->L = learn_create(o->lesson_dir ? o->lesson_dir : "lessons", !o->out && !o->frames, err, errlen);
        if (!A->L) return -1;
        if (o->learn[0] ? learn_open(A->L, &A->s, o->learn, err, errlen) : learn_menu(A->L, &A->s, err, errlen)) return -1;
        if (o->actions && apply_script(A, o->actions, err, errlen)) return -1;
        return 0;
    }
    trace t;
    trace_init(&t);
    if (o->file) {
        if (trace_read_file(&t, o->file, err, errlen) || session_set_trace(&A->s, 0, &t, err, errlen)) { trace_free(&t); return -1; }
        A->s.loader.load = NULL; /* a recorded trace: nothing to capture with */
    } else {
        char note[512] = "";
        if (o->cap.schedule) snprintf(A->s.brk.schedule, sizeof A->s.brk.schedule, "%s", o->cap.schedule);
        A->s.brk.drop_barrier = o->cap.drop_barrier;
        if (load_capture(&A->o, o->cap.version ? o->cap.version : "v0", &A->s.brk, &t, note, sizeof note, err, errlen) ||
            session_set_trace(&A->s, 0, &t, err, errlen)) {
            trace_free(&t);
            /* an exercise whose copy does not run yet: the window opens on the starting file's
             * picture, the checklist says why the copy did not run, and its next save is traced */
            const char *mine = A->o.cap.kernel;
            if (!o->exercise || !o->save_progress) return -1;
            snprintf(note, sizeof note, "your file did not run (the checklist says why): the picture is the starting file's until it runs");
            A->o.cap.kernel = o->exercise->exercise->start;
            int rc = load_capture(&A->o, OWN_VERSION, &A->s.brk, &t, NULL, 0, err, errlen) || session_set_trace(&A->s, 0, &t, err, errlen);
            A->o.cap.kernel = mine;
            if (rc) { trace_free(&t); return -1; }
        }
        if (note[0]) { A->s.status_id = STR_COUNT; snprintf(A->s.status_text, sizeof A->s.status_text, "%s", note); }
    }
    if (o->exercise) {
        A->requests = A->s.lesson.requests;
        A->pictured = -2;
        exercise_judge_file(A);
    }
    if (o->compare) {
        if (!ladder_find(o->compare)) {
            char why[300];
            ladder_unknown(o->compare, why, sizeof why);
            snprintf(err, errlen, "--compare: %s", why);
            return -1;
        }
        if (!A->s.loader.load) { snprintf(err, errlen, "--compare captures a version: it needs --version, not a trace file"); return -1; }
        apply(A, ACT_COMPARE, 0, o->compare);
        if (!A->s.compare) { snprintf(err, errlen, "%s", A->s.status_text); return -1; }
    }
    if (o->actions && apply_script(A, o->actions, err, errlen)) return -1;
    return 0;
}

static void app_free(app *A)
{
    card_stop(A);
    learn_destroy(A->L);
    emu_destroy(A->o.cap.emu);
    scene_free(&A->sc);
    session_free(&A->s);
    if (A->have_results) results_set_free(&A->res);
}

/* ---- a canvas: a surface, a software renderer on it, the fonts and a draw list ---- */

typedef struct canvas {
    SDL_Surface *surface;
    SDL_Renderer *r;
    rsdl *x;
    dl_list l;
    dl_summary shown;      /* the list the surface shows: a frame redraws only where it differs */
    int have_shown;
    dl_rect damage[16];    /* the last frame's regions drawn; ndamage -1: all of it */
    int ndamage;
} canvas;

static int canvas_open(canvas *c, const viewer_opts *o, SDL_Surface *s, int need_cjk, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->surface = s;
    rsdl_font_file files[DL_FONT_COUNT];
    int have_cjk;
    if (rsdl_find_fonts(asset_dir(o), need_cjk, files, &have_cjk, err, errlen)) return -1;
    c->r = SDL_CreateSoftwareRenderer(s);
    if (!c->r) { snprintf(err, errlen, "software renderer: %s", SDL_GetError()); return -1; }
    c->x = rsdl_create(c->r, files, err, errlen);
    if (!c->x) { SDL_DestroyRenderer(c->r); c->r = NULL; return -1; }
    dl_init(&c->l, rsdl_metrics(c->x));
    return 0;
}

static void canvas_close(canvas *c)
{
    dl_free(&c->l);
    rsdl_destroy(c->x);
    if (c->r) SDL_DestroyRenderer(c->r);
    memset(c, 0, sizeof *c);
}

/* the end of a run of the viewer: its canvas and the app closed (A may be NULL), fonts released */
static void run_end(canvas *c, app *A)
{
    canvas_close(c);
    if (A) app_free(A);
    free(A);
    TTF_Quit();
}

/* Executes the canvas's list where it differs from the one the surface shows (dl_damage), and
 * keeps it as the one shown. */
static void canvas_execute(canvas *c)
{
    dl_summary now;
    dl_summarise(&c->l, &now);
    c->ndamage = c->have_shown ? dl_damage(&c->shown, &now, c->damage, (int)(sizeof c->damage / sizeof c->damage[0])) : -1;
    rsdl_execute_regions(c->x, &c->l, c->damage, c->ndamage);
    SDL_RenderPresent(c->r);
    c->shown = now;
    c->have_shown = !now.failed;
}

/* A move is drawn only between steps that draw the same panels: the panels show the step the move
 * starts from while the lanes-to-banks picture lands the next step's wavefronts, so a move from a
 * step without a shared access to one with it (or back) would put one step's banks picture in the
 * other's layout ("4-way conflict" over "no shared-memory access"). Such a move is a cut: every
 * frame shows one step's state. */
static int move_keeps_panels(const scene *sc)
{
    for (int pi = 0; pi < (sc->compare ? 2 : 1); pi++) {
        const scene_pane *a = &sc->prev[pi], *b = &sc->pane[pi];
        if (a->shown && b->shown && a->step != b->step && (a->bank_event < 0) != (b->bank_event < 0)) return 0;
    }
    return 1;
}

static int canvas_draw(canvas *c, app *A, double t)
{
    if (scene_update(&A->sc, &A->s, find_source)) return -1;
    if (!move_keeps_panels(&A->sc)) t = 1.0;
    int w = c->surface->w, h = c->surface->h;
    panels_draw(&A->sc, &c->l, w, h, panels_px(h, A->s.scale, A->s.presenter), A->s.no_motion ? 1.0 : t);
    canvas_execute(c);
    return c->l.failed ? -1 : 0;
}

/* the window shows the canvas: only the regions just drawn */
static void canvas_show(canvas *c, SDL_Window *win)
{
    if (c->ndamage < 0) { SDL_UpdateWindowSurface(win); return; }
    SDL_Rect r[sizeof c->damage / sizeof c->damage[0]];
    int n = 0;
    for (int k = 0; k < c->ndamage; k++) {
        dl_rect d = c->damage[k];
        int x0 = d.x < 0 ? 0 : d.x, y0 = d.y < 0 ? 0 : d.y;
        int x1 = d.x + d.w > c->surface->w ? c->surface->w : d.x + d.w, y1 = d.y + d.h > c->surface->h ? c->surface->h : d.y + d.h;
        if (x1 > x0 && y1 > y0) r[n++] = (SDL_Rect){x0, y0, x1 - x0, y1 - y0};
    }
    if (n) SDL_UpdateWindowSurfaceRects(win, r, n);
}

static void window_progress(void *user, uint64_t done, uint64_t total)
{
    live_window *w = user;
    if (w->outer && *w->outer) w->cancel = 1;
    Uint32 now = SDL_GetTicks();
    if (now - w->last < 100) return;
    w->last = now;
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) { /* during the capture only stopping is heard */
        if (ev.type == SDL_QUIT) w->cancel = w->A->s.quit = 1;
        if (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_ESCAPE) w->cancel = 1;
    }
    session *s = &w->A->s;
    char bar[64];
    int full = total ? (int)(20 * done / total) : 0;
    snprintf(bar, sizeof bar, "[%.*s%.*s] %.0f%%", full, "####################", 20 - full, "....................",
             total ? 100.0 * (double)done / (double)total : 0.0);
    s->status_id = STR_TRACING;
    snprintf(s->status_text, sizeof s->status_text, "%s", bar);
    s->generation++;
    if (!canvas_draw(w->c, w->A, 1.0)) canvas_show(w->c, w->win);
}


/* PNG through outfile (a unique temporary file beside it, renamed when complete): a failed or
 * interrupted save leaves the old PNG (or none), never half of one */
static int save_png(SDL_Surface *s, const char *path, char *err, size_t errlen)
{
    outfile of;
    if (outfile_open(&of, path, err, errlen)) return -1;
    SDL_RWops *rw = SDL_RWFromFP(of.f, SDL_FALSE);
    if (!rw || IMG_SavePNG_RW(s, rw, 1) != 0) {
        snprintf(err, errlen, "%s: cannot write PNG: %s", path, rw ? IMG_GetError() : SDL_GetError());
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, err, errlen);
}

/* ---- headless ---- */

/* asked to stop (the capture's cancel flag, set by SIGINT or SIGTERM) */
static int stopped(const viewer_opts *o) { return o->cap.cancel && *o->cap.cancel; }

static int render_one(app *A, canvas *c, const char *path, char *err, size_t errlen)
{
    if (stopped(&A->o)) { snprintf(err, errlen, "interrupted"); return -1; }
    if (canvas_draw(c, A, 1.0)) { snprintf(err, errlen, "out of memory while drawing"); return -1; }
    return save_png(c->surface, path, err, errlen);
}

static int seek_options(app *A, const viewer_opts *o, char *err, size_t errlen)
{
    if (A->s.overlay == OVERLAY_BENCH || !A->s.pane[0].loaded || A->L) return 0;
    const view_model *m = &A->s.pane[0].m;
    if (o->event >= 0) {
        /* the step that shows it (a register assignment shows at its warp's instruction before it) */
        size_t target = (size_t)o->event;
        if (target < A->s.pane[0].t.nevents && m->event_step[target] != SIZE_MAX) { apply(A, ACT_SEEK_STEP, (long)m->event_step[target], NULL); return 0; }
        snprintf(err, errlen, "--event %ld: no such event in block %u of pass %u (%zu events in the trace)", o->event, m->block, m->pass,
                 A->s.pane[0].t.nevents);
        return -1;
    }
    if (o->phase >= 0) {
        if ((unsigned long)o->phase >= m->nphases) { snprintf(err, errlen, "--phase %ld: the trace has phases 0 to %u", o->phase, m->nphases - 1); return -1; }
        /* the step that defines the phase: its first shared access, shuffle or store into the tree */
        long st = view_phase_defining(m, (unsigned)o->phase);
        if (A->s.compare) apply(A, ACT_SEEK_PHASE, o->phase, NULL);
        else if (st >= 0) apply(A, ACT_SEEK_STEP, st, NULL);
    } else if (o->step >= 0) {
        if ((size_t)o->step >= m->nsteps) { snprintf(err, errlen, "--step %ld: the trace has steps 0 to %zu", o->step, m->nsteps - 1); return -1; }
        apply(A, ACT_SEEK_STEP, o->step, NULL);
    }
    return 0;
}

static int is_list_name(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

/* The frame's draw list as JSON (record.h), its text measured with the fonts, or with the page's
 * table (--metrics): the desktop's list for the step the page shows. */
static int render_list(app *A, const viewer_opts *o, int w, int h, char *err, size_t errlen)
{
    dl_table *tab = NULL;
    canvas c = {0};
    dl_list l;
    if (o->metrics) {
        if (!(tab = dl_table_read(o->metrics, err, errlen))) return -1;
        dl_init(&l, dl_table_metrics(tab));
    } else {
        SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 1, 1, 32, SDL_PIXELFORMAT_RGB888); /* the fonts want a renderer */
        if (!s || canvas_open(&c, o, s, A->s.lang == LANG_ZH, err, errlen)) { if (s) SDL_FreeSurface(s); return -1; }
        dl_init(&l, c.l.m);
    }
    int rc = -1;
    char *json = NULL;
    if (scene_update(&A->sc, &A->s, find_source)) snprintf(err, errlen, "out of memory");
    else {
        panels_draw(&A->sc, &l, w, h, panels_px(h, A->s.scale, A->s.presenter), 1.0);
        char what[80];
        if (tab && dl_table_missing(tab, what, sizeof what))
            snprintf(err, errlen, "%s: the table lacks %s (the page did not draw this frame's text)", o->metrics, what);
        else if (l.failed || !(json = dl_record_json(&l))) snprintf(err, errlen, "out of memory");
        else {
            outfile of;
            if (outfile_open(&of, o->out, err, errlen) == 0) {
                if (fputs(json, of.f) < 0 || fputc('\n', of.f) < 0) { snprintf(err, errlen, "%s: write error", o->out); outfile_abort(&of); }
                else rc = outfile_commit(&of, err, errlen);
            }
        }
    }
    free(json);
    dl_free(&l);
    if (!tab) {
        SDL_Surface *s = c.surface;
        canvas_close(&c);
        if (s) SDL_FreeSurface(s);
    }
    dl_table_free(tab);
    return rc;
}

int viewer_render(const viewer_opts *o)
{
    char err[512];
    app *A = calloc(1, sizeof *A);
    if (!A) { fprintf(stderr, "warpscope: out of memory\n"); return 2; }
    int rc = 2, w = o->width ? o->width : 1920, h = o->height ? o->height : 1080;
    SDL_Surface *surf = NULL;
    canvas c = {0};
    const char *in = outfile_is_input(o->out, o->file) ? o->file : outfile_is_input(o->out, o->bench) ? o->bench : NULL;
    if (in) { snprintf(err, sizeof err, "%s: the output would overwrite the input %s; choose another -o", o->out, in); goto fail; }
    if (app_init(A, o, err, sizeof err) || seek_options(A, o, err, sizeof err)) goto fail;
    if (o->out && is_list_name(o->out)) { /* the draw list itself, as the page's is compared with it */
        if (render_list(A, o, w, h, err, sizeof err)) goto fail;
        rc = 0;
        fprintf(stderr, "warpscope: the draw list of %dx%d -> %s\n", w, h, o->out);
        goto done;
    }
    if (o->metrics) { snprintf(err, sizeof err, "--metrics lays out a draw list: give -o LIST.json"); goto fail; }
    surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    if (!surf) { snprintf(err, sizeof err, "cannot make a %dx%d surface: %s", w, h, SDL_GetError()); goto fail; }
    if (canvas_open(&c, &A->o, surf, A->s.lang == LANG_ZH, err, sizeof err)) goto fail;
    if (o->frames) {
        if (A->s.overlay == OVERLAY_BENCH) { snprintf(err, sizeof err, "--frames renders a trace's steps, not the benchmark view"); goto fail; }
        if (mkdir(o->frames, 0777) != 0 && errno != EEXIST) { snprintf(err, sizeof err, "%s: cannot make the folder: %s", o->frames, strerror(errno)); goto fail; }
        size_t n = A->s.pane[0].m.nsteps;
        apply(A, ACT_FIRST, 0, NULL);
        for (size_t s = 0; s < n; s++) {
            apply(A, ACT_SEEK_STEP, (long)s, NULL);
            char path[1024];
            snprintf(path, sizeof path, "%s/step-%04zu.png", o->frames, s);
            if (render_one(A, &c, path, err, sizeof err)) {
                for (size_t k = 0; stopped(o) && k < s; k++) { /* stopped: none of this run's frames stay */
                    snprintf(path, sizeof path, "%s/step-%04zu.png", o->frames, k);
                    unlink(path);
                }
                goto fail;
            }
        }
        fprintf(stderr, "warpscope: %zu frames -> %s/\n", n, o->frames);
    }
    if (o->out) {
        if (render_one(A, &c, o->out, err, sizeof err)) goto fail;
        fprintf(stderr, "warpscope: rendered %dx%d -> %s\n", w, h, o->out);
    }
    rc = 0;
    goto done;
fail:
    if (stopped(o)) rc = VIEWER_STOPPED;
    else fprintf(stderr, "warpscope: %s\n", err);
done:
    run_end(&c, A);
    if (surf) SDL_FreeSurface(surf);
    return rc;
}

/* ---- the window ---- */

static unsigned window_export(app *A, int w, int h); /* E: see the export section at the end */

static void window_size(const viewer_opts *o, int *w, int *h)
{
    /* within 90% of the usable display: a 1024x768 projector gets a window that fits */
    SDL_Rect usable = {0, 0, 1600, 900};
    if (SDL_GetDisplayUsableBounds(0, &usable) != 0) usable = (SDL_Rect){0, 0, 1600, 900};
    int mw = usable.w * 9 / 10, mh = usable.h * 9 / 10;
    *w = o->width ? o->width : 1600;
    *h = o->height ? o->height : 900;
    if (!o->width && *w > mw) *w = mw;
    if (!o->height && *h > mh) *h = mh;
}

int viewer_window(const viewer_opts *o)
{
    char err[512];
    /* Decide before SDL does: without a display SDL 2.26 falls back to its offscreen driver and
     * would sit there with a window nobody sees (and libwayland prints its own complaint). */
    const char *drv = getenv("SDL_VIDEODRIVER"), *x11 = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    int explicit_driver = drv && *drv;
    if (!explicit_driver && !(x11 && *x11) && !(wl && *wl)) {
        fprintf(stderr, "warpscope: no display (DISPLAY and WAYLAND_DISPLAY are unset); without one use warpscope render ... -o out.png, warpscope stats or warpscope capture\n");
        return 2;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0 ||
        (!explicit_driver && (!strcmp(SDL_GetCurrentVideoDriver(), "offscreen") || !strcmp(SDL_GetCurrentVideoDriver(), "dummy")))) {
        fprintf(stderr, "warpscope: no display (%s); without one use warpscope render ... -o out.png, warpscope stats or warpscope capture\n",
                SDL_WasInit(SDL_INIT_VIDEO) ? "only an offscreen video driver" : SDL_GetError());
        SDL_Quit();
        return 2;
    }
    app *A = calloc(1, sizeof *A);
    int rc = 2;
    SDL_Window *win = NULL;
    canvas c = {0};
    if (!A) { snprintf(err, sizeof err, "out of memory"); goto fail; }
    if (app_init(A, o, err, sizeof err)) goto fail;
    int ww, wh;
    window_size(o, &ww, &wh);
    win = SDL_CreateWindow("warpscope", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, ww, wh, SDL_WINDOW_RESIZABLE);
    if (!win) { snprintf(err, sizeof err, "cannot open a window: %s", SDL_GetError()); goto fail; }
    live_window lw = {.A = A, .c = &c, .win = win};
    live = &lw;
    int need_canvas = 1, dirty = 1;
    unsigned shots = 0, fulls = 0, moves = A->s.motion_serial, exports = 0;
    int scrubbing = 0; /* the left button went down on a timeline: dragging seeks */
    Uint32 move_start = 0;
    double t = 1.0;
    const char *inj = o->keys;
    Uint32 inj_until = 0; /* --keys wait:MS holds the next key until then */
    Uint32 last_tick = SDL_GetTicks();
    while (!A->s.quit) {
        if (need_canvas) {
            canvas_close(&c);
            SDL_Surface *s = SDL_GetWindowSurface(win);
            if (!s) { snprintf(err, sizeof err, "window surface: %s", SDL_GetError()); goto fail; }
            if (canvas_open(&c, &A->o, s, A->s.lang == LANG_ZH, err, sizeof err)) goto fail;
            need_canvas = 0;
            dirty = 1;
        }
        SDL_Event ev;
        int timeout = t < 1.0 ? 15 : A->s.playing ? (int)(1000.0 / A->s.speed) : 500;
        int injecting = inj && *inj && SDL_GetTicks() >= inj_until;
        int got = injecting ? SDL_PollEvent(&ev) : SDL_WaitEventTimeout(&ev, inj && *inj ? 20 : timeout);
        if (own_reload(A)) dirty = 1;
        if (card_done(A)) dirty = 1;
        if (!got && inj && *inj && SDL_GetTicks() >= inj_until) { /* --keys: one injected key per turn of the loop */
            size_t n = strcspn(inj, ",");
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), inj);
            inj += n + (inj[n] == ',');
            SDL_Keycode k;
            Uint16 mod;
            unsigned wait_ms;
            char tail;
            if (sscanf(name, "wait:%u%c", &wait_ms, &tail) == 1) { /* a pause, for demos and tests */
                inj_until = SDL_GetTicks() + wait_ms;
            } else if (keys_parse(name, &k, &mod)) {
                A->s.status_id = STR_COUNT;
                snprintf(A->s.status_text, sizeof A->s.status_text, "unknown key name \"%s\" in --keys", name);
            } else {
                action a = keys_action(&A->s, k, mod);
                if (a.kind != ACT_NONE) session_apply(&A->s, &a);
                if (A->L && learn_update(A->L, &A->s, err, sizeof err)) {
                    A->s.status_id = STR_COUNT;
                    snprintf(A->s.status_text, sizeof A->s.status_text, "%s", err);
                }
                exercise_requests(A);
            }
            dirty = 1;
        }
        for (; got; got = SDL_PollEvent(&ev)) {
            action a;
            memset(&a, 0, sizeof a);
            switch (ev.type) {
            case SDL_QUIT: A->s.quit = 1; break;
            case SDL_KEYDOWN: a = keys_action(&A->s, ev.key.keysym.sym, ev.key.keysym.mod); break;
            case SDL_MOUSEMOTION:
                if (scrubbing && (ev.motion.state & SDL_BUTTON_LMASK)) { /* dragging along the timeline */
                    const dl_item *it = dl_hit_item(&c.l, ev.motion.x, ev.motion.y);
                    if (it && session_timeline_seek(&A->s, it->hit, it->r.x, it->r.w, ev.motion.x, &a)) break;
                }
                a.kind = ACT_HOVER;
                a.i = dl_hit(&c.l, ev.motion.x, ev.motion.y);
                a.x = ev.motion.x;
                a.y = ev.motion.y;
                break;
            case SDL_MOUSEBUTTONUP: scrubbing = 0; break;
            case SDL_MOUSEBUTTONDOWN: {
                const dl_item *hit_item = dl_hit_item(&c.l, ev.button.x, ev.button.y);
                scrubbing = session_press(&A->s, hit_item ? hit_item->hit : 0, hit_item ? hit_item->r.x : 0, hit_item ? hit_item->r.w : 0,
                                          ev.button.x, &a) == 2; /* a press on nothing lets a pinned item go */
                break;
            }
            case SDL_WINDOWEVENT:
                if (ev.window.event == SDL_WINDOWEVENT_SIZE_CHANGED || ev.window.event == SDL_WINDOWEVENT_RESIZED) need_canvas = 1;
                /* uncovered or shown again: what the window showed is gone, draw it whole */
                if (ev.window.event == SDL_WINDOWEVENT_EXPOSED || ev.window.event == SDL_WINDOWEVENT_SHOWN ||
                    ev.window.event == SDL_WINDOWEVENT_RESTORED)
                    c.have_shown = 0;
                if (ev.window.event == SDL_WINDOWEVENT_LEAVE) { a.kind = ACT_HOVER; a.x = a.y = -1; }
                dirty = 1;
                break;
            default: break;
            }
            if (a.kind != ACT_NONE) { session_apply(&A->s, &a); dirty = 1; }
            if (A->L && learn_update(A->L, &A->s, err, sizeof err)) { /* a lesson's trouble goes to the status line */
                A->s.status_id = STR_COUNT;
                snprintf(A->s.status_text, sizeof A->s.status_text, "%s", err);
            }
            exercise_requests(A);
        }
        if (A->s.playing && SDL_GetTicks() - last_tick >= (Uint32)(1000.0 / A->s.speed)) {
            last_tick = SDL_GetTicks();
            apply(A, ACT_TICK, 0, NULL);
            dirty = 1;
        }
        if (A->s.fullscreen_requests != fulls) {
            fulls = A->s.fullscreen_requests;
            Uint32 fs = SDL_GetWindowFlags(win) & SDL_WINDOW_FULLSCREEN_DESKTOP;
            SDL_SetWindowFullscreen(win, fs ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
            need_canvas = 1;
        }
        if (need_canvas) continue;
        /* motion: a move's clock starts when the session says one started */
        if (A->s.motion_serial != moves) { moves = A->s.motion_serial; move_start = SDL_GetTicks(); t = 0.0; }
        if (t < 1.0) {
            t = A->s.no_motion ? 1.0 : (SDL_GetTicks() - move_start) / (1000.0 * panels_motion_seconds(A->s.playing ? A->s.speed : 0));
            dirty = 1;
        }
        if (dirty) {
            if (canvas_draw(&c, A, t)) { snprintf(err, sizeof err, "out of memory while drawing"); goto fail; }
            canvas_show(&c, win);
            dirty = 0;
            /* the mouse at rest over a picture that changed (a key stepped): what is under it now */
            if (session_rest_hover(&A->s, dl_hit(&c.l, A->s.mouse_x, A->s.mouse_y))) dirty = 1;
        }
        if (A->s.screenshot_requests != shots) {
            shots = A->s.screenshot_requests;
            char path[128];
            snprintf(path, sizeof path, "warpscope-%s-step%zu.png", A->s.pane[0].loaded ? A->s.pane[0].t.prov.version : "bench", A->s.pane[0].step);
            A->s.status_id = STR_COUNT;
            if (save_png(c.surface, path, err, sizeof err)) snprintf(A->s.status_text, sizeof A->s.status_text, "%s", err);
            else { A->s.status_id = STR_SAVED; snprintf(A->s.status_text, sizeof A->s.status_text, "%s", path); }
            A->s.generation++;
            dirty = 1;
        }
        if (A->s.export_requests != exports) { exports = window_export(A, c.surface->w, c.surface->h); dirty = 1; }
    }
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "warpscope: %s\n", err);
done:
    live = NULL;
    run_end(&c, A);
    if (win) SDL_DestroyWindow(win);
    SDL_Quit();
    return rc;
}

/* ---- perf draw ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* the CPU time this thread has run, in ms: a frame's wall time less this is time spent waiting for a core */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int viewer_perf_draw(const char *assets_dir)
{
    char err[512];
    viewer_opts o;
    memset(&o, 0, sizeof o);
    o.assets_dir = assets_dir;
    o.cap.version = "v0";
    o.cap.block = 1024;
    o.event = o.phase = o.step = -1;
    app *A = calloc(1, sizeof *A);
    SDL_Surface *s = NULL;
    canvas c = {0};
    int rc = 2;
    if (!A) { snprintf(err, sizeof err, "out of memory"); goto fail; }
    if (app_init(A, &o, err, sizeof err)) goto fail;
    s = SDL_CreateRGBSurfaceWithFormat(0, 1920, 1080, 32, SDL_PIXELFORMAT_RGB888);
    if (!s) { snprintf(err, sizeof err, "%s", SDL_GetError()); goto fail; }
    if (canvas_open(&c, &A->o, s, 0, err, sizeof err)) goto fail;
    /* a tooltip too, as under a hovering mouse over the lanes */
    action hover = {.kind = ACT_HOVER, .i = HIT_CODE(HIT_LANE, 0, 700), .x = 1500, .y = 600};
    session_apply(&A->s, &hover);
    size_t nsteps = A->s.pane[0].m.nsteps, n = 0;
    enum { MOTION_FRAMES = 8 }; /* frames of each move, t = 0 .. 1 */
    double total = 0, worst = 0, worst_after_first = 0, part[3] = {0, 0, 0}, slow_cpu = 0, worst_cpu = 0;
    double slow_part[3] = {0, 0, 0}, cpu_frame[2] = {0, 0}; /* the slowest frame's parts; the frame that took most CPU, and its index */
    size_t slow = 0, over = 0;
    apply(A, ACT_FIRST, 0, NULL);
    for (size_t i = 0; i < nsteps * MOTION_FRAMES; i++, n++) {
        double tm = (double)(i % MOTION_FRAMES) / (MOTION_FRAMES - 1);
        if (i % MOTION_FRAMES == 0 && i) apply(A, ACT_STEP, 1, NULL);
        double t0 = now_ms(), c0 = cpu_ms();
        /* canvas_draw, in its three parts, timed each */
        if (scene_update(&A->sc, &A->s, find_source)) { snprintf(err, sizeof err, "out of memory while drawing"); goto fail; }
        double t1 = now_ms();
        panels_draw(&A->sc, &c.l, 1920, 1080, panels_px(1080, A->s.scale, A->s.presenter), tm);
        double t2 = now_ms();
        canvas_execute(&c); /* as the window does: where the list changed */
        double t3 = now_ms(), dt = t3 - t0, dc = cpu_ms() - c0;
        part[0] += t1 - t0;
        part[1] += t2 - t1;
        part[2] += t3 - t2;
        total += dt;
        if (dt > worst) worst = dt;
        if (i && dt > worst_after_first)
            worst_after_first = dt, slow = i, slow_cpu = dc, slow_part[0] = t1 - t0, slow_part[1] = t2 - t1, slow_part[2] = t3 - t2;
        if (i && dc > worst_cpu) worst_cpu = dc, cpu_frame[1] = (double)i, cpu_frame[0] = t3 - t2;
        over += i && dt > 16.0;
    }
    const view_model *pm = &A->s.pane[0].m;
    printf("drawing %s, a block of %u threads (%u warps, %zu shared words), at %dx%d with the software renderer\n", pm->t->prov.version,
           pm->threads, pm->nwarps, pm->nwords, s->w, s->h);
    printf("%zu frames (every step, %d frames of motion each): mean %.2f ms, worst %.2f ms (first frame: glyph cache), worst after the first %.2f ms; target: mean at most 8 ms, none over 16 ms after the first -> %s\n",
           n, MOTION_FRAMES, total / (double)n, worst, worst_after_first, total / (double)n <= 8.0 && worst_after_first <= 16.0 ? "met" : "MISSED");
    printf("after the first: %zu frame(s) over 16 ms; the slowest, frame %zu (step %zu), took %.2f ms (scene %.2f, draw list %.2f, executing %.2f) "
           "of which %.2f ms ran on this thread's CPU (the rest waited for a core); the most CPU a frame took: %.2f ms, frame %.0f (executing %.2f ms)\n",
           over, slow, slow / MOTION_FRAMES, worst_after_first, slow_part[0], slow_part[1], slow_part[2], slow_cpu, worst_cpu, cpu_frame[1], cpu_frame[0]);
    printf("mean per part: scene %.2f ms, panels to draw list %.2f ms (%zu items), executing the list %.2f ms\n", part[0] / (double)n,
           part[1] / (double)n, c.l.n, part[2] / (double)n);
    fflush(stdout);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "warpscope: %s\n", err);
done:
    run_end(&c, A);
    if (s) SDL_FreeSurface(s);
    return rc;
}

/* ---- export: warpscope export, E in the window, perf export ----
 *
 * The frames are the viewer's own: the session steps through the range by actions, the scene is
 * derived, the panels draw the move into each step at t = k/M, and the writer (export.h) stores
 * them. A step lasts 1/speed seconds: its move (panels_motion_seconds) and then a hold. */

#include <math.h>

#include "app/export/export.h"

typedef struct xrun {
    const export_opts *eo;
    export_format fmt;
    int w, h, px;
    double fps, speed;
    unsigned per_step, move; /* frame times of a step, frames of its move */
    app *A;
    canvas c;
    SDL_Surface *surf;
    export_writer *wr;
    long from, to;
    double t_draw, t_write;
} xrun;

static double xnow(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int xdraw(xrun *X, double t, char *err, size_t errlen)
{
    double t0 = xnow();
    app *A = X->A;
    if (scene_update(&A->sc, &A->s, find_source)) { snprintf(err, errlen, "out of memory while drawing"); return -1; }
    panels_draw(&A->sc, &X->c.l, X->w, X->h, X->px, t);
    rsdl_execute(X->c.x, &X->c.l);
    SDL_RenderPresent(X->c.r);
    X->t_draw += xnow() - t0;
    if (X->c.l.failed) { snprintf(err, errlen, "out of memory while drawing"); return -1; }
    return 0;
}

static export_image ximage(const xrun *X)
{
    return (export_image){X->surf->pixels, X->surf->w, X->surf->h, X->surf->pitch};
}

/* The frames of the current step: the move from the step before (when moving) and the hold, for
 * `frames` frame times in all. sample: only show the writer the colours (the GIF's palette). */
static int xstep(xrun *X, int moving, unsigned frames, int sample, char *err, size_t errlen)
{
    if (scene_update(&X->A->sc, &X->A->s, find_source)) { snprintf(err, errlen, "out of memory while drawing"); return -1; }
    unsigned m = moving && !X->eo->no_motion && move_keeps_panels(&X->A->sc) ? X->move : 0;
    if (m > frames) m = frames;
    if (sample) { /* the still, and the middle of the move where colours are mixed */
        if (m && (xdraw(X, 0.5, err, errlen) || export_sample(X->wr, ximage(X), err, errlen))) return -1;
        return xdraw(X, 1.0, err, errlen) || export_sample(X->wr, ximage(X), err, errlen) ? -1 : 0;
    }
    for (unsigned k = m ? 1 : 0; k <= m; k++) {
        if (stopped(&X->eo->v)) { snprintf(err, errlen, "interrupted"); return -1; }
        if (xdraw(X, m ? (double)k / m : 1.0, err, errlen)) return -1;
        double t0 = xnow();
        int rc = export_frame(X->wr, ximage(X), k == m ? frames - (m ? m - 1 : 0) : 1, err, errlen);
        X->t_write += xnow() - t0;
        if (rc) return -1;
    }
    return 0;
}

/* Pane 0 at step s the way the viewer gets there: alone, a seek; in compare, from the first step
 * one step at a time, so the second pane is aligned operation by operation as Right aligns it. */
static void xseek(app *A, long s)
{
    if (!A->s.compare) { apply(A, ACT_SEEK_STEP, s, NULL); return; }
    apply(A, ACT_FIRST, 0, NULL);
    for (long i = 0; i < s; i++) apply(A, ACT_STEP, 1, NULL);
}

/* the steps written so far, for the progress line */
static void xprogress(const xrun *X, int sample, uint64_t done, uint64_t total)
{
    if (!sample && X->eo->progress) X->eo->progress(X->eo->progress_user, done, total);
}

static int xplay_range(xrun *X, int sample, char *err, size_t errlen)
{
    xseek(X->A, X->from);
    if (xstep(X, 0, X->per_step, sample, err, errlen)) return -1;
    for (long s = X->from + 1; s <= X->to; s++) {
        xprogress(X, sample, (uint64_t)(s - X->from), (uint64_t)(X->to - X->from + 1));
        apply(X->A, ACT_STEP, 1, NULL);
        if (xstep(X, 1, X->per_step, sample, err, errlen)) return -1;
    }
    return 0;
}

/* ---- a lesson's steps, as the lesson window shows them (learn.c drives the session) ---- */

/* How long a lesson step stays up: time to read its narration and question (about 15 letters a
 * second in English, 6 characters in Chinese), at least 3 s, at most 20 s. */
static unsigned xreading_frames(const xrun *X)
{
    const session_lesson *L = &X->A->s.lesson;
    size_t n = 0;
    for (const char *p = L->say; *p;) { dl_utf8_next(&p); n++; }
    for (const char *p = L->prompt; *p;) { dl_utf8_next(&p); n++; }
    double sec = (double)n / (X->A->s.lang == LANG_ZH ? 6.0 : 15.0);
    if (sec < 3) sec = 3;
    if (sec > 20) sec = 20;
    return (unsigned)lround(sec * X->fps);
}

static int xplay_lesson(xrun *X, int sample, char *err, size_t errlen)
{
    app *A = X->A;
    while (A->s.lesson.index > 0) { /* back to the first step (the sample pass left it at the end) */
        apply(A, ACT_LESSON, -1, NULL);
        if (learn_update(A->L, &A->s, err, errlen)) return -1;
    }
    for (size_t i = 0; i < A->s.lesson.count; i++) {
        xprogress(X, sample, i, A->s.lesson.count);
        if (i) {
            apply(A, ACT_LESSON, 1, NULL);
            if (learn_update(A->L, &A->s, err, errlen)) return -1;
        }
        /* the lesson window jumps from step to step: one still each */
        if (xstep(X, 0, xreading_frames(X), sample, err, errlen)) return -1;
    }
    return 0;
}

/* ---- the export ---- */

/* The step range of pane 0 from the options; 0, or -1 with err. */
static int xrange(xrun *X, char *err, size_t errlen)
{
    const export_opts *eo = X->eo;
    app *A = X->A;
    const view_model *m = &A->s.pane[0].m;
    if (!A->s.pane[0].loaded || !m->nsteps) { snprintf(err, errlen, "the trace has no steps to export"); return -1; }
    long last = (long)m->nsteps - 1;
    const viewer_opts *o = &eo->v;
    if (o->event >= 0 || o->step >= 0 || (o->phase >= 0 && X->fmt == EXPORT_SVG)) {
        /* one step, found as warpscope render finds it */
        if (seek_options(A, o, err, errlen)) return -1;
        X->from = X->to = (long)A->s.pane[0].step;
        return 0;
    }
    if (o->phase >= 0) {
        if ((unsigned long)o->phase >= m->nphases) { snprintf(err, errlen, "--phase %ld: the trace has phases 0 to %u", o->phase, m->nphases - 1); return -1; }
        X->from = view_phase_first(m, (unsigned)o->phase);
        X->to = view_phase_last(m, (unsigned)o->phase);
        return 0;
    }
    if (eo->from > last || eo->to > last) {
        snprintf(err, errlen, "--%s %ld: the trace has steps 0 to %ld", eo->from > last ? "from" : "to", eo->from > last ? eo->from : eo->to, last);
        return -1;
    }
    if (X->fmt == EXPORT_SVG) {
        if (eo->from >= 0 && eo->to >= 0 && eo->from != eo->to) { snprintf(err, errlen, "an SVG holds one step: give --step S (or --from S alone), or export a .gif"); return -1; }
        long s = eo->from >= 0 ? eo->from : eo->to >= 0 ? eo->to : (long)A->s.pane[0].step;
        X->from = X->to = s;
        return 0;
    }
    X->from = eo->from >= 0 ? eo->from : 0;
    X->to = eo->to >= 0 ? eo->to : last;
    if (X->from > X->to) { snprintf(err, errlen, "--from %ld is after --to %ld", X->from, X->to); return -1; }
    return 0;
}

static int xascent(void *ctx, dl_font f, int px) { return rsdl_ascent(ctx, f, px); }

static void xclose(xrun *X)
{
    if (X->wr) export_abort(X->wr);
    X->wr = NULL;
    canvas_close(&X->c);
    if (X->surf) SDL_FreeSurface(X->surf);
    X->surf = NULL;
    if (X->A) app_free(X->A);
    free(X->A);
    X->A = NULL;
}

/* Runs an export; 0 with a summary, or -1 with err. Prints nothing (the window shows the result). */
static int xrun_export(xrun *X, const export_opts *eo, export_stats *st, char *summary, size_t slen, char *err, size_t errlen)
{
    memset(X, 0, sizeof *X);
    memset(st, 0, sizeof *st);
    X->eo = eo;
    if (!eo->out) { snprintf(err, errlen, "export needs -o OUT (.gif, .mp4, .webm, .svg or a folder)"); return -1; }
    if (export_format_of(eo->out, &X->fmt, err, errlen) || export_check_tools(X->fmt, err, errlen)) return -1;
    if (eo->lesson && X->fmt == EXPORT_SVG) { snprintf(err, errlen, "--lesson exports an animation (.gif, .mp4, .webm or a folder), not one SVG"); return -1; }
    X->w = eo->v.width ? eo->v.width : EXPORT_WIDTH_DEFAULT;
    X->h = eo->v.height ? eo->v.height : EXPORT_HEIGHT_DEFAULT;
    export_fit_size(X->fmt, &X->w, &X->h);
    X->fps = eo->fps > 0 ? eo->fps : EXPORT_FPS_DEFAULT;
    X->speed = eo->speed > 0 ? eo->speed : 1.0;
    X->per_step = (unsigned)lround(X->fps / X->speed);
    if (X->per_step < 1) X->per_step = 1;
    X->move = (unsigned)lround(panels_motion_seconds(X->speed) * X->fps);
    if (X->move < 1) X->move = 1;
    X->A = calloc(1, sizeof *X->A);
    if (!X->A) { snprintf(err, errlen, "out of memory"); return -1; }
    viewer_opts vo = eo->v;
    if (eo->lesson) {
        vo.learn = eo->lesson; /* an id ("03") or a file */
        vo.out = eo->out;      /* headless: the user's lesson progress is neither read nor written */
    }
    if (app_init(X->A, &vo, err, errlen)) return -1;
    if (eo->lesson && !X->A->s.lesson.active) { snprintf(err, errlen, "%s: no lesson opened", eo->lesson); return -1; }
    X->A->s.speed = X->speed;
    X->A->s.playing = export_is_animated(X->fmt); /* the footer says what an animation is: playing, at this speed */
    X->px = panels_px(X->h, X->A->s.scale, X->A->s.presenter);
    if (!eo->lesson && xrange(X, err, errlen)) return -1;
    X->surf = SDL_CreateRGBSurfaceWithFormat(0, X->w, X->h, 32, SDL_PIXELFORMAT_RGB888);
    if (!X->surf) { snprintf(err, errlen, "cannot make a %dx%d surface: %s", X->w, X->h, SDL_GetError()); return -1; }
    if (canvas_open(&X->c, &X->A->o, X->surf, X->A->s.lang == LANG_ZH, err, errlen)) return -1;
    if (X->fmt == EXPORT_SVG) {
        if (eo->from >= 0 || eo->to >= 0) xseek(X->A, X->from);
        if (xdraw(X, 1.0, err, errlen) || export_svg(eo->out, &X->c.l, X->w, X->h, X->c.x, xascent, err, errlen)) return -1;
        snprintf(summary, slen, "step %zu as SVG, %dx%d, %zu items -> %s", X->A->s.pane[0].step, X->w, X->h, X->c.l.n, eo->out);
        st->frames_in = st->frames_out = 1;
        return 0;
    }
    X->wr = export_open(X->fmt, eo->out, X->w, X->h, X->fps, err, errlen);
    if (!X->wr) return -1;
    int (*play)(xrun *, int, char *, size_t) = eo->lesson ? xplay_lesson : xplay_range;
    if (export_wants_samples(X->wr) && play(X, 1, err, errlen)) return -1;
    if (play(X, 0, err, errlen)) return -1;
    export_writer *wr = X->wr;
    X->wr = NULL;
    if (export_close(wr, st, err, errlen)) return -1;
    if (eo->lesson)
        snprintf(summary, slen, "lesson \"%s\", %zu steps, %s, %dx%d at %g fps: %zu frames -> %s", X->A->s.lesson.title, X->A->s.lesson.count,
                 export_format_name(X->fmt), X->w, X->h, X->fps, st->frames_out, eo->out);
    else
        snprintf(summary, slen, "steps %ld to %ld, %s, %dx%d at %g fps: %zu frames -> %s", X->from, X->to, export_format_name(X->fmt), X->w,
                 X->h, X->fps, st->frames_out, eo->out);
    return 0;
}

int viewer_export(const export_opts *eo)
{
    char err[1600], summary[600];
    xrun *X = calloc(1, sizeof *X);
    if (!X) { fprintf(stderr, "warpscope: out of memory\n"); return 2; }
    export_stats st;
    int rc = xrun_export(X, eo, &st, summary, sizeof summary, err, sizeof err);
    xclose(X); /* an unfinished writer is aborted: no file, no temporary, no frames */
    free(X);
    TTF_Quit();
    if (rc && stopped(&eo->v)) return VIEWER_STOPPED;
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); return 2; }
    fprintf(stderr, "warpscope: %s\n", summary);
    return 0;
}

/* E in the window: the steps from where recording started to here, as a GIF in the current
 * folder, the size of the window. The result goes to the status line. */
static unsigned window_export(app *A, int w, int h)
{
    session *s = &A->s;
    if (A->L) { /* a lesson's panes are its own (its pass, its block): it exports whole */
        s->status_id = STR_COUNT;
        snprintf(s->status_text, sizeof s->status_text, "E records the viewer's steps; a lesson exports whole: warpscope export --lesson ID -o out.gif");
        s->generation++;
        return s->export_requests;
    }
    export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.v = A->o;
    eo.v.event = eo.v.phase = eo.v.step = -1;
    eo.v.keys = NULL;
    eo.v.frames = eo.v.out = NULL;
    eo.v.width = w & ~1;
    eo.v.height = h & ~1;
    eo.v.theme = s->theme_index ? "dark" : "light";
    eo.v.lang = str_lang_code(s->lang);
    eo.v.scale = s->scale;
    eo.v.presenter = s->presenter;
    eo.v.fine = 0;
    eo.v.actions = s->fine ? "fine" : NULL;
    eo.v.learn = NULL;
    const session_pane *p0 = &s->pane[0];
    if (!eo.v.file) { /* what pane 0 holds, as it was captured */
        const trace_provenance *pv = &p0->t.prov;
        eo.v.cap = (capture_desc){.version = pv->version, .block = pv->block, .n = pv->n, .data = pv->data, .seed = pv->seed,
                                  .seed_set = 1, .ept = pv->elems_per_thread, .blocks_traced = pv->blocks_traced};
    }
    eo.v.compare = s->compare ? s->pane[1].t.prov.version : NULL;
    long a = s->record_from, b = (long)p0->step;
    eo.from = a < b ? a : b;
    eo.to = a < b ? b : a;
    eo.speed = s->speed;
    eo.no_motion = s->no_motion;
    char out[128], err[1600], summary[600];
    snprintf(out, sizeof out, "warpscope-%s%s%s-steps%ld-%ld.gif", p0->t.prov.version, s->compare ? "-vs-" : "",
             s->compare ? s->pane[1].t.prov.version : "", eo.from, eo.to);
    eo.out = out;
    xrun *X = calloc(1, sizeof *X);
    export_stats st;
    int rc = X ? xrun_export(X, &eo, &st, summary, sizeof summary, err, sizeof err) : -1;
    if (!X) snprintf(err, sizeof err, "out of memory");
    if (X) xclose(X);
    free(X);
    if (rc) { s->status_id = STR_COUNT; snprintf(s->status_text, sizeof s->status_text, "%.*s", (int)sizeof s->status_text - 1, err); }
    else { s->status_id = STR_SAVED; snprintf(s->status_text, sizeof s->status_text, "%s", out); }
    s->generation++;
    return s->export_requests;
}

/* ---- perf export ---- */

int viewer_perf_export(const char *assets_dir)
{
    char dir[] = "/tmp/warpscope-perf-XXXXXX", out[64], err[1600], summary[600];
    if (!mkdtemp(dir)) { fprintf(stderr, "warpscope: cannot make a temporary folder: %s\n", strerror(errno)); return 2; }
    snprintf(out, sizeof out, "%s/v1-vs-v2.gif", dir);
    export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.v.assets_dir = assets_dir;
    eo.v.cap.version = "v1";
    eo.v.compare = "v2";
    eo.v.event = eo.v.phase = eo.v.step = -1;
    eo.v.width = 1280;
    eo.v.height = 720;
    eo.from = 0;
    eo.to = 29;
    eo.fps = 15;
    eo.out = out;
    xrun *X = calloc(1, sizeof *X);
    export_stats st;
    double t0 = xnow();
    clock_t c0 = clock(); /* CPU time too: on a loaded machine the wall time says more about the others */
    int rc = X ? xrun_export(X, &eo, &st, summary, sizeof summary, err, sizeof err) : -1;
    double secs = xnow() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (!X) snprintf(err, sizeof err, "out of memory");
    double draw = X ? X->t_draw : 0, write = X ? X->t_write : 0;
    if (X) xclose(X);
    free(X);
    unlink(out);
    rmdir(dir);
    TTF_Quit();
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); return 2; }
    double load[3] = {0, 0, 0};
    int nl = getloadavg(load, 3);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    double mb = (double)st.bytes / 1e6;
    printf("export: %s beside %s (the emulator, the versions' default block), steps %ld to %ld, %dx%d, %g fps, GIF\n", eo.v.cap.version,
           eo.v.compare, (long)eo.from, (long)eo.to, eo.v.width, eo.v.height, (double)eo.fps);
    printf("%zu frames given to the writer (%zu stored after merging unchanged ones), %d palette colours\n", st.frames_in, st.frames_out, st.colours);
    printf("time %.2f s, CPU %.2f s (drawing %.2f s with the palette's sample frames, writing the GIF %.2f s, the rest capture and palette); size %.2f MB\n",
           secs, cpu, draw, write, mb);
    printf("target: at most 10 s and 5 MB -> %s\n", secs <= 10.0 && mb <= 5.0 ? "met" : "MISSED");
    if (nl == 3) printf("machine: %ld CPUs, load average %.2f %.2f %.2f\n", cpus, load[0], load[1], load[2]);
    return 0;
}
