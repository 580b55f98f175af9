/* analysis: facts derived from a trace, per event and per phase.
 *
 * Nothing here is stored in the trace; all of it is recomputed from the log, so the emulator and a
 * GPU capture are analysed by the same code.
 * - live lanes: lanes of the block's warp that have not exited before the event;
 * - divergent: a data instruction whose mask leaves out live lanes (they are elsewhere in the code);
 * - bank-conflict degree: 32 banks of 4-byte words; the most distinct words one bank must serve in
 *   the access (the same word twice is a broadcast); extra wavefronts = degree - 1, what Nsight
 *   Compute counts as l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st};
 * - global sectors: distinct 32-byte sectors a warp request touches, against the fewest possible
 *   for that many bytes;
 * - phases: the intervals between __syncthreads; phase k holds what a warp did after k barriers. */
#ifndef WARPSCOPE_ANALYSIS_H
#define WARPSCOPE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct analysis_event {
    uint32_t live;      /* lanes of the warp alive before the event */
    int divergent;      /* 1: data instruction with live lanes outside its mask */
    int bank_degree;    /* shared accesses: 1 = no conflict; 0 for other kinds */
    int sectors, sectors_min; /* global accesses; 0 otherwise */
} analysis_event;

/* One entry per event of the trace, in order. Returns 0, or -1 when out of memory. */
int analysis_events(const trace *t, analysis_event *out);

/* One bank in one shared-memory access: the distinct words asked of it, each one wavefront (the
 * same word twice is a broadcast), and the lanes that asked it. A lane's words (4 of a float4) lie
 * in different banks, so a bank serves at most one word per lane. */
typedef struct analysis_bank {
    int nwords;
    int64_t words[WARP_SIZE];
    uint32_t lanes;
} analysis_bank;

/* Fills banks[BANKS] for the shared access e (bank = word mod BANKS) and returns its bank-conflict
 * degree: the most words one bank serves (1: no conflict; 0 when no lane took part). The one
 * count behind analysis_event.bank_degree, the viewer's lanes-to-banks picture and the queries. */
int analysis_banks(const trace *t, const trace_event *e, analysis_bank banks[BANKS]);

typedef struct analysis_counters {
    uint64_t active_threads;              /* threads that made a memory access or shuffle */
    uint64_t idle_threads;                /* live threads that made none */
    uint64_t warp_instructions;           /* data instructions (loads, stores, atomics, shuffles) */
    uint64_t divergent_warp_instructions;
    uint64_t active_lanes;                /* summed over those instructions */
    uint64_t lane_slots;                  /* lanes that exist in their warps, summed over those instructions:
                                             32 a warp, fewer for a block's partial last warp */
    uint64_t bank_conflicts_load, bank_conflicts_store; /* extra wavefronts */
    uint64_t shared_loads, shared_stores; /* warp requests */
    uint64_t global_requests, global_sectors, global_sectors_min;
    uint64_t shuffles, barriers;          /* barrier: one per warp that waited */
    double simd_efficiency;               /* active lanes / lane slots (32 a whole warp's instruction) */
} analysis_counters;

/* Counters of each phase of one traced block of one pass. *phases is malloc'd (caller frees);
 * totals are the phases' counters summed. -1 when the block was not traced or out of memory.
 * O(events of the trace); for many blocks, analysis_grid_build does them all at once. */
int analysis_phases(const trace *t, unsigned pass, unsigned block, analysis_counters **phases,
                    size_t *nphases, analysis_counters *totals);

/* a += b, with a's SIMD efficiency recomputed from the summed lanes and instructions */
void analysis_counters_add(analysis_counters *a, const analysis_counters *b);

/* ---- the whole grid: every traced block of every pass, in one pass over the events ---- */

typedef enum analysis_block_state {
    ANALYSIS_BLOCK_WAITING,    /* none of its events yet */
    ANALYSIS_BLOCK_RUNNING,
    ANALYSIS_BLOCK_AT_BARRIER, /* its latest event is a __syncthreads release */
    ANALYSIS_BLOCK_DONE        /* all its events done and every thread exited */
} analysis_block_state;

typedef struct analysis_block {
    unsigned pass, block;
    size_t first, count;        /* its events: analysis_grid.order[first .. first + count) */
    size_t nphases;
    analysis_counters totals;   /* summed over its phases */
    int exited;                 /* every thread of the block exited within the trace */
    int has_partial;            /* thread 0 stored to element `block` of global memory: */
    float partial;              /*   the block's partial sum (the first such store) */
    unsigned partial_buf;       /*   in this buffer (the pass's output; the next pass reads it) */
    unsigned sm;                /* GPU captures: the SM of its first event; 0 from the emulator */
    uint64_t clock_first, clock_last; /* GPU captures: its events' clock range */
} analysis_block;

typedef struct analysis_grid {
    uint32_t *order;            /* event indices grouped by (pass, block), trace order within */
    analysis_block *blocks;     /* traced blocks, by pass then block */
    size_t nblocks;
    size_t *pass_first;         /* blocks of pass p: [pass_first[p], pass_first[p + 1]) */
    size_t npasses;
} analysis_grid;

/* O(events): per-block counters, phases, partial sums and states of the whole trace. 0, or -1
 * when out of memory. Free with analysis_grid_free. */
int analysis_grid_build(const trace *t, analysis_grid *g);
void analysis_grid_free(analysis_grid *g);
/* NULL when that block was not traced */
const analysis_block *analysis_grid_find(const analysis_grid *g, unsigned pass, unsigned block);
/* Sums the traced blocks of a pass into *sum; returns how many blocks that is. */
int analysis_grid_totals(const analysis_grid *g, unsigned pass, analysis_counters *sum);
/* The block's state once the trace's events up to index `cursor` (inclusive) have happened. */
analysis_block_state analysis_block_state_at(const trace *t, const analysis_grid *g, const analysis_block *b,
                                             size_t cursor);

/* One edge of the reduction tree: the value at `from` was added into `to` by `thread`. */
typedef struct analysis_edge {
    int buf;            /* -1: shared memory; else the global buffer */
    int64_t from, to;   /* word (shared) or element (global) */
    unsigned phase, line, thread;
} analysis_edge;

/* The load-load-store pattern of each thread, as edges, for one block of one pass. */
int analysis_tree(const trace *t, unsigned pass, unsigned block, analysis_edge **edges, size_t *nedges);

/* Number of shared-memory words the block touched (highest word + 1). */
size_t analysis_shared_words(const trace *t, unsigned pass, unsigned block);
/* Shared memory at the end of `phase` (replay of the stores); written[i] says if word i was ever
 * stored. cells and written have nwords entries. */
void analysis_shared_after(const trace *t, unsigned pass, unsigned block, unsigned phase, float *cells,
                           unsigned char *written, size_t nwords);

#ifdef __cplusplus
}
#endif
#endif
