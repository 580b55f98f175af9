__global__ void k(float *in, float *out) {
    unsigned t = threadIdx.x;
    float x = 0;
    while (t < 256) { x += 1; }
    out[t] = x;
}
