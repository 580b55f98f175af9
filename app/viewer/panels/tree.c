#include "app/viewer/panels/internal.h"

/* ---------- the top picture: the tree, global memory, or shuffles ---------- */

/* The least size the tree's values are drawn at: TREE_VALUE_PX_MIN, or the platform's least where
 * that is larger (a phone: 12 CSS pixels at its pixel ratio); presenter mode keeps its own size
 * (the back of a room reads nothing smaller). A tree with no room for two rows at this size is
 * its summary line (measure); a value that still does not fit its box is left out, never drawn
 * smaller, and the title says so. */
enum { TREE_VALUE_PX_MIN = 12 }; /* the smallest the tree's values shrink to on a desktop, to fit a row */
int tree_value_least(const ui *u)
{
    if (u->sc->s->presenter) return value_least(u); /* 16 px at 1024x768: a block of 32 whole, as Harris draws 16 */
    return u->least > TREE_VALUE_PX_MIN ? u->least : TREE_VALUE_PX_MIN;
}

static void draw_tree_titled(ui *u, int pi, const scene_pane *p, dl_rect r, str_id title_id, int *left_out);

/* Harris's figure: the leaves on top, a row per addition into a word below, each node the
 * partial sum a thread stored (coloured by its warp), edges from its two inputs; this step's
 * additions outlined; the words of the selected input tree outlined too. */
void draw_tree(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    if (!m->nnodes || m->tree_words <= 0) { panel(u, "picture", r, S(u, STR_TREE_NONE)); return; }
    dl_mark mark = dl_save(u->l);
    int left_out = 0;
    draw_tree_titled(u, pi, p, r, STR_TREE_TITLE, &left_out);
    if (!left_out) return;
    dl_restore(u->l, mark); /* the title says that values are left out */
    draw_tree_titled(u, pi, p, r, STR_TREE_TITLE_NO_VALUES, &left_out);
}

