/* view: steps and per-step facts of one traced block. */
#include "trace/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void view_free(view_model *m)
{
    free(m->nodes);
    free(m->leaf_value);
    free(m->leaf_step);
    free(m->shfl);
    free(m->event_step);
    free(m->regs);
    free(m->order);
    free(m->steps);
    free(m->facts);
    free(m->edges);
    memset(m, 0, sizeof *m);
}

/* An event's place: its step is (phase, line, kind, nth), nth counting the times its warp did that
 * line's kind before in the phase; i is its index in the block's events, first the step's first. */
typedef struct key {
    unsigned phase, warp, line, nth;
    int kind;
    size_t i, first;
} key;

#define KEY_CMP(x, y, f) if ((x)->f != (y)->f) return (x)->f < (y)->f ? -1 : 1
static int by_warp_key(const void *a, const void *b) /* to count nth */
{
    const key *x = a, *y = b;
    KEY_CMP(x, y, phase); KEY_CMP(x, y, warp); KEY_CMP(x, y, line); KEY_CMP(x, y, kind); KEY_CMP(x, y, i);
    return 0;
}
static int by_step_key(const void *a, const void *b) /* to gather a step's events */
{
    const key *x = a, *y = b;
    KEY_CMP(x, y, phase); KEY_CMP(x, y, line); KEY_CMP(x, y, kind); KEY_CMP(x, y, nth); KEY_CMP(x, y, i);
    return 0;
}
static int by_first(const void *a, const void *b) /* steps in order of first appearance */
{
    const key *x = a, *y = b;
    KEY_CMP(x, y, first); KEY_CMP(x, y, i);
    return 0;
}
#undef KEY_CMP

enum { TREE_MAX_WORDS = 1 << 20 }; /* a tree wider than this is not drawn anyway */

/* Nodes of the tree from the edges (analysis_tree emits them in trace order as each store
 * happens, so a second walk in the same order pairs every edge with its store's value), leaves
 * from the first access of each word, and the shuffles' tree over lanes. */
