/* own: a learner's CUDA file, built, cached and run in the emulator (own.h). The runtime its host
 * code calls (ws_user_* in ws_user.h) lives here too: one capture runs at a time, its state in
 * `run`, in the child process run_apart starts. An error in the learner's host code (a copy past
 * a buffer, a launch the emulator cannot run, a loop that never ends) leaves the entry by longjmp,
 * with the message in run->err. */
#define _DEFAULT_SOURCE /* mkstemps */
#include "trace/capture/own/own.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture/emu.h"
#include "trace/capture/own/ws_user_api.h"
#include "trace/capture/race.h"
#include "trace/capture/schedule.h"
#include "trace/json_internal.h"

enum {
    OWN_FILE_MAX = 1 << 20,               /* bytes of a learner's file */
    OWN_BUFFERS = TRACE_BUFFERS_MAX,      /* cudaMalloc'd buffers, in and out included */
    OWN_LOOP_TURNS = 1 << 20,             /* turns of its loops one thread may make in one block */
    OWN_MAX_EVENTS = 1 << 21,             /* warp instructions a capture may record */
    OWN_COMPILE_SECONDS = 120,
    OWN_FRONTEND_MAX = 64 << 20,          /* bytes of the front end's program, read for the key */
};
static const uint64_t own_host_turns = (uint64_t)1 << 32; /* turns of the host code's loops */


typedef struct own_run {
    const capture_desc *d;
    const char *path;
    trace *t;
    emu *e;
    emu_schedule schedule;
    race *race;
    uint64_t dropped[2];
    own_span bufs[OWN_BUFFERS];
    int nbufs;
    unsigned shmem;
    uint64_t host_turns;
    struct {
        unsigned block, turns;
    } turns[TRACE_BLOCK_THREADS_MAX];
    unsigned launches;
    jmp_buf out;
    char err[1024];
} own_run;

static own_run *run;
static own_build_info last_build;

void own_last_build(own_build_info *info) { *info = last_build; }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void own_at_line(char *dst, size_t len, const char *path, const char *msg)
{
    unsigned line;
    int used = 0;
    if (sscanf(msg, "line %u: %n", &line, &used) == 1 && used > 0)
        snprintf(dst, len, "%s:%u: %s", path, line, msg + used);
    else
        snprintf(dst, len, "%s: %s", path, msg);
}

void own_vfail(char *err, size_t errlen, jmp_buf *out, const char *path, const char *fmt, va_list ap)
{
    char msg[900];
    vsnprintf(msg, sizeof msg, fmt, ap);
    own_at_line(err, errlen, path, msg);
    longjmp(*out, 1);
}

static void host_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void host_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    own_vfail(run->err, sizeof run->err, &run->out, run->path, fmt, ap);
}

/* ---- the runtime the learner's code calls ---- */

void ws_user_fail(unsigned line, const char *what)
{
    char msg[600];
    if (line) snprintf(msg, sizeof msg, "line %u: %s", line, what);
    else snprintf(msg, sizeof msg, "%s", what);
    if (emu_in_kernel()) {
        emu_abort(msg);
        abort(); /* emu_abort never returns */
    }
    host_fail("%s", msg);
}

static int add_buffer(size_t bytes, const char *name)
{
    if (run->nbufs == OWN_BUFFERS) return -1;
    size_t rounded = (bytes + 15) / 16 * 16;
    unsigned char *m = calloc(rounded ? rounded : 16, 1);
    if (!m) return -1;
    int id = run->nbufs;
    if (emu_set_buffer(run->e, id, m, bytes) || trace_add_buffer(run->t, name, 0)) {
        free(m);
        return -1;
    }
    run->bufs[id] = (own_span){m, bytes};
    run->nbufs++;
    return id;
}

void *ws_user_malloc(size_t bytes, unsigned line)
{
    if (bytes > ((size_t)1 << 34)) host_fail("line %u: cudaMalloc of %zu bytes: the emulator gives at most 16 GiB", line, bytes);
    char name[32];
    snprintf(name, sizeof name, "line%u", line);
    int id = add_buffer(bytes, name);
    if (id < 0) host_fail("line %u: cudaMalloc: out of memory, or more than %d buffers", line, OWN_BUFFERS - 2);
    return run->bufs[id].p;
}

