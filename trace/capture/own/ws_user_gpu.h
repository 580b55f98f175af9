/* ws_user_gpu.h: a learner's rewritten file (frontend.h) built by nvcc, included from ws_cuda.h
 * when WS_USER is set: the names ws_user.h gives the emulator, for a real GPU. Two builds:
 *
 *  - traced (WS_GPU_TRACE, `--backend gpu`, `verify --kernel`): ws_ptr<T> holds the real address
 *    with the buffer or shared array it points into; each access checks its bounds (one out of
 *    them is not made, and the launch's first such access stops the run at its line, as the
 *    emulator stops it), is made through volatile where the source says, and is recorded as the
 *    ladder's traced build records (ws_record). Shuffles, atomics and the kernel's end are recorded
 *    too (WS_KERNEL_ENTRY opens every kernel's body);
 *  - plain (`bench --kernel`): ws_ptr<T> is T *, a shared array an array, and the kernel is the
 *    learner's own code; warpscope times each launch.
 *
 * In both, the host's cudaMalloc, cudaMemcpy and cudaMemset are CUDA's, told to warpscope first
 * (ws_user_gpu_api.h: buffers are named and copies checked), and each launch goes through
 * warpscope (a pass of the trace, or a timed launch). */
#ifndef WARPSCOPE_WS_USER_GPU_H
#define WARPSCOPE_WS_USER_GPU_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tuple>
#include <type_traits>
#include <utility>

#include "trace/capture/own/ws_entry.h"
#include "trace/capture/own/ws_user_gpu_api.h"

/* the front end's ws_divisor(D, LINE) (ws_user.h): on the GPU the divisor as written,
 * in the traced build and the plain (the benchmark's) alike */
template <class T>
__host__ __device__ constexpr T ws_divisor(T v, unsigned) { return v; }

#if defined(WS_GPU_TRACE)
/* ======================= traced ======================= */

template <class T> struct ws_plain<volatile T> { typedef T type; };
template <class T> struct ws_plain<const volatile T> { typedef T type; };
template <> struct ws_is_int<int> { static const int value = 2; }; /* signed: recorded as such */
template <> struct ws_is_int<const float> { static const int value = 0; };
template <> struct ws_is_int<const float4> { static const int value = 0; };

enum { WS_SPACE_SHARED = -1, WS_SPACE_NULL = -2, WS_SPACE_UNFOLLOWED = -3 };

/* the launch's first access out of bounds, kept for the host (ws_gpu_fault); bad: this lane's, of
 * whose warp the lowest lane that made one is named (the emulator names that one too). Every lane
 * running the access calls it. */
static __device__ __forceinline__ void ws_gpu_fault_at(bool bad, unsigned what, unsigned line, long long element, unsigned long long elements)
{
    ws_gpu_fault *f = (ws_gpu_fault *)ws_ctx.fault;
    unsigned lanes = __ballot_sync(__activemask(), bad);
    if (!bad || (threadIdx.x & 31u) != (unsigned)__ffs(lanes) - 1u) return;
    if (!f || atomicCAS(&f->what, 0ull, (unsigned long long)what) != 0ull) return;
    f->line = line;
    f->block = blockIdx.x;
    f->thread = threadIdx.x;
    f->element = element;
    f->elements = elements;
}

template <class V>
__device__ __forceinline__ V ws_gpu_load(const V *p)
{
    return *(const volatile V *)p;
}
template <>
__device__ __forceinline__ float4 ws_gpu_load<float4>(const float4 *p)
{
    return *p; /* one 16-byte load */
}
template <class V>
__device__ __forceinline__ void ws_gpu_store(V *p, V v)
{
    *(volatile V *)p = v;
}
template <>
__device__ __forceinline__ void ws_gpu_store<float4>(float4 *p, float4 v)
{
    *p = v;
}

template <class T>
struct ws_ptr;

/* one element: reading it is a load, assigning a store, each recorded; p is null for an access
 * that was out of bounds (not made) */
template <class T>
struct ws_uref {
    typedef typename ws_plain<T>::type V;
    T *p;
    int buf; /* WS_SPACE_SHARED or a buffer */
    long long index;
    unsigned line;
    unsigned long long base, bytes;

