/* panels: the layout and the panels. They read a const scene and append to a draw list; the
 * layout is computed from the window size and the text size, so every room size reflows. */
#ifndef WARPSCOPE_PANELS_H
#define WARPSCOPE_PANELS_H

#include "app/draw/draw.h"
#include "app/viewer/scene.h"

/* The base text size in pixels for a window h pixels high: about 60 lines of text, times scale;
 * presenter mode keeps the smallest text at 24 px or more at 768 lines (and in proportion). */
int panels_px(int h, double scale, int presenter);

/* The whole frame, w x h pixels, base text px, t of the way (0 .. 1) through the move from the
 * step before: t = 0 is that step's frame, t = 1 this step's. Motion is a function of (step, t)
 * alone, so a window, an export and a test draw the same frames. */
void panels_draw(const scene *sc, dl_list *l, int w, int h, int px, double t);

/* How long a move lasts, in seconds, at a playing speed in steps per second. */
double panels_motion_seconds(double steps_per_second);

#endif
