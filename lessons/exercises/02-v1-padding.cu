// Exercise 2: v1's bank conflicts, gone by padding.
// v1's thread k adds words 2*s*k and 2*s*k + s: at s = 16 lanes 0 and 1 hit words 0 and 32, the
// same bank. v2 fixes it by reordering the pairs; here keep v1's pairs and move the words
// instead: leave one empty word after every 32 (word w lives at w + w / 32), so that words 32
// apart fall in different banks.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
