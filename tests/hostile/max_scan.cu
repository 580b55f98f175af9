// Hostile: one thread of each block scans the block's 512 elements for the largest. Right, race
// free; exercise 09 must refuse it for its chain of comparisons.
__global__ void reduce_max(const float *g_idata, float *g_odata, unsigned int n)
{
    if (threadIdx.x == 0) {
        float m = -3.0e38f;
        for (unsigned int k = 0; k < 2 * blockDim.x; k++) {
            unsigned int i = blockIdx.x * 2 * blockDim.x + k;
            if (i < n) m = fmaxf(m, g_idata[i]);
        }
        g_odata[blockIdx.x] = m;
    }
}
