/* ui: the panels. See ui.h. Colours come from the theme (Okabe-Ito); text is drawn from a glyph
 * atlas made once per font size, so a frame blits rectangles and allocates nothing. */
#include "ui.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ladder.h"

/* ---------- fonts ---------- */

static int font_open(ui_font *f, const char *path, int px, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->ttf = TTF_OpenFont(path, px);
    if (!f->ttf) { snprintf(err, errlen, "%s: cannot open font: %s", path, TTF_GetError()); return -1; }
    int minx, maxx, miny, maxy, adv;
    TTF_GlyphMetrics(f->ttf, 'M', &minx, &maxx, &miny, &maxy, &adv);
    f->w = adv;
    f->h = TTF_FontLineSkip(f->ttf);
    return 0;
}

static void font_close(ui_font *f)
{
    for (int i = 0; i < f->natlas; i++) SDL_DestroyTexture(f->atlas[i].tex);
    if (f->ttf) TTF_CloseFont(f->ttf);
    memset(f, 0, sizeof *f);
}

static int same(SDL_Color a, SDL_Color b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static SDL_Texture *atlas_for(SDL_Renderer *r, ui_font *f, SDL_Color fg, SDL_Color bg)
{
    for (int i = 0; i < f->natlas; i++)
        if (same(f->atlas[i].fg, fg) && same(f->atlas[i].bg, bg)) return f->atlas[i].tex;
    char glyphs[96];
    for (int i = 0; i < 95; i++) glyphs[i] = (char)(32 + i);
    glyphs[95] = '\0';
    SDL_Surface *s = TTF_RenderUTF8_Shaded(f->ttf, glyphs, fg, bg);
    if (!s) return NULL;
    SDL_Texture *t = SDL_CreateTextureFromSurface(r, s);
    SDL_FreeSurface(s);
    if (!t) return NULL;
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_NONE);
    if (f->natlas == UI_ATLASES) { /* more colour pairs than expected: recycle the oldest */
        SDL_DestroyTexture(f->atlas[0].tex);
        memmove(&f->atlas[0], &f->atlas[1], (UI_ATLASES - 1) * sizeof f->atlas[0]);
        f->natlas--;
    }
    f->atlas[f->natlas].fg = fg;
    f->atlas[f->natlas].bg = bg;
    f->atlas[f->natlas].tex = t;
    f->natlas++;
    return t;
}

int ui_assets_init(ui_assets *a, SDL_Renderer *r, const char *font_path, int px, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->r = r;
    a->px = px;
    if (font_open(&a->font, font_path, px, err, errlen) || font_open(&a->big, font_path, px * 3 / 2, err, errlen)) {
        ui_assets_free(a);
        return -1;
    }
    return 0;
}

void ui_assets_free(ui_assets *a)
{
    font_close(&a->font);
    font_close(&a->big);
}

