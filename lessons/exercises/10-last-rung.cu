// Exercise 10: the last rung. One launch, right in every run, and slow: each thread loads one
// element, each block adds its 256 in a shared-memory tree and writes a partial, and the block that
// draws the last ticket lets its thread 0 add up every partial, one after another. At n = 2^26 that
// is 2^18 blocks, each with its barriers, its partial and its ticket, and one thread that adds 2^18
// partials in a row while the rest of the card waits. Make it fast, the way the ladder did (v3 to
// v8), and keep it one launch and right: the checklist's last goal is the card's, judged where
// there is a GPU (warpscope exercise check on a machine with one, or the lab's server).
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int *count, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    __shared__ bool amLast;
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    // publish the partial (the fence orders it before the ticket), then count the block out;
    // atomicInc wraps the counter to 0 as the last block takes its ticket
    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned int ticket = atomicInc(count, gridDim.x - 1);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    if (amLast && tid == 0) {
        float total = 0.0f;
        for (unsigned int b = 0; b < gridDim.x; b++) total += g_odata[b];
        g_odata[0] = total;
    }
}

// one launch: a block for every BLOCK elements; out holds the partials, then the sum in out[0]
void run(const float *in, float *out, unsigned int n)
{
    unsigned int *count;
    cudaMalloc(&count, sizeof(unsigned int));
    cudaMemset(count, 0, sizeof(unsigned int));
    reduce<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, count, n);
    cudaFree(count);
}
