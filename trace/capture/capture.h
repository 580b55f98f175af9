/* capture: runs a version's whole launch plan in the emulator and records the trace.
 * Also the input data patterns and the double-precision reference every result is checked with. */
#ifndef WARPSCOPE_CAPTURE_H
#define WARPSCOPE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/capture/emu.h"
#include "trace/ladder.h"
#include "trace/input.h"
#include "trace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero fields take defaults: block 256 (or the version's nearest), n = one block's worth
 * (block * elements per thread), data "random-int", seed 1, the version's elements per thread,
 * 1 traced block per pass. */
typedef struct capture_desc {
    const char *version;
    unsigned block;
    uint64_t n;
    const char *data;
    uint64_t seed;
    int seed_set;          /* seed 0 is a valid seed: say it was given */
    unsigned ept;
    unsigned blocks_traced;
    /* the emulator only (schedule.h, race.h): */
    const char *schedule;   /* lockstep (default), its:SEED, lanes-up, lanes-down, adversarial */
    const char *warp_order; /* in-order (default), reversed, seeded:SEED */
    unsigned drop_barrier;  /* break-it: leave out the __syncthreads at this source line (0: none) */
    unsigned drop_syncwarp; /* break-it: leave out the __syncwarp at this source line */
    int no_race_check;      /* 1: skip the race detector (the trace then holds no hazards) */
    unsigned workers;      /* emulator threads; 0: one per available core (the trace is the same) */
    volatile int *cancel;  /* when it becomes nonzero (a signal handler), the capture stops: "interrupted" */
    /* called on the calling thread as blocks finish (emulator), with blocks done of all passes */
    void (*progress)(void *user, uint64_t blocks_done, uint64_t blocks_total);
    void *progress_user;
    /* a learner's own CUDA file instead of a version (trace/capture/own/own.h) */
    const char *kernel;    /* its path */
    const char *entry;     /* how to run it: a C++ call naming in, out, n, h_in */
    const char *const *defines; /* -D NAME[=VALUE] for it, NULL-terminated; may be NULL */
    const char *include_dir;    /* the folder holding trace/capture/ws_cuda.h for it */
    int result_in;              /* 1: the result is in[0] when the entry returns (an in-place kernel); else out[0] */
    const char *card;           /* the card its device queries answer from (cudaGetDeviceProperties...): a
                                   spelling of trace/cards.h; NULL: the default */
    const char *type;           /* a kernel of one's own: the data's type (--type), a name of trace.h's TRACE_TYPES;
                                   NULL: float (the ladder's kernels are float) */
    emu *emu;              /* an emulator to run on, kept by the caller between captures so that its
                              fibers' stacks stay mapped (a fresh one pays a page fault per thread);
                              NULL: a fresh one for this capture */
} capture_desc;


/* Where the kernels run: the emulator, or a GPU (capture_gpu.cu). Buffers are numbered as the
 * trace's buffers are: 0 the input, then the launch plan's outputs. */
typedef struct capture_backend {
    void *ctx;
    void (*describe)(void *ctx, trace_provenance *p); /* backend, device, toolkit, driver */
    /* bytes of buffer id, filled from init (NULL: zeros) */
    int (*alloc)(void *ctx, int id, size_t bytes, const void *init);
    int (*launch)(void *ctx, const ladder_version *v, const emu_kernel_args *args, unsigned pass, unsigned grid,
                  unsigned block, unsigned blocks_traced, trace *t);
    int (*read)(void *ctx, int id, size_t offset, void *dst, size_t bytes);
    const char *(*error)(void *ctx);
    void (*plan)(void *ctx, uint64_t total_blocks); /* optional: the blocks of every pass, before the first */
} capture_backend;

/* 0, or -1 with a message naming what was wrong. t must be initialised; on success it holds the
 * trace (with provenance, result and reference). */
int capture_run(const capture_desc *d, const capture_backend *b, trace *t, char *err, size_t errlen);
/* On the emulator, with d's schedule and break-it switches; the race detector's hazards go into
 * t->hazards. A dropped line where no barrier ran is an error. */
int capture_cpu(const capture_desc *d, trace *t, char *err, size_t errlen);
/* What the schedule, the switches and the race check (r; NULL none) add to a finished emulator capture;
 * dropped: the barriers and __syncwarp calls the switches left out. */
struct race;
int capture_cpu_finish(const capture_desc *d, struct race *r, const uint64_t dropped[2], trace *t, char *err, size_t errlen);
/* The adversarial search's orders: c is d under order i (-1: lockstep, warps in order; 0 ..
 * schedule_candidates() - 1: the candidates, most telling first); the label of the trace it keeps
 * (found: the candidate whose result differed from lockstep's, c its order; -1: none did). */
void capture_search_order(const capture_desc *d, int i, capture_desc *c);
void capture_search_label(const capture_desc *c, int found, trace *t);
/* Whether the race detector watches a capture of this size (its shadow of global memory is bounded). */
int capture_race_wanted(const capture_desc *d);
/* On the GPU (a CUDA build with a device); -1 with "no CUDA device: ..." and the like otherwise. */
int capture_gpu(const capture_desc *d, trace *t, char *err, size_t errlen);
/* The NVIDIA driver's version and the CUDA driver API's, e.g. "580.159.04, CUDA 13.0" (CUDA builds). */
void capture_gpu_driver(char *buf, size_t len);
/* backend "cpu", "gpu" or "auto" (the GPU when the build has CUDA and a device is present,
 * otherwise the emulator; *note says which and why). */
int capture_with(const char *backend, const capture_desc *d, trace *t, char *note, size_t notelen, char *err, size_t errlen);
/* One run of a batch: its size, seed, schedule (NULL: lockstep) and blocks traced (0: the batch's
 * capture_desc's); filled: rc 0 and its trace, -1 and why it failed, or 1 not run (err says why). */
typedef struct capture_batch_run {
    uint64_t n, seed;
    const char *schedule;
    unsigned blocks_traced;
    int rc;
    trace t;
    char err[1024];
} capture_batch_run;
/* Several runs of d's learner's file (d->kernel) on the emulator, each as capture_with("cpu") would
 * capture d with the run's size, seed and schedule, all in one sandbox (a check's runs): 0 with each
 * run filled, or -1 and err when none could run (the file does not build, the sandbox). */
int capture_batch(const capture_desc *d, capture_batch_run *runs, size_t nruns, char *err, size_t errlen);

/* A capture's name as a file name ("v8_b64_n4096_random-int_s-_e0_t1_its-1_d0"): the fields that
 * make its trace (version, block, n, data, seed, elements per thread, blocks traced, schedule,
 * dropped barrier) as given, defaults unfilled. The page's bundled traces are found by it. */
void capture_key(const capture_desc *d, char *buf, size_t len);

/* The emulator's entry point of a version's kernel (kernels_emu.c); NULL if it has none. */
emu_kernel_fn capture_emu_kernel(const ladder_version *v);

double capture_reference(const float *x, uint64_t n);
/* |result - reference| allowed for a float tree sum of n terms: (ceil(log2 n) + 2) * 2^-24 * sum|x|;
 * 0 for whole numbers whose magnitudes add up to at most 2^24 (any tree's sum of them is exact). */
double capture_tolerance(const float *x, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif
