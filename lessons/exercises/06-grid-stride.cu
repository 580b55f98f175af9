// Exercise 6: a grid-stride loop, NUM_LOAD loads in flight (seed 001's reduction_kernel).
// The launch is now a small grid, 8 blocks of 256 threads, whatever n is: each thread must add
// many elements before the tree. Loop over the input with a stride of the whole grid, and in
// each turn load NUM_LOAD elements, each a whole grid apart, into NUM_LOAD registers, so that
// their loads are in flight together; keep the loads coalesced.
#define BLOCK 256
#define NUM_LOAD 4

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
