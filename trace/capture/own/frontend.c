/* frontend: reads a learner's CUDA file with clang's parser and rewrites it for the emulator
 * (frontend.h says what changes). Edits are collected as (offset, length, text) on the file's
 * bytes and applied in order; a replacement keeps the newlines it removes. */
#include "trace/capture/own/frontend.h"
#include "trace/trace.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What clang sees before the learner's file: CUDA's keywords as the attributes clang knows, and
 * the declarations of the runtime the emulator provides (ws_cuda.h is what the compiler sees). */
static const char parse_prelude[] =
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    /* the entry's in, out and h_in: the data's type (--type; own.c defines it), float by default */
    "#ifndef WS_ENTRY_T\n#define WS_ENTRY_T float\n#endif\n"
    "#define __shared__ __attribute__((shared))\n"
    "#define __constant__ __attribute__((constant))\n"
    "#define __forceinline__ __inline__ __attribute__((always_inline))\n"
    "#define __restrict__ __restrict\n"
    "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n"
    "typedef __SIZE_TYPE__ size_t;\n"
    "struct uint3 { unsigned x, y, z; };\n"
    "struct float4 { float x, y, z, w; };\n"
    "struct dim3 { unsigned x, y, z; __host__ __device__ dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}\n"
    "  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {} };\n"
    "extern const __device__ uint3 threadIdx; extern const __device__ uint3 blockIdx;\n"
    "extern const __device__ dim3 blockDim; extern const __device__ dim3 gridDim; extern const __device__ int warpSize;\n"
    "typedef int cudaError_t; enum { cudaSuccess = 0 };\n"
    "enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };\n"
    "typedef struct CUstream_st *cudaStream_t; typedef struct CUevent_st *cudaEvent_t;\n"
    "extern \"C\" int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);\n"
    "extern \"C\" int __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);\n"
    "__device__ void __syncthreads(); __device__ void __syncwarp(unsigned = 0xffffffffu); __device__ void __threadfence();\n"
    "__device__ unsigned __activemask();\n"
    "__device__ void cudaTriggerProgrammaticLaunchCompletion(); __device__ void cudaGridDependencySynchronize();\n"
    "template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32); template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);\n"
    "template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32); template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);\n"
    "__device__ unsigned atomicInc(unsigned *, unsigned);\n"
    /* CUDA's overloads: a float atomicAdd and atomicExch, but no float atomicSub, atomicMax or atomicMin */
#define WS_PRELUDE_ATOMIC(name) "__device__ int " name "(int *, int); __device__ unsigned " name "(unsigned *, unsigned);\n"
    WS_PRELUDE_ATOMIC("atomicAdd") WS_PRELUDE_ATOMIC("atomicSub") WS_PRELUDE_ATOMIC("atomicMax") WS_PRELUDE_ATOMIC("atomicMin")
    WS_PRELUDE_ATOMIC("atomicExch")
    "__device__ float atomicAdd(float *, float); __device__ float atomicExch(float *, float);\n"
    "__device__ int atomicCAS(int *, int, int); __device__ unsigned atomicCAS(unsigned *, unsigned, unsigned);\n"
    /* and the 64-bit ones (--type double, long long): atomicAdd of a double or an unsigned long long,
     * atomicMax/Min of a long long or an unsigned long long, their atomicExch and atomicCAS */
    "__device__ double atomicAdd(double *, double); __device__ unsigned long long atomicAdd(unsigned long long *, unsigned long long);\n"
    "__device__ long long atomicMax(long long *, long long); __device__ unsigned long long atomicMax(unsigned long long *, unsigned long long);\n"
    "__device__ long long atomicMin(long long *, long long); __device__ unsigned long long atomicMin(unsigned long long *, unsigned long long);\n"
    "__device__ unsigned long long atomicExch(unsigned long long *, unsigned long long);\n"
    "__device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);\n"
    "__device__ float4 make_float4(float, float, float, float);\n"
    /* device printf, as CUDA declares it; the rewrite calls it ws_device_printf (ws_user.h) */
    "extern \"C\" __device__ int printf(const char *, ...);\n"
    /* the warp's votes and reductions, and what warpscope's cooperative_groups.h is made of */
    "__device__ unsigned __ballot_sync(unsigned, int); __device__ int __any_sync(unsigned, int); __device__ int __all_sync(unsigned, int);\n"
    "__device__ int __reduce_add_sync(unsigned, int); __device__ unsigned __reduce_add_sync(unsigned, unsigned);\n"
    "__device__ int __reduce_min_sync(unsigned, int); __device__ unsigned __reduce_min_sync(unsigned, unsigned);\n"
    "__device__ int __reduce_max_sync(unsigned, int); __device__ unsigned __reduce_max_sync(unsigned, unsigned);\n"
    "__device__ unsigned __reduce_and_sync(unsigned, unsigned); __device__ unsigned __reduce_or_sync(unsigned, unsigned);\n"
    "__device__ unsigned __reduce_xor_sync(unsigned, unsigned);\n"
    "__device__ void ws_cg_barrier(unsigned); __device__ void ws_cg_warp_sync(unsigned, unsigned);\n"
    "template <class T> __device__ T ws_cg_shfl(int, unsigned, T, int, int, unsigned); template <class T> __device__ T ws_cg_redux(int, unsigned, T, unsigned);\n"
    "__device__ unsigned ws_cg_ballot(unsigned, int, unsigned); __device__ unsigned ws_cg_lanes(unsigned); __device__ void ws_cg_fail(unsigned, const char *);\n"
    /* CUDA's min and max in host code, as ws_user.h defines them (device code's come from clang's
     * CUDA headers; a kernel file may define its own __device__ max beside these) */
#define WS_PRELUDE_MINMAX(name)                                                                   \
    "__host__ int " name "(int, int); __host__ unsigned " name "(unsigned, unsigned);\n"            \
    "__host__ float " name "(float, float); __host__ double " name "(double, double);\n"           \
    "__host__ unsigned " name "(int, unsigned); __host__ unsigned " name "(unsigned, int);\n"      \
    "__host__ double " name "(float, double); __host__ double " name "(double, float);\n"
    WS_PRELUDE_MINMAX("min") WS_PRELUDE_MINMAX("max")
    "template <class T> __device__ T __ldg(const T *); template <class T> __device__ T __ldcg(const T *);\n"
    "template <class T> __device__ T __ldca(const T *); template <class T> __device__ T __ldcs(const T *);\n"
    "template <class T> __device__ T __ldlu(const T *); template <class T> __device__ T __ldcv(const T *);\n"
    "template <class T> cudaError_t cudaMalloc(T **, size_t); cudaError_t cudaFree(void *);\n"
    "cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind); cudaError_t cudaMemset(void *, int, size_t);\n"
    "cudaError_t cudaDeviceSynchronize(); cudaError_t cudaGetLastError(); const char *cudaGetErrorString(cudaError_t);\n"
    "cudaError_t cudaEventCreate(cudaEvent_t *); cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);\n"
    "cudaError_t cudaEventSynchronize(cudaEvent_t); cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);\n"
    "cudaError_t cudaEventDestroy(cudaEvent_t);\n"
    "template <class T> cudaError_t cudaMemcpyToSymbol(const T &, const void *, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyHostToDevice);\n"
    "template <class T> cudaError_t cudaMemcpyFromSymbol(void *, const T &, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost);\n"
    "enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,\n"
    "  cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrMaxThreadsPerMultiProcessor = 39,\n"
    "  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,\n"
    "  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrMaxBlocksPerMultiprocessor = 106 };\n"
    "struct cudaDeviceProp { char name[256]; size_t sharedMemPerBlock, sharedMemPerMultiprocessor; int regsPerBlock, regsPerMultiprocessor,\n"
    "  warpSize, maxThreadsPerBlock, maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor, multiProcessorCount, major, minor;\n"
    "  int maxThreadsDim[3], maxGridSize[3]; };\n"
    "cudaError_t cudaGetDeviceCount(int *); cudaError_t cudaGetDevice(int *); cudaError_t cudaSetDevice(int);\n"
    "cudaError_t cudaGetDeviceProperties(cudaDeviceProp *, int); cudaError_t cudaDeviceGetAttribute(int *, cudaDeviceAttr, int);\n"
    "template <class K> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, K, int, size_t);\n"
    "template <class T> struct ws_is_void_t { enum { value = 0 }; }; template <> struct ws_is_void_t<void> { enum { value = 1 }; };\n"
    "template <class F> void ws_call_entry(F f, float *result, int *has_result)\n"
    "{ if constexpr (ws_is_void_t<decltype(f())>::value) f(); else { *result = (float)f(); *has_result = 1; } }\n"
    /* the device side of the math library (clang keeps host functions out of device code) */
    "__device__ float fmaxf(float, float); __device__ float fminf(float, float); __device__ float fabsf(float);\n"
    "__device__ float sqrtf(float); __device__ float expf(float); __device__ float logf(float); __device__ float powf(float, float);\n"
    "__device__ int max(int, int); __device__ unsigned max(unsigned, unsigned); __device__ float max(float, float);\n"
    "__device__ int min(int, int); __device__ unsigned min(unsigned, unsigned); __device__ float min(float, float);\n"
    "__device__ unsigned max(int, unsigned); __device__ unsigned max(unsigned, int); __device__ unsigned min(int, unsigned); __device__ unsigned min(unsigned, int);\n"
    "__device__ double max(double, double); __device__ double max(float, double); __device__ double max(double, float);\n"
    "__device__ double min(double, double); __device__ double min(float, double); __device__ double min(double, float);\n"
    /* what nvcc's implicit cuda_runtime.h brings with it */
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n";

/* The entry: warpscope calls it with the input in device memory (in), a zeroed device buffer of
 * as many floats (out), the count (n) and a host copy of the input (h_in). A value it returns is
 * the result; otherwise the result is out[0]. */
static const char entry_head[] =
    /* in, out and h_in are the data's type, WS_ENTRY_T (ws_entry.h): float unless --type says */
    "\n#line 1 \"--entry\"\n"
    "extern \"C\" void ws_user_entry(WS_ENTRY_T *in, WS_ENTRY_T *out, unsigned n, WS_ENTRY_T *h_in, float *ws_result, int *ws_has_result) "
    "{ ws_call_entry([&]() { return (";
static const char entry_tail[] = "); }, ws_result, ws_has_result); (void)in; (void)out; (void)n; (void)h_in; }\n";

/* Constructs the emulator does not model, refused in device code: what to write instead. */
static const struct {
    enum CXCursorKind kind;
    const char *what;
} refused_kinds[] = {
    {CXCursor_GCCAsmStmt, "inline PTX (asm) is not traced: write the CUDA it stands for"},
    {CXCursor_MSAsmStmt, "inline assembly is not traced: write the CUDA it stands for"},
    {CXCursor_CXXNewExpr, "new in device code is not modelled: use a __shared__ array or a buffer the host allocates"},
    {CXCursor_CXXDeleteExpr, "delete in device code is not modelled: use a __shared__ array or a buffer the host allocates"},
    {CXCursor_CXXThrowExpr, "exceptions do not exist in device code"},
    {CXCursor_CXXTryStmt, "exceptions do not exist in device code"},
};

/* Functions device code may not call yet, and what to write instead. */
static const struct {
    const char *name;
    const char *what;
} refused_calls[] = {
    {"atomicAdd_block", "atomicAdd_block is not modelled: atomicAdd is"},
    {"atomicAdd_system", "atomicAdd_system is not modelled: atomicAdd is"},
    {"atomicDec", "atomicDec is not modelled: atomicInc and atomicSub are"},
    {"atomicAnd", "atomicAnd is not modelled: atomicCAS is"},
    {"atomicOr", "atomicOr is not modelled: atomicCAS is"},
    {"atomicXor", "atomicXor is not modelled: atomicCAS is"},
    {"malloc", "malloc in device code is not modelled: use a __shared__ array or a buffer the host allocates"},
};

/* CUDA that people write and the emulator does not model yet, named when clang stumbles on it
 * (an undeclared identifier, no matching call): what it is, and what to write meanwhile. A name
 * of CUDA's runtime (cuda...) that is not here is named as such too, and so is an intrinsic (a name
 * that starts with two underscores, as CUDA's do). */
