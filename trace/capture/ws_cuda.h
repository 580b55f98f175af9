/* ws_cuda.h: what lets one kernel file be compiled three ways.
 *
 *  - plain, by nvcc (the benchmark): global_ptr<T> is T*, shared_array<T, N> is T[N], and the
 *    kernel is exactly what the textbook prints;
 *  - traced, by the host C++ compiler (WS_EMU, the CPU emulator): the same names are small types
 *    whose operator[] takes a ws_index, built with a default argument __builtin_LINE(), so every
 *    access knows its source line and posts itself to the emulator (trace/capture/emu.h) as it happens;
 *  - traced, by nvcc (WS_GPU_TRACE, capture on a GPU): the same types do the access on the GPU and
 *    then record it: the warp's leader (lowest lane of __activemask()) reserves a slot in a bounded
 *    device buffer with one atomic, broadcasts it with __shfl_sync, and each lane fills its own
 *    column; slots past the end are counted, never written. __syncthreads and the other
 *    intrinsics become macros that record their line, and each kernel becomes a __device__
 *    function called by one __global__ wrapper, which also records when threads exit.
 *
 * A learner's own file (WS_USER) takes the same three builds through the front end's rewrite: the
 * emulator's names are in own/ws_user.h, the GPU's (traced and plain) in own/ws_user_gpu.h.
 *
 * The kernel files are plain CUDA: the front end (trace/capture/own/frontend.h) rewrites them into
 * these names for the traced builds, line for line (the watched register, a kernel's first float,
 * becomes reg<float>, whose assignments are recorded). WS_LAUNCH names a version and how its kernel
 * is called with ws_args (ladder_launch.h). */
#ifndef WARPSCOPE_WS_CUDA_H
#define WARPSCOPE_WS_CUDA_H

/* The largest block; arrays sized by it hold one float per thread (THREAD_PER_BLOCK in the seeds). */
#define MAX_BLOCK 1024

#if defined(WS_EMU)
/* ======================= CPU emulator ======================= */
#include <stdint.h>
#include <string.h>

#include "trace/capture/emu.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__
/* a __shared__ object is one per block: a static handle whose storage the emulator gives each block */
#define __shared__ static

#if defined(WS_USER)
/* a learner's host code builds launch shapes: dim3 block(256), dim3 grid = n / 256 */
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
    dim3(const emu_dim3 &d) : x(d.x), y(d.y), z(d.z) {}
    operator emu_dim3() const { return emu_dim3{x, y, z}; }
};
#else
typedef emu_dim3 dim3;
#endif
#define threadIdx (*emu_thread_idx())
#define blockIdx (*emu_block_idx())
#define blockDim (*emu_block_dim())
#define gridDim (*emu_grid_dim())
static const int warpSize = 32;

struct float4 {
    float x, y, z, w;
};

struct ws_index {
    long long i;
    unsigned line;
    template <class I>
    ws_index(I v, unsigned l = __builtin_LINE()) : i((long long)v), line(l) {}
};

template <class T>
struct ws_is_int {
    static const int value = 1;
};
template <>
struct ws_is_int<float> {
    static const int value = 0;
};
template <>
struct ws_is_int<const float> {
    static const int value = 0;
};
template <>
struct ws_is_int<float4> {
    static const int value = 0;
};
template <>
struct ws_is_int<const float4> {
    static const int value = 0;
};
/* 8 bytes: a double (0), a long long (2, signed), an unsigned long long (1) (emu_op.is_int) */
template <>
struct ws_is_int<double> {
    static const int value = 0;
};
template <>
struct ws_is_int<const double> {
    static const int value = 0;
};
template <>
struct ws_is_int<long long> {
    static const int value = 2;
};
template <>
struct ws_is_int<long> {
    static const int value = 2;
};

template <class T>
struct ws_plain {
    typedef T type;
};
template <class T>
struct ws_plain<const T> {
    typedef T type;
};
template <class T>
struct ws_plain<volatile T> {
    typedef T type;
};

#if defined(WS_USER)
template <class T>
struct ws_ptr; /* a learner's pointer (ws_user.h) */
#endif

/* A reference to one element of shared or global memory: reading it is a load, assigning a store. */
template <class T>
struct ws_ref {
    typedef typename ws_plain<T>::type V;
    int buf; /* -1: shared */
    int64_t index, lo, hi;
    unsigned line;
    int cached; /* through a shared_plain: the compiler may keep it in a register */

