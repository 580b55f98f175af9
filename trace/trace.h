/* trace: the event log of one capture, and its JSON form.
 *
 * A trace is an ordered list of warp-level events (what one warp did at one point of the code) plus
 * the provenance of the capture. Everything warpscope shows is derived from it (see analysis.h), so
 * the log keeps only facts: kind, where (pass, block, warp, line, phase), which lanes (mask), and per
 * active lane the address (or source lane of a shuffle) and the value(s). No SDL and no CUDA types. */
#ifndef WARPSCOPE_TRACE_H
#define WARPSCOPE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2 added the schedule, the dropped barriers and the hazards list; 3 the register kind; 4 each
 * pass's shared memory and registers per block; 5 blocks of any size from 1 thread (a partial last
 * warp) and each pass's shape in x, y, z (block_dim, grid_dim; the provenance's block_dim is the
 * first launch's). Older files still load (version 1 as lockstep captures with no race check;
 * before 4 the shared memory and registers are unknown; before 5 every launch is one-dimensional);
 * 6 the data's type (provenance.type: float, int, unsigned, double, long long), the result and the
 * values as doubles in the compact encoding where the type is not float (before 6: float); 7 the
 * printf event kind and the lines device printf wrote (trace.prints); 8 a register event's lane
 * address says which register: lane + WARP_SIZE * id, id 0 the watched register (the kernel's first
 * float, as before: every earlier file's register events are id 0), any other id another float of a
 * learner's kernel (trace_register_id), recorded so that a check sees each chain of adds. */
#define TRACE_SCHEMA_VERSION 8
#define TRACE_SCHEMA_VERSION_MIN 1

/* The hardware a trace describes, named once for the reading library, the emulator, the race
 * detector and the viewer. From the CUDA C++ Programming Guide: a warp is 32 threads on every
 * NVIDIA GPU so far (warpSize; "SIMT Architecture"); shared memory has 32 banks, and successive
 * 32-bit words go to successive banks (compute capability 5.x and later, "Shared Memory"). */
enum {
    WARP_SIZE = 32, /* lanes per warp */
    BANKS = 32,     /* shared-memory banks, each serving one word per cycle */
    WORD_BYTES = 4  /* a bank's word: the unit shared addresses, bank conflicts and racecheck count in */
};

/* The limits of what the reader accepts: generous for real captures (the ladder's traces are a
 * few MB), tight enough that a hostile file cannot make the analysis or the viewer read outside
 * their arrays, hang or exhaust memory. */
enum {
    TRACE_BLOCK_THREADS_MAX = 1024,         /* CUDA's limit of threads per block */
    TRACE_SHARED_WORDS_MAX = 48 * 1024 / WORD_BYTES, /* CUDA's 48 KB of static shared memory per
                                                        block, in words: the emulator's size */
    TRACE_PASSES_MAX = 64,                  /* launches in a plan (LADDER_MAX_PASSES) */
    TRACE_BUFFERS_MAX = TRACE_PASSES_MAX + 3,
    TRACE_PHASES_MAX = 4096,                /* barriers a warp passes, + 1 (the ladder: under 20) */
    TRACE_LINE_MAX = 1000000,               /* source lines of a kernel file */
    TRACE_SHARED_BYTES_MAX = 256 * 1024,    /* shared memory a block may declare: more than any SM holds */
    TRACE_REGISTERS_MAX = 255,              /* registers per thread (CUDA's limit) */
    TRACE_REGISTER_IDS = 4096               /* ids a register event may name (trace_register_id): 64
                                               variables of a kernel, 64 elements of each */
};
#define TRACE_EVENTS_MAX ((size_t)1 << 26)
#define TRACE_FILE_BYTES_MAX ((size_t)256 << 20)    /* JSON traces; the largest real ones are tens of MB */
#define TRACE_GLOBAL_ELEMS_MAX ((uint64_t)1 << 40)  /* n, and global element indices */

/* The element types a capture's data may have (--type), X(enum suffix, name, bytes, integer, signed).
 * Values are held as doubles, which hold every float, int, unsigned and double exactly, and a long
 * long exactly up to 2^53: the emulator refuses a larger long long value at its line rather than
 * round it (a trace that silently changed a value would be worse than one that stops). */
#define TRACE_TYPES(X)                          \
    X(FLOAT, "float", 4, 0, 1)                  \
    X(INT, "int", 4, 1, 1)                      \
    X(UNSIGNED, "unsigned", 4, 1, 0)            \
    X(DOUBLE, "double", 8, 0, 1)                \
    X(LONG_LONG, "long long", 8, 1, 1)

typedef enum trace_type {
#define TRACE_X_TENUM(name, label, bytes, integer, is_signed) TRACE_TYPE_##name,
    TRACE_TYPES(TRACE_X_TENUM)
#undef TRACE_X_TENUM
    TRACE_TYPE_COUNT
} trace_type;
/* the type of a name ("" and NULL: float), -1 if unknown */
int trace_type_from_name(const char *name);
const char *trace_type_name(trace_type type);
unsigned trace_type_bytes(trace_type type);
int trace_type_is_integer(trace_type type);
/* the type a trace's provenance names (float for files before schema 6) */
struct trace;
trace_type trace_data_type(const struct trace *t);
/* the largest magnitude a value of the type takes exactly in a trace: 2^53 for a long long, FLT_MAX... */
double trace_type_max(trace_type type);

/* What a data event's per-lane address names (the kinds' third column). */
typedef enum trace_addr {
    TRACE_ADDR_NONE,   /* no per-lane data: barriers, fences, exits */
    TRACE_ADDR_SHARED, /* a 4-byte word of the block's shared memory (a float4 spans 4) */
    TRACE_ADDR_GLOBAL, /* an element of a global buffer (event.buf) */
    TRACE_ADDR_LANE    /* a lane of the warp: a shuffle's source, or the lane holding a register */
} trace_addr;

/* X(enum suffix, JSON/label string, what a lane's address is, counts as a data instruction).
 * The order is the numbering of compact traces: new kinds go at the end.
 * REGISTER: a value assigned to the register the kernel watches (the first float it declares, trace/capture/ws_cuda.h),
 * v3's first add, v6's grid-stride sum, v7/v8's float4 sums; an add in a register is not a
 * memory instruction, so it counts in none of the counters Nsight Compute reports. Since schema 8
 * the emulator also records, for a learner's kernel, the values assigned to its other floats (each
 * scalar, each element of a float array): the same kind, another id in the lane's address
 * (trace_register_id), so a check sees every chain of adds and the loads in flight of each; the
 * viewer, the cost table and verify read the watched register alone (trace_event_watched). The
 * GPU's traced build records the watched register only.
 * PRINTF (schema 7): the lanes of the mask called device printf here; what each wrote is in
 * trace.prints (a call moves no memory the kernel sees, so it counts in no counter either). */
#define TRACE_KINDS(X)                                   \
    X(SHARED_LOAD, "shared_load", SHARED, 1)             \
    X(SHARED_STORE, "shared_store", SHARED, 1)           \
    X(GLOBAL_LOAD, "global_load", GLOBAL, 1)             \
    X(GLOBAL_STORE, "global_store", GLOBAL, 1)           \
    X(GLOBAL_ATOMIC, "global_atomic", GLOBAL, 1)         \
    X(SHUFFLE, "shuffle", LANE, 1)                       \
    X(BARRIER, "barrier", NONE, 0)                       \
    X(WARP_SYNC, "warp_sync", NONE, 0)                   \
    X(FENCE, "fence", NONE, 0)                           \
    X(EXIT, "exit", NONE, 0)                             \
    X(REGISTER, "register", LANE, 0)                     \
    X(PRINTF, "printf", NONE, 0)

typedef enum trace_kind {
#define TRACE_X_ENUM(name, label, addr, instr) TRACE_##name,
    TRACE_KINDS(TRACE_X_ENUM)
#undef TRACE_X_ENUM
    TRACE_KIND_COUNT
} trace_kind;

const char *trace_kind_label(trace_kind kind);
int trace_kind_from_label(const char *label); /* -1 if unknown */
int trace_kind_has_data(trace_kind kind);
trace_addr trace_kind_addr(trace_kind kind);
/* the largest address a lane of a kind may carry (w: 4-byte words per lane), and what it names */
int64_t trace_kind_addr_max(trace_kind kind, unsigned w);
const char *trace_kind_addr_what(trace_kind kind);
int trace_kind_is_instruction(trace_kind kind);
/* A register event's lane address: lane + WARP_SIZE * id (schema 8); id 0 is the watched register. */
static inline unsigned trace_register_id(int64_t addr) { return (unsigned)(addr / WARP_SIZE); }

typedef struct trace_event {
    uint8_t kind;      /* trace_kind */
    uint8_t elem_size; /* bytes per lane access: 4, or 16 for a float4; 4 for shuffles */
    uint8_t buf;       /* global buffer id (trace_buffer index) for global events */
    uint8_t pass;      /* launch of the plan this event belongs to */
    uint16_t warp;
    uint16_t phase;    /* barriers this warp had passed when it did this */
    uint32_t block;
    uint32_t line;     /* source line in the version's kernel file; 0 for exit */
    uint32_t mask;     /* lanes that took part */
    uint32_t lanes;    /* first index into trace.lane_addr (data kinds only) */
    uint32_t vals;     /* first index into trace.values: lane k's values at vals + k * width */
    uint32_t sm;       /* GPU captures: the SM the block ran on; 0 from the emulator */
    uint64_t clock;    /* GPU captures: the SM's clock64() when the warp recorded it; 0 otherwise */
} trace_event;

enum { TRACE_NAME_MAX = 96 };

typedef struct trace_pass {
    uint32_t grid, block; /* launch size: blocks, and threads per block (1 to 1024; a partial last warp's
                             missing lanes do not exist) */
    uint32_t stride;      /* the naive version's stride for this launch; 0 otherwise */
    uint64_t n_in;        /* elements this pass reduces */
    uint32_t shared_bytes; /* shared memory a block declared (static and dynamic); 0: none or unknown */
    uint32_t registers;   /* registers per thread (the GPU build's); 0: unknown (the emulator) */
    uint32_t grid_dim[3], block_dim[3]; /* the shape (x, y, z) whose products are grid and block; blocks and
                                           threads are numbered as CUDA linearises them, x fastest
                                           (trace_add_pass fills (grid, 1, 1) and (block, 1, 1) when 0) */
} trace_pass;

typedef struct trace_buffer {
    char name[16];        /* "in", "out", "partials", "counter" ... */
    uint8_t pass;         /* the pass in which it is an input */
} trace_buffer;

typedef struct trace_provenance {
    char backend[8];               /* "cpu" or "gpu" */
    char device[TRACE_NAME_MAX];   /* "CPU emulator" or the GPU name */
    char toolkit[TRACE_NAME_MAX];  /* compiler that built the kernels */
    char driver[TRACE_NAME_MAX];   /* "" for the emulator */
    char date[32];                 /* ISO 8601 UTC */
    char version[16];              /* version id, e.g. "v2" */
    char source[64];               /* kernel file, e.g. "kernels/v2.cu" */
    char data[16];                 /* ones | ramp | random-int | random-float | random-negative */
    uint64_t n, seed;
    uint32_t block, elems_per_thread, blocks_traced;
    uint32_t block_dim[3];         /* the first launch's block shape (x, y, z), product block (schema 5) */
    char type[24];                 /* the data's type: a name of TRACE_TYPES ("" before schema 6: float) */
    char schedule[48];             /* "lockstep", "its:7", "adversarial: lanes-descending" ... ("" = lockstep) */
    uint32_t drop_barrier;         /* source line whose __syncthreads was left out; 0 none */
    uint32_t drop_syncwarp;        /* source line whose __syncwarp was left out; 0 none */
    char race_check[16];           /* what the race detector watched: "shared+global", "shared", "" not run */
} trace_provenance;

/* A hazard, as compute-sanitizer's racecheck names them: two accesses to one word by different
 * threads, at least one a write, with no __syncthreads (or __syncwarp, within a warp; or a
 * __threadfence then atomic handshake, between blocks) ordering them. X(enum, JSON, words) */
#define TRACE_HAZARD_KINDS(X)                  \
    X(RAW, "raw", "read after write")          \
    X(WAR, "war", "write after read")          \
    X(WAW, "waw", "write after write")

typedef enum trace_hazard_kind {
#define TRACE_X_HENUM(name, label, words) TRACE_HAZARD_##name,
    TRACE_HAZARD_KINDS(TRACE_X_HENUM)
#undef TRACE_X_HENUM
    TRACE_HAZARD_KIND_COUNT
} trace_hazard_kind;

typedef enum trace_space { TRACE_SPACE_SHARED, TRACE_SPACE_GLOBAL } trace_space;

typedef struct trace_hazard_access {
    uint32_t block, thread; /* thread within its block */
    uint32_t line;
    uint8_t write;          /* 1 a store, 0 a load */
    int64_t event;          /* index into trace.events of the warp instruction; -1 when not recorded */
} trace_hazard_access;

/* One pair of source lines that race; the example is the first pair of accesses seen. */
typedef struct trace_hazard {
    uint8_t kind;           /* trace_hazard_kind */
    uint8_t space;          /* trace_space */
    uint8_t buf;            /* global buffer id (trace_buffer index) */
    uint8_t pass;
    int64_t word;           /* shared: 4-byte word; global: element index in buf */
    trace_hazard_access first, second; /* in the order they ran */
    uint32_t count;         /* racing pairs of accesses with these lines, over all words and threads */
} trace_hazard;

/* Where and when a block ran, as a GPU capture records it for every block of a launch (up to
 * TRACE_RUNS_MAX over all passes): its SM (%smid) and the GPU's global clock (%globaltimer, ns) as
 * its thread 0 entered the kernel and left it. The emulator records none: its schedule is the card
 * model's (cards.h). */
typedef struct trace_run {
    uint32_t pass, block, sm;
    uint64_t start, end; /* ns since the first run of the capture began (under 2^53) */
} trace_run;
enum { TRACE_RUNS_MAX = 16384, TRACE_SMS_MAX = 1024 };

/* One line a thread's device printf wrote (schema 7), formatted as printf formats it, in the order
 * the threads ran. A capture keeps at most TRACE_PRINTS_MAX lines and TRACE_PRINT_BYTES_MAX bytes of
 * their text (each line cut at TRACE_PRINT_LINE_MAX); what it leaves out is counted in
 * trace.prints_cut, so the output says it was cut. */
enum { TRACE_PRINTS_MAX = 4096, TRACE_PRINT_BYTES_MAX = 256 * 1024, TRACE_PRINT_LINE_MAX = 1024 };
typedef struct trace_print {
    uint32_t pass, block, thread, line;
    int64_t event;   /* the printf event of a traced block (its lane is thread % 32); -1 in a block not traced */
    uint32_t off, len; /* the text: trace.print_text[off .. off + len) (no NUL inside) */
} trace_print;

typedef struct trace {
    trace_provenance prov;
    double result;       /* what the kernels computed, in the data's type (a float's value for float data) */
    double reference;    /* double-precision sum of the input */
    double tolerance;    /* |result - reference| allowed for this input (capture_tolerance); 0: unknown */
    trace_pass *passes;
    size_t npasses;
    trace_buffer *buffers;
    size_t nbuffers;
    trace_event *events;
    size_t nevents, cap_events;
    int64_t *lane_addr;  /* per active lane: element index (shared: 4-byte word), or source lane */
    double *values;    /* per active lane: its event's width of values (4 for a float4, else 1), exact in its type */
    size_t nlanes, cap_lanes;
    size_t nvals, cap_vals;
    trace_hazard *hazards;
    size_t nhazards;
    trace_run *runs;     /* schema 4, GPU captures: by pass, then block */
    size_t nruns;
    trace_print *prints; /* schema 7: device printf's lines, in the order they were written */
    size_t nprints;
    char *print_text;    /* their text, one after another */
    size_t print_bytes;
    uint64_t prints_cut; /* lines written past the limits and not kept (whole or in part) */
} trace;

void trace_init(trace *t);
void trace_free(trace *t);
/* Warps of a block of `threads` threads (the last may be partial), and the lanes of warp w that exist:
 * a block of 33 has warps 0 (32 lanes) and 1 (lane 0 alone). Lanes past the block are never idle,
 * diverged or counted: they are not there. */
static inline unsigned trace_block_warps(unsigned threads) { return (threads + WARP_SIZE - 1) / WARP_SIZE; }
static inline uint32_t trace_warp_lanes(unsigned threads, unsigned w)
{
    unsigned lo = w * WARP_SIZE;
    return threads >= lo + WARP_SIZE ? 0xffffffffu : threads > lo ? (1u << (threads - lo)) - 1u : 0u;
}
/* Values per lane for an event: 4 for a float4 (16 bytes), else 1 (a double or a long long is one
 * value of 8 bytes). */
static inline unsigned trace_event_width(const trace_event *e) { return e->elem_size == 4 * WORD_BYTES ? 4u : 1u; }
/* The 4-byte words each lane's access spans: 4 for a float4, 2 for a double or long long, else 1. */
static inline unsigned trace_event_words(const trace_event *e)
{
    return e->elem_size > WORD_BYTES ? e->elem_size / (unsigned)WORD_BYTES : 1u;
}
/* Value c (0 .. width-1) of the event's k-th active lane. */
static inline double trace_lane_value_exact(const trace *t, const trace_event *e, size_t k, unsigned c)
{
    return t->values[e->vals + k * trace_event_width(e) + c];
}
/* the same as a float, as the pictures draw it (exact for float data and integers up to 2^24) */
static inline float trace_lane_value(const trace *t, const trace_event *e, size_t k, unsigned c)
{
    return (float)trace_lane_value_exact(t, e, k, c);
}
int trace_popcount(uint32_t mask);
/* 1 when e is a register event of another float than the watched register (some lane's id is not
 * 0, trace_register_id): what the viewer, the cost table and verify leave out, and a check reads. */
static inline int trace_event_other_register(const trace *t, const trace_event *e)
{
    if (e->kind != TRACE_REGISTER) return 0;
    for (size_t j = 0, n = (size_t)__builtin_popcount(e->mask); j < n; j++)
        if (t->lane_addr[e->lanes + j] >= WARP_SIZE) return 1;
    return 0;
}
/* Appends an event; addr/val hold one entry per set bit of mask (width values each) for data kinds.
 * Returns 0, or -1 when out of memory. */
int trace_push(trace *t, const trace_event *e, const int64_t *addr, const double *val);
/* Appends src's events and lanes to t (provenance, passes and buffers stay t's). 0, or -1 when out
 * of memory. */
int trace_append(trace *t, const trace *src);
int trace_add_pass(trace *t, trace_pass p);
int trace_add_buffer(trace *t, const char *name, unsigned pass);
/* 0 when every field and event lies inside the geometry the trace declares and the limits above,
 * else -1 with "events[12].w: ..." in err. Both readers call it before returning a trace. */
int trace_check(const trace *t, char *err, size_t errlen);
/* 1 when the result is within the tolerance of the reference, 0 when not, -1 when the trace
 * carries no tolerance (an older file). */
int trace_result_ok(const trace *t);
/* The result's verdict, one truth for every command: WRONG off its reference; RACING when it is
 * right under this capture's schedule but the race detector found a race (another order, or the
 * compiler keeping a word in a register, may sum wrong); RIGHT only with neither. */
typedef enum trace_verdict { TRACE_UNCHECKED, TRACE_RIGHT, TRACE_RACING, TRACE_WRONG } trace_verdict;
trace_verdict trace_result_verdict(const trace *t);
/* "right under this schedule (lockstep), but racing at line 23 (10 racing pairs of accesses)" and
 * the like, for the verdict's line */
void trace_verdict_words(const trace *t, char *buf, size_t len);
/* The last launch had more than one block, block 0 stored a word at element 0 of a buffer, and no
 * atomic ran in that launch: each block left its partial and nothing summed them, so the result
 * (element 0) is block 0's partial alone. 1 with "out[0] is block 0's partial: ..." in buf, else 0. */
int trace_unsummed_partials(const trace *t, char *buf, size_t len);
int trace_add_hazard(trace *t, const trace_hazard *h);
int trace_add_run(trace *t, const trace_run *r);
/* Keeps a printf line (text of len bytes, NUL bytes and a final newline left out): 0 kept, 1 cut (past
 * the limits: counted in prints_cut; a line cut short is kept and counted), -1 out of memory. */
int trace_add_print(trace *t, const trace_print *p, const char *text, size_t len);
const char *trace_hazard_label(trace_hazard_kind kind); /* "raw", "war", "waw" */
const char *trace_hazard_words(trace_hazard_kind kind); /* "read after write" ... */
int trace_hazard_from_label(const char *label);         /* -1 if unknown */
/* The hazards whose first or second access is event ev (for marking a step): up to max indices
 * into t->hazards in out; returns how many there are in all. */
size_t trace_event_hazards(const trace *t, size_t ev, size_t *out, size_t max);
/* 1 when both traces hold the same provenance, results and events (bit for bit). */
int trace_equal(const trace *a, const trace *b);

/* line and column (from 1) of byte offset off in text: where a JSON parser stopped */
void trace_text_position(const char *text, size_t off, int *line, int *col);
/* Line n (from 1; 0 is taken as 1) of a text such as a kernel file (sources.h): its first byte, with
 * its length up to the '\n' in *len (len may be NULL); NULL when text is NULL or ends before it. */
const char *trace_text_line(const char *text, unsigned n, size_t *len);
/* Line n of text without its indentation, into out (cut to fit len); "" when there is none: the
 * source line a step or a hazard names. */
void trace_text_line_copy(const char *text, unsigned n, char *out, size_t len);

/* JSON. Writers return 0 or -1; readers return 0, or -1 with a message in err ("line:column: ..."
 * for syntax, "events[12].mask: ..." for content, "out of memory ..." when it could not be held).
 * Every event is checked against the geometry the trace declares (block, warps, passes, grid,
 * traced blocks, phases, shared-memory extent, buffers) and the limits above, so the analysis
 * and the viewer can trust every index they take from it. */
char *trace_to_json(const trace *t); /* malloc'd; caller frees */
int trace_from_json(trace *t, const char *text, size_t len, char *err, size_t errlen);

/* The compact encoding (README: "The compact trace encoding"): the same trace, in columns. The
 * reader checks every field against the geometry the file declares ("events[12].block: ..."). */
int trace_from_bin(trace *t, const void *data, size_t len, char *err, size_t errlen);

/* Files: the compact encoding when the name ends in ".wstrace", JSON otherwise. */
int trace_path_is_compact(const char *path);
/* Writes under a unique temporary name in the same folder, then renames: never a partial file.
 * 0; -1 with a message; -2 when *cancel (may be NULL) became nonzero: nothing is left behind. */
int trace_save(const trace *t, const char *path, volatile int *cancel, char *err, size_t errlen);
int trace_write_file(const trace *t, const char *path, char *err, size_t errlen); /* trace_save, no cancel */
int trace_read_file(trace *t, const char *path, char *err, size_t errlen);
/* The compact encoding into a stream the caller holds (several traces in one file: the page's
 * pack). 0, -1 on a write error or out of memory. */
int trace_write_compact(const trace *t, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
