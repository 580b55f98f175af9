// Hostile: a kernel that adds into a host global variable, which nvcc refuses ("reference to a
// __host__ variable in a __device__ function"): the emulator built it, and its race was never seen.
// Refused at its line, as nvcc refuses it.
float total;
__global__ void k(const float *in, float *out, unsigned n)
{
    unsigned t = threadIdx.x;
    if (t < n) total += in[t];
    __syncthreads();
    if (t == 0) out[0] = total;
}
