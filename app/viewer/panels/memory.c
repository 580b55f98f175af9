#include "app/viewer/panels/internal.h"

/* ---------- grids of cells (shared memory, lanes) ---------- */

typedef struct grid {
    int x, y, cw, ch, rows, label_w, label_every;
} grid;

static grid grid_in(const ui *u, dl_rect in, int rows, const char *widest_label)
{
    grid g;
    g.rows = rows < 1 ? 1 : rows;
    g.label_w = dl_text_width(u->l, DL_FONT_MONO, u->px, widest_label) + u->pad;
    g.x = in.x + g.label_w;
    g.y = in.y;
    g.cw = (in.w - g.label_w) / WARP_SIZE;
    g.ch = in.h / g.rows;
    if (g.ch > u->lh + 4) g.ch = u->lh + 4;
    if (g.cw < 2) g.cw = 2;
    if (g.ch < 2) g.ch = 2;
    /* a label on every k-th row, so labels never overlap when rows are thinner than text */
    g.label_every = (u->lh + g.ch - 1) / g.ch;
    if (g.label_every < 1) g.label_every = 1;
    return g;
}

static dl_rect grid_cell(const grid *g, int i)
{
    /* a gap of two pixels where cells are wide enough, so neighbouring values never read as one */
    int gap = g->cw >= 12 ? 2 : 1;
    return (dl_rect){g->x + (i % WARP_SIZE) * g->cw, g->y + (i / WARP_SIZE) * g->ch, g->cw - gap, g->ch - 1};
}

/* rows [row0, row0 + rows) of shared memory as cells in `in`; row labels where they fit, and the
 * written words' values at one size for all, or none (values_fit); *hidden: values were written
 * but none fits. (The additions themselves are the tree's picture.) */
static grid memory_cells(ui *u, int pi, const scene_pane *p, dl_rect in, int row0, int rows, int *hidden)
{
    const view_model *m = p->m;
    const theme *th = u->th;
    grid g = grid_in(u, in, rows, "0000");
    size_t first = (size_t)row0 * WARP_SIZE, last = first + (size_t)rows * WARP_SIZE;
    if (last > m->nwords) last = m->nwords;
    float vals[TRACE_SHARED_WORDS_MAX > 4096 ? 4096 : TRACE_SHARED_WORDS_MAX];
    size_t nv = 0;
    for (size_t i = first; i < last && nv < sizeof vals / sizeof *vals; i++)
        if (p->written[i]) vals[nv++] = p->cells[i];
    dl_rect c0 = grid_cell(&g, 0);
    value_fit vf = values_fit(u, vals, nv, c0.w - 4, c0.h);
    if (hidden) *hidden = nv && !vf.px;
    dl_clip(u->l, in);
    for (int row = 0; row < g.rows; row += g.label_every) {
        int y = g.y + row * g.ch;
        if (y + u->lh > in.y + in.h || g.ch < 4) break;
        dl_textf(u->l, (dl_rect){in.x, y, g.label_w - u->pad / 2, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->dim, "%d", (row0 + row) * WARP_SIZE);
    }
    int vh = vf.px ? dl_text_height(u->l, DL_FONT_MONO, vf.px) : 0;
    for (size_t i = first; i < last; i++) {
        dl_rect c = grid_cell(&g, (int)(i - first));
        if (c.y + c.h > in.y + in.h) break;
        dl_colour bg = p->touched[i] == 1 ? th->read : p->touched[i] == 2 ? th->write : p->written[i] ? th->background : th->idle;
        dl_fill_hit(u->l, c, bg, HIT_CODE(HIT_CELL, pi, i));
        if (p->tree[i]) dl_outline(u->l, c, th->subtree, c.w > 6 ? 2 : 1);
        if (pi == 0) lesson_marks(u, SESSION_ITEM_CELLS, i, c);
        if (p->written[i] && vf.px) { /* every value at one size, with a gap on each side */
            char v[32];
            reg_format(p->cells[i], vf.digits, v, sizeof v);
            dl_text(u->l, (dl_rect){c.x + 2, c.y + (c.h - vh) / 2, c.w - 4, vh}, DL_FONT_MONO, vf.px, DL_CENTRE, th->text, v);
        }
    }
    dl_unclip(u->l);
    return g;
}

static void draw_memory_cells(ui *u, int pi, const scene_pane *p, dl_rect r, str_id title, int *hidden);

void draw_memory(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    if (m->nwords == 0) {
        dl_rect in = panel(u, "memory", r, NULL);
        line_at(u, in, 0, u->th->text, DL_FONT_UI, S(u, STR_SHARED_NONE));
        return;
    }
    dl_mark mark = dl_save(u->l);
    int hidden = 0;
    for (int pass = 0; pass < 2; pass++) { /* the title says so where no value fits */
        if (pass && !hidden) return;
        if (pass) dl_restore(u->l, mark);
        draw_memory_cells(u, pi, p, r, pass ? STR_SHARED_TITLE_NO_VALUES : STR_SHARED_TITLE, &hidden);
    }
}

static void draw_memory_cells(ui *u, int pi, const scene_pane *p, dl_rect r, str_id title, int *hidden)
{
    const view_model *m = p->m;
    dl_rect in = panel(u, "memory", r, S(u, title));
    int rows = (int)((m->nwords + WARP_SIZE - 1) / WARP_SIZE);
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px), fit = in.h / (vh + 2);
    if (rows <= fit || fit < 2 || in.w < 60 * u->digit) {
        memory_cells(u, pi, p, in, 0, rows, hidden);
        return;
    }
    /* too many rows for values (512 and 1024 threads): an overview of every word on the left, and
     * a zoomed slice on the right that follows the words this step touches (or the selected one) */
    int ow = in.w * 28 / 100;
    dl_rect over = {in.x, in.y, ow - u->pad, in.h}, zoom = {in.x + ow, in.y, in.w - ow, in.h};
    int focus = -1;
    if (p->selected >= 0 && (size_t)p->selected < m->nwords) focus = (int)(p->selected / WARP_SIZE);
    for (size_t i = 0; focus < 0 && i < m->nwords; i++)
        if (p->touched[i]) focus = (int)(i / WARP_SIZE);
    if (focus < 0) focus = 0;
    int row0 = focus - fit / 2;
    if (row0 + fit > rows) row0 = rows - fit;
    if (row0 < 0) row0 = 0;
    grid og = memory_cells(u, pi, p, over, 0, rows, NULL); /* the overview: cells alone, its values are the zoom's */
    dl_outline(u->l, (dl_rect){og.x - 1, og.y + row0 * og.ch - 1, og.cw * WARP_SIZE + 2, fit * og.ch + 2}, u->th->accent, 2);
    memory_cells(u, pi, p, zoom, row0, fit, hidden);
}
