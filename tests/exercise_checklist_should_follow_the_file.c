/* An exercise beside the learner's file, as the window shows it, with no window: exercise 2 (v1's
 * bank conflicts, padded away) judged on its starting file misses the bank-conflict goal and
 * meets the other two (the independent reference: v1's strided index puts lanes 32 words apart in
 * one bank, so a block of 256 has conflicts, and its sum is right); the checklist draws that goal
 * in the conflict colour, every text inside its panel. PageDown (the action lesson:1) unlocks the
 * first hint. The file is then rewritten with the model solution, judged again, and the
 * checklist follows: every goal met, in both languages. Exercise 10 has a card goal: its model solution,
 * judged here with no GPU, meets the trace's goals and leaves the card's not judged ("not judged here: no
 * GPU", not counted, not solved); the card's timing then sets it, met only when timed at the exercise's
 * fraction of the card's best read or more (read from its file), with the fraction as its value, and a
 * sum wrong on the card or a file that did not run there not met, with the error. */
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
    lesson_free(&l);

    /* exercise 10: the trace's goals, and the card's */
    CHECK(lesson_load(&l, WS_ROOT "/lessons/exercises/10-last-rung.json", err, sizeof err) == 0, "%s", err);
    if (!l.exercise) return 1;
    x = l.exercise;
    CHECK(x->gpu_fraction > 0 && exercise_goal_count(x) == x->ngoals + 1, "exercise 10 has a card goal: %zu goals of %zu", exercise_goal_count(x),
          x->ngoals);
    CHECK(copy_file(WS_ROOT "/tests/exercises/10-last-rung.solution.cu", file) == 0, "copy the solution");
    if (trace_file(&f, &l, file)) return 1;
    CHECK(exercise_judge(&l, file, WS_ROOT, NULL, &j, err, sizeof err) == 0, "%s", err);
    const exercise_mark *cm = &j.marks[x->ngoals];
    CHECK(j.met == x->ngoals && cm->state == EXERCISE_NOT_RUN && j.card == EXERCISE_CARD_NONE,
          "the model solution without a GPU: %zu of %zu met, the card's state %d", j.met, exercise_goal_count(x), cm->state);
    char line[1200], want[200];
    snprintf(want, sizeof want, "at least %.3g %% of its best read at n = 2^26: not judged here: no GPU", 100 * x->gpu_fraction);
    exercise_checklist_line(x, &j, x->ngoals, LESSON_EN, line, sizeof line);
    CHECK(strstr(line, want) != NULL, "the card's line: %s", line);
    exercise_checklist_line(x, &j, x->ngoals, LESSON_ZH, line, sizeof line);
    CHECK(strstr(line, "没有 GPU") != NULL, "the card's line in Chinese: %s", line);
    for (int lang = 0; lang < 2; lang++) { /* the window: the card's line, dim, and not solved */
        fixture_act(&f, lang ? "lang:zh" : "lang:en");
        learn_exercise(&f.s, &l, file, &j, 0);
        CHECK(f.s.lesson.ngoals == x->ngoals + 1 && f.s.lesson.goals_met == x->ngoals, "the window's checklist: %zu of %zu",
              f.s.lesson.goals_met, f.s.lesson.ngoals);
        fixture_frame(&f, 1024, 768, 0);
        CHECK(drawn(&f, lang ? "没有 GPU" : "no GPU", th->dim), "the card's goal is not drawn dim, not judged (%s)", lang ? "zh" : "en");
        CHECK(!drawn(&f, lang ? "所有目标都已达成" : "every goal met", th->working), "solved without the card (%s)", lang ? "zh" : "en");
        fixture_check_no_overlaps(&f, lang ? "exercise 10, zh" : "exercise 10, en", 1024, 768);
    }
    /* the card's timing: at, above and below the fraction, a wrong sum, a failed run, no GPU */
    static const struct {
        exercise_card how;
        double fraction; /* of the card's best read, as a multiple of the exercise's */
        exercise_state state;
        const char *says;
    } timings[] = {
        {EXERCISE_CARD_TIMED, 1.1, EXERCISE_MET, " %"},
        {EXERCISE_CARD_TIMED, 1.0, EXERCISE_MET, " %"},
        {EXERCISE_CARD_TIMED, 0.5, EXERCISE_NOT_MET, " %"},
        {EXERCISE_CARD_WRONG, 0, EXERCISE_NOT_MET, "wrong on the card: at n = 67108864 the card's sum is 1"},
        {EXERCISE_CARD_FAILED, 0, EXERCISE_NOT_MET, "did not run on the card: at n = 67108864 the card's sum is 1"},
        {EXERCISE_CARD_UNTIMED, 0, EXERCISE_NOT_RUN, "not timed"},
        {EXERCISE_CARD_NONE, 0, EXERCISE_NOT_RUN, "not judged here: no GPU"},
    };
    for (size_t k = 0; k < sizeof timings / sizeof timings[0]; k++) {
        double fr = timings[k].fraction * x->gpu_fraction;
        exercise_judge_card(x, &j, timings[k].how, fr, "at n = 67108864 the card's sum is 1, the double-precision sum 2 (off by 1)");
        size_t met = x->ngoals + (timings[k].state == EXERCISE_MET);
        CHECK(cm->state == timings[k].state && j.met == met, "timing %zu: the card's state %d, %zu met, not %d and %zu", k, cm->state,
              j.met, timings[k].state, met);
        exercise_checklist_line(x, &j, x->ngoals, LESSON_EN, line, sizeof line);
        CHECK(strstr(line, timings[k].says) != NULL, "timing %zu: %s", k, line);
        if (timings[k].how == EXERCISE_CARD_TIMED) {
            snprintf(want, sizeof want, ": %.3g %%", 100 * fr);
            CHECK(cm->value == fr && strstr(line, want) != NULL, "timing %zu: the value %g, the line %s", k, cm->value, line);
        }
        exercise_checklist_line(x, &j, x->ngoals, LESSON_ZH, line, sizeof line);
        CHECK(strstr(line, "在显卡上") != NULL, "timing %zu in Chinese: %s", k, line);
    }
    exercise_judge_card(x, &j, EXERCISE_CARD_TIMED, x->gpu_fraction, NULL);
    learn_exercise(&f.s, &l, file, &j, 0);
    fixture_frame(&f, 1024, 768, 0);
    CHECK(f.s.lesson.goals_met == x->ngoals + 1 && drawn(&f, "所有目标都已达成", th->working), "timed at the fraction, every goal met");
    lesson_free(&l);
    /* an exercise without a card goal: its goals alone, and a timing changes nothing */
    CHECK(lesson_load(&l, WS_ROOT "/lessons/exercises/08-last-block.json", err, sizeof err) == 0, "%s", err);
    if (l.exercise) {
        CHECK(exercise_goal_count(l.exercise) == l.exercise->ngoals, "exercise 8 has no card goal");
        memset(&j, 0, sizeof j);
        j.met = 3;
        exercise_judge_card(l.exercise, &j, EXERCISE_CARD_TIMED, 1.0, NULL);
        CHECK(j.met == 3 && j.card == EXERCISE_CARD_NONE, "a timing judged a card goal exercise 8 does not have");
    }
    remove(file);
    fixture_close(&f);
    lesson_free(&l);
    TTF_Quit();
    CHECK_DONE("exercise_checklist_should_follow_the_file");
}
