// Tuning rounds 2 to 5 of docs/bench-notes.md, one per argument: 2 (tile layouts as CUB uses
// them, grid oversubscription, TMA bulk copies into shared memory), 3 (tile sizes and cache
// hints), 4 (kernels/v8.cu itself against the harness kernel, interleaved), 5 (tile rows with
// bulk L2 prefetches of tiles ahead). Every variant is timed
// as warpscope bench times and checked against a double sum.
// Build: nvcc -O3 -arch=sm_90 -I../../kernels -I../../trace tune_tiles.cu; run: ./a.out ROUND
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <vector>

#include "v8.cu"


#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

template <int BLOCK>
__device__ float block_sum(float v)
{
    __shared__ float ws[32];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < BLOCK / 32 ? ws[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32) v = warp_sum(v);
    return v;
}

template <int BLOCK>
__device__ void finish(float sum, float *partials, unsigned *count, float *out)
{
    sum = block_sum<BLOCK>(sum);
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();
        last = atomicInc(count, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        float t = 0;
        for (unsigned k = threadIdx.x; k < gridDim.x; k += BLOCK) t += partials[k];
        __syncthreads();
        t = block_sum<BLOCK>(t);
        if (threadIdx.x == 0) { out[0] = t; *count = 0; }
    }
}

// LAYOUT 1: tiles of BLOCK*U float4, thread t reads U consecutive float4 (CUB's vectorized load)
// LAYOUT 2: tiles of BLOCK*U float4, read as U coalesced rows
template <int HINT>
__device__ __forceinline__ float4 ld4(const float4 *p)
{
    if (HINT == 1) return __ldcs(p);
    if (HINT == 2) {
        float4 v;
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
        return v;
    }
    if (HINT == 3) return __ldcg(p);
    return *p;
}

template <int BLOCK, int U, int LAYOUT, int HINT = 0>
__global__ void __launch_bounds__(BLOCK) tiled(const float4 *in, size_t n4, float *partials, unsigned *count, float *out)
{
    const size_t tile = (size_t)BLOCK * U;
    size_t ntiles = n4 / tile;
    float s[U] = {};
    for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const float4 *p = in + t * tile;
        float4 v[U];
#pragma unroll
        for (int k = 0; k < U; k++) v[k] = ld4<HINT>(LAYOUT == 1 ? &p[threadIdx.x * U + k] : &p[k * BLOCK + threadIdx.x]);
#pragma unroll
        for (int k = 0; k < U; k++) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    for (size_t i = ntiles * tile + blockIdx.x * BLOCK + threadIdx.x; i < n4; i += (size_t)BLOCK * gridDim.x) {
        float4 v = in[i];
        s[0] += (v.x + v.y) + (v.z + v.w);
    }
    float sum = 0;
#pragma unroll
    for (int k = 0; k < U; k++) sum += s[k];
    finish<BLOCK>(sum, partials, count, out);
}

// tile rows, with thread 0 asking the copy engine to prefetch into L2 the tile AHEAD grid-steps on
template <int BLOCK, int U, int AHEAD>
__global__ void __launch_bounds__(BLOCK) tiled_prefetch(const float4 *in, size_t n4, float *partials, unsigned *count, float *out)
{
    const size_t tile = (size_t)BLOCK * U;
    size_t ntiles = n4 / tile;
    float s[U] = {};
    if (threadIdx.x == 0)
        for (int a = 0; a < AHEAD; a++) {
            size_t t = blockIdx.x + (size_t)a * gridDim.x;
            if (t < ntiles)
                asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + t * tile), "r"((unsigned)(tile * 16)) : "memory");
        }
    for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
        size_t ahead = t + (size_t)AHEAD * gridDim.x;
        if (threadIdx.x == 0 && ahead < ntiles)
            asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + ahead * tile), "r"((unsigned)(tile * 16)) : "memory");
        const float4 *p = in + t * tile;
        float4 v[U];
#pragma unroll
        for (int k = 0; k < U; k++) v[k] = p[k * BLOCK + threadIdx.x];
