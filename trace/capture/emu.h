/* emu: a deterministic CPU SIMT emulator for the kernels in kernels/.
 *
 * Each CUDA thread of a block is a fiber (ucontext, 64 KiB stack with a guard page). A thread runs
 * until its next traced point (a shared or global access, a shuffle, a barrier...), posts it as an
 * emu_op and yields. When every live lane of a warp has posted, the lanes at the lowest source line
 * execute that point together as one warp instruction (lowest line first is how these kernels
 * reconverge on hardware); the others wait, which is divergence. __syncthreads releases when every
 * live thread of the block waits at the same barrier (exited threads count as arrived). Warps run in
 * order, each until it blocks at a barrier or exits.
 *
 * Blocks: each runs alone, start to finish, on its own fibers and shared memory. The blocks of a
 * launch run in parallel on the available cores, each worker a contiguous range, their traces
 * appended in block order: the same result and the same trace as one after another. A launch whose
 * blocks talk to each other (serial_blocks: v8's atomic tickets) runs its blocks one after another
 * in block order, so block b draws ticket b and the last block, gridDim.x - 1, sums the partials;
 * a global atomic in a parallel launch is reported as an error rather than run in a racy order.
 *
 * That is the default schedule, lockstep with reconvergence, which is what hardware does for
 * race-free code. An emu_schedule changes two decisions and nothing else: which ready lanes of a
 * warp run the next warp instruction (schedule.h's table: independent thread scheduling with a seed,
 * one lane at a time...) and the order in which the warps of a block run between barriers. An
 * emu_observer sees every access, barrier, __syncwarp and fence (the race detector, race.h).
 *
 * The kernel side (trace/capture/ws_cuda.h) calls the hooks below; only emu.c keeps the current emulator,
 * because CUDA's builtins (threadIdx...) are implicit and cannot take a context argument. */
#ifndef WARPSCOPE_EMU_H
#define WARPSCOPE_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct emu_dim3 {
    unsigned x, y, z;
} emu_dim3;

typedef enum emu_shfl_mode { EMU_SHFL_DOWN, EMU_SHFL_UP, EMU_SHFL_XOR, EMU_SHFL_IDX } emu_shfl_mode;
/* What a global atomic does to the word (the old value comes back): atomicInc wraps at its limit */
typedef enum emu_atomic { EMU_ATOMIC_INC, EMU_ATOMIC_ADD, EMU_ATOMIC_SUB, EMU_ATOMIC_MAX, EMU_ATOMIC_MIN,
                          EMU_ATOMIC_EXCH, EMU_ATOMIC_CAS } emu_atomic;
/* the type of its word (4 or 8 bytes: op.elem_size) */
typedef enum emu_word { EMU_WORD_U32, EMU_WORD_I32, EMU_WORD_F32, EMU_WORD_U64, EMU_WORD_I64, EMU_WORD_F64 } emu_word;

/* One traced point, posted by a thread. */
typedef struct emu_op {
    int kind;          /* trace_kind */
    unsigned line;
    int buf;           /* global buffer id; -1 for shared memory */
    int64_t index;     /* shared: 4-byte word of the element; global: element index in buf */
    int64_t lo, hi;    /* shared: the array's words [lo, hi), for out-of-bounds reports */
    unsigned elem_size;
    int is_int;        /* the value is an integer, recorded as such in the trace: 1 unsigned, 2 signed;
                        * with elem_size 8: a double (0), unsigned long long (1), long long (2) */
    uint32_t data[4];  /* in: value to store or shuffle; out: the value loaded, shuffled or old */
    unsigned mask;     /* shuffle / warp sync member mask */
    int shfl_mode;
    int shfl_arg;      /* delta, lane mask or source lane */
    int width;         /* shuffle segment width */
    uint64_t operand;  /* atomicInc's limit; atomicCAS's compare (of the word's size) */
    int atomic;        /* emu_atomic */
    int word;          /* emu_word of the atomic's word and value (data[0]) */
    const char *text;  /* TRACE_PRINTF: what the thread's printf wrote (formatted in its fiber) */
    int cached;        /* a plain (not volatile) shared access the compiler may keep in a register:
                        * served from the thread's register copy until its next other traced point
                        * (see emu_do in emu.c, and shared_plain in trace/capture/ws_cuda.h) */
} emu_op;

