/* Race-free code gives the right sum and no hazard under every schedule: lockstep, independent
 * thread scheduling with several seeds, one lane at a time in either direction, the adversarial
 * search, and the warps of a block in order, reversed or shuffled. The versions are those whose
 * files hold no textbook `volatile` tail (v4, v5 and v6 do) and that do not race on purpose.
 * Right means within the float error bound of a double-precision sum computed here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "trace/ladder.h"

int main(void)
{
    static const char *const versions[] = {"naive", "v0", "v1", "v2", "v3", "v4s", "v7", "v8"};
    static const struct { const char *lanes, *warps; } schedules[] = {
        {"lockstep", NULL},     {"lockstep", "reversed"}, {"its:1", NULL},        {"its:2", "seeded:2"},
        {"its:99", "reversed"}, {"lanes-up", NULL},       {"lanes-down", "seeded:7"}, {"adversarial", NULL},
    };
    static const unsigned blocks[] = {64, 256};
    for (size_t vi = 0; vi < sizeof versions / sizeof *versions; vi++) {
        const ladder_version *v = ladder_find(versions[vi]);
        CHECK(v && !v->races, "%s: not a race-free version", versions[vi]);
        for (size_t bi = 0; bi < 2; bi++) {
            uint64_t n = 3ull * blocks[bi] * v->ept_default + 7; /* several blocks, a ragged end */
            float *x = malloc(n * sizeof *x);
            input_fill("random-float", 5, x, n);
            double ref = 0, abs_sum = 0;
            for (uint64_t i = 0; i < n; i++) { ref += x[i]; abs_sum += fabs(x[i]); }
            double tol = (ceil(log2((double)n + 1)) + 2) * ldexp(1.0, -24) * abs_sum;
            free(x);
            for (size_t si = 0; si < sizeof schedules / sizeof *schedules; si++) {
                capture_desc d;
                memset(&d, 0, sizeof d);
                d.version = versions[vi];
                d.block = blocks[bi];
                d.n = n;
                d.data = "random-float";
                d.seed = 5;
                d.seed_set = 1;
                d.blocks_traced = 2;
                d.schedule = schedules[si].lanes;
                d.warp_order = schedules[si].warps;
                trace t;
                trace_init(&t);
                char err[256];
                int rc = capture_cpu(&d, &t, err, sizeof err);
                CHECK(rc == 0, "%s block %u %s: %s", d.version, d.block, d.schedule, err);
                if (rc) continue;
                CHECK(fabs((double)t.result - ref) <= tol, "%s block %u %s/%s: result %.9g, reference %.17g", d.version,
                      d.block, d.schedule, d.warp_order ? d.warp_order : "in-order", (double)t.result, ref);
                CHECK(t.nhazards == 0, "%s block %u %s: %zu hazards, first between lines %u and %u", d.version, d.block,
                      d.schedule, t.nhazards, t.nhazards ? t.hazards[0].first.line : 0, t.nhazards ? t.hazards[0].second.line : 0);
                CHECK(strcmp(t.prov.race_check, "shared+global") == 0, "%s: race check \"%s\"", d.version, t.prov.race_check);
                trace_free(&t);
            }
        }
    }
    CHECK_DONE("schedules_should_keep_race_free_versions_right");
}
