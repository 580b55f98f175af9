/* input: the data patterns a capture reduces (ones, ramp, random-int, random-float, random-negative), generated
 * from a pattern's name and a seed. The capture fills its input with them; a query regenerates a
 * trace's input from its provenance (the largest element, for an exercise on another operator). */
#ifndef WARPSCOPE_INPUT_H
#define WARPSCOPE_INPUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern const char *const input_patterns[]; /* NULL-terminated: ones, ramp, random-int, random-float, random-negative */

/* x[0..n) from the pattern; -1 for an unknown pattern */
int input_fill(const char *pattern, uint64_t seed, float *x, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif
