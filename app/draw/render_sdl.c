/* render_sdl: see render_sdl.h. */
#include "app/draw/render_sdl.h"

#include <SDL_ttf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where Debian's CJK font packages put their files, in order of preference. */
static const rsdl_font_file cjk_candidates[] = {
    {"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0},          /* fonts-wqy-microhei */
    {"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2},  /* fonts-noto-cjk: face 2 is SC */
};

static int readable(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int rsdl_find_fonts(const char *asset_dir, int need_cjk, rsdl_font_file files[DL_FONT_COUNT], int *have_cjk,
                    char *err, size_t errlen)
{
    snprintf(files[DL_FONT_MONO].path, sizeof files[DL_FONT_MONO].path, "%s/fonts/DejaVuSansMono.ttf", asset_dir);
    files[DL_FONT_MONO].index = 0;
    if (!readable(files[DL_FONT_MONO].path)) {
        snprintf(err, errlen, "%s: font not found (the assets folder is incomplete; set WARPSCOPE_ASSETS)", files[DL_FONT_MONO].path);
        return -1;
    }
    *have_cjk = 0;
    const char *env = getenv("WARPSCOPE_CJK_FONT");
    if (env && *env) {
        if (!readable(env)) { snprintf(err, errlen, "WARPSCOPE_CJK_FONT=%s: no such font file", env); return -1; }
        snprintf(files[DL_FONT_UI].path, sizeof files[DL_FONT_UI].path, "%s", env);
        files[DL_FONT_UI].index = 0;
        *have_cjk = 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof cjk_candidates / sizeof cjk_candidates[0]; i++)
        if (readable(cjk_candidates[i].path)) {
            files[DL_FONT_UI] = cjk_candidates[i];
            *have_cjk = 1;
            return 0;
        }
    if (need_cjk) {
        snprintf(err, errlen, "no font with Chinese glyphs: install fonts-wqy-microhei (or fonts-noto-cjk), or set WARPSCOPE_CJK_FONT to a .ttf/.ttc file");
        return -1;
    }
    files[DL_FONT_UI] = files[DL_FONT_MONO];
    return 0;
}

/* ---- glyph cache ---- */

enum { SHEET = 1024, MAX_FACES = 12, REPLACEMENT = 0xFFFD, TINTS = 8, TINT_ROWS = 64 };

typedef struct glyph {
    uint32_t cp;  /* 0: empty slot */
    int16_t x, y, w, h, adv;
    uint8_t missing;
} glyph;

/* The sheet's glyphs in one colour: text is copied from it as it is, with no colour or alpha
 * modulation (which sends every glyph of SDL's software renderer down its slowest blitter). */
typedef struct tint {
    uint32_t rgba;       /* the colour */
    SDL_Texture *tex;    /* the sheet's first h rows in it */
    int h;
    unsigned serial;     /* the sheet's serial it was made from */
    unsigned long used;
} tint;

typedef struct face {
    dl_font role;
    int px;
    TTF_Font *main, *fallback; /* fallback: the UI font for the mono role */
    int height, ascent;
    SDL_Surface *sheet;        /* white glyphs, coverage in alpha */
    tint tints[TINTS];
    unsigned serial;           /* bumped whenever the sheet changes */
    int pen_x, pen_y, row_h, dirty;
    glyph *map;
    size_t cap, count;
    unsigned long used; /* last use, for eviction */
} face;

/* A font file mapped once: FreeType reads glyphs from memory instead of a stream, which cost a
 * seek and a read per glyph outline (400,000 calls and half the CPU time in system calls for the
 * layout test's frames with the CJK font). */
typedef struct font_map {
    void *bytes;
    size_t len;
} font_map;

struct rsdl {
    SDL_Renderer *r;
    uint32_t *scratch;   /* SHEET x SHEET pixels: a tint being made */
    rsdl_font_file files[DL_FONT_COUNT];
    font_map maps[DL_FONT_COUNT];
    face faces[MAX_FACES];
    int nfaces;
    unsigned long clock, missing;
    dl_rect clip[16];
    int nclip;
    dl_rect damage; /* what is being drawn: every clip is cut to it (w 0: the whole surface) */
};

static void face_free(face *f)
{
    for (int i = 0; i < TINTS; i++)
        if (f->tints[i].tex) SDL_DestroyTexture(f->tints[i].tex);
    if (f->sheet) SDL_FreeSurface(f->sheet);
    if (f->main) TTF_CloseFont(f->main);
    if (f->fallback) TTF_CloseFont(f->fallback);
    free(f->map);
    memset(f, 0, sizeof *f);
}

/* Maps a font file whole, read only; {NULL, 0} where it cannot be (then the file is read as a stream). */
static font_map font_map_open(const char *path)
{
    font_map m = {NULL, 0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return m;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) { m.bytes = p; m.len = (size_t)st.st_size; }
    }
    close(fd);
    return m;
}

static TTF_Font *font_open(rsdl *x, dl_font role, int px)
{
    const font_map *m = &x->maps[role];
    if (m->bytes) {
        SDL_RWops *rw = SDL_RWFromConstMem(m->bytes, (int)m->len);
        if (rw) return TTF_OpenFontIndexRW(rw, 1, px, x->files[role].index);
    }
    return TTF_OpenFontIndex(x->files[role].path, px, x->files[role].index);
}

static int face_open(rsdl *x, face *f, dl_font role, int px)
{
    memset(f, 0, sizeof *f);
    f->role = role;
    f->px = px;
    f->main = font_open(x, role, px);
    if (role == DL_FONT_MONO && strcmp(x->files[DL_FONT_UI].path, x->files[DL_FONT_MONO].path) != 0)
        f->fallback = font_open(x, DL_FONT_UI, px);
    /* the sheet grows by rows as glyphs fill it (sheet_reserve): a 1024 x 1024 sheet made and
     * cleared whole for each new size was 4 MB of fresh pages, and a frame that first shows three
     * sizes (a tooltip's, a label's) stalled on them */
    f->sheet = SDL_CreateRGBSurfaceWithFormat(0, SHEET, TINT_ROWS, 32, SDL_PIXELFORMAT_ARGB8888);
    f->cap = 512;
    f->map = calloc(f->cap, sizeof *f->map);
    if (!f->main || !f->sheet || !f->map) { face_free(f); return -1; }
    SDL_FillRect(f->sheet, NULL, 0);
    /* the line box: the taller of the fonts, so underscores and descenders are never cut */
    f->ascent = TTF_FontAscent(f->main);
    int descent = -TTF_FontDescent(f->main);
    if (f->fallback) {
        if (TTF_FontAscent(f->fallback) > f->ascent) f->ascent = TTF_FontAscent(f->fallback);
        if (-TTF_FontDescent(f->fallback) > descent) descent = -TTF_FontDescent(f->fallback);
    }
    f->height = f->ascent + descent + 1;
    return 0;
}

static face *face_get(rsdl *x, dl_font role, int px)
{
    if (px < 4) px = 4;
    if (px > 200) px = 200;
    x->clock++;
    for (int i = 0; i < x->nfaces; i++)
        if (x->faces[i].role == role && x->faces[i].px == px) { x->faces[i].used = x->clock; return &x->faces[i]; }
    int slot = x->nfaces;
    if (slot == MAX_FACES) { /* evict the least recently used */
        slot = 0;
        for (int i = 1; i < MAX_FACES; i++)
            if (x->faces[i].used < x->faces[slot].used) slot = i;
        face_free(&x->faces[slot]);
    } else {
        x->nfaces++;
    }
    if (face_open(x, &x->faces[slot], role, px)) {
        x->faces[slot] = x->faces[--x->nfaces];
        return NULL;
    }
    x->faces[slot].used = x->clock;
    return &x->faces[slot];
}

/* The sheet's rows 0 .. rows - 1 exist (rounded up to TINT_ROWS, at most SHEET); -1 when SDL
 * cannot make them */
static int sheet_reserve(face *f, int rows)
{
    if (rows <= f->sheet->h) return 0;
    int h = (rows + TINT_ROWS - 1) / TINT_ROWS * TINT_ROWS;
    if (h < 2 * f->sheet->h) h = 2 * f->sheet->h;
    if (h > SHEET) h = SHEET;
    SDL_Surface *n = SDL_CreateRGBSurfaceWithFormat(0, SHEET, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!n) return -1;
    SDL_FillRect(n, NULL, 0);
    SDL_SetSurfaceBlendMode(f->sheet, SDL_BLENDMODE_NONE);
    SDL_BlitSurface(f->sheet, NULL, n, NULL);
    SDL_FreeSurface(f->sheet);
    f->sheet = n;
    return 0;
}

static void sheet_clear(face *f)
{
    memset(f->map, 0, f->cap * sizeof *f->map);
    f->count = 0;
    f->pen_x = f->pen_y = f->row_h = 0;
    SDL_FillRect(f->sheet, NULL, 0);
    f->dirty = 1;
}

static glyph *slot_for(face *f, uint32_t cp)
{
    size_t i = (cp * 2654435761u) & (f->cap - 1);
    while (f->map[i].cp && f->map[i].cp != cp) i = (i + 1) & (f->cap - 1);
    return &f->map[i];
}

static int grow(face *f)
{
    size_t cap = f->cap * 2;
    glyph *old = f->map, *m = calloc(cap, sizeof *m);
    if (!m) return -1;
    size_t oldcap = f->cap;
    f->map = m;
    f->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].cp) *slot_for(f, old[i].cp) = old[i];
    free(old);
    return 0;
}

