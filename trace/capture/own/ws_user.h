/* ws_user.h: what a learner's CUDA file compiles against once the front end has rewritten it
 * (frontend.h), on top of ws_cuda.h's emulator types (included from there when WS_USER is set).
 *
 * ws_ptr<T> is every pointer of device code: into a global buffer (a byte offset in a buffer the
 * host got from cudaMalloc) or into shared memory (a word in the block's shared memory, with the
 * array's bounds). Through a plain (not volatile) pointer, shared accesses are ones the compiler may
 * keep in a register, as shared_plain models them. The host side of the CUDA runtime (cudaMalloc,
 * cudaMemcpy, launches) calls back into warpscope (trace/capture/own/own.c), which records each
 * launch as a pass of the trace. Host and device loops count their turns (ws_tick). */
#ifndef WARPSCOPE_WS_USER_H
#define WARPSCOPE_WS_USER_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tuple>
#include <type_traits>
#include <utility>

#include "trace/capture/own/ws_entry.h"
#include "trace/capture/own/ws_user_api.h"

typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

template <class T>
struct ws_plain<const volatile T> {
    typedef T type;
};
template <>
struct ws_is_int<int> { /* signed: recorded as such (emu_op.is_int) */
    static const int value = 2;
};

/* The object's first code when it is loaded: the build links it as the object's DT_INIT, which
 * runs before every constructor of the file's; the run is then locked (no new executable memory:
 * only the code compiled from the file runs). warpscope-run refuses an object without it. */
extern "C" void ws_user_at_load(void) { ws_user_lock(); }

/* the front end opens every kernel's body with it: the emulator sees its threads end itself */
#define WS_KERNEL_ENTRY

/* every loop's condition: counts a turn, stops a loop that never ends */
static inline bool ws_tick(unsigned line = __builtin_LINE())
{
    ws_user_tick(line);
    return true;
}

