// Tuning round 6 of docs/bench-notes.md: the top rung in both timing modes, on any Hopper card.
// Every variant is the single-pass shape of kernels/v8.cu (tiles, one partial per block, the last
// block to take a ticket adds the partials), templated on the block size, the 16-byte loads each
// thread has in flight per tile (R) and their layout (R coalesced rows of the block, or R
// consecutive float4 per thread as CUB and simveit's kernel_9 read), launched with a grid of
// one tile per block or of a few waves of resident blocks. Beside them: read-only kernels of the
// same shapes with cache hints (candidates for the bench's "best read"), and CUB.
// Modes: per launch (CUDA events around each launch, median) and batch (events around K
// back-to-back launches, mean); both rotate the input over buffers covering >= 4x the L2.
// Every reduction is checked against a double sum of its input.
// Build: nvcc -O3 -arch=sm_90 -o tune_v8 tune_v8.cu; run: ./tune_v8 [log2 sizes...]
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                                     \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) { printf("%s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); exit(1); } \
    } while (0)

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

template <int BLOCK>
__device__ float block_sum(float v, float *ws)
{
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < BLOCK / 32 ? ws[threadIdx.x % 32] : 0.0f;
    if (threadIdx.x < 32) v = warp_sum(v);
    return v;
}

template <int HINT>
__device__ __forceinline__ float4 ld4(const float4 *p)
{
    if (HINT == 1) return __ldcs(p);
    if (HINT == 2) {
        float4 v;
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p));
        return v;
    }
    if (HINT == 3) return __ldg(p);
    return *p;
}

__device__ __forceinline__ float add4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// REDUCE 1: the sum, single pass; REDUCE 0: a read-only kernel (max, no dependent adds)
template <int BLOCK, int R, int CONTIG, int HINT, int REDUCE>
__global__ void __launch_bounds__(BLOCK) tiled(const float4 *in, unsigned n4, const float *tail, unsigned ntail,
                                               float *partials, unsigned *count)
{
    __shared__ float ws[32];
    __shared__ bool last;
    const unsigned tile = BLOCK * R, ntiles = n4 / tile;
    float sum = 0.0f;
    for (unsigned t = blockIdx.x; t < ntiles; t += gridDim.x) {
        float4 v[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            v[r] = ld4<HINT>(&in[t * tile + (CONTIG ? threadIdx.x * R + r : r * BLOCK + threadIdx.x)]);
        if (REDUCE) {
            float s[R];
#pragma unroll
            for (int r = 0; r < R; r++) s[r] = add4(v[r]);
#pragma unroll
            for (int w = 1; w < R; w *= 2)
#pragma unroll
                for (int r = 0; r + w < R; r += 2 * w) s[r] += s[r + w];
            sum += s[0];
        } else {
#pragma unroll
            for (int r = 0; r < R; r++) sum = fmaxf(sum, fmaxf(fmaxf(v[r].x, v[r].y), fmaxf(v[r].z, v[r].w)));
        }
    }
    for (unsigned i = ntiles * tile + blockIdx.x * BLOCK + threadIdx.x; i < n4; i += BLOCK * gridDim.x) {
        float4 v = in[i];
        sum += REDUCE ? add4(v) : fmaxf(v.x, v.w);
    }
    if (!REDUCE) {
        if (sum < 0.0f) partials[0] = sum; // never: keeps the loads
        return;
    }
    if (blockIdx.x == 0 && threadIdx.x < ntail) sum += tail[threadIdx.x];
    sum = block_sum<BLOCK>(sum, ws);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();
        last = atomicInc(count, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        float t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        unsigned k = threadIdx.x;
        for (; k + 3 * BLOCK < gridDim.x; k += 4 * BLOCK) {
            t0 += partials[k];
            t1 += partials[k + BLOCK];
            t2 += partials[k + 2 * BLOCK];
            t3 += partials[k + 3 * BLOCK];
        }
        for (; k < gridDim.x; k += BLOCK) t0 += partials[k];
        __syncthreads();
        float t = block_sum<BLOCK>((t0 + t1) + (t2 + t3), ws);
        if (threadIdx.x == 0) {
            partials[0] = t;
            *count = 0;
        }
    }
}

__global__ void fill(float *x, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        unsigned long long h = (seed * 0x9e3779b97f4a7c15ull + i);
        h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull; h ^= h >> 33;
        x[i] = (float)((unsigned)h >> 8) * (1.0f / 16777216.0f);
    }
}

__global__ void dsum(const float *x, size_t n, double *out)
{
    double s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) s += x[i];
    __shared__ double sh[256];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if ((int)threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, sh[0]);
}

typedef void (*kern_t)(const float4 *, unsigned, const float *, unsigned, float *, unsigned *);
struct variant {
    std::string name;
    kern_t k;
    int block, rows, contig, hint, reduce;
};
static std::vector<variant> variants;

template <int B, int R, int C, int H, int RED>
static void add()
{
    char nm[64];
    snprintf(nm, sizeof nm, "%s b%d r%d %s h%d", RED ? "sum" : "read", B, R, C ? "contig" : "rows", H);
    variants.push_back({nm, tiled<B, R, C, H, RED>, B, R, C, H, RED});
}
template <int B, int R>
static void add_br()
{
    add<B, R, 0, 0, 1>();
    add<B, R, 1, 0, 1>();
    add<B, R, 0, 0, 0>();
    add<B, R, 0, 1, 0>();
    add<B, R, 0, 2, 0>();
    add<B, R, 1, 0, 0>();
}

