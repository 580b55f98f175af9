#include "app/viewer/panels/internal.h"

/* a colour per warp, so that who added what reads at a glance */
dl_colour warp_colour(const theme *th, unsigned warp)
{
    const dl_colour c[] = {th->working, th->barrier, th->diverged, th->read, th->write, th->accent};
    return c[warp % (sizeof c / sizeof c[0])];
}

/* Lanes to banks: the warp's 32 lanes above the 32 banks, a line from each lane to the word it
 * asks of its bank; words of one bank are served one wavefront after another (numbered), and the
 * lines into a bank with more than one word are drawn in the conflict colour. */
/* "lanes to banks: warp 0 store, conflict degree 8 (7 extra wavefronts)"; where that is wider than
 * w, "warp 0 store: conflict degree 8" (the footer says the extra wavefronts in compare, the
 * wavefronts' numbers in the picture); while a lesson asks, without the degree */
void banks_title(ui *u, const scene_pane *p, int w, char *b, size_t len)
{
    const trace_event *e = &p->m->t->events[p->bank_event];
    int deg = p->worst_degree;
    char extra[64], full[300], shrt[200];
    str_count(u->L, NOUN_WAVEFRONT, (unsigned long long)(deg > 1 ? deg - 1 : 0), extra, sizeof extra);
    if (holding_back(u)) { snprintf(b, len, S(u, STR_BANKS_ASKING), e->warp, str_kind(u->L, e->kind)); return; }
    snprintf(full, sizeof full, S(u, STR_BANKS_TITLE), e->warp, str_kind(u->L, e->kind), deg, extra);
    snprintf(shrt, sizeof shrt, S(u, STR_BANKS_TITLE_SHORT), e->warp, str_kind(u->L, e->kind), deg);
    fit_text(u, w, full, shrt, b, len);
}

