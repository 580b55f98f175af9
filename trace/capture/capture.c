/* capture: input, buffers and passes around the emulator. */
#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/capture/emu.h"
#include "trace/input.h"
#include "trace/ladder.h"
#include "trace/capture/race.h"
#include "trace/capture/schedule.h"

double capture_reference(const float *x, uint64_t n)
{
    double s = 0;
    for (uint64_t i = 0; i < n; i++) s += (double)x[i];
    return s;
}

double capture_tolerance(const float *x, uint64_t n)
{
    double abs_sum = 0;
    int whole = 1;
    for (uint64_t i = 0; i < n; i++) abs_sum += fabs((double)x[i]), whole &= x[i] == truncf(x[i]);
    /* whole numbers whose magnitudes add up to at most 2^24: every partial sum of any tree is a
     * float exactly, so the sum is exact, and a result one ulp off is wrong */
    if (whole && abs_sum <= 0x1p24) return 0;
    double depth = n > 1 ? ceil(log2((double)n)) : 0;
    return (depth + 2) * ldexp(1.0, -24) * abs_sum;
}

/* The latest date ISO 8601's four-digit years can write: 9999-12-31T23:59:59Z. */
#define CAPTURE_EPOCH_MAX 253402300799LL

static int iso_date(char *buf, size_t len, char *err, size_t errlen)
{
    /* SOURCE_DATE_EPOCH pins the date so that two captures can be compared byte for byte; it is
     * whole seconds since 1970 (reproducible-builds.org), anything else is refused, not guessed */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t now = time(NULL);
    if (sde && *sde) {
        char *end;
        errno = 0;
        long long v = strtoll(sde, &end, 10);
        if (sde[0] < '0' || sde[0] > '9' || *end || errno || v > CAPTURE_EPOCH_MAX) {
            snprintf(err, errlen, "SOURCE_DATE_EPOCH must be whole seconds since 1970 from 0 to %lld (year 9999), got \"%.40s\"",
                     CAPTURE_EPOCH_MAX, sde);
            return -1;
        }
        now = (time_t)v;
    }
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm)) {
        snprintf(err, errlen, "cannot write the capture's date (clock at %lld seconds)", (long long)now);
        return -1;
    }
    return 0;
}

static unsigned default_block(const ladder_version *v)
{
    unsigned b = 256;
    if (b < v->min_block) b = v->min_block;
    if (b > v->max_block) b = v->max_block;
    return b;
}

enum { BUF_IN = 0 };

