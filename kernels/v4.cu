/* v4: unrolled last warp, the textbook `volatile` form.
 *
 * Changed from v3: once 32 or fewer threads work they are one warp, so the last six steps drop
 * both the `if (tid < s)` and the __syncthreads; `volatile` forces every step to reload shared
 * memory instead of keeping sdata[tid] in a register.
 * Still slow: the tree loop's bookkeeping for the steps above 32. And not safe on Volta and later:
 * lanes of a warp are no longer guaranteed to run in lockstep (independent thread scheduling), so
 * lane 0 may read sdata[16] before lane 16 wrote it; v4s is the safe form. Needs a block of at
 * least 64 threads (it reads sdata[tid + 32]).
 * Names: reduce4 (seed 004, Harris's "Reduction #5: unroll the last warp"), reduceUnrollWarp8
 * (seed 003), reduce4 with warpReduce (seed 002). */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__device__ void warpReduce(volatile float *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

__global__ void reduce4(const float *g_idata, float *g_odata, unsigned int n)
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
    if (tid < 32) warpReduce(sdata, tid);

    // write the result of this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
