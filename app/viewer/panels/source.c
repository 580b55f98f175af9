#include "app/viewer/panels/internal.h"

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
int source_rows_min(ui *u, const scene_pane *p, int w)
{
    if (!p->source) return 1;
    source_plan sp;
    int numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "000 ");
    source_plan_for(u, p, w - numw, SOURCE_ROWS_AROUND + 1, &sp);
    return sp.nwrap + SOURCE_ROWS_AROUND;
}

void draw_source(ui *u, const scene_pane *p, dl_rect r)
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
        for (int k = 0; k < p->hz_nlines; k++) /* a line in a race: a bar beside it in the wrong colour, outlined */
            if (p->hz_lines[k] == (unsigned)ln) {
                dl_rect bar = {band.x, y, u->pad > 3 ? u->pad - 1 : 2, band.h};
                dl_fill(u->l, bar, u->th->wrong);
                if (bar.w > 2) dl_outline(u->l, bar, u->th->text, 1);
            }
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
