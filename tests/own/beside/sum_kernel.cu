// The kernel of sums_with_an_included_kernel.cu, in a .cu file of its own that the main file
// includes, as NVIDIA's samples include reduction_kernel.cu.
__global__ void k(const float *in, float *out, unsigned n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = t < n ? in[t] : 0.0f;
    __syncthreads();
    for (unsigned st = 128; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}
