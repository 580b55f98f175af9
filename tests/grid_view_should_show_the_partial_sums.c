/* The grid view, headless, checked on the draw list: each tile of v2's first pass (block 64,
 * n = 1024, every block traced) shows the partial sum of its block's 64 input elements, worked
 * out here from the input data with a double sum; the second pass's one tile shows the whole sum;
 * clicking a tile opens that block in the detailed view (its loads are that block's elements);
 * with one block traced the other tiles say "not traced" and the status says how to trace them
 * all; a GPU trace's tiles name each block's SM and its turn there, ordered by that SM's clock, and
 * a row per SM lines its blocks up in that order. */
#include <SDL_ttf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ui_fixture.h"

enum { W = 1920, H = 1080, BLOCK = 64, N = 1024, GRID = N / BLOCK };

/* the text drawn inside a rectangle that starts with prefix, or NULL */
static const char *text_in(const fixture *f, dl_rect r, const char *prefix, char *buf, size_t len)
{
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_TEXT || !dl_rect_inside(r, it->r)) continue;
        snprintf(buf, len, "%.*s", (int)it->len, dl_item_text(&f->l, it));
        if (!strncmp(buf, prefix, strlen(prefix))) return buf;
    }
    return NULL;
}

static const dl_item *tile(const fixture *f, unsigned b) { return fixture_hit_item(f, HIT_CODE(HIT_TILE, 0, b), "grid"); }

/* the first fill drawn with block b's tile code: its box in the SM rows (drawn before the tiles) */
static const dl_item *sm_box(const fixture *f, unsigned b)
{
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind == DL_FILL && it->hit == HIT_CODE(HIT_TILE, 0, b)) return it != tile(f, b) ? it : NULL;
    }
    return NULL;
}

static int any_text_has(const fixture *f, const char *needle)
{
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        char buf[600];
        if (it->kind != DL_TEXT) continue;
        snprintf(buf, sizeof buf, "%.*s", (int)it->len, dl_item_text(&f->l, it));
        if (strstr(buf, needle)) return 1;
    }
    return 0;
}

/* opens v2 at block 64 over n = 1024 with `traced` blocks traced per pass */
static int open_v2(fixture *f, unsigned traced)
{
    if (fixture_open(f, "v2", BLOCK, NULL, W, H)) return -1;
    f->cap.n = N;
    f->cap.blocks_traced = traced;
    fixture_act(f, "version:v2");
    return f->s.pane[0].loaded && f->s.pane[0].t.npasses == 2 && f->s.pane[0].t.passes[0].grid == GRID ? 0 : -1;
}

