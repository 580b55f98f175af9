// Hostile: host code that signals a process outside its run by every call that sends one
// (VICTIM is the test's: a process of the user the run runs as). out[0] is the sum (256 with
// --data ones) when every call failed, plus 1000 for each that succeeded.
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
__global__ void k(const float *in, float *out, unsigned n)
{
    if (threadIdx.x == 0) {
        float s = 0;
        for (unsigned i = 0; i < n; i++) s += in[i];
        out[0] = s;
    }
}
void run(const float *in, float *out, unsigned n)
{
    int victim = VICTIM, hits = 0;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = SIGKILL;
    si.si_code = SI_QUEUE;
    int pfd = (int)syscall(SYS_pidfd_open, victim, 0);
    if (pfd >= 0 && syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0) == 0) hits++;
    if (syscall(SYS_rt_sigqueueinfo, victim, SIGKILL, &si) == 0) hits++;
    if (syscall(SYS_rt_tgsigqueueinfo, victim, victim, SIGKILL, &si) == 0) hits++;
    if (kill(victim, SIGKILL) == 0) hits++;
    k<<<1, 32>>>(in, out, n);
    if (hits) {
        float v = 256.0f + 1000.0f * (float)hits;
        cudaMemcpy(out, &v, sizeof v, cudaMemcpyHostToDevice);
    }
}
