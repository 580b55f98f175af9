/* render_svg: see render_svg.h. Geometry follows render_sdl.c item by item (an outline `thick`
 * pixels inward, an arrow's two head strokes), so the SVG and the PNG of a step agree. */
#include "app/draw/render_svg.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* leading spaces a <text> turns into its x: more than any line of code indents */
enum { SVG_INDENT_MAX = 256 };

static const char *const default_family[DL_FONT_COUNT] = {
    [DL_FONT_UI] = "'WenQuanYi Micro Hei', 'Noto Sans CJK SC', 'Noto Sans', 'DejaVu Sans', sans-serif",
    [DL_FONT_MONO] = "'DejaVu Sans Mono', 'WenQuanYi Micro Hei Mono', monospace",
};

static void colour_attr(FILE *f, const char *what, dl_colour c)
{
    fprintf(f, " %s=\"#%02x%02x%02x\"", what, c.r, c.g, c.b);
    if (c.a != 255) fprintf(f, " %s-opacity=\"%.3f\"", what, c.a / 255.0);
}

static void put_utf8(FILE *f, uint32_t cp)
{
    if (cp < 0x80) fputc((int)cp, f);
    else if (cp < 0x800) { fputc((int)(0xC0 | cp >> 6), f); fputc((int)(0x80 | (cp & 0x3F)), f); }
    else if (cp < 0x10000) {
        fputc((int)(0xE0 | cp >> 12), f);
        fputc((int)(0x80 | (cp >> 6 & 0x3F)), f);
        fputc((int)(0x80 | (cp & 0x3F)), f);
    } else {
        fputc((int)(0xF0 | cp >> 18), f);
        fputc((int)(0x80 | (cp >> 12 & 0x3F)), f);
        fputc((int)(0x80 | (cp >> 6 & 0x3F)), f);
        fputc((int)(0x80 | (cp & 0x3F)), f);
    }
}

/* Text as XML character data: markup characters escaped, and what XML 1.0 cannot hold (control
 * characters, surrogates, U+FFFE/U+FFFF) left out. Malformed UTF-8 arrives here as U+FFFD. */
static void put_escaped(FILE *f, const char *s, size_t len)
{
    static const struct { char c; const char *e; } esc[] = {
        {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}};
    const char *end = s + len;
    while (s < end) {
        uint32_t cp = dl_utf8_next(&s);
        if ((cp < 0x20 && cp != '\t') || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF || cp > 0x10FFFF) continue;
        const char *e = NULL;
        for (size_t i = 0; i < sizeof esc / sizeof esc[0]; i++)
            if (cp == (uint32_t)esc[i].c) e = esc[i].e;
        if (e) fputs(e, f);
        else put_utf8(f, cp);
    }
}

/* a stroke between pixel centres, as render_sdl's lines are drawn */
static void line(FILE *f, double x1, double y1, double x2, double y2)
{
    fprintf(f, "M%.1f %.1fL%.1f %.1f", x1 + 0.5, y1 + 0.5, x2 + 0.5, y2 + 0.5);
}

static void stroke_open(FILE *f, dl_colour c, int thick)
{
    fputs("<path fill=\"none\" stroke-linecap=\"round\"", f);
    colour_attr(f, "stroke", c);
    fprintf(f, " stroke-width=\"%d\" d=\"", thick > 0 ? thick : 1);
}