static int derive_tree(view_model *m)
{
    const trace *t = m->t;
    m->tree_buf = -1;
    m->event_step = malloc(t->nevents * sizeof *m->event_step);
    if (t->nevents && !m->event_step) return -1;
    for (size_t i = 0; i < t->nevents; i++) m->event_step[i] = SIZE_MAX;
    for (size_t s = 0; s < m->nsteps; s++)
        for (size_t i = 0; i < m->steps[s].count; i++) m->event_step[m->order[m->steps[s].first + i]] = s;
    int shared = 0;
    int64_t maxw = -1;
    for (size_t i = 0; i < m->nedges; i++) shared |= m->edges[i].buf == -1;
    if (m->nedges) m->tree_buf = shared ? -1 : m->edges[0].buf;
    for (size_t i = 0; i < m->nedges; i++)
        if (m->edges[i].buf == m->tree_buf) {
            if (m->edges[i].to > maxw) maxw = m->edges[i].to;
            if (m->edges[i].from > maxw) maxw = m->edges[i].from;
        }
    if (maxw >= TREE_MAX_WORDS) maxw = -1;
    m->tree_words = maxw + 1;
    int *count = calloc((size_t)m->tree_words + 1, sizeof *count);
    /* expect[w * LEVELS + L]: what word w holds after L additions in a race-free run; a tree adds
     * two words of the same depth, so row L's node is E(w, L) + E(from, L) */
    enum { LEVELS = 32 };
    float *expect = calloc(((size_t)m->tree_words + 1) * LEVELS, sizeof *expect);
    m->nodes = malloc((m->nedges ? m->nedges : 1) * sizeof *m->nodes);
    m->leaf_value = calloc((size_t)m->tree_words + 1, sizeof *m->leaf_value);
    m->leaf_step = malloc(((size_t)m->tree_words + 1) * sizeof *m->leaf_step);
    if (!count || !expect || !m->nodes || !m->leaf_value || !m->leaf_step) { free(count); free(expect); return -1; }
    for (int64_t w = 0; w < m->tree_words; w++) m->leaf_step[w] = SIZE_MAX;
    size_t p = 0;
    unsigned *shfl_count = calloc(m->nwarps ? m->nwarps : 1, sizeof *shfl_count);
    if (!shfl_count) { free(count); free(expect); return -1; }
    size_t nshfl_cap = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != m->pass || e->block != m->block) continue;
        if (e->kind == TRACE_SHUFFLE && e->warp < m->nwarps) {
            int level = (int)shfl_count[e->warp]++;
            if (level + 1 > m->shfl_levels) m->shfl_levels = level + 1;
            for (int j = 0, l = 0; l < 32; l++) {
                if (!(e->mask >> l & 1)) continue;
                if (m->nshfl == nshfl_cap) {
                    nshfl_cap = nshfl_cap ? nshfl_cap * 2 : 256;
                    view_shfl *q = realloc(m->shfl, nshfl_cap * sizeof *q);
                    if (!q) { free(count); free(expect); free(shfl_count); return -1; }
                    m->shfl = q;
                }
                size_t li = e->lanes + (size_t)j++;
                m->shfl[m->nshfl++] = (view_shfl){e->warp, (unsigned)l, (unsigned)t->lane_addr[li], level, trace_lane_value(t, e, (size_t)(j - 1), 0), m->event_step[i]};
            }
            continue;
        }
        int load = e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_GLOBAL_LOAD;
        int store = e->kind == TRACE_SHARED_STORE || e->kind == TRACE_GLOBAL_STORE;
        if (!load && !store) continue;
        int buf = e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_SHARED_STORE ? -1 : e->buf;
        for (int j = 0, l = 0; l < 32; l++) {
            if (!(e->mask >> l & 1)) continue;
            size_t li = e->lanes + (size_t)j++;
            int64_t a = t->lane_addr[li];
            unsigned tid = e->warp * 32u + (unsigned)l;
            if (buf == m->tree_buf && a >= 0 && a < m->tree_words && m->leaf_step[a] == SIZE_MAX) {
                m->leaf_value[a] = trace_lane_value(t, e, (size_t)(j - 1), 0);
                m->leaf_step[a] = m->event_step[i];
            }
            if (!store) continue;
            while (p < m->nedges && m->edges[p].to == a && m->edges[p].thread == tid && m->edges[p].line == e->line &&
                   m->edges[p].phase == e->phase && m->edges[p].buf == buf) {
                const analysis_edge *ed = &m->edges[p++];
                if (ed->buf != m->tree_buf || ed->to >= m->tree_words || ed->from >= m->tree_words || ed->to < 0 || ed->from < 0) continue;
                view_node *nd = &m->nodes[m->nnodes++];
                float v = trace_lane_value(t, e, (size_t)(j - 1), 0);
                /* what a race-free run stores here: both inputs as they should be by now */
                *nd = (view_node){ed->to, ed->from, count[ed->to], count[ed->from], ed->buf, v, v, tid, m->event_step[i]};
                count[ed->to]++;
                if (count[ed->to] > m->tree_levels) m->tree_levels = count[ed->to];
            }
        }
    }
    /* expected values, row by row (a racy run may store a row's nodes in any order): row L adds
     * E(from, L), the input as deep as the sum, or the input's last value if it never got that deep */
    for (int64_t w = 0; w < m->tree_words; w++) expect[(size_t)w * LEVELS] = m->leaf_value[w];
    for (int L = 0; L < m->tree_levels && L < LEVELS - 1; L++)
        for (size_t i = 0; i < m->nnodes; i++) {
            view_node *nd = &m->nodes[i];
            if (nd->level != L) continue;
            int Lf = count[nd->from] < L ? count[nd->from] : L;
            nd->expected = expect[(size_t)nd->word * LEVELS + (size_t)L] + expect[(size_t)nd->from * LEVELS + (size_t)Lf];
            expect[(size_t)nd->word * LEVELS + (size_t)L + 1] = nd->expected;
        }
    free(count);
    free(expect);
    free(shfl_count);
    return 0;
}