int capture_run(const capture_desc *d, const capture_backend *b, trace *t, char *err, size_t errlen)
{
    const ladder_version *v = ladder_find(d->version ? d->version : "");
    if (!v) { ladder_unknown(d->version ? d->version : "", err, errlen); return -1; }
    unsigned block = d->block ? d->block : default_block(v);
    unsigned ept = d->ept ? d->ept : v->ept_default;
    if (ladder_check_block(v, block, err, errlen) || ladder_check_ept(v, ept, err, errlen)) return -1;
    uint64_t n = d->n ? d->n : (uint64_t)block * ept;
    if (n > ((uint64_t)1 << 31)) { snprintf(err, errlen, "n = %llu: captures take at most 2^31 elements", (unsigned long long)n); return -1; }
    const char *data = d->data ? d->data : "random-int";
    uint64_t seed = d->seed_set ? d->seed : 1;
    unsigned traced = d->blocks_traced ? d->blocks_traced : 1;

    ladder_pass plan[LADDER_MAX_PASSES];
    int np = ladder_plan(v, block, n, ept, plan);
    uint64_t total_blocks = 0;
    for (int k = 0; k < np; k++) total_blocks += plan[k].grid;
    if (b->plan) b->plan(b->ctx, total_blocks);

    trace_free(t);
    trace_provenance *p = &t->prov;
    memset(p, 0, sizeof *p);
    b->describe(b->ctx, p);
    if (iso_date(p->date, sizeof p->date, err, errlen)) return -1;
    snprintf(p->version, sizeof p->version, "%s", v->id);
    snprintf(p->source, sizeof p->source, "%s", v->file);
    snprintf(p->data, sizeof p->data, "%s", data);
    p->n = n;
    p->seed = seed;
    p->block = block;
    p->elems_per_thread = ept;
    p->blocks_traced = traced;

    float *input = calloc((size_t)(n + 3) / 4 * 4, sizeof *input);
    if (!input) { snprintf(err, errlen, "out of memory for %llu input elements", (unsigned long long)n); return -1; }
    if (input_fill(data, seed, input, n)) {
        snprintf(err, errlen, "unknown data pattern \"%s\" (ones, ramp, random-int, random-float, random-negative)", data);
        free(input);
        return -1;
    }
    t->reference = capture_reference(input, n);
    t->tolerance = capture_tolerance(input, n);
    /* 0 (whole numbers: the sum is exact; all zeros) is written as one ulp at 1, which an integer
     * sum of 1 or more cannot be off by and still be right: a trace's 0 says "unknown" */
    if (!(t->tolerance > 0)) t->tolerance = ldexp(1.0, -24);

    /* buffers: 0 the input, then each pass's output (naive: one working copy; v8: partials and
     * the retirement counter). Sizes rounded up to 4 floats so float4 views stay in bounds. */
#define BYTES(count) ((size_t)((count) + 3) / 4 * 4 * sizeof(float))
    int rc = -1, nb = 0, out_buf = 0, counter_buf = -1, in_buf = BUF_IN;
    if (b->alloc(b->ctx, nb++, BYTES(n), input)) goto fail;
    trace_add_buffer(t, "in", 0);
    if (v->shape == LADDER_IN_PLACE) {
        out_buf = nb++;
        if (b->alloc(b->ctx, out_buf, BYTES(n), input)) goto fail;
        trace_add_buffer(t, "data", 0);
    } else if (v->shape == LADDER_SINGLE_PASS) {
        out_buf = nb++;
        counter_buf = nb++;
        if (b->alloc(b->ctx, out_buf, BYTES(plan[0].grid), NULL) || b->alloc(b->ctx, counter_buf, BYTES(1), NULL)) goto fail;
        trace_add_buffer(t, "partials", 0);
        trace_add_buffer(t, "counter", 0);
    }
    for (int k = 0; k < np; k++) {
        if (v->shape == LADDER_TREE) {
            out_buf = nb++;
            if (b->alloc(b->ctx, out_buf, BYTES(plan[k].grid), NULL)) goto fail;
            char name[32]; /* "partials63" fits the buffer's 16 bytes; the compiler cannot see that k < 64 */
            snprintf(name, sizeof name, k + 1 < np ? "partials%d" : "out", k);
            trace_add_buffer(t, name, k + 1 < np ? (unsigned)k + 1 : (unsigned)k);
        }
        trace_add_pass(t, (trace_pass){.grid = plan[k].grid, .block = plan[k].block, .stride = plan[k].stride, .n_in = plan[k].n_in});
        emu_kernel_args args = {in_buf, out_buf, counter_buf, (unsigned)plan[k].n_in, plan[k].stride};
        if (b->launch(b->ctx, v, &args, (unsigned)k, plan[k].grid, plan[k].block, traced, t)) {
            snprintf(err, errlen, "%s, pass %d: %s", v->file, k, b->error(b->ctx));
            goto out;
        }
        if (v->shape == LADDER_TREE) in_buf = out_buf;
    }
    float result; /* the ladder's kernels sum floats */
    if (b->read(b->ctx, out_buf, 0, &result, sizeof result)) goto fail;
    t->result = result;
    rc = 0;
    goto out;
fail:
    snprintf(err, errlen, "%s", b->error(b->ctx));
out:
#undef BYTES
    free(input);
    if (rc) trace_free(t);
    return rc;
}

/* ---- the emulator as a backend ---- */

enum { CPU_MAX_BUFFERS = LADDER_MAX_PASSES + 3 };

typedef struct cpu_ctx {
    emu *e;
    const capture_desc *d;
    emu_schedule schedule;
    race *race;                /* NULL: no race check */
    uint64_t dropped[2];       /* barriers, __syncwarp calls left out over every launch */
    uint64_t blocks_done, blocks_total;
    unsigned char *bufs[CPU_MAX_BUFFERS];
    size_t bytes[CPU_MAX_BUFFERS];
    char err[512];
} cpu_ctx;