static const struct {
    const char *name;
    const char *what;
} unmodelled[] = {
    {"printf", "store the value in a buffer and print it from the host code"},
    {"cudaMallocAsync", "use cudaMalloc"},
    {"cudaFreeAsync", "use cudaFree"},
    {"cudaMallocManaged", "use cudaMalloc and cudaMemcpy"},
    {"cudaMallocHost", "use malloc"},
    {"cudaMemcpyAsync", "use cudaMemcpy (launches run in order)"},
    {"cudaStreamCreate", "launch on the default stream (launches run in order)"},
    {"cudaStreamSynchronize", "launches run in order: there is nothing to wait for"},
    {"grid_group", "use one launch per pass (cooperative_groups' thread_block, tiles of up to 32 threads and coalesced_threads are modelled)"},
    {"this_grid", "use one launch per pass (cooperative_groups' thread_block, tiles of up to 32 threads and coalesced_threads are modelled)"},
    {"cudaLaunchCooperativeKernel", "launch with <<<grid, block>>> and one launch per pass"},
    {"labeled_partition", "use tiled_partition<32> or <16>, or coalesced_threads"},
    {"binary_partition", "use tiled_partition<32> or <16>, or coalesced_threads"},
    {"inclusive_scan", "scan with the tile's shfl_up"},
    {"exclusive_scan", "scan with the tile's shfl_up"},
};

/* msg names 'X' and clang could not find or call it: "warpscope does not model X yet: ..." in buf */
static int unmodelled_words(const char *msg, char *buf, size_t len)
{
    static const char *const stumbles[] = {"undeclared identifier '", "no matching function for call to '", "no member named '",
                                           "no type named '", "unknown type name '", "use of undeclared '"};
    for (size_t s = 0; s < sizeof stumbles / sizeof stumbles[0]; s++) {
        const char *q = strstr(msg, stumbles[s]);
        if (!q) continue;
        q += strlen(stumbles[s]);
        size_t n = strcspn(q, "'");
        for (size_t i = 0; i < sizeof unmodelled / sizeof unmodelled[0]; i++)
            if (strlen(unmodelled[i].name) == n && strncmp(q, unmodelled[i].name, n) == 0) {
                snprintf(buf, len, "warpscope does not model %.*s yet: %s", (int)n, q, unmodelled[i].what);
                return 1;
            }
        if (n > 2 && q[0] == '_' && q[1] == '_') { /* CUDA's intrinsics (__float_as_uint, __fmul_rn...): the reserved names */
            snprintf(buf, len, "not modelled yet: %.*s (a CUDA intrinsic warpscope's emulator does not have; write it with the "
                               "operations it does)", (int)n, q);
            return 1;
        }
        if (n > 4 && strncmp(q, "cuda", 4) == 0) {
            snprintf(buf, len, "warpscope does not model %.*s yet: of CUDA's runtime it models cudaMalloc, cudaMemcpy, cudaMemset, "
                               "cudaFree, cudaDeviceSynchronize, cudaGetLastError and events", (int)n, q);
            return 1;
        }
    }
    return 0;
}

typedef struct edit {
    unsigned off, len, seq;
    int first; /* an insertion that binds to the text before it (a name's .v): before others at its offset */
    int inner; /* an insertion that closes an operand (ws_divisor's): right after those binding to the text
                * before it, before the closings of what encloses it (a loop's condition) */
    char *text;
} edit;

typedef struct rewriter {
    CXTranslationUnit tu;
    CXFile file;
    const char *path;
    const char *src; /* the parsed buffer (the file + the entry) */
    size_t srclen;
    edit *edits;
    size_t nedits, cap;
    int oom;
    char *err;
    size_t errlen;
    int failed;
    int ladder;
    unsigned *assigned; /* offsets of the watched register's names that an assignment writes */
    size_t nassigned, capassigned;
    CXCursor scalars[64]; /* __shared__ variables that are not arrays: each use becomes NAME[0] */
    size_t nscalars;
    CXCursor devvars[64]; /* __device__ variables of file scope: each use in device code becomes NAME[0] */
    size_t ndevvars;
} rewriter;

static void add_edit(rewriter *r, unsigned off, unsigned len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_edit(rewriter *r, unsigned off, unsigned len, const char *fmt, ...)
{
    if (r->oom) return;
    if (r->nedits == r->cap) {
        size_t c = r->cap ? r->cap * 2 : 64;
        edit *e = realloc(r->edits, c * sizeof *e);
        if (!e) { r->oom = 1; return; }
        r->edits = e;
        r->cap = c;
    }
    va_list ap;
    va_start(ap, fmt);
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1);
    if (text) vsnprintf(text, (size_t)n + 1, fmt, aq);
    va_end(aq);
    va_end(ap);
    if (!text) { r->oom = 1; return; }
    r->edits[r->nedits++] = (edit){.off = off, .len = len, .seq = (unsigned)r->nedits, .text = text};
}

/* file:line:col as the learner reads it (the entry's text says "--entry", a file it includes its name) */
static void where(CXSourceLocation loc, char *buf, size_t len, const char *path)
{
    CXString f;
    unsigned line, col;
    clang_getPresumedLocation(loc, &f, &line, &col);
    const char *fs = clang_getCString(f);
    /* a file of the learner's folder that it includes is read into it under its own name (inline_text) */
    const char *name = !fs || !*fs || strncmp(fs, "/warpscope-parse/", 17) == 0 ? path : fs;
    snprintf(buf, len, "%s:%u:%u", name, line, col);
    clang_disposeString(f);
}

static void refuse(rewriter *r, CXCursor c, const char *what)
{
    if (r->failed) return;
    r->failed = 1;
    char w[600];
    where(clang_getCursorLocation(c), w, sizeof w, r->path);
    snprintf(r->err, r->errlen, "%s: error: %s", w, what);
}

static unsigned offset_of(CXSourceLocation loc)
{
    unsigned off;
    clang_getFileLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

static int in_main_file(CXCursor c)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    return clang_Location_isFromMainFile(l) && !clang_Location_isInSystemHeader(l);
}

typedef struct tokens {
    CXToken *t;
    unsigned n;
} tokens;

static tokens tokens_of(rewriter *r, CXCursor c)
{
    tokens k = {NULL, 0};
    clang_tokenize(r->tu, clang_getCursorExtent(c), &k.t, &k.n);
    return k;
}

/* the tokens of the main file between two offsets */
static tokens tokens_between(rewriter *r, unsigned from, unsigned to)
{
    tokens k = {NULL, 0};
    CXSourceRange range = clang_getRange(clang_getLocationForOffset(r->tu, r->file, from), clang_getLocationForOffset(r->tu, r->file, to));
    clang_tokenize(r->tu, range, &k.t, &k.n);
    return k;
}

static int tok_is(rewriter *r, CXToken t, const char *s)
{
    CXString sp = clang_getTokenSpelling(r->tu, t);
    int eq = strcmp(clang_getCString(sp), s) == 0;
    clang_disposeString(sp);
    return eq;
}

static unsigned tok_start(rewriter *r, CXToken t) { return offset_of(clang_getTokenLocation(r->tu, t)); }
static unsigned tok_end(rewriter *r, CXToken t) { return offset_of(clang_getRangeEnd(clang_getTokenExtent(r->tu, t))); }

/* index of the token closing the bracket at k ("(" or "["), or n */
static unsigned matching(rewriter *r, tokens k, unsigned at, const char *open, const char *close)
{
    int depth = 0;
    for (unsigned i = at; i < k.n; i++) {
        if (tok_is(r, k.t[i], open)) depth++;
        else if (tok_is(r, k.t[i], close) && --depth == 0) return i;
    }
    return k.n;
}

typedef struct attr_probe {
    enum CXCursorKind kind;
    int found;
} attr_probe;

static enum CXChildVisitResult probe_attr(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    attr_probe *p = d;
    if (clang_getCursorKind(c) == p->kind) { p->found = 1; return CXChildVisit_Break; }
    return CXChildVisit_Continue;
}

static int has_attr(CXCursor c, enum CXCursorKind kind)
{
    attr_probe p = {kind, 0};
    clang_visitChildren(c, probe_attr, &p);
    return p.found;
}

static char *type_text(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    const char *cs = clang_getCString(s);
    char *out = malloc(strlen(cs) + 1);
    if (out) memcpy(out, cs, strlen(cs) + 1);
    clang_disposeString(s);
    return out;
}

/* Where the declaration of c starts, counting the words before it that clang's extent leaves out
 * (libclang's extent and attributes miss a __shared__ written before a local variable's type):
 * the text from the previous ; { or } to the name. *shared says whether __shared__ is among them. */
static unsigned decl_start(rewriter *r, CXCursor c, int *shared)
{
    unsigned at = offset_of(clang_getCursorLocation(c)), start = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
    unsigned from = at;
    while (from > 0 && !strchr(";{}", r->src[from - 1])) from--;
    *shared = 0;
    for (unsigned i = from; i + 10 <= at; i++) {
        if (memcmp(r->src + i, "__shared__", 10) == 0) { *shared = 1; if (i < start) start = i; }
        if (memcmp(r->src + i, "extern", 6) == 0 && i < start) start = i;
    }
    return start;
}

/* ---- the rewrites ---- */

/* The ladder's handle for a pointer: a kernel's parameters and variables point into global
 * memory; a helper's parameters into shared memory, volatile or not. */
static const char *ladder_handle(CXCursor c, CXType pointee, int kernel, char **pt)
{
    if (kernel || clang_getCursorKind(c) != CXCursor_ParmDecl) return "global_ptr";
    if (!clang_isVolatileQualifiedType(pointee)) return "shared_plain";
    /* shared_volatile<float> is a volatile float *: the type without its volatile */
    char *v = strstr(*pt, "volatile ");
    if (v) memmove(v, v + 9, strlen(v + 9) + 1);
    return "shared_volatile";
}

/* T *name (a parameter or a variable of device code) -> ws_ptr<T> name, or the ladder's handle */
static void rewrite_pointer(rewriter *r, CXCursor c, int kernel)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (t.kind != CXType_Pointer) return;
    CXType pointee = clang_getPointeeType(clang_getCursorType(c));
    if (clang_getCanonicalType(pointee).kind == CXType_Pointer) {
        refuse(r, c, "a pointer to a pointer in device code is not modelled: pass the buffer itself");
        return;
    }
    CXString name = clang_getCursorSpelling(c);
    int unnamed = !*clang_getCString(name);
    clang_disposeString(name);
    if (unnamed) return;
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
    unsigned at = offset_of(clang_getCursorLocation(c));
    if (at <= start) return;
    char *pt = type_text(pointee);
    if (!pt) { r->oom = 1; return; }
    const char *handle = r->ladder ? ladder_handle(c, pointee, kernel, &pt) : "ws_ptr";
    add_edit(r, start, at - start, "%s<%s> ", handle, pt);
    free(pt);
}

