#include "app/viewer/panels/internal.h"

/* The watched register of one warp (v3's first add, v6's grid-stride sum, v7/v8's float4 sums):
 * 32 lanes in rows of `cols`; a value in as many digits as its cell holds (its height: internal.h). */

/* lanes per row: the most that show every value in full, else in short, within max_h; else 32
 * with colours only (each lane's tooltip has its value) */
int registers_cols(ui *u, const scene_pane *p, int w, int max_h)
{
    for (int pass = 0; pass < 2; pass++)
        for (int cols = WARP_SIZE; cols >= 8; cols /= 2) {
            if (registers_height(u, cols) > max_h) continue;
            int cw = (w - 2 * u->pad) / cols - 2, ok = 1;
            char b[24];
            for (int l = 0; l < WARP_SIZE && ok; l++) {
                if (!p->reg_state[l]) continue;
                reg_format(p->reg_vals[l], pass ? REG_DIGITS_SHORT : REG_DIGITS_FULL, b, sizeof b);
                ok = dl_text_width(u->l, DL_FONT_MONO, u->px, b) + 4 <= cw;
            }
            if (ok) return cols;
        }
    return WARP_SIZE;
}

void draw_registers(ui *u, int pi, const scene_pane *p, dl_rect r, int cols)
{
    const theme *th = u->th;
    int cw = (r.w - 2 * u->pad) / cols, ch = u->lh + 2;
    int hold = holding_back(u); /* a lesson asks before it shows: the values wait for the answer */
    /* every lane's value at one size, or none (values_fit), and the title says which */
    float vals[WARP_SIZE];
    size_t nv = 0;
    for (int l = 0; l < WARP_SIZE; l++)
        if (p->reg_state[l]) vals[nv++] = p->reg_vals[l];
    value_fit vf = values_fit(u, vals, nv, cw - 6, ch - 2);
    int vh = vf.px ? dl_text_height(u->l, DL_FONT_MONO, vf.px) : 0;
    char title[200];
    snprintf(title, sizeof title, S(u, nv && !vf.px && !hold ? STR_REG_TITLE_NO_VALUES : STR_REG_TITLE), p->reg_name, p->reg_warp);
    dl_rect in = panel(u, "registers", r, title);
    for (int l = 0; l < WARP_SIZE; l++) {
        dl_rect c = {in.x + (l % cols) * cw, in.y + (l / cols) * ch, cw - 2, ch - 2};
        int st = p->reg_state[l];
        dl_colour col = st == 2 ? th->working : st == 1 ? th->read : th->idle;
        dl_fill_hit(u->l, c, col, HIT_CODE(HIT_LANE, pi, p->reg_warp * WARP_SIZE + (unsigned)l));
        char v[32];
        if (st && !hold && vf.px) {
            reg_format(p->reg_vals[l], vf.digits, v, sizeof v);
            dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, vf.px, DL_CENTRE, th->background, v);
        }
    }
}
