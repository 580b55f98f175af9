/* session: the viewer's whole state as a plain struct, changed only by actions.
 *
 * Keys, the mouse, `--keys`/`--actions` scripts, `render --frames`, lessons and export all
 * produce actions (one table below); session_apply is the only code that changes a session.
 * Derived data (the scene) is rebuilt from it after each change. */
#ifndef WARPSCOPE_SESSION_H
#define WARPSCOPE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "trace/results.h"
#include "app/viewer/strings.h"
#include "app/draw/theme.h"
#include "trace/trace.h"
#include "trace/view.h"

/* What the mouse can find: kind in the top byte, pane in bit 23, index below. */
enum { HIT_CELL = 1, HIT_LANE = 2, HIT_BANK = 3, HIT_TILE = 4, HIT_PASS = 5, HIT_TIMELINE = 6 }; /* TILE, PASS: the grid view's block of its pass, a pass */
#define HIT_CODE(kind, pane, index) ((uint32_t)(kind) << 24 | (uint32_t)(pane) << 23 | ((uint32_t)(index) & 0x7FFFFFu))
#define HIT_KIND(h) ((int)((h) >> 24))
#define HIT_PANE(h) ((int)((h) >> 23 & 1u))
#define HIT_INDEX(h) ((int64_t)((h) & 0x7FFFFFu))

typedef enum act_arg { ARG_NONE, ARG_INT, ARG_STR } act_arg;

/* X(id, name in scripts, argument) */
#define ACT_TABLE(X)                            \
    X(ACT_STEP, "step", ARG_INT)                \
    X(ACT_PHASE, "phase", ARG_INT)              \
    X(ACT_FIRST, "first", ARG_NONE)             \
    X(ACT_LAST, "last", ARG_NONE)               \
    X(ACT_SEEK_STEP, "seek-step", ARG_INT)      \
    X(ACT_SEEK_PHASE, "seek-phase", ARG_INT)    \
    X(ACT_PLAY, "play", ARG_NONE)               \
    X(ACT_TICK, "tick", ARG_NONE)               \
    X(ACT_SPEED, "speed", ARG_INT)              \
    X(ACT_VERSION, "version", ARG_STR)          \
    X(ACT_COMPARE, "compare", ARG_STR)          \
    X(ACT_FINE, "fine", ARG_NONE)               \
    X(ACT_SELECT, "select", ARG_INT)            \
    X(ACT_HOVER, "hover", ARG_INT)              \
    X(ACT_PIN, "pin", ARG_INT)                  \
    X(ACT_CURSOR, "cursor", ARG_INT)            \
    X(ACT_THEME, "theme", ARG_NONE)             \
    X(ACT_SCALE, "scale", ARG_INT)              \
    X(ACT_PRESENTER, "presenter", ARG_NONE)     \
    X(ACT_LANG, "lang", ARG_STR)                \
    X(ACT_HELP, "help", ARG_NONE)               \
    X(ACT_BENCH, "bench", ARG_NONE)             \
    X(ACT_BENCH_SIZE, "bench-size", ARG_INT)    \
    X(ACT_BENCH_GPU, "bench-gpu", ARG_INT)      \
    X(ACT_BENCH_MODE, "bench-mode", ARG_NONE)   \
    X(ACT_FULLSCREEN, "fullscreen", ARG_NONE)   \
    X(ACT_SCREENSHOT, "screenshot", ARG_NONE)   \
    X(ACT_RECORD, "record", ARG_NONE)           \
    X(ACT_PICTURE, "picture", ARG_INT)          \
    X(ACT_WARP, "warp", ARG_INT)                \
    X(ACT_SLICE, "slice", ARG_INT)              \
    X(ACT_MOTION, "motion", ARG_NONE)           \
    X(ACT_REPLAY, "replay", ARG_NONE)           \
    X(ACT_LESSON, "lesson", ARG_INT)            \
    X(ACT_PICK, "pick", ARG_INT)                \
    X(ACT_TYPE, "type", ARG_STR)                \
    X(ACT_ANSWER, "answer", ARG_NONE)           \
    X(ACT_REVEAL, "reveal", ARG_NONE)           \
    X(ACT_MENU, "menu", ARG_INT)                \
    X(ACT_GRID, "grid", ARG_NONE)               \
    X(ACT_GRID_PASS, "grid-pass", ARG_INT)      \
    X(ACT_GRID_TIME, "grid-time", ARG_INT)      \
    X(ACT_GRID_WAVE, "wave", ARG_INT)           \
    X(ACT_CARD, "card", ARG_STR)                \
    X(ACT_TRACE_ALL, "trace-all", ARG_NONE)     \
    X(ACT_GRID_N, "grid-n", ARG_NONE)           \
    X(ACT_PASSES, "passes", ARG_NONE)           \
    X(ACT_OPEN_BLOCK, "open-block", ARG_STR)    \
    X(ACT_SCHEDULE, "schedule", ARG_STR)        \
    X(ACT_DROP, "drop-barrier", ARG_INT)        \
    X(ACT_ESCAPE, "escape", ARG_NONE)           \
    X(ACT_QUIT, "quit", ARG_NONE)

