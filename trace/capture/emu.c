/* emu: fibers, warp lockstep and barriers. See emu.h for the model.
 *
 * The fiber switch is boost.context's fcontext (Debian's libboost-context-dev): jump_fcontext
 * pushes the callee-saved registers on the current stack, stores the stack pointer and loads the
 * other fiber's, a few instructions in user space. ucontext's swapcontext also saved and restored
 * the signal mask, a system call per switch, which was about 90% of the emulator's time. The two
 * functions are declared extern "C" in <boost/context/detail/fcontext.hpp>, a C++ header; their
 * declarations are repeated below for C (CMake checks that the header and library are there).
 *
 * Blocks of a launch run in parallel on the available cores when they cannot see each other's
 * writes (see emu_launch.serial_blocks): worker k runs a contiguous range of blocks on its own
 * fibers, stacks and shared memory, into its own trace, and the traces are appended in worker
 * order, so the result and the trace are the same bytes with 1 or N workers. */
#define _GNU_SOURCE
#include "trace/capture/emu.h"

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(EMU_ASAN)
#define EMU_ASAN 1
#endif
#ifdef EMU_ASAN
/* ASan keeps a shadow of each stack: it must be told when execution moves to another stack, or it
 * takes the fibers' frames for overflows (these calls exist only in ASan builds) */
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* boost.context's fcontext (see above) */
typedef void *fcontext_t;
typedef struct fc_transfer {
    fcontext_t fctx;
    void *data;
} fc_transfer;
extern fc_transfer jump_fcontext(fcontext_t const to, void *vp);
extern fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(fc_transfer));

/* A fiber needs a few KiB for the kernel's frames; ASan's redzones make frames several times larger. */
#ifdef EMU_ASAN
enum { EMU_STACK = 256 * 1024 };
#else
enum { EMU_STACK = 64 * 1024 };
#endif
/* a block and its static shared memory as CUDA allows them (trace.h), the buffers in emu.h */
enum { EMU_MAX_THREADS = TRACE_BLOCK_THREADS_MAX, EMU_SHARED_BYTES = TRACE_SHARED_WORDS_MAX * WORD_BYTES, EMU_MAX_REGIONS = 16,
       EMU_MAX_WORKERS = 64 };

typedef enum thread_state { TS_READY, TS_PENDING, TS_BARRIER, TS_EXITED } thread_state;

/* A word a thread keeps in a register instead of shared memory (emu_op.cached). */
typedef struct emu_reg_copy {
    int64_t word, lo, hi;
    uint32_t data[4];
    unsigned line, elem_size;
    int is_int, dirty;
} emu_reg_copy;
enum { EMU_REG_COPIES = 16 };

typedef struct emu_thread {
    fcontext_t ctx;
    emu_dim3 idx;
    thread_state state;
    emu_op *op;
    unsigned last_line;      /* the source line of its last op posted (where a stack overflow is said to be) */
    emu_reg_copy regs[EMU_REG_COPIES];
    int nregs;
#ifdef EMU_ASAN
    void *fake_stack;        /* ASan's fake stack of this fiber while it is switched out */
#endif
} emu_thread;

struct emu {
    fcontext_t sched;        /* the scheduler, while a fiber runs */
    char *stacks;            /* one mapping: per thread a guard page then the stack */
    size_t stack_stride;
    unsigned guarded;        /* threads 0..guarded-1 have their guard page (set on first use) */
#ifdef EMU_ASAN
    void *sched_fake_stack;
    const void *sched_stack_bottom;
    size_t sched_stack_size;
#endif
    /* the other workers of a parallel launch, each a whole emu of its own, created on first use
     * and kept, with their stacks, for the next launches */
    struct emu *helpers[EMU_MAX_WORKERS];
    emu_launch helper_launch; /* a helper's copy of the launch, recording into its own trace */
    trace helper_trace;
    unsigned first_block, end_block; /* this worker's blocks */
    emu_thread threads[EMU_MAX_THREADS];
    emu_thread *cur;
    const emu_launch *launch;
    emu_dim3 block_idx, block_dim, grid_dim;
    int recording; /* the running block is one the trace records */
    unsigned char shared[EMU_SHARED_BYTES];
    struct { const void *key; int64_t word; } regions[EMU_MAX_REGIONS];
    int nregions;
    int64_t shared_words_used;
    struct { unsigned char *mem; size_t bytes; } buffers[EMU_MAX_BUFFERS];
    uint64_t rng;            /* the schedule's random state, seeded per block */
    uint64_t dropped[2];     /* barriers, __syncwarp calls left out (break-it switches) */
    int64_t shared_words_max; /* the most shared words one block of the run placed */
    int failed;
    char err[256];
};

/* The emulator whose fibers are running: CUDA builtins reach it through this (see emu.h). */
static _Thread_local emu *current;

static void fail(emu *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(emu *e, const char *fmt, ...)
{
    if (e->failed) return;
    e->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err, sizeof e->err, fmt, ap);
    va_end(ap);
}

static void yield(emu *e, int dying);

/* The launch's event budget (emu_launch.max_events): a kernel whose loops never end stops here. */
static int over_budget(emu *e, unsigned line)
{
    const emu_launch *L = e->launch;
    if (!L->max_events || L->trace->nevents < L->max_events) return 0;
    fail(e, "line %u: the trace holds %llu warp instructions, the most it may; a loop that never ends?", line,
         (unsigned long long)L->max_events);
    return 1;
}

int emu_in_kernel(void) { return current && current->cur; }

void emu_abort(const char *what)
{
    emu *e = current;
    fail(e, "%s", what);
    e->cur->state = TS_EXITED;
    yield(e, 1);
}

/* linear index of a block (or thread) of a shape, x fastest, as CUDA numbers them */
static unsigned linear(emu_dim3 i, emu_dim3 d) { return i.x + d.x * (i.y + d.y * i.z); }
static emu_dim3 unlinear(unsigned k, emu_dim3 d) { return (emu_dim3){k % d.x, k / d.x % d.y, k / (d.x * d.y)}; }

const emu_dim3 *emu_thread_idx(void) { return &current->cur->idx; }
const emu_dim3 *emu_block_idx(void) { return &current->block_idx; }
const emu_dim3 *emu_block_dim(void) { return &current->block_dim; }
const emu_dim3 *emu_grid_dim(void) { return &current->grid_dim; }
unsigned emu_thread_rank(void) { return (unsigned)(current->cur - current->threads); }
unsigned emu_block_rank(void) { return linear(current->block_idx, current->grid_dim); }

int emu_launch_failed(void) { return current && current->failed; }

int emu_stack_overflowed(const void *addr, unsigned *line)
{
    emu *e = current;
    if (!e || !e->cur || !e->stacks) return 0;
    const char *guard_lo = e->stacks + (size_t)(e->cur - e->threads) * e->stack_stride;
    const char *a = (const char *)addr;
    if (a < guard_lo || a >= guard_lo + (e->stack_stride - EMU_STACK)) return 0;
    *line = e->cur->last_line;
    return 1;
}

/* ---- the switch, scheduler side and fiber side ---- */

static char *stack_of(emu *e, const emu_thread *t)
{
    size_t i = (size_t)(t - e->threads);
    return e->stacks + i * e->stack_stride + (e->stack_stride - EMU_STACK);
}

/* Scheduler: runs thread t until its next traced point or its exit. */
static void resume(emu *e, emu_thread *t)
{
    e->cur = t;
#ifdef EMU_ASAN
    __sanitizer_start_switch_fiber(&e->sched_fake_stack, stack_of(e, t), EMU_STACK);
#endif
    fc_transfer r = jump_fcontext(t->ctx, NULL);
#ifdef EMU_ASAN
    __sanitizer_finish_switch_fiber(e->sched_fake_stack, NULL, NULL);
#endif
    t->ctx = r.fctx;
}

/* Fiber: back to the scheduler. A dying fiber (its kernel returned, or stopped) is never resumed. */
static void yield(emu *e, int dying)
{
#ifdef EMU_ASAN
    __sanitizer_start_switch_fiber(dying ? NULL : &e->cur->fake_stack, e->sched_stack_bottom, e->sched_stack_size);
#else
    (void)dying;
#endif
    fc_transfer r = jump_fcontext(e->sched, NULL);
    e->sched = r.fctx; /* where the scheduler is now */
#ifdef EMU_ASAN
    __sanitizer_finish_switch_fiber(e->cur->fake_stack, &e->sched_stack_bottom, &e->sched_stack_size);
#endif
}

/* Fiber: posts op and waits until its warp has executed it. */
static void post(emu *e, emu_thread *t, emu_op *op)
{
    t->op = op;
    t->last_line = op->line;
    t->state = op->kind == TRACE_BARRIER ? TS_BARRIER : TS_PENDING;
    yield(e, 0);
}

/* Fiber: the words kept in registers are written back, as the compiler must before anything it
 * cannot see through (a barrier, a __syncwarp, another access, the thread's end); each store is
 * traced at the line of the last assignment to its word. */
static void write_back(emu *e, emu_thread *t)
{
    int n = t->nregs;
    t->nregs = 0;
    for (int i = 0; i < n && !e->failed; i++) {
        const emu_reg_copy *r = &t->regs[i];
        if (!r->dirty) continue;
        emu_op s;
        memset(&s, 0, sizeof s);
        s.kind = TRACE_SHARED_STORE;
        s.line = r->line;
        s.buf = -1;
        s.index = r->word;
        s.lo = r->lo;
        s.hi = r->hi;
        s.elem_size = r->elem_size;
        s.is_int = r->is_int;
        memcpy(s.data, r->data, sizeof s.data);
        post(e, t, &s);
    }
}

/* Fiber: a plain shared access the compiler may keep in a register. A load of a word held is
 * served from the register (no memory access); a first load goes to memory and is kept; a store
 * only updates the register. So every lane of v4-novolatile's tail reads its partners' words as
 * they were when the tail began, as the SASS nvcc makes of it does (docs/hazards.md). */
static void register_copy(emu *e, emu_thread *t, emu_op *op)
{
    emu_reg_copy *r = NULL;
    for (int i = 0; i < t->nregs; i++)
        if (t->regs[i].word == op->index) r = &t->regs[i];
    if (r && op->kind == TRACE_SHARED_LOAD) {
        memcpy(op->data, r->data, sizeof op->data);
        return;
    }
    if (!r && t->nregs == EMU_REG_COPIES) write_back(e, t); /* out of registers: spill them all */
    if (op->kind == TRACE_SHARED_LOAD) post(e, t, op);
    if (!r) {
        r = &t->regs[t->nregs++];
        r->word = op->index;
        r->lo = op->lo;
        r->hi = op->hi;
        r->dirty = 0;
    }
    memcpy(r->data, op->data, sizeof r->data);
    r->elem_size = op->elem_size;
    r->is_int = op->is_int;
    if (op->kind == TRACE_SHARED_STORE) {
        r->dirty = 1;
        r->line = op->line;
    }
}

