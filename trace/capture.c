/* capture: input, buffers and passes around the emulator. */
#include "capture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu.h"
#include "ladder.h"

const char *const capture_patterns[] = {"ones", "ramp", "random-int", "random-float", NULL};

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int capture_fill(const char *pattern, uint64_t seed, float *x, uint64_t n)
{
    uint64_t s = seed;
    if (strcmp(pattern, "ones") == 0) {
        for (uint64_t i = 0; i < n; i++) x[i] = 1.0f;
    } else if (strcmp(pattern, "ramp") == 0) {
        for (uint64_t i = 0; i < n; i++) x[i] = (float)i;
    } else if (strcmp(pattern, "random-int") == 0) { /* 0..9: sums stay exact and readable */
        for (uint64_t i = 0; i < n; i++) x[i] = (float)(splitmix64(&s) % 10);
    } else if (strcmp(pattern, "random-float") == 0) { /* uniform in [-1, 1) */
        for (uint64_t i = 0; i < n; i++) x[i] = (float)((double)(splitmix64(&s) >> 40) / (double)(1ull << 23) - 1.0);
    } else {
        return -1;
    }
    return 0;
}

double capture_reference(const float *x, uint64_t n)
{
    double s = 0;
    for (uint64_t i = 0; i < n; i++) s += (double)x[i];
    return s;
}

double capture_tolerance(const float *x, uint64_t n)
{
    double abs_sum = 0;
    for (uint64_t i = 0; i < n; i++) abs_sum += fabs((double)x[i]);
    double depth = n > 1 ? ceil(log2((double)n)) : 0;
    return (depth + 2) * ldexp(1.0, -24) * abs_sum;
}

static void iso_date(char *buf, size_t len)
{
    /* SOURCE_DATE_EPOCH pins the date so that two captures can be compared byte for byte */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static unsigned default_block(const ladder_version *v)
{
    unsigned b = 256;
    if (b < v->min_block) b = v->min_block;
    if (b > v->max_block) b = v->max_block;
    return b;
}

enum { BUF_IN = 0 };

int capture_cpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    const ladder_version *v = ladder_find(d->version ? d->version : "");
    if (!v) { snprintf(err, errlen, "unknown version \"%s\" (warpscope list shows them)", d->version ? d->version : ""); return -1; }
    unsigned block = d->block ? d->block : default_block(v);
    unsigned ept = d->ept ? d->ept : v->ept_default;
    if (ladder_check_block(v, block, err, errlen) || ladder_check_ept(v, ept, err, errlen)) return -1;
    uint64_t n = d->n ? d->n : (uint64_t)block * ept;
    if (n > ((uint64_t)1 << 31)) { snprintf(err, errlen, "n = %llu: the emulator takes at most 2^31 elements", (unsigned long long)n); return -1; }
    const char *data = d->data ? d->data : "random-int";
    uint64_t seed = d->seed_set ? d->seed : 1;
    unsigned traced = d->blocks_traced ? d->blocks_traced : 1;

    ladder_pass plan[LADDER_MAX_PASSES];
    int np = ladder_plan(v, block, n, ept, plan);

    trace_free(t);
    trace_provenance *p = &t->prov;
    memset(p, 0, sizeof *p);
    snprintf(p->backend, sizeof p->backend, "cpu");
    snprintf(p->device, sizeof p->device, "CPU emulator");
    snprintf(p->toolkit, sizeof p->toolkit, "host C++ compiler, gcc %s", __VERSION__);
    iso_date(p->date, sizeof p->date);
    snprintf(p->version, sizeof p->version, "%s", v->id);
    snprintf(p->source, sizeof p->source, "%s", v->file);
    snprintf(p->data, sizeof p->data, "%s", data);
    p->n = n;
    p->seed = seed;
    p->block = block;
    p->elems_per_thread = ept;
    p->blocks_traced = traced;

    /* buffers: 0 the input, then each pass's output (naive: one working copy; v8: partials and
     * the retirement counter). Sizes rounded up to 4 floats so float4 views stay in bounds. */
    int rc = -1;
    enum { MAXB = LADDER_MAX_PASSES + 2 };
    float *bufs[MAXB] = {0};
    int nb = 0;
    emu *e = emu_create();
    if (!e) { snprintf(err, errlen, "out of memory for the emulator's thread stacks"); return -1; }
#define ALLOC(count) (bufs[nb] = calloc(((count) + 3) / 4 * 4, sizeof(float)), emu_set_buffer(e, nb, bufs[nb], (size_t)(count) * sizeof(float)), nb++)
    ALLOC(n);
    if (!bufs[BUF_IN] || capture_fill(data, seed, bufs[BUF_IN], n)) {
        if (bufs[BUF_IN]) snprintf(err, errlen, "unknown data pattern \"%s\" (ones, ramp, random-int, random-float)", data);
        else snprintf(err, errlen, "out of memory for %llu input elements", (unsigned long long)n);
        goto out;
    }
    t->reference = capture_reference(bufs[BUF_IN], n);
    trace_add_buffer(t, "in", 0);

    int out_buf = 0, counter_buf = -1;
    if (v->shape == LADDER_IN_PLACE) {
        out_buf = ALLOC(n);
        if (!bufs[out_buf]) goto oom;
        memcpy(bufs[out_buf], bufs[BUF_IN], n * sizeof(float));
        trace_add_buffer(t, "data", 0);
    } else if (v->shape == LADDER_SINGLE_PASS) {
        out_buf = ALLOC(plan[0].grid);
        counter_buf = ALLOC(1);
        if (!bufs[out_buf] || !bufs[counter_buf]) goto oom;
        trace_add_buffer(t, "partials", 0);
        trace_add_buffer(t, "counter", 0);
    }
    int in_buf = BUF_IN;
    for (int k = 0; k < np; k++) {
        if (v->shape == LADDER_TREE) {
            out_buf = ALLOC(plan[k].grid);
            if (!bufs[out_buf]) goto oom;
            char name[16];
            snprintf(name, sizeof name, k + 1 < np ? "partials%d" : "out", k);
            trace_add_buffer(t, name, (unsigned)k + 1 < (unsigned)np ? (unsigned)k + 1 : (unsigned)k);
        }
        trace_add_pass(t, (trace_pass){plan[k].grid, plan[k].block, plan[k].stride, plan[k].n_in});
        emu_kernel_args args = {in_buf, out_buf, counter_buf, (unsigned)plan[k].n_in, plan[k].stride};
        emu_launch l = {v->emu, &args, plan[k].grid, plan[k].block, (unsigned)k, traced, t};
        if (emu_run(e, &l)) {
            snprintf(err, errlen, "%s, pass %d: %s", v->file, k, emu_last_error(e));
            goto out;
        }
        if (v->shape == LADDER_TREE) in_buf = out_buf;
    }
    t->result = bufs[out_buf][0];
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "out of memory for the launch plan's buffers");
out:
#undef ALLOC
    for (int i = 0; i < nb; i++) free(bufs[i]);
    emu_destroy(e);
    if (rc) trace_free(t);
    return rc;
}
