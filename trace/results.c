/* results: reading warpscope-bench JSON (schemas 1 and 2) with cJSON, every field checked. */
#define _DEFAULT_SOURCE /* dirent's d_name and opendir under -std=c11 */
#include "trace/results.h"
#include "trace/trace.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/json_internal.h"

static const struct {
    const char *id, *title;
} mode_names[RESULTS_NMODES] = {
    {"launch", "per launch: CUDA events around each run, the median"},
    {"batch", "batch: CUDA events around many back-to-back runs, the mean"},
};

/* schema 1 rows carry no kind: it follows from the name */
static const struct {
    const char *name, *kind;
} v1_kinds[] = {{"cub", "library"}, {"thrust", "library"}, {"d2d-copy", "copy"}, {"read-ceiling", "read"}};

static const char *const kinds[] = {"version", "library", "copy", "read", "kernel"}; /* kernel: one of the learner's own */

const char *results_mode_id(results_mode m) { return (unsigned)m < RESULTS_NMODES ? mode_names[m].id : "?"; }
const char *results_mode_title(results_mode m) { return (unsigned)m < RESULTS_NMODES ? mode_names[m].title : "?"; }
int results_has_mode(const results *r, results_mode m) { return (unsigned)m < RESULTS_NMODES && r->has_mode[m]; }

void results_free(results *r)
{
    free(r->rows);
    free(r->sizes);
    memset(r, 0, sizeof *r);
}

static int str_field(const cJSON *o, const char *key, char *dst, size_t cap, const char *where, char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(it) || strlen(it->valuestring) >= cap) {
        snprintf(err, errlen, "%s%s: expected a string of at most %zu bytes", where, key, cap - 1);
        return -1;
    }
    strcpy(dst, it->valuestring);
    return 0;
}

/* optional: absent leaves dst as it is */
static int opt_str_field(const cJSON *o, const char *key, char *dst, size_t cap, const char *where, char *err, size_t errlen)
{
    if (!cJSON_GetObjectItemCaseSensitive(o, key)) return 0;
    return str_field(o, key, dst, cap, where, err, errlen);
}

static int num_field(const cJSON *o, const char *key, double lo, double *out, const char *where, char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= lo && it->valuedouble <= RESULTS_NUMBER_MAX)) { /* NaN, infinities fail too */
        snprintf(err, errlen, "%s%s: expected a number from %g to %g", where, key, lo, RESULTS_NUMBER_MAX);
        return -1;
    }
    *out = it->valuedouble;
    return 0;
}

static int opt_num_field(const cJSON *o, const char *key, double *out, const char *where, char *err, size_t errlen)
{
    if (!cJSON_GetObjectItemCaseSensitive(o, key)) return 0;
    return num_field(o, key, 0, out, where, err, errlen);
}

static int bool_field(const cJSON *o, const char *key, int *out, const char *where, char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsBool(it)) {
        snprintf(err, errlen, "%s%s: expected true or false", where, key);
        return -1;
    }
    *out = cJSON_IsTrue(it);
    return 0;
}

