// Device printf: each thread whose index is a multiple of EVERY prints its index and the element
// it loaded (through shared memory, so the argument is a load at the printf's line); LINES more
// lines each in a loop when asked, to go past the capture's limits.
#ifndef EVERY
#define EVERY 1
#endif
#ifndef LINES
#define LINES 0
#endif
__global__ void show(const float *in, float *out, unsigned n)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    if (t % EVERY == 0) printf("t=%u v=%.1f %s\n", t, s[t], t % 2 ? "odd" : "even");
    for (int k = 0; k < LINES; k++) printf("line %d of thread %u\n", k, t);
    if (i == 0) out[0] = (float)n * (float)(n - 1) / 2.0f;
}
