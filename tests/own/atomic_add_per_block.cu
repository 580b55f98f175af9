// each block reduces in shared memory; thread 0 adds the block's sum into out[0]
#define BLOCK 256
__global__ void reduce_atomic(const float *in, float *out, int n)
{
    __shared__ float sdata[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(&out[0], sdata[0]);
}