int main(int argc, char **argv)
{
    add_br<256, 4>(); add_br<256, 8>(); add_br<256, 16>();
    add_br<512, 2>(); add_br<512, 3>(); add_br<512, 4>(); add_br<512, 6>(); add_br<512, 8>(); add_br<512, 12>(); add_br<512, 16>();
    add_br<1024, 2>(); add_br<1024, 4>(); add_br<1024, 8>(); add_br<1024, 16>();
    // cache hints on the reductions that measured best on an H100
    add<1024, 4, 0, 1, 1>(); add<1024, 4, 0, 2, 1>(); add<512, 8, 0, 2, 1>(); add<1024, 8, 0, 2, 1>(); add<512, 16, 0, 2, 1>();
    std::vector<int> logs;
    for (int i = 1; i < argc; i++) logs.push_back(atoi(argv[i]));
    if (logs.empty()) logs = {30, 24, 20, 16};

    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int mem_khz, bus;
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
    double spec = 2.0 * mem_khz * 1e3 * bus / 8 / 1e9;
    printf("# %s, %d SMs, L2 %d MB, spec %.0f GB/s\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20, spec);
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float *partials;
    unsigned *count;
    CK(cudaMalloc(&partials, (1u << 24) * sizeof(float)));
    CK(cudaMalloc(&count, sizeof(unsigned)));
    CK(cudaMemset(count, 0, sizeof(unsigned)));
    double *dref;
    CK(cudaMalloc(&dref, 64 * sizeof(double)));

    for (int lg : logs) {
        size_t n = (size_t)1 << lg, bytes = n * 4;
        size_t nbuf = std::min<size_t>(64, std::max<size_t>(2, (4 * (size_t)p.l2CacheSize + bytes - 1) / bytes));
        std::vector<float *> in(nbuf);
        for (auto &b : in) CK(cudaMalloc(&b, bytes));
        CK(cudaMemset(dref, 0, 64 * sizeof(double)));
        for (size_t b = 0; b < nbuf; b++) {
            fill<<<1024, 256, 0, st>>>(in[b], n, 77 + b + n);
            dsum<<<1024, 256, 0, st>>>(in[b], n, dref + b);
        }
        std::vector<double> ref(64);
        CK(cudaMemcpy(ref.data(), dref, 64 * sizeof(double), cudaMemcpyDeviceToHost));
        int batch = lg >= 28 ? 20 : lg >= 24 ? 100 : 400, reps = lg >= 28 ? 15 : 51;

        // times `launch(buffer)`: returns {per-launch median ms, batch mean ms}; -1 if wrong
        auto time2 = [&](auto launch, bool check) -> std::pair<double, double> {
            for (int w = 0; w < 3; w++) launch(w % nbuf);
            std::vector<float> t;
            for (int k = 0; k < reps; k++) {
                size_t b = k % nbuf;
                CK(cudaEventRecord(e0, st));
                launch(b);
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
                if (check) {
                    float got;
                    CK(cudaMemcpy(&got, partials, 4, cudaMemcpyDeviceToHost));
                    if (!(fabs(got - ref[b]) <= 1e-5 * ref[b] + 1e-3)) return {-1, -1};
                }
            }
            std::sort(t.begin(), t.end());
            CK(cudaEventRecord(e0, st));
            for (int k = 0; k < batch; k++) launch(k % nbuf);
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            CK(cudaGetLastError());
            if (check) {
                float got;
                CK(cudaMemcpy(&got, partials, 4, cudaMemcpyDeviceToHost));
                if (!(fabs(got - ref[(batch - 1) % nbuf]) <= 1e-5 * ref[(batch - 1) % nbuf] + 1e-3)) return {-2, -2};
            }
            return {t[t.size() / 2], ms / batch};
        };
        auto gbs = [&](double ms) { return ms > 0 ? bytes / (ms * 1e6) : -1.0; };

        for (const variant &v : variants) {
            int occ = 0;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, v.k, v.block, 0));
            unsigned resident = (unsigned)(occ * p.multiProcessorCount);
            unsigned n4 = (unsigned)(n / 4), ntiles = n4 / (v.block * v.rows);
            unsigned policies[] = {0, 1, 2, 4, 8, 32};
            for (unsigned w : policies) {
                unsigned grid = w == 0 ? std::max(1u, ntiles) : std::min(std::max(1u, ntiles), w * resident);
                if (w && w * resident >= ntiles && w != 1) continue; // same as one tile per block
                if (grid > (1u << 24)) continue;
                auto r = time2([&](size_t b) {
                    v.k<<<grid, v.block, 0, st>>>((const float4 *)in[b], n4, in[b] + n4 * 4, (unsigned)(n % 4), partials, count);
                }, v.reduce);
                printf("%d,%s,%s,%u,%u,%d,%.1f,%.1f\n", lg, v.reduce ? "sum" : "read", v.name.c_str(), w, grid, occ,
                       gbs(r.first), gbs(r.second));
            }
        }
        void *tmp = nullptr;
        size_t tb = 0;
        CK(cub::DeviceReduce::Sum(tmp, tb, in[0], partials, (int)n, st));
        CK(cudaMalloc(&tmp, tb));
        auto r = time2([&](size_t b) { CK(cub::DeviceReduce::Sum(tmp, tb, in[b], partials, (int)n, st)); }, true);
        printf("%d,cub,cub,0,0,0,%.1f,%.1f\n", lg, gbs(r.first), gbs(r.second));
        CK(cudaFree(tmp));
        for (auto &b : in) CK(cudaFree(b));
        fflush(stdout);
    }
    return 0;
}
