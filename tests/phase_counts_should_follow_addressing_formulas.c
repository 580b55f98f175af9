/* v0, v1 and v2 at several block sizes: per phase, the active and idle threads, warp instructions,
 * divergent warp instructions and bank conflicts must be what their addressing formulas give.
 * The expectations are worked out here from the formulas alone:
 *   v0: thread tid works at stride s if tid % (2s) == 0, on words tid and tid + s;
 *   v1: index = 2*s*tid works if index < B, on words index and index + s;
 *   v2: tid works if tid < s (s from B/2 down), on words tid and tid + s.
 * A warp's access of words w(lane) has conflict degree = the most distinct words in one bank
 * (word % 32); the extra wavefronts are degree - 1. */
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/capture/capture.h"
#include "check.h"

typedef struct expect {
    unsigned active, warp_instr, divergent, conflicts_ld, conflicts_st;
} expect;

/* degree of one warp access: words[] of the active lanes */
static unsigned degree(const long *words, int n)
{
    unsigned best = 0;
    for (int b = 0; b < 32; b++) {
        long seen[32];
        unsigned k = 0;
        for (int i = 0; i < n; i++) {
            if (words[i] % 32 != b) continue;
            int dup = 0;
            for (unsigned j = 0; j < k; j++) dup |= seen[j] == words[i];
            if (!dup) seen[k++] = words[i];
        }
        if (k > best) best = k;
    }
    return best;
}

/* the word thread tid adds into at stride s, or -1 if it does not work */
static long target(int version, unsigned tid, unsigned s, unsigned B)
{
    switch (version) {
    case 0: return tid % (2 * s) == 0 ? (long)tid : -1;
    case 1: return 2L * s * tid < B ? 2L * s * tid : -1;
    default: return tid < s ? (long)tid : -1;
    }
}

static void expect_tree_phase(int version, unsigned B, unsigned s, expect *x)
{
    memset(x, 0, sizeof *x);
    for (unsigned w = 0; w < B / 32; w++) {
        long lhs[32], rhs[32];
        int n = 0;
        for (unsigned l = 0; l < 32; l++) {
            long a = target(version, w * 32 + l, s, B);
            if (a < 0) continue;
            lhs[n] = a;
            rhs[n] = a + s;
            n++;
        }
        if (!n) continue;
        x->active += (unsigned)n;
        x->warp_instr += 3; /* load, load, store */
        if (n < 32) x->divergent += 3;
        x->conflicts_ld += degree(lhs, n) - 1 + degree(rhs, n) - 1;
        x->conflicts_st += degree(lhs, n) - 1;
    }
}

int main(void)
{
    static const unsigned blocks[] = {64, 256, 1024};
    static const char *const ids[] = {"v0", "v1", "v2"};
    for (int version = 0; version < 3; version++) {
        for (size_t bi = 0; bi < 3; bi++) {
            unsigned B = blocks[bi], steps = 0;
            while ((1u << steps) < B) steps++;
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = ids[version];
            d.block = B;
            trace t;
            trace_init(&t);
            char err[256];
            int rc = capture_cpu(&d, &t, err, sizeof err);
            CHECK(rc == 0, "%s: %s", ids[version], err);
            if (rc) continue;
            analysis_counters *ph, tot;
            size_t nph;
            rc = analysis_phases(&t, 0, 0, &ph, &nph, &tot);
            CHECK(rc == 0 && nph == steps + 2, "%s block %u: %zu phases, expected %u", ids[version], B, nph, steps + 2);
            if (rc || nph != steps + 2) { trace_free(&t); free(ph); continue; }
            /* phase 0: every thread loads one element and stores it at sdata[tid] */
            CHECK(ph[0].active_threads == B && ph[0].idle_threads == 0, "%s block %u phase 0: active %llu", ids[version], B,
                  (unsigned long long)ph[0].active_threads);
            CHECK(ph[0].warp_instructions == 2 * B / 32 && ph[0].bank_conflicts_store == 0, "%s block %u phase 0", ids[version], B);
            for (unsigned k = 1; k <= steps; k++) {
                unsigned s = version == 2 ? B >> k : 1u << (k - 1);
                expect x;
                expect_tree_phase(version, B, s, &x);
                const analysis_counters *c = &ph[k];
                CHECK(c->active_threads == x.active && c->idle_threads == B - x.active,
                      "%s block %u phase %u (s=%u): active %llu idle %llu, expected %u and %u", ids[version], B, k, s,
                      (unsigned long long)c->active_threads, (unsigned long long)c->idle_threads, x.active, B - x.active);
                CHECK(c->warp_instructions == x.warp_instr && c->divergent_warp_instructions == x.divergent,
                      "%s block %u phase %u: instructions %llu divergent %llu, expected %u and %u", ids[version], B, k,
                      (unsigned long long)c->warp_instructions, (unsigned long long)c->divergent_warp_instructions,
                      x.warp_instr, x.divergent);
                CHECK(c->bank_conflicts_load == x.conflicts_ld && c->bank_conflicts_store == x.conflicts_st,
                      "%s block %u phase %u: conflicts %llu/%llu, expected %u/%u", ids[version], B, k,
                      (unsigned long long)c->bank_conflicts_load, (unsigned long long)c->bank_conflicts_store,
                      x.conflicts_ld, x.conflicts_st);
            }
            /* last phase: thread 0 reads sdata[0] and writes the block's result */
            const analysis_counters *c = &ph[steps + 1];
            CHECK(c->active_threads == 1 && c->warp_instructions == 2, "%s block %u last phase: active %llu",
                  ids[version], B, (unsigned long long)c->active_threads);
            free(ph);
            trace_free(&t);
        }
    }
    /* the textbook's numbers: v1 at stride 1 is a 2-way conflict on every access of a full warp */
    {
        expect x;
        expect_tree_phase(1, 256, 1, &x);
        CHECK(x.conflicts_ld == 8 && x.conflicts_st == 4, "hand count: 4 warps x (1 + 1) and 4 x 1, got %u/%u",
              x.conflicts_ld, x.conflicts_st);
    }
    CHECK_DONE("phase_counts_should_follow_addressing_formulas");
}
