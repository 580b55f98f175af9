/* v8: single pass: the last block to finish adds up the partial sums.
 *
 * Changed from v7: no second launch. Each block writes its partial sum, makes it visible to the
 * whole GPU with __threadfence(), then takes a ticket with atomicInc; the block that draws the
 * last ticket fences again (so it sees every partial the others published) and adds them up
 * itself. The loads are laid out for the DRAM: a block reads whole tiles of TILE_ROWS rows of
 * blockSize float4s, all TILE_ROWS 16-byte loads issued before the first add, so each tile is
 * one contiguous span and the grid sweeps the input front to back. How many blocks share the
 * tiles (the grid) is the launch's choice, made from the device's SM count and bandwidth
 * (app/bench_gpu.cu): one tile per block while there are fewer tiles than SMs; one block per SM
 * while each would take at most eight tiles (2^22 to 2^24 floats), so the grid leaves every SM
 * a second slot for the next launch's block and has few partials; beyond that one tile per
 * block where a tile takes long enough to hide the block's ticket (an H100), four where it does
 * not (an H200). With at most 128 partials (4 x 32: one float4 per lane) the last block's first
 * warp adds them up alone, with shuffles and no barrier; with more, the whole block does.
 * Launched back to back on a Hopper GPU, a launch may start before the previous one has finished
 * (programmatic dependent launch): its blocks read their tiles while the previous launch's last
 * block adds up the partials, and wait for that launch to end only before they write anything.
 * Still slow: the end of a lone launch. After its last tile arrives, the last block does what a
 * read-only kernel does not: a block reduction, the partial's store and fence, the ticket, the
 * second fence, a load of the partials and their sum, each a barrier or a round trip to L2 (about
 * 1.7 us on an H100 at 2^16 to 2^20 floats, measured stage by stage in docs/bench-notes.md), so
 * timed one launch at a time it stays 10-35% behind the best read-only kernel up to 2^24 floats
 * and 3-5% at 2^26; back to back from 2^24 up, and alone from 2^28 up, it reads within 0.1-3% of
 * that kernel.
 * Names: threadFenceReduction (CUDA samples), "single-pass reduction with atomics", what CUB
 * calls a one-sweep reduction when it fuses the passes. */


/* 16-byte loads each thread has in flight per tile (a, b, c, d below): with 2048 threads per SM,
 * 128 KB per SM in flight; 2, 8 and 16 measured no better on an H100 or an H200 */
#define TILE_ROWS 4
static_assert(TILE_ROWS == 4, "the tile loop below names its four rows a, b, c, d: change both together");
__device__ __forceinline__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// the block's sum, in thread 0
template <unsigned int blockSize> __device__ float blockReduceSum(float sum)
{
    __shared__ float warpSums[32]; // one per block, however often it is called: each warp's sum
    unsigned int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    sum = warpReduceSum(sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    sum = (threadIdx.x < blockSize / 32) ? warpSums[lane] : 0.0f;
    if (wid == 0) sum = warpReduceSum(sum);
    return sum;
}

template <unsigned int blockSize>
__global__ void reduce8(const float *g_idata, float *g_odata, unsigned int n,
                        unsigned int *retirementCount)
{
    // set by thread 0 when this block is the last of the grid to finish
    __shared__ bool amLast[1];
    unsigned int tid = threadIdx.x;
    // the next launch in the stream may start once every block of this one has got here: it then
    // loads its tiles while this launch's last block finishes (a launch without the attribute
    // cudaLaunchAttributeProgrammaticStreamSerialization ignores this)
    cudaTriggerProgrammaticLaunchCompletion();

    // each tile is TILE_ROWS coalesced rows of blockSize float4s; the four loads go out together,
    // then the adds, so a thread waits on the DRAM once per tile, not once per load
    const float4 *in4 = reinterpret_cast<const float4 *>(g_idata);
    const unsigned int tile = TILE_ROWS * blockSize, ntiles = n / 4 / tile;
    float sum = 0.0f;
    for (unsigned int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        unsigned int base = t * tile + tid;
        float4 a = in4[base], b = in4[base + blockSize], c = in4[base + 2 * blockSize], d = in4[base + 3 * blockSize];
        sum += (((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w))) +
               (((c.x + c.y) + (c.z + c.w)) + ((d.x + d.y) + (d.z + d.w)));
    }
    // the float4s after the last whole tile, then the last n % 4 floats
    for (unsigned int i = ntiles * tile + blockIdx.x * blockSize + tid; i < n / 4; i += blockSize * gridDim.x) {
        float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && tid < n % 4) sum += g_idata[n / 4 * 4 + tid];
    sum = blockReduceSum<blockSize>(sum);
    // everything above read only the input; g_odata and the counter may still be in use by the
    // previous launch (its last block reads the partials, then resets the counter), so wait here
    // until that launch has completed and its writes are visible (at once if nothing overlaps)
    cudaGridDependencySynchronize();

    // publish this block's partial (release: the fence orders the store before the ticket), then
    // count the block out; the last block fences again (acquire) before it reads the others
    if (tid == 0) {
        g_odata[blockIdx.x] = sum;
        __threadfence();
        unsigned int ticket = atomicInc(retirementCount, gridDim.x);
        amLast[0] = (ticket == gridDim.x - 1);
        if (ticket == gridDim.x - 1) __threadfence(); // the ticket it holds: no shared load
    }
    __syncthreads();

    // the last block adds up every block's partial, as float4s like the input. A few (at most
    // one float4 per lane of a warp): the first warp alone, then shuffles, no barrier. Many (tens
    // of thousands at 2^30 floats): the whole block, a quarter of the round trips, then the block
    // reduction above. (Written as two loops, the kernel keeps to 32 registers a thread, so two
    // blocks of 1024 threads fit on an SM; a shape of this pass that took 34 halved that and lost
    // up to 13% on an H200, docs/bench-notes.md.)
    if (amLast[0]) {
        const float4 *partials4 = reinterpret_cast<const float4 *>(g_odata);
        sum = 0.0f;
        if (gridDim.x <= 4 * 32) {
            if (tid < 32) {
                for (unsigned int k = tid; k < gridDim.x / 4; k += 32) {
                    float4 p = partials4[k];
                    sum += (p.x + p.y) + (p.z + p.w);
                }
                if (tid < gridDim.x % 4) sum += g_odata[gridDim.x / 4 * 4 + tid];
                sum = warpReduceSum(sum);
            }
        } else {
            for (unsigned int k = tid; k < gridDim.x / 4; k += blockSize) {
                float4 p = partials4[k];
                sum += (p.x + p.y) + (p.z + p.w);
            }
            if (tid < gridDim.x % 4) sum += g_odata[gridDim.x / 4 * 4 + tid];
            sum = blockReduceSum<blockSize>(sum);
        }
        if (tid == 0) {
            g_odata[0] = sum;
            retirementCount[0] = 0; // ready for the next launch
        }
    }
}