void emu_do(emu_op *op)
{
    emu *e = current;
    emu_thread *t = e->cur;
    const emu_launch *L = e->launch;
    /* break-it: the barrier at this line is not there; the thread runs straight on */
    if ((op->kind == TRACE_BARRIER && L->drop_barrier && op->line == L->drop_barrier) ||
        (op->kind == TRACE_WARP_SYNC && L->drop_syncwarp && op->line == L->drop_syncwarp)) {
        e->dropped[op->kind == TRACE_WARP_SYNC]++;
        return;
    }
    if (op->cached && (op->kind == TRACE_SHARED_LOAD || op->kind == TRACE_SHARED_STORE)) {
        register_copy(e, t, op);
        return;
    }
    /* a register assignment touches no memory: it is shown, when the block is recorded, and is no
     * point where the compiler would write back the shared words it keeps in registers */
    if (op->kind == TRACE_REGISTER) {
        if (e->recording) post(e, t, op);
        return;
    }
    if (t->nregs) write_back(e, t);
    post(e, t, op);
}

int64_t emu_shared_region(const void *key, unsigned bytes)
{
    emu *e = current;
    for (int i = 0; i < e->nregions; i++)
        if (e->regions[i].key == key) return e->regions[i].word;
    int64_t words = (bytes + WORD_BYTES - 1) / WORD_BYTES;
    if (e->nregions == EMU_MAX_REGIONS || (e->shared_words_used + words) * WORD_BYTES > EMU_SHARED_BYTES) {
        fail(e, "the block's __shared__ objects need more than %d bytes", EMU_SHARED_BYTES);
        return 0;
    }
    e->regions[e->nregions].key = key;
    e->regions[e->nregions].word = e->shared_words_used;
    e->nregions++;
    e->shared_words_used += words;
    if (e->shared_words_used > e->shared_words_max) e->shared_words_max = e->shared_words_used;
    return e->shared_words_used - words;
}

static void fiber_main(fc_transfer from)
{
    emu *e = current;
    e->sched = from.fctx;
#ifdef EMU_ASAN
    __sanitizer_finish_switch_fiber(NULL, &e->sched_stack_bottom, &e->sched_stack_size);
#endif
    e->launch->kernel(e->launch->args);
    if (e->cur->nregs) write_back(e, e->cur);
    e->cur->state = TS_EXITED;
    yield(e, 1); /* an fcontext function must never return */
}

emu *emu_create(void)
{
    emu *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    long page = sysconf(_SC_PAGESIZE);
    e->stack_stride = (size_t)page + EMU_STACK;
    size_t total = e->stack_stride * EMU_MAX_THREADS;
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) { free(e); return NULL; }
    e->stacks = m;
    return e;
}

void emu_destroy(emu *e)
{
    if (!e) return;
    for (int i = 0; i < EMU_MAX_WORKERS; i++) emu_destroy(e->helpers[i]);
    trace_free(&e->helper_trace);
    munmap(e->stacks, e->stack_stride * EMU_MAX_THREADS);
    free(e);
}

const char *emu_last_error(const emu *e) { return e->err; }
uint64_t emu_dropped(const emu *e, int kind) { return e->dropped[kind == TRACE_WARP_SYNC]; }

unsigned emu_shared_bytes(const emu *e) { return (unsigned)(e->shared_words_max * WORD_BYTES); }

int emu_set_buffer(emu *e, int id, void *mem, size_t bytes)
{
    if (id < 0 || id >= EMU_MAX_BUFFERS) { fail(e, "buffer id %d out of range", id); return -1; }
    e->buffers[id].mem = mem;
    e->buffers[id].bytes = bytes;
    return 0;
}

void emu_clear_buffers(emu *e) { memset(e->buffers, 0, sizeof e->buffers); }

/* ---- executing one warp instruction ---- */

/* Value c of a lane's op, exact in a double: a float, int or unsigned; for 8 bytes a double, long
 * long or unsigned long long (elem_size 16 is a float4's four floats). */
static double lane_value(const emu_op *op, unsigned c)
{
    if (op->elem_size == 8) {
        uint64_t u;
        memcpy(&u, op->data, 8);
        if (op->is_int == 2) return (double)(int64_t)u;
        if (op->is_int) return (double)u;
        double d;
        memcpy(&d, &u, 8);
        return d;
    }
    if (op->is_int == 2) return (double)(int32_t)op->data[c]; /* a signed int */
    if (op->is_int) return (double)op->data[c];
    float f;
    memcpy(&f, &op->data[c], sizeof f);
    return f;
}

/* a 64-bit integer a double holds exactly: |v| at most 2^53 (trace.h, TRACE_TYPES) */
static int lane_exact(const emu_op *op)
{
    if (op->elem_size != 8 || !op->is_int) return 1;
    uint64_t u;
    memcpy(&u, op->data, 8);
    uint64_t mag = op->is_int == 2 && (int64_t)u < 0 ? 0 - u : u;
    return mag <= ((uint64_t)1 << 53);
}

static void where(const emu *e, unsigned tid, char *s, size_t n)
{
    emu_dim3 b = e->block_idx, t = e->threads[tid].idx;
    if (e->block_dim.y == 1 && e->block_dim.z == 1 && e->grid_dim.y == 1 && e->grid_dim.z == 1)
        snprintf(s, n, "block %u, thread %u (warp %u, lane %u)", b.x, tid, tid / WARP_SIZE, tid % WARP_SIZE);
    else
        snprintf(s, n, "block (%u, %u, %u), thread (%u, %u, %u) (thread %u: warp %u, lane %u)", b.x, b.y, b.z, t.x, t.y, t.z, tid,
                 tid / WARP_SIZE, tid % WARP_SIZE);
}

static int check_shared(emu *e, const emu_op *op, unsigned tid)
{
    int64_t words = (op->elem_size + WORD_BYTES - 1) / WORD_BYTES;
    if (op->index >= op->lo && op->index + words <= op->hi) return 0;
    char w[96];
    where(e, tid, w, sizeof w);
    fail(e, "line %u: %s %s element %lld of a __shared__ array of %lld elements (out of bounds)", op->line, w,
         op->kind == TRACE_SHARED_STORE ? "writes" : "reads", (long long)((op->index - op->lo) / words),
         (long long)((op->hi - op->lo) / words));
    return -1;
}

