/* The occupancy model against figures worked out by hand from the CUDA C++ Programming Guide's
 * per-SM limits (threads, blocks, registers in 256-register units per warp, shared memory in
 * allocation units plus the 1 KB a block reserves from compute capability 8.0) and the SM counts of
 * the cards; and the figures the occupancy API gave on an H100 for v2 (2^20 elements, blocks of
 * 256): 8 blocks per SM, 1056 at once, 4 waves. Also a capture's shared memory per block, which is
 * the kernel's declaration: v2 declares float sdata[MAX_BLOCK] (1024 floats). */
#include <string.h>

#include "check.h"
#include "trace/capture/capture.h"
#include "trace/cards.h"
#include "trace/trace.h"

static void expect(const char *id, card_launch l, unsigned per_sm, card_limit limit, uint64_t waves, const char *why)
{
    const card *c = card_find(id);
    CHECK(c != NULL, "%s: no such card", id);
    if (!c) return;
    card_schedule s;
    char err[256];
    int rc = card_schedule_of(c, &l, &s, err, sizeof err);
    CHECK(rc == 0, "%s: %s", why, err);
    if (rc) return;
    CHECK(s.blocks_per_sm == per_sm, "%s: %u blocks per SM, expected %u", why, s.blocks_per_sm, per_sm);
    CHECK(s.limit == limit, "%s: limited by %s, expected %s", why, card_limit_word(s.limit), card_limit_word(limit));
    CHECK(s.resident_blocks == (uint64_t)per_sm * c->sms, "%s: %llu resident", why, (unsigned long long)s.resident_blocks);
    CHECK(s.waves == waves, "%s: %llu waves, expected %llu", why, (unsigned long long)s.waves, (unsigned long long)waves);
}

int main(void)
{
    /* the figures: 2^20 / 256 = 4096 blocks; H100 132 SMs x 8; GTX 1060 10 SMs x 8 */
    expect("h100", (card_launch){4096, 256, 4096, 0}, 8, CARD_LIMIT_THREADS, 4, "v2 on an H100");
    expect("gtx1060", (card_launch){4096, 256, 4096, 0}, 8, CARD_LIMIT_THREADS, 52, "v2 on a GTX 1060");
    /* 2048 threads / 64 = 32 = the 32-block limit, which the table's order names first */
    expect("h100", (card_launch){16384, 64, 4096, 0}, 32, CARD_LIMIT_THREADS, 4, "blocks of 64 on an H100");
    expect("h100", (card_launch){1024, 1024, 4096, 0}, 2, CARD_LIMIT_THREADS, 4, "blocks of 1024 on an H100");
    /* blocks of 32: 64 would fit by threads, the SM holds 32 blocks */
    expect("v100", (card_launch){2560, 32, 0, 0}, 32, CARD_LIMIT_BLOCKS, 1, "blocks of 32 on a V100");
    /* 64 registers: 2048 per warp; 16384 per partition hold 8 warps, 32 per SM: 4 blocks of 8 warps */
    expect("h100", (card_launch){528, 256, 0, 64}, 4, CARD_LIMIT_REGISTERS, 1, "64 registers per thread");
    /* 48 KB of shared memory: 96 KB per SM hold 2 on Pascal; (48 + 1) KB on an H100: 228 / 49 = 4 */
    expect("gtx1060", (card_launch){20, 128, 48 * 1024, 0}, 2, CARD_LIMIT_SHARED, 1, "48 KB on a GTX 1060");
    expect("h100", (card_launch){528, 128, 48 * 1024, 0}, 4, CARD_LIMIT_SHARED, 1, "48 KB on an H100");
    /* a block that does not fit at all is refused with a message */
    {
        card_schedule s;
        char err[256] = "";
        CHECK(card_schedule_of(card_find("gtx1060"), &(card_launch){1, 256, 64 * 1024, 0}, &s, err, sizeof err) == -1 && err[0],
              "64 KB per block on a GTX 1060 (48 KB at most) was accepted");
    }
    CHECK(card_find("NVIDIA H100 80GB HBM3") == card_find("h100"), "a GPU's device name finds its row");
    CHECK(card_find("no such card") == NULL, "an unknown name finds a row");

    /* what a GPU capture saw, counted from runs laid out by hand: SM 3 holds blocks 0-2 over
     * [0,10], [5,15], [10,20] (at 10 one ends as the next starts: 2 live at most), SM 7 block 3 over
     * [0,100]; the first end is at 10, and blocks 0, 1 and 3 started before it */
    {
        trace g;
        trace_init(&g);
        trace_add_pass(&g, (trace_pass){.grid = 4, .block = 64});
        const trace_run r[] = {{0, 0, 3, 0, 10}, {0, 1, 3, 5, 15}, {0, 2, 3, 10, 20}, {0, 3, 7, 0, 100}};
        for (int i = 0; i < 4; i++) trace_add_run(&g, &r[i]);
        card_observed o;
        CHECK(card_observe(&g, 0, &o) == 0, "no runs seen");
        CHECK(o.blocks == 4 && o.sms_used == 2 && o.most_live_on_one_sm == 2 && o.started_before_first_end == 3 && o.span_ns == 100,
              "observed %llu blocks on %u SMs, %u live, %llu before the first end, span %llu", (unsigned long long)o.blocks, o.sms_used,
              o.most_live_on_one_sm, (unsigned long long)o.started_before_first_end, (unsigned long long)o.span_ns);
        CHECK(card_observe(&g, 1, &o) == -1, "a pass with no runs was observed");
        trace_free(&g);
    }

    /* a capture records the block's declared shared memory: 1024 floats for v2 */
    trace t;
    trace_init(&t);
    char err[512];
    capture_desc d = {.version = "v2", .block = 256, .n = 1 << 12, .workers = 1};
    CHECK(capture_cpu(&d, &t, err, sizeof err) == 0, "capture: %s", err);
    CHECK(t.npasses > 0 && t.passes[0].shared_bytes == 1024 * 4, "v2 pass 0 declares %u shared bytes, expected 4096",
          t.npasses ? t.passes[0].shared_bytes : 0);
    trace_free(&t);
    CHECK_DONE("cards_should_hold_what_the_occupancy_rules_allow");
}
