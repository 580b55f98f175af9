/* A trace written to JSON and read back is the same trace, bit for bit (floats as %.9g), and
 * writing it again gives the same text. Checked on random floats, float4 loads, shuffles and
 * atomics (v7, v8), several passes (v2 at n > block) and several traced blocks. */
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"

static void round_trip_with(const char *version, uint64_t n, unsigned traced, const char *schedule)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.n = n;
    d.data = "random-float";
    d.blocks_traced = traced;
    d.schedule = schedule;
    trace a, b;
    trace_init(&a);
    trace_init(&b);
    char err[256];
    CHECK(capture_cpu(&d, &a, err, sizeof err) == 0, "%s: %s", version, err);
    char *j1 = trace_to_json(&a);
    CHECK(j1 != NULL, "%s: no JSON", version);
    if (!j1) return;
    int rc = trace_from_json(&b, j1, strlen(j1), err, sizeof err);
    CHECK(rc == 0, "%s: read back failed: %s", version, err);
    CHECK(a.nevents > 0 && trace_equal(&a, &b), "%s: trace read back differs (%zu events)", version, a.nevents);
    char *j2 = trace_to_json(&b);
    CHECK(j2 && strcmp(j1, j2) == 0, "%s: second write differs", version);
    free(j1);
    free(j2);
    trace_free(&a);
    trace_free(&b);
}

static void round_trip(const char *version, uint64_t n, unsigned traced) { round_trip_with(version, n, traced, NULL); }

int main(void)
{
    round_trip("v0", 0, 1);
    round_trip("v2", 3000, 3);
    round_trip("naive", 100, 1);
    round_trip("v7", 999, 2);
    round_trip("v8", 5000, 2);
    /* hazards, with the events they point at, and the schedule */
    round_trip_with("v4", 0, 1, "its:4");
    round_trip_with("naive-race", 300, 2, "adversarial");
    trace t;
    char err[256];
    trace_init(&t);
    CHECK(trace_read_file(&t, WS_ROOT "/docs/v0-h100-trace.json", err, sizeof err) == 0, "a version 1 trace: %s", err);
    CHECK(t.nevents > 0 && t.nhazards == 0 && t.prov.race_check[0] == 0, "a version 1 trace read back wrong");
    trace_free(&t);
    CHECK_DONE("trace_should_round_trip_through_json");
}
