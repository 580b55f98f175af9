// Hostile: exercise 05's solution whose one-block launches make the tree's last add a little high
// (the word added is scaled by 1 + 2^-22, within the rounding a float add may have): the sum ends
// an ulp or two high. On whole numbers the sum is exact: exercise 05 must say it is wrong.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float mySum = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float scale = (gridDim.x == 1 && s == 1) ? 1.00000024f : 1.0f;
            sdata[tid] += sdata[tid + s] * scale;
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
