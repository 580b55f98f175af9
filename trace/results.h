/* results: the benchmark's results file (warpscope bench --json), read back for the app's
 * benchmark view. Rejects a malformed file with the place that is wrong. */
#ifndef WARPSCOPE_RESULTS_H
#define WARPSCOPE_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the reader accepts: far beyond any real run, and small enough that the chart's loops over
 * sizes and its scales stay finite. */
enum { RESULTS_ROWS_MAX = 10000, RESULTS_REPS_MAX = 1000000000 };
#define RESULTS_FILE_BYTES_MAX ((size_t)4 << 20) /* the H100 file is 27 KB; parsed whole, at about 20 times its size */
#define RESULTS_N_MAX 1099511627776.0 /* 2^40 elements */
#define RESULTS_MS_MAX 86400000.0     /* a day */
#define RESULTS_GBS_MAX 1000000.0     /* 1 PB/s */

typedef struct results_row {
    char name[24];
    uint64_t n;
    double ms, gbs;
    int ok;
} results_row;

typedef struct results {
    char device[96], driver[96], toolkit[32], date[32];
    double spec_peak_gbs;
    int reps;
    results_row *rows;
    size_t nrows;
} results;

/* 0, or -1 with "path:line:column: ..." or "path: rows[3].gbs: ..." in err. Every number is
 * checked finite and within the limits above. */
int results_read_file(results *r, const char *path, char *err, size_t errlen);
int results_parse(results *r, const char *text, size_t len, char *err, size_t errlen);
void results_free(results *r);
/* The row for (name, n), or NULL. */
const results_row *results_find(const results *r, const char *name, uint64_t n);
/* The distinct sizes, ascending; returns how many (at most max). */
size_t results_sizes(const results *r, uint64_t *sizes, size_t max);

#ifdef __cplusplus
}
#endif
#endif
