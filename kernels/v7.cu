/* v7: warp shuffles and 16-byte vector loads.
 *
 * Changed from v6: inside a warp, partial sums move register to register with __shfl_down_sync
 * (offsets 16, 8, 4, 2, 1) instead of through shared memory, so a warp needs neither barriers nor
 * `volatile`; shared memory holds only one value per warp and the block has one __syncthreads.
 * Each thread reads float4s (16 bytes per lane, 512 contiguous bytes per warp request), a quarter
 * of the load instructions of v6.
 * Still slow: a second launch still reduces the blocks' partial sums (v8 folds it into one).
 * Names: "optimization 7: shuffle instructions" (seed 004, not implemented there), warp-level
 * primitives and warp-synchronous programming (seed 001), CUB's WARP_REDUCE_SHFL. */


__device__ __forceinline__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__global__ void reduce7(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float warpSums[32];
    unsigned int tid = threadIdx.x;
    unsigned int lane = tid % 32, wid = tid / 32;

    // each thread sums float4s, striding over the whole grid
    float sum = 0.0f;
    const float4 *in4 = reinterpret_cast<const float4 *>(g_idata);
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n / 4; i += blockDim.x * gridDim.x) {
        float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    // the last n % 4 elements, which no float4 covers
    if (blockIdx.x == 0 && tid < n % 4) sum += g_idata[n / 4 * 4 + tid];

    // each warp reduces in registers; lane 0 of each warp hands its sum to warp 0
    sum = warpReduceSum(sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    if (wid == 0) {
        sum = (tid < blockDim.x / 32) ? warpSums[lane] : 0.0f;
        sum = warpReduceSum(sum);
        if (tid == 0) g_odata[blockIdx.x] = sum;
    }
}
