// bench: measures every version on a real GPU (see bench.h).
//
// Method: CUDA events around each run of a version's whole launch plan, after warm-up runs; the
// median of --reps runs (default 30); the input rotates over enough buffers that a buffer comes
// back only after 4x the L2 size has been read (an H100 has 50 MB of L2: a 16 MB input would
// otherwise be served from it); every result is checked against a double-precision sum of the
// same buffer, computed on the GPU by a separate double-accumulating kernel, with a tolerance
// that scales with n. A wrong result is reported and not timed. GB/s counts the bytes that must
// be read (4n), except the copy, which counts read plus write.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include "bench.h"
#include "capture.h"
#include "ladder.h"
#include "outfile.h"
#include "versions.h"
#include "ws_cuda.h"

#define WS_X_DECLARE(id) void ws_launch_##id(unsigned, unsigned, const ws_args &, cudaStream_t);
WS_VERSIONS(WS_X_DECLARE)
#undef WS_X_DECLARE

typedef void (*launch_fn)(unsigned, unsigned, const ws_args &, cudaStream_t);
static const struct {
    const char *id;
    launch_fn fn;
} launchers[] = {
#define WS_X_ENTRY(id) {#id, ws_launch_##id},
    WS_VERSIONS(WS_X_ENTRY)
#undef WS_X_ENTRY
};

static launch_fn launcher(const char *id)
{
    for (const auto &l : launchers)
        if (ladder_symbol_is(l.id, id)) return l.fn;
    return nullptr;
}

// ---- device helpers ----

__device__ __forceinline__ unsigned hash32(unsigned long long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (unsigned)x;
}

// uniform in [0, 1), never all zeros: zeros would hide unwritten results
__global__ void fill_kernel(float *x, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
        x[i] = (float)(hash32(seed * 0x9e3779b97f4a7c15ull + i) >> 8) * (1.0f / 16777216.0f);
}

// the reference: each thread sums in double, blocks combine with a double atomicAdd
__global__ void reference_kernel(const float *x, size_t n, double *sum, double *abs_sum)
{
    double s = 0, a = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        s += (double)x[i];
        a += fabs((double)x[i]);
    }
    __shared__ double ss[256], sa[256];
    ss[threadIdx.x] = s;
    sa[threadIdx.x] = a;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) {
            ss[threadIdx.x] += ss[threadIdx.x + k];
            sa[threadIdx.x] += sa[threadIdx.x + k];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(sum, ss[0]);
        atomicAdd(abs_sum, sa[0]);
    }
}