    void post(int kind, V *v) const
    {
        emu_op op;
        memset(&op, 0, sizeof op);
        op.kind = kind;
        op.line = line;
        op.buf = buf;
        op.index = index;
        op.lo = lo;
        op.hi = hi;
        op.elem_size = sizeof(V);
        op.is_int = ws_is_int<V>::value;
        op.cached = cached;
        memcpy(op.data, v, sizeof(V));
        emu_do(&op);
        memcpy(v, op.data, sizeof(V));
    }
    operator V() const
    {
        V v;
        memset(&v, 0, sizeof v);
        post(buf < 0 ? TRACE_SHARED_LOAD : TRACE_GLOBAL_LOAD, &v);
        return v;
    }
    const ws_ref &operator=(V v) const
    {
        post(buf < 0 ? TRACE_SHARED_STORE : TRACE_GLOBAL_STORE, &v);
        return *this;
    }
    const ws_ref &operator=(const ws_ref &r) const { return *this = (V)r; }
    const ws_ref &operator+=(V v) const { return *this = (V)(*this) + v; }
#if defined(WS_USER)
    ws_ptr<T> operator&() const; /* &p[i]: a pointer to the element, as atomicAdd(&out[0], x) takes */
#endif
};

/* Shared-memory handles index in 4-byte words, the unit of the 32 banks. */
template <class T>
struct ws_words {
    static const int64_t value = (sizeof(T) + 3) / 4;
};

template <class T>
struct shared_ptr_base {
    int64_t lo, hi; /* the array's words */
    ws_ref<T> operator[](ws_index ix) const
    {
        return ws_ref<T>{-1, lo + ix.i * ws_words<T>::value, lo, hi, ix.line, 0};
    }
};

template <class T, unsigned N>
struct shared_array {
    ws_ref<T> operator[](ws_index ix) const { return ptr()[ix]; }
    shared_ptr_base<T> ptr() const
    {
        int64_t lo = emu_shared_region(this, (unsigned)(ws_words<T>::value * 4 * N));
        return shared_ptr_base<T>{lo, lo + (int64_t)ws_words<T>::value * N};
    }
};

/* volatile T* to shared memory, as the textbook's warpReduce takes it */
template <class T>
struct shared_volatile : shared_ptr_base<T> {
    template <unsigned N>
    shared_volatile(const shared_array<T, N> &a) : shared_ptr_base<T>(a.ptr()) {}
};

/* a plain T* to shared memory, as a warpReduce without `volatile` takes it: nothing in one
 * thread's code says other threads write the words, so the compiler may keep them in registers
 * until the next barrier or other access (nvcc does, docs/hazards.md); the emulator models that
 * register copy (emu_op.cached) */
template <class T>
struct shared_plain : shared_ptr_base<T> {
    template <unsigned N>
    shared_plain(const shared_array<T, N> &a) : shared_ptr_base<T>(a.ptr()) {}
    ws_ref<T> operator[](ws_index ix) const
    {
        return ws_ref<T>{-1, this->lo + ix.i * ws_words<T>::value, this->lo, this->hi, ix.line, 1};
    }
};

template <class T>
struct global_ptr {
    int buf;
    int64_t off; /* in elements of T */
    ws_ref<T> operator[](ws_index ix) const { return ws_ref<T>{buf, off + ix.i, 0, 0, ix.line, 0}; }
    template <class U>
    global_ptr(const global_ptr<U> &o) : buf(o.buf), off(o.off) {}
    global_ptr(int b, int64_t o) : buf(b), off(o) {}
};

/* float4 view of a float buffer (offset must be a multiple of 4, as the hardware's alignment) */
inline global_ptr<const float4> as_float4(global_ptr<const float> p) { return global_ptr<const float4>(p.buf, p.off / 4); }

inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }

static inline void ws_plain_op(int kind, unsigned line, unsigned mask)
{
    emu_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.line = line;
    op.buf = -1;
    op.mask = mask;
    emu_do(&op);
}

inline void __syncthreads(unsigned line = __builtin_LINE()) { ws_plain_op(TRACE_BARRIER, line, 0); }
inline void __syncwarp(unsigned mask = 0xffffffffu, unsigned line = __builtin_LINE()) { ws_plain_op(TRACE_WARP_SYNC, line, mask); }
inline void __threadfence(unsigned line = __builtin_LINE()) { ws_plain_op(TRACE_FENCE, line, 0); }
/* Programmatic dependent launch (v8): the emulator runs launches one after another, so no launch
 * ever overlaps the one before it and there is nothing to signal or wait for; both record nothing. */
