// Four independent accumulators in a grid-stride loop (the course notes' NUM_LOAD = 4 written as
// four scalars): each turn reads four elements a grid apart, one into each sum. Expected: 4 loads
// in flight once a thread has four elements.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int grid = blockDim.x * gridDim.x;
    float sum0 = 0.0f;
    float sum1 = 0.0f;
    float sum2 = 0.0f;
    float sum3 = 0.0f;
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += 4 * grid) {
        sum0 += g_idata[i];
        if (i + grid < n) sum1 += g_idata[i + grid];
        if (i + 2 * grid < n) sum2 += g_idata[i + 2 * grid];
        if (i + 3 * grid < n) sum3 += g_idata[i + 3 * grid];
    }
    sum0 += sum1;
    sum2 += sum3;
    sdata[tid] = sum0 + sum2;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