/* __shared__ T name[N] -> __shared__ shared_array<T, (N)> name; extern, unsized: ws_extern_shared<T> */
static void rewrite_shared(rewriter *r, CXCursor c)
{
    CXType t = clang_getCursorType(c);
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    CXString name = clang_getCursorSpelling(c);
    char nm[256];
    snprintf(nm, sizeof nm, "%s", clang_getCString(name));
    clang_disposeString(name);
    int shared_word;
    unsigned start = decl_start(r, c, &shared_word);
    tokens tk = tokens_between(r, start, offset_of(clang_getRangeEnd(clang_getCursorExtent(c))));
    unsigned at = offset_of(clang_getCursorLocation(c)), name_i = tk.n;
    for (unsigned i = 0; i < tk.n; i++)
        if (tok_start(r, tk.t[i]) == at) { name_i = i; break; }
    if (name_i == tk.n) goto done;
    if (k == CXType_ConstantArray || k == CXType_DependentSizedArray || k == CXType_IncompleteArray) {
        CXType elem = clang_getArrayElementType(t);
        if (elem.kind == CXType_Invalid) elem = clang_getElementType(t);
        enum CXTypeKind ek = clang_getCanonicalType(elem).kind;
        if (ek == CXType_ConstantArray || ek == CXType_DependentSizedArray || ek == CXType_IncompleteArray) {
            refuse(r, c, "a __shared__ array of more than one dimension is not modelled yet: declare it flat and index row * width + column");
            goto done;
        }
        unsigned open = name_i + 1;
        if (open >= tk.n || !tok_is(r, tk.t[open], "[")) goto done;
        unsigned close = matching(r, tk, open, "[", "]");
        if (close == tk.n) goto done;
        char *et = type_text(elem);
        if (!et) { r->oom = 1; goto done; }
        unsigned end = tok_end(r, tk.t[close]);
        int is_extern = strncmp(r->src + start, "extern", 6) == 0;
        if (close == open + 1 && r->ladder) {
            refuse(r, c, "the ladder's kernels size their __shared__ arrays");
        } else if (close == open + 1) {
            add_edit(r, start, end - start, "__shared__ ws_extern_shared<%s> %s", et, nm);
        } else if (is_extern && !r->ladder) {
            /* extern __shared__ T name[N], as nvcc 13 accepts it: the launch's dynamic shared
             * memory, of the launch's third parameter's bytes, or of N elements where it gives none */
            unsigned s0 = tok_end(r, tk.t[open]), s1 = tok_start(r, tk.t[close]);
            add_edit(r, start, end - start, "__shared__ ws_extern_shared<%s, (%.*s)> %s", et, (int)(s1 - s0), r->src + s0, nm);
        } else {
            unsigned s0 = tok_end(r, tk.t[open]), s1 = tok_start(r, tk.t[close]);
            add_edit(r, start, end - start, "__shared__ shared_array<%s, (%.*s)> %s", et, (int)(s1 - s0), r->src + s0, nm);
        }
        free(et);
    } else {
        /* a scalar: an array of one element, each use of it that element (its line recorded) */
        char *et = type_text(t);
        if (!et) { r->oom = 1; goto done; }
        add_edit(r, start, tok_end(r, tk.t[name_i]) - start, "__shared__ shared_array<%s, 1> %s", et, nm);
        free(et);
        if (r->nscalars < sizeof r->scalars / sizeof r->scalars[0]) r->scalars[r->nscalars++] = c;
        else refuse(r, c, "more than 64 __shared__ variables that are not arrays: gather them in an array");
    }
done:
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* __device__ T name = v; of file scope -> __device__ ws_device_var<T> name = v; each use in device
 * code then reads or writes its one element at the use's line (NAME[0]) */
static void rewrite_device_var(rewriter *r, CXCursor c)
{
    CXType t = clang_getCursorType(c);
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    if (k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_DependentSizedArray || k == CXType_Pointer) {
        refuse(r, c, "warpscope does not model a __device__ array or pointer yet: allocate the buffer with cudaMalloc and pass it to the kernel");
        return;
    }
    unsigned at = offset_of(clang_getCursorLocation(c)), from = at, dev = at;
    while (from > 0 && !strchr(";{}", r->src[from - 1])) from--;
    for (unsigned i = from; i + 10 <= at; i++)
        if (memcmp(r->src + i, "__device__", 10) == 0) { dev = i; break; }
    if (dev == at) return;
    char *tt = type_text(t);
    if (!tt) { r->oom = 1; return; }
    add_edit(r, dev, at - dev, "__device__ ws_device_var<%s> ", tt);
    free(tt);
    if (r->ndevvars < sizeof r->devvars / sizeof r->devvars[0]) r->devvars[r->ndevvars++] = c;
    else refuse(r, c, "more than 64 __device__ variables: gather them in a buffer from cudaMalloc");
}

/* reinterpret_cast<T *>(p) in device code -> ws_cast<T>(p) */
static void rewrite_cast(rewriter *r, CXCursor c)
{
    CXType to = clang_getCursorType(c);
    if (clang_getCanonicalType(to).kind != CXType_Pointer) return;
    tokens tk = tokens_of(r, c);
    unsigned close = tk.n;
    int depth = 0;
    for (unsigned i = 1; i < tk.n; i++) {
        if (tok_is(r, tk.t[i], "<")) depth++;
        else if (tok_is(r, tk.t[i], ">") && --depth == 0) { close = i; break; }
    }
    if (close < tk.n && r->ladder) {
        char *pt = type_text(clang_getPointeeType(to));
        unsigned s = tok_start(r, tk.t[0]);
        if (!pt) r->oom = 1;
        else if (strcmp(pt, "const float4") == 0) add_edit(r, s, tok_end(r, tk.t[close]) - s, "as_float4");
        else refuse(r, c, "the ladder's kernels cast only a const float * to a const float4 *");
        free(pt);
    } else if (clang_getCursorKind(c) == CXCursor_CStyleCastExpr) {
        /* (T *)x -> ws_cast<T>(x) */
        if (tk.n > 3 && !r->ladder && tok_is(r, tk.t[0], "(")) {
            unsigned rp = matching(r, tk, 0, "(", ")");
            char *pt = type_text(clang_getPointeeType(to));
            if (!pt) r->oom = 1;
            else if (rp + 1 < tk.n) {
                unsigned s = tok_start(r, tk.t[0]);
                add_edit(r, s, tok_end(r, tk.t[rp]) - s, "ws_cast<%s>(", pt);
                add_edit(r, offset_of(clang_getRangeEnd(clang_getCursorExtent(c))), 0, ")");
            }
            free(pt);
        }
    } else if (close < tk.n) {
        char *pt = type_text(clang_getPointeeType(to));
        if (pt) {
            unsigned s = tok_start(r, tk.t[0]);
            add_edit(r, s, tok_end(r, tk.t[close]) - s, "ws_cast<%s>", pt);
            free(pt);
        } else {
            r->oom = 1;
        }
    }
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* __device__ operator T *() (CUDA's SharedMemory<T>) -> operator ws_ptr<T>() */
static void rewrite_conversion(rewriter *r, CXCursor c)
{
    CXType t = clang_getCursorResultType(c);
    if (clang_getCanonicalType(t).kind != CXType_Pointer) return;
    /* from its name (the extent may open in the prelude, with __device__) */
    tokens tk = tokens_between(r, offset_of(clang_getCursorLocation(c)), offset_of(clang_getRangeEnd(clang_getCursorExtent(c))));
    unsigned op = tk.n, lp = tk.n;
    for (unsigned i = 0; i < tk.n; i++) {
        if (op == tk.n && tok_is(r, tk.t[i], "operator")) op = i;
        else if (op < tk.n && tok_is(r, tk.t[i], "(")) { lp = i; break; }
    }
    if (op + 1 < lp && lp < tk.n) {
        char *pt = type_text(clang_getPointeeType(t));
        if (!pt) r->oom = 1;
        else {
            unsigned s = tok_end(r, tk.t[op]);
            add_edit(r, s, tok_start(r, tk.t[lp]) - s, " ws_ptr<%s>", pt);
        }
        free(pt);
    }
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* every loop counts its turns: ws_tick() && (cond) */
static void tick_condition(rewriter *r, tokens tk, unsigned open, unsigned close)
{
    if (close <= open + 1) {
        add_edit(r, tok_end(r, tk.t[open]), 0, " ws_tick() ");
        return;
    }
    add_edit(r, tok_start(r, tk.t[open + 1]), 0, "ws_tick() && (");
    add_edit(r, tok_start(r, tk.t[close]), 0, ")");
}

static void rewrite_loop(rewriter *r, CXCursor c, enum CXCursorKind kind)
{
    tokens tk = tokens_of(r, c);
    if (kind == CXCursor_ForStmt && tk.n > 2 && tok_is(r, tk.t[1], "(")) {
        unsigned close = matching(r, tk, 1, "(", ")"), semi[2], ns = 0;
        int depth = 0;
        for (unsigned i = 1; i < close && ns < 2; i++) {
            if (tok_is(r, tk.t[i], "(")) depth++;
            else if (tok_is(r, tk.t[i], ")")) depth--;
            else if (depth == 1 && tok_is(r, tk.t[i], ";")) semi[ns++] = i;
        }
        if (ns == 2) tick_condition(r, tk, semi[0], semi[1]);
    } else if (kind == CXCursor_WhileStmt && tk.n > 2 && tok_is(r, tk.t[1], "(")) {
        tick_condition(r, tk, 1, matching(r, tk, 1, "(", ")"));
    } else if (kind == CXCursor_DoStmt && tk.n > 3) {
        /* the condition is the last parenthesis: find its opening from the end */
        unsigned last = tk.n - 1;
        while (last > 0 && !tok_is(r, tk.t[last], ")")) last--;
        int depth = 0;
        for (unsigned i = last + 1; i-- > 0;) {
            if (tok_is(r, tk.t[i], ")")) depth++;
            else if (tok_is(r, tk.t[i], "(") && --depth == 0) {
                tick_condition(r, tk, i, last);
                break;
            }
        }
    }
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* K<<<g, b, s, st>>>(args) -> ws_launch(K, ws_config(g, b, s, st))(args) */
static void rewrite_launch(rewriter *r, CXCursor c, int device)
{
    tokens tk = tokens_of(r, c);
    unsigned open = tk.n, close = tk.n;
    for (unsigned i = 0; i < tk.n; i++) {
        if (open == tk.n && tok_is(r, tk.t[i], "<<<")) open = i;
        else if (open < tk.n && tok_is(r, tk.t[i], ">>>")) { close = i; break; }
        else if (open == tk.n && tok_is(r, tk.t[i], "(")) break; /* the call's own arguments: not a launch */
    }
    int launch = open < tk.n && close < tk.n && open > 0;
    if (launch && device) {
        refuse(r, c, "a kernel launched from device code (dynamic parallelism) is not modelled: launch it from the host");
    } else if (launch) {
        add_edit(r, tok_start(r, tk.t[0]), 0, "ws_launch(");
        add_edit(r, tok_start(r, tk.t[open]), tok_end(r, tk.t[open]) - tok_start(r, tk.t[open]), ", ws_config(");
        add_edit(r, tok_start(r, tk.t[close]), tok_end(r, tk.t[close]) - tok_start(r, tk.t[close]), "))");
    }
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* ---- the watched register ---- */

static enum CXChildVisitResult count_vars(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_VarDecl) ++*(unsigned *)d;
    return CXChildVisit_Continue;
}

/* `float NAME ...;`, alone in its declaration, neither const nor volatile: reg<float> NAME for the
 * kernel's first (the watched register the viewer draws), reg<float, K> for a learner's K-th after
 * it (recorded for the check alone: each chain of adds, and the loads in flight of each) */
enum { WATCHED_MAX = 64 }; /* ws_cuda.h's WS_REG_ELEMS: the numbers a register's id has room for */
static int watch_register(rewriter *r, CXCursor c, CXCursor parent, unsigned slot)
{
    CXType t = clang_getCursorType(c);
    if (clang_getCanonicalType(t).kind != CXType_Float || clang_isConstQualifiedType(t) || clang_isVolatileQualifiedType(t)) return 0;
    unsigned nvars = 0;
    if (clang_getCursorKind(parent) != CXCursor_DeclStmt) return 0;
    clang_visitChildren(parent, count_vars, &nvars);
    if (nvars != 1) return 0;
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(c))), at = offset_of(clang_getCursorLocation(c));
    if (at <= start) return 0;
    tokens tk = tokens_between(r, start, at);
    unsigned before = 0;
    for (unsigned i = 0; i < tk.n; i++) before += tok_start(r, tk.t[i]) < at;
    int ok = before == 1 && tok_is(r, tk.t[0], "float");
    if (ok && slot) add_edit(r, tok_start(r, tk.t[0]), 5, "reg<float, %u>", slot);
    else if (ok) add_edit(r, tok_start(r, tk.t[0]), 5, "reg<float>");
    clang_disposeTokens(r->tu, tk.t, tk.n);
    return ok;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
}

/* a use of the variable, written in the file as its name (not through a macro) */
static int names_var(rewriter *r, CXCursor c, CXCursor var)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr || !clang_equalCursors(clang_getCursorReferenced(c), var)) return 0;
    CXString s = clang_getCursorSpelling(var);
    const char *name = clang_getCString(s);
    unsigned at = offset_of(clang_getCursorLocation(c)), len = (unsigned)strlen(name);
    int ok = len && at + len <= r->srclen && memcmp(r->src + at, name, len) == 0 &&
             (at + len == r->srclen || !(isalnum((unsigned char)r->src[at + len]) || r->src[at + len] == '_'));
    clang_disposeString(s);
    return ok;
}

/* the watched register's name at `at` is written, not read: it stays as it is (see read_register) */
static void mark_assigned(rewriter *r, unsigned at)
{
    if (r->nassigned == r->capassigned) {
        size_t cap = r->capassigned ? r->capassigned * 2 : 16;
        unsigned *a = realloc(r->assigned, cap * sizeof *a);
        if (!a) { r->oom = 1; return; }
        r->assigned = a;
        r->capassigned = cap;
    }
    r->assigned[r->nassigned++] = at;
}

/* NAME = x, NAME += x, ...: the register itself is assigned, so its name stays (see read_register) */
static void note_assignment(rewriter *r, CXCursor c, CXCursor var)
{
    static const char *const assign_ops[] = {"=", "+=", "-=", "*=", "/="};
    CXCursor lhs = clang_getNullCursor();
    clang_visitChildren(c, first_child, &lhs);
    if (!names_var(r, lhs, var)) return;
    unsigned end = offset_of(clang_getRangeEnd(clang_getCursorExtent(lhs)));
    tokens tk = tokens_of(r, c);
    int assigns = 0;
    for (unsigned i = 0; i < tk.n; i++)
        if (tok_start(r, tk.t[i]) >= end) {
            for (size_t k = 0; k < sizeof assign_ops / sizeof assign_ops[0]; k++) assigns |= tok_is(r, tk.t[i], assign_ops[k]);
            break;
        }
    clang_disposeTokens(r->tu, tk.t, tk.n);
    if (assigns) mark_assigned(r, offset_of(clang_getCursorLocation(lhs)));
}

/* NAME++, ++NAME, NAME--, --NAME: ws_step(NAME, +1 or -1, postfix), which records the value it
 * now holds at its line, as NAME += 1 would */
static void note_step(rewriter *r, CXCursor c, CXCursor var)
{
    CXCursor name = clang_getNullCursor();
    clang_visitChildren(c, first_child, &name);
    if (!names_var(r, name, var)) return;
    tokens tk = tokens_of(r, c);
    if (tk.n == 2) {
        int post = tok_is(r, tk.t[1], "++") || tok_is(r, tk.t[1], "--"), pre = tok_is(r, tk.t[0], "++") || tok_is(r, tk.t[0], "--");
        CXToken op = post ? tk.t[1] : tk.t[0];
        const char *by = tok_is(r, op, "++") ? "1" : "-1";
        unsigned at = offset_of(clang_getCursorLocation(name)), end = offset_of(clang_getRangeEnd(clang_getCursorExtent(name)));
        if (post) {
            add_edit(r, at, 0, "ws_step(");
            add_edit(r, tok_start(r, op), tok_end(r, op) - tok_start(r, op), ", %s, 1)", by);
        } else if (pre) {
            add_edit(r, tok_start(r, op), tok_end(r, op) - tok_start(r, op), "ws_step(");
            add_edit(r, end, 0, ", %s, 0)", by);
        }
        if (post || pre) mark_assigned(r, at);
    }
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* any other use reads the float it holds: NAME.v (once for every use a macro argument expands to;
 * not in a lambda's capture list, which names the variable itself) */
static void read_register(rewriter *r, CXCursor c, CXCursor var)
{
    if (!names_var(r, c, var)) return;
    unsigned at = offset_of(clang_getCursorLocation(c)), end = offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
    for (size_t i = 0; i < r->nassigned; i++)
        if (r->assigned[i] == at) return;
    for (size_t i = 0; i < r->nedits; i++)
        if (r->edits[i].first && r->edits[i].off == end) return;
    unsigned b = at;
    while (b > 0 && strchr(" \t\n", r->src[b - 1])) b--;
    if (b > 0 && (r->src[b - 1] == '[' || r->src[b - 1] == ',' || r->src[b - 1] == '&' || r->src[b - 1] == '=')) {
        unsigned e = end;
        while (e < r->srclen && strchr(" \t\n", r->src[e])) e++;
        if (e < r->srclen && (r->src[e] == ']' || r->src[e] == ',')) { /* [sum], [a, sum], [&sum]: a capture */
            unsigned k = b;
            while (k > 0 && !strchr("[;{}()", r->src[k - 1])) k--;
            if (k > 0 && r->src[k - 1] == '[') return;
        }
    }
    add_edit(r, end, 0, ".v");
    if (!r->oom) r->edits[r->nedits - 1].first = 1;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
}

/* a kernel's body opens with WS_KERNEL_ENTRY: the GPU's traced build records there where its block
 * ran and, as it leaves, its threads' end (the emulator sees both itself) */
static void open_kernel(rewriter *r, CXCursor c)
{
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(c, find_body, &body);
    if (clang_Cursor_isNull(body)) return;
    unsigned at = offset_of(clang_getRangeStart(clang_getCursorExtent(body)));
    if (at < r->srclen && r->src[at] == '{') add_edit(r, at + 1, 0, " WS_KERNEL_ENTRY ");
}

static void check_call(rewriter *r, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    for (size_t i = 0; i < sizeof refused_calls / sizeof refused_calls[0]; i++)
        if (strcmp(name, refused_calls[i].name) == 0) refuse(r, c, refused_calls[i].what);
    /* device printf becomes ws_device_printf, which keeps each thread's line in the trace */
    unsigned at = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
    if (strcmp(name, "printf") == 0 && at + 6 <= r->srclen && strncmp(r->src + at, "printf", 6) == 0)
        add_edit(r, at, 6, "ws_device_printf");
    clang_disposeString(s);
}

static void guard_division(rewriter *r, CXCursor c);

/* a variable of the host: one of file or namespace scope (or a class's static member) that is
 * neither __device__, __constant__ nor __shared__, nor const (a constant nvcc lets device code read) */
static int host_variable(CXCursor d)
{
    if (clang_getCursorKind(d) != CXCursor_VarDecl || clang_isConstQualifiedType(clang_getCursorType(d))) return 0;
    enum CXCursorKind scope = clang_getCursorKind(clang_getCursorSemanticParent(d));
    int global = scope == CXCursor_TranslationUnit || scope == CXCursor_Namespace || scope == CXCursor_StructDecl ||
                 scope == CXCursor_ClassDecl;
    if (!global || !clang_Location_isFromMainFile(clang_getCursorLocation(d))) return 0;
    return !has_attr(d, CXCursor_CUDADeviceAttr) && !has_attr(d, CXCursor_CUDAConstantAttr) && !has_attr(d, CXCursor_CUDASharedAttr);
}

typedef struct visit_ctx {
    rewriter *r;
    int device;  /* inside a __global__ or __device__ function */
    int kernel;  /* inside a __global__ function */
    unsigned watching; /* registers declared so far */
    CXCursor watched[WATCHED_MAX]; /* the kernel's watched register (0) and a learner's other floats */
} visit_ctx;

/* the register c names (its index in v->watched), or -1 */
static int watched_of(const visit_ctx *v, CXCursor c)
{
    if (!v->watching) return -1;
    CXCursor to = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(to)) return -1;
    for (unsigned i = 0; i < v->watching; i++)
        if (clang_equalCursors(to, v->watched[i])) return (int)i;
    return -1;
}

/* the register the first child of c names (the operand of ++ or the left of an assignment), or -1 */
static int watched_child(const visit_ctx *v, CXCursor c)
{
    CXCursor k = clang_getNullCursor();
    clang_visitChildren(c, first_child, &k);
    return clang_Cursor_isNull(k) || clang_getCursorKind(k) != CXCursor_DeclRefExpr ? -1 : watched_of(v, k);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d);

static void visit_inside(rewriter *r, CXCursor c, int device, int kernel)
{
    visit_ctx v = {.r = r, .device = device, .kernel = kernel};
    clang_visitChildren(c, visit, &v);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    visit_ctx *v = d;
    rewriter *r = v->r;
    if (r->failed || r->oom) return CXChildVisit_Break;
    /* the prelude's and the system headers' declarations; inside the learner's functions every
     * cursor is theirs (one starting with a macro such as __shared__ has its location there) */
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && !in_main_file(c)) return CXChildVisit_Continue;
    enum CXCursorKind kind = clang_getCursorKind(c);
    switch (kind) {
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
    case CXCursor_ConversionFunction:
    case CXCursor_CXXMethod: {
        int kernel = has_attr(c, CXCursor_CUDAGlobalAttr), device = kernel || has_attr(c, CXCursor_CUDADeviceAttr);
        if (device && kind == CXCursor_ConversionFunction && !r->ladder) rewrite_conversion(r, c);
        if (kernel && kind == CXCursor_CXXMethod) {
            refuse(r, c, "a kernel must be a free function");
            return CXChildVisit_Break;
        }
        if (kernel && !r->ladder) open_kernel(r, c);
        visit_inside(r, c, device, kernel);
        return CXChildVisit_Continue;
    }
    case CXCursor_VarDecl:
        if (has_attr(c, CXCursor_CUDAConstantAttr)) {
            refuse(r, c, "__constant__ memory is not modelled: pass the value as a kernel argument");
            return CXChildVisit_Break;
        }
        int shared_word;
        decl_start(r, c, &shared_word);
        if (shared_word) {
            rewrite_shared(r, c);
            return CXChildVisit_Continue;
        }
        if (!r->ladder && clang_getCursorKind(parent) == CXCursor_TranslationUnit && has_attr(c, CXCursor_CUDADeviceAttr)) {
            rewrite_device_var(r, c);
            return CXChildVisit_Continue;
        }
        /* what clang's CUDA analysis of the device side refuses, as nvcc does (the parse above is
         * the host side's): a static variable of a device function that is not __shared__ (the
         * emulator would have shared one array among all threads of all blocks, untraced) */
        if (v->device && !r->ladder && clang_Cursor_getStorageClass(c) == CX_SC_Static &&
            !clang_isConstQualifiedType(clang_getCursorType(c))) {
            refuse(r, c, "within a __device__ or __global__ function only __shared__ variables, or const ones, may be static, as "
                         "nvcc says: declare it __shared__ for the block's shared memory");
            return CXChildVisit_Break;
        }
        if (v->device) rewrite_pointer(r, c, v->kernel);
        /* the ladder's kernels keep their one watched register; a learner's file has every float */
        if (v->kernel && v->watching < (r->ladder ? 1u : (unsigned)WATCHED_MAX) && watch_register(r, c, parent, v->watching))
            v->watched[v->watching++] = c;
        return CXChildVisit_Recurse;
    case CXCursor_ParmDecl:
        if (v->device) rewrite_pointer(r, c, v->kernel);
        return CXChildVisit_Continue;
    case CXCursor_UnaryOperator: {
        int w = watched_child(v, c);
        if (w >= 0) note_step(r, c, v->watched[w]);
        return CXChildVisit_Recurse;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        int w = watched_child(v, c);
        if (w >= 0) note_assignment(r, c, v->watched[w]);
        if (v->device && !r->ladder) guard_division(r, c);
        return CXChildVisit_Recurse;
    }
    case CXCursor_DeclRefExpr: {
        if (v->device && !r->ladder && host_variable(clang_getCursorReferenced(c))) {
            refuse(r, c, "a host variable used in device code, which nvcc refuses (\"reference to a __host__ variable in a "
                         "__device__ function\"): make it __device__, or pass its value to the kernel as an argument");
            return CXChildVisit_Break;
        }
        int w = watched_of(v, c);
        if (w >= 0) read_register(r, c, v->watched[w]);
        for (size_t i = 0; i < r->nscalars; i++)
            if (names_var(r, c, r->scalars[i])) {
                add_edit(r, offset_of(clang_getRangeEnd(clang_getCursorExtent(c))), 0, "[0]");
                if (!r->oom) r->edits[r->nedits - 1].first = 1;
            }
        for (size_t i = 0; v->device && i < r->ndevvars; i++)
            if (names_var(r, c, r->devvars[i])) {
                add_edit(r, offset_of(clang_getRangeEnd(clang_getCursorExtent(c))), 0, "[0]");
                if (!r->oom) r->edits[r->nedits - 1].first = 1;
            }
        return CXChildVisit_Recurse;
    }
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        if (!r->ladder) rewrite_loop(r, c, kind);
        return CXChildVisit_Recurse;
    case CXCursor_CallExpr:
        if (v->device) check_call(r, c);
        if (!r->ladder) rewrite_launch(r, c, v->device);
        return CXChildVisit_Recurse;
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CStyleCastExpr:
        if (v->device) rewrite_cast(r, c);
        return CXChildVisit_Recurse;
    default:
        break;
    }
    if (v->device)
        for (size_t i = 0; i < sizeof refused_kinds / sizeof refused_kinds[0]; i++)
            if (kind == refused_kinds[i].kind) {
                refuse(r, c, refused_kinds[i].what);
                return CXChildVisit_Break;
            }
    return CXChildVisit_Recurse;
}

/* ---- the entry ---- */

/* The entry is warpscope's call into the file, written outside it (--entry, an exercise's script,
 * a class server's request) and spliced after it: after clang has parsed it, its tree must be one
 * call of a function the file defines, a host function or a launch K<<<grid, block[, shmem]>>>,
 * or several one after another (the exercises launch a kernel and then reduce its partial sums:
 * `k<<<g, b>>>(in, out, n), k<<<1, b>>>(out, out, g)`), with arguments (and template arguments and
 * launch configurations) built of in, out, n, h_in, numbers, arithmetic and comparison operators,
 * casts, sizeof and parentheses. Anything else (another function, a lambda, a string, an
 * assignment, a comma inside an argument, a name the entry does not give) is refused with its
 * column before anything is rewritten or built. The tree is read, never the text: a macro of the
 * file is judged by what it expands to. */

enum entry_mode { ENTRY_CALLS, ENTRY_ARG, ENTRY_CONFIG };

static int first_error(rewriter *r);

typedef struct entry_check {
    rewriter *r;
    unsigned open, close; /* offsets of the parentheses warpscope writes around the entry */
    unsigned file_len;    /* the learner's file: every offset below is theirs */
    /* the first of each: what is refused whatever else is wrong (another function, a lambda, a
     * string, an assignment: said before clang's own errors, which the rest may stand for); what
     * may not appear in the entry; what is in the wrong place (an operator around the call, a call
     * inside an argument) */
    char note[3][200];
    unsigned note_at[3];
    unsigned depth;
} entry_check;

enum { NOTE_SURE, NOTE_NOT_HERE, NOTE_PLACE };

typedef struct kids {
    CXCursor c[64];
    unsigned n; /* all of them, even past 64 */
} kids;

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (k->n < sizeof k->c / sizeof k->c[0]) k->c[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static kids kids_of(CXCursor c)
{
    kids k;
    k.n = 0;
    clang_visitChildren(c, collect_kid, &k);
    return k;
}

static void entry_note(entry_check *e, int level, unsigned off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void entry_note(entry_check *e, int level, unsigned off, const char *fmt, ...)
{
    if (e->note[level][0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->note[level], sizeof e->note[level], fmt, ap);
    va_end(ap);
    e->note_at[level] = off;
}
#define ENTRY_SURE(e, off, ...) entry_note(e, NOTE_SURE, off, __VA_ARGS__)
#define ENTRY_NOT_HERE(e, off, ...) entry_note(e, NOTE_NOT_HERE, off, __VA_ARGS__)
#define ENTRY_PLACE(e, off, ...) entry_note(e, NOTE_PLACE, off, __VA_ARGS__)

static unsigned cursor_off(CXCursor c) { return offset_of(clang_getCursorLocation(c)); }

/* the spelling of the first token of c (its kind where it has none) */
static void first_token(rewriter *r, CXCursor c, char *buf, size_t len)
{
    tokens tk = tokens_of(r, c);
    CXString s = tk.n ? clang_getTokenSpelling(r->tu, tk.t[0]) : clang_getCursorKindSpelling(clang_getCursorKind(c));
    snprintf(buf, len, "%.40s", clang_getCString(s));
    clang_disposeString(s);
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* the operator of a binary or unary operator: the first token outside its first operand (a
 * prefix operator: before it, a postfix one or a binary one: after it); "" when it cannot be
 * told (written through a macro) */
static void operator_of(rewriter *r, CXCursor c, CXCursor operand, char *buf, size_t len, unsigned *at)
{
    buf[0] = 0;
    CXSourceRange x = clang_getCursorExtent(operand);
    unsigned from = offset_of(clang_getRangeStart(x)), to = offset_of(clang_getRangeEnd(x));
    tokens tk = tokens_of(r, c);
    for (unsigned i = 0; i < tk.n; i++) {
        unsigned s = tok_start(r, tk.t[i]);
        if (s >= from && s < to) continue;
        CXString sp = clang_getTokenSpelling(r->tu, tk.t[i]);
        if (clang_getTokenKind(tk.t[i]) == CXToken_Punctuation) {
            snprintf(buf, len, "%s", clang_getCString(sp));
            *at = s;
        }
        clang_disposeString(sp);
        break;
    }
    clang_disposeTokens(r->tu, tk.t, tk.n);
}

/* An integer division or remainder in device code: its divisor becomes ws_divisor(DIVISOR, LINE),
 * which is the divisor (constexpr where it is constant) and, in the emulator, stops the launch at
 * the line when it is zero, as nvcc's program would compute garbage there (no trap on a GPU, but
 * SIGFPE on the CPU the emulator runs on, which named no line). Only where the expression's own
 * type is an integer (its operands converted so): float division is left as written. */
static void guard_division(rewriter *r, CXCursor c)
{
    CXType ty = clang_getCanonicalType(clang_getCursorType(c));
    if (ty.kind < CXType_Char_U || ty.kind > CXType_Int128 || ty.kind == CXType_Char16 || ty.kind == CXType_Char32 ||
        ty.kind == CXType_WChar)
        return;
    kids k = kids_of(c);
    if (k.n != 2) return;
    char op[8];
    unsigned at = 0;
    operator_of(r, c, k.c[0], op, sizeof op, &at);
    if (strcmp(op, "/") && strcmp(op, "%") && strcmp(op, "/=") && strcmp(op, "%=")) return;
    CXSourceRange x = clang_getCursorExtent(k.c[1]);
    CXSourceLocation b = clang_getRangeStart(x), e = clang_getRangeEnd(x);
    if (!clang_Location_isFromMainFile(b) || !clang_Location_isFromMainFile(e)) return;
    unsigned from = offset_of(b), to = offset_of(e), line = 0;
    if (to <= from || from <= at) return; /* written through a macro: left alone */
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    add_edit(r, from, 0, "ws_divisor(");
    add_edit(r, to, 0, ", %uu)", line);
    if (!r->oom) r->edits[r->nedits - 1].inner = 1;
}

static int one_of(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0) return 1;
    return 0;
}

/* a function the learner's file defines (not one of the prelude's or a header's) */
static int file_function(entry_check *e, CXCursor f)
{
    if (clang_getCursorKind(f) != CXCursor_FunctionDecl) return 0;
    CXCursor def = clang_getCursorDefinition(f);
    if (clang_Cursor_isNull(def) || !clang_Location_isFromMainFile(clang_getCursorLocation(def)) || cursor_off(def) >= e->file_len) return 0;
    CXString s = clang_getCursorSpelling(f);
    int op = strncmp(clang_getCString(s), "operator", 8) == 0;
    clang_disposeString(s);
    return !op;
}

/* the prelude's dim3, whose constructor a launch's <<<grid, block>>> calls */
static int dim3_constructor(entry_check *e, CXCursor f)
{
    if (clang_getCursorKind(f) != CXCursor_Constructor) return 0;
    CXCursor cls = clang_getCursorSemanticParent(f);
    CXString s = clang_getCursorSpelling(cls);
    int yes = strcmp(clang_getCString(s), "dim3") == 0 && !(clang_Location_isFromMainFile(clang_getCursorLocation(cls)) && cursor_off(cls) < e->file_len);
    clang_disposeString(s);
    return yes;
}

static CXCursor strip_unexposed(CXCursor c)
{
    while (clang_getCursorKind(c) == CXCursor_UnexposedExpr) {
        kids k = kids_of(c);
        if (k.n != 1) break;
        c = k.c[0];
    }
    return c;
}

static void entry_walk(entry_check *e, CXCursor c, enum entry_mode mode);

static void entry_kids(entry_check *e, CXCursor c, enum entry_mode mode)
{
    kids k = kids_of(c);
    if (k.n > sizeof k.c / sizeof k.c[0]) { ENTRY_NOT_HERE(e, cursor_off(c), "an expression of more than 64 parts"); return; }
    for (unsigned i = 0; i < k.n; i++) entry_walk(e, k.c[i], mode);
}

static void entry_call(entry_check *e, CXCursor c, enum entry_mode mode)
{
    rewriter *r = e->r;
    CXCursor f = clang_getCursorReferenced(c);
    kids k = kids_of(c);
    if (k.n > sizeof k.c / sizeof k.c[0]) { ENTRY_NOT_HERE(e, cursor_off(c), "a call of more than 60 arguments"); return; }
    for (unsigned i = 0; i < k.n; i++)
        if (clang_getCursorKind(strip_unexposed(k.c[i])) == CXCursor_LambdaExpr) { ENTRY_SURE(e, cursor_off(c), "a lambda"); return; }
    if (mode == ENTRY_CONFIG && dim3_constructor(e, f)) { /* <<<n / 256, 256>>>: each a dim3 */
        for (unsigned i = 0; i < k.n; i++) entry_walk(e, k.c[i], ENTRY_ARG);
        return;
    }
    CXString name = clang_getCursorSpelling(f);
    char nm[80];
    snprintf(nm, sizeof nm, "%.60s", clang_Cursor_isNull(f) ? "" : clang_getCString(name));
    clang_disposeString(name);
    if (!nm[0]) first_token(r, c, nm, sizeof nm);
    if (!file_function(e, f)) {
        if (clang_Cursor_isNull(f)) ENTRY_NOT_HERE(e, cursor_off(c), "`%s`", nm); /* not resolved: clang says why */
        else ENTRY_SURE(e, cursor_off(c), "`%s`", nm);
        entry_kids(e, c, ENTRY_ARG);
        return;
    }
    if (mode != ENTRY_CALLS) ENTRY_PLACE(e, cursor_off(c), "a call of `%s` inside an argument", nm);
    /* the callee, by its name (its template arguments are checked as arguments) */
    CXCursor callee = k.n ? strip_unexposed(k.c[0]) : clang_getNullCursor();
    if (clang_getCursorKind(callee) != CXCursor_DeclRefExpr || !clang_equalCursors(clang_getCursorReferenced(callee), f)) {
        char t[48];
        first_token(r, k.n ? k.c[0] : c, t, sizeof t);
        ENTRY_NOT_HERE(e, cursor_off(c), "`%s` (call the function by its name)", t);
        return;
    }
    entry_kids(e, callee, ENTRY_ARG);
    unsigned first_arg = 1;
    if (has_attr(f, CXCursor_CUDAGlobalAttr)) { /* K<<<grid, block, shmem>>>(args): clang calls its launch configuration */
        /* clang's name for it follows the CUDA it believes in (9.2 and later: the first; none, as
         * the parse is told: the second); both are the prelude's, never the learner's */
        static const char *const configure[] = {"__cudaPushCallConfiguration", "cudaConfigureCall"};
        CXCursor config = k.n > 1 ? k.c[1] : clang_getNullCursor();
        CXCursor push = clang_getCursorReferenced(config);
        CXString ps = clang_getCursorSpelling(push);
        int named = 0;
        for (size_t i = 0; i < sizeof configure / sizeof configure[0]; i++) named |= strcmp(clang_getCString(ps), configure[i]) == 0;
        int ok = clang_getCursorKind(config) == CXCursor_CallExpr && named &&
                 !(clang_Location_isFromMainFile(clang_getCursorLocation(push)) && cursor_off(push) < e->file_len);
        clang_disposeString(ps);
        if (!ok) { ENTRY_NOT_HERE(e, cursor_off(c), "`%s` without <<<grid, block>>>", nm); return; }
        kids ck = kids_of(config);
        for (unsigned i = 1; i < ck.n && i < sizeof ck.c / sizeof ck.c[0]; i++) entry_walk(e, ck.c[i], ENTRY_CONFIG);
        first_arg = 2;
    }
    for (unsigned i = first_arg; i < k.n; i++) entry_walk(e, k.c[i], ENTRY_ARG);
}

static void entry_walk_in(entry_check *e, CXCursor c, enum entry_mode mode);

static void entry_walk(entry_check *e, CXCursor c, enum entry_mode mode)
{
    e->depth++;
    entry_walk_in(e, c, mode);
    e->depth--;
}

static void entry_walk_in(entry_check *e, CXCursor c, enum entry_mode mode)
{
    static const char *const binary_ops[] = {"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&", "||", NULL};
    static const char *const unary_ops[] = {"-", "+", "!", "~", NULL};
    static const char *const names[] = {"in", "out", "n", "h_in", NULL};
    rewriter *r = e->r;
    if (e->note[NOTE_SURE][0]) return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    unsigned at = cursor_off(c);
    if (e->depth >= 64) { ENTRY_NOT_HERE(e, at, "an expression nested more than 64 deep"); return; }
    int written = clang_Location_isFromMainFile(clang_getCursorLocation(c)) && at > e->open && at < e->close;
    char t[48];
    kids k;
    switch (kind) {
    case CXCursor_CallExpr:
        entry_call(e, c, mode);
        return;
    case CXCursor_ParenExpr:
        entry_kids(e, c, mode);
        return;
    case CXCursor_UnexposedExpr: /* an implicit conversion, a default argument: what it holds */
        k = kids_of(c);
        if (k.n == 0 && written) {
            first_token(r, c, t, sizeof t);
            ENTRY_NOT_HERE(e, at, "`%s`", t);
        }
        entry_kids(e, c, mode);
        return;
    case CXCursor_BinaryOperator:
        k = kids_of(c);
        if (k.n != 2) break;
        operator_of(r, c, k.c[0], t, sizeof t, &at);
        if (strcmp(t, ",") == 0) { /* calls one after another; the comma operator nowhere else */
            if (mode != ENTRY_CALLS) ENTRY_PLACE(e, at, "the comma operator inside an argument");
            entry_walk(e, k.c[0], mode);
            entry_walk(e, k.c[1], mode);
            return;
        }
        if (strcmp(t, "=") == 0) ENTRY_SURE(e, at, "an assignment (`=`)");
        else if (!t[0]) ENTRY_NOT_HERE(e, at, "an operator written through a macro");
        else if (!one_of(t, binary_ops)) ENTRY_SURE(e, at, "`%s`", t);
        if (mode == ENTRY_CALLS) ENTRY_PLACE(e, at, "`%s` around the call", t);
        entry_walk(e, k.c[0], ENTRY_ARG);
        entry_walk(e, k.c[1], ENTRY_ARG);
        return;
    case CXCursor_UnaryOperator:
        k = kids_of(c);
        if (k.n != 1) break;
        operator_of(r, c, k.c[0], t, sizeof t, &at);
        if (!t[0]) { ENTRY_NOT_HERE(e, at, "an operator written through a macro"); return; }
        if (!one_of(t, unary_ops)) { ENTRY_SURE(e, at, "`%s`", t); return; }
        if (mode == ENTRY_CALLS) ENTRY_PLACE(e, at, "`%s` before the call", t);
        entry_walk(e, k.c[0], ENTRY_ARG);
        return;
    case CXCursor_CompoundAssignOperator:
        k = kids_of(c);
        if (k.n == 2) operator_of(r, c, k.c[0], t, sizeof t, &at);
        ENTRY_SURE(e, at, "an assignment (`%s`)", k.n == 2 ? t : "=");
        return;
    case CXCursor_DeclRefExpr: {
        CXCursor v = clang_getCursorReferenced(c);
        CXString s = clang_getCursorSpelling(c);
        snprintf(t, sizeof t, "%.40s", clang_getCString(s));
        clang_disposeString(s);
        /* ws_user_entry's own parameters, declared after the file */
        if (!(clang_getCursorKind(v) == CXCursor_ParmDecl && one_of(t, names) && clang_Location_isFromMainFile(clang_getCursorLocation(v)) &&
              cursor_off(v) >= e->file_len))
            ENTRY_SURE(e, at, "`%s`", t);
        else if (mode == ENTRY_CALLS)
            ENTRY_PLACE(e, at, "`%s` alone", t);
        return;
    }
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_CXXNullPtrLiteralExpr:
        if (mode == ENTRY_CALLS) {
            first_token(r, c, t, sizeof t);
            ENTRY_PLACE(e, at, "`%s` alone", t);
        }
        return;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_UnaryExpr: /* sizeof, alignof */
    case CXCursor_ConditionalOperator:
        if (mode == ENTRY_CALLS) {
            first_token(r, c, t, sizeof t);
            ENTRY_PLACE(e, at, "`%s` around the call", t);
        }
        entry_kids(e, c, mode == ENTRY_CONFIG ? ENTRY_CONFIG : ENTRY_ARG); /* <<<dim3(n / 256), 256>>> */
        return;
    case CXCursor_TypeRef: /* a type named in a cast, sizeof or a template argument */
    case CXCursor_NamespaceRef:
    case CXCursor_TemplateRef:
        return;
    case CXCursor_LambdaExpr:
        ENTRY_SURE(e, at, "a lambda");
        return;
    case CXCursor_StringLiteral:
        ENTRY_SURE(e, at, "a string literal");
        return;
    case CXCursor_CharacterLiteral:
        ENTRY_SURE(e, at, "a character literal");
        return;
    case CXCursor_ArraySubscriptExpr:
        ENTRY_SURE(e, at, "an element (`[]`)");
        return;
    case CXCursor_MemberRefExpr:
        ENTRY_SURE(e, at, "a member (`.` or `->`)");
        return;
    default:
        break;
    }
    first_token(r, c, t, sizeof t);
    ENTRY_NOT_HERE(e, at, "`%s`", t);
}

/* the child of c of the given kind, when it has exactly `count` children */
static CXCursor only_kid(CXCursor c, unsigned count, unsigned which, enum CXCursorKind kind)
{
    kids k = kids_of(c);
    if (k.n != count || which >= k.n || clang_getCursorKind(k.c[which]) != kind) return clang_getNullCursor();
    return k.c[which];
}

static enum CXChildVisitResult find_entry_decl(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *found = d;
    CXString s = clang_getCursorSpelling(c);
    int yes = clang_getCursorKind(c) == CXCursor_FunctionDecl && strcmp(clang_getCString(s), "ws_user_entry") == 0;
    clang_disposeString(s);
    if (yes) *found = c;
    return yes ? CXChildVisit_Break : CXChildVisit_Continue;
}

typedef struct after_file {
    unsigned file_len, count;
    CXCursor last;
} after_file;

static enum CXChildVisitResult count_after_file(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    after_file *a = d;
    if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) && offset_of(clang_getCursorLocation(c)) >= a->file_len) {
        a->count++;
        a->last = c;
    }
    return CXChildVisit_Continue;
}

/* 0, or -1 with the refusal (or clang's first error) in r->err */
static int check_entry(rewriter *r, const char *path, unsigned file_len, unsigned open, unsigned close)
{
    entry_check e = {.r = r, .open = open, .close = close, .file_len = file_len};
    /* what follows the file is warpscope's declaration of ws_user_entry, alone: the entry has
     * neither closed it early nor added another */
    after_file a = {file_len, 0, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), count_after_file, &a);
    CXCursor fn = clang_getNullCursor();
    if (a.count == 1) clang_visitChildren(a.last, find_entry_decl, &fn);
    CXCursor body = clang_getNullCursor();
    if (!clang_Cursor_isNull(fn)) clang_visitChildren(fn, find_body, &body);
    kids bk = clang_Cursor_isNull(body) ? (kids){.n = 0} : kids_of(body);
    CXCursor lambda = clang_getNullCursor(), paren = clang_getNullCursor();
    if (bk.n > 0 && clang_getCursorKind(bk.c[0]) == CXCursor_CallExpr) {
        kids ck = kids_of(bk.c[0]);
        for (unsigned i = 0; i < ck.n && i < sizeof ck.c / sizeof ck.c[0]; i++)
            if (clang_getCursorKind(ck.c[i]) == CXCursor_LambdaExpr) lambda = ck.c[i];
    }
    if (!clang_Cursor_isNull(lambda)) {
        CXCursor ret = only_kid(only_kid(lambda, 1, 0, CXCursor_CompoundStmt), 1, 0, CXCursor_ReturnStmt);
        kids rk = clang_Cursor_isNull(ret) ? (kids){.n = 0} : kids_of(ret);
        if (rk.n == 1) paren = strip_unexposed(rk.c[0]);
    }
    CXSourceRange x = clang_getCursorExtent(paren);
    if (clang_getCursorKind(paren) != CXCursor_ParenExpr || offset_of(clang_getRangeStart(x)) != open ||
        offset_of(clang_getRangeEnd(x)) != close + 1) {
        /* the first thing past the expression the entry's parentheses should hold */
        unsigned end = clang_getCursorKind(paren) == CXCursor_ParenExpr ? offset_of(clang_getRangeEnd(x)) : open + 1;
        if (end <= open || end >= close) end = open + 1;
        ENTRY_NOT_HERE(&e, end, "anything after the call's closing parenthesis");
    }
    /* _Pragma leaves nothing in the tree: read the entry's tokens for it */
    tokens tk = tokens_between(r, open + 1, close);
    for (unsigned i = 0; i < tk.n; i++)
        if (tok_is(r, tk.t[i], "_Pragma") || tok_is(r, tk.t[i], "__pragma")) ENTRY_SURE(&e, tok_start(r, tk.t[i]), "`_Pragma`");
    clang_disposeTokens(r->tu, tk.t, tk.n);
    if (!e.note[NOTE_SURE][0]) {
        kids pk = kids_of(paren);
        if (pk.n == 1) entry_walk(&e, pk.c[0], ENTRY_CALLS);
        else ENTRY_NOT_HERE(&e, open + 1, "an empty entry");
    }
    int level = NOTE_SURE;
    while (level <= NOTE_PLACE && !e.note[level][0]) level++;
    if (level > NOTE_PLACE) return 0;
    /* clang's own error first, unless the entry holds what is refused whatever it meant */
    if (level != NOTE_SURE && first_error(r)) return -1;
    unsigned at = e.note_at[level], col = at > open && at < close ? at - open : 1;
    snprintf(r->err, r->errlen, "--entry:1:%u: error: only calls of functions of %s, with in, out, n, h_in and numbers; %s is not allowed here",
             col, path, e.note[level]);
    r->failed = 1;
    return -1;
}

/* ---- applying the edits ---- */

static int by_offset(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->off != y->off) return x->off < y->off ? -1 : 1;
    /* at one offset: insertions first, those that bind to the text before them first of all, then
     * in the order they were made */
    if ((x->len == 0) != (y->len == 0)) return x->len == 0 ? -1 : 1;
    if (x->first != y->first) return x->first ? -1 : 1;
    if (x->inner != y->inner) return x->inner ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static size_t count_newlines(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += s[i] == '\n';
    return k;
}

static char *apply_edits(rewriter *r, const char *head)
{
    qsort(r->edits, r->nedits, sizeof *r->edits, by_offset);
    size_t cap = strlen(head) + r->srclen + 1;
    for (size_t i = 0; i < r->nedits; i++) cap += strlen(r->edits[i].text) + r->edits[i].len + 1;
    char *out = malloc(cap), *o = out;
    if (!out) return NULL;
    o += sprintf(o, "%s", head);
    size_t at = 0;
    for (size_t i = 0; i < r->nedits; i++) {
        const edit *e = &r->edits[i];
        if (e->off < at || e->off + e->len > r->srclen) continue; /* inside an earlier replacement */
        memcpy(o, r->src + at, e->off - at);
        o += e->off - at;
        size_t tl = strlen(e->text);
        memcpy(o, e->text, tl);
        o += tl;
        for (size_t k = count_newlines(r->src + e->off, e->len); k > count_newlines(e->text, tl); k--) *o++ = '\n';
        at = e->off + e->len;
    }
    memcpy(o, r->src + at, r->srclen - at);
    o += r->srclen - at;
    *o = 0;
    return out;
}

/* s as the inside of a C string literal: a backslash and a quote escaped, and every byte that is
 * not printable ASCII (a newline, a control byte, each byte of UTF-8) as a three-digit octal
 * escape, which the compiler turns back into the same bytes; a question mark too, so that no
 * trigraph (??/ is a backslash where trigraphs are on) is left (malloc'd; NULL without memory) */
static char *c_string_literal(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(4 * n + 1), *o = out;
    if (!out) return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\' || *p == '"') {
            *o++ = '\\';
            *o++ = (char)*p;
        } else if (*p < 0x20 || *p >= 0x7f || *p == '?') {
            o += sprintf(o, "\\%03o", *p);
        } else {
            *o++ = (char)*p;
        }
    }
    *o = 0;
    return out;
}