static unsigned char *global_at(emu *e, const emu_op *op, unsigned tid)
{
    if (op->buf < 0 || op->buf >= EMU_MAX_BUFFERS || !e->buffers[op->buf].mem) {
        fail(e, "line %u: access to unknown global buffer %d", op->line, op->buf);
        return NULL;
    }
    size_t bytes = e->buffers[op->buf].bytes;
    if (op->index < 0 || (uint64_t)(op->index + 1) * op->elem_size > bytes) {
        char w[96];
        where(e, tid, w, sizeof w);
        fail(e, "line %u: %s accesses global element %lld, beyond a buffer of %zu elements", op->line, w,
             (long long)op->index, bytes / op->elem_size);
        return NULL;
    }
    return e->buffers[op->buf].mem + (size_t)op->index * op->elem_size;
}

/* The word a global atomic leaves, from the old one and the thread's value (op->data), in the type
 * of its word (4 or 8 bytes, as CUDA's overloads); CUDA's atomicInc wraps to 0 once the old value
 * reaches the limit. Integers add and subtract in two's complement, the same bits signed or not. */
static uint64_t atomic_result(const emu_op *op, uint64_t old)
{
    uint64_t v = 0;
    memcpy(&v, op->data, op->elem_size == 8 ? 8 : 4);
    switch (op->atomic) {
    case EMU_ATOMIC_INC: return old >= op->operand ? 0 : old + 1;
    case EMU_ATOMIC_EXCH: return v;
    case EMU_ATOMIC_CAS: return old == op->operand ? v : old;
    default: break;
    }
    int add = op->atomic == EMU_ATOMIC_ADD, sub = op->atomic == EMU_ATOMIC_SUB, max = op->atomic == EMU_ATOMIC_MAX;
    if (op->word == EMU_WORD_F32) {
        float f, vf, r;
        uint32_t o32 = (uint32_t)old, v32 = (uint32_t)v, out;
        memcpy(&f, &o32, 4);
        memcpy(&vf, &v32, 4);
        r = add ? f + vf : sub ? f - vf : max ? (vf > f ? vf : f) : (vf < f ? vf : f);
        memcpy(&out, &r, 4);
        return out;
    }
    if (op->word == EMU_WORD_F64) {
        double f, vf, r;
        memcpy(&f, &old, 8);
        memcpy(&vf, &v, 8);
        r = add ? f + vf : sub ? f - vf : max ? (vf > f ? vf : f) : (vf < f ? vf : f);
        uint64_t out;
        memcpy(&out, &r, 8);
        return out;
    }
    uint64_t mask = op->word == EMU_WORD_U64 || op->word == EMU_WORD_I64 ? ~(uint64_t)0 : 0xffffffffu;
    if (add) return (old + v) & mask;
    if (sub) return (old - v) & mask;
    int greater = op->word == EMU_WORD_I32 ? (int32_t)(uint32_t)v > (int32_t)(uint32_t)old
                : op->word == EMU_WORD_I64 ? (int64_t)v > (int64_t)old
                                           : v > old;
    return max == greater ? v : old;
}

static void shuffle(emu *e, unsigned w, uint32_t group, int64_t *src_out)
{
    emu_thread *th = &e->threads[w * WARP_SIZE];
    uint32_t got[WARP_SIZE];
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(group >> l & 1)) continue;
        const emu_op *op = th[l].op;
        int width = op->width >= 1 && op->width <= WARP_SIZE ? op->width : WARP_SIZE;
        unsigned seg = l / (unsigned)width * (unsigned)width;
        int src;
        switch (op->shfl_mode) {
        case EMU_SHFL_DOWN: src = (int)l + op->shfl_arg; if (src >= (int)(seg + (unsigned)width)) src = (int)l; break;
        case EMU_SHFL_UP: src = (int)l - op->shfl_arg; if (src < (int)seg) src = (int)l; break;
        case EMU_SHFL_XOR: src = (int)(l ^ (unsigned)op->shfl_arg); if (src >= (int)(seg + (unsigned)width)) src = (int)l; break;
        default: src = (int)(seg + ((unsigned)op->shfl_arg % (unsigned)width)); break;
        }
        /* a source lane that is not taking part is undefined in CUDA; hardware returns stale
         * register contents, here the caller keeps its own value */
        if (!(group >> src & 1)) src = (int)l;
        src_out[l] = src;
        got[l] = th[src].op->data[0];
    }
    for (unsigned l = 0; l < WARP_SIZE; l++)
        if (group >> l & 1) th[l].op->data[0] = got[l];
}

/* Tells the observer what lane tid of the running block did to memory. */
static void observe(emu *e, const emu_op *op, int kind, unsigned tid, int record)
{
    const emu_observer *o = e->launch->observer;
    if (!o || !o->access) return;
    int global = kind != TRACE_SHARED_LOAD && kind != TRACE_SHARED_STORE;
    unsigned words = op->elem_size > WORD_BYTES ? op->elem_size / WORD_BYTES : 1;
    emu_access a = {global, op->buf, global ? op->index * (int64_t)words : op->index, words,
                    kind == TRACE_SHARED_STORE || kind == TRACE_GLOBAL_STORE || kind == TRACE_GLOBAL_ATOMIC,
                    kind == TRACE_GLOBAL_ATOMIC, linear(e->block_idx, e->grid_dim), tid, tid / WARP_SIZE, op->line,
                    record && e->launch->trace ? (int64_t)e->launch->trace->nevents : -1};
    o->access(o->ctx, &a);
}

static void record_plain(emu *e, unsigned w, int kind, unsigned line, uint32_t mask, unsigned phase);

/* Device printf: a traced block records the warp's call as a printf event; every block's lines are
 * kept, lane by lane (the order a warp's lanes print in), up to the trace's limits (trace.h). */
