/* certify: replaying a trace against the input the checker made (see certify.h for the rules). */
#include "trace/certify.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the data flow: one node per value a thread made or read ---- */

typedef enum node_kind {
    NODE_INPUT,   /* an element of the checker's input */
    NODE_OUTSIDE, /* a value no traced computation made: a constant, an argument, host memory */
    NODE_MADE     /* an add (or a comparison) of its kids */
} node_kind;

typedef struct node {
    double value;
    uint64_t elem;     /* NODE_INPUT: its index */
    uint32_t kid0, nkids; /* NODE_MADE: kids[kid0 .. kid0 + nkids) */
    uint32_t depth, line, pass, block;
    uint16_t inputs;   /* NODE_MADE: kids read straight from the input (loads in flight at this write) */
    uint8_t kind, shuffled; /* shuffled: handed over by a shuffle (one per receiving lane) */
} node;

enum { NONE = 0 }; /* node 0: no node; real nodes start at 1 */

typedef struct operand {
    uint32_t node;
    uint32_t group; /* operands read by one lane's instruction (a float4's four) add as a balanced tree */
    int from_input; /* read straight from the input buffer by a global load (not a copy in shared memory) */
} operand;

typedef struct thread_state {
    operand *ops;
    size_t nops, cap;
    uint32_t reg, last; /* the watched register's node; the last value it wrote (NONE: none) */
} thread_state;

typedef struct word {
    double value;
    uint32_t node;
    uint32_t gen; /* shared: the block generation that wrote it; global: 1 once known */
} word;

typedef struct gbuf {
    word *w;
    size_t cap;
} gbuf;

typedef struct cert {
    const trace *t;
    const certify_input *in;
    certify_facts *f;
    node *nodes;
    size_t nnodes, capnodes;
    uint32_t *kids;
    size_t nkids, capkids;
    uint32_t *input_node; /* the node of each input element, made when first read */
    thread_state th[TRACE_BLOCK_THREADS_MAX];
    word *shared;         /* TRACE_SHARED_WORDS_MAX words of the running block */
    uint32_t gen;
    gbuf bufs[TRACE_BUFFERS_MAX];
    double in_min;
    uint8_t *block_seen;  /* the running pass's blocks already replayed, a bit each */
    int oom;
} cert;

static int fail(cert *c, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(cert *c, uint32_t line, const char *fmt, ...)
{
    if (!c->f->verified) return -1;
    c->f->verified = 0;
    c->f->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->f->why, sizeof c->f->why, fmt, ap);
    va_end(ap);
    return -1;
}

static uint32_t new_node(cert *c, node n)
{
    if (c->nnodes == c->capnodes) {
        size_t cap = c->capnodes ? c->capnodes * 2 : 4096;
        node *p = cap < UINT32_MAX ? realloc(c->nodes, cap * sizeof *p) : NULL;
        if (!p) { c->oom = 1; return NONE; }
        c->nodes = p;
        c->capnodes = cap;
        if (!c->nnodes) c->nnodes = 1; /* node 0 is NONE */
    }
    c->nodes[c->nnodes] = n;
    return (uint32_t)c->nnodes++;
}

static int push_kid(cert *c, uint32_t k)
{
    if (c->nkids == c->capkids) {
        size_t cap = c->capkids ? c->capkids * 2 : 8192;
        uint32_t *p = realloc(c->kids, cap * sizeof *p);
        if (!p) { c->oom = 1; return -1; }
        c->kids = p;
        c->capkids = cap;
    }
    c->kids[c->nkids++] = k;
    return 0;
}

static int push_op(cert *c, thread_state *s, uint32_t n, uint32_t group, int from_input)
{
    if (s->nops == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        operand *p = realloc(s->ops, cap * sizeof *p);
        if (!p) { c->oom = 1; return -1; }
        s->ops = p;
        s->cap = cap;
    }
    s->ops[s->nops++] = (operand){n, group, from_input};
    return 0;
}

static double combine(const cert *c, double a, double b) { return c->in->op == CERTIFY_MAX ? (a > b ? a : b) : a + b; }

/* a value equal to what its operands make: exact for a maximum and for integers; for float sums
 * within a float's rounding of each add */