/* ---- parsing ---- */

/* ---- a fragment: a few lines of a kernel, a command or a program's output, not a file to run ---- */

static int accepted_error(CXDiagnostic dg);

typedef struct defs_count {
    unsigned file_len, count, kernels;
} defs_count;

/* the functions the learner's file defines, in namespaces, classes and extern "C" blocks too */
static enum CXChildVisitResult count_defs(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    defs_count *k = d;
    CXSourceLocation l = clang_getCursorLocation(c);
    if (!clang_Location_isFromMainFile(l) || offset_of(l) >= k->file_len) return CXChildVisit_Continue;
    switch (clang_getCursorKind(c)) {
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
    case CXCursor_CXXMethod:
    case CXCursor_ConversionFunction:
    case CXCursor_Constructor:
        if (clang_isCursorDefinition(c)) {
            k->count++;
            k->kernels += (unsigned)has_attr(c, CXCursor_CUDAGlobalAttr);
        }
        return CXChildVisit_Continue;
    case CXCursor_Namespace:
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_LinkageSpec:
    case CXCursor_UnexposedDecl:
        return CXChildVisit_Recurse;
    default:
        return CXChildVisit_Continue;
    }
}

/* 1 when the file is a fragment: it defines no function, clang stops at its very first
 * character, or it is host code alone that clang stops in (a snippet that launches a kernel of
 * another block); the one line says so, with clang's first word on it */
