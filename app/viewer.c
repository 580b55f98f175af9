/* viewer: see viewer.h. The app state lives here; ui.c only draws it. */
#include "viewer.h"

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ladder.h"
#include "outfile.h"
#include "sources.h"
#include "ui.h"
#include "view.h"

#ifndef WS_ASSET_DIR
#define WS_ASSET_DIR "assets"
#endif

/* assets/ beside the source tree, unless WARPSCOPE_ASSETS says otherwise */
static void asset_path(char *buf, size_t len, const char *rel)
{
    const char *dir = getenv("WARPSCOPE_ASSETS");
    snprintf(buf, len, "%s/%s", dir && *dir ? dir : WS_ASSET_DIR, rel);
}

typedef struct pane_data {
    trace t;
    view_model m;
    char title[160];
    int loaded;
} pane_data;

typedef struct app {
    viewer_opts o;
    pane_data pd[2];
    ui_state ui;
    ui_theme themes[2];
    int theme_index;
    results res;
    int have_results;
    int fine;
} app;

static void pane_free(pane_data *p)
{
    if (!p->loaded) return;
    view_free(&p->m);
    trace_free(&p->t);
    p->loaded = 0;
}

/* First step of phase 1 (the first step of the tree), or 0. */
static size_t default_step(const view_model *m)
{
    long s = view_phase_first(m, 1);
    return s >= 0 ? (size_t)s : 0;
}

static int pane_build(app *A, int i, char *err, size_t errlen)
{
    pane_data *p = &A->pd[i];
    view_free(&p->m);
    if (view_build(&p->m, &p->t, 0, 0, A->fine, err, errlen)) return -1;
    const ladder_version *v = ladder_find(p->t.prov.version);
    char title[sizeof p->title];
    snprintf(title, sizeof title, "%s: %s", p->t.prov.version, v ? v->title : "(unknown version)");
    memcpy(p->title, title, sizeof title);
    ui_pane *up = &A->ui.pane[i];
    up->m = &p->m;
    up->title = p->title;
    up->source = sources_find(p->t.prov.source);
    if (up->step >= p->m.nsteps) up->step = p->m.nsteps ? p->m.nsteps - 1 : 0;
    up->selected = -1;
    return 0;
}

/* Loads pane i from a file or by capturing `version` with the app's capture flags. */
static int pane_load(app *A, int i, const char *file, const char *version, char *err, size_t errlen)
{
    pane_data *p = &A->pd[i];
    trace t;
    trace_init(&t);
    if (file) {
        if (trace_read_file(&t, file, err, errlen)) return -1;
    } else {
        capture_desc d = A->o.cap;
        d.version = version;
        const ladder_version *v = ladder_find(version);
        /* a block the version cannot run falls back to its default rather than failing */
        if (v && d.block && ladder_check_block(v, d.block, err, errlen)) d.block = 0;
        if (v && !v->ept_tunable) d.ept = 0;
        char note[600];
        if (capture_with(A->o.backend, &d, &t, note, sizeof note, err, errlen)) return -1;
        if (note[0]) snprintf(A->ui.status, sizeof A->ui.status, "%s", note);
    }
    pane_free(p);
    p->t = t;
    p->loaded = 1;
    memset(&p->m, 0, sizeof p->m);
    A->ui.pane[i].step = 0;
    if (pane_build(A, i, err, errlen)) { pane_free(p); return -1; }
    A->ui.pane[i].step = default_step(&p->m);
    return 0;
}