    __device__ __forceinline__ long long where() const
    {
        return buf < 0 ? (long long)(__cvta_generic_to_shared((const void *)p) / 4) : index;
    }
    __device__ __forceinline__ operator V() const
    {
        V v{};
        if (!p) return v;
        v = ws_gpu_load((const V *)p);
        ws_record(buf < 0 ? TRACE_SHARED_LOAD : TRACE_GLOBAL_LOAD, line, buf, where(), sizeof(V), &v, ws_is_int<V>::value);
        return v;
    }
    __device__ __forceinline__ const ws_uref &operator=(V v) const
    {
        if (!p) return *this;
        ws_gpu_store((V *)p, v);
        ws_record(buf < 0 ? TRACE_SHARED_STORE : TRACE_GLOBAL_STORE, line, buf, where(), sizeof(V), &v, ws_is_int<V>::value);
        return *this;
    }
    __device__ __forceinline__ const ws_uref &operator=(const ws_uref &r) const { return *this = (V)r; }
    __device__ __forceinline__ const ws_uref &operator+=(V v) const { return *this = (V)(*this) + v; }
    __device__ ws_ptr<T> operator&() const;
};

template <class T, unsigned N>
struct shared_array {
    T data[N];
    __device__ __forceinline__ ws_uref<T> operator[](ws_index ix) const;
};

/* extern __shared__ T name[]: the launch's dynamic shared memory */
extern __shared__ __align__(16) unsigned char ws_dynamic_shared[];
template <class T, unsigned N = 0>
struct ws_extern_shared {
    __device__ __forceinline__ ws_ptr<T> ptr() const;
    __device__ __forceinline__ ws_uref<T> operator[](ws_index ix) const;
};

template <class T>
struct ws_ptr {
    typedef typename ws_plain<T>::type V;
    T *p;
    int buf; /* a buffer, or WS_SPACE_* */
    unsigned long long base, bytes; /* the buffer or shared array it points into */

