/* bench: every version's plain kernels on a CUDA GPU, against CUB, Thrust, a device-to-device
 * copy and a read-only ceiling kernel. Built only when the build has CUDA (bench_gpu.cu);
 * otherwise bench_none.c says so. */
#ifndef WARPSCOPE_BENCH_H
#define WARPSCOPE_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* argv: the arguments after "bench". Prints the table; returns the process exit code. */
int bench_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
