// own_gpu: a learner's own CUDA file on the GPU (own.h). nvcc builds the front end's rewrite
// against ws_user_gpu.h, traced for a capture or plain for the benchmark, and the runtime its host
// code calls (ws_user_gpu_api.h) is here: the buffers its cudaMalloc gets, its copies checked
// against them, and its launches (each traced launch a pass of the trace, each timed one between
// two CUDA events). One run at a time, in `run`; an error leaves the learner's code by longjmp with
// the message at the learner's line, as the emulator's runs do (own.c).
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "trace/capture/capture_gpu.h"
#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"
#include "trace/capture/own/ws_user_gpu_api.h"
#include "trace/ladder.h"

static const unsigned OWN_GPU_SECONDS = 120;               // a traced run longer than this is stopped
static const unsigned OWN_GPU_BENCH_SECONDS = 3600;        // CPU time of a benchmark's child (it spins while the GPU works)
static const unsigned long long OWN_GPU_HOST_TURNS = 1ull << 32; // turns of the host code's loops
static const unsigned OWN_GPU_TIMED_LAUNCHES = 1u << 16;   // launches one timed run may make

namespace {
struct own_gpu_run {
    const char *path = nullptr;
    volatile int *cancel = nullptr;
    trace *t = nullptr;       // traced: the trace; timed: null
    unsigned blocks_traced = 1;
    int result_in = 0; // the result is in[0] (an in-place kernel), else out[0]
    gpu_tracer tr;
    std::vector<own_span> bufs;
    std::vector<std::string> names; // each buffer's, as the trace names it
    ws_gpu_fault *fault = nullptr; // on the device
    unsigned long long host_turns = 0;
    unsigned launches = 0;
    unsigned grid = 0, block = 0; // the first launch's
    std::vector<cudaEvent_t> *events = nullptr; // timed: a start and an end per launch, from the kernel's pool
    size_t used = 0;                             // events of the pool this run has recorded
    jmp_buf out;
    char err[1024] = "";
};
own_gpu_run *run;
} // namespace

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    own_vfail(run->err, sizeof run->err, &run->out, run->path, fmt, ap);
}

// ---- the runtime the learner's code calls (ws_user_gpu_api.h) ----

extern "C" void ws_gpu_user_fail(unsigned line, const char *what)
{
    if (line) fail("line %u: %s", line, what);
    fail("%s", what);
}

static int add_buffer(void *p, size_t bytes, const char *name)
{
    if (run->bufs.size() >= (size_t)TRACE_BUFFERS_MAX) return -1;
    if (run->t && trace_add_buffer(run->t, name, 0)) return -1;
    run->bufs.push_back({(unsigned char *)p, bytes});
    run->names.push_back(name);
    return 0;
}

extern "C" void ws_gpu_user_malloc(void *p, size_t bytes, unsigned line)
{
    char name[32];
    snprintf(name, sizeof name, "line%u", line);
    if (add_buffer(p, bytes, name)) {
        cudaFree(p);
        fail("line %u: cudaMalloc: more than %d buffers", line, TRACE_BUFFERS_MAX - 2);
    }
}

static int find_buffer(const void *p, size_t *offset) { return own_find_span(run->bufs.data(), run->bufs.size(), p, offset); }

extern "C" int ws_gpu_user_buffer(const void *p, int *buf, unsigned long long *base, unsigned long long *bytes)
{
    size_t o;
    int i = find_buffer(p, &o);
    if (i < 0) return 0;
    *buf = i;
    *base = (unsigned long long)run->bufs[(size_t)i].p;
    *bytes = run->bufs[(size_t)i].bytes;
    return 1;
}

extern "C" void ws_gpu_user_check(const void *p, size_t bytes, const char *what, unsigned line)
{
    size_t o;
    int i = find_buffer(p, &o);
    if (i >= 0 && o + bytes > run->bufs[(size_t)i].bytes)
        fail("line %u: %s of %zu bytes runs past the end of buffer %s (%zu bytes, %zu from its start)", line, what, bytes,
             run->names[(size_t)i].c_str(), run->bufs[(size_t)i].bytes, o);
}

