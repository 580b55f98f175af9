/* The memory a whole-grid capture and its cost table take per traced block, counted in the bytes
 * asked of the allocator (deterministic, unlike a process's resident size), against bounds worked
 * out from the events themselves:
 * - the trace: its arrays hold each event (sizeof(trace_event)), each active lane's address and
 *   each of its values (8 bytes each, counted here from the masks and widths); growing by doubling,
 *   they may hold at most twice that, plus their first room;
 * - the cost table (cost_compute): a thread's state and a block's shared words matter only while
 *   the block's events last, so what it holds at once is one block's room (1 KiB a thread: the up to
 *   64 operands it holds between writes, and 64 bytes for each shared word the block stores), plus a
 *   few words for each block and each global element stored. Kept for every block of the grid (as
 *   it was), it grew by about 1 MB a block of 256 threads: this bound is 2 kB a block at most;
 * - for v2 at a block of 256, the two together under 50 kB a traced block.
 * Every block of a 2^18-element grid is traced (v2: 1029 blocks in 3 passes; v7: 129). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/cost.h"
#include "trace/capture/capture.h"
#include "check.h"

enum { KIB = 1024, FIRST_ROOM = 256 /* the trace arrays' first capacity */ };

/* the bits set in a bitmap: distinct elements */
static size_t count_bits(const uint8_t *bits, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += (size_t)__builtin_popcount(bits[i]);
    return c;
}

static void expect(const char *version, double per_block_max)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = 256;
    d.n = (uint64_t)1 << 18;
    d.data = "random-int";
    d.blocks_traced = 1u << 30; /* every block */
    trace t;
    trace_init(&t);
    char err[256];
    int rc = capture_cpu(&d, &t, err, sizeof err);
    CHECK(rc == 0, "%s: %s", version, err);
    if (rc) return;

    /* from the events: the bytes they hold, the blocks, the largest block, the words stored */
    uint64_t lanes = 0, vals = 0, blocks = 0;
    unsigned threads_max = 0;
    size_t shared_words_max = 0, block_words = 0;
    enum { GLOBAL_RANGE = 1 << 20 };
    uint8_t *global = calloc((size_t)TRACE_BUFFERS_MAX * GLOBAL_RANGE / 8, 1);
    uint8_t shared[TRACE_SHARED_WORDS_MAX / 8];
    CHECK(global != NULL, "out of memory");
    if (!global) { trace_free(&t); return; }
    for (size_t i = 0; i < t.nevents; i++) {
        const trace_event *e = &t.events[i];
        int first = i == 0 || e->block != t.events[i - 1].block || e->pass != t.events[i - 1].pass;
        if (first) {
            blocks++;
            memset(shared, 0, sizeof shared);
            block_words = 0;
        }
        if (e->pass < t.npasses && t.passes[e->pass].block > threads_max) threads_max = t.passes[e->pass].block;
        if (!trace_kind_has_data((trace_kind)e->kind)) continue;
        size_t n = (size_t)trace_popcount(e->mask);
        lanes += n;
        vals += n * trace_event_width(e);
        for (size_t k = 0; k < n; k++) {
            int64_t a = t.lane_addr[e->lanes + k];
            for (unsigned c = 0; c < trace_event_width(e); c++) {
                int64_t w = a + (int64_t)c;
                if (e->kind == TRACE_SHARED_STORE && w >= 0 && w < TRACE_SHARED_WORDS_MAX && !(shared[w / 8] >> (w % 8) & 1)) {
                    shared[w / 8] |= (uint8_t)(1u << (w % 8));
                    if (++block_words > shared_words_max) shared_words_max = block_words;
                }
                if (e->kind == TRACE_GLOBAL_STORE && e->buf < TRACE_BUFFERS_MAX && w >= 0 && w < GLOBAL_RANGE) {
                    size_t bit = (size_t)e->buf * GLOBAL_RANGE + (size_t)w;
                    global[bit / 8] |= (uint8_t)(1u << (bit % 8));
                }
            }
        }
    }
    size_t global_stored = count_bits(global, (size_t)TRACE_BUFFERS_MAX * GLOBAL_RANGE / 8);
    free(global);

    uint64_t need = (uint64_t)t.nevents * sizeof(trace_event) + lanes * sizeof(int64_t) + vals * sizeof(double);
    uint64_t held = (uint64_t)t.cap_events * sizeof *t.events + (uint64_t)t.cap_lanes * sizeof *t.lane_addr +
                    (uint64_t)t.cap_vals * sizeof *t.values;
    uint64_t first_room = FIRST_ROOM * (sizeof(trace_event) + sizeof(int64_t) + sizeof(double));
    CHECK(t.nlanes == lanes && t.nvals == vals, "%s: the trace counts %zu lanes and %zu values, its events %llu and %llu", version,
          t.nlanes, t.nvals, (unsigned long long)lanes, (unsigned long long)vals);
    CHECK(held <= 2 * need + first_room, "%s: the trace holds %llu bytes for events that need %llu", version,
          (unsigned long long)held, (unsigned long long)need);

    cost_figures c;
    CHECK(cost_compute(&t, &c) == 0, "%s: cost", version);
    CHECK(c.blocks_traced == blocks && c.complete, "%s: cost saw %u blocks, the events %llu", version, c.blocks_traced,
          (unsigned long long)blocks);
    uint64_t one_block = (uint64_t)threads_max * KIB + (uint64_t)shared_words_max * 64;
    uint64_t bound = one_block + 128 * blocks + 64 * (uint64_t)global_stored + 64 * KIB;
    CHECK(c.scratch_bytes <= bound, "%s: the cost table held %llu bytes at once (%.0f a block of %llu); the bound is %llu (one block %llu, "
          "%llu blocks, %zu global elements stored)", version, (unsigned long long)c.scratch_bytes,
          (double)c.scratch_bytes / (double)blocks, (unsigned long long)blocks, (unsigned long long)bound, (unsigned long long)one_block,
          (unsigned long long)blocks, global_stored);
    CHECK(bound <= 2 * KIB * blocks + one_block, "%s: the bound itself is %llu bytes", version, (unsigned long long)bound);
    double per_block = (double)(held + c.scratch_bytes) / (double)blocks;
    if (per_block_max > 0)
        CHECK(per_block <= per_block_max, "%s: %.0f bytes a traced block (trace %llu, cost %llu, %llu blocks), at most %.0f", version,
              per_block, (unsigned long long)held, (unsigned long long)c.scratch_bytes, (unsigned long long)blocks, per_block_max);
    printf("%s: %llu blocks, trace %.1f kB a block (its events need %.1f), cost table %.2f kB a block\n", version,
           (unsigned long long)blocks, (double)held / 1e3 / (double)blocks, (double)need / 1e3 / (double)blocks,
           (double)c.scratch_bytes / 1e3 / (double)blocks);
    trace_free(&t);
}

int main(void)
{
    expect("v2", 50e3);
    expect("v7", 0);
    expect("v8", 0);
    CHECK_DONE("memory_per_traced_block_should_stay_bounded");
}