inline void cudaTriggerProgrammaticLaunchCompletion() {}
inline void cudaGridDependencySynchronize() {}

/* a shuffle of a 4-byte value (float, int or unsigned), recorded as what it is */
template <class T>
inline T ws_shfl(unsigned mask, T v, int mode, int arg, int width, unsigned line)
{
    static_assert(sizeof(T) == 4, "a shuffle here moves a 4-byte value: float, int or unsigned");
    emu_op op;
    memset(&op, 0, sizeof op);
    op.kind = TRACE_SHUFFLE;
    op.line = line;
    op.buf = -1;
    op.elem_size = 4;
    op.is_int = ws_is_int<T>::value;
    op.mask = mask;
    op.shfl_mode = mode;
    op.shfl_arg = arg;
    op.width = width;
    memcpy(op.data, &v, 4);
    emu_do(&op);
    memcpy(&v, op.data, 4);
    return v;
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32, unsigned line = __builtin_LINE())
{
    return ws_shfl(mask, v, EMU_SHFL_DOWN, (int)delta, width, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32, unsigned line = __builtin_LINE())
{
    return ws_shfl(mask, v, EMU_SHFL_UP, (int)delta, width, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lanemask, int width = 32, unsigned line = __builtin_LINE())
{
    return ws_shfl(mask, v, EMU_SHFL_XOR, lanemask, width, line);
}
template <class T>
inline T __shfl_sync(unsigned mask, T v, int srcLane, int width = 32, unsigned line = __builtin_LINE())
{
    return ws_shfl(mask, v, EMU_SHFL_IDX, srcLane, width, line);
}

/* reg<float>: a register the tool watches. Every assignment to it (`reg<float> sum = 0.0f;`,
 * `sum = ...`, `sum += ...`) posts the value it now holds, with the line, so the viewer can draw
 * each lane's register; reads are plain. The constructor takes the line as a default argument,
 * and `sum = x` goes through it (the implicit copy assignment of a reg made from x at that line). */
struct ws_value {
    float v;
    unsigned line;
    template <class R>
    ws_value(const R &r, unsigned l = __builtin_LINE()) : v((float)r), line(l) {}
};
static inline void ws_watch(float v, unsigned line, unsigned id = 0)
{
    emu_op op;
    memset(&op, 0, sizeof op);
    op.kind = TRACE_REGISTER;
    op.line = line;
    op.buf = -1;
    op.index = id;
    op.elem_size = 4;
    memcpy(op.data, &v, 4);
    emu_do(&op);
}
/* Which register an assignment is to (trace_register_id): 0 the watched one; S * WS_REG_ELEMS for
 * a learner's other float S (1 to 63, the front end numbers them), plus the element for one of a
 * float array's (A): its place in the thread's stack, modulo WS_REG_ELEMS, tells the elements of
 * one array apart and stays the same for as long as the array lives. */
enum { WS_REG_ELEMS = 64 };
template <int S, int A>
inline unsigned ws_reg_id(const void *self)
{
    static_assert(S >= 0 && S < WS_REG_ELEMS, "a register's number is 0 to 63");
    return S == 0 ? 0u : (unsigned)S * WS_REG_ELEMS + (A ? (unsigned)(((uintptr_t)self / 4u) % WS_REG_ELEMS) : 0u);
}
/* Assigning one reg to another would assign without a line to record, so it does not compile
 * (write b = (float)a); `sum = x` builds a reg from x at its line and moves it in. A copy (a
 * lambda's [=] capture of the kernel's watched register) is a read: it records nothing. */
template <class T, int S = 0, int A = 0>
struct reg {
    static_assert(!ws_is_int<T>::value && sizeof(T) == 4, "reg<T> watches a float");
    T v;
    template <class R>
    reg(const R &r, unsigned line = __builtin_LINE()) : v((T)r) { ws_watch(v, line, ws_reg_id<S, A>(this)); }
    reg() : v() {} /* declared without a value: nothing to record until it is assigned */
    reg(const reg &) = default;
    reg &operator=(const reg &) = delete;
    reg(reg &&) = default;
    reg &operator=(reg &&) = default;
    reg &operator+=(ws_value x) { v += x.v; ws_watch(v, x.line, ws_reg_id<S, A>(this)); return *this; }
    reg &operator-=(ws_value x) { v -= x.v; ws_watch(v, x.line, ws_reg_id<S, A>(this)); return *this; }
    reg &operator*=(ws_value x) { v *= x.v; ws_watch(v, x.line, ws_reg_id<S, A>(this)); return *this; }
    reg &operator/=(ws_value x) { v /= x.v; ws_watch(v, x.line, ws_reg_id<S, A>(this)); return *this; }
    operator T() const { return v; }
};
/* NAME++, ++NAME, NAME--, --NAME on it (the front end writes ws_step): recorded as NAME += by is */
template <class T, int S, int A>
T ws_step(reg<T, S, A> &r, int by, int post, unsigned line = __builtin_LINE())
{
    T old = r.v;
    r += ws_value(by, line);
    return post ? old : r.v;
}

inline unsigned atomicInc(global_ptr<unsigned> p, unsigned limit, unsigned line = __builtin_LINE())
{
    emu_op op;
    memset(&op, 0, sizeof op);
    op.kind = TRACE_GLOBAL_ATOMIC;
    op.line = line;
    op.buf = p.buf;
    op.index = p.off;
    op.elem_size = 4;
    op.is_int = 1;
    op.operand = limit;
    emu_do(&op);
    return op.data[0];
}

/* What the emulator hands each thread; WS_LAUNCH turns it into the kernel's own arguments. */
struct ws_args {
    global_ptr<const float> in;
    global_ptr<float> out;
    global_ptr<unsigned> counter;
    unsigned n, stride;
};

#define WS_ARGS_FROM(p)                                                                              \
    const emu_kernel_args *ea_ = (const emu_kernel_args *)(p);                                               \
    const ws_args a = {global_ptr<const float>(ea_->in_buf, 0), global_ptr<float>(ea_->out_buf, 0), \
                       global_ptr<unsigned>(ea_->counter_buf, 0), ea_->n, ea_->stride};

/* ws_emu_<id>(args): one thread's run of the kernel, called by the emulator in each fiber */
#define WS_LAUNCH_BODY(id, body)                \
    extern "C" void ws_emu_##id(const void *p); \
    extern "C" void ws_emu_##id(const void *p)  \
    {                                           \
        WS_ARGS_FROM(p)                         \
        body;                                   \
    }
#define WS_BLOCK_VAR blockDim.x

#if defined(WS_USER)
#include "trace/capture/own/ws_user.h"
#endif

#elif defined(WS_GPU_TRACE)
/* ======================= nvcc, traced on the GPU ======================= */
#include <cuda_runtime.h>
#include <stdint.h>

#include "trace/trace.h"

/* one warp-level event as the device writes it; the host turns it into a trace_event */
struct ws_gpu_event {
    unsigned kind, line, block, warp, phase, mask, sm, elem;
    int buf, written;
    long long clock;
    long long addr[32];
    float val[32][4];
};

struct ws_gpu_ctx {
    ws_gpu_event *events;
    unsigned long long *count;   /* slots asked for, including those past capacity */
    unsigned long long capacity;
    unsigned *phase;             /* barriers passed, per thread of the traced blocks */
    unsigned blocks_traced;
    unsigned long long *runs;    /* per block of the first runs_blocks: %globaltimer as thread 0 enters and
                                    leaves the kernel, and its SM + 1 (0: not run) */
    unsigned runs_blocks;
    /* a learner's file (ws_user_gpu.h): its first access out of bounds, as ws_gpu_fault, and
     * %globaltimer when its first loop turned (its loops stop WS_GPU_LOOP_SECONDS later) */
    unsigned long long *fault;
    unsigned long long *tick0;
};

/* per translation unit: each kernel file is its own module, so each has its own context */
static __device__ ws_gpu_ctx ws_ctx;
/* the attributes of the traced kernel launched last (defined in capture_gpu.cu) */
extern cudaFuncAttributes ws_traced_attributes;

__device__ __forceinline__ bool ws_traced() { return blockIdx.x < ws_ctx.blocks_traced; }

/* inlined at every call site on purpose: one shared function would be one PC where lanes from
 * different call sites (say, a branch's load and its skipped lanes' exit) meet, and independent
 * thread scheduling may then run them as one group, so __activemask() would mix them */
/* where and when every block runs (traced or not): thread 0 alone writes its block's slot, as it
 * enters the kernel (end 0) and as it leaves */
static __device__ __forceinline__ void ws_note_run(int end)
{
    if (threadIdx.x != 0 || blockIdx.x >= ws_ctx.runs_blocks) return;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    unsigned long long *r = ws_ctx.runs + 3ull * blockIdx.x;
    if (!end) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        r[0] = now;
        r[2] = sm + 1ull;
    }
    r[1] = now;
}

static __device__ __forceinline__ void ws_record(unsigned kind, unsigned line, int buf, long long addr, unsigned elem,
                                       const void *val, int is_int)
{
    if (!ws_traced()) return;
    unsigned mask = __activemask();
    unsigned lane = threadIdx.x & 31u, leader = (unsigned)__ffs(mask) - 1u;
    unsigned long long slot = 0;
    if (lane == leader) slot = atomicAdd(ws_ctx.count, 1ull);
    slot = __shfl_sync(mask, slot, (int)leader);
    if (slot >= ws_ctx.capacity) return; /* full: counted, never written */
    ws_gpu_event *e = &ws_ctx.events[slot];
    if (lane == leader) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        e->kind = kind;
        e->line = line;
        e->block = blockIdx.x;
        e->warp = threadIdx.x / 32u;
        e->phase = ws_ctx.phase[blockIdx.x * blockDim.x + threadIdx.x];
        e->mask = mask;
        e->sm = sm;
        e->elem = elem;
        e->buf = buf;
        e->clock = clock64();
    }
    e->addr[lane] = addr;
    if (val) {
        if (is_int) {
            unsigned u = 0;
            const unsigned char *b = (const unsigned char *)val;
            for (unsigned i = 0; i < (elem < 4 ? elem : 4); i++) u |= (unsigned)b[i] << (8 * i);
            e->val[lane][0] = is_int == 2 ? (float)(int)u : (float)u; /* 2: a signed int */
        } else {
            for (unsigned c = 0; c < (elem > 4 ? elem / 4 : 1); c++) e->val[lane][c] = ((const float *)val)[c];
        }
    }
}

