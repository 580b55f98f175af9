/* schedule: the schedule policies of the emulator, in one table, and the orders the adversarial
 * search tries (capture.c runs the search).
 *
 * A schedule decides two things the CUDA programming model leaves open (emu.h): which ready lanes
 * of a warp run its next instruction, and in which order the warps of a block run between two
 * barriers. Race-free code gives the same result under every schedule; code with a race may not.
 *
 *   lockstep      lanes at the lowest line run together (reconvergence), as hardware runs
 *                 race-free code; the default
 *   its:SEED      independent thread scheduling (Volta and later): at every traced point a random
 *                 ready lane and a random subset of the lanes at the same point run; the same
 *                 seed gives the same order
 *   lanes-up      one lane at a time, the lowest ready lane first: lane 0 runs ahead until it
 *                 must wait (a barrier, a __syncwarp, a shuffle, its exit)
 *   lanes-down    the same, highest lane first
 *   adversarial   searches the orders above (and the warp orders) for one whose result differs
 *                 from lockstep's: the race made visible, if there is one
 *
 * Warp orders: in-order, reversed, seeded:SEED. Block orders: a schedule but adversarial followed by
 * +blocks:SEED ("lockstep+blocks:7") runs each launch's blocks in an order drawn from SEED, as a GPU
 * may (index order without it). */
#ifndef WARPSCOPE_SCHEDULE_H
#define WARPSCOPE_SCHEDULE_H

#include <stddef.h>

#include "trace/capture/emu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct schedule_policy {
    const char *name;
    const char *summary;
    emu_pick_fn pick; /* NULL for adversarial, which is a search, not a pick */
    int seeded;       /* 1: written NAME:SEED */
} schedule_policy;

extern const schedule_policy schedule_policies[];
extern const size_t schedule_policy_count;

/* "lockstep", "its:7", "lanes-up", "lanes-down", "adversarial" (NULL or "": lockstep) into s;
 * *adversarial is set for the search. 0, or -1 with why in err. */
int schedule_parse(const char *spec, emu_schedule *s, int *adversarial, char *err, size_t errlen);
/* "in-order", "reversed", "seeded:SEED" (NULL or "": in order) into s->warps (and s->seed when
 * the lane policy has none). */
int schedule_parse_warps(const char *spec, emu_schedule *s, char *err, size_t errlen);

/* The orders the adversarial search tries (capture.c runs it), most telling first: how many, and
 * the i-th as a lane schedule and a warp order for capture_desc. */
size_t schedule_candidates(void);
void schedule_candidate(size_t i, const char **lanes, const char **warps);

#ifdef __cplusplus
}
#endif
#endif
