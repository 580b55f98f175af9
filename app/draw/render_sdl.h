/* render_sdl: executes a draw list on an SDL renderer (a window's, or a software renderer on a
 * surface for PNGs and tests), and measures text for the list with the same fonts.
 *
 * Fonts: the UI role uses one font that covers Latin and Simplified Chinese (SDL2_ttf 2.20 has no
 * fallback fonts); the mono role (source code, numbers) uses DejaVu Sans Mono and falls back to
 * the UI font, glyph by glyph, for what it lacks. Glyphs are cached per (role, size) by code point
 * in an atlas, drawn white and tinted, so a frame copies rectangles and allocates nothing. */
#ifndef WARPSCOPE_RENDER_SDL_H
#define WARPSCOPE_RENDER_SDL_H

#include <SDL.h>

#include "app/draw/draw.h"

typedef struct rsdl_font_file {
    char path[512];
    int index; /* face in a .ttc collection */
} rsdl_font_file;

/* Finds the fonts: the mono font in asset_dir/fonts, the CJK font from WARPSCOPE_CJK_FONT or the
 * Debian packages fonts-wqy-microhei, fonts-noto-cjk. need_cjk: fail (with what to install) when
 * none is found; otherwise the mono font serves as UI font too. 0 or -1 with err. */
int rsdl_find_fonts(const char *asset_dir, int need_cjk, rsdl_font_file files[DL_FONT_COUNT], int *have_cjk,
                    char *err, size_t errlen);

typedef struct rsdl rsdl;

rsdl *rsdl_create(SDL_Renderer *r, const rsdl_font_file files[DL_FONT_COUNT], char *err, size_t errlen);
void rsdl_destroy(rsdl *x);
/* Metrics for dl_init. */
dl_metrics rsdl_metrics(rsdl *x);
/* A font's baseline below the top of its line box (what an SVG's text needs). */
int rsdl_ascent(rsdl *x, dl_font f, int px);
/* Draws every item. */
void rsdl_execute(rsdl *x, const dl_list *l);
/* Draws, for each of the n regions, the items that meet it, clipped to it (dl_damage's regions: what
 * changed since the list the surface shows); n -1 draws everything. */
void rsdl_execute_regions(rsdl *x, const dl_list *l, const dl_rect *regions, int n);
/* 1 when the font of that role (or its fallback) has a glyph for the code point. */
int rsdl_has_glyph(rsdl *x, dl_font f, uint32_t cp);
/* Glyphs drawn as the replacement box since creation (tests: no tofu). */
unsigned long rsdl_missing_glyphs(const rsdl *x);

#endif
