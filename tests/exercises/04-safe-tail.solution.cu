// Exercise 4, a solution: each lane reads its partner, the warp syncs, each lane writes, the
// warp syncs again: no lane reads a word another lane of its warp is writing in the same step.
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

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid];
        for (unsigned int offset = 32; offset > 0; offset >>= 1) {
            v += sdata[tid + offset];
            __syncwarp();
            sdata[tid] = v;
            __syncwarp();
        }
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
