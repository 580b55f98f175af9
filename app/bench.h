/* bench: every version's plain kernels on a CUDA GPU, against CUB, Thrust, a device-to-device
 * copy and a read-only ceiling kernel. Built only when the build has CUDA (bench_gpu.cu);
 * otherwise bench_none.c says so. */
#ifndef WARPSCOPE_BENCH_H
#define WARPSCOPE_BENCH_H

#include "app/commands.h"

#ifdef __cplusplus
extern "C" {
#endif

/* v: the flags main scanned for bench from the command table (app/commands.c), by ws_flag; own:
 * a kernel of one's own (--kernel, --entry, --define) to measure beside the libraries, or NULL.
 * Prints the table; returns the process exit code. When *cancel becomes nonzero (SIGINT, SIGTERM)
 * it stops between measurements and writes no file; the caller says so. */
struct capture_desc;
int bench_main(const cli_value flag[WF_COUNT], const struct capture_desc *own, volatile int *cancel);

#ifdef __cplusplus
}
#endif
#endif
