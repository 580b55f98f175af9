__global__ void k(const float *in, float *out)
{
    __shared__ float total[1];
    if (threadIdx.x == 0) total[0] = 0.0f;
    __syncthreads();
    atomicAdd(&total[0], in[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) out[0] = total[0];
}
