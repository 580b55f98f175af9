// Hostile: each warp's tree is done in shared memory; a shuffle after each step hands every lane
// its own value (no value moves between lanes), so the shuffles seem to make the sum. Exercise 07
// must refuse it: no value from another lane takes part.
#define BLOCK 256

__device__ float warpReduceShared(volatile float *w, unsigned int lane, float val)
{
    w[lane] = val;
    __syncwarp();
    for (unsigned int offset = 16; offset > 0; offset /= 2) {
        float other = (lane < offset) ? w[lane + offset] : 0.0f;
        __syncwarp();
        val = __shfl_sync(0xffffffff, val + other, lane);
        w[lane] = val;
        __syncwarp();
    }
    return val;
}

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    __shared__ float warpSums[BLOCK / 32];
    unsigned int tid = threadIdx.x, lane = tid % 32, wid = tid / 32;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];

    sum = warpReduceShared(&sdata[wid * 32], lane, sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    if (wid == 0) {
        sum = (tid < blockDim.x / 32) ? warpSums[lane] : 0.0f;
        sum = warpReduceShared(sdata, lane, sum);
        if (tid == 0) g_odata[blockIdx.x] = sum;
    }
}
