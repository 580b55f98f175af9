/* Fuzz target: the JSON trace reader. Whatever the bytes, it returns a trace or a message; a trace
 * it returns passes trace_check and writes back to JSON that reads back equal (no crash, hang,
 * leak, or trace that the reader accepts but cannot round-trip). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "mutate.h"

FUZZ_STRUCTURED(fuzz_mutate_json)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace t, u;
    char err[256] = "";
    if (trace_from_json(&t, (const char *)data, size, err, sizeof err)) {
        if (!err[0]) abort(); /* a rejection always says why */
        return 0;
    }
    if (trace_check(&t, err, sizeof err)) abort();
    char *json = trace_to_json(&t);
    if (json) {
        if (trace_from_json(&u, json, strlen(json), err, sizeof err)) abort();
        if (!trace_equal(&t, &u)) abort();
        trace_free(&u);
        free(json);
    }
    trace_free(&t);
    return 0;
}
