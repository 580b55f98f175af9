/* scene_passes: the passes view's figures (scene.h, OVERLAY_PASSES), derived once per trace from
 * its launch plan, the cost table (trace/cost.h) and the partial sums its traced blocks stored
 * (trace/analysis.h). */
#include <string.h>

#include "app/viewer/scene.h"
#include "trace/analysis.h"
#include "trace/cost.h"
#include "trace/ladder.h"

/* the blocks a level draws: the first ones, and the last one when more were launched */
static void pick_blocks(scene_pass_level *lv)
{
    unsigned n = lv->grid;
    lv->nshown = 0;
    if (n <= SCENE_PASS_BLOCKS) {
        for (unsigned b = 0; b < n; b++) lv->shown[lv->nshown++] = b;
        return;
    }
    for (unsigned b = 0; b + 1 < SCENE_PASS_BLOCKS; b++) lv->shown[lv->nshown++] = b;
    lv->shown[lv->nshown++] = n - 1;
}

static int build(scene_passes *ps, const trace *t, str_lang lang)
{
    cost_figures c;
    if (cost_compute(t, &c)) return -1;
    analysis_grid g;
    memset(&g, 0, sizeof g);
    int have_grid = t->nevents ? analysis_grid_build(t, &g) == 0 : 0;
    if (t->nevents && !have_grid) return -1;
    const ladder_version *v = ladder_find(t->prov.version);
    const char *title = v ? (lang == LANG_ZH && v->title_zh ? v->title_zh : v->title) : t->prov.source;
    snprintf(ps->name, sizeof ps->name, "%s: %s", t->prov.version, title);
    ps->nlevels = (unsigned)(t->npasses < TRACE_PASSES_MAX ? t->npasses : TRACE_PASSES_MAX);
    for (unsigned p = 0; p < ps->nlevels; p++) {
        scene_pass_level *lv = &ps->level[p];
        memset(lv, 0, sizeof *lv);
        lv->grid = t->passes[p].grid;
        lv->block = t->passes[p].block;
        lv->n_in = t->passes[p].n_in;
        lv->per_block = lv->grid ? (lv->n_in + lv->grid - 1) / lv->grid : 0;
        lv->adds = c.pass_adds[p];
        lv->steps = c.pass_steps[p];
        lv->traced = c.pass_blocks_traced[p];
        pick_blocks(lv);
        int traced = 0, with_partial = 0;
        for (int k = 0; k < lv->nshown && have_grid; k++) {
            const analysis_block *b = analysis_grid_find(&g, p, lv->shown[k]);
            lv->traced_block[k] = b != NULL;
            if (b && b->has_partial) {
                lv->has_partial[k] = 1;
                lv->partial[k] = b->partial;
            }
            traced += b != NULL;
            with_partial += b && b->has_partial;
        }
        /* every traced block stored its partial sum at its own element: naive's blocks add pairs
         * in place, and block 0's element 0 is no partial of its own */
        lv->partials = traced > 0 && with_partial == traced;
    }
    ps->n = t->prov.n;
    ps->adds = c.adds;
    ps->steps = c.steps;
    ps->blocks_traced = c.blocks_traced;
    ps->blocks = c.blocks;
    ps->complete = c.complete;
    int atomics = 0;
    for (size_t i = 0; i < t->nevents && !atomics; i++) atomics = t->events[i].kind == TRACE_GLOBAL_ATOMIC;
    ps->single_pass = ps->nlevels == 1 && ps->level[0].grid > 1 && atomics;
    ps->result = (double)t->result;
    ps->reference = t->reference;
    ps->verdict = (int)trace_result_verdict(t);
    if (have_grid) analysis_grid_free(&g);
    return 0;
}

int scene_passes_update(scene *sc, const session *s)
{
    scene_passes *ps = &sc->passes;
    ps->shown = 0;
    const session_pane *p0 = &s->pane[0];
    if (s->overlay != OVERLAY_PASSES || !p0->loaded) return 0;
    const trace *t = &p0->t;
    /* the names follow the language; the figures follow the trace */
    if (ps->key != t || ps->key_serial != p0->serial || ps->lang != (int)sc->lang) {
        if (build(ps, t, sc->lang)) return -1;
        ps->key = t;
        ps->key_serial = p0->serial;
        ps->lang = (int)sc->lang;
    }
    ps->shown = 1;
    return 0;
}
