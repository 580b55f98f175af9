// Emulator semantics, each with a small kernel of its own, compiled like the ladder's kernels.
// #line pins the source lines so that the expected messages can name them.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <type_traits>

#include "trace/capture/ws_cuda.h"
#include "trace/analysis.h"
#include "check.h"

#line 1000
__global__ void early_exit(global_ptr<float> out)
{
    unsigned int tid = threadIdx.x;
    if (tid >= 16) return;
    __syncthreads();
    out[tid] = 1.0f;
}
WS_LAUNCH(early_exit, early_exit, (a.out))

#line 1100
__global__ void split_barrier(global_ptr<float> out)
{
    if (threadIdx.x < 16) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1.0f;
}
WS_LAUNCH(split_barrier, split_barrier, (a.out))

#line 1200
__global__ void shuffle_width8(global_ptr<float> out)
{
    float v = (float)threadIdx.x;
    out[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 3, 8);
}
WS_LAUNCH(shuffle_width8, shuffle_width8, (a.out))

#line 1300
__global__ void shared_overrun(global_ptr<float> out)
{
    __shared__ shared_array<float, 32> s;
    s[threadIdx.x + 1] = 1.0f;
    out[threadIdx.x] = s[threadIdx.x];
}
WS_LAUNCH(shared_overrun, shared_overrun, (a.out))

#line 1400
__global__ void branches(global_ptr<float> out)
{
    unsigned int t = threadIdx.x;
    if (t % 2) out[t] = 1.0f;
    else out[t] = 2.0f;
}
WS_LAUNCH(branches, branches, (a.out))

#line 1500
__global__ void watched(global_ptr<float> out)
{
    reg<float> s = (float)threadIdx.x;
    if (threadIdx.x % 2) s += out[threadIdx.x];
    s = s * 2.0f;
    out[threadIdx.x] = s;
}
WS_LAUNCH(watched, watched, (a.out))

// a reg is assigned values, never another reg (that would assign without a line to record); a
// copy is a read (a lambda's [=] capture of the watched register)
static_assert(std::is_copy_constructible<reg<float>>::value && !std::is_copy_assignable<reg<float>>::value,
              "assigning a reg to a reg should not compile");

static int run(emu_kernel_fn k, unsigned block, float *out, trace *t, emu *e)
{
    emu_set_buffer(e, 1, out, 64 * sizeof(float));
    emu_kernel_args args = {0, 1, -1, 64, 0};
    emu_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = k;
    l.args = &args;
    l.grid = 1;
    l.block = block;
    l.blocks_traced = 1;
    l.trace = t;
    return emu_run(e, &l);
}

