// capture on a GPU: the same launch plan and buffers as the emulator (capture_run), with the
// kernels built traced by nvcc (WS_GPU_TRACE in trace/capture/ws_cuda.h). Each launch gets a bounded
// event buffer; a launch that asks for more slots than it holds is reported, not truncated.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <array>
#include <unordered_map>
#include <vector>
#include <algorithm>

#include "trace/capture/capture.h"
#include "trace/versions.h"
#include "trace/capture/capture_gpu.h"

#define WS_X_DECLARE(id) void ws_trace_launch_##id(unsigned, unsigned, const ws_args &, const ws_gpu_ctx &, cudaStream_t);
WS_VERSIONS(WS_X_DECLARE)
#undef WS_X_DECLARE

typedef void (*trace_launch_fn)(unsigned, unsigned, const ws_args &, const ws_gpu_ctx &, cudaStream_t);
// what the compiler gave the traced kernel that ran last (WS_CALL in ws_cuda.h): its registers
// and static shared memory decide how many of its blocks an SM holds, the schedule recorded
cudaFuncAttributes ws_traced_attributes;
static const struct {
    const char *id;
    trace_launch_fn fn;
} launchers[] = {
#define WS_X_ENTRY(id) {#id, ws_trace_launch_##id},
    WS_VERSIONS(WS_X_ENTRY)
#undef WS_X_ENTRY
};

// events one launch may record; about 800 bytes each
static const unsigned long long GPU_CAPACITY = 1u << 16;

namespace {
struct gpu_ctx {
    std::vector<void *> bufs;
    std::vector<size_t> bytes;
    gpu_tracer tr;
};
}

static bool ck(gpu_tracer *x, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return true;
    snprintf(x->err, sizeof x->err, "%s: %s", what, cudaGetErrorString(e));
    return false;
}

extern "C" void capture_gpu_driver(char *buf, size_t len)
{
    int dv = 0;
    cudaDriverGetVersion(&dv);
    char kernel_driver[64] = "";
    // "NVRM version: NVIDIA UNIX ... Kernel Module [for x86_64]  580.159.04  ...": the first token
    // that starts with a digit and has a dot is the driver's version
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (f) {
        char line[256];
        if (fgets(line, sizeof line, f))
            for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(nullptr, " \t\n"))
                if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.')) {
                    snprintf(kernel_driver, sizeof kernel_driver, "%s", tok);
                    break;
                }
        fclose(f);
    }
    snprintf(buf, len, "%s%sCUDA %d.%d", kernel_driver, *kernel_driver ? ", " : "", dv / 1000, dv % 1000 / 10);
}

void gpu_tracer_describe(const gpu_tracer *x, trace_provenance *p)
{
    snprintf(p->backend, sizeof p->backend, "gpu");
    snprintf(p->device, sizeof p->device, "%.*s", (int)sizeof p->device - 1, x->prop.name); /* names are short; cut, never overrun */
    snprintf(p->toolkit, sizeof p->toolkit, "nvcc, CUDA %d.%d, sm_%d%d", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10,
             x->prop.major, x->prop.minor);
    capture_gpu_driver(p->driver, sizeof p->driver);
}

static void gpu_describe(void *c, trace_provenance *p) { gpu_tracer_describe(&((gpu_ctx *)c)->tr, p); }

int gpu_tracer_open(gpu_tracer *x, char *err, size_t errlen)
{
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        snprintf(err, errlen, "no usable CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return -1;
    }
    int reserved = 0;
    if (cudaGetDeviceProperties(&x->prop, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0) != cudaSuccess) {
        snprintf(err, errlen, "cannot read the GPU's properties");
        return -1;
    }
    x->shared_base = reserved / 4;
    return 0;
}

void gpu_tracer_close(gpu_tracer *x)
{
    cudaFree(x->events);
    cudaFree(x->count);
    cudaFree(x->phase);
    cudaFree(x->runs);
    cudaFree(x->tick0);
    x->tick0 = nullptr;
    x->events = nullptr;
    x->count = nullptr;
    x->phase = nullptr;
    x->runs = nullptr;
}

