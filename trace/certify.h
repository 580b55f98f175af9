/* certify: a trace checked as a certificate of the computation it claims, against the input the
 * checker generated itself.
 *
 * A learner's program and the emulator run in one process, so anything in that process can write
 * anything into the trace: its hazards, its result, its events. What the trace says is therefore
 * believed only where it is consistent with an input the checker knows and the program did not
 * choose, replayed event by event:
 * - order: the events are replayed in the order the trace holds them: launches one after another,
 *   each block whole and once, the blocks of a launch in the order they ran (any: a GPU promises none);
 * - memory: every global load of the input buffer returns the element the checker generated at that
 *   index; every load of a word some traced store wrote returns the last value stored there (shared
 *   words per block, global words per buffer; atomics leave their word unknown, as the trace keeps
 *   the old value and not the operation); a word no traced store wrote (the host's cudaMemcpy, a
 *   cudaMemset, memory never written) is taken at the value first read there, as a value from
 *   outside the kernels;
 * - values: each value a thread writes (a store, the watched register, another float of a learner's
 *   kernel) or hands to another lane (a shuffle) is made of what it read (or of floats it holds): the sum (or, for a maximum, the largest) of its latest operands
 *   since its last write, with its register or its last written value first or not; a copy; or a
 *   value from outside (a constant, an argument, host memory). Each becomes a node of the data flow,
 *   whose depth is the longest chain of dependent adds behind it (operands folded one after another,
 *   the lanes of one float4 as a balanced pair of pairs);
 * - the result: the last value stored at out[0] (or in[0]) is the result, and it must be what the run
 *   says it computed; walking back from it, every input element is added exactly once (a sum; a
 *   maximum compares each), and no value from outside takes part but the operation's identity (0 for
 *   a sum, a value at most the smallest element for a maximum). A value of the identity takes no part
 *   (0 in a sum of elements from 0 up has many explanations). A run that misses an element is a
 *   consistent one that computed a wrong result (elements_off), unless it lands on the right value
 *   all the same, which then was made some other way and is not believed.
 * A forged trace that passes is then a consistent execution of a reduction of this input, which is
 * what an exercise asks for; the facts below (the chain, the shuffles used, the first adds, the
 * last block's ticket) are read from that data flow. No emulator and no SDL. */
#ifndef WARPSCOPE_CERTIFY_H
#define WARPSCOPE_CERTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum certify_op { CERTIFY_SUM, CERTIFY_MAX } certify_op;

/* The limits of a replay: a trace whose global indices or data flow go past them is not verified
 * (the checker's own runs stay far below). */
enum { CERTIFY_GLOBAL_WORDS_MAX = 1 << 26 };

typedef struct certify_input {
    const double *in;  /* the n elements the checker generated, in the data's type */
    uint64_t n;
    certify_op op;
    int result_in;     /* the result is in[0] (buffer 0), else out[0] (buffer 1) */
} certify_input;

typedef struct certify_facts {
    int verified;            /* 1: every check held; 0: why and line say what did not */
    char why[512];
    uint32_t line;           /* the source line of the first event that failed a check; 0 none */
    double result;           /* the verified result (only when verified) */
    unsigned result_chain;   /* the longest chain of dependent adds (or comparisons) behind the result */
    uint64_t adds;           /* adds (comparisons) in the result's data flow */
    uint64_t shuffles_used;  /* shuffled values (one per receiving lane) that take part in the result: a
                                value from another lane (one handed back to its own lane moved nothing) */
    uint64_t input_adds;     /* adds whose two operands are both input elements: the first add during load */
    unsigned loads_in_flight; /* the most input elements one thread loads in one turn: loads whose addresses
                                 and values feed none of the others before they are all issued (each load
                                 added into a value comes a turn after the latest value it is added to, or
                                 after the load its index was read from), whichever floats hold them */
    uint64_t outside_reads;  /* loads of words no traced store or input gave (values from outside) */
    int result_by_last_ticket; /* the block that stored the result drew the last ticket of its launch:
                                  the largest old value an atomic on a word returned there, equal to
                                  that launch's blocks - 1 */
    unsigned result_blocks;  /* (pass, block)s whose writes take part in the result */
    uint64_t elements_off;   /* input elements not added exactly once (a sum) or never compared (a maximum):
                                the run is then a consistent one whose result is wrong */
    char element_words[160]; /* the first of them, in words */
} certify_facts;

/* Replays t against in. 0 with f filled (f->verified says whether it holds, and why not); -1 when out
 * of memory (err). */
int certify_trace(const trace *t, const certify_input *in, certify_facts *f, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
