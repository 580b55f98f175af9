/* ui_fixture.h: a session drawn headless into the draw-list recorder, for the viewer's tests.
 * The frame is made by the same code as the window's: session -> scene -> panels -> draw list,
 * and executed on a software-rendered surface when a test looks at pixels. */
#ifndef WARPSCOPE_UI_FIXTURE_H
#define WARPSCOPE_UI_FIXTURE_H

#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "app/draw/draw.h"
#include "app/viewer/panels.h"
#include "app/draw/render_sdl.h"
#include "app/viewer/scene.h"
#include "app/viewer/session.h"
#include "trace/sources.h"

typedef struct fixture {
    session s;
    scene sc;
    SDL_Surface *surf;
    SDL_Renderer *r;
    rsdl *x;
    dl_list l;
    int w, h;
    capture_desc cap;
} fixture;

static inline int fixture_load(void *ctx, const char *version, const session_break *b, trace *t, char *note, size_t notelen, char *err,
                               size_t errlen)
{
    fixture *f = ctx;
    capture_desc d = f->cap;
    d.version = version;
    if (b && b->schedule[0]) d.schedule = b->schedule;
    if (b && b->drop_barrier) d.drop_barrier = b->drop_barrier;
    if (b && b->blocks_traced) d.blocks_traced = b->blocks_traced;
    note[0] = '\0';
    (void)notelen;
    return capture_cpu(&d, t, err, errlen);
}

/* version NULL: no trace (the benchmark view alone) */
static inline int fixture_open(fixture *f, const char *version, unsigned block, const char *data, int w, int h)
{
    memset(f, 0, sizeof *f);
    char err[512];
    f->cap.block = block;
    f->cap.data = data;
    if (session_init(&f->s, WS_ASSETS "/themes", (session_loader){f, fixture_load}, err, sizeof err)) { fprintf(stderr, "%s\n", err); return -1; }
    scene_init(&f->sc);
    if (version) {
        trace t;
        trace_init(&t);
        if (fixture_load(f, version, NULL, &t, err, 0, err, sizeof err) || session_set_trace(&f->s, 0, &t, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
    }
    rsdl_font_file files[DL_FONT_COUNT];
    int have_cjk;
    if (rsdl_find_fonts(WS_ASSETS, 1, files, &have_cjk, err, sizeof err)) { fprintf(stderr, "%s\n", err); return -1; }
    f->w = w;
    f->h = h;
    f->surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    f->r = f->surf ? SDL_CreateSoftwareRenderer(f->surf) : NULL;
    f->x = f->r ? rsdl_create(f->r, files, err, sizeof err) : NULL;
    if (!f->x) { fprintf(stderr, "renderer: %s %s\n", err, SDL_GetError()); return -1; }
    dl_init(&f->l, rsdl_metrics(f->x));
    return 0;
}

static inline void fixture_act(fixture *f, const char *script)
{
    char err[256];
    int rc = session_apply_script(&f->s, script, NULL, NULL, err, sizeof err);
    CHECK(rc == 0, "script \"%s\": %s", script, err); /* a mistyped script fails */
}

/* the frame t of the way through the last move, as a draw list (and, with execute, on the surface) */
static inline void fixture_frame_t(fixture *f, int w, int h, int execute, double t)
{
    scene_update(&f->sc, &f->s, sources_find);
    panels_draw(&f->sc, &f->l, w, h, panels_px(h, f->s.scale, f->s.presenter), t);
    if (execute) {
        rsdl_execute(f->x, &f->l);
        SDL_RenderPresent(f->r);
    }
}

static inline void fixture_close(fixture *f)
{
    dl_free(&f->l);
    rsdl_destroy(f->x);
    if (f->r) SDL_DestroyRenderer(f->r);
    if (f->surf) SDL_FreeSurface(f->surf);
    scene_free(&f->sc);
    session_free(&f->s);
}

static inline int fixture_by_y(const void *a, const void *b)
{
    const dl_item *x = *(const dl_item *const *)a, *y = *(const dl_item *const *)b;
    return x->r.y != y->r.y ? (x->r.y < y->r.y ? -1 : 1) : (x->r.x < y->r.x ? -1 : x->r.x > y->r.x);
}

/* Fails the test where one text box of the frame overlaps another (at most five reported). */
static inline void fixture_check_no_overlaps(const fixture *f, const char *what, int w, int h)
{
    const dl_item **texts = malloc((f->l.n + 1) * sizeof *texts);
    if (!texts) { CHECK(0, "out of memory"); return; }
    size_t n = 0;
    for (size_t i = 0; i < f->l.n; i++)
        if (f->l.items[i].kind == DL_TEXT) texts[n++] = &f->l.items[i];
    qsort(texts, n, sizeof *texts, fixture_by_y);
    int reported = 0;
    for (size_t i = 0; i < n && reported < 5; i++)
        for (size_t j = i + 1; j < n && texts[j]->r.y < texts[i]->r.y + texts[i]->r.h; j++)
            if (dl_rect_overlap(texts[i]->r, texts[j]->r)) {
                CHECK(0, "%s %dx%d: \"%.*s\" overlaps \"%.*s\"", what, w, h, (int)texts[i]->len, dl_item_text(&f->l, texts[i]),
                      (int)texts[j]->len, dl_item_text(&f->l, texts[j]));
                reported++;
            }
    free(texts);
}

static inline void fixture_frame(fixture *f, int w, int h, int execute) { fixture_frame_t(f, w, h, execute, 1.0); }

static inline int same_colour(dl_colour a, dl_colour b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

/* the topmost fill with this hit code in the named panel, or NULL */
static inline const dl_item *fixture_hit_item(const fixture *f, uint32_t hit, const char *panel)
{
    for (size_t i = f->l.n; i-- > 0;) {
        const dl_item *it = &f->l.items[i];
        if (it->kind == DL_FILL && it->hit == hit && it->panel >= 0 && !strcmp(f->l.panels[it->panel].name, panel)) return it;
    }
    return NULL;
}

#endif