static TTF_Font *font_for(face *f, uint32_t cp)
{
    if (TTF_GlyphIsProvided32(f->main, cp)) return f->main;
    if (f->fallback && TTF_GlyphIsProvided32(f->fallback, cp)) return f->fallback;
    return NULL;
}

static glyph *glyph_get(rsdl *x, face *f, uint32_t cp)
{
    (void)x;
    if (cp == 0) cp = REPLACEMENT;
    glyph *g = slot_for(f, cp);
    if (g->cp == cp) return g;
    if (f->count * 2 >= f->cap) {
        if (grow(f)) return NULL;
        g = slot_for(f, cp);
    }
    TTF_Font *font = font_for(f, cp);
    int missing = font == NULL;
    if (missing) font = f->main;
    int minx, maxx, miny, maxy, adv = f->px / 2;
    if (font && !missing) TTF_GlyphMetrics32(font, cp, &minx, &maxx, &miny, &maxy, &adv);
    glyph ng = {cp, 0, 0, 0, 0, (int16_t)adv, (uint8_t)missing};
    SDL_Surface *s = missing ? NULL : TTF_RenderGlyph32_Blended(font, cp, (SDL_Color){255, 255, 255, 255});
    /* place the glyph so that its baseline sits at the face's ascent */
    int off = s ? f->ascent - TTF_FontAscent(font) : 0, w = s ? s->w : 0;
    if (s) {
        if (f->pen_x + w + 1 > SHEET) { f->pen_x = 0; f->pen_y += f->row_h + 1; f->row_h = 0; }
        if (f->pen_y + f->height > SHEET) { sheet_clear(f); g = slot_for(f, cp); }
        if (sheet_reserve(f, f->pen_y + f->height + 1)) { SDL_FreeSurface(s); s = NULL; }
    }
    if (s) {
        SDL_SetSurfaceBlendMode(s, SDL_BLENDMODE_NONE);
        SDL_Rect dst = {f->pen_x, f->pen_y + off, w, s->h};
        SDL_Rect src = {0, 0, w, f->height - off < s->h ? f->height - off : s->h};
        dst.h = src.h;
        SDL_BlitSurface(s, &src, f->sheet, &dst);
        SDL_FreeSurface(s);
        ng.x = (int16_t)f->pen_x;
        ng.y = (int16_t)f->pen_y;
        ng.w = (int16_t)w;
        ng.h = (int16_t)f->height;
        f->pen_x += w + 1;
        if (f->height > f->row_h) f->row_h = f->height;
        f->dirty = 1;
    }
    *g = ng;
    f->count++;
    return g;
}