static int app_init(app *A, const viewer_opts *o, char *err, size_t errlen)
{
    memset(A, 0, sizeof *A);
    A->o = *o;
    A->fine = o->fine;
    A->ui.mouse_x = A->ui.mouse_y = -1;
    A->ui.speed = 4.0;
    A->ui.pane[0].selected = A->ui.pane[1].selected = -1;
    char path[512];
    static const char *const names[2] = {"light", "dark"};
    for (int i = 0; i < 2; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "themes/%s.json", names[i]);
        asset_path(path, sizeof path, rel);
        if (theme_load(&A->themes[i], path, err, errlen)) return -1;
    }
    if (o->theme && strcmp(o->theme, "light") && strcmp(o->theme, "dark")) {
        snprintf(err, errlen, "--theme must be light or dark, got \"%s\"", o->theme);
        return -1;
    }
    A->theme_index = o->theme && !strcmp(o->theme, "dark") ? 1 : 0;
    A->ui.theme = &A->themes[A->theme_index];
    if (o->bench) {
        if (results_read_file(&A->res, o->bench, err, errlen)) return -1;
        A->have_results = 1;
    } else {
        asset_path(path, sizeof path, "bench-h100.json");
        char ignore[256];
        A->have_results = results_read_file(&A->res, path, ignore, sizeof ignore) == 0;
    }
    A->ui.results = A->have_results ? &A->res : NULL;
    if (A->have_results) { /* the chart opens on the largest size, where the ladder spreads most */
        uint64_t sizes[64];
        size_t n = results_sizes(&A->res, sizes, 64);
        A->ui.bench_size = n ? n - 1 : 0;
    }
    if (o->bench && !o->file && !o->cap.version) { A->ui.bench = 1; return 0; }
    if (pane_load(A, 0, o->file, o->cap.version ? o->cap.version : "v0", err, errlen)) return -1;
    if (o->compare) {
        if (!ladder_find(o->compare)) { snprintf(err, errlen, "unknown version \"%s\" for --compare", o->compare); return -1; }
        if (pane_load(A, 1, NULL, o->compare, err, errlen)) return -1;
        A->ui.compare = 1;
    }
    return 0;
}

static void app_free(app *A)
{
    pane_free(&A->pd[0]);
    pane_free(&A->pd[1]);
    if (A->have_results) results_free(&A->res);
}

/* ---- stepping ---- */

static void step_by(app *A, int delta)
{
    for (int i = 0; i < 1 + A->ui.compare; i++) {
        ui_pane *p = &A->ui.pane[i];
        if (!p->m) continue;
        long s = (long)p->step + delta;
        if (s < 0) s = 0;
        if (s >= (long)p->m->nsteps) s = (long)p->m->nsteps - 1;
        p->step = (size_t)s;
    }
}

/* Compare mode moves both panes to the end of the same phase; alone, to the start of the next. */
static void phase_by(app *A, int delta)
{
    for (int i = 0; i < 1 + A->ui.compare; i++) {
        ui_pane *p = &A->ui.pane[i];
        if (!p->m || !p->m->nsteps) continue;
        long ph = (long)p->m->steps[p->step].phase + delta;
        if (ph < 0) ph = 0;
        if (ph >= (long)p->m->nphases) ph = (long)p->m->nphases - 1;
        long s = A->ui.compare ? view_phase_last(p->m, (unsigned)ph) : view_phase_first(p->m, (unsigned)ph);
        if (s >= 0) p->step = (size_t)s;
    }
}

static const char *version_for_key(SDL_Keycode k)
{
    static const char *const digits[10] = {"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v4s"};
    if (k >= SDLK_0 && k <= SDLK_9) return digits[k - SDLK_0];
    if (k == SDLK_n) return "naive";
    return NULL;
}

static const char *next_version(const char *id)
{
    for (size_t i = 0; i < ladder_count; i++)
        if (!strcmp(ladder_versions[i].id, id)) return ladder_versions[(i + 1) % ladder_count].id;
    return "v1";
}

/* through outfile: a failed or interrupted save leaves the old PNG (or none), never half of one */
static int save_png(SDL_Surface *s, const char *path, char *err, size_t errlen)
{
    outfile of;
    if (outfile_open(&of, path, err, errlen)) return -1;
    SDL_RWops *rw = SDL_RWFromFP(of.f, SDL_FALSE);
    if (!rw || IMG_SavePNG_RW(s, rw, 1) != 0) {
        snprintf(err, errlen, "%s: cannot write PNG: %s", path, rw ? IMG_GetError() : SDL_GetError());
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, err, errlen);
}

/* ---- drawing into a surface (window or headless) ---- */

typedef struct canvas {
    SDL_Surface *surface;
    SDL_Renderer *r;
    ui_assets assets;
    int px;
} canvas;

static int canvas_open(canvas *c, SDL_Surface *s, int px, char *err, size_t errlen)
{
    c->surface = s;
    c->px = px;
    c->r = SDL_CreateSoftwareRenderer(s);
    if (!c->r) { snprintf(err, errlen, "software renderer: %s", SDL_GetError()); return -1; }
    char font[512];
    asset_path(font, sizeof font, "fonts/DejaVuSansMono.ttf");
    if (ui_assets_init(&c->assets, c->r, font, px, err, errlen)) { SDL_DestroyRenderer(c->r); c->r = NULL; return -1; }
    return 0;
}

