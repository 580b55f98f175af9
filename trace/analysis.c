/* analysis: see analysis.h for the definitions used. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

static int is_global(int kind)
{
    return kind == TRACE_GLOBAL_LOAD || kind == TRACE_GLOBAL_STORE || kind == TRACE_GLOBAL_ATOMIC;
}
static int is_shared(int kind) { return kind == TRACE_SHARED_LOAD || kind == TRACE_SHARED_STORE; }

static int bank_degree(const trace *t, const trace_event *e)
{
    /* per bank, the distinct words asked for */
    int64_t words[32][32];
    int count[32] = {0};
    int n = trace_popcount(e->mask), degree = 0;
    unsigned span = e->elem_size > 4 ? e->elem_size / 4u : 1u;
    for (int i = 0; i < n; i++) {
        for (unsigned c = 0; c < span; c++) {
            int64_t w = t->lane_addr[e->lanes + (size_t)i] + (int64_t)c;
            int b = (int)(((w % 32) + 32) % 32), seen = 0;
            for (int j = 0; j < count[b] && !seen; j++) seen = words[b][j] == w;
            if (!seen && count[b] < 32) words[b][count[b]++] = w;
        }
    }
    for (int b = 0; b < 32; b++)
        if (count[b] > degree) degree = count[b];
    return degree;
}

static void sectors(const trace *t, const trace_event *e, int *got, int *min)
{
    int64_t sec[32 * 2];
    int ns = 0, n = trace_popcount(e->mask);
    for (int i = 0; i < n; i++) {
        int64_t first = t->lane_addr[e->lanes + (size_t)i] * e->elem_size;
        for (int64_t s = first / 32; s <= (first + e->elem_size - 1) / 32; s++) {
            int seen = 0;
            for (int j = 0; j < ns && !seen; j++) seen = sec[j] == s;
            if (!seen && ns < 64) sec[ns++] = s;
        }
    }
    *got = ns;
    *min = (int)((n * (int)e->elem_size + 31) / 32);
}

/* Live masks per (pass, block, warp). Traced blocks are 0 .. min(grid, blocks_traced)-1 of each
 * pass (the reader checks it), so a slot is found by index: linear in the events whatever order
 * the blocks come in. */
typedef struct live_table {
    uint32_t (*live)[TRACE_BLOCK_THREADS_MAX / TRACE_WARP_SIZE];
    size_t *first; /* per pass: its first slot */
    size_t nslots;
} live_table;

static size_t traced_blocks(const trace *t, size_t pass)
{
    size_t k = t->prov.blocks_traced ? t->prov.blocks_traced : 1;
    return t->passes[pass].grid < k ? t->passes[pass].grid : k;
}

static int live_init(live_table *L, const trace *t)
{
    memset(L, 0, sizeof *L);
    L->first = malloc((t->npasses + 1) * sizeof *L->first);
    if (!L->first) return -1;
    for (size_t p = 0; p < t->npasses; p++) {
        L->first[p] = L->nslots;
        L->nslots += traced_blocks(t, p);
    }
    L->first[t->npasses] = L->nslots;
    L->live = malloc((L->nslots ? L->nslots : 1) * sizeof *L->live);
    if (!L->live) { free(L->first); return -1; }
    for (size_t p = 0; p < t->npasses; p++) {
        unsigned threads = t->passes[p].block;
        for (size_t b = L->first[p]; b < L->first[p + 1]; b++)
            for (unsigned w = 0; w < TRACE_BLOCK_THREADS_MAX / TRACE_WARP_SIZE; w++) {
                unsigned lo = w * TRACE_WARP_SIZE;
                L->live[b][w] = threads >= lo + TRACE_WARP_SIZE ? 0xffffffffu : threads > lo ? (1u << (threads - lo)) - 1 : 0;
            }
    }
    return 0;
}

/* NULL for an event outside the declared geometry (possible only in a trace built by hand) */
static uint32_t *live_of(live_table *L, const trace *t, const trace_event *e)
{
    if (e->pass >= t->npasses || e->block >= L->first[e->pass + 1] - L->first[e->pass] ||
        e->warp >= TRACE_BLOCK_THREADS_MAX / TRACE_WARP_SIZE)
        return NULL;
    return &L->live[L->first[e->pass] + e->block][e->warp];
}