static int fragment(rewriter *r, unsigned file_len)
{
    defs_count k = {file_len, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), count_defs, &k);
    int at_start = 0;
    char first[300] = "";
    unsigned n = clang_getNumDiagnostics(r->tu);
    for (unsigned i = 0; i < n && !first[0]; i++) {
        CXDiagnostic dg = clang_getDiagnostic(r->tu, i);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error && !accepted_error(dg)) {
            CXFile f;
            unsigned line, col;
            clang_getSpellingLocation(clang_getDiagnosticLocation(dg), &f, &line, &col, NULL);
            CXString sp = clang_getDiagnosticSpelling(dg);
            snprintf(first, sizeof first, "%u:%u: %s", line, col, clang_getCString(sp));
            clang_disposeString(sp);
            at_start = f && clang_File_isEqual(f, r->file) && line == 1 && col == 1;
        }
        clang_disposeDiagnostic(dg);
    }
    if (k.count > 0 && !at_start && (k.kernels > 0 || !first[0])) return 0;
    snprintf(r->err, r->errlen,
             "%s: a fragment, not a whole kernel file: %s (a few lines of a kernel, a command or a program's output); "
             "put it in a kernel of its own to run it%s%s%s",
             r->path, !k.count ? "it defines no function" : at_start ? "it is not C++ from its first line"
                                                        : "it is host code that defines no kernel and does not compile alone",
             first[0] ? " (clang: " : "", first, first[0] ? ")" : "");
    r->failed = 1;
    return 1;
}

