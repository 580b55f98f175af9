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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture/emu.h"
#include "trace/capture/own/sandbox.h"
#include "trace/capture/own/ws_user_api.h"
#include "trace/capture/race.h"
#include "trace/cards.h"
#include "trace/capture/schedule.h"
#include "trace/json_internal.h"

enum {
    OWN_BUFFERS = TRACE_BUFFERS_MAX,      /* cudaMalloc'd buffers, in and out included */
    OWN_LOOP_TURNS = 1 << 20,             /* turns of its loops one thread may make in one block */
    OWN_MAX_EVENTS = 1 << 21,             /* warp instructions a capture may record */
};
static const uint64_t own_host_turns = (uint64_t)1 << 32; /* turns of the host code's loops */


typedef struct own_run {
    const capture_desc *d;
    double started_ms; /* when the run began: its loops are stopped in words before its wall clock */
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
    unsigned host_line; /* the host code's last line warpscope saw (a CUDA call, a loop's turn) */
    jmp_buf out;
    char err[1024];
} own_run;

static own_run *run;
/* per thread: warpscope serve builds and judges on several threads at once, each reading its own */
static _Thread_local own_build_info last_build;

void own_last_build(own_build_info *info) { *info = last_build; }
own_build_info *own_build_record(void) { return &last_build; }

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

/* Device memory is out of the host code's reach, as on a GPU: each buffer pages of its own, no
 * access while the host code runs (PROT_NONE), opened while a launch runs and for the copies of
 * cudaMemcpy and cudaMemset, which alone cross. A host access faults; on_fault names it. */
static size_t pages_of(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes ? (bytes + page - 1) / page : 1) * page;
}

