/* analysis: see analysis.h for the definitions used. */
#include "trace/analysis.h"

#include <stdlib.h>
#include <string.h>

static int is_global(int kind)
{
    return kind == TRACE_GLOBAL_LOAD || kind == TRACE_GLOBAL_STORE || kind == TRACE_GLOBAL_ATOMIC;
}
static int is_shared(int kind) { return kind == TRACE_SHARED_LOAD || kind == TRACE_SHARED_STORE; }

enum {
    WARPS_MAX = TRACE_BLOCK_THREADS_MAX / WARP_SIZE, /* warps of the largest block */
    SECTOR_BYTES = 32 /* global memory moves in 32-byte sectors (CUDA Best Practices Guide, coalescing) */
};

int analysis_banks(const trace *t, const trace_event *e, analysis_bank banks[BANKS])
{
    for (int b = 0; b < BANKS; b++) {
        banks[b].nwords = 0;
        banks[b].lanes = 0;
    }
    unsigned span = trace_event_words(e); /* words per lane */
    int degree = 0;
    size_t k = 0;
    for (unsigned lane = 0; lane < WARP_SIZE; lane++) {
        if (!(e->mask >> lane & 1u)) continue;
        int64_t first = t->lane_addr[e->lanes + k++];
        for (unsigned c = 0; c < span; c++) {
            int64_t w = first + (int64_t)c;
            analysis_bank *b = &banks[((w % BANKS) + BANKS) % BANKS];
            b->lanes |= 1u << lane;
            int seen = 0;
            for (int j = 0; j < b->nwords && !seen; j++) seen = b->words[j] == w;
            if (!seen && b->nwords < WARP_SIZE) b->words[b->nwords++] = w;
            if (b->nwords > degree) degree = b->nwords;
        }
    }
    return degree;
}

static void sectors(const trace *t, const trace_event *e, int *got, int *min)
{
    int64_t sec[WARP_SIZE * 2];
    int ns = 0, n = trace_popcount(e->mask);
    for (int i = 0; i < n; i++) {
        int64_t first = t->lane_addr[e->lanes + (size_t)i] * e->elem_size;
        for (int64_t s = first / SECTOR_BYTES; s <= (first + e->elem_size - 1) / SECTOR_BYTES; s++) {
            int seen = 0;
            for (int j = 0; j < ns && !seen; j++) seen = sec[j] == s;
            if (!seen && ns < WARP_SIZE * 2) sec[ns++] = s;
        }
    }
    *got = ns;
    *min = (int)((n * (int)e->elem_size + SECTOR_BYTES - 1) / SECTOR_BYTES);
}

/* ---- events grouped by block, in linear time ---- */

static uint64_t block_key(const trace_event *e) { return (uint64_t)e->pass << 32 | e->block; }

/* Event indices ordered by (pass, block), each block's events in trace order: the identity when
 * the trace is already grouped (the emulator's), else a stable LSD radix sort on the 40-bit key
 * (GPU captures interleave blocks). O(events) either way. */
static uint32_t *order_by_block(const trace *t)
{
    size_t n = t->nevents;
    uint32_t *ord = malloc((n ? n : 1) * sizeof *ord);
    if (!ord) return NULL;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        ord[i] = (uint32_t)i;
        if (i && block_key(&t->events[i]) < block_key(&t->events[i - 1])) sorted = 0;
    }
    if (sorted) return ord;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    size_t *count = malloc(((size_t)1 << 16) * sizeof *count);
    if (!tmp || !count) { free(tmp); free(count); free(ord); return NULL; }
    for (int shift = 0; shift < 48; shift += 16) {
        memset(count, 0, ((size_t)1 << 16) * sizeof *count);
        for (size_t i = 0; i < n; i++) count[block_key(&t->events[ord[i]]) >> shift & 0xffff]++;
        size_t sum = 0;
        for (size_t d = 0; d < ((size_t)1 << 16); d++) { size_t c = count[d]; count[d] = sum; sum += c; }
        for (size_t i = 0; i < n; i++) tmp[count[block_key(&t->events[ord[i]]) >> shift & 0xffff]++] = ord[i];
        uint32_t *x = ord; ord = tmp; tmp = x;
    }
    free(tmp);
    free(count);
    return ord;
}

