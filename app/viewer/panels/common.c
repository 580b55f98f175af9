#include "app/viewer/panels/internal.h"

int panels_px(int h, double scale, int presenter)
{
    int px = (int)lround(h / 60.0 * scale);
    if (presenter) {
        int room = (int)lround(24.0 * h / 768.0);
        if (px < room) px = room;
    }
    return px < 10 ? 10 : px > 96 ? 96 : px;
}

/* A panel: background, title line; returns the content rectangle below the title. */
dl_rect panel(ui *u, const char *name, dl_rect r, const char *title)
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

/* The size from px down towards the text size at which s fits w (the text size where nothing smaller
 * would be read at the back: dl_text cuts it there) */
int fit_px(ui *u, dl_font f, int px, const char *s, int w)
{
    while (px > u->px && dl_text_width(u->l, f, px, s) > w) px--;
    return px;
}

/* full where it fits w in the UI font at the text size, else shrt: into b */
void fit_text(ui *u, int w, const char *full, const char *shrt, char *b, size_t len)
{
    snprintf(b, len, "%s", dl_text_width(u->l, DL_FONT_UI, u->px, full) <= w ? full : shrt);
}

/* the content rect panel() gives r when it has a title, without drawing anything */
dl_rect panel_inner(const ui *u, dl_rect r)
{
    dl_rect in = inset(r, u->pad);
    in.y += u->lh;
    in.h -= u->lh;
    return in;
}

/* one line of text at row `row` of a content rect; nothing if the row does not fit */
void line_at(ui *u, dl_rect in, int row, dl_colour c, dl_font f, const char *s)
{
    int y = in.y + row * u->lh;
    if (y + u->lh > in.y + in.h) return;
    dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, f, u->px, DL_LEFT, c, s);
}

dl_colour mix(dl_colour a, dl_colour b, double t)
{
    return (dl_colour){(uint8_t)lround(a.r + (b.r - a.r) * t), (uint8_t)lround(a.g + (b.g - a.g) * t), (uint8_t)lround(a.b + (b.b - a.b) * t), 255};
}

/* the text colour that reads on a fill: the theme's text or its background, whichever differs more in luminance */
dl_colour on_colour(const theme *th, dl_colour fill)
{
#define LUM(c) (0.2126 * (c).r + 0.7152 * (c).g + 0.0722 * (c).b)
    double f = LUM(fill), a = fabs(LUM(th->text) - f), b = fabs(LUM(th->background) - f);
#undef LUM
    return a >= b ? th->text : th->background;
}

dl_colour lane_colour(const theme *th, int state)
{
    const dl_colour c[] = {[VIEW_LANE_IDLE] = th->idle, [VIEW_LANE_WORKING] = th->working, [VIEW_LANE_DIVERGED] = th->diverged,
                           [VIEW_LANE_BARRIER] = th->barrier, [VIEW_LANE_EXITED] = th->exited};
    return (unsigned)state < sizeof c / sizeof c[0] ? c[state] : th->idle;
}

/* While a lesson's question is open, the pictures that would give the answer away hold back:
 * ask before show. */

/* A lesson's marks on an item: what the step points at (accent), what the user picked (text
 * colour), what an answer missed (the subtree colour) and what it got wrong (conflict). */
void lesson_marks(ui *u, int kind, size_t item, dl_rect c)
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

/* ---------- values in cells ---------- */

/* v with `digits` significant digits; from 1000 up with k, M or G (16440 as 16.4k), so that a
 * big sum still fits a lane's cell */
void reg_format(float v, int digits, char *buf, size_t len)
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
/* The least size a value is drawn at: the platform's least, and in presenter mode two thirds of
 * its text size (16 px at 1024x768), read from the back of the room; smaller, and the panel shows
 * fewer values or none. */
int value_least(const ui *u)
{
    int floor = u->sc->s->presenter ? u->px * 2 / 3 : 0;
    return u->least > floor ? u->least : floor;
}

value_fit values_fit(ui *u, const float *vals, size_t n, int cw, int ch)
{
    int least = value_least(u);
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
        if (u->px > least && FITS(least)) {
            int lo = least, hi = u->px; /* lo fits, hi does not */
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
