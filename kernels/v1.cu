/* v1: interleaved addressing with a strided index (bank conflicts).
 *
 * Changed from v0: the working threads are the first blockDim/(2s) threads, `index = 2*s*tid`, so
 * whole warps either work or skip the branch: no divergence until fewer than 32 threads work.
 * Still slow: lanes of a warp touch words 2s apart; with 32 banks of 4 bytes, 2s-apart words fall
 * into the same bank every 16/s lanes, so a warp's shared access is replayed up to 2s times
 * (a 2-way conflict at s = 1, 4-way at s = 2, ...).
 * Names: reduce1 (seed 004, Harris's "Reduction #2: strided index and non-divergent branch"),
 * reduce_v1 (seed 000), reduceNeighboredLess (seed 003). */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__global__ void reduce1(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[MAX_BLOCK];

    // each thread loads one element from global to shared memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    // do the reduction in shared memory
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }

    // write the result of this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
