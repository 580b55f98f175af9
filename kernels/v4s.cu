/* v4s: unrolled last warp, safe under independent thread scheduling.
 *
 * Changed from v4: each step of the last warp reads into a register, then __syncwarp() makes every
 * lane finish its reads before any lane writes, and again before the next step reads. This is what
 * the CUDA Programming Guide asks for since Volta, where the lanes of a warp may drift apart; the
 * `volatile` of v4 only stops the compiler from caching values, not the lanes from racing.
 * Still slow: the loop bookkeeping above 32 threads (v5 unrolls it), and __syncwarp costs a few
 * instructions per step (v7 replaces the whole warp step with shuffles). Needs a block of at
 * least 64 threads.
 * Names: "warp-synchronous programming" with __syncwarp (seed 001), reduce4 made safe. */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__global__ void reduce4s(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[MAX_BLOCK];

    // each thread loads two elements and adds them on the way into shared memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float mySum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();

    // do the reduction in shared memory, down to the last 64 values
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid];
        for (unsigned int offset = 32; offset > 0; offset >>= 1) {
            v += sdata[tid + offset];
            __syncwarp();
            sdata[tid] = v;
            __syncwarp();
        }
    }

    // write the result of this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