/* CUDA's min and max of two ints, unsigneds or floats */
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline float max(float a, float b) { return fmaxf(a, b); }
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline float min(float a, float b) { return fminf(a, b); }
/* mixed: an int and an unsigned compare as unsigneds, a float and a double as doubles (CUDA's overloads) */
inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double max(double a, float b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double min(double a, float b) { return fmin(a, b); }

template <class T, unsigned N = 0>
struct ws_extern_shared;

template <class T>
struct ws_ptr {
    typedef typename ws_plain<T>::type V;
    enum { NONE, GLOBAL, SHARED };
    int space;
    int buf;         /* global */
    int64_t at;      /* global: byte offset in buf; shared: the 4-byte word */
    int64_t lo, hi;  /* shared: the array's words */

    ws_ptr() : space(NONE), buf(0), at(0), lo(0), hi(0) {}
    ws_ptr(decltype(nullptr)) : ws_ptr() {}
    /* a kernel argument: a pointer the host got from cudaMalloc */
    ws_ptr(T *raw) : ws_ptr()
    {
        if (!raw) return;
        if (!ws_user_buffer((const void *)raw, &buf, &at))
            ws_user_fail(0, "a kernel argument points to host memory: pass a pointer from cudaMalloc");
        space = GLOBAL;
    }
    template <class U, class = typename std::enable_if<std::is_same<typename ws_plain<U>::type, V>::value>::type>
    ws_ptr(const ws_ptr<U> &o) : space(o.space), buf(o.buf), at(o.at), lo(o.lo), hi(o.hi) {}
    template <class U, unsigned N>
    ws_ptr(const shared_array<U, N> &a) : space(SHARED), buf(0)
    {
        shared_ptr_base<U> p = a.ptr();
        at = lo = p.lo;
        hi = p.hi;
    }
    template <class U, unsigned N>
    ws_ptr(const ws_extern_shared<U, N> &a);

    static ws_ptr make(int space, int buf, int64_t at, int64_t lo, int64_t hi)
    {
        ws_ptr p;
        p.space = space;
        p.buf = buf;
        p.at = at;
        p.lo = lo;
        p.hi = hi;
        return p;
    }
    ws_ref<T> operator[](ws_index ix) const
    {
        if (space == SHARED)
            return ws_ref<T>{-1, at + ix.i * ws_words<V>::value, lo, hi, ix.line, !std::is_volatile<T>::value};
        if (space == NONE) ws_user_fail(ix.line, "an access through a null pointer");
        if (at % (int64_t)sizeof(V)) ws_user_fail(ix.line, "an access through a pointer not aligned to its element");
        return ws_ref<T>{buf, at / (int64_t)sizeof(V) + ix.i, 0, 0, ix.line, 0};
    }
    ws_ref<T> operator*() const { return (*this)[ws_index(0, 0)]; }
    ws_ptr operator+(long long k) const
    {
        return make(space, buf, at + k * (space == SHARED ? ws_words<V>::value : (int64_t)sizeof(V)), lo, hi);
    }
    ws_ptr operator-(long long k) const { return *this + (-k); }
    friend ws_ptr operator+(long long k, const ws_ptr &p) { return p + k; }
    long long operator-(const ws_ptr &o) const
    {
        return (at - o.at) / (space == SHARED ? ws_words<V>::value : (int64_t)sizeof(V));
    }
    ws_ptr &operator+=(long long k) { return *this = *this + k; }
    ws_ptr &operator-=(long long k) { return *this = *this - k; }
    ws_ptr &operator++() { return *this += 1; }
    ws_ptr &operator--() { return *this -= 1; }
    ws_ptr operator++(int) { ws_ptr p = *this; *this += 1; return p; }
    ws_ptr operator--(int) { ws_ptr p = *this; *this -= 1; return p; }
    bool operator==(const ws_ptr &o) const { return space == o.space && buf == o.buf && at == o.at; }
    bool operator!=(const ws_ptr &o) const { return !(*this == o); }
    bool operator<(const ws_ptr &o) const { return at < o.at; }
    explicit operator bool() const { return space != NONE; }
};

/* __ldg and its cache-hinted kin (__ldcg, __ldca, __ldcs, __ldlu, __ldcv) load through another
 * cache path; the emulator's memory has one, so each is a plain load, recorded at its line */
#define WS_LOAD_HINT(name)                                                        \
    template <class T>                                                            \
    typename ws_plain<T>::type name(ws_ptr<T> p, unsigned line = __builtin_LINE()) \
    {                                                                             \
        return p[ws_index(0, line)];                                              \
    }
WS_LOAD_HINT(__ldg)
WS_LOAD_HINT(__ldcg)
WS_LOAD_HINT(__ldca)
WS_LOAD_HINT(__ldcs)
WS_LOAD_HINT(__ldlu)
WS_LOAD_HINT(__ldcv)
#undef WS_LOAD_HINT

/* extern __shared__ T name[] (and nvcc's extern __shared__ T name[N]): the launch's dynamic shared
 * memory, sized by its third argument (or, where it gives none, by N); every such array of a
 * kernel is the same memory, as on the GPU */
inline const char ws_dynamic_shared_key = 0;
template <class T, unsigned N>
struct ws_extern_shared {
    ws_ptr<T> ptr() const
    {
        unsigned bytes = ws_user_shmem();
        if (!bytes) bytes = N * (unsigned)sizeof(typename ws_plain<T>::type);
        int64_t lo = emu_shared_region(&ws_dynamic_shared_key, bytes ? bytes : 4);
        return ws_ptr<T>::make(ws_ptr<T>::SHARED, 0, lo, lo, lo + bytes / 4);
    }
    ws_ref<T> operator[](ws_index ix) const { return ptr()[ix]; }
};
template <class T>
template <class U, unsigned N>
ws_ptr<T>::ws_ptr(const ws_extern_shared<U, N> &a) : ws_ptr(a.ptr())
{
}

/* reinterpret_cast<T *>(p) and (T *)p in device code: the same address, another element type */
template <class T, class U>
ws_ptr<T> ws_cast(const ws_ptr<U> &p)
{
    return ws_ptr<T>::make(p.space, p.buf, p.at, p.lo, p.hi);
}
template <class T, class U, unsigned N>
ws_ptr<T> ws_cast(const ws_extern_shared<U, N> &a)
{
    return ws_cast<T>(a.ptr());
}
template <class T, class U, unsigned N>
ws_ptr<T> ws_cast(const shared_array<U, N> &a)
{
    return ws_cast<T>(ws_ptr<U>(a));
}

template <class T>
ws_ptr<T> ws_ref<T>::operator&() const
{
    typedef typename ws_plain<T>::type V;
    if (buf < 0) return ws_ptr<T>::make(ws_ptr<T>::SHARED, 0, index, lo, hi);
    return ws_ptr<T>::make(ws_ptr<T>::GLOBAL, buf, index * (int64_t)sizeof(V), 0, 0);
}

/* ---- atomics on a float, int, unsigned, double, long long or unsigned long long word of global
 * memory, as CUDA overloads them: the word changes and the old value comes back, one thread after
 * another (the emulator runs a learner's blocks in order) ---- */
template <class T>
struct ws_atomic_word; /* the emulator's name of the word's type (emu_word), and how the trace records it */
template <> struct ws_atomic_word<float> { enum { word = EMU_WORD_F32, is_int = 0 }; };
template <> struct ws_atomic_word<int> { enum { word = EMU_WORD_I32, is_int = 2 }; };
template <> struct ws_atomic_word<unsigned> { enum { word = EMU_WORD_U32, is_int = 1 }; };
template <> struct ws_atomic_word<double> { enum { word = EMU_WORD_F64, is_int = 0 }; };
template <> struct ws_atomic_word<long long> { enum { word = EMU_WORD_I64, is_int = 2 }; };
template <> struct ws_atomic_word<unsigned long long> { enum { word = EMU_WORD_U64, is_int = 1 }; };
template <class T>
T ws_atomic(const ws_ptr<T> &p, int atomic, T v, T compare, unsigned line)
{
    static_assert(sizeof(ws_atomic_word<T>) > 0, "an atomic here works on a float, int, unsigned, double, long long or unsigned long long");
    if (p.space == ws_ptr<T>::SHARED)
        ws_user_fail(line, "an atomic on __shared__ memory is not modelled yet: add in shared memory with a tree and "
                           "__syncthreads(), or atomically in global memory");
    if (p.space == ws_ptr<T>::NONE) ws_user_fail(line, "an atomic through a null pointer");
    if (p.at % (int64_t)sizeof(T)) ws_user_fail(line, "an atomic through a pointer not aligned to its element");
    emu_op op;
    memset(&op, 0, sizeof op);
    op.kind = TRACE_GLOBAL_ATOMIC;
    op.line = line;
    op.buf = p.buf;
    op.index = p.at / (int64_t)sizeof(T);
    op.elem_size = sizeof(T);
    op.is_int = ws_atomic_word<T>::is_int;
    op.atomic = atomic;
    op.word = ws_atomic_word<T>::word;
    memcpy(&op.operand, &compare, sizeof(T));
    memcpy(op.data, &v, sizeof(T));
    emu_do(&op);
    T old;
    memcpy(&old, op.data, sizeof(T));
    return old;
}
#define WS_ATOMIC(name, kind)                                                        \
    template <class T, class V>                                                      \
    T name(const ws_ptr<T> &p, V v, unsigned line = __builtin_LINE())                \
    {                                                                                \
        return ws_atomic<T>(p, kind, (T)v, T(), line);                               \
    }
WS_ATOMIC(atomicAdd, EMU_ATOMIC_ADD)
WS_ATOMIC(atomicSub, EMU_ATOMIC_SUB)
WS_ATOMIC(atomicMax, EMU_ATOMIC_MAX)
WS_ATOMIC(atomicMin, EMU_ATOMIC_MIN)
WS_ATOMIC(atomicExch, EMU_ATOMIC_EXCH)
#undef WS_ATOMIC
template <class T, class C, class V>
T atomicCAS(const ws_ptr<T> &p, C compare, V v, unsigned line = __builtin_LINE())
{
    return ws_atomic<T>(p, EMU_ATOMIC_CAS, (T)v, (T)compare, line);
}
/* the ticket of the last block (CUDA's threadFenceReduction): old >= limit ? 0 : old + 1 */
inline unsigned atomicInc(const ws_ptr<unsigned> &p, unsigned limit, unsigned line = __builtin_LINE())
{
    return ws_atomic<unsigned>(p, EMU_ATOMIC_INC, 0u, limit, line);
}

/* ---- warp collectives: __ballot_sync, __any_sync, __all_sync, __activemask, __reduce_*_sync ----
 * On the GPU each is one instruction of the warp that moves no memory (vote.sync, redux.sync):
 * here each is a warp sync at its line over its mask (what the instruction waits for), and the
 * lanes' values meet in a table of the warp's own. The first lane to resume after the sync reduces
 * the values of the lanes that posted it and leaves each its answer; a lane writes its value again
 * only at its next collective, which cannot run before every lane of this one has read its
 * answer. A block runs on one thread of the process, so the table is the thread's. */
enum ws_collect { WS_COLLECT_BALLOT, WS_COLLECT_ADD, WS_COLLECT_MIN, WS_COLLECT_MAX, WS_COLLECT_AND, WS_COLLECT_OR, WS_COLLECT_XOR, WS_COLLECT_LANES };
struct ws_warp_table {
    int64_t value[32], answer[32];
    unsigned line[32]; /* where each lane posted its value: lanes of another collective are not in the group */
    unsigned posted;
};
inline unsigned ws_lane_linear()
{
    const emu_dim3 *t = emu_thread_idx(), *d = emu_block_dim();
    return t->x + d->x * (t->y + d->y * t->z);
}
inline int64_t ws_collective(unsigned mask, int64_t v, int how, unsigned line)
{
    static thread_local ws_warp_table tables[32];
    unsigned tid = ws_lane_linear(), lane = tid & 31u;
    ws_warp_table *w = &tables[(tid >> 5) & 31u];
    w->value[lane] = v;
    w->line[lane] = line;
    w->posted |= 1u << lane;
    /* __activemask and coalesced_threads: the lanes that reach it together (mask 0 waits for none) */
    ws_plain_op(TRACE_WARP_SYNC, line, how == WS_COLLECT_LANES ? 0u : mask);
    if (w->posted >> lane & 1u) {
        unsigned group = how == WS_COLLECT_LANES ? w->posted : w->posted & (mask | 1u << lane);
        for (unsigned l = 0; l < 32; l++)
            if (w->line[l] != line) group &= ~(1u << l);
        int64_t r = how == WS_COLLECT_MIN ? INT64_MAX : how == WS_COLLECT_MAX ? INT64_MIN : how == WS_COLLECT_AND ? -1 : 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!(group >> l & 1u)) continue;
            int64_t x = w->value[l];
            switch (how) {
            case WS_COLLECT_BALLOT: r |= x ? (int64_t)1 << l : 0; break;
            case WS_COLLECT_LANES: r |= (int64_t)1 << l; break;
            case WS_COLLECT_ADD: r += x; break;
            case WS_COLLECT_MIN: r = x < r ? x : r; break;
            case WS_COLLECT_MAX: r = x > r ? x : r; break;
            case WS_COLLECT_AND: r &= x; break;
            case WS_COLLECT_OR: r |= x; break;
            default: r ^= x; break;
            }
        }
        for (unsigned l = 0; l < 32; l++)
            if (group >> l & 1u) w->answer[l] = r;
        w->posted &= ~group;
    }
    return w->answer[lane];
}
inline unsigned __ballot_sync(unsigned mask, int pred, unsigned line = __builtin_LINE())
{
    return (unsigned)ws_collective(mask, pred != 0, WS_COLLECT_BALLOT, line);
}
inline int __any_sync(unsigned mask, int pred, unsigned line = __builtin_LINE()) { return ws_collective(mask, pred != 0, WS_COLLECT_OR, line) != 0; }
inline int __all_sync(unsigned mask, int pred, unsigned line = __builtin_LINE()) { return ws_collective(mask, pred != 0, WS_COLLECT_AND, line) != 0; }
inline unsigned __activemask(unsigned line = __builtin_LINE()) { return (unsigned)ws_collective(0, 1, WS_COLLECT_LANES, line); }
/* redux.sync of an int or an unsigned (sm_80 and later) */
#define WS_REDUCE_SYNC(name, how)                                                                       \
    inline int name(unsigned mask, int v, unsigned line = __builtin_LINE())                             \
    {                                                                                                   \
        return (int)ws_collective(mask, v, how, line);                                                  \
    }                                                                                                   \
    inline unsigned name(unsigned mask, unsigned v, unsigned line = __builtin_LINE())                   \
    {                                                                                                   \
        return (unsigned)ws_collective(mask, (int64_t)v, how, line);                                    \
    }
