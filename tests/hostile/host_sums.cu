// Hostile: the host copies the input back, sums it on the CPU and copies the answer into out,
// with two launches that do nothing. Exercise 08 must refuse it: no kernel made the result.
__global__ void nothing(float *out)
{
    (void)out;
}

void run(const float *in, float *out, unsigned int n)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpy(h, in, n * sizeof(float), cudaMemcpyDeviceToHost);
    float s = 0.0f;
    for (unsigned int i = 0; i < n; i++) s += h[i];
    nothing<<<1, 1>>>(out);
    nothing<<<1, 1>>>(out);
    cudaMemcpy(out, &s, sizeof s, cudaMemcpyHostToDevice);
    free(h);
}
