/* ladder: the versions of the reduction, in one table, and how each is launched.
 *
 * A version's launch plan is the list of launches that reduces n elements to one value: passes of
 * ceil(m / (block * elems_per_thread)) blocks until one value remains (the naive version instead
 * launches once per stride over the same buffer; v8 launches once whatever n is).
 *
 * Metadata only: this table belongs to the trace-reading library. Which compiled code runs a
 * version is the producing library's business (capture.h: capture_emu_kernel). */
#ifndef WARPSCOPE_LADDER_H
#define WARPSCOPE_LADDER_H

#include <stddef.h>
#include <stdint.h>


#ifdef __cplusplus
extern "C" {
#endif

typedef enum ladder_shape {
    LADDER_TREE,        /* passes of blocks, each writing one partial sum */
    LADDER_IN_PLACE,    /* naive: one launch per stride, in place over a copy of the input */
    LADDER_SINGLE_PASS  /* v8: one launch, the last block finishes */
} ladder_shape;

typedef struct ladder_version {
    const char *id;
    const char *title;
    const char *summary;
    const char *file;     /* kernel source, relative to the project root */
    const char *aliases;  /* other names in the seeds and slides, comma separated */
    ladder_shape shape;
    unsigned min_block, max_block; /* powers of two in between */
    unsigned ept_default;          /* elements each thread reduces from the input */
    unsigned ept_multiple;         /* elements per thread must be a multiple of this */
    int ept_tunable;               /* 1 when --ept may change it */
    unsigned bench_block;          /* the block the benchmark runs it with (tuned on an H100 and an H200) */
    char key;                      /* the viewer's key that picks it ('0'..'9', 'N') */
    const char *hw_note;           /* why a GPU trace may legitimately differ from the emulator's, or NULL */
    const char *title_zh, *summary_zh; /* the title and summary in Simplified Chinese */
    int races;                     /* 1: it races on purpose, to be watched (left out of bench and verify by default) */
} ladder_version;

extern const ladder_version ladder_versions[];
extern const size_t ladder_count;

/* By id (v0) or by any alias (reduce0, reduceNeighbored...), case-insensitive; NULL if none. */
const ladder_version *ladder_find(const char *name);
/* "unknown version \"vv2\"; did you mean \"v2\"? (warpscope list shows them)" into err */
void ladder_unknown(const char *name, char *err, size_t errlen);
/* The version id of a trace of a learner's own file (capture --kernel); its source names the file. */
#define OWN_VERSION "kernel"
/* 0 when the version runs blocks of this size; else -1 and why in err. */
int ladder_check_block(const ladder_version *v, unsigned block, char *err, size_t errlen);
int ladder_check_ept(const ladder_version *v, unsigned ept, char *err, size_t errlen);
/* 1 when a symbol made from an id by the kernel files' macros (naive_race) names version id
 * (naive-race): C names have '_' where ids have '-'. */
int ladder_symbol_is(const char *symbol, const char *id);

typedef struct ladder_pass {
    unsigned grid, block, stride;
    uint64_t n_in;
} ladder_pass;

enum { LADDER_MAX_PASSES = 64 };

/* Fills passes[] (at most LADDER_MAX_PASSES) and returns how many, or -1 if n is 0. */
int ladder_plan(const ladder_version *v, unsigned block, uint64_t n, unsigned ept, ladder_pass *passes);

#ifdef __cplusplus
}
#endif
#endif
