/* own: captures a learner's own CUDA file (capture_desc.kernel). The front end (frontend.h)
 * rewrites it, the host C++ compiler builds it into a shared object kept in a cache (build.c:
 * keyed by the file and the files beside it, its entry and defines, the compiler, the front end
 * and warpscope's headers), and warpscope-run calls its entry with the input in device memory,
 * all in the sandbox (sandbox.h); each launch its host code makes runs in the emulator and is a
 * pass of the trace, which comes back to warpscope in the compact encoding, through the
 * validating reader. Errors name the learner's FILE:LINE. */
#ifndef WARPSCOPE_OWN_H
#define WARPSCOPE_OWN_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/capture/capture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -1 with a message (a compile error as the compiler wrote it at the learner's line). */
int capture_own(const capture_desc *d, trace *t, char *err, size_t errlen);

/* capture_batch of a learner's file (capture.h): d's file built once, then warpscope-run runs each
 * of runs, each in a process of its own started from the file's own globals, one after another
 * within one check's deadline; the batch stops at its first run when that one fails. */
int capture_own_batch(const capture_desc *d, capture_batch_run *runs, size_t nruns, char *err, size_t errlen);

/* Where the compiled files are kept: $XDG_CACHE_HOME/warpscope, or ~/.cache/warpscope. */
int own_cache_dir(char *buf, size_t len);

/* What the last capture_own did: compiled (1) or found in the cache (0); the build's time (reading
 * the file, the key, then the front end and the compiler, or the cache, and loading) and the
 * entry's (its host code and launches, traced). */
typedef struct own_build_info {
    int compiled;
    double build_ms, run_ms;
    char sites[4400]; /* the cache's file of the build's event sites (frontend.h) */
} own_build_info;
void own_last_build(own_build_info *info);
own_build_info *own_build_record(void); /* the one own_build fills */

/* the most an event sites' file may be (frontend.h) */
#define OWN_SITES_MAX ((size_t)64 << 20)
/* 0 when every event of t is at one of the sites (sites_path: own_build_info.sites) of its kind, or
 * 1 with why in err ("an event from no site of the file: ..."), or -1 when the sites cannot be read */
int own_sites_check(const char *sites_path, const trace *t, char *err, size_t errlen);

/* --define: at most this many macros, each NAME=VALUE shorter than OWN_DEFINE_LEN bytes */
enum { OWN_DEFINES_MAX = 48, OWN_DEFINE_LEN = 256 };

/* the most a run's trace (or a batch's traces together) may be: what warpscope reads back */
#define OWN_TRACE_MAX ((uint64_t)256 << 20)
/* warpscope-run's last word in WORK/message when the trace is written */
#define OWN_TRACED "traced"
/* In warpscope-run: loads so (the file built for the emulator) and runs d's entry into t; 0 or -1. */
int own_run_so(const capture_desc *d, const char *so, trace *t, char *err, size_t errlen);
/* A regular file read whole without following a link or waiting on a FIFO: 0; 1 when it is not
 * a regular file or is larger than max; -1 on error. own_copy_plain copies one into a new file. */
int own_read_plain(const char *path, size_t max, char **text, size_t *len);
int own_copy_plain(const char *from, const char *to, size_t max);
/* the host C++ compiler the emulator's builds use: WARPSCOPE_CXX, else c++ */
const char *own_host_compiler(void);

/* ---- the pieces the GPU's builds (own_gpu.cu) share with the emulator's ---- */

/* what the front end appends to the learner's file, and warpscope calls */
typedef void (*own_entry_fn)(float *in, float *out, unsigned n, float *h_in, float *result, int *has_result);
enum { OWN_EMU, OWN_GPU_TRACED, OWN_GPU_PLAIN };
/* The file built for the emulator, or by nvcc for this machine's GPU, traced or plain (the
 * benchmark's): 0 with the shared object's path in so (from the cache when it is there), or -1. */
int own_build(const capture_desc *d, int flavour, char *so, size_t solen, char *err, size_t errlen);
/* 1 when own_build would answer from the cache (the object, or a failure it keeps), else 0: a
 * cached trace is a run of about a tenth of a second, which a server need not queue behind builds */
int own_build_cached(const capture_desc *d, int flavour);
/* own_build_cached for what capture_own builds of d */
int own_capture_cached(const capture_desc *d);
/* an --entry given and n within bounds (*n: d's, or 256) */
int own_check(const capture_desc *d, uint64_t *n, char *err, size_t errlen);
/* Runs here(job, t, ...) in a child process that hands the trace back (a crash there is the
 * learner's program's); after `seconds` (0: no limit) or on d->cancel the child is stopped. */
typedef int (*own_runner)(void *job, trace *t, char *err, size_t errlen);
int own_run_apart(const capture_desc *d, own_runner here, void *job, unsigned seconds, trace *t, char *err, size_t errlen);
/* the input of a run (d's data and seed, n elements, into h_in) and what t's provenance says of it
 * whatever runs it (the date, the file, the data, the double-precision reference); 0 or -1 */
int own_input(const capture_desc *d, uint64_t n, float *h_in, trace *t, char *err, size_t errlen);
/* a buffer of a run, as its host code sees it */
typedef struct own_span {
    unsigned char *p;
    size_t bytes;
} own_span;
/* the buffer p points into, with *offset; one just past a buffer's end only where no buffer starts
 * there (one may lie right after another); -1 if none */
int own_find_span(const own_span *spans, size_t n, const void *p, size_t *offset);
/* "line N: ..." -> "FILE:N: ..." */
void own_at_line(char *dst, size_t len, const char *path, const char *msg);
/* a run's error: the message at the learner's line into err, then out of the learner's code by
 * longjmp to out (the run's own jmp_buf) */
void own_vfail(char *err, size_t errlen, jmp_buf *out, const char *path, const char *fmt, va_list ap) __attribute__((noreturn));
const char *own_base_name(const char *path);

/* ---- on a GPU (own_gpu.cu; a build without CUDA says it has none) ---- */

/* capture_own's GPU twin: the file built traced by nvcc and run on the GPU, each launch a pass. */
int capture_own_gpu(const capture_desc *d, trace *t, char *err, size_t errlen);

/* The benchmark's: the file built plain by nvcc and loaded (in a process with CUDA); then each
 * run of its entry on device buffers, timed launch by launch with CUDA events (its host code is
 * not timed). */
typedef struct own_gpu_kernel own_gpu_kernel;
typedef struct own_gpu_timing {
    double ms;           /* its launches' GPU time, summed */
    unsigned launches;
    unsigned grid, block; /* its first launch's */
    float result;        /* out[0] (in[0] with result_in) when the entry returns */
} own_gpu_timing;
/* In the benchmark's child process, CUDA started: builds the file, copies its object into work (a
 * folder of sandbox_work's the parent made and removes), confines this process to it
 * (sandbox_confine_apart), then loads the copy. */
own_gpu_kernel *own_gpu_open(const capture_desc *d, const char *work, char *err, size_t errlen);
int own_gpu_time(own_gpu_kernel *k, float *in, float *out, unsigned n, float *h_in, own_gpu_timing *tm, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