static void print_lines(emu *e, unsigned w, uint32_t group, int record, unsigned phase)
{
    emu_thread *th = &e->threads[w * WARP_SIZE];
    trace *t = e->launch->trace;
    if (!t) return;
    unsigned line = th[__builtin_ctz(group)].op->line;
    int64_t ev = record ? (int64_t)t->nevents : -1;
    if (record) record_plain(e, w, TRACE_PRINTF, line, group, phase);
    for (unsigned l = 0; l < WARP_SIZE && !e->failed; l++) {
        if (!(group >> l & 1)) continue;
        const char *text = th[l].op->text ? th[l].op->text : "";
        trace_print p = {e->launch->pass, linear(e->block_idx, e->grid_dim), w * WARP_SIZE + l, line, ev, 0, 0};
        if (trace_add_print(t, &p, text, strlen(text)) < 0) fail(e, "out of memory while recording printf's output");
    }
}

static void execute(emu *e, unsigned w, uint32_t group, int record, unsigned phase)
{
    emu_thread *th = &e->threads[w * WARP_SIZE];
    if (th[__builtin_ctz(group)].op->kind == TRACE_PRINTF) {
        print_lines(e, w, group, record, phase);
        return;
    }
    const emu_observer *obs = e->launch->observer;
    const emu_op *first = th[__builtin_ctz(group)].op;
    int64_t addr[WARP_SIZE];
    double val[WARP_SIZE * 4];
    int64_t src[WARP_SIZE];
    int kind = first->kind;
    if (kind == TRACE_SHUFFLE) shuffle(e, w, group, src);
    int n = 0;
    for (unsigned l = 0; l < WARP_SIZE && !e->failed; l++) {
        if (!(group >> l & 1)) continue;
        emu_op *op = th[l].op;
        unsigned tid = w * WARP_SIZE + l;
        unsigned char *p = NULL;
        switch (kind) {
        case TRACE_SHARED_LOAD:
        case TRACE_SHARED_STORE:
            if (check_shared(e, op, tid)) return;
            p = e->shared + op->index * WORD_BYTES;
            if (kind == TRACE_SHARED_LOAD) memcpy(op->data, p, op->elem_size);
            else memcpy(p, op->data, op->elem_size);
            addr[n] = op->index;
            observe(e, op, kind, tid, record);
            break;
        case TRACE_GLOBAL_LOAD:
        case TRACE_GLOBAL_STORE:
            if (!(p = global_at(e, op, tid))) return;
            if (kind == TRACE_GLOBAL_LOAD) memcpy(op->data, p, op->elem_size);
            else memcpy(p, op->data, op->elem_size);
            addr[n] = op->index;
            observe(e, op, kind, tid, record);
            break;
        case TRACE_GLOBAL_ATOMIC: {
            if (!e->launch->serial_blocks && e->launch->grid > 1) { /* see emu_launch.serial_blocks */
                fail(e, "line %u: a global atomic in a launch of %u blocks that run in parallel (serial_blocks not set)",
                     op->line, e->launch->grid);
                return;
            }
            if (!(p = global_at(e, op, tid))) return;
            unsigned bytes = op->elem_size == 8 ? 8 : 4;
            uint64_t old = 0;
            memcpy(&old, p, bytes);
            uint64_t nv = atomic_result(op, old);
            memcpy(p, &nv, bytes);
            memcpy(op->data, &old, bytes);
            addr[n] = op->index;
            observe(e, op, kind, tid, record);
            break;
        }
        case TRACE_FENCE:
            if (obs && obs->fence) obs->fence(obs->ctx, tid);
            break;
        case TRACE_SHUFFLE:
            addr[n] = src[l];
            break;
        case TRACE_REGISTER: /* no memory: the value assigned, at the lane that holds it, and which register (trace_register_id) */
            addr[n] = l + (int64_t)WARP_SIZE * op->index;
            break;
        default:
            break;
        }
        unsigned width = op->elem_size == 4 * WORD_BYTES ? 4 : 1; /* a float4's four values, else one */
        for (unsigned c = 0; c < width; c++) {
            double v = val[n * (int)width + (int)c] = lane_value(op, c);
            /* a trace holds finite values (its JSON cannot write inf or nan): said at the line */
            if (record && !isfinite(v)) {
                char who[96];
                where(e, tid, who, sizeof who);
                fail(e, "line %u: %s: the value %s is not a finite float, and a trace holds finite floats only (for a maximum, "
                        "start from -FLT_MAX, not -INFINITY)", op->line, who, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
            }
            /* a long long past 2^53 would be rounded in the trace's doubles: refused, never silently changed */
            if (record && !lane_exact(op)) {
                char who[96];
                where(e, tid, who, sizeof who);
                fail(e, "line %u: %s: the value %.0f is a 64-bit integer beyond 2^53, which a trace cannot hold exactly (its "
                        "values are doubles): keep a long long sum under 2^53", op->line, who, v);
            }
        }
        n++;
    }
    if (kind == TRACE_WARP_SYNC && obs && obs->warp_sync && !e->failed) obs->warp_sync(obs->ctx, w, group);
    if (e->failed || !record) return;
    trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.elem_size = (uint8_t)(trace_kind_has_data((trace_kind)kind) ? (first->elem_size ? first->elem_size : 4) : 0);
    ev.buf = (uint8_t)(first->buf >= 0 ? first->buf : 0);
    ev.pass = (uint8_t)e->launch->pass;
    ev.warp = (uint16_t)w;
    ev.phase = (uint16_t)phase;
    ev.block = linear(e->block_idx, e->grid_dim);
    ev.line = first->line;
    ev.mask = group;
    if (over_budget(e, first->line)) return;
    if (trace_push(e->launch->trace, &ev, addr, val)) fail(e, "out of memory while recording the trace");
}

static void record_plain(emu *e, unsigned w, int kind, unsigned line, uint32_t mask, unsigned phase)
{
    trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.pass = (uint8_t)e->launch->pass;
    ev.warp = (uint16_t)w;
    ev.phase = (uint16_t)phase;
    ev.block = linear(e->block_idx, e->grid_dim);
    ev.line = line;
    ev.mask = mask;
    if (over_budget(e, line)) return;
    if (trace_push(e->launch->trace, &ev, NULL, NULL)) fail(e, "out of memory while recording the trace");
}

/* Program order of the kinds within one line: an expression reads before it writes
 * (`sdata[tid] = (i < n) ? g_idata[i] : 0.0f` loads, then stores), so lanes that skipped a load
 * wait at the store for those still loading, and the warp stores as one, as hardware does; a
 * register is assigned what the line read (`mySum += g_idata[i]`). */
int emu_kind_rank(int kind)
{
    static const int rank[TRACE_KIND_COUNT] = {
        [TRACE_SHARED_LOAD] = 0, [TRACE_GLOBAL_LOAD] = 1, [TRACE_SHUFFLE] = 2, [TRACE_REGISTER] = 3,
        [TRACE_GLOBAL_ATOMIC] = 4, [TRACE_SHARED_STORE] = 5, [TRACE_GLOBAL_STORE] = 6,
        [TRACE_BARRIER] = 7, [TRACE_WARP_SYNC] = 7, [TRACE_FENCE] = 7, [TRACE_EXIT] = 7, [TRACE_PRINTF] = 6};
    return (unsigned)kind < TRACE_KIND_COUNT ? rank[kind] : 7;
}

static int is_sync(const emu_op *op) { return op->kind == TRACE_SHUFFLE || op->kind == TRACE_WARP_SYNC; }

static int sync_ready(const emu_thread *th, const emu_op *op)
{
    for (unsigned m = 0; m < WARP_SIZE; m++) {
        if (!(op->mask >> m & 1) || th[m].state == TS_EXITED) continue;
        if (th[m].state != TS_PENDING || th[m].op->line != op->line || th[m].op->kind != op->kind) return 0;
    }
    return 1;
}

uint64_t emu_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t emu_pick_lockstep(uint32_t ready, const emu_op *const ops[WARP_SIZE], uint64_t *rng)
{
    (void)rng;
    uint32_t group = 0;
    unsigned best_line = 0;
    int best_kind = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(ready >> l & 1)) continue;
        const emu_op *op = ops[l];
        if (!group || op->line < best_line ||
            (op->line == best_line && emu_kind_rank(op->kind) < emu_kind_rank(best_kind))) {
            group = 1u << l;
            best_line = op->line;
            best_kind = op->kind;
        } else if (op->line == best_line && op->kind == best_kind) {
            group |= 1u << l;
        }
    }
    return group;
}

