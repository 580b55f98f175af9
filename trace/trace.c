/* trace: storage of the event log. The lanes' addresses and values live in two flat arrays so
 * that a 1024-thread capture is a few allocations, not one per event. */
#include "trace.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *label;
    int data, instr;
} kind_info[TRACE_KIND_COUNT] = {
#define TRACE_X_INFO(name, label, data, instr) {label, data, instr},
    TRACE_KINDS(TRACE_X_INFO)
#undef TRACE_X_INFO
};

const char *trace_kind_label(trace_kind kind)
{
    return (unsigned)kind < TRACE_KIND_COUNT ? kind_info[kind].label : "?";
}

int trace_kind_from_label(const char *label)
{
    for (int k = 0; k < TRACE_KIND_COUNT; k++)
        if (strcmp(kind_info[k].label, label) == 0) return k;
    return -1;
}

int trace_kind_has_data(trace_kind kind) { return (unsigned)kind < TRACE_KIND_COUNT && kind_info[kind].data; }
int trace_kind_is_instruction(trace_kind kind) { return (unsigned)kind < TRACE_KIND_COUNT && kind_info[kind].instr; }

unsigned trace_event_width(const trace_event *e)
{
    return e->elem_size > 4 ? e->elem_size / 4u : 1u;
}

int trace_popcount(uint32_t mask) { return __builtin_popcount(mask); }

void trace_init(trace *t) { memset(t, 0, sizeof *t); }

void trace_free(trace *t)
{
    free(t->passes);
    free(t->buffers);
    free(t->events);
    free(t->lane_addr);
    free(t->lane_val);
    trace_init(t);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

/* lane_addr and lane_val grow together: room for `need` lanes */
static int grow_lanes(trace *t, size_t need)
{
    if (need <= t->cap_lanes) return 0;
    size_t nc = t->cap_lanes ? t->cap_lanes : 1024;
    while (nc < need) nc *= 2;
    int64_t *a = realloc(t->lane_addr, nc * sizeof *a);
    if (!a) return -1;
    t->lane_addr = a;
    float *v = realloc(t->lane_val, nc * 4 * sizeof *v);
    if (!v) return -1;
    t->lane_val = v;
    t->cap_lanes = nc;
    return 0;
}

int trace_push(trace *t, const trace_event *e, const int64_t *addr, const float *val)
{
    if (grow((void **)&t->events, &t->cap_events, t->nevents + 1, sizeof *t->events)) return -1;
    trace_event ev = *e;
    ev.lanes = (uint32_t)t->nlanes;
    if (trace_kind_has_data((trace_kind)e->kind)) {
        size_t n = (size_t)trace_popcount(e->mask), w = trace_event_width(e);
        if (t->nlanes + n > UINT32_MAX) return -1; /* event.lanes is a 32-bit index */
        if (grow_lanes(t, t->nlanes + n)) return -1;
        memcpy(t->lane_addr + t->nlanes, addr, n * sizeof *addr);
        /* values keep a fixed stride of 4 per lane, so lane i of an event has its values at
         * lane_val[(lanes + i) * 4 + j] whatever the event's width */
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < 4; j++)
                t->lane_val[(t->nlanes + i) * 4 + j] = j < w ? val[i * w + j] : 0.0f;
        t->nlanes += n;
    }
    t->events[t->nevents++] = ev;
    return 0;
}

int trace_append(trace *t, const trace *src)
{
    if (!src->nevents) return 0;
    if (grow((void **)&t->events, &t->cap_events, t->nevents + src->nevents, sizeof *t->events)) return -1;
    if (grow_lanes(t, t->nlanes + src->nlanes)) return -1;
    for (size_t i = 0; i < src->nevents; i++) {
        trace_event ev = src->events[i];
        ev.lanes = (uint32_t)(ev.lanes + t->nlanes);
        t->events[t->nevents + i] = ev;
    }
    if (src->nlanes) {
        memcpy(t->lane_addr + t->nlanes, src->lane_addr, src->nlanes * sizeof *t->lane_addr);
        memcpy(t->lane_val + t->nlanes * 4, src->lane_val, src->nlanes * 4 * sizeof *t->lane_val);
    }
    t->nevents += src->nevents;
    t->nlanes += src->nlanes;
    return 0;
}

int trace_add_pass(trace *t, trace_pass p)
{
    trace_pass *q = realloc(t->passes, (t->npasses + 1) * sizeof *q);
    if (!q) return -1;
    t->passes = q;
    t->passes[t->npasses++] = p;
    return 0;
}