int main(void)
{
    if (TTF_Init() != 0) { fprintf(stderr, "TTF_Init: %s\n", TTF_GetError()); return 1; }
    /* the reference: the input as the capture fills it (random-int, seed 1), summed per block */
    static float x[N];
    CHECK(input_fill("random-int", 1, x, N) == 0, "fill");
    double want[GRID] = {0}, total = 0;
    for (unsigned i = 0; i < N; i++) {
        want[i / BLOCK] += x[i]; /* v2 reads one element per thread: block b sums [64 b, 64 b + 64) */
        total += x[i];
    }

    fixture f;
    CHECK(open_v2(&f, GRID) == 0, "setup: v2, n = %d, %d blocks traced", N, GRID);
    const theme *th = session_theme(&f.s);
    fixture_act(&f, "grid");
    CHECK(f.s.overlay == OVERLAY_GRID, "action grid did not open the grid view");
    fixture_frame(&f, W, H, 0);
    for (unsigned b = 0; b < GRID; b++) {
        const dl_item *t = tile(&f, b);
        CHECK(t != NULL, "no tile for block %u", b);
        if (!t) continue;
        CHECK(same_colour(t->c, th->read), "block %u: the tile should show done", b);
        char buf[128], prefix[16];
        snprintf(prefix, sizeof prefix, "%u: ", b);
        const char *s = text_in(&f, t->r, prefix, buf, sizeof buf);
        CHECK(s != NULL, "block %u: no \"%s<sum>\" in its tile", b, prefix);
        if (s) CHECK(fabs(atof(s + strlen(prefix)) - want[b]) <= 1e-6 * fabs(want[b]) + 1e-3, "block %u: tile says %s, the input sums to %.9g", b, s, want[b]);
    }
    /* the partials flow into pass 1: its one block reads all GRID of them, and its tile shows the sum */
    CHECK(any_text_has(&f, "pass 0 writes 16 partial sums to global memory, one per block"), "the strip should say what pass 1 reads");
    fixture_act(&f, "grid-pass:1");
    fixture_frame(&f, W, H, 0);
    const dl_item *t0 = tile(&f, 0);
    char buf[128];
    const char *s = t0 ? text_in(&f, t0->r, "0: ", buf, sizeof buf) : NULL;
    CHECK(s && fabs(atof(s + 3) - total) <= 1e-6 * total, "pass 1 tile 0 says %s, the input sums to %.9g", s ? s : "nothing", total);
    CHECK(tile(&f, 1) == NULL, "pass 1 has one block");

    /* a click on pass 0 in the launch plan, then on block 5's tile: the detailed view shows block 5 */
    fixture_act(&f, "grid-pass:-1");
    fixture_frame(&f, W, H, 0);
    const dl_item *t5 = tile(&f, 5);
    CHECK(t5 != NULL, "no tile 5");
    if (t5) {
        action a;
        uint32_t hit = dl_hit(&f.l, t5->r.x + t5->r.w / 2, t5->r.y + t5->r.h / 2);
        CHECK(session_grid_click(&f.s, hit, &a) && a.kind == ACT_OPEN_BLOCK, "a click on tile 5 should open a block (hit %08x)", hit);
        session_apply(&f.s, &a);
    }
    const view_model *m = &f.s.pane[0].m;
    CHECK(f.s.overlay == OVERLAY_NONE, "opening a block should close the grid view (%s)", f.s.status_text);
    CHECK(f.s.pass == 0 && f.s.block_index == 5 && m->pass == 0 && m->block == 5, "the detailed view shows pass %u block %u", m->pass, m->block);
    /* its model is block 5's: every global load it steps through reads elements [320, 384) */
    size_t loads = 0;
    for (size_t st = 0; st < m->nsteps; st++)
        for (size_t k = 0; k < m->steps[st].count; k++) {
            const trace_event *e = &m->t->events[m->order[m->steps[st].first + k]];
            if (e->kind != TRACE_GLOBAL_LOAD) continue;
            for (int j = 0; j < trace_popcount(e->mask); j++, loads++) {
                int64_t a = m->t->lane_addr[e->lanes + (size_t)j];
                CHECK(a >= 5 * BLOCK && a < 6 * BLOCK, "block 5 loaded element %lld", (long long)a);
            }
        }
    CHECK(loads == BLOCK, "block 5 should load %d elements, its model has %zu", BLOCK, loads);
    fixture_frame(&f, W, H, 0);
    CHECK(any_text_has(&f, "v2: Sequential addressing — pass 0, block 5"), "the title should name pass 0, block 5");
    /* the first wave: 16 blocks fit an H100 at once (132 SMs), so all run together, one per SM */
    fixture_act(&f, "grid,grid-time:1");
    fixture_frame(&f, W, H, 0);
    for (unsigned b = 0; b < GRID; b++)
        CHECK(tile(&f, b) && same_colour(tile(&f, b)->c, th->working), "in the first wave block %u should be running", b);
    CHECK(any_text_has(&f, "on the NVIDIA H100 SXM5: 132 SMs x 32 blocks of 64 threads = 4224 blocks at once (limited by threads per SM); the grid of 16 blocks takes 1 wave"),
          "the schedule line on the H100");
    /* hovering a tile names its block and its partial sum, once the launch has ended */
    fixture_act(&f, "grid-time:0");
    fixture_frame(&f, W, H, 0);
    const dl_item *t3 = tile(&f, 3);
    if (t3) session_apply(&f.s, &(action){.kind = ACT_HOVER, .i = dl_hit(&f.l, t3->r.x + 2, t3->r.y + 2), .x = t3->r.x + 2, .y = t3->r.y + 2});
    scene_update(&f.sc, &f.s, sources_find);
    char tip[64];
    snprintf(tip, sizeof tip, "partial sum %.9g", want[3]);
    CHECK(strstr(f.sc.tooltip, "pass 0, block 3: done") && strstr(f.sc.tooltip, tip), "tile 3's tooltip: \"%s\"", f.sc.tooltip);
    fixture_act(&f, "open-block:1/0");
    CHECK(f.s.pass == 1 && f.s.block_index == 0 && f.s.pane[0].m.pass == 1, "open-block:1/0 should open pass 1");
    /* another version captured with one block traced: block 5 is not in it, so the panes go back
     * to block 0 of pass 0 and the status line says why */
    fixture_act(&f, "open-block:0/5");
    f.cap.blocks_traced = 1;
    fixture_act(&f, "version:v1");
    CHECK(!strcmp(f.s.pane[0].t.prov.version, "v1") && f.s.pass == 0 && f.s.block_index == 0 && f.s.pane[0].m.block == 0 &&
              f.s.status_id == STR_GRID_FELL_BACK, "v1 with one block traced should show block 0 (status: %s)", f.s.status_text);
    fixture_close(&f);

    /* one block traced: the rest say so, and the status line says how to trace them all */
    CHECK(open_v2(&f, 1) == 0, "setup: one block traced");
    th = session_theme(&f.s);
    fixture_act(&f, "grid");
    fixture_frame(&f, W, H, 0);
    char nt[64];
    for (unsigned b = 1; b < GRID; b++)
        CHECK(tile(&f, b) && text_in(&f, tile(&f, b)->r, "not traced", nt, sizeof nt), "block %u should say it was not traced", b);
    CHECK(any_text_has(&f, "--blocks-traced 16"), "no line saying --blocks-traced 16");
    fixture_act(&f, "open-block:7");
    CHECK(f.s.overlay == OVERLAY_GRID && f.s.block_index == 0 && f.s.status_text[0], "an untraced block should stay shut, with a reason");
    static const char *const bad[] = {"open-block:", "open-block:x", "open-block:0/", "open-block:1/-2", "open-block:3z"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        fixture_act(&f, bad[i]);
        CHECK(f.s.overlay == OVERLAY_GRID && f.s.block_index == 0 && strstr(f.s.status_text, "is not P/B"), "%s: status \"%s\"", bad[i], f.s.status_text);
    }
    /* A traces every block: the capture is made again, and every tile shows its partial sum */
    fixture_act(&f, "trace-all,grid-time:0");
    fixture_frame(&f, W, H, 0);
    for (unsigned b = 0; b < GRID; b++) {
        char prefix[16];
        snprintf(prefix, sizeof prefix, "%u: ", b);
        const char *got = tile(&f, b) ? text_in(&f, tile(&f, b)->r, prefix, nt, sizeof nt) : NULL;
        CHECK(got && fabs(atof(got + strlen(prefix)) - want[b]) <= 1e-6 * fabs(want[b]) + 1e-3, "after A, block %u's tile says %s", b, got ? got : "nothing");
    }
    CHECK(!any_text_has(&f, "--blocks-traced 16"), "after A the line about untraced blocks should be gone");
    fixture_act(&f, "trace-all"); /* again: nothing to do */
    CHECK(f.s.pane[0].t.prov.blocks_traced == UINT32_MAX, "the capture traced %u blocks per pass", f.s.pane[0].t.prov.blocks_traced);
    fixture_act(&f, "open-block:7");
    CHECK(f.s.overlay == OVERLAY_NONE && f.s.block_index == 7, "after A block 7 opens");
    fixture_close(&f);

    /* a GPU trace: blocks on SM (b % 3), block b's clocks starting at 1000 - 10 b, so on each SM
     * the highest block ran first; the tile says its SM and its turn there */
    CHECK(open_v2(&f, GRID) == 0, "setup: gpu");
    trace *t = &f.s.pane[0].t;
    snprintf(t->prov.backend, sizeof t->prov.backend, "gpu");
    for (size_t i = 0; i < t->nevents; i++) {
        trace_event *e = &t->events[i];
        e->sm = e->block % 3;
        e->clock = 1000 - 10 * (uint64_t)e->block + i % 7;
    }
    fixture_act(&f, "grid");
    fixture_frame(&f, W, H, 0);
    for (unsigned b = 0; b < GRID; b++) {
        int turn = 1; /* blocks of the same SM with a higher number ran before it */
        for (unsigned c = b + 1; c < GRID; c++) turn += c % 3 == b % 3;
        char want_sm[32];
        snprintf(want_sm, sizeof want_sm, "SM %u #%d", b % 3, turn);
        const dl_item *tb = tile(&f, b);
        CHECK(tb && text_in(&f, tb->r, want_sm, buf, sizeof buf), "block %u's tile should say %s", b, want_sm);
    }
    CHECK(any_text_has(&f, "SMs used: 3"), "the grid should say the trace ran on 3 SMs");
    /* the SM rows under the tiles: a row per SM in SM order, each SM's blocks left to right in the
     * order they started (here from the highest block down) */
    for (unsigned b = 0; b < GRID; b++)
        for (unsigned c = b + 1; c < GRID; c++) {
            const dl_item *sb = sm_box(&f, b), *sc = sm_box(&f, c);
            CHECK(sb && sc, "no SM box for block %u or %u", b, c);
            if (!sb || !sc) continue;
            if (b % 3 == c % 3) CHECK(sb->r.y == sc->r.y && sb->r.x > sc->r.x, "SM %u: block %u started after block %u, its box should be right of it", b % 3, b, c);
            else CHECK((sb->r.y < sc->r.y) == (b % 3 < c % 3), "SM rows out of order for blocks %u and %u", b, c);
        }
    fixture_close(&f);

    /* waves on a card: v2 over 2^14 elements in blocks of 64 is 256 blocks; a GTX 1050 Ti has 6 SMs
     * of 2048 threads, 32 blocks and 96 KB of shared memory (compute capability 6.1). Threads would
     * allow 32 blocks of 64, but v2 declares float sdata[MAX_BLOCK], 4 KB, whatever the block: 24
     * per SM, 144 at once, 2 waves. In the second, blocks 144..255 hold 112 of the 144 slots, block
     * 144 + i on SM i % 6 (SMs take a wave's blocks in turn). */
    if (fixture_open(&f, "v2", BLOCK, NULL, W, H) == 0) {
        f.cap.n = 1 << 14;
        f.cap.blocks_traced = 256;
        fixture_act(&f, "version:v2,card:gtx1050ti,grid");
        th = session_theme(&f.s);
        fixture_frame(&f, W, H, 0);
        CHECK(f.sc.grid.nwaves == 2 && f.sc.grid.wave == 0, "256 blocks on a GTX 1050 Ti: %lu waves, at %lu", f.sc.grid.nwaves, f.sc.grid.wave);
        unsigned running = 0;
        for (unsigned b = 0; b < 256; b++) running += tile(&f, b) && same_colour(tile(&f, b)->c, th->working);
        CHECK(running == 144, "the first wave runs %u blocks, 144 fit", running);
        fixture_act(&f, "wave:1");
        fixture_frame(&f, W, H, 0);
        CHECK(any_text_has(&f, "the last wave, 2 of 2: blocks 144 to 255 fill 112 of the card's 144 slots"), "the last wave's line");
        for (unsigned b = 0; b < 256; b++) {
            const dl_item *tb = tile(&f, b);
            CHECK(tb && same_colour(tb->c, b < 144 ? th->read : th->working), "wave 2: block %u should be %s", b, b < 144 ? "done" : "running");
            /* each running block has a slot in its SM's box, drawn before the tiles */
            const dl_item *sb = b >= 144 ? sm_box(&f, b) : NULL;
            if (b >= 144) CHECK(sb != NULL, "block %u has no slot on the card", b);
            const dl_item *first = b >= 150 ? sm_box(&f, b - 6) : NULL; /* the block before it on the same SM */
            if (sb && first) CHECK(abs(sb->r.x - first->r.x) + abs(sb->r.y - first->r.y) < 16 * sb->r.w, "blocks %u and %u share SM %u's box", b - 6, b, (b - 144) % 6);
        }
        fixture_act(&f, "wave:1");
        CHECK(f.s.grid_wave == -1, "past the last wave the launch has ended");
        fixture_close(&f);
    }

    /* a GPU trace with where and when each block ran (v2, 2^20, blocks of 256 on an H100): 1056
     * blocks started before the first ended, so a wave is 1056 blocks in start order, and wave 2 is
     * shown as its last block (the 2112th to start) starts; the blocks running then are those whose
     * run spans that moment, counted here from the trace's own runs */
    if (fixture_open(&f, NULL, 0, NULL, W, H) == 0) {
        trace g;
        trace_init(&g);
        char err[512];
        CHECK(trace_read_file(&g, WS_ROOT "/assets/traces/v2-h100-b256.wstrace", err, sizeof err) == 0, "%s", err);
        CHECK(session_set_trace(&f.s, 0, &g, err, sizeof err) == 0, "%s", err);
        const trace *gt = &f.s.pane[0].t;
        fixture_act(&f, "grid,wave:1");
        th = session_theme(&f.s);
        fixture_frame(&f, W, H, 0);
        uint64_t *st = malloc(4096 * sizeof *st);
        size_t k = 0;
        for (size_t i = 0; i < gt->nruns && st; i++)
            if (gt->runs[i].pass == 0) st[k++] = gt->runs[i].start;
        CHECK(k == 4096, "the trace has %zu runs of pass 0", k);
        uint64_t moment = 0;
        if (st && k == 4096) { /* the 2112th start (rank 2111 from 0): a selection, by counting */
            for (size_t i = 0; i < k; i++) {
                size_t before = 0, same = 0;
                for (size_t j = 0; j < k; j++) before += st[j] < st[i], same += st[j] == st[i];
                if (before <= 2111 && 2111 < before + same) { moment = st[i]; break; }
            }
        }
        free(st);
        unsigned want_run = 0, want_done = 0, run = 0, done = 0;
        for (size_t i = 0; i < gt->nruns; i++) {
            const trace_run *u = &gt->runs[i];
            if (u->pass) continue;
            want_done += u->end <= moment;
            want_run += u->start <= moment && moment < u->end;
            const dl_item *tb = tile(&f, u->block);
            run += tb && same_colour(tb->c, th->working);
            done += tb && same_colour(tb->c, th->read);
        }
        CHECK(want_run > 0 && run == want_run && done == want_done, "wave 2 at %llu ns: %u running and %u done drawn, the runs say %u and %u",
              (unsigned long long)moment, run, done, want_run, want_done);
        CHECK(any_text_has(&f, "132 SMs; at most 8 blocks ran at once on one SM; 1056 blocks started before the first ended"), "the recorded schedule's line");
        fixture_close(&f);
    }
    /* v8's single pass: the block that draws the last ticket sums every block's partial, elements
     * 0 to grid - 1 of the partials (read as float4s: a lane's float4 k is partials 4k to 4k + 3) */
    if (fixture_open(&f, "v8", BLOCK, NULL, W, H) == 0) {
        f.cap.n = 16384;
        f.cap.blocks_traced = 1u << 30;
        fixture_act(&f, "version:v8,grid,grid-time:0");
        fixture_frame(&f, W, H, 0);
        const scene_grid *g = &f.sc.grid;
        unsigned grid = f.s.pane[0].loaded ? f.s.pane[0].t.passes[0].grid : 0;
        CHECK(grid > 4 && g->last_block >= 0 && (size_t)g->last_block < g->ntiles, "v8: a grid of %u blocks, the last ticket drawn by %d", grid,
              g->last_block);
        if (g->last_block >= 0 && (size_t)g->last_block < g->ntiles) {
            const scene_tile *lt = &g->tiles[g->last_block];
            CHECK(lt->read_lo == 0 && lt->read_hi == (int64_t)grid - 1, "v8: the last block reads partials %lld to %lld, the grid has %u",
                  (long long)lt->read_lo, (long long)lt->read_hi, grid);
        }
        fixture_close(&f);
    } else CHECK(0, "setup: v8");
    TTF_Quit();
    CHECK_DONE("grid_view_should_show_the_partial_sums");
}
