// Hostile: the first add during load, then one thread adds the block's words in a loop.
// Exercise 05 must refuse it for its chain of adds.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float mySum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    if (tid == 0) {
        float t = 0.0f;
        for (unsigned int k = 0; k < blockDim.x; k++) t += sdata[k];
        g_odata[blockIdx.x] = t;
    }
}
