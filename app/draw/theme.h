/* theme: the colours of the viewer (Okabe-Ito, light and dark), read from assets/themes/NAME.json.
 *
 * A theme file is an object with a "name" (at most 15 bytes) and one "#RRGGBB" colour per key
 * below; other keys ("comment") are ignored. The reader checks every key and says which one is
 * wrong. */
#ifndef WARPSCOPE_THEME_H
#define WARPSCOPE_THEME_H

#include <stddef.h>

#include "app/draw/draw.h"

#define THEME_COLOURS(X) \
    X(background) X(panel) X(text) X(dim) X(grid) X(working) X(idle) X(diverged) X(exited) X(barrier) X(read) \
    X(write) X(conflict) X(line) X(tree) X(subtree) X(accent) X(wrong)

typedef struct theme {
    char name[16];
#define THEME_X_FIELD(name) dl_colour name;
    THEME_COLOURS(THEME_X_FIELD)
#undef THEME_X_FIELD
} theme;

#define THEME_FILE_BYTES_MAX ((size_t)1 << 20) /* a theme is a few hundred bytes; comments may run long */

/* 0, or -1 with "path:line:col: ..." or "path: key: ..." in err. */
int theme_load(theme *th, const char *path, char *err, size_t errlen);
/* The same from text in memory (len bytes, need not end in NUL); err without the path. */
int theme_parse(theme *th, const char *text, size_t len, char *err, size_t errlen);

#endif
