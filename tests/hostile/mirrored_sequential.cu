// Hostile: v2's sequential order mirrored onto the upper half: thread t adds word B-1-t-s into word
// B-1-t, so the first step writes words across the upper half and never word 1, without v0's pairs
// (each word and the next). Exercises 01 and 02 must see that the pairs are not kept.
#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            unsigned int w = blockDim.x - 1 - tid;
            sdata[w] += sdata[w - s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[blockDim.x - 1];
}
