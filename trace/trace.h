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

#ifdef __cplusplus
extern "C" {
#endif

#define TRACE_SCHEMA_VERSION 1

/* The hardware the trace describes, and the limits of what the reader accepts: generous for real
 * captures (the ladder's traces are a few MB), tight enough that a hostile file cannot make the
 * analysis or the viewer read outside their arrays, hang or exhaust memory. */
enum {
    TRACE_WARP_SIZE = 32,                   /* lanes per warp, every NVIDIA GPU so far */
    TRACE_BLOCK_THREADS_MAX = 1024,         /* CUDA's limit of threads per block */
    TRACE_SHARED_WORDS_MAX = 48 * 1024 / 4, /* 48 KB of 4-byte words: CUDA's static shared memory
                                               per block, and the emulator's size */
    TRACE_PASSES_MAX = 64,                  /* launches in a plan (LADDER_MAX_PASSES) */
    TRACE_BUFFERS_MAX = TRACE_PASSES_MAX + 3,
    TRACE_BLOCKS_TRACED_MAX = 1024,         /* blocks recorded per pass */
    TRACE_PHASES_MAX = 4096,                /* barriers a warp passes, + 1 (the ladder: under 20) */
    TRACE_LINE_MAX = 1000000                /* source lines of a kernel file */
};
#define TRACE_EVENTS_MAX ((size_t)1 << 26)
#define TRACE_FILE_BYTES_MAX ((size_t)256 << 20)    /* JSON traces; the largest real ones are tens of MB */
#define TRACE_GLOBAL_ELEMS_MAX ((uint64_t)1 << 40)  /* n, and global element indices */

/* X(enum suffix, JSON/label string, carries per-lane data, counts as a data instruction) */
#define TRACE_KINDS(X)                                   \
    X(SHARED_LOAD, "shared_load", 1, 1)                  \
    X(SHARED_STORE, "shared_store", 1, 1)                \
    X(GLOBAL_LOAD, "global_load", 1, 1)                  \
    X(GLOBAL_STORE, "global_store", 1, 1)                \
    X(GLOBAL_ATOMIC, "global_atomic", 1, 1)              \
    X(SHUFFLE, "shuffle", 1, 1)                          \
    X(BARRIER, "barrier", 0, 0)                          \
    X(WARP_SYNC, "warp_sync", 0, 0)                      \
    X(FENCE, "fence", 0, 0)                              \
    X(EXIT, "exit", 0, 0)

typedef enum trace_kind {
#define TRACE_X_ENUM(name, label, data, instr) TRACE_##name,
    TRACE_KINDS(TRACE_X_ENUM)
#undef TRACE_X_ENUM
    TRACE_KIND_COUNT
} trace_kind;

const char *trace_kind_label(trace_kind kind);
int trace_kind_from_label(const char *label); /* -1 if unknown */
int trace_kind_has_data(trace_kind kind);
int trace_kind_is_instruction(trace_kind kind);

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
    uint32_t lanes;    /* first index into trace.lane_addr / trace.lane_val (data kinds only) */
    uint32_t sm;       /* GPU captures: the SM the block ran on; 0 from the emulator */
    uint64_t clock;    /* GPU captures: the SM's clock64() when the warp recorded it; 0 otherwise */
} trace_event;

enum { TRACE_NAME_MAX = 96 };

typedef struct trace_pass {
    uint32_t grid, block; /* launch shape */
    uint32_t stride;      /* the naive version's stride for this launch; 0 otherwise */
    uint64_t n_in;        /* elements this pass reduces */
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
    char data[16];                 /* ones | ramp | random-int | random-float */
    uint64_t n, seed;
    uint32_t block, elems_per_thread, blocks_traced;
} trace_provenance;

typedef struct trace {
    trace_provenance prov;
    float result;        /* what the kernels computed */
    double reference;    /* double-precision sum of the input */
    double tolerance;    /* |result - reference| allowed for this input (capture_tolerance); 0: unknown */
    trace_pass *passes;
    size_t npasses;
    trace_buffer *buffers;
    size_t nbuffers;
    trace_event *events;
    size_t nevents, cap_events;
    int64_t *lane_addr;  /* per active lane: element index (shared: 4-byte word), or source lane */
    float *lane_val;     /* per active lane: elem_size/4 values (at least 1) */
    size_t nlanes, cap_lanes;
} trace;

void trace_init(trace *t);
void trace_free(trace *t);
/* Values per lane for an event. */
unsigned trace_event_width(const trace_event *e);
int trace_popcount(uint32_t mask);
/* Appends an event; addr/val hold one entry per set bit of mask (width values each) for data kinds.
 * Returns 0, or -1 when out of memory. */
int trace_push(trace *t, const trace_event *e, const int64_t *addr, const float *val);
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
/* 1 when both traces hold the same provenance, results and events (bit for bit). */
int trace_equal(const trace *a, const trace *b);

/* line and column (from 1) of byte offset off in text: where a JSON parser stopped */
void trace_text_position(const char *text, size_t off, int *line, int *col);

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

#ifdef __cplusplus
}
#endif
#endif
