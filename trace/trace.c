/* trace: storage of the event log. The lanes' addresses and values live in two flat arrays so
 * that a 1024-thread capture is a few allocations, not one per event. */
#include "trace.h"

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

int trace_push(trace *t, const trace_event *e, const int64_t *addr, const float *val)
{
    if (grow((void **)&t->events, &t->cap_events, t->nevents + 1, sizeof *t->events)) return -1;
    trace_event ev = *e;
    ev.lanes = (uint32_t)t->nlanes;
    if (trace_kind_has_data((trace_kind)e->kind)) {
        size_t n = (size_t)trace_popcount(e->mask), w = trace_event_width(e);
        if (t->nlanes + n > UINT32_MAX) return -1; /* event.lanes is a 32-bit index */
        if (t->nlanes + n > t->cap_lanes) {
            size_t nc = t->cap_lanes ? t->cap_lanes : 1024;
            while (nc < t->nlanes + n) nc *= 2;
            int64_t *a = realloc(t->lane_addr, nc * sizeof *a);
            if (!a) return -1;
            t->lane_addr = a;
            float *v = realloc(t->lane_val, nc * 4 * sizeof *v);
            if (!v) return -1;
            t->lane_val = v;
            t->cap_lanes = nc;
        }
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
