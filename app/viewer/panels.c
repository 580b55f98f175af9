/* panels: see panels.h. Every panel registers its rectangle with the draw list; every string is
 * placed inside it with dl_text (which shortens what does not fit), and a row that does not fit
 * is left out, so text never leaves its panel nor lands on another text. */
#include "app/viewer/panels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/viewer/keys.h"
#include "app/viewer/layout.h"
#include "trace/ladder.h"

int panels_px(int h, double scale, int presenter)
{
    int px = (int)lround(h / 60.0 * scale);
    if (presenter) {
        int room = (int)lround(24.0 * h / 768.0);
        if (px < room) px = room;
    }
    return px < 10 ? 10 : px > 96 ? 96 : px;
}

/* sizes derived from the base text size */
typedef struct ui {
    const scene *sc;
    const theme *th;
    str_lang L;
    dl_list *l;
    int px, big, lh, blh, pad, digit;
    int compact;     /* presenter mode or compare: one title line, a thin timeline, the pictures first */
    double ease;     /* progress of the move from the previous step, eased: 0 .. 1 */
    const scene_pane *to; /* while moving: where the move goes (drawing shows where it started) */
    int least;       /* the least size a value is drawn at: VALUE_PX_LEAST, or the platform's (session.least_px) */
} ui;

static const char *S(const ui *u, str_id id) { return str_get(u->L, id); }

static dl_rect inset(dl_rect r, int d) { return (dl_rect){r.x + d, r.y + d, r.w - 2 * d, r.h - 2 * d}; }

/* A panel: background, title line; returns the content rectangle below the title. */
static dl_rect panel(ui *u, const char *name, dl_rect r, const char *title)
{
    dl_panel_begin(u->l, name, r);
    dl_fill(u->l, r, u->th->panel);
    dl_rect in = inset(r, u->pad);
    if (title) {
        dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->dim, title);
        in.y += u->lh;
        in.h -= u->lh;
    }
    return in;
}

/* the content rect panel() gives r when it has a title, without drawing anything */
static dl_rect panel_inner(const ui *u, dl_rect r)
{
    dl_rect in = inset(r, u->pad);
    in.y += u->lh;
    in.h -= u->lh;
    return in;
}

/* one line of text at row `row` of a content rect; nothing if the row does not fit */
static void line_at(ui *u, dl_rect in, int row, dl_colour c, dl_font f, const char *s)
{
    int y = in.y + row * u->lh;
    if (y + u->lh > in.y + in.h) return;
    dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, f, u->px, DL_LEFT, c, s);
}

static dl_colour mix(dl_colour a, dl_colour b, double t)
{
    return (dl_colour){(uint8_t)lround(a.r + (b.r - a.r) * t), (uint8_t)lround(a.g + (b.g - a.g) * t), (uint8_t)lround(a.b + (b.b - a.b) * t), 255};
}

static dl_colour lane_colour(const theme *th, int state)
{
    const dl_colour c[] = {[VIEW_LANE_IDLE] = th->idle, [VIEW_LANE_WORKING] = th->working, [VIEW_LANE_DIVERGED] = th->diverged,
                           [VIEW_LANE_BARRIER] = th->barrier, [VIEW_LANE_EXITED] = th->exited};
    return (unsigned)state < sizeof c / sizeof c[0] ? c[state] : th->idle;
}

/* While a lesson's question is open, the pictures that would give the answer away hold back:
 * ask before show. */
static int holding_back(const ui *u) { return session_asking(u->sc->s); }

/* A lesson's marks on an item: what the step points at (accent), what the user picked (text
 * colour), what an answer missed (the subtree colour) and what it got wrong (conflict). */
static void lesson_marks(ui *u, int kind, size_t item, dl_rect c)
{
    const session_lesson *L = &u->sc->s->lesson;
    if (!L->active) return;
    const theme *th = u->th;
    int t = c.w > 8 && c.h > 8 ? 3 : 2;
    if (session_set_has(&L->highlight[kind], item)) dl_outline(u->l, c, th->accent, t);
    if (session_set_has(&L->picked[kind], item)) dl_outline(u->l, c, th->text, t);
    if (session_set_has(&L->missed[kind], item)) dl_outline(u->l, (dl_rect){c.x - 1, c.y - 1, c.w + 2, c.h + 2}, th->subtree, t);
    if (session_set_has(&L->wrong[kind], item)) dl_outline(u->l, (dl_rect){c.x - 1, c.y - 1, c.w + 2, c.h + 2}, th->conflict, t);
}

/* ---------- source ---------- */

/* The source as the panel shows it: the lines around the step's line, dedented to the block they
 * sit in, and the step's line itself whole, wrapped onto as many rows as it needs. */
enum { SOURCE_ROWS_AROUND = 3, SOURCE_WRAP_MAX = 6 }; /* at least three lines around the step's */

typedef struct source_plan {
    int first, rows;                       /* file lines first .. first + rows - 1 (the step's as wrapped) */
    int dedent;                            /* columns of indentation removed from every line */
    int nwrap;                             /* rows the step's line takes */
    char hl[256];                          /* the step's line, dedented */
    int cut[SOURCE_WRAP_MAX + 1];          /* its rows: bytes cut[k] .. cut[k + 1] */
} source_plan;

/* a source line with tabs as single spaces, into buf */
static int source_copy(const char *src, int line, char *buf, size_t len)
{
    size_t n = 0;
    const char *q = line >= 1 ? trace_text_line(src, (unsigned)line, &n) : NULL;
    if (!q) { buf[0] = '\0'; return -1; }
    size_t k = 0;
    for (size_t c = 0; c < n && k + 1 < len; c++) buf[k++] = q[c] == '\t' ? ' ' : q[c];
    buf[k] = '\0';
    return 0;
}

static int indent_of(const char *s)
{
    int i = 0;
    while (s[i] == ' ') i++;
    return s[i] ? i : -1; /* a blank line has none */
}

/* Plans `rows` rows of width w (the code's, after the line numbers) around the step's line. */
static void source_plan_for(ui *u, const scene_pane *p, int w, int rows, source_plan *sp)
{
    int line = p->st ? (int)p->st->line : 0;
    memset(sp, 0, sizeof *sp);
    char buf[256];
    if (source_copy(p->source, line, buf, sizeof buf)) line = 0;
    /* the window: the step's line in the middle of what is left once it is wrapped */
    for (int pass = 0; pass < 2; pass++) {
        int context = rows - (sp->nwrap > 0 ? sp->nwrap : 1);
        if (context < 0) context = 0;
        sp->first = line - context / 2;
        if (sp->first < 1) sp->first = 1;
        sp->rows = rows;
        sp->dedent = -1;
        for (int ln = sp->first; ln < sp->first + context + 1; ln++) {
            char t[256];
            if (source_copy(p->source, ln, t, sizeof t)) break;
            int d = indent_of(t);
            if (d >= 0 && (sp->dedent < 0 || d < sp->dedent)) sp->dedent = d;
        }
        if (sp->dedent < 0) sp->dedent = 0;
        snprintf(sp->hl, sizeof sp->hl, "%s", line ? buf + (indent_of(buf) >= 0 && indent_of(buf) < sp->dedent ? indent_of(buf) : sp->dedent) : "");
        /* wrap the step's line: at a space where one falls in the row, else between characters */
        sp->nwrap = 0;
        size_t at = 0, n = strlen(sp->hl);
        sp->cut[0] = 0;
        while (sp->nwrap < SOURCE_WRAP_MAX) {
            if (dl_text_width(u->l, DL_FONT_MONO, u->px, sp->hl + at) <= w || sp->nwrap == SOURCE_WRAP_MAX - 1) { sp->cut[++sp->nwrap] = (int)n; break; }
            size_t fit = at, space = 0;
            const char *c = sp->hl + at;
            while (*c) {
                const char *nx = c;
                dl_utf8_next(&nx);
                char piece[256];
                snprintf(piece, sizeof piece, "%.*s", (int)(nx - (sp->hl + at)), sp->hl + at);
                if (dl_text_width(u->l, DL_FONT_MONO, u->px, piece) > w) break;
                fit = (size_t)(nx - sp->hl);
                if (*c == ' ') space = fit;
                c = nx;
            }
            if (fit == at) fit = at + 1;                    /* not even one character: still move on */
            size_t end = space > at + (fit - at) / 3 ? space : fit; /* a space late enough in the row */
            sp->cut[++sp->nwrap] = (int)end;
            at = end;
            if (at >= n) break;
        }
        if (sp->nwrap < 1) { sp->nwrap = 1; sp->cut[1] = (int)n; }
    }
}

/* rows the source needs around its step at width w: the line whole and SOURCE_ROWS_AROUND others */
static int source_rows_min(ui *u, const scene_pane *p, int w)
{
    if (!p->source) return 1;
    source_plan sp;
    int numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "000 ");
    source_plan_for(u, p, w - numw, SOURCE_ROWS_AROUND + 1, &sp);
    return sp.nwrap + SOURCE_ROWS_AROUND;
}

