#include "app/viewer/panels/internal.h"

/* The verdict: the result against its reference, wrong or racing or right, and the block's races. */
static int verdict_text(ui *u, const scene_pane *p, char *b, size_t len, int brief)
{
    const trace *t = p->m->t;
    int n;
    if (p->wrong_result) n = snprintf(b, len, S(u, brief ? STR_VERDICT_WRONG_SHORT : STR_VERDICT_WRONG), (double)t->result, t->reference);
    else if (p->racing_result) n = snprintf(b, len, S(u, brief ? STR_VERDICT_RACING_SHORT : STR_VERDICT_RACING), p->hz_nlines ? p->hz_lines[0] : 0);
    else n = snprintf(b, len, S(u, brief ? STR_VERDICT_RIGHT_SHORT : STR_VERDICT_RIGHT), (double)t->result, t->reference);
    if (p->hz_count && n > 0 && (size_t)n < len) snprintf(b + n, len - (size_t)n, S(u, brief ? STR_VERDICT_RACES_SHORT : STR_VERDICT_RACES), p->hz_count);
    return p->wrong_result || p->racing_result;
}

int verdict_line(ui *u, const scene_pane *p, char *b, size_t len) { return verdict_text(u, p, b, len, 0); }

int verdict_width(ui *u, const scene_pane *p, int px)
{
    char b[300];
    verdict_line(u, p, b, sizeof b);
    return dl_text_width(u->l, DL_FONT_UI, px, b) + 2 * u->pad;
}

int verdict_line_brief(ui *u, const scene_pane *p, char *b, size_t len) { return verdict_text(u, p, b, len, 1); }

int verdict_width_brief(ui *u, const scene_pane *p, int px)
{
    char b[300];
    verdict_line_brief(u, p, b, sizeof b);
    return dl_text_width(u->l, DL_FONT_UI, px, b) + 2 * u->pad;
}

/* in full where it fits, else in brief ("WRONG: 3968 ≠ 4096, 12 races"), cut only where not even that fits */
int draw_verdict(ui *u, const scene_pane *p, dl_rect r, int px)
{
    char b[300];
    int bad = verdict_text(u, p, b, sizeof b, 0);
    int w = dl_text_width(u->l, DL_FONT_UI, px, b) + 2 * u->pad, h = dl_text_height(u->l, DL_FONT_UI, px);
    if (w > r.w) {
        verdict_text(u, p, b, sizeof b, 1);
        w = dl_text_width(u->l, DL_FONT_UI, px, b) + 2 * u->pad;
        if (w > r.w) w = r.w;
    }
    if (w < 4 * u->pad || h > r.h) return 0;
    dl_rect box = {r.x + r.w - w, r.y + (r.h - h) / 2, w, h};
    int was = u->l->panel; /* what the caller draws next stays its own */
    dl_panel_begin(u->l, "verdict", box);
    dl_colour fill = bad ? u->th->wrong : u->th->panel;
    dl_fill(u->l, box, fill);
    if (bad) dl_outline(u->l, box, u->th->text, 1);
    dl_text(u->l, (dl_rect){box.x + u->pad, box.y, box.w - 2 * u->pad, h}, DL_FONT_UI, px, DL_LEFT, on_colour(u->th, fill), b);
    u->l->panel = was;
    return w;
}

/* a row of the counters; a wrong result or a race on the wrong colour (not the bank conflict's) */
static void wrong_row(ui *u, dl_rect in, int row, int wrong, const char *b)
{
    int y = in.y + row * u->lh;
    if (wrong && y + u->lh <= in.y + in.h) {
        int w = dl_text_width(u->l, DL_FONT_UI, u->px, b) + u->pad;
        dl_fill(u->l, (dl_rect){in.x, y, w < in.w ? w : in.w, u->lh}, u->th->wrong);
    }
    line_at(u, in, row, wrong ? on_colour(u->th, u->th->wrong) : u->th->text, DL_FONT_UI, b);
}

