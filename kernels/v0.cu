/* v0: interleaved addressing with a divergent branch.
 *
 * Changed from naive: each block loads its elements into shared memory once and reduces them there
 * with __syncthreads between steps; one launch per pass instead of one per stride.
 * Still slow: `tid % (2*s) == 0` picks every 2s-th thread, so the working threads are scattered
 * over all warps: every warp stays busy for the first log2(32) steps with fewer and fewer lanes
 * working (divergence), and the modulo is expensive.
 * Names: reduce0 (seed 004, Harris's "Reduction #1: interleaved addressing"), reduce_v0 (seed 000),
 * reduceNeighbored (seed 003). */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__global__ void reduce0(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[MAX_BLOCK];

    // each thread loads one element from global to shared memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    // do the reduction in shared memory
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    // write the result of this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