struct ws_index {
    long long i;
    unsigned line;
    template <class I>
    __host__ __device__ ws_index(I v, unsigned l = __builtin_LINE()) : i((long long)v), line(l) {}
};

template <class T> struct ws_plain { typedef T type; };
template <class T> struct ws_plain<const T> { typedef T type; };
template <class T> struct ws_is_int { static const int value = 1; };
template <> struct ws_is_int<float> { static const int value = 0; };
template <> struct ws_is_int<float4> { static const int value = 0; };

__device__ inline void ws_syncthreads(unsigned line)
{
    ws_record(TRACE_BARRIER, line, -1, 0, 0, nullptr, 0);
    __syncthreads();
    if (ws_traced()) ws_ctx.phase[blockIdx.x * blockDim.x + threadIdx.x]++;
}
/* a functor, so that __syncwarp() and __syncwarp(mask) both expand without an empty argument */
struct ws_syncwarp {
    unsigned line;
    __device__ void operator()(unsigned mask = 0xffffffffu) const
    {
        ws_record(TRACE_WARP_SYNC, line, -1, 0, 0, nullptr, 0);
        __syncwarp(mask);
    }
};
__device__ inline void ws_threadfence(unsigned line)
{
    ws_record(TRACE_FENCE, line, -1, 0, 0, nullptr, 0);
    __threadfence();
}

