/* Every shipped lesson, walked headless by the player core the way a strict student would: at each
 * question a wrong answer first (Next must refuse, and the feedback must name exactly the items the
 * test changed), then the right one (taken from the answer's query), then Next. The walk must end
 * at the last step with the lesson marked done. The wrong answers are built here from the right
 * one, so the expected missed/wrong sets are known without asking the code under test. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"

static size_t item_limit(const player_frame *f, lesson_ask_kind kind)
{
    const player_frame *g = f;
    switch (kind) {
    case LESSON_ASK_LANES: return g->view->threads;
    case LESSON_ASK_BANKS: return 32;
    default: return g->view->nwords;
    }
}

static void walk(const char *path)
{
    char err[1600];
    lesson l;
    if (lesson_load(&l, path, err, sizeof err)) { CHECK(0, "%s", err); return; }
    progress_entry prog;
    memset(&prog, 0, sizeof prog);
    player p;
    player_opts o = {.strict = 1, .progress = &prog};
    if (player_open(&p, &l, &o, err, sizeof err)) { CHECK(0, "%s", err); lesson_free(&l); return; }
    unsigned questions = 0;
    for (;;) {
        const lesson_ask *a = player_question(&p);
        char text[8192];
        for (int lang = 0; lang < LESSON_LANGS; lang++)
            CHECK(player_text(&p, PLAYER_TEXT_SAY, 0, (lesson_lang)lang, text, sizeof text, err, sizeof err) == 0 && text[0],
                  "%s step %zu: narration: %s", path, player_index(&p), err);
        if (a) {
            questions++;
            CHECK(player_status(&p) == PLAYER_ASKING, "%s step %zu: a question should wait for an answer", path, player_index(&p));
            query_value want;
            if (player_expected(&p, &want, err, sizeof err)) { CHECK(0, "%s: %s", path, err); break; }
            const player_frame *qf = &p.ask_frame;
            int r = -1;
            if (a->kind <= LESSON_ASK_CELLS) {
                /* wrong: drop the answer's first item (if any) and add the first item that is not in it */
                size_t limit = item_limit(qf, a->kind), dropped = (size_t)-1, added = (size_t)-1;
                unsigned *picks = malloc((want.count + 2) * sizeof *picks);
                size_t n = 0;
                for (size_t i = 0; i < QUERY_SET_MAX; i++) {
                    if (!query_set_has(&want, i)) { if (added == (size_t)-1 && i < limit) added = i; continue; }
                    if (dropped == (size_t)-1) { dropped = i; continue; }
                    picks[n++] = (unsigned)i;
                }
                if (added != (size_t)-1) picks[n++] = (unsigned)added;
                r = player_answer_pick(&p, picks, n, err, sizeof err);
                const player_feedback *fb = player_last_feedback(&p);
                CHECK(r == 0, "%s step %zu: a changed pick should be wrong (%d %s)", path, player_index(&p), r, r < 0 ? err : "");
                CHECK(fb->missed.count == (dropped != (size_t)-1) && (dropped == (size_t)-1 || query_set_has(&fb->missed, dropped)),
                      "%s step %zu: missed should be exactly the dropped item", path, player_index(&p));
                CHECK(fb->wrong.count == (added != (size_t)-1) && (added == (size_t)-1 || query_set_has(&fb->wrong, added)),
                      "%s step %zu: wrong should be exactly the added item", path, player_index(&p));
                CHECK(fb->explain != NULL, "%s step %zu: a wrong answer gets an explanation", path, player_index(&p));
                /* right: the answer itself */
                n = 0;
                for (size_t i = 0; i < QUERY_SET_MAX; i++)
                    if (query_set_has(&want, i)) picks[n++] = (unsigned)i;
                CHECK(player_next(&p, err, sizeof err) == PLAYER_NEEDS_ANSWER, "%s step %zu: strict Next should wait", path, player_index(&p));
                r = player_answer_pick(&p, picks, n, err, sizeof err);
                free(picks);
                CHECK(r == 1 && player_last_feedback(&p)->missed.count == 0 && player_last_feedback(&p)->wrong.count == 0,
                      "%s step %zu: the answer's own items should be right", path, player_index(&p));
            } else if (a->kind == LESSON_ASK_NUMBER) {
                double tol = a->relative ? a->tolerance * fabs(want.num) : a->tolerance;
                r = player_answer_number(&p, want.num + 2 * tol + 1, err, sizeof err);
                CHECK(r == 0 && player_last_feedback(&p)->explain, "%s step %zu: a number off by more than the tolerance should be wrong", path, player_index(&p));
                CHECK(player_next(&p, err, sizeof err) == PLAYER_NEEDS_ANSWER, "%s step %zu: strict Next should wait", path, player_index(&p));
                r = player_answer_number(&p, want.num + tol / 2, err, sizeof err);
                CHECK(r == 1, "%s step %zu: a number within the tolerance should be right", path, player_index(&p));
            } else {
                size_t wrong = 0, right = 0;
                while (wrong < a->noptions && query_set_has(&want, wrong)) wrong++;
                while (right < a->noptions && !query_set_has(&want, right)) right++;
                CHECK(wrong < a->noptions && right < a->noptions, "%s step %zu: a choice needs a right and a wrong option", path, player_index(&p));
                r = player_answer_choice(&p, wrong, err, sizeof err);
                CHECK(r == 0 && query_set_has(&player_last_feedback(&p)->wrong, wrong) && player_last_feedback(&p)->wrong.count == 1,
                      "%s step %zu: the wrong option should come back as wrongly picked", path, player_index(&p));
                r = player_answer_choice(&p, right, err, sizeof err);
                CHECK(r == 1, "%s step %zu: the right option should be right", path, player_index(&p));
            }
            CHECK(player_status(&p) == PLAYER_CORRECT, "%s step %zu: state after a right answer", path, player_index(&p));
            CHECK(player_last_feedback(&p)->explain == &a->explain, "%s step %zu: a right answer shows its explanation", path, player_index(&p));
            for (int lang = 0; lang < LESSON_LANGS; lang++) {
                CHECK(player_text(&p, PLAYER_TEXT_PROMPT, 0, (lesson_lang)lang, text, sizeof text, err, sizeof err) == 0 && text[0],
                      "%s step %zu: prompt: %s", path, player_index(&p), err);
                CHECK(player_text(&p, PLAYER_TEXT_EXPLAIN, 0, (lesson_lang)lang, text, sizeof text, err, sizeof err) == 0 && text[0],
                      "%s step %zu: explanation: %s", path, player_index(&p), err);
            }
        }
        player_move m = player_next(&p, err, sizeof err);
        if (m == PLAYER_AT_END) break;
        if (m != PLAYER_MOVED) { CHECK(0, "%s step %zu: Next failed (%d): %s", path, player_index(&p), (int)m, err); break; }
    }
    CHECK(player_index(&p) + 1 == player_count(&p), "%s: the walk should end at the last step", path);
    CHECK(prog.done && prog.step + 1 == l.nsteps, "%s: progress should say done at the last step", path);
    CHECK(questions >= 3, "%s: a lesson asks at least three questions, this one %u", path, questions);
    CHECK(progress_count_solved(&prog) == questions && prog.right == questions && prog.wrong == questions,
          "%s: progress should count %u right and %u wrong (got %u, %u)", path, questions, questions, prog.right, prog.wrong);
    CHECK(player_back(&p, err, sizeof err) == PLAYER_MOVED, "%s: Back from the last step", path);
    player_close(&p);
    lesson_free(&l);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    const char *dir = WS_ROOT "/lessons";
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    char *files[64];
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            files[n] = malloc(strlen(dir) + len + 2);
            sprintf(files[n], "%s/%s", dir, e->d_name);
            n++;
        }
    }
    if (d) closedir(d);
    qsort(files, n, sizeof *files, cmp);
    CHECK(n >= 11, "at least eleven lessons ship, found %zu", n);
    for (size_t i = 0; i < n; i++) {
        walk(files[i]);
        free(files[i]);
    }
    CHECK_DONE("lessons_should_walk_right_and_wrong");
}
