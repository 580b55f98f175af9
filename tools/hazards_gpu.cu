// hazards_gpu: the ladder's races on real hardware (docs/hazards.md).
//
// The kernel files are compiled plain, exactly as the benchmark compiles them, each in a namespace
// of its own. One variant is made here without touching them: v2 with one __syncthreads left out
// (a __constant__ line number that ws_bar skips, the same switch as warpscope's --drop-barrier);
// v4 without its `volatile` is the ladder's own kernels/v4_novolatile.cu.
//
//   hazards_gpu trials T        every variant, T launches of G blocks each on random integers 0..9
//                               (sums are exact in float): blocks whose sum is wrong, launches
//                               with a wrong block, and an example
//   hazards_gpu trials T NAME   the same for the variants called NAME (tree versions)
//   hazards_gpu inplace NAME LOG2N RUNS   naive or naive-race: the whole plan over 2^LOG2N, RUNS times
//   hazards_gpu once VARIANT    one launch of two blocks, for compute-sanitizer racecheck
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -I kernels tools/hazards_gpu.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "trace/capture/ws_cuda.h"

// ---- the break-it switch of the GPU build: the __syncthreads at ws_drop_line is left out ----
__constant__ int ws_drop_line;
__device__ __forceinline__ void ws_bar(int line)
{
    if (line != ws_drop_line) __syncthreads();
}
#define __syncthreads() ws_bar(__LINE__)
namespace k_v2 {
#include "../kernels/v2.cu"
}
#undef __syncthreads

namespace k_v4 {
#include "../kernels/v4.cu"
}
namespace k_v4s {
#include "../kernels/v4s.cu"
}
namespace k_v5 {
#include "../kernels/v5.cu"
}
namespace k_v6 {
#include "../kernels/v6.cu"
}
namespace k_naive {
#include "../kernels/naive.cu"
}
namespace k_naive_race {
#include "../kernels/naive_race.cu"
}

// v4 with the `volatile` taken away (kernels/v4_novolatile.cu, the emulator's v4-novolatile): the
// compiler may keep sdata[tid] in a register across the six steps and write it once, so the other
// lanes read words their owners have not stored yet
namespace k_v4nv {
#include "../kernels/v4_novolatile.cu"
}

typedef void (*launch_fn)(unsigned, unsigned, const ws_args &, cudaStream_t);

struct variant {
    const char *name;
    launch_fn fn;
    unsigned block, ept; // each block reduces block * ept inputs into out[blockIdx.x]
    int drop_line;       // v2's barrier left out (0: none)
    int in_place;        // naive: the whole launch plan in place, the sum in data[0]
};

static const variant variants[] = {
    {"v2", k_v2::ws_launch_v2, 256, 1, 0, 0},
    {"v2-drop27", k_v2::ws_launch_v2, 256, 1, 27, 0},
    {"v2-drop27", k_v2::ws_launch_v2, 64, 1, 27, 0},
    {"v2-drop27", k_v2::ws_launch_v2, 1024, 1, 27, 0},
    {"v4", k_v4::ws_launch_v4, 64, 2, 0, 0},
    {"v4", k_v4::ws_launch_v4, 256, 2, 0, 0},
    {"v4s", k_v4s::ws_launch_v4s, 64, 2, 0, 0},
    {"v4s", k_v4s::ws_launch_v4s, 256, 2, 0, 0},
    {"v5", k_v5::ws_launch_v5, 32, 2, 0, 0},
    {"v5", k_v5::ws_launch_v5, 64, 2, 0, 0},
    {"v5", k_v5::ws_launch_v5, 256, 2, 0, 0},
    {"v6", k_v6::ws_launch_v6, 32, 2, 0, 0},
    {"v6", k_v6::ws_launch_v6, 64, 2, 0, 0},
    {"v6", k_v6::ws_launch_v6, 256, 2, 0, 0},
    {"v4-novolatile", k_v4nv::ws_launch_v4_novolatile, 64, 2, 0, 0},
    {"v4-novolatile", k_v4nv::ws_launch_v4_novolatile, 256, 2, 0, 0},
    {"naive", k_naive::ws_launch_naive, 256, 0, 0, 1},
    {"naive-race", k_naive_race::ws_launch_naive_race, 256, 0, 0, 1},
};

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "hazards_gpu: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); \
            exit(2);                                                                            \
        }                                                                                       \
    } while (0)

