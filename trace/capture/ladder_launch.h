/* ladder_launch.h: how the ladder's host side calls each version's kernel, given `a` (ws_args in
 * ws_cuda.h). The kernel files (kernels/) hold plain CUDA and no host code; each build (the
 * emulator's, the traced GPU build, the benchmark's plain build) appends WS_LADDER_LAUNCH(id) to a
 * version's file, and each turns the line into its own launcher (WS_LAUNCH in ws_cuda.h). */
#ifndef WARPSCOPE_LADDER_LAUNCH_H
#define WARPSCOPE_LADDER_LAUNCH_H

#define WS_LADDER_LAUNCH(id) WS_LADDER_LAUNCH_##id

/* the seeds' naive kernel, launched once per stride, in place */
#define WS_LADDER_LAUNCH_naive WS_LAUNCH(naive, naive_reduction_kernel, (a.out, a.stride, a.n))
/* the same, as a seed first writes it: in and out the same buffer, so blocks race */
#define WS_LADDER_LAUNCH_naive_race WS_LAUNCH(naive_race, naive_reduction_kernel, (a.out, a.out, (int)a.stride, (int)a.n))
#define WS_LADDER_LAUNCH_v0 WS_LAUNCH(v0, reduce0, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v1 WS_LAUNCH(v1, reduce1, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v2 WS_LAUNCH(v2, reduce2, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v3 WS_LAUNCH(v3, reduce3, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v4 WS_LAUNCH(v4, reduce4, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v4s WS_LAUNCH(v4s, reduce4s, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v4_novolatile WS_LAUNCH(v4_novolatile, reduce4nv, (a.in, a.out, a.n))
/* templated on the block size: one instance per block size from 32 to 1024 */
#define WS_LADDER_LAUNCH_v5 WS_LAUNCH_BLOCK(v5, reduce5, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v6 WS_LAUNCH_BLOCK(v6, reduce6, (a.in, a.out, a.n))
#define WS_LADDER_LAUNCH_v7 WS_LAUNCH(v7, reduce7, (a.in, a.out, a.n))
/* and the benchmark's launches may overlap (programmatic dependent launch) */
#define WS_LADDER_LAUNCH_v8 WS_LAUNCH_BLOCK_PDL(v8, reduce8, (a.in, a.out, a.n, a.counter))

#endif