void draw_banks(ui *u, int pi, const scene_pane *p, dl_rect r, int waves)
{
    if (p->bank_event < 0) { panel(u, "banks", r, S(u, STR_BANKS_NONE)); return; }
    const trace_event *e = &p->m->t->events[p->bank_event];
    const trace *t = p->m->t;
    char title[200];
    int deg = p->worst_degree;
    int hold = holding_back(u);
    banks_title(u, p, panel_inner(u, r).w, title, sizeof title);
    dl_rect in = panel(u, "banks", r, title);
    const theme *th = u->th;
    char code[160], b[260];
    trace_text_line_copy(p->source, e->line, code, sizeof code);
    snprintf(b, sizeof b, S(u, STR_BANKS_FORMULA), e->line, code);
    if (dl_text_width(u->l, DL_FONT_MONO, u->px, b) > in.w) snprintf(b, sizeof b, S(u, STR_BANKS_FORMULA_SHORT), e->line); /* the code: the source panel's */
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, th->dim, b);
    in.y += u->lh;
    in.h -= u->lh;
    /* the gap between lanes and banks, where the wires run: a quarter of the room, at most three
     * lines, and never the banks' own least room (6 px a wavefront, measure's minimum) */
    int cw = in.w / BANKS, lane_h = u->lh + 2, gap = in.h / 4 < 3 * u->lh ? in.h / 4 : 3 * u->lh;
    int spare = in.h - lane_h - u->lh - (deg > 1 ? deg : 1) * 6;
    if (gap > spare) gap = spare;
    /* a stack gives the wires some of their room where that lets each wavefront say its number */
    int numbered = in.h - lane_h - u->lh - (deg > 1 ? deg : 1) * (dl_text_height(u->l, DL_FONT_MONO, value_least(u)) + 2);
    if (deg > 1 && gap > numbered && numbered >= u->lh) gap = numbered;
    if (gap < 8) gap = 8;
    int top = in.y + lane_h + gap, avail = in.y + in.h - u->lh - top, bh = deg ? avail / deg : avail;
    if (bh > u->lh + 4) bh = u->lh + 4;
    if (bh < 2 || avail < 4) return;
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    dl_clip(u->l, in);
    /* the lanes, each saying the word it asks for where every word fits its cell at the values'
     * least size or more (the lane's place says its number), else its lane number */
    int64_t widest = 0;
    for (int q = 0, n = trace_popcount(e->mask); q < n; q++)
        if (t->lane_addr[e->lanes + (size_t)q] > widest) widest = t->lane_addr[e->lanes + (size_t)q];
    char wbuf[24];
    snprintf(wbuf, sizeof wbuf, "%lld", (long long)widest);
    int wpx = 0;
    for (int q = u->px; q >= value_least(u) && !wpx && !hold; q--)
        if (dl_text_width(u->l, DL_FONT_MONO, q, wbuf) + 2 <= cw - 1 && dl_text_height(u->l, DL_FONT_MONO, q) <= lane_h - 2) wpx = q;
    int wvh = wpx ? dl_text_height(u->l, DL_FONT_MONO, wpx) : 0;
    int k = 0;
    for (unsigned lane = 0; lane < WARP_SIZE; lane++) {
        dl_rect c = {in.x + (int)lane * cw, in.y, cw - 1, lane_h - 2};
        int on = e->mask >> lane & 1u;
        dl_fill_hit(u->l, c, on ? th->working : th->idle, HIT_CODE(HIT_LANE, pi, e->warp * WARP_SIZE + lane));
        int64_t wd = on ? t->lane_addr[e->lanes + (size_t)k] : -1;
        if (wpx && wd >= 0) dl_textf(u->l, (dl_rect){c.x, c.y + (c.h - wvh) / 2, c.w, wvh}, DL_FONT_MONO, wpx, DL_CENTRE, th->background, "%lld", (long long)wd);
        else if (!wpx && cw >= dl_text_width(u->l, DL_FONT_MONO, u->px, "00") + 2 && vh <= c.h)
            dl_textf(u->l, (dl_rect){c.x, c.y, c.w, vh}, DL_FONT_MONO, u->px, DL_CENTRE, th->background, "%u", lane);
        if (!on) continue;
        k++;
        if (wd < 0) continue;
        const scene_bank *sb = &p->banks[wd % BANKS];
        int slot = 0;
        for (int q = 0; q < sb->nwords; q++)
            if (sb->words[q] == wd) slot = q;
        int bx = in.x + (int)(wd % BANKS) * cw + cw / 2, by = top + slot * bh;
        int red = sb->nwords > 1 && !hold;
        dl_line(u->l, c.x + c.w / 2, c.y + c.h, bx, by, red ? th->conflict : th->dim, red ? 2 : 1);
    }
    /* the banks: one box per distinct word, numbered by the wavefront that serves it, at the
     * largest size down to the values' least at which a number fits its box (an 8-way stack's too) */
    int bpx = 0, bvh = 0;
    for (int q = u->px; q >= value_least(u) && !bpx; q--) {
        int h = dl_text_height(u->l, DL_FONT_MONO, q);
        if (h <= bh - 1 && dl_text_width(u->l, DL_FONT_MONO, q, "00") <= cw - 3) bpx = q, bvh = h;
    }
    for (int bank = 0; bank < BANKS; bank++) {
        const scene_bank *sb = &p->banks[bank];
        int x = in.x + bank * cw;
        for (int q = 0; q < sb->nwords && q < waves; q++) { /* in motion, wavefronts land one after another */
            dl_rect c = {x, top + q * bh, cw - 1, bh - 1};
            dl_colour col = sb->nwords > 1 && !hold ? th->conflict : th->working;
            dl_fill_hit(u->l, c, col, HIT_CODE(HIT_BANK, pi, bank));
            if (pi == 0) lesson_marks(u, SESSION_ITEM_BANKS, (size_t)bank, c);
            char v[24];
            if (sb->nwords > 1 && hold) v[0] = '\0';
            else if (sb->nwords > 1) snprintf(v, sizeof v, "%d", q + 1); /* the wavefront */
            else snprintf(v, sizeof v, "%lld", (long long)sb->words[q]);
            if (bpx && bvh <= c.h && dl_text_width(u->l, DL_FONT_MONO, bpx, v) <= c.w - 2)
                dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - bvh) / 2, c.w - 2, bvh}, DL_FONT_MONO, bpx, DL_CENTRE, th->background, v);
        }
        if (!sb->nwords) {
            dl_fill_hit(u->l, (dl_rect){x, top, cw - 1, bh - 1}, th->panel, HIT_CODE(HIT_BANK, pi, bank)); /* clickable, quiet */
            dl_fill(u->l, (dl_rect){x, top, cw - 1, 2}, th->grid);
            if (pi == 0) lesson_marks(u, SESSION_ITEM_BANKS, (size_t)bank, (dl_rect){x, top, cw - 1, bh - 1});
        }
    }
    /* every bank numbered, under its column: where two numbers do not fit side by side, staggered
     * over as many lines as it takes (0, 2, 4 … over 1, 3, 5 …); where those lines do not fit, every
     * other number */
    int numy = top + (deg > 1 ? deg : 1) * bh + u->pad / 2; /* the banks' numbers right under their words */
    int npx = u->px, nlh = u->lh, every = 1, room = in.y + in.h - numy;
    for (int q = u->px; q >= value_least(u); q--) { /* the largest size down to the values' least at which every bank is numbered */
        int w = dl_text_width(u->l, DL_FONT_MONO, q, "31 "), ev = 1, h = dl_text_height(u->l, DL_FONT_MONO, q);
        while (ev < BANKS && ev * cw < w) ev *= 2;
        if (q == u->px) every = ev;
        if (ev * h <= room) { npx = q, nlh = h, every = ev; break; }
    }
    int lines = every;
    if (lines * nlh > room && room >= 2 * nlh && every > 1) lines = room / nlh >= every ? every : 2; /* what fits */
    if (lines * nlh > room) lines = 1;
    if (numy + lines * nlh > in.y + in.h) numy = in.y + in.h - lines * nlh;
    int step = lines >= every ? 1 : every / lines; /* banks a line apart: 1 where every bank gets its number */
    for (int bank = 0; bank < BANKS; bank += step) {
        int line = (bank / step) % lines;
        dl_rect nr = {in.x + bank * cw + cw / 2 - every * cw / 2, numy + line * nlh, every * cw, nlh};
        if (nr.x < in.x) nr.w -= in.x - nr.x, nr.x = in.x; /* the first: from the panel's edge */
        if (nr.x + nr.w > in.x + in.w) nr.w = in.x + in.w - nr.x;
        dl_textf(u->l, nr, DL_FONT_MONO, npx, DL_CENTRE, th->dim, "%d", bank);
    }
    dl_unclip(u->l);
}
