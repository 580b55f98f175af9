// Blocks of any size and shape: each block sums its elements in shared memory (thread 0 adds
// what the others stored, after one barrier), then adds its sum into out[0]. Thread and block
// numbers are CUDA's linearisation, x fastest, written out here so the test can check the
// trace's addresses against the same formula.
#define MAX_THREADS 1024
__global__ void block_sum(const float *in, float *out, unsigned n)
{
    __shared__ float part[MAX_THREADS];
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned i = b * threads + t;
    part[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (t == 0) {
        float s = 0.0f;
        for (unsigned k = 0; k < threads; k++) s += part[k];
        atomicAdd(&out[0], s);
    }
}
void shaped(const float *in, float *out, unsigned n, unsigned bx, unsigned by, unsigned bz, unsigned gx, unsigned gy)
{
    block_sum<<<dim3(gx, gy), dim3(bx, by, bz)>>>(in, out, n);
}
