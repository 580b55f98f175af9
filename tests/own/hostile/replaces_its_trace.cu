// Hostile: after warpscope-run has written the trace and said "traced", a destructor puts a link
// in the trace's place, to FOREIGN (a trace of the teacher's, of another file), and a second
// destructor (SPARSE set) makes the trace file (the one warpscope opened) a sparse gigabyte instead. Either way,
// warpscope must read what the run wrote, or refuse: never the other file, never a gigabyte.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
__global__ void k(const float *in, float *out, unsigned n)
{
    if (threadIdx.x == 0) {
        float s = 0;
        for (unsigned i = 0; i < n; i++) s += in[i];
        out[0] = s;
    }
}
void run(const float *in, float *out, unsigned n) { k<<<1, 32>>>(in, out, n); }
struct ws_after {
    ~ws_after()
    {
#ifdef SPARSE
        signal(SIGXFSZ, SIG_IGN);
        int fd = open("trace.wstrace", O_WRONLY);
        if (fd >= 0) ftruncate(fd, ((off_t)1 << 30) - 4096);
#else
        unlink("trace.wstrace");
        symlink(FOREIGN, "trace.wstrace");
#endif
    }
} ws_after_now;