/* ---- hooks for kernel code running inside the emulator ---- */
const emu_dim3 *emu_thread_idx(void);
const emu_dim3 *emu_block_idx(void);
const emu_dim3 *emu_block_dim(void);
const emu_dim3 *emu_grid_dim(void);
/* the running thread's index in its block and its block's in the grid, linear (x fastest) */
unsigned emu_thread_rank(void);
unsigned emu_block_rank(void);
void emu_do(emu_op *op);
/* First 4-byte word of a __shared__ object of this block, placed on its first use. */
int64_t emu_shared_region(const void *key, unsigned bytes);
/* 1 on a thread running kernel code (a fiber of a launch), 0 elsewhere (a learner's host code). */
int emu_in_kernel(void);
/* In a kernel: 1 when addr lies in the guard page below the running thread's stack (its stack
 * overflowed: recursion too deep), with the line of its last op in *line; else 0. */
int emu_stack_overflowed(const void *addr, unsigned *line);
/* In a kernel: 1 once the running launch has failed (a thread stopped it); its other threads end too. */
int emu_launch_failed(void);
/* From kernel code: stops the launch with this message (emu_last_error); the thread never resumes. */
void emu_abort(const char *what);

/* ---- running kernels ---- */
/* What every thread's kernel call gets (see WS_LAUNCH in trace/capture/ws_cuda.h). */
typedef struct emu_kernel_args {
    int in_buf, out_buf, counter_buf; /* global buffer ids */
    unsigned n, stride;
} emu_kernel_args;

typedef struct emu emu;
typedef void (*emu_kernel_fn)(const void *args);

/* ---- schedules ---- */
/* Picks the lanes that run a warp's next instruction. ready: the lanes whose posted op may run now
 * (a *_sync op only once every live lane of its mask has posted it); ops[l]: lane l's posted op
 * (NULL if none). Returns a non-empty subset of ready whose ops share one line and kind; the
 * emulator widens a *_sync op's group to every ready lane at it. rng: the block's random state. */
typedef uint32_t (*emu_pick_fn)(uint32_t ready, const emu_op *const ops[WARP_SIZE], uint64_t *rng);
/* The lanes at the lowest (line, kind rank) go together: how these kernels reconverge on hardware. */
uint32_t emu_pick_lockstep(uint32_t ready, const emu_op *const ops[WARP_SIZE], uint64_t *rng);
/* Program order of kinds within one line (loads before stores); lower runs first. */
int emu_kind_rank(int kind);
/* The next value of a splitmix64 stream (the schedules' random choices). */
uint64_t emu_random(uint64_t *state);

typedef enum emu_warp_order { EMU_WARPS_IN_ORDER, EMU_WARPS_REVERSED, EMU_WARPS_SEEDED } emu_warp_order;

typedef struct emu_schedule {
    emu_pick_fn pick;     /* NULL: emu_pick_lockstep */
    emu_warp_order warps; /* the order warps run in between two barriers */
    uint64_t seed;        /* of the random choices; mixed with pass, block and phase */
    uint64_t block_seed;  /* 0: a launch's blocks run in index order; else in an order drawn from it (a GPU
                             promises none), mixed with the pass (blocks that talk to each other then
                             finish in an order no file can count on) */
} emu_schedule;

/* ---- what a race detector sees ---- */
typedef struct emu_access {
    int global;           /* 0 shared memory, 1 a global buffer */
    int buf;              /* global buffer id */
    int64_t word;         /* shared: 4-byte word; global: 4-byte word of the buffer */
    unsigned words;       /* 4-byte words the access covers */
    int write, atomic;
    unsigned block, thread, warp, line;
    int64_t event;        /* index of the warp instruction's event in the trace; -1 when not recorded */
} emu_access;

