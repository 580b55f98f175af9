/* Whole-launch counters (every block of every pass traced) are the sum of the per-block counters,
 * for every version; simple counts are checked against a direct scan of the events; and v1 at a
 * block of 256 over n = 2^16 (256 blocks of one element per thread in pass 0) gives exactly 256
 * times one block's counts worked out here from its addressing formula, index = 2*s*tid. */
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/capture/capture.h"
#include "check.h"

#define WARP 32
#define BANKS 32

static int trace_block(const char *version, unsigned block, uint64_t n, trace *t)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = block;
    d.n = n;
    d.data = "random-int";
    d.blocks_traced = 1u << 30; /* every block */
    trace_init(t);
    char err[256];
    int rc = capture_cpu(&d, t, err, sizeof err);
    CHECK(rc == 0, "%s: %s", version, err);
    return rc;
}

static void sums_per_block(const ladder_version *v)
{
    trace t;
    unsigned block = v->min_block > 64 ? v->min_block : 64;
    if (trace_block(v->id, block, (uint64_t)block * v->ept_default * 9 + 3, &t)) return;
    analysis_grid g;
    CHECK(analysis_grid_build(&t, &g) == 0, "%s: grid", v->id);
    for (unsigned p = 0; p < t.npasses; p++) {
        analysis_counters launch, sum;
        int nb = analysis_grid_totals(&g, p, &launch);
        CHECK((unsigned)nb == t.passes[p].grid, "%s pass %u: %d blocks in the grid, the plan has %u", v->id, p, nb, t.passes[p].grid);
        memset(&sum, 0, sizeof sum);
        for (unsigned b = 0; b < t.passes[p].grid; b++) {
            analysis_counters *ph, tot;
            size_t nph;
            CHECK(analysis_phases(&t, p, b, &ph, &nph, &tot) == 0, "%s pass %u block %u not traced", v->id, p, b);
            free(ph);
            analysis_counters_add(&sum, &tot);
            const analysis_block *ab = analysis_grid_find(&g, p, b);
            CHECK(ab && ab->block == b && ab->exited && ab->nphases == nph, "%s pass %u block %u: grid entry", v->id, p, b);
        }
        CHECK(memcmp(&launch, &sum, sizeof sum) == 0, "%s pass %u: launch totals differ from the sum over blocks", v->id, p);
        /* a direct scan of the pass's events */
        uint64_t instr = 0, lanes = 0, sld = 0, sst = 0, greq = 0, bar = 0, shfl = 0;
        for (size_t i = 0; i < t.nevents; i++) {
            const trace_event *e = &t.events[i];
            if (e->pass != p) continue;
            bar += e->kind == TRACE_BARRIER;
            if (!trace_kind_is_instruction((trace_kind)e->kind)) continue;
            instr++;
            lanes += (uint64_t)__builtin_popcount(e->mask);
            sld += e->kind == TRACE_SHARED_LOAD;
            sst += e->kind == TRACE_SHARED_STORE;
            greq += e->kind == TRACE_GLOBAL_LOAD || e->kind == TRACE_GLOBAL_STORE || e->kind == TRACE_GLOBAL_ATOMIC;
            shfl += e->kind == TRACE_SHUFFLE;
        }
        CHECK(launch.warp_instructions == instr && launch.active_lanes == lanes && launch.shared_loads == sld &&
                  launch.shared_stores == sst && launch.global_requests == greq && launch.barriers == bar && launch.shuffles == shfl,
              "%s pass %u: launch counters differ from a scan of the events", v->id, p);
    }
    /* the partial of each block of pass 0 is what the next pass reads (tree versions) */
    if (v->shape == LADDER_TREE && t.npasses > 1)
        for (unsigned b = 0; b < t.passes[0].grid; b++) {
            const analysis_block *ab = analysis_grid_find(&g, 0, b);
            CHECK(ab && ab->has_partial, "%s: block %u has no partial", v->id, b);
        }
    analysis_grid_free(&g);
    trace_free(&t);
}

/* bank-conflict degree of one warp access: the most distinct words one bank serves */
static unsigned degree(const long *words, int n)
{
    unsigned best = 0;
    for (int b = 0; b < BANKS; b++) {
        long seen[WARP];
        unsigned k = 0;
        for (int i = 0; i < n; i++) {
            if (words[i] % BANKS != b) continue;
            int dup = 0;
            for (unsigned j = 0; j < k; j++) dup |= seen[j] == words[i];
            if (!dup) seen[k++] = words[i];
        }
        if (k > best) best = k;
    }
    return best;
}

