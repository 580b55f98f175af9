// Hostile: a shuffle of 0 from lane 0 (a shuffle counted, no value moved), then one thread adds the
// block's words in a loop. Exercise 07 must refuse it: no shuffled value takes part, and no tree.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
    sum += __shfl_sync(0xffffffff, 0.0f, 0);
    sdata[tid] = sum;
    __syncthreads();
    if (tid == 0) {
        float t = 0.0f;
        for (unsigned int k = 0; k < blockDim.x; k++) t += sdata[k];
        g_odata[blockIdx.x] = t;
    }
}
