/* gpu_time: one learner's file timed on this machine's GPU, the way `warpscope bench --kernel`
 * times it (warm-ups, the median of several launches, CUDA events, every sum checked against a
 * double-precision sum on the card), beside CUB and the card's best read measured in the same run.
 * The timing runs in a fresh process of its own (warpscope bench, whose GPU run is sandboxed:
 * trace/capture/own/sandbox.h), stopped past a time limit; what it wrote is read here, checked
 * against what the card can do. Used by the class server's GPU queue (app/serve/gpu_queue.c) and by
 * `exercise check` where a GPU is present. No CUDA in this file: it starts a program. */
#ifndef WARPSCOPE_GPU_TIME_H
#define WARPSCOPE_GPU_TIME_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "app/learn/lesson.h"

enum { GPU_TIME_SIZES_MAX = 6, GPU_TIME_DEFINES_MAX = 4 };

typedef enum gpu_time_state {
    GPU_NONE,   /* no GPU here (or no CUDA in this build): nothing was timed */
    GPU_TIMED,  /* every size summed right and was timed */
    GPU_WRONG,  /* a sum wrong on the card (sizes[] says which, error by how much) */
    GPU_FAILED, /* it did not run on the card (a fault, a loop stopped at the limit...): error says why */
} gpu_time_state;

typedef struct gpu_time_desc {
    const char *kernel;  /* the learner's file */
    const char *entry;   /* how it is launched (--entry) */
    const char *defines[GPU_TIME_DEFINES_MAX + 1]; /* NAME=VALUE, NULL past the last */
    uint64_t sizes[GPU_TIME_SIZES_MAX];
    size_t nsizes;
    unsigned limit_s;    /* the process is killed past this (0: GPU_TIME_LIMIT_S) */
    const char *include_dir; /* warpscope's data (WARPSCOPE_DATA) for the child; NULL: its own */
    int device;          /* which GPU (--device) */
    /* the card's best read and CUB's at the largest size, measured apart by gpu_time_calibrate (no
     * learner's code in that process): where given, the figures shown and the bound a figure must
     * keep are these, not the learner's process's own; 0: that process's */
    double trusted_best_read_gbs, trusted_cub_gbs;
    /* the card's turn (may be NULL), shared by the timings of one card: the process starts CUDA
     * beside the one on the card and loads the learner's file only once it holds the turn, which
     * it keeps until the process is gone; its limit counts from then (where the figures above are
     * not given, the turn is held for the whole process) */
    pthread_mutex_t *turn;
} gpu_time_desc;

typedef struct gpu_size_time {
    uint64_t n;
    int ok;               /* its sum right on the card */
    double gbs, ms;       /* the kernel's, when ok */
    double got, reference; /* the card's sum and the double-precision sum, when not ok (else 0) */
    double best_read_gbs, cub_gbs; /* the card's best read and CUB's at this size, same run */
} gpu_size_time;

typedef struct gpu_timing {
    gpu_time_state state;
    char card[128];       /* "NVIDIA H200" */
    gpu_size_time sizes[GPU_TIME_SIZES_MAX];
    size_t nsizes;
    double gbs;           /* at the largest size */
    double best_read_gbs; /* the card's best read at the largest size */
    double cub_gbs;       /* CUB's at the largest size */
    double fraction;      /* gbs / best_read_gbs */
    uint64_t largest;     /* the size gbs is at */
    double wall_ms;       /* the whole timing, process start to end */
    double turn_ms;       /* the card's turn held (gpu_time_desc.turn), 0 without one */
    char error[600];      /* GPU_WRONG and GPU_FAILED: what, at which size, by how much */
    char error_zh[600];   /* the same in Chinese where warpscope says it (empty: only bench's own words, in English) */
} gpu_timing;

#define GPU_TIME_LIMIT_S 60

/* The GPU here, by its driver's name ("NVIDIA H200"), read from the driver's files without starting
 * CUDA: 1 and the name, or 0 when there is none or this build has no CUDA. */
int gpu_time_present(char *card, size_t len);

/* Times d->kernel: 0 with *out filled (its state says what happened to the file), or -1 with err when
 * the timing itself could not be made (no GPU, no program, cancelled). cancel (may be NULL) stops it:
 * the process is killed. WARPSCOPE_GPU_TIMER names another program to run in warpscope's place, with
 * the same arguments (the tests' stand-in for a card). */
int gpu_time_file(const gpu_time_desc *d, gpu_timing *out, volatile int *cancel, char *err, size_t errlen);

/* The card's own figures at n elements, in a process that runs no learner's code (bench of the
 * ladder's top rung): its best read and CUB's GB/s. 0, or -1 with err. */
int gpu_time_calibrate(uint64_t n, int device, unsigned limit_s, volatile int *cancel, double *best_read_gbs, double *cub_gbs, char *err,
                       size_t errlen);

/* "1,367 GB/s, 29 % of this card's best read, CUB 2,724 GB/s" (or the Chinese), from a GPU_TIMED timing;
 * for GPU_WRONG and GPU_FAILED, the error after "wrong on the card: " / "did not run on the card: ". */
void gpu_time_line(const gpu_timing *t, lesson_lang lang, char *buf, size_t len);

/* The sizes a timing runs at: the exercise's (2^24 and 2^26 where it names none), and one drawn
 * between the smallest and the largest, not a multiple of 256, from seed. Returns how many. */
size_t gpu_time_sizes(const lesson_exercise *x, uint64_t seed, uint64_t *sizes, size_t max);

#endif
