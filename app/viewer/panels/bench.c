#include "app/viewer/panels/internal.h"

/* ---------- benchmark view ---------- */

static int log2_of(uint64_t n)
{
    int k = 0;
    while (k < 63 && ((uint64_t)1 << k) < n) k++;
    return k;
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
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, th->text, b);
    snprintf(b, sizeof b, "%s.  %s", S(u, mode == RESULTS_BATCH ? STR_BENCH_MODE_BATCH : STR_BENCH_MODE_LAUNCH), res->date);
    dl_text(u->l, (dl_rect){in.x, in.y + u->blh, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
    const results_size *sz = results_size_at(res, n);
    int top = in.y + u->blh + u->lh;
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
    int cx[7];
    static const int share[6] = {16, 14, 30, 12, 13, 15}; /* % of the width per column */
    cx[0] = in.x;
    for (int c = 0; c < 6; c++) cx[c + 1] = cx[c] + in.w * share[c] / 100;
    for (int c = 0, k = 0; c < 6; c++) { /* the header, from "a|b|c..." */
        char h[64];
        size_t len = strcspn(cols + k, "|");
        snprintf(h, sizeof h, "%.*s", (int)len, cols + k);
        k += (int)len + (cols[k + (int)len] == '|');
        dl_text(u->l, (dl_rect){cx[c], top, cx[c + 1] - cx[c] - u->pad, u->lh}, DL_FONT_UI, u->px, c ? DL_RIGHT : DL_LEFT, th->dim, h);
    }
    const results_row *v0 = results_find_mode(res, "v0", n, mode), *prev = NULL;
    double maxg = res->spec_peak_gbs > 0 ? res->spec_peak_gbs : 1;
    int y = top + u->lh;
    if (res->spec_peak_gbs > 0) { /* red: the spec peak, where the bars' column ends (bars are drawn to its scale) */
        int numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "00000") + u->pad, xp = cx[2] + u->pad + (cx[3] - cx[2] - u->pad - numw);
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
        dl_text(u->l, (dl_rect){cx[0], ty, cx[1] - cx[0] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, th->text, row->name);
        if (!row->ok) {
            dl_text(u->l, (dl_rect){cx[1], ty, cx[6] - cx[1], u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, S(u, STR_BENCH_WRONG));
            y += lh;
            continue;
        }
        double us = row->ms * 1000.0;
        if (us < 1000) snprintf(b, sizeof b, "%.1f \xC2\xB5s", us);
        else snprintf(b, sizeof b, "%.3f ms", row->ms);
        dl_text(u->l, (dl_rect){cx[1], ty, cx[2] - cx[1] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->text, b);
        int numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "00000") + u->pad;
        int bw = (int)((cx[3] - cx[2] - u->pad - numw) * (row->gbs / maxg));
        dl_fill(u->l, (dl_rect){cx[2] + u->pad, y + 2, bw > 1 ? bw : 1, lh - 4}, c);
        snprintf(b, sizeof b, "%.0f", row->gbs);
        dl_text(u->l, (dl_rect){cx[2], ty, cx[3] - cx[2] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->text, b);
        if (is_version && prev && prev->ok) {
            snprintf(b, sizeof b, "%.2fx", prev->ms / row->ms);
            dl_text(u->l, (dl_rect){cx[3], ty, cx[4] - cx[3] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->text, b);
        }
        if (v0 && v0->ok && strcmp(row->name, "v0") && strcmp(row->name, "naive")) {
            snprintf(b, sizeof b, "%.1fx", v0->ms / row->ms);
            dl_text(u->l, (dl_rect){cx[4], ty, cx[5] - cx[4] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->text, b);
        }
        snprintf(b, sizeof b, "%.1f%%", 100.0 * row->gbs / maxg);
        dl_text(u->l, (dl_rect){cx[5], ty, cx[6] - cx[5] - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->text, b);
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
    /* GB/s against size: where each rung stops growing. Y axis with values, x axis with sizes. */
    dl_text(u->l, (dl_rect){x0, y, in.x + in.w - x0, u->lh}, DL_FONT_UI, u->px, DL_RIGHT, th->conflict, b);
    int cy = y;
    dl_rect ch = {x0, cy + u->lh, bw, in.y + in.h - cy - 2 * u->lh};
    if (ch.h < 4 * u->lh) return;
    dl_text(u->l, (dl_rect){in.x, cy, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_BENCH_BY_SIZE));
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
