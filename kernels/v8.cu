/* v8: single pass: the last block to finish adds up the partial sums.
 *
 * Changed from v7: four independent float4 loads per iteration, and no second launch. Each block writes its partial sum, makes it visible to the
 * whole GPU with __threadfence(), then takes a ticket with atomicInc; the block that draws the
 * last ticket knows every other partial is in memory and reduces them itself.
 * Still slow: nothing big; the tail block's extra pass is over gridDim values only. What is left is
 * keeping enough loads in flight to reach the memory's bandwidth.
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
__device__ float blockReduceSum(float sum, shared_array<float, 32> &warpSums)
{
    unsigned int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    sum = warpReduceSum(sum);
    if (lane == 0) warpSums[wid] = sum;
    __syncthreads();
    sum = (threadIdx.x < blockDim.x / 32) ? warpSums[lane] : 0.0f;
    if (wid == 0) sum = warpReduceSum(sum);
    return sum;
}

__global__ void reduce8(global_ptr<const float> g_idata, global_ptr<float> g_odata, unsigned int n,
                        global_ptr<unsigned int> retirementCount)
{
    __shared__ shared_array<float, 32> warpSums;
    __shared__ shared_array<bool, 1> amLast;
    unsigned int tid = threadIdx.x;

    // each thread sums float4s, striding over the whole grid, four loads in flight at a time:
    // one load per iteration leaves the memory idle while each waits (see docs/bench-notes.md)
    float sum = 0.0f;
    global_ptr<const float4> in4 = as_float4(g_idata);
    unsigned int stride = blockDim.x * gridDim.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    for (; i + 3 * stride < n / 4; i += 4 * stride) {
        float4 a = in4[i], b = in4[i + stride], c = in4[i + 2 * stride], d = in4[i + 3 * stride];
        sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) +
               (((c.x + c.y) + (c.z + c.w)) + ((d.x + d.y) + (d.z + d.w)));
    }
    for (; i < n / 4; i += stride) {
        float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && tid < n % 4) sum += g_idata[n / 4 * 4 + tid];
    sum = blockReduceSum(sum, warpSums);

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
        for (unsigned int k = tid; k < gridDim.x; k += blockDim.x) sum += g_odata[k];
        sum = blockReduceSum(sum, warpSums);
        if (tid == 0) {
            g_odata[0] = sum;
            retirementCount[0] = 0; // ready for the next launch
        }
    }
}

WS_LAUNCH(v8, reduce8, (a.in, a.out, a.n, a.counter))