    __host__ __device__ ws_ptr() : p(nullptr), buf(WS_SPACE_NULL), base(0), bytes(0) {}
    __host__ __device__ ws_ptr(decltype(nullptr)) : ws_ptr() {}
    /* a kernel argument: a pointer the host got from cudaMalloc (in device code, an address
     * warpscope does not follow) */
    __host__ __device__ ws_ptr(T *raw) : ws_ptr()
    {
        if (!raw) return;
        p = raw;
#if defined(__CUDA_ARCH__)
        buf = WS_SPACE_UNFOLLOWED;
#else
        if (!ws_gpu_user_buffer((const void *)raw, &buf, &base, &bytes))
            ws_gpu_user_fail(0, "a kernel argument points to host memory: pass a pointer from cudaMalloc");
#endif
    }
    template <class U, class = typename std::enable_if<std::is_same<typename ws_plain<U>::type, V>::value>::type>
    __host__ __device__ ws_ptr(const ws_ptr<U> &o) : p((T *)o.p), buf(o.buf), base(o.base), bytes(o.bytes)
    {
    }
    template <class U, unsigned N, class = typename std::enable_if<std::is_same<typename ws_plain<U>::type, V>::value>::type>
    __device__ ws_ptr(const shared_array<U, N> &a)
        : p((T *)a.data), buf(WS_SPACE_SHARED), base((unsigned long long)a.data), bytes(sizeof(U) * N)
    {
    }
    template <class U, unsigned N>
    __device__ ws_ptr(const ws_extern_shared<U, N> &a) : ws_ptr(a.ptr())
    {
    }
    static __host__ __device__ ws_ptr make(T *p, int buf, unsigned long long base, unsigned long long bytes)
    {
        ws_ptr r;
        r.p = p;
        r.buf = buf;
        r.base = base;
        r.bytes = bytes;
        return r;
    }
    __device__ __forceinline__ ws_uref<T> operator[](ws_index ix) const
    {
        /* the byte offset from the buffer's start, in integers: an index out of bounds is checked
         * before any address is made from it */
        const long long far = (1ll << 40) / (long long)sizeof(V); /* beyond any buffer: no overflow below */
        long long i = ix.i > far ? far : ix.i < -far ? -far : ix.i;
        long long off = (long long)((unsigned long long)p - base) + i * (long long)sizeof(V);
        long long element = off >= 0 ? off / (long long)sizeof(V) : -((-off + (long long)sizeof(V) - 1) / (long long)sizeof(V));
        bool bad = buf == WS_SPACE_NULL || buf == WS_SPACE_UNFOLLOWED || off < 0 || bytes < sizeof(V) ||
                   (unsigned long long)off > bytes - sizeof(V);
        ws_gpu_fault_at(bad, buf == WS_SPACE_NULL ? WS_FAULT_NULL : buf == WS_SPACE_UNFOLLOWED ? WS_FAULT_UNFOLLOWED
                             : buf == WS_SPACE_SHARED ? WS_FAULT_SHARED : WS_FAULT_GLOBAL,
                        ix.line, element, bytes / sizeof(V));
        if (bad) return ws_uref<T>{nullptr, buf, 0, ix.line, base, bytes};
        return ws_uref<T>{(T *)(base + (unsigned long long)off), buf, buf < 0 ? 0 : element, ix.line, base, bytes};
    }
    __device__ __forceinline__ ws_uref<T> operator*() const { return (*this)[ws_index(0, 0)]; }
    __host__ __device__ ws_ptr operator+(long long k) const { return make(p + k, buf, base, bytes); }
    __host__ __device__ ws_ptr operator-(long long k) const { return make(p - k, buf, base, bytes); }
    friend __host__ __device__ ws_ptr operator+(long long k, const ws_ptr &q) { return q + k; }
    __host__ __device__ long long operator-(const ws_ptr &o) const { return p - o.p; }
    __host__ __device__ ws_ptr &operator+=(long long k) { return *this = *this + k; }
    __host__ __device__ ws_ptr &operator-=(long long k) { return *this = *this - k; }
    __host__ __device__ ws_ptr &operator++() { return *this += 1; }
    __host__ __device__ ws_ptr &operator--() { return *this -= 1; }
    __host__ __device__ ws_ptr operator++(int) { ws_ptr q = *this; *this += 1; return q; }
    __host__ __device__ ws_ptr operator--(int) { ws_ptr q = *this; *this -= 1; return q; }
    __host__ __device__ bool operator==(const ws_ptr &o) const { return p == o.p; }
    __host__ __device__ bool operator!=(const ws_ptr &o) const { return p != o.p; }
    __host__ __device__ bool operator<(const ws_ptr &o) const { return p < o.p; }
    __host__ __device__ explicit operator bool() const { return p != nullptr; }
};

template <class T>
__device__ ws_ptr<T> ws_uref<T>::operator&() const
{
    return ws_ptr<T>::make(p, buf, base, bytes);
}
template <class T, unsigned N>
__device__ __forceinline__ ws_uref<T> shared_array<T, N>::operator[](ws_index ix) const
{
    return ws_ptr<T>(*this)[ix];
}
template <class T, unsigned N>
__device__ __forceinline__ ws_ptr<T> ws_extern_shared<T, N>::ptr() const
{
    unsigned bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return ws_ptr<T>::make((T *)ws_dynamic_shared, WS_SPACE_SHARED, (unsigned long long)ws_dynamic_shared, bytes);
}
template <class T, unsigned N>
__device__ __forceinline__ ws_uref<T> ws_extern_shared<T, N>::operator[](ws_index ix) const
{
    return ptr()[ix];
}

/* reinterpret_cast<T *>(p) and (T *)p in device code: the same address, another element type */
template <class T, class U>
__device__ ws_ptr<T> ws_cast(const ws_ptr<U> &p)
{
    return ws_ptr<T>::make((T *)p.p, p.buf, p.base, p.bytes);
}
template <class T, class U, unsigned N>
__device__ ws_ptr<T> ws_cast(const ws_extern_shared<U, N> &a)
{
    return ws_cast<T>(a.ptr());
}
template <class T, class U, unsigned N>
__device__ ws_ptr<T> ws_cast(const shared_array<U, N> &a)
{
    return ws_cast<T>(ws_ptr<U>(a));
}