static unsigned threads_of(const trace *t, unsigned pass)
{
    return pass < t->npasses ? t->passes[pass].block : t->prov.block;
}

static void live_init(uint32_t live[WARPS_MAX], unsigned threads)
{
    for (unsigned w = 0; w < WARPS_MAX; w++) live[w] = trace_warp_lanes(threads, w);
}

static void event_facts(const trace *t, const trace_event *e, uint32_t live[WARPS_MAX], analysis_event *a)
{
    memset(a, 0, sizeof *a);
    a->live = live[e->warp % WARPS_MAX];
    if (trace_kind_is_instruction((trace_kind)e->kind)) a->divergent = (a->live & ~e->mask) != 0;
    if (is_shared(e->kind)) {
        analysis_bank banks[BANKS];
        a->bank_degree = analysis_banks(t, e, banks);
    }
    if (is_global(e->kind)) sectors(t, e, &a->sectors, &a->sectors_min);
    if (e->kind == TRACE_EXIT) live[e->warp % WARPS_MAX] &= ~e->mask;
}

int analysis_events(const trace *t, analysis_event *out)
{
    uint32_t *ord = order_by_block(t);
    if (!ord) return -1;
    uint32_t live[WARPS_MAX];
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[ord[i]];
        if (i == 0 || block_key(e) != block_key(&t->events[ord[i - 1]])) live_init(live, threads_of(t, e->pass));
        event_facts(t, e, live, &out[ord[i]]);
    }
    free(ord);
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
    a->lane_slots += b->lane_slots;
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
    c->simd_efficiency = c->lane_slots ? (double)c->active_lanes / (double)c->lane_slots : 0.0;
}

/* Scratch for one block's counters, reused from block to block. */
typedef struct block_scratch {
    unsigned *exit_phase; /* per thread: the phase it exited in (nphases: not within the trace) */
    unsigned char *seen;  /* per (thread, phase), one bit, where that is few bits for the events */
    size_t cap_seen;
    uint64_t *pairs;      /* (thread, phase) pairs that acted, thread * nphases + phase, once each */
    size_t cap_pairs;
    uint64_t *count;      /* per phase: threads exiting in it, then live threads that acted in it */
    size_t cap_count;
    analysis_counters *ph;
    size_t cap_ph;
    int ph_keep; /* the phases go to the caller */
} block_scratch;

static void scratch_free(block_scratch *s)
{
    free(s->exit_phase);
    free(s->seen);
    free(s->pairs);
    free(s->count);
    if (!s->ph_keep) free(s->ph);
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap) return 0;
    void *q = realloc(*p, n * size);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Counters of each phase of one block, from its events ev[0..n) (indices into t->events, in trace
 * order), in one pass over them. The work follows the events, not the block's declared size: a
 * file of one barrier at phase 4095 in each of 20,000 blocks of 1024 threads costs what its
 * 20,000 events cost. Phase counters land in s->ph. */