static void draw_source(ui *u, const scene_pane *p, dl_rect r)
{
    unsigned line = p->st ? p->st->line : 0;
    char title[200];
    snprintf(title, sizeof title, S(u, STR_SOURCE_TITLE), p->m->t->prov.source, line);
    dl_rect in = panel(u, "source", r, title);
    if (!p->source) { line_at(u, in, 0, u->th->text, DL_FONT_UI, S(u, STR_SOURCE_NONE)); return; }
    int rows = in.h / u->lh;
    if (rows < 1) return;
    int numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "000 ");
    source_plan sp;
    source_plan_for(u, p, in.w - numw, rows, &sp);
    int row = 0;
    for (int ln = sp.first; row < rows; ln++) {
        char buf[256];
        if (source_copy(p->source, ln, buf, sizeof buf)) break;
        int here = (unsigned)ln == line, take = here ? sp.nwrap : 1;
        if (here && row + take > rows) take = rows - row;
        int y = in.y + row * u->lh;
        dl_rect band = {in.x - u->pad / 2, y, in.w + u->pad, take * u->lh};
        if (here) dl_fill(u->l, band, u->th->line);
        lesson_marks(u, SESSION_ITEM_LINES, (size_t)ln, band);
        for (int k = 0; k < p->hz_nlines; k++) /* a line in a race: a red bar beside it */
            if (p->hz_lines[k] == (unsigned)ln) dl_fill(u->l, (dl_rect){band.x, y, u->pad > 3 ? u->pad - 1 : 2, band.h}, u->th->conflict);
        dl_textf(u->l, (dl_rect){in.x, y, numw, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, u->th->dim, "%3d", ln);
        if (here) {
            for (int k = 0; k < take; k++)
                dl_textf(u->l, (dl_rect){in.x + numw, y + k * u->lh, in.w - numw, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, u->th->text, "%.*s",
                         sp.cut[k + 1] - sp.cut[k], sp.hl + sp.cut[k]);
        } else {
            int d = indent_of(buf);
            const char *text = buf + (d < 0 ? (int)strlen(buf) : d < sp.dedent ? d : sp.dedent);
            int tw = dl_text(u->l, (dl_rect){in.x + numw, y, in.w - numw, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, u->th->text, text);
            /* break-it: the __syncthreads left out is struck through */
            if (u->sc->s->brk.drop_barrier == (unsigned)ln && tw > 0)
                dl_line(u->l, in.x + numw, y + u->lh / 2, in.x + numw + tw, y + u->lh / 2, u->th->conflict, 2);
        }
        row += take;
    }
}

/* ---------- values in cells ---------- */

/* The watched register of one warp and the cells' values: v with `digits` significant digits. */
enum { REG_DIGITS_FULL = 7, REG_DIGITS_SHORT = 2 }; /* 7: a float's integers up to 2^24 exactly */

/* v with `digits` significant digits; from 1000 up with k, M or G (16440 as 16.4k), so that a
 * big sum still fits a lane's cell */
static void reg_format(float v, int digits, char *buf, size_t len)
{
    static const struct { double scale; const char *suffix; } si[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
    double a = fabs((double)v);
    if (digits >= REG_DIGITS_FULL) { snprintf(buf, len, "%.*g", digits, (double)v); return; }
    size_t k = 0;
    while (k + 1 < sizeof si / sizeof si[0] && a < si[k].scale) k++;
    double m = (double)v / si[k].scale, am = fabs(m);
    int whole = am >= 100 ? 3 : am >= 10 ? 2 : 1; /* %.2g of 688 would be 6.9e+02: round to whole instead */
    if (digits < whole) snprintf(buf, len, "%.0f%s", m, si[k].suffix);
    else snprintf(buf, len, "%.*g%s", digits, m, si[k].suffix);
}

/* How every value of a panel is drawn in cells of cw x ch: with the most digits (7 down to 2,
 * reg_format), then at the largest size from the panel's own down to a legible least, at which
 * the widest of them fits. px 0: not even that fits, and no value is drawn at all: a cell shows
 * its current value or none, never an old one beside new blanks. */
enum { VALUE_PX_LEAST = 10 };
typedef struct value_fit {
    int px, digits;
} value_fit;

static value_fit values_fit(ui *u, const float *vals, size_t n, int cw, int ch)
{
    for (int d = REG_DIGITS_FULL; d >= REG_DIGITS_SHORT; d--) {
        char widest[32] = "", b[32];
        for (size_t i = 0; i < n; i++) { /* a monospaced font: the longest text is the widest */
            reg_format(vals[i], d, b, sizeof b);
            if (strlen(b) > strlen(widest)) snprintf(widest, sizeof widest, "%s", b);
        }
        if (!widest[0]) return (value_fit){u->px, d};
        /* the largest size that fits: the panel's own, else a binary search down to the least */
#define FITS(px) (dl_text_width(u->l, DL_FONT_MONO, (px), widest) <= cw && dl_text_height(u->l, DL_FONT_MONO, (px)) <= ch)
        if (FITS(u->px)) return (value_fit){u->px, d};
        if (u->px > u->least && FITS(u->least)) {
            int lo = u->least, hi = u->px; /* lo fits, hi does not */
            while (hi - lo > 1) {
                int mid = (lo + hi) / 2;
                if (FITS(mid)) lo = mid;
                else hi = mid;
            }
            return (value_fit){lo, d};
        }
#undef FITS
    }
    return (value_fit){0, 0};
}

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

static void draw_memory(ui *u, int pi, const scene_pane *p, dl_rect r)
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

/* A warp's lanes in one word: the state they share, or how many work ("w3: 16 of 32 working"). */
static const str_id state_words[] = {[VIEW_LANE_IDLE] = STR_STATE_IDLE, [VIEW_LANE_WORKING] = STR_STATE_WORKING,
                                     [VIEW_LANE_DIVERGED] = STR_STATE_DIVERGED, [VIEW_LANE_BARRIER] = STR_STATE_BARRIER,
                                     [VIEW_LANE_EXITED] = STR_STATE_EXITED};

/* the state every lane of warp w is in, or -1 when they differ */
static int warp_state(const scene_pane *p, unsigned w)
{
    const view_model *m = p->m;
    int st = -1;
    for (unsigned l = 0; l < WARP_SIZE && w * WARP_SIZE + l < m->threads; l++) {
        int s = p->lanes[w * WARP_SIZE + l];
        if (st >= 0 && s != st) return -1;
        st = s;
    }
    return st;
}

/* Warps [from, to) in words, runs of one state joined: "w2–w7: idle; w8: 12 of 32 working". */
static void warps_in_words(ui *u, const scene_pane *p, unsigned from, unsigned to, char *b, size_t len)
{
    size_t n = 0;
    b[0] = '\0';
    for (unsigned w = from; w < to && n + 1 < len;) {
        int st = warp_state(p, w);
        unsigned e = w + 1;
        while (st >= 0 && e < to && warp_state(p, e) == st) e++;
        char what[96];
        if (st >= 0 && (size_t)st < sizeof state_words / sizeof state_words[0]) snprintf(what, sizeof what, "%s", S(u, state_words[st]));
        else {
            unsigned working = 0;
            for (unsigned l = 0; l < WARP_SIZE && w * WARP_SIZE + l < p->m->threads; l++) working += p->lanes[w * WARP_SIZE + l] == VIEW_LANE_WORKING;
            snprintf(what, sizeof what, S(u, STR_SUM_WARP_PART), working, WARP_SIZE);
        }
        int k = e - w > 1 ? snprintf(b + n, len - n, "%sw%u\xE2\x80\x93w%u: %s", n ? "; " : "", w, e - 1, what)
                          : snprintf(b + n, len - n, "%sw%u: %s", n ? "; " : "", w, what);
        if (k < 0 || (size_t)k >= len - n) break;
        n += (size_t)k;
        w = e;
    }
}

/* Every thread as a cell, a row per warp, each row at least a line of text high so its label reads;
 * the warps that do not fit are said in words on the last row ("w2–w7: idle"). The rows shown are
 * the ones around the step's warp. */
static void draw_lanes(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    dl_rect in = panel(u, "lanes", r, S(u, STR_LANES_TITLE));
    int nw = (int)m->nwarps, rh = u->lh + 2, fit = in.h / rh;
    if (fit < 1 || nw < 1) return;
    int show = nw <= fit ? nw : fit - 1, w0 = 0;
    if (show < nw) { /* a window of warps holding the step's first working warp */
        int focus = 0;
        for (int w = 0; w < nw; w++)
            if (warp_state(p, (unsigned)w) != VIEW_LANE_IDLE && warp_state(p, (unsigned)w) != VIEW_LANE_EXITED) { focus = w; break; }
        w0 = focus - show / 2;
        if (w0 + show > nw) w0 = nw - show;
        if (w0 < 0) w0 = 0;
    }
    if (nw <= fit && rh * nw < in.h) rh = in.h / nw > 2 * u->lh ? 2 * u->lh : in.h / nw; /* room to spare: taller rows */
    int label_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "w00") + u->pad;
    int cw = (in.w - label_w) / WARP_SIZE;
    if (cw < 2) cw = 2;
    int gap = cw >= 12 ? 2 : 1;
    /* asked which lanes do something, the lanes wait for the answer uncoloured */
    int hold = holding_back(u) && u->sc->s->lesson.ask == ASK_LANES;
    dl_clip(u->l, in);
    for (int k = 0; k < show; k++) {
        unsigned w = (unsigned)(w0 + k);
        int y = in.y + k * rh;
        dl_textf(u->l, (dl_rect){in.x, y + (rh - u->lh) / 2, label_w - u->pad / 2, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, u->th->dim, "w%u", w);
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            unsigned tid = w * WARP_SIZE + l;
            if (tid >= m->threads) break;
            dl_rect c = {in.x + label_w + (int)l * cw, y + 1, cw - gap, rh - 2};
            dl_colour col = lane_colour(u->th, hold ? VIEW_LANE_IDLE : p->lanes[tid]);
            if (u->to && u->ease > 0 && !hold) col = mix(col, lane_colour(u->th, u->to->lanes[tid]), u->ease); /* lanes fade to their next state */
            dl_fill_hit(u->l, c, col, HIT_CODE(HIT_LANE, pi, tid));
            if (pi == 0) lesson_marks(u, SESSION_ITEM_LANES, tid, c);
        }
    }
    if (show < nw && !hold) { /* the others, in words: before the window, then after it */
        char b[400], a2[200] = "";
        warps_in_words(u, p, 0, (unsigned)w0, b, sizeof b);
        warps_in_words(u, p, (unsigned)(w0 + show), (unsigned)nw, a2, sizeof a2);
        if (b[0] && a2[0]) strncat(b, "; ", sizeof b - strlen(b) - 1);
        strncat(b, a2, sizeof b - strlen(b) - 1);
        dl_text(u->l, (dl_rect){in.x, in.y + show * rh, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, b);
    }
    dl_unclip(u->l);
}

/* a colour per warp, so that who added what reads at a glance */
static dl_colour warp_colour(const theme *th, unsigned warp)
{
    const dl_colour c[] = {th->working, th->barrier, th->diverged, th->read, th->write, th->accent};
    return c[warp % (sizeof c / sizeof c[0])];
}

/* Lanes to banks: the warp's 32 lanes above the 32 banks, a line from each lane to the word it
 * asks of its bank; words of one bank are served one wavefront after another (numbered), and the
 * lines into a bank with more than one word are drawn in the conflict colour. */
/* "lanes to banks: warp 0 store, conflict degree 8 (7 extra wavefronts)"; while a lesson asks,
 * without the degree */
static void banks_title(ui *u, const scene_pane *p, char *b, size_t len)
{
    const trace_event *e = &p->m->t->events[p->bank_event];
    int deg = p->worst_degree;
    char extra[64];
    str_count(u->L, NOUN_WAVEFRONT, (unsigned long long)(deg > 1 ? deg - 1 : 0), extra, sizeof extra);
    if (holding_back(u)) snprintf(b, len, S(u, STR_BANKS_ASKING), e->warp, str_kind(u->L, e->kind));
    else snprintf(b, len, S(u, STR_BANKS_TITLE), e->warp, str_kind(u->L, e->kind), deg, extra);
}

static void draw_banks(ui *u, int pi, const scene_pane *p, dl_rect r, int waves)
{
    if (p->bank_event < 0) { panel(u, "banks", r, S(u, STR_BANKS_NONE)); return; }
    const trace_event *e = &p->m->t->events[p->bank_event];
    const trace *t = p->m->t;
    char title[200];
    int deg = p->worst_degree;
    int hold = holding_back(u);
    banks_title(u, p, title, sizeof title);
    dl_rect in = panel(u, "banks", r, title);
    const theme *th = u->th;
    char code[160], b[260];
    trace_text_line_copy(p->source, e->line, code, sizeof code);
    snprintf(b, sizeof b, S(u, STR_BANKS_FORMULA), e->line, code);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, th->dim, b);
    in.y += u->lh;
    in.h -= u->lh;
    /* the gap between lanes and banks, where the wires run: a quarter of the room, at most three
     * lines, and never the banks' own least room (6 px a wavefront, measure's minimum) */
    int cw = in.w / BANKS, lane_h = u->lh + 2, gap = in.h / 4 < 3 * u->lh ? in.h / 4 : 3 * u->lh;
    int spare = in.h - lane_h - u->lh - (deg > 1 ? deg : 1) * 6;
    if (gap > spare) gap = spare;
    if (gap < 8) gap = 8;
    int top = in.y + lane_h + gap, avail = in.y + in.h - u->lh - top, bh = deg ? avail / deg : avail;
    if (bh > u->lh + 4) bh = u->lh + 4;
    if (bh < 2 || avail < 4) return;
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    dl_clip(u->l, in);
    /* the lanes */
    int k = 0;
    for (unsigned lane = 0; lane < WARP_SIZE; lane++) {
        dl_rect c = {in.x + (int)lane * cw, in.y, cw - 1, lane_h - 2};
        int on = e->mask >> lane & 1u;
        dl_fill_hit(u->l, c, on ? th->working : th->idle, HIT_CODE(HIT_LANE, pi, e->warp * WARP_SIZE + lane));
        if (cw >= dl_text_width(u->l, DL_FONT_MONO, u->px, "00") + 2 && vh <= c.h)
            dl_textf(u->l, (dl_rect){c.x, c.y, c.w, vh}, DL_FONT_MONO, u->px, DL_CENTRE, th->background, "%u", lane);
        if (!on) continue;
        int64_t wd = t->lane_addr[e->lanes + (size_t)k++];
        if (wd < 0) continue;
        const scene_bank *sb = &p->banks[wd % BANKS];
        int slot = 0;
        for (int q = 0; q < sb->nwords; q++)
            if (sb->words[q] == wd) slot = q;
        int bx = in.x + (int)(wd % BANKS) * cw + cw / 2, by = top + slot * bh;
        int red = sb->nwords > 1 && !hold;
        dl_line(u->l, c.x + c.w / 2, c.y + c.h, bx, by, red ? th->conflict : th->dim, red ? 2 : 1);
    }
    /* the banks: one box per distinct word, numbered by the wavefront that serves it */
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
            if (vh <= c.h && dl_text_width(u->l, DL_FONT_MONO, u->px, v) <= c.w - 2)
                dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, u->px, DL_CENTRE, th->background, v);
        }
        if (!sb->nwords) {
            dl_fill_hit(u->l, (dl_rect){x, top, cw - 1, bh - 1}, th->panel, HIT_CODE(HIT_BANK, pi, bank)); /* clickable, quiet */
            dl_fill(u->l, (dl_rect){x, top, cw - 1, 2}, th->grid);
            if (pi == 0) lesson_marks(u, SESSION_ITEM_BANKS, (size_t)bank, (dl_rect){x, top, cw - 1, bh - 1});
        }
    }
    int numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "31 "), every = 1; /* a space between numbers */
    int numy = top + (deg > 1 ? deg : 1) * bh + u->pad / 2; /* the banks' numbers right under their words */
    if (numy + u->lh > in.y + in.h) numy = in.y + in.h - u->lh;
    while (every < BANKS && every * cw < numw) every *= 2;
    for (int bank = 0; bank < BANKS; bank += every)
        dl_textf(u->l, (dl_rect){in.x + bank * cw, numy, cw * every, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, th->dim, "%d", bank);
    dl_unclip(u->l);
}