static unsigned long long rng_state = 12345;
static unsigned next_digit()
{
    unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (unsigned)((z ^ (z >> 31)) % 10);
}

// One variant, `launches` times over `grid` blocks (tree versions) or over n elements (in place).
static void run(const variant &v, unsigned grid, unsigned launches, size_t n_in_place)
{
    CK(cudaMemcpyToSymbol(ws_drop_line, &v.drop_line, sizeof v.drop_line));
    size_t n = v.in_place ? n_in_place : (size_t)grid * v.block * v.ept;
    std::vector<float> h(n);
    for (auto &x : h) x = (float)next_digit();
    float *in, *out;
    CK(cudaMalloc(&in, n * sizeof(float)));
    CK(cudaMalloc(&out, (v.in_place ? n : grid) * sizeof(float)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<float> got(v.in_place ? 1 : grid);
    unsigned long long wrong_blocks = 0, wrong_launches = 0;
    double example_got = 0, example_want = 0;
    std::vector<double> want(got.size(), 0.0); // exact: sums of small integers
    for (size_t k = 0; k < n; k++) want[v.in_place ? 0 : k / ((size_t)v.block * v.ept)] += h[k];
    for (unsigned t = 0; t < launches; t++) {
        ws_args a;
        a.in = in;
        a.out = out;
        a.counter = nullptr;
        if (v.in_place) {
            CK(cudaMemcpy(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice));
            for (size_t s = 1; s < n; s *= 2) {
                a.n = (unsigned)n;
                a.stride = (unsigned)s;
                v.fn((unsigned)((n + v.block - 1) / v.block), v.block, a, 0);
            }
        } else {
            a.n = (unsigned)n;
            a.stride = 0;
            v.fn(grid, v.block, a, 0);
        }
        CK(cudaGetLastError());
        CK(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
        unsigned bad = 0;
        for (size_t b = 0; b < got.size(); b++) {
            if ((double)got[b] != want[b]) {
                if (!wrong_blocks) { example_got = got[b]; example_want = want[b]; }
                bad++;
                wrong_blocks++;
            }
        }
        wrong_launches += bad > 0;
    }
    unsigned long long blocks = (unsigned long long)launches * got.size();
    printf("%-14s %6u %8zu %9u %12llu/%-12llu %8.4f%% %9llu/%-6u", v.name, v.block, v.in_place ? n : (size_t)grid, launches,
           wrong_blocks, blocks, 100.0 * (double)wrong_blocks / (double)blocks, wrong_launches, launches);
    if (wrong_blocks) printf("  e.g. %.0f for %.0f", example_got, example_want);
    printf("\n");
    fflush(stdout);
    CK(cudaFree(in));
    CK(cudaFree(out));
}

int main(int argc, char **argv)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "trials")) {
        unsigned launches = (unsigned)atoi(argv[2]);
        const char *only = argc == 4 ? argv[3] : nullptr; // variants whose name is this
        printf("%s, %d SMs; random integers 0..9, every block's sum checked exactly\n", p.name, p.multiProcessorCount);
        printf("%-14s %6s %8s %9s %25s %9s %16s\n", "variant", "block", "grid/n", "launches", "wrong blocks", "", "launches wrong");
        if (only) {
            for (const variant &v : variants)
                if (!strcmp(v.name, only) && !v.in_place) run(v, 8192, launches, 0);
            return 0;
        }
        for (const variant &v : variants) run(v, 8192, v.in_place ? launches / 10 : launches, (size_t)1 << 20);
        const variant &nr = variants[sizeof variants / sizeof *variants - 1];
        run(nr, 0, launches / 10, (size_t)1 << 14);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "inplace")) { // inplace VARIANT LOG2N RUNS: the whole launch plan, RUNS times
        for (const variant &v : variants)
            if (!strcmp(v.name, argv[2]) && v.in_place) run(v, 0, (unsigned)atoi(argv[4]), (size_t)1 << atoi(argv[3]));
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "once")) {
        unsigned block = (unsigned)atoi(argv[3]);
        for (const variant &v : variants)
            if (!strcmp(v.name, argv[2]) && v.block == block) {
                run(v, 2, 1, 2 * (size_t)block);
                return 0;
            }
        fprintf(stderr, "hazards_gpu: no variant %s at block %u\n", argv[2], block);
        return 2;
    }
    fprintf(stderr, "usage: hazards_gpu trials T | once VARIANT BLOCK\n");
    return 2;
}
