#include "app/viewer/panels/internal.h"
#include "app/draw/wrap.h"

/* ---------- lessons ---------- */

/* Lines that fit width, by the draw layer's rules (app/draw/wrap.h: spaces, Chinese characters,
 * no line starting with 。，、 and their kin). */
int wrap(ui *u, const char *text, int width, int px, const char **starts, size_t *lens, int max)
{
    return dl_wrap(u->l, DL_FONT_UI, px, text, width, starts, lens, max);
}

int text_block(ui *u, dl_rect r, int y, int px, dl_colour c, const char *text)
{
    const char *starts[64];
    size_t lens[64];
    int lh = dl_text_height(u->l, DL_FONT_UI, px), n = wrap(u, text, r.w, px, starts, lens, 64);
    for (int i = 0; i < n && y + lh <= r.y + r.h; i++, y += lh) {
        char buf[1024];
        size_t len = lens[i] < sizeof buf - 1 ? lens[i] : sizeof buf - 1;
        memcpy(buf, starts[i], len);
        buf[len] = '\0';
        dl_text(u->l, (dl_rect){r.x, y, r.w, lh}, DL_FONT_UI, px, DL_LEFT, c, buf);
    }
    return y;
}

/* The narration of a lesson step, its question, the answer typed and the feedback. Presenter
 * mode reads from the back of a room: the narration takes the larger size. */
int draw_narration(ui *u, dl_rect r)
{
    const session_lesson *L = &u->sc->s->lesson;
    const theme *th = u->th;
    dl_rect in = panel(u, "narration", r, NULL);
    char b[600];
    if (L->exercise) snprintf(b, sizeof b, S(u, STR_EXERCISE_HEAD), L->title, L->goals_met, L->ngoals);
    else snprintf(b, sizeof b, S(u, STR_LESSON_STEP), L->title, L->index + 1, L->count);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
    int px = u->px, lh = dl_text_height(u->l, DL_FONT_UI, px); /* presenter's base size is already a room's */
    int y = text_block(u, in, in.y + u->lh, px, th->text, L->say);
    if (L->exercise) { /* the checklist: met in the working colour, missed in the conflict colour */
        y += u->pad / 2;
        for (size_t g = 0; g < L->ngoals; g++) {
            snprintf(b, sizeof b, "%s %s", L->goal_met[g] > 0 ? "[x]" : L->goal_met[g] == 0 ? "[ ]" : "[-]", L->goal[g]);
            y = text_block(u, in, y, px, L->goal_met[g] > 0 ? th->working : L->goal_met[g] == 0 ? th->conflict : th->dim, b);
        }
        if (L->ngoals && L->goals_met == L->ngoals) y = text_block(u, in, y, px, th->working, S(u, STR_EXERCISE_SOLVED));
    }
    if (L->ask != ASK_NONE) {
        y = text_block(u, in, y + u->pad, px, th->accent, L->prompt);
        for (int o = 0; o < L->noptions; o++) {
            snprintf(b, sizeof b, "%c)  %s", 'a' + o, L->options[o]);
            int chosen = L->typed[0] == 'a' + o && L->ask == ASK_CHOICE;
            if (chosen && y + lh <= in.y + in.h) dl_fill(u->l, (dl_rect){in.x - u->pad / 2, y, in.w + u->pad, lh}, th->line);
            y = text_block(u, in, y, px, th->text, b);
        }
        const char *state = NULL;
        char sb[600];
        if (L->state == ANSWER_RIGHT) state = S_DEVICE(u, STR_LESSON_RIGHT);
        else if (L->state == ANSWER_WRONG) state = S(u, STR_LESSON_WRONG);
        else if (L->state == ANSWER_REVEALED) { snprintf(sb, sizeof sb, S(u, STR_LESSON_REVEALED), L->answer_text); state = sb; }
        else if (L->ask == ASK_NUMBER || L->ask == ASK_CHOICE) { snprintf(sb, sizeof sb, S_DEVICE(u, STR_LESSON_ASK_TYPE), L->typed[0] ? L->typed : "_"); state = sb; }
        else state = S_DEVICE(u, STR_LESSON_ASK_PICK);
        y = text_block(u, in, y + u->pad, px, L->state == ANSWER_RIGHT ? th->working : L->state == ANSWER_WRONG ? th->conflict : th->accent, state);
        if (L->explain[0]) y = text_block(u, in, y, px, th->text, L->explain);
    }
    if (y + u->lh <= in.y + in.h)
        dl_text(u->l, (dl_rect){in.x, in.y + in.h - u->lh, in.w, u->lh}, DL_FONT_UI, u->px, DL_RIGHT, th->dim,
                L->exercise ? S(u, STR_EXERCISE_KEYS) : S_DEVICE(u, STR_LESSON_NEXT));
    return y + u->lh + u->pad - r.y; /* the height its text takes, with the keys' line */
}

/* The narration's height for its text at width w: drawn once where nothing is kept, between a
 * few lines and under half of the room */
int narration_height(ui *u, int w, int room)
{
    dl_mark m = dl_save(u->l);
    int need = draw_narration(u, (dl_rect){0, 0, w, room}) + u->pad;
    dl_restore(u->l, m);
    int least = 4 * u->lh + 2 * u->pad, most = room * 45 / 100;
    return need < least ? least : need > most ? most : need;
}

void draw_menu(ui *u, dl_rect r)
{
    const session_lesson *L = &u->sc->s->lesson;
    dl_rect in = panel(u, "menu", r, NULL);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, S(u, STR_MENU_TITLE));
    int y = in.y + u->blh + u->pad, lh = u->blh;
    for (int i = 0; i < L->nmenu && y + lh <= in.y + in.h; i++, y += lh) {
        if (i == L->menu_sel) dl_fill(u->l, (dl_rect){in.x, y, in.w, lh}, u->th->line);
        dl_text(u->l, (dl_rect){in.x + u->pad, y, in.w - 2 * u->pad, lh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, L->menu[i]);
    }
}