/* ---------- the top picture: the tree, global memory, or shuffles ---------- */

/* The least size the tree's values are drawn at: TREE_VALUE_PX_MIN, or the platform's least where
 * that is larger (a phone: 12 CSS pixels at its pixel ratio); presenter mode keeps its own size
 * (the back of a room reads nothing smaller). A tree with no room for two rows at this size is
 * its summary line (measure); a value that still does not fit its box is left out, never drawn
 * smaller, and the title says so. */
enum { TREE_VALUE_PX_MIN = 12 }; /* the smallest the tree's values shrink to on a desktop, to fit a row */
static int tree_value_least(const ui *u)
{
    if (u->sc->s->presenter) return u->px;
    return u->least > TREE_VALUE_PX_MIN ? u->least : TREE_VALUE_PX_MIN;
}

static void draw_tree_titled(ui *u, int pi, const scene_pane *p, dl_rect r, str_id title_id, int *left_out);

/* Harris's figure: the leaves on top, a row per addition into a word below, each node the
 * partial sum a thread stored (coloured by its warp), edges from its two inputs; this step's
 * additions outlined; the words of the selected input tree outlined too. */
static void draw_tree(ui *u, int pi, const scene_pane *p, dl_rect r)
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
    if (cw < 2 || rh < 3) return;
    int bh = rh - 4 < vh + 2 ? rh * 3 / 5 : vh + 2;
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
        dl_colour col = off ? th->conflict : warp_colour(th, n->thread / WARP_SIZE);
        dl_fill_hit(u->l, c, col, HIT_CODE(HIT_CELL, pi, n->word));
        if (n->step == p->step) dl_outline(u->l, c, th->text, 2);
        if (pi == 0 && n->buf == -1) lesson_marks(u, SESSION_ITEM_CELLS, (size_t)n->word, c);
        else if (n->buf == -1 && (size_t)n->word < m->nwords && p->tree[n->word]) dl_outline(u->l, c, th->subtree, 2);
        char v[48];
        snprintf(v, sizeof v, "%.6g", (double)n->value);
        if (n->step == p->step && holding_back(u)) snprintf(v, sizeof v, "?"); /* this step's sums wait for the answer */
        else if (off) { /* the value against what it should hold, where that fits */
            char both[48];
            snprintf(both, sizeof both, "%.6g\xE2\x89\xA0%.6g", (double)n->value, (double)n->expected);
            if (dl_text_width(u->l, DL_FONT_MONO, vpx, both) <= c.w - 2) memcpy(v, both, sizeof both);
        }
        if (vh <= c.h && dl_text_width(u->l, DL_FONT_MONO, vpx, v) <= c.w - 2)
            dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, vpx, DL_CENTRE, th->background, v);
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

/* Global memory: the elements the step touches, each coloured by the warp that touched it, the
 * 32-byte sectors marked, and each warp request's sectors against the fewest possible. */
static void draw_loads(ui *u, const scene_pane *p, dl_rect r)
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

/* The round of shuffles shown (offsets 16 .. 1 make one round of the tree): the round of the
 * latest shuffle of the warp, levels first .. last. */
static void shfl_round(const scene_pane *p, int *first_out, int *last_out)
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
static void draw_shuffles(ui *u, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    if (!m->nshfl) { panel(u, "picture", r, S(u, STR_SHFL_NONE)); return; }
    const theme *th = u->th;
    int first, last;
    shfl_round(p, &first, &last);
    /* the values shown, for one size and number of digits for all of them (values_fit) */
    float vals[WARP_SIZE * 8];
    size_t nv = 0;
    for (size_t i = 0; i < m->nshfl && nv < sizeof vals / sizeof *vals; i++) {
        const view_shfl *sh = &m->shfl[i];
        if (sh->warp == p->shfl_warp && sh->level >= first && sh->level <= last && sh->step <= p->step) vals[nv++] = sh->value;
    }
    dl_rect probe = panel_inner(u, r); /* the room the title leaves, as panel() gives it */
    int label_w = dl_text_width(u->l, DL_FONT_UI, u->px, S(u, STR_SHFL_OFFSET)) + 3 * u->digit + u->pad;
    int cw = (probe.w - label_w) / WARP_SIZE, rows = last - first + 1, rh = rows > 0 ? probe.h / rows : probe.h;
    if (rh > 3 * u->lh) rh = 3 * u->lh;
    /* a row: the arrows above, the boxes below, tall enough for a value where one can fit */
    value_fit vf = values_fit(u, vals, nv, cw - 3, rh - 6 > 2 ? rh - 6 : 2);
    int vh = vf.px ? dl_text_height(u->l, DL_FONT_MONO, vf.px) : 0, bh = rh / 2 > 2 ? rh / 2 : 2;
    if (vf.px) bh = vh + 4 < rh - 6 ? vh + 4 : rh - 6;
    char title[200];
    snprintf(title, sizeof title, S(u, nv && !vf.px ? STR_SHFL_TITLE_NO_VALUES : STR_SHFL_TITLE), p->shfl_warp);
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
            dl_rect c = {x0 + (int)sh->lane * cw, y, cw - 1, bh};
            dl_fill(u->l, c, sh->step == p->step ? th->working : th->read);
            if (sh->src != sh->lane && sh->src < WARP_SIZE)
                dl_arrow(u->l, x0 + (int)sh->src * cw + cw / 2, y - (rh - bh) + 2, c.x + c.w / 2, c.y, sh->step == p->step ? th->text : th->dim, 1);
            if (vf.px) {
                char v[32];
                reg_format(sh->value, vf.digits, v, sizeof v);
                dl_text(u->l, (dl_rect){c.x + 1, c.y + (c.h - vh) / 2, c.w - 2, vh}, DL_FONT_MONO, vf.px, DL_CENTRE, th->background, v);
            }
        }
        for (size_t i = 0; u->to && u->ease > 0 && i < m->nshfl; i++) { /* in motion: values fly to their lanes */
            const view_shfl *sh = &m->shfl[i];
            if (sh->warp != p->shfl_warp || sh->level != level || sh->step <= p->step || sh->step > u->to->step || sh->src >= WARP_SIZE) continue;
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

/* The watched register of one warp (v3's first add, v6's grid-stride sum, v7/v8's float4 sums):
 * 32 lanes in rows of `cols`; a value in as many digits as its cell holds. */

static int registers_height(ui *u, int cols) { return 2 * u->pad + u->lh + (WARP_SIZE / cols) * (u->lh + 2); }

/* lanes per row: the most that show every value in full, else in short, within max_h; else 32
 * with colours only (each lane's tooltip has its value) */
static int registers_cols(ui *u, const scene_pane *p, int w, int max_h)
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

static void draw_registers(ui *u, int pi, const scene_pane *p, dl_rect r, int cols)
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

static void draw_picture(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    if (p->has_regs && p->picture != PICTURE_TREE) { /* the register under the loads or the shuffles */
        /* only what the picture above can spare: the load strip gets by with a few rows, the
         * shuffles need a line of text per row for their offsets */
        int first, last;
        shfl_round(p, &first, &last);
        int keep = p->picture == PICTURE_LOADS ? u->lh + u->lh / 2 : (last - first + 1) * (u->lh + 4);
        int max_h = r.h - (keep + 2 * u->pad + u->lh + u->pad / 2);
        int cols = registers_cols(u, p, r.w, max_h), h = registers_height(u, cols);
        if (h <= max_h) {
            draw_registers(u, pi, p, (dl_rect){r.x, r.y + r.h - h, r.w, h}, cols);
            r.h -= h + u->pad / 2;
        }
    }
    if (p->picture == PICTURE_LOADS) draw_loads(u, p, r);
    else if (p->picture == PICTURE_SHUFFLE) draw_shuffles(u, p, r);
    else draw_tree(u, pi, p, r);
}

static void draw_stats(ui *u, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    const view_counts *c = &p->counts;
    const trace_provenance *pv = &m->t->prov;
    dl_rect in = panel(u, "stats", r, S(u, STR_STATS_TITLE));
    const theme *th = u->th;
    char b[400];
    int row = 0;
    /* numbered from 0, as --phase, --step and stats number them */
    snprintf(b, sizeof b, S(u, STR_STAT_PHASE), p->st ? p->st->phase : 0, m->nphases ? m->nphases - 1 : 0, p->step, m->nsteps ? m->nsteps - 1 : 0);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    if (p->st) {
        char warps[48];
        snprintf(b, sizeof b, S(u, STR_STAT_LINE), p->st->line, str_kind(u->L, p->st->kind), str_count(u->L, NOUN_WARP, p->st->count, warps, sizeof warps));
        line_at(u, in, row++, th->text, DL_FONT_UI, b);
    }
    snprintf(b, sizeof b, S(u, STR_STAT_ACTIVE), c->active_threads_phase, m->threads);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_SIMD),
             c->warp_instructions ? 100.0 * (double)c->active_lanes / ((double)WARP_SIZE * (double)c->warp_instructions) : 0.0);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_DIVERGENT), (unsigned long long)c->divergent, (unsigned long long)c->warp_instructions);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_CONFLICTS), (unsigned long long)c->conflicts_load, (unsigned long long)c->conflicts_store);
    if (!holding_back(u)) line_at(u, in, row, c->conflicts_load + c->conflicts_store ? th->conflict : th->text, DL_FONT_UI, b);
    row++;
    snprintf(b, sizeof b, S(u, STR_STAT_BARRIERS), (unsigned long long)c->barriers);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_SECTORS), (unsigned long long)c->sectors, (unsigned long long)c->sectors_min);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, p->wrong_result ? STR_STAT_WRONG : p->racing_result ? STR_STAT_RACING : STR_STAT_RESULT), (double)m->t->result,
             m->t->reference);
    line_at(u, in, row++, p->wrong_result || p->racing_result ? th->conflict : th->text, DL_FONT_UI, b);
    if (p->hz_count || u->sc->s->brk.schedule[0] || u->sc->s->brk.drop_barrier) {
        char drop[80] = "";
        if (pv->drop_barrier) snprintf(drop, sizeof drop, ", -__syncthreads@%u", pv->drop_barrier);
        snprintf(b, sizeof b, S(u, STR_STAT_HAZARDS), p->hz_count, pv->schedule[0] ? pv->schedule : "lockstep", drop);
        line_at(u, in, row++, p->hz_count ? th->conflict : th->text, DL_FONT_UI, b);
    }
    for (int k = 0; k < p->hz_nstep; k++) {
        const trace_hazard *h = &m->t->hazards[p->hz_step[k]];
        snprintf(b, sizeof b, S(u, STR_STAT_HAZARD), trace_hazard_words((trace_hazard_kind)h->kind), h->first.line, h->second.line,
                 (long long)h->word, h->first.thread, h->second.thread);
        line_at(u, in, row++, th->conflict, DL_FONT_UI, b);
    }
    const char *device = strcmp(pv->device, "CPU emulator") ? pv->device : S(u, STR_DEVICE_EMULATOR); /* trace.h's name for it */
    snprintf(b, sizeof b, S(u, STR_STAT_FROM), device, pv->backend, pv->block, (unsigned long long)pv->n, pv->data);
    line_at(u, in, row++, th->dim, DL_FONT_UI, b);
}

static void draw_timeline(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    char title[200];
    snprintf(title, sizeof title, S(u, m->fine ? STR_TIMELINE_FINE : STR_TIMELINE), m->nsteps, m->nphases);
    dl_rect in = panel(u, "timeline", r, r.h >= 2 * u->lh + 2 * u->pad ? title : NULL); /* compact: the bar alone */
    if (in.h < 4) return;
    dl_rect bar = {in.x, in.y + 3, in.w, in.h - 3};
    dl_fill_hit(u->l, bar, u->th->idle, HIT_CODE(HIT_TIMELINE, pi, 0)); /* click or drag: seek */
    size_t ns = m->nsteps ? m->nsteps : 1;
    int px = bar.x + (int)((double)(p->step + 1) / (double)ns * bar.w);
    dl_fill(u->l, (dl_rect){bar.x, bar.y, px - bar.x, bar.h}, u->th->accent);
    for (unsigned ph = 0; ph < m->nphases; ph++) {
        long s0 = view_phase_first(m, ph);
        if (s0 < 0) continue;
        int x = bar.x + (int)((double)s0 / (double)ns * bar.w);
        dl_fill(u->l, (dl_rect){x, bar.y - 3, 2, bar.h + 3}, u->th->dim);
    }
}

