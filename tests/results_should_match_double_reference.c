/* Every version (but those that race on purpose), several block sizes and awkward n (1, primes, not multiples of 4 or of the block),
 * on random floats: the result must be within the float error bound of a double-precision sum
 * computed here, from the same generated input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "trace/ladder.h"

int main(void)
{
    static const unsigned blocks[] = {32, 64, 256, 1024};
    static const uint64_t ns[] = {1, 2, 7, 33, 1000, 4099};
    for (size_t vi = 0; vi < ladder_count; vi++) {
        const ladder_version *v = &ladder_versions[vi];
        if (v->races) continue; /* wrong on purpose: races_should_be_found_and_can_break_the_result */
        for (size_t bi = 0; bi < sizeof blocks / sizeof *blocks; bi++) {
            if (blocks[bi] < v->min_block) continue;
            for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
                uint64_t n = ns[ni];
                capture_desc d;
                memset(&d, 0, sizeof d);
                d.version = v->id;
                d.block = blocks[bi];
                d.n = n;
                d.data = "random-float";
                d.seed = 1000 + ni;
                d.seed_set = 1;
                trace t;
                trace_init(&t);
                char err[256];
                int rc = capture_cpu(&d, &t, err, sizeof err);
                CHECK(rc == 0, "%s block %u n %llu: %s", v->id, blocks[bi], (unsigned long long)n, err);
                if (rc) continue;
                float *x = malloc(n * sizeof *x);
                input_fill("random-float", d.seed, x, n);
                double ref = 0, abs_sum = 0;
                for (uint64_t i = 0; i < n; i++) { ref += x[i]; abs_sum += fabs(x[i]); }
                /* a float tree sum of depth d errs by at most about (d + 2) ulp-relative steps */
                double tol = (ceil(log2((double)n + 1)) + 2) * ldexp(1.0, -24) * abs_sum;
                CHECK(fabs((double)t.result - ref) <= tol, "%s block %u n %llu: result %.9g, reference %.17g, tolerance %.3g",
                      v->id, blocks[bi], (unsigned long long)n, (double)t.result, ref, tol);
                free(x);
                trace_free(&t);
            }
        }
    }
    /* integers sum exactly: any lost or doubled element shows */
    for (size_t vi = 0; vi < ladder_count; vi++) {
        if (ladder_versions[vi].races) continue;
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = ladder_versions[vi].id;
        d.n = 5001;
        d.data = "ones";
        trace t;
        trace_init(&t);
        char err[256];
        CHECK(capture_cpu(&d, &t, err, sizeof err) == 0, "%s: %s", d.version, err);
        CHECK(t.result == 5001.0f, "%s: sum of 5001 ones is %.9g", d.version, (double)t.result);
        trace_free(&t);
    }
    CHECK_DONE("results_should_match_double_reference");
}