/* Draws text in fg on bg, clipped to max_w pixels (0: no limit); returns the width drawn. */
static int text(ui_assets *a, ui_font *f, int x, int y, int max_w, SDL_Color fg, SDL_Color bg, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
static int text(ui_assets *a, ui_font *f, int x, int y, int max_w, SDL_Color fg, SDL_Color bg, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    SDL_Texture *atlas = atlas_for(a->r, f, fg, bg);
    if (!atlas) return 0;
    int cx = x;
    for (const unsigned char *p = (const unsigned char *)buf; *p; p++) {
        if (max_w > 0 && cx + f->w > x + max_w) break;
        int g = (*p >= 32 && *p < 127) ? *p - 32 : '?' - 32;
        SDL_Rect src = {g * f->w, 0, f->w, f->h}, dst = {cx, y, f->w, f->h};
        SDL_RenderCopy(a->r, atlas, &src, &dst);
        cx += f->w;
    }
    return cx - x;
}

static void fill(ui_assets *a, SDL_Rect r, SDL_Color c)
{
    SDL_SetRenderDrawColor(a->r, c.r, c.g, c.b, 255);
    SDL_RenderFillRect(a->r, &r);
}

static void frame(ui_assets *a, SDL_Rect r, SDL_Color c, int thick)
{
    SDL_SetRenderDrawColor(a->r, c.r, c.g, c.b, 255);
    for (int i = 0; i < thick; i++) {
        SDL_Rect q = {r.x + i, r.y + i, r.w - 2 * i, r.h - 2 * i};
        if (q.w > 0 && q.h > 0) SDL_RenderDrawRect(a->r, &q);
    }
}

/* ---------- layout ---------- */

typedef struct layout {
    SDL_Rect title, source, stats, memory, lanes, banks, timeline;
} layout;

static int footer_h(const ui_assets *a) { return 3 * a->font.h + 8; }

static void layout_pane(const ui_state *s, const ui_assets *a, int p, int w, int h, layout *L)
{
    int x0 = s->compare ? p * (w / 2) : 0, pw = s->compare ? w / 2 : w;
    int fh = a->font.h, top = a->big.h + fh + 6, tl = 2 * fh + 6;
    int body = h - footer_h(a) - top - tl;
    if (body < 40) body = 40;
    L->title = (SDL_Rect){x0 + 6, 2, pw - 12, top - 4};
    L->timeline = (SDL_Rect){x0 + 6, top + body, pw - 12, tl - 4};
    if (!s->compare) {
        int lw = pw * 38 / 100;
        L->source = (SDL_Rect){x0 + 6, top, lw - 9, body * 60 / 100 - 4};
        L->stats = (SDL_Rect){x0 + 6, top + body * 60 / 100, lw - 9, body - body * 60 / 100 - 4};
        int rx = x0 + lw, rw = pw - lw - 6;
        L->memory = (SDL_Rect){rx, top, rw, body * 42 / 100 - 4};
        L->lanes = (SDL_Rect){rx, top + body * 42 / 100, rw, body * 34 / 100 - 4};
        L->banks = (SDL_Rect){rx, top + body * 76 / 100, rw, body - body * 76 / 100 - 4};
    } else {
        int y = top, cut[5] = {17, 24, 20, 14, 25}; /* source, memory, lanes, banks, stats (% of body) */
        SDL_Rect *r[5] = {&L->source, &L->memory, &L->lanes, &L->banks, &L->stats};
        for (int i = 0; i < 5; i++) {
            int hh = body * cut[i] / 100;
            *r[i] = (SDL_Rect){x0 + 6, y, pw - 12, hh - 4};
            y += hh;
        }
    }
}

/* grid geometry of the memory and lane panels: cells of cw x ch below a header line */
typedef struct grid {
    int x, y, cw, ch, cols, rows, label_w;
} grid;

static grid memory_grid(const ui_assets *a, const SDL_Rect *r, size_t nwords)
{
    grid g;
    g.cols = 32;
    g.rows = (int)((nwords + 31) / 32);
    if (g.rows < 1) g.rows = 1;
    g.label_w = a->font.w * 5;
    g.x = r->x + g.label_w;
    g.y = r->y + a->font.h + 2;
    g.cw = (r->w - g.label_w) / 32;
    g.ch = (r->h - a->font.h - 4) / g.rows;
    if (g.ch > a->font.h + 6) g.ch = a->font.h + 6;
    if (g.cw < 2) g.cw = 2;
    if (g.ch < 2) g.ch = 2;
    return g;
}

static grid lane_grid(const ui_assets *a, const SDL_Rect *r, unsigned nwarps)
{
    grid g;
    g.cols = 32;
    g.rows = (int)nwarps;
    g.label_w = a->font.w * 4;
    g.x = r->x + g.label_w;
    g.y = r->y + a->font.h + 2;
    g.cw = (r->w - g.label_w) / 32;
    g.ch = (r->h - a->font.h - 4) / (g.rows ? g.rows : 1);
    if (g.ch > a->font.h + 4) g.ch = a->font.h + 4;
    if (g.cw < 2) g.cw = 2;
    if (g.ch < 2) g.ch = 2;
    return g;
}

static SDL_Rect cell(const grid *g, int i)
{
    return (SDL_Rect){g->x + (i % g->cols) * g->cw, g->y + (i / g->cols) * g->ch, g->cw - 1, g->ch - 1};
}

static int inside(const SDL_Rect *r, int x, int y) { return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h; }

/* ---------- per-step facts used by several panels ---------- */

/* lanes: each thread's state; touched: per shared word, 1 read, 2 written in this step;
 * worst_event: the shared access of this step with the highest conflict degree */
typedef ui_scratch step_view;

static void step_facts(const view_model *m, size_t s, step_view *sv)
{
    view_lanes(m, s, sv->lanes);
    memset(sv->touched, 0, sizeof sv->touched);
    sv->worst_event = -1;
    sv->worst_degree = 0;
    if (s >= m->nsteps) return;
    const view_step *st = &m->steps[s];
    for (size_t i = 0; i < st->count; i++) {
        size_t ei = m->order[st->first + i];
        const trace_event *e = &m->t->events[ei];
        if (e->kind != TRACE_SHARED_LOAD && e->kind != TRACE_SHARED_STORE) continue;
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++) {
            int64_t wd = m->t->lane_addr[e->lanes + (size_t)j];
            if (wd >= 0 && wd < 1024) sv->touched[wd] = e->kind == TRACE_SHARED_STORE ? 2 : 1;
        }
        if (m->facts[ei].bank_degree > sv->worst_degree) {
            sv->worst_degree = m->facts[ei].bank_degree;
            sv->worst_event = (int)ei;
        }
    }
}

static SDL_Color lane_colour(const ui_theme *th, int state)
{
    switch (state) {
    case VIEW_LANE_WORKING: return th->working;
    case VIEW_LANE_DIVERGED: return th->diverged;
    case VIEW_LANE_BARRIER: return th->barrier;
    case VIEW_LANE_EXITED: return th->exited;
    default: return th->idle;
    }
}

/* ---------- panels ---------- */

static void panel_box(ui_assets *a, const ui_theme *th, SDL_Rect r, const char *title)
{
    fill(a, r, th->panel);
    text(a, &a->font, r.x + 4, r.y + 1, r.w - 8, th->dim, th->panel, "%s", title);
}

