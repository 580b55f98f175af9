// Exercise 10, a solution (v8's shape, one launch at a time): a grid the card holds at once; each
// thread reads tiles of four float4s, all four loads issued before the first add, and strides over
// the input by the grid; shuffles within each warp, one barrier per block reduction; the block that
// draws the last ticket adds the partials with all its threads, then the same block reduction.
#define BLOCK 256
#define ROWS 4 // float4 loads each thread has in flight per tile (a, b, c, d below)

__device__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// the block's sum, in thread 0
__device__ float blockReduceSum(float sum)
{
    __shared__ float warpSums[BLOCK / 32];
    unsigned int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    sum = warpReduceSum(sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    sum = (threadIdx.x < BLOCK / 32) ? warpSums[lane] : 0.0f;
    if (wid == 0) sum = warpReduceSum(sum);
    return sum;
}

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int *count, unsigned int n)
{
    __shared__ bool amLast;
    unsigned int tid = threadIdx.x;
    const float4 *in4 = reinterpret_cast<const float4 *>(g_idata);
    const unsigned int tile = ROWS * BLOCK, ntiles = n / 4 / tile;
    float sum = 0.0f;
    for (unsigned int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        unsigned int base = t * tile + tid;
        float4 a = in4[base], b = in4[base + BLOCK], c = in4[base + 2 * BLOCK], d = in4[base + 3 * BLOCK];
        sum += (((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w))) +
               (((c.x + c.y) + (c.z + c.w)) + ((d.x + d.y) + (d.z + d.w)));
    }
    // the float4s after the last whole tile, then the last n % 4 floats
    for (unsigned int i = ntiles * tile + blockIdx.x * BLOCK + tid; i < n / 4; i += BLOCK * gridDim.x) {
        float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && tid < n % 4) sum += g_idata[n / 4 * 4 + tid];
    sum = blockReduceSum(sum);

    if (tid == 0) {
        g_odata[blockIdx.x] = sum;
        __threadfence();
        unsigned int ticket = atomicInc(count, gridDim.x - 1);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    if (amLast) {
        sum = 0.0f;
        for (unsigned int b = tid; b < gridDim.x; b += BLOCK) sum += g_odata[b];
        sum = blockReduceSum(sum);
        if (tid == 0) g_odata[0] = sum;
    }
}

void run(const float *in, float *out, unsigned int n)
{
    int dev, sms, perSM;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, reduce, BLOCK, 0);
    // at least one float4 per thread, at most the blocks the card holds at once
    unsigned int grid = (n + 4 * BLOCK - 1) / (4 * BLOCK), resident = (unsigned int)(sms * perSM);
    if (grid > resident) grid = resident;
    if (grid == 0) grid = 1;
    unsigned int *count;
    cudaMalloc(&count, sizeof(unsigned int));
    cudaMemset(count, 0, sizeof(unsigned int));
    reduce<<<grid, BLOCK>>>(in, out, count, n);
    cudaFree(count);
}
