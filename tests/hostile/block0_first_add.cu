// Hostile: block 0 loads its two elements a block apart (whole sectors); every other block loads
// elements 2 * tid and 2 * tid + 1, each warp's request spread over twice the sectors. Exercise 05
// must see the sectors of block 1.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * (blockDim.x * 2);
    unsigned int a = blockIdx.x == 0 ? base + tid : base + 2 * tid;
    unsigned int b = blockIdx.x == 0 ? a + blockDim.x : a + 1;
    float mySum = (a < n) ? g_idata[a] : 0.0f;
    if (b < n) mySum += g_idata[b];
    sdata[tid] = mySum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
