// Honest but wrong: the tree without a single __syncthreads. A goal that counts the writes of
// phase 1 has no phase 1 to count; the file must still be judged, goal by goal, and the files
// after it too.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
