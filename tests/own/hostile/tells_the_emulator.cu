// Hostile: a kernel that asks whether it is built by nvcc (__CUDACC__) or by warpscope's emulator
// (its build's macros), and adds 1000 to the sum when it sees the emulator. With --data ones and
// n = 256 the sum is 256 where the file cannot tell.
#if !defined(__CUDACC__) || defined(WS_EMU) || defined(WS_USER) || defined(WS_GPU_TRACE)
#define WS_SEEN 1000.0f
#else
#define WS_SEEN 0.0f
#endif
__global__ void k(const float *in, float *out, unsigned n)
{
    if (threadIdx.x == 0) {
        float s = WS_SEEN;
        for (unsigned i = 0; i < n; i++) s += in[i];
        out[0] = s;
    }
}