static int by_step(const void *a, const void *b)
{
    const view_reg *x = a, *y = b;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

/* Each register assignment shows from the latest step of the instructions its lanes ran just
 * before it (per lane: under independent thread scheduling another group of the warp may run in
 * between), or the warp's first step for one made before any instruction. */
static void attach_registers(view_model *m)
{
    enum { WARPS = TRACE_BLOCK_THREADS_MAX / WARP_SIZE };
    const trace *t = m->t;
    size_t last[TRACE_BLOCK_THREADS_MAX], first[WARPS], r = 0;
    for (unsigned i = 0; i < TRACE_BLOCK_THREADS_MAX; i++) last[i] = SIZE_MAX;
    for (unsigned w = 0; w < WARPS; w++) first[w] = SIZE_MAX;
    for (size_t i = 0; i < t->nevents && r < m->nregs; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != m->pass || e->block != m->block || e->warp >= WARPS || trace_event_other_register(t, e)) continue;
        size_t *lane_last = &last[e->warp * WARP_SIZE], at = SIZE_MAX;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            if (e->kind != TRACE_REGISTER) lane_last[l] = m->event_step[i];
            else if (lane_last[l] != SIZE_MAX && (at == SIZE_MAX || lane_last[l] > at)) at = lane_last[l];
        }
        if (e->kind != TRACE_REGISTER && first[e->warp] == SIZE_MAX) first[e->warp] = m->event_step[i];
        if (e->kind == TRACE_REGISTER) m->regs[r++].step = at;
    }
    for (size_t k = 0; k < m->nregs; k++) {
        view_reg *g = &m->regs[k];
        if (g->step == SIZE_MAX) g->step = first[t->events[g->event].warp]; /* before any instruction */
        if (g->step == SIZE_MAX) g->step = 0;
        m->event_step[g->event] = g->step;
    }
    /* steps are not in trace order across warps: sort by step, then trace order */
    qsort(m->regs, m->nregs, sizeof *m->regs, by_step);
}

int view_build(view_model *m, const trace *t, unsigned pass, unsigned block, int fine, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    m->pass = pass;
    m->block = block;
    m->fine = fine;
    m->threads = pass < t->npasses ? t->passes[pass].block : t->prov.block;
    m->nwarps = (m->threads + 31) / 32;
    size_t n = 0, nregs = 0;
    for (size_t i = 0; i < t->nevents; i++)
        if (t->events[i].pass == pass && t->events[i].block == block && !trace_event_other_register(t, &t->events[i])) {
            if (t->events[i].kind == TRACE_REGISTER) nregs++;
            else n++;
        }
    if (n == 0) {
        snprintf(err, errlen, "block %u of pass %u was not traced", block, pass);
        return -1;
    }
    m->order = malloc(n * sizeof *m->order);
    m->regs = malloc((nregs ? nregs : 1) * sizeof *m->regs);
    m->steps = malloc(n * sizeof *m->steps);
    m->facts = malloc(t->nevents * sizeof *m->facts);
    size_t *evs = malloc(n * sizeof *evs);
    key *keys = malloc(n * sizeof *keys);
    if (!m->order || !m->steps || !m->regs || !m->facts || !evs || !keys || analysis_events(t, m->facts) ||
        analysis_tree(t, pass, block, &m->edges, &m->nedges)) {
        free(evs);
        free(keys);
        view_free(m);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0, k = 0; i < t->nevents; i++)
        if (t->events[i].pass == pass && t->events[i].block == block && !trace_event_other_register(t, &t->events[i])) {
            if (t->events[i].kind == TRACE_REGISTER) m->regs[m->nregs++] = (view_reg){i, SIZE_MAX};
            else evs[k++] = i;
        }
    m->nwords = analysis_shared_words(t, pass, block);
    for (size_t i = 0; i < n; i++) {
        unsigned ph = t->events[evs[i]].phase;
        if (ph + 1 > m->nphases) m->nphases = ph + 1;
    }
    /* steps: within a phase, keys in order of first appearance; each step gathers its events in
     * trace order (sorting, so a block of a hundred thousand events takes no quadratic time) */
    for (size_t i = 0; i < n; i++) {
        const trace_event *e = &t->events[evs[i]];
        keys[i] = (key){e->phase, e->warp, e->line, 0, e->kind, i, i};
    }
    if (!fine) {
        qsort(keys, n, sizeof *keys, by_warp_key);
        for (size_t i = 1; i < n; i++) {
            const key *p = &keys[i - 1], *c = &keys[i];
            if (p->phase == c->phase && p->warp == c->warp && p->line == c->line && p->kind == c->kind) keys[i].nth = p->nth + 1;
        }
        qsort(keys, n, sizeof *keys, by_step_key);
        for (size_t i = 1; i < n; i++) {
            const key *p = &keys[i - 1], *c = &keys[i];
            if (p->phase == c->phase && p->line == c->line && p->kind == c->kind && p->nth == c->nth) keys[i].first = p->first;
        }
        qsort(keys, n, sizeof *keys, by_first);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || keys[i].first != keys[i - 1].first) {
            view_step *st = &m->steps[m->nsteps++];
            st->first = k;
            st->phase = keys[i].phase;
            st->line = keys[i].line;
            st->kind = keys[i].kind;
            st->count = 0;
        }
        m->order[k++] = evs[keys[i].i];
        m->steps[m->nsteps - 1].count++;
    }
    m->norder = k;
    free(evs);
    free(keys);
    if (derive_tree(m)) {
        view_free(m);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    attach_registers(m);
    return 0;
}