static void draw_source(ui_assets *a, const ui_theme *th, const ui_pane *p, SDL_Rect r)
{
    const view_model *m = p->m;
    unsigned line = p->step < m->nsteps ? m->steps[p->step].line : 0;
    char title[128];
    snprintf(title, sizeof title, "%s  (line %u)", m->t->prov.source, line);
    panel_box(a, th, r, title);
    if (!p->source) {
        text(a, &a->font, r.x + 4, r.y + a->font.h + 4, r.w - 8, th->text, th->panel, "source not available");
        return;
    }
    int fh = a->font.h, rows = (r.h - fh - 4) / fh;
    int first = (int)line - rows / 2;
    if (first < 1) first = 1;
    const char *q = p->source;
    for (int ln = 1; *q && ln < first; ln++) {
        const char *nl = strchr(q, '\n');
        q = nl ? nl + 1 : q + strlen(q);
    }
    for (int i = 0, ln = first; i < rows && *q; i++, ln++) {
        const char *nl = strchr(q, '\n');
        int len = nl ? (int)(nl - q) : (int)strlen(q);
        int y = r.y + fh + 2 + i * fh;
        if ((unsigned)ln == line) fill(a, (SDL_Rect){r.x + 2, y, r.w - 4, fh}, th->line);
        char buf[256];
        int k = 0;
        for (int c = 0; c < len && k < (int)sizeof buf - 1; c++) {
            if (q[c] == '\t') { buf[k++] = ' '; continue; }
            buf[k++] = q[c];
        }
        buf[k] = '\0';
        text(a, &a->font, r.x + 4, y, 0, th->dim, th->panel, "%3d", ln);
        text(a, &a->font, r.x + 4 + a->font.w * 4, y, r.w - 8 - a->font.w * 4, th->text, (unsigned)ln == line ? th->line : th->panel, "%s", buf);
        q = nl ? nl + 1 : q + len;
    }
}

static void draw_memory(ui_assets *a, const ui_theme *th, const ui_pane *p, SDL_Rect r, const step_view *sv,
                        const float *cells, const unsigned char *written, const unsigned char *tree, int hover_word)
{
    const view_model *m = p->m;
    if (m->nwords == 0) {
        panel_box(a, th, r, "shared memory");
        text(a, &a->font, r.x + 4, r.y + a->font.h + 4, r.w - 8, th->text, th->panel,
             "this version keeps its data in global memory and registers");
        return;
    }
    panel_box(a, th, r, "shared memory: 4-byte words, one column per bank; edges = this phase's additions");
    grid g = memory_grid(a, &r, m->nwords);
    for (int row = 0; row < g.rows; row++)
        text(a, &a->font, r.x + 2, g.y + row * g.ch + (g.ch - a->font.h) / 2, g.label_w, th->dim, th->panel, "%4d", row * 32);
    for (size_t i = 0; i < m->nwords && i < 1024; i++) {
        SDL_Rect c = cell(&g, (int)i);
        SDL_Color bg = written[i] ? th->background : th->idle;
        if (sv->touched[i] == 1) bg = th->read;
        if (sv->touched[i] == 2) bg = th->write;
        fill(a, c, bg);
        if (tree && tree[i]) frame(a, c, th->subtree, 2);
        if ((int)i == hover_word) frame(a, c, th->text, 1);
        if (written[i] && a->font.h <= c.h + 2 && a->font.w * 2 <= c.w) { /* values only where they fit */
            char v[16];
            snprintf(v, sizeof v, "%.6g", (double)cells[i]);
            int len = (int)strlen(v);
            if (len * a->font.w <= c.w && a->font.h <= c.h + 2)
                text(a, &a->font, c.x + (c.w - len * a->font.w) / 2, c.y + (c.h - a->font.h) / 2, c.w, th->text, bg, "%s", v);
        }
    }
    /* the tree's edges of the current phase: from the cell added, to the cell it went into */
    unsigned phase = p->step < m->nsteps ? m->steps[p->step].phase : 0;
    SDL_SetRenderDrawColor(a->r, th->tree.r, th->tree.g, th->tree.b, 255);
    for (size_t i = 0; i < m->nedges; i++) {
        const analysis_edge *e = &m->edges[i];
        if (e->buf != -1 || e->phase != phase || e->from >= 1024 || e->to >= 1024 || e->from < 0 || e->to < 0) continue;
        SDL_Rect f = cell(&g, (int)e->from), t = cell(&g, (int)e->to);
        int x1 = f.x + f.w / 2, y1 = f.y + f.h - 2, x2 = t.x + t.w / 2, y2 = t.y + t.h - 2;
        SDL_RenderDrawLine(a->r, x1, y1, x2, y2);
        SDL_RenderDrawLine(a->r, x1, y1 + 1, x2, y2 + 1);
        SDL_Rect dot = {x2 - 2, y2 - 2, 5, 5};
        SDL_RenderFillRect(a->r, &dot);
    }
}

static void draw_lanes(ui_assets *a, const ui_theme *th, const ui_pane *p, SDL_Rect r, const step_view *sv)
{
    const view_model *m = p->m;
    panel_box(a, th, r, "threads: one row per warp, one cell per lane");
    grid g = lane_grid(a, &r, m->nwarps);
    for (unsigned w = 0; w < m->nwarps; w++) {
        if (g.ch >= a->font.h - 2) text(a, &a->font, r.x + 2, g.y + (int)w * g.ch + (g.ch - a->font.h) / 2, g.label_w, th->dim, th->panel, "w%u", w);
        for (unsigned l = 0; l < 32; l++) {
            unsigned tid = w * 32 + l;
            if (tid >= m->threads) break;
            fill(a, cell(&g, (int)tid), lane_colour(th, sv->lanes[tid]));
        }
    }
}

