__global__ void k(float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }
void run(float *in, float *out) {
    float *p = 0;
    k<<<1, 32>>>(in, out);
    *p = 1;
}
