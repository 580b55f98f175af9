/* The benchmark results reader: the shipped files (one per GPU) read back with their provenance and
 * both timing modes; in each, the top rung (v8) is at least as fast as CUB at every size in both
 * modes, v8's stated share of the best read is its GB/s over the best read's, every GB/s is the
 * bytes over the time, the latency-bound sizes are those whose bytes take
 * less at the spec peak than an empty kernel's launch, and a tree's error is far below a serial
 * loop's. A schema 1 file still reads; malformed files are rejected with where. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "trace/results.h"

static void expect_bad(const char *text, const char *want)
{
    results r;
    char err[256] = "";
    CHECK(results_parse(&r, text, strlen(text), err, sizeof err) == -1, "accepted: %s", text);
    CHECK(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
}

#define HEAD2                                                                                                      \
    "{\"schema\": \"warpscope-bench\", \"schema_version\": 2, \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", " \
    "\"date\": \"d\", \"spec_peak_gbs\": 3000, \"reps\": 30, "

static void check_run(const results *r)
{
    CHECK(r->schema_version == 2 && r->spec_peak_gbs > 3000 && r->reps >= 20 && r->sm_count > 0, "provenance: %s %g %d %d",
          r->device, r->spec_peak_gbs, r->reps, r->sm_count);
    CHECK(results_has_mode(r, RESULTS_LAUNCH) && results_has_mode(r, RESULTS_BATCH), "%s: both timing modes", r->device);
    uint64_t sizes[64];
    size_t nsz = results_sizes(r, sizes, 64);
    CHECK(nsz >= 8 && sizes[0] == 65536 && sizes[nsz - 1] == (1ull << 30), "%s: sizes %zu", r->device, nsz);
    for (int m = 0; m < RESULTS_NMODES; m++) {
        double empty_us = r->empty_kernel_us[m];
        CHECK(empty_us > 0 && empty_us < 50, "%s: empty kernel %g us in mode %s", r->device, empty_us, results_mode_id((results_mode)m));
        for (size_t i = 0; i < nsz; i++) {
            uint64_t n = sizes[i];
            const results_row *top = results_find_mode(r, "v8", n, (results_mode)m), *cub = results_find_mode(r, "cub", n, (results_mode)m);
            CHECK(top && cub && top->ok && cub->ok && top->ms <= cub->ms, "%s %s n = %llu: v8 %.6f ms, CUB %.6f ms", r->device,
                  results_mode_id((results_mode)m), (unsigned long long)n, top ? top->ms : -1, cub ? cub->ms : -1);
            const results_row *best = results_find_mode(r, "best-read", n, (results_mode)m);
            CHECK(best && best->ok && strcmp(best->kind, "read") == 0 && best->variant[0], "%s: best read at %llu", r->device,
                  (unsigned long long)n);
            /* the top rung's share of the read ceiling, as the file states it, is its GB/s over the
             * best read's in the same run */
            if (top && best && best->ok && best->gbs > 0)
                CHECK(fabs(top->best_read_ratio - top->gbs / best->gbs) < 1e-4 + 1e-3 * top->gbs / best->gbs,
                      "%s %s n = %llu: v8's best_read_ratio %g, its GB/s over the best read's %g", r->device,
                      results_mode_id((results_mode)m), (unsigned long long)n, top->best_read_ratio, top->gbs / best->gbs);
            CHECK(results_find_mode(r, "read-ceiling", n, (results_mode)m) == best, "%s: the schema 1 name finds the best read",
                  r->device);
            const results_row *rows[64];
            size_t k = results_rows_at(r, n, (results_mode)m, rows, 64);
            CHECK(k >= 14, "%s: %zu rows at %llu", r->device, k, (unsigned long long)n);
            for (size_t j = 0; j < k; j++) {
                const results_row *q = rows[j];
                if (!q->ok) continue;
                /* GB/s is the bytes that must be read over the time; the copy reads and writes;
                 * the read kernels read whole vectors, at most 3 floats fewer */
                double want = (strcmp(q->kind, "copy") == 0 ? 8.0 : 4.0) * (double)n / (q->ms * 1e6);
                double slack = strcmp(q->kind, "read") == 0 ? 12.0 / (4.0 * (double)n) * want : 0;
                CHECK(fabs(q->gbs - want) <= 0.001 * want + slack + 0.01, "%s %s at %llu: %g GB/s for %g ms", r->device, q->name,
                      (unsigned long long)n, q->gbs, q->ms);
                if (strcmp(q->kind, "version") == 0 || strcmp(q->kind, "library") == 0)
                    CHECK(q->rel_error >= 0 && q->rel_error < 1e-4 && q->ulps >= 0, "%s %s at %llu: error %g", r->device, q->name,
                          (unsigned long long)n, q->rel_error);
            }
        }
    }
    for (size_t i = 0; i < nsz; i++) {
        const results_size *s = results_size_at(r, sizes[i]);
        CHECK(s != NULL, "size %llu", (unsigned long long)sizes[i]);
        if (!s) continue;
        double spec_us = 4.0 * (double)sizes[i] / (r->spec_peak_gbs * 1e3);
        CHECK(fabs(s->spec_us - spec_us) < 1e-3 * spec_us + 1e-3, "%s: spec time at %llu", r->device, (unsigned long long)sizes[i]);
        CHECK(s->latency_bound == (spec_us < r->empty_kernel_us[RESULTS_LAUNCH]), "%s: latency bound at %llu", r->device,
              (unsigned long long)sizes[i]);
        /* the teaching point: a tree of partial sums against one float running total */
        const results_row *top = results_find_mode(r, "v8", sizes[i], RESULTS_LAUNCH);
        if (sizes[i] >= (1u << 20) && top)
            CHECK(s->serial_rel_error > 10 * top->rel_error, "%s at %llu: serial %g, v8 %g", r->device, (unsigned long long)sizes[i],
                  s->serial_rel_error, top->rel_error);
    }
    const results_size *small = results_size_at(r, 65536), *large = results_size_at(r, 1ull << 30);
    CHECK(small && small->latency_bound && large && !large->latency_bound, "%s: 2^16 is latency bound, 2^30 is not", r->device);
}