static void draw_banks(ui_assets *a, const ui_theme *th, const ui_pane *p, SDL_Rect r, const step_view *sv)
{
    const view_model *m = p->m;
    if (sv->worst_event < 0) {
        panel_box(a, th, r, "banks: no shared-memory access in this step");
        return;
    }
    const trace_event *e = &m->t->events[sv->worst_event];
    char title[160];
    int deg = sv->worst_degree;
    snprintf(title, sizeof title, "banks: warp %u's %s, conflict degree %d (%d extra wavefront%s)", e->warp,
             e->kind == TRACE_SHARED_LOAD ? "load" : "store", deg, deg - 1, deg - 1 == 1 ? "" : "s");
    panel_box(a, th, r, title);
    /* per bank, the distinct words asked for and by which lanes */
    int64_t words[32][32];
    int count[32] = {0};
    int n = trace_popcount(e->mask);
    for (int j = 0; j < n; j++) {
        int64_t wd = m->t->lane_addr[e->lanes + (size_t)j];
        int b = (int)(wd % 32), seen = 0;
        for (int k = 0; k < count[b]; k++) seen |= words[b][k] == wd;
        if (!seen && count[b] < 32) words[b][count[b]++] = wd;
    }
    int top = r.y + a->font.h + 2, avail = r.h - 2 * a->font.h - 6;
    int cw = (r.w - 8) / 32, bh = deg ? avail / deg : avail;
    if (bh > a->font.h + 4) bh = a->font.h + 4;
    for (int b = 0; b < 32; b++) {
        int x = r.x + 4 + b * cw;
        for (int k = 0; k < count[b]; k++) {
            SDL_Rect c = {x, top + k * bh, cw - 1, bh - 1};
            fill(a, c, count[b] > 1 ? th->conflict : th->working);
            if (a->font.w * 4 <= cw && a->font.h <= bh + 2)
                text(a, &a->font, c.x + 1, c.y, cw - 2, th->background, count[b] > 1 ? th->conflict : th->working, "%lld", (long long)words[b][k]);
        }
        if (cw >= a->font.w * 2) text(a, &a->font, x, r.y + r.h - a->font.h - 1, cw, th->dim, th->panel, "%d", b);
    }
}

static void draw_stats(ui_assets *a, const ui_theme *th, const ui_pane *p, SDL_Rect r)
{
    const view_model *m = p->m;
    panel_box(a, th, r, "so far in this block");
    view_counts c;
    view_counts_at(m, p->step, &c);
    const view_step *st = p->step < m->nsteps ? &m->steps[p->step] : NULL;
    int y = r.y + a->font.h + 2, fh = a->font.h, x = r.x + 4, w = r.w - 8;
    const trace_provenance *pv = &m->t->prov;
    text(a, &a->font, x, y, w, th->text, th->panel, "phase %u of %u, step %zu of %zu", st ? st->phase + 1 : 0, m->nphases,
         p->step + 1, m->nsteps);
    y += fh;
    if (st)
        text(a, &a->font, x, y, w, th->text, th->panel, "line %u: %s, %zu warp%s", st->line, trace_kind_label((trace_kind)st->kind),
             st->count, st->count == 1 ? "" : "s");
    y += fh;
    text(a, &a->font, x, y, w, th->text, th->panel, "active threads this phase: %u of %u", c.active_threads_phase, m->threads);
    y += fh;
    text(a, &a->font, x, y, w, th->text, th->panel, "SIMD efficiency: %.1f%%",
         c.warp_instructions ? 100.0 * (double)c.active_lanes / (32.0 * (double)c.warp_instructions) : 0.0);
    y += fh;
    text(a, &a->font, x, y, w, th->text, th->panel, "divergent warp instructions: %llu of %llu", (unsigned long long)c.divergent,
         (unsigned long long)c.warp_instructions);
    y += fh;
    text(a, &a->font, x, y, w, c.conflicts_load + c.conflicts_store ? th->conflict : th->text, th->panel,
         "bank conflicts (extra wavefronts): %llu ld, %llu st", (unsigned long long)c.conflicts_load,
         (unsigned long long)c.conflicts_store);
    y += fh;
    text(a, &a->font, x, y, w, th->text, th->panel, "barriers: %llu   global sectors: %llu (fewest %llu)",
         (unsigned long long)c.barriers, (unsigned long long)c.sectors, (unsigned long long)c.sectors_min);
    y += fh;
    text(a, &a->font, x, y, w, th->text, th->panel, "result %.9g, reference %.9g", (double)m->t->result, m->t->reference);
    y += fh;
    text(a, &a->font, x, y, w, th->dim, th->panel, "%s (%s), block %u, n %llu, %s", pv->device, pv->backend, pv->block,
         (unsigned long long)pv->n, pv->data);
}