WS_REDUCE_SYNC(__reduce_add_sync, WS_COLLECT_ADD)
WS_REDUCE_SYNC(__reduce_min_sync, WS_COLLECT_MIN)
WS_REDUCE_SYNC(__reduce_max_sync, WS_COLLECT_MAX)
#undef WS_REDUCE_SYNC
inline unsigned __reduce_and_sync(unsigned mask, unsigned v, unsigned line = __builtin_LINE()) { return (unsigned)ws_collective(mask, v, WS_COLLECT_AND, line); }
inline unsigned __reduce_or_sync(unsigned mask, unsigned v, unsigned line = __builtin_LINE()) { return (unsigned)ws_collective(mask, v, WS_COLLECT_OR, line); }
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v, unsigned line = __builtin_LINE()) { return (unsigned)ws_collective(mask, v, WS_COLLECT_XOR, line); }

/* what cooperative groups (include/cooperative_groups.h) are made of, at the learner's line */
inline void ws_cg_barrier(unsigned line) { __syncthreads(line); }
inline void ws_cg_warp_sync(unsigned mask, unsigned line) { __syncwarp(mask, line); }
/* a shuffle of a 4-byte value is one; of an 8-byte value (a double, a long long) two, of its two
 * halves, as nvcc compiles it */
template <class T>
inline T ws_cg_shfl(int mode, unsigned mask, T v, int arg, int width, unsigned line)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a shuffle moves a value of 4 or 8 bytes");
    if constexpr (sizeof(T) == 8) {
        unsigned h[2];
        memcpy(h, &v, 8);
        h[0] = ws_shfl(mask, h[0], mode, arg, width, line);
        h[1] = ws_shfl(mask, h[1], mode, arg, width, line);
        memcpy(&v, h, 8);
        return v;
    } else {
        return ws_shfl(mask, v, mode, arg, width, line);
    }
}
#define WS_SHFL_WIDE(name, mode, A)                                                                 \
    inline double name(unsigned mask, double v, A arg, int width = 32, unsigned line = __builtin_LINE()) \
    {                                                                                               \
        return ws_cg_shfl(mode, mask, v, (int)arg, width, line);                                    \
    }                                                                                               \
    inline long long name(unsigned mask, long long v, A arg, int width = 32, unsigned line = __builtin_LINE()) \
    {                                                                                               \
        return ws_cg_shfl(mode, mask, v, (int)arg, width, line);                                    \
    }
