// A file that includes a header from the folder above its own: refused in words that say why.
#include "../one_block_sum.cu"
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); }