// the read ceiling: reads every byte once with 16-byte loads, eight in flight per thread, and does
// as little as possible with them (a max, no dependent chain of adds) so that only the memory counts
__global__ void __launch_bounds__(256) read_ceiling_kernel(const float4 *x, size_t n4, float *out)
{
    size_t stride = (size_t)blockDim.x * gridDim.x, i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float m = 0.0f;
    for (; i + 7 * stride < n4; i += 8 * stride) {
        float4 v[8];
#pragma unroll
        for (int k = 0; k < 8; k++) v[k] = __ldcs(&x[i + k * stride]);
#pragma unroll
        for (int k = 0; k < 8; k++) m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
    for (; i < n4; i += stride) {
        float4 v = __ldcs(&x[i]);
        m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    if (m < 0.0f) out[0] = m; // never true for the data used; keeps the loads alive
}

// ---- host ----

#define CK(call)                                                                                        \
    do {                                                                                                \
        cudaError_t e_ = (call);                                                                        \
        if (e_ != cudaSuccess) {                                                                        \
            fprintf(stderr, "warpscope: bench: %s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e_), \
                    __FILE__, __LINE__);                                                                \
            exit(2);                                                                                    \
        }                                                                                               \
    } while (0)

struct row {
    std::string name;
    size_t n;
    double ms, gbs, err, tol;
    int ok;
    unsigned block, grid, passes, ept;
    double ms_min, ms_max;
};

struct opts {
    std::vector<size_t> sizes;
    std::vector<std::string> versions;
    int reps = 30;
    unsigned block = 0; // 0: each version's bench_block
    const char *json = nullptr, *csv = nullptr;
};

static int parse_list(const char *flag, const char *s, opts &o, bool sizes)
{
    std::string str(s);
    size_t pos = 0;
    while (pos <= str.size()) {
        size_t c = str.find(',', pos);
        std::string item = str.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
        if (item.empty()) { fprintf(stderr, "warpscope: bench: %s has an empty item in \"%s\"\n", flag, s); return -1; }
        if (sizes) {
            // 2^k or a plain number
            char *end;
            unsigned long long v;
            if (item.rfind("2^", 0) == 0) {
                unsigned long long k = strtoull(item.c_str() + 2, &end, 10);
                v = (*end || k > 40) ? 0 : 1ull << k;
            } else {
                v = strtoull(item.c_str(), &end, 10);
                if (*end) v = 0;
            }
            if (v < 1 || v > (1ull << 31)) {
                fprintf(stderr, "warpscope: bench: %s item \"%s\" is not a size from 1 to 2^31\n", flag, item.c_str());
                return -1;
            }
            o.sizes.push_back((size_t)v);
        } else {
            o.versions.push_back(item);
        }
        if (c == std::string::npos) break;
        pos = c + 1;
    }
    return 0;
}

static double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

int bench_main(int argc, char **argv)
{
    opts o;
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        std::string name = a, val;
        bool has_eq = false;
        size_t eq = a.find('=');
        if (eq != std::string::npos) { name = a.substr(0, eq); val = a.substr(eq + 1); has_eq = true; }
        auto value = [&](void) -> const char * {
            if (has_eq) return argv[i] + eq + 1;
            if (i + 1 < argc) return argv[++i];
            return nullptr;
        };
        if (name == "--sizes" || name == "--versions" || name == "--reps" || name == "--json" || name == "--csv" || name == "--block") {
            const char *v = value();
            if (!v) { fprintf(stderr, "warpscope: bench: %s needs a value\n", name.c_str()); return 2; }
            if (name == "--sizes") { if (parse_list("--sizes", v, o, true)) return 2; }
            else if (name == "--versions") { if (parse_list("--versions", v, o, false)) return 2; }
            else if (name == "--json") o.json = v;
            else if (name == "--csv") o.csv = v;
            else {
                char *end;
                long x = strtol(v, &end, 10);
                long lo = name == "--reps" ? 1 : 32, hi = name == "--reps" ? 10000 : 1024;
                if (*end || !*v || x < lo || x > hi) {
                    fprintf(stderr, "warpscope: bench: %s expects a whole number from %ld to %ld, got \"%s\"\n", name.c_str(), lo, hi, v);
                    return 2;
                }
                if (name == "--reps") o.reps = (int)x; else o.block = (unsigned)x;
            }
        } else {
            fprintf(stderr, "warpscope: bench: unknown argument \"%s\" (--sizes --versions --reps --block --json --csv)\n", a.c_str());
            return 2;
        }
    }
    if (o.sizes.empty())
        for (int k = 16; k <= 30; k += 2) o.sizes.push_back((size_t)1 << k);
    if (o.versions.empty())
        for (size_t i = 0; i < ladder_count; i++)
            if (!ladder_versions[i].races) o.versions.push_back(ladder_versions[i].id);
    std::vector<const ladder_version *> vers;
    for (auto &id : o.versions) {
        const ladder_version *v = ladder_find(id.c_str());
        if (!v) { fprintf(stderr, "warpscope: bench: unknown version \"%s\" (warpscope list shows them)\n", id.c_str()); return 2; }
        char err[256];
        if (o.block && ladder_check_block(v, o.block, err, sizeof err)) { fprintf(stderr, "warpscope: bench: %s\n", err); return 2; }
        vers.push_back(v);
    }

    int ndev = 0;
    cudaError_t de = cudaGetDeviceCount(&ndev);
    if (de != cudaSuccess || ndev == 0) {
        fprintf(stderr, "warpscope: bench needs an NVIDIA GPU: %s\n", de != cudaSuccess ? cudaGetErrorString(de) : "no CUDA device found");
        return 2;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int mem_khz = 0, bus_bits = 0;
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    double spec_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9; // double data rate
    char driver[128];
    capture_gpu_driver(driver, sizeof driver);
    char toolkit[32];
    snprintf(toolkit, sizeof toolkit, "CUDA %d.%d", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    char date[32];
    time_t now = time(nullptr);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    size_t l2 = (size_t)prop.l2CacheSize;
    printf("%s, %d SMs, L2 %zu MB, spec peak %.0f GB/s (%d MHz x %d bits x 2), driver %s, %s\n", prop.name,
           prop.multiProcessorCount, l2 >> 20, spec_gbs, mem_khz / 1000, bus_bits, driver, toolkit);
    printf("median of %d runs after 3 warm-ups, CUDA events, inputs rotated over >= 4x L2\n\n", o.reps);

    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<row> rows;

    for (size_t n : o.sizes) {
        size_t bytes = n * sizeof(float), pitch = (bytes + 255) / 256 * 256;
        size_t nbuf = std::max<size_t>(2, (4 * l2 + bytes - 1) / bytes);
        nbuf = std::min<size_t>(nbuf, 2048);
        size_t free_b = 0, total_b = 0;
        CK(cudaMemGetInfo(&free_b, &total_b));
        // inputs, one working copy (naive works in place), partial sums
        if ((nbuf + 1) * pitch + (64u << 20) > free_b) nbuf = std::max<size_t>(2, free_b / pitch - 2);
        if ((nbuf + 1) * pitch + (64u << 20) > free_b) {
            printf("n = %zu: skipped, %zu MB of GPU memory needed and %zu MB free\n", n, (nbuf + 1) * pitch >> 20, free_b >> 20);
            continue;
        }
        char *slab;
        float *work, *partials, *partials2;
        unsigned *counter;
        double *refs;
        CK(cudaMalloc(&slab, nbuf * pitch));
        CK(cudaMalloc(&work, pitch));
        size_t pmax = n / 32 + 64;
        CK(cudaMalloc(&partials, pmax * sizeof(float)));
        CK(cudaMalloc(&partials2, pmax * sizeof(float)));
        CK(cudaMalloc(&counter, sizeof(unsigned)));
        CK(cudaMemset(counter, 0, sizeof(unsigned)));
        CK(cudaMalloc(&refs, 2 * nbuf * sizeof(double)));
        CK(cudaMemset(refs, 0, 2 * nbuf * sizeof(double)));
        std::vector<float *> in(nbuf);
        for (size_t b = 0; b < nbuf; b++) {
            in[b] = (float *)(slab + b * pitch);
            fill_kernel<<<1024, 256, 0, st>>>(in[b], n, 1000 + n + b);
            reference_kernel<<<std::min<size_t>(1024, (n + 255) / 256), 256, 0, st>>>(in[b], n, &refs[2 * b], &refs[2 * b + 1]);
        }
        CK(cudaGetLastError());
        std::vector<double> ref(2 * nbuf);
        CK(cudaMemcpy(ref.data(), refs, 2 * nbuf * sizeof(double), cudaMemcpyDeviceToHost));
        float *result_d;
        CK(cudaMalloc(&result_d, sizeof(float)));
        void *cub_tmp = nullptr;
        size_t cub_bytes = 0;
        CK(cub::DeviceReduce::Sum(cub_tmp, cub_bytes, in[0], result_d, (int)n, st));
        CK(cudaMalloc(&cub_tmp, std::max<size_t>(cub_bytes, 1)));
        double log2n = std::ceil(std::log2((double)n)) + 2;

        // runs `run(buffer)` warm-up + reps times; `result()` reads the value to check
        auto measure = [&](const std::string &name, unsigned block, unsigned grid, unsigned passes, unsigned ept,
                           const std::function<float(const float *, size_t)> &run,
                           const std::function<double()> &result, double bytes_moved) {
            std::vector<float> ms;
            row r{name, n, 0, 0, 0, 0, 1, block, grid, passes, ept, 0, 0};
            int total = 3 + o.reps;
            for (int k = 0; k < total; k++) {
                size_t b = (size_t)k % nbuf;
                float t = run(in[b], b);
                CK(cudaGetLastError());
                if (k >= 3) ms.push_back(t);
                if (result) {
                    double got = result();
                    double tol = 8.0 * log2n * std::ldexp(1.0, -24) * ref[2 * b + 1];
                    double err = std::fabs(got - ref[2 * b]);
                    if (!(err <= tol)) {
                        r.ok = 0;
                        r.err = err;
                        r.tol = tol;
                        fprintf(stderr, "warpscope: bench: %s at n = %zu computed %.9g, the double reference is %.17g (error %.3g > tolerance %.3g)\n",
                                name.c_str(), n, got, ref[2 * b], err, tol);
                        break;
                    }
                    r.err = std::max(r.err, err);
                    r.tol = tol;
                }
            }
            if (r.ok) {
                r.ms = median(ms);
                r.ms_min = *std::min_element(ms.begin(), ms.end());
                r.ms_max = *std::max_element(ms.begin(), ms.end());
                r.gbs = bytes_moved / (r.ms * 1e6);
            }
            rows.push_back(r);
        };
        auto timed = [&](auto body) {
            CK(cudaEventRecord(e0, st));
            body();
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float t;
            CK(cudaEventElapsedTime(&t, e0, e1));
            return t;
        };
        auto read_float = [&](const float *p) {
            float h;
            CK(cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost));
            return (double)h;
        };

        for (const ladder_version *v : vers) {
            launch_fn fn = launcher(v->id);
            unsigned block = o.block ? o.block : v->bench_block;
            // Brent: enough elements per thread that the grid is two waves of the blocks the GPU
            // holds at once; exactly two waves measured best (grid 1056 against 1055 on an H100:
            // 1% apart, docs/bench-notes.md)
            unsigned resident = 2 * (unsigned)prop.multiProcessorCount * (unsigned)(prop.maxThreadsPerMultiProcessor / (int)block);
            unsigned ept = v->ept_default;
            if (v->ept_tunable) {
                size_t want = (n + (size_t)block * resident - 1) / ((size_t)block * resident);
                want = (want + v->ept_multiple - 1) / v->ept_multiple * v->ept_multiple;
                ept = (unsigned)std::max<size_t>(ept, std::min<size_t>(want, 1u << 20));
            }
            ladder_pass plan[LADDER_MAX_PASSES];
            int np = ladder_plan(v, block, n, ept, plan);
            const float *last = nullptr;
            auto run = [&](const float *src, size_t) {
                if (v->shape == LADDER_IN_PLACE) // naive reduces in place: start each run from the input
                    CK(cudaMemcpyAsync(work, src, bytes, cudaMemcpyDeviceToDevice, st));
                return timed([&] {
                    const float *cur = src;
                    for (int k = 0; k < np; k++) {
                        ws_args a;
                        a.in = cur;
                        a.counter = counter;
                        a.n = (unsigned)plan[k].n_in;
                        a.stride = plan[k].stride;
                        a.out = v->shape == LADDER_IN_PLACE ? work : (k % 2 ? partials2 : partials);
                        fn(plan[k].grid, plan[k].block, a, st);
                        cur = a.out;
                    }
                    last = cur;
                });
            };
            measure(v->id, block, plan[0].grid, (unsigned)np, ept, run, [&] { return read_float(last); }, (double)bytes);
        }
        measure("cub", 0, 0, 0, 0, [&](const float *src, size_t) {
            return timed([&] { CK(cub::DeviceReduce::Sum(cub_tmp, cub_bytes, src, result_d, (int)n, st)); });
        }, [&] { return read_float(result_d); }, (double)bytes);
        float thrust_result = 0;
        measure("thrust", 0, 0, 0, 0, [&](const float *src, size_t) {
            return timed([&] { thrust_result = thrust::reduce(thrust::cuda::par.on(st), src, src + n, 0.0f); });
        }, [&] { return (double)thrust_result; }, (double)bytes);
        unsigned cgrid = (unsigned)prop.multiProcessorCount * (unsigned)(prop.maxThreadsPerMultiProcessor / 256); // one wave of 256-thread blocks
        measure("read-ceiling", 256, cgrid, 1, 0, [&](const float *src, size_t) {
            return timed([&] { read_ceiling_kernel<<<cgrid, 256, 0, st>>>((const float4 *)src, n / 4, partials); });
        }, std::function<double()>(), (double)(n / 4 * 16));
        measure("d2d-copy", 0, 0, 1, 0, [&](const float *src, size_t) {
            return timed([&] { CK(cudaMemcpyAsync(work, src, bytes, cudaMemcpyDeviceToDevice, st)); });
        }, std::function<double()>(), 2.0 * (double)bytes);

        CK(cudaFree(slab));
        CK(cudaFree(work));
        CK(cudaFree(partials));
        CK(cudaFree(partials2));
        CK(cudaFree(counter));
        CK(cudaFree(refs));
        CK(cudaFree(result_d));
        CK(cudaFree(cub_tmp));
        fprintf(stderr, "n = %zu done (%zu input buffers)\n", n, nbuf);
    }

    // table: per size, each row against the read ceiling, the spec peak and v0
    printf("%-13s %12s %10s %9s %7s %7s %8s %6s\n", "name", "n", "ms", "GB/s", "%ceil", "%spec", "vs v0", "check");
    for (const row &r : rows) {
        double ceil_gbs = 0, v0_ms = 0;
        for (const row &q : rows) {
            if (q.n != r.n) continue;
            if (q.name == "read-ceiling") ceil_gbs = q.gbs;
            if (q.name == "v0") v0_ms = q.ms;
        }
        if (!r.ok) { printf("%-13s %12zu %10s %9s %7s %7s %8s %6s\n", r.name.c_str(), r.n, "-", "-", "-", "-", "-", "WRONG"); continue; }
        char vs[16] = "-";
        if (v0_ms > 0) snprintf(vs, sizeof vs, "%.2fx", v0_ms / r.ms);
        printf("%-13s %12zu %10.4f %9.1f %6.1f%% %6.1f%% %8s %6s\n", r.name.c_str(), r.n, r.ms, r.gbs,
               ceil_gbs > 0 ? 100 * r.gbs / ceil_gbs : 0, 100 * r.gbs / spec_gbs, vs, "ok");
    }
    if (o.json) {
        outfile of;
        char err[512];
        if (outfile_open(&of, o.json, err, sizeof err)) { fprintf(stderr, "warpscope: bench: %s\n", err); return 2; }
        FILE *f = of.f;
        fprintf(f, "{\n\"schema\": \"warpscope-bench\",\n\"schema_version\": 1,\n\"device\": \"%s\",\n\"driver\": \"%s\",\n\"toolkit\": \"%s\",\n\"date\": \"%s\",\n",
                prop.name, driver, toolkit, date);
        fprintf(f, "\"sm_count\": %d,\n\"l2_bytes\": %zu,\n\"memory_clock_khz\": %d,\n\"bus_width_bits\": %d,\n\"spec_peak_gbs\": %.1f,\n\"reps\": %d,\n\"timing\": \"CUDA events, median of reps after 3 warm-ups, inputs rotated over >= 4x L2\",\n\"rows\": [\n",
                prop.multiProcessorCount, l2, mem_khz, bus_bits, spec_gbs, o.reps);
        for (size_t i = 0; i < rows.size(); i++) {
            const row &r = rows[i];
            fprintf(f, "{\"name\": \"%s\", \"n\": %zu, \"ms\": %.6f, \"gbs\": %.2f, \"ok\": %s, \"ms_min\": %.6f, \"ms_max\": %.6f, \"block\": %u, \"grid\": %u, \"passes\": %u, \"elems_per_thread\": %u, \"max_error\": %.6g, \"tolerance\": %.6g}%s\n",
                    r.name.c_str(), r.n, r.ms, r.gbs, r.ok ? "true" : "false", r.ms_min, r.ms_max, r.block, r.grid, r.passes, r.ept, r.err, r.tol,
                    i + 1 < rows.size() ? "," : "");
        }
        fprintf(f, "]\n}\n");
        if (outfile_commit(&of, err, sizeof err)) { fprintf(stderr, "warpscope: bench: %s\n", err); return 2; }
    }
    if (o.csv) {
        outfile of;
        char err[512];
        if (outfile_open(&of, o.csv, err, sizeof err)) { fprintf(stderr, "warpscope: bench: %s\n", err); return 2; }
        FILE *f = of.f;
        fprintf(f, "name,n,ms,gbs,ok,ms_min,ms_max,block,grid,passes,elems_per_thread\n");
        for (const row &r : rows)
            fprintf(f, "%s,%zu,%.6f,%.2f,%d,%.6f,%.6f,%u,%u,%u,%u\n", r.name.c_str(), r.n, r.ms, r.gbs, r.ok, r.ms_min, r.ms_max, r.block, r.grid, r.passes, r.ept);
        if (outfile_commit(&of, err, sizeof err)) { fprintf(stderr, "warpscope: bench: %s\n", err); return 2; }
    }
    for (const row &r : rows)
        if (!r.ok) return 1;
    return 0;
}