static void cpu_describe(void *c, trace_provenance *p)
{
    (void)c;
    snprintf(p->backend, sizeof p->backend, "cpu");
    snprintf(p->device, sizeof p->device, "CPU emulator");
    snprintf(p->toolkit, sizeof p->toolkit, "host C++ compiler, gcc %s", __VERSION__);
}

static int cpu_alloc(void *c, int id, size_t bytes, const void *init)
{
    cpu_ctx *x = c;
    if (id < 0 || id >= CPU_MAX_BUFFERS) { snprintf(x->err, sizeof x->err, "too many buffers"); return -1; }
    x->bufs[id] = calloc(bytes, 1);
    if (!x->bufs[id]) { snprintf(x->err, sizeof x->err, "out of memory for a buffer of %zu bytes", bytes); return -1; }
    if (init) memcpy(x->bufs[id], init, bytes);
    x->bytes[id] = bytes;
    return emu_set_buffer(x->e, id, x->bufs[id], bytes);
}

static void cpu_plan(void *c, uint64_t total)
{
    cpu_ctx *x = c;
    x->blocks_total = total;
    x->blocks_done = 0;
}

static void cpu_progress(void *c)
{
    cpu_ctx *x = c;
    x->d->progress(x->d->progress_user, __atomic_load_n(&x->blocks_done, __ATOMIC_RELAXED), x->blocks_total);
}

static int cpu_launch(void *c, const ladder_version *v, const emu_kernel_args *args, unsigned pass, unsigned grid,
                      unsigned block, unsigned traced, trace *t)
{
    cpu_ctx *x = c;
    emu_launch l = {.kernel = capture_emu_kernel(v), .args = args, .grid = grid, .block = block, .pass = pass,
                    .blocks_traced = traced, .trace = t, .workers = x->d->workers,
                    .cancel = x->d->cancel, .blocks_done = &x->blocks_done,
                    .progress = x->d->progress ? cpu_progress : NULL, .progress_ctx = x,
                    /* v8's tickets (see emu.h), and a version that races between blocks on
                     * purpose: in parallel its result would depend on the threads' timing */
                    .serial_blocks = v->shape == LADDER_SINGLE_PASS || v->races,
                    .schedule = &x->schedule, .observer = x->race ? race_observer(x->race) : NULL,
                    .drop_barrier = x->d->drop_barrier, .drop_syncwarp = x->d->drop_syncwarp};
    int rc = emu_run(x->e, &l);
    x->dropped[0] += emu_dropped(x->e, TRACE_BARRIER);
    x->dropped[1] += emu_dropped(x->e, TRACE_WARP_SYNC);
    if (!rc && pass < t->npasses) t->passes[pass].shared_bytes = emu_shared_bytes(x->e);
    if (rc) { snprintf(x->err, sizeof x->err, "%s", emu_last_error(x->e)); return -1; }
    return 0;
}

static int cpu_read(void *c, int id, size_t off, void *dst, size_t bytes)
{
    cpu_ctx *x = c;
    memcpy(dst, x->bufs[id] + off, bytes);
    return 0;
}

static const char *cpu_error(void *c) { return ((cpu_ctx *)c)->err; }

int capture_cpu_finish(const capture_desc *d, race *rc, const uint64_t dropped[2], trace *t, char *err, size_t errlen)
{
    static const char *const what[2] = {"__syncthreads()", "__syncwarp()"};
    const unsigned lines[2] = {d->drop_barrier, d->drop_syncwarp};
    for (int k = 0; k < 2; k++) {
        if (!lines[k] || dropped[k]) continue;
        snprintf(err, errlen, "--drop-%s %u: no %s runs at line %u of %s", k ? "syncwarp" : "barrier", lines[k], what[k],
                 lines[k], t->prov.source);
        return -1;
    }
    trace_provenance *p = &t->prov;
    const char *lanes = d->schedule && *d->schedule ? d->schedule : "lockstep";
    if (d->warp_order && *d->warp_order && strcmp(d->warp_order, "in-order"))
        snprintf(p->schedule, sizeof p->schedule, "%s, warps %s", lanes, d->warp_order);
    else
        snprintf(p->schedule, sizeof p->schedule, "%s", lanes);
    p->drop_barrier = d->drop_barrier;
    p->drop_syncwarp = d->drop_syncwarp;
    if (!rc) return 0;
    if (race_status(rc) || race_to_trace(rc, t)) {
        snprintf(err, errlen, "out of memory in the race detector");
        return -1;
    }
    snprintf(p->race_check, sizeof p->race_check, "%s", race_watched_global(rc) ? "shared+global" : "shared");
    return 0;
}

