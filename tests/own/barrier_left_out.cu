__global__ void k(float *in, float *out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    for (unsigned st = 128; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
    }
    if (t == 0) out[0] = s[0];
}