void view_registers_at(const view_model *m, size_t s, unsigned warp, float *vals, unsigned char *state)
{
    const trace *t = m->t;
    size_t held[WARP_SIZE]; /* the event each lane's value comes from */
    memset(vals, 0, WARP_SIZE * sizeof *vals);
    memset(state, 0, WARP_SIZE);
    /* a lane keeps the value of its latest assignment in trace order (its program order): under
     * independent thread scheduling a later assignment may sit on an earlier step */
    for (size_t r = 0; r < m->nregs && m->regs[r].step <= s; r++) {
        const trace_event *e = &t->events[m->regs[r].event];
        if (e->warp != warp) continue;
        for (int j = 0, l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            size_t k = (size_t)j++;
            if (state[l] && held[l] > m->regs[r].event) continue;
            held[l] = m->regs[r].event;
            vals[l] = trace_lane_value(t, e, k, 0);
            state[l] = m->regs[r].step == s ? 2 : 1;
        }
    }
}

long view_phase_first(const view_model *m, unsigned phase)
{
    for (size_t s = 0; s < m->nsteps; s++)
        if (m->steps[s].phase == phase) return (long)s;
    return -1;
}

long view_phase_defining(const view_model *m, unsigned phase)
{
    long first = -1;
    for (size_t s = 0; s < m->nsteps; s++) {
        if (m->steps[s].phase != phase) continue;
        if (first < 0) first = (long)s;
        int k = m->steps[s].kind;
        if (k == TRACE_SHARED_LOAD || k == TRACE_SHARED_STORE || k == TRACE_SHUFFLE) return (long)s;
        for (size_t i = 0; i < m->nnodes; i++)
            if (m->nodes[i].step == s) return (long)s; /* a store into the tree (the naive version's global one) */
    }
    return first;
}

long view_phase_last(const view_model *m, unsigned phase)
{
    for (size_t s = m->nsteps; s-- > 0;)
        if (m->steps[s].phase == phase) return (long)s;
    return -1;
}

long view_worst_shared(const view_model *m, size_t s, long warp)
{
    long best = -1;
    int degree = 0;
    for (size_t i = 0; s < m->nsteps && i < m->steps[s].count; i++) {
        size_t ei = m->order[m->steps[s].first + i];
        const trace_event *e = &m->t->events[ei];
        if (e->kind != TRACE_SHARED_LOAD && e->kind != TRACE_SHARED_STORE) continue;
        if (warp >= 0 && e->warp != warp) continue;
        if (m->facts[ei].bank_degree > degree) {
            degree = m->facts[ei].bank_degree;
            best = (long)ei;
        }
    }
    return best;
}

void view_lanes(const view_model *m, size_t s, unsigned char *lanes)
{
    const trace *t = m->t;
    /* exited before this step: replay the exit events of earlier steps */
    memset(lanes, VIEW_LANE_IDLE, m->threads);
    for (size_t q = 0; q < s && q < m->nsteps; q++) {
        const view_step *st = &m->steps[q];
        if (st->kind != TRACE_EXIT) continue;
        for (size_t i = 0; i < st->count; i++) {
            const trace_event *e = &t->events[m->order[st->first + i]];
            for (unsigned l = 0; l < 32; l++)
                if (e->mask >> l & 1 && e->warp * 32 + l < m->threads) lanes[e->warp * 32 + l] = VIEW_LANE_EXITED;
        }
    }
    if (s >= m->nsteps) return;
    const view_step *st = &m->steps[s];
    for (size_t i = 0; i < st->count; i++) {
        size_t ei = m->order[st->first + i];
        const trace_event *e = &t->events[ei];
        uint32_t live = m->facts[ei].live;
        for (unsigned l = 0; l < 32; l++) {
            unsigned tid = e->warp * 32 + l;
            if (tid >= m->threads || lanes[tid] == VIEW_LANE_EXITED) continue;
            if (e->mask >> l & 1)
                lanes[tid] = e->kind == TRACE_BARRIER ? VIEW_LANE_BARRIER : e->kind == TRACE_EXIT ? VIEW_LANE_EXITED : VIEW_LANE_WORKING;
            else if (live >> l & 1)
                lanes[tid] = VIEW_LANE_DIVERGED;
        }
    }
}

