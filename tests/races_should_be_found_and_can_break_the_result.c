/* The races the ladder teaches are found, on the lines the kernel files hold, and a schedule that
 * hardware may legally run makes them give a wrong sum:
 *  - v4's `volatile` tail (and the same tail in v5 and v6): hazards on every tail line under
 *    lockstep, where the result is still right, and a wrong sum under the adversarial schedule;
 *  - v2 with its loop barrier dropped: hazards on the loop's line and a wrong sum for some data;
 *  - v4s with its first __syncwarp dropped: a hazard appears where there was none;
 *  - the seed's in-place naive kernel: global-memory hazards, and a wrong sum when warps run in
 *    the other order.
 * Right and wrong are judged against a double-precision sum of the same input, computed here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "kernel_lines.h"

static int capture(const char *version, unsigned block, const char *schedule, const char *warps, unsigned drop_barrier,
                   unsigned drop_syncwarp, uint64_t seed, trace *t)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = block;
    d.data = "random-int";
    d.seed = seed;
    d.seed_set = 1;
    d.schedule = schedule;
    d.warp_order = warps;
    d.drop_barrier = drop_barrier;
    d.drop_syncwarp = drop_syncwarp;
    trace_init(t);
    char err[256];
    int rc = capture_cpu(&d, t, err, sizeof err);
    CHECK(rc == 0, "%s block %u %s: %s", version, block, schedule ? schedule : "lockstep", err);
    return rc;
}

/* |result - double sum of the input| within the float tree error bound */
static int right(const trace *t)
{
    uint64_t n = t->prov.n;
    float *x = malloc(n * sizeof *x);
    input_fill(t->prov.data, t->prov.seed, x, n);
    double ref = 0, abs_sum = 0;
    for (uint64_t i = 0; i < n; i++) { ref += x[i]; abs_sum += fabs(x[i]); }
    free(x);
    return fabs((double)t->result - ref) <= (ceil(log2((double)n + 1)) + 2) * ldexp(1.0, -24) * abs_sum;
}

static int in(unsigned line, const unsigned *lines, int n)
{
    for (int i = 0; i < n; i++)
        if (lines[i] == line) return 1;
    return 0;
}

/* every hazard is in the given space and between the given lines, and each line is named */
static void expect_hazards_on(const trace *t, const char *what, int space, const unsigned *lines, int nlines)
{
    CHECK(t->nhazards > 0, "%s: no hazard found", what);
    int named[64] = {0};
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        CHECK(h->space == space, "%s: hazard %zu in the wrong memory", what, i);
        CHECK(in(h->first.line, lines, nlines) && in(h->second.line, lines, nlines),
              "%s: hazard between lines %u and %u, outside the expected lines", what, h->first.line, h->second.line);
        CHECK(h->first.block != h->second.block || h->first.thread != h->second.thread, "%s: a thread races with itself", what);
        CHECK(h->count >= 1, "%s: hazard %zu counted %u times", what, i, h->count);
        for (int k = 0; k < nlines; k++) named[k] |= lines[k] == h->first.line || lines[k] == h->second.line;
    }
    for (int k = 0; k < nlines; k++) CHECK(named[k], "%s: line %u is named by no hazard", what, lines[k]);
}

/* each hazard's accesses point at the recorded warp instruction that made them (what a viewer marks) */
static void expect_events_linked(const trace *t, const char *what)
{
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        const trace_hazard_access *acc[2] = {&h->first, &h->second};
        for (int k = 0; k < 2; k++) {
            const trace_hazard_access *a = acc[k];
            if (a->block >= t->prov.blocks_traced) continue; /* not recorded: no event */
            CHECK(a->event >= 0 && (size_t)a->event < t->nevents, "%s: hazard %zu access %d has no event", what, i, k);
            if (a->event < 0 || (size_t)a->event >= t->nevents) continue;
            const trace_event *e = &t->events[a->event];
            int kind = h->space == TRACE_SPACE_SHARED ? (a->write ? TRACE_SHARED_STORE : TRACE_SHARED_LOAD)
                                                      : (a->write ? TRACE_GLOBAL_STORE : TRACE_GLOBAL_LOAD);
            CHECK(e->kind == kind && e->line == a->line && e->block == a->block && e->warp == a->thread / 32 &&
                      (e->mask >> (a->thread % 32) & 1),
                  "%s: hazard %zu access %d points at an event of another line, kind or lane", what, i, k);
            size_t found[64];
            size_t nf = trace_event_hazards(t, (size_t)a->event, found, 64);
            int listed = 0;
            for (size_t j = 0; j < nf && j < 64; j++) listed |= found[j] == i;
            CHECK(listed, "%s: trace_event_hazards does not list hazard %zu at its event", what, i);
        }
    }
}

