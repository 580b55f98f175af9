/* cards: the GPUs a launch can be put on, and how many of its blocks each holds at once.
 *
 * One table row per card: its streaming multiprocessors (SMs) and what one SM holds (threads,
 * blocks, registers, shared memory). From a row and a launch (threads per block, shared bytes and
 * registers per thread) the occupancy model gives the blocks resident on one SM, what limits them,
 * and the waves the launch's grid runs in: the same arithmetic as CUDA's occupancy calculator
 * (cuda_occupancy.h, cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
#ifndef WARPSCOPE_CARDS_H
#define WARPSCOPE_CARDS_H

#include <stddef.h>
#include <stdint.h>

/* What one row may list: spellings --card takes beside the id and the name, and the model strings
 * a GPU reports (cudaDeviceProp.name, nvidia-smi's name) for this row. */
#define CARD_ALIASES_MAX 3
#define CARD_DEVICES_MAX 4

typedef struct card {
    const char *id;            /* --card ID: "h100" */
    const char *name;          /* "NVIDIA H100 SXM5" */
    const char *aliases[CARD_ALIASES_MAX]; /* other spellings --card takes, each whole: "h100 sxm5" */
    const char *devices[CARD_DEVICES_MAX]; /* the model strings a GPU of this row reports, each whole:
                                              "NVIDIA H100 80GB HBM3"; a capture's device is one with sms */
    const char *source;        /* where the SM count comes from */
    unsigned cc_major, cc_minor;
    unsigned sms;              /* streaming multiprocessors */
    unsigned threads_per_sm, blocks_per_sm;
    unsigned regs_per_sm, regs_per_block;
    unsigned shared_per_sm;    /* bytes: the most a kernel's blocks may share on one SM */
    unsigned shared_per_block; /* bytes: the most one block may have (opt-in above 48 KB) */
    unsigned shared_reserved;  /* bytes the system keeps per block (compute capability 8.0 and later) */
    unsigned shared_unit;      /* shared memory is given to blocks in multiples of this */
    unsigned warp_size;
} card;

extern const card cards[];
extern const size_t ncards;

/* The row one of whose spellings (its id, its name, an alias or a device's model string) is name
 * whole, case ignored; NULL if none. Never a part of a name: "h1000" and "RTX A1000" find no row. */
const card *card_find(const char *name);
/* "unknown card \"h1000\"; the cards are gtx1050ti, ...; did you mean \"h100\"?" into err: the
 * spelling closest to name (edit distance, case ignored) when it is near enough to be a typo. */
void card_unknown(const char *name, char *err, size_t errlen);
/* The ids, comma separated, for messages: "gtx1050ti, gtx1060, ..." */
const char *card_ids(void);

/* The row of a GPU as it reports itself: its model string whole (as cudaDeviceProp.name gives it)
 * and its SM count (0: not known, the model string alone). NULL when the table has no such GPU: an
 * H100 PCIe is not the SXM5, an "NVIDIA H100 80GB HBM3" of 114 SMs is no row's. */
const card *card_for_device(const char *device, unsigned sms);

/* The row a trace of a GPU the table does not have is put on: named "unknown", no SMs, so that
 * every schedule on it fails with a message naming the trace's GPU and the SMs its capture saw,
 * instead of the figures of a neighbour it is not. */
extern const card card_unknown_gpu;

/* X(enum, JSON word, English): what stops an SM from holding one more block */
#define CARD_LIMITS(X)                              \
    X(THREADS, "threads", "threads per SM")         \
    X(BLOCKS, "blocks", "blocks per SM")            \
    X(SHARED, "shared_memory", "shared memory per SM") \
    X(REGISTERS, "registers", "registers per SM")

typedef enum card_limit {
#define CARD_X_ENUM(e, w, en) CARD_LIMIT_##e,
    CARD_LIMITS(CARD_X_ENUM)
#undef CARD_X_ENUM
    CARD_LIMIT_COUNT
} card_limit;
const char *card_limit_word(card_limit l);
const char *card_limit_text(card_limit l); /* the English words */

/* A launch as the occupancy model needs it. */
typedef struct card_launch {
    uint64_t grid;          /* blocks */
    unsigned block;         /* threads per block */
    unsigned shared_bytes;  /* static + dynamic shared memory per block */
    unsigned registers;     /* per thread; 0: not known (the emulator): registers are left out */
} card_launch;

typedef struct card_schedule {
    unsigned sms;
    unsigned by[CARD_LIMIT_COUNT]; /* blocks per SM each resource allows (registers: UINT32_MAX when unknown) */
    unsigned blocks_per_sm;        /* the least of them */
    card_limit limit;              /* which one: the first at the least, in the table's order */
    uint64_t resident_blocks;      /* blocks_per_sm x sms: the blocks on the card at once */
    uint64_t waves;                /* grid / resident, rounded up */
    uint64_t last_wave_blocks;     /* blocks in the last wave (resident_blocks when it is full) */
    double occupancy;              /* resident warps per SM / the most an SM holds */
} card_schedule;

/* 0, or -1 with a message when the launch does not fit the card at all (a block larger than an SM
 * holds, more shared memory than a block may have). */
int card_schedule_of(const card *c, const card_launch *l, card_schedule *s, char *err, size_t errlen);

/* The card a trace is seen on: the one named (may be NULL; NULL back when no row has that
 * spelling), else for a GPU capture the row of its device (card_for_device, the SMs its runs saw
 * within the row's), else &card_unknown_gpu; for the emulator's traces the default (h100). */
struct trace;
const card *card_for_trace(const struct trace *t, const char *name);
#define CARD_DEFAULT "h100"
/* The schedule of pass p of a trace on a card (its grid, block, shared memory and registers). */
int card_schedule_pass(const card *c, const struct trace *t, unsigned pass, card_schedule *s, char *err, size_t errlen);

/* What a GPU capture saw of one pass (trace_run): the blocks it recorded, the SMs they ran on, the
 * most blocks live on one SM at one time, and how many started before the first one ended. */
typedef struct card_observed {
    uint64_t blocks;
    unsigned sms_used;
    unsigned most_live_on_one_sm;
    uint64_t started_before_first_end;
    uint64_t span_ns;       /* first start to last end */
} card_observed;
/* 0, or -1 when the trace recorded no runs for the pass (the emulator) or memory ran out. */
int card_observe(const struct trace *t, unsigned pass, card_observed *o);

/* The waves of pass p: where a GPU capture recorded every block's run, as the card ran them (a
 * wave: as many blocks, in start order, as started before the first one ended); else the model's
 * on card c (NULL: none); 1 when there is neither. *timed (may be NULL) says which; o (may be
 * NULL) gets the observed figures. The viewer's keys and its picture count waves with it. */
uint64_t card_pass_waves(const card *c, const struct trace *t, unsigned pass, card_observed *o, int *timed);

/* The model's placement of block b of the launch: its wave, and the SM it lands on (block order,
 * SMs filled in turn: the simplest model; a GPU capture records the real one). */
static inline uint64_t card_wave_of(const card_schedule *s, uint64_t b) { return s->resident_blocks ? b / s->resident_blocks : 0; }
static inline unsigned card_sm_of(const card_schedule *s, uint64_t b) { return s->sms ? (unsigned)(b % s->sms) : 0; }

#endif
