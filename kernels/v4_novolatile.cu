/* v4-novolatile: v4 with the `volatile` taken away, to see what it was for. It breaks.
 *
 * Changed from v4: warpReduce takes a plain `float *`. Nothing in one thread's code says that
 * other threads write sdata[tid + 16] and the rest, so the compiler may load every word it needs
 * once, add in a register, and store sdata[tid] once at the end; nvcc 13 does exactly that (seven
 * loads, one store; docs/hazards.md has the SASS). Every lane then adds its partners' words as they
 * were before the tail began, and the block's sum is wrong on every GPU run, lockstep or not. The
 * emulator models that register copy (a plain pointer into shared memory); the traced GPU build records
 * every access where the source says, so it cannot show it. v4 (volatile) and v4s (__syncwarp)
 * are the forms that work, v4s the only one safe since Volta.
 * Still slow: everything v4 is, and it is wrong. Needs a block of at least 64 threads.
 * Names: the pitfall the textbooks warn of beside reduce4 / reduceUnrollWarp8 (seeds 002-004). */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__device__ void warpReduce(float *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

__global__ void reduce4nv(const float *g_idata, float *g_odata, unsigned int n)
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
