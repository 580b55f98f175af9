/* ws_user_api: the runtime a learner's compiled file calls back into (own.c implements it,
 * ws_user.h builds the CUDA runtime's names on it). C, so both sides agree on it. */
#ifndef WARPSCOPE_WS_USER_API_H
#define WARPSCOPE_WS_USER_API_H

#include <stddef.h>
#include <stdint.h>

#include "trace/capture/emu.h"

#ifdef __cplusplus
extern "C" {
#endif

void *ws_user_malloc(size_t bytes, unsigned line);
void ws_user_free(void *p);
/* 1 if p lies in a buffer from ws_user_malloc (*buf, *off bytes into it), 0 if not */
int ws_user_buffer(const void *p, int *buf, int64_t *off);
void ws_user_copy(void *dst, const void *src, size_t bytes, unsigned line);
void ws_user_memset(void *dst, int v, size_t bytes, unsigned line);
void ws_user_launch(emu_kernel_fn fn, const void *args, emu_dim3 grid, emu_dim3 block, size_t shmem, unsigned line);
void ws_user_tick(unsigned line);
/* the object's DT_INIT (ws_user.h: ws_user_at_load) calls it before any constructor of the file's:
 * the run is locked against new executable memory (sandbox.h: sandbox_lock_code) */
void ws_user_lock(void);
void ws_user_fail(unsigned line, const char *what) __attribute__((noreturn));
unsigned ws_user_shmem(void); /* the running launch's dynamic shared memory, in bytes */
/* what the card (capture_desc.card) says of itself, for cudaGetDeviceProperties and
 * cudaDeviceGetAttribute */
typedef struct ws_user_device_props {
    char name[96];
    int sms, threads_per_block, threads_per_sm, blocks_per_sm, warp_size, major, minor;
    int shared_per_block, shared_per_sm, regs_per_block, regs_per_sm;
} ws_user_device_props;
void ws_user_device(ws_user_device_props *p);
/* blocks of `block` threads and `dynamic_shared` bytes one SM of the card holds at once */
int ws_user_occupancy(unsigned block, size_t dynamic_shared, unsigned line);

#ifdef __cplusplus
}
#endif
#endif