/* ---- atomics on a float, int or unsigned word of global memory, recorded with the old value ---- */
enum { WS_GPU_ATOMIC_ADD, WS_GPU_ATOMIC_SUB, WS_GPU_ATOMIC_MAX, WS_GPU_ATOMIC_MIN, WS_GPU_ATOMIC_EXCH, WS_GPU_ATOMIC_CAS, WS_GPU_ATOMIC_INC };
/* CUDA has no other float atomic, and the front end refuses the others on a float */
__device__ __forceinline__ float ws_atomic_do(float *q, int op, float v, float)
{
    return op == WS_GPU_ATOMIC_EXCH ? atomicExch(q, v) : atomicAdd(q, v);
}
template <class I>
__device__ __forceinline__ I ws_atomic_do(I *q, int op, I v, I c)
{
    switch (op) {
    case WS_GPU_ATOMIC_ADD: return atomicAdd(q, v);
    case WS_GPU_ATOMIC_SUB: return atomicSub(q, v);
    case WS_GPU_ATOMIC_MAX: return atomicMax(q, v);
    case WS_GPU_ATOMIC_MIN: return atomicMin(q, v);
    case WS_GPU_ATOMIC_EXCH: return atomicExch(q, v);
    case WS_GPU_ATOMIC_CAS: return atomicCAS(q, c, v);
    default: return (I)atomicInc((unsigned *)q, (unsigned)c);
    }
}
template <class T>
__device__ __forceinline__ T ws_gpu_atomic(const ws_ptr<T> &p, int op, T v, T c, unsigned line)
{
    static_assert(std::is_same<T, float>::value || std::is_same<T, int>::value || std::is_same<T, unsigned>::value,
                  "an atomic here works on a float, an int or an unsigned int");
    ws_gpu_fault_at(p.buf == WS_SPACE_SHARED, WS_FAULT_SHARED_ATOMIC, line, 0, 0);
    if (p.buf == WS_SPACE_SHARED) return T();
    ws_uref<T> r = p[ws_index(0, line)];
    if (!r.p) return T();
    T old = ws_atomic_do((T *)r.p, op, v, c);
    ws_record(TRACE_GLOBAL_ATOMIC, line, r.buf, r.index, 4, &old, ws_is_int<T>::value);
    return old;
}
/* __ldg and its cache-hinted kin: traced, a recorded load like any other (the hint changes neither
 * the address nor the value) */
#define WS_GPU_LOAD_HINT(name)                                                                          \
    template <class T>                                                                                  \
    __device__ __forceinline__ typename ws_plain<T>::type name(const ws_ptr<T> &p, unsigned line = __builtin_LINE()) \
    {                                                                                                   \
        return p[ws_index(0, line)];                                                                    \
    }
