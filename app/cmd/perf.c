/* The benchmarks of warpscope itself: capture, kernel builds, drawing and export. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "app/cmd/cmd.h"
#include "trace/cost.h"

/* ---- perf ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double trace_mb(const trace *t)
{
    return (double)(t->cap_events * sizeof *t->events + t->cap_lanes * sizeof *t->lane_addr + t->cap_vals * sizeof *t->values) / 1e6;
}

static void perf_row(const char *what, double wall, double cpu, const char *target, int ok)
{
    printf("%-58s %8.2f s %8.2f s  %-10s %s\n", what, wall, cpu, target, ok ? "met" : "MISSED");
}

/* The peak resident size so far, in kB (Linux's VmHWM); 0 when unknown */
static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
    fclose(f);
    return kb;
}

/* One whole grid in a process of its own, so that its peak resident size is its own: every block
 * of a 2^20-element launch traced, then what stats --all-blocks computes (the grid's counters and
 * the cost table). The row: blocks, events, wall and CPU time, the peak resident size, and per
 * traced block that peak over the process's size before the capture, the trace's bytes (what its
 * arrays hold) and the cost table's (cost_figures.scratch_bytes). */
static int perf_grid_child(const char *version, int out)
{
    char err[512], row[512];
    trace t;
    trace_init(&t);
    long rss0 = peak_rss_kb();
    capture_desc d = {.version = version, .block = 256, .n = (uint64_t)1 << 20, .blocks_traced = 1u << 30};
    double w0 = now_s(), c0 = cpu_s();
    if (capture_cpu(&d, &t, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    analysis_grid g;
    cost_figures cost;
    if (analysis_grid_build(&t, &g)) { fprintf(stderr, "warpscope: out of memory\n"); return EXIT_BAD; }
    if (cost_compute(&t, &cost)) { fprintf(stderr, "warpscope: out of memory\n"); return EXIT_BAD; }
    double w1 = now_s(), c1 = cpu_s();
    long rss1 = peak_rss_kb();
    double blocks = g.nblocks ? (double)g.nblocks : 1.0;
    double trace_b = (double)(t.cap_events * sizeof *t.events + t.cap_lanes * sizeof *t.lane_addr + t.cap_vals * sizeof *t.values);
    int len = snprintf(row, sizeof row, "%zu %zu %.6f %.6f %ld %ld %.1f %.1f\n", g.nblocks, t.nevents, w1 - w0, c1 - c0, rss0, rss1,
                       trace_b / blocks, (double)cost.scratch_bytes / blocks);
    analysis_grid_free(&g);
    trace_free(&t);
    return write(out, row, (size_t)len) == len ? 0 : EXIT_BAD;
}

static int perf_grid_version(const char *version, int per_block_target)
{
    int fd[2];
    if (pipe(fd)) { fprintf(stderr, "warpscope: cannot make a pipe\n"); return EXIT_BAD; }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { fprintf(stderr, "warpscope: cannot fork\n"); close(fd[0]); close(fd[1]); return EXIT_BAD; }
    if (pid == 0) {
        close(fd[0]);
        _exit(perf_grid_child(version, fd[1]));
    }
    close(fd[1]);
    char row[512];
    ssize_t n = 0, r;
    while (n < (ssize_t)sizeof row - 1 && (r = read(fd[0], row + n, sizeof row - 1 - (size_t)n)) > 0) n += r;
    close(fd[0]);
    row[n > 0 ? n : 0] = '\0';
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    size_t nblocks = 0, nevents = 0;
    double wall = 0, cpu = 0, trace_b = 0, cost_b = 0;
    long rss0 = 0, rss1 = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) ||
        sscanf(row, "%zu %zu %lf %lf %ld %ld %lf %lf", &nblocks, &nevents, &wall, &cpu, &rss0, &rss1, &trace_b, &cost_b) != 8) {
        fprintf(stderr, "warpscope: the whole grid of %s did not finish\n", version);
        return EXIT_BAD;
    }
    double per_block_kb = (double)(rss1 - rss0) * 1024.0 / 1e3 / (double)(nblocks ? nblocks : 1);
    double peak_mb = (double)rss1 * 1024.0 / 1e6;
    int ok = wall <= 2.0 && peak_mb < 600.0 && (!per_block_target || per_block_kb < 50.0);
    printf("%-7s %6zu %8zu %7.2f s %7.2f s %7.0f MB %9.1f kB %9.1f kB %7.2f kB  %-16s %s\n", version, nblocks, nevents, wall, cpu,
           peak_mb, per_block_kb, trace_b / 1e3, cost_b / 1e3, per_block_target ? "2 s, 600 MB, 50 kB" : "2 s, 600 MB",
           ok ? "met" : "MISSED");
    return 0;
}

