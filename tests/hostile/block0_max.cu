// Hostile: block 0 takes the maximum with sequential addressing (no bank conflicts); every other
// block with v1's strided index, with its conflicts. Exercise 09 must see the conflicts of block 1.
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

    if (blockIdx.x == 0) {
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
            if (tid < s) sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
            __syncthreads();
        }
    } else {
        for (unsigned int s = 1; s < blockDim.x; s *= 2) {
            unsigned int index = 2 * s * tid;
            if (index < blockDim.x) sdata[index] = fmaxf(sdata[index], sdata[index + s]);
            __syncthreads();
        }
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