/* ---------- the stage: what each panel needs, and which the step is about ---------- */

/* The step's kind decides which picture is the show: a shared access with a bank conflict shows
 * lanes to banks, any other shared access the tree, a global access its loads, a shuffle the
 * shuffles, a barrier who waits, anything else (an exit, a fence) the picture as it stands. The
 * source line comes next, then the rest. */
typedef enum stage_class { CLASS_CONFLICT, CLASS_SHARED, CLASS_GLOBAL, CLASS_SHUFFLE, CLASS_BARRIER, CLASS_OTHER, CLASS_COUNT } stage_class;

/* per class, each panel's priority (0 is the step's picture) */
static const unsigned char stage_priority[CLASS_COUNT][PANEL_COUNT] = {
    /*                 SOURCE PICTURE MEMORY LANES BANKS STATS TIMELINE */
    [CLASS_CONFLICT] = {1, 2, 3, 4, 0, 5, 6},
    [CLASS_SHARED] = {1, 0, 3, 4, 2, 5, 6},
    [CLASS_GLOBAL] = {1, 0, 4, 2, 5, 3, 6},
    [CLASS_SHUFFLE] = {1, 0, 4, 2, 5, 3, 6},
    [CLASS_BARRIER] = {1, 2, 3, 0, 5, 4, 6},
    [CLASS_OTHER] = {1, 0, 3, 2, 5, 4, 6},
};

static stage_class pane_class(const scene_pane *p)
{
    if (!p->shown || !p->st) return CLASS_OTHER;
    switch (trace_kind_addr((trace_kind)p->st->kind)) {
    case TRACE_ADDR_SHARED: return p->worst_degree > 1 ? CLASS_CONFLICT : CLASS_SHARED;
    case TRACE_ADDR_GLOBAL: return CLASS_GLOBAL;
    case TRACE_ADDR_LANE: return p->st->kind == TRACE_SHUFFLE ? CLASS_SHUFFLE : CLASS_OTHER;
    default: return p->st->kind == TRACE_BARRIER || p->st->kind == TRACE_WARP_SYNC ? CLASS_BARRIER : CLASS_OTHER;
    }
}

/* The panel that is the step's picture for a class. */
static int stage_focus(stage_class c)
{
    for (int k = 0; k < PANEL_COUNT; k++)
        if (stage_priority[c][k] == 0) return k;
    return PANEL_PICTURE;
}

/* While a lesson's step asks for lanes, banks or shared words to be clicked, the panel that holds
 * them is the step's picture: the learner cannot answer on a summary line, nor see the answer
 * outlined there. -1: none. */
static int ask_panel(const session *s)
{
    if (!s->lesson.active) return -1; /* open, answered or revealed: the answer is shown there too */
    int a = s->lesson.ask == ASK_LANES ? PANEL_LANES : s->lesson.ask == ASK_BANKS ? PANEL_BANKS : s->lesson.ask == ASK_CELLS ? PANEL_MEMORY : -1;
    return a >= 0 && s->panels && !(s->panels >> a & 1) ? -1 : a; /* a panel the step leaves out stays out */
}

/* The stage's picture and each panel's priority: the step's class's, the panel a question is
 * answered on swapping places with the class's picture. */
static int stage_focus_of(const ui *u, stage_class c)
{
    int a = ask_panel(u->sc->s);
    return a >= 0 ? a : stage_focus(c);
}
static int stage_priority_of(const ui *u, stage_class c, int panel)
{
    int a = ask_panel(u->sc->s), f = stage_focus(c);
    if (a < 0 || a == f) return stage_priority[c][panel];
    return panel == a ? 0 : panel == f ? stage_priority[c][a] : stage_priority[c][panel];
}

/* Compare shows both panes the same kind of picture: a conflict in either is the show. A picture
 * the user pinned (V) is the show whatever the step. */
static stage_class scene_class(const scene *sc)
{
    if (sc->s->picture != PICTURE_AUTO) return CLASS_SHARED; /* the class whose show is the picture panel */
    stage_class c = pane_class(&sc->pane[0]);
    if (sc->compare) {
        stage_class d = pane_class(&sc->pane[1]);
        if (d < c) c = d;
    }
    return c;
}

/* A panel's frame: padding around, a title line. */
static int chrome(const ui *u) { return 2 * u->pad + u->lh; }

/* The content heights (below the title) each panel needs at content width w: the least that
 * still shows what it is for, and what its content would fill. */
static void measure(ui *u, int panel_id, const scene_pane *p, int w, int *min, int *pref)
{
    const view_model *m = p->m;
    int lh = u->lh, vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    *min = *pref = 0;
    switch (panel_id) {
    case PANEL_SOURCE: {
        int rows = source_rows_min(u, p, w);
        *min = rows * lh;
        *pref = (rows + 8) * lh;
        break;
    }
    case PANEL_PICTURE:
        if (p->picture == PICTURE_LOADS) {
            if (!p->nloads) break;
            int text_rows = (p->nsectors < 8 ? p->nsectors : 8) + 1;
            *min = lh + lh;
            *pref = 3 * lh + text_rows / 2 * lh;
        } else if (p->picture == PICTURE_SHUFFLE) {
            if (!m->nshfl) break;
            int first, last;
            shfl_round(p, &first, &last);
            int rows = last - first + 1;
            *min = rows * (lh + 4);
            *pref = rows * 2 * lh;
        } else {
            if (!m->nnodes || m->tree_words <= 0) break;
            int rows = m->tree_levels + 1, overview = m->tree_words > 8 ? lh / 2 + 2 : 0;
            /* two rows (the step's sums and their inputs) of values at the least size, else the summary */
            int two = 2 * (dl_text_height(u->l, DL_FONT_MONO, tree_value_least(u)) + 6);
            *min = overview + (rows * 8 > two ? rows * 8 : two);
            *pref = overview + rows * (vh + 10);
        }
        if (p->has_regs && p->picture != PICTURE_TREE && *min) { /* the register row under it */
            int cols = registers_cols(u, p, w + 2 * u->pad, 1 << 20);
            *pref += registers_height(u, cols) + u->pad / 2;
        }
        break;
    case PANEL_MEMORY: {
        if (!m->nwords) break;
        int rows = (int)((m->nwords + WARP_SIZE - 1) / WARP_SIZE), shown = rows < 8 ? rows : 8;
        *min = shown * (u->least + 4); /* cells a value fits in at the least size; less, and the panel is its summary line */
        *pref = shown * (vh + 4);
        break;
    }
    case PANEL_LANES: {
        int nw = (int)m->nwarps;
        *min = (nw > 1 ? 2 : 1) * (lh + 2);
        *pref = (nw < 16 ? nw : 16) * (lh + 2);
        break;
    }
    case PANEL_BANKS: {
        if (p->bank_event < 0) break;
        int deg = p->worst_degree > 0 ? p->worst_degree : 1;
        *min = lh + (lh + 2) + 8 + deg * 6 + lh;
        *pref = lh + (lh + 2) + 2 * lh + deg * (lh + 4) + lh;
        break;
    }
    case PANEL_STATS:
        *min = 3 * lh;
        *pref = (11 + p->hz_nstep) * lh;
        break;
    default: break;
    }
    if (*pref < *min) *pref = *min;
}

/* What a panel says in one line when it has no room to draw. */
static void summary(ui *u, int panel_id, const scene_pane *p, char *b, size_t len)
{
    const view_model *m = p->m;
    b[0] = '\0';
    switch (panel_id) {
    case PANEL_SOURCE: {
        char code[200];
        trace_text_line_copy(p->source, p->st ? p->st->line : 0, code, sizeof code);
        snprintf(b, len, S(u, STR_SUM_SOURCE), p->st ? p->st->line : 0, code);
        break;
    }
    case PANEL_PICTURE:
        if (p->picture == PICTURE_LOADS) {
            if (!p->nloads) { snprintf(b, len, "%s", S(u, STR_LOADS_NONE)); break; }
            int sec = 0, fewest = 0;
            for (int i = 0; i < p->nsectors; i++) { sec += p->sectors[i].sectors; fewest += p->sectors[i].sectors_min; }
            snprintf(b, len, S(u, STR_SUM_LOADS), (long long)p->load_lo, (long long)p->load_hi, sec, fewest);
        } else if (p->picture == PICTURE_SHUFFLE) {
            if (!m->nshfl) { snprintf(b, len, "%s", S(u, STR_SHFL_NONE)); break; }
            size_t got = 0;
            for (size_t i = 0; i < m->nshfl; i++) got += m->shfl[i].warp == p->shfl_warp && m->shfl[i].step <= p->step;
            snprintf(b, len, S(u, STR_SUM_SHFL), p->shfl_warp, got);
        } else {
            if (!m->nnodes || m->tree_words <= 0) { snprintf(b, len, "%s", S(u, STR_TREE_NONE)); break; }
            size_t sofar = 0, now = 0;
            for (size_t i = 0; i < m->nnodes; i++) { sofar += m->nodes[i].step <= p->step; now += m->nodes[i].step == p->step; }
            snprintf(b, len, S(u, STR_SUM_TREE), sofar, now);
        }
        break;
    case PANEL_MEMORY: {
        if (!m->nwords) { snprintf(b, len, "%s", S(u, STR_SHARED_NONE)); break; }
        size_t rd = 0, wr = 0;
        for (size_t i = 0; i < m->nwords; i++) { rd += p->touched[i] == 1; wr += p->touched[i] == 2; }
        snprintf(b, len, S(u, STR_SUM_MEMORY), m->nwords, rd, wr);
        break;
    }
    case PANEL_LANES: {
        char w[400];
        warps_in_words(u, p, 0, m->nwarps, w, sizeof w);
        snprintf(b, len, S(u, STR_SUM_LANES), w);
        break;
    }
    case PANEL_BANKS:
        if (p->bank_event < 0) { snprintf(b, len, "%s", S(u, STR_BANKS_NONE)); break; }
        banks_title(u, p, b, len);
        break;
    case PANEL_STATS: {
        const view_counts *c = &p->counts;
        snprintf(b, len, S(u, STR_SUM_STATS), p->st ? p->st->phase : 0, m->nphases ? m->nphases - 1 : 0, p->step, m->nsteps ? m->nsteps - 1 : 0,
                 (unsigned long long)(c->conflicts_load + c->conflicts_store), (double)m->t->result, m->t->reference);
        break;
    }
    default: break;
    }
}

/* the draw list keeps the name's pointer: the summaries' names are constants too */
static const char *const summary_names[PANEL_COUNT] = {
    [PANEL_SOURCE] = "source summary", [PANEL_PICTURE] = "picture summary", [PANEL_MEMORY] = "memory summary",
    [PANEL_LANES] = "lanes summary",   [PANEL_BANKS] = "banks summary",     [PANEL_STATS] = "stats summary",
    [PANEL_TIMELINE] = "timeline summary"};