/* Runs warp w until all its live lanes wait at a barrier or have exited. */
static void run_warp(emu *e, unsigned w, int record, unsigned phase)
{
    emu_thread *th = &e->threads[w * WARP_SIZE];
    const emu_schedule *S = e->launch->schedule;
    emu_pick_fn pick = S && S->pick ? S->pick : emu_pick_lockstep;
    while (!e->failed) {
        uint32_t exited = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (th[l].state != TS_READY) continue;
            resume(e, &th[l]);
            if (th[l].state == TS_EXITED) exited |= 1u << l;
        }
        if (e->failed) return;
        if (exited && record) record_plain(e, w, TRACE_EXIT, 0, exited, phase);
        /* the schedule picks among the ready lanes (lockstep: the lowest (line, kind) go first),
         * except that a *_sync op waits until every live lane of its mask has arrived at it
         * (CUDA's semantics for shuffles and __syncwarp; it is also where hardware reconverges) */
        uint32_t ready = 0, pending = 0, group = 0;
        const emu_op *ops[WARP_SIZE];
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            ops[l] = NULL;
            if (th[l].state != TS_PENDING) continue;
            pending |= 1u << l;
            ops[l] = th[l].op;
            if (is_sync(ops[l]) && !sync_ready(th, ops[l])) continue;
            ready |= 1u << l;
        }
        if (ready) {
            group = pick(ready, ops, &e->rng) & ready;
            if (!group) group = ready & -ready;
            const emu_op *lead = ops[__builtin_ctz(group)];
            for (unsigned l = 0; l < WARP_SIZE; l++) { /* a group is one point of the code */
                if (!(group >> l & 1)) continue;
                if (ops[l]->line != lead->line || ops[l]->kind != lead->kind) group &= ~(1u << l);
            }
            if (is_sync(lead)) /* a *_sync op runs for its whole mask at once */
                for (unsigned l = 0; l < WARP_SIZE; l++)
                    if ((ready >> l & 1) && ops[l]->line == lead->line && ops[l]->kind == lead->kind) group |= 1u << l;
        }
        if (!group && pending) {
            const emu_op *op = th[__builtin_ctz(pending)].op;
            fail(e, "line %u: warp %u: lanes 0x%08x wait in a *_sync call for lanes of its mask 0x%08x that never arrive",
                 op->line, w, pending, op->mask);
            return;
        }
        if (!group) return;
        execute(e, w, group, record, phase);
        for (unsigned l = 0; l < WARP_SIZE; l++)
            if (group >> l & 1) th[l].state = TS_READY;
    }
}

/* thread i's guard page below its stack: an overflow faults; set once, on first use */
static void guard(emu *e, unsigned i)
{
    for (; e->guarded <= i; e->guarded++)
        mprotect(e->stacks + (size_t)e->guarded * e->stack_stride, e->stack_stride - EMU_STACK, PROT_NONE);
}

