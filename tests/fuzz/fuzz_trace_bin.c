/* Fuzz target: the compact trace reader (.wstrace). Whatever the bytes, it returns a trace or a
 * message; a trace it returns passes trace_check and encodes back to the same trace. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace/trace_internal.h"
#include "mutate.h"

FUZZ_STRUCTURED(fuzz_mutate_trace_bin)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace t, u;
    char err[256] = "";
    if (trace_from_bin(&t, data, size, err, sizeof err)) {
        if (!err[0]) abort();
        return 0;
    }
    if (trace_check(&t, err, sizeof err)) abort();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        int rc = trace_write_bin(&t, f, NULL);
        fclose(f);
        if (rc == 0) {
            if (trace_from_bin(&u, buf, len, err, sizeof err)) abort();
            if (!trace_equal(&t, &u)) abort();
            trace_free(&u);
        }
        free(buf);
    }
    trace_free(&t);
    return 0;
}
