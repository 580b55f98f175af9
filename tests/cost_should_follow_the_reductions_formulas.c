/* The cost table (trace/cost.h) against the reduction's definition and the kernels' addressing:
 * every block of every pass traced, at a block of 256,
 * - v1 (one element per thread, a tree over the block): a block of 256 elements needs 255 adds, and
 *   the whole reduction n - 1; its longest chain is log2(256) = 8 per pass, log2(n) over both;
 * - v3 (two elements per thread, added as they are loaded, then the tree): 511 adds for a block of
 *   512 elements, n - 1 in all; chains of log2(512) = 9, log2(n) over both passes;
 * - v4 (v3 with its last warp unrolled): the tree down to 64 (256 first adds, then 128 and 64),
 *   then all 32 lanes of the last warp add at each of its 6 levels (offsets 32 .. 1), where 32 + 16
 *   + ... + 1 = 63 would do: 256 + 192 + 192 adds a block; the chain is still log2(512) = 9;
 * - v4s (v4 with __syncwarp): the same, though each lane adds into a register of its own (v) that it
 *   stores and never loads back.
 * The traces' data is random-int, so a sum is no other sum by accident of equal values. */
#include <math.h>
#include <string.h>

#include "trace/cost.h"
#include "trace/capture/capture.h"
#include "check.h"

enum { BLOCK = 256, WARP = 32, TAIL_LEVELS = 6 /* offsets 32, 16, 8, 4, 2, 1 */ };

static unsigned lg(uint64_t x)
{
    unsigned d = 0;
    while ((1ull << d) < x) d++;
    return d;
}

static void expect(const char *version, uint64_t n, uint64_t adds, unsigned steps, unsigned passes)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = BLOCK;
    d.n = n;
    d.data = "random-int";
    d.blocks_traced = 1u << 30; /* every block */
    trace t;
    trace_init(&t);
    char err[256];
    int rc = capture_cpu(&d, &t, err, sizeof err);
    CHECK(rc == 0, "%s: %s", version, err);
    if (rc) return;
    cost_figures c;
    CHECK(cost_compute(&t, &c) == 0, "%s: cost", version);
    CHECK(t.npasses == passes, "%s n=%llu: %zu passes, expected %u", version, (unsigned long long)n, t.npasses, passes);
    CHECK(c.complete, "%s: every block traced, cost says %u of %u", version, c.blocks_traced, c.blocks);
    CHECK(c.adds == adds, "%s n=%llu: %llu adds, the formula gives %llu", version, (unsigned long long)n,
          (unsigned long long)c.adds, (unsigned long long)adds);
    CHECK(c.steps == steps, "%s n=%llu: a chain of %u adds, the formula gives %u", version, (unsigned long long)n,
          c.steps, steps);
    CHECK(c.elements == n, "%s: %llu elements read, n is %llu", version, (unsigned long long)c.elements, (unsigned long long)n);
    CHECK(c.instructions > c.adds && fabs(c.instructions_per_element - (double)c.instructions / (double)n) < 1e-9,
          "%s: %llu instructions, %.3f per element", version, (unsigned long long)c.instructions, c.instructions_per_element);
    trace_free(&t);
}

int main(void)
{
    /* one block: the definition, n - 1 adds in a tree of log2(n) levels */
    expect("v1", BLOCK, BLOCK - 1, lg(BLOCK), 1);
    expect("v3", 2 * BLOCK, 2 * BLOCK - 1, lg(2 * BLOCK), 1);
    /* two passes: 256 blocks of 256 elements, then one block over their 256 partials */
    uint64_t n1 = (uint64_t)BLOCK * BLOCK;
    expect("v1", n1, n1 - 1, lg(n1), 2);
    {   /* per launch, as the passes view draws them: level 0's 256 blocks of 255 adds in 8 levels, level 1's 255 in 8 */
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = "v1";
        d.block = BLOCK;
        d.n = n1;
        d.data = "random-int";
        d.blocks_traced = 1u << 30;
        trace t;
        trace_init(&t);
        char err[256];
        cost_figures c;
        if (capture_cpu(&d, &t, err, sizeof err) == 0 && cost_compute(&t, &c) == 0) {
            CHECK(c.pass_adds[0] == (uint64_t)BLOCK * (BLOCK - 1) && c.pass_adds[1] == BLOCK - 1, "v1 per pass: %llu, %llu adds",
                  (unsigned long long)c.pass_adds[0], (unsigned long long)c.pass_adds[1]);
            CHECK(c.pass_steps[0] == lg(BLOCK) && c.pass_steps[1] == lg(BLOCK), "v1 per pass: chains of %u and %u", c.pass_steps[0], c.pass_steps[1]);
            CHECK(c.pass_blocks_traced[0] == BLOCK && c.pass_blocks_traced[1] == 1, "v1: %u and %u blocks traced", c.pass_blocks_traced[0],
                  c.pass_blocks_traced[1]);
        } else CHECK(0, "v1: %s", err);
        trace_free(&t);
    }
    /* v3: 256 blocks of 512; the second pass's block of 256 threads has 256 partials, no first add */
    uint64_t n3 = (uint64_t)2 * BLOCK * BLOCK;
    expect("v3", n3, n3 - 1, lg(n3), 2);
    /* v4, one block: the unrolled warp's lanes all add at every level */
    uint64_t tree = BLOCK /* first adds */ + (BLOCK / 2 + BLOCK / 4) /* s = 128, 64 */;
    uint64_t tail = (uint64_t)WARP * TAIL_LEVELS;
    CHECK(tree + 63 == 2 * BLOCK - 1, "the useful adds of v4's block are n - 1");
    expect("v4", 2 * BLOCK, tree + tail, lg(2 * BLOCK), 1);
    /* v4s: the same adds as v4, each level's into a register it stores and never loads back (v) */
    expect("v4s", 2 * BLOCK, tree + tail, lg(2 * BLOCK), 1);
    CHECK_DONE("cost_should_follow_the_reductions_formulas");
}