/* The race detector sees blocks one after another (an observer makes the launch serial) and keeps
 * a shadow of every global word, so it runs on captures up to its limit on global memory; larger
 * ones run in parallel without it (race_check "" in the trace). */
int capture_race_wanted(const capture_desc *d)
{
    return !d->no_race_check && (!d->n || d->n <= RACE_CAPTURE_MAX_N);
}

void capture_search_order(const capture_desc *d, int i, capture_desc *c)
{
    *c = *d;
    c->schedule = "lockstep";
    c->warp_order = NULL;
    if (i >= 0) schedule_candidate((size_t)i, &c->schedule, &c->warp_order);
}

void capture_search_label(const capture_desc *c, int found, trace *t)
{
    if (found >= 0) snprintf(t->prov.schedule, sizeof t->prov.schedule, "adversarial: %s, warps %s", c->schedule, c->warp_order);
    else snprintf(t->prov.schedule, sizeof t->prov.schedule, "adversarial: none changed the result");
}

/* The adversarial search on the emulator: captures d under lockstep and then under each of the
 * schedules' candidate orders in turn, and keeps the first whose result differs from lockstep's
 * bit for bit, else lockstep's capture. t's provenance names the order kept ("adversarial:
 * lanes-up, warps in-order"). A kernel of one's own searches inside its one sandboxed run
 * (runner_main.c), with the same orders and labels. 0, or -1 with why in err. */
static int capture_adversarial(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    capture_desc c;
    capture_search_order(d, -1, &c);
    if (capture_cpu(&c, t, err, errlen)) return -1;
    double base = t->result;
    /* the search compares results only: its candidates skip the race detector (which would run
     * their blocks one after another) and share one emulator; the order that changes the result
     * is captured again as the caller asked, race check included (captures are deterministic) */
    emu *own = c.emu ? NULL : emu_create();
    if (!c.emu && !own) { trace_free(t); snprintf(err, errlen, "out of memory"); return -1; }
    int found = -1, rc = 0;
    for (int i = 0; i < (int)schedule_candidates() && found < 0 && rc == 0; i++) {
        trace u;
        trace_init(&u);
        capture_search_order(d, i, &c);
        c.no_race_check = 1;
        if (own) c.emu = own;
        rc = capture_cpu(&c, &u, err, errlen);
        if (rc == 0 && memcmp(&u.result, &base, sizeof base) != 0) found = i;
        trace_free(&u);
    }
    if (rc == 0 && found >= 0) {
        trace u;
        trace_init(&u);
        capture_search_order(d, found, &c);
        if (own) c.emu = own;
        rc = capture_cpu(&c, &u, err, errlen);
        trace_free(t);
        if (rc) trace_free(&u);
        else *t = u;
    } else if (rc) {
        trace_free(t);
    }
    if (rc == 0) capture_search_label(&c, found, t);
    if (own) emu_destroy(own);
    return rc ? -1 : 0;
}