static void draw_timeline(ui_assets *a, const ui_theme *th, const ui_pane *p, SDL_Rect r)
{
    const view_model *m = p->m;
    fill(a, r, th->panel);
    int bar_y = r.y + a->font.h + 2, bar_h = r.h - a->font.h - 4;
    SDL_Rect bar = {r.x + 4, bar_y, r.w - 8, bar_h > 4 ? bar_h : 4};
    fill(a, bar, th->idle);
    size_t ns = m->nsteps ? m->nsteps : 1;
    for (unsigned ph = 0; ph < m->nphases; ph++) {
        long s0 = view_phase_first(m, ph);
        if (s0 < 0) continue;
        int x = bar.x + (int)((double)s0 / (double)ns * bar.w);
        fill(a, (SDL_Rect){x, bar.y - 3, 2, bar.h + 3}, th->dim);
    }
    int px = bar.x + (int)((double)(p->step + 1) / (double)ns * bar.w);
    fill(a, (SDL_Rect){bar.x, bar.y, px - bar.x, bar.h}, th->accent);
    text(a, &a->font, r.x + 4, r.y, r.w - 8, th->dim, th->panel, "timeline: %zu steps, ticks mark the %u phases%s", m->nsteps,
         m->nphases, m->fine ? " (warp by warp)" : "");
}

/* ---------- benchmark view ---------- */

static void draw_bench(const ui_state *s, ui_assets *a, int w, int h)
{
    const ui_theme *th = s->theme;
    const results *res = s->results;
    if (!res) {
        text(a, &a->big, 20, 20, w - 40, th->text, th->background, "no benchmark results loaded");
        return;
    }
    uint64_t sizes[64];
    size_t nsz = results_sizes(res, sizes, 64);
    size_t si = s->bench_size < nsz ? s->bench_size : nsz - 1;
    uint64_t n = sizes[si];
    int k = 0;
    while (((uint64_t)1 << k) < n) k++;
    double bytes = 4.0 * (double)n;
    const char *unit = bytes >= 1e9 ? "GB" : bytes >= 1e6 ? "MB" : "kB";
    double shown = bytes >= 1e9 ? bytes / 1e9 : bytes >= 1e6 ? bytes / 1e6 : bytes / 1e3;
    text(a, &a->big, 20, 8, w - 40, th->text, th->background, "Reduction of 2^%d floats (%.3g %s) on %s", k, shown, unit,
         res->device);
    text(a, &a->font, 20, 8 + a->big.h, w - 40, th->dim, th->background,
         "GB/s = bytes read / median time of %d runs; driver %s; toolkit %s; %s. Left/Right: size. B: back.", res->reps,
         res->driver, res->toolkit, res->date);
    const results_row *v0 = results_find(res, "v0", n), *ceil_row = results_find(res, "read-ceiling", n);
    double maxg = res->spec_peak_gbs * 1.05;
    int top = 16 + a->big.h + 2 * a->font.h, rows = 0;
    for (size_t i = 0; i < res->nrows; i++)
        if (res->rows[i].n == n && strcmp(res->rows[i].name, "d2d-copy") != 0) rows++;
    int chart_h = (h - top - footer_h(a)) * 2 / 5; /* the line chart below the bars */
    int lh = (h - top - footer_h(a) - chart_h - 2 * a->font.h) / (rows ? rows : 1);
    if (lh > a->big.h + 8) lh = a->big.h + 8;
    int label_w = a->big.w * 13, x0 = 20 + label_w, bw = w - x0 - 20 - a->font.w * 24;
    int y = top;
    for (size_t i = 0; i < res->nrows; i++) {
        const results_row *r = &res->rows[i];
        if (r->n != n || strcmp(r->name, "d2d-copy") == 0) continue;
        int is_lib = !strcmp(r->name, "cub") || !strcmp(r->name, "thrust"), is_ceil = !strcmp(r->name, "read-ceiling");
        SDL_Color c = is_lib ? th->diverged : is_ceil ? th->dim : th->working;
        text(a, &a->big, 20, y + (lh - a->big.h) / 2, label_w, th->text, th->background, "%s", r->name);
        if (r->ok) {
            int len = (int)(r->gbs / maxg * bw);
            fill(a, (SDL_Rect){x0, y + 2, len > 1 ? len : 1, lh - 4}, c);
            char vs[24] = "";
            if (v0 && v0->ok && strcmp(r->name, "v0") != 0) snprintf(vs, sizeof vs, "  %.1fx v0", v0->ms / r->ms);
            text(a, &a->font, x0 + len + 6, y + (lh - a->font.h) / 2, 0, th->text, th->background, "%.0f GB/s%s", r->gbs, vs);
        } else {
            text(a, &a->font, x0 + 6, y + (lh - a->font.h) / 2, 0, th->conflict, th->background, "wrong result: not timed");
        }
        y += lh;
    }
    /* the read ceiling measured in the same run, and the spec peak from the device attributes */
    int xs = x0 + (int)(res->spec_peak_gbs / maxg * bw);
    fill(a, (SDL_Rect){xs, top - 4, 3, y - top + 8}, th->conflict);
    text(a, &a->font, xs - a->font.w * 8, y + 4, 0, th->conflict, th->background, "spec peak %.0f GB/s", res->spec_peak_gbs);
    if (ceil_row && ceil_row->ok) {
        int xc = x0 + (int)(ceil_row->gbs / maxg * bw);
        fill(a, (SDL_Rect){xc, top - 4, 2, y - top + 8}, th->accent);
        int lx = xc - a->font.w * 34;
        text(a, &a->font, lx < 4 ? 4 : lx, y + 4 + a->font.h, 0, th->accent, th->background, "read ceiling %.0f GB/s (measured)", ceil_row->gbs);
    }
    /* GB/s against size for a few rungs and the libraries: where each one stops growing */
    SDL_Rect ch = {x0, h - footer_h(a) - chart_h, bw, chart_h - a->font.h - 4};
    fill(a, ch, th->panel);
    static const char *const series[] = {"v0", "v3", "v6", "v8", "cub", "thrust", "read-ceiling"};
    const SDL_Color colours[7] = {th->write, th->barrier, th->read, th->working, th->diverged, th->text, th->dim};
    int lx = 20;
    text(a, &a->font, 20, ch.y, label_w, th->text, th->background, "GB/s by size");
    for (size_t q = 0; q < sizeof series / sizeof *series; q++) {
        int px = -1, py = -1;
        SDL_SetRenderDrawColor(a->r, colours[q].r, colours[q].g, colours[q].b, 255);
        for (size_t i = 0; i < nsz; i++) {
            const results_row *r = results_find(res, series[q], sizes[i]);
            if (!r || !r->ok) continue;
            int x = ch.x + (int)((double)i / (double)(nsz > 1 ? nsz - 1 : 1) * (ch.w - 1));
            int yy = ch.y + ch.h - 1 - (int)(r->gbs / maxg * (ch.h - 1));
            if (px >= 0) {
                SDL_RenderDrawLine(a->r, px, py, x, yy);
                SDL_RenderDrawLine(a->r, px, py + 1, x, yy + 1);
            }
            SDL_Rect dot = {x - 3, yy - 3, 7, 7};
            SDL_RenderFillRect(a->r, &dot);
            px = x;
            py = yy;
        }
        fill(a, (SDL_Rect){lx, ch.y + (int)(q + 1) * a->font.h + 3, a->font.h - 6, a->font.h - 6}, colours[q]);
        text(a, &a->font, lx + a->font.h, ch.y + (int)(q + 1) * a->font.h, label_w - a->font.h, th->text, th->background, "%s", series[q]);
    }
    int ys = ch.y + ch.h - 1 - (int)(res->spec_peak_gbs / maxg * (ch.h - 1));
    fill(a, (SDL_Rect){ch.x, ys, ch.w, 2}, th->conflict);
    for (size_t i = 0; i < nsz; i++) {
        int kk = 0;
        while (((uint64_t)1 << kk) < sizes[i]) kk++;
        int x = ch.x + (int)((double)i / (double)(nsz > 1 ? nsz - 1 : 1) * (ch.w - 1));
        text(a, &a->font, x - a->font.w * 2, ch.y + ch.h + 2, 0, i == si ? th->text : th->dim, th->background, "2^%d", kk);
    }
}

