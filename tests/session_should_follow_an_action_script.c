/* An action script drives a session the way keys do: steps, phases, a version switch that keeps
 * the phase, compare with the next rung of the ladder and back, warp-by-warp mode that keeps the
 * place, and quitting that asks once. Expected values come from the ladder's order in the README
 * and the trace's own events, not from the session code. */
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
