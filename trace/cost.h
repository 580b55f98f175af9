/* cost: the work and step complexity of a capture, as Harris's cost table counts them.
 *
 * Read from the trace's data flow, never from the version's name:
 * - a thread's operands are the values it loaded (shared, global) or received by a shuffle since its
 *   last write; at a write (a store, or a value given to the register the kernel watches) the
 *   operands that make up the written value are added: k operands are k - 1 adds, and k + 1 when the
 *   register's old value is one of them (sum += ...), or the value the thread wrote last (a local it
 *   adds into and stores without loading it back: v4s's `v += sdata[tid + offset]; sdata[tid] = v`).
 *   Which operands those are is read from the
 *   values: the latest operands whose sum (without, with the register's old value, or with the last write) is the written
 *   value, to a float's rounding; operands no write consumed (a flag, a bound) are not added; a write
 *   that none of them sum to is a copy (of the register) or a constant, and adds nothing;
 * - the depth of a value is the longest chain of adds behind it: a cell of the input is 0; k operands
 *   are added as a balanced tree (what `(v.x + v.y) + (v.z + v.w)` writes), then into the register;
 *   a stored cell keeps its depth, so a later pass that reads the partials continues the chain;
 * - an atomic's add is not counted: the trace records the old value, not the operation (the ladder's
 *   one atomic, v8's ticket, adds no data);
 * - instructions are the per-thread operations the trace records: each load, store, atomic and
 *   shuffle a lane took part in (a float4 access is one), each barrier it waited at, and each add.
 *   Index arithmetic, compares and loop control are not in a trace and are not counted.
 * Only traced blocks are counted: complete is 1 when every block of every pass was traced. */
#ifndef WARPSCOPE_COST_H
#define WARPSCOPE_COST_H

#include <stdint.h>

#include "trace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cost_figures {
    uint64_t adds;          /* additions executed by the traced blocks, all passes */
    unsigned steps;         /* the longest chain of dependent adds, through every pass */
    uint64_t instructions;  /* per-thread operations recorded (see above) */
    uint64_t elements;      /* input elements the traced blocks read (a float4 is 4) */
    double instructions_per_element; /* instructions / elements; 0 when no element was read */
    double adds_per_element;
    unsigned blocks_traced, blocks; /* over all passes */
    int complete;           /* every block of every pass traced */
    /* the same per pass (launch): adds, its longest chain counted from the pass's own input, blocks traced */
    uint64_t pass_adds[TRACE_PASSES_MAX];
    unsigned pass_steps[TRACE_PASSES_MAX], pass_blocks_traced[TRACE_PASSES_MAX];
    /* the most bytes the count held at once, as asked of the allocator: the states of the blocks
     * whose events were under way (a thread's operands, a block's shared words), the global elements
     * stored, and a few words a block. The emulator writes one block after another, so this grows
     * with the blocks and elements, not with the blocks times their threads (the memory benchmark
     * and test bound it). */
    uint64_t scratch_bytes;
} cost_figures;

/* 0, or -1 when out of memory. */
int cost_compute(const trace *t, cost_figures *out);

#ifdef __cplusplus
}
#endif
#endif