/* ---- metrics ---- */

static int m_advance(void *ctx, dl_font role, int px, uint32_t cp)
{
    rsdl *x = ctx;
    face *f = face_get(x, role, px);
    if (!f) return px / 2;
    glyph *g = glyph_get(x, f, cp);
    return g ? g->adv : px / 2;
}

int rsdl_ascent(rsdl *x, dl_font role, int px)
{
    face *f = face_get(x, role, px);
    return f ? f->ascent : px * 4 / 5;
}

static int m_height(void *ctx, dl_font role, int px)
{
    face *f = face_get(ctx, role, px);
    return f ? f->height : px;
}

dl_metrics rsdl_metrics(rsdl *x) { return (dl_metrics){x, m_advance, m_height}; }

rsdl *rsdl_create(SDL_Renderer *r, const rsdl_font_file files[DL_FONT_COUNT], char *err, size_t errlen)
{
    if (!TTF_WasInit() && TTF_Init() != 0) { snprintf(err, errlen, "SDL_ttf: %s", TTF_GetError()); return NULL; }
    rsdl *x = calloc(1, sizeof *x);
    if (!x) { snprintf(err, errlen, "out of memory"); return NULL; }
    x->r = r;
    memcpy(x->files, files, sizeof x->files);
    for (int i = 0; i < DL_FONT_COUNT; i++) { /* open once now, so a bad file is reported here */
        TTF_Font *t = TTF_OpenFontIndex(files[i].path, 12, files[i].index);
        if (!t) { snprintf(err, errlen, "%s: cannot open font: %s", files[i].path, TTF_GetError()); free(x); return NULL; }
        TTF_CloseFont(t);
        x->maps[i] = font_map_open(files[i].path);
        if (x->maps[i].len > (size_t)INT32_MAX) { /* past SDL's RWops: read as a stream */
            munmap(x->maps[i].bytes, x->maps[i].len);
            x->maps[i] = (font_map){NULL, 0};
        }
    }
    return x;
}