/* reg<float>, as the emulator's: each assignment records the value with its line; inlined, so
 * that each assignment is its own PC (see ws_record). A learner's other floats (S, not 0) are
 * recorded by the emulator alone: here they are plain floats, and verify leaves them out. */
struct ws_value {
    float v;
    unsigned line;
    template <class R>
    __device__ __forceinline__ ws_value(const R &r, unsigned l = __builtin_LINE()) : v((float)r), line(l) {}
};
template <class T, int S = 0, int A = 0>
struct reg {
    static_assert(!ws_is_int<T>::value && sizeof(T) == 4, "reg<T> watches a float");
    T v;
    template <class R>
    __device__ __forceinline__ reg(const R &r, unsigned line = __builtin_LINE()) : v((T)r)
    {
        if (!S) ws_record(TRACE_REGISTER, line, -1, threadIdx.x & 31u, 4, &v, 0);
    }
    reg(const reg &) = default;
    reg &operator=(const reg &) = delete;
    reg(reg &&) = default;
    reg &operator=(reg &&) = default;
    __device__ __forceinline__ reg() : v() {}
    __device__ __forceinline__ reg &operator+=(ws_value x) { return note(v + x.v, x.line); }
    __device__ __forceinline__ reg &operator-=(ws_value x) { return note(v - x.v, x.line); }
    __device__ __forceinline__ reg &operator*=(ws_value x) { return note(v * x.v, x.line); }
    __device__ __forceinline__ reg &operator/=(ws_value x) { return note(v / x.v, x.line); }
    __device__ __forceinline__ reg &note(T now, unsigned line)
    {
        v = now;
        if (!S) ws_record(TRACE_REGISTER, line, -1, threadIdx.x & 31u, 4, &v, 0);
        return *this;
    }
    __device__ __forceinline__ operator T() const { return v; }
};
template <class T, int S, int A>
__device__ __forceinline__ T ws_step(reg<T, S, A> &r, int by, int post, unsigned line = __builtin_LINE())
{
    T old = r.v;
    r += ws_value(by, line);
    return post ? old : r.v;
}

