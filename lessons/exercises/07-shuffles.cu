// Exercise 7: a warp-shuffle reduction.
// Every step of this tree goes through shared memory and waits at a __syncthreads. Within a warp
// the lanes can hand each other their values directly: __shfl_down_sync(0xffffffff, v, offset)
// gives lane k lane k + offset's v. Reduce each warp in registers, let lane 0 of each warp put
// its warp's sum in shared memory, and let warp 0 reduce those: one __syncthreads in all.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