int main(void)
{
    results_set set;
    char err[256];
    int rc = results_set_read_dir(&set, WS_ASSETS, err, sizeof err);
    CHECK(rc == 0, "%s", err);
    if (rc == 0) {
        int h100 = 0, h200 = 0;
        for (size_t i = 0; i < set.count; i++) {
            h100 |= strstr(set.runs[i].device, "H100") != NULL;
            h200 |= strstr(set.runs[i].device, "H200") != NULL;
            check_run(&set.runs[i]);
        }
        CHECK(h100 && h200, "shipped results for an H100 and an H200 (%zu files)", set.count);
        results_set_free(&set);
    }

    /* schema 1: one mode, kinds from the names, no accuracy */
    const char *v1 = "{\"schema\": \"warpscope-bench\", \"schema_version\": 1, \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", "
                     "\"date\": \"d\", \"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": ["
                     "{\"name\": \"v0\", \"n\": 1024, \"ms\": 0.5, \"gbs\": 1, \"ok\": true},"
                     "{\"name\": \"read-ceiling\", \"n\": 1024, \"ms\": 0.1, \"gbs\": 9, \"ok\": true}]}";
    results r;
    rc = results_parse(&r, v1, strlen(v1), err, sizeof err);
    CHECK(rc == 0, "schema 1: %s", err);
    if (rc == 0) {
        const results_row *v0 = results_find(&r, "v0", 1024), *ceil_row = results_find(&r, "read-ceiling", 1024);
        CHECK(v0 && v0->mode == RESULTS_LAUNCH && v0->rel_error < 0 && strcmp(v0->kind, "version") == 0, "schema 1 row");
        CHECK(ceil_row && strcmp(ceil_row->kind, "read") == 0, "schema 1 read row");
        CHECK(results_find(&r, "best-read", 1024) == ceil_row, "the schema 2 name finds the schema 1 read row");
        CHECK(results_has_mode(&r, RESULTS_LAUNCH) && !results_has_mode(&r, RESULTS_BATCH), "schema 1 modes");
        CHECK(results_find_mode(&r, "v0", 1024, RESULTS_BATCH) == NULL, "no batch rows");
        const results_size *s = results_size_at(&r, 1024);
        CHECK(s && !s->latency_bound && s->serial_rel_error < 0, "schema 1 sizes");
        results_free(&r);
    }

    expect_bad("{\"schema\": \"warpscope-bench\",\n \"device\": 3}", "device: expected a string");
    expect_bad("{\"schema\": \"warpscope-trace\"}", "schema: expected \"warpscope-bench\"");
    expect_bad("{\"schema\": \"warpscope-bench\",\n \"device\": \"x\" \"driver\": \"y\"}", "2:16: JSON syntax error");
    expect_bad("{\"schema\": \"warpscope-bench\", \"schema_version\": 3}", "schema_version: expected 1 or 2");
    expect_bad("{\"schema\": \"warpscope-bench\", \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", \"date\": \"d\", "
               "\"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": [{\"name\": \"v0\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": \"yes\"}]}",
               "rows[0].ok: expected true or false");
    expect_bad("{\"schema\": \"warpscope-bench\", \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", \"date\": \"d\", "
               "\"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": []}",
               "rows: expected an array of 1 to 10000 rows");
    expect_bad(HEAD2 "\"modes\": [{\"id\": \"median\"}], \"rows\": []}", "modes[0].id: expected \"launch\" or \"batch\"");
    expect_bad(HEAD2 "\"modes\": [{\"id\": \"launch\"}], \"sizes\": [], \"rows\": [{\"name\": \"v0\", \"kind\": \"version\", "
                     "\"mode\": \"batch\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": true}]}",
               "rows[0].mode: \"batch\" is not one of the file's modes");
    expect_bad(HEAD2 "\"modes\": [{\"id\": \"launch\"}], \"sizes\": [], \"rows\": [{\"name\": \"v0\", \"kind\": \"kernels\", "
                     "\"mode\": \"launch\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": true}]}",
               "rows[0].kind: expected version, library, copy, read or kernel");
    expect_bad(HEAD2 "\"modes\": [{\"id\": \"launch\"}], \"sizes\": [{\"n\": 11, \"latency_bound\": true}], \"rows\": [{\"name\": "
                     "\"v0\", \"kind\": \"version\", \"mode\": \"launch\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": true}]}",
               "sizes[0].n: no row has n = 11");
    expect_bad(HEAD2 "\"modes\": [{\"id\": \"launch\"}], \"sizes\": [{\"n\": 10, \"latency_bound\": true}], \"rows\": [{\"name\": "
                     "\"v0\", \"kind\": \"version\", \"mode\": \"launch\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": true, "
                     "\"rel_error\": -1}]}",
               "rows[0].rel_error: expected a number from 0 to");
    expect_bad(HEAD2 "\"modes\": [{\"id\": \"launch\"}], \"sizes\": [{\"n\": 10, \"latency_bound\": true}], \"rows\": [{\"name\": "
                     "\"v0\", \"kind\": \"version\", \"mode\": \"launch\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": true, "
                     "\"best_read_ratio\": 0}]}",
               "rows[0].best_read_ratio: expected a share of the best read above 0");
    /* numbers finite and in range: n = 1e19 once made the chart's loop over sizes run for ever */