static void canvas_close(canvas *c)
{
    ui_assets_free(&c->assets);
    if (c->r) SDL_DestroyRenderer(c->r);
    c->r = NULL;
}

static void canvas_draw(canvas *c, const ui_state *s)
{
    ui_draw(s, &c->assets, c->surface->w, c->surface->h);
    SDL_RenderPresent(c->r);
}

/* text size from the window height, so a projector at 1080p gets 18 px and a laptop less */
static int base_px(int h, double scale)
{
    int px = (int)((h / 60.0) * scale);
    return px < 9 ? 9 : px > 64 ? 64 : px;
}

/* ---- headless ---- */

static int render_one(app *A, int w, int h, const char *path, char *err, size_t errlen)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    if (!s) { snprintf(err, errlen, "cannot make a %dx%d surface: %s", w, h, SDL_GetError()); return -1; }
    canvas c;
    int rc = canvas_open(&c, s, base_px(h, 1.0), err, errlen);
    if (!rc) {
        canvas_draw(&c, &A->ui);
        rc = save_png(s, path, err, errlen);
        canvas_close(&c);
    }
    SDL_FreeSurface(s);
    return rc;
}

static int ttf_up(char *err, size_t errlen)
{
    if (TTF_WasInit() || TTF_Init() == 0) return 0;
    snprintf(err, errlen, "SDL_ttf: %s", TTF_GetError());
    return -1;
}

int viewer_render(const viewer_opts *o)
{
    char err[512];
    app *A = calloc(1, sizeof *A);
    if (!A) { fprintf(stderr, "warpscope: out of memory\n"); return 2; }
    int rc = 2;
    const char *in = outfile_is_input(o->out, o->file) ? o->file : outfile_is_input(o->out, o->bench) ? o->bench : NULL;
    if (in) { snprintf(err, sizeof err, "%s: the output would overwrite the input %s; choose another -o", o->out, in); goto fail; }
    if (ttf_up(err, sizeof err) || app_init(A, o, err, sizeof err)) goto fail;
    int w = o->width ? o->width : 1920, h = o->height ? o->height : 1080;
    if (!A->ui.bench) {
        const view_model *m = A->ui.pane[0].m;
        if (o->event >= 0) {
            size_t target = (size_t)o->event, found = (size_t)-1;
            for (size_t s = 0; s < m->nsteps && found == (size_t)-1; s++)
                for (size_t i = 0; i < m->steps[s].count; i++)
                    if (m->order[m->steps[s].first + i] == target) { found = s; break; }
            if (found == (size_t)-1) { snprintf(err, sizeof err, "--event %ld: no such event in block 0 of pass 0 (%zu events in the trace)", o->event, A->pd[0].t.nevents); goto fail; }
            A->ui.pane[0].step = found;
        } else if (o->phase >= 0) {
            if ((unsigned long)o->phase >= m->nphases) { snprintf(err, sizeof err, "--phase %ld: the trace has phases 0 to %u", o->phase, m->nphases - 1); goto fail; }
            for (int i = 0; i < 1 + A->ui.compare; i++) {
                long s = view_phase_last(A->ui.pane[i].m, (unsigned)o->phase);
                if (s >= 0) A->ui.pane[i].step = (size_t)s;
            }
        } else if (o->step >= 0) {
            if ((size_t)o->step >= m->nsteps) { snprintf(err, sizeof err, "--step %ld: the trace has steps 0 to %zu", o->step, m->nsteps - 1); goto fail; }
            for (int i = 0; i < 1 + A->ui.compare; i++) {
                const view_model *mi = A->ui.pane[i].m;
                A->ui.pane[i].step = (size_t)o->step < mi->nsteps ? (size_t)o->step : mi->nsteps - 1;
            }
        }
    }
    if (o->frames) {
        if (A->ui.bench) { snprintf(err, sizeof err, "--frames renders a trace's steps, not the benchmark view"); goto fail; }
        if (mkdir(o->frames, 0777) != 0 && errno != EEXIST) { snprintf(err, sizeof err, "%s: cannot make the folder: %s", o->frames, strerror(errno)); goto fail; }
        size_t n = A->ui.pane[0].m->nsteps;
        for (size_t s = 0; s < n; s++) {
            A->ui.pane[0].step = s;
            if (A->ui.compare && A->ui.pane[1].m) A->ui.pane[1].step = s < A->ui.pane[1].m->nsteps ? s : A->ui.pane[1].m->nsteps - 1;
            char path[1024];
            snprintf(path, sizeof path, "%s/step-%04zu.png", o->frames, s);
            if (render_one(A, w, h, path, err, sizeof err)) goto fail;
        }
        fprintf(stderr, "warpscope: %zu frames -> %s/\n", n, o->frames);
    }
    if (o->out) {
        if (render_one(A, w, h, o->out, err, sizeof err)) goto fail;
        fprintf(stderr, "warpscope: rendered %dx%d -> %s\n", w, h, o->out);
    }
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "warpscope: %s\n", err);
done:
    app_free(A);
    free(A);
    return rc;
}

