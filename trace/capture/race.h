/* race: a happens-before race detector for the emulator, in the manner of compute-sanitizer's
 * racecheck, over shared memory and (within one launch) global memory.
 *
 * For each 4-byte word it keeps the last writer and the readers since that write, each with the
 * barrier epoch of its block, its warp's __syncwarp count and the time it ran. A new access by
 * another thread that conflicts with one of them (at least one is a write) and is not ordered
 * after it is a hazard: read after write (RAW), write after read (WAR), write after write (WAW).
 * Ordered means: the same thread; a __syncthreads of the block in between; within a warp, a
 * __syncwarp that both lanes took part in; between blocks (global memory), the writer fenced
 * (__threadfence) and then did an atomic, and the other thread (or its block, through a later
 * barrier) did an atomic after that, as the threadFenceReduction sample publishes its partials.
 * Launches are ordered with each other (a kernel boundary), so global state starts fresh each
 * launch. Atomics themselves never race.
 *
 * Hazards are deduplicated by (kind, space, buffer, pass, first line, second line), with a count
 * and the first pair of accesses as the example. Only eight readers per word are remembered; a
 * ninth unordered reader of the same word replaces one at its own line (else the oldest), so a
 * word read by more than eight threads between two writes may have hazards counted fewer times
 * (never invented). */
#ifndef WARPSCOPE_RACE_H
#define WARPSCOPE_RACE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/capture/emu.h"
#include "trace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Global words at or past this index are not watched; race_watched_global says whether every global
 * access was. It is every word a check's certificate replays (certify.h's CERTIFY_GLOBAL_WORDS_MAX):
 * the shadow (about 300 bytes a word) is made a page at a time, where the accesses are. */
enum { RACE_GLOBAL_MAX_WORDS = 1 << 26 };
/* A capture looks for races as it runs up to this many elements (its shadow then stays near 150 MB);
 * a check's runs, replayed afterwards (race_replay), are watched up to RACE_GLOBAL_MAX_WORDS. */
enum { RACE_CAPTURE_MAX_N = 1 << 19 };
/* The words of global memory watched at once, every buffer together (the shadow's bound, about
 * 300 MB): a run whose accesses spread over more pages of 1024 words is not watched whole. */
enum { RACE_SHADOW_WORDS_MAX = 1 << 20 };

typedef struct race race;

/* readonly_buf: a global buffer id the kernels only read (the input), -1 none: its reads cannot
 * race and are not recorded. NULL when out of memory. */
race *race_create(int readonly_buf);
void race_destroy(race *r);
/* What the emulator calls (emu_launch.observer); ctx is the race. */
const emu_observer *race_observer(race *r);
/* 0, or -1 when it ran out of memory (then some accesses went unwatched). */
int race_status(const race *r);
/* 1 when every global access was watched (no buffer over RACE_GLOBAL_MAX_WORDS). */
int race_watched_global(const race *r);
/* Appends the hazards to t (trace_add_hazard). 0, or -1 when out of memory. */
int race_to_trace(const race *r, trace *t);
/* Replaces t's hazards with those the detector finds in t's events, replayed in the order they ran
 * (each lane's access, a barrier's release where a warp's phase moves on, each __syncwarp, fence
 * and atomic), so that a check believes no hazards list a run wrote itself. Only the traced blocks'
 * accesses are seen: a check traces every block. 0; 1 when some global accesses were not watched
 * (past RACE_GLOBAL_MAX_WORDS, or spread over more pages than RACE_SHADOW_WORDS_MAX holds); -1 when
 * out of memory. */
int race_replay(trace *t);

#ifdef __cplusplus
}
#endif
#endif
