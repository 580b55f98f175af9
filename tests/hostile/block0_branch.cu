// Hostile: block 0 gives the work to whole warps (v1's strided index); every other block keeps
// v0's divergent branch. Exercise 01 must see the divergence of block 1.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (blockIdx.x == 0) {
            unsigned int index = 2 * s * tid;
            if (index < blockDim.x) sdata[index] += sdata[index + s];
        } else if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
