/* v6: many elements per thread (a grid-stride loop).
 *
 * Changed from v5: the grid is smaller than the data and each thread first sums many elements in a
 * register, walking the input with a stride of the whole grid (2*blockSize*gridDim), so reads stay
 * coalesced and the costly tree runs once per many loads. Brent's theorem: O(n/log n) threads
 * doing O(log n) sequential work each keep the cost O(n). The seeds accumulate straight into
 * sdata[tid]; a register does the same without a shared-memory round trip per element.
 * Still slow: the tree and the volatile last warp still go through shared memory and barriers;
 * loads are 4 bytes wide.
 * Names: reduce6 (seed 004, Harris's "Reduction #7: multiple adds per thread"), grid-stride loop
 * (seed 001), reduceUnrolling8 (seed 003 unrolls 8 blocks by hand). */


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
__global__ void reduce6(const float *g_idata, float *g_odata, unsigned int n)
{
    // a block of 32 still reads sdata[tid + 16] for tid < 32: twice the block, as the CUDA samples allocate
    __shared__ float sdata[blockSize <= 32 ? 2 * blockSize : blockSize];

    // each thread sums many elements, striding over the whole grid
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    float mySum = 0.0f;
    while (i < n) {
        mySum += g_idata[i];
        if (i + blockSize < n) mySum += g_idata[i + blockSize];
        i += gridSize;
    }
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
