/* The layout at the rooms the viewer is used in: at 1024x768, 1280x720, 1366x768, 1920x1080 and
 * 3840x2160, at three text scales (1, Ctrl+ twice, presenter mode), in English and Chinese, for a
 * small block, a 1024-thread block, compare, the help, the grid view (every block traced, one
 * traced, v8's tickets, the last pass, a GPU trace's SMs) and the benchmark view: every text box lies
 * inside its panel and no text box overlaps another. Presenter text is at least 24 px at 768 lines. */
#include <SDL_ttf.h>
#include <stdlib.h>

#include "check.h"
#include "ui_fixture.h"

static const int sizes[][2] = {{1024, 768}, {1280, 720}, {1366, 768}, {1920, 1080}, {3840, 2160}};

static int frames_checked;

static void check_frame(fixture *f, const char *what, int w, int h)
{
    fixture_frame(f, w, h, 0);
    frames_checked++;
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_TEXT) continue;
        CHECK(it->panel >= 0, "%s %dx%d: text \"%.*s\" outside any panel", what, w, h, (int)it->len, dl_item_text(&f->l, it));
        if (it->panel < 0) continue;
        dl_rect pr = f->l.panels[it->panel].r;
        CHECK(dl_rect_inside(pr, it->r), "%s %dx%d: text \"%.*s\" at (%d,%d %dx%d) leaves panel %s (%d,%d %dx%d)", what, w, h, (int)it->len,
              dl_item_text(&f->l, it), it->r.x, it->r.y, it->r.w, it->r.h, f->l.panels[it->panel].name, pr.x, pr.y, pr.w, pr.h);
        CHECK(dl_rect_inside((dl_rect){0, 0, w, h}, it->r), "%s %dx%d: text leaves the window", what, w, h);
        if (f->s.presenter && h == 768) CHECK(it->px >= 24, "%s: presenter text of %d px at 768 lines", what, it->px);
    }
    fixture_check_no_overlaps(f, what, w, h);
}

static void rooms(fixture *f, const char *what)
{
    static const char *const scales[] = {"", "scale:1,scale:1", "scale:-1,scale:-1,presenter"};
    for (int lang = 0; lang < 2; lang++) {
        fixture_act(f, lang ? "lang:zh" : "lang:en");
        for (size_t sc = 0; sc < 3; sc++) {
            fixture_act(f, sc == 0 ? "" : scales[sc]);
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_frame(f, what, sizes[i][0], sizes[i][1]);
            if (sc == 1) fixture_act(f, "scale:-1,scale:-1");
            if (sc == 2) fixture_act(f, "presenter,scale:1,scale:1");
        }
    }
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    CHECK(fixture_open(&f, "v1", 64, NULL, 3840, 2160) == 0, "setup");
    fixture_act(&f, "seek-phase:1,step:1");
    rooms(&f, "v1 block 64");
    fixture_act(&f, "compare:v2");
    rooms(&f, "v1 | v2");
    fixture_act(&f, "compare:off,help");
    rooms(&f, "help");
    fixture_act(&f, "help");
    fixture_close(&f);

    CHECK(fixture_open(&f, "v0", 1024, NULL, 3840, 2160) == 0, "setup 1024");
    fixture_act(&f, "seek-phase:1,step:1");
    rooms(&f, "v0 block 1024");
    fixture_close(&f);

    /* the passes view: v1's two launches (every block traced, 256 partial sums), and naive's ten */
    CHECK(fixture_open(&f, "v1", 256, NULL, 3840, 2160) == 0, "setup passes");
    f.cap.n = 1u << 16;
    f.cap.blocks_traced = 256;
    fixture_act(&f, "version:v1,passes");
    CHECK(f.s.overlay == OVERLAY_PASSES, "passes: %s", f.s.status_text);
    rooms(&f, "passes v1 2^16");
    f.cap.n = 1024;
    fixture_act(&f, "version:naive");
    rooms(&f, "passes naive 1024");
    fixture_close(&f);

    /* the grid view: 256 blocks all traced, then only one traced (the rest say so), the last pass */
    CHECK(fixture_open(&f, "v2", 256, NULL, 3840, 2160) == 0, "setup grid");
    f.cap.n = 1u << 16;
    f.cap.blocks_traced = 256;
    fixture_act(&f, "version:v2,grid");
    CHECK(f.s.overlay == OVERLAY_GRID && f.s.pane[0].t.passes[0].grid == 256, "grid: %s", f.s.status_text);
    rooms(&f, "grid v2 2^16");
    fixture_act(&f, "grid-pass:1");
    rooms(&f, "grid v2 2^16, pass 1");
    f.cap.blocks_traced = 1;
    fixture_act(&f, "version:v2,grid-pass:-1,grid-time:1");
    CHECK(f.s.overlay == OVERLAY_GRID, "the grid should stay open across a capture");
    rooms(&f, "grid v2 2^16, one block traced");
    f.cap.n = 1u << 18;
    f.cap.blocks_traced = 64;
    fixture_act(&f, "version:v8,grid-time:0");
    rooms(&f, "grid v8 2^18");
    /* as a GPU trace of an H100 would read: 256 blocks over 132 SMs, a row for each */
    f.cap.n = 1u << 16;
    f.cap.blocks_traced = 256;
    fixture_act(&f, "version:v2");
    trace *gt = &f.s.pane[0].t;
    snprintf(gt->prov.backend, sizeof gt->prov.backend, "gpu");
    for (size_t i = 0; i < gt->nevents; i++) {
        gt->events[i].sm = gt->events[i].block % 132;
        gt->events[i].clock = 5000 + 100 * (uint64_t)gt->events[i].block + i % 17;
    }
    rooms(&f, "grid v2 2^16 on 132 SMs");
    fixture_close(&f);

    results res;
    char err[256];
    CHECK(fixture_open(&f, NULL, 0, NULL, 3840, 2160) == 0, "setup bench");
    CHECK(results_read_file(&res, WS_ASSETS "/bench-h100.json", err, sizeof err) == 0, "%s", err);
    f.s.results = &res;
    fixture_act(&f, "bench,bench-size:99");
    rooms(&f, "benchmark");
    fixture_act(&f, "bench-size:-99");
    rooms(&f, "benchmark, smallest size");
    fixture_close(&f);
    results_free(&res);
    printf("%d frames checked\n", frames_checked);
    TTF_Quit();
    CHECK_DONE("layout_should_fit_every_room");
}