static void event_facts(const trace *t, const trace_event *e, uint32_t *live, analysis_event *a)
{
    memset(a, 0, sizeof *a);
    if (!live) return;
    a->live = *live;
    if (trace_kind_is_instruction((trace_kind)e->kind)) a->divergent = (a->live & ~e->mask) != 0;
    if (is_shared(e->kind)) a->bank_degree = bank_degree(t, e);
    if (is_global(e->kind)) sectors(t, e, &a->sectors, &a->sectors_min);
    if (e->kind == TRACE_EXIT) *live &= ~e->mask;
}

int analysis_events(const trace *t, analysis_event *out)
{
    live_table L;
    if (live_init(&L, t)) return -1;
    for (size_t i = 0; i < t->nevents; i++)
        event_facts(t, &t->events[i], live_of(&L, t, &t->events[i]), &out[i]);
    free(L.live);
    free(L.first);
    return 0;
}

static void finish(analysis_counters *c);

void analysis_counters_add(analysis_counters *a, const analysis_counters *b)
{
    a->active_threads += b->active_threads;
    a->idle_threads += b->idle_threads;
    a->warp_instructions += b->warp_instructions;
    a->divergent_warp_instructions += b->divergent_warp_instructions;
    a->active_lanes += b->active_lanes;
    a->bank_conflicts_load += b->bank_conflicts_load;
    a->bank_conflicts_store += b->bank_conflicts_store;
    a->shared_loads += b->shared_loads;
    a->shared_stores += b->shared_stores;
    a->global_requests += b->global_requests;
    a->global_sectors += b->global_sectors;
    a->global_sectors_min += b->global_sectors_min;
    a->shuffles += b->shuffles;
    a->barriers += b->barriers;
    finish(a);
}

static void finish(analysis_counters *c)
{
    c->simd_efficiency = c->warp_instructions ? (double)c->active_lanes / (32.0 * (double)c->warp_instructions) : 0.0;
}

int analysis_phases(const trace *t, unsigned pass, unsigned block, analysis_counters **phases_out,
                    size_t *nphases_out, analysis_counters *totals)
{
    *phases_out = NULL;
    *nphases_out = 0;
    memset(totals, 0, sizeof *totals);
    if (pass >= t->npasses) return -1;
    /* one pass to find the block's events and phases: --all-blocks calls this per block */
    size_t nph = 0, nev = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block) continue;
        nev++;
        if ((size_t)e->phase + 1 > nph) nph = (size_t)e->phase + 1;
    }
    if (!nev) return -1;
    unsigned threads = t->passes[pass].block;
    if (threads > TRACE_BLOCK_THREADS_MAX) threads = TRACE_BLOCK_THREADS_MAX;
    analysis_counters *ph = calloc(nph, sizeof *ph);
    /* per phase, per thread: 1 = did something; threads that exited in an earlier phase are not live */
    unsigned char *acted = calloc(nph * threads, 1);
    unsigned *exit_phase = malloc((size_t)threads * sizeof *exit_phase);
    if (!ph || !acted || !exit_phase) { free(ph); free(acted); free(exit_phase); return -1; }
    for (unsigned i = 0; i < threads; i++) exit_phase[i] = (unsigned)nph; /* never exits within the trace */
    /* the live masks of this block's warps only, replayed in event order */
    uint32_t live[TRACE_BLOCK_THREADS_MAX / TRACE_WARP_SIZE];
    for (unsigned w = 0; w < TRACE_BLOCK_THREADS_MAX / TRACE_WARP_SIZE; w++) {
        unsigned lo = w * TRACE_WARP_SIZE;
        live[w] = threads >= lo + TRACE_WARP_SIZE ? 0xffffffffu : threads > lo ? (1u << (threads - lo)) - 1 : 0;
    }
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block) continue;
        unsigned base = e->warp * TRACE_WARP_SIZE;
        if (base >= threads) continue; /* outside the block (the reader refuses such traces) */
        analysis_event f;
        event_facts(t, e, &live[e->warp], &f);
        analysis_counters *c = &ph[e->phase];
        if (e->kind == TRACE_EXIT)
            for (unsigned l = 0; l < TRACE_WARP_SIZE; l++)
                if (e->mask >> l & 1) exit_phase[base + l] = e->phase;
        if (e->kind == TRACE_BARRIER) c->barriers++;
        if (!trace_kind_is_instruction((trace_kind)e->kind)) continue;
        for (unsigned l = 0; l < TRACE_WARP_SIZE; l++)
            if (e->mask >> l & 1) acted[(size_t)e->phase * threads + base + l] = 1;
        c->warp_instructions++;
        c->active_lanes += (uint64_t)trace_popcount(e->mask);
        c->divergent_warp_instructions += (uint64_t)f.divergent;
        if (e->kind == TRACE_SHARED_LOAD) { c->shared_loads++; c->bank_conflicts_load += (uint64_t)(f.bank_degree - 1); }
        if (e->kind == TRACE_SHARED_STORE) { c->shared_stores++; c->bank_conflicts_store += (uint64_t)(f.bank_degree - 1); }
        if (is_global(e->kind)) {
            c->global_requests++;
            c->global_sectors += (uint64_t)f.sectors;
            c->global_sectors_min += (uint64_t)f.sectors_min;
        }
        if (e->kind == TRACE_SHUFFLE) c->shuffles++;
    }
    for (size_t p = 0; p < nph; p++) {
        analysis_counters *c = &ph[p];
        for (unsigned i = 0; i < threads; i++) {
            if (acted[p * threads + i]) c->active_threads++;
            else if (exit_phase[i] >= p) c->idle_threads++;
        }
        finish(c);
        analysis_counters_add(totals, c);
    }
    finish(totals);
    free(acted);
    free(exit_phase);
    *phases_out = ph;
    *nphases_out = nph;
    return 0;
}

