/* Blocks run in parallel on several worker threads; the result and the whole trace (every block of
 * every pass traced) must be the same bytes as with one worker. */
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "trace/ladder.h"

int main(void)
{
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    static const unsigned workers[] = {1, 2, 3, 8};
    for (size_t i = 0; i < ladder_count; i++) {
        const ladder_version *v = &ladder_versions[i];
        trace t[4];
        for (int k = 0; k < 4; k++) {
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = v->id;
            d.block = v->min_block > 64 ? v->min_block : 64;
            /* enough blocks in pass 0 for every worker count, and a ragged end */
            d.n = (uint64_t)d.block * v->ept_default * 37 + 5;
            d.data = "random-float";
            d.blocks_traced = 65536;
            d.workers = workers[k];
            d.no_race_check = 1; /* the race detector would make every launch serial */
            trace_init(&t[k]);
            char err[256];
            CHECK(capture_cpu(&d, &t[k], err, sizeof err) == 0, "%s, %u workers: %s", v->id, workers[k], err);
        }
        CHECK(t[0].npasses >= 1 && t[0].passes[0].grid >= 32, "%s: pass 0 has %u blocks", v->id, t[0].npasses ? t[0].passes[0].grid : 0);
        for (int k = 1; k < 4; k++)
            CHECK(trace_equal(&t[0], &t[k]), "%s: the trace with %u workers differs from one worker's", v->id, workers[k]);
        for (int k = 0; k < 4; k++) trace_free(&t[k]);
    }
    CHECK_DONE("capture_should_not_depend_on_workers");
}
