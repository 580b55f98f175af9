// Hostile: one warp adds the block's words, each lane 8 of them in a loop, then lane 0 adds the
// 32 sums in a loop: right, race free, and no tree. Exercise 03 must refuse it.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();
    if (tid < 32) {
        float s = 0.0f;
        for (unsigned int k = tid; k < blockDim.x; k += 32) s += sdata[k];
        sdata[tid] = s;
    }
    __syncthreads();
    if (tid == 0) {
        float t = 0.0f;
        for (unsigned int k = 0; k < 32; k++) t = t + sdata[k];
        g_odata[blockIdx.x] = t;
    }
}
