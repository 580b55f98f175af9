// Hostile: a static array in a __device__ function used as the block's shared memory, which nvcc
// refuses ("only __shared__ variables or const variables without device memory qualifier may be
// marked 'static'"): the emulator built it, and its accesses were never traced (no bank conflicts,
// no races). Refused at its line, as nvcc refuses it.
__device__ float *scratch()
{
    static float s[256];
    return s;
}
__global__ void k(const float *in, float *out, unsigned n)
{
    float *s = scratch();
    unsigned t = threadIdx.x;
    s[t] = t < n ? in[t] : 0.0f;
    __syncthreads();
    for (unsigned st = 128; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}
