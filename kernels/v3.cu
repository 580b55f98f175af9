/* v3: first add during load.
 *
 * Changed from v2: each block takes 2*blockDim elements and every thread adds two of them while
 * loading, so no thread idles in the first step and half as many blocks are launched.
 * Still slow: the tree's last steps run in warp 0 alone, each with a __syncthreads for the whole
 * block and the loop's bookkeeping: an instruction bottleneck, not a memory one.
 * Names: reduce3 (seed 004, Harris's "Reduction #4: first add during global load"), reduceUnroll2
 * (seed 003: "unrolling 2 data blocks"). */
#define MAX_BLOCK 1024 // the largest block: shared arrays sized by it hold one float per thread

__global__ void reduce3(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[MAX_BLOCK];

    // each thread loads two elements and adds them in a register (mySum: the register the tool draws)
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float mySum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
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
