/* export: the files an export writes, from frames the viewer draws. An animated GIF (giflib: one
 * global palette built from the frames, only the changed rectangle of each frame stored), MP4 and
 * WebM (raw RGBA frames piped to Debian's ffmpeg program), a folder of PNG frames, and one step
 * as SVG (the draw list as vectors, render_svg.h).
 *
 * Every file goes to a temporary file in the same folder and is renamed into place when complete
 * (mode 0644), so an error leaves no partial file. Nothing here prints; errors come back as one
 * line in err. The frames themselves come from viewer_export (app/viewer/viewer.c), which owns the session and
 * the options (export_opts); this module knows files and frames only. */
#ifndef WARPSCOPE_EXPORT_H
#define WARPSCOPE_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "app/draw/draw.h"

typedef enum export_format { EXPORT_GIF, EXPORT_MP4, EXPORT_WEBM, EXPORT_SVG, EXPORT_PNGS, EXPORT_FORMAT_COUNT } export_format;

enum {
    EXPORT_FPS_DEFAULT = 15,
    EXPORT_FPS_MAX = 50,      /* GIF delays are centiseconds; below 2 cs browsers slow them to 10 */
    EXPORT_WIDTH_DEFAULT = 1280,
    EXPORT_HEIGHT_DEFAULT = 720
};

/* The format OUT asks for: its extension, or a folder (no extension, a trailing '/', or an existing
 * directory). 0, or -1 with err for an unknown extension. */
int export_format_of(const char *out, export_format *f, char *err, size_t errlen);
const char *export_format_name(export_format f);
/* 1 for formats made of many frames (all but SVG). */
int export_is_animated(export_format f);
/* What the format needs outside this program: for MP4 and WebM the ffmpeg program on PATH.
 * 0, or -1 with err saying what to install. */
int export_check_tools(export_format f, char *err, size_t errlen);
/* Video codecs need even sizes (4:2:0 chroma): the size rounded down to even for MP4/WebM. */
void export_fit_size(export_format f, int *w, int *h);

/* A frame: w x h pixels of 32 bits, 0x??RRGGBB (SDL's RGB888, the top byte ignored). */
typedef struct export_image {
    const uint32_t *px;
    int w, h, pitch; /* pitch in bytes */
} export_image;

typedef struct export_writer export_writer;

/* Opens OUT for an animated format (the temporary file or folder is made now, so a bad path fails
 * before any drawing). NULL with err. */
export_writer *export_open(export_format f, const char *out, int w, int h, double fps, char *err, size_t errlen);
/* 1 when the writer wants sample frames before the first export_frame (the GIF's palette). */
int export_wants_samples(const export_writer *x);
/* A frame whose colours the palette should cover (call before the first export_frame). */
int export_sample(export_writer *x, export_image im, char *err, size_t errlen);
/* One frame, shown for `repeat` frame times (1/fps each). 0, or -1 with err. */
int export_frame(export_writer *x, export_image im, unsigned repeat, char *err, size_t errlen);
/* What a writer wrote, for the benchmark. */
typedef struct export_stats {
    size_t frames_in, frames_out;  /* frames given; frames stored (GIF: identical ones merged) */
    uint64_t bytes;                /* the file's size (a folder: the sum of its frames) */
    int colours;                   /* GIF: palette entries */
} export_stats;

/* Finishes and renames into place; the writer is freed either way. st (may be NULL) gets what was
 * written. 0, or -1 with err (nothing left behind). */
int export_close(export_writer *x, export_stats *st, char *err, size_t errlen);
/* Drops everything written; the writer is freed. */
void export_abort(export_writer *x);

/* One step as SVG: the draw list written as vectors to OUT (temporary file, renamed). ascent gives
 * a font's baseline below the top of its line box. 0, or -1 with err. */
int export_svg(const char *out, const dl_list *l, int w, int h, void *ctx, int (*ascent)(void *ctx, dl_font f, int px),
               char *err, size_t errlen);

#endif