void view_counts_at(const view_model *m, size_t s, view_counts *c)
{
    memset(c, 0, sizeof *c);
    const trace *t = m->t;
    if (s >= m->nsteps) s = m->nsteps ? m->nsteps - 1 : 0;
    unsigned phase = m->nsteps ? m->steps[s].phase : 0;
    unsigned char acted[1024] = {0};
    for (size_t q = 0; q <= s && q < m->nsteps; q++) {
        const view_step *st = &m->steps[q];
        for (size_t i = 0; i < st->count; i++) {
            size_t ei = m->order[st->first + i];
            const trace_event *e = &t->events[ei];
            const analysis_event *f = &m->facts[ei];
            if (e->kind == TRACE_BARRIER) c->barriers++;
            if (!trace_kind_is_instruction((trace_kind)e->kind)) continue;
            c->warp_instructions++;
            c->active_lanes += (uint64_t)trace_popcount(e->mask);
            c->lane_slots += (uint64_t)trace_popcount(trace_warp_lanes(m->threads, e->warp));
            c->divergent += (uint64_t)f->divergent;
            if (e->kind == TRACE_SHARED_LOAD) c->conflicts_load += (uint64_t)(f->bank_degree - 1);
            if (e->kind == TRACE_SHARED_STORE) c->conflicts_store += (uint64_t)(f->bank_degree - 1);
            c->sectors += (uint64_t)f->sectors;
            c->sectors_min += (uint64_t)f->sectors_min;
            if (e->phase == phase)
                for (unsigned l = 0; l < 32; l++)
                    if (e->mask >> l & 1 && e->warp * 32 + l < 1024) acted[e->warp * 32 + l] = 1;
        }
    }
    for (unsigned i = 0; i < m->threads && i < 1024; i++) c->active_threads_phase += acted[i];
}

void view_shared_at(const view_model *m, size_t s, float *cells, unsigned char *written)
{
    memset(cells, 0, m->nwords * sizeof *cells);
    memset(written, 0, m->nwords);
    const trace *t = m->t;
    for (size_t q = 0; q <= s && q < m->nsteps; q++) {
        const view_step *st = &m->steps[q];
        if (st->kind != TRACE_SHARED_STORE) continue;
        for (size_t i = 0; i < st->count; i++) {
            const trace_event *e = &t->events[m->order[st->first + i]];
            int n = trace_popcount(e->mask);
            for (int j = 0; j < n; j++) {
                int64_t w = t->lane_addr[e->lanes + (size_t)j];
                if (w < 0 || (size_t)w >= m->nwords) continue;
                cells[w] = trace_lane_value(t, e, (size_t)j, 0);
                written[w] = 1;
            }
        }
    }
}

void view_subtree(const view_model *m, size_t s, int64_t w, unsigned char *in_tree)
{
    memset(in_tree, 0, m->nwords);
    if (w < 0 || (size_t)w >= m->nwords) return;
    in_tree[w] = 1;
    unsigned phase = s < m->nsteps ? m->steps[s].phase : 0;
    /* walk the edges backwards in time: a cell added into a cell of the tree joins the tree */
    for (size_t i = m->nedges; i-- > 0;) {
        const analysis_edge *e = &m->edges[i];
        if (e->buf != -1 || e->phase > phase) continue;
        if (e->to >= 0 && (size_t)e->to < m->nwords && in_tree[e->to] && e->from >= 0 && (size_t)e->from < m->nwords)
            in_tree[e->from] = 1;
    }
}

const trace_print *view_step_prints(const view_model *m, size_t s, size_t *n)
{
    *n = 0;
    if (s >= m->nsteps) return NULL;
    const view_step *st = &m->steps[s];
    const trace *t = m->t;
    const trace_print *first = NULL;
    for (size_t i = 0; i < st->count; i++) {
        size_t ev = m->order[st->first + i];
        if (t->events[ev].kind != TRACE_PRINTF) continue;
        for (size_t k = 0; k < t->nprints; k++) /* at most TRACE_PRINTS_MAX lines */
            if (t->prints[k].event == (int64_t)ev) {
                if (!first) first = &t->prints[k];
                (*n)++;
            }
    }
    return first;
}