WS_GPU_LOAD_HINT(__ldg)
WS_GPU_LOAD_HINT(__ldcg)
WS_GPU_LOAD_HINT(__ldca)
WS_GPU_LOAD_HINT(__ldcs)
WS_GPU_LOAD_HINT(__ldlu)
WS_GPU_LOAD_HINT(__ldcv)
#undef WS_GPU_LOAD_HINT
#define WS_GPU_ATOMIC(name, op)                                                                             \
    template <class T, class V>                                                                             \
    __device__ __forceinline__ T name(const ws_ptr<T> &p, V v, unsigned line = __builtin_LINE())           \
    {                                                                                                       \
        static_assert(!std::is_same<T, float>::value || op == WS_GPU_ATOMIC_ADD || op == WS_GPU_ATOMIC_EXCH, \
                      "CUDA has " #name " for an int or an unsigned, not for a float");                     \
        return ws_gpu_atomic<T>(p, op, (T)v, T(), line);                                                    \
    }
WS_GPU_ATOMIC(atomicAdd, WS_GPU_ATOMIC_ADD)
WS_GPU_ATOMIC(atomicSub, WS_GPU_ATOMIC_SUB)
WS_GPU_ATOMIC(atomicMax, WS_GPU_ATOMIC_MAX)
WS_GPU_ATOMIC(atomicMin, WS_GPU_ATOMIC_MIN)
WS_GPU_ATOMIC(atomicExch, WS_GPU_ATOMIC_EXCH)
#undef WS_GPU_ATOMIC
template <class T, class C, class V>
__device__ __forceinline__ T atomicCAS(const ws_ptr<T> &p, C compare, V v, unsigned line = __builtin_LINE())
{
    static_assert(!std::is_same<T, float>::value, "CUDA has atomicCAS for an int or an unsigned, not for a float");
    return ws_gpu_atomic<T>(p, WS_GPU_ATOMIC_CAS, (T)v, (T)compare, line);
}
__device__ __forceinline__ unsigned atomicInc(const ws_ptr<unsigned> &p, unsigned limit, unsigned line = __builtin_LINE())
{
    return ws_gpu_atomic<unsigned>(p, WS_GPU_ATOMIC_INC, 0u, limit, line);
}

/* ---- shuffles of a 4-byte value, recorded with each lane's source lane (the emulator's rule) ---- */
enum { WS_GPU_SHFL_DOWN, WS_GPU_SHFL_UP, WS_GPU_SHFL_XOR, WS_GPU_SHFL_IDX };
template <class T>
__device__ __forceinline__ T ws_gpu_shfl(unsigned line, int mode, unsigned mask, T v, int arg, int width)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a shuffle moves a value of 4 or 8 bytes");
    if constexpr (sizeof(T) == 8) { /* two shuffles of its halves, as nvcc compiles it */
        unsigned h[2];
        memcpy(h, &v, 8);
        h[0] = ws_gpu_shfl(line, mode, mask, h[0], arg, width);
        h[1] = ws_gpu_shfl(line, mode, mask, h[1], arg, width);
        memcpy(&v, h, 8);
        return v;
    }
    T r = mode == WS_GPU_SHFL_DOWN ? __shfl_down_sync(mask, v, (unsigned)arg, width)
        : mode == WS_GPU_SHFL_UP   ? __shfl_up_sync(mask, v, (unsigned)arg, width)
        : mode == WS_GPU_SHFL_XOR  ? __shfl_xor_sync(mask, v, arg, width)
                                   : __shfl_sync(mask, v, arg, width);
    int lane = (int)(threadIdx.x & 31u), w = width >= 1 && width <= 32 ? width : 32, seg = lane / w * w, src;
    switch (mode) {
    case WS_GPU_SHFL_DOWN: src = lane + arg; if (src >= seg + w) src = lane; break;
    case WS_GPU_SHFL_UP: src = lane - arg; if (src < seg) src = lane; break;
    case WS_GPU_SHFL_XOR: src = lane ^ arg; if (src >= seg + w) src = lane; break;
    default: src = seg + (int)((unsigned)arg % (unsigned)w); break;
    }
    if (src < 0 || src > 31 || !(__activemask() >> src & 1u)) src = lane; /* the emulator's rule: the lanes that run it */
    ws_record(TRACE_SHUFFLE, line, -1, src, 4, &r, ws_is_int<T>::value);
    return r;
}
template <class T>
__device__ __forceinline__ T ws_gpu_shfl_down(unsigned line, unsigned mask, T v, unsigned delta, int width = 32)
{
    return ws_gpu_shfl(line, WS_GPU_SHFL_DOWN, mask, v, (int)delta, width);
}
template <class T>
__device__ __forceinline__ T ws_gpu_shfl_up(unsigned line, unsigned mask, T v, unsigned delta, int width = 32)
{
    return ws_gpu_shfl(line, WS_GPU_SHFL_UP, mask, v, (int)delta, width);
}
template <class T>
__device__ __forceinline__ T ws_gpu_shfl_xor(unsigned line, unsigned mask, T v, int lanemask, int width = 32)
{
    return ws_gpu_shfl(line, WS_GPU_SHFL_XOR, mask, v, lanemask, width);
}
template <class T>
__device__ __forceinline__ T ws_gpu_shfl_idx(unsigned line, unsigned mask, T v, int src, int width = 32)
{
    return ws_gpu_shfl(line, WS_GPU_SHFL_IDX, mask, v, src, width);
}
/* what cooperative groups are made of (include/cooperative_groups.h, read here in place of CUDA's
 * own header), recorded as the emulator records them: a vote or a redux is a warp sync at its line,
 * a shuffle of 8 bytes two of 4 */