#pragma unroll
        for (int k = 0; k < U; k++) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    for (size_t i = ntiles * tile + blockIdx.x * BLOCK + threadIdx.x; i < n4; i += (size_t)BLOCK * gridDim.x) {
        float4 v = in[i];
        s[0] += (v.x + v.y) + (v.z + v.w);
    }
    float sum = 0;
#pragma unroll
    for (int k = 0; k < U; k++) sum += s[k];
    finish<BLOCK>(sum, partials, count, out);
}

// bulk copies: one thread issues cp.async.bulk of CHUNK bytes per stage into shared memory,
// STAGES deep, completion on an mbarrier; all threads sum the stage from shared memory
template <int BLOCK, int CHUNK, int STAGES>
__global__ void __launch_bounds__(BLOCK) bulk(const float4 *in, size_t n4, float *partials, unsigned *count, float *out)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ __align__(8) unsigned long long bar[STAGES];
    const size_t per = CHUNK / 16; // float4 per chunk
    size_t nchunks = n4 / per;
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared(&bar[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    __syncthreads();
    auto issue = [&](size_t c, int s) {
        unsigned b = (unsigned)__cvta_generic_to_shared(&bar[s]);
        unsigned dst = (unsigned)__cvta_generic_to_shared(smem + (size_t)s * CHUNK);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(CHUNK) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(dst), "l"(in + c * per), "r"(CHUNK), "r"(b) : "memory");
    };
    float sum = 0;
    size_t first = blockIdx.x;
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++)
            if (first + (size_t)s * gridDim.x < nchunks) issue(first + (size_t)s * gridDim.x, s);
    unsigned phase[STAGES] = {};
    int s = 0;
    for (size_t c = first; c < nchunks; c += gridDim.x) {
        unsigned b = (unsigned)__cvta_generic_to_shared(&bar[s]);
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(b), "r"(phase[s]) : "memory");
        phase[s] ^= 1;
        const float4 *sp = (const float4 *)(smem + (size_t)s * CHUNK);
#pragma unroll 4
        for (int k = threadIdx.x; k < (int)per; k += BLOCK) {
            float4 v = sp[k];
            sum += (v.x + v.y) + (v.z + v.w);
        }
        __syncthreads(); // everyone is done with stage s before it is refilled
        size_t next = c + (size_t)STAGES * gridDim.x;
        if (threadIdx.x == 0 && next < nchunks) issue(next, s);
        s = (s + 1) % STAGES;
    }
    for (size_t i = nchunks * per + blockIdx.x * BLOCK + threadIdx.x; i < n4; i += (size_t)BLOCK * gridDim.x) {
        float4 v = in[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    finish<BLOCK>(sum, partials, count, out);
}

__global__ void fill(float *x, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        unsigned long long h = (seed * 0x9e3779b97f4a7c15ull + i);
        h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull; h ^= h >> 33;
        x[i] = (float)((unsigned)h >> 8) * (1.0f / 16777216.0f);
    }
}

struct ctx {
    size_t n;
    int nbuf;
    std::vector<float *> in;
    std::vector<double> ref;
    float *partials, *out;
    unsigned *count;
    cudaEvent_t e0, e1;
};

template <class K>
void time_it(ctx &c, K kernel, unsigned grid, unsigned block, size_t smem, const char *label)
{
    if (smem > 48 * 1024) CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    std::vector<float> ms;
    bool ok = true;
    for (int r = 0; r < 33; r++) {
        int b = r % c.nbuf;
        CK(cudaEventRecord(c.e0));
        kernel<<<grid, block, smem>>>((const float4 *)c.in[b], c.n / 4, c.partials, c.count, c.out);
        CK(cudaEventRecord(c.e1));
        CK(cudaEventSynchronize(c.e1));
        CK(cudaGetLastError());
        float t;
        CK(cudaEventElapsedTime(&t, c.e0, c.e1));
        if (r >= 3) ms.push_back(t);
        float got;
        CK(cudaMemcpy(&got, c.out, 4, cudaMemcpyDeviceToHost));
        if (std::fabs(got - c.ref[b]) > 1e-5 * c.ref[b]) ok = false;
    }
    std::sort(ms.begin(), ms.end());
    double med = ms[ms.size() / 2];
    printf("%-40s grid %6u: %8.4f ms %7.1f GB/s (min %.1f) %s\n", label, grid, med, c.n * 4.0 / med / 1e6,
           c.n * 4.0 / ms[0] / 1e6, ok ? "ok" : "WRONG");
}