int trace_add_buffer(trace *t, const char *name, unsigned pass)
{
    trace_buffer *q = realloc(t->buffers, (t->nbuffers + 1) * sizeof *q);
    if (!q) return -1;
    t->buffers = q;
    trace_buffer *b = &t->buffers[t->nbuffers++];
    memset(b, 0, sizeof *b);
    strncpy(b->name, name, sizeof b->name - 1);
    b->pass = (uint8_t)pass;
    return 0;
}

int trace_result_ok(const trace *t)
{
    if (!(t->tolerance > 0)) return -1;
    double d = (double)t->result - t->reference;
    return d <= t->tolerance && d >= -t->tolerance; /* false for a NaN result too */
}

int trace_equal(const trace *a, const trace *b)
{
    if (memcmp(&a->prov, &b->prov, sizeof a->prov) != 0) return 0;
    if (memcmp(&a->result, &b->result, sizeof a->result) != 0) return 0;
    if (memcmp(&a->reference, &b->reference, sizeof a->reference) != 0) return 0;
    if (memcmp(&a->tolerance, &b->tolerance, sizeof a->tolerance) != 0) return 0;
    if (a->npasses != b->npasses || a->nbuffers != b->nbuffers || a->nevents != b->nevents ||
        a->nlanes != b->nlanes)
        return 0;
    for (size_t i = 0; i < a->npasses; i++) { /* field by field: the struct has padding */
        const trace_pass *p = &a->passes[i], *q = &b->passes[i];
        if (p->grid != q->grid || p->block != q->block || p->stride != q->stride || p->n_in != q->n_in) return 0;
    }
    if (a->nbuffers && memcmp(a->buffers, b->buffers, a->nbuffers * sizeof *a->buffers)) return 0;
    for (size_t i = 0; i < a->nevents; i++) { /* field by field: the struct has padding */
        const trace_event *p = &a->events[i], *q = &b->events[i];
        if (p->kind != q->kind || p->elem_size != q->elem_size || p->buf != q->buf || p->pass != q->pass ||
            p->warp != q->warp || p->phase != q->phase || p->block != q->block || p->line != q->line ||
            p->mask != q->mask || p->lanes != q->lanes || p->sm != q->sm || p->clock != q->clock)
            return 0;
    }
    if (a->nlanes && memcmp(a->lane_addr, b->lane_addr, a->nlanes * sizeof *a->lane_addr)) return 0;
    if (a->nlanes && memcmp(a->lane_val, b->lane_val, a->nlanes * 4 * sizeof *a->lane_val)) return 0;
    return 1;
}

/* ---- the check at the door ---- */