static void device_reach(int open)
{
    for (int i = 0; run && i < run->nbufs; i++) mprotect(run->bufs[i].p, pages_of(run->bufs[i].bytes), open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

static int add_buffer(size_t bytes, const char *name)
{
    if (run->nbufs == OWN_BUFFERS) return -1;
    void *mm = mmap(NULL, pages_of(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* zeroed, as calloc's were */
    if (mm == MAP_FAILED) return -1;
    unsigned char *m = mm;
    int id = run->nbufs;
    if (emu_set_buffer(run->e, id, m, bytes) || trace_add_buffer(run->t, name, 0)) {
        munmap(m, pages_of(bytes));
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
    run->host_line = line;
    if (!emu_in_kernel()) device_reach(0);
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
    run->host_line = line;
    check_span(dst, bytes, "cudaMemcpy into it", line);
    check_span(src, bytes, "cudaMemcpy out of it", line);
    device_reach(1);
    memmove(dst, src, bytes); /* a bad host pointer faults here, in warpscope's code: on_fault names the call */
    device_reach(0);
}

void ws_user_memset(void *dst, int v, size_t bytes, unsigned line)
{
    run->host_line = line;
    check_span(dst, bytes, "cudaMemset", line);
    device_reach(1);
    memset(dst, v, bytes);
    device_reach(0);
}

unsigned ws_user_shmem(void) { return run->shmem; }

/* The learner's device queries, answered from the card (--card, else the default): what a GPU of
 * that row would say. */
static const card *run_card(void)
{
    const card *c = run->d->card ? card_find(run->d->card) : NULL;
    return c ? c : card_find(CARD_DEFAULT);
}

void ws_user_device(ws_user_device_props *p)
{
    const card *c = run_card();
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", c->name);
    p->sms = (int)c->sms;
    p->threads_per_block = 1024;
    p->threads_per_sm = (int)c->threads_per_sm;
    p->blocks_per_sm = (int)c->blocks_per_sm;
    p->shared_per_block = 48 * 1024; /* without opting in, as cudaDeviceProp.sharedMemPerBlock says */
    p->shared_per_sm = (int)c->shared_per_sm;
    p->regs_per_block = (int)c->regs_per_block;
    p->regs_per_sm = (int)c->regs_per_sm;
    p->warp_size = (int)c->warp_size;
    p->major = (int)c->cc_major;
    p->minor = (int)c->cc_minor;
}

int ws_user_occupancy(unsigned block, size_t dynamic_shared, unsigned line)
{
    card_schedule s;
    char err[300];
    card_launch l = {.grid = 1, .block = block, .shared_bytes = (unsigned)dynamic_shared};
    if (!block || card_schedule_of(run_card(), &l, &s, err, sizeof err)) host_fail("line %u: cudaOccupancyMaxActiveBlocksPerMultiprocessor: %s", line,
                                                                                    block ? err : "a block of 0 threads");
    return (int)s.blocks_per_sm; /* the kernel's static shared memory and registers are not known before it runs */
}

/* set by ws_user_lock: the object locked the run when it was loaded */
static int code_locked;

void ws_user_lock(void)
{
    char err[300];
    if (code_locked) return;
    if (sandbox_lock_code(err, sizeof err)) { /* nothing of the file's may run unlocked: the run ends, saying why in
                                                    WORK/message (its folder is its working folder; none of the file's code ran yet) */
        FILE *f = fopen("message", "w");
        if (f) fprintf(f, "warpscope-run could not lock the run against new code (%s): not run", err), fclose(f);
        _exit(2);
    }
    code_locked = 1;
}

/* A loop of code run while the object is loaded (its constructors: no run yet, before the entry):
 * it may turn, as a program's would, for LOAD_LOOP_S seconds, then the run ends at its line,
 * saying so in WORK/message (the run's working folder). */
enum { LOAD_LOOP_S = 5 };
static void load_tick(unsigned line)
{
    static uint64_t turns;
    static double start;
    if ((turns++ & 0xffff) != 0) return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    if (turns == 1) start = now;
    if (now - start < LOAD_LOOP_S) return;
    FILE *f = fopen("message", "w");
    if (f) fprintf(f, "line %u: a loop of code that runs when the file is loaded (a constructor, or a global's initializer, before the "
                   "entry) still turns after %d s; a loop that never ends?", line, LOAD_LOOP_S), fclose(f);
    _exit(2);
}

void ws_user_tick(unsigned line)
{
    if (!run) { load_tick(line); return; }
    if (emu_in_kernel()) {
        unsigned tid = emu_thread_rank(), b = emu_block_rank();
        if (emu_launch_failed()) emu_abort("stopped"); /* another thread stopped the launch: this one's loop ends with it */
        if (run->turns[tid].block != b + 1) run->turns[tid].block = b + 1, run->turns[tid].turns = 0;
        /* the turns' bound, or, on a machine too loaded to reach it in time, two thirds of the run's
         * wall clock spent while this thread turns its loop (the loop is named, never the clock) */
        unsigned k = ++run->turns[tid].turns;
        int late = (k & 1023) == 0 && now_ms() - run->started_ms > sandbox_run_wall_s() * 1e3 * 2 / 3;
        if (k > OWN_LOOP_TURNS || late || (run->d->cancel && *run->d->cancel)) {
            char msg[300];
            if (run->d->cancel && *run->d->cancel) snprintf(msg, sizeof msg, "interrupted");
            else if (late)
                snprintf(msg, sizeof msg, "line %u: thread %u of block %u has turned this loop %u times in %.0f s; a loop that never ends? "
                         "(a run has %u s)", line, tid, b, k, (now_ms() - run->started_ms) / 1e3, sandbox_run_wall_s());
            else
                snprintf(msg, sizeof msg, "line %u: thread %u of block %u has turned this loop %d times; a loop that never ends? "
                         "(a thread may turn its loops 2^20 times in a block)", line, tid, b, OWN_LOOP_TURNS);
            emu_abort(msg);
        }
        return;
    }
    run->host_line = line;
    if (run->d->cancel && *run->d->cancel) host_fail("interrupted");
    if (++run->host_turns > own_host_turns)
        host_fail("line %u: the host code's loops have turned 2^32 times; a loop that never ends?", line);
    if ((run->host_turns & 0xffff) == 0 && now_ms() - run->started_ms > sandbox_run_wall_s() * 1e3 * 2 / 3)
        host_fail("line %u: the host code's loops still turn after %.0f s; a loop that never ends? (a run has %u s)", line,
                  (now_ms() - run->started_ms) / 1e3, sandbox_run_wall_s());
}

void ws_user_launch(emu_kernel_fn fn, const void *args, emu_dim3 grid, emu_dim3 block, size_t shmem, unsigned line)
{
    /* CUDA's limits: blockDim within (1024, 1024, 64) and 1024 threads, gridDim within (2^31 - 1, 65535, 65535) */
    uint64_t threads = (uint64_t)block.x * block.y * block.z, blocks = (uint64_t)grid.x * grid.y * grid.z;
    if (!threads || threads > TRACE_BLOCK_THREADS_MAX || block.z > 64 || !blocks || grid.x > 0x7fffffffu || grid.y > 65535 ||
        grid.z > 65535 || blocks > UINT32_MAX)
        host_fail("line %u: invalid configuration argument: a grid of (%u, %u, %u) blocks of (%u, %u, %u) threads (a block holds 1 to %d "
                  "threads, z at most 64; a grid at most (2^31 - 1, 65535, 65535) blocks)", line, grid.x, grid.y, grid.z, block.x, block.y,
                  block.z, TRACE_BLOCK_THREADS_MAX);
    if (shmem > (size_t)TRACE_SHARED_WORDS_MAX * WORD_BYTES)
        host_fail("line %u: %zu bytes of dynamic shared memory: a block has at most %d", line, shmem,
                  TRACE_SHARED_WORDS_MAX * WORD_BYTES);
    if (run->launches == TRACE_PASSES_MAX)
        host_fail("line %u: more than %d launches; a host loop that never ends?", line, TRACE_PASSES_MAX);
    trace *t = run->t;
    if (!run->launches) {
        t->prov.block = (uint32_t)threads;
        t->prov.block_dim[0] = block.x, t->prov.block_dim[1] = block.y, t->prov.block_dim[2] = block.z;
    }
    if (trace_add_pass(t, (trace_pass){.grid = (uint32_t)blocks, .block = (uint32_t)threads, .n_in = blocks * threads,
                                       .grid_dim = {grid.x, grid.y, grid.z}, .block_dim = {block.x, block.y, block.z}}))
        host_fail("out of memory for the trace");
    run->shmem = (unsigned)shmem;
    memset(run->turns, 0, sizeof run->turns);
    const capture_desc *d = run->d;
    emu_launch l = {.kernel = fn, .args = args, .grid = (unsigned)blocks, .block = (unsigned)threads, .grid_dim = grid,
                    .block_dim = block, .pass = run->launches,
                    .blocks_traced = d->blocks_traced ? d->blocks_traced : 1, .trace = t, .workers = 1,
                    .cancel = d->cancel, .serial_blocks = 1, .strict_barriers = 1,
                    .max_events = OWN_MAX_EVENTS, .schedule = &run->schedule,
                    .observer = run->race ? race_observer(run->race) : NULL, .drop_barrier = d->drop_barrier,
                    .drop_syncwarp = d->drop_syncwarp};
    run->launches++;
    run->host_line = line;
    device_reach(1);
    int rc = emu_run(run->e, &l);
    device_reach(0);
    run->dropped[0] += emu_dropped(run->e, TRACE_BARRIER);
    run->dropped[1] += emu_dropped(run->e, TRACE_WARP_SYNC);
    if (rc) host_fail("%s", emu_last_error(run->e));
    t->passes[t->npasses - 1].shared_bytes = emu_shared_bytes(run->e);
}


/* ---- the capture ---- */

const char *own_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int own_check(const capture_desc *d, uint64_t *n, char *err, size_t errlen)
{
    if (trace_type_from_name(d->type) < 0) {
        snprintf(err, errlen, "--type: \"%s\" is not float, int, unsigned, double or long long", d->type);
        return -1;
    }
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

/* The learner's file, built in the sandbox, then run there by warpscope-run (runner_main.c), which
 * calls own_run_so; the trace comes back through the validating reader. */
/* d as its build sees it: a type other than float is the entry's WS_ENTRY_T, one define more */
static void typed_desc(const capture_desc *d, capture_desc *typed, const char **defines, char *entry_type, size_t len)
{
    *typed = *d;
    if (trace_type_from_name(d->type) == TRACE_TYPE_FLOAT) return;
    int k = 0;
    for (; d->defines && d->defines[k] && k <= OWN_DEFINES_MAX; k++) defines[k] = d->defines[k];
    snprintf(entry_type, len, "WS_ENTRY_T=%s", d->type);
    defines[k++] = entry_type;
    defines[k] = NULL;
    typed->defines = defines;
}

int own_capture_cached(const capture_desc *d)
{
    capture_desc typed;
    const char *defines[OWN_DEFINES_MAX + 3];
    char entry_type[48];
    typed_desc(d, &typed, defines, entry_type, sizeof entry_type);
    return own_build_cached(&typed, OWN_EMU);
}

/* The trace warpscope-run wrote into the descriptor it was handed: its size is checked against
 * the run's limit before a byte is read (a sparse file of a gigabyte costs nothing to make), then
 * it is read whole and through the validating reader. */
static int read_handed_trace(const capture_desc *d, int fd, trace *t, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) { snprintf(err, errlen, "%s: its trace cannot be read: %s", d->kernel, strerror(errno)); return -1; }
    if (st.st_size <= 0 || (uint64_t)st.st_size > OWN_TRACE_MAX) {
        snprintf(err, errlen, "%s: its trace is %lld bytes, outside what a run writes (1 to %d MiB): refused unread", d->kernel,
                 (long long)st.st_size, (int)(OWN_TRACE_MAX >> 20));
        return -1;
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *buf = malloc(len);
    if (!buf) { snprintf(err, errlen, "out of memory for a trace of %zu bytes", len); return -1; }
    for (ssize_t k; got < len && (k = pread(fd, buf + got, len - got, (off_t)got)) > 0;) got += (size_t)k;
    char msg[300];
    trace_init(t);
    int rc = got == len ? trace_from_bin(t, buf, len, msg, sizeof msg) : (snprintf(msg, sizeof msg, "shorter than it said"), -1);
    free(buf);
    if (rc) snprintf(err, errlen, "%s: its trace: %s", d->kernel, msg);
    return rc;
}

/* How a run ended (o, of job; said: its last word, WORK/message, or NULL): 0 when it wrote its
 * trace, else -1 and why, in the learner's terms. */
static int run_ended(const capture_desc *d, int adversarial, const sandbox_job *job, const sandbox_outcome *o, const char *said,
                     size_t len, char *err, size_t errlen)
{
    char ending[300];
    sandbox_ending(job, o, ending, sizeof ending);
    if (o->cancelled) snprintf(err, errlen, "interrupted");
    else if (o->timed_out && adversarial)
        snprintf(err, errlen, "%s: %s: --schedule adversarial loads the file once per order, and a check has %u s for all of them "
                              "(a loop that never ends, or a wait?)", d->kernel, ending, sandbox_check_wall_s());
    else if (o->timed_out)
        snprintf(err, errlen, "%s: %s: a loop that never ends, or a wait? (its host code and kernels have %u s)", d->kernel, ending,
                 sandbox_run_wall_s());
    else if (o->exited && o->status == 0 && said && strcmp(said, OWN_TRACED) == 0)
        return 0;
    else if (o->exited && o->status == 2 && said && len) { /* the run's folder is the learner's too: one line, whatever it wrote */
        snprintf(err, errlen, "%s", said);
        for (char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = ' ';
    }
    else if (ending[0])
        snprintf(err, errlen, "%s: the program %s%s", d->kernel, ending,
                 o->sig == SIGSEGV || o->sig == SIGBUS ? ": a bad pointer in its host code, or an array of a thread written past its end" :
                 o->sig == SIGABRT ? " (abort(), or out of its 2 GiB of memory)" : "");
    else
        snprintf(err, errlen, "%s: the program ended (exit status %d) before warpscope had its trace: does it call exit()?", d->kernel,
                 o->status);
    return -1;
}

/* 0 when a learner's program may run here: confined, and not as root; else -1 and why */
static int may_run(const capture_desc *d, char *err, size_t errlen)
{
    const char *unsafe = getenv("WARPSCOPE_UNSAFE"); /* --unsafe: the user's own file */
    if (!sandbox_confines_files() && !(unsafe && strcmp(unsafe, "1") == 0)) {
        char what[400];
        sandbox_describe(what, sizeof what);
        snprintf(err, errlen, "%s: this machine cannot confine a learner's program (%s): give --unsafe to run it anyway, "
                              "only for a file of your own", d->kernel, what);
        return -1;
    }
    /* as root where nobody does not work here, the learner's code would run as root */
    if (sandbox_runs_as_root() && !(unsafe && strcmp(unsafe, "1") == 0)) {
        snprintf(err, errlen, "%s: warpscope runs as root and cannot run a learner's program as an unprivileged user here (the user "
                              "nobody does not work): run warpscope as a user of its own, or give --unsafe, only for a file of your own",
                 d->kernel);
        return -1;
    }
    return 0;
}

int own_sites_check(const char *sites_path, const trace *t, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    if (own_read_plain(sites_path, OWN_SITES_MAX, &text, &len)) {
        snprintf(err, errlen, "the build's event sites cannot be read (%s)", sites_path);
        return -1;
    }
    size_t n = 0, cap = 0;
    unsigned (*site)[2] = NULL;
    int rc = 0;
    for (char *p = text, *nl; *p; p = nl + 1) { /* "LINE MASK\n", in the order of the lines (frontend.c) */
        nl = strchr(p, '\n');
        unsigned line, mask;
        if (!nl || sscanf(p, "%u %u", &line, &mask) != 2 || (n && line <= site[n - 1][0])) { rc = -1; break; }
        if (n == cap) {
            void *g = realloc(site, (cap = cap ? cap * 2 : 256) * sizeof *site);
            if (!g) { rc = -1; break; }
            site = g;
        }
        site[n][0] = line, site[n][1] = mask, n++;
    }
    if (rc) snprintf(err, errlen, "the build's event sites are not what the front end writes (%s)", sites_path);
    for (size_t i = 0; rc == 0 && i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind == TRACE_EXIT) continue; /* a thread's end is at no line of its own */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (site[mid][0] < e->line) lo = mid + 1;
            else hi = mid;
        }
        if (lo < n && site[lo][0] == e->line && (site[lo][1] >> e->kind & 1u)) continue;
        snprintf(err, errlen, "an event from no site of the file: a %s at line %u (pass %u, block %u), where its device code makes none: "
                              "the run is not believed",
                 trace_kind_label((trace_kind)e->kind), (unsigned)e->line, (unsigned)e->pass, (unsigned)e->block);
        rc = 1;
    }
    free(site);
    free(text);
    return rc;
}

int capture_own(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    uint64_t n;
    if (own_check(d, &n, err, errlen)) return -1;
    emu_schedule s;
    int adversarial;
    if (schedule_parse(d->schedule, &s, &adversarial, err, errlen) || schedule_parse_warps(d->warp_order, &s, err, errlen)) return -1;
    /* --schedule adversarial: searched by warpscope-run, inside the one sandboxed run */
    if (may_run(d, err, errlen)) return -1;
    char so[4400], work[4200], copy[4400], out[4400], msg[4400];
    double t0 = now_ms();
    /* --type: the entry's in, out and h_in are T * (frontend.c's entry, WS_ENTRY_T), one more macro
     * of the build and so of its cache key */
    capture_desc typed;
    const char *defines[OWN_DEFINES_MAX + 3];
    char entry_type[48];
    typed_desc(d, &typed, defines, entry_type, sizeof entry_type);
    if (own_build(&typed, OWN_EMU, so, sizeof so, err, errlen)) return -1;
    if (sandbox_work(work, sizeof work, err, errlen)) return -1;
    int tfd = -1;
    snprintf(copy, sizeof copy, "%s/learner.so", work);
    snprintf(out, sizeof out, "%s/trace.wstrace", work);
    snprintf(msg, sizeof msg, "%s/message", work);
    int rc = -1;
    /* the trace comes back through this descriptor, opened here before the run: what the learner's
     * code does to the names in its folder (a link where the trace was) never reaches what is read */
    tfd = open(out, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (tfd < 0) {
        snprintf(err, errlen, "%s: cannot make the run's trace file in %s: %s", d->kernel, work, strerror(errno));
        goto done;
    }
    if (own_copy_plain(so, copy, (size_t)64 << 20)) {
        snprintf(err, errlen, "%s: cannot read its build from the cache (%s)", d->kernel, so);
        goto done;
    }
    char num[6][32];
    snprintf(num[0], sizeof num[0], "%" PRIu64, n);
    snprintf(num[1], sizeof num[1], "%" PRIu64, d->seed);
    snprintf(num[2], sizeof num[2], "%u", d->blocks_traced ? d->blocks_traced : 1);
    snprintf(num[3], sizeof num[3], "%u", d->drop_barrier);
    snprintf(num[4], sizeof num[4], "%u", d->drop_syncwarp);
    snprintf(num[5], sizeof num[5], "%d", !capture_race_wanted(d));
    char runner[4200];
    sandbox_runner(runner, sizeof runner);
    char handed[16];
    snprintf(handed, sizeof handed, "fd:%d", SANDBOX_HANDED_FD);
    const char *argv[] = {runner, "trace", work, copy, handed, d->kernel, d->entry, num[0], d->data ? d->data : "", num[1],
                          d->seed_set ? "1" : "0", num[2], d->schedule ? d->schedule : "", d->warp_order ? d->warp_order : "",
                          num[3], num[4], num[5], d->result_in ? "in" : "out", d->card ? d->card : CARD_DEFAULT,
                          d->type ? d->type : "float", NULL};
    sandbox_job job = {.mode = SANDBOX_RUN, .argv = argv, .work = work, .confine = 1, .cancel = d->cancel, .hand_fd = tfd,
                       .lim = {.fsize_bytes = OWN_TRACE_MAX}};
    /* the adversarial search's orders share one deadline, the check's (warpscope-run gives each a
     * run's wall clock within it): a file that takes its time at each load cannot multiply it */
    if (adversarial) job.lim.wall_s = sandbox_check_wall_s();
    sandbox_outcome o;
    if (sandbox_run(&job, &o, err, errlen)) goto done;
    char *said = NULL;
    size_t len = 0;
    int said_ok = own_read_plain(msg, 4096, &said, &len) == 0;
    if (run_ended(d, adversarial, &job, &o, said_ok ? said : NULL, len, err, errlen) == 0) rc = read_handed_trace(d, tfd, t, err, errlen);
    if (rc == 0 && own_sites_check(own_build_record()->sites, t, err, errlen)) {
        trace_free(t);
        trace_init(t);
        rc = -1;
    }
    free(said);
    free(o.out);
done:
    if (tfd >= 0) close(tfd);
    sandbox_remove(work);
    last_build.run_ms = now_ms() - t0 - last_build.build_ms;
    return rc;
}

/* One record of a batch's file (warpscope-run's batch_record) read into run r: 0, or -1 when the
 * file ends or is not what warpscope-run writes (the runs from there are not run). */
static int batch_take(const capture_desc *d, const char *buf, size_t len, size_t *at, size_t want, capture_batch_run *r, const sandbox_job *job)
{
    const char *p = buf + *at, *nl = memchr(p, '\n', len - *at);
    if (!nl || nl - p > 150) return -1;
    char head[160];
    memcpy(head, p, (size_t)(nl - p));
    head[nl - p] = 0;
    size_t i, mlen;
    unsigned long long tlen;
    int exited, status, sig, late, used = 0;
    if (sscanf(head, "RUN %zu %d %d %d %d %zu %llu%n", &i, &exited, &status, &sig, &late, &mlen, &tlen, &used) != 7 ||
        (size_t)used != strlen(head) || i != want || mlen > 4096)
        return -1;
    size_t body = (size_t)(nl + 1 - buf);
    if (mlen > len - body || tlen > len - body - mlen) return -1;
    *at = body + mlen + (size_t)tlen;
    char said[4097];
    memcpy(said, buf + body, mlen);
    said[mlen] = 0;
    capture_desc c = *d;
    c.n = r->n, c.seed = r->seed, c.schedule = r->schedule;
    emu_schedule sc;
    int adversarial = 0;
    schedule_parse(c.schedule, &sc, &adversarial, r->err, sizeof r->err);
    sandbox_outcome o = {.exited = exited, .status = status, .sig = sig, .timed_out = late};
    r->rc = -1;
    if (exited && status == 3) snprintf(r->err, sizeof r->err, "%s: its traces together are over %d MiB", d->kernel, (int)(OWN_TRACE_MAX >> 20));
    else if (run_ended(&c, adversarial, job, &o, mlen ? said : NULL, mlen, r->err, sizeof r->err) == 0) {
        char msg[300];
        if (tlen && trace_from_bin(&r->t, buf + body + mlen, (size_t)tlen, msg, sizeof msg) == 0) r->rc = 0;
        else snprintf(r->err, sizeof r->err, "%s: its trace: %s", d->kernel, tlen ? msg : "empty");
    }
    return 0;
}

int capture_own_batch(const capture_desc *d, capture_batch_run *runs, size_t nruns, char *err, size_t errlen)
{
    for (size_t i = 0; i < nruns; i++) {
        trace_init(&runs[i].t);
        runs[i].rc = 1;
        snprintf(runs[i].err, sizeof runs[i].err, "not run: the run at the first size did not finish");
    }
    uint64_t n;
    if (!nruns || own_check(d, &n, err, errlen) || may_run(d, err, errlen)) return nruns ? -1 : 0;
    char (*arg)[96] = calloc(nruns, sizeof *arg);
    const char **argv = calloc(nruns + 20, sizeof *argv);
    if (!arg || !argv) { free(arg); free(argv); snprintf(err, errlen, "out of memory"); return -1; }
    int rc = -1, tfd = -1;
    char so[4400], work[4200] = "", copy[4400], out[4400];
    for (size_t i = 0; i < nruns; i++) {
        capture_desc c = *d;
        c.n = runs[i].n, c.seed = runs[i].seed, c.schedule = runs[i].schedule;
        emu_schedule sc;
        int adversarial;
        if (own_check(&c, &n, err, errlen) || schedule_parse(c.schedule, &sc, &adversarial, err, errlen)) goto done;
        snprintf(arg[i], sizeof arg[i], "%" PRIu64 ",%" PRIu64 ",%s,%u", n, c.seed, c.schedule && *c.schedule ? c.schedule : "-",
                 runs[i].blocks_traced);
    }
    capture_desc typed;
    const char *defines[OWN_DEFINES_MAX + 3];
    char entry_type[48];
    typed_desc(d, &typed, defines, entry_type, sizeof entry_type);
    if (own_build(&typed, OWN_EMU, so, sizeof so, err, errlen) || sandbox_work(work, sizeof work, err, errlen)) goto done;
    char sites[sizeof own_build_record()->sites];
    snprintf(sites, sizeof sites, "%s", own_build_record()->sites);
    snprintf(copy, sizeof copy, "%s/learner.so", work);
    snprintf(out, sizeof out, "%s/runs", work);
    tfd = open(out, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (tfd < 0) { snprintf(err, errlen, "%s: cannot make the runs' file in %s: %s", d->kernel, work, strerror(errno)); goto done; }
    unlink(out); /* a descriptor with no name: no run finds the others' records in its folder */
    if (own_copy_plain(so, copy, (size_t)64 << 20)) { snprintf(err, errlen, "%s: cannot read its build from the cache (%s)", d->kernel, so); goto done; }
    char num[5][32], runner[4200], handed[16];
    unsigned check_s = sandbox_check_wall_s();
    snprintf(num[0], sizeof num[0], "%u", d->blocks_traced ? d->blocks_traced : 1);
    snprintf(num[1], sizeof num[1], "%d", d->no_race_check);
    snprintf(num[2], sizeof num[2], "%u", sandbox_run_wall_s());
    snprintf(num[3], sizeof num[3], "%u", check_s);
    snprintf(num[4], sizeof num[4], "%u", d->block ? d->block : 256);
    sandbox_runner(runner, sizeof runner);
    snprintf(handed, sizeof handed, "fd:%d", SANDBOX_HANDED_FD);
    size_t k = 0;
    const char *head[] = {runner, "batch", work, copy, handed, d->kernel, d->entry, d->data ? d->data : "", num[0], num[1],
                          d->result_in ? "in" : "out", d->card ? d->card : CARD_DEFAULT, d->type ? d->type : "float", num[2], num[3], num[4]};
    for (; k < sizeof head / sizeof head[0]; k++) argv[k] = head[k];
    argv[k] = NULL;
    /* the runs (the hidden suite's sizes and seeds) go in the records' file, never the command line:
     * warpscope-run reads them and empties the file before it loads anything of the learner's */
    for (size_t i = 0; i <= nruns; i++) {
        const char *line = i < nruns ? arg[i] : "";
        if (write(tfd, line, strlen(line)) != (ssize_t)strlen(line) || write(tfd, "\n", 1) != 1) {
            snprintf(err, errlen, "%s: cannot write the runs: %s", d->kernel, strerror(errno));
            goto done;
        }
    }
    /* one deadline for the check, which warpscope-run keeps (each run a run's wall clock within it);
     * this one stands behind it */
    sandbox_job job = {.mode = SANDBOX_RUN, .argv = argv, .work = work, .confine = 1, .cancel = d->cancel, .hand_fd = tfd,
                       .lim = {.fsize_bytes = OWN_TRACE_MAX, .wall_s = check_s + 5, .cpu_s = check_s + 10}};
    sandbox_outcome o;
    if (sandbox_run(&job, &o, err, errlen)) goto done;
    char said[300] = ""; /* warpscope-run's own complaint, if any (never the learner's: its runs say theirs in their records) */
    if (o.out) snprintf(said, sizeof said, "%.*s", (int)strcspn(o.out, "\n"), o.out);
    free(o.out);
    if (o.cancelled) { snprintf(err, errlen, "interrupted"); goto done; }
    /* what the batch wrote, record by record; a run it never reached says how the batch ended */
    struct stat st;
    char *buf = NULL;
    size_t len = 0, at = 0, got = 0;
    if (fstat(tfd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= OWN_TRACE_MAX && (buf = malloc((size_t)st.st_size))) {
        len = (size_t)st.st_size;
        for (ssize_t r; got < len && (r = pread(tfd, buf + got, len - got, (off_t)got)) > 0;) got += (size_t)r;
        len = got;
    }
    sandbox_job one = {.mode = SANDBOX_RUN}; /* a run's own limits, which each run of the batch had */
    size_t i = 0;
    for (; i < nruns && batch_take(d, buf, len, &at, i, &runs[i], &one) == 0; i++)
        if (runs[i].rc == 0 && own_sites_check(sites, &runs[i].t, runs[i].err, sizeof runs[i].err)) {
            trace_free(&runs[i].t);
            trace_init(&runs[i].t);
            runs[i].rc = -1;
        }
    free(buf);
    if (i == 0) { /* the batch itself failed before its first run: as a run would */
        capture_desc c = *d;
        c.n = runs[0].n, c.seed = runs[0].seed, c.schedule = runs[0].schedule;
        run_ended(&c, 0, &job, &o, NULL, 0, err, errlen);
        if (!o.timed_out && !o.sig)
            snprintf(err, errlen, "%s: its runs ended (exit status %d) before the first was written%s%s", d->kernel, o.status, said[0] ? ": " : "", said);
        goto done;
    }
    if (i < nruns && (runs[i - 1].rc == 0 || i > 1)) { /* stopped before the end, but not at its first run's failure */
        char ending[300];
        sandbox_ending(&job, &o, ending, sizeof ending);
        for (size_t j = i; j < nruns; j++)
            snprintf(runs[j].err, sizeof runs[j].err, "%s: not run: its runs %s", d->kernel, ending[0] ? ending : "ended early");
    }
    rc = 0;
done:
    if (tfd >= 0) close(tfd);
    if (work[0]) sandbox_remove(work);
    free(arg);
    free(argv);
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

/* --type: the input as the learner's T *in holds it (the pattern's values, which for an integer type
 * must be whole: ones, ramp, random-int), with the reference in that type's terms: an integer sum
 * exact in 64 bits (compared exactly, no tolerance), a double sum as Kahan's compensated sum in
 * long double, within (ceil(log2 n) + 2) * 2^-53 * sum |x| of a tree sum. float data keeps
 * own_input's. -1 with why in err. */
static int typed_input(const capture_desc *d, trace_type ty, const float *x, uint64_t n, unsigned char *dst, trace *t, char *err,
                       size_t errlen)
{
    snprintf(t->prov.type, sizeof t->prov.type, "%s", trace_type_name(ty));
    if (ty == TRACE_TYPE_FLOAT) {
        memcpy(dst, x, (size_t)n * sizeof *x);
        return 0;
    }
    long double kahan = 0, comp = 0;
    double abs_sum = 0;
    int64_t isum = 0;
    for (uint64_t i = 0; i < n; i++) {
        double v = x[i];
        if (trace_type_is_integer(ty) && (v != floor(v) || (ty == TRACE_TYPE_UNSIGNED && v < 0))) {
            snprintf(err, errlen, "--data %s gives %g, which is not %s %s value: take ones, ramp or random-int for --type %s",
                     d->data ? d->data : "random-int", v, ty == TRACE_TYPE_INT ? "an" : "a", trace_type_name(ty), trace_type_name(ty));
            return -1;
        }
        if (ty == TRACE_TYPE_INT) { int32_t k = (int32_t)v; memcpy(dst + i * 4, &k, 4); }
        else if (ty == TRACE_TYPE_UNSIGNED) { uint32_t k = (uint32_t)v; memcpy(dst + i * 4, &k, 4); }
        else if (ty == TRACE_TYPE_LONG_LONG) { int64_t k = (int64_t)v; memcpy(dst + i * 8, &k, 8); }
        else memcpy(dst + i * 8, &v, 8);
        isum += (int64_t)v;
        abs_sum += fabs(v);
        long double y = (long double)v - comp, s2 = kahan + y; /* Kahan: what the add lost comes back in the next */
        comp = (s2 - kahan) - y;
        kahan = s2;
    }
    if (trace_type_is_integer(ty)) {
        t->reference = (double)isum; /* the inputs are patterns' values: |sum| far below 2^53 */
        t->tolerance = 0;
    } else {
        t->reference = (double)kahan;
        double depth = n > 1 ? ceil(log2((double)n)) : 0;
        t->tolerance = (depth + 2) * ldexp(1.0, -53) * abs_sum;
        if (!(t->tolerance > 0)) t->tolerance = ldexp(1.0, -53);
    }
    return 0;
}

/* out[0] (in[0]) in the data's type, exact in a double (a long long past 2^53 is refused: trace.h) */
static int typed_result(trace_type ty, const unsigned char *p, double *result)
{
    switch (ty) {
    case TRACE_TYPE_INT: { int32_t k; memcpy(&k, p, 4); *result = k; return 0; }
    case TRACE_TYPE_UNSIGNED: { uint32_t k; memcpy(&k, p, 4); *result = k; return 0; }
    case TRACE_TYPE_DOUBLE: { memcpy(result, p, 8); return 0; }
    case TRACE_TYPE_LONG_LONG: {
        int64_t k;
        memcpy(&k, p, 8);
        *result = (double)k;
        return k > ((int64_t)1 << 53) || k < -((int64_t)1 << 53) ? -1 : 0;
    }
    default: { float f; memcpy(&f, p, 4); *result = f; return 0; }
    }
}

/* A fault in the learner's program: host code that touched device memory is told so at the line
 * warpscope last saw it at, as a GPU would stop it (a segmentation fault) but in words; an integer
 * division by zero in a kernel (SIGFPE, on a fiber of the launch) ends the launch with the thread
 * named. Anything else is the program's own crash: the default action, which the parent reports.
 * Synchronous faults in the learner's code: what the handler calls does not interrupt warpscope's. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (run && (sig == SIGSEGV || sig == SIGBUS) && !emu_in_kernel()) {
        for (int i = 0; i < run->nbufs; i++) {
            const unsigned char *a = si->si_addr, *p = run->bufs[i].p;
            if (a < p || a >= p + pages_of(run->bufs[i].bytes)) continue;
            char msg[600], at[32] = "";
            if (run->host_line) snprintf(at, sizeof at, "line %u: ", run->host_line);
            snprintf(msg, sizeof msg, "%shost code %sread or wrote device memory (buffer %s, byte %zu), which on a GPU stops the program "
                     "with a segmentation fault: only cudaMemcpy moves data between host and device", at,
                     at[0] ? "at or after this line (the last CUDA call or loop turn warpscope saw) " : "", run->t->buffers[i].name, (size_t)(a - p));
            own_at_line(run->err, sizeof run->err, run->path, msg);
            longjmp(run->out, 1); /* SA_NODEFER: SIGSEGV stays unblocked */
        }
    }
    unsigned line = 0;
    if (run && (sig == SIGSEGV || sig == SIGBUS) && emu_in_kernel() && emu_stack_overflowed(si->si_addr, &line)) {
        char msg[600]; /* on the signal stack: the thread's own is spent */
        snprintf(msg, sizeof msg, "the device stack overflowed at %s:%u (thread %u of block %u): recursion too deep? (a GPU thread's "
                 "stack holds some KiB; write the recursion as a loop)", run->path, line, emu_thread_rank(), emu_block_rank());
        emu_abort(msg); /* ends this thread's fiber: it never returns here */
    }
    if (run && sig == SIGFPE && emu_in_kernel()) {
        char msg[300];
        snprintf(msg, sizeof msg, "thread %u of block %u divided an integer by zero (or the most negative int by -1), which has no value "
                 "on a GPU", emu_thread_rank(), emu_block_rank());
        emu_abort(msg); /* ends this thread's fiber: it never returns here */
    }
    signal(sig, SIG_DFL); /* the program's own crash: it happens again, and ends it */
}

static void catch_faults(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK; /* a fiber's stack that overflowed cannot hold the handler */
    static char *alt;
    if (on && !alt && (alt = malloc(1 << 16))) {
        stack_t ss = {.ss_sp = alt, .ss_size = 1 << 16, .ss_flags = 0};
        sigaltstack(&ss, NULL);
    }
    sigemptyset(&sa.sa_mask);
    if (!on) sa.sa_handler = SIG_DFL, sa.sa_flags = 0;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
}

/* In warpscope-run, confined: the learner's program loaded and run in the emulator, its host
 * code, its launches, the trace. */
int own_run_so(const capture_desc *d, const char *so, trace *t, char *err, size_t errlen)
{
    uint64_t n;
    emu_schedule s;
    int adversarial;
    if (own_check(d, &n, err, errlen) || schedule_parse(d->schedule, &s, &adversarial, err, errlen) ||
        schedule_parse_warps(d->warp_order, &s, err, errlen))
        return -1;
    if (adversarial) { snprintf(err, errlen, "the adversarial search picks an order before a run"); return -1; }
    if (!code_locked && sandbox_object_locks(so, "ws_user_at_load", err, errlen)) return -1;
    void *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!handle) { snprintf(err, errlen, "%s: cannot load its build: %s", d->kernel, dlerror()); return -1; }
    if (!code_locked) { snprintf(err, errlen, "%s: its build did not lock the run when loaded: not run", d->kernel); return -1; }
    own_entry_fn entry = (own_entry_fn)(uintptr_t)dlsym(handle, "ws_user_entry");
    if (!entry) { snprintf(err, errlen, "%s: the compiled file has no entry", d->kernel); return -1; }
    own_run *r = calloc(1, sizeof *r);
    trace_type ty = (trace_type)trace_type_from_name(d->type); /* own_check knew it */
    size_t elem = trace_type_bytes(ty);
    float *h_in = calloc((size_t)n + 4, sizeof *h_in);
    unsigned char *h_typed = calloc((size_t)n + 4, elem); /* the input as T: what h_in points to */
    if (!r || !h_in || !h_typed || !(r->e = d->emu ? d->emu : emu_create())) {
        free(r);
        free(h_in);
        free(h_typed);
        snprintf(err, errlen, "out of memory for the emulator");
        return -1;
    }
    r->d = d;
    r->path = d->kernel;
    r->t = t;
    r->schedule = s;
    r->started_ms = now_ms();
    emu_clear_buffers(r->e);
    trace_free(t);
    int rc = -1;
    if (own_input(d, n, h_in, t, err, errlen) || typed_input(d, ty, h_in, n, h_typed, t, err, errlen)) goto out;
    trace_provenance *p = &t->prov;
    snprintf(p->backend, sizeof p->backend, "cpu");
    snprintf(p->device, sizeof p->device, "CPU emulator");
    snprintf(p->toolkit, sizeof p->toolkit, "host C++ compiler (%s)", own_host_compiler());
    if (capture_race_wanted(d) && !(r->race = race_create(-1))) { snprintf(err, errlen, "out of memory for the race detector"); goto out; }

    run = r;
    int in = add_buffer((size_t)n * elem, "in"), outb = add_buffer((size_t)n * elem, "out");
    if (in < 0 || outb < 0) { snprintf(err, errlen, "out of memory for %" PRIu64 " elements", n); goto out; }
    memcpy(r->bufs[in].p, h_typed, (size_t)n * elem);
    float result = 0;
    int has_result = 0;
    if (setjmp(r->out)) {
        device_reach(1);
        snprintf(err, errlen, "%s", r->err);
        goto out;
    }
    catch_faults(1);
    device_reach(0);
    entry((float *)r->bufs[in].p, (float *)r->bufs[outb].p, (unsigned)n, (float *)h_typed, &result, &has_result);
    device_reach(1);
    if (!r->launches) { snprintf(err, errlen, "%s: --entry '%s' launched no kernel", d->kernel, d->entry); goto out; }
    (void)result; /* what a host function returns is never the result: the buffer is */
    (void)has_result;
    if (typed_result(ty, r->bufs[d->result_in ? in : outb].p, &t->result)) {
        snprintf(err, errlen, "%s: the result, a long long, is beyond 2^53, which a trace cannot hold exactly (its values are doubles)",
                 d->kernel);
        goto out;
    }
    if (capture_cpu_finish(d, r->race, r->dropped, t, err, errlen)) goto out;
    rc = 0;
out:
    run = NULL;
    if (rc) trace_free(t);
    for (int i = 0; i < r->nbufs; i++) munmap(r->bufs[i].p, pages_of(r->bufs[i].bytes));
    race_destroy(r->race);
    emu_clear_buffers(r->e);
    if (!d->emu) emu_destroy(r->e);
    free(r);
    free(h_in);
    free(h_typed);
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
        setpgid(0, 0);
        char msg[1024] = "";
        int rc = here(job, t, msg, sizeof msg); /* a learner's file on the GPU confines itself once CUDA is up (own_gpu.cu) */
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
        if (d->cancel && *d->cancel && !stopped) { kill(-pid, SIGKILL); kill(pid, SIGKILL); stopped = 1; }
        if (seconds && !stopped && now_ms() - start > seconds * 1e3) { kill(-pid, SIGKILL); kill(pid, SIGKILL); stopped = 2; }
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
