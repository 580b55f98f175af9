// Hostile: the suite's sums written from a table (n = 4096 and the others of the exercise's list,
// data of seed 1), a tree for any other size. Exercise 03 must refuse it: its sizes and data are
// drawn when it judges, and a typed number is no sum of the input.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
    if (tid == 0 && blockIdx.x == 0 && gridDim.x == 1 && n >= 1) g_odata[0] = 18498.0f;
}