void rsdl_destroy(rsdl *x)
{
    if (!x) return;
    for (int i = 0; i < x->nfaces; i++) face_free(&x->faces[i]);
    for (int i = 0; i < DL_FONT_COUNT; i++)
        if (x->maps[i].bytes) munmap(x->maps[i].bytes, x->maps[i].len);
    free(x->scratch);
    free(x);
}

int rsdl_has_glyph(rsdl *x, dl_font role, uint32_t cp)
{
    face *f = face_get(x, role, 16);
    return f && font_for(f, cp) != NULL;
}

unsigned long rsdl_missing_glyphs(const rsdl *x) { return x->missing; }

/* ---- executing ---- */

static void colour(rsdl *x, dl_colour c)
{
    SDL_SetRenderDrawBlendMode(x->r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(x->r, c.r, c.g, c.b, c.a);
}

static void thick_line(rsdl *x, int x1, int y1, int x2, int y2, int thick)
{
    int steep = abs(y2 - y1) > abs(x2 - x1);
    for (int k = 0; k < (thick > 0 ? thick : 1); k++) {
        int o = k - (thick - 1) / 2;
        if (steep) SDL_RenderDrawLine(x->r, x1 + o, y1, x2 + o, y2);
        else SDL_RenderDrawLine(x->r, x1, y1 + o, x2, y2 + o);
    }
}

/* Puts every glyph of the list's text into its face's sheet, then uploads each changed sheet
 * once: a first frame full of new glyphs costs one upload per face, not one per string. */
static void prepare_glyphs(rsdl *x, const dl_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const dl_item *it = &l->items[i];
        if (it->kind != DL_TEXT) continue;
        face *f = face_get(x, it->font, it->px);
        if (!f) continue;
        const char *s = dl_item_text(l, it), *end = s + it->len;
        while (s < end) glyph_get(x, f, dl_utf8_next(&s));
    }
    for (int i = 0; i < x->nfaces; i++)
        if (x->faces[i].dirty) {
            x->faces[i].serial++;
            x->faces[i].dirty = 0;
        }
}