static int block_counters(const trace *t, const uint32_t *ev, size_t n, block_scratch *s, size_t *nphases,
                          analysis_counters *totals)
{
    unsigned pass = t->events[ev[0]].pass, threads = threads_of(t, pass);
    if (threads > 1024) threads = 1024;
    size_t nph = 0, lanes = 0;
    for (size_t i = 0; i < n; i++) {
        const trace_event *e = &t->events[ev[i]];
        if ((size_t)e->phase + 1 > nph) nph = (size_t)e->phase + 1;
        if (trace_kind_is_instruction((trace_kind)e->kind)) lanes += (size_t)trace_popcount(e->mask);
    }
    if (grow((void **)&s->ph, &s->cap_ph, nph, sizeof *s->ph) || grow((void **)&s->count, &s->cap_count, nph + 1, sizeof *s->count) ||
        grow((void **)&s->pairs, &s->cap_pairs, lanes + 1, sizeof *s->pairs))
        return -1;
    if (!s->exit_phase && !(s->exit_phase = malloc(1024 * sizeof *s->exit_phase))) return -1;
    /* a thread is active in a phase once however many accesses it makes (a GPU capture's events of
     * different phases may interleave): a bit per (thread, phase) where those bits are few for the
     * events, else the pairs sorted and made unique */
    size_t bits = (size_t)threads * nph, bytes = (bits + 7) / 8;
    int bitset = bits <= 64 * (lanes + 64);
    if (bitset) {
        if (grow((void **)&s->seen, &s->cap_seen, bytes, 1)) return -1;
        memset(s->seen, 0, bytes);
    }
    unsigned char *seen = s->seen;
    memset(s->ph, 0, nph * sizeof *s->ph);
    for (unsigned i = 0; i < threads; i++) s->exit_phase[i] = (unsigned)nph;
    size_t np = 0;
    uint32_t live[WARPS_MAX];
    live_init(live, threads);
    for (size_t i = 0; i < n; i++) {
        const trace_event *e = &t->events[ev[i]];
        analysis_event f;
        event_facts(t, e, live, &f);
        analysis_counters *c = &s->ph[e->phase];
        if (e->kind == TRACE_EXIT) {
            for (unsigned l = 0; l < WARP_SIZE; l++)
                if (e->mask >> l & 1 && e->warp * WARP_SIZE + l < threads) s->exit_phase[e->warp * WARP_SIZE + l] = e->phase;
            continue;
        }
        if (e->kind == TRACE_BARRIER) c->barriers++;
        if (!trace_kind_is_instruction((trace_kind)e->kind)) continue;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            unsigned tid = e->warp * WARP_SIZE + l;
            if (!(e->mask >> l & 1) || tid >= threads) continue;
            size_t bit = (size_t)tid * nph + e->phase;
            if (bitset) {
                if (seen[bit / 8] >> (bit % 8) & 1) continue;
                seen[bit / 8] |= (unsigned char)(1u << (bit % 8));
            }
            s->pairs[np++] = bit;
        }
        c->warp_instructions++;
        c->active_lanes += (uint64_t)trace_popcount(e->mask);
        c->lane_slots += (uint64_t)trace_popcount(trace_warp_lanes(threads, e->warp));
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
    if (!bitset) { /* once each */
        qsort(s->pairs, np, sizeof *s->pairs, by_value);
        size_t u = 0;
        for (size_t i = 0; i < np; i++)
            if (!u || s->pairs[i] != s->pairs[u - 1]) s->pairs[u++] = s->pairs[i];
        np = u;
    }
    /* idle: live in the phase (not exited before it) and no access in it. Live threads per phase
     * from how many exit in each; those that acted, from the pairs */
    uint64_t *count = s->count;
    memset(count, 0, (nph + 1) * sizeof *count);
    for (unsigned i = 0; i < threads; i++) count[s->exit_phase[i]]++;
    uint64_t gone = 0;
    for (size_t p = 0; p < nph; p++) { /* count[p] becomes the threads live in phase p */
        uint64_t exiting = count[p];
        count[p] = threads - gone;
        gone += exiting;
    }
    for (size_t i = 0; i < np; i++) {
        size_t tid = s->pairs[i] / nph, p = s->pairs[i] % nph;
        s->ph[p].active_threads++;
        if (s->exit_phase[tid] >= p) s->ph[p].idle_threads++; /* for now: live threads that acted */
    }
    memset(totals, 0, sizeof *totals);
    for (size_t p = 0; p < nph; p++) {
        analysis_counters *c = &s->ph[p];
        c->idle_threads = count[p] - c->idle_threads;
        finish(c);
        analysis_counters_add(totals, c);
    }
    finish(totals);
    *nphases = nph;
    return 0;
}

