// The occupancy API's figures for v2's plain kernel (the benchmark's build of kernels/v2.cu), to
// set beside warpscope's card model and a GPU capture's observed schedule:
//   nvcc -O3 -arch=sm_90 -I. -Itrace/capture tools/occupancy.cu kernels/v2.cu -o occupancy
#include <cstdio>

#include "trace/capture/ws_cuda.h"

__global__ void reduce2(const float *g_idata, float *g_odata, unsigned int n);

int main()
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) { fprintf(stderr, "no CUDA device\n"); return 2; }
    cudaFuncAttributes a;
    cudaFuncGetAttributes(&a, reduce2);
    printf("%s: %d SMs, %d threads and %zu bytes of shared memory per SM; reduce2: %d registers, %zu static shared bytes\n", p.name,
           p.multiProcessorCount, p.maxThreadsPerMultiProcessor, p.sharedMemPerMultiprocessor, a.numRegs, a.sharedSizeBytes);
    for (int b : {64, 256, 1024}) {
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce2, b, 0);
        long grid = (1L << 20) / b, resident = (long)per_sm * p.multiProcessorCount;
        printf("block %4d: %2d blocks per SM, %5ld resident, grid %5ld, %ld waves\n", b, per_sm, resident, grid, (grid + resident - 1) / resident);
    }
    return 0;
}
