// Tuning harness for the top rung (single-pass reduction), kept with the notes in
// docs/bench-notes.md: every variant is timed like `warpscope bench` times (CUDA events, median,
// inputs rotated past L2) and checked against a double sum. Build: nvcc -O3 -arch=sm_90 tune_top.cu
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

template <int HINT>
__device__ __forceinline__ float4 load4(const float4 *p)
{
    if (HINT == 1) return __ldcs(p);
    if (HINT == 2) {
        float4 v;
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
        return v;
    }
    if (HINT == 3) return __ldg(p);
    return *p;
}

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

// CONTIG: each block reads one contiguous chunk; else the grid strides over the whole input
template <int BLOCK, int UNROLL, int HINT, bool CONTIG>
__global__ void __launch_bounds__(BLOCK) top(const float4 *in, size_t n4, float *partials, unsigned *count, float *out)
{
    float s[UNROLL] = {};
    size_t begin, end, step;
    if (CONTIG) {
        size_t chunk = (n4 + gridDim.x - 1) / gridDim.x;
        begin = blockIdx.x * chunk + threadIdx.x;
        end = min(n4, (blockIdx.x + 1) * chunk);
        step = BLOCK;
    } else {
        begin = blockIdx.x * (size_t)BLOCK + threadIdx.x;
        end = n4;
        step = (size_t)BLOCK * gridDim.x;
    }
    size_t i = begin;
    for (; i + (UNROLL - 1) * step < end; i += UNROLL * step) {
        float4 v[UNROLL];
#pragma unroll
        for (int k = 0; k < UNROLL; k++) v[k] = load4<HINT>(&in[i + k * step]);
#pragma unroll
        for (int k = 0; k < UNROLL; k++) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    for (; i < end; i += step) {
        float4 v = load4<HINT>(&in[i]);
        s[0] += (v.x + v.y) + (v.z + v.w);
    }
    float sum = 0;
#pragma unroll
    for (int k = 0; k < UNROLL; k++) sum += s[k];
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
        t = block_sum<BLOCK>(t);
        if (threadIdx.x == 0) { out[0] = t; *count = 0; }
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

struct ctx {
    size_t n;
    int nbuf;
    std::vector<float *> in;
    std::vector<double> ref;
    float *partials, *out;
    unsigned *count;
    cudaEvent_t e0, e1;
};

template <int BLOCK, int UNROLL, int HINT, bool CONTIG>
void run(ctx &c, int sms, int per_sm, const char *label)
{
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, top<BLOCK, UNROLL, HINT, CONTIG>, BLOCK, 0));
    unsigned grid = (unsigned)(sms * std::min(occ, per_sm));
    std::vector<float> ms;
    bool ok = true;
    for (int r = 0; r < 33; r++) {
        int b = r % c.nbuf;
        CK(cudaEventRecord(c.e0));
        top<BLOCK, UNROLL, HINT, CONTIG><<<grid, BLOCK>>>((const float4 *)c.in[b], c.n / 4, c.partials, c.count, c.out);
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
    printf("%-34s block %4d unroll %2d hint %d %s grid %5u (occ %d): %8.4f ms %7.1f GB/s %s\n", label, BLOCK, UNROLL,
           HINT, CONTIG ? "contig" : "stride", grid, occ, med, c.n * 4.0 / med / 1e6, ok ? "ok" : "WRONG");
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int sms = p.multiProcessorCount;
    for (size_t n : {(size_t)1 << 30, (size_t)1 << 26}) {
        ctx c;
        c.n = n;
        c.nbuf = std::max<size_t>(2, 4 * (size_t)p.l2CacheSize / (n * 4) + 1);
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
        CK(cudaMalloc(&c.partials, 1 << 20));
        CK(cudaMalloc(&c.out, 4));
        CK(cudaMalloc(&c.count, 4));
        CK(cudaMemset(c.count, 0, 4));
        CK(cudaEventCreate(&c.e0));
        CK(cudaEventCreate(&c.e1));
        printf("n = 2^%d, %d buffers\n", (int)std::log2((double)n), c.nbuf);
        // CUB for reference, same rotation
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
            printf("%-34s %8.4f ms %7.1f GB/s\n", "cub", ms[ms.size() / 2], n * 4.0 / ms[ms.size() / 2] / 1e6);
            cudaFree(tmp);
        }
        run<256, 4, 0, false>(c, sms, 8, "v8 today");
        run<256, 8, 0, false>(c, sms, 8, "unroll 8");
        run<256, 4, 1, false>(c, sms, 8, "ldcs");
        run<256, 4, 2, false>(c, sms, 8, "L2::256B");
        run<256, 8, 2, false>(c, sms, 8, "L2::256B unroll 8");
        run<256, 4, 3, false>(c, sms, 8, "ldg");
        run<256, 4, 0, true>(c, sms, 8, "contig");
        run<256, 8, 0, true>(c, sms, 8, "contig unroll 8");
        run<256, 8, 2, true>(c, sms, 8, "contig L2::256B unroll 8");
        run<256, 16, 2, true>(c, sms, 8, "contig L2::256B unroll 16");
        run<512, 8, 2, true>(c, sms, 4, "contig L2::256B 512");
        run<1024, 8, 2, true>(c, sms, 2, "contig L2::256B 1024");
        run<1024, 4, 2, true>(c, sms, 2, "contig L2::256B 1024 u4");
        run<256, 8, 2, true>(c, sms, 4, "contig L2 half occupancy");
        run<256, 8, 2, false>(c, sms, 4, "stride L2 half occupancy");
        run<512, 8, 2, false>(c, sms, 4, "stride L2 512");
        run<1024, 8, 2, false>(c, sms, 2, "stride L2 1024");
        run<1024, 4, 0, false>(c, sms, 2, "stride 1024 u4");
        for (float *x : c.in) cudaFree(x);
        cudaFree(c.partials); cudaFree(c.out); cudaFree(c.count);
    }
}