int main(void)
{
    /* the textbook tail: six lines sdata[tid] += sdata[tid + 32 ... 1] */
    static const char *const steps[] = {"sdata[tid + 32];", "sdata[tid + 16];", "sdata[tid + 8];",
                                        "sdata[tid + 4];", "sdata[tid + 2];", "sdata[tid + 1];"};
    static const char *const tails[] = {"v4", "v5", "v6"};
    static const unsigned blocks[] = {64, 256};
    for (int v = 0; v < 3; v++) {
        char file[32];
        snprintf(file, sizeof file, "%s.cu", tails[v]);
        unsigned lines[6];
        int nl = 0;
        for (int s = 0; s < 6; s++) nl += kernel_lines(file, steps[s], lines + nl, 1);
        CHECK(nl == 6, "%s: the six tail lines are not in the file", file);
        for (int b = 0; b < 2; b++) {
            char what[64];
            trace t;
            snprintf(what, sizeof what, "%s block %u lockstep", tails[v], blocks[b]);
            if (!capture(tails[v], blocks[b], "lockstep", NULL, 0, 0, 1, &t)) {
                CHECK(right(&t), "%s: lockstep should still give the right sum, got %.9g", what, (double)t.result);
                expect_hazards_on(&t, what, TRACE_SPACE_SHARED, lines, nl);
                expect_events_linked(&t, what);
                trace_free(&t);
            }
            snprintf(what, sizeof what, "%s block %u adversarial", tails[v], blocks[b]);
            if (!capture(tails[v], blocks[b], "adversarial", NULL, 0, 0, 1, &t)) {
                CHECK(!right(&t), "%s: the race should show in the sum, got %.9g = reference", what, (double)t.result);
                expect_hazards_on(&t, what, TRACE_SPACE_SHARED, lines, nl);
                CHECK(strncmp(t.prov.schedule, "adversarial: ", 13) == 0, "%s: schedule recorded as \"%s\"", what, t.prov.schedule);
                trace_free(&t);
            }
        }
    }

    /* v2 without the barrier at the end of its loop body (the second __syncthreads of the file) */
    unsigned bar[2], loop[1];
    CHECK(kernel_lines("v2.cu", "__syncthreads();", bar, 2) == 2, "v2.cu: two barriers expected");
    CHECK(kernel_lines("v2.cu", "sdata[tid] += sdata[tid + s];", loop, 1) == 1, "v2.cu: loop line not found");
    int wrong = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        trace t;
        if (capture("v2", 256, NULL, NULL, bar[1], 0, seed, &t)) continue;
        expect_hazards_on(&t, "v2 without its loop barrier", TRACE_SPACE_SHARED, loop, 1);
        CHECK(t.prov.drop_barrier == bar[1], "v2: dropped line recorded as %u", t.prov.drop_barrier);
        wrong += !right(&t);
        trace_free(&t);
    }
    CHECK(wrong > 0, "v2 without its loop barrier: the sum was right for every data set tried");

    /* v4s without its first __syncwarp: reads and writes of a step no longer ordered */
    unsigned sw[2], v4s_lines[2];
    CHECK(kernel_lines("v4s.cu", "__syncwarp();", sw, 2) == 2, "v4s.cu: two __syncwarp expected");
    CHECK(kernel_lines("v4s.cu", "v += sdata[tid + offset];", v4s_lines, 1) == 1 &&
              kernel_lines("v4s.cu", "sdata[tid] = v;", v4s_lines + 1, 1) == 1, "v4s.cu: step lines not found");
    trace t;
    if (!capture("v4s", 64, "adversarial", NULL, 0, sw[0], 1, &t)) {
        expect_hazards_on(&t, "v4s without its first __syncwarp", TRACE_SPACE_SHARED, v4s_lines, 2);
        CHECK(!right(&t), "v4s without its first __syncwarp: adversarial should break the sum");
        trace_free(&t);
    }

    /* v4 without `volatile`: the compiler's register copy (load once, store once at the end), in
     * lockstep: lane 0 adds its partners' words as they were before the tail, so the block sums
     * s[0] + s[32] + s[16] + s[8] + s[4] + s[2] + s[1] of the words the barrier-ordered steps left;
     * computed here from the input, step by step as the kernel file's loop does */
    for (int b = 0; b < 2; b++) {
        unsigned block = blocks[b];
        if (capture("v4-novolatile", block, "lockstep", NULL, 0, 0, 3, &t)) continue;
        uint64_t n = 2ull * block;
        float *x = malloc(n * sizeof *x), sm[1024];
        input_fill("random-int", 3, x, n);
        for (unsigned i = 0; i < block; i++) sm[i] = x[i] + x[i + block];
        for (unsigned st = block / 2; st > 32; st >>= 1)
            for (unsigned i = 0; i < st; i++) sm[i] += sm[i + st];
        float want = sm[0];
        for (unsigned off = 32; off > 0; off >>= 1) want += sm[off];
        free(x);
        CHECK(t.result == want, "v4-novolatile block %u: %.9g, the register copy gives %.9g", block, (double)t.result, (double)want);
        unsigned nv_lines[6];
        int nn = 0;
        for (int st = 1; st < 6; st++) nn += kernel_lines("v4_novolatile.cu", steps[st], nv_lines + nn, 1);
        CHECK(nn == 5, "v4_novolatile.cu: tail lines not found");
        expect_hazards_on(&t, "v4-novolatile lockstep", TRACE_SPACE_SHARED, nv_lines, nn);
        trace_free(&t);
    }

    /* the seed's naive kernel in place: global memory, one line */
    unsigned nl_line[1];
    CHECK(kernel_lines("naive_race.cu", "data_out[idx_x] += data_in[idx_x + stride];", nl_line, 1) == 1, "naive_race.cu: line not found");
    if (!capture("naive-race", 256, NULL, NULL, 0, 0, 1, &t)) {
        expect_hazards_on(&t, "naive-race lockstep", TRACE_SPACE_GLOBAL, nl_line, 1);
        CHECK(right(&t), "naive-race lockstep in order: every read runs before the write it races with");
        trace_free(&t);
    }
    if (!capture("naive-race", 256, NULL, "reversed", 0, 0, 1, &t)) {
        expect_hazards_on(&t, "naive-race warps reversed", TRACE_SPACE_GLOBAL, nl_line, 1);
        expect_events_linked(&t, "naive-race warps reversed");
        CHECK(!right(&t), "naive-race with warps reversed should add some windows twice, got %.9g", (double)t.result);
        trace_free(&t);
    }
    CHECK_DONE("races_should_be_found_and_can_break_the_result");
}
