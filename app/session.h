/* session: the viewer's whole state as a plain struct, changed only by actions.
 *
 * Keys, the mouse, `--keys`/`--actions` scripts, `render --frames`, lessons and export all
 * produce actions (one table below); session_apply is the only code that changes a session.
 * Derived data (the scene) is rebuilt from it after each change. */
#ifndef WARPSCOPE_SESSION_H
#define WARPSCOPE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "strings.h"
#include "theme.h"
#include "trace.h"
#include "view.h"

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
    X(ACT_THEME, "theme", ARG_NONE)             \
    X(ACT_SCALE, "scale", ARG_INT)              \
    X(ACT_PRESENTER, "presenter", ARG_NONE)     \
    X(ACT_LANG, "lang", ARG_STR)                \
    X(ACT_HELP, "help", ARG_NONE)               \
    X(ACT_BENCH, "bench", ARG_NONE)             \
    X(ACT_BENCH_SIZE, "bench-size", ARG_INT)    \
    X(ACT_FULLSCREEN, "fullscreen", ARG_NONE)   \
    X(ACT_SCREENSHOT, "screenshot", ARG_NONE)   \
    X(ACT_PICTURE, "picture", ARG_INT)          \
    X(ACT_WARP, "warp", ARG_INT)                \
    X(ACT_SLICE, "slice", ARG_INT)              \
    X(ACT_MOTION, "motion", ARG_NONE)           \
    X(ACT_REPLAY, "replay", ARG_NONE)           \
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
 * ACT_SELECT: i is a shared word of pane `pane` (-1: none). ACT_HOVER: i is the hit code under the
 * mouse (panels' codes; 0: nothing), x and y where the mouse is. */
typedef struct action {
    act_kind kind;
    long i;
    char s[32];
    int pane, x, y;
} action;

const char *act_name(act_kind k);
/* Parses "step:+1", "version:v1", "compare:off", "escape"...; 0 or -1 with err. */
int act_parse(const char *text, action *a, char *err, size_t errlen);

/* What the top picture shows: chosen by the step (auto) or pinned by the user. */
typedef enum session_picture { PICTURE_AUTO, PICTURE_TREE, PICTURE_LOADS, PICTURE_SHUFFLE, PICTURE_COUNT } session_picture;

typedef enum session_overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_BENCH, OVERLAY_QUIT } session_overlay;

/* How a pane gets its trace: capture a version (the viewer passes the emulator or GPU), or
 * nothing (a viewer of a recorded trace cannot switch versions). */
typedef struct session_loader {
    void *ctx;
    int (*load)(void *ctx, const char *version, trace *t, char *note, size_t notelen, char *err, size_t errlen);
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
} session_pane;

typedef struct session {
    session_pane pane[2];
    int compare, fine, playing;
    session_picture picture;
    int no_motion;           /* reduced motion: steps jump */
    unsigned motion_serial;  /* bumped when a move starts; the window restarts its clock */
    double speed;        /* steps per second */
    int theme_index;     /* into themes[] */
    theme themes[2];
    double scale;        /* text and cell size, 1 = the window's natural size */
    int presenter;       /* large text for a room */
    str_lang lang;
    session_overlay overlay;
    const results *results;
    size_t bench_size;   /* index into the results' sizes */
    uint32_t hover;      /* hit code under the mouse */
    int mouse_x, mouse_y;
    int quit;
    unsigned fullscreen_requests, screenshot_requests; /* the window carries these out */
    str_id status_id;    /* STR_COUNT: status_text is shown as it is */
    char status_text[512];
    session_loader loader;
    uint64_t generation; /* bumped by every change, so derived data knows when to rebuild */
} session;

/* Themes loaded, defaults set. 0 or -1 with err. */
int session_init(session *s, const char *theme_dir, session_loader loader, char *err, size_t errlen);
void session_free(session *s);
/* Pane p takes ownership of t (a loaded trace) and opens at its first tree step. */
int session_set_trace(session *s, int p, trace *t, char *err, size_t errlen);
/* Applies one action. Errors (a version that cannot be captured) go to the status line. */
void session_apply(session *s, const action *a);

const theme *session_theme(const session *s);
/* The version after `id` in the ladder (C's compare partner). */
const char *session_next_version(const char *id);

#endif