int rsvg_write(FILE *f, const dl_list *l, int w, int h, const rsvg_opts *o)
{
    rsvg_opts def;
    memset(&def, 0, sizeof def);
    if (!o) o = &def;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "xml:space=\"preserve\" style=\"white-space:pre\">\n",
            w, h, w, h);
    if (o->title) {
        fputs("<title>", f);
        put_escaped(f, o->title, strlen(o->title));
        fputs("</title>\n", f);
    }
    int open_clips = 0, nclip = 0;
    for (size_t i = 0; i < l->n; i++) {
        const dl_item *it = &l->items[i];
        dl_rect r = it->r;
        switch (it->kind) {
        case DL_FILL:
            if (r.w <= 0 || r.h <= 0) break;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" shape-rendering=\"crispEdges\"", r.x, r.y, r.w, r.h);
            colour_attr(f, "fill", it->c);
            fputs("/>\n", f);
            break;
        case DL_RECT: {
            int t = it->thick > 0 ? it->thick : 1;
            if (r.w <= 0 || r.h <= 0) break;
            if (2 * t >= r.w || 2 * t >= r.h) { /* thicker than half: the outline fills it */
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" shape-rendering=\"crispEdges\"", r.x, r.y, r.w, r.h);
                colour_attr(f, "fill", it->c);
                fputs("/>\n", f);
                break;
            }
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" stroke-width=\"%d\" shape-rendering=\"crispEdges\"",
                    r.x + t / 2.0, r.y + t / 2.0, r.w - t, r.h - t, t);
            colour_attr(f, "stroke", it->c);
            fputs("/>\n", f);
            break;
        }
        case DL_LINE:
            stroke_open(f, it->c, it->thick);
            line(f, r.x, r.y, it->x2, it->y2);
            fputs("\"/>\n", f);
            break;
        case DL_ARROW: {
            stroke_open(f, it->c, it->thick);
            line(f, r.x, r.y, it->x2, it->y2);
            double dx = it->x2 - r.x, dy = it->y2 - r.y, len = sqrt(dx * dx + dy * dy);
            if (len >= 1) {
                double ux = dx / len, uy = dy / len, hl = 4.0 + 2.0 * it->thick;
                for (int sgn = -1; sgn <= 1; sgn += 2)
                    line(f, it->x2, it->y2, it->x2 - (double)lround(hl * (ux - sgn * 0.5 * uy)), it->y2 - (double)lround(hl * (uy + sgn * 0.5 * ux)));
            }
            fputs("\"/>\n", f);
            break;
        }
        case DL_TEXT: {
            int font = (unsigned)it->font < DL_FONT_COUNT ? (int)it->font : DL_FONT_UI;
            const char *fam = o->family[font] ? o->family[font] : default_family[font];
            int asc = o->ascent ? o->ascent(o->ctx, (dl_font)font, it->px) : r.h * 4 / 5;
            /* each text keeps its spaces (a code line's indentation, "  |  "): browsers do not all
             * inherit xml:space from the root. Its width is the PNG's (a code column lines up with
             * the PNG's, whose advances are whole pixels) through the spacing between glyphs only,
             * never by stretching them (spacingAndGlyphs drew a lone "}" as wide as its line). */
            /* A line's leading spaces become its x, as the PNG measured them: textLength's spacing
             * is shared by every glyph, the indentation's spaces too, so where the browser's
             * glyphs are narrower or wider than the PNG's (an ellipsis or a Chinese character from
             * another font) an indented line's first glyph moved by the spaces' share (v1 step 11:
             * up to 18 px off its column). */
            const char *txt = dl_item_text(l, it);
            size_t len = it->len, lead = 0;
            while (lead < len && lead < SVG_INDENT_MAX && txt[lead] == ' ') lead++;
            int x = r.x, tw = r.w;
            if (lead && lead < len) {
                char spaces[SVG_INDENT_MAX + 1];
                memset(spaces, ' ', lead);
                spaces[lead] = '\0';
                int ind = dl_text_width(l, (dl_font)font, it->px, spaces);
                if (ind > 0 && (tw <= 0 || ind < tw)) {
                    x += ind;
                    if (tw > 0) tw -= ind;
                    txt += lead;
                    len -= lead;
                }
            }
            fprintf(f, "<text xml:space=\"preserve\" style=\"white-space:pre\" x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"%d\"",
                    x, r.y + asc, fam, it->px);
            if (tw > 0) fprintf(f, " textLength=\"%d\" lengthAdjust=\"spacing\"", tw);
            colour_attr(f, "fill", it->c);
            fputc('>', f);
            put_escaped(f, txt, len);
            fputs("</text>\n", f);
            break;
        }
        case DL_CLIP:
            /* nested clips intersect in SVG; render_sdl keeps the innermost, which the panels
             * only ever place inside the outer one, so both show the same */
            fprintf(f, "<clipPath id=\"c%d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/></clipPath><g clip-path=\"url(#c%d)\">\n",
                    nclip, r.x, r.y, r.w > 0 ? r.w : 0, r.h > 0 ? r.h : 0, nclip);
            nclip++;
            open_clips++;
            break;
        case DL_UNCLIP:
            if (open_clips > 0) { fputs("</g>\n", f); open_clips--; }
            break;
        }
    }
    while (open_clips-- > 0) fputs("</g>\n", f);
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}
