/* web_pack: the page's data (`warpscope web -o DIR`), in two files, DIR/warpscope.pack and
 * DIR/warpscope.rest.pack, that the page (web/warpscope.js) unpacks into its own files: the lessons, the themes, the benchmark
 * results and every trace the page shows. The page has no emulator, so its traces are captured
 * here: each capture a lesson's steps and questions show (its player walked through every step),
 * and each version at the viewer's default capture under the three schedules of break-it, with
 * each of its barriers left out, and with every block traced (the grid's A). They are named by
 * capture_key, as the page asks for them.
 *
 * The format: "WSPACK1\n", then for each file its name's length (4 bytes, little endian), its
 * name (a relative path), its size (4 bytes, little endian) and its bytes. An entry with an empty
 * name and no bytes marks the end of what the page's first picture needs (the lessons, themes,
 * results and v0's default capture, which come first) and closes warpscope.pack: the page starts
 * there. The rest goes on in warpscope.rest.pack (its entries alone, no magic of its own), which
 * the page asks for after its first picture (at once where the address opens something else), so
 * it does not share the link with what that picture waits for. The exercises (exercises/NAME.json
 * and their starting files) come last. The page refuses a pack whose lengths run past its bytes
 * or whose names leave their folder. The build gzips both (warpscope.pack.gz,
 * warpscope.rest.pack.gz), which the page unzips as they arrive. */
#ifndef WARPSCOPE_WEB_PACK_H
#define WARPSCOPE_WEB_PACK_H

#include <stddef.h>

typedef struct web_pack_opts {
    const char *dir;         /* where warpscope.pack and warpscope.rest.pack go */
    const char *lesson_dir;  /* the lessons; its exercises/ (each JSON and starting file) go last, for the
                                editor, which sends what the learner writes to warpscope serve */
    const char *assets_dir;  /* themes, benchmark results */
    volatile int *cancel;    /* nonzero: stop, leaving no file */
} web_pack_opts;

typedef struct web_pack_stats {
    size_t files, traces, skipped; /* skipped: captures that failed (the page says it lacks them) */
    size_t bytes;
} web_pack_stats;

/* 0, or -1 with err (-2: cancelled, nothing written). */
int web_pack_write(const web_pack_opts *o, web_pack_stats *st, char *err, size_t errlen);

#endif