void ws_user_free(void *p) { (void)p; /* kept until the capture ends: the trace names it */ }

int own_find_span(const own_span *spans, size_t n, const void *p, size_t *offset)
{
    const unsigned char *q = p;
    for (int end = 0; end < 2; end++)
        for (size_t i = 0; i < n; i++)
            if (q >= spans[i].p && (end ? q == spans[i].p + spans[i].bytes : q < spans[i].p + spans[i].bytes)) {
                *offset = (size_t)(q - spans[i].p);
                return (int)i;
            }
    return -1;
}

static int find_buffer(const void *p, size_t *offset) { return own_find_span(run->bufs, (size_t)run->nbufs, p, offset); }

int ws_user_buffer(const void *p, int *buf, int64_t *off)
{
    size_t o;
    int i = find_buffer(p, &o);
    if (i < 0) return 0;
    *buf = i;
    *off = (int64_t)o;
    return 1;
}

static void check_span(const void *p, size_t bytes, const char *what, unsigned line)
{
    size_t o;
    int i = find_buffer(p, &o);
    if (i >= 0 && o + bytes > run->bufs[i].bytes)
        host_fail("line %u: %s of %zu bytes runs past the end of buffer %s (%zu bytes, %zu from its start)", line, what, bytes,
                  run->t->buffers[i].name, run->bufs[i].bytes, o);
}

void ws_user_copy(void *dst, const void *src, size_t bytes, unsigned line)
{
    check_span(dst, bytes, "cudaMemcpy into it", line);
    check_span(src, bytes, "cudaMemcpy out of it", line);
    memmove(dst, src, bytes);
}

void ws_user_memset(void *dst, int v, size_t bytes, unsigned line)
{
    check_span(dst, bytes, "cudaMemset", line);
    memset(dst, v, bytes);
}

unsigned ws_user_shmem(void) { return run->shmem; }

void ws_user_tick(unsigned line)
{
    if (emu_in_kernel()) {
        unsigned tid = emu_thread_idx()->x, b = emu_block_idx()->x;
        if (run->turns[tid].block != b + 1) run->turns[tid].block = b + 1, run->turns[tid].turns = 0;
        if (++run->turns[tid].turns > OWN_LOOP_TURNS || (run->d->cancel && *run->d->cancel)) {
            char msg[300];
            if (run->d->cancel && *run->d->cancel) snprintf(msg, sizeof msg, "interrupted");
            else
                snprintf(msg, sizeof msg, "line %u: thread %u of block %u has turned this loop %d times; a loop that never ends? "
                         "(a thread may turn its loops 2^20 times in a block)", line, tid, b, OWN_LOOP_TURNS);
            emu_abort(msg);
        }
        return;
    }
    if (run->d->cancel && *run->d->cancel) host_fail("interrupted");
    if (++run->host_turns > own_host_turns)
        host_fail("line %u: the host code's loops have turned 2^32 times; a loop that never ends?", line);
}

