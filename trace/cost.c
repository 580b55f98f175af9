/* cost: adds, the longest chain of them and the recorded instructions (see cost.h for the rules). */
#include "trace/cost.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPS_MAX = 64 /* operands a thread may hold between writes: v8's tile is 16 values (four float4s) */
};

/* ---- the bytes the count holds (cost_figures.scratch_bytes): what it asked the allocator for ---- */

typedef struct scratch {
    uint64_t held, peak;
} scratch;

static void scratch_add(scratch *s, size_t bytes)
{
    s->held += bytes;
    if (s->held > s->peak) s->peak = s->held;
}

/* ---- a map from a 64-bit key to a slot, open addressing ---- */

typedef struct map {
    uint64_t *keys; /* key + 1; 0 = empty */
    void *vals;
    size_t size, used, vsize;
    unsigned bits; /* size = 2^bits */
    scratch *sc;
} map;

/* size: a power of two, at least 2 */
static int map_init(map *m, size_t vsize, size_t size, scratch *sc)
{
    m->sc = sc;
    m->size = size;
    m->bits = 0;
    while (((size_t)1 << m->bits) < size) m->bits++;
    m->used = 0;
    m->vsize = vsize;
    m->keys = calloc(m->size, sizeof *m->keys);
    m->vals = calloc(m->size, vsize);
    if (!m->keys || !m->vals) return -1;
    scratch_add(sc, m->size * (sizeof *m->keys + vsize));
    return 0;
}

static void map_free(map *m)
{
    if (m->keys && m->vals) m->sc->held -= m->size * (sizeof *m->keys + m->vsize);
    free(m->keys);
    free(m->vals);
}

/* Empties the map and keeps its room: a block's shared words, reused by the next block. */
static void map_clear(map *m)
{
    if (m->used) memset(m->keys, 0, m->size * sizeof *m->keys);
    m->used = 0;
}

/* Fibonacci hashing: the slot is the product's top bits, which every bit of the key reaches (the
 * product's middle bits, taken before, never saw a key's high bits: a pass, a buffer, so the same
 * thread or element of two passes or buffers always met in one probe chain). */
static size_t map_slot(const map *m, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> (64 - m->bits));
    while (m->keys[i] && m->keys[i] != key + 1) i = (i + 1) & (m->size - 1);
    return i;
}

/* The value of key, or NULL when absent */
static void *map_find(const map *m, uint64_t key)
{
    size_t i = map_slot(m, key);
    return m->keys[i] ? (char *)m->vals + i * m->vsize : NULL;
}

/* The value of key, zero-filled when new; NULL when out of memory */
static void *map_get(map *m, uint64_t key)
{
    if ((m->used + 1) * 2 > m->size) {
        map n;
        if (map_init(&n, m->vsize, m->size * 2, m->sc)) { map_free(&n); return NULL; }
        for (size_t i = 0; i < m->size; i++) {
            if (!m->keys[i]) continue;
            size_t j = map_slot(&n, m->keys[i] - 1);
            n.keys[j] = m->keys[i];
            memcpy((char *)n.vals + j * n.vsize, (char *)m->vals + i * m->vsize, m->vsize);
            n.used++;
        }
        map_free(m);
        *m = n;
    }
    size_t i = map_slot(m, key);
    if (!m->keys[i]) {
        m->keys[i] = key + 1;
        m->used++;
        memset((char *)m->vals + i * m->vsize, 0, m->vsize); /* a cleared map's slot keeps an old value */
    }
    return (char *)m->vals + i * m->vsize;
}

/* ---- per thread: its register, and the operands it holds ---- */

typedef struct operand {
    float value;
    unsigned depth;
    int shuffle;
} operand;

typedef struct thread_state {
    int has_reg;
    float reg;
    unsigned reg_depth;
    unsigned run_depth; /* the value being shuffled: the register plus the shuffles received so far */
    int has_last;       /* the value of its last write (a store or the register), and its depth: a */
    float last;         /* local it keeps adding into and storing, never loading back (v4s's v) */
    unsigned last_depth;
    int nops, nshuffles;
    operand ops[OPS_MAX];
} thread_state;