/* The whole grid: 2^20-element launches with every block traced, each captured and analysed in a
 * process of its own; then v2's trace saved compact and loaded back; v6 at 2^24 with one traced
 * block (what stats does). */
static int perf_grid(void)
{
    char err[512];
    trace t;
    trace_init(&t);
    unsigned workers = emu_default_workers();
    printf("\nthe whole grid, n 2^20, block 256, every block traced, captured + analysed as stats --all-blocks does\n"
           "(the grid's counters and the cost table); %u worker%s, one run each, each version in a process of its own\n",
           workers, workers == 1 ? "" : "s");
    printf("%-7s %6s %8s %9s %9s %10s %12s %12s %10s  %-16s\n", "version", "blocks", "events", "wall", "CPU", "peak RSS",
           "RSS/block", "trace/block", "cost/block", "target");
    static const struct { const char *version; int per_block; } grid[] = {{"v2", 1}, {"v3", 0}, {"v7", 0}, {"v8", 0}};
    for (size_t i = 0; i < sizeof grid / sizeof *grid; i++) {
        int rc = perf_grid_version(grid[i].version, grid[i].per_block);
        if (rc) return rc;
    }
    puts("RSS/block: the peak resident size over the process's size before the capture, per traced block; trace/block: the\n"
         "bytes the trace's arrays hold; cost/block: the most the cost table held at once (50 kB a block is v2's target:\n"
         "one element a thread)");
    char what[128];
    capture_desc d = {.version = "v2", .block = 256, .n = (uint64_t)1 << 20, .blocks_traced = 1u << 30};
    if (capture_cpu(&d, &t, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    double w0, w1, c0, c1;
    analysis_grid g;
    printf("\n%-58s %10s %10s  %-10s\n", "v2's whole grid, saved and loaded back", "wall", "CPU", "target");

    char path[] = "/tmp/warpscope-perf-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { fprintf(stderr, "warpscope: cannot make a temporary file in /tmp\n"); trace_free(&t); return EXIT_BAD; }
    close(fd);
    unlink(path);
    char file[64];
    snprintf(file, sizeof file, "%s.wstrace", path);
    w0 = now_s();
    int rc = trace_save(&t, file, NULL, err, sizeof err);
    w1 = now_s();
    trace_free(&t);
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    FILE *f = fopen(file, "rb");
    long bytes = 0;
    if (f) { fseek(f, 0, SEEK_END); bytes = ftell(f); fclose(f); }
    snprintf(what, sizeof what, "  save it compact (%.1f MB)", (double)bytes / 1e6);
    perf_row(what, w1 - w0, w1 - w0, "", 1);
    w0 = now_s();
    c0 = cpu_s();
    rc = trace_read_file(&t, file, err, sizeof err);
    if (!rc && analysis_grid_build(&t, &g)) rc = -1;
    w1 = now_s();
    c1 = cpu_s();
    remove(file);
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); trace_free(&t); return EXIT_BAD; }
    /* at most the file's bytes (read whole) and the trace's arrays live at once, then the grid */
    double mb = trace_mb(&t) + (double)bytes / 1e6 + (double)(t.nevents * sizeof *g.order + g.nblocks * sizeof *g.blocks) / 1e6;
    snprintf(what, sizeof what, "  load it back + the grid's facts (%.0f MB in memory)", mb);
    perf_row(what, w1 - w0, c1 - c0, "<= 1 s, < 300 MB", w1 - w0 <= 1.0 && mb < 300.0);
    analysis_grid_free(&g);
    trace_free(&t);

    capture_desc d6 = {.version = "v6", .n = (uint64_t)1 << 24};
    w0 = now_s();
    c0 = cpu_s();
    if (capture_cpu(&d6, &t, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    analysis_counters *ph, tot;
    size_t nph;
    if (analysis_phases(&t, 0, 0, &ph, &nph, &tot) == 0) free(ph);
    w1 = now_s();
    c1 = cpu_s();
    snprintf(what, sizeof what, "v6, n 2^24, one block traced (stats --version v6 --n 2^24)");
    perf_row(what, w1 - w0, c1 - c0, "<= 3 s", w1 - w0 <= 3.0);
    trace_free(&t);
    puts("times are wall-clock on this machine as it is (other processes count); CPU is summed over the workers");
    return 0;
}

int cmd_perf_draw(const ws_call *k)
{
    (void)k;
    data_dirs d;
    int rc = find_data(&d, 1, 0);
    return rc ? rc : viewer_perf_draw(d.assets);
}

int cmd_perf_export(const ws_call *k)
{
    (void)k;
    data_dirs d;
    int rc = find_data(&d, 1, 0);
    return rc ? rc : viewer_perf_export(d.assets);
}

int cmd_perf_capture(const ws_call *k)
{
    (void)k;
    enum { REPS = 7 };
    static const unsigned blocks[] = {256, 1024};
    /* kept between captures, as the viewer keeps it: its stacks stay mapped */
    emu *warm = emu_create();
    if (!warm) { fprintf(stderr, "warpscope: out of memory for the emulator\n"); return EXIT_BAD; }
    printf("capture of one block (n = block * elements per thread), CPU emulator, median of %d runs;\n"
           "cold: a fresh emulator (a page fault per thread's stack), warm: one kept between captures\n", REPS);
    printf("%-6s %6s %8s %9s %9s %10s %10s %8s\n", "version", "block", "events", "cold", "warm", "to JSON", "JSON size", "target");
    for (size_t i = 0; i < ladder_count; i++) {
        for (size_t b = 0; b < 2; b++) {
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = ladder_versions[i].id;
            d.block = blocks[b];
            d.data = "random-float";
            double tc[REPS], tj[REPS], tw[REPS];
            size_t bytes = 0, events = 0;
            for (int r = 0; r < REPS; r++) {
                trace t;
                double t0 = now_ms();
                int rc = do_capture(&d, &t);
                if (rc) return rc;
                double t1 = now_ms();
                char *json = trace_to_json(&t);
                double t2 = now_ms();
                if (!json) { fprintf(stderr, "warpscope: out of memory\n"); trace_free(&t); return EXIT_BAD; }
                bytes = strlen(json);
                events = t.nevents;
                free(json);
                trace_free(&t);
                tc[r] = t1 - t0;
                tj[r] = t2 - t1;
                d.emu = warm;
                t0 = now_ms();
                rc = do_capture(&d, &t);
                tw[r] = now_ms() - t0;
                trace_free(&t);
                d.emu = NULL;
                if (rc) { emu_destroy(warm); return rc; }
            }
            qsort(tw, REPS, sizeof *tw, cmp_double);
            qsort(tc, REPS, sizeof *tc, cmp_double);
            qsort(tj, REPS, sizeof *tj, cmp_double);
            int ok = tw[REPS / 2] <= 10.0 && bytes < 1000000;
            printf("%-7s %6u %8zu %6.2f ms %6.2f ms %7.2f ms %7.1f kB %8s\n", ladder_versions[i].id, blocks[b], events,
                   tc[REPS / 2], tw[REPS / 2], tj[REPS / 2], (double)bytes / 1000.0, ok ? "met" : "MISSED");
        }
    }
    emu_destroy(warm);
    puts("target: a capture (warm) at most 10 ms, JSON under 1 MB");
    return perf_grid();
}

/* A one-kernel file as a learner writes it (sequential addressing), for perf kernel. */
static const char perf_kernel_file[] =
    "__global__ void reduce(const float *in, float *out, unsigned n)\n"
    "{\n"
    "    __shared__ float sdata[256];\n"
    "    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    sdata[tid] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        if (tid < s) sdata[tid] += sdata[tid + s];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (tid == 0) out[blockIdx.x] = sdata[0];\n"
    "}\n";

/* Removes the files perf kernel's cache folder holds, then the folders. */
static void remove_cache(const char *root)
{
    char dir[PATH_MAX], path[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s/warpscope", root);
    DIR *dh = opendir(dir);
    for (struct dirent *de; dh && (de = readdir(dh));) {
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    if (dh) closedir(dh);
    rmdir(dir);
}

int cmd_perf_kernel(const ws_call *k)
{
    (void)k;
    enum { COLD = 3, WARM = 9 };
    data_dirs d;
    int rc = find_data(&d, 1, 0);
    if (rc) return rc;
    char root[] = "/tmp/warpscope-perf-XXXXXX", file[sizeof root + 16];
    if (!mkdtemp(root)) { fprintf(stderr, "warpscope: cannot make a folder in /tmp: %s\n", strerror(errno)); return EXIT_BAD; }
    snprintf(file, sizeof file, "%s/reduce.cu", root);
    FILE *f = fopen(file, "w");
    if (!f || fputs(perf_kernel_file, f) < 0 || fclose(f)) {
        fprintf(stderr, "warpscope: cannot write %s\n", file);
        rmdir(root);
        return EXIT_BAD;
    }
    const char *old = getenv("XDG_CACHE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_CACHE_HOME", root, 1);
    capture_desc c;
    memset(&c, 0, sizeof c);
    c.version = OWN_VERSION;
    c.kernel = file;
    c.entry = "reduce<<<(n + 255) / 256, 256>>>(in, out, n)";
    c.include_dir = d.include;
    c.n = 256;
    c.cancel = &interrupted;
    double cold[COLD], warm[WARM], build[WARM], traced[WARM];
    char err[1024] = "";
    printf("a one-kernel file (sequential addressing, 12 lines), n = 256, median of %d cold and %d cached runs\n", COLD, WARM);
    for (int r = 0; r < COLD + WARM && !rc; r++) {
        if (r < COLD) remove_cache(root);
        trace t;
        trace_init(&t);
        double t0 = now_ms();
        if (capture_own(&c, &t, err, sizeof err)) rc = EXIT_BAD;
        double ms = now_ms() - t0;
        trace_free(&t);
        own_build_info info;
        own_last_build(&info);
        if (r < COLD) cold[r] = ms;
        else warm[r - COLD] = ms, build[r - COLD] = info.build_ms, traced[r - COLD] = info.run_ms;
    }
    /* a new process each time, the object in the cache: what a learner's second run costs */
    double proc[WARM];
    char exe[PATH_MAX] = "", cmd[2 * PATH_MAX + 200];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(cmd, sizeof cmd, "'%s' stats --kernel '%s' --entry '%s' --n 256 >/dev/null 2>&1", exe, file, c.entry);
    for (int r = 0; r < WARM && !rc; r++) {
        double t0 = now_ms();
        if (system(cmd) != 0) { rc = EXIT_BAD; snprintf(err, sizeof err, "a second warpscope (stats --kernel) failed"); }
        proc[r] = now_ms() - t0;
    }
    remove_cache(root);
    unlink(file);
    rmdir(root);
    if (saved) setenv("XDG_CACHE_HOME", saved, 1);
    else unsetenv("XDG_CACHE_HOME");
    free(saved);
    if (rc) {
        if (interrupted) return report_interrupt(NULL);
        fprintf(stderr, "warpscope: perf kernel: %s\n", err);
        return rc;
    }
    qsort(cold, COLD, sizeof *cold, cmp_double);
    qsort(warm, WARM, sizeof *warm, cmp_double);
    qsort(build, WARM, sizeof *build, cmp_double);
    qsort(traced, WARM, sizeof *traced, cmp_double);
    printf("cold (parse, compile, load, trace) %8.1f ms   target 3000 ms: %s\n", cold[COLD / 2], cold[COLD / 2] <= 3000 ? "met" : "MISSED");
    printf("cached: key, lookup and loading    %8.1f ms   target 50 ms: %s\n", build[WARM / 2], build[WARM / 2] <= 50 ? "met" : "MISSED");
    qsort(proc, WARM, sizeof *proc, cmp_double);
    printf("cached: the whole capture          %8.1f ms (in this process, the object already loaded)\n", warm[WARM / 2]);
    printf("cached: warpscope stats, a new process %4.1f ms\n", proc[WARM / 2]);
    printf("tracing it (the entry's launches)  %8.1f ms\n", traced[WARM / 2]);
    return 0;
}