WS_SHFL_WIDE(__shfl_down_sync, EMU_SHFL_DOWN, unsigned)
WS_SHFL_WIDE(__shfl_up_sync, EMU_SHFL_UP, unsigned)
WS_SHFL_WIDE(__shfl_xor_sync, EMU_SHFL_XOR, int)
WS_SHFL_WIDE(__shfl_sync, EMU_SHFL_IDX, int)
#undef WS_SHFL_WIDE
inline unsigned ws_cg_ballot(unsigned mask, int pred, unsigned line) { return __ballot_sync(mask, pred, line); }
inline unsigned ws_cg_lanes(unsigned line) { return __activemask(line); }
template <class T>
inline T ws_cg_redux(int how, unsigned mask, T v, unsigned line)
{
    return (T)ws_collective(mask, (int64_t)v, how, line);
}
inline void ws_cg_fail(unsigned line, const char *what) { ws_user_fail(line, what); }

/* ---- __device__ variables of file scope (the front end writes ws_device_var<T>): each a global
 * buffer of one T, made and set to its first value before the first launch (or the first
 * cudaMemcpyToSymbol); each use in device code is a load or store of it at its line (NAME[0]) ---- */
struct ws_device_var_base {
    ws_device_var_base *next;
    virtual void make() = 0;
};
inline ws_device_var_base *&ws_device_vars()
{
    static ws_device_var_base *head = nullptr;
    return head;
}
inline void ws_make_device_vars()
{
    for (ws_device_var_base *v = ws_device_vars(); v; v = v->next) v->make();
}
template <class T>
struct ws_device_var : ws_device_var_base {
    T first;
    T *dev;
    int buf;
    unsigned line;
    ws_device_var(T v = T(), unsigned l = __builtin_LINE()) : first(v), dev(nullptr), buf(0), line(l)
    {
        next = ws_device_vars();
        ws_device_vars() = this;
    }
    void make() override
    {
        if (dev) return;
        dev = (T *)ws_user_malloc(sizeof(T), line);
        ws_user_copy(dev, &first, sizeof(T), line);
        int64_t off;
        ws_user_buffer(dev, &buf, &off);
    }
    ws_ref<T> operator[](ws_index ix) const
    {
        if (!dev) ws_user_fail(ix.line, "a __device__ variable used outside a launch");
        return ws_ptr<T>::make(ws_ptr<T>::GLOBAL, buf, 0, 0, 0)[ix];
    }
};
template <class T>
cudaError_t cudaMemcpyToSymbol(ws_device_var<T> &s, const void *src, size_t count, size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice, unsigned line = __builtin_LINE())
{
    s.make();
    if (offset > sizeof(T) || count > sizeof(T) - offset) ws_user_fail(line, "cudaMemcpyToSymbol past the end of the variable");
    ws_user_copy((char *)s.dev + offset, src, count, line);
    return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, ws_device_var<T> &s, size_t count, size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost, unsigned line = __builtin_LINE())
{
    s.make();
    if (offset > sizeof(T) || count > sizeof(T) - offset) ws_user_fail(line, "cudaMemcpyFromSymbol past the end of the variable");
    ws_user_copy(dst, (char *)s.dev + offset, count, line);
    return cudaSuccess;
}

