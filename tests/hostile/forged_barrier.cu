// Exercise 3's racing start file, with its missing barrier made where warpscope's build alone sees it:
// the emulator's header names itself by its include guard, and this file records a barrier there
// through warpscope's own hook at a line that holds no barrier, while the parse sees none.
#define BLOCK 256

#ifdef WARPSCOPE_WS_CUDA_H
#define SYNC() ws_plain_op(TRACE_BARRIER, 2, 0)
#else
#define SYNC() (void)0
#endif

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        SYNC();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