/* ---- the window ---- */

typedef struct injected {
    const char *p; /* next key name in the list */
} injected;

static SDL_Keycode next_injected_key(injected *in, Uint16 *mod)
{
    *mod = KMOD_NONE;
    while (in->p && *in->p == ',') in->p++;
    if (!in->p || !*in->p) return SDLK_UNKNOWN;
    char name[32];
    size_t n = strcspn(in->p, ",");
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), in->p);
    in->p += n;
    const char *base = name;
    if (!strncmp(name, "Shift+", 6)) { *mod = KMOD_LSHIFT; base += 6; }
    if (!strncmp(name, "Ctrl+", 5)) { *mod = KMOD_LCTRL; base += 5; }
    SDL_Keycode k = SDL_GetKeyFromName(base);
    return k == SDLK_UNKNOWN ? SDLK_F24 : k; /* F24: an unknown name, reported once */
}

static void handle_key(app *A, SDL_Window *win, SDL_Keycode k, Uint16 mod, int *quit, int *rescale, SDL_Surface *surface)
{
    ui_state *u = &A->ui;
    char err[512];
    int shift = (mod & KMOD_SHIFT) != 0, ctrl = (mod & KMOD_CTRL) != 0;
    u->status[0] = '\0';
    if (u->bench && (k == SDLK_LEFT || k == SDLK_RIGHT)) {
        uint64_t sizes[64];
        size_t n = u->results ? results_sizes(u->results, sizes, 64) : 0;
        if (k == SDLK_RIGHT && u->bench_size + 1 < n) u->bench_size++;
        if (k == SDLK_LEFT && u->bench_size > 0) u->bench_size--;
        return;
    }
    switch (k) {
    case SDLK_ESCAPE:
    case SDLK_q: *quit = 1; break;
    case SDLK_SPACE: u->playing = !u->playing; break;
    case SDLK_RIGHT: if (shift) phase_by(A, 1); else if (u->compare) phase_by(A, 1); else step_by(A, 1); break;
    case SDLK_LEFT: if (shift) phase_by(A, -1); else if (u->compare) phase_by(A, -1); else step_by(A, -1); break;
    case SDLK_PAGEDOWN: phase_by(A, 1); break;
    case SDLK_PAGEUP: phase_by(A, -1); break;
    case SDLK_HOME: step_by(A, -1000000); break;
    case SDLK_END: step_by(A, 1000000); break;
    case SDLK_EQUALS:
    case SDLK_PLUS:
    case SDLK_KP_PLUS:
        if (ctrl) { *rescale = 1; break; }
        if (u->speed < 60) u->speed *= 1.5;
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        if (ctrl) { *rescale = -1; break; }
        if (u->speed > 0.25) u->speed /= 1.5;
        break;
    case SDLK_c:
        if (u->compare) { u->compare = 0; break; }
        if (pane_load(A, 1, NULL, next_version(A->pd[0].t.prov.version), err, sizeof err)) { snprintf(u->status, sizeof u->status, "%s", err); break; }
        u->compare = 1;
        phase_by(A, 0);
        break;
    case SDLK_w:
        A->fine = !A->fine;
        for (int i = 0; i < 1 + u->compare; i++)
            if (pane_build(A, i, err, sizeof err)) snprintf(u->status, sizeof u->status, "%s", err);
        snprintf(u->status, sizeof u->status, "%s", A->fine ? "warp by warp: each step is one warp's instruction" : "each step: all warps at one point of the code");
        break;
    case SDLK_b: u->bench = !u->bench; if (u->bench && !u->results) snprintf(u->status, sizeof u->status, "no benchmark results found in assets/"); break;
    case SDLK_t: A->theme_index ^= 1; u->theme = &A->themes[A->theme_index]; break;
    case SDLK_SLASH: if (shift) u->show_help = !u->show_help; break;
    case SDLK_QUESTION: u->show_help = !u->show_help; break;
    case SDLK_F11: {
        Uint32 fs = SDL_GetWindowFlags(win) & SDL_WINDOW_FULLSCREEN_DESKTOP;
        SDL_SetWindowFullscreen(win, fs ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
        break;
    }
    case SDLK_s: {
        char path[128];
        snprintf(path, sizeof path, "warpscope-%s-step%zu.png", A->pd[0].t.prov.version, u->pane[0].step);
        if (save_png(surface, path, err, sizeof err)) snprintf(u->status, sizeof u->status, "%s", err);
        else snprintf(u->status, sizeof u->status, "saved %s", path);
        break;
    }
    case SDLK_F24: snprintf(u->status, sizeof u->status, "unknown key name in --keys"); break;
    default: {
        const char *v = version_for_key(k);
        if (!v) break;
        if (pane_load(A, 0, NULL, v, err, sizeof err)) { snprintf(u->status, sizeof u->status, "%s", err); break; }
        if (u->compare && pane_load(A, 1, NULL, next_version(v), err, sizeof err)) snprintf(u->status, sizeof u->status, "%s", err);
        if (u->compare) phase_by(A, 0);
        break;
    }
    }
}

int viewer_window(const viewer_opts *o)
{
    char err[512];
    /* Decide before SDL does: without a display SDL 2.26 falls back to its offscreen driver and
     * would sit there with a window nobody sees (and libwayland prints its own complaint). */
    const char *drv = getenv("SDL_VIDEODRIVER"), *x11 = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    int explicit_driver = drv && *drv;
    if (!explicit_driver && !(x11 && *x11) && !(wl && *wl)) {
        fprintf(stderr, "warpscope: no display (DISPLAY and WAYLAND_DISPLAY are unset); without one use warpscope render ... -o out.png, warpscope stats or warpscope capture\n");
        return 2;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0 ||
        (!explicit_driver && (!strcmp(SDL_GetCurrentVideoDriver(), "offscreen") || !strcmp(SDL_GetCurrentVideoDriver(), "dummy")))) {
        fprintf(stderr, "warpscope: no display (%s); without one use warpscope render ... -o out.png, warpscope stats or warpscope capture\n",
                SDL_WasInit(SDL_INIT_VIDEO) ? "only an offscreen video driver" : SDL_GetError());
        SDL_Quit();
        return 2;
    }
    app *A = calloc(1, sizeof *A);
    int rc = 2;
    SDL_Window *win = NULL;
    canvas c = {0};
    if (!A) { snprintf(err, sizeof err, "out of memory"); goto fail; }
    if (ttf_up(err, sizeof err) || app_init(A, o, err, sizeof err)) goto fail;
    win = SDL_CreateWindow("warpscope", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o->width ? o->width : 1600,
                           o->height ? o->height : 900, SDL_WINDOW_RESIZABLE);
    if (!win) { snprintf(err, sizeof err, "cannot open a window: %s", SDL_GetError()); goto fail; }
    double scale = 1.0;
    int dirty = 1, quit = 0, need_canvas = 1;
    injected inj = {o->keys};
    Uint32 last_step = SDL_GetTicks();
    while (!quit) {
        if (need_canvas) {
            canvas_close(&c);
            SDL_Surface *s = SDL_GetWindowSurface(win);
            if (!s || canvas_open(&c, s, base_px(s->h, scale), err, sizeof err)) {
                if (!s) snprintf(err, sizeof err, "window surface: %s", SDL_GetError());
                goto fail;
            }
            need_canvas = 0;
            dirty = 1;
        }
        SDL_Event ev;
        /* sleep until something happens; while playing, until the next step is due */
        int timeout = A->ui.playing ? (int)(1000.0 / A->ui.speed) : 500;
        int got = inj.p && *inj.p ? SDL_PollEvent(&ev) : SDL_WaitEventTimeout(&ev, timeout);
        int rescale = 0;
        if (!got && inj.p && *inj.p) {
            Uint16 mod;
            SDL_Keycode k = next_injected_key(&inj, &mod);
            if (k != SDLK_UNKNOWN) { handle_key(A, win, k, mod, &quit, &rescale, c.surface); dirty = 1; }
            if (!*inj.p) inj.p = NULL;
        }
        for (; got; got = SDL_PollEvent(&ev)) {
            switch (ev.type) {
            case SDL_QUIT: quit = 1; break;
            case SDL_KEYDOWN: handle_key(A, win, ev.key.keysym.sym, ev.key.keysym.mod, &quit, &rescale, c.surface); dirty = 1; break;
            case SDL_MOUSEMOTION: A->ui.mouse_x = ev.motion.x; A->ui.mouse_y = ev.motion.y; dirty = 1; break;
            case SDL_MOUSEBUTTONDOWN: {
                int64_t w;
                int p = ui_hit_cell(&A->ui, &c.assets, c.surface->w, c.surface->h, ev.button.x, ev.button.y, &w);
                if (p >= 0) A->ui.pane[p].selected = A->ui.pane[p].selected == w ? -1 : w;
                dirty = 1;
                break;
            }
            case SDL_WINDOWEVENT:
                if (ev.window.event == SDL_WINDOWEVENT_SIZE_CHANGED || ev.window.event == SDL_WINDOWEVENT_RESIZED) need_canvas = 1;
                if (ev.window.event == SDL_WINDOWEVENT_LEAVE) A->ui.mouse_x = A->ui.mouse_y = -1;
                dirty = 1;
                break;
            default: break;
            }
        }
        if (rescale) {
            scale *= rescale > 0 ? 1.2 : 1 / 1.2;
            if (scale < 0.5) scale = 0.5;
            if (scale > 3.0) scale = 3.0;
            need_canvas = 1;
            continue;
        }
        if (A->ui.playing && SDL_GetTicks() - last_step >= (Uint32)(1000.0 / A->ui.speed)) {
            last_step = SDL_GetTicks();
            const ui_pane *p0 = &A->ui.pane[0];
            if (p0->m && p0->step + 1 >= p0->m->nsteps) A->ui.playing = 0;
            else if (A->ui.compare) phase_by(A, 1);
            else step_by(A, 1);
            dirty = 1;
        }
        if (need_canvas) continue;
        if (dirty) {
            canvas_draw(&c, &A->ui);
            SDL_UpdateWindowSurface(win);
            dirty = 0;
        }
    }
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "warpscope: %s\n", err);
done:
    canvas_close(&c);
    if (win) SDL_DestroyWindow(win);
    if (A) app_free(A);
    free(A);
    TTF_Quit();
    SDL_Quit();
    return rc;
}

