// bench: measures every version on a real GPU (see bench.h).
//
// Two timing modes, the two that NVIDIA's nvbench reports:
//  - per launch ("launch"): CUDA events around each run of a version's whole launch plan, after
//    three warm-ups; the median of --reps runs. Each run pays its own launch and drains the GPU.
//  - batch ("batch"): CUDA events around K runs launched back to back (K chosen so a batch reads
//    at least 32 GiB, 20 to 2000 runs), the mean; three batches, the median of their means. This
//    is how published reduction numbers are timed: one run's tail overlaps the next one's start.
// In both, the input rotates over enough buffers that a buffer comes back only after 4x the L2
// size has been read (an H100 has 50 MB of L2: a 16 MB input would otherwise be served from it).
// Every result is checked against a double-precision sum of the same buffer, computed on the GPU
// by a separate double-accumulating kernel, with a tolerance that grows with log2 n; a wrong result
// is reported and not timed. The same comparison gives each row's accuracy on random floats
// (relative error and units in the last place of the float nearest the exact sum), beside that of a
// serial float loop on the host. GB/s counts the bytes that must be read (4n), except the copy,
// which counts read plus write. "best read" is the fastest of a few read-only kernels (load width,
// loads in flight, cache hints), each launched plainly and, on a GPU that can overlap launches, as
// v8 is (programmatic dependent launch): the honest ceiling for a kernel that must read every byte once.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

#include "app/bench.h"
#include "app/cli.h"
#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"
#include "trace/ladder.h"
#include "trace/outfile.h"
#include "trace/results.h"
#include "trace/versions.h"
#include "trace/capture/ws_cuda.h"

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

// the timing modes, in the order the table prints them: the results reader's own (ids and titles)
enum { MODE_LAUNCH = RESULTS_LAUNCH, MODE_BATCH = RESULTS_BATCH, NMODES = RESULTS_NMODES };
static const char *mode_id(int m) { return results_mode_id((results_mode)m); }
static const char *mode_title(int m) { return results_mode_title((results_mode)m); }

// A result is checked against the tree's bound (ceil(log2 n) + 2) x 2^-24 x sum|x|, as captures
// are (capture_tolerance), times this slack: v6 to v8 first add many elements per thread in one
// register, and CUB and Thrust sum in orders of their own, neither of them a pure tree; the errors
// measured stay within 2 ulps of the exact sum (docs/bench-notes.md), far inside it
static const double TOLERANCE_SLACK = 8.0;
static const int WARMUPS = 3;
static const int L2_ROTATION = 4;          // inputs rotate over this many L2s' worth, so no run reads from L2              // runs before any timing: module load, first-touch, clocks
static const int BATCHES = 3;              // batches per row in batch mode; the median of their means
static const double BATCH_BYTES = 32.0 * (1ull << 30); // a batch reads at least this much
static const int BATCH_MIN = 20, BATCH_MAX = 2000;

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

// uniform random floats in [0, 1) (24 random bits), never all zeros: zeros would hide unwritten results
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

__global__ void empty_kernel() {}

// ---- read-only kernels: the candidates for "best read" ----
// Each reads every byte of the input once and does as little as possible with it (a max, no
// dependent chain of adds), so only the memory counts. They differ in what a reduction can choose:
// load width, loads in flight per thread (rows of a tile), cache hints, and the grid (one tile per
// block, or a grid-stride loop over one wave of resident blocks). Each is also launched the way v8
// is on compute capability 9.0 and up (OVERLAP, "+pdl" in its name): it lets the next launch start
// once all its blocks have started, so back to back its tail overlaps the next launch as v8's does;
// otherwise a reduction could pass the ceiling by its launch alone (round 4 of docs/bench-notes.md).

enum { HINT_NONE, HINT_STREAM, HINT_NC };

template <int HINT, class V>
__device__ __forceinline__ V load(const V *p)
{
    if (HINT == HINT_STREAM) return __ldcs(p); // evict-first: the data is never reused
    if (HINT == HINT_NC) return __ldg(p);      // the read-only (non-coherent) path
    return *p;
}
__device__ __forceinline__ float vmax(float m, float v) { return fmaxf(m, v); }
__device__ __forceinline__ float vmax(float m, float2 v) { return fmaxf(m, fmaxf(v.x, v.y)); }
__device__ __forceinline__ float vmax(float m, float4 v) { return fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w))); }

template <int BLOCK, int ROWS, class V, int HINT, bool OVERLAP>
__global__ void __launch_bounds__(BLOCK) read_kernel(const V *x, size_t nv, float *sink)
{
    if (OVERLAP) cudaTriggerProgrammaticLaunchCompletion(); // at once, as v8 does
    const size_t tile = (size_t)BLOCK * ROWS, ntiles = nv / tile;
    float m = 0.0f;
    for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
        V v[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; r++) v[r] = load<HINT>(&x[t * tile + (size_t)r * BLOCK + threadIdx.x]);
#pragma unroll
        for (int r = 0; r < ROWS; r++) m = vmax(m, v[r]);
    }
    for (size_t i = ntiles * tile + blockIdx.x * (size_t)BLOCK + threadIdx.x; i < nv; i += (size_t)BLOCK * gridDim.x)
        m = vmax(m, load<HINT>(&x[i]));
    // Overlapping, every block waits here for the previous launch to complete, as each of v8's
    // blocks does before it writes: the read kernel obeys the rule a reduction must (whatever it
    // writes may still be in use by the previous launch), so at most two launches overlap, as with
    // v8. Without the wait, launches that never write would chain, each starting as soon as the
    // last one's blocks had, and the ceiling would measure a freedom no reduction has. It also
    // orders the sink's store after the previous launch's, so overlapping launches cannot race on
    // it (the store never happens anyway: the inputs are never negative, and they are only read).
    if (OVERLAP) cudaGridDependencySynchronize();
    if (m < 0.0f) sink[0] = m; // never true for the data used; keeps the loads alive
}

// overlap: with the attribute that lets the next launch start early (ws_overlapping, ws_cuda.h)
typedef void (*read_fn)(const void *, size_t, float *, unsigned grid, cudaStream_t, bool overlap);
template <int BLOCK, int ROWS, class V, int HINT>
static void read_launch(const void *x, size_t nv, float *sink, unsigned grid, cudaStream_t st, bool overlap)
{
    if (overlap) ws_overlapping(read_kernel<BLOCK, ROWS, V, HINT, true>, grid, BLOCK, st, true)((const V *)x, nv, sink);
    else read_kernel<BLOCK, ROWS, V, HINT, false><<<grid, BLOCK, 0, st>>>((const V *)x, nv, sink);
}

