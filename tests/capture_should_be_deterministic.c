/* Two captures of the same inputs are the same bytes (the date pinned by SOURCE_DATE_EPOCH). */
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "trace/ladder.h"

int main(void)
{
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    for (size_t i = 0; i < ladder_count; i++) {
        char *json[2];
        for (int r = 0; r < 2; r++) {
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = ladder_versions[i].id;
            d.block = 1024;
            d.data = "random-float";
            d.seed = 7;
            d.seed_set = 1;
            trace t;
            trace_init(&t);
            char err[256];
            CHECK(capture_cpu(&d, &t, err, sizeof err) == 0, "%s: %s", d.version, err);
            json[r] = trace_to_json(&t);
            trace_free(&t);
        }
        CHECK(json[0] && json[1] && strcmp(json[0], json[1]) == 0, "%s: two captures differ", ladder_versions[i].id);
        CHECK(json[0] && strstr(json[0], "\"date\": \"2023-11-14T22:13:20Z\""), "%s: date not pinned", ladder_versions[i].id);
        free(json[0]);
        free(json[1]);
    }
    /* a seeded schedule is as deterministic: the same seed, the same trace (hazards included);
     * another seed, another interleaving */
    static const struct { const char *version, *lanes, *warps; } sched[] = {
        {"v4", "its:3", NULL}, {"v4", "its:3", "seeded:4"}, {"v4", "adversarial", NULL}, {"naive-race", "its:5", "seeded:1"},
        {"v2", "lanes-down", "reversed"}};
    for (size_t i = 0; i < sizeof sched / sizeof *sched; i++) {
        char *json[3];
        for (int r = 0; r < 3; r++) {
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = sched[i].version;
            d.block = 128;
            d.schedule = r < 2 || strncmp(sched[i].lanes, "its:", 4) ? sched[i].lanes : "its:77";
            d.warp_order = sched[i].warps;
            trace t;
            trace_init(&t);
            char err[256];
            CHECK(capture_cpu(&d, &t, err, sizeof err) == 0, "%s %s: %s", d.version, d.schedule, err);
            json[r] = trace_to_json(&t);
            trace_free(&t);
        }
        CHECK(json[0] && json[1] && strcmp(json[0], json[1]) == 0, "%s %s: two captures differ", sched[i].version, sched[i].lanes);
        if (!strncmp(sched[i].lanes, "its:", 4))
            CHECK(json[0] && json[2] && strcmp(json[0], json[2]) != 0, "%s: its:77 ran the same order as %s", sched[i].version, sched[i].lanes);
        for (int r = 0; r < 3; r++) free(json[r]);
    }
    CHECK_DONE("capture_should_be_deterministic");
}
