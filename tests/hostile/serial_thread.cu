// Hostile: the sum is right, but one thread of each block adds the block's words in a serial loop
// (no tree). Exercises 01 to 03 must refuse it for its chain of adds.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();
    if (tid == 0) {
        float s = 0.0f;
        for (unsigned int k = 0; k < blockDim.x; k++) s += sdata[k];
        g_odata[blockIdx.x] = s;
    }
}
