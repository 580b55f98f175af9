#include "app/viewer/panels/internal.h"

/* Global memory: the elements the step touches, each coloured by the warp that touched it, the
 * 32-byte sectors marked, and each warp request's sectors against the fewest possible. */
void draw_loads(ui *u, const scene_pane *p, dl_rect r)
{
    if (!p->nloads) { panel(u, "picture", r, S(u, STR_LOADS_NONE)); return; }
    char title[240];
    snprintf(title, sizeof title, S(u, STR_LOADS_TITLE), (long long)p->load_lo, (long long)p->load_hi);
    dl_rect in = panel(u, "picture", r, title);
    const theme *th = u->th;
    int64_t span = p->load_hi - p->load_lo + 1;
    /* elements per row: whole sectors (8 floats of 4 bytes), as many as fit at 3 px or more */
    enum { SECTOR_ELEMS = 32 / WORD_BYTES };
    int64_t per_row = span < 256 ? span : 256;
    per_row = (per_row + SECTOR_ELEMS - 1) / SECTOR_ELEMS * SECTOR_ELEMS;
    int64_t base = p->load_lo / SECTOR_ELEMS * SECTOR_ELEMS;
    int64_t nrows = (p->load_hi - base) / per_row + 1;
    int text_rows = p->nsectors < 8 ? p->nsectors : 8;
    int strip_h = in.h - (text_rows > 0 ? (text_rows + 1) / 2 : 0) * u->lh;
    if (strip_h < u->lh / 2) strip_h = in.h < u->lh / 2 ? in.h : u->lh / 2; /* the strip before the sector lines */
    /* accesses far apart (a trace may span 2^40 elements): as many rows as fit, each standing for
     * more elements, drawn to scale without the sector ticks */
    int64_t max_rows = strip_h / 3 > 0 ? strip_h / 3 : 1;
    int scaled = nrows > max_rows;
    if (scaled) {
        per_row = ((p->load_hi - base) / max_rows + 1 + SECTOR_ELEMS - 1) / SECTOR_ELEMS * SECTOR_ELEMS;
        nrows = (p->load_hi - base) / per_row + 1;
    }
    int rh = strip_h / (int)nrows, cw = scaled ? 1 : (int)(in.w / per_row);
    if (rh > u->lh) rh = u->lh;
    if (cw < 1) cw = 1;
    int row_w = scaled ? in.w : (int)per_row * cw;
    dl_clip(u->l, in);
    if (rh >= 3)
        for (int64_t row = 0; row < nrows; row++) {
            int y = in.y + (int)row * rh;
            dl_fill(u->l, (dl_rect){in.x, y, row_w, rh - 1}, th->idle);
            for (int64_t s = 0; !scaled && s <= per_row; s += SECTOR_ELEMS) dl_fill(u->l, (dl_rect){in.x + (int)s * cw, y, 1, rh - 1}, th->dim);
        }
    for (size_t i = 0; rh >= 3 && i < p->nloads; i++) {
        const scene_load *ld = &p->loads[i];
        for (unsigned k = 0; k < ld->width; k++) {
            int64_t off = ld->elem + k - base, row = off / per_row, col = off % per_row;
            int x = scaled ? in.x + (int)(col * in.w / per_row) : in.x + (int)col * cw + (cw > 2);
            dl_fill(u->l, (dl_rect){x, in.y + (int)row * rh + 1, cw > 2 ? cw - 2 : 1, rh - 3}, warp_colour(th, ld->warp));
        }
    }
    int ty = in.y + (int)nrows * rh + 2, colw = in.w / 2;
    for (int i = 0; i < text_rows; i++) {
        char b[120];
        snprintf(b, sizeof b, S(u, STR_LOADS_WARP), p->sectors[i].warp, p->sectors[i].sectors, p->sectors[i].sectors_min);
        int x = in.x + (i % 2) * colw, y = ty + (i / 2) * u->lh;
        if (y + u->lh > in.y + in.h) break;
        dl_fill(u->l, (dl_rect){x, y + u->lh / 4, u->lh / 2, u->lh / 2}, warp_colour(th, p->sectors[i].warp));
        dl_text(u->l, (dl_rect){x + u->lh, y, colw - u->lh - u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT,
                p->sectors[i].sectors > p->sectors[i].sectors_min ? th->conflict : th->text, b);
    }
    dl_unclip(u->l);
}
