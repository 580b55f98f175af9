// Each cooperative-groups call a reduction uses, on a block of 64 threads over in[i] = i (--data
// ramp): case `which` writes one number to out[0], which cooperative_groups_should_give_cudas_answers.sh
// computes from CUDA's definitions of the calls.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void cg_calls(const float *in, float *out, int which)
{
    __shared__ float s[64];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(cta);
    unsigned t = cta.thread_rank();
    float x = in[t];
    int xi = (int)x;
    if (which == 0) { // the block: sync, thread_rank, size
        s[t] = x;
        cta.sync();
        if (t == 0) out[0] = s[cta.size() - 1] + cta.size();
    } else if (which == 1) { // a tile of 32: shfl_down
        float y = tile32.shfl_down(x, 5);
        if (t == 3) out[0] = y;
    } else if (which == 2) { // a tile of 16: shfl_down past its end gives the lane's own value
        float y = tile16.shfl_down(x, 5);
        if (t == 61) out[0] = y;
    } else if (which == 3) { // shfl from a rank
        float y = tile32.shfl(x, 7);
        if (t == 40) out[0] = y;
    } else if (which == 4) { // shfl_xor within a tile of 16
        float y = tile16.shfl_xor(x, 9);
        if (t == 20) out[0] = y;
    } else if (which == 5) { // ballot of a tile of 16: bit r is rank r
        unsigned b = tile16.ballot(xi % 3 == 0);
        if (t == 16) out[0] = (float)b;
    } else if (which == 6) { // any and all
        int a = tile32.any(xi == 45), b = tile32.all(xi >= 32), c = tile32.any(xi == 5);
        if (t == 35) out[0] = (float)(c * 100 + a * 10 + b);
    } else if (which == 7) { // meta_group_rank and meta_group_size
        if (t == 50) out[0] = (float)(tile16.meta_group_rank() * 10 + tile16.meta_group_size());
    } else if (which == 8) { // coalesced_threads in a branch
        if (t % 4 == 1) {
            cg::coalesced_group g = cg::coalesced_threads();
            if (t == 37) out[0] = (float)(g.size() * 10 + g.thread_rank());
        }
    } else if (which == 9) { // cg::reduce with cg::plus over a tile of 32
        float y = cg::reduce(tile32, x, cg::plus<float>());
        if (t == 32) out[0] = y;
    } else if (which == 10) { // cg::reduce with cg::greater over a tile of 16
        float y = cg::reduce(tile16, x, cg::greater<float>());
        if (t == 0) out[0] = y;
    } else if (which == 11) { // cg::reduce of ints (the warp's redux on sm_80 and later)
        int y = cg::reduce(tile32, xi, cg::plus<int>());
        if (t == 5) out[0] = (float)y;
    } else if (which == 12) { // __reduce_add_sync, __reduce_min_sync, __reduce_max_sync
        unsigned a = __reduce_add_sync(0xffffffffu, (unsigned)xi);
        int lo = __reduce_min_sync(0xffffffffu, xi), hi = __reduce_max_sync(0xffffffffu, xi);
        if (t == 32) out[0] = (float)(a * 10000 + lo * 100 + hi);
    } else if (which == 13) { // tiled_partition(parent, n) at run time, cg::sync, __threadfence
        cg::thread_group g = cg::tiled_partition(cta, 8);
        cg::sync(g);
        __threadfence();
        if (t == 13) out[0] = (float)(g.thread_rank() * 10 + g.size());
    } else if (which == 14) { // shfl_up, and a tile's sync
        float y = tile32.shfl_up(x, 2);
        tile32.sync();
        if (t == 34) out[0] = y;
    } else if (which == 15) { // the coalesced group's shfl_down and ballot
        if (t % 2 == 0) {
            cg::coalesced_group g = cg::coalesced_threads();
            float y = g.shfl_down(x, 3);
            unsigned b = g.ballot(xi % 4 == 0);
            if (t == 34) out[0] = y * 100000 + (float)b;
        }
    }
}