/* ---- perf draw ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int viewer_perf_draw(void)
{
    char err[512];
    viewer_opts o;
    memset(&o, 0, sizeof o);
    o.cap.version = "v0";
    o.cap.block = 1024;
    o.event = o.phase = o.step = -1;
    app *A = calloc(1, sizeof *A);
    if (!A || ttf_up(err, sizeof err) || app_init(A, &o, err, sizeof err)) {
        fprintf(stderr, "warpscope: %s\n", A ? err : "out of memory");
        free(A);
        return 2;
    }
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 1920, 1080, 32, SDL_PIXELFORMAT_RGB888);
    canvas c;
    if (!s || canvas_open(&c, s, base_px(1080, 1.0), err, sizeof err)) {
        fprintf(stderr, "warpscope: %s\n", s ? err : SDL_GetError());
        app_free(A);
        free(A);
        return 2;
    }
    A->ui.mouse_x = 1500; /* a tooltip too, as under a hovering mouse */
    A->ui.mouse_y = 600;
    size_t n = A->ui.pane[0].m->nsteps;
    double total = 0, worst = 0;
    for (size_t i = 0; i < n; i++) {
        A->ui.pane[0].step = i;
        double t0 = now_ms();
        canvas_draw(&c, &A->ui);
        double dt = now_ms() - t0;
        total += dt;
        if (dt > worst) worst = dt;
    }
    printf("drawing v0, a block of 1024 threads (32 warps, 1024 shared words), at 1920x1080 with the software renderer\n");
    printf("%zu frames (every step): mean %.2f ms, worst %.2f ms (the first frame makes the glyph atlases); target: mean at most 8 ms -> %s\n", n, total / (double)n,
           worst, total / (double)n <= 8.0 ? "met" : "MISSED");
    fflush(stdout);
    canvas_close(&c);
    SDL_FreeSurface(s);
    app_free(A);
    free(A);
    TTF_Quit();
    return 0;
}