static int same(const cert *c, double got, double want, double scale, size_t terms)
{
    if (c->in->op == CERTIFY_MAX) return got == want;
    return fabs(got - want) <= (double)FLT_EPSILON * (double)(terms + 1) * scale;
}

/* a value from outside that changes nothing: 0 in a sum, at most the smallest element in a maximum */
static int neutral(const cert *c, double v) { return c->in->op == CERTIFY_MAX ? v <= c->in_min : v == 0; }

static unsigned ceil_log2(size_t k)
{
    unsigned d = 0;
    while (((size_t)1 << d) < k) d++;
    return d;
}

static uint32_t outside(cert *c, double v, uint32_t line, unsigned pass, unsigned block)
{
    return new_node(c, (node){.value = v, .kind = NODE_OUTSIDE, .line = line, .pass = pass, .block = block});
}

/* The node made of base (may be NONE) and ops[from..nops) of s, value v. One operand alone is a copy. */
static uint32_t made(cert *c, const thread_state *s, uint32_t base, size_t from, double v, uint32_t line, unsigned pass, unsigned block)
{
    size_t k = s->nops - from;
    if (!base && k == 1) return s->ops[from].node;
    if (base && k == 0) return base;
    node n = {.value = v, .kind = NODE_MADE, .kid0 = (uint32_t)c->nkids, .line = line, .pass = pass, .block = block};
    unsigned d = 0;
    int first = 1;
    if (base) {
        if (push_kid(c, base)) return NONE;
        d = c->nodes[base].depth;
        n.inputs = c->nodes[base].kind == NODE_INPUT;
        first = 0;
    }
    for (size_t i = from; i < s->nops;) { /* a group (one instruction's values) as a balanced tree, folded in */
        size_t j = i;
        unsigned gd = 0;
        while (j < s->nops && s->ops[j].group == s->ops[i].group) {
            const node *o = &c->nodes[s->ops[j].node];
            if (push_kid(c, s->ops[j].node)) return NONE;
            if (o->depth > gd) gd = o->depth;
            if (s->ops[j].from_input && n.inputs < UINT16_MAX) n.inputs++;
            j++;
        }
        gd += ceil_log2(j - i);
        d = first ? gd : (d > gd ? d : gd) + 1;
        first = 0;
        i = j;
    }
    n.nkids = (uint32_t)(c->nkids - n.kid0);
    n.depth = d;
    return new_node(c, n);
}

/* What thread s's value v is made of: the largest run of its latest operands (with its register or
 * its last written value first, or neither) that makes v; else a copy of the register or of the
 * last value; else a value from outside. consume: the operands are used (a write), else kept (a
 * shuffle hands a value on without writing it). */
static uint32_t explain(cert *c, thread_state *s, double v, int reg_first, int consume, uint32_t line, unsigned pass, unsigned block)
{
    uint32_t bases[4];
    size_t nb = 0;
    if (reg_first && s->reg) bases[nb++] = s->reg;
    bases[nb++] = NONE;
    if (!reg_first && s->reg) bases[nb++] = s->reg;
    if (s->last && s->last != s->reg) bases[nb++] = s->last;
    size_t best_from = SIZE_MAX;
    uint32_t best_base = NONE;
    for (size_t b = 0; b < nb; b++) {
        double acc = 0, scale = 0;
        int have = 0;
        if (bases[b]) acc = c->nodes[bases[b]].value, scale = fabs(acc), have = 1;
        /* the suffix from..nops: fold from the latest back */
        double suf = 0, sufscale = 0;
        int sufhave = 0;
        for (size_t k = 1; k <= s->nops; k++) {
            double x = c->nodes[s->ops[s->nops - k].node].value;
            suf = sufhave ? combine(c, x, suf) : x;
            sufscale += fabs(x);
            sufhave = 1;
            double want = have ? combine(c, acc, suf) : suf;
            size_t from = s->nops - k;
            if (same(c, v, want, scale + sufscale, k + (size_t)have) && (best_from == SIZE_MAX || from < best_from)) {
                best_from = from;
                best_base = bases[b];
            }
        }
    }
    uint32_t n;
    if (best_from != SIZE_MAX) {
        n = made(c, s, best_base, best_from, v, line, pass, block);
    } else if (s->reg && same(c, v, c->nodes[s->reg].value, fabs(v), 1)) {
        n = s->reg;
    } else if (s->last && same(c, v, c->nodes[s->last].value, fabs(v), 1)) {
        n = s->last;
    } else {
        n = outside(c, v, line, pass, block);
    }
    if (consume) s->nops = 0;
    return n;
}