/* A panel with no room for its picture: one line that says what it would show. */
static void draw_summary(ui *u, int panel_id, const scene_pane *p, dl_rect r)
{
    char b[600];
    dl_panel_begin(u->l, summary_names[panel_id], r);
    dl_fill(u->l, r, u->th->panel);
    summary(u, panel_id, p, b, sizeof b);
    dl_text(u->l, (dl_rect){r.x + u->pad, r.y + (r.h - u->lh) / 2, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, b);
}

/* ---------- a pane: one traced block of one version ---------- */

static void draw_panel(ui *u, int panel_id, int pi, const scene_pane *p, const scene_pane *bp, int waves, dl_rect r)
{
    switch (panel_id) {
    case PANEL_SOURCE: draw_source(u, p, r); break;
    case PANEL_STATS: draw_stats(u, p, r); break;
    case PANEL_PICTURE: draw_picture(u, pi, p, r); break;
    case PANEL_MEMORY: draw_memory(u, pi, p, r); break;
    case PANEL_LANES: draw_lanes(u, pi, p, r); break;
    default: draw_banks(u, pi, bp, r, waves); break;
    }
}

/* Lays panels out in a column: each states its minimum and preferred height, the solver
 * (layout.h) gives the step's picture its room first; a panel short of its minimum is a summary
 * line. `want` is the height the step's picture should have to hold its share of the window. */
static void stage_column(ui *u, int pi, const scene_pane *p, const scene_pane *bp, int waves, dl_rect col, const int *ids, int n,
                         stage_class cls, int want, const scene_pane *twin)
{
    layout_item it[PANEL_COUNT] = {{0}};
    layout_slot sl[PANEL_COUNT] = {{0}};
    int own_empty[PANEL_COUNT] = {0}; /* this pane has nothing for it at this step (its twin may) */
    int focus = stage_focus_of(u, cls);
    for (int i = 0; i < n; i++) {
        int mn, pf, tmn, tpf;
        measure(u, ids[i], p, col.w - 2 * u->pad, &mn, &pf);
        own_empty[i] = mn == 0;
        if (twin && twin->shown) { /* compare: both panes get the same layout, panel beside panel */
            measure(u, ids[i], twin, col.w - 2 * u->pad, &tmn, &tpf);
            if (mn && tmn > mn) mn = tmn;
            if (!mn) mn = tmn;
            if (tpf > pf) pf = tpf;
        }
        int empty = mn == 0; /* nothing to draw at this step: its summary says so */
        it[i] = (layout_item){.min_h = empty ? 0 : mn + chrome(u), .pref_h = empty ? 0 : pf + chrome(u), .summary_h = u->lh + u->pad / 2,
                              .priority = stage_priority_of(u, cls, ids[i]), .stretch = ids[i] == focus || (ids[i] == PANEL_SOURCE && n <= 2),
                              .claims = ids[i] == focus ? 2 : ids[i] == PANEL_SOURCE};
        if (ids[i] == focus && it[i].pref_h < want) it[i].pref_h = want;
        if (ids[i] == focus) it[i].claim_h = want; /* its share of the window, in place of summaries if need be */
    }
    layout_column(it, n, col.y, col.h, u->pad, sl);
    for (int i = 0; i < n; i++) {
        dl_rect r = {col.x, sl[i].y, col.w, sl[i].h};
        if (sl[i].state == LAYOUT_FULL && !own_empty[i]) draw_panel(u, ids[i], pi, p, bp, waves, r);
        else if (sl[i].state != LAYOUT_HIDDEN) draw_summary(u, ids[i], p, r);
    }
}

/* One pane: title, the panels, the timeline. Wide panes keep the code and the counters in a
 * column on the left and the pictures on the right; narrow ones (compare, presenter mode, small
 * windows) stack them: the source, the step's picture under it, then the rest. `share` is the
 * part of the window's area the step's picture of this pane should reach. */
static void draw_pane(ui *u, int pi, dl_rect r, stage_class cls, long share)
{
    const scene_pane *twin = u->sc->compare ? &u->sc->pane[1 - pi] : NULL;
    /* moving: everything is drawn as at the step the move started from, with the motion on top
     * (values travelling, lanes fading, wavefronts landing); at the end it is the new step */
    const scene_pane *to = &u->sc->pane[pi], *from = &u->sc->prev[pi];
    int moving = u->ease < 1 && from->shown && to->shown && from->step != to->step;
    const scene_pane *p = moving ? from : to;
    u->to = moving ? to : NULL;
    if (!p->shown) return;
    int waves = moving && u->ease > 0 ? (int)ceil(u->ease * to->worst_degree) : BANKS;
    const scene_pane *bp = moving && u->ease > 0 ? to : p;
    int compact = u->compact, head = u->blh + (compact ? 0 : u->lh);
    dl_panel_begin(u->l, "title", (dl_rect){r.x, r.y, r.w, head});
    dl_text(u->l, (dl_rect){r.x + u->pad, r.y, r.w - 2 * u->pad, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, p->title);
    if (!compact) dl_text(u->l, (dl_rect){r.x + u->pad, r.y + u->blh, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->dim, p->summary);
    unsigned shown = u->sc->s->panels ? u->sc->s->panels : ~0u;
    int has_timeline = (shown >> PANEL_TIMELINE) & 1;
    int top = r.y + head + u->pad, tl_h = has_timeline ? (compact ? u->lh / 2 + 2 * u->pad + 3 : 2 * u->lh + 2 * u->pad) : 0;
    dl_rect body = {r.x, top, r.w, r.y + r.h - top - tl_h - (has_timeline ? u->pad : 0)};
    static const int order[] = {PANEL_SOURCE, PANEL_PICTURE, PANEL_BANKS, PANEL_MEMORY, PANEL_LANES, PANEL_STATS};
    int focus = stage_focus_of(u, cls), wide = r.w >= 100 * u->digit;
    int left[PANEL_COUNT], right[PANEL_COUNT], nl = 0, nr = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int id = order[k];
        if (!(shown >> id & 1)) continue;
        if (wide && (id == PANEL_SOURCE || id == PANEL_STATS)) left[nl++] = id;
        else if (id == focus) { /* the step's picture: right under the source (or at the top of the right) */
            int at = wide ? 0 : (nr > 0 && right[0] == PANEL_SOURCE);
            for (int j = nr; j > at; j--) right[j] = right[j - 1];
            right[at] = id;
            nr++;
        } else right[nr++] = id;
    }
    if (wide && nl && nr) {
        int lw = r.w * 38 / 100;
        dl_rect lc = {body.x, body.y, lw - u->pad, body.h}, rc = {body.x + lw, body.y, body.w - lw, body.h};
        stage_column(u, pi, p, bp, waves, lc, left, nl, cls, 0, twin);
        stage_column(u, pi, p, bp, waves, rc, right, nr, cls, rc.w > 0 ? (int)(share / rc.w) : 0, twin);
    } else {
        for (int i = 0; i < nl; i++) right[nr++] = left[i];
        stage_column(u, pi, p, bp, waves, body, right, nr, cls, body.w > 0 ? (int)(share / body.w) : 0, twin);
    }
    if (has_timeline) draw_timeline(u, pi, p, (dl_rect){r.x, r.y + r.h - tl_h, r.w, tl_h});
}

/* ---------- benchmark view ---------- */

static int log2_of(uint64_t n)
{
    int k = 0;
    while (k < 63 && ((uint64_t)1 << k) < n) k++;
    return k;
}

static void draw_bench(ui *u, dl_rect r)
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
    size_t nr = results_rows_at(res, n, mode, rows, 64), shown_rows = 0;
    for (size_t i = 0; i < nr; i++) shown_rows += strcmp(rows[i]->name, "d2d-copy") != 0;
    int chart_h = (in.y + in.h - top) * 2 / 5;
    int lh = shown_rows ? (in.y + in.h - top - chart_h - u->lh) / (int)(shown_rows + 1) : u->lh;
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
    static const char *const series[] = {"v0", "v3", "v6", "v8", "cub", "thrust", "best-read"};
    enum { NSERIES = sizeof series / sizeof *series };
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
    for (double v = 0; v <= maxg; v += tick) {
        int yy = ch.y + ch.h - 1 - (int)(v / maxg * (ch.h - 1));
        dl_fill(u->l, (dl_rect){ch.x, yy, ch.w, 1}, th->grid);
        if (yy - u->lh / 2 >= ch.y && yy + u->lh / 2 <= ch.y + ch.h)
            dl_textf(u->l, (dl_rect){in.x, yy - u->lh / 2, label_w - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->dim, "%.0f", v);
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

/* ---------- the grid view ---------- */

/* Tile colours: what the block is doing on the card, as the lanes' legend says it (running works,
 * done has exited), and grey for a block a GPU capture did not record. */
static dl_colour tile_colour(const theme *th, int state)
{
    const dl_colour c[] = {[TILE_WAITING] = th->background, [TILE_RUNNING] = th->working, [TILE_DONE] = th->read, [TILE_UNTRACED] = th->idle};
    return (unsigned)state < sizeof c / sizeof c[0] ? c[state] : th->idle;
}

/* text in a box only where all of it fits: a tile shows nothing rather than half a number */
static int fits_text(ui *u, dl_rect box, dl_font f, dl_colour c, const char *s)
{
    if (box.h < u->lh || dl_text_width(u->l, f, u->px, s) > box.w) return 0;
    dl_text(u->l, box, f, u->px, DL_LEFT, c, s);
    return 1;
}

/* The launch plan as a row of passes, the selected one filled; returns the row's height. */
static int grid_plan(ui *u, const scene_grid *g, dl_rect in)
{
    const theme *th = u->th;
    const trace *t = g->t;
    int lw = dl_text_width(u->l, DL_FONT_UI, u->px, S(u, STR_GRID_PLAN)) + u->pad;
    dl_text(u->l, (dl_rect){in.x, in.y, lw, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, S(u, STR_GRID_PLAN));
    int x = in.x + lw, avail = in.w - lw, gap = u->pad;
    int fair = g->npasses ? (avail - (int)g->npasses * gap) / (int)g->npasses : avail;
    for (unsigned k = 0; k < g->npasses; k++) {
        char b[120];
        snprintf(b, sizeof b, S(u, STR_GRID_PASS), k, t->passes[k].grid, t->passes[k].block, (unsigned long long)t->passes[k].n_in);
        int w = dl_text_width(u->l, DL_FONT_MONO, u->px, b) + 2 * u->pad;
        if (w > fair) w = fair; /* many passes (naive): each gets its share, text shortened */
        if (w < 4 || x + w > in.x + in.w) break;
        dl_rect c = {x, in.y, w, u->lh};
        int sel = k == g->pass;
        dl_fill_hit(u->l, c, sel ? th->accent : th->background, HIT_CODE(HIT_PASS, 0, k));
        dl_text(u->l, (dl_rect){c.x + u->pad, c.y, c.w - 2 * u->pad, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, sel ? th->background : th->text, b);
        x += w + gap;
    }
    return u->lh + u->pad;
}

/* the legend of tile states, on one line */
static void grid_legend(ui *u, dl_rect in)
{
    static const struct { int state; str_id name; } legend[] = {{TILE_WAITING, STR_GRID_WAITING}, {TILE_RUNNING, STR_GRID_RUNNING},
                                                                {TILE_DONE, STR_GRID_DONE}, {-1, STR_GRID_OPEN}};
    int x = in.x, sw = u->lh * 2 / 3, right = in.x + in.w;
    for (size_t i = 0; i < sizeof legend / sizeof *legend; i++) {
        const char *name = S(u, legend[i].name);
        int w = sw + u->pad / 2 + dl_text_width(u->l, DL_FONT_UI, u->px, name);
        if (x + w > right) break;
        dl_rect sq = {x, in.y + (u->lh - sw) / 2, sw, sw};
        if (legend[i].state >= 0) {
            dl_fill(u->l, sq, tile_colour(u->th, legend[i].state));
            dl_outline(u->l, sq, u->th->grid, 1);
        } else {
            dl_outline(u->l, sq, u->th->accent, 2);
        }
        dl_text(u->l, (dl_rect){x + sw + u->pad / 2, in.y, right - x - sw - u->pad / 2, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, name);
        x += w + 2 * u->pad;
    }
}

/* Columns for n tiles in w x h: the layout that gives the largest tiles about 4 times as wide as
 * high (a block number and a partial sum side by side). */
static int grid_columns(size_t n, int w, int h)
{
    int best = 1;
    double score = -1;
    for (size_t cols = 1; cols <= n; cols++) {
        size_t rows = (n + cols - 1) / cols;
        double tw = (double)w / (double)cols, th = (double)h / (double)rows, s = tw / 4 < th ? tw / 4 : th;
        if (s > score) { score = s; best = (int)cols; }
        if (rows == 1) break;
    }
    return best;
}

/* A GPU trace's SMs: a row per SM the pass ran on, its blocks left to right in the order they
 * started there (by that SM's clock: clocks of different SMs are not compared). */
static void grid_sms(ui *u, const scene_grid *g, dl_rect r)
{
    const theme *th = u->th;
    dl_text(u->l, (dl_rect){r.x, r.y, r.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_GRID_SM_TITLE));
    r.y += u->lh;
    r.h -= u->lh;
    int rows = (int)g->npass_sms, rh = r.h / (rows ? rows : 1);
    if (rh > u->lh + 2) rh = u->lh + 2; /* a line of text in each box, with a pixel to spare */
    if (rh < 1) return;
    int label_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "SM 000") + u->pad, every = (u->lh + rh - 1) / rh;
    int bw = (r.w - label_w) / g->max_turn, vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    int want = dl_text_width(u->l, DL_FONT_MONO, u->px, "00000") + u->pad;
    if (bw > want) bw = want;
    if (bw < 1) return;
    for (int k = 0; k < rows; k += every)
        if (r.y + k * rh + u->lh <= r.y + r.h)
            dl_textf(u->l, (dl_rect){r.x, r.y + k * rh, label_w - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->dim, "SM %u", g->pass_sms[k]);
    for (size_t i = 0; i < g->ntiles; i++) {
        const scene_tile *tl = &g->tiles[i];
        if (tl->sm_order <= 0) continue;
        size_t lo = 0, hi = g->npass_sms; /* its SM's row */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (g->pass_sms[mid] < tl->sm) lo = mid + 1;
            else hi = mid;
        }
        dl_rect c = {r.x + label_w + (tl->sm_order - 1) * bw, r.y + (int)lo * rh, bw > 3 ? bw - 1 : bw, rh > 3 ? rh - 1 : rh};
        dl_fill_hit(u->l, c, tile_colour(th, tl->state), HIT_CODE(HIT_TILE, 0, tl->block));
        if (vh <= c.h) {
            char v[16];
            snprintf(v, sizeof v, "%u", tl->block);
            fits_text(u, (dl_rect){c.x + 2, c.y, c.w - 2, c.h}, DL_FONT_MONO, th->text, v);
        }
    }
}

static int text_block(ui *u, dl_rect r, int y, int px, dl_colour c, const char *text);

/* what limits the blocks an SM holds, in the learner's language */
static const str_id limit_str[CARD_LIMIT_COUNT] = {[CARD_LIMIT_THREADS] = STR_LIMIT_THREADS, [CARD_LIMIT_BLOCKS] = STR_LIMIT_BLOCKS,
                                                   [CARD_LIMIT_SHARED] = STR_LIMIT_SHARED, [CARD_LIMIT_REGISTERS] = STR_LIMIT_REGISTERS};

/* The card: a box per SM, in each a slot per block the SM holds at once, filled with the block
 * that holds it at the wave shown (its number where it fits) or empty: in the last wave, the
 * empty slots are the card standing idle. A click on a block opens it. */
static void grid_card(ui *u, const scene_grid *g, dl_rect r)
{
    const theme *th = u->th;
    dl_text(u->l, (dl_rect){r.x, r.y, r.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_GRID_CARD_TITLE));
    r.y += u->lh;
    r.h -= u->lh;
    unsigned sms = g->nsm_slots, ns = g->nslots;
    if (!sms || !ns || r.h < 4) return;
    /* slots in rows of up to 8 inside a box; boxes in the columns that give the largest slots
     * (twice as wide as high: a block number fits) */
    unsigned scols = ns < 8 ? ns : 8, srows = (ns + scols - 1) / scols;
    int best_cols = 1;
    double best = -1;
    for (unsigned c = 1; c <= sms; c++) {
        unsigned rows = (sms + c - 1) / c;
        double cw = ((double)r.w / c - 3) / scols, ch = ((double)r.h / rows - 3) / srows, sc = cw / 2 < ch ? cw / 2 : ch;
        if (sc > best) { best = sc; best_cols = (int)c; }
    }
    int cols = best_cols, rows = (int)((sms + (unsigned)cols - 1) / (unsigned)cols);
    int bw = r.w / cols, bh = r.h / rows, cw = (bw - 3) / (int)scols, ch = (bh - 3) / (int)srows;
    if (ch > u->lh + 2) ch = u->lh + 2;
    if (cw > 2 * (u->lh + 2) + dl_text_width(u->l, DL_FONT_MONO, u->px, "0000")) cw = 2 * (u->lh + 2) + dl_text_width(u->l, DL_FONT_MONO, u->px, "0000");
    if (cw < 1 || ch < 1) return;
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    for (unsigned sm = 0; sm < sms; sm++) {
        int bx = r.x + (int)(sm % (unsigned)cols) * bw, by = r.y + (int)(sm / (unsigned)cols) * bh;
        dl_rect box = {bx, by, (int)scols * cw + 2, (int)srows * ch + 2};
        dl_outline(u->l, box, th->grid, 1);
        for (unsigned k = 0; k < ns; k++) {
            int b = g->slots[(size_t)sm * ns + k];
            dl_rect c = {bx + 1 + (int)(k % scols) * cw, by + 1 + (int)(k / scols) * ch, cw > 2 ? cw - 1 : cw, ch > 2 ? ch - 1 : ch};
            if (b < 0) continue; /* an idle slot: the box's background shows through */
            dl_fill_hit(u->l, c, tile_colour(th, g->slots_done ? TILE_DONE : TILE_RUNNING), HIT_CODE(HIT_TILE, 0, (unsigned)b));
            if (vh <= c.h) {
                char v[16];
                snprintf(v, sizeof v, "%d", b);
                fits_text(u, (dl_rect){c.x + 1, c.y, c.w - 1, c.h}, DL_FONT_MONO, th->text, v);
            }
        }
    }
}

/* the strip of a pass's output: element i of n at [x(i), x(i + 1)) */
static int strip_x(dl_rect s, size_t i, size_t n) { return s.x + (int)((double)i * s.w / (double)(n ? n : 1)); }

static void draw_grid(ui *u, dl_rect r)
{
    const scene_grid *g = &u->sc->grid;
    const session *s = u->sc->s;
    const theme *th = u->th;
    dl_rect in = panel(u, "grid", r, NULL);
    if (!g->shown) { line_at(u, in, 0, th->text, DL_FONT_UI, S(u, STR_GRID_NONE)); return; }
    const trace *t = g->t;
    const trace_pass *tp = &t->passes[g->pass];
    char b[400];
    snprintf(b, sizeof b, S(u, STR_GRID_TITLE), g->name, g->pass, tp->grid, tp->block, (unsigned long long)tp->n_in);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, th->text, b);
    int y = in.y + u->blh + u->pad;
    y += grid_plan(u, g, (dl_rect){in.x, y, in.w, u->lh});
    grid_legend(u, (dl_rect){in.x, y, in.w, u->lh});
    y += u->lh;
    /* what the states mean now, and what is missing */
    if (g->blocks > g->ntiles) {
        snprintf(b, sizeof b, S(u, STR_GRID_CAPPED), g->blocks, (unsigned)g->ntiles);
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, b);
        y += u->lh;
    } else if (g->traced < g->ntiles && !s->lesson.active) { /* a lesson's grid is about the card, not the sums */
        snprintf(b, sizeof b, S(u, s->loader.load ? STR_GRID_SOME_TRACED : STR_GRID_SOME_TRACED_FILE), g->traced, (unsigned)g->ntiles,
                 (unsigned)g->ntiles); /* A captures again; a file cannot */
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, b);
        y += u->lh;
    }
    /* the schedule: on which card, how many at once, which wave */
    const card_schedule *cs = &g->sched;
    if (!g->card) snprintf(b, sizeof b, S(u, STR_GRID_NO_SCHED), g->sched_err);
    else if (g->timed) {
        const card_observed *o = &g->obs;
        snprintf(b, sizeof b, S(u, STR_GRID_TIMED_SCHED), o->sms_used, o->most_live_on_one_sm, (unsigned long long)o->started_before_first_end, g->card->id,
                 cs->blocks_per_sm);
    } else if (holding_back(u)) { /* a question is open: its figures wait for the answer */
        snprintf(b, sizeof b, S(u, STR_GRID_SCHED_HELD), g->card->name, cs->sms);
    } else {
        char nb[48], nw[48];
        snprintf(b, sizeof b, S(u, STR_GRID_SCHED), g->card->name, cs->sms, cs->blocks_per_sm, tp->block, (unsigned long long)cs->resident_blocks,
                 S(u, limit_str[cs->limit]), str_count(u->L, NOUN_BLOCK, tp->grid, nb, sizeof nb),
                 str_count(u->L, NOUN_WAVE, g->nwaves, nw, sizeof nw));
    }
    /* these lines wrap: at a room's size they are the point of the view */
    dl_rect lines = {in.x, y, in.w, 4 * u->lh}; /* two lines each at most */
    y = text_block(u, lines, y, u->px, th->text, b);
    lines = (dl_rect){in.x, y, in.w, 2 * u->lh};
    char nblocks[48];
    str_count(u->L, NOUN_BLOCK, tp->grid, nblocks, sizeof nblocks);
    if (holding_back(u)) b[0] = '\0';
    else if (g->wave >= g->nwaves) snprintf(b, sizeof b, S(u, STR_GRID_ENDED), nblocks);
    else if (g->timed)
        snprintf(b, sizeof b, S(u, STR_GRID_TIMED), t->prov.device, (double)g->moment / 1000.0, g->wave + 1, g->nwaves,
                 (unsigned long long)g->running, (unsigned long long)g->done);
    else if (g->card) {
        unsigned long long first = g->wave_first, last = g->wave_last ? g->wave_last - 1 : 0;
        if (g->wave + 1 == g->nwaves && g->running < cs->resident_blocks) /* the last (or only) wave leaves slots idle */
            snprintf(b, sizeof b, S(u, STR_GRID_WAVE_LAST), g->wave + 1, g->nwaves, first, last, (unsigned long long)g->running,
                     (unsigned long long)cs->resident_blocks);
        else
            snprintf(b, sizeof b, S(u, STR_GRID_WAVE), g->wave + 1, g->nwaves, first, last, (unsigned long long)g->done);
    } else b[0] = '\0';
    y = b[0] ? text_block(u, lines, y, u->px, th->accent, b) : y + u->lh;
    if (g->gpu && !g->timed) {
        snprintf(b, sizeof b, S(u, STR_GRID_SMS), g->nsms);
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
        y += u->lh;
    }
    /* the flow below the tiles: the pass's output as a strip, and who reads it */
    /* a lesson's grid is about the card: its SMs get the room, the output strip none */
    int lesson = s->lesson.active;
    int flow = !lesson && (g->pass + 1 < g->npasses || g->last_block >= 0 || g->ntiles > 1);
    int strip_h = flow ? 4 * u->lh + 2 * u->pad : lesson ? 0 : 2 * u->lh;
    dl_rect area = {in.x, y + u->pad / 2, in.w, in.y + in.h - strip_h - (y + u->pad / 2)};
    if (area.h < 4 || g->ntiles == 0) return;
    /* under the tiles, the card: a GPU trace with no recorded runs, a row per SM, its blocks in
     * the order they ran there; otherwise a box per SM with the blocks it holds at the wave shown */
    int sm_h = 0, old_rows = g->gpu && !g->timed && g->npass_sms && g->max_turn > 0;
    if (old_rows) {
        sm_h = area.h * 2 / 5;
        if (sm_h > (int)(g->npass_sms + 1) * (u->lh + 2)) sm_h = (int)(g->npass_sms + 1) * (u->lh + 2);
        area.h -= sm_h + u->pad;
        if (area.h < 4) return;
    } else if (g->nsm_slots && g->nslots) {
        sm_h = lesson ? area.h * 3 / 4 : area.h / 2;
        area.h -= sm_h + u->pad;
        if (area.h < 4) return;
    }
    /* tiles: as large as the area allows, capped at three lines of text */
    size_t n = g->ntiles;
    /* a tile wants room for "block: partial" and two more lines; few tiles get that (and up to
     * twice as wide), many share the area */
    int want_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "0000: -0000.000") + 2 * u->pad, want_h = 3 * u->lh + u->pad;
    int cols = area.w / want_w > 0 ? area.w / want_w : 1;
    if ((size_t)cols > n) cols = (int)n;
    int rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
    int tw = area.w / cols, tht = want_h;
    if (tw > 2 * want_w) tw = 2 * want_w;
    if (rows * tht > area.h) { /* more than fit at full size */
        cols = grid_columns(n, area.w, area.h);
        rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
        tw = area.w / cols;
        tht = area.h / rows;
        if (tht > want_h) tht = want_h;
    }
    size_t shown = n;
    if (tw < 4 || tht < 3) { /* too many for the window: as many as fit, the rest counted */
        tw = 4;
        tht = 3;
        cols = area.w / tw;
        rows = (area.h - u->lh - u->pad) / tht; /* a line under them says how many more there are */
        if (rows < 1) rows = 1;
        shown = (size_t)cols * (size_t)rows < n ? (size_t)cols * (size_t)rows : n;
    }
    int gap = tw >= 12 && tht >= 8 ? 2 : tw >= 6 ? 1 : 0;
    int more_h = shown < n ? u->lh : 0; /* the line that counts the blocks not drawn */
    if (sm_h && old_rows) grid_sms(u, g, (dl_rect){in.x, area.y + rows * tht + more_h + u->pad, in.w, sm_h});
    else if (sm_h) grid_card(u, g, (dl_rect){in.x, area.y + rows * tht + more_h + u->pad, in.w, sm_h});
    dl_rect strip = {in.x, area.y + rows * tht + more_h + (sm_h ? sm_h + u->pad : 0) + u->lh + u->pad, in.w, u->lh};
    if (strip.y + 3 * u->lh > in.y + in.h) strip.y = in.y + in.h - 3 * u->lh;
    size_t nout = n;
    /* one row of tiles: a link from each to the element of the strip it wrote (more rows would
     * cross each other's links: there the strip's numbers say which element is whose) */
    if (flow && rows == 1 && shown == n && !sm_h) /* not across the SMs' boxes */
        for (size_t i = 0; i < n; i++)
            dl_line(u->l, area.x + (int)i * tw + (tw - gap) / 2, area.y + tht - gap, (strip_x(strip, i, n) + strip_x(strip, i + 1, n)) / 2,
                    strip.y, th->dim, 1);
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    for (size_t i = 0; i < shown; i++) {
        const scene_tile *tl = &g->tiles[i];
        dl_rect c = {area.x + (int)(i % (size_t)cols) * tw, area.y + (int)(i / (size_t)cols) * tht, tw - gap, tht - gap};
        dl_fill_hit(u->l, c, tile_colour(th, tl->state), HIT_CODE(HIT_TILE, 0, tl->block));
        if (tl->state == TILE_WAITING) dl_outline(u->l, c, th->grid, 1);
        if ((int)tl->block == g->last_block) dl_outline(u->l, c, th->subtree, c.w > 8 ? 3 : 1);
        if (s->pass == g->pass && s->block_index == tl->block) dl_outline(u->l, c, th->accent, c.w > 8 ? 2 : 1);
        if (vh > c.h) continue;
        /* line 1: block and partial sum; line 2: SM and turn, or ticket, or state; line 3: last ticket */
        dl_rect l1 = {c.x + 3, c.y + 1, c.w - 6, u->lh};
        char v[64];
        if (tl->has_partial) snprintf(v, sizeof v, "%u: %.7g", tl->block, (double)tl->partial);
        else snprintf(v, sizeof v, "%u", tl->block);
        if (!fits_text(u, l1, DL_FONT_MONO, th->text, v) && tl->has_partial) {
            snprintf(v, sizeof v, "%.7g", (double)tl->partial); /* the sum matters more than the number */
            if (!fits_text(u, l1, DL_FONT_MONO, th->text, v)) {
                snprintf(v, sizeof v, "%u", tl->block);
                fits_text(u, l1, DL_FONT_MONO, th->text, v);
            }
        }
        dl_rect l2 = {l1.x, l1.y + u->lh, l1.w, c.y + c.h - (l1.y + u->lh)};
        if (tl->sm_order > 0) snprintf(v, sizeof v, S(u, STR_GRID_SM), tl->sm, tl->sm_order);
        else if (tl->ticket >= 0) snprintf(v, sizeof v, S(u, STR_GRID_TICKET), tl->ticket);
        else if (tl->state != TILE_DONE) snprintf(v, sizeof v, "%s", S(u, scene_tile_names[tl->state]));
        else if (!tl->traced) snprintf(v, sizeof v, "%s", S(u, STR_GRID_UNTRACED));
        else v[0] = '\0';
        if (v[0]) fits_text(u, l2, DL_FONT_UI, th->text, v);
        dl_rect l3 = {l1.x, l2.y + u->lh, l1.w, c.y + c.h - (l2.y + u->lh)};
        if ((int)tl->block == g->last_block) fits_text(u, l3, DL_FONT_UI, th->text, S(u, STR_GRID_LAST));
    }
    if (shown < n) {
        snprintf(b, sizeof b, S(u, STR_GRID_HIDDEN), n - shown);
        dl_text(u->l, (dl_rect){in.x, area.y + rows * tht, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, b);
    }
    /* the strip: what the pass wrote to global memory, and who reads it */
    if (lesson) return;
    if (g->pass + 1 < g->npasses && tp->stride) /* the naive version: one launch per stride, in place */
        snprintf(b, sizeof b, S(u, STR_GRID_FLOW_IN_PLACE), g->pass, tp->stride, 2 * tp->stride, g->pass + 1);
    else if (g->pass + 1 < g->npasses) snprintf(b, sizeof b, S(u, STR_GRID_FLOW), g->pass, g->blocks, g->pass + 1);
    else if (g->last_block >= 0) snprintf(b, sizeof b, S(u, STR_GRID_TICKETS), g->last_block, g->blocks);
    else if (n > 1) snprintf(b, sizeof b, "%s", S(u, STR_GRID_TICKETS_UNTRACED));
    else snprintf(b, sizeof b, S(u, STR_GRID_RESULT), g->pass, (double)t->result, t->reference);
    dl_text(u->l, (dl_rect){in.x, strip.y - u->lh - u->pad / 2, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, b);
    if (!flow) return;
    int every = 1, numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "0000") + u->pad;
    while ((size_t)every < nout && every * strip.w / (int)nout < numw) every *= 2;
    for (size_t i = 0; i < nout; i++) {
        int x0 = strip_x(strip, i, nout), x1 = strip_x(strip, i + 1, nout);
        const scene_tile *tl = &g->tiles[i];
        dl_fill(u->l, (dl_rect){x0, strip.y, x1 - x0 > 2 ? x1 - x0 - 1 : 1, strip.h}, tl->has_partial ? th->write : th->idle);
    }
    for (size_t i = 0; i < nout; i++) { /* over the cells: each element's index, or every k-th */
        int x0 = strip_x(strip, i, nout);
        if (i % (size_t)every == 0 && vh <= strip.h) {
            char num[24];
            snprintf(num, sizeof num, "%zu", i);
            if (every > 1) dl_fill(u->l, (dl_rect){x0, strip.y, 1, strip.h}, th->text); /* a tick where the number is */
            fits_text(u, (dl_rect){x0 + 2, strip.y, every * strip.w / (int)nout - 2, strip.h}, DL_FONT_MONO, th->text, num);
        }
    }

    /* the readers: the next pass's blocks (or the last block) under the elements each read */
    int by = strip.y + strip.h + u->pad / 2;
    const scene_tile *readers = g->pass + 1 < g->npasses ? g->next : g->tiles;
    size_t nreaders = g->pass + 1 < g->npasses ? g->nnext : n;
    for (size_t j = 0; j < nreaders; j++) {
        const scene_tile *rd = &readers[j];
        if (rd->read_lo < 0 || (readers == g->tiles && (int)rd->block != g->last_block)) continue;
        int64_t lo = rd->read_lo, hi = rd->read_hi + 1 < (int64_t)nout ? rd->read_hi + 1 : (int64_t)nout;
        int x0 = strip_x(strip, (size_t)lo, nout), x1 = strip_x(strip, (size_t)hi, nout);
        dl_rect bar = {x0, by, x1 - x0 > 2 ? x1 - x0 - 1 : 1, u->lh / 3 > 2 ? u->lh / 3 : 2};
        dl_fill(u->l, bar, warp_colour(th, rd->block));
        snprintf(b, sizeof b, S(u, STR_GRID_READS), readers == g->tiles ? g->pass : g->pass + 1, rd->block);
        if (readers == g->tiles) snprintf(b + strlen(b), sizeof b - strlen(b), ": %s", S(u, STR_GRID_LAST));
        dl_rect lb = {x0, by + bar.h, x1 - x0, u->lh};
        if (lb.y + u->lh > in.y + in.h || fits_text(u, lb, DL_FONT_UI, th->dim, b)) continue;
        snprintf(b, sizeof b, "%u", rd->block); /* narrow: the block's number alone */
        fits_text(u, lb, DL_FONT_UI, th->dim, b);
    }
}

/* ---------- lessons ---------- */

/* Splits text into lines that fit width: at spaces, or between any two Chinese characters (which
 * need no space to break). Returns the number of lines; each is [starts[i], starts[i] + lens[i]). */
static int wrap(ui *u, const char *text, int width, int px, const char **starts, size_t *lens, int max)
{
    int n = 0;
    const char *p = text;
    while (*p && n < max) {
        while (*p == ' ') p++;
        const char *line = p, *brk = NULL, *q = p;
        int w = 0;
        while (*q && *q != '\n') {
            const char *before = q;
            uint32_t cp = dl_utf8_next(&q);
            int cw = u->l->m.advance(u->l->m.ctx, DL_FONT_UI, px, cp);
            if (w + cw > width && before > line) { q = before; break; }
            w += cw;
            if (cp == ' ' || cp >= 0x2E80) brk = cp == ' ' ? before : q; /* break after a CJK character, at a space */
        }
        const char *end = q;
        if (*q && *q != '\n' && brk && brk > line) end = brk;
        starts[n] = line;
        lens[n++] = (size_t)(end - line);
        p = end;
        if (*p == '\n') p++;
    }
    return n;
}

static int text_block(ui *u, dl_rect r, int y, int px, dl_colour c, const char *text)
{
    const char *starts[64];
    size_t lens[64];
    int lh = dl_text_height(u->l, DL_FONT_UI, px), n = wrap(u, text, r.w, px, starts, lens, 64);
    for (int i = 0; i < n && y + lh <= r.y + r.h; i++, y += lh) {
        char buf[1024];
        size_t len = lens[i] < sizeof buf - 1 ? lens[i] : sizeof buf - 1;
        memcpy(buf, starts[i], len);
        buf[len] = '\0';
        dl_text(u->l, (dl_rect){r.x, y, r.w, lh}, DL_FONT_UI, px, DL_LEFT, c, buf);
    }
    return y;
}

/* The narration of a lesson step, its question, the answer typed and the feedback. Presenter
 * mode reads from the back of a room: the narration takes the larger size. */
static int draw_narration(ui *u, dl_rect r)
{
    const session_lesson *L = &u->sc->s->lesson;
    const theme *th = u->th;
    dl_rect in = panel(u, "narration", r, NULL);
    char b[600];
    if (L->exercise) snprintf(b, sizeof b, S(u, STR_EXERCISE_HEAD), L->title, L->goals_met, L->ngoals);
    else snprintf(b, sizeof b, S(u, STR_LESSON_STEP), L->title, L->index + 1, L->count);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
    int px = u->px, lh = dl_text_height(u->l, DL_FONT_UI, px); /* presenter's base size is already a room's */
    int y = text_block(u, in, in.y + u->lh, px, th->text, L->say);
    if (L->exercise) { /* the checklist: met in the working colour, missed in the conflict colour */
        y += u->pad / 2;
        for (size_t g = 0; g < L->ngoals; g++) {
            snprintf(b, sizeof b, "%s %s", L->goal_met[g] > 0 ? "[x]" : L->goal_met[g] == 0 ? "[ ]" : "[-]", L->goal[g]);
            y = text_block(u, in, y, px, L->goal_met[g] > 0 ? th->working : L->goal_met[g] == 0 ? th->conflict : th->dim, b);
        }
        if (L->ngoals && L->goals_met == L->ngoals) y = text_block(u, in, y, px, th->working, S(u, STR_EXERCISE_SOLVED));
    }
    if (L->ask != ASK_NONE) {
        y = text_block(u, in, y + u->pad, px, th->accent, L->prompt);
        for (int o = 0; o < L->noptions; o++) {
            snprintf(b, sizeof b, "%c)  %s", 'a' + o, L->options[o]);
            int chosen = L->typed[0] == 'a' + o && L->ask == ASK_CHOICE;
            if (chosen && y + lh <= in.y + in.h) dl_fill(u->l, (dl_rect){in.x - u->pad / 2, y, in.w + u->pad, lh}, th->line);
            y = text_block(u, in, y, px, th->text, b);
        }
        const char *state = NULL;
        char sb[600];
        if (L->state == ANSWER_RIGHT) state = S(u, STR_LESSON_RIGHT);
        else if (L->state == ANSWER_WRONG) state = S(u, STR_LESSON_WRONG);
        else if (L->state == ANSWER_REVEALED) { snprintf(sb, sizeof sb, S(u, STR_LESSON_REVEALED), L->answer_text); state = sb; }
        else if (L->ask == ASK_NUMBER || L->ask == ASK_CHOICE) { snprintf(sb, sizeof sb, S(u, STR_LESSON_ASK_TYPE), L->typed[0] ? L->typed : "_"); state = sb; }
        else state = S(u, STR_LESSON_ASK_PICK);
        y = text_block(u, in, y + u->pad, px, L->state == ANSWER_RIGHT ? th->working : L->state == ANSWER_WRONG ? th->conflict : th->accent, state);
        if (L->explain[0]) y = text_block(u, in, y, px, th->text, L->explain);
    }
    if (y + u->lh <= in.y + in.h)
        dl_text(u->l, (dl_rect){in.x, in.y + in.h - u->lh, in.w, u->lh}, DL_FONT_UI, u->px, DL_RIGHT, th->dim,
                S(u, L->exercise ? STR_EXERCISE_KEYS : STR_LESSON_NEXT));
    return y + u->lh + u->pad - r.y; /* the height its text takes, with the keys' line */
}

/* The narration's height for its text at width w: drawn once where nothing is kept, between a
 * few lines and under half of the room */
static int narration_height(ui *u, int w, int room)
{
    dl_mark m = dl_save(u->l);
    int need = draw_narration(u, (dl_rect){0, 0, w, room}) + u->pad;
    dl_restore(u->l, m);
    int least = 4 * u->lh + 2 * u->pad, most = room * 45 / 100;
    return need < least ? least : need > most ? most : need;
}

static void draw_menu(ui *u, dl_rect r)
{
    const session_lesson *L = &u->sc->s->lesson;
    dl_rect in = panel(u, "menu", r, NULL);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, S(u, STR_MENU_TITLE));
    int y = in.y + u->blh + u->pad, lh = u->blh;
    for (int i = 0; i < L->nmenu && y + lh <= in.y + in.h; i++, y += lh) {
        if (i == L->menu_sel) dl_fill(u->l, (dl_rect){in.x, y, in.w, lh}, u->th->line);
        dl_text(u->l, (dl_rect){in.x + u->pad, y, in.w - 2 * u->pad, lh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, L->menu[i]);
    }
}

/* ---------- help, footer, tooltip ---------- */

static void draw_help(ui *u, dl_rect r)
{
    keys_help_line lines[64];
    size_t n = keys_help(u->L, u->sc->s->page, lines, 64);
    dl_rect in = panel(u, "help", r, NULL);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, S(u, STR_HELP_TITLE));
    int y0 = in.y + u->blh + u->pad, per_col = (in.y + in.h - y0) / u->lh;
    if (per_col < 1) return;
    int cols = (int)((n + (size_t)per_col - 1) / (size_t)per_col);
    if (cols < 2 && in.w > 90 * u->digit) cols = 2;
    per_col = (int)((n + (size_t)cols - 1) / (size_t)cols);
    int cw = in.w / cols, kw = 0;
    for (size_t i = 0; i < n; i++) {
        int w = dl_text_width(u->l, DL_FONT_MONO, u->px, lines[i].label);
        if (w > kw) kw = w;
    }
    if (kw > cw / 3) kw = cw / 3;
    /* each key's text wrapped to its column where every row then still fits (no "..." cut): the
     * rows run down a column and on to the next; where they would not fit, one line each */
    int tw = cw - kw - 2 * u->pad, bottom = in.y + in.h, col = 0, y = y0, wrapped = tw > 0;
    const char *starts[64]; /* as many lines as text_block draws */
    size_t lens[64];
    for (size_t i = 0; i < n && wrapped; i++) {
        int h = wrap(u, lines[i].text, tw, u->px, starts, lens, 64) * u->lh;
        if (y + h > bottom && y > y0) col++, y = y0;
        if (col >= cols || y + h > bottom) wrapped = 0;
        y += h;
    }
    col = 0, y = y0;
    for (size_t i = 0; i < n; i++) {
        if (wrapped) {
            int h = wrap(u, lines[i].text, tw, u->px, starts, lens, 64) * u->lh;
            if (y + h > bottom && y > y0) col++, y = y0;
        } else {
            col = (int)i / per_col, y = y0 + (int)i % per_col * u->lh;
        }
        int x = in.x + col * cw;
        dl_text(u->l, (dl_rect){x, y, kw, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, u->th->accent, lines[i].label);
        dl_rect tr = {x + kw + u->pad, y, tw, u->lh};
        if (wrapped) y = text_block(u, (dl_rect){tr.x, y, tw, bottom - y}, y, u->px, u->th->text, lines[i].text);
        else dl_text(u->l, tr, DL_FONT_UI, u->px, DL_LEFT, u->th->text, lines[i].text);
    }
}

static void draw_footer(ui *u, dl_rect r, int with_legend)
{
    const scene *sc = u->sc;
    const theme *th = u->th;
    dl_panel_begin(u->l, "footer", r);
    int y = r.y, x = r.x + u->pad, sw = u->lh * 2 / 3, right = r.x + r.w - u->pad;
    if (!with_legend) {
    } else if (sc->overlay != OVERLAY_BENCH) { /* the legend flows over two lines at most */
        static const struct { int state; str_id name; } legend[] = {
            {VIEW_LANE_WORKING, STR_LEGEND_WORKING}, {VIEW_LANE_DIVERGED, STR_LEGEND_DIVERGED}, {VIEW_LANE_IDLE, STR_LEGEND_IDLE},
            {VIEW_LANE_BARRIER, STR_LEGEND_BARRIER}, {VIEW_LANE_EXITED, STR_LEGEND_EXITED}, {-1, STR_LEGEND_READ},
            {-2, STR_LEGEND_WRITTEN}, {-3, STR_LEGEND_CONFLICT}};
        int line = 0, lines = u->compact ? 1 : 2;
        for (size_t i = 0; i < sizeof legend / sizeof *legend && line < lines; i++) {
            const char *name = S(u, legend[i].name);
            int w = sw + u->pad / 2 + dl_text_width(u->l, DL_FONT_UI, u->px, name);
            if (x + w > right && x > r.x + u->pad) { line++; x = r.x + u->pad; y += u->lh; }
            if (line >= lines) break;
            dl_colour c = legend[i].state >= 0 ? lane_colour(th, legend[i].state) : legend[i].state == -1 ? th->read
                                                                                      : legend[i].state == -2 ? th->write : th->conflict;
            dl_fill(u->l, (dl_rect){x, y + (u->lh - sw) / 2, sw, sw}, c);
            dl_text(u->l, (dl_rect){x + sw + u->pad / 2, y, right - x - sw - u->pad / 2, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, name);
            x += w + 2 * u->pad;
        }
        y = r.y + (u->compact ? 1 : 2) * u->lh;
    } else {
        dl_text(u->l, (dl_rect){x, y, right - x, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_BENCH_LEGEND));
        y += (u->compact ? 1 : 2) * u->lh;
    }
    char b[300];
    int tell = sc->overlay == OVERLAY_QUIT || sc->status[0] || sc->diff[0];
    /* compact: one line for both, and what the step says comes before the keys */
    if (sc->overlay == OVERLAY_BENCH) snprintf(b, sizeof b, "%s", S(u, STR_BENCH_KEYS));
    else if (sc->overlay == OVERLAY_GRID) snprintf(b, sizeof b, "%s", S(u, sc->s->lesson.active ? STR_GRID_KEYS_LESSON : STR_GRID_KEYS));
    else /* in a lesson PgDn and PgUp turn its pages (keys.c's lesson rows come first) */
        snprintf(b, sizeof b, S(u, sc->s->lesson.active ? STR_FOOTER_HINT_LESSON : STR_FOOTER_HINT), S(u, sc->s->playing ? STR_PLAYING : STR_PAUSED),
                 sc->s->speed);
    if (!(u->compact && tell)) {
        dl_text(u->l, (dl_rect){r.x + u->pad, y, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
        y += u->lh;
    }
    if (sc->overlay == OVERLAY_QUIT) {
        dl_fill(u->l, (dl_rect){r.x, y, r.w, u->lh}, th->conflict);
        dl_text(u->l, (dl_rect){r.x + u->pad, y, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->background, S(u, STR_QUIT_ASK));
    } else if (sc->status[0] || sc->diff[0]) {
        dl_text(u->l, (dl_rect){r.x + u->pad, y, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, sc->status[0] ? th->accent : th->text,
                sc->status[0] ? sc->status : sc->diff);
    }
}

static void draw_tooltip(ui *u, int w, int h)
{
    const scene *sc = u->sc;
    if (!sc->tooltip[0] || sc->s->mouse_x < 0) return;
    int tw = dl_text_width(u->l, DL_FONT_UI, u->px, sc->tooltip) + 2 * u->pad;
    if (tw > w) tw = w;
    int th_ = u->lh + u->pad, x = sc->s->mouse_x + 14, y = sc->s->mouse_y + 18;
    if (x + tw > w) x = w - tw;
    if (y + th_ > h) y = sc->s->mouse_y - th_ - 4;
    dl_rect r = {x, y, tw, th_};
    dl_panel_begin(u->l, "tooltip", r);
    dl_fill(u->l, r, u->th->text);
    dl_text(u->l, (dl_rect){x + u->pad, y + u->pad / 2, tw - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->background, sc->tooltip);
}

void panels_draw(const scene *sc, dl_list *l, int w, int h, int px, double t)
{
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    ui u = {sc, sc->th, sc->lang, l, px, px * 7 / 5, 0, 0, px / 3 > 2 ? px / 3 : 2, 0, sc->s->presenter || sc->compare, t * t * (3 - 2 * t), NULL,
           sc->s->least_px > VALUE_PX_LEAST ? sc->s->least_px : VALUE_PX_LEAST};
    u.lh = dl_text_height(l, DL_FONT_UI, u.px);
    int mh = dl_text_height(l, DL_FONT_MONO, u.px);
    if (mh > u.lh) u.lh = mh;
    u.blh = dl_text_height(l, DL_FONT_UI, u.big);
    u.digit = dl_text_width(l, DL_FONT_MONO, u.px, "0");
    dl_reset(l);
    dl_fill(l, (dl_rect){0, 0, w, h}, u.th->background);
    /* a presented lesson needs the room: the legend gives way to the narration */
    int legend = !(sc->s->lesson.active && sc->s->presenter);
    int footer_h = (u.compact ? 1 + legend : legend ? 4 : 2) * u.lh + u.pad;
    dl_rect main = {0, 0, w, h - footer_h};
    long area = (long)w * h * 36 / 100; /* the step's picture: over a third of the window */
    if (sc->s->lesson.active && sc->overlay != OVERLAY_MENU && sc->overlay != OVERLAY_HELP) { /* a lesson: narration below the picture */
        int nh = narration_height(&u, w - 2 * u.pad, main.h);
        draw_narration(&u, (dl_rect){u.pad, main.h - nh, w - 2 * u.pad, nh - u.pad});
        main.h -= nh;
    }
    if (sc->overlay == OVERLAY_MENU) {
        draw_menu(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_HELP) {
        draw_help(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_BENCH) {
        draw_bench(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_GRID) {
        draw_grid(&u, inset(main, u.pad));
    } else if (sc->compare) {
        stage_class cls = scene_class(sc);
        draw_pane(&u, 0, (dl_rect){u.pad, u.pad, w / 2 - 2 * u.pad, main.h - u.pad}, cls, area / 2);
        dl_panel_begin(l, NULL, main);
        dl_fill(l, (dl_rect){w / 2 - 1, 0, 2, main.h}, u.th->grid);
        draw_pane(&u, 1, (dl_rect){w / 2 + u.pad, u.pad, w - w / 2 - 2 * u.pad, main.h - u.pad}, cls, area / 2);
    } else {
        draw_pane(&u, 0, (dl_rect){u.pad, u.pad, w - 2 * u.pad, main.h - u.pad}, scene_class(sc), area);
    }
    draw_footer(&u, (dl_rect){0, h - footer_h, w, footer_h}, legend && sc->overlay != OVERLAY_GRID); /* the grid has its own legend */
    draw_tooltip(&u, w, h);
    dl_fill_gaps(l, 0); /* the background only where no panel paints */
}

double panels_motion_seconds(double steps_per_second)
{
    /* 450 ms, eased; shorter while playing fast so a move ends before the next step */
    double s = 0.45, gap = steps_per_second > 0 ? 0.8 / steps_per_second : s;
    return gap < s ? gap : s;
}
