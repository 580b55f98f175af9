// float4 loads, a running sum, shuffles of every kind
__device__ float warp_sum(float v)
{
    for (int o = 1; o < 32; o *= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__global__ void reduce_shfl(const float *in, float *out, unsigned n)
{
    __shared__ float warps[32];
    float sum = 0.0f;
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 4; i += blockDim.x * gridDim.x) {
        float4 v = in4[i];
        sum += v.x + v.y + v.z + v.w;
    }
    sum = warp_sum(sum);
    int up = __shfl_up_sync(0xffffffff, (int)threadIdx.x, 1);   // lane - 1, lane 0 keeps its own
    sum = __shfl_sync(0xffffffff, sum, 0);                       // every lane takes lane 0's
    if (threadIdx.x % 32 == 1 && up != (int)threadIdx.x - 1) sum = -1.0f;
    if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (unsigned w = 0; w < blockDim.x / 32; w++) t += warps[w];
        atomicAdd(out, t);
    }
}