static int whole_field(const cJSON *o, const char *key, double lo, uint64_t *out, const char *where, char *err, size_t errlen)
{
    double v;
    if (num_field(o, key, lo, &v, where, err, errlen)) return -1;
    if (v != floor(v) || v > RESULTS_N_MAX) { /* n = 1e19 once made the chart's loop over sizes run for ever */
        snprintf(err, errlen, "%s%s: expected a whole number from %g to %g", where, key, lo, RESULTS_N_MAX);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

static int mode_of(const char *id, results_mode *m)
{
    for (int k = 0; k < RESULTS_NMODES; k++)
        if (strcmp(id, mode_names[k].id) == 0) {
            *m = (results_mode)k;
            return 0;
        }
    return -1;
}

static int parse_modes(results *r, const cJSON *root, char *err, size_t errlen)
{
    const cJSON *modes = cJSON_GetObjectItemCaseSensitive(root, "modes");
    if (!cJSON_IsArray(modes) || cJSON_GetArraySize(modes) < 1) {
        snprintf(err, errlen, "modes: expected a non-empty array");
        return -1;
    }
    int i = 0;
    for (const cJSON *x = modes->child; x; x = x->next, i++) {
        char where[32], id[16];
        snprintf(where, sizeof where, "modes[%d].", i);
        results_mode m;
        if (str_field(x, "id", id, sizeof id, where, err, errlen)) return -1;
        if (mode_of(id, &m)) {
            snprintf(err, errlen, "%sid: expected \"launch\" or \"batch\", got \"%s\"", where, id);
            return -1;
        }
        r->has_mode[m] = 1;
        if (opt_num_field(x, "empty_kernel_us", &r->empty_kernel_us[m], where, err, errlen)) return -1;
    }
    return 0;
}

static int parse_row(results_row *row, const cJSON *x, int schema, const results *r, const char *where, char *err, size_t errlen)
{
    row->rel_error = row->ulps = row->best_read_ratio = -1;
    row->mode = RESULTS_LAUNCH;
    if (str_field(x, "name", row->name, sizeof row->name, where, err, errlen) ||
        whole_field(x, "n", 1, &row->n, where, err, errlen) || bool_field(x, "ok", &row->ok, where, err, errlen) ||
        num_field(x, "ms", 0, &row->ms, where, err, errlen) || num_field(x, "gbs", 0, &row->gbs, where, err, errlen))
        return -1;
    if (row->ok && (row->ms <= 0 || row->gbs <= 0)) {
        snprintf(err, errlen, "%sms: a checked row needs a time above 0", where);
        return -1;
    }
    if (schema == 1) {
        strcpy(row->kind, "version");
        for (size_t k = 0; k < sizeof v1_kinds / sizeof *v1_kinds; k++)
            if (strcmp(row->name, v1_kinds[k].name) == 0) strcpy(row->kind, v1_kinds[k].kind);
        return 0;
    }
    char mode[16];
    if (str_field(x, "kind", row->kind, sizeof row->kind, where, err, errlen) ||
        str_field(x, "mode", mode, sizeof mode, where, err, errlen))
        return -1;
    int known = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) known |= strcmp(row->kind, kinds[k]) == 0;
    if (!known) {
        snprintf(err, errlen, "%skind: expected version, library, copy, read or kernel, got \"%s\"", where, row->kind);
        return -1;
    }
    if (mode_of(mode, &row->mode) || !r->has_mode[row->mode]) {
        snprintf(err, errlen, "%smode: \"%s\" is not one of the file's modes", where, mode);
        return -1;
    }
    if (opt_str_field(x, "variant", row->variant, sizeof row->variant, where, err, errlen) ||
        opt_num_field(x, "rel_error", &row->rel_error, where, err, errlen) ||
        opt_num_field(x, "ulps", &row->ulps, where, err, errlen) ||
        opt_num_field(x, "best_read_ratio", &row->best_read_ratio, where, err, errlen))
        return -1;
    if (row->best_read_ratio != -1 && !(row->best_read_ratio > 0 && row->best_read_ratio < 100)) {
        snprintf(err, errlen, "%sbest_read_ratio: expected a share of the best read above 0, got %g", where, row->best_read_ratio);
        return -1;
    }
    return 0;
}

/* schema 2's per-size facts; schema 1 gets one entry per size with nothing recorded */
static int parse_sizes(results *r, const cJSON *root, char *err, size_t errlen)
{
    uint64_t ns[256];
    size_t count = results_sizes(r, ns, 256);
    r->sizes = calloc(count ? count : 1, sizeof *r->sizes);
    if (!r->sizes) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++)
        r->sizes[i] = (results_size){ns[i], 0, -1, -1, -1};
    r->nsizes = count;
    if (r->schema_version == 1) return 0;
    const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(root, "sizes");
    if (!cJSON_IsArray(sizes)) {
        snprintf(err, errlen, "sizes: expected an array");
        return -1;
    }
    int i = 0;
    for (const cJSON *x = sizes->child; x; x = x->next, i++) {
        char where[32];
        snprintf(where, sizeof where, "sizes[%d].", i);
        uint64_t n;
        if (whole_field(x, "n", 1, &n, where, err, errlen)) return -1;
        results_size *s = NULL;
        for (size_t k = 0; k < r->nsizes; k++)
            if (r->sizes[k].n == n) s = &r->sizes[k];
        if (!s) {
            snprintf(err, errlen, "%sn: no row has n = %llu", where, (unsigned long long)n);
            return -1;
        }
        if (bool_field(x, "latency_bound", &s->latency_bound, where, err, errlen) ||
            opt_num_field(x, "spec_us", &s->spec_us, where, err, errlen) ||
            opt_num_field(x, "serial_rel_error", &s->serial_rel_error, where, err, errlen) ||
            opt_num_field(x, "serial_ulps", &s->serial_ulps, where, err, errlen))
            return -1;
    }
    return 0;
}