/* the divisor of an integer division or remainder in device code (the front end writes
 * ws_divisor(D, LINE)): zero stops the launch at its line, which the CPU would stop with SIGFPE */
template <class T>
constexpr T ws_divisor(T v, unsigned line)
{
    return v == T(0) ? (ws_user_fail(line, "an integer divided by zero (its value on a GPU is undefined)"), v) : v;
}

/* ---- launches: K<<<g, b, s, stream>>>(args) is ws_launch(K, ws_config(g, b, s, stream))(args) ---- */
struct ws_config {
    dim3 grid, block;
    size_t shmem;
    unsigned line;
    template <class S = int>
    ws_config(dim3 g, dim3 b, size_t s = 0, S = S(), unsigned l = __builtin_LINE()) : grid(g), block(b), shmem(s), line(l)
    {
    }
};

template <class... P>
struct ws_closure {
    void (*k)(P...);
    std::tuple<typename std::decay<P>::type...> args;
};

template <class... P>
void ws_trampoline(const void *p)
{
    const ws_closure<P...> *c = (const ws_closure<P...> *)p;
    std::apply(c->k, c->args);
}

/* One argument of a launch as the kernel's parameter P takes it. --entry hands the buffers in and out
 * as float * whatever --type says they hold, so a raw pointer becomes the kernel's T * (ws_ptr<T>)
 * whatever it points to; ws_ptr's constructor still refuses one that is not from cudaMalloc. */
