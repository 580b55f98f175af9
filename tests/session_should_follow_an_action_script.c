/* An action script drives a session the way keys do: steps, phases, a version switch that keeps
 * the phase, compare with the next rung of the ladder and back, warp-by-warp mode that keeps the
 * place, the keys' cursor over lanes and shared words and a press that pins an item's details, and
 * quitting that asks once. Expected values come from the ladder's order (the version
 * table, trace/ladder.c: naive, v0, v1, v2, v3 ...) and the trace's own events, not from the
 * session code. */
#include <SDL_ttf.h>
#include <string.h>

#include "check.h"
#include "ui_fixture.h"

static unsigned phase_of(const session_pane *p) { return p->m.steps[p->step].phase; }

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    CHECK(fixture_open(&f, "v1", 64, NULL, 1024, 768) == 0, "setup");
    session_pane *p0 = &f.s.pane[0];
    fixture_act(&f, "seek-phase:2");
    CHECK(phase_of(p0) == 2 && (p0->step == 0 || p0->m.steps[p0->step - 1].phase == 1), "seek-phase:2 should open phase 2 at its first step");
    size_t s0 = p0->step;
    fixture_act(&f, "step:1,step:1,step:-1");
    CHECK(p0->step == s0 + 1, "three steps (+1 +1 -1) should land one further (%zu, %zu)", p0->step, s0);
    fixture_act(&f, "phase:1");
    CHECK(phase_of(p0) == 3, "phase:1 should go to phase 3, got %u", phase_of(p0));
    fixture_act(&f, "version:v2");
    /* another version opens where a trace opens: the first step of the tree (phase 1) */
    CHECK(!strcmp(p0->t.prov.version, "v2") && (long)p0->step == view_phase_first(&p0->m, 1), "version:v2 should open at phase 1's first step: %s at step %zu",
          p0->t.prov.version, p0->step);
    /* the ladder: naive, v0, v1, v2, v3, v4, v4s, v5 ... so v2's partner is v3 */
    fixture_act(&f, "compare:next");
    CHECK(f.s.compare && !strcmp(f.s.pane[1].t.prov.version, "v3"), "compare:next beside v2 should be v3");
    fixture_act(&f, "phase:1");
    CHECK(phase_of(&f.s.pane[0]) == phase_of(&f.s.pane[1]), "compare: the panes should stay in the same phase (%u, %u)",
          phase_of(&f.s.pane[0]), phase_of(&f.s.pane[1]));
    fixture_act(&f, "compare:off");
    CHECK(!f.s.compare, "compare:off");
    /* W keeps the place: the step after the switch holds the event the step before began with */
    fixture_act(&f, "seek-phase:4,step:1");
    size_t ev = p0->m.order[p0->m.steps[p0->step].first];
    unsigned ph = phase_of(p0);
    fixture_act(&f, "fine");
    int holds = 0;
    for (size_t k = 0; k < p0->m.steps[p0->step].count; k++) holds |= p0->m.order[p0->m.steps[p0->step].first + k] == ev;
    CHECK(f.s.fine && holds && phase_of(p0) == ph, "fine: the place is lost (phase %u, was %u)", phase_of(p0), ph);
    fixture_act(&f, "fine");
    CHECK(phase_of(p0) == ph, "fine off: phase %u, was %u", phase_of(p0), ph);
    /* the timeline: a click three quarters along the bar seeks to step floor(0.75 * steps) */
    fixture_frame(&f, 1024, 768, 0);
    const dl_item *bar = NULL;
    for (size_t i = 0; i < f.l.n && !bar; i++)
        if (HIT_KIND(f.l.items[i].hit) == HIT_TIMELINE) bar = &f.l.items[i];
    CHECK(bar != NULL, "the timeline bar is not clickable");
    action seek;
    int x = bar ? bar->r.x + bar->r.w * 3 / 4 : 0;
    int hit = bar && session_timeline_seek(&f.s, bar->hit, bar->r.x, bar->r.w, x, &seek);
    CHECK(hit, "a click on the timeline bar gives no seek");
    if (hit) {
        session_apply(&f.s, &seek);
        size_t want = (size_t)((double)(x - bar->r.x) / bar->r.w * (double)p0->m.nsteps);
        CHECK(p0->step == want, "a click at 3/4 of the timeline: step %zu, %zu expected", p0->step, want);
    }
    /* the keys' cursor: Down from nothing is lane 0, Shift+Down a warp on, and past the block's
     * last lane the shared words begin; its details are the scene's, its input tree lit */
    fixture_act(&f, "first");
    fixture_act(&f, "cursor:+1");
    CHECK(f.s.focus == HIT_CODE(HIT_LANE, 0, 0) && f.s.focus_keys, "cursor:+1 from nothing should be lane 0 (focus %#x)", (unsigned)f.s.focus);
    fixture_act(&f, "cursor:+32");
    CHECK(f.s.focus == HIT_CODE(HIT_LANE, 0, WARP_SIZE), "cursor:+32 should be the next warp's lane 0, thread 32 (focus %#x)", (unsigned)f.s.focus);
    fixture_frame(&f, 1024, 768, 0);
    CHECK(strstr(f.sc.details, "thread 32: warp 1, lane 0") != NULL, "the cursor's details should name thread 32: \"%s\"", f.sc.details);
    unsigned threads = p0->m.threads;
    fixture_act(&f, "cursor:+64");
    CHECK(threads == 64 && f.s.focus == HIT_CODE(HIT_CELL, 0, 0), "past lane %u the cursor should be on shared word 0 (focus %#x)", threads - 1,
          (unsigned)f.s.focus);
    /* v2 at its end: word 0 is sdata[tid] += sdata[tid + s] of thread 0 for s = 32, 16 ... 1
     * (blockDim.x / 2, halving), so its last add took word 1, and every word of the block (64) is
     * in its input tree */
    fixture_act(&f, "last");
    CHECK(f.s.focus == HIT_CODE(HIT_CELL, 0, 0), "the keys' cursor should stay over steps");
    fixture_frame(&f, 1024, 768, 0);
    CHECK(strstr(f.sc.details, "shared word 0 (byte 0): bank 0") && strstr(f.sc.details, "= word 0 + word 1 (thread 0's add)") &&
              strstr(f.sc.details, "its input tree: 64 words"),
          "word 0's details at the end: \"%s\"", f.sc.details);
    CHECK(f.sc.pane[0].selected == 0 && f.sc.tip_focus && !strcmp(f.sc.tooltip, f.sc.details), "the cursor's word should be lit and its tooltip shown");
    /* the ring: every place word 0 is drawn has the text's colour around it, in the focus's panel */
    int cells = 0, ringed = 0;
    for (size_t i = 0; i < f.l.n; i++) {
        const dl_item *c = &f.l.items[i];
        if (c->kind != DL_FILL || c->hit != HIT_CODE(HIT_CELL, 0, 0) || c->panel < 0 || !dl_rect_inside(f.l.panels[c->panel].r, c->r)) continue;
        cells++;
        for (size_t j = i + 1; j < f.l.n; j++) {
            const dl_item *r = &f.l.items[j];
            ringed += r->kind == DL_RECT && r->panel >= 0 && !strcmp(f.l.panels[r->panel].name, "focus") && r->thick >= 2 &&
                      !memcmp(&r->c, &f.s.themes[f.s.theme_index & 1].text, sizeof r->c) && r->r.x < c->r.x && r->r.y < c->r.y &&
                      r->r.x + r->r.w > c->r.x + c->r.w && r->r.y + r->r.h > c->r.y + c->r.h;
        }
    }
    CHECK(cells > 0 && ringed >= cells, "word 0 is drawn %d times and ringed %d times", cells, ringed);
    /* Esc lets the cursor go before it asks to quit */
    fixture_act(&f, "escape");
    CHECK(!f.s.focus && f.s.overlay == OVERLAY_NONE, "Esc should first let the cursor go");
    /* a press (a click, a tap) on a lane pins its details: they stay until a step, or a press elsewhere */
    fixture_act(&f, "first");
    fixture_frame(&f, 1024, 768, 0);
    const dl_item *lane = NULL;
    for (size_t i = 0; i < f.l.n && !lane; i++)
        if (HIT_KIND(f.l.items[i].hit) == HIT_LANE) lane = &f.l.items[i];
    action press;
    CHECK(lane && session_press(&f.s, lane->hit, lane->r.x, lane->r.w, lane->r.x, &press) == 1 && press.kind == ACT_PIN, "a press on a lane should pin it");
    if (lane) {
        uint32_t pinned = lane->hit;
        session_apply(&f.s, &press);
        session_apply(&f.s, &(action){.kind = ACT_HOVER, .i = 0, .x = -1, .y = -1}); /* the finger is lifted */
        fixture_frame(&f, 1024, 768, 0);
        CHECK(f.s.focus == pinned && f.sc.tip_focus && f.sc.tooltip[0], "a pinned lane's tooltip should stay with nothing hovered (\"%s\")", f.sc.tooltip);
        CHECK(session_press(&f.s, 0, 0, 0, 0, &press) == 1 && press.kind == ACT_PIN && press.i == 0, "a press on nothing should let it go");
        session_apply(&f.s, &press);
        CHECK(!f.s.focus, "a press on nothing should let the pinned lane go");
        session_press(&f.s, pinned, 0, 0, 0, &press);
        session_apply(&f.s, &press);
        fixture_act(&f, "step:1");
        CHECK(!f.s.focus, "a step should let a pinned lane go");
    }
    /* quitting asks once; any other action keeps the session */
    fixture_act(&f, "escape");
    CHECK(f.s.overlay == OVERLAY_QUIT && !f.s.quit, "Esc in the main view should ask");
    fixture_act(&f, "step:1");
    CHECK(f.s.overlay == OVERLAY_NONE && !f.s.quit, "another key should keep the session");
    fixture_act(&f, "quit,quit");
    CHECK(f.s.quit, "Q twice should quit");
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("session_should_follow_an_action_script");
}
