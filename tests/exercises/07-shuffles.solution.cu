// Exercise 7, a solution (v7's block reduction): shuffles within each warp, one barrier between
// the warps.
#define BLOCK 256

__device__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float warpSums[BLOCK / 32];
    unsigned int tid = threadIdx.x, lane = tid % 32, wid = tid / 32;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];

    sum = warpReduceSum(sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    if (wid == 0) {
        sum = (tid < blockDim.x / 32) ? warpSums[lane] : 0.0f;
        sum = warpReduceSum(sum);
        if (tid == 0) g_odata[blockIdx.x] = sum;
    }
}