/* ---- memory ---- */

static word *global_word(cert *c, unsigned buf, uint64_t elem)
{
    if (buf >= TRACE_BUFFERS_MAX || elem >= CERTIFY_GLOBAL_WORDS_MAX) return NULL;
    gbuf *g = &c->bufs[buf];
    if (elem >= g->cap) {
        size_t cap = g->cap ? g->cap : 1024;
        while (cap <= elem) cap *= 2;
        word *p = realloc(g->w, cap * sizeof *p);
        if (!p) { c->oom = 1; return NULL; }
        memset(p + g->cap, 0, (cap - g->cap) * sizeof *p);
        g->w = p;
        g->cap = cap;
    }
    return &g->w[elem];
}

/* a load of value v from a word: the value its last store left, the input, or (never written) a
 * value from outside, which the word then keeps */
static int load_word(cert *c, word *w, int known, double v, uint32_t *node_out, const char *what, uint64_t where, uint32_t line,
                     unsigned pass, unsigned block)
{
    if (known) {
        if (v != w->value) /* a load returns the stored bits: exactly what was stored */
            return fail(c, line, "line %u: a load of %s %llu returned %.9g, where the memory held %.9g", line, what,
                        (unsigned long long)where, v, w->value);
        *node_out = w->node;
        return 0;
    }
    c->f->outside_reads++;
    *node_out = outside(c, v, line, pass, block);
    w->value = v;
    w->node = *node_out;
    return 0;
}

static int load_global(cert *c, unsigned buf, uint64_t elem, double v, uint32_t *node_out, uint32_t line, unsigned pass, unsigned block)
{
    word *w = global_word(c, buf, elem);
    if (!w) return c->oom ? -1 : fail(c, line, "line %u: a global index past what a check replays (%llu)", line, (unsigned long long)elem);
    if (!w->gen && buf == 0 && elem < c->in->n) { /* the input, as the checker made it */
        w->gen = 1;
        w->value = c->in->in[elem];
        if (!c->input_node[elem])
            c->input_node[elem] = new_node(c, (node){.value = w->value, .elem = elem, .kind = NODE_INPUT, .line = line, .pass = pass, .block = block});
        w->node = c->input_node[elem];
    }
    int known = w->gen != 0;
    w->gen = 1;
    return load_word(c, w, known, v, node_out, buf == 0 ? "in" : buf == 1 ? "out" : "a global buffer's element", elem, line, pass, block);
}

/* ---- the result's data flow, walked back ---- */

