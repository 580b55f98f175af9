/* cooperative_groups.h: CUDA's cooperative groups for a learner's file, made of what the hardware
 * does for them, so that the trace shows what the GPU runs: a block's sync is __syncthreads, a
 * tile's sync a warp sync over the tile's lanes, a tile's shfl, shfl_down, shfl_up and shfl_xor one
 * shuffle each (of the tile's width), a ballot, any or all a vote of the tile's lanes (a warp sync
 * at its line in the emulator, which moves no memory), cg::reduce over a tile the shfl_xor butterfly
 * of CUDA's own header (log2 of the tile's size shuffles), or for an int or unsigned plus, less or
 * greater over a tile of 16 or 32 the warp's redux (__reduce_add_sync and kin, sm_80 and later).
 *
 * It is read three ways: by the front end's parse (the prelude declares the ws_cg_* it uses), by
 * the emulator's build (ws_user.h defines them) and by the GPU's traced build (ws_user_gpu.h, which
 * includes it in place of CUDA's own header; the benchmark's plain build takes CUDA's own). Every
 * call takes the learner's line as its last, defaulted, argument. Tiles of more than 32 threads
 * (tiled_partition<64> and up, block_tile_memory) compile, and stop the run at their line. */
#ifndef WARPSCOPE_COOPERATIVE_GROUPS_H
#define WARPSCOPE_COOPERATIVE_GROUPS_H

#include <type_traits>

