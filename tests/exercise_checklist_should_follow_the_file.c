/* An exercise beside the learner's file, as the window shows it, with no window: exercise 2 (v1's
 * bank conflicts, padded away) judged on its starting file misses the bank-conflict goal and
 * meets the other two (the independent reference: v1's strided index puts lanes 32 words apart in
 * one bank, so a block of 256 has conflicts, and its sum is right); the checklist draws that goal
 * in the conflict colour, every text inside its panel. PageDown (the action lesson:1) unlocks the
 * first hint. The file is then rewritten with the model solution, judged again, and the
 * checklist follows: every goal met, in both languages. */
#include <SDL_ttf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "app/learn/exercise.h"
#include "app/learn/lesson.h"
#include "app/viewer/learn.h"
#include "trace/capture/capture.h"
#include "trace/ladder.h"
#include "ui_fixture.h"

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int ok = a && b;
    char buf[4096];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, a)) > 0) ok = fwrite(buf, 1, n, b) == n;
    if (a) fclose(a);
    if (b && fclose(b)) ok = 0;
    return ok ? 0 : -1;
}

/* the learner's file traced into pane 0, as the window's capture does */
static int trace_file(fixture *f, const lesson *l, const char *file)
{
    const lesson_exercise *x = l->exercise;
    capture_desc d = {.version = OWN_VERSION, .kernel = file, .entry = x->entry, .include_dir = WS_ROOT, .n = x->n, .data = x->data};
    trace t;
    trace_init(&t);
    char err[1024];
    if (capture_with("cpu", &d, &t, NULL, 0, err, sizeof err) || session_set_trace(&f->s, 0, &t, err, sizeof err)) {
        CHECK(0, "%s", err);
        trace_free(&t);
        return -1;
    }
    return 0;
}

/* the draw list holds a text containing `what` in colour c */
static int drawn(const fixture *f, const char *what, dl_colour c)
{
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *a = &f->l.items[i];
        char text[1024];
        if (a->kind != DL_TEXT) continue;
        snprintf(text, sizeof text, "%.*s", (int)a->len, dl_item_text(&f->l, a));
        if (strstr(text, what) && same_colour(a->c, c)) return 1;
    }
    return 0;
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    char err[2048], file[256];
    snprintf(file, sizeof file, "/tmp/warpscope-exercise-%d.cu", (int)getpid());
    lesson l;
    CHECK(lesson_load(&l, WS_ROOT "/lessons/exercises/02-v1-padding.json", err, sizeof err) == 0, "%s", err);
    if (!l.exercise) return 1;
    const lesson_exercise *x = l.exercise;
    CHECK(copy_file(x->start, file) == 0, "copy the starting file");
    fixture f;
    CHECK(fixture_open(&f, NULL, 0, NULL, 1024, 768) == 0, "setup");
    if (trace_file(&f, &l, file)) return 1;
    exercise_judgement j;
    CHECK(exercise_judge(&l, file, WS_ROOT, NULL, &j, err, sizeof err) == 0, "%s", err);
    CHECK(!j.error[0], "the starting file did not run: %s", j.error);
    /* the goals are: the run verified, the sum is right, no races, no uninitialised reads, a tree (every
     * run), no bank conflicts, v1's pairs kept */
    CHECK(j.marks[0].state == EXERCISE_MET && j.marks[1].state == EXERCISE_MET && j.marks[2].state == EXERCISE_MET &&
              j.marks[3].state == EXERCISE_MET && j.marks[4].state == EXERCISE_MET && j.marks[5].state == EXERCISE_NOT_MET &&
              j.marks[6].state == EXERCISE_MET,
          "start: %d %d %d %d %d %d %d", j.marks[0].state, j.marks[1].state, j.marks[2].state, j.marks[3].state, j.marks[4].state,
          j.marks[5].state, j.marks[6].state);
    CHECK(j.marks[5].value > 0, "v1's addressing has bank conflicts, measured %g", j.marks[5].value);
    unsigned seen = f.s.lesson.requests;
    size_t hints = 0;
    learn_exercise(&f.s, &l, file, &j, hints);
    CHECK(f.s.lesson.exercise && f.s.lesson.goals_met == 6 && f.s.lesson.ngoals == 7, "checklist %zu of %zu", f.s.lesson.goals_met,
          f.s.lesson.ngoals);
    fixture_frame(&f, 1024, 768, 0);
    const theme *th = session_theme(&f.s);
    CHECK(drawn(&f, "bank conflicts", th->conflict), "the missed goal is not drawn in the conflict colour");
    CHECK(drawn(&f, "the sum is right", th->working), "the met goal is not drawn in the working colour");
    fixture_check_no_overlaps(&f, "exercise at 1024x768", 1024, 768);
    /* PageDown: the first hint */
    fixture_act(&f, "lesson:1");
    hints = learn_exercise_requests(&f.s, &seen, hints, x->nhints);
    CHECK(hints == 1, "one PageDown unlocks one hint, got %zu", hints);
    learn_exercise(&f.s, &l, file, &j, hints);
    CHECK(strstr(f.s.lesson.say, x->hints[0].s[LESSON_EN]) != NULL, "the first hint is not shown");
    CHECK(x->nhints < 2 || strstr(f.s.lesson.say, x->hints[1].s[LESSON_EN]) == NULL, "the second hint shows before its PageDown");
    /* the learner saves the solution: judged again, every goal met */
    CHECK(copy_file(WS_ROOT "/tests/exercises/02-v1-padding.solution.cu", file) == 0, "rewrite the file");
    if (trace_file(&f, &l, file)) return 1;
    CHECK(exercise_judge(&l, file, WS_ROOT, NULL, &j, err, sizeof err) == 0, "%s", err);
    learn_exercise(&f.s, &l, file, &j, hints);
    CHECK(f.s.lesson.goals_met == 7, "after the rewrite %zu of 7 goals are met", f.s.lesson.goals_met);
    for (int lang = 0; lang < 2; lang++) {
        fixture_act(&f, lang ? "lang:zh" : "lang:en");
        learn_exercise(&f.s, &l, file, &j, hints);
        fixture_frame(&f, 1024, 768, 0);
        CHECK(drawn(&f, lang ? "所有目标都已达成" : "every goal met", th->working), "solved is not said (%s)", lang ? "zh" : "en");
        CHECK(!drawn(&f, "[ ]", th->conflict), "a goal is still drawn missed (%s)", lang ? "zh" : "en");
        fixture_check_no_overlaps(&f, lang ? "exercise, zh" : "exercise, en", 1024, 768);
    }
    remove(file);
    fixture_close(&f);
    lesson_free(&l);
    TTF_Quit();
    CHECK_DONE("exercise_checklist_should_follow_the_file");
}