static const struct read_candidate {
    const char *name;
    read_fn fn;
    unsigned block, rows, width; // width: bytes per load
    int waves;                   // 0: one tile per block; else a grid-stride loop over this many waves
} read_candidates[] = {
    {"16B x4 rows, block 1024", read_launch<1024, 4, float4, HINT_NONE>, 1024, 4, 16, 0},
    {"16B x4 rows, block 1024, __ldcs", read_launch<1024, 4, float4, HINT_STREAM>, 1024, 4, 16, 0},
    {"16B x2 rows, block 1024, __ldg", read_launch<1024, 2, float4, HINT_NC>, 1024, 2, 16, 0},
    {"16B x8 rows, block 512", read_launch<512, 8, float4, HINT_NONE>, 512, 8, 16, 0},
    {"16B x8 rows, block 512, __ldcs", read_launch<512, 8, float4, HINT_STREAM>, 512, 8, 16, 0},
    {"16B x8 in flight, 1 wave, __ldcs", read_launch<256, 8, float4, HINT_STREAM>, 256, 8, 16, 1},
    {"8B x8 rows, block 1024", read_launch<1024, 8, float2, HINT_NONE>, 1024, 8, 8, 0},
    {"4B x16 rows, block 1024", read_launch<1024, 16, float, HINT_NONE>, 1024, 16, 4, 0},
};

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
    std::string name, kind, variant;
    int mode;
    size_t n;
    double ms, ms_min, ms_max, gbs;
    double rel_err, ulps; // worst over the checked runs; -1: not a sum
    int ok;
    unsigned block, grid, passes, ept;
    double got = 0, ref = 0; // a wrong sum: what it computed and the double reference
};

struct size_info {
    size_t n;
    double serial_rel_err, serial_ulps; // a float accumulated serially on the host, over buffer 0
    double spec_us;                     // the bytes at the spec peak
};

struct opts {
    std::vector<size_t> sizes;
    std::vector<std::string> versions;
    int reps = 30, batch = 0; // batch 0: chosen per size
    unsigned block = 0;       // 0: each version's bench_block
    unsigned ept = 0;         // 0: chosen per version and size
    int device = 0;
    bool mode_on[NMODES] = {true, true};
    const char *json = nullptr, *csv = nullptr;
    bool alone = false; // --judged: a kernel of one's own judged already: no emulator run, no libraries' or best read's rows
    bool turn = false;  // --card-turn: the kernel's process waits for the card's turn (descriptors 3 and 4) before it loads the file
};

static int parse_list(const char *flag, const char *s, std::vector<std::string> &items)
{
    std::string str(s);
    size_t pos = 0;
    for (;;) {
        size_t c = str.find(',', pos);
        std::string item = str.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
        if (item.empty()) {
            fprintf(stderr, "warpscope: bench: %s has an empty item in \"%s\"\n", flag, s);
            return -1;
        }
        items.push_back(item);
        if (c == std::string::npos) return 0;
        pos = c + 1;
    }
}

static int parse_sizes(const char *s, opts &o)
{
    std::vector<std::string> items;
    if (parse_list("--sizes", s, items)) return -1;
    for (const std::string &item : items) {
        char *end;
        unsigned long long v;
        if (item.rfind("2^", 0) == 0) { // 2^k or a plain number
            unsigned long long k = strtoull(item.c_str() + 2, &end, 10);
            v = (*end || item.size() == 2 || k > 40) ? 0 : 1ull << k;
        } else {
            v = strtoull(item.c_str(), &end, 10);
            if (*end) v = 0;
        }
        if (v < 1 || v > (1ull << 31)) {
            fprintf(stderr, "warpscope: bench: --sizes item \"%s\" is not a size from 1 to 2^31\n", item.c_str());
            return -1;
        }
        o.sizes.push_back((size_t)v);
    }
    return 0;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// units in the last place of the float nearest x
static double ulp_of(double x)
{
    float f = std::fabs((float)x);
    return (double)(std::nextafter(f, INFINITY) - f);
}

// The grid of a single-pass version (v8), whose ept_default is one tile (TILE_ROWS float4s per
// thread); the kernel takes tiles blockIdx.x, blockIdx.x + gridDim.x, ... so any grid reads them
// all. Every block pays a ticket (a fence and an atomic on the one counter) before it leaves, and
// holds its slot until the ticket comes back; the last block then reads one partial per block.
// Measured (docs/bench-notes.md, block 1024, both timing modes), with a tile's time at the spec
// bandwidth shared by the resident blocks:
//  - fewer tiles than SMs (up to 2^20 floats): one tile per block, every block at once;
//  - up to eight tiles per SM (2^22 to 2^24 floats on both cards): exactly one block per SM.
//    Back to back, each SM then holds this launch's block in one slot and the next launch's in
//    the other, so the next launch reads while this one takes its tickets and adds up its few
//    partials: at 2^24 floats in batch mode 0.88 -> 0.996 of the best read on an H100, 0.95 ->
//    0.99 on an H200. 128 blocks (each the same number of tiles) measured 3-20% slower than 132:
//    the spare SMs then take two blocks of the next launch and the launches drift out of step;
//  - more: on an H100 (5.2 us per 64 KB tile) one tile per block was best, and more tiles lost
//    0.2-0.9% (blocks drift apart and the sweep over the input loosens); on an H200 (3.6 us per
//    tile) one tile per block lost 4%, two 0.4%, and four to sixteen were equally fast. So: one
//    tile where a tile is long enough to hide the ticket, four where it is not, and at least two
//    waves, or SMs idle at the end.
// Two cards calibrate this, so the threshold sits halfway between them; the inputs are the
// device's memory clock, bus width and SM count, not its name. Returns the grid; *ept gets the
// elements per thread it comes to (rounded up), for the table.
static const double TILE_HIDES_TICKET_US = 4.4;
static const unsigned TILES_PER_BLOCK_SHORT = 4;
static const unsigned TILES_PER_SM_ONE_BLOCK = 8;

static unsigned single_pass_grid(const ladder_version *v, const cudaDeviceProp &prop, double spec_gbs, unsigned block, size_t n,
                                 unsigned *ept)
{
    const size_t sms = (size_t)prop.multiProcessorCount;
    double resident = (double)sms * (prop.maxThreadsPerMultiProcessor / (int)block);
    double tile_bytes = (double)block * v->ept_default * sizeof(float);
    size_t ntiles = (size_t)((double)n * sizeof(float) / tile_bytes);
    size_t grid;
    if (ntiles < sms) {
        grid = std::max<size_t>(1, ntiles);
    } else if (ntiles <= TILES_PER_SM_ONE_BLOCK * sms) {
        grid = sms;
    } else {
        double tile_us = tile_bytes / (spec_gbs * 1e3 / resident); // GB/s is 1e3 bytes per microsecond
        double tiles = tile_us >= TILE_HIDES_TICKET_US ? 1 : TILES_PER_BLOCK_SHORT;
        tiles = std::max(1.0, std::min(tiles, std::floor((double)ntiles / (2.0 * resident))));
        grid = (size_t)std::ceil((double)ntiles / tiles);
    }
    *ept = (unsigned)((n + grid * block - 1) / (grid * block));
    return (unsigned)grid;
}

// a row's GB/s over the best read's at the same size and mode (the share of the read ceiling the
// table's %best column prints); 0 where that size and mode have no best read
static double best_read_ratio(const std::vector<row> &rows, const row &r)
{
    for (const row &q : rows)
        if (q.name == "best-read" && q.n == r.n && q.mode == r.mode && q.ok && q.gbs > 0) return r.ok ? r.gbs / q.gbs : 0;
    return 0;
}

static std::string json_escape(const std::string &s)
{
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if ((unsigned char)c < 0x20) continue;
        o += c;
    }
    return o;
}