void ws_user_launch(emu_kernel_fn fn, const void *args, emu_dim3 grid, emu_dim3 block, size_t shmem, unsigned line)
{
    if (grid.y != 1 || grid.z != 1 || block.y != 1 || block.z != 1)
        host_fail("line %u: a launch of %ux%ux%u blocks of %ux%ux%u threads: the emulator runs one-dimensional launches; "
                  "use blockIdx.x and threadIdx.x", line, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (!grid.x || !block.x || block.x > TRACE_BLOCK_THREADS_MAX)
        host_fail("line %u: invalid configuration argument: %u blocks of %u threads (a block holds 1 to %d threads)", line, grid.x,
                  block.x, TRACE_BLOCK_THREADS_MAX);
    if (shmem > (size_t)TRACE_SHARED_WORDS_MAX * WORD_BYTES)
        host_fail("line %u: %zu bytes of dynamic shared memory: a block has at most %d", line, shmem,
                  TRACE_SHARED_WORDS_MAX * WORD_BYTES);
    if (run->launches == TRACE_PASSES_MAX)
        host_fail("line %u: more than %d launches; a host loop that never ends?", line, TRACE_PASSES_MAX);
    trace *t = run->t;
    if (!run->launches) t->prov.block = block.x;
    if (trace_add_pass(t, (trace_pass){.grid = grid.x, .block = block.x, .n_in = (uint64_t)grid.x * block.x}))
        host_fail("out of memory for the trace");
    run->shmem = (unsigned)shmem;
    memset(run->turns, 0, sizeof run->turns);
    const capture_desc *d = run->d;
    emu_launch l = {.kernel = fn, .args = args, .grid = grid.x, .block = block.x, .pass = run->launches,
                    .blocks_traced = d->blocks_traced ? d->blocks_traced : 1, .trace = t, .workers = 1,
                    .cancel = d->cancel, .serial_blocks = 1, .strict_barriers = 1,
                    .max_events = OWN_MAX_EVENTS, .schedule = &run->schedule,
                    .observer = run->race ? race_observer(run->race) : NULL, .drop_barrier = d->drop_barrier,
                    .drop_syncwarp = d->drop_syncwarp};
    run->launches++;
    int rc = emu_run(run->e, &l);
    run->dropped[0] += emu_dropped(run->e, TRACE_BARRIER);
    run->dropped[1] += emu_dropped(run->e, TRACE_WARP_SYNC);
    if (rc) host_fail("%s", emu_last_error(run->e));
    t->passes[t->npasses - 1].shared_bytes = emu_shared_bytes(run->e);
}

/* ---- building: the front end, the compiler, the cache ---- */

static int read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    return json_read_file(path, OWN_FILE_MAX, text, len, err, errlen);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); }

/* the headers the rewritten file compiles against are part of the key: a new warpscope rebuilds */
static const char *const runtime_headers[] = {"trace/trace.h", "trace/capture/emu.h", "trace/capture/ws_cuda.h",
                                              "trace/capture/own/ws_user.h", "trace/capture/own/ws_user_api.h",
                                              "trace/capture/own/ws_entry.h", "trace/capture/own/ws_user_gpu.h",
                                              "trace/capture/own/ws_user_gpu_api.h"};

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int bad = mkdir(path, 0755) && errno != EEXIST;
        *p = '/';
        if (bad) return -1;
    }
    return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

int own_cache_dir(char *buf, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n = x && *x ? snprintf(buf, len, "%s/warpscope", x) : home && *home ? snprintf(buf, len, "%s/.cache/warpscope", home) : -1;
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

static const char *compiler(void)
{
    const char *c = getenv("WARPSCOPE_CXX");
    return c && *c ? c : "c++";
}

/* nvcc for the GPU's builds: WARPSCOPE_NVCC, else PATH's, else where CUDA installs it */
static const char *nvcc(void)
{
    const char *c = getenv("WARPSCOPE_NVCC"), *path = getenv("PATH");
    if (c && *c) return c;
    for (const char *p = path; p && *p;) {
        size_t n = strcspn(p, ":");
        char f[4200];
        snprintf(f, sizeof f, "%.*s/nvcc", (int)n, p);
        if (n && access(f, X_OK) == 0) return "nvcc";
        p += n + (p[n] == ':');
    }
    return "/usr/local/cuda/bin/nvcc";
}

/* What a GPU build is made for and by (-arch=native): the GPUs' models, as the driver's files under
 * /proc/driver/nvidia/gpus name them (read, not asked of CUDA, which this process must not start),
 * and the compiler program's size and time, found on the PATH as execvp finds it. A cache shared by
 * two machines, or kept through a new toolkit, builds again. */
static uint64_t gpu_identity(uint64_t key, const char *prog)
{
    DIR *dir = opendir("/proc/driver/nvidia/gpus");
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        char path[600], *text = NULL, err[64];
        size_t len;
        snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", e->d_name);
        if (json_read_file(path, 1 << 16, &text, &len, err, sizeof err)) continue;
        const char *m = strstr(text, "Model:");
        if (m) key = fnv(key, m, strcspn(m, "\n"));
        free(text);
    }
    if (dir) closedir(dir);
    char full[4200] = "";
    const char *path = getenv("PATH");
    if (strchr(prog, '/')) snprintf(full, sizeof full, "%s", prog);
    for (const char *p = path; !full[0] && p && *p;) {
        size_t n = strcspn(p, ":");
        snprintf(full, sizeof full, "%.*s/%s", (int)n, p, prog);
        if (!n || access(full, X_OK) != 0) full[0] = 0;
        p += n + (p[n] == ':');
    }
    struct stat st;
    if (full[0] && stat(full, &st) == 0) {
        key = fnv(key, &st.st_size, sizeof st.st_size);
        key = fnv(key, &st.st_mtime, sizeof st.st_mtime);
    }
    return key;
}

