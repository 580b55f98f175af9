/* results: reading warpscope-bench JSON with cJSON, every field checked. */
#include "results.h"
#include "trace.h"

#include "json_internal.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void results_free(results *r)
{
    free(r->rows);
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

static int num_field(const cJSON *o, const char *key, double lo, double hi, double *out, const char *where, char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= lo && it->valuedouble <= hi)) { /* NaN and infinities fail too */
        snprintf(err, errlen, "%s%s: expected a number from %g to %g", where, key, lo, hi);
        return -1;
    }
    *out = it->valuedouble;
    return 0;
}

int results_parse(results *r, const char *text, size_t len, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    cJSON *root = json_parse_at(text, len, err, errlen);
    if (!root) return -1;
    int rc = -1;
    double v;
    if (!cJSON_IsObject(root)) { snprintf(err, errlen, "top level: expected an object"); goto out; }
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, "warpscope-bench") != 0) {
        snprintf(err, errlen, "schema: expected \"warpscope-bench\" (is this a results file of warpscope bench --json?)");
        goto out;
    }
    if (str_field(root, "device", r->device, sizeof r->device, "", err, errlen) ||
        str_field(root, "driver", r->driver, sizeof r->driver, "", err, errlen) ||
        str_field(root, "toolkit", r->toolkit, sizeof r->toolkit, "", err, errlen) ||
        str_field(root, "date", r->date, sizeof r->date, "", err, errlen) ||
        num_field(root, "spec_peak_gbs", 1, RESULTS_GBS_MAX, &r->spec_peak_gbs, "", err, errlen) ||
        num_field(root, "reps", 1, RESULTS_REPS_MAX, &v, "", err, errlen))
        goto out;
    r->reps = (int)v;
    if (v != floor(v)) { snprintf(err, errlen, "reps: expected a whole number"); goto out; }
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    if (!cJSON_IsArray(rows) || cJSON_GetArraySize(rows) < 1 || cJSON_GetArraySize(rows) > RESULTS_ROWS_MAX)
        { snprintf(err, errlen, "rows: expected an array of 1 to %d rows", RESULTS_ROWS_MAX); goto out; }
    r->rows = calloc((size_t)cJSON_GetArraySize(rows), sizeof *r->rows);
    if (!r->rows) { snprintf(err, errlen, "out of memory"); goto out; }
    int i = 0;
    for (const cJSON *x = rows->child; x; x = x->next, i++) {
        char where[32];
        snprintf(where, sizeof where, "rows[%d].", i);
        results_row *row = &r->rows[r->nrows];
        if (!cJSON_IsObject(x)) { snprintf(err, errlen, "rows[%d]: expected an object", i); goto out; }
        const cJSON *ok = cJSON_GetObjectItemCaseSensitive(x, "ok");
        if (str_field(x, "name", row->name, sizeof row->name, where, err, errlen) ||
            num_field(x, "n", 1, RESULTS_N_MAX, &v, where, err, errlen))
            goto out;
        row->n = (uint64_t)v;
        if (v != floor(v)) { snprintf(err, errlen, "%sn: expected a whole number", where); goto out; }
        if (!cJSON_IsBool(ok)) { snprintf(err, errlen, "%sok: expected true or false", where); goto out; }
        row->ok = cJSON_IsTrue(ok);
        if (num_field(x, "ms", 0, RESULTS_MS_MAX, &row->ms, where, err, errlen) ||
            num_field(x, "gbs", 0, RESULTS_GBS_MAX, &row->gbs, where, err, errlen))
            goto out;
        if (row->ok && (row->ms <= 0 || row->gbs <= 0)) { snprintf(err, errlen, "%sms: a checked row needs a time above 0", where); goto out; }
        r->nrows++;
    }
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

const results_row *results_find(const results *r, const char *name, uint64_t n)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].n == n && strcmp(r->rows[i].name, name) == 0) return &r->rows[i];
    return NULL;
}

size_t results_sizes(const results *r, uint64_t *sizes, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        size_t j = 0;
        while (j < k && sizes[j] != r->rows[i].n) j++;
        if (j < k || k == max) continue;
        size_t at = k++;
        while (at > 0 && sizes[at - 1] > r->rows[i].n) { sizes[at] = sizes[at - 1]; at--; }
        sizes[at] = r->rows[i].n;
    }
    return k;
}
