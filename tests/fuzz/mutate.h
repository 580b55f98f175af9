/* Structure-aware mutations for the fuzz targets: a real trace, lesson or results file changed one
 * field at a time (a count to 2^32 - 1, a range to 2^40, a query nested deep, a member dropped or
 * repeated), so that what the fuzzers try is well formed where it must be and hostile where it
 * can be, as a crafted file is. Each target's LLVMFuzzerCustomMutator calls one of these and falls
 * back to libFuzzer's byte mutations when it returns 0. */
#ifndef WARPSCOPE_FUZZ_MUTATE_H
#define WARPSCOPE_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

/* data as JSON: one node changed; the new size, or 0 when data is not JSON or would not fit max */
size_t fuzz_mutate_json(uint8_t *data, size_t size, size_t max, unsigned seed);
/* data as a compact trace (.wstrace): one field of its passes, events, lanes, hazards or runs
 * changed and encoded again (the reader's checks are what is fuzzed); 0 when it does not decode */
size_t fuzz_mutate_trace_bin(uint8_t *data, size_t size, size_t max, unsigned seed);

/* compact when it starts with the compact encoding's magic, else JSON */
size_t fuzz_mutate_any(uint8_t *data, size_t size, size_t max, unsigned seed);

/* libFuzzer's own mutator (replay.c stands in for it where libFuzzer is not linked) */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

/* A target's mutator: three times in four a structural change, else (or when it cannot) bytes. */
#define FUZZ_STRUCTURED(fn)                                                                   \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed); \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)  \
    {                                                                                         \
        size_t n = seed % 4 ? fn(data, size, max, seed) : 0;                                  \
        return n ? n : LLVMFuzzerMutate(data, size, max);                                     \
    }

#endif
