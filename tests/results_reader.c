/* The benchmark results reader: the shipped H100 file reads back with its provenance, shows the
 * top rung (v8) at least as fast as CUB at every size, and malformed files are rejected with
 * where. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "results.h"

static void expect_bad(const char *text, const char *want)
{
    results r;
    char err[256] = "";
    CHECK(results_parse(&r, text, strlen(text), err, sizeof err) == -1, "accepted: %s", text);
    CHECK(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
}

int main(void)
{
    results r;
    char err[256];
    int rc = results_read_file(&r, WS_ASSETS "/bench-h100.json", err, sizeof err);
    CHECK(rc == 0, "%s", err);
    if (rc == 0) {
        CHECK(strstr(r.device, "H100") != NULL && r.spec_peak_gbs > 3000 && r.reps >= 20, "provenance: %s %g %d", r.device,
              r.spec_peak_gbs, r.reps);
        uint64_t sizes[64];
        size_t n = results_sizes(&r, sizes, 64);
        CHECK(n >= 8 && sizes[0] == 65536 && sizes[n - 1] == (1ull << 30), "sizes %zu", n);
        for (size_t i = 0; i < n; i++) {
            const results_row *top = results_find(&r, "v8", sizes[i]), *cub = results_find(&r, "cub", sizes[i]);
            CHECK(top && cub && top->ok && cub->ok && top->ms <= cub->ms, "n = %llu: v8 %.4f ms, CUB %.4f ms",
                  (unsigned long long)sizes[i], top ? top->ms : -1, cub ? cub->ms : -1);
            for (size_t j = 0; j < r.nrows; j++) /* GB/s is 4n bytes over the time, except the copy */
                if (r.rows[j].n == sizes[i] && r.rows[j].ok && strcmp(r.rows[j].name, "d2d-copy") != 0)
                    CHECK(fabs(r.rows[j].gbs - 4.0 * (double)sizes[i] / (r.rows[j].ms * 1e6)) < 0.01 * r.rows[j].gbs + 0.1,
                          "%s at %llu: %g GB/s for %g ms", r.rows[j].name, (unsigned long long)sizes[i], r.rows[j].gbs, r.rows[j].ms);
        }
        results_free(&r);
    }
    expect_bad("{\"schema\": \"warpscope-bench\",\n \"device\": 3}", "device: expected a string");
    expect_bad("{\"schema\": \"warpscope-trace\"}", "schema: expected \"warpscope-bench\"");
    expect_bad("{\"schema\": \"warpscope-bench\",\n \"device\": \"x\" \"driver\": \"y\"}", "2:16: JSON syntax error");
    expect_bad("{\"schema\": \"warpscope-bench\", \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", \"date\": \"d\", "
               "\"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": [{\"name\": \"v0\", \"n\": 10, \"ms\": 0.1, \"gbs\": 1, \"ok\": \"yes\"}]}",
               "rows[0].ok: expected true or false");
    expect_bad("{\"schema\": \"warpscope-bench\", \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", \"date\": \"d\", "
               "\"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": []}",
               "rows: expected an array of 1 to 10000 rows");
    /* numbers finite and in range: n = 1e19 once made the chart's loop over sizes run for ever */
#define ROW(body) "{\"schema\": \"warpscope-bench\", \"device\": \"x\", \"driver\": \"y\", \"toolkit\": \"t\", \"date\": \"d\", " \
                  "\"spec_peak_gbs\": 3000, \"reps\": 30, \"rows\": [{\"name\": \"v0\", " body "}]}"
    expect_bad(ROW("\"n\": 1e19, \"ms\": 0.1, \"gbs\": 1, \"ok\": true"), "rows[0].n: expected a number from 1 to 1.09951e+12");
    expect_bad(ROW("\"n\": 1024, \"ms\": 1e999, \"gbs\": 1, \"ok\": true"), "rows[0].ms: expected a number from 0 to");
    expect_bad(ROW("\"n\": 1024, \"ms\": 0.1, \"gbs\": -1, \"ok\": true"), "rows[0].gbs: expected a number from 0 to");
    expect_bad(ROW("\"n\": 10.5, \"ms\": 0.1, \"gbs\": 1, \"ok\": true"), "rows[0].n: expected a whole number");
    expect_bad("[1, 2]", "top level: expected an object");
    results ok;
    CHECK(results_parse(&ok, ROW("\"n\": 1024, \"ms\": 0.1, \"gbs\": 1, \"ok\": true"), strlen(ROW("\"n\": 1024, \"ms\": 0.1, \"gbs\": 1, \"ok\": true")),
                        err, sizeof err) == 0 && ok.nrows == 1 && ok.rows[0].n == 1024, "a good row: %s", err);
    results_free(&ok);
#undef ROW
    CHECK(results_read_file(&r, "no/such/results.json", err, sizeof err) == -1 && strstr(err, "no/such/results.json: cannot open"),
          "%s", err);
    CHECK_DONE("results_reader");
}
