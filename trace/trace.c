/* trace: storage of the event log. The lanes' addresses and values live in two flat arrays so
 * that a 1024-thread capture is a few allocations, not one per event. */
#define _GNU_SOURCE
#include "trace/trace.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "trace/trace_internal.h"

static const struct {
    const char *label;
    trace_addr addr;
    int instr;
} kind_info[TRACE_KIND_COUNT] = {
#define TRACE_X_INFO(name, label, addr, instr) {label, TRACE_ADDR_##addr, instr},
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

int trace_kind_has_data(trace_kind kind) { return trace_kind_addr(kind) != TRACE_ADDR_NONE; }
trace_addr trace_kind_addr(trace_kind kind) { return (unsigned)kind < TRACE_KIND_COUNT ? kind_info[kind].addr : TRACE_ADDR_NONE; }

/* per address kind: the largest address (shared: the last word a w-word access may start at) and its name */
int64_t trace_kind_addr_max(trace_kind kind, unsigned w)
{
    static const int64_t hi[] = {[TRACE_ADDR_NONE] = -1, [TRACE_ADDR_SHARED] = TRACE_SHARED_WORDS_MAX,
                                 [TRACE_ADDR_GLOBAL] = (int64_t)TRACE_GLOBAL_ELEMS_MAX - 1, [TRACE_ADDR_LANE] = WARP_SIZE - 1};
    trace_addr a = trace_kind_addr(kind);
    if (kind == TRACE_REGISTER) return (int64_t)WARP_SIZE * TRACE_REGISTER_IDS - 1; /* lane + WARP_SIZE * id */
    return a == TRACE_ADDR_SHARED ? hi[a] - (int64_t)w : hi[a];
}
const char *trace_kind_addr_what(trace_kind kind)
{
    static const char *what[] = {[TRACE_ADDR_NONE] = "nothing", [TRACE_ADDR_SHARED] = "a shared-memory word",
                                 [TRACE_ADDR_GLOBAL] = "a global element", [TRACE_ADDR_LANE] = "a lane of the warp"};
    return kind == TRACE_REGISTER ? "a lane of the warp + 32 x the register's id" : what[trace_kind_addr(kind)];
}
int trace_kind_is_instruction(trace_kind kind) { return (unsigned)kind < TRACE_KIND_COUNT && kind_info[kind].instr; }

int trace_popcount(uint32_t mask) { return __builtin_popcount(mask); }

void trace_init(trace *t) { memset(t, 0, sizeof *t); }

void trace_free(trace *t)
{
    free(t->passes);
    free(t->buffers);
    free(t->events);
    free(t->lane_addr);
    free(t->values);
    free(t->hazards);
    free(t->runs);
    free(t->prints);
    free(t->print_text);
    trace_init(t);
}

void trace_advise_huge(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    enum { HUGE_PAGE = 2 << 20 };
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, hi = ((uintptr_t)p + bytes) / HUGE_PAGE * HUGE_PAGE;
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    trace_advise_huge(q, nc * elem);
    *p = q;
    *cap = nc;
    return 0;
}

static int grow_lanes(trace *t, size_t need)
{
    return grow((void **)&t->lane_addr, &t->cap_lanes, need, sizeof *t->lane_addr);
}

static int grow_vals(trace *t, size_t need)
{
    return grow((void **)&t->values, &t->cap_vals, need, sizeof *t->values);
}

int trace_push(trace *t, const trace_event *e, const int64_t *addr, const double *val)
{
    if (grow((void **)&t->events, &t->cap_events, t->nevents + 1, sizeof *t->events)) return -1;
    trace_event ev = *e;
    ev.lanes = (uint32_t)t->nlanes;
    ev.vals = (uint32_t)t->nvals;
    if (trace_kind_has_data((trace_kind)e->kind)) {
        size_t n = (size_t)trace_popcount(e->mask), nv = n * trace_event_width(e);
        if (t->nlanes + n > UINT32_MAX || t->nvals + nv > UINT32_MAX) return -1; /* 32-bit indices */
        if (grow_lanes(t, t->nlanes + n) || grow_vals(t, t->nvals + nv)) return -1;
        memcpy(t->lane_addr + t->nlanes, addr, n * sizeof *addr);
        memcpy(t->values + t->nvals, val, nv * sizeof *val);
        t->nlanes += n;
        t->nvals += nv;
    }
    t->events[t->nevents++] = ev;
    return 0;
}

int trace_append(trace *t, const trace *src)
{
    size_t base = t->nevents; /* src's prints name src's events: moved by this */
    for (size_t i = 0; i < src->nprints; i++) {
        trace_print p = src->prints[i];
        if (p.event >= 0) p.event += (int64_t)base;
        if (trace_add_print(t, &p, src->print_text + p.off, p.len) < 0) return -1;
    }
    t->prints_cut += src->prints_cut;
    if (!src->nevents) return 0;
    if (grow((void **)&t->events, &t->cap_events, t->nevents + src->nevents, sizeof *t->events) ||
        grow_lanes(t, t->nlanes + src->nlanes) || grow_vals(t, t->nvals + src->nvals))
        return -1;
    for (size_t i = 0; i < src->nevents; i++) {
        trace_event ev = src->events[i];
        ev.lanes = (uint32_t)(ev.lanes + t->nlanes);
        ev.vals = (uint32_t)(ev.vals + t->nvals);
        t->events[t->nevents + i] = ev;
    }
    if (src->nlanes) memcpy(t->lane_addr + t->nlanes, src->lane_addr, src->nlanes * sizeof *t->lane_addr);
    if (src->nvals) memcpy(t->values + t->nvals, src->values, src->nvals * sizeof *t->values);
    t->nevents += src->nevents;
    t->nlanes += src->nlanes;
    t->nvals += src->nvals;
    return 0;
}

int trace_add_print(trace *t, const trace_print *p, const char *text, size_t len)
{
    while (len && text[len - 1] == '\n') len--; /* a line's own newline: the output adds one */
    if (t->nprints >= TRACE_PRINTS_MAX || t->print_bytes >= TRACE_PRINT_BYTES_MAX) {
        t->prints_cut++;
        return 1;
    }
    int cut = 0;
    if (len > TRACE_PRINT_LINE_MAX) len = TRACE_PRINT_LINE_MAX, cut = 1;
    if (t->print_bytes + len > TRACE_PRINT_BYTES_MAX) len = TRACE_PRINT_BYTES_MAX - t->print_bytes, cut = 1;
    trace_print *q = realloc(t->prints, (t->nprints + 1) * sizeof *q);
    if (!q) return -1;
    t->prints = q;
    char *x = realloc(t->print_text, t->print_bytes + len + 1);
    if (!x) return -1;
    t->print_text = x;
    /* the text stays text (a trace's JSON is UTF-8): a NUL is left out, a control byte other than
     * tab and newline, or a byte that is not part of a whole UTF-8 character, becomes '?' */
    size_t k = 0;
    const unsigned char *u = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        unsigned c = u[i], n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 && c >= 0xc2 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 && c <= 0xf4 ? 4 : 0;
        int whole = n > 0 && i + n <= len;
        for (unsigned j = 1; whole && j < n; j++) whole = (u[i + j] & 0xc0) == 0x80;
        if (whole && n == 3) { unsigned v = (c & 0x0f) << 12 | (u[i + 1] & 0x3fu) << 6; whole = v >= 0x800 && (v < 0xd800 || v > 0xdfff); }
        if (whole && n == 4) { unsigned v = (c & 0x07) << 18 | (u[i + 1] & 0x3fu) << 12; whole = v >= 0x10000 && v <= 0x10ffff; }
        if (c == 0) { i++; continue; }
        if (!whole || (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) { x[t->print_bytes + k++] = '?'; i++; continue; }
        for (unsigned j = 0; j < n; j++) x[t->print_bytes + k++] = text[i + j];
        i += n;
    }
    x[t->print_bytes + k] = '\0';
    trace_print r = *p;
    r.off = (uint32_t)t->print_bytes;
    r.len = (uint32_t)k;
    t->prints[t->nprints++] = r;
    t->print_bytes += k;
    t->prints_cut += (uint64_t)cut;
    return cut;
}

int trace_add_pass(trace *t, trace_pass p)
{
    trace_pass *q = realloc(t->passes, (t->npasses + 1) * sizeof *q);
    if (!q) return -1;
    t->passes = q;
    if (!p.grid_dim[0] && !p.grid_dim[1] && !p.grid_dim[2]) p.grid_dim[0] = p.grid, p.grid_dim[1] = p.grid_dim[2] = 1;
    if (!p.block_dim[0] && !p.block_dim[1] && !p.block_dim[2]) p.block_dim[0] = p.block, p.block_dim[1] = p.block_dim[2] = 1;
    t->passes[t->npasses++] = p;
    return 0;
}

int trace_add_run(trace *t, const trace_run *r)
{
    if (t->nruns >= TRACE_RUNS_MAX) return -1;
    trace_run *q = realloc(t->runs, (t->nruns + 1) * sizeof *q);
    if (!q) return -1;
    t->runs = q;
    t->runs[t->nruns++] = *r;
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

static const struct {
    const char *label, *words;
} hazard_info[TRACE_HAZARD_KIND_COUNT] = {
#define TRACE_X_HINFO(name, label, words) {label, words},
    TRACE_HAZARD_KINDS(TRACE_X_HINFO)
#undef TRACE_X_HINFO
};

const char *trace_hazard_label(trace_hazard_kind kind)
{
    return (unsigned)kind < TRACE_HAZARD_KIND_COUNT ? hazard_info[kind].label : "?";
}

const char *trace_hazard_words(trace_hazard_kind kind)
{
    return (unsigned)kind < TRACE_HAZARD_KIND_COUNT ? hazard_info[kind].words : "?";
}

int trace_hazard_from_label(const char *label)
{
    for (int k = 0; k < TRACE_HAZARD_KIND_COUNT; k++)
        if (strcmp(hazard_info[k].label, label) == 0) return k;
    return -1;
}

int trace_add_hazard(trace *t, const trace_hazard *h)
{
    trace_hazard *q = realloc(t->hazards, (t->nhazards + 1) * sizeof *q);
    if (!q) return -1;
    t->hazards = q;
    t->hazards[t->nhazards++] = *h;
    return 0;
}

size_t trace_event_hazards(const trace *t, size_t ev, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        if (h->first.event != (int64_t)ev && h->second.event != (int64_t)ev) continue;
        if (n < max) out[n] = i;
        n++;
    }
    return n;
}

static int access_equal(const trace_hazard_access *p, const trace_hazard_access *q)
{
    return p->block == q->block && p->thread == q->thread && p->line == q->line && p->write == q->write &&
           p->event == q->event;
}

/* ---- the data's types ---- */

static const struct {
    const char *name;
    unsigned bytes;
    int integer, is_signed;
} types[TRACE_TYPE_COUNT] = {
#define TRACE_X_TROW(name, label, bytes, integer, is_signed) [TRACE_TYPE_##name] = {label, bytes, integer, is_signed},
    TRACE_TYPES(TRACE_X_TROW)
#undef TRACE_X_TROW
};

int trace_type_from_name(const char *name)
{
    if (!name || !*name) return TRACE_TYPE_FLOAT;
    for (int i = 0; i < TRACE_TYPE_COUNT; i++)
        if (strcmp(name, types[i].name) == 0) return i;
    return -1;
}
const char *trace_type_name(trace_type type) { return (unsigned)type < TRACE_TYPE_COUNT ? types[type].name : "?"; }
unsigned trace_type_bytes(trace_type type) { return (unsigned)type < TRACE_TYPE_COUNT ? types[type].bytes : 4; }
int trace_type_is_integer(trace_type type) { return (unsigned)type < TRACE_TYPE_COUNT && types[type].integer; }
trace_type trace_data_type(const trace *t)
{
    int k = trace_type_from_name(t->prov.type);
    return k < 0 ? TRACE_TYPE_FLOAT : (trace_type)k;
}
double trace_type_max(trace_type type)
{
    static const double max[TRACE_TYPE_COUNT] = {[TRACE_TYPE_FLOAT] = FLT_MAX, [TRACE_TYPE_INT] = 2147483647.0,
                                                 [TRACE_TYPE_UNSIGNED] = 4294967295.0, [TRACE_TYPE_DOUBLE] = DBL_MAX,
                                                 [TRACE_TYPE_LONG_LONG] = 9007199254740992.0 /* 2^53: doubles hold every integer up to it */};
    return (unsigned)type < TRACE_TYPE_COUNT ? max[type] : FLT_MAX;
}

/* An integer type's sum is exact or wrong: compared as integers, with no tolerance (a 64-bit
 * reference, exact below 2^53); a float or double sum within the tolerance of its reference. */
int trace_result_ok(const trace *t)
{
    if (trace_type_is_integer(trace_data_type(t))) return t->result == t->reference;
    if (!(t->tolerance > 0)) return -1;
    double d = t->result - t->reference;
    return d <= t->tolerance && d >= -t->tolerance; /* false for a NaN result too */
}

trace_verdict trace_result_verdict(const trace *t)
{
    int ok = trace_result_ok(t);
    return ok == 0 ? TRACE_WRONG : t->nhazards ? TRACE_RACING : ok < 0 ? TRACE_UNCHECKED : TRACE_RIGHT;
}

void trace_verdict_words(const trace *t, char *buf, size_t len)
{
    static const char *const words[] = {[TRACE_UNCHECKED] = "not checked (the trace carries no tolerance)",
                                        [TRACE_RIGHT] = "within the tolerance for this n", [TRACE_WRONG] = "WRONG"};
    trace_verdict v = trace_result_verdict(t);
    trace_type ty = trace_data_type(t);
    int integer = trace_type_is_integer(ty);
    if (v == TRACE_RIGHT && integer) {
        snprintf(buf, len, "exact, as an integer sum must be");
        return;
    }
    /* an integer sum past its type's range wraps on the GPU as here: say so, with the true sum */
    if (v == TRACE_WRONG && integer && (t->reference > trace_type_max(ty) || (ty == TRACE_TYPE_UNSIGNED ? t->reference < 0 :
                                                                               t->reference < -trace_type_max(ty) - 1))) {
        snprintf(buf, len, "WRONG: the true sum %.17g does not fit in %s %s (at most %.17g), so the kernel's sum wrapped around", t->reference,
                 ty == TRACE_TYPE_INT ? "an" : "a", trace_type_name(ty), trace_type_max(ty));
        return;
    }
    if (v != TRACE_RACING) {
        snprintf(buf, len, "%s", words[v]);
        return;
    }
    uint64_t pairs = 0;
    uint32_t line = 0;
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        pairs += h->count;
        uint32_t l = h->second.line ? h->second.line : h->first.line;
        if (l && (!line || l < line)) line = l;
    }
    snprintf(buf, len, "right under this schedule (%s), but racing at line %u (%llu racing pair%s of accesses in %zu place%s): "
                       "another order, or a compiler that keeps a word in a register, may sum it wrong",
             t->prov.schedule[0] ? t->prov.schedule : "lockstep", line, (unsigned long long)pairs, pairs == 1 ? "" : "s", t->nhazards,
             t->nhazards == 1 ? "" : "s");
}