#define __syncthreads() ws_syncthreads(__LINE__)
#define __syncwarp(...) ws_syncwarp{__LINE__}(__VA_ARGS__)
#define __threadfence() ws_threadfence(__LINE__)

#if defined(WS_USER)
/* a learner's own file: its pointers, shared arrays, launches and host runtime (own_gpu.cu) */
#include "trace/capture/own/ws_user_gpu.h"
#else
/* ---- the ladder's handles (the front end's --ladder rewrite) ---- */

/* every access goes through volatile, so it happens where the source says, as in the textbook */
template <class T>
struct ws_ref {
    typedef typename ws_plain<T>::type V;
    T *p;
    int buf; /* -1: shared */
    long long index;
    unsigned line;
    __device__ long long where() const
    {
        return buf < 0 ? (long long)(__cvta_generic_to_shared((const void *)p) / 4) : index;
    }
    __device__ operator V() const
    {
        V v = *(const volatile V *)p;
        ws_record(buf < 0 ? TRACE_SHARED_LOAD : TRACE_GLOBAL_LOAD, line, buf, where(), sizeof(V), &v, ws_is_int<V>::value);
        return v;
    }
    __device__ const ws_ref &operator=(V v) const
    {
        *(volatile V *)p = v;
        ws_record(buf < 0 ? TRACE_SHARED_STORE : TRACE_GLOBAL_STORE, line, buf, where(), sizeof(V), &v, ws_is_int<V>::value);
        return *this;
    }
    __device__ const ws_ref &operator=(const ws_ref &r) const { return *this = (V)r; }
    __device__ const ws_ref &operator+=(V v) const { return *this = (V)(*this) + v; }
};

template <>
__device__ inline ws_ref<const float4>::operator float4() const
{
    float4 v = *(const float4 *)p; /* one 16-byte load, as the plain build does */
    ws_record(TRACE_GLOBAL_LOAD, line, buf, index, 16, &v, 0);
    return v;
}

template <class T, unsigned N>
struct shared_array {
    T data[N];
    __device__ ws_ref<T> operator[](ws_index ix) { return ws_ref<T>{&data[ix.i], -1, ix.i, ix.line}; }
};

template <class T>
struct shared_volatile {
    T *p;
    template <unsigned N>
    __device__ shared_volatile(shared_array<T, N> &a) : p(a.data) {}
    __device__ ws_ref<T> operator[](ws_index ix) const { return ws_ref<T>{p + ix.i, -1, ix.i, ix.line}; }
};
/* traced, every access is made (and recorded) where the source says: the register copy a plain
 * pointer allows shows only in the plain build */
template <class T>
struct shared_plain : shared_volatile<T> {
    template <unsigned N>
    __device__ shared_plain(shared_array<T, N> &a) : shared_volatile<T>(a) {}
};

template <class T>
struct global_ptr {
    T *p;
    int buf;
    __host__ __device__ global_ptr(T *q, int b) : p(q), buf(b) {}
    template <class U>
    __host__ __device__ global_ptr(const global_ptr<U> &o) : p(o.p), buf(o.buf) {}
    __device__ ws_ref<T> operator[](ws_index ix) const { return ws_ref<T>{p + ix.i, buf, ix.i, ix.line}; }
};