typedef enum act_kind {
    ACT_NONE,
#define ACT_X_ENUM(id, name, arg) id,
    ACT_TABLE(ACT_X_ENUM)
#undef ACT_X_ENUM
        ACT_COUNT
} act_kind;

/* One action. ACT_STEP/PHASE/SPEED/SCALE/BENCH_SIZE: i is +1 or -1 (or any delta).
 * ACT_SEEK_*: i is the index. ACT_VERSION: s is the version id. ACT_COMPARE: s is an id, "next"
 * (the version after pane 0's) or "off"; "" toggles. ACT_LANG: "en", "zh" or "" (toggle).
 * ACT_PICTURE: i is a session_picture, or -1 for the next one. ACT_WARP, ACT_SLICE: +1 or -1.
 * ACT_SCHEDULE: a schedule ("lockstep", "its:7", "adversarial"), "" for the next of those three.
 * ACT_DROP: leave out the __syncthreads of line i (-1: the one of the current step; 0: none).
 * ACT_LESSON: +1 next step, -1 back. ACT_PICK: a hit code to pick or unpick. ACT_TYPE: text typed
 * into the answer ("\b" erases one character). ACT_MENU: +1/-1 moves the menu's selection, 0 opens it.
 * ACT_SELECT: i is a shared word of pane `pane` (-1: none). ACT_HOVER: i is the hit code under the
 * mouse (panels' codes; 0: nothing), x and y where the mouse is. ACT_PIN: a press (a click, a tap)
 * on hit code i: its details stay shown until the next press, a step or Esc (a shared word's input
 * tree is lit too, as a click always lit it); a press on the item pinned, or on nothing (0), lets
 * go. ACT_CURSOR: the keys' cursor moves i items over the lanes and shared words (each pane's
 * lanes, then its words; past the first or last it stays there): its item's details show and its
 * input tree is lit, and it stays over steps. ACT_GRID_PASS: the grid view's pass
 * moves by i. ACT_GRID_WAVE: the grid view's wave moves by i (past the last: the launch has
 * ended). ACT_GRID_TIME: 1 goes to the first wave, 0 to the end of the launch. ACT_CARD: the card
 * the grid's schedule is on (an id of trace/cards.h; "" the trace's GPU or the default).
 * ACT_TRACE_ALL: capture again with every block traced (the loader shows progress; Esc stops it).
 * ACT_PASSES: the passes view (Harris's kernel decomposition) on or off.
 * ACT_GRID_N: capture again at SESSION_GRID_N elements (one block traced per pass), or back at the
 * loader's own size. ACT_OPEN_BLOCK: "P/B" (or "B": of the grid view's pass) opens block B of pass P in the
 * detailed view and closes the grid. */
typedef struct action {
    act_kind kind;
    long i;
    char s[32];
    int pane, x, y;
} action;

const char *act_name(act_kind k);
/* Parses "step:+1", "version:v1", "compare:off", "escape"...; 0 or -1 with err. */
int act_parse(const char *text, action *a, char *err, size_t errlen);

/* The panels of a pane, as bits of session.panels (0: all). A lesson's step picks some. */
enum { PANEL_SOURCE, PANEL_PICTURE, PANEL_MEMORY, PANEL_LANES, PANEL_BANKS, PANEL_STATS, PANEL_TIMELINE, PANEL_COUNT };

/* What the top picture shows: chosen by the step (auto) or pinned by the user. */
typedef enum session_picture { PICTURE_AUTO, PICTURE_TREE, PICTURE_LOADS, PICTURE_SHUFFLE, PICTURE_COUNT } session_picture;

typedef enum session_overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_BENCH, OVERLAY_QUIT, OVERLAY_MENU, OVERLAY_GRID, OVERLAY_PASSES } session_overlay;

/* A lesson on screen, as plain state the lesson driver (learn.c) fills from its player and the
 * panels draw: narration, the question, what the user picked or typed, and the feedback. Items
 * are sets of lanes (threads), banks, shared words and source lines, as bits. */
