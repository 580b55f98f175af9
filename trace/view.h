/* view: what the viewer shows at each step of one traced block, derived from the trace.
 * No SDL here, so the model is tested on its own.
 *
 * A step is one point of the code in one phase: the events of all warps at the same (line, kind,
 * n-th time in the phase), the way a learner thinks of the block executing a line; in the fine
 * mode each event is its own step (warp by warp). */
#ifndef WARPSCOPE_VIEW_H
#define WARPSCOPE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "trace/analysis.h"
#include "trace/trace.h"

typedef enum view_lane {
    VIEW_LANE_IDLE,     /* live, but its warp is not at this point */
    VIEW_LANE_WORKING,  /* in the mask of this step's instruction */
    VIEW_LANE_DIVERGED, /* its warp is here, the lane is live elsewhere */
    VIEW_LANE_BARRIER,  /* waiting at __syncthreads */
    VIEW_LANE_EXITED
} view_lane;

typedef struct view_step {
    size_t first, count; /* events of the step: order[first .. first+count) */
    unsigned phase, line;
    int kind;
} view_step;

/* One addition of the reduction tree: `from`'s value was added into `word`, by `thread`, which
 * stored `value`; level is how many additions `word` had received before (Harris's rows), and
 * from_level how many `from` had. buf -1: shared memory; else the global buffer (naive). */
typedef struct view_node {
    int64_t word, from;
    int level, from_level, buf;
    float value;
    float expected; /* what it should hold: the sum of its subtree's leaves (differs after a race) */
    unsigned thread;
    size_t step; /* the step of the store */
} view_node;

/* One lane of a shuffle: `lane` of `warp` received `value` from lane `src`; level is the warp's
 * k-th shuffle in the block (its row in the tree over lanes). */
typedef struct view_shfl {
    unsigned warp, lane, src;
    int level;
    float value;
    size_t step;
} view_shfl;

/* An assignment to a register the kernel watches (its first float, a TRACE_REGISTER event). It is not
 * a step of its own (an add in a register is not a memory instruction, and lessons and compare
 * count operations): it shows from `step` on, the step of its warp's instruction just before it
 * (the load it adds up), or the warp's first step for one made before any. */
typedef struct view_reg {
    size_t event;
    size_t step;
} view_reg;

typedef struct view_model {
    const trace *t;
    unsigned pass, block, threads, nwarps, nphases;
    int fine;
    size_t *order;          /* event indices of this block, in step order */
    size_t norder;
    view_step *steps;
    size_t nsteps;
    analysis_event *facts;  /* per event of the whole trace */
    analysis_edge *edges;
    size_t nedges;
    size_t nwords;          /* shared-memory words the block touched */
    /* the reduction tree, derived once: nodes in order of their stores */
    view_node *nodes;
    size_t nnodes;
    int tree_buf;           /* the memory the tree lives in: -1 shared, else a global buffer */
    int64_t tree_words;     /* words (or elements) 0 .. tree_words-1 of that memory */
    float *leaf_value;      /* [tree_words] the first value each word held in the block */
    size_t *leaf_step;      /* [tree_words] the step it appeared (SIZE_MAX: never) */
    int tree_levels;        /* rows above the leaves */
    view_shfl *shfl;
    size_t nshfl;
    int shfl_levels;
    size_t *event_step;     /* step that shows each event of the trace (SIZE_MAX: not this block); a
                               register assignment's is the step it is shown from (view_reg) */
    view_reg *regs;         /* the block's register assignments, in trace order */
    size_t nregs;
} view_model;

/* 0, or -1 when out of memory or the block was not traced (err says which). */
int view_build(view_model *m, const trace *t, unsigned pass, unsigned block, int fine, char *err, size_t errlen);
void view_free(view_model *m);

/* lanes[threads]: each thread's state at step s. */
void view_lanes(const view_model *m, size_t s, unsigned char *lanes);
/* First and last step of a phase; -1 if none. */
long view_phase_first(const view_model *m, unsigned phase);
long view_phase_last(const view_model *m, unsigned phase);
/* The step that shows what phase `phase` is for: its first shared access, shuffle or store into the
 * tree; the phase's first step when it has none; -1 when there is no such phase. */
long view_phase_defining(const view_model *m, unsigned phase);

/* The shared-memory access of step s with the highest bank-conflict degree (the first of equals),
 * of that warp when warp >= 0: its event index, or -1 when the step has none. The access the
 * lanes-to-banks picture shows and the lessons' conflict questions ask about. */
long view_worst_shared(const view_model *m, size_t s, long warp);

/* Counters of the block from its first step up to and including step s. */
typedef struct view_counts {
    uint64_t warp_instructions, divergent, conflicts_load, conflicts_store, barriers, sectors, sectors_min;
    uint64_t active_lanes;
    uint64_t lane_slots; /* lanes that exist in the warps of those instructions (SIMD efficiency's denominator) */
    unsigned active_threads_phase; /* threads that worked so far in the current phase */
} view_counts;
void view_counts_at(const view_model *m, size_t s, view_counts *c);

/* Shared memory after step s: cells[nwords], written[nwords]. */
void view_shared_at(const view_model *m, size_t s, float *cells, unsigned char *written);

/* Each lane of `warp`'s watched register after step s: vals[32]; state[32] is 0 before its first
 * assignment, 1 held, 2 assigned at step s. */
void view_registers_at(const view_model *m, size_t s, unsigned warp, float *vals, unsigned char *state);
/* Device printf at step s: the first line its events wrote (NULL if none), with how many in *n. */
const trace_print *view_step_prints(const view_model *m, size_t s, size_t *n);

/* The words whose values add up into word `w` by the end of step s (w included). */
void view_subtree(const view_model *m, size_t s, int64_t w, unsigned char *in_tree);

#endif