template <class P>
struct ws_launch_arg {
    template <class A>
    static P get(A &&a) { return P(std::forward<A>(a)); }
};
template <class T>
struct ws_launch_arg<ws_ptr<T>> {
    template <class A>
    static ws_ptr<T> get(A &&a)
    {
        typedef typename std::decay<A>::type D;
        if constexpr (std::is_pointer<D>::value) return ws_ptr<T>((T *)(const void *)a);
        /* a literal 0 (or NULL) for a pointer, as CUDA takes it: the argument reaches here as an int */
        else if constexpr (std::is_integral<D>::value) {
            if (a != 0) ws_user_fail(0, "a launch passes a nonzero integer where the kernel takes a pointer");
            return ws_ptr<T>();
        } else return ws_ptr<T>(std::forward<A>(a));
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
        ws_closure<P...> cl{k, std::tuple<typename std::decay<P>::type...>(
                                   ws_launch_arg<typename std::decay<P>::type>::get(std::forward<A>(a))...)};
        ws_make_device_vars();
        ws_user_launch(ws_trampoline<P...>, &cl, c.grid, c.block, c.shmem, c.line);
    }
};

template <class... P>
ws_kernel_call<P...> ws_launch(void (*k)(P...), ws_config c)
{
    return ws_kernel_call<P...>{k, c};
}