namespace cooperative_groups {

/* the shuffles' modes and the reductions' kinds, as ws_user.h numbers them */
enum { ws_cg_down = 0, ws_cg_up = 1, ws_cg_xor = 2, ws_cg_idx = 3 };
enum { ws_cg_none = -1, ws_cg_add = 1, ws_cg_min = 2, ws_cg_max = 3, ws_cg_and = 4, ws_cg_or = 5, ws_cg_xor_all = 6 };

__device__ inline unsigned ws_cg_popc(unsigned x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
/* the lane of the k-th set bit of m (from 0), or -1 */
__device__ inline int ws_cg_nth_lane(unsigned m, unsigned k)
{
    for (int l = 0; l < 32; l++)
        if (m >> l & 1u) {
            if (k == 0) return l;
            k--;
        }
    return -1;
}
__device__ inline unsigned ws_cg_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

/* the operators cg::reduce takes: plus, less (the least), greater (the greatest), bit_and, bit_or, bit_xor */
template <class T> struct plus { __device__ T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(const T &a, const T &b) const { return a ^ b; } };
template <class Op> struct ws_cg_redux_of { enum { value = ws_cg_none }; };
template <class T> struct ws_cg_redux_of<plus<T> > { enum { value = ws_cg_add }; };
template <class T> struct ws_cg_redux_of<less<T> > { enum { value = ws_cg_min }; };
template <class T> struct ws_cg_redux_of<greater<T> > { enum { value = ws_cg_max }; };
template <class T> struct ws_cg_redux_of<bit_and<T> > { enum { value = ws_cg_and }; };
template <class T> struct ws_cg_redux_of<bit_or<T> > { enum { value = ws_cg_or }; };
template <class T> struct ws_cg_redux_of<bit_xor<T> > { enum { value = ws_cg_xor_all }; };

class thread_block {
public:
    __device__ void sync(unsigned line = __builtin_LINE()) const { ws_cg_barrier(line); }
    __device__ unsigned thread_rank() const { return ws_cg_rank(); }
    __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    __device__ unsigned num_threads() const { return size(); }
    __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    __device__ dim3 dim_threads() const { return group_dim(); }
};

/* the scratch CUDA's multi-warp tiles keep in shared memory: nothing here */
template <unsigned int N, unsigned int M = 1>
struct block_tile_memory {
    char unused;
};

__device__ inline thread_block this_thread_block() { return thread_block(); }
template <class M>
__device__ thread_block this_thread_block(const M &) { return thread_block(); }

/* a tile of N threads of the block, N a power of two; tiles of N <= 32 live in one warp */
template <unsigned int N, class Parent = void>
class thread_block_tile {
    static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0, "a tile is 1, 2, 4, ... or 1024 threads");
    __device__ void ws_check(unsigned line) const
    {
        if (N > 32)
            ws_cg_fail(line, "warpscope does not model a tile of more than 32 threads yet (cooperative_groups::tiled_partition<64> "
                             "and up): use tiles of 32 and __syncthreads");
    }

public:
    __device__ unsigned ws_lane() const { return ws_cg_rank() & 31u; }
    /* the tile's lanes in its warp */
    __device__ unsigned ws_mask() const
    {
        return N >= 32 ? 0xffffffffu : ((1u << (N % 32)) - 1u) << (ws_lane() & ~(N - 1u));
    }
    __device__ unsigned thread_rank(unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_rank() & (N - 1u);
    }
    __device__ static constexpr unsigned size() { return N; }
    __device__ static constexpr unsigned num_threads() { return N; }
    __device__ unsigned meta_group_rank(unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_rank() / N;
    }
    __device__ unsigned meta_group_size(unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N;
    }
    __device__ void sync(unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        ws_cg_warp_sync(ws_mask(), line);
    }
    template <class T>
    __device__ T shfl(const T &v, int src, unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_shfl<T>(ws_cg_idx, ws_mask(), v, src, (int)(N % 64), line);
    }
    template <class T>
    __device__ T shfl_down(const T &v, unsigned delta, unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_shfl<T>(ws_cg_down, ws_mask(), v, (int)delta, (int)(N % 64), line);
    }
    template <class T>
    __device__ T shfl_up(const T &v, unsigned delta, unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_shfl<T>(ws_cg_up, ws_mask(), v, (int)delta, (int)(N % 64), line);
    }
    template <class T>
    __device__ T shfl_xor(const T &v, unsigned lanemask, unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_shfl<T>(ws_cg_xor, ws_mask(), v, (int)lanemask, (int)(N % 64), line);
    }
    /* bit r: the tile's thread of rank r */
    __device__ unsigned ballot(int pred, unsigned line = __builtin_LINE()) const
    {
        ws_check(line);
        return ws_cg_ballot(ws_mask(), pred, line) >> (ws_lane() & ~(N - 1u) & 31u);
    }
    __device__ int any(int pred, unsigned line = __builtin_LINE()) const { return ballot(pred, line) != 0; }
    __device__ int all(int pred, unsigned line = __builtin_LINE()) const
    {
        return ballot(pred, line) == (N >= 32 ? 0xffffffffu : (1u << (N % 32)) - 1u);
    }
    template <class T, class Op>
    __device__ T ws_reduce(T v, Op op, unsigned line) const
    {
        ws_check(line);
        if constexpr (ws_cg_redux_of<Op>::value != ws_cg_none && std::is_integral<T>::value && sizeof(T) == 4 && N >= 16 && N <= 32) {
            return ws_cg_redux<T>(ws_cg_redux_of<Op>::value, ws_mask(), v, line);
        } else {
            for (unsigned m = N / 2; m > 0 && N <= 32; m >>= 1) v = op(v, shfl_xor(v, m, line));
            return v;
        }
    }
};

template <unsigned int N, class P>
__device__ thread_block_tile<N> tiled_partition(const P &) { return thread_block_tile<N>(); }

/* tiled_partition(parent, n): a tile whose size is known only as the program runs (1 to 32, a power of two) */
class thread_group {
    unsigned n_;

public:
    __device__ explicit thread_group(unsigned n) : n_(n) {}
    __device__ unsigned ws_mask(unsigned line) const
    {
        if (n_ == 0 || n_ > 32 || (n_ & (n_ - 1)))
            ws_cg_fail(line, "warpscope models cooperative_groups::tiled_partition(parent, n) for n of 1, 2, 4, 8, 16 or 32 only");
        unsigned lane = ws_cg_rank() & 31u;
        return n_ >= 32 ? 0xffffffffu : ((1u << n_) - 1u) << (lane & ~(n_ - 1u));
    }
    __device__ void sync(unsigned line = __builtin_LINE()) const { ws_cg_warp_sync(ws_mask(line), line); }
    __device__ unsigned thread_rank(unsigned line = __builtin_LINE()) const
    {
        ws_mask(line);
        return ws_cg_rank() & (n_ - 1u);
    }
    __device__ unsigned size() const { return n_; }
    __device__ unsigned num_threads() const { return n_; }
    __device__ unsigned meta_group_rank() const { return ws_cg_rank() / n_; }
    __device__ unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + n_ - 1) / n_; }
};
__device__ inline thread_group tiled_partition(const thread_block &, unsigned n) { return thread_group(n); }
__device__ inline thread_group tiled_partition(const thread_group &, unsigned n) { return thread_group(n); }

