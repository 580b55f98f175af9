/* Fuzz target: the benchmark results reader. A results set it returns has finite numbers in the
 * documented ranges (what the chart's loops and scales rely on). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "trace/results.h"
#include "mutate.h"

FUZZ_STRUCTURED(fuzz_mutate_json)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    results r;
    char err[256] = "";
    if (results_parse(&r, (const char *)data, size, err, sizeof err)) {
        if (!err[0]) abort();
        return 0;
    }
    for (size_t i = 0; i < r.nrows; i++) {
        const results_row *w = &r.rows[i];
        if (w->n < 1 || (double)w->n > RESULTS_N_MAX || !isfinite(w->ms) || !isfinite(w->gbs) || w->ms < 0 || w->gbs < 0) abort();
        if (results_find_mode(&r, w->name, w->n, w->mode) == NULL) abort(); /* every row is found in its own mode */
    }
    uint64_t sizes[64];
    size_t n = results_sizes(&r, sizes, 64);
    for (size_t i = 1; i < n; i++)
        if (sizes[i - 1] >= sizes[i]) abort(); /* ascending and distinct */
    results_free(&r);
    return 0;
}