/* ---- the host side of the runtime ---- */
template <class T>
cudaError_t cudaMalloc(T **p, size_t bytes, unsigned line = __builtin_LINE())
{
    *p = (T *)ws_user_malloc(bytes, line);
    return cudaSuccess;
}
inline cudaError_t cudaFree(void *p)
{
    ws_user_free(p);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind, unsigned line = __builtin_LINE())
{
    ws_user_copy(dst, src, bytes, line);
    return cudaSuccess;
}
inline cudaError_t cudaMemset(void *dst, int v, size_t bytes, unsigned line = __builtin_LINE())
{
    ws_user_memset(dst, v, bytes, line);
    return cudaSuccess;
}
/* the device: one, the card of --card (the default otherwise), as CUDA's runtime names it; the
 * attributes' numbers are CUDA's own */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106
};
struct cudaDeviceProp {
    char name[256];
    size_t sharedMemPerBlock, sharedMemPerMultiprocessor;
    int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor, multiProcessorCount, major, minor;
    int maxThreadsDim[3], maxGridSize[3];
};
inline cudaError_t cudaGetDeviceCount(int *n)
{
    *n = 1;
    return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *d)
{
    *d = 0;
    return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int)
{
    ws_user_device_props w;
    ws_user_device(&w);
    *p = cudaDeviceProp{};
    snprintf(p->name, sizeof p->name, "%s", w.name);
    p->sharedMemPerBlock = (size_t)w.shared_per_block;
    p->sharedMemPerMultiprocessor = (size_t)w.shared_per_sm;
    p->regsPerBlock = w.regs_per_block;
    p->regsPerMultiprocessor = w.regs_per_sm;
    p->warpSize = w.warp_size;
    p->maxThreadsPerBlock = w.threads_per_block;
    p->maxThreadsPerMultiProcessor = w.threads_per_sm;
    p->maxBlocksPerMultiProcessor = w.blocks_per_sm;
    p->multiProcessorCount = w.sms;
    p->major = w.major;
    p->minor = w.minor;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int, unsigned line = __builtin_LINE())
{
    ws_user_device_props w;
    ws_user_device(&w);
    static const struct {
        cudaDeviceAttr a;
        int ws_user_device_props::*field;
    } attrs[] = {
        {cudaDevAttrMaxThreadsPerBlock, &ws_user_device_props::threads_per_block},
        {cudaDevAttrMaxSharedMemoryPerBlock, &ws_user_device_props::shared_per_block},
        {cudaDevAttrWarpSize, &ws_user_device_props::warp_size},
        {cudaDevAttrMaxRegistersPerBlock, &ws_user_device_props::regs_per_block},
        {cudaDevAttrMultiProcessorCount, &ws_user_device_props::sms},
        {cudaDevAttrMaxThreadsPerMultiProcessor, &ws_user_device_props::threads_per_sm},
        {cudaDevAttrComputeCapabilityMajor, &ws_user_device_props::major},
        {cudaDevAttrComputeCapabilityMinor, &ws_user_device_props::minor},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &ws_user_device_props::shared_per_sm},
        {cudaDevAttrMaxRegistersPerMultiprocessor, &ws_user_device_props::regs_per_sm},
        {cudaDevAttrMaxBlocksPerMultiprocessor, &ws_user_device_props::blocks_per_sm},
    };
    for (const auto &x : attrs)
        if (x.a == a) {
            *v = w.*(x.field);
            return cudaSuccess;
        }
    ws_user_fail(line, "cudaDeviceGetAttribute: warpscope does not model this attribute yet (it answers the SMs, threads, blocks, "
                       "shared memory, registers, warp size and compute capability)");
}
template <class K>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, K, int block, size_t dynamic_shared, unsigned line = __builtin_LINE())
{
    *n = ws_user_occupancy((unsigned)block, dynamic_shared, line);
    return cudaSuccess;
}