__device__ __forceinline__ void ws_cg_barrier(unsigned line) { ws_syncthreads(line); }
__device__ __forceinline__ void ws_cg_warp_sync(unsigned mask, unsigned line) { ws_syncwarp{line}(mask); }
template <class T>
__device__ __forceinline__ T ws_cg_shfl(int mode, unsigned mask, T v, int arg, int width, unsigned line)
{
    return ws_gpu_shfl(line, mode, mask, v, arg, width);
}
__device__ __forceinline__ unsigned ws_cg_ballot(unsigned mask, int pred, unsigned line)
{
    ws_record(TRACE_WARP_SYNC, line, -1, 0, 0, nullptr, 0);
    return __ballot_sync(mask, pred);
}
__device__ __forceinline__ unsigned ws_cg_lanes(unsigned line)
{
    unsigned m = __activemask();
    ws_record(TRACE_WARP_SYNC, line, -1, 0, 0, nullptr, 0);
    return m;
}
template <class T>
__device__ __forceinline__ T ws_cg_redux(int how, unsigned mask, T v, unsigned line)
{
    typedef typename std::conditional<std::is_signed<T>::value, int, unsigned>::type I; /* redux: of an int or an unsigned */
    I x = (I)v;
    ws_record(TRACE_WARP_SYNC, line, -1, 0, 0, nullptr, 0);
    switch (how) {
    case 1: return (T)__reduce_add_sync(mask, x);
    case 2: return (T)__reduce_min_sync(mask, x);
    case 3: return (T)__reduce_max_sync(mask, x);
    case 4: return (T)__reduce_and_sync(mask, (unsigned)x);
    case 5: return (T)__reduce_or_sync(mask, (unsigned)x);
    default: return (T)__reduce_xor_sync(mask, (unsigned)x);
    }
}
/* what the emulator refuses at its line (a tile of more than 32 threads) stops the GPU's launch */
__device__ __forceinline__ void ws_cg_fail(unsigned line, const char *) { ws_gpu_fault_at(true, WS_FAULT_UNFOLLOWED, line, 0, 0); __trap(); }
__device__ __forceinline__ unsigned ws_gpu_ballot(unsigned line, unsigned mask, int pred) { return ws_cg_ballot(mask, pred, line); }
__device__ __forceinline__ int ws_gpu_any(unsigned line, unsigned mask, int pred) { return ws_cg_ballot(mask, pred, line) != 0; }
__device__ __forceinline__ int ws_gpu_all(unsigned line, unsigned mask, int pred) { return (ws_cg_ballot(mask, pred, line) & mask) == (mask & __activemask()); }
template <class T>
__device__ __forceinline__ T ws_gpu_reduce_add(unsigned line, unsigned mask, T v) { return ws_cg_redux<T>(1, mask, v, line); }
template <class T>
__device__ __forceinline__ T ws_gpu_reduce_min(unsigned line, unsigned mask, T v) { return ws_cg_redux<T>(2, mask, v, line); }
template <class T>
__device__ __forceinline__ T ws_gpu_reduce_max(unsigned line, unsigned mask, T v) { return ws_cg_redux<T>(3, mask, v, line); }
#define _COOPERATIVE_GROUPS_H_ /* CUDA's own, which the learner's #include <cooperative_groups.h> would bring */
#define _COOPERATIVE_GROUPS_REDUCE_H
#include "trace/capture/own/include/cooperative_groups.h"
#define __ballot_sync(...) ws_gpu_ballot(__LINE__, __VA_ARGS__)
#define __any_sync(...) ws_gpu_any(__LINE__, __VA_ARGS__)
#define __all_sync(...) ws_gpu_all(__LINE__, __VA_ARGS__)
#define __reduce_add_sync(...) ws_gpu_reduce_add(__LINE__, __VA_ARGS__)
#define __reduce_min_sync(...) ws_gpu_reduce_min(__LINE__, __VA_ARGS__)
#define __reduce_max_sync(...) ws_gpu_reduce_max(__LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ws_gpu_shfl_down(__LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ws_gpu_shfl_up(__LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ws_gpu_shfl_xor(__LINE__, __VA_ARGS__)
#define __shfl_sync(...) ws_gpu_shfl_idx(__LINE__, __VA_ARGS__)

