// Hostile: the host sums on the CPU and a kernel stores the number it is handed. Exercise 08 must
// refuse it: the result is a value no thread read from the input or made from it.
__global__ void store(float *out, float value)
{
    out[0] = value;
}

void run(const float *in, float *out, unsigned int n)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpy(h, in, n * sizeof(float), cudaMemcpyDeviceToHost);
    float s = 0.0f;
    for (unsigned int i = 0; i < n; i++) s += h[i];
    store<<<1, 1>>>(out, s);
    store<<<1, 1>>>(out, s);
    free(h);
}
