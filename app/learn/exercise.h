/* exercise: judges a kernel file against an exercise's goals (lesson.h: lesson_exercise), as a hidden
 * test suite. Each goal is a query measured on captures of the file with the race detector on: a
 * topic goal on the exercise's own capture under its schedule, a goal of every run (the sum, the
 * races, the bounds) on each size of the exercise's runs under each of their schedules, met only
 * when it holds in all of them; the checklist names the first run that broke it. No SDL. */
#ifndef WARPSCOPE_EXERCISE_H
#define WARPSCOPE_EXERCISE_H

#include "app/learn/lesson.h"

typedef enum exercise_state { EXERCISE_MET, EXERCISE_NOT_MET, EXERCISE_NOT_RUN } exercise_state;

typedef struct exercise_mark {
    exercise_state state;
    double value;          /* the measured number (EXERCISE_NOT_RUN: none) */
    int boolean;           /* the query was true or false (value 1 or 0) */
    double result, wanted; /* what the capture it was measured on computed, and what it should have: the
                              double sum (reference()), or the largest element for a goal on input_max() */
    double tolerance;      /* a goal on tolerance(): the tolerance of that capture (0: whole numbers, the sum exact); -1 none */
    char run[96];          /* the first run (and block) that broke it ("n = 1000, its:1", "n = 7731, lockstep, pass 0, block 5"); "" when met, or measured once */
    int failed;            /* no value from that run (judgement.error says why): 1 it did not finish, 2 it could not be
                              verified against the check's own input, 3 the goal could not be measured on it */
} exercise_mark;

/* What the card made of the file, for the card goal: the states of app/gpu_time.h's gpu_timing (app/learn
 * includes nothing of app/, so the caller that timed the file says it in these words), and UNTIMED: there
 * is a GPU, but the file missed a goal of the trace, so it was not timed */
typedef enum exercise_card { EXERCISE_CARD_NONE, EXERCISE_CARD_TIMED, EXERCISE_CARD_WRONG, EXERCISE_CARD_FAILED, EXERCISE_CARD_UNTIMED } exercise_card;

typedef struct exercise_judgement {
    /* the trace's goals (x->goals), then, where the exercise has a card goal (x->gpu_fraction > 0), the
     * card's at marks[x->ngoals]: EXERCISE_NOT_RUN until a GPU timed the file (exercise_judge_card) */
    exercise_mark marks[LESSON_GOALS_MAX + 1];
    size_t met;            /* goals met, the card's among them (of exercise_goal_count) */
    exercise_card card;    /* the card goal: what the card made of the file (NONE: not judged here) */
    char card_error[600];  /* EXERCISE_CARD_WRONG and _FAILED: what, at which size (gpu_timing's error) */
    size_t runs;           /* captures made; 0: the file did not run at all (error says why) */
    char error[1024];      /* the first capture that failed (a compile error, an access out of bounds, a loop
                              that never ends...), after "at n = N, SCHEDULE: " when it was not the first;
                              "" when every capture ran */
} exercise_judgement;

/* Judges `file` (a path) against l->exercise. include_dir holds trace/capture/ws_cuda.h for the
 * file's build; cancel (may be NULL) stops it. Returns 0 (the judgement says what ran and what
 * was met), or -1 with err when the exercise itself is wrong (a goal's query fails on a capture that
 * ran) or the run was interrupted. */
int exercise_judge(const lesson *l, const char *file, const char *include_dir, volatile int *cancel,
                   exercise_judgement *out, char *err, size_t errlen);
/* The same, and the file's picture as the exercise's own capture shows it (its listed size and the
 * data's first seed, a block traced), made in the same sandbox as the judged runs: *picture holds
 * it (initialised, to be freed) when the file ran, else nothing. */
int exercise_judge_pictured(const lesson *l, const char *file, const char *include_dir, volatile int *cancel,
                            exercise_judgement *out, trace *picture, char *err, size_t errlen);

/* What `lesson check` proves of an exercise: its starting file runs and misses at least one goal
 * (the model solutions live with the tests, which judge them). report gets "file:line:column: message" per problem; returns
 * how many there were. */
typedef void (*exercise_report_fn)(void *ud, const char *message);
size_t exercise_check(const lesson *l, const char *include_dir, volatile int *cancel, exercise_report_fn report, void *ud);

/* Records the exercise as solved in the user's progress (its entry marked done): 0, or -1 with err
 * (no progress folder, an unreadable or unwritable progress file). */
int exercise_record_solved(const lesson *l, char *err, size_t errlen);

/* "no bank conflicts: 96, goal at most 0", in the language asked */
void exercise_goal_line(const lesson_goal *g, const exercise_mark *m, lesson_lang lang, char *buf, size_t len);

/* The goals of the checklist: the trace's, and one more, the card's, where the exercise has one. A
 * file solves the exercise when j->met reaches it: an exercise with a card goal is solved only where
 * a GPU judged it. */
size_t exercise_goal_count(const lesson_exercise *x);
/* Line g of the checklist (g < exercise_goal_count): a trace goal's (exercise_goal_line), or the card's:
 * "on the card: at least 85 % of its best read at n = 2^26: 91 %", "...: not judged here: no GPU". */
void exercise_checklist_line(const lesson_exercise *x, const exercise_judgement *j, size_t g, lesson_lang lang, char *buf, size_t len);
/* The card goal alone, without its verdict: "on the card: at least 85 % of its best read at n = 2^26" */
void exercise_card_goal(const lesson_exercise *x, lesson_lang lang, char *buf, size_t len);
/* Sets the card goal's mark from the card's timing of the file (how, and for EXERCISE_CARD_TIMED the
 * fraction of the card's best read at the largest size; error for WRONG and FAILED): met when timed and
 * fraction >= x->gpu_fraction, its value the fraction; wrong or failed, not met, with the error; NONE
 * (no GPU) and UNTIMED (a goal of the trace missed), not judged. j->met follows. Nothing where the exercise has no card goal. */
void exercise_judge_card(const lesson_exercise *x, exercise_judgement *j, exercise_card how, double fraction, const char *error);

#endif
