/* v5: complete unroll, the block size a template parameter.
 *
 * Changed from v4: the block size is known at compile time, so the tree loop becomes a fixed list
 * of `if (blockSize >= ...)` steps that the compiler resolves: no loop counter, no shift, no
 * compare left in the code; dead steps vanish.
 * Still slow: every thread still loads only two elements, so each block does a whole tree of
 * additions and barriers for 2*blockSize inputs; the cost per element stays high. The last warp is
 * v4's `volatile` form (see v4s for why that is unsafe on Volta and later).
 * Names: reduce5 (seed 004, Harris's "Reduction #6: completely unrolled"), reduceCompleteUnroll
 * (seed 003: "template function reduction"). */


template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid)
{
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce5(const float *g_idata, float *g_odata, unsigned int n)
{
    // a block of 32 still reads sdata[tid + 16] for tid < 32: twice the block, as the CUDA samples allocate
    __shared__ float sdata[blockSize <= 32 ? 2 * blockSize : blockSize];

    // each thread loads two elements and adds them on the way into shared memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    float mySum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    __syncthreads();

    // do the reduction in shared memory, each step resolved at compile time
    if (blockSize >= 1024) {
        if (tid < 512) { sdata[tid] += sdata[tid + 512]; }
        __syncthreads();
    }
    if (blockSize >= 512) {
        if (tid < 256) { sdata[tid] += sdata[tid + 256]; }
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128) { sdata[tid] += sdata[tid + 128]; }
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64) { sdata[tid] += sdata[tid + 64]; }
        __syncthreads();
    }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);

    // write the result of this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