int analysis_tree(const trace *t, unsigned pass, unsigned block, analysis_edge **edges, size_t *nedges)
{
    *edges = NULL;
    *nedges = 0;
    unsigned threads = pass < t->npasses ? t->passes[pass].block : t->prov.block;
    /* per thread, the last loads since its last store in the same memory */
    enum { KEEP = 4 };
    typedef struct { int n; int buf[KEEP]; int64_t addr[KEEP]; } loads;
    loads *ld = calloc(threads, sizeof *ld);
    if (!ld) return -1;
    size_t cap = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block) continue;
        int load = e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_GLOBAL_LOAD;
        int store = e->kind == TRACE_SHARED_STORE || e->kind == TRACE_GLOBAL_STORE;
        if (!load && !store) continue;
        int buf = is_global(e->kind) ? e->buf : -1;
        int k = 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!(e->mask >> l & 1)) continue;
            unsigned tid = e->warp * 32u + l;
            int64_t a = t->lane_addr[e->lanes + (size_t)k++];
            if (tid >= threads) continue;
            loads *L = &ld[tid];
            if (load) {
                if (L->n == KEEP) { memmove(L->buf, L->buf + 1, (KEEP - 1) * sizeof *L->buf); memmove(L->addr, L->addr + 1, (KEEP - 1) * sizeof *L->addr); L->n--; }
                L->buf[L->n] = buf;
                L->addr[L->n++] = a;
                continue;
            }
            /* a store into a cell this thread also read: every other cell it read was added in */
            int read_self = 0;
            for (int j = 0; j < L->n; j++) read_self |= L->buf[j] == buf && L->addr[j] == a;
            for (int j = 0; read_self && j < L->n; j++) {
                if (L->buf[j] != buf || L->addr[j] == a) continue;
                if (*nedges == cap) {
                    cap = cap ? cap * 2 : 256;
                    analysis_edge *q = realloc(*edges, cap * sizeof *q);
                    if (!q) { free(ld); free(*edges); *edges = NULL; *nedges = 0; return -1; }
                    *edges = q;
                }
                (*edges)[(*nedges)++] = (analysis_edge){buf, L->addr[j], a, e->phase, e->line, tid};
            }
            L->n = 0;
        }
    }
    free(ld);
    return 0;
}

size_t analysis_shared_words(const trace *t, unsigned pass, unsigned block)
{
    size_t words = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block || !is_shared(e->kind)) continue;
        unsigned span = e->elem_size > 4 ? e->elem_size / 4u : 1u;
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++) {
            int64_t a = t->lane_addr[e->lanes + (size_t)j];
            if (a < 0) continue; /* the reader refuses these; a trace built by hand may not */
            size_t end = (size_t)a + span;
            if (end > words) words = end;
        }
    }
    return words;
}

void analysis_shared_after(const trace *t, unsigned pass, unsigned block, unsigned phase, float *cells,
                           unsigned char *written, size_t nwords)
{
    memset(cells, 0, nwords * sizeof *cells);
    memset(written, 0, nwords);
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block || e->kind != TRACE_SHARED_STORE || e->phase > phase) continue;
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++) {
            int64_t w = t->lane_addr[e->lanes + (size_t)j];
            if (w < 0 || (size_t)w >= nwords) continue;
            cells[w] = t->lane_val[(e->lanes + (size_t)j) * 4];
            written[w] = 1;
        }
    }
}
