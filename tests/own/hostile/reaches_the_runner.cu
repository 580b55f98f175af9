// Hostile: host code that looks for warpscope's own code in the process it runs in (the trace
// writer, the grader's query, the runner's entry, a ladder kernel) by name. out[0] is the block's
// sum (256 with --data ones, n = 256) when it finds none of them, and 4242 per symbol when it does.
#include <dlfcn.h>
__global__ void k(const float *in, float *out, unsigned n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = t < n ? in[t] : 0.0f;
    __syncthreads();
    for (unsigned st = 128; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}
void run(const float *in, float *out, unsigned n)
{
    static const char *const names[] = {"trace_write_file", "trace_write_compact", "query_eval", "own_run_so", "capture_search_label",
                                        "sandbox_confine_self", "_ZN5ws_v37reduce3E10global_ptrIKfES0_IfEj"};
    float found = 0.0f;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (dlsym(RTLD_DEFAULT, names[i])) found += 4242.0f;
    k<<<1, 256>>>(in, out, n);
    if (found != 0.0f) cudaMemcpy(out, &found, sizeof found, cudaMemcpyHostToDevice);
}