int trace_unsummed_partials(const trace *t, char *buf, size_t len)
{
    if (!t->npasses) return 0;
    uint32_t last = (uint32_t)t->npasses - 1, grid = t->passes[last].grid;
    int stored = -1;
    for (size_t i = 0; i < t->nevents && grid > 1; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != last) continue;
        if (e->kind == TRACE_GLOBAL_ATOMIC) return 0; /* summed by atomics */
        if (e->kind != TRACE_GLOBAL_STORE || e->block != 0 || stored >= 0) continue;
        size_t k = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++)
            if (e->mask >> l & 1u) {
                if (t->lane_addr[e->lanes + k] == 0) stored = e->buf;
                k++;
            }
    }
    if (stored < 0 || (size_t)stored >= t->nbuffers) return 0;
    const char *b = t->buffers[stored].name;
    snprintf(buf, len, "%s[0] is block 0's partial alone: the last launch's %u blocks each left a partial in %s[] and nothing summed them "
                       "(launch once more over the %u partials, e.g. reduce<<<1, %u>>>(%s, %s, %u), or add them with atomicAdd)",
             b, grid, b, grid, t->passes[last].block, b, b, grid);
    return 1;
}

int trace_equal(const trace *a, const trace *b)
{
    if (memcmp(&a->prov, &b->prov, sizeof a->prov) != 0) return 0;
    if (memcmp(&a->result, &b->result, sizeof a->result) != 0) return 0;
    if (memcmp(&a->reference, &b->reference, sizeof a->reference) != 0) return 0;
    if (memcmp(&a->tolerance, &b->tolerance, sizeof a->tolerance) != 0) return 0;
    if (a->npasses != b->npasses || a->nbuffers != b->nbuffers || a->nevents != b->nevents ||
        a->nlanes != b->nlanes || a->nvals != b->nvals)
        return 0;
    for (size_t i = 0; i < a->npasses; i++) { /* field by field: the struct has padding */
        const trace_pass *p = &a->passes[i], *q = &b->passes[i];
        if (p->grid != q->grid || p->block != q->block || p->stride != q->stride || p->n_in != q->n_in ||
            p->shared_bytes != q->shared_bytes || p->registers != q->registers ||
            memcmp(p->grid_dim, q->grid_dim, sizeof p->grid_dim) || memcmp(p->block_dim, q->block_dim, sizeof p->block_dim))
            return 0;
    }
    if (a->nbuffers && memcmp(a->buffers, b->buffers, a->nbuffers * sizeof *a->buffers)) return 0;
    for (size_t i = 0; i < a->nevents; i++) { /* field by field: the struct has padding */
        const trace_event *p = &a->events[i], *q = &b->events[i];
        if (p->kind != q->kind || p->elem_size != q->elem_size || p->buf != q->buf || p->pass != q->pass ||
            p->warp != q->warp || p->phase != q->phase || p->block != q->block || p->line != q->line ||
            p->mask != q->mask || p->lanes != q->lanes || p->vals != q->vals || p->sm != q->sm || p->clock != q->clock)
            return 0;
    }
    if (a->nlanes && memcmp(a->lane_addr, b->lane_addr, a->nlanes * sizeof *a->lane_addr)) return 0;
    if (a->nvals && memcmp(a->values, b->values, a->nvals * sizeof *a->values)) return 0;
    if (a->nruns != b->nruns) return 0;
    for (size_t i = 0; i < a->nruns; i++) { /* field by field: the struct has padding */
        const trace_run *p = &a->runs[i], *q = &b->runs[i];
        if (p->pass != q->pass || p->block != q->block || p->sm != q->sm || p->start != q->start || p->end != q->end) return 0;
    }
    if (a->nprints != b->nprints || a->prints_cut != b->prints_cut) return 0;
    for (size_t i = 0; i < a->nprints; i++) { /* field by field, and the text */
        const trace_print *p = &a->prints[i], *q = &b->prints[i];
        if (p->pass != q->pass || p->block != q->block || p->thread != q->thread || p->line != q->line || p->event != q->event ||
            p->len != q->len || memcmp(a->print_text + p->off, b->print_text + q->off, p->len))
            return 0;
    }
    if (a->nhazards != b->nhazards) return 0;
    for (size_t i = 0; i < a->nhazards; i++) { /* field by field: the struct has padding */
        const trace_hazard *p = &a->hazards[i], *q = &b->hazards[i];
        if (p->kind != q->kind || p->space != q->space || p->buf != q->buf || p->pass != q->pass ||
            p->word != q->word || p->count != q->count || !access_equal(&p->first, &q->first) ||
            !access_equal(&p->second, &q->second))
            return 0;
    }
    return 1;
}

