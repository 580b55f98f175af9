/* Headless renders, checked for content: lane colours follow the addressing formula, a bank with
 * a conflict is marked, the highlighted source line is the line of the step's event (found here by
 * searching the kernel's text), compare mode draws both. The drawing code is the window's. */
#include <SDL.h>
#include <SDL_ttf.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "check.h"
#include "sources.h"
#include "ui.h"
#include "view.h"

enum { W = 1600, H = 900 };

static SDL_Color pixel(SDL_Surface *s, int x, int y)
{
    Uint32 v = ((Uint32 *)s->pixels)[y * (s->pitch / 4) + x];
    SDL_Color c;
    SDL_GetRGB(v, s->format, &c.r, &c.g, &c.b);
    return c;
}

static int same(SDL_Color a, SDL_Color b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static SDL_Color centre(SDL_Surface *s, SDL_Rect r) { return pixel(s, r.x + r.w / 2, r.y + r.h / 2); }

typedef struct fixture {
    trace t[2];
    view_model m[2];
    ui_state st;
    ui_theme th;
    SDL_Surface *s;
    SDL_Renderer *r;
    ui_assets a;
} fixture;

static int setup(fixture *f, const char *version, unsigned block)
{
    memset(f, 0, sizeof *f);
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = block;
    char err[256];
    if (capture_cpu(&d, &f->t[0], err, sizeof err) || view_build(&f->m[0], &f->t[0], 0, 0, 0, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (theme_load(&f->th, WS_ASSETS "/themes/light.json", err, sizeof err)) { fprintf(stderr, "%s\n", err); return -1; }
    f->s = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_RGB888);
    f->r = SDL_CreateSoftwareRenderer(f->s);
    if (!f->r || ui_assets_init(&f->a, f->r, WS_ASSETS "/fonts/DejaVuSansMono.ttf", 15, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    f->st.theme = &f->th;
    f->st.mouse_x = f->st.mouse_y = -1;
    f->st.speed = 4;
    f->st.pane[0] = (ui_pane){&f->m[0], version, sources_find(f->t[0].prov.source), 0, -1};
    return 0;
}

static void draw(fixture *f)
{
    ui_draw(&f->st, &f->a, W, H);
    SDL_RenderPresent(f->r);
}

static void teardown(fixture *f)
{
    ui_assets_free(&f->a);
    SDL_DestroyRenderer(f->r);
    SDL_FreeSurface(f->s);
    for (int i = 0; i < 2; i++) { view_free(&f->m[i]); trace_free(&f->t[i]); }
}

/* the first step of `phase` whose kind is `kind` */
static size_t find_step(const view_model *m, unsigned phase, int kind)
{
    for (size_t s = 0; s < m->nsteps; s++)
        if (m->steps[s].phase == phase && m->steps[s].kind == kind) return s;
    return (size_t)-1;
}

/* line (1-based) of the first line of text containing needle */
static unsigned line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at) return 0;
    unsigned line = 1;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    return line;
}

int main(void)
{
    if (TTF_Init() != 0) { fprintf(stderr, "TTF_Init: %s\n", TTF_GetError()); return 1; }
    fixture f;

    /* v2, block 64, phase 1: s = 32, so threads tid < 32 work and warp 1 (tid 32..63) idles */
    CHECK(setup(&f, "v2", 64) == 0, "setup v2");
    size_t st = find_step(&f.m[0], 1, TRACE_SHARED_LOAD);
    CHECK(st != (size_t)-1, "v2: no shared load in phase 1");
    f.st.pane[0].step = st;
    draw(&f);
    for (unsigned tid = 0; tid < 64; tid += 7) {
        SDL_Rect r;
        CHECK(ui_lane_rect(&f.st, &f.a, W, H, 0, tid, &r) == 0, "lane rect %u", tid);
        SDL_Color want = tid < 32 ? f.th.working : f.th.idle;
        CHECK(same(centre(f.s, r), want), "v2 phase 1: thread %u should be %s", tid, tid < 32 ? "working" : "idle");
    }
    /* the highlighted line is the line of `sdata[tid] += sdata[tid + s]` in the kernel's text */
    unsigned want_line = line_of(f.st.pane[0].source, "sdata[tid] += sdata[tid + s]");
    CHECK(want_line && f.m[0].steps[st].line == want_line, "step line %u, source line %u", f.m[0].steps[st].line, want_line);
    SDL_Rect lr;
    CHECK(ui_source_line_rect(&f.st, &f.a, W, H, 0, &lr) == 0 && same(pixel(f.s, lr.x + lr.w - 3, lr.y + lr.h / 2), f.th.line),
          "the source line of the step is not highlighted");
    SDL_Color above = pixel(f.s, lr.x + lr.w - 3, lr.y - lr.h / 2);
    CHECK(!same(above, f.th.line), "the line above is highlighted too");
    teardown(&f);

    /* v0, block 64, phase 1: tid % 2 == 0 works; odd lanes of the same warps are live elsewhere */
    CHECK(setup(&f, "v0", 64) == 0, "setup v0");
    f.st.pane[0].step = find_step(&f.m[0], 1, TRACE_SHARED_LOAD);
    draw(&f);
    for (unsigned tid = 0; tid < 64; tid += 5) {
        SDL_Rect r;
        ui_lane_rect(&f.st, &f.a, W, H, 0, tid, &r);
        SDL_Color want = tid % 2 == 0 ? f.th.working : f.th.diverged;
        CHECK(same(centre(f.s, r), want), "v0 phase 1: thread %u should be %s", tid, tid % 2 ? "diverged" : "working");
    }
    teardown(&f);

    /* v1, block 64, phase 1 (s = 1): the first load reads word 2*tid + 1 for tid < 32, so the odd
     * banks each serve two words (2-way conflict) and the even banks none */
    CHECK(setup(&f, "v1", 64) == 0, "setup v1");
    f.st.pane[0].step = find_step(&f.m[0], 1, TRACE_SHARED_LOAD);
    draw(&f);
    int per_bank[32] = {0};
    for (unsigned tid = 0; tid < 32; tid++) per_bank[(2 * tid + 1) % 32]++;
    for (unsigned b = 0; b < 32; b++) {
        SDL_Rect r;
        ui_bank_rect(&f.st, &f.a, W, H, 0, b, &r);
        SDL_Color got = pixel(f.s, r.x + r.w / 2, r.y + 2);
        if (per_bank[b] > 1) CHECK(same(got, f.th.conflict), "bank %u (%d words) should be marked as a conflict", b, per_bank[b]);
        else CHECK(!same(got, f.th.conflict), "bank %u (%d words) should not be marked", b, per_bank[b]);
    }

    /* compare mode: v1 beside v2, both panes drawn, each with its own lanes */
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = "v2";
    d.block = 64;
    char err[256];
    CHECK(capture_cpu(&d, &f.t[1], err, sizeof err) == 0 && view_build(&f.m[1], &f.t[1], 0, 0, 0, err, sizeof err) == 0, "%s", err);
    f.st.compare = 1;
    f.st.pane[1] = (ui_pane){&f.m[1], "v2", sources_find(f.t[1].prov.source), (size_t)view_phase_last(&f.m[1], 1), -1};
    f.st.pane[0].step = (size_t)view_phase_last(&f.m[0], 1);
    draw(&f);
    SDL_Rect a0, b0;
    CHECK(ui_lane_rect(&f.st, &f.a, W, H, 0, 0, &a0) == 0 && ui_lane_rect(&f.st, &f.a, W, H, 1, 0, &b0) == 0, "lane rects");
    CHECK(a0.x < W / 2 && b0.x >= W / 2, "compare: panes not side by side (%d, %d)", a0.x, b0.x);
    /* at the end of phase 1 both wait at the barrier: lane 0 of each is drawn as such */
    CHECK(same(centre(f.s, a0), f.th.barrier) && same(centre(f.s, b0), f.th.barrier), "compare: lane 0 not at the barrier");
    teardown(&f);
    TTF_Quit();
    CHECK_DONE("render_should_show_the_trace");
}
