/* render_svg: executes a draw list as SVG: fills and outlines as rects, lines and arrows as
 * paths, text as <text> elements with font-family and size, clips as clip paths. The
 * picture stays crisp at any projector's resolution, and text stays text (searchable, copyable).
 *
 * Text boxes were measured with the viewer's fonts; each <text> carries its measured width as
 * textLength, so a machine without those fonts still keeps every string inside its box. */
#ifndef WARPSCOPE_RENDER_SVG_H
#define WARPSCOPE_RENDER_SVG_H

#include <stdio.h>

#include "app/draw/draw.h"

typedef struct rsvg_opts {
    const char *family[DL_FONT_COUNT]; /* CSS font-family lists; NULL: the viewer's fonts, then generic */
    void *ctx;
    int (*ascent)(void *ctx, dl_font f, int px); /* baseline below a line box's top; NULL: 4/5 of its height */
    const char *title;                            /* <title>, or NULL */
} rsvg_opts;

/* Writes a w x h SVG document of the list to f. 0, or -1 when writing failed (ferror). */
int rsvg_write(FILE *f, const dl_list *l, int w, int h, const rsvg_opts *o);

#endif