static int walk_result(cert *c, uint32_t root, const trace *t)
{
    certify_facts *f = c->f;
    uint32_t *mult = calloc(c->in->n ? c->in->n : 1, sizeof *mult);
    uint8_t *blocks = NULL;
    if (!mult) { c->oom = 1; return -1; }
    /* the blocks that take part: one flag per (pass, block) of the passes' grids */
    size_t nblocks = 0, base[TRACE_PASSES_MAX + 1];
    for (size_t p = 0; p < t->npasses && p < TRACE_PASSES_MAX; p++) base[p] = nblocks, nblocks += t->passes[p].grid;
    blocks = calloc(nblocks ? nblocks : 1, 1);
    if (!blocks) { free(mult); c->oom = 1; return -1; }
    /* the multiplicity of each node in the result's sum: nodes are made after their kids, so one
     * sweep from the root down gives each its count (a value used twice counts twice) */
    uint64_t *count = calloc(c->nnodes, sizeof *count);
    if (!count) { free(mult); free(blocks); c->oom = 1; return -1; }
    count[root] = 1;
    int rc = 0;
    for (size_t i = root; i >= 1 && rc == 0; i--) {
        if (!count[i]) continue;
        const node *n = &c->nodes[i];
        /* a value that changes nothing (0 in a sum of elements from 0 up, at most the smallest in a
         * maximum) has many explanations and takes no part: nothing under it counts */
        if (neutral(c, n->value)) continue;
        if (n->pass < t->npasses && n->block < t->passes[n->pass].grid) blocks[base[n->pass] + n->block] = 1;
        if (n->kind == NODE_OUTSIDE && !neutral(c, n->value))
            rc = fail(c, n->line, "line %u: the result takes in %.9g, a value no thread read from the input or made from it (from the "
                                  "host, a constant or an argument?)", n->line, n->value);
        else if (n->kind == NODE_INPUT)
            mult[n->elem] = (uint32_t)(mult[n->elem] + (count[i] > UINT32_MAX - mult[n->elem] ? UINT32_MAX - mult[n->elem] : count[i]));
        else if (n->kind == NODE_MADE) {
            f->adds += n->nkids - 1;
            if (n->inputs > f->loads_in_flight) f->loads_in_flight = n->inputs;
            if (n->inputs == n->nkids) f->input_adds += n->nkids - 1;
            for (uint32_t k = 0; k < n->nkids; k++) {
                uint32_t kid = c->kids[n->kid0 + k];
                count[kid] = count[kid] + count[i] < count[kid] ? UINT64_MAX : count[kid] + count[i];
                if (c->nodes[kid].shuffled) f->shuffles_used++;
            }
        }
    }
    /* every element once (a sum) or at least once (a maximum): a consistent run that misses one
     * computes a wrong result, which the goals then say; one that still lands on the right value was
     * made some other way, and is not believed */
    for (uint64_t e = 0; rc == 0 && e < c->in->n; e++) {
        int ok = neutral(c, c->in->in[e]) || (c->in->op == CERTIFY_MAX ? mult[e] >= 1 : mult[e] == 1);
        if (ok || f->elements_off++) continue;
        snprintf(f->element_words, sizeof f->element_words,
                 c->in->op == CERTIFY_MAX ? "input element %llu never reaches the result" : "input element %llu is added into the result %u times, not once",
                 (unsigned long long)e, mult[e]);
    }
    if (rc == 0 && f->elements_off) {
        double want = c->in->op == CERTIFY_MAX ? -INFINITY : 0, scale = 0;
        for (uint64_t e = 0; e < c->in->n; e++) want = combine(c, want, c->in->in[e]), scale += fabs(c->in->in[e]);
        if (same(c, c->nodes[root].value, want, scale, (size_t)c->in->n))
            rc = fail(c, 0, "the result is the right value, but not made of the input: %s", f->element_words);
    }
    for (size_t b = 0; b < nblocks; b++) f->result_blocks += blocks[b];
    f->result_chain = c->nodes[root].depth;
    free(count);
    free(mult);
    free(blocks);
    return rc;
}

/* ---- the replay ---- */

static void reset_block(cert *c)
{
    for (unsigned i = 0; i < TRACE_BLOCK_THREADS_MAX; i++) c->th[i].nops = 0, c->th[i].reg = c->th[i].last = NONE;
    c->gen++;
}