/* launches run to their end one after another: there is nothing to wait for */
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline const char *cudaGetErrorString(cudaError_t) { return "no error"; }
/* the emulator keeps no time: events measure 0 ms */
inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = 0;
    return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0) { return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t)
{
    *ms = 0.0f;
    return cudaSuccess;
}

/* ---- device printf: the front end calls a kernel's printf ws_device_printf. It is formatted here,
 * in the thread, as printf formats it (an argument read from memory is a load at the line, as on
 * the GPU), and kept with the thread and the line (trace.prints, at most TRACE_PRINT_LINE_MAX bytes a
 * line); printed by capture and stats after the result, and shown at its step ---- */
struct ws_printf_format {
    const char *f;
    unsigned line;
    ws_printf_format(const char *s, unsigned l = __builtin_LINE()) : f(s), line(l) {}
};
/* what printf's ... takes for each argument: the value of an element or a watched register, the
 * address a pointer holds */
template <class T>
inline T ws_printf_arg(const T &v) { return v; }
template <class T>
inline typename ws_plain<T>::type ws_printf_arg(const ws_ref<T> &r) { return (typename ws_plain<T>::type)r; }
template <class T, int S, int A>
inline T ws_printf_arg(const reg<T, S, A> &r) { return (T)r; }
template <class T>
inline const void *ws_printf_arg(const ws_ptr<T> &p) { return (const void *)(uintptr_t)p.at; }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <class... A>
int ws_device_printf(ws_printf_format fmt, const A &...a)
{
    if (!fmt.f) ws_user_fail(fmt.line, "printf with a null format");
    char text[TRACE_PRINT_LINE_MAX + 1];
    int n = snprintf(text, sizeof text, fmt.f, ws_printf_arg(a)...);
    emu_op op;
    memset(&op, 0, sizeof op);
    op.kind = TRACE_PRINTF;
    op.line = fmt.line;
    op.buf = -1;
    op.text = text;
    emu_do(&op);
    return n;
}
#pragma GCC diagnostic pop

#endif