/* ---------- help, legend, whole window ---------- */

static const char *const help_lines[] = {
    "Space        play / pause",
    "Right, Left  one step (all warps at one point of the code)",
    "PgDn, PgUp   one phase (also Shift+Right, Shift+Left; slide clickers)",
    "Home, End    first / last step",
    "+, -         play faster / slower",
    "W            warp by warp (finer steps) on / off",
    "1 ... 9, 0   pick a version (1 = naive, 2 = v0, ...)",
    "C            compare: the next version beside this one, phase by phase",
    "mouse        hover a lane, cell or bank for details; click a cell for its input tree",
    "B            benchmark results (Left/Right: size)",
    "T            light / dark theme",
    "Ctrl +, -    bigger / smaller text and cells (projector)",
    "F11          fullscreen",
    "S            save a screenshot (PNG)",
    "?            this help        Q, Esc  quit",
};

static void draw_help(const ui_state *s, ui_assets *a, int w, int h)
{
    const ui_theme *th = s->theme;
    int n = (int)(sizeof help_lines / sizeof *help_lines);
    int bw = a->font.w * 80, bh = (n + 3) * a->font.h;
    if (bw > w - 20) bw = w - 20;
    SDL_Rect r = {(w - bw) / 2, (h - bh) / 2, bw, bh};
    fill(a, r, th->panel);
    frame(a, r, th->accent, 2);
    text(a, &a->big, r.x + 10, r.y + 4, bw - 20, th->text, th->panel, "Keys");
    for (int i = 0; i < n; i++) text(a, &a->font, r.x + 10, r.y + a->big.h + 8 + i * a->font.h, bw - 20, th->text, th->panel, "%s", help_lines[i]);
}