static int replay(cert *c)
{
    const trace *t = c->t;
    certify_facts *f = c->f;
    uint32_t cur_pass = UINT32_MAX, cur_block = UINT32_MAX;
    /* the last ticket of each pass: the largest old value an atomic returned, and who drew it */
    double ticket[TRACE_PASSES_MAX];
    uint32_t ticket_block[TRACE_PASSES_MAX];
    for (size_t p = 0; p < TRACE_PASSES_MAX; p++) ticket[p] = -1, ticket_block[p] = UINT32_MAX;
    uint32_t result_node = NONE, result_pass = 0, result_block = 0;
    int result_atomic = 0;
    unsigned result_buf = c->in->result_in ? 0 : 1;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != cur_pass || e->block != cur_block) {
            /* blocks finish in any order (a GPU promises none), each one whole, once; passes in order */
            int again = e->pass >= t->npasses || e->block >= t->passes[e->pass].grid ||
                        (cur_pass != UINT32_MAX && e->pass < cur_pass);
            if (!again) {
                if (e->pass != cur_pass) memset(c->block_seen, 0, (t->passes[e->pass].grid + 7) / 8);
                again = c->block_seen[e->block / 8] >> (e->block % 8) & 1;
                c->block_seen[e->block / 8] |= (uint8_t)(1u << (e->block % 8));
            }
            if (again)
                return fail(c, e->line, "the trace's blocks are not one after another (pass %u block %u after pass %u block %u)", e->pass,
                            e->block, cur_pass, cur_block);
            cur_pass = e->pass, cur_block = e->block;
            reset_block(c);
        }
        unsigned width = trace_event_width(e);
        uint32_t group_base = (uint32_t)(i * WARP_SIZE);
        if (e->kind == TRACE_SHUFFLE) { /* every lane reads its source as it was before any lane adds */
            uint32_t got[WARP_SIZE];
            size_t k = 0;
            for (unsigned l = 0; l < WARP_SIZE; l++) {
                if (!(e->mask >> l & 1u)) continue;
                unsigned src = (unsigned)(t->lane_addr[e->lanes + k] & (WARP_SIZE - 1));
                double v = t->values[e->vals + k];
                k++;
                unsigned stid = e->warp * WARP_SIZE + src;
                if (stid >= TRACE_BLOCK_THREADS_MAX) return fail(c, e->line, "line %u: a shuffle from a lane past the block", e->line);
                got[l] = explain(c, &c->th[stid], v, 0, 0, e->line, e->pass, e->block);
                if (c->oom) return -1;
                if (c->nodes[got[l]].kind == NODE_OUTSIDE) continue; /* a value from outside stays one */
                if (src == l) continue; /* a lane's own value, handed back: nothing moved between lanes */
                /* a value handed over: a node of its own, so that each receiving lane counts once */
                uint32_t kid0 = (uint32_t)c->nkids, depth = c->nodes[got[l]].depth;
                if (push_kid(c, got[l])) return -1;
                got[l] = new_node(c, (node){.value = v, .kind = NODE_MADE, .kid0 = kid0, .nkids = 1, .depth = depth, .line = e->line,
                                            .pass = e->pass, .block = e->block, .shuffled = 1});
                if (c->oom) return -1;
            }
            for (unsigned l = 0; l < WARP_SIZE; l++) {
                if (!(e->mask >> l & 1u)) continue;
                if (push_op(c, &c->th[e->warp * WARP_SIZE + l], got[l], group_base + l, 0)) return -1;
            }
            continue;
        }
        if (!trace_kind_has_data((trace_kind)e->kind)) continue;
        size_t k = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            size_t lane = k++;
            int64_t addr = t->lane_addr[e->lanes + lane];
            unsigned tid = e->warp * WARP_SIZE + l;
            if (tid >= TRACE_BLOCK_THREADS_MAX) return fail(c, e->line, "line %u: a lane past the block", e->line);
            thread_state *s = &c->th[tid];
            for (unsigned comp = 0; comp < width; comp++) {
                double v = t->values[e->vals + lane * width + comp];
                int shared = e->kind == TRACE_SHARED_LOAD || e->kind == TRACE_SHARED_STORE;
                uint64_t where = shared ? (uint64_t)addr + comp : (uint64_t)addr * width + comp;
                uint32_t nd = NONE;
                switch (e->kind) {
                case TRACE_SHARED_LOAD: {
                    if (where >= TRACE_SHARED_WORDS_MAX) return fail(c, e->line, "line %u: a shared word past the block's memory", e->line);
                    word *w = &c->shared[where];
                    if (load_word(c, w, w->gen == c->gen, v, &nd, "shared word", where, e->line, e->pass, e->block)) return -1;
                    w->gen = c->gen;
                    if (push_op(c, s, nd, group_base + l, 0)) return -1;
                    break;
                }
                case TRACE_GLOBAL_LOAD:
                    if (load_global(c, e->buf, where, v, &nd, e->line, e->pass, e->block) ||
                        push_op(c, s, nd, group_base + l, e->buf == 0 && c->nodes[nd].kind == NODE_INPUT))
                        return -1;
                    break;
                case TRACE_SHARED_STORE:
                case TRACE_GLOBAL_STORE:
                case TRACE_REGISTER: {
                    nd = explain(c, s, v, e->kind == TRACE_REGISTER, 1, e->line, e->pass, e->block);
                    if (c->oom) return -1;
                    if (e->kind == TRACE_REGISTER) {
                        s->reg = nd;
                        break;
                    }
                    s->last = nd;
                    word *w;
                    if (e->kind == TRACE_SHARED_STORE) {
                        if (where >= TRACE_SHARED_WORDS_MAX) return fail(c, e->line, "line %u: a shared word past the block's memory", e->line);
                        w = &c->shared[where];
                        w->gen = c->gen;
                    } else {
                        if (!(w = global_word(c, e->buf, where)))
                            return c->oom ? -1 : fail(c, e->line, "line %u: a global index past what a check replays", e->line);
                        w->gen = 1;
                        if (e->buf == result_buf && where == 0)
                            result_node = nd, result_pass = e->pass, result_block = e->block, result_atomic = 0;
                    }
                    w->value = v;
                    w->node = nd;
                    break;
                }
                case TRACE_GLOBAL_ATOMIC: {
                    /* the old value is checked; the new one is not in the trace: the word becomes a
                     * value from outside until a load says what it holds */
                    word *w = global_word(c, e->buf, where);
                    if (!w) return c->oom ? -1 : fail(c, e->line, "line %u: a global index past what a check replays", e->line);
                    if (!w->gen && e->buf == 0 && where < c->in->n) w->value = c->in->in[where], w->gen = 1;
                    if (w->gen && v != w->value)
                        return fail(c, e->line, "line %u: an atomic read %.9g where the memory held %.9g", e->line, v, w->value);
                    w->gen = 0;
                    if (e->pass < TRACE_PASSES_MAX && v > ticket[e->pass]) ticket[e->pass] = v, ticket_block[e->pass] = e->block;
                    if (e->buf == result_buf && where == 0) result_atomic = 1, result_node = NONE;
                    s->nops = 0;
                    break;
                }
                default:
                    break;
                }
                if (c->oom) return -1;
            }
        }
    }
    /* the result: the last value stored at its word, which must be what the run says */
    if (result_atomic) return fail(c, 0, "the result was left by an atomic, whose operand the trace does not keep: it cannot be checked");
    if (!result_node) return fail(c, 0, "no kernel stored the result (%s[0]): only what the kernels compute can be checked", result_buf ? "out" : "in");
    double r = c->nodes[result_node].value;
    if (r != t->result) return fail(c, 0, "the run says its result is %.9g, but the last value its kernels stored there is %.9g", t->result, r);
    f->result = r;
    f->result_by_last_ticket = result_pass < TRACE_PASSES_MAX && ticket_block[result_pass] == result_block &&
                               ticket[result_pass] == (double)t->passes[result_pass].grid - 1;
    return walk_result(c, result_node, t);
}

