/* certify: replaying a trace against the input the checker made (see certify.h for the rules). */
#include "trace/certify.h"

#include <float.h>
#include <limits.h>
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
    union {
        uint64_t elem;     /* NODE_INPUT: its index */
        struct {
            uint32_t kid0, nkids; /* NODE_MADE: kids[kid0 .. kid0 + nkids) */
        };
    };
    uint32_t depth, line, pass, block;
    uint32_t level;    /* NODE_MADE: its turn in the thread's chains of loads (see made) */
    uint16_t inputs;   /* NODE_MADE: kids read straight from the input (loads in flight at this write) */
    uint16_t thread;   /* the thread that made it, in its block */
    uint8_t kind, shuffled; /* shuffled: handed over by a shuffle (one per receiving lane) */
} node;

enum { NONE = 0 }; /* node 0: no node; real nodes start at 1 */

typedef struct operand {
    uint32_t node;
    uint32_t group; /* operands read by one lane's instruction (a float4's four) add as a balanced tree */
    int from_input; /* read straight from the input buffer by a global load (not a copy in shared memory) */
    uint32_t after; /* a load whose address came from a loaded value: the turn it cannot start before (0: any) */
} operand;

/* A learner's other floats (schema 8's register ids other than 0): each holds an operand, so a
 * value kept there (a load, a partial sum) is still what a later write adds. */
enum { OTHER_REGS = 32, CHASE = 8 };
typedef struct other_reg {
    uint32_t id;
    operand op;  /* what it holds (op.node NONE: nothing yet) */
    uint32_t at; /* when it was written (the thread's count of writes), for the latest first */
    int used;    /* what it holds has been added into another value */
} other_reg;

/* a whole-number value a thread loaded that was not an input element (an index table, say) and
 * its turn: a load at such an index waits for it (pointer chasing) */
typedef struct chased {
    double value;
    uint32_t turn;
} chased;

/* One cache line a thread, as a block's reset touches every thread's; its floats and loaded
 * indices are kept apart (cert.others, cert.chases), touched only by the threads that have them. */