/* How each build of a learner's file is compiled: the emulator's by the host C++ compiler, the
 * GPU's by nvcc for this machine's GPU (traced: every access recorded; plain: the benchmark's). */
static const struct {
    const char *(*compiler)(void);
    const char *tag; /* in the cache's file names */
    const char *flags[8];
} flavours[] = {
    [OWN_EMU] = {compiler, "emu", {"-std=c++17", "-O1", "-fPIC", "-shared", "-w", "-DWS_EMU", "-DWS_USER", NULL}},
    [OWN_GPU_TRACED] = {nvcc, "gputrace", {"-std=c++17", "-O3", "-Xcompiler=-fPIC", "-shared", "-w", "-arch=native", "-DWS_GPU_TRACE", "-DWS_USER"}},
    [OWN_GPU_PLAIN] = {nvcc, "gpu", {"-std=c++17", "-O3", "-Xcompiler=-fPIC", "-shared", "-w", "-arch=native", "-DWS_USER", NULL}},
};

/* Runs the compiler; its messages go to *out (malloc'd). 0 when it succeeded. */
static int run_compiler(char *const argv[], const capture_desc *d, char **out, char *err, size_t errlen)
{
    int pipefd[2];
    *out = NULL;
    if (pipe(pipefd)) { snprintf(err, errlen, "cannot start the compiler: %s", strerror(errno)); return -1; }
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        snprintf(err, errlen, "cannot start the compiler: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(pipefd[1], 2);
        dup2(pipefd[1], 1);
        close(pipefd[0]);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(pipefd[1]);
    fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    double start = now_ms();
    int status = 0, done = 0, stopped = 0;
    while (!done) {
        ssize_t k = buf ? read(pipefd[0], buf + n, cap - n) : -1;
        if (k > 0) { n += (size_t)k; if (n == cap) n = cap - 1; continue; } /* keep the beginning */
        if (waitpid(pid, &status, WNOHANG) == pid) { done = 1; break; }
        if ((d->cancel && *d->cancel) || now_ms() - start > OWN_COMPILE_SECONDS * 1e3) {
            stopped = d->cancel && *d->cancel ? 1 : 2;
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    for (ssize_t k; buf && (k = read(pipefd[0], buf + n, cap - n)) > 0 && n < cap;) n += (size_t)k;
    close(pipefd[0]);
    if (buf) buf[n] = 0;
    *out = buf;
    if (stopped == 1) { snprintf(err, errlen, "interrupted"); return -1; }
    if (stopped == 2) { snprintf(err, errlen, "the compiler ran longer than %d s", OWN_COMPILE_SECONDS); return -1; }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && buf && strstr(buf, "cannot run")) {
        snprintf(err, errlen, "%s", buf);
        err[strcspn(err, "\n")] = 0;
        snprintf(err + strlen(err), errlen - strlen(err), " (set WARPSCOPE_CXX to a C++ compiler, or WARPSCOPE_NVCC to nvcc)");
        return -1;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* The compiler's first error, as it wrote it: the first line at the learner's file, else the first
 * line saying "error". */
static void first_compiler_error(const char *out, const char *path, char *err, size_t errlen)
{
    const char *pick = NULL;
    size_t plen = strlen(path);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t ll = strcspn(l, "\n");
        int has_error = 0;
        for (size_t i = 0; i + 5 <= ll && !has_error; i++) has_error = memcmp(l + i, "error", 5) == 0;
        if (has_error && strncmp(l, path, plen) == 0 && (l[plen] == ':' || l[plen] == '(')) { pick = l; break; } /* nvcc: FILE(LINE) */
        if (has_error && !pick) pick = l;
    }
    if (!pick) pick = out;
    snprintf(err, errlen, "%.*s", (int)strcspn(pick, "\n"), pick);
}

/* The front end runs as its own program, found beside warpscope: it writes src, or says why not. */
static void frontend_program(char *prog, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(prog, len, "%s/warpscope-frontend", exe);
}

static int run_frontend(const capture_desc *d, const char *stubs, const char *src, char *err, size_t errlen)
{
    char prog[4200];
    frontend_program(prog, sizeof prog);
    if (access(prog, X_OK) != 0) {
        snprintf(err, errlen, "%s: this warpscope has no CUDA front end (%s is missing; it is built where libclang-14-dev is installed)",
                 d->kernel, prog);
        return -1;
    }
    char *argv[64] = {prog, (char *)d->kernel, (char *)stubs, (char *)src, (char *)(d->entry ? d->entry : "")};
    int na = 5;
    for (int i = 0; d->defines && d->defines[i] && na < 62; i++) argv[na++] = (char *)d->defines[i];
    argv[na] = NULL;
    char *msgs = NULL;
    int rc = run_compiler(argv, d, &msgs, err, errlen);
    if (rc > 0) {
        snprintf(err, errlen, "%.*s", (int)strcspn(msgs ? msgs : "", "\n"), msgs ? msgs : "the front end failed");
    }
    free(msgs);
    if (rc) unlink(src);
    return rc ? -1 : 0;
}

int own_build(const capture_desc *d, int flavour, char *so, size_t solen, char *err, size_t errlen)
{
    char *text = NULL, *msgs = NULL;
    size_t len;
    int rc = -1;
    memset(&last_build, 0, sizeof last_build);
    double start = now_ms();
    if (read_file(d->kernel, &text, &len, err, errlen)) return -1;
    const char *cc = flavours[flavour].compiler();
    char inc[4096], stubs[4200], learner_dir[4096];
    snprintf(inc, sizeof inc, "%s", d->include_dir ? d->include_dir : ".");
    snprintf(stubs, sizeof stubs, "%s/trace/capture/own/include", inc);
    snprintf(learner_dir, sizeof learner_dir, "%s", d->kernel);
    char *slash = strrchr(learner_dir, '/');
    if (slash) *slash = 0;
    else snprintf(learner_dir, sizeof learner_dir, ".");
    /* two keys: the rewrite's (the file, how it is run, the front end that rewrites it), which
     * every build of the file shares, and the build's (the rewrite, its compiler and flavour, and
     * the headers it compiles against: a new warpscope rebuilds); a file in the cache is neither
     * rewritten nor compiled again */
    uint64_t rkey = fnv(0xcbf29ce484222325ull, text, len);
    rkey = fnv_str(rkey, d->entry ? d->entry : "");
    rkey = fnv_str(rkey, d->kernel);
    rkey = fnv_str(rkey, learner_dir);
    for (int i = 0; d->defines && d->defines[i]; i++) rkey = fnv_str(rkey, d->defines[i]);
    char prog[4200], *fe = NULL;
    size_t fel;
    frontend_program(prog, sizeof prog);
    if (json_read_file(prog, OWN_FRONTEND_MAX, &fe, &fel, err, errlen) == 0) { /* a rebuilt front end rewrites again */
        rkey = fnv(rkey, fe, fel);
        free(fe);
    }
    uint64_t key = fnv_str(rkey, cc);
    key = fnv_str(key, flavours[flavour].tag);
    if (flavour != OWN_EMU) key = gpu_identity(key, cc); /* built for this machine's GPU, by this nvcc */
    for (size_t i = 0; i < sizeof runtime_headers / sizeof runtime_headers[0]; i++) {
        char p[4400], *h = NULL;
        size_t hl;
        snprintf(p, sizeof p, "%s/%s", inc, runtime_headers[i]);
        if (read_file(p, &h, &hl, err, errlen)) {
            snprintf(err, errlen, "%s: cannot read warpscope's kernel header (is warpscope installed whole?)", p);
            goto done;
        }
        key = fnv(key, h, hl);
        free(h);
    }
    char dir[4096], src[4300], tmp[4400];
    if (own_cache_dir(dir, sizeof dir) || mkdirs(dir)) {
        snprintf(err, errlen, "cannot create the cache folder %s (set XDG_CACHE_HOME to a writable folder)", dir);
        goto done;
    }
    snprintf(so, solen, "%s/%016" PRIx64 ".%s.so", dir, key, flavours[flavour].tag);
    snprintf(src, sizeof src, "%s/%016" PRIx64 ".cpp", dir, rkey);
    if (access(so, R_OK) != 0) {
        if (access(src, R_OK) != 0 && run_frontend(d, stubs, src, err, errlen)) goto done;
        snprintf(tmp, sizeof tmp, "%s/%016" PRIx64 ".%ld.tmp.so", dir, key, (long)getpid());
        char i1[4200], i2[4300], i3[4300], i4[4200];
        snprintf(i1, sizeof i1, "-I%s", inc);
        snprintf(i2, sizeof i2, "-I%s/trace/capture", inc);
        snprintf(i3, sizeof i3, "-I%s", stubs);
        snprintf(i4, sizeof i4, "-I%s", learner_dir);
        char *argv[90] = {(char *)cc};
        int na = 1;
        for (int i = 0; i < 8 && flavours[flavour].flags[i]; i++) argv[na++] = (char *)flavours[flavour].flags[i];
        argv[na++] = i1;
        argv[na++] = i2;
        if (flavour == OWN_EMU) argv[na++] = i3; /* the emulator's stubs of CUDA's headers; nvcc has its own */
        argv[na++] = i4;
        char defs[48][200];
        for (int i = 0; d->defines && d->defines[i] && i < 48; i++) {
            snprintf(defs[i], sizeof defs[i], "-D%s", d->defines[i]);
            argv[na++] = defs[i];
        }
        argv[na++] = "-x";
        argv[na++] = flavour == OWN_EMU ? "c++" : "cu";
        argv[na++] = src;
        argv[na++] = "-o";
        argv[na++] = tmp;
        argv[na] = NULL;
        int crc = run_compiler(argv, d, &msgs, err, errlen);
        if (crc) {
            unlink(tmp);
            if (crc > 0) first_compiler_error(msgs ? msgs : "", d->kernel, err, errlen);
            goto done;
        }
        if (rename(tmp, so)) { snprintf(err, errlen, "cannot write %s: %s", so, strerror(errno)); unlink(tmp); goto done; }
        last_build.compiled = 1;
    }
    last_build.build_ms = now_ms() - start;
    rc = 0;
done:
    free(text);
    free(msgs);
    return rc;
}

static void *build(const capture_desc *d, char *err, size_t errlen)
{
    char so[4400];
    double start = now_ms();
    if (own_build(d, OWN_EMU, so, sizeof so, err, errlen)) return NULL;
    void *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!handle) snprintf(err, errlen, "cannot load %s: %s", so, dlerror());
    last_build.build_ms = now_ms() - start;
    return handle;
}

/* ---- the capture ---- */

const char *own_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

typedef struct emu_job {
    const capture_desc *d;
    own_entry_fn entry;
    const emu_schedule *s;
    uint64_t n;
} emu_job;

static int run_here(void *job, trace *t, char *err, size_t errlen);

int own_check(const capture_desc *d, uint64_t *n, char *err, size_t errlen)
{
    if (!d->entry || !*d->entry) {
        snprintf(err, errlen, "%s: say how to run it: --entry 'CALL', a call of its host function (or a launch) with in, out, n "
                              "and h_in, e.g. --entry 'reduce(out, in, n)'",
                 d->kernel);
        return -1;
    }
    *n = d->n ? d->n : 256;
    if (*n > ((uint64_t)1 << 26)) { snprintf(err, errlen, "n = %" PRIu64 ": a kernel of your own runs on at most 2^26 elements", *n); return -1; }
    return 0;
}

int capture_own(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    uint64_t n;
    if (own_check(d, &n, err, errlen)) return -1;
    emu_schedule s;
    int adversarial;
    if (schedule_parse(d->schedule, &s, &adversarial, err, errlen) || schedule_parse_warps(d->warp_order, &s, err, errlen)) return -1;
    if (adversarial) { snprintf(err, errlen, "--schedule adversarial does not run a kernel of your own yet: pick one, e.g. its:1"); return -1; }
    void *so = build(d, err, errlen);
    if (!so) return -1;
    own_entry_fn entry = (own_entry_fn)(uintptr_t)dlsym(so, "ws_user_entry");
    if (!entry) { snprintf(err, errlen, "%s: the compiled file has no entry", d->kernel); return -1; }
    double t0 = now_ms();
    emu_job job = {d, entry, &s, n};
    int rc = own_run_apart(d, run_here, &job, 0, t, err, errlen);
    last_build.run_ms = now_ms() - t0;
    return rc;
}

int own_input(const capture_desc *d, uint64_t n, float *h_in, trace *t, char *err, size_t errlen)
{
    const char *data = d->data ? d->data : "random-int";
    uint64_t seed = d->seed_set ? d->seed : 1;
    if (input_fill(data, seed, h_in, n)) {
        snprintf(err, errlen, "unknown data pattern \"%s\" (ones, ramp, random-int, random-float, random-negative)", data);
        return -1;
    }
    trace_provenance *p = &t->prov;
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    snprintf(p->version, sizeof p->version, "%s", OWN_VERSION);
    snprintf(p->source, sizeof p->source, "%s", own_base_name(d->kernel));
    snprintf(p->data, sizeof p->data, "%s", data);
    p->n = n;
    p->seed = seed;
    p->elems_per_thread = 1;
    p->blocks_traced = d->blocks_traced ? d->blocks_traced : 1;
    t->reference = capture_reference(h_in, n);
    t->tolerance = capture_tolerance(h_in, n);
    if (!(t->tolerance > 0)) t->tolerance = ldexp(1.0, -24);
    return 0;
}

/* The learner's program runs in the emulator in this process (run_apart gives it a process of
 * its own): its host code, its launches, the trace. */
static int run_here(void *job, trace *t, char *err, size_t errlen)
{
    const emu_job *j = job;
    const capture_desc *d = j->d;
    own_entry_fn entry = j->entry;
    uint64_t n = j->n;
    emu_schedule s = *j->s;
    own_run *r = calloc(1, sizeof *r);
    float *h_in = calloc((size_t)n + 4, sizeof *h_in);
    if (!r || !h_in || !(r->e = d->emu ? d->emu : emu_create())) {
        free(r);
        free(h_in);
        snprintf(err, errlen, "out of memory for the emulator");
        return -1;
    }
    r->d = d;
    r->path = d->kernel;
    r->t = t;
    r->schedule = s;
    emu_clear_buffers(r->e);
    trace_free(t);
    int rc = -1;
    if (own_input(d, n, h_in, t, err, errlen)) goto out;
    trace_provenance *p = &t->prov;
    snprintf(p->backend, sizeof p->backend, "cpu");
    snprintf(p->device, sizeof p->device, "CPU emulator");
    snprintf(p->toolkit, sizeof p->toolkit, "host C++ compiler (%s)", compiler());
    if (capture_race_wanted(d) && !(r->race = race_create(-1))) { snprintf(err, errlen, "out of memory for the race detector"); goto out; }

    run = r;
    int in = add_buffer((size_t)n * sizeof(float), "in"), outb = add_buffer((size_t)n * sizeof(float), "out");
    if (in < 0 || outb < 0) { snprintf(err, errlen, "out of memory for %" PRIu64 " elements", n); goto out; }
    memcpy(r->bufs[in].p, h_in, (size_t)n * sizeof(float));
    float result = 0;
    int has_result = 0;
    if (setjmp(r->out)) {
        snprintf(err, errlen, "%s", r->err);
        goto out;
    }
    entry((float *)r->bufs[in].p, (float *)r->bufs[outb].p, (unsigned)n, h_in, &result, &has_result);
    if (!r->launches) { snprintf(err, errlen, "%s: --entry '%s' launched no kernel", d->kernel, d->entry); goto out; }
    t->result = has_result ? result : ((float *)r->bufs[outb].p)[0];
    if (capture_cpu_finish(d, r->race, r->dropped, t, err, errlen)) goto out;
    rc = 0;
out:
    run = NULL;
    if (rc) trace_free(t);
    for (int i = 0; i < r->nbufs; i++) free(r->bufs[i].p);
    race_destroy(r->race);
    emu_clear_buffers(r->e);
    if (!d->emu) emu_destroy(r->e);
    free(r);
    free(h_in);
    return rc;
}

/* The learner's program is a program of theirs: a bad pointer in its host code, a thread's local
 * array written past its end or a call of exit() must not take warpscope with it. It runs in a
 * child process, which hands the trace back through a file in the compact encoding, and its
 * error through a pipe; a child stopped by a signal is reported as the learner's program
 * stopping. SIGINT and SIGTERM (d->cancel) stop the child. */
int own_run_apart(const capture_desc *d, own_runner here, void *job, unsigned seconds, trace *t, char *err, size_t errlen)
{
    static const char done_word[] = "traced"; /* the child's last word when all went well */
    char tmp[] = "/tmp/warpscope-own-XXXXXX.wstrace";
    int fd = mkstemps(tmp, 8);
    if (fd < 0) { snprintf(err, errlen, "cannot make a temporary file in /tmp: %s", strerror(errno)); return -1; }
    close(fd);
    int pipefd[2];
    if (pipe(pipefd)) { unlink(tmp); snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno)); return -1; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        unlink(tmp);
        snprintf(err, errlen, "cannot start the capture's process: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(pipefd[0]);
        char msg[1024] = "";
        int rc = here(job, t, msg, sizeof msg);
        if (!rc && trace_write_file(t, tmp, msg, sizeof msg)) rc = -1;
        if (!rc) snprintf(msg, sizeof msg, "%s", done_word);
        if (write(pipefd[1], msg, strlen(msg)) < 0) rc = -1;
        _exit(rc ? 2 : 0);
    }
    close(pipefd[1]);
    fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
    char msg[1024];
    size_t got = 0;
    int status = 0, stopped = 0;
    double start = now_ms();
    for (;;) {
        ssize_t k = read(pipefd[0], msg + got, sizeof msg - 1 - got);
        if (k > 0) { got += (size_t)k; continue; }
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        if (d->cancel && *d->cancel && !stopped) { kill(pid, SIGKILL); stopped = 1; }
        if (seconds && !stopped && now_ms() - start > seconds * 1e3) { kill(pid, SIGKILL); stopped = 2; }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    for (ssize_t k; got < sizeof msg - 1 && (k = read(pipefd[0], msg + got, sizeof msg - 1 - got)) > 0;) got += (size_t)k;
    close(pipefd[0]);
    msg[got] = 0;
    int rc = -1;
    /* a learner's file, or a version captured apart (whose child runs warpscope's code alone) */
    const char *who = d->kernel ? d->kernel : d->version ? d->version : "the capture";
    if (stopped == 2)
        snprintf(err, errlen, "%s: still running after %u s, and stopped: a loop that never ends? (the emulator, without "
                              "--backend gpu, names its line)", who, seconds);
    else if (stopped || (d->cancel && *d->cancel)) snprintf(err, errlen, "interrupted");
    else if (WIFSIGNALED(status))
        snprintf(err, errlen, "%s: the program stopped with signal %d (%s)%s", who, WTERMSIG(status), strsignal(WTERMSIG(status)),
                 d->kernel ? ": a bad pointer in its host code, or an array of a thread written past its end" : "");
    else if (WEXITSTATUS(status) == 0 && strcmp(msg, done_word) == 0)
        rc = trace_read_file(t, tmp, err, errlen);
    else if (WEXITSTATUS(status) == 2 && got)
        snprintf(err, errlen, "%s", msg);
    else
        snprintf(err, errlen, "%s: the program ended (exit status %d) before warpscope had its trace: does it call exit()?", who,
                 WEXITSTATUS(status));
    unlink(tmp);
    return rc;
}
