/* theme: the viewer's colours, read from a JSON file in assets/themes/ (light, dark).
 *
 * A theme file is an object with a "name" (at most 15 bytes) and one "#RRGGBB" colour per key
 * below; other keys ("comment") are ignored. The reader checks every key and says which one is
 * wrong; nothing here draws (SDL_Color is only the type the renderer takes). */
#ifndef WARPSCOPE_THEME_H
#define WARPSCOPE_THEME_H

#include <SDL_pixels.h>
#include <stddef.h>

#define THEME_FILE_BYTES_MAX ((size_t)1 << 20) /* a theme is a few hundred bytes; comments may run long */

typedef struct ui_theme {
    char name[16];
    SDL_Color background, panel, text, dim, grid, working, idle, diverged, exited, barrier, read, write,
        conflict, line, tree, subtree, accent;
} ui_theme;

/* 0, or -1 with "path: key: ..." or "path:line:column: ..." in err. */
int theme_load(ui_theme *th, const char *path, char *err, size_t errlen);
/* The same from text in memory (len bytes, need not end in NUL); err without the path. */
int theme_parse(ui_theme *th, const char *text, size_t len, char *err, size_t errlen);

#endif
