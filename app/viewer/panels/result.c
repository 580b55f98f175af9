#include "app/viewer/panels/internal.h"

void draw_stats(ui *u, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    const view_counts *c = &p->counts;
    const trace_provenance *pv = &m->t->prov;
    dl_rect in = panel(u, "stats", r, S(u, STR_STATS_TITLE));
    const theme *th = u->th;
    char b[400];
    int row = 0;
    /* numbered from 0, as --phase, --step and stats number them */
    snprintf(b, sizeof b, S(u, STR_STAT_PHASE), p->st ? p->st->phase : 0, m->nphases ? m->nphases - 1 : 0, p->step, m->nsteps ? m->nsteps - 1 : 0);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    if (p->st) {
        char warps[48];
        snprintf(b, sizeof b, S(u, STR_STAT_LINE), p->st->line, str_kind(u->L, p->st->kind), str_count(u->L, NOUN_WARP, p->st->count, warps, sizeof warps));
        line_at(u, in, row++, th->text, DL_FONT_UI, b);
    }
    snprintf(b, sizeof b, S(u, STR_STAT_ACTIVE), c->active_threads_phase, m->threads);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_SIMD),
             c->warp_instructions ? 100.0 * (double)c->active_lanes / ((double)WARP_SIZE * (double)c->warp_instructions) : 0.0);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_DIVERGENT), (unsigned long long)c->divergent, (unsigned long long)c->warp_instructions);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_CONFLICTS), (unsigned long long)c->conflicts_load, (unsigned long long)c->conflicts_store);
    if (!holding_back(u)) line_at(u, in, row, c->conflicts_load + c->conflicts_store ? th->conflict : th->text, DL_FONT_UI, b);
    row++;
    snprintf(b, sizeof b, S(u, STR_STAT_BARRIERS), (unsigned long long)c->barriers);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_SECTORS), (unsigned long long)c->sectors, (unsigned long long)c->sectors_min);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, p->wrong_result ? STR_STAT_WRONG : p->racing_result ? STR_STAT_RACING : STR_STAT_RESULT), (double)m->t->result,
             m->t->reference);
    line_at(u, in, row++, p->wrong_result || p->racing_result ? th->conflict : th->text, DL_FONT_UI, b);
    if (p->hz_count || u->sc->s->brk.schedule[0] || u->sc->s->brk.drop_barrier) {
        char drop[80] = "";
        if (pv->drop_barrier) snprintf(drop, sizeof drop, ", -__syncthreads@%u", pv->drop_barrier);
        snprintf(b, sizeof b, S(u, STR_STAT_HAZARDS), p->hz_count, pv->schedule[0] ? pv->schedule : "lockstep", drop);
        line_at(u, in, row++, p->hz_count ? th->conflict : th->text, DL_FONT_UI, b);
    }
    for (int k = 0; k < p->hz_nstep; k++) {
        const trace_hazard *h = &m->t->hazards[p->hz_step[k]];
        snprintf(b, sizeof b, S(u, STR_STAT_HAZARD), trace_hazard_words((trace_hazard_kind)h->kind), h->first.line, h->second.line,
                 (long long)h->word, h->first.thread, h->second.thread);
        line_at(u, in, row++, th->conflict, DL_FONT_UI, b);
    }
    const char *device = strcmp(pv->device, "CPU emulator") ? pv->device : S(u, STR_DEVICE_EMULATOR); /* trace.h's name for it */
    snprintf(b, sizeof b, S(u, STR_STAT_FROM), device, pv->backend, pv->block, (unsigned long long)pv->n, pv->data);
    line_at(u, in, row++, th->dim, DL_FONT_UI, b);
}