int results_parse(results *r, const char *text, size_t len, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    for (int m = 0; m < RESULTS_NMODES; m++) r->empty_kernel_us[m] = -1;
    cJSON *root = json_parse_at(text, len, err, errlen);
    if (!root) return -1;
    int rc = -1;
    double v;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, "warpscope-bench") != 0) {
        snprintf(err, errlen, "schema: expected \"warpscope-bench\" (is this a results file of warpscope bench --json?)");
        goto out;
    }
    r->schema_version = 1;
    const cJSON *sv = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (sv && (!cJSON_IsNumber(sv) || (sv->valuedouble != 1 && sv->valuedouble != 2))) {
        snprintf(err, errlen, "schema_version: expected 1 or 2 (a newer warpscope wrote this file?)");
        goto out;
    }
    if (sv) r->schema_version = (int)sv->valuedouble;
    if (str_field(root, "device", r->device, sizeof r->device, "", err, errlen) ||
        str_field(root, "driver", r->driver, sizeof r->driver, "", err, errlen) ||
        str_field(root, "toolkit", r->toolkit, sizeof r->toolkit, "", err, errlen) ||
        str_field(root, "date", r->date, sizeof r->date, "", err, errlen) ||
        num_field(root, "spec_peak_gbs", 1, &r->spec_peak_gbs, "", err, errlen) ||
        num_field(root, "reps", 1, &v, "", err, errlen))
        goto out;
    if (v != floor(v) || v > RESULTS_REPS_MAX) { snprintf(err, errlen, "reps: expected a whole number from 1 to %d", RESULTS_REPS_MAX); goto out; }
    r->reps = (int)v;
    if (cJSON_GetObjectItemCaseSensitive(root, "sm_count")) {
        if (num_field(root, "sm_count", 1, &v, "", err, errlen)) goto out;
        if (v != floor(v) || v > TRACE_SMS_MAX) { snprintf(err, errlen, "sm_count: expected a whole number from 1 to %d", TRACE_SMS_MAX); goto out; }
        r->sm_count = (int)v;
    }
    if (r->schema_version == 1) r->has_mode[RESULTS_LAUNCH] = 1;
    else if (parse_modes(r, root, err, errlen)) goto out;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    if (!cJSON_IsArray(rows) || cJSON_GetArraySize(rows) < 1 || cJSON_GetArraySize(rows) > RESULTS_ROWS_MAX) {
        snprintf(err, errlen, "rows: expected an array of 1 to %d rows", RESULTS_ROWS_MAX);
        goto out;
    }
    r->rows = calloc((size_t)cJSON_GetArraySize(rows), sizeof *r->rows);
    if (!r->rows) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    int i = 0;
    for (const cJSON *x = rows->child; x; x = x->next, i++) {
        char where[32];
        snprintf(where, sizeof where, "rows[%d].", i);
        if (parse_row(&r->rows[r->nrows], x, r->schema_version, r, where, err, errlen)) goto out;
        r->nrows++;
    }
    if (parse_sizes(r, root, err, errlen)) goto out;
    rc = 0;
