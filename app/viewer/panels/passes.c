#include "app/viewer/panels/internal.h"

/* ---------- the passes view: Harris's kernel decomposition ----------
 *
 * Each launch is a level: a row of its blocks (the first ones, and the last when more were
 * launched), each drawn as a small tree over its slice of the input down to the partial sum it
 * stores; the partials of a level run down into the next level's block, which reduces them; the
 * last level ends in the result and its verdict. Every figure is the scene's (scene_passes.c):
 * the launch plan, the adds and chains of the cost table, the partials the traced blocks stored. */

/* a block as Harris draws it: leaves at the top, pairs joined level by level to one sum */
static void mini_tree(ui *u, dl_rect r, dl_colour c, unsigned chain)
{
    int leaves = r.w >= 8 * 12 ? 8 : 4, rows = leaves == 8 ? 4 : 3; /* 8, 4, 2, 1 (or from 4 in a narrow box) */
    if (chain + 1 < (unsigned)rows) rows = (int)chain + 1; /* a launch that adds pairs once (naive) draws one row of adds */
    int dy = r.h / rows, t = u->px >= 20 ? 2 : 1;
    for (int k = 0, n = leaves; k < rows; k++, n /= 2) {
        int y = r.y + k * dy + dy / 2, yn = y + dy;
        for (int i = 0; i < n; i++) {
            int x = r.x + (2 * i + 1) * r.w / (2 * n);
            int d = dy / 5 < r.w / (3 * leaves) ? dy / 5 : r.w / (3 * leaves);
            if (d < 2) d = 2;
            dl_fill(u->l, (dl_rect){x - d, y - d, 2 * d, 2 * d}, c);
            if (n > 1 && k + 1 < rows) { /* into its parent below */
                int xp = r.x + (2 * (i / 2) + 1) * r.w / n;
                dl_line(u->l, x, y, xp, yn, c, t);
            }
        }
    }
}

static void result_line(ui *u, const scene_passes *ps, dl_rect r)
{
    const theme *th = u->th;
    char b[300];
    str_id id = ps->verdict == TRACE_WRONG ? STR_STAT_WRONG : ps->verdict == TRACE_RACING ? STR_STAT_RACING : STR_STAT_RESULT;
    snprintf(b, sizeof b, S(u, id), ps->result, ps->reference);
    dl_text(u->l, r, DL_FONT_UI, u->px, DL_LEFT, th->text, b); /* the words say WRONG or racing */
}

/* a level's words: what it launches, and its counts */
static void level_words(ui *u, const scene_pass_level *lv, unsigned p, char *what, size_t wl, char *counts, size_t cl)
{
    if (lv->grid == 1) snprintf(what, wl, S(u, STR_PASSES_LEVEL_ONE), p, lv->block, (unsigned long long)lv->per_block);
    else snprintf(what, wl, S(u, STR_PASSES_LEVEL), p, lv->grid, lv->block, (unsigned long long)lv->per_block);
    snprintf(counts, cl, S(u, STR_PASSES_COUNTS), (unsigned long long)lv->adds, lv->steps, lv->traced);
}

static int lines_of(ui *u, const char *text, int w)
{
    const char *starts[64];
    size_t lens[64];
    return wrap(u, text, w, u->px, starts, lens, 64);
}

enum { FUNNEL = 2 }; /* lines between two levels: the partial sums running down, and what they are */