/* ---- lines of a text (the kernel files') ---- */

const char *trace_text_line(const char *text, unsigned n, size_t *len)
{
    for (unsigned k = 1; text && *text && k < n; k++) {
        const char *nl = strchr(text, '\n');
        text = nl ? nl + 1 : NULL;
    }
    if (!text || !*text) return NULL;
    if (len) *len = strcspn(text, "\n");
    return text;
}

void trace_text_line_copy(const char *text, unsigned n, char *out, size_t len)
{
    size_t l = 0;
    const char *s = trace_text_line(text, n, &l);
    if (!len) return;
    if (s) { /* the indentation stops at the line's end at the latest */
        size_t indent = strspn(s, " \t");
        s += indent;
        l -= indent;
    }
    if (l >= len) l = len - 1;
    if (l) memcpy(out, s, l);
    out[l] = '\0';
}

/* ---- the check at the door ---- */


#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* A shape (x, y, z) whose product is n, each within CUDA's limit for it; 0 or -1 */
static int shape_ok(const uint32_t d[3], uint64_t n, const uint32_t lim[3])
{
    for (int k = 0; k < 3; k++)
        if (d[k] < 1 || d[k] > lim[k]) return -1;
    return (uint64_t)d[0] * d[1] * d[2] == n ? 0 : -1;
}