/* clang refuses what nvcc accepts: `extern __shared__ float s[N]` (nvcc 13 takes it as the launch's
 * dynamic shared memory; rewrite_shared does too) */
static int accepted_error(CXDiagnostic dg)
{
    CXString s = clang_getDiagnosticSpelling(dg);
    const char *m = clang_getCString(s);
    size_t n = strlen(m), k = strlen("' cannot be 'extern'");
    int yes = strncmp(m, "__shared__ variable '", 21) == 0 && n > k && strcmp(m + n - k, "' cannot be 'extern'") == 0;
    clang_disposeString(s);
    return yes;
}

static int first_error(rewriter *r)
{
    unsigned n = clang_getNumDiagnostics(r->tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic dg = clang_getDiagnostic(r->tu, i);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error && !accepted_error(dg)) {
            char w[600];
            where(clang_getDiagnosticLocation(dg), w, sizeof w, r->path);
            CXString s = clang_getDiagnosticSpelling(dg);
            if (strncmp(w, "--entry", 7) == 0) /* the call warpscope makes, not a line of the file: say which it is */
                snprintf(r->err, r->errlen, "%s: the entry cannot call into this file (%s): is the function it names defined there?",
                         r->path, clang_getCString(s));
            else {
                char named[400];
                if (unmodelled_words(clang_getCString(s), named, sizeof named))
                    snprintf(r->err, r->errlen, "%s: error: %s", w, named);
                else
                    snprintf(r->err, r->errlen, "%s: error: %s", w, clang_getCString(s));
            }
            clang_disposeString(s);
            clang_disposeDiagnostic(dg);
            return -1;
        }
        clang_disposeDiagnostic(dg);
    }
    return 0;
}