static void v1_launch_is_blocks_times_one(void)
{
    enum { B = 256, N = 1 << 16, BLOCKS = N / B };
    /* one block from the formula: phase 0 loads (global) and stores (shared) every element; each
     * step s = 1, 2, ... B/2 has thread tid work when index = 2*s*tid < B, as load, load, store of
     * words index and index + s; the last phase is thread 0 reading sdata[0] and storing it. */
    uint64_t instr = 2 * B / WARP, divergent = 0, ld = 0, st = 0, active = B, idle = 0, barriers = 0;
    unsigned phases = 1;
    for (unsigned s = 1; s < B; s *= 2, phases++) {
        unsigned working = 0;
        for (unsigned w = 0; w < B / WARP; w++) {
            long lhs[WARP], rhs[WARP];
            int n = 0;
            for (unsigned l = 0; l < WARP; l++) {
                long index = 2L * s * (w * WARP + l);
                if (index >= B) continue;
                lhs[n] = index;
                rhs[n++] = index + s;
            }
            if (!n) continue;
            working += (unsigned)n;
            instr += 3;
            if (n < WARP) divergent += 3;
            ld += degree(lhs, n) - 1 + degree(rhs, n) - 1;
            st += degree(lhs, n) - 1;
        }
        active += working;
        idle += B - working;
    }
    barriers = (uint64_t)phases * (B / WARP); /* a barrier after the load and after each step, per warp */
    /* the last phase: thread 0, alone in its warp: lanes 1..31 have nothing left but to exit, and
     * exited lanes are not live (analysis.h), so these two are not divergent */
    instr += 2;
    active += 1;
    idle += B - 1;
    /* global: each warp loads 32 consecutive floats, 128 aligned bytes = 4 sectors; one store */
    uint64_t sectors = (B / WARP) * (WARP * 4 / 32) + 1;

    trace t;
    if (trace_block("v1", B, N, &t)) return;
    CHECK(t.npasses == 2 && t.passes[0].grid == BLOCKS, "v1: pass 0 has %u blocks, expected %d", t.passes[0].grid, BLOCKS);
    analysis_grid g;
    CHECK(analysis_grid_build(&t, &g) == 0, "v1: grid");
    analysis_counters c;
    int nb = analysis_grid_totals(&g, 0, &c);
    CHECK(nb == BLOCKS, "v1: %d blocks traced", nb);
    CHECK(c.warp_instructions == BLOCKS * instr, "v1: %llu warp instructions, expected %d x %llu", (unsigned long long)c.warp_instructions, BLOCKS, (unsigned long long)instr);
    CHECK(c.divergent_warp_instructions == BLOCKS * divergent, "v1: %llu divergent, expected %d x %llu", (unsigned long long)c.divergent_warp_instructions, BLOCKS, (unsigned long long)divergent);
    CHECK(c.bank_conflicts_load == BLOCKS * ld && c.bank_conflicts_store == BLOCKS * st, "v1: conflicts %llu/%llu, expected %d x %llu/%llu",
          (unsigned long long)c.bank_conflicts_load, (unsigned long long)c.bank_conflicts_store, BLOCKS, (unsigned long long)ld, (unsigned long long)st);
    CHECK(c.active_threads == BLOCKS * active && c.idle_threads == BLOCKS * idle, "v1: active %llu idle %llu, expected %d x %llu, %llu",
          (unsigned long long)c.active_threads, (unsigned long long)c.idle_threads, BLOCKS, (unsigned long long)active, (unsigned long long)idle);
    CHECK(c.barriers == BLOCKS * barriers, "v1: %llu barriers, expected %d x %llu", (unsigned long long)c.barriers, BLOCKS, (unsigned long long)barriers);
    CHECK(c.global_sectors == BLOCKS * sectors && c.global_sectors_min == BLOCKS * sectors, "v1: sectors %llu/%llu, expected %d x %llu",
          (unsigned long long)c.global_sectors, (unsigned long long)c.global_sectors_min, BLOCKS, (unsigned long long)sectors);
    /* the textbook's figure for one block at stride 1: a 2-way conflict on every full-warp access */
    CHECK(ld > 0 && st > 0, "v1: the formula gives no conflicts");
    analysis_grid_free(&g);
    trace_free(&t);
}

/* A block's state at a point of the trace: waiting before its first event, at a barrier right after
 * its barrier events, running at its accesses, done after its last event. */
static void states_follow_the_events(void)
{
    trace t;
    if (trace_block("v2", 64, 64 * 6, &t)) return;
    analysis_grid g;
    CHECK(analysis_grid_build(&t, &g) == 0, "grid");
    for (unsigned b = 0; b < t.passes[0].grid; b++) {
        const analysis_block *ab = analysis_grid_find(&g, 0, b);
        CHECK(ab != NULL, "block %u", b);
        if (!ab) continue;
        size_t first = g.order[ab->first], last = g.order[ab->first + ab->count - 1];
        if (first > 0) CHECK(analysis_block_state_at(&t, &g, ab, first - 1) == ANALYSIS_BLOCK_WAITING, "block %u before its start", b);
        CHECK(analysis_block_state_at(&t, &g, ab, last) == ANALYSIS_BLOCK_DONE, "block %u at its end", b);
        for (size_t k = 0; k + 1 < ab->count; k++) {
            size_t ev = g.order[ab->first + k];
            analysis_block_state st = analysis_block_state_at(&t, &g, ab, ev);
            int barrier = t.events[ev].kind == TRACE_BARRIER;
            CHECK(st == (barrier ? ANALYSIS_BLOCK_AT_BARRIER : ANALYSIS_BLOCK_RUNNING), "block %u event %zu: state %d", b, ev, (int)st);
        }
        /* v2's partial is the block's sum of its 64 inputs */
        double sum = 0;
        for (size_t k = 0; k < ab->count; k++) {
            const trace_event *e = &t.events[g.order[ab->first + k]];
            if (e->kind != TRACE_GLOBAL_LOAD) continue;
            for (int j = 0; j < __builtin_popcount(e->mask); j++) sum += trace_lane_value(&t, e, (size_t)j, 0);
        }
        CHECK(ab->has_partial && (double)ab->partial == sum, "block %u: partial %g, its inputs sum to %g", b, (double)ab->partial, sum);
    }
    analysis_grid_free(&g);
    trace_free(&t);
}

int main(void)
{
    states_follow_the_events();
    for (size_t i = 0; i < ladder_count; i++) sums_per_block(&ladder_versions[i]);
    v1_launch_is_blocks_times_one();
    CHECK_DONE("launch_counters_should_sum_over_blocks");
}
