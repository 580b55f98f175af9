/* input: the data patterns (see input.h). */
#include "trace/input.h"

#include <string.h>

const char *const input_patterns[] = {"ones", "ramp", "random-int", "random-float", "random-negative", NULL};

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int input_fill(const char *pattern, uint64_t seed, float *x, uint64_t n)
{
    uint64_t s = seed;
    if (strcmp(pattern, "ones") == 0) {
        for (uint64_t i = 0; i < n; i++) x[i] = 1.0f;
    } else if (strcmp(pattern, "ramp") == 0) {
        for (uint64_t i = 0; i < n; i++) x[i] = (float)i;
    } else if (strcmp(pattern, "random-int") == 0) { /* 0..9: sums stay exact and readable */
        for (uint64_t i = 0; i < n; i++) x[i] = (float)(splitmix64(&s) % 10);
    } else if (strcmp(pattern, "random-float") == 0) { /* uniform in [-1, 1) */
        for (uint64_t i = 0; i < n; i++) x[i] = (float)((double)(splitmix64(&s) >> 40) / (double)(1ull << 23) - 1.0);
    } else if (strcmp(pattern, "random-negative") == 0) { /* uniform in [-2, -1): a maximum whose identity is not 0 */
        for (uint64_t i = 0; i < n; i++) x[i] = (float)((double)(splitmix64(&s) >> 40) / (double)(1ull << 24) - 2.0);
    } else {
        return -1;
    }
    return 0;
}

