/* ui: draws warpscope's window into any SDL renderer (a window's or a software renderer on an
 * SDL_Surface for PNGs and tests). Drawing takes const state; layout is one function shared by
 * drawing and hit-testing, so what the mouse finds is what was drawn. */
#ifndef WARPSCOPE_UI_H
#define WARPSCOPE_UI_H

#include <SDL.h>
#include <SDL_ttf.h>

#include "results.h"
#include "theme.h"
#include "view.h"

/* Glyph atlases are opaque (text antialiased onto its background colour), one per colour pair
 * in use, made on first use: a blit is then a copy, which the software renderer does fast. */
enum { UI_ATLASES = 32 };

typedef struct ui_font {
    TTF_Font *ttf;
    struct {
        SDL_Color fg, bg;
        SDL_Texture *tex; /* printable ASCII, one row, monospace */
    } atlas[UI_ATLASES];
    int natlas;
    int w, h; /* glyph advance and line height */
} ui_font;

/* Per-pane scratch of one frame (shared memory replayed, input tree, step facts), kept here so
 * that drawing allocates nothing and the module keeps no globals. */
typedef struct ui_scratch {
    float cells[1024];
    unsigned char written[1024], tree[1024];
    unsigned char lanes[1024], touched[1024];
    int worst_event, worst_degree;
} ui_scratch;

typedef struct ui_assets {
    SDL_Renderer *r;
    ui_font font, big;
    int px; /* base font size */
    ui_scratch scratch[2];
} ui_assets;

int ui_assets_init(ui_assets *a, SDL_Renderer *r, const char *font_path, int px, char *err, size_t errlen);
void ui_assets_free(ui_assets *a);

typedef struct ui_pane {
    const view_model *m;
    const char *title;    /* "v0: Interleaved addressing, divergent branch" */
    const char *source;   /* the kernel file's text, or NULL */
    size_t step;
    int64_t selected;     /* shared word whose input tree is highlighted, or -1 */
} ui_pane;

typedef struct ui_state {
    ui_pane pane[2];
    int compare;          /* 1: pane[1] is shown beside pane[0] */
    int mouse_x, mouse_y; /* -1 when outside */
    int show_help;
    int bench;            /* 1: the benchmark view instead of the trace */
    const results *results;
    size_t bench_size;    /* index into the results' sizes */
    int playing;
    double speed;         /* steps per second */
    const ui_theme *theme;
    char status[600];     /* one line for messages ("saved shot.png", errors) */
} ui_state;

void ui_draw(const ui_state *s, ui_assets *a, int w, int h);

/* What is under (x, y): the pane and the shared word (or -1). */
int ui_hit_cell(const ui_state *s, const ui_assets *a, int w, int h, int x, int y, int64_t *word);

/* Where things are, for tests: the rectangle of thread tid's lane, of shared word w, of bank b,
 * and of the highlighted source line, in pane p. 0 when shown, -1 when not. */
int ui_lane_rect(const ui_state *s, const ui_assets *a, int w, int h, int p, unsigned tid, SDL_Rect *out);
int ui_bank_rect(const ui_state *s, const ui_assets *a, int w, int h, int p, unsigned bank, SDL_Rect *out);
int ui_source_line_rect(const ui_state *s, const ui_assets *a, int w, int h, int p, SDL_Rect *out);

#endif
