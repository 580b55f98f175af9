// Exercise 8: one launch, no second pass: the last block to finish adds up the partials.
// Each block writes its partial sum, then takes a ticket; the block that draws the last ticket
// (gridDim.x - 1) knows every other partial is written, and adds them up. run() launches the
// kernel twice, on two grids of different sizes, with the same counter. The second launch gives
// the wrong sum: the counter is not where a new launch expects it. Make the ticket right for the
// next launch too (atomicInc wraps the counter back to 0 when it reaches its limit).
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *partial, unsigned int *count, float *g_odata, unsigned int n)
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

    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned int ticket = atomicAdd(count, 1u);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    if (amLast && tid == 0) {
        float total = 0.0f;
        for (unsigned int b = 0; b < gridDim.x; b++) total += partial[b];
        g_odata[0] = total;
    }
}

// the first half of the input on one grid, then all of it on another
void run(const float *in, float *out, unsigned int n)
{
    float *partial;
    unsigned int *count;
    cudaMalloc(&partial, (n + BLOCK - 1) / BLOCK * sizeof(float));
    cudaMalloc(&count, sizeof(unsigned int));
    cudaMemset(count, 0, sizeof(unsigned int));
    if (n / 2 > 0) reduce<<<(n / 2 + BLOCK - 1) / BLOCK, BLOCK>>>(in, partial, count, out, n / 2);
    reduce<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, partial, count, out, n);
    cudaFree(partial);
    cudaFree(count);
}
