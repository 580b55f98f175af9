// Exercise 9: the same ladder for another operator: the largest element.
// This kernel adds. Make it find the largest element of the input instead: the tree is the same,
// the operator is fmaxf, and the elements past n must be ones that can never win (not 0: the
// input may be all negative).
#define BLOCK 256

__global__ void reduce_max(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float best = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) best += g_idata[i + blockDim.x];
    sdata[tid] = best;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