static void draw_footer(const ui_state *s, ui_assets *a, int w, int h)
{
    const ui_theme *th = s->theme;
    int y = h - footer_h(a) + 4, x = 8, sw = a->font.h - 4;
    if (s->bench) {
        text(a, &a->font, 8, y, w - 16, th->text, th->background,
             "green: warpscope's versions   orange: CUB, Thrust   grey: read-only ceiling kernel   red line: spec peak");
        y += a->font.h;
        text(a, &a->font, 8, y, w - 16, th->dim, th->background, "Left/Right: size  |  B: back to the trace  |  ? all keys");
        return;
    }
    static const struct { int state; const char *name; } legend[] = {
        {VIEW_LANE_WORKING, "working"}, {VIEW_LANE_DIVERGED, "diverged (live, elsewhere in the code)"},
        {VIEW_LANE_IDLE, "idle"}, {VIEW_LANE_BARRIER, "at __syncthreads"}, {VIEW_LANE_EXITED, "exited"}};
    for (size_t i = 0; i < sizeof legend / sizeof *legend; i++) {
        fill(a, (SDL_Rect){x, y + 2, sw, sw}, lane_colour(th, legend[i].state));
        x += sw + 4;
        x += text(a, &a->font, x, y, 0, th->text, th->background, "%s", legend[i].name) + a->font.w * 2;
    }
    fill(a, (SDL_Rect){x, y + 2, sw, sw}, th->read);
    x += sw + 4 + text(a, &a->font, x + sw + 4, y, 0, th->text, th->background, "read") + a->font.w * 2;
    fill(a, (SDL_Rect){x, y + 2, sw, sw}, th->write);
    x += sw + 4 + text(a, &a->font, x + sw + 4, y, 0, th->text, th->background, "written") + a->font.w * 2;
    fill(a, (SDL_Rect){x, y + 2, sw, sw}, th->conflict);
    text(a, &a->font, x + sw + 4, y, 0, th->text, th->background, "bank conflict");
    y += a->font.h;
    text(a, &a->font, 8, y, w - 16, th->dim, th->background, "%s  |  %.1f steps/s  |  Space play, Left/Right step, PgUp/PgDn phase, C compare, B bench, ? all keys",
         s->playing ? "playing" : "paused", s->speed);
    y += a->font.h;
    if (s->status[0]) text(a, &a->font, 8, y, w - 16, th->accent, th->background, "%s", s->status);
}

static int hover_word(const ui_state *s, const ui_assets *a, int w, int h, int p)
{
    int64_t word;
    if (s->mouse_x < 0 || ui_hit_cell(s, a, w, h, s->mouse_x, s->mouse_y, &word) != p) return -1;
    return (int)word;
}

static void draw_tooltip(const ui_state *s, ui_assets *a, int w, int h, int p, const layout *L, const step_view *sv,
                         const float *cells, const unsigned char *written)
{
    const ui_theme *th = s->theme;
    const ui_pane *pn = &s->pane[p];
    const view_model *m = pn->m;
    int mx = s->mouse_x, my = s->mouse_y;
    char tip[200] = "";
    grid lg = lane_grid(a, &L->lanes, m->nwarps);
    if (inside(&L->lanes, mx, my) && mx >= lg.x && my >= lg.y) {
        unsigned lane = (unsigned)((mx - lg.x) / lg.cw), warp = (unsigned)((my - lg.y) / lg.ch);
        unsigned tid = warp * 32 + lane;
        if (lane < 32 && tid < m->threads) {
            static const char *const names[] = {"idle", "working", "diverged", "at barrier", "exited"};
            int len = snprintf(tip, sizeof tip, "thread %u: warp %u, lane %u, %s", tid, warp, lane, names[sv->lanes[tid]]);
            /* its address and value in this step, if it took part */
            const view_step *st = pn->step < m->nsteps ? &m->steps[pn->step] : NULL;
            for (size_t i = 0; st && i < st->count; i++) {
                const trace_event *e = &m->t->events[m->order[st->first + i]];
                if (e->warp != warp || !(e->mask >> lane & 1) || !trace_kind_has_data((trace_kind)e->kind)) continue;
                size_t j = e->lanes + (size_t)trace_popcount(e->mask & ((1u << lane) - 1));
                if (e->kind == TRACE_SHUFFLE)
                    snprintf(tip + len, sizeof tip - (size_t)len, "; from lane %lld, value %.6g", (long long)m->t->lane_addr[j], (double)m->t->lane_val[j * 4]);
                else
                    snprintf(tip + len, sizeof tip - (size_t)len, "; %s [%lld]%s, value %.6g", trace_kind_label((trace_kind)e->kind),
                             (long long)m->t->lane_addr[j],
                             e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_SHARED_STORE ? "" : " (global)", (double)m->t->lane_val[j * 4]);
            }
        }
    }
    int word = hover_word(s, a, w, h, p);
    if (word >= 0 && (size_t)word < m->nwords)
        snprintf(tip, sizeof tip, "shared word %d (byte %d): bank %d, %s%.9g; click: its input tree", word, word * 4, word % 32,
                 written[word] ? "value " : "not written yet, ", written[word] ? (double)cells[word] : 0.0);
    if (inside(&L->banks, mx, my) && sv->worst_event >= 0) {
        int cw = (L->banks.w - 8) / 32, b = (mx - L->banks.x - 4) / (cw ? cw : 1);
        if (b >= 0 && b < 32) {
            const trace_event *e = &m->t->events[sv->worst_event];
            int len = snprintf(tip, sizeof tip, "bank %d: lanes", b), k = 0;
            for (unsigned l = 0; l < 32 && len < (int)sizeof tip - 8; l++) {
                if (!(e->mask >> l & 1)) continue;
                int64_t wd = m->t->lane_addr[e->lanes + (size_t)k++];
                if (wd % 32 == b) len += snprintf(tip + len, sizeof tip - (size_t)len, " %u(w%lld)", l, (long long)wd);
            }
        }
    }
    if (!tip[0]) return;
    int tw = (int)strlen(tip) * a->font.w + 12, th_ = a->font.h + 6;
    int x = mx + 14, y = my + 18;
    if (x + tw > w) x = w - tw;
    if (y + th_ > h) y = my - th_ - 4;
    SDL_Rect r = {x, y, tw, th_};
    fill(a, r, th->text);
    text(a, &a->font, x + 6, y + 3, tw - 12, th->background, th->text, "%s", tip);
}

