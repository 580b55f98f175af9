/* trace_internal: what the trace encodings share with the file functions (not public API). */
#ifndef WARPSCOPE_TRACE_INTERNAL_H
#define WARPSCOPE_TRACE_INTERNAL_H

#include <stdio.h>

#include "trace/trace.h"

/* The compact encoding to an open file. 0; -1 on a write error; -2 when *cancel became nonzero. */
int trace_write_bin(const trace *t, FILE *f, volatile int *cancel);

/* The JSON reader on text that is already NUL-terminated at len (no copy): trace_read_file. */
int trace_from_json_text(trace *t, const char *text, size_t len, char *err, size_t errlen);
/* Large arrays filled at once: offers the 2 MiB-aligned part of [p, p + bytes) to the kernel as
 * huge pages (Linux), one fault per 2 MiB instead of per 4 KiB; a whole-grid trace is over 100 MB
 * and the faults were a third of the time to build or load it. */
void trace_advise_huge(void *p, size_t bytes);

/* A reader's error: the first one it meets is kept in err, what follows it is not. */
typedef struct reader_error {
    char *err;
    size_t errlen;
    int failed;
} reader_error;
void reader_fail(reader_error *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