int analysis_phases(const trace *t, unsigned pass, unsigned block, analysis_counters **phases_out,
                    size_t *nphases_out, analysis_counters *totals)
{
    *phases_out = NULL;
    *nphases_out = 0;
    memset(totals, 0, sizeof *totals);
    size_t n = 0;
    for (size_t i = 0; i < t->nevents; i++) n += t->events[i].pass == pass && t->events[i].block == block;
    if (!n) return -1;
    uint32_t *ev = malloc(n * sizeof *ev);
    if (!ev) return -1;
    for (size_t i = 0, k = 0; i < t->nevents; i++)
        if (t->events[i].pass == pass && t->events[i].block == block) ev[k++] = (uint32_t)i;
    block_scratch s = {0};
    size_t nph = 0;
    int rc = block_counters(t, ev, n, &s, &nph, totals);
    free(ev);
    s.ph_keep = !rc;
    scratch_free(&s);
    if (rc) return -1;
    *phases_out = s.ph; /* exactly nph used; the caller frees */
    *nphases_out = nph;
    return 0;
}

int analysis_grid_build(const trace *t, analysis_grid *g)
{
    memset(g, 0, sizeof *g);
    g->order = order_by_block(t);
    g->npasses = t->npasses;
    g->pass_first = calloc(t->npasses + 1, sizeof *g->pass_first);
    if (!g->order || !g->pass_first) { analysis_grid_free(g); return -1; }
    size_t nb = 0;
    for (size_t i = 0; i < t->nevents; i++)
        nb += i == 0 || block_key(&t->events[g->order[i]]) != block_key(&t->events[g->order[i - 1]]);
    g->blocks = calloc(nb ? nb : 1, sizeof *g->blocks);
    if (!g->blocks) { analysis_grid_free(g); return -1; }
    block_scratch s = {0};
    for (size_t i = 0, j; i < t->nevents; i = j) {
        uint64_t key = block_key(&t->events[g->order[i]]);
        for (j = i + 1; j < t->nevents && block_key(&t->events[g->order[j]]) == key; j++) {}
        analysis_block *b = &g->blocks[g->nblocks++];
        const trace_event *e0 = &t->events[g->order[i]];
        b->pass = e0->pass;
        b->block = e0->block;
        b->first = i;
        b->count = j - i;
        b->sm = e0->sm;
        b->clock_first = b->clock_last = e0->clock;
        if (block_counters(t, g->order + i, j - i, &s, &b->nphases, &b->totals)) {
            scratch_free(&s);
            analysis_grid_free(g);
            return -1;
        }
        uint32_t exited = 0;
        unsigned threads = threads_of(t, b->pass);
        for (size_t k = i; k < j; k++) {
            const trace_event *e = &t->events[g->order[k]];
            if (e->clock < b->clock_first) b->clock_first = e->clock;
            if (e->clock > b->clock_last) b->clock_last = e->clock;
            if (e->kind == TRACE_EXIT) exited += (uint32_t)trace_popcount(e->mask);
            /* the partial sum: what thread 0 first stores to element `block` of global memory */
            if (e->kind == TRACE_GLOBAL_STORE && e->warp == 0 && (e->mask & 1) && !b->has_partial &&
                t->lane_addr[e->lanes] == (int64_t)b->block) {
                b->has_partial = 1;
                b->partial = trace_lane_value(t, e, 0, 0);
                b->partial_buf = e->buf;
            }
        }
        b->exited = exited >= threads;
    }
    scratch_free(&s);
    /* blocks are ordered by pass: pass_first[p] is the first of pass p */
    for (size_t p = 0, k = 0; p <= t->npasses; p++) {
        while (k < g->nblocks && g->blocks[k].pass < p) k++;
        g->pass_first[p] = k;
    }
    return 0;
}