enum { SESSION_ITEM_LANES, SESSION_ITEM_BANKS, SESSION_ITEM_CELLS, SESSION_ITEM_LINES, SESSION_ITEMS };
enum { SESSION_ITEM_MAX = 2048, SESSION_OPTIONS = 8, SESSION_MENU = 64 };
typedef struct session_set {
    uint8_t bits[SESSION_ITEM_MAX / 8];
} session_set;

typedef enum session_ask { ASK_NONE, ASK_LANES, ASK_BANKS, ASK_CELLS, ASK_NUMBER, ASK_CHOICE } session_ask;
typedef enum session_answer_state { ANSWER_OPEN, ANSWER_WRONG, ANSWER_RIGHT, ANSWER_REVEALED } session_answer_state;

typedef struct session_lesson {
    int active;
    char title[200];
    size_t index, count;
    char say[4096], prompt[1024], explain[2048], answer_text[256];
    char options[SESSION_OPTIONS][256];
    int noptions;
    session_ask ask;
    session_answer_state state;
    char typed[32];             /* a number being typed, or the option letter */
    session_set highlight[SESSION_ITEMS], picked[SESSION_ITEMS], missed[SESSION_ITEMS], wrong[SESSION_ITEMS];
    /* an exercise (say holds its task): the checklist, each goal's line and whether it is met
     * (1), missed (0) or not measured (-1: the file did not run) */
    int exercise;
    char goal[13][300];     /* the trace's goals (at most 12), and the card's */
    signed char goal_met[13];
    size_t ngoals, goals_met;
    /* the lesson menu (OVERLAY_MENU) */
    char menu[SESSION_MENU][200];
    int nmenu, menu_sel;
    unsigned requests;          /* bumped by next/back/answer/reveal/open: the driver acts on them */
    int request_kind;           /* the last request: ACT_LESSON (+1/-1 in request_arg), ACT_ANSWER, ACT_REVEAL, ACT_MENU */
    long request_arg;
} session_lesson;

int session_set_has(const session_set *s, size_t i);
void session_set_put(session_set *s, size_t i, int on);

/* How a pane gets its trace: capture a version (the viewer passes the emulator or GPU), or
 * nothing (a viewer of a recorded trace cannot switch versions). */
typedef struct session_break {
    char schedule[32];      /* "" (lockstep), its:SEED, adversarial ... (capture.h) */
    unsigned drop_barrier;  /* a __syncthreads line left out, 0: none */
    unsigned blocks_traced; /* 0: the loader's; else blocks recorded per pass (the grid's A: all) */
    uint64_t n;             /* 0: the loader's elements; else this many (the grid's N: SESSION_GRID_N) */
} session_break;

/* The grid's N: a launch of many blocks, so the free viewer shows the card filling and draining in
 * waves (2^20 elements: 4096 blocks of 256 on an H100's 1,056 slots take 4 waves). */
enum { SESSION_GRID_N = 1 << 20 };

typedef struct session_loader {
    void *ctx;
    /* capture `version` with the session's break-it switches */
    int (*load)(void *ctx, const char *version, const session_break *b, trace *t, char *note, size_t notelen, char *err, size_t errlen);
} session_loader;

typedef struct session_pane {
    int loaded;
    trace t;
    view_model m;
    size_t step;
    int64_t selected; /* shared word whose input tree is lit, or -1 */
    size_t prev_step; /* where the last move started: motion runs from it to step */
    int warp;         /* the warp whose access the bank picture shows; -1: the worst of the step */
    int slice;        /* the tree's focus window for big blocks, in windows; -1: follows the step */
    unsigned serial;  /* bumped whenever t is replaced, so what is derived from t knows */
} session_pane;