// Where a results file goes: the file (outfile: a temporary beside it, renamed when whole), or, in
// the child that runs a kernel of one's own (confined: it may write no file), the pipe to its
// parent, which writes it (bench_own): a frame "TAG LENGTH\n" and the bytes.
static int child_pipe = -1;
struct results_out {
    outfile of;
    FILE *f = nullptr;
    char *buf = nullptr;
    size_t len = 0;
    char tag = 0;
};
static int out_open(results_out &o, const char *path, char tag)
{
    o.tag = tag;
    if (child_pipe >= 0) return (o.f = open_memstream(&o.buf, &o.len)) ? 0 : -1;
    char err[512];
    if (outfile_open(&o.of, path, err, sizeof err)) return -1;
    o.f = o.of.f;
    return 0;
}
static int out_commit(results_out &o)
{
    char err[512];
    if (child_pipe < 0) return outfile_commit(&o.of, err, sizeof err);
    if (fclose(o.f)) return -1;
    char head[64];
    int k = snprintf(head, sizeof head, "%c %zu\n", o.tag, o.len), bad = 0;
    for (const char *p : {(const char *)head, (const char *)o.buf}) {
        size_t want = p == head ? (size_t)k : o.len, done = 0;
        while (done < want && !bad) {
            ssize_t w = write(child_pipe, p + done, want - done);
            if (w <= 0) bad = 1;
            else done += (size_t)w;
        }
    }
    free(o.buf);
    return bad ? -1 : 0;
}

static int write_json(const char *path, const std::vector<row> &rows, const std::vector<size_info> &sizes,
                      const cudaDeviceProp &prop, const char *driver, const char *toolkit, const char *date, int mem_khz,
                      int bus_bits, double spec_gbs, const opts &o, const double launch_us[NMODES], const int batch_of[64])
{
    results_out of;
    if (out_open(of, path, 'J')) return -1;
    FILE *f = of.f;
    fprintf(f, "{\n\"schema\": \"warpscope-bench\",\n\"schema_version\": 2,\n\"device\": \"%s\",\n\"driver\": \"%s\",\n"
               "\"toolkit\": \"%s\",\n\"date\": \"%s\",\n",
            json_escape(prop.name).c_str(), json_escape(driver).c_str(), toolkit, date);
    fprintf(f, "\"sm_count\": %d,\n\"l2_bytes\": %d,\n\"memory_clock_khz\": %d,\n\"bus_width_bits\": %d,\n"
               "\"spec_peak_gbs\": %.1f,\n\"reps\": %d,\n\"batches\": %d,\n\"data\": \"uniform random floats in [0, 1)\",\n",
            prop.multiProcessorCount, prop.l2CacheSize, mem_khz, bus_bits, spec_gbs, o.reps, BATCHES);
    fprintf(f, "\"timing\": \"CUDA events; %d warm-ups; inputs rotated over >= %dx L2; launch: median of reps single runs; "
               "batch: median of %d means of back-to-back runs\",\n\"modes\": [",
            WARMUPS, L2_ROTATION, BATCHES);
    bool first = true;
    for (int m = 0; m < NMODES; m++) {
        if (!o.mode_on[m]) continue;
        fprintf(f, "%s{\"id\": \"%s\", \"title\": \"%s\", \"empty_kernel_us\": %.3f}", first ? "" : ", ", mode_id(m),
                mode_title(m), launch_us[m]);
        first = false;
    }
    fprintf(f, "],\n\"sizes\": [\n");
    for (size_t i = 0; i < sizes.size(); i++) {
        const size_info &s = sizes[i];
        fprintf(f, "{\"n\": %zu, \"spec_us\": %.4f, \"latency_bound\": %s, \"batch_runs\": %d", s.n, s.spec_us,
                s.spec_us < launch_us[MODE_LAUNCH] ? "true" : "false", batch_of[i]);
        if (std::isfinite(s.serial_rel_err)) fprintf(f, ", \"serial_rel_error\": %.6g, \"serial_ulps\": %.6g", s.serial_rel_err, s.serial_ulps);
        fprintf(f, "}%s\n", i + 1 < sizes.size() ? "," : "");
    }
    fprintf(f, "],\n\"rows\": [\n");
    for (size_t i = 0; i < rows.size(); i++) {
        const row &r = rows[i];
        fprintf(f, "{\"name\": \"%s\", \"kind\": \"%s\", \"mode\": \"%s\", \"n\": %zu, \"ms\": %.9g, \"gbs\": %.2f, \"ok\": %s, "
                   "\"ms_min\": %.9g, \"ms_max\": %.9g, \"block\": %u, \"grid\": %u, \"passes\": %u, \"elems_per_thread\": %u",
                r.name.c_str(), r.kind.c_str(), mode_id(r.mode), r.n, r.ms, r.gbs, r.ok ? "true" : "false", r.ms_min, r.ms_max,
                r.block, r.grid, r.passes, r.ept);
        if (r.rel_err >= 0) fprintf(f, ", \"rel_error\": %.6g, \"ulps\": %.6g", r.rel_err, r.ulps);
        if (!r.ok && r.ref != 0) fprintf(f, ", \"got\": %.9g, \"reference\": %.17g", r.got, r.ref);
        double ratio = best_read_ratio(rows, r);
        if (ratio > 0) fprintf(f, ", \"best_read_ratio\": %.4f", ratio);
        if (!r.variant.empty()) fprintf(f, ", \"variant\": \"%s\"", json_escape(r.variant).c_str());
        fprintf(f, "}%s\n", i + 1 < rows.size() ? "," : "");
    }
    fprintf(f, "]\n}\n");
    return out_commit(of);
}

