/* player: the lesson player's core, with no drawing. It walks a lesson step by step, captures
 * what each step shows (the emulator, cached), turns the step's `show` into a plain frame the UI
 * applies, fills narration placeholders from queries, takes answers, and gives feedback (the
 * items missed and wrongly picked, which the UI highlights, and the explanation). It also checks
 * a whole lesson (player_check), which is what `warpscope lesson check` runs. No SDL. */
#ifndef WARPSCOPE_PLAYER_H
#define WARPSCOPE_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "trace/capture/capture.h"
#include "app/learn/lesson.h"
#include "app/learn/progress.h"
#include "trace/query.h"
#include "trace/results.h"
#include "trace/view.h"

/* What the UI shows for a step: everything resolved (captures made, steps found). */
typedef struct player_frame {
    const lesson_show *show;        /* as written (with what it inherited) */
    capture_desc cap, cap_compare;  /* the captures; cap_compare.version NULL when not comparing */
    const trace *trace, *compare_trace;
    const view_model *view, *compare_view;
    size_t step, compare_step;      /* view steps: the compare pane is aligned to the same phase and
                                       operation of the phase (clamped to what it has) */
    unsigned panels;                /* 1 << lesson_panel */
    int motion, fine;
    uint64_t bench_n;
    const lesson_list *highlight;   /* [LESSON_ITEM_COUNT] of the step */
} player_frame;

typedef enum player_state {
    PLAYER_SHOWING,   /* the step asks nothing */
    PLAYER_ASKING,    /* a question waits for an answer */
    PLAYER_WRONG,     /* answered wrong: feedback shown, may try again or reveal */
    PLAYER_CORRECT,   /* answered right */
    PLAYER_REVEALED   /* gave up: the answer is shown */
} player_state;

/* After an answer (or a reveal): what to draw on the picture and say. */
typedef struct player_feedback {
    int correct;
    lesson_item item;              /* what missed and wrong hold (pick questions) */
    query_value missed, wrong;     /* pick: items of the answer not picked / picked but not in it */
    query_value answer;            /* the answer: the set, the number, or the set of correct options */
    query_value reveal[LESSON_ITEM_COUNT]; /* the question's "reveal" sets (count 0 when none) */
    double given;                  /* the number or option given */
    const lesson_text *explain;    /* why the answer is the answer: after a right answer, a reveal, or H after a wrong one */
    unsigned tries;
} player_feedback;

typedef enum player_move { PLAYER_MOVED, PLAYER_AT_END, PLAYER_AT_START, PLAYER_NEEDS_ANSWER, PLAYER_FAILED } player_move;

typedef struct player_opts {
    int strict;                 /* 1: Next waits until the question is answered right or revealed */
    progress_entry *progress;   /* updated on every move and answer (the caller saves it); may be NULL */
    volatile int *cancel;       /* nonzero (SIGINT, SIGTERM): captures stop; may be NULL */
} player_opts;

typedef struct player_capture player_capture; /* a cached capture and its view model */

typedef struct player {
    const lesson *l;
    player_opts o;
    results res;
    int have_results;
    player_capture **cache;
    size_t ncache;
    size_t index;                /* current lesson step */
    player_frame frame, ask_frame;
    player_state state;
    player_feedback fb;
} player;

/* Opens the lesson at its first step (or where o->progress left it). 0, or -1 with a message
 * ("file:line:column: ..." when a step cannot be shown). */
int player_open(player *p, const lesson *l, const player_opts *o, char *err, size_t errlen);
void player_close(player *p);

size_t player_index(const player *p);
size_t player_count(const player *p);
const player_frame *player_current(const player *p);
player_state player_status(const player *p);
/* The question of the current step, or NULL. */
const lesson_ask *player_question(const player *p);
/* The picture the question is about (the next step's unless it says "on": "this"): the items of
 * the answer and of the feedback are lanes, banks and cells of this frame's first pane (or of
 * pane 1 when the query says pane=1). Only meaningful while player_question is not NULL. */
const player_frame *player_question_frame(const player *p);
const player_feedback *player_last_feedback(const player *p);

/* Moves: PLAYER_MOVED, PLAYER_AT_END / PLAYER_AT_START (nothing happened), PLAYER_NEEDS_ANSWER
 * (strict mode, question open), PLAYER_FAILED (err says why). */
player_move player_next(player *p, char *err, size_t errlen);
player_move player_back(player *p, char *err, size_t errlen);
int player_goto(player *p, size_t index, char *err, size_t errlen);

/* Answers: 1 right, 0 wrong (feedback filled), -1 with err (no question, wrong kind of answer). */
int player_answer_pick(player *p, const unsigned *items, size_t n, char *err, size_t errlen);
int player_answer_number(player *p, double x, char *err, size_t errlen);
int player_answer_choice(player *p, size_t option, char *err, size_t errlen);
/* Gives up: the feedback holds the answer. 0, or -1 with err. */
int player_reveal(player *p, char *err, size_t errlen);
/* The answer of the current question as its query gives it (a set, a number, or the set of
 * correct options): what tests and a presenter's notes use. 0, or -1 with err. */
int player_expected(player *p, query_value *out, char *err, size_t errlen);

/* Text with its {query} placeholders filled: the narration of the current step, or the question's
 * prompt, explanation or option i (evaluated on the question's picture). 0, or -1 with err. */
typedef enum player_text_kind { PLAYER_TEXT_SAY, PLAYER_TEXT_PROMPT, PLAYER_TEXT_EXPLAIN, PLAYER_TEXT_OPTION } player_text_kind;
int player_text(player *p, player_text_kind which, size_t option, lesson_lang lang, char *buf, size_t len, char *err,
                size_t errlen);

/* Checks everything a lesson refers to: each step's capture and position, highlights in range,
 * every query of narration, question and options evaluated on its trace with the right type,
 * the benchmark results present. Calls report with "file:line:column: message" per problem and
 * returns how many there were (0: the lesson is good). */
typedef void (*player_report_fn)(void *ud, const char *message);
size_t player_check(const lesson *l, volatile int *cancel, player_report_fn report, void *ud);

/* Whether two capture descriptions give the same trace (version, block, n, data, seed, ept, blocks traced). */
int player_same_capture(const capture_desc *a, const capture_desc *b);

#endif
