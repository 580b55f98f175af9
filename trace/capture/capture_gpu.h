/* capture_gpu: a traced launch on the GPU, the part the ladder's captures (capture_gpu.cu) and a
 * learner's own file (own/own_gpu.cu) share: the bounded event buffer, the barrier counts and the
 * block runs a launch records into (ws_gpu_ctx), and turning what it recorded into a pass of the
 * trace. C++ for nvcc, built with WS_GPU_TRACE. */
#ifndef WARPSCOPE_CAPTURE_GPU_H
#define WARPSCOPE_CAPTURE_GPU_H

#include <cuda_runtime.h>

#include "trace/capture/ws_cuda.h"
#include "trace/trace.h"

struct gpu_tracer {
    cudaDeviceProp prop;
    ws_gpu_event *events = nullptr;
    unsigned long long *count = nullptr;
    unsigned *phase = nullptr;
    unsigned long long *runs = nullptr;
    unsigned runs_blocks = 0;
    unsigned long long *tick0 = nullptr;
    unsigned long long time0 = 0; /* %globaltimer at the capture's first block */
    long long shared_base = 0;    /* the shared window's first word a kernel's arrays get (the driver
                                     reserves the words below it): the trace's shared word 0 */
    char err[512] = "";
};

/* device 0 and its properties: 0, or -1 with "no usable CUDA device: ..." */
int gpu_tracer_open(gpu_tracer *x, char *err, size_t errlen);
void gpu_tracer_close(gpu_tracer *x);
/* backend, device, toolkit and driver */
void gpu_tracer_describe(const gpu_tracer *x, trace_provenance *p);
/* before a launch of grid blocks of `block` threads, `traced` of them recorded: *ctx is what its
 * kernels record into (fault: none) */
int gpu_tracer_begin(gpu_tracer *x, unsigned grid, unsigned block, unsigned traced, const trace *t, ws_gpu_ctx *ctx);
/* after it ended (synchronized): its events, block runs, registers and static shared memory into
 * pass `pass` of t. -1 with x->err. */
int gpu_tracer_end(gpu_tracer *x, unsigned pass, trace *t, int registers, size_t static_shared);

#endif