static void draw_tree_titled(ui *u, int pi, const scene_pane *p, dl_rect r, str_id title_id, int *left_out)
{
    const view_model *m = p->m;
    /* the window: as many words as leave room for the widest partial sum (64, 32, 16 or 8), the
     * one holding the focus word, or the slice the user moved to; where even 8 words leave no
     * room for it at the least size (a phone), fewer (4 or 2): fewer words, never smaller digits */
    float hi_v = 0, lo_v = 0;
    for (size_t i = 0; i < m->nnodes; i++) {
        if (m->nodes[i].value > hi_v) hi_v = m->nodes[i].value;
        if (m->nodes[i].value < lo_v) lo_v = m->nodes[i].value;
    }
    char wv[24], wl[24];
    snprintf(wv, sizeof wv, "%.6g", (double)hi_v);
    snprintf(wl, sizeof wl, "%.6g", (double)lo_v);
    const char *widest = strlen(wl) > strlen(wv) ? wl : wv;
    int least = tree_value_least(u);
    int need = dl_text_width(u->l, DL_FONT_MONO, u->px, widest) + 4, inner = r.w - 2 * u->pad;
    int need_least = dl_text_width(u->l, DL_FONT_MONO, least < u->px ? least : u->px, widest) + 4; /* values are never larger than u->px */
    int64_t cols = 64;
    while (cols > 8 && (cols > m->tree_words * 2 || inner / cols < need)) cols /= 2;
    while (cols > 2 && inner / cols < need_least) cols /= 2;
    if (cols > m->tree_words) cols = m->tree_words;
    /* a tree of up to 32 words is drawn whole, every partner inside it, where its values fit at the
     * least size (the values then take the largest size their boxes hold) */
    if (m->tree_words <= 32 && cols < m->tree_words && p->slice < 0 && inner / m->tree_words >= need_least) cols = m->tree_words;
    int64_t lo = p->slice >= 0 ? p->slice * cols : p->tree_focus / cols * cols;
    if (lo + cols > m->tree_words) lo = m->tree_words - cols;
    if (lo < 0) lo = 0;
    int64_t hi = lo + cols;
    char title[300];
    snprintf(title, sizeof title, S(u, title_id), (long long)lo, (long long)(hi - 1));
    dl_rect in = panel(u, "picture", r, title);
    const theme *th = u->th;
    int rows = m->tree_levels + 1, overview = m->tree_words > cols ? u->lh / 2 + 2 : 0;
    int cw = in.w / (int)cols, vh = dl_text_height(u->l, DL_FONT_MONO, u->px), first = 0;
    /* the values shrink to the least size: when every row cannot hold a value at that size, the
     * rows shown are the last that do, down to the deepest sum so far (the leaves and first sums
     * scroll off the top), never rows too thin to read */
    int row_h = vh, least_h = dl_text_height(u->l, DL_FONT_MONO, least);
    if (rows * (least_h + 6) > in.h - overview) row_h = least_h;
    int fit = (in.h - overview) / (row_h + 6);
    if (rows > fit && fit >= 2) {
        int deepest = 0;
        for (size_t i = 0; i < m->nnodes; i++)
            if (m->nodes[i].step <= p->step && m->nodes[i].level + 1 > deepest) deepest = m->nodes[i].level + 1;
        first = deepest + 1 - fit > 0 ? deepest + 1 - fit : 0;
        rows = fit;
    }
    int rh = (in.h - overview) / (rows ? rows : 1);
    if (rh > 4 * u->lh) rh = 4 * u->lh; /* the rows spread over the room the layout gave the step's picture */
    /* the values take the largest size that fits a row, not below the least */
    int vpx = u->px;
    if (vpx > least && vh + 2 > rh - 4) {
        /* a line's height grows with the size nearly in proportion: from that estimate, the
         * largest size below u->px whose line fits (a size measured is a face opened: a few, not
         * one per size) */
        int top = vpx - 1, est = vh > 0 ? vpx * (rh - 6) / vh : least;
        vpx = est < least ? least : est > top ? top : est;
        vh = dl_text_height(u->l, DL_FONT_MONO, vpx);
        while (vpx < top && vh + 2 <= rh - 4) {
            int up = dl_text_height(u->l, DL_FONT_MONO, vpx + 1);
            if (up + 2 > rh - 4) break;
            vh = up;
            vpx++;
        }
        while (vpx > least && vh + 2 > rh - 4) vh = dl_text_height(u->l, DL_FONT_MONO, --vpx);
    }
    while (vpx > least && dl_text_width(u->l, DL_FONT_MONO, vpx, widest) + 4 > cw) vh = dl_text_height(u->l, DL_FONT_MONO, --vpx); /* as wide as a box */
    if (cw < 2 || rh < 3) return;
    int bh = rh - 4 < vh + 2 ? rh * 3 / 5 : vh + 2;
    /* the thread that stored each sum, over its box, as Harris labels his rows, where the rows leave
     * a line for it at a readable size */
    int tid_px = u->sc->s->presenter ? value_least(u) : u->px * 3 / 4 > TREE_VALUE_PX_MIN ? u->px * 3 / 4 : TREE_VALUE_PX_MIN;
    int tid_h = dl_text_height(u->l, DL_FONT_MONO, tid_px), tids = rh - bh >= tid_h + 2 && dl_text_width(u->l, DL_FONT_MONO, tid_px, "t000") <= cw - 2;
    if (!tids && m->tree_words <= 32 && dl_text_width(u->l, DL_FONT_MONO, tid_px, "t00") <= cw - 2) {
        /* a small tree keeps its thread ids: its values down to the least size to leave them a line */
        while (vpx > least && vh + 2 + tid_h + 4 > rh) vh = dl_text_height(u->l, DL_FONT_MONO, --vpx);
        if (vh + 2 + tid_h + 4 <= rh) {
            bh = vh + 2; /* a box its value's height, the line above it for the thread */
            tids = 1;
        }
    }
    if (bh < 2) bh = 2;
    int y0 = in.y + overview;
    dl_clip(u->l, in);
    if (overview) { /* the whole block as a strip, the window marked */
        double per = (double)in.w / (double)m->tree_words;
        dl_fill(u->l, (dl_rect){in.x, in.y, in.w, overview - 2}, th->idle);
        dl_fill(u->l, (dl_rect){in.x + (int)((double)lo * per), in.y, (int)((double)cols * per) + 1, overview - 2}, th->accent);
    }
#define NODE_X(w) (in.x + (int)((w) - lo) * cw + cw / 2)
#define ROW_Y(row) (y0 + ((row) - first) * rh)
#define NODE_Y(level) (ROW_Y(level) + bh / 2)
#define SOURCE_Y(level) ((level) < first ? y0 : NODE_Y(level)) /* from a row scrolled off: from the top */
    /* edges first, under the boxes */
    for (size_t i = 0; i < m->nnodes; i++) {
        const view_node *n = &m->nodes[i];
        if (n->step > p->step || n->word < lo || n->word >= hi || n->level + 1 < first) continue;
        int x = NODE_X(n->word), y = NODE_Y(n->level + 1);
        dl_line(u->l, NODE_X(n->word), SOURCE_Y(n->level), x, y, th->grid, 1);
        dl_colour ec = n->step == p->step ? th->tree : th->dim;
        int ew = n->step == p->step ? 2 : 1;
        if (n->from >= lo && n->from < hi) dl_line(u->l, NODE_X(n->from), SOURCE_Y(n->from_level), x, y, ec, ew);
        else /* an input from outside the window: a short arrow in from that side */
            dl_arrow(u->l, n->from < lo ? x - cw * 2 / 3 : x + cw * 2 / 3, y - rh / 2, x + (n->from < lo ? -cw / 4 : cw / 4), y - bh / 2, ec, ew);
    }
    /* the leaves: each word's first value */
    for (int64_t w = lo; w < hi; w++) {
        if (first > 0 || m->leaf_step[w] > p->step) continue;
        dl_rect c = {in.x + (int)(w - lo) * cw, y0, cw - 1, bh};
        dl_fill_hit(u->l, c, th->background, HIT_CODE(HIT_CELL, pi, w));
        char v[24];
        snprintf(v, sizeof v, "%.6g", (double)m->leaf_value[w]);
        if (vh <= c.h && dl_text_width(u->l, DL_FONT_MONO, vpx, v) <= c.w - 2)
            dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, vpx, DL_CENTRE, th->text, v);
        else *left_out = 1;
    }
    for (size_t i = 0; i < m->nnodes; i++) {
        const view_node *n = &m->nodes[i];
        if (n->step > p->step || n->word < lo || n->word >= hi || n->level + 1 < first) continue;
        dl_rect c = {in.x + (int)(n->word - lo) * cw, ROW_Y(n->level + 1), cw - 1, bh};
        int off = n->value != n->expected; /* a race stored the wrong partial sum here */
        dl_colour col = off ? th->wrong : warp_colour(th, n->thread / WARP_SIZE); /* a wrong sum: its own colour, outlined */
        dl_fill_hit(u->l, c, col, HIT_CODE(HIT_CELL, pi, n->word));
        if (n->step == p->step || off) dl_outline(u->l, c, th->text, n->step == p->step ? 2 : 1);
        if (pi == 0 && n->buf == -1) lesson_marks(u, SESSION_ITEM_CELLS, (size_t)n->word, c);
        else if (n->buf == -1 && (size_t)n->word < m->nwords && p->tree[n->word]) dl_outline(u->l, c, th->subtree, 2);
        if (tids)
            dl_textf(u->l, (dl_rect){c.x, c.y - tid_h - 1, c.w, tid_h}, DL_FONT_MONO, tid_px, DL_CENTRE, th->dim, "t%u", n->thread);
        char v[48];
        snprintf(v, sizeof v, "%.6g", (double)n->value);
        if (n->step == p->step && holding_back(u)) snprintf(v, sizeof v, "?"); /* this step's sums wait for the answer */
        else if (off) { /* the value against what it should hold, where that fits */
            char both[48];
            snprintf(both, sizeof both, "%.6g\xE2\x89\xA0%.6g", (double)n->value, (double)n->expected);
            if (dl_text_width(u->l, DL_FONT_MONO, vpx, both) <= c.w - 2) memcpy(v, both, sizeof both);
        }
        if (vh <= c.h && dl_text_width(u->l, DL_FONT_MONO, vpx, v) <= c.w - 2)
            dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, vpx, DL_CENTRE, off ? on_colour(th, col) : th->background, v);
        else *left_out = 1;
    }
    /* in motion: the next step's inputs travel along the edges into their sums */
    for (size_t i = 0; u->to && u->ease > 0 && i < m->nnodes; i++) {
        const view_node *n = &m->nodes[i];
        if (n->step <= p->step || n->step > u->to->step || n->word < lo || n->word >= hi) continue;
        int x = NODE_X(n->word), y = NODE_Y(n->level + 1);
        int fx = n->from >= lo && n->from < hi ? NODE_X(n->from) : (n->from < lo ? in.x : in.x + in.w), fy = NODE_Y(n->from_level);
        int d = bh / 2 > 3 ? bh / 2 : 3;
        for (int k = 0; k < 2; k++) { /* the added value, and the sum's own previous value */
            int sx = k ? x : fx, sy = k ? NODE_Y(n->level) : fy;
            int px = sx + (int)lround((x - sx) * u->ease), py = sy + (int)lround((y - sy) * u->ease);
            dl_fill(u->l, (dl_rect){px - d / 2, py - d / 2, d, d}, k ? th->dim : th->tree);
        }
    }
#undef NODE_X
#undef NODE_Y
#undef ROW_Y
#undef SOURCE_Y
    dl_unclip(u->l);
}