static void time_v8(ctx &c, unsigned grid, const char *label)
{
    std::vector<float> ms;
    bool ok = true;
    for (int r = 0; r < 33; r++) {
        int b = r % c.nbuf;
        CK(cudaEventRecord(c.e0));
        reduce8<512><<<grid, 512>>>(c.in[b], c.partials, (unsigned)c.n, c.count);
        CK(cudaEventRecord(c.e1));
        CK(cudaEventSynchronize(c.e1));
        CK(cudaGetLastError());
        float t;
        CK(cudaEventElapsedTime(&t, c.e0, c.e1));
        if (r >= 3) ms.push_back(t);
        float got;
        CK(cudaMemcpy(&got, c.partials, 4, cudaMemcpyDeviceToHost));
        if (std::fabs(got - c.ref[b]) > 1e-5 * c.ref[b]) ok = false;
    }
    std::sort(ms.begin(), ms.end());
    double med = ms[ms.size() / 2];
    printf("%-40s grid %6u: %8.4f ms %7.1f GB/s (min %.1f) %s\n", label, grid, med, c.n * 4.0 / med / 1e6,
           c.n * 4.0 / ms[0] / 1e6, ok ? "ok" : "WRONG");
}

int main(int argc, char **argv)
{
    int round = argc > 1 ? atoi(argv[1]) : 4;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    unsigned sms = (unsigned)p.multiProcessorCount;
    for (size_t n : {(size_t)1 << 30, (size_t)1 << 24}) {
        ctx c;
        c.n = n;
        c.nbuf = (int)std::max<size_t>(2, 4 * (size_t)p.l2CacheSize / (n * 4) + 1);
        for (int b = 0; b < c.nbuf; b++) {
            float *x;
            CK(cudaMalloc(&x, n * 4));
            fill<<<1024, 256>>>(x, n, 77 + b);
            std::vector<float> h(n);
            CK(cudaMemcpy(h.data(), x, n * 4, cudaMemcpyDeviceToHost));
            double s = 0;
            for (size_t i = 0; i < n; i++) s += h[i];
            c.in.push_back(x);
            c.ref.push_back(s);
        }
        CK(cudaMalloc(&c.partials, 1 << 22));
        CK(cudaMalloc(&c.out, 4));
        CK(cudaMalloc(&c.count, 4));
        CK(cudaMemset(c.count, 0, 4));
        CK(cudaEventCreate(&c.e0));
        CK(cudaEventCreate(&c.e1));
        printf("n = 2^%d, %d buffers\n", (int)std::log2((double)n), c.nbuf);
        {
            void *tmp = nullptr; size_t tb = 0;
            cub::DeviceReduce::Sum(tmp, tb, c.in[0], c.out, (int)n);
            CK(cudaMalloc(&tmp, tb));
            std::vector<float> ms;
            for (int r = 0; r < 33; r++) {
                CK(cudaEventRecord(c.e0));
                cub::DeviceReduce::Sum(tmp, tb, c.in[r % c.nbuf], c.out, (int)n);
                CK(cudaEventRecord(c.e1));
                CK(cudaEventSynchronize(c.e1));
                float t; CK(cudaEventElapsedTime(&t, c.e0, c.e1));
                if (r >= 3) ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            printf("%-40s              %8.4f ms %7.1f GB/s\n", "cub", ms[ms.size() / 2], n * 4.0 / ms[ms.size() / 2] / 1e6);
            cudaFree(tmp);
        }
        if (round == 2) {
        for (unsigned mult : {1u, 2u, 4u, 8u}) {
            char l[64];
            snprintf(l, sizeof l, "tile thread-contig 256x4 x%u", mult);
            time_it(c, tiled<256, 4, 1>, sms * 8 * mult, 256, 0, l);
            snprintf(l, sizeof l, "tile rows 256x4 x%u", mult);
            time_it(c, tiled<256, 4, 2>, sms * 8 * mult, 256, 0, l);
            snprintf(l, sizeof l, "tile rows 512x4 x%u", mult);
            time_it(c, tiled<512, 4, 2>, sms * 4 * mult, 512, 0, l);
            snprintf(l, sizeof l, "tile rows 1024x4 x%u", mult);
            time_it(c, tiled<1024, 4, 2>, sms * 2 * mult, 1024, 0, l);
            snprintf(l, sizeof l, "tile rows 1024x2 x%u", mult);
            time_it(c, tiled<1024, 2, 2>, sms * 2 * mult, 1024, 0, l);
        }
        time_it(c, bulk<256, 16384, 4>, sms * 2, 256, 4 * 16384, "bulk 16K x4 stages, 2/SM");
        time_it(c, bulk<256, 16384, 6>, sms * 2, 256, 6 * 16384, "bulk 16K x6 stages, 2/SM");
        time_it(c, bulk<512, 32768, 3>, sms * 2, 512, 3 * 32768, "bulk 32K x3 stages, 2/SM");
        time_it(c, bulk<256, 8192, 8>, sms * 3, 256, 8 * 8192, "bulk 8K x8 stages, 3/SM");
        time_it(c, bulk<256, 4096, 8>, sms * 6, 256, 8 * 4096, "bulk 4K x8 stages, 6/SM");
        time_it(c, bulk<1024, 32768, 6>, sms * 1, 1024, 6 * 32768, "bulk 32K x6 stages, 1/SM");
        } else if (round == 5) {
            for (int rep = 0; rep < 2; rep++) {
                time_it(c, tiled<512, 4, 2, 0>, sms * 8, 512, 0, "rows 512x4 (v8), grid 8/SM");
                time_it(c, tiled_prefetch<512, 4, 1>, sms * 8, 512, 0, "rows 512x4 + L2 prefetch 1 ahead");
                time_it(c, tiled_prefetch<512, 4, 2>, sms * 8, 512, 0, "rows 512x4 + L2 prefetch 2 ahead");
                time_it(c, tiled_prefetch<512, 4, 4>, sms * 8, 512, 0, "rows 512x4 + L2 prefetch 4 ahead");
                time_it(c, tiled_prefetch<512, 4, 2>, sms * 4, 512, 0, "rows 512x4 + prefetch 2, grid 4/SM");
                time_it(c, tiled_prefetch<1024, 4, 2>, sms * 4, 1024, 0, "rows 1024x4 + prefetch 2, grid 4/SM");
                time_it(c, tiled_prefetch<256, 8, 2>, sms * 8, 256, 0, "rows 256x8 + prefetch 2, grid 8/SM");
            }
        } else if (round == 3) {
        for (unsigned mult : {1u, 2u, 4u}) {
            char l[64];
#define T(B, U, H, PER)                                                            \
    snprintf(l, sizeof l, "rows %dx%d hint %d x%u", B, U, H, mult);                \
    time_it(c, tiled<B, U, 2, H>, sms * PER * mult, B, 0, l);
            T(256, 4, 0, 8) T(512, 4, 0, 4) T(1024, 2, 0, 2) T(512, 8, 0, 4) T(1024, 4, 0, 2) T(256, 8, 0, 8)
            T(256, 16, 0, 4) T(512, 2, 0, 4) T(1024, 8, 0, 1)
            T(512, 4, 1, 4) T(512, 4, 2, 4) T(512, 4, 3, 4) T(1024, 2, 2, 2) T(1024, 2, 3, 2)
#undef T
        }
        } else {
        for (int rep = 0; rep < 3; rep++) {
            time_it(c, tiled<512, 4, 2, 0>, sms * 8, 512, 0, "harness rows 512x4, grid 8/SM");
            time_v8(c, sms * 8, "kernels/v8.cu reduce8<512>, grid 8/SM");
            time_v8(c, 1055, "kernels/v8.cu reduce8<512>, grid 1055");
            time_it(c, tiled<1024, 2, 2, 0>, sms * 8, 1024, 0, "harness rows 1024x2, grid 8/SM");
        }
        }
        for (float *x : c.in) cudaFree(x);
        cudaFree(c.partials); cudaFree(c.out); cudaFree(c.count);
    }
}