#define ROW(body) "{\"schema\": \"warpscope-bench\", \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", \"date\": \"d\", " \
                  "\"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": [{\"name\": \"v0\", " body "}]}"
    expect_bad(ROW("\"n\": 1e19, \"ms\": 0.1, \"gbs\": 1, \"ok\": true"), "rows[0].n: expected a number from 1 to");
    expect_bad(ROW("\"n\": 1024, \"ms\": 1e999, \"gbs\": 1, \"ok\": true"), "rows[0].ms: expected a number from 0 to");
    expect_bad(ROW("\"n\": 1024, \"ms\": 0.1, \"gbs\": -1, \"ok\": true"), "rows[0].gbs: expected a number from 0 to");
    expect_bad(ROW("\"n\": 10.5, \"ms\": 0.1, \"gbs\": 1, \"ok\": true"), "rows[0].n: expected a whole number");
    expect_bad("[1, 2]", "expected");
#undef ROW
    CHECK(results_read_file(&r, "no/such/results.json", err, sizeof err) == -1 && strstr(err, "no/such/results.json: cannot open"),
          "%s", err);
    CHECK(results_set_read_dir(&set, WS_ASSETS "/themes", err, sizeof err) == -1 && strstr(err, "no bench-*.json results files"),
          "%s", err);
    CHECK_DONE("results_reader");
}
