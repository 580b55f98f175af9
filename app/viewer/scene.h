/* scene: everything a frame shows, derived from the session once per change. Panels draw from a
 * const scene and never call the trace library or the emulator; the hardware's sizes (WARP_SIZE,
 * BANKS, WORD_BYTES) are trace.h's. */
#ifndef WARPSCOPE_SCENE_H
#define WARPSCOPE_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "app/viewer/session.h"
#include "trace/cards.h"

/* a bank in the access the lanes-to-banks picture shows: its distinct words (one wavefront each)
 * and the lanes that asked it, as the analysis counts them */
typedef analysis_bank scene_bank;

/* one lane's global access in the step */
typedef struct scene_load {
    unsigned warp, lane;
    int64_t elem;
    unsigned width; /* elements: 1, or 4 for a float4 */
} scene_load;

typedef struct scene_sectors {
    unsigned warp;
    int sectors, sectors_min;
} scene_sectors;

typedef struct scene_pane {
    int shown;
    const view_model *m;
    const char *source;      /* kernel text, or NULL */
    char title[160], summary[200];
    char name[120];          /* the title's version and its name alone ("v1: ..."), for a title on two lines */
    size_t step;
    const view_step *st;     /* NULL if the trace has no steps */
    /* arrays sized to the block and its shared words (owned) */
    unsigned char *lanes;    /* [threads] view_lane */
    float *cells;            /* [nwords] shared memory after the step */
    unsigned char *written, *touched, *tree; /* [nwords]; touched: 1 read, 2 written this step */
    size_t cap_threads, cap_words;
    int64_t selected;        /* the word whose input tree is lit: the keys' cursor's, else the session's selection; -1 */
    int worst_event, worst_degree; /* the step's shared access with the highest conflict degree */
    scene_bank banks[BANKS];
    view_counts counts;
    session_picture picture;  /* resolved: tree, loads or shuffles */
    int bank_event;           /* the shared access the lanes-to-banks picture shows, or -1 */
    int bank_warp;
    scene_load *loads;        /* the step's global accesses */
    size_t nloads, cap_loads;
    int64_t load_lo, load_hi;
    scene_sectors sectors[64];
    int nsectors;
    int64_t slice;           /* the tree's focus window picked with , and . (in windows), or -1: it follows the step */
    int64_t tree_focus;      /* the word the tree's window holds */
    unsigned shfl_warp;
    /* the watched register (the kernel's first float) of one warp after the step: what each lane holds */
    int has_regs;            /* the kernel watches a register in this block */
    unsigned reg_warp;
    float reg_vals[WARP_SIZE];
    unsigned char reg_state[WARP_SIZE]; /* 0 not assigned yet, 1 held, 2 assigned in this step */
    char reg_name[32];       /* the register's name, from its first assignment's line ("reg" if none is found) */
    const char *reg_source;  /* the source reg_name was read from: read once per kernel */
    /* races (the trace's hazards) of this block: how many, the lines they join, this step's */
    size_t hz_count;
    unsigned hz_lines[16];
    int hz_nlines;
    size_t hz_step[4];
    int hz_nstep;
    int wrong_result;        /* the result is off its reference by more than rounding */
    int racing_result;       /* right under this schedule, but the race detector found a race */
} scene_pane;

/* The grid view (OVERLAY_GRID): every block of one pass as a tile, derived from the whole-grid
 * analysis of pane 0's trace (analysis_grid_build, once per trace). */
typedef enum scene_tile_state { TILE_WAITING, TILE_RUNNING, TILE_DONE, TILE_UNTRACED, TILE_STATES } scene_tile_state;
extern const str_id scene_tile_names[TILE_STATES]; /* what each state is called */

typedef struct scene_tile {
    unsigned block;
    uint8_t state;          /* scene_tile_state */
    uint8_t has_partial;    /* the partial sum thread 0 stored at element `block` (shown once done) */
    float partial;
    int ticket;             /* the ticket its atomic drew (v8), -1: none */
    unsigned sm;            /* GPU traces: the SM it ran on, */
    int sm_order;           /*   and its place among that SM's blocks by clock (1 first); 0: no GPU */
    uint8_t traced;         /* the capture recorded its events (its partial sum is known) */
    int64_t read_lo, read_hi; /* elements it read of another pass's (or block's) output; -1: none */
} scene_tile;

/* The grid view draws at most this many tiles, a pixel each at 3840x2160: a trace may declare a
 * grid of 2^31 - 1 blocks in a few bytes, and the view's work and memory must follow the file. */
enum { SCENE_GRID_TILES_MAX = 1 << 18 };

