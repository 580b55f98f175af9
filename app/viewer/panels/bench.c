#include "app/viewer/panels/internal.h"
#include "app/draw/wrap.h"

/* ---------- benchmark view ---------- */

static int log2_of(uint64_t n)
{
    int k = 0;
    while (k < 63 && ((uint64_t)1 << k) < n) k++;
    return k;
}

/* text wrapped to box's width, a line of box.h each, at most max lines (the last holds the rest);
 * returns the height drawn */
static int wrapped(ui *u, dl_rect box, int px, dl_colour c, const char *text, int max)
{
    const char *starts[4];
    size_t lens[4];
    if (max > 4) max = 4;
    int n = dl_wrap(u->l, DL_FONT_UI, px, text, box.w, starts, lens, max);
    for (int i = 0; i < n; i++) {
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(i == n - 1 && n == max ? strlen(starts[i]) : lens[i]), starts[i]);
        dl_text(u->l, (dl_rect){box.x, box.y + i * box.h, box.w, box.h}, DL_FONT_UI, px, DL_LEFT, c, line);
    }
    return n * box.h;
}

/* a table row's cells as drawn: name, time, GB/s, speed-up over the rung before, over v0, share of
 * the peak ("" where the row has none) */
enum { NCOLS = 6 };
typedef char bench_cells[NCOLS][32];

static void row_cells(const results_row *row, const results_row *prev, const results_row *v0, double maxg, bench_cells c)
{
    memset(c, 0, sizeof(bench_cells));
    snprintf(c[0], sizeof c[0], "%s", row->name);
    if (!row->ok) return;
    double us = row->ms * 1000.0;
    if (us < 1000) snprintf(c[1], sizeof c[1], "%.1f \xC2\xB5s", us);
    else snprintf(c[1], sizeof c[1], "%.3f ms", row->ms);
    snprintf(c[2], sizeof c[2], "%.0f", row->gbs);
    if (!strcmp(row->kind, "version") && prev && prev->ok) snprintf(c[3], sizeof c[3], "%.2fx", prev->ms / row->ms);
    if (v0 && v0->ok && strcmp(row->name, "v0") && strcmp(row->name, "naive")) snprintf(c[4], sizeof c[4], "%.1fx", v0->ms / row->ms);
    snprintf(c[5], sizeof c[5], "%.1f%%", 100.0 * row->gbs / maxg);
}

void draw_bench(ui *u, dl_rect r)
{
    const session *s = u->sc->s;
    const results *res = s->results;
    const theme *th = u->th;
    dl_rect in = panel(u, "bench", r, NULL);
    if (!res) { line_at(u, in, 0, th->text, DL_FONT_UI, S(u, STR_NO_RESULTS)); return; }
    uint64_t sizes[64];
    size_t nsz = results_sizes(res, sizes, 64);
    if (!nsz) { line_at(u, in, 0, th->text, DL_FONT_UI, S(u, STR_NO_RESULTS)); return; }
    results_mode mode = results_has_mode(res, (results_mode)s->bench_mode) ? (results_mode)s->bench_mode : RESULTS_LAUNCH;
    size_t si = s->bench_size < nsz ? s->bench_size : nsz - 1;
    uint64_t n = sizes[si];
    double bytes = 4.0 * (double)n;
    const char *unit = bytes >= 1e9 ? "GB" : bytes >= 1e6 ? "MB" : "kB";
    double shown = bytes >= 1e9 ? bytes / 1e9 : bytes >= 1e6 ? bytes / 1e6 : bytes / 1e3;
    char b[400];
    snprintf(b, sizeof b, S(u, STR_BENCH_TITLE), log2_of(n), shown, unit, res->device);
    int top = in.y + wrapped(u, (dl_rect){in.x, in.y, in.w, u->blh}, u->big, th->text, b, 3);
    snprintf(b, sizeof b, "%s.  %s", S(u, mode == RESULTS_BATCH ? STR_BENCH_MODE_BATCH : STR_BENCH_MODE_LAUNCH), res->date);
    top += wrapped(u, (dl_rect){in.x, top, in.w, u->lh}, u->px, th->dim, b, 3);
    const results_size *sz = results_size_at(res, n);
    if (sz && sz->latency_bound) {
        dl_text(u->l, (dl_rect){in.x, top, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, S(u, STR_BENCH_LATENCY));
        top += u->lh;
    }
    top += u->pad;
    /* Harris's table: a row per kernel, its time, GB/s (with a bar), the speed-up over the rung
     * before and over v0, and the share of the spec peak */
    const results_row *rows[64];
    /* the chart's series: the rungs where the curve changes shape, the libraries, the ceiling */
    static const char *const series[] = {"v0", "v3", "v6", "v8", "cub", "thrust", "best-read"};
    enum { NSERIES = sizeof series / sizeof *series };
    size_t nr = results_rows_at(res, n, mode, rows, 64), shown_rows = 0;
    for (size_t i = 0; i < nr; i++) shown_rows += strcmp(rows[i]->name, "d2d-copy") != 0;
    int chart_h = (in.y + in.h - top) * 2 / 5, chart_least = 8 * u->lh;
    if (chart_h < chart_least) chart_h = chart_least;
    int lh = shown_rows ? (in.y + in.h - top - chart_h - u->lh) / (int)(shown_rows + 1) : u->lh;
    if (lh < u->lh) { /* large text (presenter mode): the table keeps the chart's series, the chart stays */
        size_t k = 0;
        for (size_t i = 0; i < nr; i++)
            for (int q = 0; q < NSERIES; q++)
                if (!strcmp(rows[i]->name, series[q])) { rows[k++] = rows[i]; break; }
        nr = shown_rows = k;
        lh = (in.y + in.h - top - chart_h - u->lh) / (int)(shown_rows + 1);
    }
    if (lh > u->lh + 6) lh = u->lh + 6;
    if (lh < u->lh) { chart_h = 0; lh = u->lh; } /* a small window: the table first */
    const char *cols = S(u, STR_BENCH_COLS);
    char head[NCOLS][64];
    for (int c = 0, k = 0; c < NCOLS; c++) { /* the header, from "a|b|c..." */
        size_t len = strcspn(cols + k, "|");
        snprintf(head[c], sizeof head[c], "%.*s", (int)len, cols + k);
        k += (int)len + (cols[k + (int)len] == '|');
    }
    const results_row *v0 = results_find_mode(res, "v0", n, mode), *prev = NULL;
    double maxg = res->spec_peak_gbs > 0 ? res->spec_peak_gbs : 1;
    /* each column as wide as its header and its widest cell; where the panel has no room for all, the
     * speed-up over the rung before goes first, then the share of the peak (the bars and the red line
     * show it), then the speed-up over v0; the GB/s bars take what is left */
    int need[NCOLS], numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "00000") + u->pad;
    for (int c = 0; c < NCOLS; c++) need[c] = dl_text_width(u->l, DL_FONT_UI, u->px, head[c]);
    for (size_t i = 0; i < nr; i++) {
        if (!strcmp(rows[i]->name, "d2d-copy")) continue;
        bench_cells cell;
        row_cells(rows[i], prev, v0, maxg, cell);
        if (!strcmp(rows[i]->kind, "version")) prev = rows[i];
        for (int c = 0; c < NCOLS; c++) {
            int tw = dl_text_width(u->l, DL_FONT_MONO, u->px, cell[c]);
            if (tw > need[c]) need[c] = tw;
        }
    }
    if (need[2] < numw + 2 * u->lh) need[2] = numw + 2 * u->lh;
    static const int share[NCOLS] = {16, 14, 30, 12, 13, 15}; /* % of the width per column, where each fits its share */
    int keep[NCOLS] = {1, 1, 1, 1, 1, 1}, total = 0, gap = u->pad + u->digit, shares_fit = 1;
    for (int c = 0; c < NCOLS; c++) shares_fit &= in.w * share[c] / 100 >= need[c] + gap;
    for (int c = 0; c < NCOLS; c++) total += need[c] + gap;
    static const int drop[] = {3, 5, 4};
    for (size_t d = 0; d < sizeof drop / sizeof *drop && total > in.w && !shares_fit; d++) keep[drop[d]] = 0, total -= need[drop[d]] + gap;
    int cx[NCOLS + 1];
    cx[0] = in.x;
    for (int c = 0; c < NCOLS; c++)
        cx[c + 1] = cx[c] + (shares_fit ? in.w * share[c] / 100 : keep[c] ? need[c] + gap + (c == 2 && total < in.w ? in.w - total : 0) : 0);
    for (int c = 0; c < NCOLS; c++)
        if (keep[c]) dl_text(u->l, (dl_rect){cx[c], top, cx[c + 1] - cx[c] - u->pad, u->lh}, DL_FONT_UI, u->px, c ? DL_RIGHT : DL_LEFT, th->dim, head[c]);
    prev = NULL;
    int y = top + u->lh;
    if (res->spec_peak_gbs > 0) { /* red: the spec peak, where the bars' column ends (bars are drawn to its scale) */
        int xp = cx[2] + u->pad + (cx[3] - cx[2] - u->pad - numw);
        int rows_h = 0;
        for (size_t i = 0; i < nr; i++) rows_h += strcmp(rows[i]->name, "d2d-copy") != 0;
        rows_h *= lh;
        if (y + rows_h > in.y + in.h - chart_h) rows_h = in.y + in.h - chart_h - y;
        dl_fill(u->l, (dl_rect){xp, y, 2, rows_h > 0 ? rows_h : 0}, th->conflict);
    }
    for (size_t i = 0; i < nr && y + lh <= in.y + in.h - chart_h; i++) {
        const results_row *row = rows[i];
        if (!strcmp(row->name, "d2d-copy")) continue;
        int is_version = !strcmp(row->kind, "version"), is_lib = !strcmp(row->kind, "library");
        dl_colour c = is_lib ? th->diverged : is_version || !strcmp(row->kind, "kernel") ? th->working : th->dim;
        int ty = y + (lh - u->lh) / 2;
        bench_cells cell;
        row_cells(row, prev, v0, maxg, cell);
        dl_text(u->l, (dl_rect){cx[0], ty, cx[1] - cx[0] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, th->text, cell[0]);
        if (!row->ok) {
            dl_text(u->l, (dl_rect){cx[1], ty, cx[NCOLS] - cx[1], u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, S(u, STR_BENCH_WRONG));
            y += lh;
            continue;
        }
        int bw = (int)((cx[3] - cx[2] - u->pad - numw) * (row->gbs / maxg));
        dl_fill(u->l, (dl_rect){cx[2] + u->pad, y + 2, bw > 1 ? bw : 1, lh - 4}, c);
        for (int k = 1; k < NCOLS; k++)
            if (keep[k] && cell[k][0])
                dl_text(u->l, (dl_rect){cx[k], ty, cx[k + 1] - cx[k] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->text, cell[k]);
        if (is_version) prev = row;
        y += lh;
    }
    if (chart_h < 4 * u->lh) return;
    const results_row *ceil_row = results_find_mode(res, "best-read", n, mode);
    int label_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "0000") + u->pad, x0 = in.x + label_w;
    int legend_w = 0; /* the chart leaves room for the legend's widest name, after its swatch */
    for (int q = 0; q < NSERIES; q++) {
        int tw = dl_text_width(u->l, DL_FONT_MONO, u->px, series[q]);
        if (tw > legend_w) legend_w = tw;
    }
    int bw = in.w - label_w - legend_w - u->lh - 3 * u->pad;
    maxg = res->spec_peak_gbs * 1.05;
    if (maxg <= 0) maxg = 1;
    snprintf(b, sizeof b, S(u, STR_BENCH_SPEC), res->spec_peak_gbs);
    if (ceil_row && ceil_row->ok) {
        size_t len = strlen(b);
        snprintf(b + len, sizeof b - len, "   ");
        snprintf(b + strlen(b), sizeof b - strlen(b), S(u, STR_BENCH_CEILING), ceil_row->gbs);
    }
    y = in.y + in.h - chart_h;
    /* GB/s against size: where each rung stops growing. Y axis with values, x axis with sizes. The
     * peak and the ceiling stand right of the title where both fit on its line, else below it. */
    const char *by_size = S(u, STR_BENCH_BY_SIZE);
    int title_w = dl_text_width(u->l, DL_FONT_UI, u->px, by_size) + 2 * u->pad, cy = y + u->lh;
    if (title_w + dl_text_width(u->l, DL_FONT_UI, u->px, b) <= in.w)
        dl_text(u->l, (dl_rect){in.x + title_w, y, in.w - title_w, u->lh}, DL_FONT_UI, u->px, DL_RIGHT, th->conflict, b);
    else
        cy += wrapped(u, (dl_rect){in.x, y + u->lh, in.w, u->lh}, u->px, th->conflict, b, 3);
    dl_rect ch = {x0, cy, bw, in.y + in.h - cy - u->lh};
    if (ch.h < 4 * u->lh) return;
    dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, by_size);
    dl_fill(u->l, ch, th->background);
    /* about five to ten lines whatever the range a results file holds: 1, 2 or 5 times a power of ten */
    double tick = pow(10, floor(log10(maxg > 1 ? maxg / 5 : 1)));
    if (maxg / tick > 25) tick *= 5;
    else if (maxg / tick > 10) tick *= 2;
    while (tick < maxg && tick / maxg * (ch.h - 1) < u->lh) tick *= 2; /* a short chart (large text): labels a line apart at least */
    for (double v = 0; v <= maxg; v += tick) {
        int yy = ch.y + ch.h - 1 - (int)(v / maxg * (ch.h - 1));
        dl_fill(u->l, (dl_rect){ch.x, yy, ch.w, 1}, th->grid);
        if (yy - u->lh / 2 >= ch.y && yy + u->lh / 2 <= ch.y + ch.h)
            dl_textf(u->l, (dl_rect){in.x, yy - u->lh / 2, label_w - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->dim, "%.0f", v);
    }
    if (res->spec_peak_gbs > 0) { /* red: the spec peak */
        int yy = ch.y + ch.h - 1 - (int)(res->spec_peak_gbs / maxg * (ch.h - 1));
        dl_fill(u->l, (dl_rect){ch.x, yy - 1, ch.w, 2}, th->conflict);
    }
    const dl_colour colours[NSERIES] = {th->write, th->barrier, th->read, th->working, th->diverged, th->text, th->dim};
    int ly = ch.y;
    int legend_x = ch.x + ch.w + u->pad;
    for (size_t q = 0; q < NSERIES; q++) {
        int px = -1, py = -1;
        for (size_t i = 0; i < nsz; i++) {
            const results_row *row = results_find_mode(res, series[q], sizes[i], mode);
            if (!row || !row->ok) continue;
            int x = ch.x + (int)((double)i / (double)(nsz > 1 ? nsz - 1 : 1) * (ch.w - 1));
            int yy = ch.y + ch.h - 1 - (int)(row->gbs / maxg * (ch.h - 1));
            if (px >= 0) dl_line(u->l, px, py, x, yy, colours[q], 2);
            dl_fill(u->l, (dl_rect){x - 3, yy - 3, 7, 7}, colours[q]);
            px = x;
            py = yy;
        }
        if (ly + u->lh <= ch.y + ch.h) {
            dl_fill(u->l, (dl_rect){legend_x, ly + u->lh / 4, u->lh / 2, u->lh / 2}, colours[q]);
            dl_text(u->l, (dl_rect){legend_x + u->lh, ly, in.x + in.w - legend_x - u->lh, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, th->text, series[q]);
            ly += u->lh;
        }
    }
    /* x labels: every k-th size, so that they never touch */
    int lw = dl_text_width(u->l, DL_FONT_MONO, u->px, "2^30") + u->pad, every = 1;
    double spacing = nsz > 1 ? (double)(ch.w - 1) / (double)(nsz - 1) : ch.w;
    while (every < (int)nsz && every * spacing < lw) every++;
    for (size_t i = 0; i < nsz; i += (size_t)every) {
        int x = ch.x + (int)((double)i * spacing);
        dl_textf(u->l, (dl_rect){x - lw / 2, ch.y + ch.h + 2, lw, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, i == si ? th->text : th->dim,
                 "2^%d", log2_of(sizes[i]));
    }
}