int emu_prepare(emu *e, unsigned threads, unsigned workers)
{
    if (threads > EMU_MAX_THREADS) threads = EMU_MAX_THREADS;
    if (workers > EMU_MAX_WORKERS) workers = EMU_MAX_WORKERS;
    for (unsigned k = 0; k < workers; k++) {
        emu *w = k ? e->helpers[k] : e;
        if (!w && !(w = e->helpers[k] = emu_create())) return -1;
        if (threads) guard(w, threads - 1);
    }
    return 0;
}

/* A fresh fiber on thread i's stack. Stacks are reused from block to block: make_fcontext only
 * writes the start frame at the top. */
static void init_fiber(emu *e, unsigned i, unsigned nthreads)
{
    emu_thread *t = &e->threads[i];
    t->idx = unlinear(i, e->block_dim);
    t->op = NULL;
    t->nregs = 0;
    if (i >= nthreads) { t->state = TS_EXITED; return; }
    t->state = TS_READY;
    char *stack = stack_of(e, t);
    guard(e, i);
#ifdef EMU_ASAN
    /* a fiber abandoned after an error leaves its frames' redzones poisoned */
    ASAN_UNPOISON_MEMORY_REGION(stack, EMU_STACK);
    t->fake_stack = NULL;
#endif
    t->ctx = make_fcontext(stack + EMU_STACK, EMU_STACK, fiber_main);
}

/* The order the warps of a block run in until the next barrier. */
static void warp_order(emu *e, unsigned *order, unsigned nwarps)
{
    const emu_schedule *S = e->launch->schedule;
    emu_warp_order how = S ? S->warps : EMU_WARPS_IN_ORDER;
    for (unsigned k = 0; k < nwarps; k++) order[k] = how == EMU_WARPS_REVERSED ? nwarps - 1 - k : k;
    if (how != EMU_WARPS_SEEDED) return;
    for (unsigned k = nwarps; k > 1; k--) { /* Fisher-Yates */
        unsigned j = (unsigned)(emu_random(&e->rng) % k), tmp = order[k - 1];
        order[k - 1] = order[j];
        order[j] = tmp;
    }
}

static void run_block(emu *e, unsigned bx)
{
    const emu_launch *L = e->launch;
    unsigned nthreads = L->block, nwarps = (nthreads + WARP_SIZE - 1) / WARP_SIZE;
    const emu_observer *obs = L->observer;
    /* each block's choices depend only on the seed, the pass and the block: deterministic, and
     * the same whichever order blocks run in */
    e->rng = (L->schedule ? L->schedule->seed : 0) ^ ((uint64_t)L->pass << 48) ^ ((uint64_t)bx * 0x2545f4914f6cdd1dull);
    emu_random(&e->rng);
    if (obs && obs->block) obs->block(obs->ctx, bx);
    int record = L->trace && bx < L->blocks_traced;
    e->recording = record;
    e->block_idx = unlinear(bx, e->grid_dim);
    e->nregions = 0;
    e->shared_words_used = 0;
    /* shared memory starts undefined on hardware; a fixed fill keeps captures deterministic */
    memset(e->shared, 0, sizeof e->shared);
    for (unsigned i = 0; i < nwarps * WARP_SIZE; i++) init_fiber(e, i, nthreads);
    unsigned phase = 0;
    while (!e->failed) {
        unsigned order[EMU_MAX_THREADS / WARP_SIZE];
        warp_order(e, order, nwarps);
        for (unsigned k = 0; k < nwarps && !e->failed; k++) run_warp(e, order[k], record, phase);
        if (e->failed) return;
        /* every live thread now waits at a barrier: the same one, or it is an error */
        int first = -1;
        for (unsigned i = 0; i < nthreads; i++) {
            const emu_thread *t = &e->threads[i];
            if (t->state != TS_BARRIER) continue;
            if (first < 0) { first = (int)i; continue; }
            unsigned l0 = e->threads[first].op->line;
            if (t->op->line != l0) {
                fail(e, "block %u: threads wait at different __syncthreads: thread %d at line %u, thread %u at line %u",
                     bx, first, l0, i, t->op->line);
                return;
            }
        }
        if (first < 0) return; /* all threads have exited */
        unsigned line = e->threads[first].op->line;
        if (e->launch->strict_barriers) {
            unsigned waiting = 0;
            for (unsigned i = 0; i < nthreads; i++) waiting += e->threads[i].state == TS_BARRIER;
            if (waiting < nthreads) {
                fail(e, "line %u: block %u: __syncthreads() reached by %u of its %u threads; the others have returned "
                        "(every thread of a block must reach each barrier)",
                     line, bx, waiting, nthreads);
                return;
            }
        }
        for (unsigned w = 0; w < nwarps; w++) {
            uint32_t m = 0;
            for (unsigned l = 0; l < WARP_SIZE; l++)
                if (e->threads[w * WARP_SIZE + l].state == TS_BARRIER) m |= 1u << l;
            if (m && record) record_plain(e, w, TRACE_BARRIER, line, m, phase);
            for (unsigned l = 0; l < WARP_SIZE; l++)
                if (m >> l & 1) e->threads[w * WARP_SIZE + l].state = TS_READY;
        }
        if (obs && obs->barrier) obs->barrier(obs->ctx);
        phase++;
    }
}

/* Runs blocks [first_block, end_block) of the launch on this worker. */
static uint64_t gcd(uint64_t x, uint64_t y)
{
    while (y) {
        uint64_t r = x % y;
        x = y;
        y = r;
    }
    return x;
}

