// Hostile: block 0 pads its words (no bank conflicts); every other block keeps v1's strided
// index unpadded, with its conflicts. Exercise 02 must see the conflicts of block 1.
#define BLOCK 256
#define PAD(w) ((w) + (w) / 32)

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK + BLOCK / 32];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int pad = blockIdx.x == 0;
    sdata[pad ? PAD(tid) : tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {
            if (pad) sdata[PAD(index)] += sdata[PAD(index + s)];
            else sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
