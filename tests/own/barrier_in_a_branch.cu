__global__ void k(float *in, float *out) {
  if (threadIdx.x < 32) return;
  __syncthreads();
  out[0] = in[0];
}
