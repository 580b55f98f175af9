/* keys: the one table of keys. The key handler and the help screen both read it, so they cannot
 * disagree; version keys come from the version table (ladder.h's `key`). */
#ifndef WARPSCOPE_KEYS_H
#define WARPSCOPE_KEYS_H

#include <SDL.h>

#include "app/viewer/session.h"
#include "app/viewer/strings.h"

typedef enum keys_ctx { KEYS_ANY, KEYS_MAIN, KEYS_BENCH, KEYS_LESSON, KEYS_MENU, KEYS_GRID, KEYS_PASSES } keys_ctx;

typedef struct keys_row {
    SDL_Keycode key;
    Uint16 mod;      /* KMOD_NONE, KMOD_SHIFT or KMOD_CTRL: which must be held */
    keys_ctx ctx;    /* where the row applies: a context's own rows win (the benchmark view, a lesson, the menu) */
    act_kind act;
    long i;
    const char *s;
    const char *label; /* as the help screen prints it; NULL: a second key for the row above */
    str_id help;
} keys_row;

extern const keys_row keys_table[];
extern const size_t keys_count;

/* The action for a key press in this session's context; ACT_NONE if the key does nothing. */
action keys_action(const session *s, SDL_Keycode key, Uint16 mod);

/* The help screen's lines: label and text (text formatted in lang). Returns how many were written. */
typedef struct keys_help_line {
    char label[48];
    char text[256];
} keys_help_line;
size_t keys_help(str_lang lang, int page, keys_help_line *out, size_t max); /* page: the browser's (no quit, no export) */

/* A key name as --keys takes it ("Right", "Shift+Right", "Ctrl+=", "c"); 0 or -1 if unknown. */
int keys_parse(const char *name, SDL_Keycode *key, Uint16 *mod);

#endif