static void run_range(emu *e)
{
    const emu_launch *L = e->launch;
    emu *saved = current;
    current = e;
    /* the order: index order, or (schedule.block_seed) b = first + (a * i + c) mod count, a drawn
     * coprime to count: a permutation that needs no memory, whatever the grid */
    uint64_t count = e->end_block - e->first_block, a = 1, c = 0;
    if (L->schedule && L->schedule->block_seed && count > 1) {
        uint64_t rng = L->schedule->block_seed ^ ((uint64_t)L->pass + 1) * 0x9E3779B97F4A7C15ull;
        c = emu_random(&rng) % count;
        do a = 1 + emu_random(&rng) % (count - 1); while (gcd(a, count) != 1);
    }
    for (uint64_t i = 0; i < count && !e->failed; i++) {
        if (L->cancel && __atomic_load_n(L->cancel, __ATOMIC_RELAXED)) {
            fail(e, "interrupted");
            break;
        }
        unsigned b = e->first_block + (unsigned)((a * i + c) % count);
        run_block(e, b);
        if (e->failed) break;
        if (L->blocks_done) __atomic_fetch_add(L->blocks_done, 1, __ATOMIC_RELAXED);
        if (L->progress && L != &e->helper_launch) L->progress(L->progress_ctx); /* on the calling thread */
    }
    current = saved;
}

static void *worker_main(void *arg)
{
    run_range(arg);
    return NULL;
}

unsigned emu_default_workers(void)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
    if (n < 1) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > EMU_MAX_WORKERS ? EMU_MAX_WORKERS : (unsigned)n;
}

int emu_run(emu *e, const emu_launch *l)
{
    e->failed = 0;
    e->err[0] = '\0';
    if (l->block < 1 || l->block > EMU_MAX_THREADS) {
        fail(e, "block of %u threads: the emulator runs 1 to %d", l->block, EMU_MAX_THREADS);
        return -1;
    }
    emu_dim3 gd = l->grid_dim, bd = l->block_dim;
    if (!gd.x && !gd.y && !gd.z) gd = (emu_dim3){l->grid, 1, 1};
    if (!bd.x && !bd.y && !bd.z) bd = (emu_dim3){l->block, 1, 1};
    if (!gd.x || !gd.y || !gd.z || !bd.x || !bd.y || !bd.z || (uint64_t)gd.x * gd.y * gd.z != l->grid ||
        (uint64_t)bd.x * bd.y * bd.z != l->block) {
        fail(e, "a launch of %u x %u x %u blocks of %u x %u x %u threads is not %u blocks of %u threads", gd.x, gd.y, gd.z, bd.x, bd.y,
             bd.z, l->grid, l->block);
        return -1;
    }
    /* Workers: contiguous ranges of blocks, a few blocks at least each, so that a small grid
     * stays on the calling thread with no thread started. */
    enum { MIN_BLOCKS_PER_WORKER = 4 };
    unsigned nw = l->workers ? l->workers : emu_default_workers();
    if (nw > EMU_MAX_WORKERS) nw = EMU_MAX_WORKERS;
    if (l->serial_blocks || l->observer) nw = 1; /* an observer sees one launch in block order */
    if (nw > l->grid / MIN_BLOCKS_PER_WORKER) nw = l->grid / MIN_BLOCKS_PER_WORKER;
    if (nw < 1) nw = 1;
    emu *w[EMU_MAX_WORKERS];
    w[0] = e;
    e->launch = l;
    if (l->observer && l->observer->launch) l->observer->launch(l->observer->ctx, l->pass, l->grid, l->block);
    for (unsigned k = 1; k < nw; k++) {
        if (!e->helpers[k] && !(e->helpers[k] = emu_create())) {
            fail(e, "out of memory for the stacks of %u emulator workers", nw);
            e->launch = NULL;
            return -1;
        }
        w[k] = e->helpers[k];
        memcpy(w[k]->buffers, e->buffers, sizeof e->buffers);
        w[k]->failed = 0;
        w[k]->err[0] = '\0';
        trace_free(&w[k]->helper_trace);
        w[k]->helper_launch = *l;
        w[k]->helper_launch.trace = l->trace ? &w[k]->helper_trace : NULL;
        w[k]->launch = &w[k]->helper_launch;
    }
    for (unsigned k = 0; k < nw; k++) {
        w[k]->dropped[0] = w[k]->dropped[1] = 0;
        w[k]->shared_words_max = 0;
        w[k]->block_dim = bd;
        w[k]->grid_dim = gd;
        w[k]->first_block = (unsigned)((uint64_t)l->grid * k / nw);
        w[k]->end_block = (unsigned)((uint64_t)l->grid * (k + 1) / nw);
    }
    pthread_t tid[EMU_MAX_WORKERS];
    unsigned started = 1;
    for (; started < nw; started++)
        if (pthread_create(&tid[started], NULL, worker_main, w[started])) break;
    run_range(e);
    /* workers whose thread could not start run here, each into its own trace as planned */
    for (unsigned k = started; k < nw; k++) run_range(w[k]);
    for (unsigned k = 1; k < started; k++) pthread_join(tid[k], NULL);
    /* the first error in block order is the one a serial run would have stopped at */
    int failed = 0;
    for (unsigned k = 0; k < nw && !failed; k++) {
        if (!w[k]->failed) continue;
        failed = 1;
        if (k) fail(e, "%s", w[k]->err);
    }
    /* traces in block order: worker 0 recorded into the launch's trace, the others are appended */
    for (unsigned k = 1; k < nw && !failed && l->trace; k++)
        if (trace_append(l->trace, &w[k]->helper_trace)) {
            fail(e, "out of memory while recording the trace");
            failed = 1;
        }
    for (unsigned k = 1; k < nw; k++) {
        e->dropped[0] += w[k]->dropped[0];
        e->dropped[1] += w[k]->dropped[1];
        if (w[k]->shared_words_max > e->shared_words_max) e->shared_words_max = w[k]->shared_words_max;
        trace_free(&w[k]->helper_trace);
        w[k]->launch = NULL;
    }
    e->launch = NULL;
    return failed ? -1 : 0;
}