typedef struct session {
    session_pane pane[2];
    int compare, fine, playing;
    unsigned pass, block_index; /* the traced block the panes show (--pass, --block-index) */
    unsigned grid_pass;         /* the pass the grid view shows (OVERLAY_GRID) */
    long grid_wave;             /* the wave the grid view shows, from 0; -1: the launch has ended; -2: its last wave */
    char card[16];              /* the card of the grid's schedule (trace/cards.h); "": the trace's or the default */
    session_picture picture;
    unsigned panels;         /* 1 << PANEL_...: the panels shown; 0 shows them all */
    int no_motion;           /* reduced motion: steps jump */
    unsigned motion_serial;  /* bumped when a move starts; the window restarts its clock */
    double speed;        /* steps per second */
    int theme_index;     /* into themes[] */
    theme themes[2];
    double scale;        /* text and cell size, 1 = the window's natural size */
    int presenter;       /* large text for a room */
    str_lang lang;
    session_overlay overlay;
    const results_set *results_set; /* the benchmark runs, one per GPU */
    const results *results;          /* the one shown */
    size_t bench_size;   /* index into the results' sizes */
    int bench_mode;      /* results_mode: per launch or batch */
    uint32_t hover;      /* hit code under the mouse */
    int mouse_x, mouse_y;
    uint32_t focus;      /* hit code whose details stay shown (ACT_PIN, ACT_CURSOR); 0: none */
    int focus_keys;      /* the keys' cursor put it there: it stays over steps (a press's goes at the next) */
    int tip_hover;       /* the mouse moved since the focus was set: over an item, the tooltip is the hover's */
    int quit;
    int page;            /* the browser's page: it cannot quit nor export (those keys do nothing there) */
    int least_px;        /* the least text the platform can read (the page: 12 CSS pixels at its pixel ratio); 0: the panels' own */
    int touch;           /* the platform is a touch screen (the page on a phone): texts name its buttons, not keys */
    unsigned fullscreen_requests, screenshot_requests; /* the window carries these out */
    int recording;             /* ACT_RECORD: the first marks where, the second asks for an export */
    long record_from;          /* pane 0's step when recording started */
    unsigned export_requests;  /* the window exports record_from .. the current step as a GIF */
    str_id status_id;    /* STR_COUNT: status_text is shown as it is */
    char status_text[512];
    session_loader loader;
    session_break brk;       /* break-it: the schedule and a dropped barrier, for every capture */
    session_lesson lesson;
    uint64_t generation; /* bumped by every change, so derived data knows when to rebuild */
    uint64_t hover_serial; /* bumped when what is under the mouse changes: only the tooltip follows */
} session;

/* Themes loaded, defaults set. 0 or -1 with err. */
int session_init(session *s, const char *theme_dir, session_loader loader, char *err, size_t errlen);
void session_free(session *s);
/* Pane p takes ownership of t (a loaded trace) and opens at its first tree step. */
int session_set_trace(session *s, int p, trace *t, char *err, size_t errlen);
/* Shows block `block` of pass `pass` in both panes: their view models are rebuilt in place from
 * the traces they hold, each at its first tree step. 0; -1 with err (the block was not traced),
 * and then nothing changed. */
int session_open_block(session *s, unsigned pass, unsigned block, char *err, size_t errlen);
/* The action for a click on a hit code of the grid view (a tile: open its block; a pass of the
 * launch plan: show it). 1 with *a filled, or 0 when the code is not the grid's. */
int session_grid_click(const session *s, uint32_t hit, action *a);
/* The waves of the grid view's pass on the session's card (1 when there is no schedule). */
unsigned long session_grid_waves(const session *s);
/* Applies one action. Errors (a version that cannot be captured) go to the status line. */
void session_apply(session *s, const action *a);
/* Applies a script of actions ("step:+1,version:v2", as --actions takes it), calling after(ctx)
 * once each is applied (a lesson driver's turn; nonzero stops). 0, or -1 with err: an action it
 * cannot read, or what after said (the actions before stay applied). */
int session_apply_script(session *s, const char *script, int (*after)(void *ctx, char *err, size_t errlen), void *ctx, char *err,
                         size_t errlen);
/* The mouse at rest over a picture that changed (a key stepped): `under` is the hit code under it
 * in the new frame (dl_hit at mouse_x, mouse_y). 1 when that is not what the tooltip was about: it
 * follows, and the frame is drawn again. */
int session_rest_hover(session *s, uint32_t under);
/* The benchmark runs to show (NULL: none), the first GPU's at first, its chart on the largest size,
 * where the ladder spreads most. */
void session_set_results(session *s, const results_set *rs);

const theme *session_theme(const session *s);
/* A click or drag at x on a pane's timeline bar (bar_x, bar_w: where the bar was drawn): the seek
 * to the step under x, in *a. 0 when hit is not a timeline. */
int session_timeline_seek(const session *s, uint32_t hit, int bar_x, int bar_w, int x, action *a);
/* A press of the mouse's button on a hit code (item_x, item_w: where its item was drawn; x: the
 * mouse; hit 0: nothing there): a lesson's pick, a lane's, shared word's or bank's details pinned
 * (ACT_PIN), a block or pass of the grid, or a seek on the timeline, in *a; a press on nothing lets
 * a pinned item go. 0: nothing; 1: an action; 2: a seek on the timeline (dragging seeks on). The
 * window and the page both press with it (a tap on the page is a press). */
int session_press(const session *s, uint32_t hit, int item_x, int item_w, int x, action *a);
/* The version after `id` in the ladder (C's compare partner). */
const char *session_next_version(const char *id);

/* A lesson's question is open (unanswered, or answered wrong): what would answer it waits. */
int session_asking(const session *s);

#endif
