/* learn: the lesson driver of the viewer. It owns a lesson's player (player.h) and its saved
 * progress, and turns what the player shows into the session: captures for the panes, the step,
 * compare, the benchmark view, and the plain lesson state (narration, question, feedback,
 * highlights) the panels draw. It acts on the requests that lesson actions leave in the session
 * (next, back, answer, reveal, open from the menu). */
#ifndef WARPSCOPE_LEARN_H
#define WARPSCOPE_LEARN_H

#include <stddef.h>

#include "app/viewer/session.h"

typedef struct learn learn;

/* Lessons from dir; with keep_progress, the user's saved progress is read and written (the
 * window), without it a lesson starts at its first step and nothing is saved (headless renders). */
learn *learn_create(const char *dir, int keep_progress, char *err, size_t errlen);
/* The menu of the lessons in dir (with progress marks) as the session's overlay. */
void learn_destroy(learn *L);
int learn_menu(learn *L, session *s, char *err, size_t errlen);
/* Opens a lesson by file or id ("03", "03-v1-bank-conflicts", or a path) where its progress left it. */
int learn_open(learn *L, session *s, const char *name, char *err, size_t errlen);
/* Acts on the session's lesson requests (and a change of language). 0, or -1 with err. */
int learn_update(learn *L, session *s, char *err, size_t errlen);
/* The id of the lesson open now ("02-v0-interleaved"), or "" (the page keeps it in its address). */
const char *learn_lesson_id(const learn *L);

/* An exercise beside the learner's file: its task, the checklist of a judgement (each goal with
 * its measured value), why the file did not run, and the first `hints` hints, in the session's
 * language, as the lesson panel draws them. */
struct lesson;
struct exercise_judgement;
void learn_exercise(session *s, const struct lesson *l, const char *file, const struct exercise_judgement *j, size_t hints);
/* The picture of the first goal the judgement misses, where a step shows it: the first step with a
 * bank conflict, or with lanes diverged (the goal's query names what it measures). */
void learn_exercise_picture(session *s, const struct lesson *l, const struct exercise_judgement *j);
/* The lesson requests of an exercise (PageDown: one more hint): the hints unlocked now, of nhints.
 * *seen holds the requests already acted on. */
size_t learn_exercise_requests(const session *s, unsigned *seen, size_t hints, size_t nhints);

#endif
