// the watched register (sum) stepped by ++ and --, before and after, in statements and expressions
__global__ void k(const float *in, float *out, unsigned n)
{
    float sum = 0.0f;
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
        sum += in[i];
        sum++;
    }
    ++sum;
    sum--;
    float y = sum++;
    out[threadIdx.x] = sum + y - 4.0f;
}
