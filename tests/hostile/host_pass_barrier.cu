// Hostile: exercise 03's racing start file with its barrier put back under #ifndef __CUDA_ARCH__:
// the host pass keeps it, nvcc's device pass (the kernel nvcc builds) leaves it out. Exercise 03
// must judge the kernel nvcc builds: the barrier is not there, and the tree races.
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
            sdata[tid] += sdata[tid + s];
        }
#ifndef __CUDA_ARCH__
        __syncthreads();
#endif
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