extern "C" void ws_gpu_user_tick(unsigned line)
{
    if (run->cancel && *run->cancel) fail("interrupted");
    if (++run->host_turns > OWN_GPU_HOST_TURNS) fail("line %u: the host code's loops have turned 2^32 times; a loop that never ends?", line);
}

extern "C" void ws_gpu_user_launch_begin(const ws_gpu_launch_info *l, void *ctx, size_t ctx_bytes)
{
    unsigned line = l->line, grid = l->grid[0], block = l->block[0];
    if (l->grid[1] != 1 || l->grid[2] != 1 || l->block[1] != 1 || l->block[2] != 1)
        fail("line %u: a launch of %ux%ux%u blocks of %ux%ux%u threads: warpscope runs one-dimensional launches; use blockIdx.x "
             "and threadIdx.x", line, grid, l->grid[1], l->grid[2], block, l->block[1], l->block[2]);
    if (!grid || !block || block > TRACE_BLOCK_THREADS_MAX)
        fail("line %u: invalid configuration argument: %u blocks of %u threads (a block holds 1 to %d threads)", line, grid, block,
             TRACE_BLOCK_THREADS_MAX);
    if (run->cancel && *run->cancel) fail("interrupted");
    if (!run->launches) {
        run->grid = grid;
        run->block = block;
    }
    if (!run->t) { // timed
        if (run->launches == OWN_GPU_TIMED_LAUNCHES) fail("line %u: more than %u launches in one run", line, OWN_GPU_TIMED_LAUNCHES);
        std::vector<cudaEvent_t> &pool = *run->events; /* made once, for the first run that needs so many */
        while (pool.size() < run->used + 2) {
            cudaEvent_t e;
            if (cudaEventCreate(&e) != cudaSuccess) fail("cannot create a CUDA event");
            pool.push_back(e);
        }
        cudaEventRecord(pool[run->used], (cudaStream_t)l->stream);
        run->used += 2;
        run->launches++;
        return;
    }
    trace *t = run->t;
    if (ctx_bytes != sizeof(ws_gpu_ctx)) fail("the file was built against other headers than this warpscope's: clear the cache");
    if (run->launches == TRACE_PASSES_MAX) fail("line %u: more than %d launches; a host loop that never ends?", line, TRACE_PASSES_MAX);
    if (!run->launches) t->prov.block = block;
    trace_pass p;
    memset(&p, 0, sizeof p);
    p.grid = grid;
    p.block = block;
    p.n_in = (uint64_t)grid * block;
    if (trace_add_pass(t, p)) fail("out of memory for the trace");
    ws_gpu_ctx c;
    if (gpu_tracer_begin(&run->tr, grid, block, run->blocks_traced, t, &c)) fail("%s", run->tr.err);
    cudaMemset(run->fault, 0, sizeof *run->fault);
    c.fault = (unsigned long long *)run->fault;
    memcpy(ctx, &c, sizeof c);
    run->launches++;
}

#define WS_STR_(x) #x
#define WS_STR(x) WS_STR_(x)
// the launch's first access it could not make, as the emulator words it: after "line L: block B,
// thread T (warp W, lane L)", with the element and the elements there are as arguments
static const char *const fault_says[] = {
    [WS_FAULT_NONE] = "",
    [WS_FAULT_SHARED] = " accesses element %lld of a __shared__ array of %llu elements (out of bounds)",
    [WS_FAULT_GLOBAL] = " accesses global element %lld, beyond a buffer of %llu elements",
    [WS_FAULT_NULL] = ": an access through a null pointer",
    [WS_FAULT_SHARED_ATOMIC] = ": an atomic on __shared__ memory is not modelled yet: add in shared memory with a tree and "
                               "__syncthreads(), or atomically in global memory",
    [WS_FAULT_UNFOLLOWED] = ": an access through a pointer made from a number; point into a kernel argument, a __shared__ "
                            "array or an element (&a[i])",
    [WS_FAULT_LOOP] = " was still turning this loop after " WS_STR(WS_GPU_LOOP_SECONDS) " s on the GPU; a loop that never ends?",
};

