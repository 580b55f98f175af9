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
 * The kernel side (kernels/ws_cuda.h) calls the hooks below; only emu.c keeps the current emulator,
 * because CUDA's builtins (threadIdx...) are implicit and cannot take a context argument. */
#ifndef WARPSCOPE_EMU_H
#define WARPSCOPE_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct emu_dim3 {
    unsigned x, y, z;
} emu_dim3;

typedef enum emu_shfl_mode { EMU_SHFL_DOWN, EMU_SHFL_UP, EMU_SHFL_XOR, EMU_SHFL_IDX } emu_shfl_mode;

/* One traced point, posted by a thread. */
typedef struct emu_op {
    int kind;          /* trace_kind */
    unsigned line;
    int buf;           /* global buffer id; -1 for shared memory */
    int64_t index;     /* shared: 4-byte word of the element; global: element index in buf */
    int64_t lo, hi;    /* shared: the array's words [lo, hi), for out-of-bounds reports */
    unsigned elem_size;
    int is_int;        /* the value is an unsigned integer (recorded as such in the trace) */
    uint32_t data[4];  /* in: value to store or shuffle; out: the value loaded, shuffled or old */
    unsigned mask;     /* shuffle / warp sync member mask */
    int shfl_mode;
    int shfl_arg;      /* delta, lane mask or source lane */
    int width;         /* shuffle segment width */
    unsigned operand;  /* atomicInc's limit */
} emu_op;

/* ---- hooks for kernel code running inside the emulator ---- */
const emu_dim3 *emu_thread_idx(void);
const emu_dim3 *emu_block_idx(void);
const emu_dim3 *emu_block_dim(void);
const emu_dim3 *emu_grid_dim(void);
void emu_do(emu_op *op);
/* First 4-byte word of a __shared__ object of this block, placed on its first use. */
int64_t emu_shared_region(const void *key, unsigned bytes);

/* ---- running kernels ---- */
/* What every thread's kernel call gets (see WS_LAUNCH in kernels/ws_cuda.h). */
typedef struct emu_kernel_args {
    int in_buf, out_buf, counter_buf; /* global buffer ids */
    unsigned n, stride;
} emu_kernel_args;

typedef struct emu emu;
typedef void (*emu_kernel_fn)(const void *args);

typedef struct emu_launch {
    emu_kernel_fn kernel;
    const void *args;
    unsigned grid, block;
    unsigned pass;          /* recorded in each event */
    unsigned blocks_traced; /* blocks 0..blocks_traced-1 are recorded */
    trace *trace;           /* where events go; NULL records nothing */
    unsigned workers;       /* threads running blocks; 0: one per available core */
    int serial_blocks;      /* 1: blocks communicate (atomics): one after another, in block order */
    volatile int *cancel;   /* when it becomes nonzero, the run stops with "interrupted" */
    uint64_t *blocks_done;  /* incremented (atomically) after each block */
    void (*progress)(void *ctx); /* called on the calling thread after some blocks finish */
    void *progress_ctx;
} emu_launch;

emu *emu_create(void);
void emu_destroy(emu *e);
const char *emu_last_error(const emu *e);
/* Global memory the kernels may touch, by buffer id (the id events record). */
int emu_set_buffer(emu *e, int id, void *mem, size_t bytes);
/* Runs every block of the launch. 0, or -1 with emu_last_error (out-of-bounds access, barrier
 * mismatch, out of memory...). */
int emu_run(emu *e, const emu_launch *l);
/* The cores this process may run on (sched_getaffinity), at most the emulator's worker limit. */
unsigned emu_default_workers(void);

#ifdef __cplusplus
}
#endif
#endif