void ui_draw(const ui_state *s, ui_assets *a, int w, int h)
{
    const ui_theme *th = s->theme;
    fill(a, (SDL_Rect){0, 0, w, h}, th->background);
    if (s->bench) {
        draw_bench(s, a, w, h);
    } else {
        for (int p = 0; p < 1 + s->compare; p++) {
            const ui_pane *pn = &s->pane[p];
            if (!pn->m) continue;
            layout L;
            layout_pane(s, a, p, w, h, &L);
            ui_scratch *sc = &a->scratch[p];
            step_facts(pn->m, pn->step, sc);
            size_t nw = pn->m->nwords < 1024 ? pn->m->nwords : 1024;
            view_model clipped = *pn->m;
            clipped.nwords = nw;
            view_shared_at(&clipped, pn->step, sc->cells, sc->written);
            int has_tree = pn->selected >= 0 && (size_t)pn->selected < nw;
            if (has_tree) view_subtree(&clipped, pn->step, pn->selected, sc->tree);
            text(a, &a->big, L.title.x, L.title.y, L.title.w, th->text, th->background, "%s", pn->title);
            text(a, &a->font, L.title.x, L.title.y + a->big.h, L.title.w, th->dim, th->background, "%s", ladder_find(pn->m->t->prov.version) ? ladder_find(pn->m->t->prov.version)->summary : "");
            draw_source(a, th, pn, L.source);
            draw_memory(a, th, pn, L.memory, sc, sc->cells, sc->written, has_tree ? sc->tree : NULL, hover_word(s, a, w, h, p));
            draw_lanes(a, th, pn, L.lanes, sc);
            draw_banks(a, th, pn, L.banks, sc);
            draw_stats(a, th, pn, L.stats);
            draw_timeline(a, th, pn, L.timeline);
            if (s->mouse_x >= 0) draw_tooltip(s, a, w, h, p, &L, sc, sc->cells, sc->written);
        }
        if (s->compare) fill(a, (SDL_Rect){w / 2 - 1, 0, 2, h - footer_h(a)}, th->grid);
    }
    draw_footer(s, a, w, h);
    if (s->show_help) draw_help(s, a, w, h);
}

int ui_hit_cell(const ui_state *s, const ui_assets *a, int w, int h, int x, int y, int64_t *word)
{
    *word = -1;
    if (s->bench) return -1;
    for (int p = 0; p < 1 + s->compare; p++) {
        const view_model *m = s->pane[p].m;
        if (!m || !m->nwords) continue;
        layout L;
        layout_pane(s, a, p, w, h, &L);
        if (!inside(&L.memory, x, y)) continue;
        grid g = memory_grid(a, &L.memory, m->nwords);
        if (x < g.x || y < g.y) return -1;
        int col = (x - g.x) / g.cw, row = (y - g.y) / g.ch;
        if (col >= 32) return -1;
        int64_t wd = (int64_t)row * 32 + col;
        if (wd >= (int64_t)m->nwords) return -1;
        *word = wd;
        return p;
    }
    return -1;
}

int ui_lane_rect(const ui_state *s, const ui_assets *a, int w, int h, int p, unsigned tid, SDL_Rect *out)
{
    const view_model *m = s->pane[p].m;
    if (!m || tid >= m->threads) return -1;
    layout L;
    layout_pane(s, a, p, w, h, &L);
    grid g = lane_grid(a, &L.lanes, m->nwarps);
    *out = cell(&g, (int)tid);
    return 0;
}

int ui_bank_rect(const ui_state *s, const ui_assets *a, int w, int h, int p, unsigned bank, SDL_Rect *out)
{
    if (!s->pane[p].m || bank >= 32) return -1;
    layout L;
    layout_pane(s, a, p, w, h, &L);
    int cw = (L.banks.w - 8) / 32;
    *out = (SDL_Rect){L.banks.x + 4 + (int)bank * cw, L.banks.y + a->font.h + 2, cw - 1, 4};
    return 0;
}

int ui_source_line_rect(const ui_state *s, const ui_assets *a, int w, int h, int p, SDL_Rect *out)
{
    const ui_pane *pn = &s->pane[p];
    if (!pn->m || !pn->source || pn->step >= pn->m->nsteps) return -1;
    layout L;
    layout_pane(s, a, p, w, h, &L);
    int fh = a->font.h, rows = (L.source.h - fh - 4) / fh;
    int line = (int)pn->m->steps[pn->step].line, first = line - rows / 2;
    if (first < 1) first = 1;
    *out = (SDL_Rect){L.source.x + 2, L.source.y + fh + 2 + (line - first) * fh, L.source.w - 4, fh};
    return 0;
}
