/* lesson: a lesson file (JSON, lessons/README.md) read into plain structs, with every error at
 * file:line:column. Loading checks the form (schema, both languages, known keys, queries that
 * parse, versions that exist); whether each query answers on its trace is the player's check
 * (player_check), which captures. No SDL. */
#ifndef WARPSCOPE_LESSON_H
#define WARPSCOPE_LESSON_H

#include <stddef.h>
#include <stdint.h>

#include "trace/query.h"

#define LESSON_SCHEMA "warpscope-lesson"
enum { LESSON_SCHEMA_VERSION = 1 };

typedef enum lesson_lang { LESSON_EN, LESSON_ZH, LESSON_LANGS } lesson_lang;
extern const char *const lesson_lang_keys[LESSON_LANGS]; /* "en", "zh" */

/* Where something is in the file, for messages. */
typedef struct lesson_pos {
    int line, col;
} lesson_pos;

/* A {query} or {query:fmt} placeholder in a narration string. */
typedef struct lesson_hole {
    size_t start, end; /* bytes of the string the placeholder covers, braces included */
    query *q;
    char fmt[8];
    lesson_pos pos;
} lesson_hole;

typedef struct lesson_text {
    char *s[LESSON_LANGS];
    lesson_hole *holes[LESSON_LANGS];
    size_t nholes[LESSON_LANGS];
    lesson_pos pos[LESSON_LANGS];
} lesson_text;

/* The panels a step may show or hide. */
#define LESSON_PANELS(X) X(SOURCE, "source") X(TREE, "tree") X(SHARED, "shared") X(LANES, "lanes") \
    X(BANKS, "banks") X(COUNTERS, "counters") X(TIMELINE, "timeline") X(BENCH, "bench") X(GRID, "grid")
typedef enum lesson_panel {
#define LESSON_X_PANEL(name, key) LESSON_PANEL_##name,
    LESSON_PANELS(LESSON_X_PANEL)
#undef LESSON_X_PANEL
    LESSON_PANEL_COUNT
} lesson_panel;
extern const char *const lesson_panel_keys[LESSON_PANEL_COUNT];
#define LESSON_PANELS_TRACE ((1u << LESSON_PANEL_BENCH) - 1u) /* every panel but the benchmark and the grid */

/* What a highlight or an answer picks: threads, banks, shared words, source lines, tree nodes
 * (shared words at the tree's current level). */
#define LESSON_ITEMS(X) X(LANES, "lanes") X(BANKS, "banks") X(CELLS, "cells") X(LINES, "lines") X(NODES, "nodes")
typedef enum lesson_item {
#define LESSON_X_ITEM(name, key) LESSON_ITEM_##name,
    LESSON_ITEMS(LESSON_X_ITEM)
#undef LESSON_X_ITEM
    LESSON_ITEM_COUNT
} lesson_item;
extern const char *const lesson_item_keys[LESSON_ITEM_COUNT];

typedef struct lesson_list {
    unsigned *v;
    size_t n;
} lesson_list;

enum { LESSON_ID_MAX = 24 };
/* The most a lesson may ask the emulator to capture: a lesson is a file teachers share, and what it
 * asks for runs when it is opened. 2^20 elements trace in under a second. */
enum { LESSON_CAPTURE_N_MAX = 1 << 20 };

/* What the viewer shows at a step, with what the step did not say taken from the step before
 * (version, capture, compare, position, panels, motion); highlights belong to their step only. */
typedef struct lesson_show {
    char version[LESSON_ID_MAX];
    char compare[LESSON_ID_MAX]; /* "" when not comparing */
    unsigned block;              /* capture parameters; 0 / "" take capture's defaults */
    uint64_t n;
    char data[16];
    uint64_t seed;
    int seed_set;
    unsigned ept;
    unsigned pass;               /* which launch of the plan is shown */
    unsigned view_block;         /* which block of that launch (blocks up to it are traced) */
    long step;                   /* absolute step, or -1 when phase/op say where */
    long phase, op;              /* the op-th step of phase (when step is -1) */
    int fine;                    /* warp by warp steps */
    unsigned panels;             /* 1 << lesson_panel */
    int motion;                  /* 1: animate */
    uint64_t bench_n;            /* size the benchmark view shows */
    char card[16];               /* the grid view's card (trace/cards.h id); "": the trace's GPU or the default */
    long wave;                   /* the grid view's wave, from 0; -1: the launch has ended */
    lesson_list highlight[LESSON_ITEM_COUNT];
    lesson_pos pos;              /* of the "show" object (or the step when it has none) */
} lesson_show;

typedef enum lesson_ask_kind {
    LESSON_ASK_LANES, LESSON_ASK_BANKS, LESSON_ASK_CELLS, LESSON_ASK_NUMBER, LESSON_ASK_CHOICE, LESSON_ASK_KINDS
} lesson_ask_kind;
extern const char *const lesson_ask_keys[LESSON_ASK_KINDS]; /* pick_lanes, pick_banks, pick_cells, number, choice */

typedef struct lesson_option {
    lesson_text text;
    query *correct; /* boolean query, or NULL when the question's answer query picks the option */
    lesson_pos pos;
} lesson_option;