static int write_csv(const char *path, const std::vector<row> &rows)
{
    results_out of;
    if (out_open(of, path, 'C')) return -1;
    FILE *f = of.f;
    fprintf(f, "name,kind,mode,n,ms,us,gbs,ok,ms_min,ms_max,block,grid,passes,elems_per_thread,rel_error,ulps,variant\n");
    for (const row &r : rows) {
        fprintf(f, "%s,%s,%s,%zu,%.9g,%.4f,%.2f,%d,%.9g,%.9g,%u,%u,%u,%u,", r.name.c_str(), r.kind.c_str(), mode_id(r.mode),
                r.n, r.ms, r.ms * 1e3, r.gbs, r.ok, r.ms_min, r.ms_max, r.block, r.grid, r.passes, r.ept);
        if (r.rel_err >= 0) fprintf(f, "%.6g,%.6g,", r.rel_err, r.ulps);
        else fprintf(f, ",,");
        fprintf(f, "\"%s\"\n", r.variant.c_str());
    }
    return out_commit(of);
}

// fails early, before minutes of measuring, if a results file cannot be written
static int check_writable(const char *path)
{
    if (!path) return 0;
    outfile of; /* a unique temporary file, removed again: a fixed X.tmp could be someone's file */
    char err[512];
    if (outfile_open(&of, path, err, sizeof err)) {
        fprintf(stderr, "warpscope: bench: %s\n", err);
        return -1;
    }
    outfile_abort(&of);
    return 0;
}

enum { TURN_READY_FD = 3, TURN_GO_FD = 4 }; // --card-turn's descriptors (wait_for_turn)

// the flags main scanned from the command table (app/commands.c); what they mean is here
static int parse_args(const cli_value *v, opts &o)
{
    enum { SIZES = WF_SIZES, VERSIONS = WF_VERSIONS, MODES = WF_MODES, JSON = WF_JSON_FILE, CSV = WF_CSV, REPS = WF_REPS,
           BLOCK = WF_BENCH_BLOCK, EPT = WF_EPT, BATCH = WF_BATCH, DEVICE = WF_DEVICE };
    if (v[SIZES].given && parse_sizes(v[SIZES].text, o)) return -1;
    if (v[VERSIONS].given && parse_list("--versions", v[VERSIONS].text, o.versions)) return -1;
    if (v[MODES].given) {
        std::vector<std::string> ms;
        if (parse_list("--modes", v[MODES].text, ms)) return -1;
        for (int m = 0; m < NMODES; m++) o.mode_on[m] = false;
        for (const std::string &m : ms) {
            int found = -1;
            for (int k = 0; k < NMODES; k++)
                if (m == mode_id(k)) found = k;
            if (found < 0) {
                fprintf(stderr, "warpscope: bench: --modes item \"%s\" is not launch or batch\n", m.c_str());
                return -1;
            }
            o.mode_on[found] = true;
        }
    }
    if (v[JSON].given) o.json = v[JSON].text;
    if (v[CSV].given) o.csv = v[CSV].text;
    if (v[REPS].given) o.reps = (int)v[REPS].num;
    if (v[BLOCK].given) o.block = (unsigned)v[BLOCK].num;
    if (v[EPT].given) o.ept = (unsigned)v[EPT].num;
    if (v[BATCH].given) o.batch = (int)v[BATCH].num;
    if (v[DEVICE].given) o.device = (int)v[DEVICE].num;
    o.alone = v[WF_JUDGED].given;
    o.turn = v[WF_CARD_TURN].given;
    if (o.turn && !o.alone) {
        fprintf(stderr, "warpscope: bench: --card-turn goes with --kernel and --judged (the class server's timing)\n");
        return -1;
    }
    if (o.turn && (fcntl(TURN_READY_FD, F_GETFD) < 0 || fcntl(TURN_GO_FD, F_GETFD) < 0)) {
        fprintf(stderr, "warpscope: bench: --card-turn needs descriptors %d and %d open (the class server gives them)\n", TURN_READY_FD, TURN_GO_FD);
        return -1;
    }
    return 0;
}

// --card-turn: the class server starts the next timings while one runs on the card, and gives the
// card to one at a time. The kernel's process, CUDA up and none of the learner's code loaded, says
// it is ready (a byte on descriptor 3) and waits for its turn (a byte on descriptor 4); the server
// holds the turn until the whole process has ended, and its time limit counts from the turn.
static int wait_for_turn(void)
{
    char c = 'r';
    ssize_t w;
    do w = write(TURN_READY_FD, &c, 1);
    while (w < 0 && errno == EINTR);
    ssize_t r = -1;
    if (w == 1)
        do r = read(TURN_GO_FD, &c, 1);
        while (r < 0 && errno == EINTR);
    close(TURN_READY_FD);
    close(TURN_GO_FD);
    return r == 1 ? 0 : -1;
}

extern "C" const int bench_has_cuda = 1; // app/gpu_time.c: this build can time on a GPU
static const char *own_work; // bench_own's folder for the kernel's child
static int bench_run(const opts &o, const capture_desc *own, volatile int *cancel);
static int bench_own(const opts &o, const capture_desc *own, volatile int *cancel);

int bench_main(const cli_value flag[WF_COUNT], const capture_desc *own, volatile int *cancel)
{
    opts o;
    if (parse_args(flag, o)) return 2;
    if (o.sizes.empty())
        for (int k = 16; k <= 30; k += 2) o.sizes.push_back((size_t)1 << k);
    if (o.sizes.size() > 64) {
        fprintf(stderr, "warpscope: bench: at most 64 sizes, got %zu\n", o.sizes.size());
        return 2;
    }
    if (o.versions.empty() && !own) // a kernel of one's own is measured against the libraries and the best read alone
        for (size_t i = 0; i < ladder_count; i++)
            if (!ladder_versions[i].races) o.versions.push_back(ladder_versions[i].id);
    return own ? bench_own(o, own, cancel) : bench_run(o, nullptr, cancel);
}

