// A kernel that divides an integer by zero (the block's size less 256): on a GPU the quotient is
// undefined; warpscope stops the launch at the line of the division.
__global__ void k(const float *in, float *out, unsigned n)
{
    unsigned t = threadIdx.x;
    unsigned zero = blockDim.x - 256;
    unsigned per = n / zero;
    if (t == 0) out[0] = in[0] * (float)per;
}
