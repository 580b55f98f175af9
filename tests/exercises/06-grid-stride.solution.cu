// Exercise 6, a solution: each turn loads NUM_LOAD elements a grid apart (as seed 001 does),
// adds them, and moves on by NUM_LOAD grids; lane k of a warp always reads the word after lane
// k - 1's, so every load is coalesced.
#define BLOCK 256
#define NUM_LOAD 4

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int grid = blockDim.x * gridDim.x;
    float input[NUM_LOAD] = {0.0f};
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += grid * NUM_LOAD) {
        for (unsigned int step = 0; step < NUM_LOAD; step++)
            input[step] += (i + step * grid < n) ? g_idata[i + step * grid] : 0.0f;
    }
    for (unsigned int step = 1; step < NUM_LOAD; step++) input[0] += input[step];
    sdata[tid] = input[0];
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