void draw_passes(ui *u, dl_rect r)
{
    const scene_passes *ps = &u->sc->passes;
    const theme *th = u->th;
    dl_rect in = panel(u, "passes", r, NULL);
    if (!ps->shown || !ps->nlevels) { line_at(u, in, 0, th->text, DL_FONT_UI, S(u, STR_PASSES_NONE)); return; }
    char b[400], c2[400];
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, th->text, ps->name);
    if (ps->single_pass) snprintf(b, sizeof b, S(u, STR_PASSES_TITLE_ONE), ps->level[0].grid);
    else snprintf(b, sizeof b, S(u, STR_PASSES_TITLE), ps->nlevels, (unsigned long long)ps->n);
    dl_text(u->l, (dl_rect){in.x, in.y + u->blh, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
    /* the words of each level in a column on the left; the blocks on the right, so the partial
     * sums run down into the next level without crossing a word */
    int lw = in.w * 36 / 100, gap = u->pad > 4 ? u->pad : 4;
    dl_rect right = {in.x + lw + gap, 0, in.w - lw - gap, 0};
    /* under the levels: the result, the whole reduction against the definition (n - 1 adds, a chain
     * of log2 n), and what "?" means when a block was not traced */
    char total[400];
    if (ps->complete) {
        double lg = ps->n > 1 ? log2((double)ps->n) : 0;
        snprintf(total, sizeof total, S(u, STR_PASSES_TOTAL), (unsigned long long)ps->adds, (unsigned long long)ps->n,
                 (unsigned long long)(ps->n ? ps->n - 1 : 0), ps->steps, lg);
    } else {
        snprintf(total, sizeof total, S(u, STR_PASSES_PART), ps->blocks_traced, ps->blocks, (unsigned long long)ps->adds, ps->steps);
    }
    int unknown = 0;
    for (unsigned p = 0; p < ps->nlevels; p++)
        for (int k = 0; k < ps->level[p].nshown; k++) unknown |= !ps->level[p].traced_block[k];
    int foot = (1 + lines_of(u, total, in.w) + unknown) * u->lh;
    int top = in.y + u->blh + u->lh + 2 * u->pad, bottom = in.y + in.h - foot - u->pad;
    int levels = (int)ps->nlevels;
    /* each level needs its words and a block of 3 lines at least: as many levels as fit */
    int need = 0, fit = 0;
    for (int p = 0; p < levels; p++) {
        char w1[300], w2[300];
        level_words(u, &ps->level[p], (unsigned)p, w1, sizeof w1, w2, sizeof w2);
        int t = (lines_of(u, w1, lw) + lines_of(u, w2, lw)) * u->lh;
        int h = (t > 4 * u->lh ? t : 4 * u->lh) + FUNNEL * u->lh; /* the words or the least block, and the funnel below */
        if (top + need + h > bottom && fit > 0) break;
        need += h;
        fit++;
    }
    int more = fit < levels;
    levels = fit;
    int spare = bottom - top - need - (more ? u->lh : 0), y = top, any_unknown = 0;
    int prev_x[SCENE_PASS_BLOCKS], prev_n = 0, prev_y = 0;
    for (int p = 0; p < levels; p++) {
        const scene_pass_level *lv = &ps->level[p];
        level_words(u, lv, (unsigned)p, b, sizeof b, c2, sizeof c2);
        int t = (lines_of(u, b, lw) + lines_of(u, c2, lw)) * u->lh;
        int box_h = (t > 4 * u->lh ? t : 4 * u->lh) + spare / (levels ? levels : 1);
        if (box_h > 10 * u->lh) box_h = 10 * u->lh;
        int ty = text_block(u, (dl_rect){in.x, y, lw, box_h}, y, u->px, th->text, b);
        text_block(u, (dl_rect){in.x, ty, lw, y + box_h - ty}, ty, u->px, th->dim, c2);
        /* the row: the blocks drawn, "..." for those between, the partials of the level above
         * running into the first */
        /* as many blocks as hold their partial sums whole (a value is shown whole or not at all):
         * the first ones and the last */
        int vw = dl_text_width(u->l, DL_FONT_MONO, u->px, "?");
        for (int k = 0; k < lv->nshown; k++) {
            char vb_[64];
            reg_format(lv->partial[k], REG_DIGITS_FULL, vb_, sizeof vb_);
            int w = dl_text_width(u->l, DL_FONT_MONO, u->px, vb_);
            if (lv->has_partial[k] && w > vw) vw = w;
        }
        int least = vw + 8, nd = lv->nshown, cut = lv->grid > (unsigned)lv->nshown;
        while (nd > 2 && (nd + cut) * (least + gap) > right.w + gap) nd--, cut = 1;
        int slots = nd + cut; /* a "..." slot before the last */
        int bw = slots ? (right.w - (slots - 1) * gap) / slots : right.w;
        if (bw > 16 * u->digit) bw = 16 * u->digit;
        int row_w = slots * bw + (slots - 1) * gap, x0 = right.x + (right.w - row_w) / 2;
        for (int k = 0; k < prev_n; k++) dl_line(u->l, prev_x[k], prev_y, x0 + bw / 2, y, th->tree, u->px >= 20 ? 2 : 1);
        int val_h = u->lh + 4, label_h = u->lh, tree_h = box_h - val_h - label_h - 4;
        prev_n = 0;
        for (int j = 0, slot = 0; j < nd; j++, slot++) {
            int k = j < nd - 1 || !cut ? j : lv->nshown - 1; /* the last drawn is the last launched */
            if (j == nd - 1 && cut) { /* the blocks not drawn */
                dl_text(u->l, (dl_rect){x0 + slot * (bw + gap), y + box_h / 2 - u->lh / 2, bw, u->lh}, DL_FONT_UI, u->px, DL_CENTRE, th->dim,
                        "\xE2\x80\xA6");
                slot++;
            }
            int x = x0 + slot * (bw + gap);
            dl_rect box = {x, y, bw, box_h};
            dl_outline(u->l, box, th->grid, 1);
            char lb[64];
            snprintf(lb, sizeof lb, S(u, STR_PASSES_BLOCK), lv->shown[k]);
            if (dl_text_width(u->l, DL_FONT_UI, u->px, lb) > bw - 4) snprintf(lb, sizeof lb, "%u", lv->shown[k]); /* a narrow box: the number */
            dl_text(u->l, (dl_rect){x + 2, y + 1, bw - 4, label_h}, DL_FONT_UI, u->px, DL_CENTRE, th->dim, lb);
            if (tree_h >= 2 * u->lh) mini_tree(u, (dl_rect){x + u->pad, y + label_h + 2, bw - 2 * u->pad, tree_h}, th->tree, lv->steps);
            dl_rect vb = {x + 2, y + box_h - val_h - 2, bw - 4, val_h};
            if (lv->has_partial[k] && lv->partials) {
                dl_outline(u->l, vb, th->working, 2);
                reg_format(lv->partial[k], REG_DIGITS_FULL, lb, sizeof lb);
                dl_text(u->l, (dl_rect){vb.x + 2, vb.y + 2, vb.w - 4, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, th->text, lb);
            } else if (!lv->traced_block[k] && lv->partials) { /* not traced: its partial is not known */
                dl_outline(u->l, vb, th->dim, 1);
                dl_text(u->l, (dl_rect){vb.x, vb.y + 2, vb.w, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, th->dim, "?");
                any_unknown = 1;
            } /* traced, but it stored no partial sum of its own (naive adds pairs in place): no box */
            prev_x[prev_n++] = x + bw / 2;
        }
        prev_y = y + box_h;
        /* under the row, in the words' column: what the level hands on */
        int out_y = y + box_h + u->lh / 2;
        if (p + 1 < (int)ps->nlevels) {
            if (lv->partials) snprintf(b, sizeof b, S(u, STR_PASSES_OUT), lv->grid, (unsigned)p + 1);
            else snprintf(b, sizeof b, S(u, STR_PASSES_OUT_PLAIN), (unsigned)p + 1);
            dl_text(u->l, (dl_rect){in.x, out_y, lw, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
        } else if (ps->single_pass) {
            snprintf(b, sizeof b, S(u, STR_PASSES_TICKET), lv->grid);
            dl_text(u->l, (dl_rect){in.x, out_y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
        }
        y += box_h + FUNNEL * u->lh;
    }
    int ty = in.y + in.h - foot;
    if (more) {
        snprintf(b, sizeof b, S(u, STR_PASSES_MORE), ps->nlevels - (unsigned)levels);
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
    }
    result_line(u, ps, (dl_rect){in.x, ty, in.w, u->lh});
    ty = text_block(u, (dl_rect){in.x, ty + u->lh, in.w, foot - u->lh}, ty + u->lh, u->px, th->text, total);
    if (unknown) dl_text(u->l, (dl_rect){in.x, ty, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, S(u, STR_PASSES_UNTRACED));
    (void)any_unknown;
}
