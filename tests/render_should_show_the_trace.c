/* Headless frames, checked on the draw list: lane colours follow the addressing formula, a bank
 * with a conflict is marked, the highlighted source line is the line of the step's event (found
 * here by searching the kernel's text), compare mode draws both panes side by side. */
#include <SDL_ttf.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ui_fixture.h"

enum { W = 1600, H = 900 };

/* the first step of `phase` whose kind is `kind` */
static long find_step(const view_model *m, unsigned phase, int kind)
{
    for (size_t s = 0; s < m->nsteps; s++)
        if (m->steps[s].phase == phase && m->steps[s].kind == kind) return (long)s;
    return -1;
}

/* line (1-based) of the first line of text containing needle */
static unsigned line_of(const char *text, const char *needle)
{
    const char *at = text ? strstr(text, needle) : NULL;
    if (!at) return 0;
    unsigned line = 1;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    return line;
}

static void seek(fixture *f, long step)
{
    char a[64];
    snprintf(a, sizeof a, "seek-step:%ld", step);
    fixture_act(f, a);
}

static dl_colour lane_fill(const fixture *f, int pane, unsigned tid)
{
    const dl_item *it = fixture_hit_item(f, HIT_CODE(HIT_LANE, pane, tid), "lanes");
    return it ? it->c : (dl_colour){1, 2, 3, 0};
}

enum { LESSON_THREADS = 1u << PANEL_SOURCE | 1u << PANEL_LANES | 1u << PANEL_STATS | 1u << PANEL_TIMELINE };

int main(void)
{
    if (TTF_Init() != 0) { fprintf(stderr, "TTF_Init: %s\n", TTF_GetError()); return 1; }
    fixture f;

    /* v2, block 64, phase 1: s = 32, so threads tid < 32 work and warp 1 (tid 32..63) idles */
    CHECK(fixture_open(&f, "v2", 64, NULL, W, H) == 0, "setup v2");
    const theme *th = session_theme(&f.s);
    long st = find_step(&f.s.pane[0].m, 1, TRACE_SHARED_LOAD);
    CHECK(st >= 0, "v2: no shared load in phase 1");
    seek(&f, st);
    /* at a shared access the tree is the show and the threads may be a summary line: the threads
     * panel is shown as a lesson step that asks about threads shows it (source, threads, counters) */
    f.s.panels = LESSON_THREADS;
    fixture_frame(&f, W, H, 0);
    for (unsigned tid = 0; tid < 64; tid += 7)
        CHECK(same_colour(lane_fill(&f, 0, tid), tid < 32 ? th->working : th->idle), "v2 phase 1: thread %u should be %s", tid,
              tid < 32 ? "working" : "idle");
    /* the highlighted line is the line of `sdata[tid] += sdata[tid + s]` in the kernel's text */
    const char *src = sources_find(f.s.pane[0].t.prov.source);
    unsigned want_line = line_of(src, "sdata[tid] += sdata[tid + s]");
    CHECK(want_line && f.s.pane[0].m.steps[st].line == want_line, "step line %u, source line %u", f.s.pane[0].m.steps[st].line, want_line);
    /* the line-number text drawn on the highlight bar says want_line */
    int found = 0;
    for (size_t i = 0; i < f.l.n; i++) {
        const dl_item *it = &f.l.items[i];
        if (it->kind != DL_FILL || !same_colour(it->c, th->line)) continue;
        for (size_t j = i + 1; j < f.l.n; j++) {
            const dl_item *t = &f.l.items[j];
            if (t->kind == DL_TEXT && t->r.y == it->r.y && (unsigned)atoi(dl_item_text(&f.l, t)) == want_line) found = 1;
        }
    }
    CHECK(found, "the source line %u is not the highlighted one", want_line);
    fixture_close(&f);

    /* v0, block 64, phase 1: tid % 2 == 0 works; odd lanes of the same warps are live elsewhere */
    CHECK(fixture_open(&f, "v0", 64, NULL, W, H) == 0, "setup v0");
    th = session_theme(&f.s);
    seek(&f, find_step(&f.s.pane[0].m, 1, TRACE_SHARED_LOAD));
    f.s.panels = LESSON_THREADS;
    fixture_frame(&f, W, H, 0);
    for (unsigned tid = 0; tid < 64; tid += 5)
        CHECK(same_colour(lane_fill(&f, 0, tid), tid % 2 == 0 ? th->working : th->diverged), "v0 phase 1: thread %u should be %s", tid,
              tid % 2 ? "diverged" : "working");
    fixture_close(&f);

    /* v1, block 64, phase 1 (s = 1): the first load reads word 2*tid + 1 for tid < 32, so the odd
     * banks each serve two words (2-way conflict) and the even banks none */
    CHECK(fixture_open(&f, "v1", 64, NULL, W, H) == 0, "setup v1");
    th = session_theme(&f.s);
    seek(&f, find_step(&f.s.pane[0].m, 1, TRACE_SHARED_LOAD));
    fixture_frame(&f, W, H, 0);
    int per_bank[32] = {0};
    for (unsigned tid = 0; tid < 32; tid++) per_bank[(2 * tid + 1) % 32]++;
    for (unsigned b = 0; b < 32; b++) {
        int red = 0, boxes = 0;
        for (size_t i = 0; i < f.l.n; i++) {
            const dl_item *it = &f.l.items[i];
            if (it->kind != DL_FILL || it->hit != HIT_CODE(HIT_BANK, 0, b) || it->r.h <= 2) continue;
            boxes++;
            red += same_colour(it->c, th->conflict);
        }
        if (per_bank[b] > 1) CHECK(red == per_bank[b] && boxes == per_bank[b], "bank %u: %d words should be %d red boxes (got %d of %d)", b, per_bank[b], per_bank[b], red, boxes);
        else CHECK(red == 0, "bank %u (%d words) should not be marked", b, per_bank[b]);
    }

    /* compare mode: v1 beside v2, both panes drawn, each with its own lanes, both at the end of
     * phase 1, where every live thread waits at the barrier */
    fixture_act(&f, "compare:v2,seek-phase:1");
    CHECK(f.s.compare, "compare did not open: %s", f.s.status_text);
    fixture_frame(&f, W, H, 0);
    const dl_item *a0 = fixture_hit_item(&f, HIT_CODE(HIT_LANE, 0, 0), "lanes"), *b0 = fixture_hit_item(&f, HIT_CODE(HIT_LANE, 1, 0), "lanes");
    CHECK(a0 && b0 && a0->r.x < W / 2 && b0->r.x >= W / 2, "compare: panes not side by side");
    CHECK(a0 && b0 && same_colour(a0->c, th->barrier) && same_colour(b0->c, th->barrier), "compare: lane 0 not at the barrier");
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("render_should_show_the_trace");
}