static void fault(const ws_gpu_fault &f)
{
    char what[400];
    const char *says = f.what < sizeof fault_says / sizeof *fault_says ? fault_says[f.what] : fault_says[WS_FAULT_UNFOLLOWED];
    snprintf(what, sizeof what, says, f.element, f.elements);
    fail("line %u: block %llu, thread %llu (warp %llu, lane %llu)%s", (unsigned)f.line, f.block, f.thread, f.thread / 32, f.thread % 32,
         what);
}

extern "C" void ws_gpu_user_launch_end(const ws_gpu_launch_info *l, int error, const char *error_text, int registers, size_t static_shared)
{
    if (error) fail("line %u: the launch failed: %s", l->line, error_text ? error_text : "an unknown CUDA error");
    if (!run->t) {
        cudaEventRecord((*run->events)[run->used - 1], (cudaStream_t)l->stream);
        return;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) fail("line %u: the kernel failed on the GPU: %s", l->line, cudaGetErrorString(e));
    ws_gpu_fault f;
    if (cudaMemcpy(&f, run->fault, sizeof f, cudaMemcpyDeviceToHost) != cudaSuccess) fail("cannot read the GPU's fault word");
    if (f.what) fault(f);
    trace *t = run->t;
    size_t first = t->nevents;
    if (gpu_tracer_end(&run->tr, run->launches - 1, t, registers, static_shared)) fail("%s", run->tr.err);
    // every thread of a traced block must reach each barrier: the GPU may let a block pass one that
    // some threads never reach (they returned), so it is counted here, thread by thread, as the
    // emulator counts it
    unsigned pass = run->launches - 1, block = l->block[0], traced = run->blocks_traced < l->grid[0] ? run->blocks_traced : l->grid[0];
    for (unsigned b = 0; b < traced; b++) {
        std::vector<unsigned> count(block, 0), line_of; // barriers each thread reached; the line of each one
        for (size_t i = first; i < t->nevents; i++) {
            const trace_event *ev = &t->events[i];
            if (ev->kind != TRACE_BARRIER || ev->pass != pass || ev->block != b) continue;
            for (unsigned lane = 0; lane < 32; lane++) {
                unsigned tid = ev->warp * 32u + lane;
                if (!(ev->mask >> lane & 1) || tid >= block) continue;
                if (line_of.size() <= count[tid]) line_of.push_back(ev->line);
                count[tid]++;
            }
        }
        unsigned lo = *std::min_element(count.begin(), count.end()), reached = 0;
        for (unsigned c : count) reached += c > lo;
        if (reached)
            fail("line %u: block %u: __syncthreads() reached by %u of its %u threads; the others have returned (every thread of a "
                 "block must reach each barrier)", line_of[lo], b, reached, block);
    }
    // a trace holds finite floats (its JSON cannot write inf or nan): said at the line, as the emulator says it
    for (size_t i = first; i < t->nevents; i++) {
        const trace_event *ev = &t->events[i];
        for (int j = 0; trace_kind_has_data((trace_kind)ev->kind) && j < trace_popcount(ev->mask); j++)
            for (unsigned c = 0; c < trace_event_width(ev); c++) {
                float v = trace_lane_value(t, ev, (size_t)j, c);
                if (!std::isfinite(v))
                    fail("line %u: block %u, warp %u: the value %s is not a finite float, and a trace holds finite floats only (for a "
                         "maximum, start from -FLT_MAX, not -INFINITY)", ev->line, ev->block, ev->warp, std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
            }
    }
}

// ---- a run of the entry ----

static void release(own_gpu_run *r)
{
    for (own_span &b : r->bufs) cudaFree(b.p);
    r->bufs.clear();
    r->names.clear();
}

// Calls the entry with in and out (device buffers of n floats, named as the emulator names them);
// 0 with the result, or -1 with the message.
static int call_entry(own_gpu_run *r, own_entry_fn entry, float *in, float *out, unsigned n, float *h_in, float *result, char *err,
                      size_t errlen)
{
    run = r;
    if (add_buffer(in, (size_t)n * sizeof(float), "in") || add_buffer(out, (size_t)n * sizeof(float), "out")) {
        snprintf(err, errlen, "out of memory for the trace");
        run = nullptr;
        return -1;
    }
    float res = 0;
    int has = 0;
    int rc = -1;
    if (setjmp(r->out)) {
        snprintf(err, errlen, "%s", r->err);
        goto done;
    }
    entry(in, out, n, h_in, &res, &has);
    if (!r->launches) {
        fail("--entry launched no kernel");
    }
    {
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) fail("the kernel failed on the GPU: %s", cudaGetErrorString(e));
    }
    (void)has; // what a host function returns is never the result: the buffer is
    if (cudaMemcpy(&res, r->result_in ? in : out, sizeof res, cudaMemcpyDeviceToHost) != cudaSuccess) fail("cannot read the result");
    *result = res;
    rc = 0;
done:
    run = nullptr;
    return rc;
}