/* The sheet of f in colour c (its rows in use): made when the sheet or the colour is new to it,
 * the least recently used of the face's tints giving way. NULL when SDL cannot make it. */
static SDL_Texture *tint_get(rsdl *x, face *f, dl_colour c)
{
    uint32_t key = (uint32_t)c.r << 24 | (uint32_t)c.g << 16 | (uint32_t)c.b << 8 | c.a;
    int rows = f->pen_y + f->row_h + 1;
    if (rows > f->sheet->h) rows = f->sheet->h;
    tint *t = NULL;
    for (int i = 0; i < TINTS && !t; i++)
        if (f->tints[i].tex && f->tints[i].rgba == key) t = &f->tints[i];
    if (!t) {
        t = &f->tints[0];
        for (int i = 1; i < TINTS; i++)
            if (!f->tints[i].tex || (t->tex && f->tints[i].used < t->used)) t = &f->tints[i];
        t->serial = f->serial - 1; /* made below */
        t->rgba = key;
    }
    t->used = ++x->clock;
    if (t->tex && t->serial == f->serial && t->h >= rows) return t->tex;
    if (!x->scratch && !(x->scratch = malloc((size_t)SHEET * SHEET * sizeof *x->scratch))) return NULL;
    if (!t->tex || t->h < rows) {
        if (t->tex) SDL_DestroyTexture(t->tex);
        t->h = (rows + TINT_ROWS - 1) / TINT_ROWS * TINT_ROWS;
        if (t->h > f->sheet->h) t->h = f->sheet->h;
        t->tex = SDL_CreateTexture(x->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, SHEET, t->h);
        if (!t->tex) return NULL;
        SDL_SetTextureBlendMode(t->tex, SDL_BLENDMODE_BLEND);
    }
    const uint32_t rgb = (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
    for (int y = 0; y < t->h; y++) {
        const uint32_t *src = (const uint32_t *)((const uint8_t *)f->sheet->pixels + (size_t)y * (size_t)f->sheet->pitch);
        uint32_t *dst = x->scratch + (size_t)y * SHEET;
        for (int k = 0; k < SHEET; k++) dst[k] = ((src[k] >> 24) * c.a / 255) << 24 | rgb;
    }
    SDL_UpdateTexture(t->tex, NULL, x->scratch, SHEET * (int)sizeof *x->scratch);
    t->serial = f->serial;
    return t->tex;
}

static void draw_text(rsdl *x, const dl_list *l, const dl_item *it)
{
    face *f = face_get(x, it->font, it->px);
    SDL_Texture *tex = f ? tint_get(x, f, it->c) : NULL;
    if (!tex) return;
    const char *s = dl_item_text(l, it), *end = s + it->len;
    int pen = it->r.x;
    for (const char *p = s; p < end;) {
        glyph *g = glyph_get(x, f, dl_utf8_next(&p));
        if (!g) break;
        if (g->missing) { /* a visible box, and counted: tests fail on tofu */
            x->missing++;
            SDL_Rect box = {pen + 1, it->r.y + 2, g->adv - 2, f->height - 4};
            colour(x, it->c);
            SDL_RenderDrawRect(x->r, &box);
        } else if (g->w > 0) {
            SDL_Rect src = {g->x, g->y, g->w, g->h}, dst = {pen, it->r.y, g->w, g->h};
            SDL_RenderCopy(x->r, tex, &src, &dst);
        }
        pen += g->adv;
    }
}

static void set_clip(rsdl *x)
{
    int whole = x->damage.w <= 0;
    if (x->nclip == 0 && whole) { SDL_RenderSetClipRect(x->r, NULL); return; }
    dl_rect c = x->nclip ? x->clip[x->nclip - 1] : x->damage;
    if (!whole && x->nclip) { /* the clip within the region being drawn */
        int x0 = c.x > x->damage.x ? c.x : x->damage.x, y0 = c.y > x->damage.y ? c.y : x->damage.y;
        int x1 = c.x + c.w < x->damage.x + x->damage.w ? c.x + c.w : x->damage.x + x->damage.w;
        int y1 = c.y + c.h < x->damage.y + x->damage.h ? c.y + c.h : x->damage.y + x->damage.h;
        c = (dl_rect){x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
    }
    SDL_Rect r = {c.x, c.y, c.w, c.h};
    SDL_RenderSetClipRect(x->r, &r);
}

/* the items of l that meet x->damage (all of them when it is empty), clipped to it */
static void execute_region(rsdl *x, const dl_list *l)
{
    x->nclip = 0;
    set_clip(x);
    int whole = x->damage.w <= 0;
    for (size_t i = 0; i < l->n; i++) {
        const dl_item *it = &l->items[i];
        if (!whole && it->kind != DL_CLIP && it->kind != DL_UNCLIP && !dl_rect_overlap(dl_item_extent(it), x->damage)) continue;
        SDL_Rect r = {it->r.x, it->r.y, it->r.w, it->r.h};
        switch (it->kind) {
        case DL_FILL: colour(x, it->c); SDL_RenderFillRect(x->r, &r); break;
        case DL_RECT:
            colour(x, it->c);
            for (int k = 0; k < it->thick; k++) {
                SDL_Rect q = {r.x + k, r.y + k, r.w - 2 * k, r.h - 2 * k};
                if (q.w > 0 && q.h > 0) SDL_RenderDrawRect(x->r, &q);
            }
            break;
        case DL_LINE: colour(x, it->c); thick_line(x, it->r.x, it->r.y, it->x2, it->y2, it->thick); break;
        case DL_ARROW: {
            colour(x, it->c);
            thick_line(x, it->r.x, it->r.y, it->x2, it->y2, it->thick);
            double dx = it->x2 - it->r.x, dy = it->y2 - it->r.y, len = sqrt(dx * dx + dy * dy);
            if (len < 1) break;
            double ux = dx / len, uy = dy / len, hl = 4.0 + 2.0 * it->thick;
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                int hx = it->x2 - (int)lround(hl * (ux - sgn * 0.5 * uy)), hy = it->y2 - (int)lround(hl * (uy + sgn * 0.5 * ux));
                thick_line(x, it->x2, it->y2, hx, hy, it->thick);
            }
            break;
        }
        case DL_TEXT: draw_text(x, l, it); break;
        case DL_CLIP:
            if (x->nclip < 16) x->clip[x->nclip++] = it->r;
            set_clip(x);
            break;
        case DL_UNCLIP:
            if (x->nclip > 0) x->nclip--;
            set_clip(x);
            break;
        }
    }
    SDL_RenderSetClipRect(x->r, NULL);
}

void rsdl_execute(rsdl *x, const dl_list *l) { rsdl_execute_regions(x, l, NULL, -1); }

void rsdl_execute_regions(rsdl *x, const dl_list *l, const dl_rect *regions, int n)
{
    prepare_glyphs(x, l);
    x->damage = (dl_rect){0, 0, 0, 0};
    if (n < 0) { execute_region(x, l); return; }
    for (int k = 0; k < n; k++) {
        if (regions[k].w <= 0 || regions[k].h <= 0) continue;
        x->damage = regions[k];
        execute_region(x, l);
    }
    x->damage = (dl_rect){0, 0, 0, 0};
}