int gpu_tracer_begin(gpu_tracer *x, unsigned grid, unsigned block, unsigned traced, const trace *t, ws_gpu_ctx *ctx)
{
    unsigned traced_blocks = traced < grid ? traced : grid;
    if ((!x->events && !ck(x, cudaMalloc(&x->events, GPU_CAPACITY * sizeof(ws_gpu_event)), "cudaMalloc (trace buffer)")) ||
        (!x->count && !ck(x, cudaMalloc(&x->count, sizeof *x->count), "cudaMalloc")) ||
        (!x->tick0 && !ck(x, cudaMalloc(&x->tick0, sizeof *x->tick0), "cudaMalloc")))
        return -1;
    cudaMemset(x->tick0, 0, sizeof *x->tick0);
    if (!ck(x, cudaMalloc(&x->phase, (size_t)traced_blocks * block * sizeof *x->phase + 4), "cudaMalloc")) return -1;
    cudaMemset(x->phase, 0, (size_t)traced_blocks * block * sizeof *x->phase + 4);
    cudaMemset(x->count, 0, sizeof *x->count);
    /* where and when blocks run: every block of the pass while the trace has room, else none (a
     * pass recorded in part would pass for the whole) */
    x->runs_blocks = t->nruns + grid <= TRACE_RUNS_MAX ? grid : 0;
    if (!ck(x, cudaMalloc(&x->runs, 3ull * x->runs_blocks * sizeof *x->runs + 8), "cudaMalloc (block runs)")) return -1;
    cudaMemset(x->runs, 0, 3ull * x->runs_blocks * sizeof *x->runs + 8);
    memset(ctx, 0, sizeof *ctx);
    *ctx = ws_gpu_ctx{x->events, x->count, GPU_CAPACITY, x->phase, traced_blocks, x->runs, x->runs_blocks, nullptr, x->tick0};
    return 0;
}

// The order events go into the trace. The traced kernel records its lanes' end together at its
// last line, so lanes done long before (those a final `if (tid == 0)` leaves out) would seem to wait
// there, live, while the others work; the plain kernel lets them go at once, as the emulator does.
// So each lane's exit is put right after its own last event: an exit event is split, the parts
// appended to ev, and the returned indices into ev name each event once, in order.
static std::vector<size_t> exits_placed(std::vector<ws_gpu_event> &ev)
{
    size_t n = ev.size();
    std::unordered_map<unsigned long long, std::array<long long, 32>> last; // (block, warp): each lane's last event
    std::vector<unsigned> after(n, 0);                                        // lanes whose exit follows event i
    std::vector<unsigned> phase_after(n, 0);
    std::vector<unsigned> keep(n, 0); // an exit event's lanes that stay where it is (they did nothing before it)
    for (size_t i = 0; i < n; i++) {
        const ws_gpu_event &g = ev[i];
        unsigned long long k = (unsigned long long)g.block << 32 | g.warp;
        auto it = last.find(k);
        if (it == last.end()) {
            std::array<long long, 32> a;
            a.fill(-1);
            it = last.emplace(k, a).first;
        }
        for (unsigned l = 0; l < 32; l++) {
            if (!(g.mask >> l & 1)) continue;
            if (g.kind != TRACE_EXIT) { it->second[l] = (long long)i; continue; }
            long long j = it->second[l];
            if (j < 0) keep[i] |= 1u << l;
            else {
                after[(size_t)j] |= 1u << l;
                phase_after[(size_t)j] = std::max(phase_after[(size_t)j], g.phase);
            }
        }
    }
    size_t parts = (size_t)std::count_if(after.begin(), after.end(), [](unsigned m) { return m != 0; });
    ev.reserve(n + parts);
    std::vector<size_t> order;
    order.reserve(n + parts);
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind == TRACE_EXIT) {
            if (keep[i]) { ev[i].mask = keep[i]; order.push_back(i); }
        } else {
            order.push_back(i);
        }
        if (after[i]) {
            ws_gpu_event x = ev[i];
            memset(x.addr, 0, sizeof x.addr);
            memset(x.val, 0, sizeof x.val);
            x.kind = TRACE_EXIT;
            x.line = 0;
            x.elem = 0;
            x.buf = -1;
            x.mask = after[i];
            x.phase = phase_after[i];
            ev.push_back(x); /* reserved: no copy of the whole list */
            order.push_back(ev.size() - 1);
        }
    }
    return order;
}