typedef struct lesson_ask {
    lesson_ask_kind kind;
    lesson_text prompt, explain;
    query *answer;             /* set (pick), number, or option index (choice); NULL: options decide */
    lesson_pos answer_pos;
    double tolerance;          /* number: |given - answer| <= tolerance (absolute) */
    int relative;              /* 1: tolerance is a fraction of |answer| */
    lesson_option *options;
    size_t noptions;
    int on_this;               /* 0: evaluated on the next step's picture (what is revealed); 1: on this one */
    query *reveal[LESSON_ITEM_COUNT]; /* optional sets highlighted with a wrong answer */
    lesson_pos reveal_pos[LESSON_ITEM_COUNT];
    lesson_pos pos;
} lesson_ask;

typedef struct lesson_step {
    lesson_show show;
    lesson_text say;
    lesson_ask *ask; /* NULL: no question */
    lesson_pos pos;
} lesson_step;

/* An exercise (lessons/exercises/): a kernel file to write, judged by goals that are queries on the
 * trace of the learner's file, each measured on a capture under a schedule (app/learn/exercise.h). */
typedef enum lesson_bound { LESSON_AT_MOST, LESSON_AT_LEAST, LESSON_EQUALS, LESSON_BOUNDS } lesson_bound;
extern const char *const lesson_bound_keys[LESSON_BOUNDS]; /* at_most, at_least, equals */

typedef struct lesson_goal {
    lesson_text say;           /* what it asks for, shown in the checklist: "no bank conflicts" */
    query *value;              /* the measured number (booleans are 1 or 0) */
    lesson_bound bound;
    double limit;              /* the goal: value <= limit, >= limit or == limit */
    char schedule[24];         /* the capture it is measured on: lockstep (""), its:SEED, lanes-up, lanes-down, adversarial */
    int every_run;             /* 1: measured in every run of the exercise (its sizes x its schedules), met only
                                  when it holds in all of them (the sum, the races, the bounds) */
    lesson_pos pos;
} lesson_goal;

enum { LESSON_GOALS_MAX = 12, LESSON_HINTS_MAX = 8, LESSON_SIZES_MAX = 8, LESSON_SCHEDULES_MAX = 4, LESSON_GPU_SIZES_MAX = 4 };

/* what an exercise's kernels compute ("operation"): a sum (default) or a maximum */
typedef enum lesson_op { LESSON_SUM, LESSON_MAX, LESSON_OPS } lesson_op;

typedef struct lesson_exercise {
    char start[512];           /* resolved against the lesson's folder (the model solutions live with the tests) */
    lesson_pos start_pos;
    char entry[256];           /* how to run the file (--entry) */
    char defines[4][64];       /* NAME=VALUE (--define), "" past the last */
    unsigned block;            /* the capture: 0 / "" take capture's defaults */
    uint64_t n;
    char data[16];
    lesson_op operation;
    /* the runs every_run goals are measured in, as a hidden test suite: each size under each
     * schedule ("runs": {"n": [...], "schedules": [...]}); default: n under lockstep */
    uint64_t sizes[LESSON_SIZES_MAX];
    size_t nsizes;
    char schedules[LESSON_SCHEDULES_MAX][24];
    size_t nschedules;
    /* the card's runs where the server or `exercise check` has a GPU ("gpu": {"sizes": [...],
     * "fraction": F}): the sizes timed (none given: 2^24 and 2^26), and F > 0 a card goal, the
     * kernel at least F of the card's best read at the largest size (app/gpu_time.h) */
    uint64_t gpu_sizes[LESSON_GPU_SIZES_MAX];
    size_t ngpu_sizes;
    double gpu_fraction;
    lesson_text task;          /* what to do */
    lesson_goal goals[LESSON_GOALS_MAX];
    size_t ngoals;
    lesson_text hints[LESSON_HINTS_MAX]; /* unlocked one at a time */
    size_t nhints;
} lesson_exercise;

typedef struct lesson {
    char file[512];            /* as given, for messages */
    char id[64];
    lesson_text title, summary;
    char results[512];         /* benchmark results, resolved against the lesson's folder; "" none */
    lesson_pos results_pos;
    lesson_step *steps;
    size_t nsteps;             /* 0 for an exercise without narration */
    lesson_exercise *exercise; /* NULL: a lesson */
} lesson;

/* 0, or -1 with "file:line:column: message" in err. */
int lesson_load(lesson *l, const char *path, char *err, size_t errlen);
/* The same from text; name is used in messages and dir resolves the results path. */
int lesson_parse(lesson *l, const char *text, size_t len, const char *name, const char *dir, char *err, size_t errlen);
void lesson_free(lesson *l);

/* "file:line:column: " for a position of this lesson. */
void lesson_where(const lesson *l, lesson_pos pos, char *buf, size_t len);

/* Which of `files` (the *.json paths of a lessons folder, sorted) `name` means: its number ("3" or
 * "03"), its file name with or without ".json", or its id ("waves" for 13-waves.json). The index,
 * or -1 with err naming the lessons there are and the closest (noun: "lesson" or "exercise"). */
long lesson_match(char *const *files, size_t n, const char *name, const char *noun, char *err, size_t errlen);

#endif