/* the kernel's first statement: where and when its block ran, and its threads' end */
struct ws_exit_guard {
    __device__ __forceinline__ ws_exit_guard() { ws_note_run(0); }
    __device__ __forceinline__ ~ws_exit_guard()
    {
        ws_record(TRACE_EXIT, 0, -1, 0, 0, nullptr, 0);
        ws_note_run(1);
    }
};
#define WS_KERNEL_ENTRY ws_exit_guard ws_exit_guard_;

/* a loop's turn on the GPU: once WS_GPU_LOOP_SECONDS have passed since the launch's first turn, the
 * loop is taken for one that never ends: it is said at its line, and every loop's condition turns
 * false so the launch ends */
static __device__ __forceinline__ bool ws_gpu_tick(unsigned line)
{
    unsigned long long now, start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (!ws_ctx.tick0) return true;
    start = *(volatile unsigned long long *)ws_ctx.tick0;
    if (!start) {
        unsigned long long was = atomicCAS(ws_ctx.tick0, 0ull, now);
        start = was ? was : now;
    }
    if (now < start || now - start < WS_GPU_LOOP_SECONDS * 1000000000ull) return true;
    ws_gpu_fault_at(true, WS_FAULT_LOOP, line, 0, 0);
    return false;
}

#else
/* ======================= plain ======================= */

template <class T>
using ws_ptr = T *;
extern __shared__ __align__(16) unsigned char ws_dynamic_shared[];
template <class T, unsigned N = 0>
struct ws_extern_shared {
    __device__ __forceinline__ operator T *() const { return reinterpret_cast<T *>(ws_dynamic_shared); }
    template <class I>
    __device__ __forceinline__ T &operator[](I i) const
    {
        return reinterpret_cast<T *>(ws_dynamic_shared)[i];
    }
};
template <class T, class U>
__device__ __forceinline__ T *ws_cast(U *p)
{
    return reinterpret_cast<T *>(p);
}
template <class T, class U, unsigned N>
__device__ __forceinline__ T *ws_cast(const ws_extern_shared<U, N> &p)
{
    return reinterpret_cast<T *>((U *)p);
}
template <class T, class U, unsigned N>
__device__ __forceinline__ T *ws_cast(const shared_array<U, N> &a)
{
    return reinterpret_cast<T *>((U *)a);
}
/* the watched register (and a learner's other floats), which the front end reads as NAME.v: a float */
template <class T, int S = 0, int A = 0>
struct reg {
    T v;
    __device__ __forceinline__ reg() {}
    template <class R>
    __device__ __forceinline__ reg(const R &r) : v((T)r)
    {
    }
    __device__ __forceinline__ reg &operator+=(T x) { v += x; return *this; }
    __device__ __forceinline__ reg &operator-=(T x) { v -= x; return *this; }
    __device__ __forceinline__ reg &operator*=(T x) { v *= x; return *this; }
    __device__ __forceinline__ reg &operator/=(T x) { v /= x; return *this; }
    __device__ __forceinline__ operator T() const { return v; }
};
template <class T, int S, int A>
__device__ __forceinline__ T ws_step(reg<T, S, A> &r, int by, int post)
{
    T old = r.v;
    r.v += (T)by;
    return post ? old : r.v;
}
#define WS_KERNEL_ENTRY
#endif

/* a __device__ variable of file scope (the front end writes ws_device_var<T>, and NAME[0] for each
 * use in device code): CUDA's own, constant-initialised; cudaMemcpyToSymbol takes it as it is */
template <class T>
struct ws_device_var {
    T v;
    constexpr __host__ __device__ ws_device_var(T x = T()) : v(x) {}
    __device__ __forceinline__ T &operator[](int) { return v; }
};

/* every loop's condition: the host counts its turns, and a traced kernel's loops stop after
 * WS_GPU_LOOP_SECONDS (warpscope says where a loop never ended) */
__host__ __device__ __forceinline__ bool ws_tick(unsigned line = __builtin_LINE())
{
#if defined(__CUDA_ARCH__) && defined(WS_GPU_TRACE)
    return ws_gpu_tick(line);
#elif defined(__CUDA_ARCH__)
    (void)line;
    return true;
#else
    ws_gpu_user_tick(line);
    return true;
#endif
}