int gpu_tracer_end(gpu_tracer *x, unsigned pass, trace *t, int registers, size_t static_shared)
{
    cudaFree(x->phase);
    x->phase = nullptr;
    unsigned runs_blocks = x->runs_blocks;
    std::vector<unsigned long long> rv(3ull * runs_blocks);
    bool ok = !runs_blocks || ck(x, cudaMemcpy(rv.data(), x->runs, rv.size() * sizeof rv[0], cudaMemcpyDeviceToHost), "reading the block runs");
    cudaFree(x->runs);
    x->runs = nullptr;
    if (!ok) return -1;
    /* the registers and static shared memory of the kernel that ran (the traced build's, which
     * may hold more registers than the benchmark's): what its schedule was made of */
    t->passes[pass].registers = (uint32_t)(registers > 0 && registers <= TRACE_REGISTERS_MAX ? registers : 0);
    t->passes[pass].shared_bytes = (uint32_t)(static_shared <= TRACE_SHARED_BYTES_MAX ? static_shared : 0);
    /* times from the capture's first block on: the first launch's earliest start is 0 */
    for (unsigned b = 0; b < runs_blocks; b++)
        if (rv[3 * b + 2] && (!x->time0 || rv[3 * b] < x->time0)) x->time0 = rv[3 * b];
    for (unsigned b = 0; b < runs_blocks; b++) {
        if (!rv[3 * b + 2]) continue; /* not run: cannot happen once the launch succeeded */
        unsigned long long s0 = rv[3 * b] >= x->time0 ? rv[3 * b] - x->time0 : 0, s1 = rv[3 * b + 1] >= x->time0 ? rv[3 * b + 1] - x->time0 : 0;
        trace_run u = {pass, b, (uint32_t)(rv[3 * b + 2] - 1), s0, s1 <= s0 ? s0 + 1 : s1}; /* the clock's step may hide a short run */
        if (trace_add_run(t, &u)) { snprintf(x->err, sizeof x->err, "out of memory"); return -1; }
    }
    unsigned long long n = 0;
    if (!ck(x, cudaMemcpy(&n, x->count, sizeof n, cudaMemcpyDeviceToHost), "reading the trace")) return -1;
    if (n > GPU_CAPACITY) {
        snprintf(x->err, sizeof x->err,
                 "the GPU trace buffer holds %llu events and this launch recorded %llu; trace fewer blocks (--blocks-traced) or a smaller block",
                 GPU_CAPACITY, n);
        return -1;
    }
    std::vector<ws_gpu_event> ev(n);
    if (n && !ck(x, cudaMemcpy(ev.data(), x->events, n * sizeof(ws_gpu_event), cudaMemcpyDeviceToHost), "reading the trace"))
        return -1;
    for (size_t i : exits_placed(ev)) {
        const ws_gpu_event &g = ev[i];
        trace_event e;
        memset(&e, 0, sizeof e);
        e.kind = (uint8_t)g.kind;
        e.elem_size = (uint8_t)(trace_kind_has_data((trace_kind)g.kind) ? g.elem : 0);
        e.buf = (uint8_t)(g.buf >= 0 ? g.buf : 0);
        e.pass = (uint8_t)pass;
        e.warp = (uint16_t)g.warp;
        e.phase = (uint16_t)g.phase;
        e.block = g.block;
        e.line = g.line;
        e.mask = g.mask;
        e.sm = g.sm;
        e.clock = (uint64_t)g.clock;
        int64_t addr[32];
        double val[32 * 4]; /* the device records floats (ws_gpu_event), each exact in a double */
        unsigned w = trace_event_width(&e);
        int k = 0;
        /* shared words from the first one a kernel's arrays get, as the emulator numbers them */
        long long base = e.kind == TRACE_SHARED_LOAD || e.kind == TRACE_SHARED_STORE ? x->shared_base : 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!(g.mask >> l & 1)) continue;
            addr[k] = g.addr[l] >= base ? g.addr[l] - base : g.addr[l];
            for (unsigned c2 = 0; c2 < w; c2++) val[k * (int)w + (int)c2] = g.val[l][c2];
            k++;
        }
        if (trace_push(t, &e, addr, val)) { snprintf(x->err, sizeof x->err, "out of memory"); return -1; }
    }
    return 0;
}