int main(void)
{
    emu *e = emu_create();
    float out[64];
    trace t;

    /* emu_barrier_should_release_when_exited_threads_count */
    memset(out, 0, sizeof out);
    trace_init(&t);
    CHECK(run(ws_emu_early_exit, 64, out, &t, e) == 0, "%s", emu_last_error(e));
    for (int i = 0; i < 64; i++) CHECK(out[i] == (i < 16 ? 1.0f : 0.0f), "out[%d] = %g", i, (double)out[i]);
    int barriers = 0;
    for (size_t i = 0; i < t.nevents; i++)
        if (t.events[i].kind == TRACE_BARRIER) {
            barriers++;
            CHECK(t.events[i].warp == 0 && t.events[i].mask == 0xffffu && t.events[i].line == 1004,
                  "barrier of warp %u mask %08x line %u", t.events[i].warp, t.events[i].mask, t.events[i].line);
        }
    CHECK(barriers == 1, "%d barrier events, expected one (warp 0, lanes 0-15)", barriers);
    trace_free(&t);

    /* emu_barrier_should_report_threads_at_different_barriers */
    CHECK(run(ws_emu_split_barrier, 32, out, NULL, e) == -1, "divergent barriers were accepted");
    CHECK(strstr(emu_last_error(e), "thread 0 at line 1103, thread 16 at line 1105") != NULL, "message: %s", emu_last_error(e));

    /* emu_shuffle_should_keep_own_value_outside_the_segment: width 8, delta 3 */
    memset(out, 0, sizeof out);
    CHECK(run(ws_emu_shuffle_width8, 32, out, NULL, e) == 0, "%s", emu_last_error(e));
    for (int l = 0; l < 32; l++) {
        int src = (l % 8) + 3 < 8 ? l + 3 : l;
        CHECK(out[l] == (float)src, "lane %d got %g, expected lane %d's value", l, (double)out[l], src);
    }

    /* emu_should_report_out_of_bounds_shared_access */
    CHECK(run(ws_emu_shared_overrun, 32, out, NULL, e) == -1, "out-of-bounds store accepted");
    CHECK(strstr(emu_last_error(e), "line 1303: block 0, thread 31 (warp 0, lane 31) writes element 32 of a __shared__ array of 32") != NULL,
          "message: %s", emu_last_error(e));

    /* emu_divergent_branches_should_run_lowest_line_first_and_count_as_divergent */
    trace_init(&t);
    t.prov.block = 32; /* the analysis needs the launch shape to know which lanes are live */
    trace_add_pass(&t, trace_pass{1, 32, 0, 32, 0, 0, {1, 1, 1}, {32, 1, 1}});
    CHECK(run(ws_emu_branches, 32, out, &t, e) == 0, "%s", emu_last_error(e));
    size_t stores[2];
    int ns = 0;
    for (size_t i = 0; i < t.nevents; i++)
        if (t.events[i].kind == TRACE_GLOBAL_STORE && ns < 2) stores[ns++] = i;
    CHECK(ns == 2, "%d stores", ns);
    if (ns == 2) {
        CHECK(t.events[stores[0]].line == 1403 && t.events[stores[0]].mask == 0xaaaaaaaau, "first store line %u mask %08x",
              t.events[stores[0]].line, t.events[stores[0]].mask);
        CHECK(t.events[stores[1]].line == 1404 && t.events[stores[1]].mask == 0x55555555u, "second store line %u mask %08x",
              t.events[stores[1]].line, t.events[stores[1]].mask);
        analysis_event *f = (analysis_event *)malloc(t.nevents * sizeof *f);
        analysis_events(&t, f);
        /* the odd lanes wait while the even ones are live elsewhere: divergent; by the else
         * branch the odd lanes have finished the kernel, so only even lanes are live */
        CHECK(f[stores[0]].divergent && f[stores[0]].live == 0xffffffffu, "the if branch is not marked divergent");
        CHECK(!f[stores[1]].divergent && f[stores[1]].live == 0x55555555u, "else branch: live %08x", f[stores[1]].live);
        free(f);
    }
    trace_free(&t);

    /* emu_register_should_record_each_assignment_with_its_line_and_value: out[l] = 10 on entry */
    for (int i = 0; i < 64; i++) out[i] = 10.0f;
    trace_init(&t);
    CHECK(run(ws_emu_watched, 32, out, &t, e) == 0, "%s", emu_last_error(e));
    static const struct { unsigned line; uint32_t mask; } want[3] = {{1502, 0xffffffffu}, {1503, 0xaaaaaaaau}, {1504, 0xffffffffu}};
    int nreg = 0;
    for (size_t i = 0; i < t.nevents; i++) {
        const trace_event *ev = &t.events[i];
        if (ev->kind != TRACE_REGISTER) continue;
        CHECK(nreg < 3 && ev->line == want[nreg].line && ev->mask == want[nreg].mask, "register event %d: line %u mask %08x", nreg,
              ev->line, ev->mask);
        for (int j = 0, l = 0; nreg < 3 && l < 32; l++) {
            if (!(ev->mask >> l & 1u)) continue;
            float got = trace_lane_value(&t, ev, (size_t)j++, 0), base = (float)l + (l % 2 ? 10.0f : 0.0f);
            float expect = nreg == 0 ? (float)l : nreg == 1 ? base : 2.0f * base;
            CHECK(got == expect && t.lane_addr[ev->lanes + (size_t)j - 1] == l, "register event %d lane %d: %g, expected %g", nreg, l,
                  (double)got, (double)expect);
        }
        nreg++;
    }
    CHECK(nreg == 3, "%d register events, expected 3 (the declaration, the odd lanes' +=, the doubling)", nreg);
    for (int l = 0; l < 32; l++) CHECK(out[l] == 2.0f * ((float)l + (l % 2 ? 10.0f : 0.0f)), "out[%d] = %g", l, (double)out[l]);
    trace_free(&t);
    emu_destroy(e);
    CHECK_DONE("emu_semantics");
}
