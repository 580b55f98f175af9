/* schedule: the table of schedule policies and the adversarial search. See schedule.h. */
#include "trace/capture/schedule.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* independent thread scheduling: a random ready lane leads, and each other ready lane at the same
 * point joins it with probability 1/2 (hardware often keeps lanes together, but need not) */
static uint32_t pick_its(uint32_t ready, const emu_op *const ops[WARP_SIZE], uint64_t *rng)
{
    uint64_t r = emu_random(rng);
    unsigned k = (unsigned)(r % (unsigned)__builtin_popcount(ready)), lead = 0;
    for (uint32_t m = ready;; m &= m - 1)
        if (k-- == 0) { lead = (unsigned)__builtin_ctz(m); break; }
    uint32_t group = 1u << lead;
    uint64_t coin = emu_random(rng);
    for (unsigned l = 0; l < WARP_SIZE; l++)
        if ((ready >> l & 1) && l != lead && ops[l]->line == ops[lead]->line && ops[l]->kind == ops[lead]->kind &&
            (coin >> l & 1))
            group |= 1u << l;
    return group;
}

static uint32_t pick_lanes_up(uint32_t ready, const emu_op *const ops[WARP_SIZE], uint64_t *rng)
{
    (void)ops;
    (void)rng;
    return ready & -ready;
}

static uint32_t pick_lanes_down(uint32_t ready, const emu_op *const ops[WARP_SIZE], uint64_t *rng)
{
    (void)ops;
    (void)rng;
    return 1u << (31 - __builtin_clz(ready));
}

const schedule_policy schedule_policies[] = {
    {"lockstep", "lanes at the lowest line run together (reconvergence); hardware for race-free code", emu_pick_lockstep, 0},
    {"its", "independent thread scheduling: a random lane and a random part of the lanes at its point run next", pick_its, 1},
    {"lanes-up", "one lane at a time, lowest first: each lane runs ahead until it must wait", pick_lanes_up, 0},
    {"lanes-down", "one lane at a time, highest first", pick_lanes_down, 0},
    {"adversarial", "searches the orders above and the warp orders for one that changes the result", NULL, 0},
};
const size_t schedule_policy_count = sizeof schedule_policies / sizeof schedule_policies[0];

static int parse_seed(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

int schedule_parse(const char *spec, emu_schedule *s, int *adversarial, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    *adversarial = 0;
    if (!spec || !*spec) spec = "lockstep";
    /* "+blocks:SEED": the launches' blocks in an order drawn from SEED */
    const char *plus = strstr(spec, "+blocks:");
    char head[64];
    if (plus) {
        if (parse_seed(plus + 8, &s->block_seed) || !s->block_seed || (size_t)(plus - spec) >= sizeof head) {
            snprintf(err, errlen, "--schedule's +blocks:SEED needs a seed, a whole number from 1, got \"%.80s\"", spec);
            return -1;
        }
        snprintf(head, sizeof head, "%.*s", (int)(plus - spec), spec);
        spec = head;
    }
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    for (size_t i = 0; i < schedule_policy_count; i++) {
        const schedule_policy *p = &schedule_policies[i];
        if (strlen(p->name) != nlen || strncmp(p->name, spec, nlen) != 0) continue;
        if (p->seeded && (!colon || parse_seed(colon + 1, &s->seed))) {
            snprintf(err, errlen, "--schedule %s needs a seed, a whole number: %s:SEED, e.g. %s:1", p->name, p->name, p->name);
            return -1;
        }
        if (!p->seeded && colon) {
            snprintf(err, errlen, "--schedule %s takes no seed, got \"%s\"", p->name, spec);
            return -1;
        }
        s->pick = p->pick;
        *adversarial = p->pick == NULL;
        if (*adversarial && s->block_seed) {
            snprintf(err, errlen, "--schedule adversarial searches its own orders: it takes no +blocks:SEED");
            return -1;
        }
        return 0;
    }
    snprintf(err, errlen, "--schedule must be lockstep, its:SEED, lanes-up, lanes-down or adversarial, got \"%s\"", spec);
    return -1;
}

int schedule_parse_warps(const char *spec, emu_schedule *s, char *err, size_t errlen)
{
    if (!spec || !*spec || !strcmp(spec, "in-order")) { s->warps = EMU_WARPS_IN_ORDER; return 0; }
    if (!strcmp(spec, "reversed")) { s->warps = EMU_WARPS_REVERSED; return 0; }
    uint64_t seed;
    if (!strncmp(spec, "seeded:", 7) && !parse_seed(spec + 7, &seed)) {
        s->warps = EMU_WARPS_SEEDED;
        s->seed ^= seed * 0xd1342543de82ef95ull; /* mixed into its:SEED's own seed, if any */
        return 0;
    }
    snprintf(err, errlen, "--warp-order must be in-order, reversed or seeded:SEED, got \"%s\"", spec);
    return -1;
}

/* The orders the search tries, most telling first: one lane running ahead of the others, the
 * warps the other way round, then seeded interleavings. */
static const struct {
    const char *lanes, *warps;
} candidates[] = {
    {"lanes-up", "in-order"},   {"lanes-down", "in-order"}, {"lockstep", "reversed"}, {"lanes-up", "reversed"},
    {"lanes-down", "reversed"}, {"its:1", "seeded:1"},      {"its:2", "seeded:2"},    {"its:3", "seeded:3"},
    {"its:4", "seeded:4"},      {"its:5", "seeded:5"},      {"its:6", "seeded:6"},    {"its:7", "seeded:7"},
    {"its:8", "seeded:8"},
};

size_t schedule_candidates(void)
{
    return sizeof candidates / sizeof candidates[0];
}

void schedule_candidate(size_t i, const char **lanes, const char **warps)
{
    *lanes = candidates[i].lanes;
    *warps = candidates[i].warps;
}