/* ---- nvcc's two passes ---- */

typedef struct line_span {
    unsigned first, last;
} line_span;

typedef struct device_bodies {
    line_span *s;
    size_t n, cap;
    int oom;
} device_bodies;

/* the lines of every function device code runs (__global__, __device__), namespaces included */
static enum CXChildVisitResult find_device_bodies(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    device_bodies *b = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        clang_visitChildren(c, find_device_bodies, d);
        return CXChildVisit_Continue;
    }
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) return CXChildVisit_Continue;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    if (!has_attr(c, CXCursor_CUDAGlobalAttr) && !has_attr(c, CXCursor_CUDADeviceAttr)) return CXChildVisit_Continue;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        line_span *p = realloc(b->s, cap * sizeof *p);
        if (!p) { b->oom = 1; return CXChildVisit_Break; }
        b->s = p, b->cap = cap;
    }
    CXSourceRange x = clang_getCursorExtent(c);
    unsigned l0, l1;
    clang_getSpellingLocation(clang_getRangeStart(x), NULL, &l0, NULL, NULL);
    clang_getSpellingLocation(clang_getRangeEnd(x), NULL, &l1, NULL, NULL);
    b->s[b->n++] = (line_span){l0, l1};
    return CXChildVisit_Continue;
}

static void range_lines(CXSourceRange x, unsigned *first, unsigned *last)
{
    clang_getSpellingLocation(clang_getRangeStart(x), NULL, first, NULL, NULL);
    clang_getSpellingLocation(clang_getRangeEnd(x), NULL, last, NULL, NULL);
}

/* whether __CUDA_ARCH__ is named in the text the parse read: the file, what it includes (a header
 * may define a macro on it) and the --define values. Only then can the passes differ. */
typedef struct arch_probe {
    CXTranslationUnit tu;
    int found;
} arch_probe;

static void probe_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack, (void)depth;
    arch_probe *p = d;
    size_t size = 0;
    const char *text = p->found ? NULL : clang_getFileContents(p->tu, f, &size);
    for (size_t i = 0; text && !p->found && i + 13 <= size; i++) p->found = text[i] == '_' && memcmp(text + i, "__CUDA_ARCH__", 13) == 0;
}

static int names_cuda_arch(CXTranslationUnit tu, const char *src, const char *const *defines)
{
    if (strstr(src, "__CUDA_ARCH__")) return 1;
    for (int i = 0; defines && defines[i]; i++)
        if (strstr(defines[i], "__CUDA_ARCH__")) return 1;
    arch_probe p = {tu, 0};
    clang_getInclusions(tu, probe_inclusion, &p);
    return p.found;
}

/* What nvcc's device pass (__CUDA_ARCH__ defined) leaves out of a device function and the host's
 * parse keeps (a barrier under #ifndef __CUDA_ARCH__) is left out of the emulator's build too: the
 * lines between such a conditional's directives are blanked in src (each newline kept, so every
 * line keeps its number and every offset its place). The number of lines blanked, or -1 when the
 * device parse could not be made. */
static int drop_host_only_device_code(CXIndex idx, CXTranslationUnit host, const char *main_name, char *src, const char *const *args,
                                      int na, struct CXUnsavedFile *files, unsigned nfiles)
{
    device_bodies b = {0};
    clang_visitChildren(clang_getTranslationUnitCursor(host), find_device_bodies, &b);
    if (b.oom) { free(b.s); return -1; }
    if (!b.n) { free(b.s); return 0; } /* no device code: nothing to tell apart */
    const char *dargs[64];
    for (int i = 0; i < na && i < 64; i++) dargs[i] = strcmp(args[i], "--cuda-host-only") ? args[i] : "--cuda-device-only";
    /* the conditionals each pass skipped: the preprocessing record of a parse that skips the
     * functions' bodies (the preprocessor still reads them) */
    enum { PP = CXTranslationUnit_KeepGoing | CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_DetailedPreprocessingRecord };
    CXTranslationUnit dev = NULL, hpp = NULL;
    if (clang_parseTranslationUnit2(idx, main_name, dargs, na, files, nfiles, PP, &dev) != CXError_Success || !dev) {
        free(b.s);
        return -1;
    }
    CXSourceRangeList *ds = clang_getSkippedRanges(dev, clang_getFile(dev, main_name)), *hs = NULL;
    int blanked = 0, candidates = 0;
    for (unsigned i = 0; ds && i < ds->count; i++) {
        unsigned a, z;
        range_lines(ds->ranges[i], &a, &z);
        for (size_t j = 0; j < b.n; j++) candidates += b.s[j].first < a && z < b.s[j].last && z >= a + 2;
    }
    (void)host;
    if (candidates) { /* only then is the host's record wanted: most kernels hold no conditional */
        if (clang_parseTranslationUnit2(idx, main_name, args, na, files, nfiles, PP, &hpp) != CXError_Success || !hpp) {
            clang_disposeSourceRangeList(ds);
            clang_disposeTranslationUnit(dev);
            free(b.s);
            return -1;
        }
        hs = clang_getSkippedRanges(hpp, clang_getFile(hpp, main_name));
    }
    for (unsigned i = 0; candidates && ds && i < ds->count; i++) {
        unsigned a, z;
        range_lines(ds->ranges[i], &a, &z);
        int in_host = 0, in_device_code = 0;
        for (unsigned j = 0; hs && j < hs->count && !in_host; j++) {
            unsigned ha, hz;
            range_lines(hs->ranges[j], &ha, &hz);
            /* skipped by the host too; or one branch of a conditional whose other branch only the
             * device pass reads (#if __CUDA_ARCH__ >= 300 ... #else ... #endif): the host's view of
             * it stays, as before, since the device's branch has no host parse to rewrite */
            in_host = (ha <= a && z <= hz) || ha == z || hz == a;
        }
        for (size_t j = 0; j < b.n && !in_device_code; j++) in_device_code = b.s[j].first < a && z < b.s[j].last;
        if (in_host || !in_device_code || z < a + 2) continue;
        /* the lines strictly between the directives */
        unsigned line = 1;
        for (char *p = src; *p; p++) {
            if (*p == '\n') { line++; continue; }
            if (line > a && line < z) *p = ' ', blanked = 1;
        }
    }
    if (hpp) clang_disposeTranslationUnit(hpp);
    clang_disposeSourceRangeList(hs);
    clang_disposeSourceRangeList(ds);
    clang_disposeTranslationUnit(dev);
    free(b.s);
    return blanked;
}

/* ---- the event sites (frontend.h) ---- */

enum {
    SITE_DATA = 1u << TRACE_SHARED_LOAD | 1u << TRACE_SHARED_STORE | 1u << TRACE_GLOBAL_LOAD | 1u << TRACE_GLOBAL_STORE |
                1u << TRACE_REGISTER,
    SITE_CALL = (1u << TRACE_KIND_COUNT) - 1,
    SITE_SPAN_MAX = 4096 /* lines one expression may mark (a macro's or a lambda's) */
};

/* what a call of CUDA's own names may record (by the name's start); any other call (the file's own
 * functions, cooperative groups' members) may record every kind */
static const struct {
    const char *prefix;
    unsigned mask;
} site_calls[] = {
    {"__syncthreads", 1u << TRACE_BARRIER},
    {"__syncwarp", 1u << TRACE_WARP_SYNC},
    {"__threadfence", 1u << TRACE_FENCE},
    {"__shfl", 1u << TRACE_SHUFFLE},
    {"atomic", 1u << TRACE_GLOBAL_ATOMIC | SITE_DATA},
    {"printf", 1u << TRACE_PRINTF},
};

typedef struct site { unsigned line, mask; } site;

typedef struct site_set {
    site *s;
    size_t n, cap;
    int oom;
    const char *dir; /* the learner's folder: device code of its own headers counts too */
} site_set;

static void site_add(site_set *ss, unsigned line, unsigned mask)
{
    if (ss->oom) return;
    if (ss->n && ss->s[ss->n - 1].line == line) { ss->s[ss->n - 1].mask |= mask; return; }
    if (ss->n == ss->cap) {
        size_t cap = ss->cap ? ss->cap * 2 : 256;
        site *g = realloc(ss->s, cap * sizeof *g);
        if (!g) { ss->oom = 1; return; }
        ss->s = g, ss->cap = cap;
    }
    ss->s[ss->n++] = (site){line, mask};
}

/* the file's own text: the main file, or a file of the learner's folder (not a system header) */
static int learners_text(site_set *ss, CXSourceLocation l)
{
    if (clang_Location_isInSystemHeader(l)) return 0;
    if (clang_Location_isFromMainFile(l)) return 1;
    if (!ss->dir || !*ss->dir) return 0;
    CXFile f;
    clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
    if (!f) return 0;
    CXString name = clang_getFileName(f);
    const char *n = clang_getCString(name);
    size_t dl = strlen(ss->dir);
    int ours = n && strncmp(n, ss->dir, dl) == 0 && n[dl] == '/';
    clang_disposeString(name);
    return ours;
}

static void site_mark(site_set *ss, CXCursor c, unsigned mask)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXSourceLocation a = clang_getRangeStart(r), b = clang_getRangeEnd(r);
    if (!learners_text(ss, a)) return;
    unsigned la, lb;
    clang_getPresumedLocation(a, NULL, &la, NULL);
    clang_getPresumedLocation(b, NULL, &lb, NULL);
    if (lb < la || lb - la > SITE_SPAN_MAX) lb = la; /* a #line inside it: its first line */
    for (unsigned l = la; l <= lb; l++) site_add(ss, l, mask);
}

static enum CXChildVisitResult site_in_device(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    site_set *ss = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        unsigned mask = SITE_CALL;
        CXString name = clang_getCursorSpelling(c);
        const char *n = clang_getCString(name);
        for (size_t i = 0; n && i < sizeof site_calls / sizeof site_calls[0]; i++)
            if (strncmp(n, site_calls[i].prefix, strlen(site_calls[i].prefix)) == 0) mask = site_calls[i].mask | SITE_DATA;
        clang_disposeString(name);
        site_mark(ss, c, mask);
    }
    else if (clang_isExpression(k) || k == CXCursor_VarDecl) site_mark(ss, c, SITE_DATA);
    return CXChildVisit_Recurse;
}