typedef struct thread_state {
    operand *ops;
    uint32_t nops, cap;
    uint32_t reg, last; /* the watched register's node; the last value it wrote (NONE: none) */
    int reg_used;       /* the watched register's value has been added into another (by a register search) */
    uint16_t nother, nchase;
    uint32_t writes;
    other_reg *other;   /* OTHER_REGS of them */
    chased *chase;      /* the latest CHASE, a ring */
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
    unsigned tid;         /* the thread whose event is replayed (nodes are its) */
    other_reg *others;    /* OTHER_REGS a thread, once a trace has another float */
    chased *chases;       /* CHASE a thread */
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
    n.thread = (uint16_t)c->tid;
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

static int push_operand(cert *c, thread_state *s, operand o)
{
    if (s->nops == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 8;
        if (cap < s->cap) { c->oom = 1; return -1; }
        operand *p = realloc(s->ops, cap * sizeof *p);
        if (!p) { c->oom = 1; return -1; }
        s->ops = p;
        s->cap = cap;
    }
    s->ops[s->nops++] = o;
    return 0;
}
static int push_op(cert *c, thread_state *s, uint32_t n, uint32_t group, int from_input)
{
    return push_operand(c, s, (operand){n, group, from_input, 0});
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

static uint32_t level_of(const cert *c, uint32_t n) { return c->nodes[n].kind == NODE_MADE ? c->nodes[n].level : 0; }

/* The node made of base (may be NONE) and ops[0..k), value v. One operand alone is a copy.
 * Its level is its turn in the thread's chains of loads: the loads it adds straight from the input
 * (its inputs) can be issued together, once every value it adds besides them is made, so they come
 * one turn after the latest of those (and no sooner than a load whose address came from a loaded
 * value allows). Loads of one turn of one thread are in flight together (loads_in_flight), in
 * whichever registers they land: one sum loaded into one element at a time is one load a turn; k
 * independent sums, k. */
static uint32_t made_of(cert *c, uint32_t base, const operand *ops, size_t k, double v, uint32_t line, unsigned pass, unsigned block)
{
    if (!base && k == 1) return ops[0].node;
    if (base && k == 0) return base;
    node n = {.value = v, .kind = NODE_MADE, .kid0 = (uint32_t)c->nkids, .line = line, .pass = pass, .block = block};
    unsigned d = 0;
    uint32_t lv = 0, after = 0;
    int first = 1;
    if (base) {
        if (push_kid(c, base)) return NONE;
        d = c->nodes[base].depth;
        n.inputs = c->nodes[base].kind == NODE_INPUT;
        lv = level_of(c, base);
        first = 0;
    }
    for (size_t i = 0; i < k;) { /* a group (one instruction's values) as a balanced tree, folded in */
        size_t j = i;
        unsigned gd = 0;
        while (j < k && ops[j].group == ops[i].group) {
            const node *o = &c->nodes[ops[j].node];
            if (push_kid(c, ops[j].node)) return NONE;
            if (o->depth > gd) gd = o->depth;
            if (ops[j].from_input) {
                if (n.inputs < UINT16_MAX) n.inputs++;
                if (ops[j].after > after) after = ops[j].after;
            } else if (level_of(c, ops[j].node) > lv) {
                lv = level_of(c, ops[j].node);
            }
            j++;
        }
        gd += ceil_log2(j - i);
        d = first ? gd : (d > gd ? d : gd) + 1;
        first = 0;
        i = j;
    }
    n.nkids = (uint32_t)(c->nkids - n.kid0);
    n.depth = d;
    n.level = n.inputs ? (lv + 1 > after ? lv + 1 : after) : lv;
    return new_node(c, n);
}

static uint32_t made(cert *c, const thread_state *s, uint32_t base, size_t from, double v, uint32_t line, unsigned pass, unsigned block)
{
    return made_of(c, base, s->ops + from, s->nops - from, v, line, pass, block);
}

/* The registers a value may be made of when no run of the latest operands makes it (a learner's
 * floats added together: `sum0 += sum1`, `sdata[tid] = sum0 + sum2`): the watched register's and
 * the other floats' values not yet added into another, the latest written first. */
typedef struct held {
    operand op;
    int *used;
    uint32_t at;
} held;

static size_t held_values(thread_state *s, uint32_t self, held *h)
{
    size_t k = 0;
    if (s->reg && s->reg != self && !s->reg_used) h[k++] = (held){{s->reg, 0, 0, 0}, &s->reg_used, 0};
    for (unsigned i = 0; i < s->nother; i++) {
        other_reg *o = &s->other[i];
        if (o->op.node && o->op.node != self && !o->used) h[k++] = (held){o->op, &o->used, o->at};
    }
    for (size_t i = 1; i < k; i++) /* the latest written first (few: insertion) */
        for (size_t j = i; j > 0 && h[j].at > h[j - 1].at; j--) {
            held t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }
    for (size_t i = 0; i < k; i++) h[i].op.group = 0xF0000000u + (uint32_t)i; /* each its own instruction's */
    return k;
}

/* base (may be NONE) plus the held values picked (a bit each) makes v */
static int held_make(const cert *c, uint32_t base, const held *h, size_t k, uint64_t pick, double v)
{
    double acc = 0, scale = 0;
    size_t terms = 0;
    int have = 0;
    if (base) acc = c->nodes[base].value, scale = fabs(acc), have = 1, terms = 1;
    for (size_t i = 0; i < k; i++) {
        if (!(pick >> i & 1)) continue;
        double x = c->nodes[h[i].op.node].value;
        acc = have ? combine(c, acc, x) : x;
        scale += fabs(x);
        have = 1;
        terms++;
    }
    return have && terms > 1 && same(c, v, acc, scale, terms);
}

/* base (may be NONE) and one held value, or two, or (all) every one, that make v: their node (the
 * values taken are used when consume), else NONE */
static uint32_t held_sum(cert *c, thread_state *s, uint32_t base, const held *given, size_t ngiven, double v, int all, int consume,
                         uint32_t line, unsigned pass, unsigned block)
{
    (void)s;
    held h[OTHER_REGS + 1];
    size_t k = 0;
    for (size_t i = 0; i < ngiven; i++) /* none taken since they were listed (the base, say) */
        if (!*given[i].used && given[i].op.node != base) h[k++] = given[i];
    uint64_t pick = 0;
    for (size_t i = 0; i < k && !pick && base; i++)
        if (held_make(c, base, h, k, 1ull << i, v)) pick = 1ull << i;
    for (size_t i = 0; i < k && !pick; i++)
        for (size_t j = i + 1; j < k && !pick; j++)
            if (held_make(c, base, h, k, (1ull << i) | (1ull << j), v)) pick = (1ull << i) | (1ull << j);
    if (!pick && all && k > 2 && k < 64 && held_make(c, base, h, k, (1ull << k) - 1, v)) pick = (1ull << k) - 1;
    if (!pick) return NONE;
    operand ops[OTHER_REGS + 1];
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (pick >> i & 1) {
            ops[m++] = h[i].op;
            if (consume) *h[i].used = 1;
        }
    return made_of(c, base, ops, m, v, line, pass, block);
}

/* A register's own value that another value took already (`sum0 += sum1` took it, where sum1 and
 * sum2 held equal values and sum2 is the one added on now): a value equal to it that no one took
 * is the same explanation with each value taken once; else itself. */
static uint32_t untaken(const cert *c, thread_state *s, uint32_t self)
{
    held h[OTHER_REGS + 1];
    size_t k = held_values(s, self, h);
    for (size_t i = 0; i < k; i++)
        if (c->nodes[h[i].op.node].value == c->nodes[self].value) {
            *h[i].used = 1;
            return h[i].op.node;
        }
    return self;
}

/* What thread s's value v is made of: the largest run of its latest operands (with its register
 * (self: the register written, or NONE for a store or a shuffle), the watched register or its last
 * written value first, or neither) that makes v; else a copy of a register or of the last value;
 * else the sum of held register values (one, two, or all); else a value from outside. consume: the
 * operands are used (a write), else kept (a shuffle hands a value on without writing it). *as: the
 * operand the value now is (a copy of a load straight from the input stays one). */
static uint32_t explain(cert *c, thread_state *s, double v, uint32_t self, int *self_used, int reg_first, int consume, operand *as,
                        uint32_t line, unsigned pass, unsigned block)
{
    /* its own value already added into another (`sum0 += sum1` took it, where sum1 and sum2 held
     * equal values and sum2 is the one added on now): a value equal to it that no one took is the
     * same explanation with each value taken once */
    /* a value taken already is its own base last: `v = in[j]` where in[j] is 0 would else add the
     * v before it in again */
    int taken = reg_first && self && self_used && *self_used && consume;
    uint32_t bases[4];
    size_t nb = 0;
    if (reg_first && self && !taken) bases[nb++] = self;
    bases[nb++] = NONE;
    if (s->reg && s->reg != self) bases[nb++] = s->reg;
    if (s->last && s->last != s->reg && s->last != self) bases[nb++] = s->last;
    if (reg_first && self && taken) bases[nb++] = self;
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
    uint32_t n = NONE;
    operand o = {NONE, 0, 0, 0};
    held h[OTHER_REGS + 1];
    size_t k = 0;
    if (best_from != SIZE_MAX) {
        if (taken && best_base == self) best_base = untaken(c, s, self);
        /* an input element of the identity held in a register (v = in[i], in[i] 0) takes no part:
         * `v = in[j]` next is a copy of in[j], not 0 + in[j] */
        if (best_base && c->nodes[best_base].kind == NODE_INPUT && neutral(c, c->nodes[best_base].value)) best_base = NONE;
        n = made(c, s, best_base, best_from, v, line, pass, block);
        if (!best_base && best_from + 1 == s->nops) o = s->ops[best_from]; /* a copy of one operand */
    } else if (self && same(c, v, c->nodes[self].value, fabs(v), 1)) {
        n = taken ? untaken(c, s, self) : self;
    } else if ((k = held_values(s, self, h)), reg_first && self && (n = held_sum(c, s, taken ? untaken(c, s, self) : self, h, k, v, 0, consume, line, pass, block))) {
        /* its own value and one or two other floats' (x += y) */
    } else if (s->reg && s->reg != self && !s->reg_used && same(c, v, c->nodes[s->reg].value, fabs(v), 1)) {
        n = s->reg;
        if (consume && self) s->reg_used = 1;
    } else if (s->last && same(c, v, c->nodes[s->last].value, fabs(v), 1)) {
        n = s->last;
    } else {
        for (size_t i = 0; i < k && !n; i++) /* a copy of another float */
            if (h[i].op.node != s->reg && same(c, v, c->nodes[h[i].op.node].value, fabs(v), 1)) {
                n = h[i].op.node, o = h[i].op;
                if (consume) *h[i].used = 1;
            }
        if (!n) n = held_sum(c, s, NONE, h, k, v, 1, consume, line, pass, block);
        if (!n && !c->oom) n = outside(c, v, line, pass, block);
    }
    if (consume) s->nops = 0;
    if (as) *as = o.node ? o : (operand){n, 0, 0, 0};
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

/* loads of one turn of one thread (see made_of), summed over the writes that add them */
typedef struct turn {
    uint32_t block, level; /* with pass and thread: one turn of one thread */
    uint16_t pass, thread;
    uint32_t inputs;
} turn;

static int same_turn(const turn *x, const turn *y)
{
    return x->pass == y->pass && x->block == y->block && x->thread == y->thread && x->level == y->level;
}

/* the most loads of one turn of one thread: the writes of each turn summed in a hash table (-1 out
 * of memory) */
static long most_in_flight(const turn *t, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    turn *tab = calloc(cap, sizeof *tab); /* inputs 0: empty */
    if (!tab) return -1;
    unsigned most = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t h = (((uint64_t)t[i].pass << 32 | t[i].block) * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)t[i].thread << 32 | t[i].level);
        h ^= h >> 33, h *= 0xff51afd7ed558ccdull, h ^= h >> 33, h *= 0xc4ceb9fe1a85ec53ull, h ^= h >> 33; /* murmur3's finaliser */
        size_t k = (size_t)h & (cap - 1);
        while (tab[k].inputs && !same_turn(&tab[k], &t[i])) k = (k + 1) & (cap - 1);
        if (!tab[k].inputs) tab[k] = t[i];
        else tab[k].inputs = tab[k].inputs + t[i].inputs < tab[k].inputs ? UINT32_MAX : tab[k].inputs + t[i].inputs;
        if (tab[k].inputs > most) most = tab[k].inputs;
    }
    free(tab);
    return most;
}

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
    turn *turns = NULL;
    size_t nturns = 0, capturns = 0;
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
            if (n->inputs) {
                if (nturns == capturns) {
                    size_t cap = capturns ? capturns * 2 : 1024;
                    turn *p = realloc(turns, cap * sizeof *p);
                    if (!p) { c->oom = 1; rc = -1; break; }
                    turns = p, capturns = cap;
                }
                turns[nturns++] = (turn){n->block, n->level, (uint16_t)n->pass, n->thread, n->inputs};
            }
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
    long most = most_in_flight(turns, nturns);
    if (most < 0) c->oom = 1, rc = -1;
    else f->loads_in_flight = (unsigned)most;
    free(turns);
    free(count);
    free(mult);
    free(blocks);
    return rc;
}

