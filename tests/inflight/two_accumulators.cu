// Two independent accumulators in a grid-stride loop: each turn reads two elements a grid apart,
// one into each sum, so two loads are in flight together (neither load's address or value feeds
// the other). Expected: 2 loads in flight once a thread has two elements.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int grid = blockDim.x * gridDim.x;
    float sum0 = 0.0f;
    float sum1 = 0.0f;
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += 2 * grid) {
        sum0 += g_idata[i];
        if (i + grid < n) sum1 += g_idata[i + grid];
    }
    sdata[tid] = sum0 + sum1;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
