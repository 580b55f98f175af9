// Honest mistake: host code that reads a result straight from device memory, as if cudaMalloc
// gave host memory. On a GPU the program stops (a segmentation fault); warpscope says so at the
// line of the last CUDA call before it, never with a sum.
#include <stdio.h>
__global__ void k(const float *in, float *out, unsigned n)
{
    if (threadIdx.x == 0) {
        float s = 0;
        for (unsigned i = 0; i < n; i++) s += in[i];
        out[0] = s;
    }
}
void run(float *in, float *out, unsigned n)
{
    k<<<1, 32>>>(in, out, n);
    float sum = 0;
    for (unsigned i = 0; i < n; i++) sum += in[i]; // line 17: a CPU loop over device memory
    out[0] = sum;
}