typedef struct emu_observer {
    void *ctx;
    void (*launch)(void *ctx, unsigned pass, unsigned grid, unsigned block);
    void (*block)(void *ctx, unsigned block);  /* a block starts */
    void (*access)(void *ctx, const emu_access *a);
    void (*barrier)(void *ctx);                /* a __syncthreads released the running block */
    void (*warp_sync)(void *ctx, unsigned warp, uint32_t lanes); /* __syncwarp ran for these lanes */
    void (*fence)(void *ctx, unsigned thread); /* __threadfence by a thread of the running block */
} emu_observer;

typedef struct emu_launch {
    emu_kernel_fn kernel;
    const void *args;
    unsigned grid, block;   /* blocks, and threads per block (1 to 1024: a partial last warp's missing lanes do not exist) */
    emu_dim3 grid_dim, block_dim; /* their shape (products grid and block); all 0: (grid, 1, 1) and (block, 1, 1).
                             * Thread t of a block has threadIdx (t % x, t / x % y, t / (x * y)), as CUDA
                             * linearises it (warps are consecutive t, x fastest); blocks likewise; the
                             * trace and the observer number both linearly */
    unsigned pass;          /* recorded in each event */
    unsigned blocks_traced; /* blocks 0..blocks_traced-1 are recorded */
    trace *trace;           /* where events go; NULL records nothing */
    const emu_schedule *schedule;   /* NULL: lockstep, warps in order */
    const emu_observer *observer;   /* NULL: none */
    unsigned drop_barrier;  /* a __syncthreads at this source line is left out (break-it); 0 none */
    unsigned drop_syncwarp; /* a __syncwarp at this source line is left out; 0 none */
    unsigned workers;       /* threads running blocks; 0: one per available core */
    int serial_blocks;      /* 1: blocks communicate (atomics): one after another, in block order */
    int strict_barriers;    /* 1: a __syncthreads that threads which returned never reach is an error
                             * (hardware may hang or go wrong); 0: they count as arrived */
    uint64_t max_events;    /* the trace may hold at most this many events, earlier passes' too (0: no limit) */
    volatile int *cancel;   /* when it becomes nonzero, the run stops with "interrupted" */
    uint64_t *blocks_done;  /* incremented (atomically) after each block */
    void (*progress)(void *ctx); /* called on the calling thread after some blocks finish */
    void *progress_ctx;
} emu_launch;

emu *emu_create(void);
void emu_destroy(emu *e);
/* Made ready ahead: the stacks of `workers` workers and the guard pages of their first `threads`
 * fibers, so that each process forked from this one (a run of a check's batch) inherits them
 * instead of setting hundreds of guard pages itself. 0, or -1 out of memory. */
int emu_prepare(emu *e, unsigned threads, unsigned workers);
const char *emu_last_error(const emu *e);
/* Global memory the kernels may touch, by buffer id (the id events record): 0 to EMU_MAX_BUFFERS - 1,
 * more than a trace may name (TRACE_BUFFERS_MAX). */
enum { EMU_MAX_BUFFERS = 72 };
int emu_set_buffer(emu *e, int id, void *mem, size_t bytes);
/* Forgets every buffer (before an emulator is reused for another capture). */
void emu_clear_buffers(emu *e);
/* Runs every block of the launch. 0, or -1 with emu_last_error (out-of-bounds access, barrier
 * mismatch, out of memory...). */
int emu_run(emu *e, const emu_launch *l);
/* How many calls of kind TRACE_BARRIER or TRACE_WARP_SYNC the last emu_run left out
 * (drop_barrier, drop_syncwarp). */
uint64_t emu_dropped(const emu *e, int kind);
/* The most shared memory one block of the last emu_run declared, in bytes (its __shared__ objects,
 * static and dynamic, as placed; a GPU build may pad them differently). */
unsigned emu_shared_bytes(const emu *e);
/* The cores this process may run on (sched_getaffinity), at most the emulator's worker limit. */
unsigned emu_default_workers(void);

#ifdef __cplusplus
}
#endif
#endif