// A kernel of one's own: first run by the emulator (where a loop that never ends, an access out of
// bounds or a race is named at its line), then measured in a process of its own, since its host
// code is the learner's (a crash there is reported, not warpscope's). Nothing here touches CUDA:
// the child is the first to.
static int bench_own(const opts &o, const capture_desc *own, volatile int *cancel)
{
    capture_desc d = *own;
    char err[1024];
    if (!o.alone) { // --judged: the emulator judged it already (the class server's Check)
        d.n = std::min<size_t>(o.sizes[0], (size_t)1 << 16);
        d.data = "random-float";
        d.cancel = cancel;
        trace t;
        trace_init(&t);
        if (capture_with("cpu", &d, &t, nullptr, 0, err, sizeof err)) {
            fprintf(stderr, "warpscope: bench: %s\n", err);
            return 2;
        }
        double tol = TOLERANCE_SLACK * t.tolerance, off = std::fabs((double)t.result - t.reference);
        size_t hazards = t.nhazards;
        float result = t.result;
        double reference = t.reference;
        trace_free(&t);
        if (!(off <= tol)) {
            fprintf(stderr, "warpscope: bench: %s: the emulator's run at n = %llu gives %.9g, the double-precision sum is %.9g: bench times "
                            "kernels that sum right (warpscope stats --kernel shows the run)\n",
                    own->kernel, (unsigned long long)d.n, (double)result, reference);
            return 2;
        }
        if (hazards) {
            fprintf(stderr, "warpscope: bench: %s: the emulator finds %zu hazard%s at n = %llu (warpscope hazards --kernel names %s); "
                            "bench times kernels that do not race\n", own->kernel, hazards, hazards == 1 ? "" : "s", (unsigned long long)d.n,
                    hazards == 1 ? "it" : "them");
            return 2;
        }
    }
    // the child's folder (its object copied there, the one place it may read and write) and the
    // pipe its results come back by: it writes no file itself
    char work[4200];
    int pfd[2];
    if (sandbox_work(work, sizeof work, err, sizeof err)) {
        fprintf(stderr, "warpscope: bench: %s\n", err);
        return 2;
    }
    if (pipe2(pfd, O_CLOEXEC)) {
        fprintf(stderr, "warpscope: bench: cannot start the kernel's process: %s\n", strerror(errno));
        sandbox_remove(work);
        return 2;
    }
    own_work = work;
    fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpscope: bench: cannot start the kernel's process: %s\n", strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        sandbox_remove(work);
        return 2;
    }
    if (pid == 0) {
        close(pfd[0]);
        child_pipe = pfd[1];
        int rc = bench_run(o, own, cancel);
        fflush(nullptr);
        _exit(rc);
    }
    close(pfd[1]);
    if (o.turn) { // the child's alone: its end of the turn is seen by the server when it ends
        close(TURN_READY_FD);
        close(TURN_GO_FD);
    }
    fcntl(pfd[0], F_SETFL, O_NONBLOCK);
    std::string got; // the child's frames, at most RESULTS_MAX bytes
    const size_t RESULTS_MAX = (size_t)8 << 20;
    int status = 0, signalled = 0;
    double since = 0;
    for (;;) {
        char buf[65536];
        for (ssize_t k; (k = read(pfd[0], buf, sizeof buf)) > 0;)
            if (got.size() + (size_t)k <= RESULTS_MAX) got.append(buf, (size_t)k);
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (*cancel && !signalled) { kill(pid, SIGTERM); signalled = 1; } // it stops between measurements
        if (signalled && (since += 0.01) > 10) { kill(pid, SIGKILL); signalled = 2; }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, nullptr);
    }
    {
        char buf[65536];
        for (ssize_t k; (k = read(pfd[0], buf, sizeof buf)) > 0;)
            if (got.size() + (size_t)k <= RESULTS_MAX) got.append(buf, (size_t)k);
    }
    close(pfd[0]);
    sandbox_remove(work);
    if (WIFSIGNALED(status) && !*cancel) {
        fprintf(stderr, "warpscope: bench: %s: the program stopped with signal %d (%s): a bad pointer in its host code?\n", own->kernel,
                WTERMSIG(status), strsignal(WTERMSIG(status)));
        return 2;
    }
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
    if (*cancel || (rc != 0 && rc != 1)) return rc ? rc : 2;
    // the results files, as the child framed them: "J LENGTH\n" the JSON, "C LENGTH\n" the CSV
    for (size_t at = 0; at < got.size();) {
        char tag = 0;
        size_t len = 0;
        int used = 0;
        if (sscanf(got.c_str() + at, "%c %zu\n%n", &tag, &len, &used) < 2 || !used || at + (size_t)used + len > got.size()) {
            fprintf(stderr, "warpscope: bench: %s: the kernel's process sent results warpscope cannot read\n", own->kernel);
            return 2;
        }
        const char *path = tag == 'J' ? o.json : tag == 'C' ? o.csv : nullptr;
        outfile of;
        if (path && (outfile_open(&of, path, err, sizeof err) || fwrite(got.data() + at + used, 1, len, of.f) != len ||
                     outfile_commit(&of, err, sizeof err))) {
            fprintf(stderr, "warpscope: bench: cannot write %s: %s\n", path, err);
            return 2;
        }
        at += (size_t)used + len;
    }
    return rc;
}