typedef struct scene_grid {
    int shown;
    /* derived once per trace (the key: its events) */
    const trace *key;       /* pane 0's trace, */
    unsigned key_serial;    /*   as it was when derived */
    analysis_grid g;
    int built;
    int *ticket;            /* per analysis block */
    int64_t *rd_lo, *rd_hi; /* per analysis block: elements read from buffers other than the input */
    int *sm_order;          /* per analysis block */
    /* the pass shown */
    const trace *t;
    unsigned pass, npasses;
    scene_tile *tiles;      /* one per block of the pass's grid, the first SCENE_GRID_TILES_MAX */
    size_t ntiles, cap_tiles;
    unsigned blocks;        /* the blocks the pass's grid declares (more than ntiles past the cap) */
    unsigned traced;        /* how many of them were traced */
    scene_tile *next;       /* the next pass's blocks: what each read of this pass's output */
    size_t nnext, cap_next;
    char name[160];         /* "v2: Sequential addressing" */
    int last_block;         /* the block that drew the last ticket and sums the partials; -1 */
    int gpu;                /* provenance backend "gpu": SM ids and clocks are real */
    unsigned nsms;          /* SMs the whole trace ran on */
    unsigned *pass_sms;     /* the SMs the shown pass's traced blocks ran on, ascending */
    size_t npass_sms, cap_pass_sms;
    int max_turn;           /* the most blocks one of them ran */
    /* the schedule: the pass on a card (the model), or as a GPU capture recorded it (runs) */
    const card *card;       /* NULL: the pass does not fit a card (sched_err says why) */
    card_schedule sched;
    char sched_err[160];
    unsigned long wave, nwaves; /* the wave shown, 0 .. nwaves - 1; nwaves: the launch has ended */
    int timed;              /* the pass's blocks carry recorded runs: states at `moment` */
    uint64_t moment;        /* timed: ns since the capture began */
    uint64_t running, done; /* blocks of the pass running and done at the wave (or moment) */
    uint64_t wave_first, wave_last; /* the model: the wave's blocks [first, last) */
    card_observed obs;      /* what a GPU capture recorded of the pass (timed) */
    int *slots;             /* nsm_slots x nslots: the block in each SM's slot now, -1 none */
    unsigned nsm_slots, nslots;
    int slots_done;         /* the launch has ended: the slots hold its last wave's blocks, done */
    size_t cap_slots;
} scene_grid;

/* The passes view (OVERLAY_PASSES): the launches of pane 0's trace as Harris's kernel decomposition
 * draws them, level by level (level 0: the grid's blocks, each reducing its slice; level 1: one
 * block reducing their partial sums ...), every count from the trace (its passes, the cost table
 * of trace/cost.h, the partial sums the traced blocks stored). */
enum { SCENE_PASS_BLOCKS = 8 }; /* blocks drawn per level, as Harris draws eight */

typedef struct scene_pass_level {
    unsigned grid, block;      /* the launch: blocks, threads per block */
    uint64_t n_in;             /* elements it reduces */
    uint64_t per_block;        /* elements one block reduces (the last block may have fewer) */
    uint64_t adds;             /* additions its traced blocks executed */
    unsigned steps;            /* their longest chain of adds, from the pass's input */
    unsigned traced;           /* blocks traced */
    int partials;              /* its traced blocks stored partial sums (naive's blocks add pairs in place: none) */
    int nshown;                /* blocks drawn: the first ones, and the last when more were launched */
    unsigned shown[SCENE_PASS_BLOCKS];
    uint8_t traced_block[SCENE_PASS_BLOCKS]; /* the capture recorded it */
    uint8_t has_partial[SCENE_PASS_BLOCKS];
    float partial[SCENE_PASS_BLOCKS]; /* what the block stored at its element of the pass's output */
} scene_pass_level;

typedef struct scene_passes {
    int shown;
    const trace *key;          /* pane 0's trace as derived */
    unsigned key_serial;
    int lang;                  /*   and the language its name was given in */
    char name[160];            /* "v1: Interleaved addressing, strided index" */
    unsigned nlevels;          /* the trace's passes */
    scene_pass_level level[TRACE_PASSES_MAX];
    uint64_t n, adds;          /* the input, and the adds of every traced block */
    unsigned steps, blocks_traced, blocks;
    int complete;              /* every block of every pass traced */
    int single_pass;           /* one launch whose last block sums the partials (a ticket) */
    double result, reference;
    int verdict;               /* trace_verdict */
} scene_passes;

typedef struct scene {
    const session *s;
    const theme *th;
    str_lang lang;
    int compare, overlay;
    scene_pane pane[2];
    scene_pane prev[2];  /* the same panes at the step a move started from (motion runs prev -> pane) */
    char diff[300];      /* compare: the two current operations told apart in one line */
    char status[600];
    char tooltip[300];
    int tip_focus;       /* the tooltip is the focus's (drawn by its item), not the hover's (by the mouse) */
    char details[300];   /* the focus's details (a pinned item, the keys' cursor), as its tooltip says them; "" none */
    scene_grid grid;
    scene_passes passes;
    uint64_t generation, hover_serial; /* the session's, when derived */
} scene;

void scene_init(scene *sc);
/* The passes view's figures, when the session shows it (scene_passes.c): 0, or -1 out of memory */
int scene_passes_update(scene *sc, const session *s);
void scene_free(scene *sc);
/* Rebuilds what changed since the last call (a no-op when the session did not change).
 * sources_find gives a kernel file's text. 0, or -1 when out of memory. */
int scene_update(scene *sc, const session *s, const char *(*sources_find)(const char *file));

#endif