/* the lanes of the warp that reach it together */
class coalesced_group {
    unsigned m_;

public:
    __device__ explicit coalesced_group(unsigned m) : m_(m) {}
    __device__ unsigned ws_mask() const { return m_; }
    __device__ unsigned thread_rank() const { return ws_cg_popc(m_ & ((1u << (ws_cg_rank() & 31u)) - 1u)); }
    __device__ unsigned size() const { return ws_cg_popc(m_); }
    __device__ unsigned num_threads() const { return size(); }
    __device__ unsigned meta_group_rank() const { return 0; }
    __device__ unsigned meta_group_size() const { return 1; }
    __device__ void sync(unsigned line = __builtin_LINE()) const { ws_cg_warp_sync(m_, line); }
    template <class T>
    __device__ T shfl(const T &v, unsigned rank, unsigned line = __builtin_LINE()) const
    {
        int src = ws_cg_nth_lane(m_, rank);
        return ws_cg_shfl<T>(ws_cg_idx, m_, v, src < 0 ? (int)(ws_cg_rank() & 31u) : src, 32, line);
    }
    template <class T>
    __device__ T shfl_down(const T &v, unsigned delta, unsigned line = __builtin_LINE()) const
    {
        if (m_ == 0xffffffffu) return ws_cg_shfl<T>(ws_cg_down, m_, v, (int)delta, 32, line);
        int src = ws_cg_nth_lane(m_, thread_rank() + delta);
        return ws_cg_shfl<T>(ws_cg_idx, m_, v, src < 0 ? (int)(ws_cg_rank() & 31u) : src, 32, line);
    }
    template <class T>
    __device__ T shfl_up(const T &v, unsigned delta, unsigned line = __builtin_LINE()) const
    {
        if (m_ == 0xffffffffu) return ws_cg_shfl<T>(ws_cg_up, m_, v, (int)delta, 32, line);
        int src = thread_rank() >= delta ? ws_cg_nth_lane(m_, thread_rank() - delta) : -1;
        return ws_cg_shfl<T>(ws_cg_idx, m_, v, src < 0 ? (int)(ws_cg_rank() & 31u) : src, 32, line);
    }
    /* bit r: the group's thread of rank r */
    __device__ unsigned ballot(int pred, unsigned line = __builtin_LINE()) const
    {
        unsigned raw = ws_cg_ballot(m_, pred, line), out = 0, r = 0;
        for (unsigned l = 0; l < 32; l++)
            if (m_ >> l & 1u) out |= (raw >> l & 1u) << r++;
        return out;
    }
    __device__ int any(int pred, unsigned line = __builtin_LINE()) const { return ballot(pred, line) != 0; }
    __device__ int all(int pred, unsigned line = __builtin_LINE()) const
    {
        unsigned n = size();
        return ballot(pred, line) == (n >= 32 ? 0xffffffffu : (1u << n) - 1u);
    }
    template <class T, class Op>
    __device__ T ws_reduce(T v, Op op, unsigned line) const
    {
        if (m_ != 0xffffffffu)
            ws_cg_fail(line, "warpscope does not model cooperative_groups::reduce over a coalesced group of fewer than 32 "
                             "threads yet: reduce over a tile of 32 (tiled_partition<32>)");
        return thread_block_tile<32>().ws_reduce(v, op, line);
    }
};
__device__ inline coalesced_group coalesced_threads(unsigned line = __builtin_LINE()) { return coalesced_group(ws_cg_lanes(line)); }

template <class G>
__device__ void sync(const G &g, unsigned line = __builtin_LINE())
{
    g.sync(line);
}

/* cg::reduce(group, value, op): the value every thread of the group gets */
template <class G, class V, class Op>
__device__ auto reduce(const G &g, const V &v, Op op, unsigned line = __builtin_LINE()) -> typename std::decay<decltype(op(v, v))>::type
{
    typedef typename std::decay<decltype(op(v, v))>::type T;
    return g.template ws_reduce<T, Op>((T)v, op, line);
}

} /* namespace cooperative_groups */

#endif