int trace_check(const trace *t, char *err, size_t errlen)
{
    /* CUDA's limits: blockDim (1024, 1024, 64) within 1024 threads; gridDim (2^31 - 1, 65535, 65535) */
    static const uint32_t block_lim[3] = {TRACE_BLOCK_THREADS_MAX, TRACE_BLOCK_THREADS_MAX, 64},
                          grid_lim[3] = {0x7fffffffu, 65535, 65535};
    const trace_provenance *p = &t->prov;
    if (p->block < 1 || p->block > TRACE_BLOCK_THREADS_MAX)
        FAIL("provenance.block: %u threads, expected 1 to %d", p->block, TRACE_BLOCK_THREADS_MAX);
    if ((p->block_dim[0] || p->block_dim[1] || p->block_dim[2]) && shape_ok(p->block_dim, p->block, block_lim))
        FAIL("provenance.block_dim: %u x %u x %u is not a block of %u threads", p->block_dim[0], p->block_dim[1], p->block_dim[2], p->block);
    /* blocks_traced is what was asked ("any number at least the grid traces every block"); what
     * bounds the work is the events' blocks, checked below against min(grid, blocks_traced) */
    if (p->blocks_traced < 1) FAIL("provenance.blocks_traced: expected at least 1");
    if (p->n < 1 || p->n > TRACE_GLOBAL_ELEMS_MAX) FAIL("provenance.n: %" PRIu64 " is not from 1 to 2^40", p->n);
    int ty = trace_type_from_name(p->type);
    if (ty < 0) FAIL("provenance.type: \"%.24s\" is not float, int, unsigned, double or long long", p->type);
    double vmax = trace_type_max((trace_type)ty);
    int integer = trace_type_is_integer((trace_type)ty);
    if (!(fabs(t->result) <= (integer ? 9007199254740992.0 : vmax)))
        FAIL("result: not a finite %s", trace_type_name((trace_type)ty));
    if (!(fabs(t->reference) <= DBL_MAX)) FAIL("reference: not a finite number");
    if (!(t->tolerance >= 0 && t->tolerance <= DBL_MAX)) FAIL("tolerance: not a finite number of at least 0");
    if (t->npasses < 1 || t->npasses > TRACE_PASSES_MAX) FAIL("passes: %zu passes, expected 1 to %d", t->npasses, TRACE_PASSES_MAX);
    for (size_t i = 0; i < t->npasses; i++) {
        const trace_pass *q = &t->passes[i];
        if (q->grid < 1) FAIL("passes[%zu].grid: expected at least 1 block", i);
        /* a partial last warp is allowed: its missing lanes do not exist (trace_warp_lanes) */
        if (q->block < 1 || q->block > TRACE_BLOCK_THREADS_MAX)
            FAIL("passes[%zu].block: %u threads, expected 1 to %d", i, q->block, TRACE_BLOCK_THREADS_MAX);
        if (shape_ok(q->block_dim, q->block, block_lim))
            FAIL("passes[%zu].block_dim: %u x %u x %u is not a block of %u threads within (1024, 1024, 64)", i, q->block_dim[0],
                 q->block_dim[1], q->block_dim[2], q->block);
        if (shape_ok(q->grid_dim, q->grid, grid_lim))
            FAIL("passes[%zu].grid_dim: %u x %u x %u is not a grid of %u blocks within (2^31 - 1, 65535, 65535)", i, q->grid_dim[0],
                 q->grid_dim[1], q->grid_dim[2], q->grid);
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
        if (e->warp >= trace_block_warps(q->block)) FAIL("events[%zu].w: warp %u is outside a block of %u threads", i, e->warp, q->block);
        if (e->mask & ~trace_warp_lanes(q->block, e->warp))
            FAIL("events[%zu].m: lanes 0x%08x of warp %u lie past the block's %u threads", i, e->mask & ~trace_warp_lanes(q->block, e->warp),
                 e->warp, q->block);
        if (e->phase >= TRACE_PHASES_MAX) FAIL("events[%zu].ph: phase %u, more than %d", i, e->phase, TRACE_PHASES_MAX - 1);
        if (e->line > TRACE_LINE_MAX) FAIL("events[%zu].l: line %u, more than %d", i, e->line, TRACE_LINE_MAX);
        if (!trace_kind_has_data((trace_kind)e->kind)) continue;
        if (e->mask == 0) FAIL("events[%zu].m: a data event needs at least one lane", i);
        unsigned z = e->elem_size, w = trace_event_width(e);
        if (z != 1 && z != 2 && z != 4 && z != 8 && z != 16) FAIL("events[%zu].z: element size %u, expected 1, 2, 4, 8 or 16 bytes", i, z);
        if (trace_kind_addr((trace_kind)e->kind) == TRACE_ADDR_GLOBAL && e->buf >= t->nbuffers) FAIL("events[%zu].g: buffer %u, but the trace has %zu", i, e->buf, t->nbuffers);
        size_t n = (size_t)trace_popcount(e->mask);
        if ((size_t)e->lanes + n > t->nlanes) FAIL("events[%zu].a: lanes beyond the %zu the trace holds", i, t->nlanes);
        if ((size_t)e->vals + n * w > t->nvals) FAIL("events[%zu].v: values beyond the %zu the trace holds", i, t->nvals);
        int64_t hi = trace_kind_addr_max((trace_kind)e->kind, trace_event_words(e));
        unsigned lane = 0;
        for (size_t j = 0; j < n; j++, lane++) {
            int64_t a = t->lane_addr[e->lanes + j];
            if (a < 0 || a > hi) FAIL("events[%zu].a[%zu]: %" PRId64 " is outside 0 to %" PRId64 " (%s)", i, j, a, hi,
                                      trace_kind_addr_what((trace_kind)e->kind));
            /* a register's address names the lane that holds it (and, since schema 8, which register) */
            while (!(e->mask >> lane & 1u)) lane++;
            if (e->kind == TRACE_REGISTER && a % WARP_SIZE != lane)
                FAIL("events[%zu].a[%zu]: %" PRId64 " names lane %u, but it is lane %u's", i, j, a, (unsigned)(a % WARP_SIZE), lane);
        }
        /* each value within its type: a float's range, an integer's whole numbers (a register or a
         * shuffle of another type, an int index in float data say, is still exact in a double) */
        for (size_t j = 0; j < n * w; j++) {
            double v = t->values[e->vals + j];
            if (!(fabs(v) <= (ty == TRACE_TYPE_FLOAT ? FLT_MAX : DBL_MAX))) FAIL("events[%zu].v[%zu]: not a finite %s", i, j,
                                                                               ty == TRACE_TYPE_FLOAT ? "float" : "number");
        }
    }
    /* hazards point at events and words the viewer will look up */
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        if (h->kind >= TRACE_HAZARD_KIND_COUNT) FAIL("hazards[%zu].kind: unknown hazard kind %u", i, h->kind);
        if (h->space > TRACE_SPACE_GLOBAL) FAIL("hazards[%zu].space: unknown memory space %u", i, h->space);
        if (h->pass >= t->npasses) FAIL("hazards[%zu].pass: pass %u, but the trace has %zu passes", i, h->pass, t->npasses);
        if (h->space == TRACE_SPACE_GLOBAL && h->buf >= t->nbuffers) FAIL("hazards[%zu].buf: buffer %u, but the trace has %zu", i, h->buf, t->nbuffers);
        int64_t hi = h->space == TRACE_SPACE_SHARED ? TRACE_SHARED_WORDS_MAX - 1 : (int64_t)TRACE_GLOBAL_ELEMS_MAX - 1;
        if (h->word < 0 || h->word > hi) FAIL("hazards[%zu].word: %" PRId64 " is outside 0 to %" PRId64, i, h->word, hi);
        const trace_hazard_access *acc[2] = {&h->first, &h->second};
        for (int k = 0; k < 2; k++) {
            if (acc[k]->event < -1 || acc[k]->event >= (int64_t)t->nevents)
                FAIL("hazards[%zu].%s.event: %" PRId64 ", but the trace has %zu events", i, k ? "second" : "first", acc[k]->event, t->nevents);
            if (acc[k]->thread >= TRACE_BLOCK_THREADS_MAX) FAIL("hazards[%zu].%s.thread: %u, more than a block holds", i, k ? "second" : "first", acc[k]->thread);
            if (acc[k]->line > TRACE_LINE_MAX) FAIL("hazards[%zu].%s.line: %u, more than %d", i, k ? "second" : "first", acc[k]->line, TRACE_LINE_MAX);
        }
    }
    /* printf lines name a pass, a block of its grid, a thread of its block, and their event */
    if (t->nprints > TRACE_PRINTS_MAX || t->print_bytes > TRACE_PRINT_BYTES_MAX)
        FAIL("prints: %zu lines of %zu bytes, more than %d lines or %d bytes", t->nprints, t->print_bytes, TRACE_PRINTS_MAX, TRACE_PRINT_BYTES_MAX);
    for (size_t i = 0; i < t->nprints; i++) {
        const trace_print *q = &t->prints[i];
        if (q->pass >= t->npasses) FAIL("prints[%zu].pass: pass %u, but the trace has %zu passes", i, q->pass, t->npasses);
        const trace_pass *ps = &t->passes[q->pass];
        if (q->block >= ps->grid || q->thread >= ps->block) FAIL("prints[%zu]: block %u, thread %u outside pass %u's %u blocks of %u threads", i,
                                                                 q->block, q->thread, q->pass, ps->grid, ps->block);
        if (q->line > TRACE_LINE_MAX) FAIL("prints[%zu].line: %u, more than %d", i, q->line, TRACE_LINE_MAX);
        if ((size_t)q->off + q->len > t->print_bytes || q->len > TRACE_PRINT_LINE_MAX) FAIL("prints[%zu].text: outside the text the trace holds", i);
        if (q->event < -1 || q->event >= (int64_t)t->nevents) FAIL("prints[%zu].event: %" PRId64 ", but the trace has %zu events", i, q->event, t->nevents);
        if (q->event >= 0) {
            const trace_event *e = &t->events[q->event];
            if (e->kind != TRACE_PRINTF || e->pass != q->pass || e->block != q->block || e->warp != q->thread / WARP_SIZE ||
                !(e->mask >> (q->thread % WARP_SIZE) & 1))
                FAIL("prints[%zu].event: event %" PRId64 " is not a printf of thread %u of block %u", i, q->event, q->thread, q->block);
        }
    }
    return 0;
}
#undef FAIL

void reader_fail(reader_error *r, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
}
