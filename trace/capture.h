/* capture: runs a version's whole launch plan in the emulator and records the trace.
 * Also the input data patterns and the double-precision reference every result is checked with. */
#ifndef WARPSCOPE_CAPTURE_H
#define WARPSCOPE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero fields take defaults: block 256 (or the version's nearest), n = one block's worth
 * (block * elements per thread), data "random-int", seed 1, the version's elements per thread,
 * 1 traced block per pass. */
typedef struct capture_desc {
    const char *version;
    unsigned block;
    uint64_t n;
    const char *data;
    uint64_t seed;
    int seed_set;          /* seed 0 is a valid seed: say it was given */
    unsigned ept;
    unsigned blocks_traced;
} capture_desc;

extern const char *const capture_patterns[]; /* NULL-terminated: ones, ramp, random-int, random-float */

/* 0, or -1 with a message naming what was wrong. t must be initialised; on success it holds the
 * trace (with provenance, result and reference). */
int capture_cpu(const capture_desc *d, trace *t, char *err, size_t errlen);

int capture_fill(const char *pattern, uint64_t seed, float *x, uint64_t n); /* -1: unknown pattern */
double capture_reference(const float *x, uint64_t n);
/* |result - reference| allowed for a float tree sum of n terms: (ceil(log2 n) + 2) * 2^-24 * sum|x|. */
double capture_tolerance(const float *x, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif
