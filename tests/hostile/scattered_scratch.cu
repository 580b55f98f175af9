// Hostile: exercise 08's solution that also writes one word in each of thousands of pages of a
// scratch buffer, more than the race detector can shadow at once: the run cannot be checked for
// races, so it is not believed (exercise 08: not verified), where it once passed unwatched.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *partial, unsigned int *count, float *g_odata, unsigned int n, float *scratch)
{
    __shared__ float sdata[BLOCK];
    __shared__ bool amLast;
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    scratch[(i * 1024u) % (1u << 22)] = 0.0f;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned int ticket = atomicInc(count, gridDim.x - 1);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    /* the last block sums the partials as every block sums its elements: each thread a few, then
     * the tree (one thread alone would add them one after another: 65536 adds at 2^24) */
    if (amLast) {
        float total = 0.0f;
        for (unsigned int b = tid; b < gridDim.x; b += blockDim.x) total += partial[b];
        sdata[tid] = total;
        __syncthreads();
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
            if (tid < s) sdata[tid] += sdata[tid + s];
            __syncthreads();
        }
        if (tid == 0) g_odata[0] = sdata[0];
    }
}

void run(const float *in, float *out, unsigned int n)
{
    float *partial;
    unsigned int *count;
    float *scratch;
    cudaMalloc(&scratch, (1u << 22) * sizeof(float));
    cudaMalloc(&partial, (n + BLOCK - 1) / BLOCK * sizeof(float));
    cudaMalloc(&count, sizeof(unsigned int));
    cudaMemset(count, 0, sizeof(unsigned int));
    if (n / 2 > 0) reduce<<<(n / 2 + BLOCK - 1) / BLOCK, BLOCK>>>(in, partial, count, out, n / 2, scratch);
    reduce<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, partial, count, out, n, scratch);
    cudaFree(partial);
    cudaFree(count);
}
