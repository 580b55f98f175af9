// One kernel for every --type (ELEM, given by --define ELEM=int): each block sums its elements in
// shared memory (a tree), then thread 0 adds the block's sum into out[0] with CUDA's atomicAdd for
// the type (a long long through unsigned long long, as CUDA has no signed 64-bit atomicAdd: two's
// complement gives the same bits).
#ifndef ELEM
#define ELEM float
#endif
#define BLOCK 256
__device__ void add_to(long long *p, long long v) { atomicAdd((unsigned long long *)p, (unsigned long long)v); }
__device__ void add_to(float *p, float v) { atomicAdd(p, v); }
__device__ void add_to(int *p, int v) { atomicAdd(p, v); }
__device__ void add_to(unsigned *p, unsigned v) { atomicAdd(p, v); }
__device__ void add_to(double *p, double v) { atomicAdd(p, v); }
__global__ void typed_sum(const ELEM *in, ELEM *out, unsigned n)
{
    __shared__ ELEM s[BLOCK];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : (ELEM)0;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) add_to(out, s[0]);
}
