/* draw: the draw list, the seam between what to show (panels) and how (executors).
 *
 * Panels append plain primitives; an executor runs the list: the SDL renderer of a window, a
 * software renderer on a surface (PNG), or a test that queries the items ("which boxes in the
 * bank panel are red", "does a text box overlap another"). No SDL types here, so that a browser
 * canvas can execute the same list later.
 *
 * Text is UTF-8 with a font role and a pixel size. Its box is measured when it is appended (the
 * list holds a metrics callback), so every text item records the box it will really cover, and a
 * string too wide for its box is shortened with an ellipsis rather than spilling over. */
#ifndef WARPSCOPE_DRAW_H
#define WARPSCOPE_DRAW_H

#include <stddef.h>
#include <stdint.h>

typedef struct dl_colour {
    uint8_t r, g, b, a;
} dl_colour;

typedef struct dl_rect {
    int x, y, w, h;
} dl_rect;

typedef enum dl_kind {
    DL_FILL,   /* rect filled with colour (alpha blends) */
    DL_RECT,   /* rect outline, `thick` pixels inward */
    DL_LINE,   /* (x, y) to (x2, y2), `thick` pixels */
    DL_ARROW,  /* a line with a head at (x2, y2) */
    DL_TEXT,   /* text at rect's top-left, rect = measured box */
    DL_CLIP,   /* clip later items to rect, until DL_UNCLIP */
    DL_UNCLIP
} dl_kind;

typedef enum dl_font { DL_FONT_UI, DL_FONT_MONO, DL_FONT_COUNT } dl_font;
typedef enum dl_align { DL_LEFT, DL_CENTRE, DL_RIGHT } dl_align;

typedef struct dl_item {
    dl_kind kind;
    dl_rect r;
    int x2, y2, thick;
    dl_colour c;
    dl_font font;
    int px;
    uint32_t text, len; /* bytes in the list's text buffer */
    int panel;          /* index into the list's panels, -1 outside any */
    uint32_t hit;       /* what the mouse finds here (panels' own codes), 0 for nothing */
} dl_item;

/* Font metrics, from whoever will execute the list. */
typedef struct dl_metrics {
    void *ctx;
    int (*advance)(void *ctx, dl_font f, int px, uint32_t codepoint);
    int (*height)(void *ctx, dl_font f, int px); /* a line's box, descenders included */
} dl_metrics;

typedef struct dl_panel {
    dl_rect r;
    const char *name;
    const char *kind; /* the picture it draws ("tree", "lanes", ...; a constant), NULL: as its name says */
    int stage;        /* 1: the step's picture */
} dl_panel;

enum { DL_MAX_PANELS = 64 };

typedef struct dl_list {
    dl_item *items;
    size_t n, cap;
    char *text;
    size_t tn, tcap;
    dl_panel panels[DL_MAX_PANELS];
    int npanels, panel;
    dl_metrics m;
    int failed; /* out of memory at some point: the list is incomplete */
} dl_list;

void dl_init(dl_list *l, dl_metrics m);
void dl_free(dl_list *l);
/* Empties the list and keeps its memory: an idle frame allocates nothing. */
void dl_reset(dl_list *l);
/* Where the list stands, and back to it: what was appended since is dropped (a panel drawn to
 * measure how much room its text takes). */
typedef struct dl_mark {
    size_t n, tn;
    int npanels, panel;
} dl_mark;
dl_mark dl_save(const dl_list *l);
void dl_restore(dl_list *l, dl_mark m);

/* Items appended after this belong to a panel (for the layout tests), until the next call;
 * name NULL leaves any panel. Returns the panel's index. */
int dl_panel_begin(dl_list *l, const char *name, dl_rect r);
/* Says what picture the panel just begun draws, and whether it is the step's picture (the list's
 * record and the tests read them). */
void dl_panel_mark(dl_list *l, int panel, const char *kind, int stage);

void dl_fill(dl_list *l, dl_rect r, dl_colour c);
/* Item `at`, an opaque fill under everything after it (a window's background), becomes the fills
 * of its parts that no panel's own opaque fill covers: a software executor then paints each pixel
 * of the window once, not twice. The picture is the same. */
void dl_fill_gaps(dl_list *l, size_t at);
void dl_fill_hit(dl_list *l, dl_rect r, dl_colour c, uint32_t hit);
void dl_outline(dl_list *l, dl_rect r, dl_colour c, int thick);
void dl_line(dl_list *l, int x1, int y1, int x2, int y2, dl_colour c, int thick);
void dl_arrow(dl_list *l, int x1, int y1, int x2, int y2, dl_colour c, int thick);
void dl_clip(dl_list *l, dl_rect r);
void dl_unclip(dl_list *l);

/* Measured width of UTF-8 text. */
int dl_text_width(const dl_list *l, dl_font f, int px, const char *s);
int dl_text_height(const dl_list *l, dl_font f, int px);
/* Text placed in box (aligned horizontally, at its top), shortened with an ellipsis to fit its
 * width (and the current panel's); nothing if the box is shorter than a line or the line would
 * leave the panel above or below. Returns the width drawn. */
int dl_text(dl_list *l, dl_rect box, dl_font f, int px, dl_align a, dl_colour c, const char *s);
int dl_textf(dl_list *l, dl_rect box, dl_font f, int px, dl_align a, dl_colour c, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Damage: where the pixels of one list may differ from those another left on the same surface.
 * A list is summed up panel by panel (each panel's items as a whole: a hash and the extent of
 * their pixels; what lies outside every panel as one more), and two summaries are compared: a
 * panel drawn the same is left alone, a changed one gives its extent in both. A surface keeps the
 * summary of the list it shows, not the list. Panel names are the static strings panels use. */
typedef struct dl_summary {
    int npanels, failed;
    dl_panel panels[DL_MAX_PANELS];
    uint64_t hash[DL_MAX_PANELS + 1];
    dl_rect ext[DL_MAX_PANELS + 1];
} dl_summary;
void dl_summarise(const dl_list *l, dl_summary *s);
/* Up to max rectangles to out, overlapping ones merged; -1 when the whole surface must be drawn
 * (the panels' layout changed, what lies outside them changed, a list failed, or more regions
 * than max). Executing only the items that meet a region, clipped to it, then leaves the surface
 * as executing the whole list would. */
int dl_damage(const dl_summary *prev, const dl_summary *cur, dl_rect *out, int max);
/* The extent of an item's pixels (a line's and an arrow's head, a glyph's ink past its advance
 * included); w 0 for none. */
dl_rect dl_item_extent(const dl_item *it);

/* The text of an item (not NUL-terminated: item->len bytes). */
const char *dl_item_text(const dl_list *l, const dl_item *it);
/* The topmost item with a hit code under (x, y): its code, or 0; the item itself, or NULL. */
uint32_t dl_hit(const dl_list *l, int x, int y);
const dl_item *dl_hit_item(const dl_list *l, int x, int y);

/* Next code point of UTF-8 text; malformed bytes read as U+FFFD, one byte each. */
uint32_t dl_utf8_next(const char **s);

int dl_rect_inside(dl_rect outer, dl_rect inner);
int dl_rect_overlap(dl_rect a, dl_rect b);
int dl_rect_has(dl_rect r, int x, int y);

#endif