static int bench_run(const opts &o, const capture_desc *own, volatile int *cancel)
{
    std::vector<const ladder_version *> vers;
    for (auto &id : o.versions) {
        const ladder_version *v = ladder_find(id.c_str());
        if (!v) {
            fprintf(stderr, "warpscope: bench: unknown version \"%s\" (warpscope list shows them)\n", id.c_str());
            return 2;
        }
        char err[256];
        if (o.block && ladder_check_block(v, o.block, err, sizeof err)) {
            fprintf(stderr, "warpscope: bench: %s\n", err);
            return 2;
        }
        if (o.ept && ladder_check_ept(v, o.ept, err, sizeof err)) {
            fprintf(stderr, "warpscope: bench: %s\n", err);
            return 2;
        }
        vers.push_back(v);
    }
    if (check_writable(o.json) || check_writable(o.csv)) return 2;

    int ndev = 0;
    cudaError_t de = cudaGetDeviceCount(&ndev);
    if (de != cudaSuccess || ndev == 0) {
        fprintf(stderr, "warpscope: bench needs an NVIDIA GPU: %s\n", de != cudaSuccess ? cudaGetErrorString(de) : "no CUDA device found");
        return 2;
    }
    if (o.device >= ndev) {
        fprintf(stderr, "warpscope: bench: --device %d, but this machine has %d GPU%s (0 to %d)\n", o.device, ndev,
                ndev == 1 ? "" : "s", ndev - 1);
        return 2;
    }
    CK(cudaSetDevice(o.device));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, o.device));
    int mem_khz = 0, bus_bits = 0;
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, o.device));
    CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, o.device));
    double spec_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9; // double data rate
    char driver[128];
    capture_gpu_driver(driver, sizeof driver);
    char toolkit[32];
    snprintf(toolkit, sizeof toolkit, "CUDA %d.%d", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    char date[32];
    time_t now = time(nullptr);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    size_t l2 = (size_t)prop.l2CacheSize;
    // programmatic dependent launch (a launch that starts while the previous one finishes: v8's,
    // and the "+pdl" read kernels') needs compute capability 9.0 or later; elsewhere v8 is launched
    // plainly and the read kernels only so
    const bool can_overlap = prop.major >= 9;
    printf("%s, %d SMs, L2 %zu MB, spec peak %.0f GB/s (%d MHz x %d bits x 2), driver %s, %s\n", prop.name,
           prop.multiProcessorCount, l2 >> 20, spec_gbs, mem_khz / 1000, bus_bits, driver, toolkit);
    printf("random floats in [0, 1); CUDA events; %d warm-ups; inputs rotated over >= %dx L2; every result checked against a double sum\n",
           WARMUPS, L2_ROTATION);

    // a kernel of one's own, built plain by nvcc for this GPU (from the cache when it is there)
    own_gpu_kernel *mine = nullptr;
    std::string mine_name;
    if (own) {
        char err[1024];
        if (o.turn && wait_for_turn()) {
            fprintf(stderr, "warpscope: bench: the card's turn never came (the class server stopped?)\n");
            return 2;
        }
        if (!(mine = own_gpu_open(own, own_work, err, sizeof err))) {
            fprintf(stderr, "warpscope: bench: %s\n", err);
            return 2;
        }
        mine_name = own_base_name(own->kernel);
        if (mine_name.size() > 3 && mine_name.compare(mine_name.size() - 3, 3, ".cu") == 0) mine_name.resize(mine_name.size() - 3);
        printf("%s: its launches timed with CUDA events around each, summed (its host code is not timed); launch mode only, "
               "since its host code waits between runs\n", own->kernel);
    }

    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<row> rows;
    std::vector<size_info> infos;
    int batch_of[64] = {0};

    // an empty kernel in both modes: the launch latency every row pays
    double launch_us[NMODES] = {0, 0};
    {
        for (int k = 0; k < WARMUPS; k++) empty_kernel<<<1, 32, 0, st>>>();
        std::vector<double> t;
        for (int k = 0; k < std::max(o.reps, 30); k++) {
            CK(cudaEventRecord(e0, st));
            empty_kernel<<<1, 32, 0, st>>>();
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            t.push_back(ms);
        }
        launch_us[MODE_LAUNCH] = median(t) * 1e3;
        t.clear();
        for (int b = 0; b < BATCHES; b++) {
            CK(cudaEventRecord(e0, st));
            for (int k = 0; k < BATCH_MAX; k++) empty_kernel<<<1, 32, 0, st>>>();
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            t.push_back(ms / BATCH_MAX);
        }
        launch_us[MODE_BATCH] = median(t) * 1e3;
        CK(cudaGetLastError());
    }
    printf("an empty kernel: %.2f us per launch, %.2f us back to back\n\n", launch_us[MODE_LAUNCH], launch_us[MODE_BATCH]);

    for (size_t si = 0; si < o.sizes.size() && !*cancel; si++) {
        size_t n = o.sizes[si];
        size_t bytes = n * sizeof(float), pitch = (bytes + 255) / 256 * 256;
        size_t nbuf = std::max<size_t>(2, (L2_ROTATION * l2 + bytes - 1) / bytes);
        nbuf = std::min<size_t>(nbuf, 2048);
        size_t free_b = 0, total_b = 0;
        CK(cudaMemGetInfo(&free_b, &total_b));
        // inputs, one working copy (naive works in place), partial sums
        if ((nbuf + 1) * pitch + (64u << 20) > free_b) nbuf = std::max<size_t>(2, free_b / pitch - 2);
        if ((nbuf + 1) * pitch + (64u << 20) > free_b) {
            printf("n = %zu: skipped, %zu MB of GPU memory needed and %zu MB free\n", n, (nbuf + 1) * pitch >> 20, free_b >> 20);
            continue;
        }
        int batch = o.batch ? o.batch : (int)std::min<double>(BATCH_MAX, std::max<double>(BATCH_MIN, std::ceil(BATCH_BYTES / (double)bytes)));
        batch_of[infos.size()] = batch;
        char *slab;
        float *work, *partials, *partials2, *result_d;
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
        CK(cudaMalloc(&result_d, sizeof(float)));
        std::vector<float *> in(nbuf);
        for (size_t b = 0; b < nbuf; b++) {
            in[b] = (float *)(slab + b * pitch);
            fill_kernel<<<1024, 256, 0, st>>>(in[b], n, 1000 + n + b);
            reference_kernel<<<std::min<size_t>(1024, (n + 255) / 256), 256, 0, st>>>(in[b], n, &refs[2 * b], &refs[2 * b + 1]);
        }
        CK(cudaGetLastError());
        std::vector<double> ref(2 * nbuf);
        CK(cudaMemcpy(ref.data(), refs, 2 * nbuf * sizeof(double), cudaMemcpyDeviceToHost));

        // a serial float loop over buffer 0, for accuracy only: what a tree is compared with (not
        // for a file judged already, whose rows alone are read)
        size_info info{n, NAN, NAN, (double)bytes / (spec_gbs * 1e3)};
        if (!o.alone) {
            std::vector<float> h(n);
            CK(cudaMemcpy(h.data(), in[0], bytes, cudaMemcpyDeviceToHost));
            float s = 0.0f;
            for (size_t i = 0; i < n; i++) s += h[i];
            double err = std::fabs((double)s - ref[0]);
            info.serial_rel_err = err / std::fabs(ref[0]);
            info.serial_ulps = err / ulp_of(ref[0]);
        }
        infos.push_back(info);

        void *cub_tmp = nullptr;
        size_t cub_bytes = 0;
        if (!(own && o.alone)) {
            CK(cub::DeviceReduce::Sum(cub_tmp, cub_bytes, in[0], result_d, (int)n, st));
            CK(cudaMalloc(&cub_tmp, std::max<size_t>(cub_bytes, 1)));
        }
        double log2n = std::ceil(std::log2((double)n)) + 2;

        // One row per mode for a candidate: `prepare(b)` runs untimed before each per-launch run
        // (naive's copy of its input), `run(b)` enqueues one whole run on buffer b, `result()`
        // reads back what the last run computed (none for the read kernels and the copy).
        struct candidate {
            std::string name, kind, variant;
            unsigned block, grid, passes, ept;
            std::function<void(size_t)> prepare, run;
            std::function<double()> result;
            double bytes_moved;
            bool batchable;
            std::function<double()> own_ms = nullptr; // a time the run took itself (a kernel of one's own: its launches')
        };
        auto check = [&](row &r, const candidate &c, size_t b) {
            if (!c.result) return true;
            double got = c.result();
            double tol = TOLERANCE_SLACK * log2n * std::ldexp(1.0, -24) * ref[2 * b + 1];
            double err = std::fabs(got - ref[2 * b]);
            if (!(err <= tol)) {
                fprintf(stderr, "warpscope: bench: %s at n = %zu computed %.9g, the double reference is %.17g (error %.3g > tolerance %.3g)\n",
                        c.name.c_str(), n, got, ref[2 * b], err, tol);
                r.ok = 0;
                r.got = got;
                r.ref = ref[2 * b];
                return false;
            }
            r.rel_err = std::max(r.rel_err, err / std::fabs(ref[2 * b]));
            r.ulps = std::max(r.ulps, err / ulp_of(ref[2 * b]));
            return true;
        };
        auto measure = [&](const candidate &c) {
            for (int m = 0; m < NMODES && !*cancel; m++) {
                if (!o.mode_on[m] || (m == MODE_BATCH && !c.batchable)) continue;
                row r{c.name, c.kind, c.variant, m, n, 0, 0, 0, 0, c.result ? 0.0 : -1.0, c.result ? 0.0 : -1.0, 1,
                      c.block, c.grid, c.passes, c.ept};
                std::vector<double> ms;
                for (int k = 0; k < WARMUPS && r.ok; k++) {
                    size_t b = (size_t)k % nbuf;
                    if (c.prepare) c.prepare(b);
                    c.run(b);
                    CK(cudaGetLastError());
                    check(r, c, b);
                }
                if (m == MODE_LAUNCH) {
                    for (int k = 0; k < o.reps && r.ok; k++) {
                        size_t b = (size_t)(k + WARMUPS) % nbuf;
                        if (c.prepare) c.prepare(b);
                        CK(cudaEventRecord(e0, st));
                        c.run(b);
                        CK(cudaEventRecord(e1, st));
                        CK(cudaEventSynchronize(e1));
                        CK(cudaGetLastError());
                        float t;
                        CK(cudaEventElapsedTime(&t, e0, e1));
                        ms.push_back(c.own_ms ? c.own_ms() : t);
                        check(r, c, b);
                    }
                } else {
                    for (int k = 0; k < BATCHES && r.ok; k++) {
                        size_t b = 0;
                        CK(cudaEventRecord(e0, st));
                        for (int j = 0; j < batch; j++) {
                            b = (size_t)(k * batch + j) % nbuf;
                            c.run(b);
                        }
                        CK(cudaEventRecord(e1, st));
                        CK(cudaEventSynchronize(e1));
                        CK(cudaGetLastError());
                        float t;
                        CK(cudaEventElapsedTime(&t, e0, e1));
                        ms.push_back(t / batch);
                        check(r, c, b); // the last run of the batch
                    }
                }
                if (r.ok) {
                    r.ms = median(ms);
                    r.ms_min = *std::min_element(ms.begin(), ms.end());
                    r.ms_max = *std::max_element(ms.begin(), ms.end());
                    r.gbs = c.bytes_moved / (r.ms * 1e6);
                }
                rows.push_back(r);
            }
        };
        auto read_float = [&](const float *p) {
            float h;
            CK(cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost));
            return (double)h;
        };

        for (const ladder_version *v : vers) {
            launch_fn fn = launcher(v->id);
            unsigned block = o.block ? o.block : v->bench_block;
            unsigned ept = v->ept_default, single_grid = 0;
            if (o.ept && v->ept_tunable) {
                ept = o.ept;
            } else if (v->shape == LADDER_SINGLE_PASS) {
                single_grid = single_pass_grid(v, prop, spec_gbs, block, n, &ept);
            } else if (v->ept_tunable) {
                // Brent: enough elements per thread that the grid is two waves of the blocks the
                // GPU holds at once; exactly two waves measured best for v6 and v7's grid-stride
                // loops on an H100 (docs/bench-notes.md)
                unsigned resident = 2 * (unsigned)prop.multiProcessorCount * (unsigned)(prop.maxThreadsPerMultiProcessor / (int)block);
                size_t want = (n + (size_t)block * resident - 1) / ((size_t)block * resident);
                want = (want + v->ept_multiple - 1) / v->ept_multiple * v->ept_multiple;
                ept = (unsigned)std::max<size_t>(ept, std::min<size_t>(want, 1u << 20));
            }
            ladder_pass plan[LADDER_MAX_PASSES];
            int np = ladder_plan(v, block, n, ept, plan);
            if (single_grid) plan[0].grid = single_grid; // one launch; the kernel strides over the tiles by gridDim
            const float *last = nullptr;
            candidate c{v->id, "version", "", block, plan[0].grid, (unsigned)np, ept, nullptr, nullptr, nullptr, (double)bytes,
                        v->shape != LADDER_IN_PLACE};
            if (v->shape == LADDER_IN_PLACE) // naive reduces in place: each run starts from a copy of the input
                c.prepare = [&](size_t b) { CK(cudaMemcpyAsync(work, in[b], bytes, cudaMemcpyDeviceToDevice, st)); };
            c.run = [&](size_t b) {
                const float *cur = in[b];
                for (int k = 0; k < np; k++) {
                    ws_args a;
                    a.in = cur;
                    a.counter = counter;
                    a.n = (unsigned)plan[k].n_in;
                    a.stride = plan[k].stride;
                    a.overlap = can_overlap;
                    a.out = v->shape == LADDER_IN_PLACE ? work : (k % 2 ? partials2 : partials);
                    fn(plan[k].grid, plan[k].block, a, st);
                    cur = a.out;
                }
                last = cur;
            };
            c.result = [&] { return read_float(last); };
            measure(c);
        }
        if (mine) {
            // the entry runs on buffer b as in, with a zeroed out (and, where it names h_in, a host copy of b)
            bool wants_host = own->entry && strstr(own->entry, "h_in");
            std::vector<float> h(wants_host ? n : 0);
            own_gpu_timing tm{};
            candidate c{mine_name, "kernel", own->entry ? own->entry : "", 0, 0, 0, 1, nullptr, nullptr, nullptr, (double)bytes, false};
            c.prepare = [&](size_t b) {
                CK(cudaMemsetAsync(work, 0, bytes, st));
                if (wants_host) CK(cudaMemcpyAsync(h.data(), in[b], bytes, cudaMemcpyDeviceToHost, st));
                CK(cudaStreamSynchronize(st));
            };
            c.run = [&](size_t b) {
                char err[1024];
                if (own_gpu_time(mine, in[b], work, (unsigned)n, wants_host ? h.data() : nullptr, &tm, err, sizeof err)) {
                    fprintf(stderr, "warpscope: bench: at n = %zu: %s\n", n, err);
                    exit(2);
                }
            };
            c.result = [&] { return (double)tm.result; };
            c.own_ms = [&] { return tm.ms; };
            size_t before = rows.size();
            measure(c);
            for (size_t i = before; i < rows.size(); i++) {
                rows[i].block = tm.block;
                rows[i].grid = tm.grid;
                rows[i].passes = tm.launches;
            }
        }
        if (!(mine && o.alone)) {
            measure({"cub", "library", "cub::DeviceReduce::Sum", 0, 0, 0, 0, nullptr,
                     [&](size_t b) { CK(cub::DeviceReduce::Sum(cub_tmp, cub_bytes, in[b], result_d, (int)n, st)); },
                     [&] { return read_float(result_d); }, (double)bytes, true});
            float thrust_result = 0;
            measure({"thrust", "library", "thrust::reduce (returns to the host each call)", 0, 0, 0, 0, nullptr,
                     [&](size_t b) { thrust_result = thrust::reduce(thrust::cuda::par.on(st), in[b], in[b] + n, 0.0f); },
                     [&] { return (double)thrust_result; }, (double)bytes, true});
            measure({"d2d-copy", "copy", "cudaMemcpyAsync device to device (read + write)", 0, 0, 1, 0, nullptr,
                     [&](size_t b) { CK(cudaMemcpyAsync(work, in[b], bytes, cudaMemcpyDeviceToDevice, st)); }, nullptr,
                     2.0 * (double)bytes, true});

            // best read: every candidate in both modes, plain and (where the device can) overlapping,
            // the fastest kept per mode
            std::vector<row> best(NMODES);
            for (int ov = 0; ov < 1 + can_overlap; ov++) {
                for (const read_candidate &rc : read_candidates) {
                    size_t per = rc.width / sizeof(float), nv = n / per;
                    size_t tiles = std::max<size_t>(1, nv / ((size_t)rc.block * rc.rows));
                    unsigned grid = (unsigned)std::min<size_t>(tiles, 1u << 30);
                    if (rc.waves) // blocks resident at once: full occupancy, which these small kernels reach
                        grid = (unsigned)std::min<size_t>(grid, (size_t)rc.waves * prop.multiProcessorCount *
                                                                    (size_t)(prop.maxThreadsPerMultiProcessor / (int)rc.block));
                    size_t before = rows.size();
                    measure({"best-read", "read", std::string(rc.name) + (ov ? " +pdl" : ""), rc.block, grid, 1, rc.rows * (unsigned)per, nullptr,
                             [&, grid, nv, ov](size_t b) { rc.fn(in[b], nv, partials, grid, st, ov != 0); }, nullptr,
                             (double)(nv * rc.width), true});
                    for (size_t i = before; i < rows.size(); i++)
                        if (rows[i].ok && (best[rows[i].mode].gbs == 0 || rows[i].gbs > best[rows[i].mode].gbs)) best[rows[i].mode] = rows[i];
                    rows.resize(before);
                }
            }
            for (int m = 0; m < NMODES; m++)
                if (best[m].gbs > 0) rows.push_back(best[m]);
        }

        CK(cudaFree(slab));
        CK(cudaFree(work));
        CK(cudaFree(partials));
        CK(cudaFree(partials2));
        CK(cudaFree(counter));
        CK(cudaFree(refs));
        CK(cudaFree(result_d));
        CK(cudaFree(cub_tmp));
        fprintf(stderr, "n = %zu done (%zu input buffers, batches of %d runs)\n", n, nbuf, batch);
    }

    // the table: per mode, per size; each row against the best read, the spec peak and v0
    int namew = 10; // the name column: a kernel of one's own is named by its file
    for (const row &r : rows) namew = std::max(namew, (int)r.name.size());
    for (int m = 0; m < NMODES; m++) {
        if (!o.mode_on[m]) continue;
        printf("== %s ==\n", mode_title(m));
        for (const size_info &s : infos) {
            const row *bestr = nullptr, *v0 = nullptr;
            for (const row &q : rows) {
                if (q.n != s.n || q.mode != m || !q.ok) continue;
                if (q.name == "best-read") bestr = &q;
                if (q.name == "v0") v0 = &q;
            }
            int k = 0;
            while (((size_t)1 << k) < s.n) k++;
            printf("\nn = %zu (2^%d%s), %.3g MB", s.n, k, ((size_t)1 << k) == s.n ? "" : " rounded up", 4.0 * (double)s.n / 1e6);
            if (s.spec_us < launch_us[MODE_LAUNCH])
                printf(": launch latency, not bandwidth (at the spec peak these bytes take %.2f us; an empty kernel's launch %.2f us)",
                       s.spec_us, launch_us[MODE_LAUNCH]);
            printf("\n%-*s %10s %9s %7s %7s %8s %10s %9s %6s\n", namew, "name", "us", "GB/s", "%best", "%spec", "vs v0", "rel err", "ulps", "check");
            for (const row &r : rows) {
                if (r.n != s.n || r.mode != m) continue;
                if (!r.ok) {
                    printf("%-*s %10s %9s %7s %7s %8s %10s %9s %6s\n", namew, r.name.c_str(), "-", "-", "-", "-", "-", "-", "-", "WRONG");
                    continue;
                }
                char vs[16] = "-", rel[16] = "-", ulps[16] = "-";
                if (v0) snprintf(vs, sizeof vs, "%.2fx", v0->ms / r.ms);
                if (r.rel_err >= 0) {
                    snprintf(rel, sizeof rel, "%.2e", r.rel_err);
                    snprintf(ulps, sizeof ulps, "%.1f", r.ulps);
                }
                printf("%-*s %10.2f %9.1f %6.1f%% %6.1f%% %8s %10s %9s %6s%s%s\n", namew, r.name.c_str(), r.ms * 1e3, r.gbs,
                       bestr ? 100 * r.gbs / bestr->gbs : 0, 100 * r.gbs / spec_gbs, vs, rel, ulps, "ok",
                       r.kind == "read" ? "  " : "", r.kind == "read" ? r.variant.c_str() : "");
            }
            if (std::isfinite(s.serial_rel_err))
                printf("%-*s %10s %9s %7s %7s %8s %10.2e %9.1f\n", namew, "serial", "-", "-", "-", "-", "-", s.serial_rel_err, s.serial_ulps);
        }
        // the top rung against the read ceiling, every size on one line (the %best column of its rows)
        for (const ladder_version *v : vers) {
            if (v->shape != LADDER_SINGLE_PASS) continue;
            printf("\n%s / best read (%s):", v->id, mode_id(m));
            for (const size_info &s : infos)
                for (const row &r : rows)
                    if (r.n == s.n && r.mode == m && r.name == v->id) printf(" %zu: %.3f", s.n, best_read_ratio(rows, r));
            printf("\n");
        }
        printf("\n");
    }
    if (*cancel) return 2; /* stopped: no file; main says so */
    if (o.json && write_json(o.json, rows, infos, prop, driver, toolkit, date, mem_khz, bus_bits, spec_gbs, o, launch_us, batch_of)) {
        fprintf(stderr, "warpscope: bench: cannot write %s\n", o.json);
        return 2;
    }
    if (o.csv && write_csv(o.csv, rows)) {
        fprintf(stderr, "warpscope: bench: cannot write %s\n", o.csv);
        return 2;
    }
    for (const row &r : rows)
        if (!r.ok) return 1;
    return 0;
}
