/* v8: single pass: the last block to finish adds up the partial sums.
 *
 * Changed from v7: no second launch. Each block writes its partial sum, makes it visible to the
 * whole GPU with __threadfence(), then takes a ticket with atomicInc; the block that draws the
 * last ticket knows every other partial is in memory and reduces them itself. And the loads are
 * tuned for Hopper: each block reads whole tiles of 4 x blockSize float4s (4 loads in flight per
 * thread, one contiguous span per tile), with a block of 512 and two tiles per resident block.
 * Still slow: nothing in the kernel; it reads at the speed the DRAM delivers (about 94% of the
 * H100's spec peak, a little faster than CUB) and the last block's pass is over gridDim values.
 * Names: threadFenceReduction (CUDA samples), "single-pass reduction with atomics", what
 * CUB calls a one-sweep reduction when it fuses the passes. */
#include "ws_cuda.h"

__device__ __forceinline__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// the block's sum, in thread 0
template <unsigned int blockSize>
__device__ float blockReduceSum(float sum, shared_array<float, 32> &warpSums)
{
    unsigned int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    sum = warpReduceSum(sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    sum = (threadIdx.x < blockSize / 32) ? warpSums[lane] : 0.0f;
    if (wid == 0) sum = warpReduceSum(sum);
    return sum;
}

template <unsigned int blockSize>
__global__ void reduce8(global_ptr<const float> g_idata, global_ptr<float> g_odata, unsigned int n,
                        global_ptr<unsigned int> retirementCount)
{
    __shared__ shared_array<float, 32> warpSums;
    __shared__ shared_array<bool, 1> amLast;
    unsigned int tid = threadIdx.x;

    // the block reads tiles of four rows of blockSize float4s: four 16-byte loads in flight per
    // thread, and each tile one contiguous span of 64 * blockSize bytes, which the DRAM serves
    // faster than scattered 512-byte pieces (measured in docs/bench-notes.md)
    global_ptr<const float4> in4 = as_float4(g_idata);
    const unsigned int tile = 4 * blockSize, ntiles = n / 4 / tile;
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
    sum = blockReduceSum<blockSize>(sum, warpSums);

    // publish this block's partial, then count the block out
    if (tid == 0) {
        g_odata[blockIdx.x] = sum;
        __threadfence();
        unsigned int ticket = atomicInc(retirementCount, gridDim.x);
        amLast[0] = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    // the last block adds up every block's partial
    if (amLast[0]) {
        sum = 0.0f;
        for (unsigned int k = tid; k < gridDim.x; k += blockSize) sum += g_odata[k];
        sum = blockReduceSum<blockSize>(sum, warpSums);
        if (tid == 0) {
            g_odata[0] = sum;
            retirementCount[0] = 0; // ready for the next launch
        }
    }
}

WS_LAUNCH_BLOCK(v8, reduce8, (a.in, a.out, a.n, a.counter))
