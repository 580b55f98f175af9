/* results: the benchmark's results files (warpscope bench --json), read back for the app's
 * benchmark view and the lessons. Rejects a malformed file with the place that is wrong.
 *
 * One file is one run on one GPU. Schema 2 (this bench) holds, per size and timing mode, a row per
 * version, CUB, Thrust, a device-to-device copy and the best read-only kernel, each with its time,
 * GB/s and (for sums) its error against a double-precision reference; per size, whether it is
 * launch-latency bound and the error of a serial float loop. Schema 1 files (one mode, no accuracy,
 * a "read-ceiling" row) still read: their rows are per-launch rows without accuracy.
 *
 * What a benchmark view needs:
 *   results_set_read_dir(&set, "assets", ...)     every GPU's file (bench-*.json), to switch between
 *   set.runs[i].device / driver / toolkit / date   provenance, spec_peak_gbs, sm_count
 *   results_has_mode(r, RESULTS_BATCH)            which timing modes the run has; results_mode_title
 *   results_sizes(r, sizes, max)                   the sizes, ascending
 *   results_rows_at(r, n, mode, rows, max)         the rows of one size and mode, in bench order:
 *                                                  versions (kind "version"), then "cub", "thrust"
 *                                                  (kind "library"), "d2d-copy", "best-read"
 *   results_find_mode(r, "v8", n, mode)            one row; results_find(r, name, n) is the
 *                                                  per-launch row (every file has that mode)
 *   row->ms, gbs, ok, rel_error, ulps, variant     the figures (us = ms * 1000)
 *   results_size_at(r, n)                          latency_bound, spec_us, serial_rel_error/ulps
 */
#ifndef WARPSCOPE_RESULTS_H
#define WARPSCOPE_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the reader accepts: far beyond any real run, and small enough that the chart's loops over
 * sizes and its scales stay finite. Every number must be finite. */
enum { RESULTS_ROWS_MAX = 10000, RESULTS_REPS_MAX = 1000000000 };
#define RESULTS_FILE_BYTES_MAX ((size_t)4 << 20) /* the H100 file is tens of KB; parsed whole, at about 20 times its size */
#define RESULTS_N_MAX 1099511627776.0            /* 2^40 elements */
#define RESULTS_NUMBER_MAX 1e15                  /* any time, rate, error or count */

typedef enum results_mode {
    RESULTS_LAUNCH, /* CUDA events around each run, the median */
    RESULTS_BATCH,  /* CUDA events around many back-to-back runs, the mean (how published numbers are timed) */
    RESULTS_NMODES
} results_mode;

typedef struct results_row {
    char name[24];    /* a version id, "cub", "thrust", "d2d-copy", "best-read" ("read-ceiling" in schema 1) */
    char kind[12];    /* "version", "library", "copy" or "read" */
    char variant[64]; /* best-read: the read kernel that won; libraries: the call; else "" */
    results_mode mode;
    uint64_t n;
    double ms, gbs;   /* median (launch) or mean (batch) time of one run; bytes read / time */
    int ok;           /* 0: the result was wrong, so it was not timed (ms and gbs are 0) */
    double rel_error; /* worst |sum - exact| / |exact| over the checked runs; < 0: not a sum or not recorded */
    double ulps;      /* the same error in units in the last place of the float nearest the exact sum */
    double best_read_ratio; /* gbs over the best read's at the same size and mode; < 0: not recorded */
} results_row;

typedef struct results_size {
    uint64_t n;
    int latency_bound;       /* at the spec peak the bytes take less than an empty kernel's launch */
    double spec_us;          /* the bytes at the spec peak, in microseconds; < 0: not recorded */
    double serial_rel_error; /* a serial float loop's error on the same data; < 0: not recorded */
    double serial_ulps;
} results_size;

typedef struct results {
    char device[96], driver[96], toolkit[32], date[32];
    int schema_version;
    double spec_peak_gbs;
    int reps, sm_count; /* sm_count 0: not recorded */
    int has_mode[RESULTS_NMODES];
    double empty_kernel_us[RESULTS_NMODES]; /* an empty kernel's time in each mode; < 0: not recorded */
    results_row *rows;
    size_t nrows;
    results_size *sizes; /* one per size that has rows, ascending */
    size_t nsizes;
} results;

/* 0, or -1 with "path:line:column: ..." or "path: rows[3].gbs: ..." in err. */
int results_read_file(results *r, const char *path, char *err, size_t errlen);
int results_parse(results *r, const char *text, size_t len, char *err, size_t errlen);
void results_free(results *r);

/* "launch" / "batch", and a one-line description of how that mode times. */
const char *results_mode_id(results_mode m);
const char *results_mode_title(results_mode m);
int results_has_mode(const results *r, results_mode m);

/* The row for (name, n, mode), or NULL. results_find: the per-launch row. "read-ceiling" and
 * "best-read" both name the read-only row, whichever schema the file has. */
const results_row *results_find_mode(const results *r, const char *name, uint64_t n, results_mode mode);
const results_row *results_find(const results *r, const char *name, uint64_t n);
/* The distinct sizes, ascending; returns how many (at most max). */
size_t results_sizes(const results *r, uint64_t *sizes, size_t max);
/* Pointers to the rows of one size and mode, in file order; returns how many (at most max). */
size_t results_rows_at(const results *r, uint64_t n, results_mode mode, const results_row **rows, size_t max);
/* What is known of one size, or NULL. */
const results_size *results_size_at(const results *r, uint64_t n);

/* Several runs, one per GPU. */
typedef struct results_set {
    results *runs;
    size_t count;
} results_set;

/* Every bench-*.json in dir, in name order; -1 with the file and place in err if one is malformed
 * or none is there. */
int results_set_read_dir(results_set *s, const char *dir, char *err, size_t errlen);
/* The named files, in that order. */
int results_set_read_files(results_set *s, const char *const *paths, size_t count, char *err, size_t errlen);
void results_set_free(results_set *s);

#ifdef __cplusplus
}
#endif
#endif
