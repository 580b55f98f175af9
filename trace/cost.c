/* cost: adds, the longest chain of them and the recorded instructions (see cost.h for the rules). */
#include "trace/cost.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPS_MAX = 64, /* operands a thread may hold between writes: v8's tile is 16 values (four float4s) */
    THREAD_BITS = 10, /* a thread within its block: under TRACE_BLOCK_THREADS_MAX (1024) */
    BLOCK_BITS = 32
};

/* ---- a map from a 64-bit key to a slot, open addressing ---- */

typedef struct map {
    uint64_t *keys; /* key + 1; 0 = empty */
    void *vals;
    size_t size, used, vsize;
} map;

static int map_init(map *m, size_t vsize)
{
    m->size = 1024;
    m->used = 0;
    m->vsize = vsize;
    m->keys = calloc(m->size, sizeof *m->keys);
    m->vals = calloc(m->size, vsize);
    return m->keys && m->vals ? 0 : -1;
}

static void map_free(map *m)
{
    free(m->keys);
    free(m->vals);
}

static size_t map_slot(const map *m, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 20) & (m->size - 1);
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
        map n = {calloc(m->size * 2, sizeof *m->keys), calloc(m->size * 2, m->vsize), m->size * 2, 0, m->vsize};
        if (!n.keys || !n.vals) { map_free(&n); return NULL; }
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
    int nops, nshuffles;
    operand ops[OPS_MAX];
} thread_state;

static uint64_t thread_key(unsigned pass, unsigned block, unsigned tid)
{
    return (uint64_t)pass << (BLOCK_BITS + THREAD_BITS) | (uint64_t)block << THREAD_BITS | tid;
}

/* a cell's key: shared words per block, global elements per buffer */
static uint64_t cell_key(const trace_event *e, int64_t addr)
{
    if (e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_SHARED_STORE)
        return 1ull << 63 | (uint64_t)e->pass << 56 | (uint64_t)e->block << 20 | (uint64_t)addr;
    return (uint64_t)e->buf << 48 | (uint64_t)addr;
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
        for (int pass = 0; pass < 2; pass++) {
            int reg = (pass == 0) == with_reg_first;
            if (reg && !s->has_reg) continue;
            double want = sum + (reg ? s->reg : 0.0), sc = scale + (reg ? fabs(s->reg) : 0.0);
            if (!near(v, want, sc, k + reg)) continue;
            *adds += (uint64_t)(k - 1 + reg);
            /* the loads as a balanced tree, then into the register; shuffles one after another */
            unsigned d = dmax + ceil_log2(k);
            if (reg) d = (s->reg_depth > d ? s->reg_depth : d) + 1;
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
    map threads, cells, blocks;
    int rc = -1;
    memset(&threads, 0, sizeof threads);
    memset(&cells, 0, sizeof cells);
    memset(&blocks, 0, sizeof blocks);
    unsigned char written[TRACE_BUFFERS_MAX];
    memset(written, 0, sizeof written);
    if (map_init(&threads, sizeof(thread_state)) || map_init(&cells, sizeof(unsigned)) ||
        map_init(&blocks, 1))
        goto done;
    /* the input: global buffers no event stores to */
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if ((e->kind == TRACE_GLOBAL_STORE || e->kind == TRACE_GLOBAL_ATOMIC) && e->buf < TRACE_BUFFERS_MAX) written[e->buf] = 1;
    }
    unsigned steps = 0;
    unsigned pass_base[TRACE_PASSES_MAX]; /* a pass's chains start from the deepest of the passes before */
    memset(pass_base, 0, sizeof pass_base);
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass < TRACE_PASSES_MAX && e->pass > 0 && !pass_base[e->pass]) pass_base[e->pass] = steps;
        if (!map_find(&blocks, (uint64_t)e->pass << 32 | e->block)) {
            if (!map_get(&blocks, (uint64_t)e->pass << 32 | e->block)) goto done;
            out->blocks_traced++;
            if (e->pass < TRACE_PASSES_MAX) out->pass_blocks_traced[e->pass]++;
        }
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
                const thread_state *ss = map_find(&threads, thread_key(e->pass, e->block, stid));
                src_depth[l] = !ss ? 0 : ss->nshuffles ? ss->run_depth : ss->reg_depth;
            }
        }
        if (e->kind == TRACE_BARRIER) out->instructions += (uint64_t)trace_popcount(e->mask);
        if (!trace_kind_has_data((trace_kind)e->kind)) continue;
        size_t k = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            size_t lane = k++;
            int64_t addr = t->lane_addr[e->lanes + lane];
            unsigned tid = e->warp * WARP_SIZE + l;
            thread_state *s = map_get(&threads, thread_key(e->pass, e->block, tid));
            if (!s) goto done;
            out->instructions += e->kind != TRACE_REGISTER; /* a register value is the add's, counted below */
            if (is_load(e->kind)) {
                int input = e->kind == TRACE_GLOBAL_LOAD && e->buf < TRACE_BUFFERS_MAX && !written[e->buf];
                for (unsigned c = 0; c < width; c++) {
                    const unsigned *d = input ? NULL : map_find(&cells, cell_key(e, addr + (int64_t)c));
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
                    if (e->kind == TRACE_REGISTER) {
                        s->has_reg = 1;
                        s->reg = v;
                        s->reg_depth = depth;
                    } else {
                        unsigned *d = map_get(&cells, cell_key(e, addr + (int64_t)c));
                        if (!d) goto done;
                        *d = depth;
                    }
                }
            } else {
                s->nops = s->nshuffles = 0; /* an atomic: its operation is not recorded */
            }
        }
    }
    out->steps = steps;
    for (size_t p = 0; p < t->npasses; p++) out->blocks += t->passes[p].grid;
    out->complete = out->blocks_traced >= out->blocks;
    if (out->elements) {
        out->instructions_per_element = (double)out->instructions / (double)out->elements;
        out->adds_per_element = (double)out->adds / (double)out->elements;
    }
    rc = 0;
done:
    map_free(&threads);
    map_free(&cells);
    map_free(&blocks);
    return rc;
}