/* a cell's key: a shared word in its block's own map, a global element of a buffer in the grid's */
static uint64_t cell_key(const trace_event *e, int64_t addr)
{
    if (e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_SHARED_STORE) return (uint64_t)addr;
    return (uint64_t)e->buf << 48 | (uint64_t)addr;
}

/* ---- per block: its threads and its shared words, held from its first event to its last ----
 *
 * A thread's state and a shared word belong to one block of one pass, so they are needed only while
 * that block's events last. Kept for every block of the grid (as they were), they cost about 800
 * bytes a thread: 3 GB and more for a 2^20-element grid traced whole. The emulator writes a block's
 * events together, so one block lives at a time; a GPU capture interleaves the blocks that run at
 * once, and those live together. A finished block's room goes to the next. */
typedef struct block_state {
    thread_state *threads;
    size_t cap; /* threads allocated */
    map shared; /* word -> depth (unsigned) */
    scratch *sc;
    struct block_state *next_free;
} block_state;

typedef struct block_info {
    size_t last;     /* the block's last event */
    unsigned warps;  /* 1 + the highest warp of its events */
    block_state *st; /* while live */
} block_info;

static void block_state_free(block_state *b)
{
    while (b) {
        block_state *n = b->next_free;
        b->sc->held -= sizeof *b + b->cap * sizeof *b->threads;
        free(b->threads);
        map_free(&b->shared);
        free(b);
        b = n;
    }
}

/* A state for a block of `warps` warps: a freed one when there is one. NULL when out of memory. */
static block_state *block_state_take(block_state **pool, unsigned warps, scratch *sc)
{
    block_state *b = *pool;
    if (b) *pool = b->next_free;
    else {
        if (!(b = calloc(1, sizeof *b))) return NULL;
        b->sc = sc;
        scratch_add(sc, sizeof *b);
        if (map_init(&b->shared, sizeof(unsigned), 64, sc)) { block_state_free(b); return NULL; }
    }
    b->next_free = NULL;
    size_t n = (size_t)warps * WARP_SIZE;
    if (n > b->cap) {
        thread_state *x = realloc(b->threads, n * sizeof *x);
        if (!x) { block_state_free(b); return NULL; }
        scratch_add(sc, (n - b->cap) * sizeof *x);
        b->threads = x;
        b->cap = n;
    }
    /* a thread starts with no register and no operands; its operands' slots are written before read */
    for (size_t i = 0; i < n; i++) memset(&b->threads[i], 0, offsetof(thread_state, ops));
    return b;
}

static void block_state_give(block_state **pool, block_state *b)
{
    map_clear(&b->shared);
    b->next_free = *pool;
    *pool = b;
}

static unsigned ceil_log2(int k)
{
    unsigned d = 0;
    while ((1 << d) < k) d++;
    return d;
}

static int near(double got, double want, double scale, int terms)
{
    return fabs(got - want) <= (double)FLT_EPSILON * (terms + 1) * scale + 1e-30;
}

/* A write of value v by thread s: which of its operands were added into it (the latest ones), with
 * the register's old value or not. Sets *adds and *depth; clears the operands. */
