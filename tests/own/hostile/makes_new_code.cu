// Hostile: exercise 3's right answer, and a constructor that makes code of its own at load time and
// jumps to it (the way a file would run a build that is not its source). WAY picks how:
// 1 an anonymous mapping, read, write and execute; 2 written, then made executable with mprotect;
// 3 a memfd mapped executable; 4 a shared object copied into its folder and loaded with dlopen.
// Each must stop the run; printed "MADE CODE" would mean it ran.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef WAY
#define WAY 1
#endif

static const unsigned char ret42[] = {0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3}; /* mov eax, 42; ret */

static int jump(void *code)
{
    int (*f)(void) = (int (*)(void))code;
    return f();
}

__attribute__((constructor)) static void make_code(void)
{
    int got = 0;
    if (WAY == 1) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) memcpy(p, ret42, sizeof ret42), got = jump(p);
    } else if (WAY == 2) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            memcpy(p, ret42, sizeof ret42);
            if (mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0) got = jump(p);
        }
    } else if (WAY == 3) {
        int fd = (int)syscall(SYS_memfd_create, "code", 0);
        if (fd >= 0 && write(fd, ret42, sizeof ret42) == (ssize_t)sizeof ret42 && ftruncate(fd, 4096) == 0) {
            void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
            if (p != MAP_FAILED) got = jump(p);
        }
    } else {
        FILE *in = fopen("/usr/lib/x86_64-linux-gnu/libz.so.1", "rb"), *out = fopen("mine.so", "wb");
        char buf[4096];
        size_t k;
        while (in && out && (k = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, k, out);
        if (in) fclose(in);
        if (out) fclose(out);
        void *h = dlopen("./mine.so", RTLD_NOW);
        if (h && dlsym(h, "zlibVersion")) got = 42;
    }
    if (got == 42) printf("MADE CODE\n");
}

#define BLOCK 256

__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
