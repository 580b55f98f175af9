// single pass: the last block to take a ticket adds up every block's partial
__global__ void single_pass(const float *in, float *partial, unsigned *count, float *out, unsigned n)
{
    __shared__ float sdata[128];
    __shared__ bool last;
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && tid == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++) t += partial[b];
        out[0] = t;
    }
}
float run(const float *in, float *out, unsigned n)
{
    unsigned grid = (n + 127) / 128;
    float *partial; unsigned *count;
    cudaMalloc(&partial, grid * sizeof(float));
    cudaMalloc(&count, sizeof(unsigned));
    cudaMemset(count, 0, sizeof(unsigned));
    single_pass<<<grid, 128>>>(in, partial, count, out, n);
    single_pass<<<grid, 128>>>(in, partial, count, out, n);   // the ticket wrapped to 0: works again
    float r;
    cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
    return r;
}
