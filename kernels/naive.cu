/* naive: reduction in global memory, one launch per stride.
 *
 * Changed: nothing yet; this is the starting point. Each launch adds the element `stride` to the
 * right into every element whose index is a multiple of 2*stride, in place; the host launches it
 * for stride = 1, 2, 4, ... because blocks cannot wait for each other inside one launch.
 * Still slow: every step reads and writes global memory (no shared memory), log2(n) launches, and
 * from the second step on most threads of every warp only test the condition and idle.
 * Names: "naive_reduction_kernel", reduction with global memory (seed 001). The seed's kernel
 * reads data_in[idx + stride] for every idx; run in place that races, so this one adds only into
 * multiples of 2*stride, which is the tree its figure draws. */


__global__ void naive_reduction_kernel(float *data, unsigned int stride, unsigned int size)
{
    unsigned int idx_x = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx_x % (2 * stride) == 0 && idx_x + stride < size)
        data[idx_x] += data[idx_x + stride];
}