int certify_trace(const trace *t, const certify_input *in, certify_facts *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->verified = 1;
    cert *c = calloc(1, sizeof *c);
    if (!c) { snprintf(err, errlen, "out of memory"); return -1; }
    c->t = t, c->in = in, c->f = f;
    c->shared = calloc(TRACE_SHARED_WORDS_MAX, sizeof *c->shared);
    c->input_node = calloc(in->n ? in->n : 1, sizeof *c->input_node);
    c->in_min = in->n ? in->in[0] : 0;
    for (uint64_t i = 1; i < in->n; i++) c->in_min = in->in[i] < c->in_min ? in->in[i] : c->in_min;
    int rc = 0;
    uint32_t grid_max = 1;
    for (size_t p = 0; p < t->npasses; p++) grid_max = t->passes[p].grid > grid_max ? t->passes[p].grid : grid_max;
    c->block_seen = calloc(grid_max / 8 + 1, 1);
    if (!c->shared || !c->input_node || !c->block_seen) c->oom = 1;
    else if (t->nbuffers < 2 || strcmp(t->buffers[0].name, "in") || strcmp(t->buffers[1].name, "out"))
        fail(c, 0, "the trace's buffers are not the run's in and out");
    else if (t->prov.n != in->n)
        fail(c, 0, "the trace is of %llu elements, not the %llu the check gave", (unsigned long long)t->prov.n, (unsigned long long)in->n);
    else
        replay(c);
    if (c->oom) {
        snprintf(err, errlen, "out of memory replaying the trace");
        rc = -1;
    }
    for (unsigned i = 0; i < TRACE_BLOCK_THREADS_MAX; i++) free(c->th[i].ops);
    for (size_t b = 0; b < TRACE_BUFFERS_MAX; b++) free(c->bufs[b].w);
    free(c->shared);
    free(c->block_seen);
    free(c->input_node);
    free(c->nodes);
    free(c->kids);
    free(c);
    return rc;
}
