/* viewer: the window (warpscope, warpscope view), headless rendering (warpscope render) and the
 * drawing benchmark (warpscope perf draw): input becomes actions, actions change the session,
 * the scene is derived from it, the panels make a draw list, and an executor draws the list.
 * Returns process exit codes; prints its own errors. */
#ifndef WARPSCOPE_VIEWER_H
#define WARPSCOPE_VIEWER_H

#include "trace/capture/capture.h"

/* The card's timing of an exercise's file, for its window (app/gpu_time.h does it; the viewer does not
 * include it): what the card made of the file (exercise.h's exercise_card), the fraction of the card's
 * best read, the error, and the speed line in English and Chinese */
typedef struct viewer_card_timing {
    int how;
    double fraction;
    char error[600];
    char card[128];
    char speed[2][640];
} viewer_card_timing;

typedef struct viewer_opts {
    capture_desc cap;        /* what to capture, when no file is given */
    const char *file;        /* a saved trace */
    const char *backend;     /* cpu (default), gpu or auto */
    const char *compare;     /* second version, or NULL */
    const char *theme;       /* "light" or "dark" */
    const char *lang;        /* "en" or "zh" */
    const char *card;        /* the grid view's card (--card); NULL: the trace's GPU or the default */
    const char *bench;       /* results file for the benchmark view */
    const char *keys;        /* key names to inject, comma separated (tests, demos) */
    const char *actions;     /* actions to apply, comma separated ("step:1,version:v2,compare:next") */
    const char *learn;       /* a lesson to take ("" for the menu of lessons), or NULL */
    const struct lesson *exercise; /* an exercise whose checklist is judged on cap.kernel at each trace, or NULL */
    int save_progress;       /* the exercise: record it as solved in the user's progress when every goal is met */
    /* the exercise, in its window on a machine with a GPU: times the file on the card, on a thread of
     * the window's own, once the file meets every goal of the trace (cancel stops it): 0 with *out
     * filled, or -1 with out->error when no timing could be made. NULL: the card's goal is not judged. */
    int (*card_time)(const struct lesson *l, const char *file, volatile int *cancel, viewer_card_timing *out);
    const char *gpu;         /* the card card_time times on, by name ("NVIDIA H200") */
    const char *lesson_dir;  /* where the lessons are */
    const char *assets_dir;  /* fonts, themes, benchmark results (main finds it; NULL: "assets") */
    const char *out, *frames;
    const char *metrics;     /* render to a draw list (-o LIST.json): text widths from this table, not the fonts */
    long event, phase, step; /* -1: not given */
    unsigned pass, block_index; /* the traced block shown (--pass, --block-index) */
    int width, height, fine, presenter;
    double scale;            /* 0: 1 */
} viewer_opts;

/* What viewer_render and viewer_export return when o->cap.cancel became nonzero (SIGINT, SIGTERM):
 * they wrote nothing (frames already written are removed) and printed nothing; the caller says
 * so. Otherwise 0, or 2 after one line on stderr. */
enum { VIEWER_STOPPED = 3 };

int viewer_window(const viewer_opts *o);
int viewer_render(const viewer_opts *o);
int viewer_perf_draw(const char *assets_dir);

/* What `warpscope export` takes: the viewer's flags (what to show, size, theme, language, --step,
 * --phase) and the range and timing. The writers are app/export/export.h. */
typedef struct export_opts {
    viewer_opts v;
    long from, to;          /* step range of pane 0; -1: not given */
    const char *lesson;     /* a lesson (id or file): its steps as the lesson window shows them */
    double fps;             /* 0: EXPORT_FPS_DEFAULT */
    double speed;           /* steps per second; 0: 1 */
    int no_motion;          /* one still frame per step */
    const char *out;
    /* called as steps are written (not while sampling colours): steps done, of how many */
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
} export_opts;

/* warpscope export and its benchmark, warpscope perf export. */
int viewer_export(const export_opts *o);
int viewer_perf_export(const char *assets_dir);

#endif