namespace {
struct gpu_job {
    const capture_desc *d;
    const char *so; // the copy in work, which the run may read
    const char *work;
    uint64_t n;
};
} // namespace

static own_entry_fn load(const char *so, const char *kernel, void **handle, char *err, size_t errlen)
{
    *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        snprintf(err, errlen, "cannot load %s: %s", so, dlerror());
        return nullptr;
    }
    own_entry_fn entry = (own_entry_fn)dlsym(*handle, "ws_user_entry");
    if (!entry) snprintf(err, errlen, "%s: the compiled file has no entry", kernel);
    return entry;
}

// in the child process own_run_apart starts: CUDA is first touched here
static int run_traced(void *job, trace *t, char *err, size_t errlen)
{
    const gpu_job *j = (const gpu_job *)job;
    const capture_desc *d = j->d;
    uint64_t n = j->n;
    void *handle = nullptr;
    own_entry_fn entry = nullptr;
    own_gpu_run *r = new own_gpu_run;
    r->path = d->kernel;
    r->cancel = d->cancel;
    r->t = t;
    r->blocks_traced = d->blocks_traced ? d->blocks_traced : 1;
    r->result_in = d->result_in;
    std::vector<float> h_in((size_t)n + 4);
    float *in = nullptr, *out = nullptr;
    int rc = -1;
    trace_free(t);
    float result = 0;
    if (gpu_tracer_open(&r->tr, err, errlen) || own_input(d, n, h_in.data(), t, err, errlen)) goto out;
    gpu_tracer_describe(&r->tr, &t->prov);
    if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess || cudaMalloc(&out, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&r->fault, sizeof *r->fault) != cudaSuccess) {
        snprintf(err, errlen, "out of GPU memory for %" PRIu64 " elements", n);
        goto out;
    }
    cudaMemcpy(in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, n * sizeof(float));
    // CUDA is up: this process confines itself (the run's limits, its system calls) before anything
    // of the learner's is loaded (the driver may start a helper while it starts; not after)
    if (sandbox_confine_apart(OWN_GPU_SECONDS, j->work, err, errlen)) goto out;
    if (!(entry = load(j->so, d->kernel, &handle, err, errlen))) goto out;
    if (call_entry(r, entry, in, out, (unsigned)n, h_in.data(), &result, err, errlen)) goto out;
    t->result = result;
    rc = 0;
out:
    if (rc) trace_free(t);
    release(r); // in and out among them
    cudaFree(r->fault);
    gpu_tracer_close(&r->tr);
    delete r;
    return rc;
}