static void consume(thread_state *s, float v, int is_register, uint64_t *adds, unsigned *depth)
{
    int with_reg_first = is_register; /* sum += ...: a register write takes its old value first */
    for (int k = s->nops; k >= 1; k--) {
        const operand *o = &s->ops[s->nops - k];
        double sum = 0, scale = 0;
        unsigned dmax = 0;
        int nsh = 0;
        for (int j = 0; j < k; j++) {
            sum += o[j].value;
            scale += fabs(o[j].value);
            if (o[j].depth > dmax) dmax = o[j].depth;
            nsh += o[j].shuffle;
        }
        for (int pass = 0; pass < 3; pass++) {
            /* without the register and with it (in the order the write's kind makes likelier), then
             * with the thread's last written value: `v += sdata[tid + offset]; sdata[tid] = v;` */
            int reg = pass < 2 && (pass == 0) == with_reg_first, last = pass == 2;
            if ((reg && !s->has_reg) || (last && !s->has_last)) continue;
            float held = reg ? s->reg : s->last;
            unsigned held_depth = reg ? s->reg_depth : s->last_depth;
            int with = reg || last;
            double want = sum + (with ? held : 0.0), sc = scale + (with ? fabs(held) : 0.0);
            if (!near(v, want, sc, k + with)) continue;
            *adds += (uint64_t)(k - 1 + with);
            /* the loads as a balanced tree, then into the register; shuffles one after another */
            unsigned d = dmax + ceil_log2(k);
            if (with) d = (held_depth > d ? held_depth : d) + 1;
            if (nsh && s->run_depth > d) d = s->run_depth;
            *depth = d;
            s->nops = s->nshuffles = 0;
            return;
        }
    }
    /* no operand sums to it: a copy of the register, or a constant */
    *depth = s->has_reg && near(v, s->reg, fabs(s->reg), 1) ? s->reg_depth : 0;
    s->nops = s->nshuffles = 0;
}

static void push(thread_state *s, float value, unsigned depth, int shuffle)
{
    if (s->nops == OPS_MAX) {
        memmove(s->ops, s->ops + 1, (OPS_MAX - 1) * sizeof *s->ops);
        s->nops--;
    }
    s->ops[s->nops++] = (operand){value, depth, shuffle};
}

static int is_load(int k) { return k == TRACE_SHARED_LOAD || k == TRACE_GLOBAL_LOAD; }
static int is_store(int k) { return k == TRACE_SHARED_STORE || k == TRACE_GLOBAL_STORE; }