void analysis_grid_free(analysis_grid *g)
{
    free(g->order);
    free(g->blocks);
    free(g->pass_first);
    memset(g, 0, sizeof *g);
}

const analysis_block *analysis_grid_find(const analysis_grid *g, unsigned pass, unsigned block)
{
    if (pass >= g->npasses) return NULL;
    size_t lo = g->pass_first[pass], hi = g->pass_first[pass + 1];
    while (lo < hi) { /* blocks of a pass are in block order */
        size_t mid = lo + (hi - lo) / 2;
        if (g->blocks[mid].block < block) lo = mid + 1;
        else hi = mid;
    }
    return lo < g->pass_first[pass + 1] && g->blocks[lo].block == block ? &g->blocks[lo] : NULL;
}

int analysis_grid_totals(const analysis_grid *g, unsigned pass, analysis_counters *sum)
{
    memset(sum, 0, sizeof *sum);
    if (pass >= g->npasses) return 0;
    for (size_t k = g->pass_first[pass]; k < g->pass_first[pass + 1]; k++) analysis_counters_add(sum, &g->blocks[k].totals);
    return (int)(g->pass_first[pass + 1] - g->pass_first[pass]);
}

analysis_block_state analysis_block_state_at(const trace *t, const analysis_grid *g, const analysis_block *b, size_t cursor)
{
    /* how many of the block's events come at or before the cursor (they are in trace order) */
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->order[b->first + mid] <= cursor) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return ANALYSIS_BLOCK_WAITING;
    if (lo == b->count) return b->exited ? ANALYSIS_BLOCK_DONE : ANALYSIS_BLOCK_RUNNING;
    const trace_event *last = &t->events[g->order[b->first + lo - 1]];
    return last->kind == TRACE_BARRIER ? ANALYSIS_BLOCK_AT_BARRIER : ANALYSIS_BLOCK_RUNNING;
}

int analysis_tree(const trace *t, unsigned pass, unsigned block, analysis_edge **edges, size_t *nedges)
{
    *edges = NULL;
    *nedges = 0;
    unsigned threads = pass < t->npasses ? t->passes[pass].block : t->prov.block;
    /* per thread, the last loads since its last store in the same memory, and where that store went */
    enum { KEEP = 4 };
    typedef struct { int n; int buf[KEEP]; int64_t addr[KEEP]; int last_buf; int64_t last; } loads;
    loads *ld = calloc(threads, sizeof *ld);
    if (!ld) return -1;
    for (unsigned k = 0; k < threads; k++) ld[k].last = -1;
    size_t cap = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block) continue;
        int load = e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_GLOBAL_LOAD;
        int store = e->kind == TRACE_SHARED_STORE || e->kind == TRACE_GLOBAL_STORE;
        if (!load && !store) continue;
        int buf = is_global(e->kind) ? e->buf : -1;
        int k = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1)) continue;
            unsigned tid = e->warp * WARP_SIZE + l;
            int64_t a = t->lane_addr[e->lanes + (size_t)k++];
            if (tid >= threads) continue;
            loads *L = &ld[tid];
            if (load) {
                if (L->n == KEEP) { memmove(L->buf, L->buf + 1, (KEEP - 1) * sizeof *L->buf); memmove(L->addr, L->addr + 1, (KEEP - 1) * sizeof *L->addr); L->n--; }
                L->buf[L->n] = buf;
                L->addr[L->n++] = a;
                continue;
            }
            /* a store into a cell this thread also read, or into the cell it stored last (a sum kept in
             * a register between, as v4s's last warp keeps v): every other cell it read was added in */
            int read_self = L->last == a && L->last_buf == buf;
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
            L->last = a;
            L->last_buf = buf;
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
        unsigned span = trace_event_words(e);
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++) {
            size_t end = (size_t)t->lane_addr[e->lanes + (size_t)j] + span;
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
            cells[w] = trace_lane_value(t, e, (size_t)j, 0);
            written[w] = 1;
        }
    }
}
