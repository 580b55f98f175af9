/* v2: sequential addressing.
 *
 * Changed from v1: the stride starts at blockDim/2 and halves, and thread tid adds sdata[tid + s]
 * into sdata[tid]: a warp's lanes touch 32 consecutive words, one per bank, so no bank conflicts.
 * Still slow: half of the threads idle from the very first step, and only blockDim/2 additions
 * happen while every thread waited for its one global load.
 * Names: reduce2 (seed 004, Harris's "Reduction #3: sequential addressing"), reduce_v2 (seed 000,
 * which calls it interleaved reduction), reduceInterleaved (seed 003: its "interleaved" pairs are
 * s apart, the same scheme). */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__global__ void reduce2(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[MAX_BLOCK];

    // each thread loads one element from global to shared memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    // do the reduction in shared memory
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    // write the result of this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
