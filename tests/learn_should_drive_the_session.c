/* A lesson in the viewer, driven by actions as keys and clicks drive it: the v1 lesson's bank
 * question is answered wrong (two banks picked): the feedback marks the wrong pick and counts,
 * without giving the answer away, how many picks are right and how many are missing (H would
 * show them); then right (the even banks: lane l reads word 2*l, bank (2*l) % 32, two words each); while the
 * question is open the bank picture holds back its conflict colours; the narration frame keeps
 * every text inside its panel and apart at 1024x768 and presenter size, in both languages. */
#include <SDL_ttf.h>
#include <string.h>

#include "check.h"
#include "app/viewer/learn.h"
#include "app/learn/lesson.h"
#include "ui_fixture.h"

static int text_ok(const dl_list *l, int w, int h)
{
    int bad = 0;
    for (size_t i = 0; i < l->n; i++) {
        const dl_item *a = &l->items[i];
        if (a->kind != DL_TEXT) continue;
        if (a->panel < 0 || !dl_rect_inside(l->panels[a->panel].r, a->r) || !dl_rect_inside((dl_rect){0, 0, w, h}, a->r)) bad++;
        for (size_t j = i + 1; j < l->n; j++)
            if (l->items[j].kind == DL_TEXT && dl_rect_overlap(a->r, l->items[j].r)) bad++;
    }
    return bad;
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    char err[512];
    CHECK(fixture_open(&f, NULL, 0, NULL, 1024, 768) == 0, "setup");
    learn *L = learn_create(WS_ROOT "/lessons", 0, err, sizeof err);
    CHECK(L != NULL, "%s", err);
    if (!L) return 1;
    CHECK(learn_open(L, &f.s, "03", err, sizeof err) == 0, "%s", err);
    /* to the step that asks for banks */
    for (int k = 0; k < 8 && f.s.lesson.ask != ASK_BANKS; k++) {
        fixture_act(&f, "lesson:1");
        CHECK(learn_update(L, &f.s, err, sizeof err) == 0, "%s", err);
    }
    CHECK(f.s.lesson.ask == ASK_BANKS, "lesson 03 has no bank question");
    session_set even;
    memset(&even, 0, sizeof even);
    for (unsigned lane = 0; lane < 32; lane++) session_set_put(&even, (2 * lane) % 32, 1);
    /* while open, the banks hold back their conflict colour */
    fixture_frame(&f, 1024, 768, 0);
    const theme *th = session_theme(&f.s);
    int red = 0;
    for (size_t i = 0; i < f.l.n; i++)
        red += f.l.items[i].kind == DL_FILL && HIT_KIND(f.l.items[i].hit) == HIT_BANK && same_colour(f.l.items[i].c, th->conflict);
    CHECK(red == 0, "%d bank boxes show the conflict before the answer", red);
    /* wrong: banks 0 and 1 */
    char a[64];
    snprintf(a, sizeof a, "pick:%u,pick:%u,answer", HIT_CODE(HIT_BANK, 0, 0), HIT_CODE(HIT_BANK, 0, 1));
    fixture_act(&f, a);
    CHECK(learn_update(L, &f.s, err, sizeof err) == 0, "%s", err);
    CHECK(f.s.lesson.state == ANSWER_WRONG, "banks 0 and 1 should be wrong");
    for (unsigned b = 0; b < 32; b++) {
        int want_wrong = b == 1;
        CHECK(!session_set_has(&f.s.lesson.missed[SESSION_ITEM_BANKS], b), "bank %u: a wrong answer should not outline the answer", b);
        CHECK(session_set_has(&f.s.lesson.wrong[SESSION_ITEM_BANKS], b) == want_wrong, "bank %u: wrong should be %d", b, want_wrong);
    }
    /* 16 even banks are the answer: bank 0 is right, bank 1 is not, 15 are missing */
    CHECK(strstr(f.s.lesson.explain, "Your picks: 1 right, 1 wrong (in red); 15 missing from the answer.") != NULL, "the hint: \"%s\"",
          f.s.lesson.explain);
    /* right: unpick 1, pick the other even banks */
    snprintf(a, sizeof a, "pick:%u", HIT_CODE(HIT_BANK, 0, 1));
    fixture_act(&f, a);
    for (unsigned b = 2; b < 32; b += 2) {
        snprintf(a, sizeof a, "pick:%u", HIT_CODE(HIT_BANK, 0, b));
        fixture_act(&f, a);
    }
    fixture_act(&f, "answer");
    CHECK(learn_update(L, &f.s, err, sizeof err) == 0, "%s", err);
    CHECK(f.s.lesson.state == ANSWER_RIGHT, "the even banks should be right (state %d)", f.s.lesson.state);
    /* the narration frame fits */
    static const char *const modes[] = {"lang:en", "lang:zh", "presenter,lang:en", "lang:zh"};
    for (int m = 0; m < 4; m++) {
        fixture_act(&f, modes[m]);
        CHECK(learn_update(L, &f.s, err, sizeof err) == 0, "%s", err);
        fixture_frame(&f, 1024, 768, 0);
        CHECK(text_ok(&f.l, 1024, 768) == 0, "%s: %d text boxes overlap or leave their panel", modes[m], text_ok(&f.l, 1024, 768));
    }
    /* a step that shows another block of the same capture shows that block: the lesson file says
     * which ("view_block"), read here from the lesson itself, and the window's view must be the
     * player's, which the question is asked on */
    CHECK(learn_open(L, &f.s, "11", err, sizeof err) == 0, "%s", err);
    lesson l11;
    CHECK(lesson_load(&l11, WS_ROOT "/lessons/11-v8-single-pass.json", err, sizeof err) == 0, "%s", err);
    int moved = 0;
    for (size_t k = 1; k < l11.nsteps && !moved; k++) {
        fixture_act(&f, "lesson:1");
        CHECK(learn_update(L, &f.s, err, sizeof err) == 0, "%s", err);
        if (l11.steps[k].show.view_block == 0) continue;
        moved = 1;
        CHECK(f.s.pane[0].m.block == l11.steps[k].show.view_block && f.s.block_index == l11.steps[k].show.view_block,
              "lesson 11 step %zu shows block %u, the lesson says block %u", k + 1, f.s.pane[0].m.block, l11.steps[k].show.view_block);
    }
    CHECK(moved, "lesson 11 has no step that shows another block");
    lesson_free(&l11);
    learn_destroy(L);
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("learn_should_drive_the_session");
}
