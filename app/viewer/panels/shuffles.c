#include "app/viewer/panels/internal.h"

/* The round of shuffles shown (offsets 16 .. 1 make one round of the tree): the round of the
 * latest shuffle of the warp, levels first .. last. */
void shfl_round(const scene_pane *p, int *first_out, int *last_out)
{
    const view_model *m = p->m;
    int offsets[64] = {0}, first = 0, last = m->shfl_levels - 1, latest = 0;
    for (size_t i = 0; i < m->nshfl; i++) {
        const view_shfl *sh = &m->shfl[i];
        if (sh->warp != p->shfl_warp || sh->level >= 64) continue;
        if (sh->src != sh->lane && !offsets[sh->level]) offsets[sh->level] = (int)sh->src - (int)sh->lane;
        if (sh->step <= p->step && sh->level > latest) latest = sh->level;
    }
    for (int L = 1; L <= latest && L < 64; L++)
        if (offsets[L] > offsets[L - 1]) first = L;
    for (int L = first + 1; L < m->shfl_levels && L < 64; L++)
        if (offsets[L] > offsets[L - 1]) { last = L - 1; break; }
    *first_out = first;
    *last_out = last;
}

/* Shuffles, as GPU-Puzzles draws reads: a row per shuffle of one warp, each lane's received value,
 * an arrow from the lane it came from, the offset at the row's start. */
void draw_shuffles(ui *u, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    if (!m->nshfl) { panel(u, "picture", r, S(u, STR_SHFL_NONE)); return; }
    const theme *th = u->th;
    int first, last;
    shfl_round(p, &first, &last);
    dl_rect probe = panel_inner(u, r); /* the room the title leaves, as panel() gives it */
    int label_w = dl_text_width(u->l, DL_FONT_UI, u->px, S(u, STR_SHFL_OFFSET)) + 3 * u->digit + u->pad;
    int rows = last - first + 1, rh = rows > 0 ? probe.h / rows : probe.h;
    if (rh > 3 * u->lh) rh = 3 * u->lh;
    /* the values shown, for one size and number of digits for all of them (values_fit): all 32
     * lanes, or where their values do not fit, lanes 0 to 15 or 0 to 7 (the lanes lane 0's sum
     * gathers from last), a value in every box, never smaller ones */
    float vals[WARP_SIZE * 8];
    size_t nv = 0;
    int nl = WARP_SIZE, cw = 0;
    value_fit vf = {0, 0};
    for (;; nl /= 2) {
        nv = 0;
        for (size_t i = 0; i < m->nshfl && nv < sizeof vals / sizeof *vals; i++) {
            const view_shfl *sh = &m->shfl[i];
            if (sh->warp == p->shfl_warp && sh->level >= first && sh->level <= last && sh->step <= p->step && (int)sh->lane < nl) vals[nv++] = sh->value;
        }
        cw = (probe.w - label_w) / nl;
        /* a row: the arrows above, the boxes below, tall enough for a value where one can fit */
        vf = values_fit(u, vals, nv, cw - 3, rh - 6 > 2 ? rh - 6 : 2);
        if (vf.px || !nv || nl <= 8) break;
    }
    int vh = vf.px ? dl_text_height(u->l, DL_FONT_MONO, vf.px) : 0, bh = rh / 2 > 2 ? rh / 2 : 2;
    if (vf.px) bh = vh + 4 < rh - 6 ? vh + 4 : rh - 6;
    char title[200];
    if (nl < WARP_SIZE && vf.px) snprintf(title, sizeof title, S(u, STR_SHFL_TITLE_WINDOW), p->shfl_warp, nl - 1);
    else snprintf(title, sizeof title, S(u, nv && !vf.px ? STR_SHFL_TITLE_NO_VALUES : STR_SHFL_TITLE), p->shfl_warp);
    dl_rect in = panel(u, "picture", r, title);
    int x0 = in.x + label_w;
    if (cw < 2 || rh < 4 || bh < 2) return;
    dl_clip(u->l, in);
    for (int level = first; level <= last; level++) {
        int y = in.y + (level - first) * rh + (rh - bh), offset = 0, shown = 0;
        for (size_t i = 0; i < m->nshfl; i++) {
            const view_shfl *sh = &m->shfl[i];
            if (sh->warp != p->shfl_warp || sh->level != level || sh->step > p->step) continue;
            shown = 1;
            if (sh->src != sh->lane && !offset) offset = (int)sh->src - (int)sh->lane;
            if ((int)sh->lane >= nl) continue; /* right of the window */
            dl_rect c = {x0 + (int)sh->lane * cw, y, cw - 1, bh};
            dl_fill(u->l, c, sh->step == p->step ? th->working : th->read);
            int sx = (int)sh->src < nl ? x0 + (int)sh->src * cw + cw / 2 : c.x + c.w + cw / 3; /* from beyond the window: a short arrow in from the right */
            if (sh->src != sh->lane && sh->src < WARP_SIZE)
                dl_arrow(u->l, sx, y - (rh - bh) + 2, c.x + c.w / 2, c.y, sh->step == p->step ? th->text : th->dim, nl < WARP_SIZE ? 2 : 1);
            if (vf.px) {
                char v[32];
                reg_format(sh->value, vf.digits, v, sizeof v);
                dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, vf.px, DL_CENTRE, th->background, v);
            }
        }
        for (size_t i = 0; u->to && u->ease > 0 && i < m->nshfl; i++) { /* in motion: values fly to their lanes */
            const view_shfl *sh = &m->shfl[i];
            if (sh->warp != p->shfl_warp || sh->level != level || sh->step <= p->step || sh->step > u->to->step || (int)sh->src >= nl || (int)sh->lane >= nl) continue;
            int sx = x0 + (int)sh->src * cw + cw / 2, sy = y - (rh - bh), dx = x0 + (int)sh->lane * cw + cw / 2;
            int px = sx + (int)lround((dx - sx) * u->ease), py = sy + (int)lround((y + bh / 2 - sy) * u->ease), d = cw / 2 > 3 ? cw / 2 : 3;
            dl_fill(u->l, (dl_rect){px - d / 2, py - d / 2, d, d}, th->tree);
        }
        if (shown && offset && rh >= u->lh) { /* a label needs a row a line high (the layout gives it one) */
            char b[40];
            snprintf(b, sizeof b, S(u, STR_SHFL_OFFSET), offset);
            dl_text(u->l, (dl_rect){in.x, y + (bh - u->lh) / 2, label_w - u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, b);
        }
    }
    dl_unclip(u->l);
}
