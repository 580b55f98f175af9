/* ws_user_gpu_api: what a learner's file built by nvcc (ws_user_gpu.h) calls back into warpscope
 * for (own_gpu.cu implements it): its buffers, its host copies, its launches and its errors.
 * C, so both sides agree on it. */
#ifndef WARPSCOPE_WS_USER_GPU_API_H
#define WARPSCOPE_WS_USER_GPU_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_gpu_launch_info {
    unsigned grid[3], block[3];
    size_t shmem;
    unsigned line;
    void *stream; /* the launch's cudaStream_t */
} ws_gpu_launch_info;

/* The first access a traced launch could not make (ws_gpu_ctx.fault points at one): what (below),
 * where, and the element against the elements there are. */
enum { WS_FAULT_NONE, WS_FAULT_SHARED, WS_FAULT_GLOBAL, WS_FAULT_NULL, WS_FAULT_SHARED_ATOMIC, WS_FAULT_UNFOLLOWED, WS_FAULT_LOOP };
/* a traced kernel's loops are stopped once its block has run this long (WS_FAULT_LOOP) */
#define WS_GPU_LOOP_SECONDS 10
typedef struct ws_gpu_fault {
    unsigned long long what, line, block, thread, elements;
    long long element;
} ws_gpu_fault;

/* a buffer the learner's cudaMalloc got (kept until the run ends: the trace names it) */
void ws_gpu_user_malloc(void *p, size_t bytes, unsigned line);
/* 1 if p lies in such a buffer (its number, start and size), 0 if not */
int ws_gpu_user_buffer(const void *p, int *buf, unsigned long long *base, unsigned long long *bytes);
/* a host copy or memset of bytes at p: stops the run at line if it runs past p's buffer */
void ws_gpu_user_check(const void *p, size_t bytes, const char *what, unsigned line);
/* around each launch: ctx (a ws_gpu_ctx of ctx_bytes) is filled for a traced build, NULL for the
 * benchmark's; error is the launch's cudaError_t */
void ws_gpu_user_launch_begin(const ws_gpu_launch_info *l, void *ctx, size_t ctx_bytes);
void ws_gpu_user_launch_end(const ws_gpu_launch_info *l, int error, const char *error_text, int registers, size_t static_shared);
/* a turn of a host loop: a loop that never ends is stopped */
void ws_gpu_user_tick(unsigned line);
void ws_gpu_user_fail(unsigned line, const char *what) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif
#endif