/* ---- the replay ---- */

/* the threads of a block of `threads` (its warps whole: a shuffle names lanes of its warp) start afresh */
static void reset_block(cert *c, unsigned threads)
{
    unsigned n = (threads + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE;
    for (unsigned i = 0; i < n && i < TRACE_BLOCK_THREADS_MAX; i++) {
        thread_state *s = &c->th[i];
        s->nops = 0, s->reg = s->last = NONE, s->reg_used = 0, s->nother = 0, s->writes = 0, s->nchase = 0;
    }
    c->gen++;
}

/* A load at `where` by s: the turn it cannot start before, when the address is a whole number the
 * thread loaded earlier (the index came from memory: pointer chasing), else 0; a value loaded that
 * is not an input element and is a whole number is kept as an index it may go on to. */
static inline uint32_t chase(thread_state *s, uint64_t where, double v, int input)
{
    uint32_t after = 0;
    if (input && !s->nchase) return 0; /* nothing loaded yet that an index could come from */
    for (unsigned k = 0; k < s->nchase && k < CHASE; k++)
        if (s->chase[k].value == (double)where && s->chase[k].turn + 1 > after) after = s->chase[k].turn + 1;
    if (!input && v >= 0 && v == floor(v)) {
        s->chase[s->nchase % CHASE] = (chased){v, after ? after : 1};
        s->nchase = (uint16_t)(s->nchase + 1); /* wraps at a multiple of CHASE */
    }
    return after;
}

/* the other float id of s (a slot for it), or NULL when the thread has used every slot (or out of memory) */
static other_reg *other_of(cert *c, thread_state *s, uint32_t id)
{
    if (!c->others) { /* the first: every thread's slots */
        if (!(c->others = calloc((size_t)TRACE_BLOCK_THREADS_MAX * OTHER_REGS, sizeof *c->others))) { c->oom = 1; return NULL; }
        for (unsigned i = 0; i < TRACE_BLOCK_THREADS_MAX; i++) c->th[i].other = c->others + (size_t)i * OTHER_REGS;
    }
    for (unsigned i = 0; i < s->nother; i++)
        if (s->other[i].id == id) return &s->other[i];
    if (s->nother == OTHER_REGS) return NULL;
    other_reg *o = &s->other[s->nother++];
    memset(o, 0, sizeof *o);
    o->id = id;
    return o;
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
            reset_block(c, t->passes[e->pass].block);
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
                c->tid = stid;
                got[l] = explain(c, &c->th[stid], v, NONE, NULL, 0, 0, NULL, e->line, e->pass, e->block);
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
            c->tid = tid;
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
                    chase(s, where, v, 0);
                    if (push_op(c, s, nd, group_base + l, 0)) return -1;
                    break;
                }
                case TRACE_GLOBAL_LOAD: {
                    if (load_global(c, e->buf, where, v, &nd, e->line, e->pass, e->block)) return -1;
                    int input = e->buf == 0 && c->nodes[nd].kind == NODE_INPUT;
                    uint32_t after = chase(s, where, v, input);
                    if (push_operand(c, s, (operand){nd, group_base + l, input, after})) return -1;
                    break;
                }
                case TRACE_REGISTER:
                    if (trace_register_id(addr)) { /* another float of a learner's kernel */
                        other_reg *o = other_of(c, s, trace_register_id(addr));
                        if (c->oom) return -1;
                        if (!o) break; /* past the slots: unseen, as before schema 8 */
                        operand as;
                        explain(c, s, v, o->op.node, &o->used, 1, 1, &as, e->line, e->pass, e->block);
                        if (c->oom) return -1;
                        o->op = as, o->used = 0, o->at = ++s->writes;
                        break;
                    }
                    __attribute__((fallthrough)); /* the watched register */
                case TRACE_SHARED_STORE:
                case TRACE_GLOBAL_STORE: {
                    int watched = e->kind == TRACE_REGISTER;
                    nd = explain(c, s, v, watched ? s->reg : NONE, watched ? &s->reg_used : NULL, watched, 1, NULL, e->line, e->pass, e->block);
                    if (c->oom) return -1;
                    if (e->kind == TRACE_REGISTER) {
                        s->reg = nd, s->reg_used = 0, ++s->writes;
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
    c->chases = calloc((size_t)TRACE_BLOCK_THREADS_MAX * CHASE, sizeof *c->chases);
    for (unsigned i = 0; c->chases && i < TRACE_BLOCK_THREADS_MAX; i++) c->th[i].chase = c->chases + (size_t)i * CHASE;
    c->input_node = calloc(in->n ? in->n : 1, sizeof *c->input_node);
    c->in_min = in->n ? in->in[0] : 0;
    for (uint64_t i = 1; i < in->n; i++) c->in_min = in->in[i] < c->in_min ? in->in[i] : c->in_min;
    int rc = 0;
    uint32_t grid_max = 1;
    for (size_t p = 0; p < t->npasses; p++) grid_max = t->passes[p].grid > grid_max ? t->passes[p].grid : grid_max;
    c->block_seen = calloc(grid_max / 8 + 1, 1);
    if (!c->shared || !c->input_node || !c->block_seen || !c->chases) c->oom = 1;
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
    free(c->others);
    free(c->chases);
    free(c->block_seen);
    free(c->input_node);
    free(c->nodes);
    free(c->kids);
    free(c);
    return rc;
}
