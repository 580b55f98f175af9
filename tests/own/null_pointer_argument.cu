// Honest CUDA: a literal 0 for a pointer argument the kernel does not use when it is null (here
// the optional per-block partials), as NVIDIA's samples pass one. The sum lands in out[0].
__global__ void k(const float *in, float *out, float *partials, unsigned n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = t < n ? in[t] : 0.0f;
    __syncthreads();
    for (unsigned st = 128; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) {
        out[0] = s[0];
        if (partials) partials[blockIdx.x] = s[0];
    }
}
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, 0, n); }