out:
    cJSON_Delete(root);
    if (rc) results_free(r);
    return rc;
}

int results_read_file(results *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char *buf;
    size_t len;
    if (json_read_file(path, RESULTS_FILE_BYTES_MAX, &buf, &len, err, errlen)) return -1;
    char msg[256];
    int rc = results_parse(r, buf, len, msg, sizeof msg);
    free(buf);
    if (rc) snprintf(err, errlen, "%s:%s%s", path, msg[0] >= '0' && msg[0] <= '9' ? "" : " ", msg);
    return rc;
}

/* schema 1 named its read-only row "read-ceiling", schema 2 "best-read": either name finds the
 * read row of either schema, so lessons written against one read the other */
static int same_row_name(const results_row *row, const char *name)
{
    if (strcmp(row->name, name) == 0) return 1;
    return strcmp(row->kind, "read") == 0 && (strcmp(name, "read-ceiling") == 0 || strcmp(name, "best-read") == 0);
}

const results_row *results_find_mode(const results *r, const char *name, uint64_t n, results_mode mode)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].n == n && r->rows[i].mode == mode && same_row_name(&r->rows[i], name)) return &r->rows[i];
    return NULL;
}

const results_row *results_find(const results *r, const char *name, uint64_t n)
{
    return results_find_mode(r, name, n, RESULTS_LAUNCH);
}

size_t results_sizes(const results *r, uint64_t *sizes, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        size_t j = 0;
        while (j < k && sizes[j] != r->rows[i].n) j++;
        if (j < k || k == max) continue;
        size_t at = k++;
        while (at > 0 && sizes[at - 1] > r->rows[i].n) {
            sizes[at] = sizes[at - 1];
            at--;
        }
        sizes[at] = r->rows[i].n;
    }
    return k;
}

size_t results_rows_at(const results *r, uint64_t n, results_mode mode, const results_row **rows, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < r->nrows && k < max; i++)
        if (r->rows[i].n == n && r->rows[i].mode == mode) rows[k++] = &r->rows[i];
    return k;
}

const results_size *results_size_at(const results *r, uint64_t n)
{
    for (size_t i = 0; i < r->nsizes; i++)
        if (r->sizes[i].n == n) return &r->sizes[i];
    return NULL;
}

void results_set_free(results_set *s)
{
    for (size_t i = 0; i < s->count; i++) results_free(&s->runs[i]);
    free(s->runs);
    memset(s, 0, sizeof *s);
}

int results_set_read_files(results_set *s, const char *const *paths, size_t count, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (count == 0) {
        snprintf(err, errlen, "no results files given");
        return -1;
    }
    s->runs = calloc(count, sizeof *s->runs);
    if (!s->runs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if (results_read_file(&s->runs[i], paths[i], err, errlen)) {
            results_set_free(s);
            return -1;
        }
        s->count++;
    }
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int results_set_read_dir(results_set *s, const char *dir, char *err, size_t errlen)
{
    enum { MAX_FILES = 64 };
    memset(s, 0, sizeof *s);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot open: %s", dir, strerror(errno));
        return -1;
    }
    char *paths[MAX_FILES];
    size_t count = 0;
    int rc = -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "bench-", 6) != 0 || len < 11 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
        if (count == MAX_FILES) {
            snprintf(err, errlen, "%s: more than %d bench-*.json files", dir, MAX_FILES);
            goto out;
        }
        size_t need = strlen(dir) + len + 2;
        paths[count] = malloc(need);
        if (!paths[count]) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        snprintf(paths[count++], need, "%s/%s", dir, e->d_name);
    }
    if (count == 0) {
        snprintf(err, errlen, "%s: no bench-*.json results files", dir);
        goto out;
    }
    qsort(paths, count, sizeof *paths, by_name);
    rc = results_set_read_files(s, (const char *const *)paths, count, err, errlen);
out:
    closedir(d);
    for (size_t i = 0; i < count; i++) free(paths[i]);
    return rc;
}
