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

#include "analysis.h"
#include "trace.h"

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
} view_model;

/* 0, or -1 when out of memory or the block was not traced (err says which). */
int view_build(view_model *m, const trace *t, unsigned pass, unsigned block, int fine, char *err, size_t errlen);
void view_free(view_model *m);

/* lanes[threads]: each thread's state at step s. */
void view_lanes(const view_model *m, size_t s, unsigned char *lanes);
/* First and last step of a phase; -1 if none. */
long view_phase_first(const view_model *m, unsigned phase);
long view_phase_last(const view_model *m, unsigned phase);

/* Counters of the block from its first step up to and including step s. */
typedef struct view_counts {
    uint64_t warp_instructions, divergent, conflicts_load, conflicts_store, barriers, sectors, sectors_min;
    uint64_t active_lanes;
    unsigned active_threads_phase; /* threads that worked so far in the current phase */
} view_counts;
void view_counts_at(const view_model *m, size_t s, view_counts *c);

/* Shared memory after step s: cells[nwords], written[nwords]. */
void view_shared_at(const view_model *m, size_t s, float *cells, unsigned char *written);

/* The words whose values add up into word `w` by the end of step s (w included). */
void view_subtree(const view_model *m, size_t s, int64_t w, unsigned char *in_tree);

#endif
