/* A trace checked as a certificate (trace/certify.h) holds only for a real reduction of the input
 * the checker made: the traces of right kernels (given as files, made by `warpscope capture
 * --kernel` with every block traced) verify, with the result equal to a double-precision sum of the
 * input computed here and a chain of adds no shorter than a binary tree over the nonzero elements
 * allows (ceil(log2(k))); each forgery a learner's process could make of them is refused (a load's
 * value changed, the result said otherwise, the result's store replaced by a typed number, the
 * input taken for another seed). The races a check believes are the race detector's replayed over
 * the events (race_replay): for the ladder's racing kernels they are the emulator's own, hazard for
 * hazard. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "trace/capture/race.h"
#include "trace/certify.h"
#include "trace/input.h"
#include "check.h"

static int certify_file_trace(const trace *t, uint64_t seed, certify_facts *f)
{
    uint64_t n = t->prov.n;
    float *x = malloc(n * sizeof *x);
    double *xd = malloc(n * sizeof *xd);
    input_fill(t->prov.data, seed, x, n);
    for (uint64_t i = 0; i < n; i++) xd[i] = x[i];
    certify_input in = {.in = xd, .n = n, .op = CERTIFY_SUM};
    char err[256];
    int rc = certify_trace(t, &in, f, err, sizeof err);
    CHECK(rc == 0, "certify: %s", err);
    free(x);
    free(xd);
    return rc;
}

static double double_sum(const trace *t)
{
    uint64_t n = t->prov.n;
    float *x = malloc(n * sizeof *x);
    input_fill(t->prov.data, t->prov.seed, x, n);
    double s = 0;
    for (uint64_t i = 0; i < n; i++) s += x[i];
    free(x);
    return s;
}

static uint64_t nonzero(const trace *t)
{
    uint64_t n = t->prov.n, k = 0;
    float *x = malloc(n * sizeof *x);
    input_fill(t->prov.data, t->prov.seed, x, n);
    for (uint64_t i = 0; i < n; i++) k += x[i] != 0;
    free(x);
    return k;
}

/* the index of the last event storing out[0] (buffer 1), and its lane */
static size_t result_store(const trace *t, size_t *lane)
{
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_GLOBAL_STORE || e->buf != 1) continue;
        for (int k = 0; k < trace_popcount(e->mask); k++)
            if (t->lane_addr[e->lanes + (size_t)k] == 0) at = i, *lane = (size_t)k;
    }
    return at;
}

static void forgeries(const char *path)
{
    trace t;
    trace_init(&t);
    char err[512];
    if (trace_read_file(&t, path, err, sizeof err)) { CHECK(0, "%s: %s", path, err); return; }
    certify_facts f;
    if (certify_file_trace(&t, t.prov.seed, &f)) return;
    CHECK(f.verified, "%s: a right kernel's trace is not verified: %s", path, f.why);
    double want = double_sum(&t);
    CHECK(f.result == want, "%s: verified result %.9g, the double sum %.9g", path, f.result, want);
    unsigned least = 0;
    while (((uint64_t)1 << least) < nonzero(&t)) least++;
    CHECK(f.result_chain >= least, "%s: a chain of %u adds is shorter than any tree over %llu elements (%u)", path, f.result_chain,
          (unsigned long long)nonzero(&t), least);
    /* another seed's input: its loads no longer return the input */
    if (certify_file_trace(&t, t.prov.seed + 1, &f) == 0) CHECK(!f.verified, "%s: verified against another input", path);
    /* the result said otherwise */
    double r = t.result;
    t.result = r + 1;
    if (certify_file_trace(&t, t.prov.seed, &f) == 0) CHECK(!f.verified, "%s: a result the kernels did not store is believed", path);
    t.result = r;
    /* a global load of the input returns another value */
    for (size_t i = 0; i < t.nevents; i++) {
        const trace_event *e = &t.events[i];
        if (e->kind != TRACE_GLOBAL_LOAD || e->buf != 0) continue;
        t.values[e->vals] += 1;
        if (certify_file_trace(&t, t.prov.seed, &f) == 0) CHECK(!f.verified, "%s: a load of a value the input does not hold is believed", path);
        t.values[e->vals] -= 1;
        break;
    }
    /* the result's store replaced by a typed number, the right one (what a table of sums would write) */
    size_t lane = 0, at = result_store(&t, &lane);
    CHECK(at != SIZE_MAX, "%s: no store of out[0]", path);
    if (at != SIZE_MAX) {
        double *v = &t.values[t.events[at].vals + lane];
        double old = *v;
        *v = t.result = old + 7;
        if (certify_file_trace(&t, t.prov.seed, &f) == 0) CHECK(!f.verified, "%s: a typed result is believed", path);
        *v = t.result = old;
    }
    trace_free(&t);
}

/* the ladder's racing kernels: the detector replayed over the events finds the emulator's hazards */
static void replayed_races(const char *version, unsigned drop_barrier)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.n = 2048;
    d.data = "random-int";
    d.blocks_traced = 1u << 20;
    d.drop_barrier = drop_barrier;
    trace t, again;
    trace_init(&t);
    trace_init(&again);
    char err[256];
    if (capture_cpu(&d, &t, err, sizeof err)) { CHECK(0, "%s: %s", version, err); return; }
    CHECK(t.nhazards > 0, "%s: no hazard to replay", version);
    CHECK(trace_append(&again, &t) == 0, "copy");
    again.npasses = 0;
    for (size_t p = 0; p < t.npasses; p++) trace_add_pass(&again, t.passes[p]);
    CHECK(race_replay(&again) == 0, "race_replay: out of memory");
    CHECK(again.nhazards == t.nhazards, "%s: %zu hazards replayed, the emulator found %zu", version, again.nhazards, t.nhazards);
    for (size_t i = 0; i < t.nhazards && i < again.nhazards; i++) {
        const trace_hazard *a = &t.hazards[i], *b = &again.hazards[i];
        CHECK(a->kind == b->kind && a->space == b->space && a->first.line == b->first.line && a->second.line == b->second.line &&
                  a->count == b->count,
              "%s: hazard %zu: lines %u/%u x%u, replayed %u/%u x%u", version, i, a->first.line, a->second.line, a->count, b->first.line,
              b->second.line, b->count);
    }
    trace_free(&t);
    trace_free(&again);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) forgeries(argv[i]);
    replayed_races("v4", 0);
    replayed_races("v5", 0);
    replayed_races("v6", 0);
    CHECK_DONE("certify_should_accept_only_a_real_reduction");
}