// The build's object, from the cache (which as root is in a folder nobody may not enter), copied
// into a folder of its own that the run, confined to it, reads as nobody.
static int copy_object(const char *so, char *work, size_t worklen, char *copy, size_t copylen, char *err, size_t errlen)
{
    if (sandbox_work(work, worklen, err, errlen)) return -1;
    snprintf(copy, copylen, "%s/kernel.so", work);
    if (own_copy_plain(so, copy, (size_t)64 << 20)) {
        snprintf(err, errlen, "cannot copy the build for its run into %s", work);
        sandbox_remove(work);
        return -1;
    }
    return 0;
}

extern "C" int capture_own_gpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    uint64_t n;
    if (own_check(d, &n, err, errlen)) return -1;
    char so[4400], work[4200], copy[4300];
    if (own_build(d, OWN_GPU_TRACED, so, sizeof so, err, errlen) || copy_object(so, work, sizeof work, copy, sizeof copy, err, errlen)) return -1;
    gpu_job job = {d, copy, work, n};
    int rc = own_run_apart(d, run_traced, &job, OWN_GPU_SECONDS, t, err, errlen);
    sandbox_remove(work);
    return rc;
}

// ---- the benchmark's: a plain build, timed ----

struct own_gpu_kernel {
    void *handle;
    own_entry_fn entry;
    const char *path;
    volatile int *cancel;
    std::vector<cudaEvent_t> events; // every run's, reused from run to run
    int result_in;
};

extern "C" own_gpu_kernel *own_gpu_open(const capture_desc *d, const char *work, char *err, size_t errlen)
{
    uint64_t n;
    if (own_check(d, &n, err, errlen)) return nullptr;
    char so[4400], copy[4300];
    if (own_build(d, OWN_GPU_PLAIN, so, sizeof so, err, errlen)) return nullptr;
    snprintf(copy, sizeof copy, "%s/kernel.so", work);
    if (own_copy_plain(so, copy, (size_t)64 << 20)) {
        snprintf(err, errlen, "cannot copy the build for its run into %s", work);
        return nullptr;
    }
    // the benchmark's child, CUDA up: confined (its system calls, the limits but time, its files:
    // work and the GPU's) before the learner's code is loaded
    if (sandbox_confine_apart(OWN_GPU_BENCH_SECONDS, work, err, errlen)) return nullptr;
    own_gpu_kernel *k = new own_gpu_kernel{nullptr, nullptr, d->kernel, d->cancel, {}, d->result_in};
    if (!(k->entry = load(copy, d->kernel, &k->handle, err, errlen))) {
        delete k;
        return nullptr;
    }
    return k;
}

extern "C" int own_gpu_time(own_gpu_kernel *k, float *in, float *out, unsigned n, float *h_in, own_gpu_timing *tm, char *err, size_t errlen)
{
    own_gpu_run r;
    r.path = k->path;
    r.cancel = k->cancel;
    r.events = &k->events;
    r.result_in = k->result_in;
    memset(tm, 0, sizeof *tm);
    int rc = call_entry(&r, k->entry, in, out, n, h_in, &tm->result, err, errlen);
    if (!rc) {
        for (size_t i = 0; i + 1 < r.used; i += 2) {
            float ms = 0;
            if (cudaEventElapsedTime(&ms, k->events[i], k->events[i + 1]) != cudaSuccess) {
                snprintf(err, errlen, "%s: cannot time its launch %zu", k->path, i / 2);
                rc = -1;
                break;
            }
            tm->ms += ms;
        }
        tm->launches = r.launches;
        tm->grid = r.grid;
        tm->block = r.block;
    }
    // in and out are the benchmark's: only what the learner's code allocated is freed
    size_t theirs = r.bufs.size() < 2 ? r.bufs.size() : 2;
    r.bufs.erase(r.bufs.begin(), r.bufs.begin() + (long)theirs);
    r.names.erase(r.names.begin(), r.names.begin() + (long)theirs);
    release(&r);
    return rc;
}
