// Exercise 2, a solution: word w is stored at PAD(w) = w + w / 32, so each 32 words skip a bank.
#define BLOCK 256
#define PAD(w) ((w) + (w) / 32)

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK + BLOCK / 32];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[PAD(tid)] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[PAD(index)] += sdata[PAD(index + s)];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
