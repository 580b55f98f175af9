// host code whose answer changes the second time it runs in one process (a static count of its calls):
// the adversarial search must run each order afresh, as its own run would
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
static int calls = 0;
void run(const float *in, float *out, unsigned n)
{
    calls++;
    k<<<1, 256>>>(in, out, calls == 1 ? n : n / 2);
}
