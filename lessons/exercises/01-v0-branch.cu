// Exercise 1: v0's branch, without the divergence.
// Each step of v0 keeps every (2*s)-th thread busy: the busy threads are spread over every warp,
// so every warp runs the add with most of its lanes masked off. Keep the same pairs of words
// (sdata[2*s*k] += sdata[2*s*k + s]), but give the work to threads 0, 1, 2, ... so that whole
// warps work and whole warps idle.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