static int is_function(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult site_find_device(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    site_set *ss = d;
    if (!learners_text(ss, clang_getCursorLocation(c))) return CXChildVisit_Continue;
    if (is_function(clang_getCursorKind(c))) {
        if (has_attr(c, CXCursor_CUDAGlobalAttr) || has_attr(c, CXCursor_CUDADeviceAttr)) clang_visitChildren(c, site_in_device, ss);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

static int by_line(const void *a, const void *b)
{
    unsigned x = ((const site *)a)->line, y = ((const site *)b)->line;
    return (x > y) - (x < y);
}

/* the sites as text (frontend.h), or NULL when out of memory */
static char *sites_text(CXTranslationUnit tu, const char *dir)
{
    site_set ss = {.dir = dir};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), site_find_device, &ss);
    if (ss.oom) { free(ss.s); return NULL; }
    if (ss.n) qsort(ss.s, ss.n, sizeof *ss.s, by_line);
    char *t = malloc(ss.n * 24 + 1);
    size_t at = 0;
    for (size_t i = 0; t && i < ss.n; i++) {
        unsigned mask = ss.s[i].mask;
        while (i + 1 < ss.n && ss.s[i + 1].line == ss.s[i].line) mask |= ss.s[++i].mask;
        at += (size_t)sprintf(t + at, "%u %u\n", ss.s[i].line, mask);
    }
    if (t) t[at] = 0;
    free(ss.s);
    return t;
}

/* ---- the learner's own included files ---- */

/* The files of the learner's folder that its text includes (`#include "NAME"`, NAME beside it, as
 * the build takes them: build.c) are read into the text in place of their #include lines, each
 * between #line directives that keep its own name and lines (and the includer's after it), once
 * each (a second #include of one is left empty, as #pragma once and include guards make it): so
 * that their device code is rewritten and traced as the file's is, and the entry may call their
 * functions (NVIDIA's reduce<T> of reduction_kernel.cu). A line-based look, as build.c's. */
enum { INLINE_DEPTH_MAX = 8, INLINE_BYTES_MAX = 8 << 20 };

typedef struct inliner {
    const char *dir;
    char *out;
    size_t len, cap;
    char seen[64][256];
    size_t nseen;
    int oom, big;
} inliner;

static void put(inliner *in, const char *p, size_t n)
{
    if (in->oom || in->big) return;
    if (in->len + n + 1 > INLINE_BYTES_MAX) { in->big = 1; return; }
    if (in->len + n + 1 > in->cap) {
        size_t cap = (in->len + n + 1) * 2;
        char *g = realloc(in->out, cap);
        if (!g) { in->oom = 1; return; }
        in->out = g, in->cap = cap;
    }
    memcpy(in->out + in->len, p, n);
    in->len += n;
    in->out[in->len] = 0;
}

static void put_line_directive(inliner *in, unsigned line, const char *name)
{
    char *lit = c_string_literal(name);
    if (!lit) { in->oom = 1; return; }
    char head[32];
    snprintf(head, sizeof head, "#line %u \"", line);
    put(in, head, strlen(head));
    put(in, lit, strlen(lit));
    put(in, "\"\n", 2);
    free(lit);
}

/* NAME of a line `#include "NAME"` (no '/'), or 0 */
static int included_name(const char *t, size_t e, char *name, size_t len)
{
    size_t k = 0;
    while (k < e && (t[k] == ' ' || t[k] == '\t')) k++;
    if (k >= e || t[k] != '#') return 0;
    k++;
    while (k < e && (t[k] == ' ' || t[k] == '\t')) k++;
    if (e - k < 8 || strncmp(t + k, "include", 7) != 0) return 0;
    k += 7;
    while (k < e && (t[k] == ' ' || t[k] == '\t')) k++;
    if (k >= e || t[k] != '"') return 0;
    size_t from = ++k;
    while (k < e && t[k] != '"' && t[k] != '/') k++;
    if (k >= e || t[k] != '"' || k == from || k - from >= len) return 0;
    snprintf(name, len, "%.*s", (int)(k - from), t + from);
    return 1;
}

static void inline_text(inliner *in, const char *text, size_t len, const char *name, int depth)
{
    unsigned line = 1;
    for (size_t i = 0; i < len && !in->oom && !in->big; line++) {
        size_t e = i;
        while (e < len && text[e] != '\n') e++;
        char inc[256], path[4400];
        char *body = NULL;
        size_t blen = 0;
        int take = in->dir && depth < INLINE_DEPTH_MAX && included_name(text + i, e - i, inc, sizeof inc);
        if (take) {
            snprintf(path, sizeof path, "%s/%s", in->dir, inc);
            struct stat st;
            take = lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= INLINE_BYTES_MAX;
        }
        if (take) {
            int again = 0;
            for (size_t k = 0; k < in->nseen; k++) again |= strcmp(in->seen[k], inc) == 0;
            if (!again && in->nseen < sizeof in->seen / sizeof in->seen[0]) {
                FILE *f = fopen(path, "rb");
                if (f) {
                    body = malloc(INLINE_BYTES_MAX + 1);
                    if (body) blen = fread(body, 1, INLINE_BYTES_MAX, f);
                    fclose(f);
                }
                if (!body) take = 0;
                else snprintf(in->seen[in->nseen++], sizeof in->seen[0], "%s", inc);
            }
        }
        if (!take) put(in, text + i, e - i);
        else if (body) {
            put(in, "\n", 1);
            put_line_directive(in, 1, inc);
            inline_text(in, body, blen, inc, depth + 1);
            if (in->len && in->out[in->len - 1] != '\n') put(in, "\n", 1);
            put_line_directive(in, line + 1, name);
            free(body);
            i = e + 1;
            continue;
        } /* else: included before, left empty */
        if (e < len) put(in, "\n", 1);
        i = e + 1;
    }
}

int frontend_rewrite(const frontend_input *in, char **out, char *err, size_t errlen)
{
    *out = NULL;
    const char *entry = in->entry && *in->entry ? in->entry : "0";
    /* one line: a newline would let it open a preprocessor directive, which no tree shows */
    for (const unsigned char *p = (const unsigned char *)entry; *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            snprintf(err, errlen, "--entry:1:%u: error: the entry is one line of a call: a control character (0x%02x) is not allowed here",
                     (unsigned)(p - (const unsigned char *)entry) + 1, *p);
            return -1;
        }
    frontend_input whole = *in; /* the file with its own folder's included files read in */
    inliner il = {.dir = in->ladder ? NULL : in->dir};
    inline_text(&il, in->text, strnlen(in->text, in->len), in->path, 0);
    if (il.oom || il.big) {
        free(il.out);
        snprintf(err, errlen, il.big ? "%s: with the files it includes, over %d MiB" : "out of memory reading %s", in->path, INLINE_BYTES_MAX >> 20);
        return -1;
    }
    char *whole_text = il.out;
    whole.text = il.out ? il.out : "";
    whole.len = il.len;
    in = &whole;
    size_t srclen = in->len + strlen(entry_head) + strlen(entry) + strlen(entry_tail) + 8;
    char *src = malloc(srclen);
    if (!src) { free(whole_text); snprintf(err, errlen, "out of memory reading %s", in->path); return -1; }
    /* the ladder's files are kernels alone; a learner's file gets the entry warpscope calls */
    int n = in->ladder ? snprintf(src, srclen, "%.*s", (int)in->len, in->text)
                       : snprintf(src, srclen, "%.*s%s%s%s", (int)in->len, in->text, entry_head, entry, entry_tail);
    rewriter r = {.path = in->path, .src = src, .srclen = (size_t)n, .err = err, .errlen = errlen, .ladder = in->ladder};

    /* the learner's file is parsed under a fixed name, so that every location is in the main file */
    const char *main_name = "/warpscope-parse/learner.cu";
    struct CXUnsavedFile files[2] = {{main_name, src, (unsigned long)n}, {"/warpscope-parse/prelude.h", parse_prelude, sizeof parse_prelude - 1}};
    char inc[4200];
    snprintf(inc, sizeof inc, "-I%s", in->include_dir ? in->include_dir : ".");
    /* the parse is the same with or without a CUDA toolkit on the machine: clang is told of none */
    const char *args[64] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
                            "-Wno-unknown-cuda-version", "-include", "/warpscope-parse/prelude.h", inc, "--cuda-path=/nonexistent"};
    int na = 11;
    char quote[4200];
    if (in->dir) { /* parsed under a fixed name: #include "x.h" finds the files beside the real one */
        snprintf(quote, sizeof quote, "-iquote%s", in->dir);
        args[na++] = quote;
    }
    char defs[48][260]; /* warpscope passes at most 48, each under 256 bytes (build.c) */
    for (int i = 0; in->defines && in->defines[i] && i < 48; i++) {
        snprintf(defs[i], sizeof defs[i], "-D%s", in->defines[i]);
        args[na++] = defs[i];
    }
    CXIndex idx = clang_createIndex(0, 0);
    int rc = -1;
    enum CXErrorCode ec = clang_parseTranslationUnit2(idx, main_name, args, na, files, 2, CXTranslationUnit_KeepGoing, &r.tu);
    if (ec != CXError_Success || !r.tu) {
        snprintf(err, errlen, "%s: clang could not read it (error %d)", in->path, (int)ec);
        goto done;
    }
    if (!in->ladder && names_cuda_arch(r.tu, src, in->defines)) { /* nvcc's device pass: what it leaves out, left out, and parsed again */
        int dropped = drop_host_only_device_code(idx, r.tu, main_name, src, args, na, files, 2);
        if (dropped > 0) {
            clang_disposeTranslationUnit(r.tu);
            r.tu = NULL;
            ec = clang_parseTranslationUnit2(idx, main_name, args, na, files, 2, CXTranslationUnit_KeepGoing, &r.tu);
            if (ec != CXError_Success || !r.tu) {
                snprintf(err, errlen, "%s: clang could not read it (error %d)", in->path, (int)ec);
                goto done;
            }
        }
    }
    r.file = clang_getFile(r.tu, main_name);
    if (!in->ladder && fragment(&r, (unsigned)strnlen(in->text, in->len))) goto done;
    if (!in->ladder && in->entry && *in->entry) { /* before clang's errors: see check_entry */
        unsigned file_len = (unsigned)strnlen(in->text, in->len), open = file_len + (unsigned)strlen(entry_head) - 1;
        if (check_entry(&r, in->path, file_len, open, open + 1 + (unsigned)strlen(entry))) goto done;
    }
    if (first_error(&r)) goto done;
    visit_ctx v = {.r = &r};
    clang_visitChildren(clang_getTranslationUnitCursor(r.tu), visit, &v);
    if (r.oom) { snprintf(err, errlen, "out of memory rewriting %s", in->path); goto done; }
    if (r.failed) goto done;
    /* the path is the learner's bytes: written as a C string literal, so that nothing in it is
     * read as code and the compiler's messages still name it */
    char *lit = c_string_literal(in->path);
    /* a learner's file is built as CUDA sees it, whichever compiler builds it: __CUDACC__ defined
     * (clang -x cuda and nvcc define it, and the parse above had it), and none of the macros that
     * chose warpscope's build of its headers left for the file to test */
    static const char learner_head[] = "#include \"trace/capture/ws_cuda.h\"\n"
                                       "#undef WS_EMU\n#undef WS_USER\n#undef WS_GPU_TRACE\n"
                                       "#ifndef __CUDACC__\n#define __CUDACC__ 1\n#endif\n";
    char *head = lit ? malloc(strlen(lit) + sizeof learner_head + 64) : NULL;
    if (head) sprintf(head, "%s#line 1 \"%s\"\n", in->ladder ? "" : learner_head, lit);
    free(lit);
    if (!head || !(*out = apply_edits(&r, head))) { free(head); snprintf(err, errlen, "out of memory rewriting %s", in->path); goto done; }
    free(head);
    if (in->sites && !(*in->sites = sites_text(r.tu, in->dir))) {
        free(*out);
        *out = NULL;
        snprintf(err, errlen, "out of memory rewriting %s", in->path);
        goto done;
    }
    rc = 0;
done:
    for (size_t i = 0; i < r.nedits; i++) free(r.edits[i].text);
    free(r.edits);
    free(r.assigned);
    if (r.tu) clang_disposeTranslationUnit(r.tu);
    clang_disposeIndex(idx);
    free(src);
    free(whole_text);
    return rc;
}
