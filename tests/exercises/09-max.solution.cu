// Exercise 9, a solution: fmaxf instead of +, and the lowest float, -FLT_MAX, for the elements
// past n.
#include <float.h>
#define BLOCK 256

__global__ void reduce_max(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float best = (i < n) ? g_idata[i] : -FLT_MAX;
    if (i + blockDim.x < n) best = fmaxf(best, g_idata[i + blockDim.x]);
    sdata[tid] = best;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