__device__ inline global_ptr<const float4> as_float4(global_ptr<const float> q)
{
    return global_ptr<const float4>((const float4 *)q.p, q.buf);
}

__device__ inline float ws_shfl_down(unsigned line, unsigned mask, float v, unsigned delta, int width = 32)
{
    float r = __shfl_down_sync(mask, v, delta, width);
    unsigned lane = threadIdx.x & 31u, seg = lane / (unsigned)width * (unsigned)width;
    unsigned src = lane + delta < seg + (unsigned)width ? lane + delta : lane; /* CUDA's rule */
    ws_record(TRACE_SHUFFLE, line, -1, src, 4, &r, 0);
    return r;
}
__device__ inline unsigned ws_atomic_inc(unsigned line, global_ptr<unsigned> q, unsigned limit)
{
    unsigned old = atomicInc(q.p, limit);
    ws_record(TRACE_GLOBAL_ATOMIC, line, q.buf, 0, 4, &old, 1);
    return old;
}

#define __shfl_down_sync(...) ws_shfl_down(__LINE__, __VA_ARGS__)
#define atomicInc(q, limit) ws_atomic_inc(__LINE__, q, limit)

struct ws_args {
    global_ptr<const float> in;
    global_ptr<float> out;
    global_ptr<unsigned> counter;
    unsigned n, stride;
};

/* the kernel becomes a __device__ function of the wrapper, which records exits */
template <class F>
__attribute__((global)) void ws_run_kernel(F f)
{
    ws_note_run(0);
    f();
    ws_record(TRACE_EXIT, 0, -1, 0, 0, nullptr, 0);
    ws_note_run(1);
}
/* static: the extended lambda makes nvcc emit host stubs of the kernel files' functions, which
 * must not clash with the emulator's build of the same files */
#undef __global__
#undef __device__
#define __device__ static __attribute__((device))
#define __global__ __device__

/* ws_trace_launch_<id>(grid, block, args, ctx, stream): one traced launch */
#define WS_LAUNCH_BODY(id, body)                                                                              \
    void ws_trace_launch_##id(unsigned ws_grid_, unsigned ws_block_, const ws_args &a, const ws_gpu_ctx &ctx, \
                              cudaStream_t ws_stream_)                                                        \
    {                                                                                                         \
        cudaMemcpyToSymbolAsync(ws_ctx, &ctx, sizeof ctx, 0, cudaMemcpyHostToDevice, ws_stream_);             \
        body;                                                                                                 \
    }
#define WS_BLOCK_VAR ws_block_
#endif
#else
/* ======================= nvcc, plain ======================= */
#include <cuda_runtime.h>

template <class T>
using global_ptr = T *;
template <class T, unsigned N>
using shared_array = T[N];
template <class T>
using shared_volatile = volatile T *;
template <class T>
using shared_plain = T *;
#if !defined(WS_USER)
/* a register the traced builds watch; here a plain one */
template <class T>
using reg = T;
#endif

__device__ __forceinline__ const float4 *as_float4(const float *p) { return reinterpret_cast<const float4 *>(p); }

struct ws_args {
    const float *in;
    float *out;
    unsigned *counter;
    unsigned n, stride;
    /* the device can start a launch while the previous one in its stream finishes (programmatic
     * dependent launch: compute capability 9.0 and up); only WS_LAUNCH_BLOCK_PDL's launches use it */
    bool overlap = false;
};

/* A launch through cudaLaunchKernelEx that, given `overlap`, carries the attribute
 * cudaLaunchAttributeProgrammaticStreamSerialization: the next launch in the stream may then begin
 * once every block of this one has called cudaTriggerProgrammaticLaunchCompletion() (or exited),
 * and it waits for this one to complete, its memory visible, in cudaGridDependencySynchronize().
 * Only for a kernel written for that (v8, and the benchmark's overlapping read kernels); without
 * `overlap` it is a plain launch. */
template <class... P>
struct ws_overlapping_launch {
    void (*kernel)(P...);
    unsigned grid, block;
    cudaStream_t stream;
    bool overlap;
    template <class... A>
    void operator()(A &&...args) const
    {
        cudaLaunchAttribute attr = {};
        attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr.val.programmaticStreamSerializationAllowed = 1;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(grid);
        cfg.blockDim = dim3(block);
        cfg.stream = stream;
        cfg.attrs = &attr;
        cfg.numAttrs = overlap ? 1 : 0;
        (void)cudaLaunchKernelEx(&cfg, kernel, static_cast<A &&>(args)...); /* an error reaches cudaGetLastError, as a <<<>>> launch's does */
    }
};
template <class... P>
ws_overlapping_launch<P...> ws_overlapping(void (*kernel)(P...), unsigned grid, unsigned block, cudaStream_t stream, bool overlap)
{
    return ws_overlapping_launch<P...>{kernel, grid, block, stream, overlap};
}