/* ---- launches: K<<<g, b, s, stream>>>(args) is ws_launch(K, ws_config(g, b, s, stream))(args) ---- */
struct ws_config {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    unsigned line;
    template <class S = cudaStream_t>
    ws_config(dim3 g, dim3 b, size_t s = 0, S st = S(), unsigned l = __builtin_LINE())
        : grid(g), block(b), shmem(s), stream((cudaStream_t)st), line(l)
    {
    }
};

template <class... P>
struct ws_kernel_call {
    void (*k)(P...);
    ws_config c;
    template <class... A>
    void operator()(A &&...a) const
    {
        static_assert(sizeof...(A) == sizeof...(P), "the launch passes a different number of arguments than the kernel takes");
        /* the arguments as the kernel takes them (a traced pointer finds its buffer here) */
        std::tuple<typename std::decay<P>::type...> args(std::forward<A>(a)...);
        ws_gpu_launch_info info = {{c.grid.x, c.grid.y, c.grid.z}, {c.block.x, c.block.y, c.block.z}, c.shmem, c.line, (void *)c.stream};
        cudaFuncAttributes fa;
        memset(&fa, 0, sizeof fa);
#if defined(WS_GPU_TRACE)
        (void)cudaGetLastError(); /* an error of the learner's earlier calls is not this launch's */
        cudaFuncGetAttributes(&fa, k);
        ws_gpu_ctx ctx;
        ws_gpu_user_launch_begin(&info, &ctx, sizeof ctx);
        /* the context and the zeroed words are there before a launch on any stream */
        if (cudaMemcpyToSymbol(ws_ctx, &ctx, sizeof ctx) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
            ws_gpu_user_fail(c.line, "the trace's buffers could not be handed to the GPU");
        (void)cudaGetLastError();
#else
        (void)cudaGetLastError();
        ws_gpu_user_launch_begin(&info, nullptr, 0); /* the start event: the last thing before the launch */
#endif
        std::apply([&](const typename std::decay<P>::type &...x) { k<<<c.grid, c.block, c.shmem, c.stream>>>(x...); }, args);
        cudaError_t e = cudaGetLastError();
        ws_gpu_user_launch_end(&info, (int)e, e != cudaSuccess ? cudaGetErrorString(e) : nullptr, fa.numRegs, fa.sharedSizeBytes);
    }
};

template <class... P>
ws_kernel_call<P...> ws_launch(void (*k)(P...), ws_config c)
{
    return ws_kernel_call<P...>{k, c};
}

/* ---- the host side of the runtime: CUDA's own, told to warpscope first ---- */
template <class T>
cudaError_t ws_gpu_malloc(unsigned line, T **p, size_t bytes)
{
    cudaError_t e = (cudaMalloc)((void **)p, bytes);
    if (e == cudaSuccess) ws_gpu_user_malloc((void *)*p, bytes, line);
    return e;
}
/* kept until the run ends, as the emulator keeps it: the trace names it */
inline cudaError_t ws_gpu_free(const void *) { return cudaSuccess; }
inline cudaError_t ws_gpu_memcpy(unsigned line, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    ws_gpu_user_check(dst, bytes, "cudaMemcpy into it", line);
    ws_gpu_user_check(src, bytes, "cudaMemcpy out of it", line);
    return (cudaMemcpy)(dst, src, bytes, kind);
}
inline cudaError_t ws_gpu_memset(unsigned line, void *dst, int v, size_t bytes)
{
    ws_gpu_user_check(dst, bytes, "cudaMemset", line);
    return (cudaMemset)(dst, v, bytes);
}
#define cudaMalloc(...) ws_gpu_malloc(__LINE__, __VA_ARGS__)
#define cudaFree(p) ws_gpu_free(p)
#define cudaMemcpy(...) ws_gpu_memcpy(__LINE__, __VA_ARGS__)
#define cudaMemset(...) ws_gpu_memset(__LINE__, __VA_ARGS__)

/* device printf (the front end's ws_device_printf): on the GPU, CUDA's own, to the terminal; the
 * emulator's build keeps its lines in the trace (ws_user.h) */
#define ws_device_printf printf

#endif