static int gpu_alloc(void *c, int id, size_t bytes, const void *init)
{
    gpu_ctx *x = (gpu_ctx *)c;
    if ((size_t)id >= x->bufs.size()) { x->bufs.resize((size_t)id + 1, nullptr); x->bytes.resize((size_t)id + 1, 0); }
    if (!ck(&x->tr, cudaMalloc(&x->bufs[(size_t)id], bytes), "cudaMalloc")) return -1;
    x->bytes[(size_t)id] = bytes;
    cudaError_t e = init ? cudaMemcpy(x->bufs[(size_t)id], init, bytes, cudaMemcpyHostToDevice) : cudaMemset(x->bufs[(size_t)id], 0, bytes);
    return ck(&x->tr, e, "copying the input to the GPU") ? 0 : -1;
}

static int gpu_launch(void *c, const ladder_version *v, const emu_kernel_args *args, unsigned pass, unsigned grid,
                      unsigned block, unsigned traced, trace *t)
{
    gpu_ctx *x = (gpu_ctx *)c;
    trace_launch_fn fn = nullptr;
    for (const auto &l : launchers)
        if (ladder_symbol_is(l.id, v->id)) fn = l.fn;
    if (!fn) { snprintf(x->tr.err, sizeof x->tr.err, "no traced GPU kernel for %s", v->id); return -1; }
    ws_gpu_ctx ctx;
    if (gpu_tracer_begin(&x->tr, grid, block, traced, t, &ctx)) return -1;
    auto buf = [&](int id) { return id >= 0 ? x->bufs[(size_t)id] : nullptr; };
    ws_args a = {global_ptr<const float>((const float *)buf(args->in_buf), args->in_buf),
                 global_ptr<float>((float *)buf(args->out_buf), args->out_buf),
                 global_ptr<unsigned>((unsigned *)buf(args->counter_buf), args->counter_buf), args->n, args->stride};
    memset(&ws_traced_attributes, 0, sizeof ws_traced_attributes); /* a launch that cannot say leaves them unknown */
    fn(grid, block, a, ctx, 0);
    if (!ck(&x->tr, cudaGetLastError(), "kernel launch") || !ck(&x->tr, cudaDeviceSynchronize(), "kernel")) {
        gpu_tracer_close(&x->tr);
        return -1;
    }
    return gpu_tracer_end(&x->tr, pass, t, ws_traced_attributes.numRegs, ws_traced_attributes.sharedSizeBytes);
}

static int gpu_read(void *c, int id, size_t off, void *dst, size_t bytes)
{
    gpu_ctx *x = (gpu_ctx *)c;
    return ck(&x->tr, cudaMemcpy(dst, (char *)x->bufs[(size_t)id] + off, bytes, cudaMemcpyDeviceToHost), "reading the result") ? 0 : -1;
}

static const char *gpu_error(void *c) { return ((gpu_ctx *)c)->tr.err; }

extern "C" int capture_gpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    gpu_ctx *x = new gpu_ctx;
    if (gpu_tracer_open(&x->tr, err, errlen)) {
        delete x;
        return -1;
    }
    capture_backend b = {x, gpu_describe, gpu_alloc, gpu_launch, gpu_read, gpu_error, nullptr}; /* no plan: it is optional */
    int rc = capture_run(d, &b, t, err, errlen);
    for (void *p : x->bufs) cudaFree(p);
    gpu_tracer_close(&x->tr);
    delete x;
    return rc;
}
