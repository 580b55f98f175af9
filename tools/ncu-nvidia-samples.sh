#!/bin/sh
# Nsight Compute's shared-memory counters of NVIDIA's reduction sample kernels (tests/own/nvidia/,
# unchanged), for the figures of docs/hardware-counters.md: each kernel's first launch as the
# sample's host code makes it at n = 65536 ones (maxThreads 256, maxBlocks 64), and the sum of the
# two passes the sample runs (its GPU final reduction) as the GPU computes it.
# usage: tools/ncu-nvidia-samples.sh OUT_DIR   (needs nvcc, ncu and a GPU)
set -e
out="$1"
src="$(dirname "$0")/../tests/own/nvidia"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/driver.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include "reduction_kernel.cu"
extern "C" bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }
int main(int argc, char **argv)
{
    int n = 65536, k = atoi(argv[1]), t1 = atoi(argv[2]), b1 = atoi(argv[3]), t2 = atoi(argv[4]);
    float *h = (float *)malloc(n * sizeof(float)), *d_in, *d_out, r;
    for (int i = 0; i < n; i++) h[i] = 1.0f;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, n * sizeof(float));
    reduce<float>(n, t1, b1, k, d_in, d_out);
    reduce<float>(b1, t2, 1, k, d_out, d_out);
    cudaMemcpy(&r, d_out, sizeof r, cudaMemcpyDeviceToHost);
    printf("kernel %d sum %.1f (%s)\n", k, r, cudaGetErrorString(cudaGetLastError()));
    return 0;
}
CU
cp "$src/reduction_kernel.cu" "$src/reduction.h" "$tmp/"
nvcc -O3 -std=c++17 -arch=native -o "$tmp/driver" "$tmp/driver.cu"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt"
ncu --version | tail -1 >>"$out/gpu.txt"
m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
for s in "0 256 256 256" "1 256 256 256" "2 256 256 256" "3 256 128 64" "4 256 128 64" "5 256 128 64" "6 256 64 32" "7 256 64 32" "8 256 64 32"; do
    set -- $s
    "$tmp/driver" $1 $2 $3 $4 >>"$out/sums.txt" 2>&1
    ncu --csv --metrics "$m" -c 1 "$tmp/driver" $1 $2 $3 $4 >>"$out/ncu.csv" 2>&1 || true
done
# threadFenceReduction's kernels, as its host code launches them (maxThreads 128, maxBlocks 64)
cat >"$tmp/fence.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include "threadFenceReduction_kernel.cuh"
int main(int argc, char **argv)
{
    int n = 65536, single = atoi(argv[1]);
    float *h = (float *)malloc(n * sizeof(float)), *d_in, *d_out, r;
    for (int i = 0; i < n; i++) h[i] = 1.0f;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    if (single) reduceSinglePass(n, 128, 64, d_in, d_out);
    else {
        reduce(n, 128, 64, d_in, d_out);
        reduce(64, 32, 1, d_out, d_out);
    }
    cudaMemcpy(&r, d_out, sizeof r, cudaMemcpyDeviceToHost);
    printf("threadFence %s sum %.1f (%s)\n", single ? "single pass" : "two passes", r, cudaGetErrorString(cudaGetLastError()));
    return 0;
}
CU
cp "$src/threadFenceReduction_kernel.cuh" "$tmp/"
nvcc -O3 -std=c++17 -arch=native -o "$tmp/fence" "$tmp/fence.cu"
for single in 0 1; do
    "$tmp/fence" $single >>"$out/sums.txt" 2>&1
    ncu --csv --metrics "$m" -c 1 "$tmp/fence" $single >>"$out/ncu.csv" 2>&1 || true
done
