/* naive-race: the seed's own global-memory kernel, run in place. It races; keep it to see why.
 *
 * Changed from naive: nothing is guarded. Every thread with idx + stride < size adds the element
 * `stride` to its right into its own, and the host runs it in place (data_out and data_in are one
 * buffer) for stride = 1, 2, 4, ... If every read saw the value from before the launch, element 0
 * would end up holding the sum of all (each launch doubles the window each element covers). But
 * thread idx reads data[idx + stride] while thread idx + stride writes it, in the same launch, with
 * nothing ordering the two: a read-after-write or write-after-read hazard between threads, across
 * warps and across blocks. Whenever the writer wins, the reader adds a window twice and the sum
 * comes out too large. `warpscope hazards --version naive-race` names the two lines and threads;
 * kernels/naive.cu adds only into multiples of 2*stride, where no thread reads what another writes.
 * Still slow: all of naive's costs, and every thread works in every launch.
 * Names: naive_reduction_kernel (seed 001, "reduction with global memory"), as printed there. */


__global__ void naive_reduction_kernel(float *data_out, float *data_in, int stride, int size)
{
    int idx_x = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx_x + stride < size)
        data_out[idx_x] += data_in[idx_x + stride];
}