void draw_stats(ui *u, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    const view_counts *c = &p->counts;
    const trace_provenance *pv = &m->t->prov;
    dl_rect in = panel(u, "stats", r, S(u, STR_STATS_TITLE));
    const theme *th = u->th;
    char b[400];
    int row = 0, end = pane_class(p) == CLASS_END, races = p->hz_count || u->sc->s->brk.schedule[0] || u->sc->s->brk.drop_barrier;
    char drop[80] = "";
    if (pv->drop_barrier) snprintf(drop, sizeof drop, ", -__syncthreads@%u", pv->drop_barrier);
    if (end) { /* the kernel's end: its verdict first, in the large size, and its races under it */
        int vw = verdict_width(u, p, u->big);
        if (draw_verdict(u, p, (dl_rect){in.x, in.y, vw < in.w ? vw : in.w, u->blh}, u->big) || draw_verdict(u, p, (dl_rect){in.x, in.y, in.w, u->blh}, u->px)) {
            in.y += u->blh + u->pad / 2;
            in.h -= u->blh + u->pad / 2;
        }
        if (races) {
            snprintf(b, sizeof b, S(u, STR_STAT_HAZARDS), p->hz_count, pv->schedule[0] ? pv->schedule : "lockstep", drop);
            line_at(u, in, row++, th->text, DL_FONT_UI, b);
        }
    }
    /* numbered from 0, as --phase, --step and stats number them */
    snprintf(b, sizeof b, S(u, STR_STAT_PHASE), p->st ? p->st->phase : 0, m->nphases ? m->nphases - 1 : 0, p->step, m->nsteps ? m->nsteps - 1 : 0);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    if (p->st && (!p->st->line || p->st->kind == TRACE_EXIT)) line_at(u, in, row++, th->text, DL_FONT_UI, S(u, STR_SOURCE_END));
    else if (p->st) {
        char warps[48];
        snprintf(b, sizeof b, S(u, STR_STAT_LINE), p->st->line, str_kind(u->L, p->st->kind), str_count(u->L, NOUN_WARP, p->st->count, warps, sizeof warps));
        line_at(u, in, row++, th->text, DL_FONT_UI, b);
        size_t nlines = 0; /* device printf: the first line this step wrote, and how many it wrote */
        const trace_print *q = p->st->kind == TRACE_PRINTF ? view_step_prints(m, p->step, &nlines) : NULL;
        if (q) {
            snprintf(b, sizeof b, S(u, STR_STAT_PRINTF), q->thread, (int)(q->len < 120 ? q->len : 120), m->t->print_text + q->off, nlines);
            line_at(u, in, row++, th->text, DL_FONT_MONO, b);
        }
    }
    snprintf(b, sizeof b, S(u, STR_STAT_ACTIVE), c->active_threads_phase, m->threads);
    line_at(u, in, row++, th->text, DL_FONT_UI, b);
    snprintf(b, sizeof b, S(u, STR_STAT_SIMD),
             c->lane_slots ? 100.0 * (double)c->active_lanes / (double)c->lane_slots : 0.0); /* of the lanes that exist */
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
    wrong_row(u, in, row++, p->wrong_result || p->racing_result, b); /* the result */
    if (races && !end) {
        snprintf(b, sizeof b, S(u, STR_STAT_HAZARDS), p->hz_count, pv->schedule[0] ? pv->schedule : "lockstep", drop);
        wrong_row(u, in, row++, p->hz_count != 0, b);
    }
    for (int k = 0; k < p->hz_nstep; k++) {
        const trace_hazard *h = &m->t->hazards[p->hz_step[k]];
        snprintf(b, sizeof b, S(u, STR_STAT_HAZARD), trace_hazard_words((trace_hazard_kind)h->kind), h->first.line, h->second.line,
                 (long long)h->word, h->first.thread, h->second.thread);
        wrong_row(u, in, row++, 1, b);
    }
    const char *device = strcmp(pv->device, "CPU emulator") ? pv->device : S(u, STR_DEVICE_EMULATOR); /* trace.h's name for it */
    snprintf(b, sizeof b, S(u, STR_STAT_FROM), device, pv->backend, pv->block, (unsigned long long)pv->n, pv->data);
    line_at(u, in, row++, th->dim, DL_FONT_UI, b);
}