int capture_cpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    emu_schedule s;
    int adversarial;
    if (schedule_parse(d->schedule, &s, &adversarial, err, errlen) || schedule_parse_warps(d->warp_order, &s, err, errlen))
        return -1;
    if (adversarial) return capture_adversarial(d, t, err, errlen);
    cpu_ctx *x = calloc(1, sizeof *x);
    if (!x || !(x->e = d->emu ? d->emu : emu_create())) {
        free(x);
        snprintf(err, errlen, "out of memory for the emulator's thread stacks");
        return -1;
    }
    emu_clear_buffers(x->e);
    x->d = d;
    x->schedule = s;
    int rc = 0;
    if (capture_race_wanted(d) && !(x->race = race_create(BUF_IN))) {
        snprintf(err, errlen, "out of memory for the race detector");
        rc = -1;
    }
    capture_backend b = {x, cpu_describe, cpu_alloc, cpu_launch, cpu_read, cpu_error, cpu_plan};
    if (!rc) rc = capture_run(d, &b, t, err, errlen);
    if (!rc && (rc = capture_cpu_finish(d, x->race, x->dropped, t, err, errlen))) trace_free(t);
    for (int i = 0; i < CPU_MAX_BUFFERS; i++) free(x->bufs[i]);
    race_destroy(x->race);
    emu_clear_buffers(x->e);
    if (!d->emu) emu_destroy(x->e);
    free(x);
    return rc;
}

/* The schedule and the break-it switches are the emulator's: a GPU runs its own order. */
static const char gpu_own_order[] =
    "--schedule, --warp-order and --drop-* change the emulator; the GPU keeps its own order (use --backend cpu)";
static int emulator_only(const capture_desc *d)
{
    return (d->schedule && *d->schedule && strcmp(d->schedule, "lockstep")) ||
           (d->warp_order && *d->warp_order && strcmp(d->warp_order, "in-order")) || d->drop_barrier || d->drop_syncwarp;
}

/* A version's capture on the GPU runs in a child process, as a learner's file does: this process
 * then never starts CUDA, so it can still fork the child a learner's file runs in (CUDA started
 * before a fork is lost to the child), and a GPU that fails takes the child alone. */
static int gpu_here(void *job, trace *t, char *err, size_t errlen) { return capture_gpu(job, t, err, errlen); }

static int capture_gpu_apart(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    return own_run_apart(d, gpu_here, (void *)d, 0, t, err, errlen);
}

int capture_batch(const capture_desc *d, capture_batch_run *runs, size_t nruns, char *err, size_t errlen)
{
    if (!d->kernel) {
        snprintf(err, errlen, "a batch of runs is a learner's file's (--kernel)");
        return -1;
    }
    return capture_own_batch(d, runs, nruns, err, errlen);
}

int capture_with(const char *backend, const capture_desc *d, trace *t, char *note, size_t notelen, char *err, size_t errlen)
{
    if (note && notelen) note[0] = '\0';
    if (d->kernel) {
        if (backend && !strcmp(backend, "gpu")) {
            if (emulator_only(d)) {
                snprintf(err, errlen, "%s", gpu_own_order);
                return -1;
            }
            return capture_own_gpu(d, t, err, errlen);
        }
        if (backend && strcmp(backend, "cpu") && strcmp(backend, "auto")) {
            snprintf(err, errlen, "--backend must be auto, cpu or gpu, got \"%s\"", backend);
            return -1;
        }
        return capture_own(d, t, err, errlen); /* --schedule adversarial: searched in its sandboxed run */
    }
    if (!backend || !strcmp(backend, "cpu")) return capture_cpu(d, t, err, errlen);
    if (emulator_only(d) && strcmp(backend, "cpu")) {
        if (!strcmp(backend, "gpu")) {
            snprintf(err, errlen, "%s", gpu_own_order);
            return -1;
        }
        if (note) snprintf(note, notelen, "captured by the CPU emulator: the schedule and break-it switches are the emulator's");
        return capture_cpu(d, t, err, errlen);
    }
    if (!strcmp(backend, "gpu")) return capture_gpu_apart(d, t, err, errlen);
    if (strcmp(backend, "auto") != 0) {
        snprintf(err, errlen, "--backend must be auto, cpu or gpu, got \"%s\"", backend);
        return -1;
    }
    char why[512];
    if (capture_gpu_apart(d, t, why, sizeof why) == 0) {
        if (note) snprintf(note, notelen, "captured on the GPU (%s)", t->prov.device);
        return 0;
    }
    if (note) snprintf(note, notelen, "captured by the CPU emulator: %s", why);
    return capture_cpu(d, t, err, errlen);
}