int cost_compute(const trace *t, cost_figures *out)
{
    memset(out, 0, sizeof *out);
    map cells, blocks;
    block_state *pool = NULL;
    scratch sc = {0, 0};
    int rc = -1;
    memset(&cells, 0, sizeof cells);
    memset(&blocks, 0, sizeof blocks);
    unsigned char written[TRACE_BUFFERS_MAX];
    memset(written, 0, sizeof written);
    if (map_init(&cells, sizeof(unsigned), 1024, &sc) || map_init(&blocks, sizeof(block_info), 1024, &sc)) goto done;
    /* the input: global buffers no event stores to; each block's last event and its warps */
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if ((e->kind == TRACE_GLOBAL_STORE || e->kind == TRACE_GLOBAL_ATOMIC) && e->buf < TRACE_BUFFERS_MAX) written[e->buf] = 1;
        if (trace_event_other_register(t, e)) continue; /* the cost reads the watched register, as it always did */
        uint64_t key = (uint64_t)e->pass << 32 | e->block;
        block_info *b = map_find(&blocks, key);
        if (!b) {
            if (!(b = map_get(&blocks, key))) goto done;
            out->blocks_traced++;
            if (e->pass < TRACE_PASSES_MAX) out->pass_blocks_traced[e->pass]++;
        }
        b->last = i;
        if ((unsigned)e->warp + 1 > b->warps) b->warps = (unsigned)e->warp + 1;
    }
    unsigned steps = 0;
    unsigned pass_base[TRACE_PASSES_MAX]; /* a pass's chains start from the deepest of the passes before */
    memset(pass_base, 0, sizeof pass_base);
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (trace_event_other_register(t, e)) continue;
        if (e->pass < TRACE_PASSES_MAX && e->pass > 0 && !pass_base[e->pass]) pass_base[e->pass] = steps;
        block_info *bi = map_find(&blocks, (uint64_t)e->pass << 32 | e->block);
        if (!bi->st && !(bi->st = block_state_take(&pool, bi->warps, &sc))) goto done;
        block_state *bs = bi->st;
        unsigned width = trace_event_width(e);
        int shuffle = e->kind == TRACE_SHUFFLE;
        /* a shuffle reads the source lanes as they were before any lane of it adds */
        unsigned src_depth[WARP_SIZE];
        if (shuffle) {
            size_t k = 0;
            for (unsigned l = 0; l < WARP_SIZE; l++) {
                if (!(e->mask >> l & 1u)) continue;
                int64_t src = t->lane_addr[e->lanes + k++];
                unsigned stid = e->warp * WARP_SIZE + (unsigned)(src & (WARP_SIZE - 1));
                const thread_state *ss = &bs->threads[stid];
                src_depth[l] = ss->nshuffles ? ss->run_depth : ss->reg_depth;
            }
        }
        if (e->kind == TRACE_BARRIER) out->instructions += (uint64_t)trace_popcount(e->mask);
        if (trace_kind_has_data((trace_kind)e->kind)) {
            int shared = e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_SHARED_STORE;
            map *cm = shared ? &bs->shared : &cells;
            size_t k = 0;
            for (unsigned l = 0; l < WARP_SIZE; l++) {
                if (!(e->mask >> l & 1u)) continue;
                size_t lane = k++;
                int64_t addr = t->lane_addr[e->lanes + lane];
                thread_state *s = &bs->threads[e->warp * WARP_SIZE + l];
                out->instructions += e->kind != TRACE_REGISTER; /* a register value is the add's, counted below */
                if (is_load(e->kind)) {
                    int input = e->kind == TRACE_GLOBAL_LOAD && e->buf < TRACE_BUFFERS_MAX && !written[e->buf];
                    for (unsigned c = 0; c < width; c++) {
                        const unsigned *d = input ? NULL : map_find(cm, cell_key(e, addr + (int64_t)c));
                        push(s, trace_lane_value(t, e, lane, c), d ? *d : 0, 0);
                    }
                    if (input && e->pass == 0) out->elements += width;
                } else if (shuffle) {
                    unsigned mine = s->nshuffles ? s->run_depth : s->reg_depth;
                    push(s, trace_lane_value(t, e, lane, 0), src_depth[l], 1);
                    s->run_depth = (mine > src_depth[l] ? mine : src_depth[l]) + 1;
                    s->nshuffles++;
                } else if (is_store(e->kind) || e->kind == TRACE_REGISTER) {
                    for (unsigned c = 0; c < width; c++) {
                        uint64_t adds = 0;
                        unsigned depth = 0;
                        float v = trace_lane_value(t, e, lane, c);
                        consume(s, v, e->kind == TRACE_REGISTER, &adds, &depth);
                        out->adds += adds;
                        out->instructions += adds;
                        if (depth > steps) steps = depth;
                        if (e->pass < TRACE_PASSES_MAX) {
                            out->pass_adds[e->pass] += adds;
                            unsigned own = depth > pass_base[e->pass] ? depth - pass_base[e->pass] : 0;
                            if (own > out->pass_steps[e->pass]) out->pass_steps[e->pass] = own;
                        }
                        s->has_last = 1;
                        s->last = v;
                        s->last_depth = depth;
                        if (e->kind == TRACE_REGISTER) {
                            s->has_reg = 1;
                            s->reg = v;
                            s->reg_depth = depth;
                        } else {
                            unsigned *d = map_get(cm, cell_key(e, addr + (int64_t)c));
                            if (!d) goto done;
                            *d = depth;
                        }
                    }
                } else {
                    s->nops = s->nshuffles = 0; /* an atomic: its operation is not recorded */
                }
            }
        }
        if (bi->last == i) { /* the block's last event: its threads and shared words are done with */
            block_state_give(&pool, bs);
            bi->st = NULL;
        }
    }
    out->steps = steps;
    for (size_t p = 0; p < t->npasses; p++) out->blocks += t->passes[p].grid;
    out->complete = out->blocks_traced >= out->blocks;
    if (out->elements) {
        out->instructions_per_element = (double)out->instructions / (double)out->elements;
        out->adds_per_element = (double)out->adds / (double)out->elements;
    }
    out->scratch_bytes = sc.peak;
    rc = 0;
done:
    if (rc) /* blocks still live when a step failed */
        for (size_t i = 0; i < blocks.size && blocks.keys; i++) {
            block_info *b = (block_info *)blocks.vals + i;
            if (blocks.keys[i] && b->st) block_state_give(&pool, b->st);
        }
    block_state_free(pool);
    map_free(&cells);
    map_free(&blocks);
    return rc;
}