/* ws_launch_<id>(grid, block, args, stream): one launch of the kernel, for the benchmark */
#define WS_LAUNCH_BODY(id, body)                                                                          \
    void ws_launch_##id(unsigned ws_grid_, unsigned ws_block_, const ws_args &a, cudaStream_t ws_stream_) \
    {                                                                                                     \
        body;                                                                                             \
    }
#define WS_BLOCK_VAR ws_block_
#if defined(WS_USER)
/* a learner's own file, timed by the benchmark (own_gpu.cu) */
#include "trace/capture/own/ws_user_gpu.h"
#endif
#endif

/* WS_LAUNCH(id, K, (args...)): how version `id` calls kernel K, given `a` (ws_args).
 * WS_LAUNCH_BLOCK: the same for a kernel templated on its block size.
 * WS_LAUNCH_BLOCK_PDL: the same, and in the benchmark's build the launch lets the next one in the
 * stream start early where a.overlap says the device can (the kernel must call
 * cudaGridDependencySynchronize() before it touches what the previous launch may still use). */
#define WS_LAUNCH(id, K, args) WS_LAUNCH_BODY(id, WS_CALL(K, args))
#define WS_LAUNCH_BLOCK(id, K, args) WS_LAUNCH_BODY(id, WS_BLOCK_SWITCH(WS_CALL, WS_BLOCK_VAR, K, args))
#define WS_LAUNCH_BLOCK_PDL(id, K, args) WS_LAUNCH_BODY(id, WS_BLOCK_SWITCH(WS_CALL_PDL, WS_BLOCK_VAR, K, args))

/* Instantiates a block-size template for every block size from 32 to 1024, each called by `call`. */
#define WS_BLOCK_CASE(call, bs, K, args) \
    case bs: call(K<bs>, args); break;
#define WS_BLOCK_SWITCH(call, b, K, args)      \
    do {                                       \
        switch (b) {                           \
            WS_BLOCK_CASE(call, 1024, K, args) \
            WS_BLOCK_CASE(call, 512, K, args)  \
            WS_BLOCK_CASE(call, 256, K, args)  \
            WS_BLOCK_CASE(call, 128, K, args)  \
            WS_BLOCK_CASE(call, 64, K, args)   \
            WS_BLOCK_CASE(call, 32, K, args)   \
        default: break;                        \
        }                                      \
    } while (0)

/* The traced builds launch plainly (WS_CALL_PDL is WS_CALL): with no overlapping launch,
 * cudaGridDependencySynchronize() has nothing to wait for and returns at once. */
#if defined(WS_EMU)
#define WS_CALL(K, args) K args
#define WS_CALL_PDL WS_CALL
#elif defined(WS_GPU_TRACE)
/* the kernel that runs is ws_run_kernel<its lambda>: its attributes (registers, static shared
 * memory) go to ws_traced_attributes, which capture_gpu.cu defines and records with the pass */
#define WS_CALL(K, args)                                                                         \
    do {                                                                                         \
        auto ws_f_ = [=] __attribute__((device))() { K args; };                                  \
        cudaFuncGetAttributes(&ws_traced_attributes, ws_run_kernel<decltype(ws_f_)>);            \
        ws_run_kernel<<<ws_grid_, ws_block_, 0, ws_stream_>>>(ws_f_);                            \
    } while (0)
#define WS_CALL_PDL WS_CALL
#else
#define WS_CALL(K, args) K<<<ws_grid_, ws_block_, 0, ws_stream_>>> args
#define WS_CALL_PDL(K, args) ws_overlapping(K, ws_grid_, ws_block_, ws_stream_, a.overlap) args
#endif

/* The two device calls of programmatic dependent launch are Hopper instructions (griddepcontrol);
 * compiled for an older GPU, where no launch overlaps, they do nothing. */
#if !defined(WS_EMU) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define cudaTriggerProgrammaticLaunchCompletion() ((void)0)
#define cudaGridDependencySynchronize() ((void)0)
#endif

#endif