static int is_global_kind(unsigned k) { return k == TRACE_GLOBAL_LOAD || k == TRACE_GLOBAL_STORE || k == TRACE_GLOBAL_ATOMIC; }

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int trace_check(const trace *t, char *err, size_t errlen)
{
    const trace_provenance *p = &t->prov;
    if (p->block < TRACE_WARP_SIZE || p->block > TRACE_BLOCK_THREADS_MAX || p->block % TRACE_WARP_SIZE)
        FAIL("provenance.block: %u is not a whole number of warps from %d to %d", p->block, TRACE_WARP_SIZE, TRACE_BLOCK_THREADS_MAX);
    if (p->blocks_traced < 1 || p->blocks_traced > TRACE_BLOCKS_TRACED_MAX)
        FAIL("provenance.blocks_traced: %u is not from 1 to %d", p->blocks_traced, TRACE_BLOCKS_TRACED_MAX);
    if (p->n < 1 || p->n > TRACE_GLOBAL_ELEMS_MAX) FAIL("provenance.n: %" PRIu64 " is not from 1 to 2^40", p->n);
    if (!(fabsf(t->result) <= FLT_MAX)) FAIL("result: not a finite number");
    if (!(fabs(t->reference) <= DBL_MAX)) FAIL("reference: not a finite number");
    if (!(t->tolerance >= 0 && t->tolerance <= DBL_MAX)) FAIL("tolerance: not a finite number of at least 0");
    if (t->npasses < 1 || t->npasses > TRACE_PASSES_MAX) FAIL("passes: %zu passes, expected 1 to %d", t->npasses, TRACE_PASSES_MAX);
    for (size_t i = 0; i < t->npasses; i++) {
        const trace_pass *q = &t->passes[i];
        if (q->grid < 1) FAIL("passes[%zu].grid: expected at least 1 block", i);
        /* the analysis counts threads warp by warp */
        if (q->block < TRACE_WARP_SIZE || q->block > TRACE_BLOCK_THREADS_MAX || q->block % TRACE_WARP_SIZE)
            FAIL("passes[%zu].block: %u is not a whole number of warps from %d to %d", i, q->block, TRACE_WARP_SIZE, TRACE_BLOCK_THREADS_MAX);
        if (q->n_in > TRACE_GLOBAL_ELEMS_MAX) FAIL("passes[%zu].n_in: more than 2^40", i);
    }
    if (t->nbuffers > TRACE_BUFFERS_MAX) FAIL("buffers: %zu buffers, expected at most %d", t->nbuffers, TRACE_BUFFERS_MAX);
    for (size_t i = 0; i < t->nbuffers; i++)
        if (t->buffers[i].pass >= t->npasses) FAIL("buffers[%zu].pass: %u, but the trace has %zu passes", i, t->buffers[i].pass, t->npasses);
    if (t->nevents > TRACE_EVENTS_MAX) FAIL("events: %zu events, more than %zu", t->nevents, TRACE_EVENTS_MAX);
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind >= TRACE_KIND_COUNT) FAIL("events[%zu].k: unknown event kind %u", i, e->kind);
        if (e->pass >= t->npasses) FAIL("events[%zu].p: pass %u, but the trace has %zu passes", i, e->pass, t->npasses);
        const trace_pass *q = &t->passes[e->pass];
        /* the emulator and the GPU capture both record blocks 0 .. blocks_traced-1 of each pass */
        uint32_t traced = q->grid < p->blocks_traced ? q->grid : p->blocks_traced;
        if (e->block >= traced) FAIL("events[%zu].b: block %u is not one of the %u traced blocks of pass %u", i, e->block, traced, e->pass);
        if (e->warp >= q->block / TRACE_WARP_SIZE) FAIL("events[%zu].w: warp %u is outside a block of %u threads", i, e->warp, q->block);
        if (e->phase >= TRACE_PHASES_MAX) FAIL("events[%zu].ph: phase %u, more than %d", i, e->phase, TRACE_PHASES_MAX - 1);
        if (e->line > TRACE_LINE_MAX) FAIL("events[%zu].l: line %u, more than %d", i, e->line, TRACE_LINE_MAX);
        if (!trace_kind_has_data((trace_kind)e->kind)) continue;
        if (e->mask == 0) FAIL("events[%zu].m: a data event needs at least one lane", i);
        unsigned z = e->elem_size, w = trace_event_width(e);
        if (z != 1 && z != 2 && z != 4 && z != 8 && z != 16) FAIL("events[%zu].z: element size %u, expected 1, 2, 4, 8 or 16 bytes", i, z);
        if (is_global_kind(e->kind) && e->buf >= t->nbuffers) FAIL("events[%zu].g: buffer %u, but the trace has %zu", i, e->buf, t->nbuffers);
        size_t n = (size_t)trace_popcount(e->mask);
        if ((size_t)e->lanes + n > t->nlanes) FAIL("events[%zu].a: lanes beyond the %zu the trace holds", i, t->nlanes);
        /* an address is a shared word inside the block's shared memory (a float4 spans 4 words),
         * a shuffle's source lane, or a global element */
        int64_t hi = e->kind == TRACE_SHUFFLE ? TRACE_WARP_SIZE - 1
                   : is_global_kind(e->kind)  ? (int64_t)TRACE_GLOBAL_ELEMS_MAX - 1
                                              : (int64_t)(TRACE_SHARED_WORDS_MAX - w);
        for (size_t j = 0; j < n; j++) {
            int64_t a = t->lane_addr[e->lanes + j];
            if (a < 0 || a > hi) FAIL("events[%zu].a[%zu]: %" PRId64 " is outside 0 to %" PRId64 " (%s)", i, j, a, hi,
                                      e->kind == TRACE_SHUFFLE ? "a source lane" : is_global_kind(e->kind) ? "a global element" : "a shared-memory word");
            for (unsigned c = 0; c < 4; c++)
                if (!(fabsf(t->lane_val[(e->lanes + j) * 4 + c]) <= FLT_MAX)) FAIL("events[%zu].v[%zu]: not a finite float", i, j * w + c);
        }
    }
    return 0;
}
#undef FAIL
