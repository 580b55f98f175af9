/* trace: the compact encoding (.wstrace), for traces too large for JSON.
 *
 * Same schema and provenance as the JSON form (schema 5 adds the block shape after the schedule and
 * each pass's grid and block shapes after its registers; schema 2 adds, after blocks_traced, the schedule
 * and race check as strings and the two dropped lines as varints, and after the values the hazards:
 * a varint count, then per hazard kind, space, buffer and pass bytes, zigzag word, varint count, and
 * for each of its two accesses varint block, thread and line, a write byte and a zigzag event;
 * schema 1 files have neither), laid out in columns so that it loads with a few
 * linear scans (README, "The compact trace encoding", documents it byte by byte). Little-endian
 * throughout, written byte by byte so the file is the same on any host. Integers that are mostly
 * small (lines, phases, block deltas, lane address deltas) are LEB128 varints, zigzag-coded when
 * they may be negative; values are the raw float bits, so they read back bit for bit.
 *
 * The reader trusts nothing: every count is checked against the bytes left before anything is
 * allocated, and every field against the geometry the file declares (pass, block in its grid,
 * warp in its block, buffer, element size, lanes per mask), with one message naming the field. */
#define _GNU_SOURCE
#include "trace/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

static const unsigned char magic[8] = {'W', 'S', 'T', 'R', 'A', 'C', 'E', 0x1a};
enum { BIN_FORMAT = 2 }; /* 2: the result's tolerance after the reference; 1 is read too (no tolerance) */

/* Limits the reader enforces, beyond the geometry: what a capture can produce. */
#define BIN_MAX_LINE 1000000u
#define BIN_MAX_SM 4096u
#define BIN_MAX_CLOCK ((uint64_t)1 << 53)
#define BIN_MAX_GLOBAL_INDEX ((int64_t)1 << 40) /* elements of one buffer */
#define BIN_MAX_SHARED_WORD ((int64_t)1 << 16)  /* 256 KiB of shared memory in 4-byte words */

/* ---- writing ---- */

typedef struct wbuf {
    FILE *f;
    unsigned char buf[1 << 16];
    size_t len;
    int failed;
    volatile int *cancel;
} wbuf;

static void w_flush(wbuf *w)
{
    if (!w->failed && w->len && fwrite(w->buf, 1, w->len, w->f) != w->len) w->failed = 1;
    w->len = 0;
    if (w->cancel && __atomic_load_n(w->cancel, __ATOMIC_RELAXED)) w->failed = 2;
}

static void w_byte(wbuf *w, unsigned char c)
{
    if (w->len == sizeof w->buf) w_flush(w);
    w->buf[w->len++] = c;
}

static void w_u(wbuf *w, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) w_byte(w, (unsigned char)(v >> (8 * i)));
}

static void w_var(wbuf *w, uint64_t v)
{
    while (v >= 0x80) {
        w_byte(w, (unsigned char)(v | 0x80));
        v >>= 7;
    }
    w_byte(w, (unsigned char)v);
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static int64_t unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* base + a zigzag delta; 0 when the sum does not fit (a hostile delta), which the caller refuses */
static int add_delta(int64_t base, uint64_t zz, int64_t *out) { return !__builtin_add_overflow(base, unzigzag(zz), out); }

static void w_str(wbuf *w, const char *s)
{
    size_t n = strlen(s);
    w_var(w, n);
    for (size_t i = 0; i < n; i++) w_byte(w, (unsigned char)s[i]);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

int trace_write_bin(const trace *t, FILE *f, volatile int *cancel)
{
    wbuf *w = malloc(sizeof *w);
    if (!w) return -1;
    w->f = f;
    w->len = 0;
    w->failed = 0;
    w->cancel = cancel;
    for (int i = 0; i < 8; i++) w_byte(w, magic[i]);
    w_u(w, BIN_FORMAT, 4);
    w_u(w, TRACE_SCHEMA_VERSION, 4);
    const trace_provenance *p = &t->prov;
    const char *strs[] = {p->backend, p->device, p->toolkit, p->driver, p->date, p->version, p->source, p->data};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) w_str(w, strs[i]);
    w_u(w, p->n, 8);
    w_u(w, p->seed, 8);
    w_u(w, p->block, 4);
    w_u(w, p->elems_per_thread, 4);
    w_u(w, p->blocks_traced, 4);
    /* schema 2: the schedule, the break-it switches and the race check */
    w_str(w, p->schedule);
    for (int k = 0; k < 3; k++) w_var(w, p->block_dim[k]); /* schema 5; 0 0 0: not given */
    w_str(w, p->type);                                     /* schema 6; "": float */
    int f64 = trace_data_type(t) != TRACE_TYPE_FLOAT;      /* schema 6: the result and values as f64 */
    w_var(w, p->drop_barrier);
    w_var(w, p->drop_syncwarp);
    w_str(w, p->race_check);
    if (f64) w_u(w, f64_bits(t->result), 8);
    else w_u(w, f32_bits((float)t->result), 4);
    w_u(w, f64_bits(t->reference), 8);
    w_u(w, f64_bits(t->tolerance), 8);
    w_var(w, t->npasses);
    for (size_t i = 0; i < t->npasses; i++) {
        w_u(w, t->passes[i].grid, 4);
        w_u(w, t->passes[i].block, 4);
        w_u(w, t->passes[i].stride, 4);
        w_u(w, t->passes[i].n_in, 8);
        w_var(w, t->passes[i].shared_bytes); /* schema 4 */
        w_var(w, t->passes[i].registers);
        for (int k = 0; k < 3; k++) w_var(w, t->passes[i].grid_dim[k]); /* schema 5 */
        for (int k = 0; k < 3; k++) w_var(w, t->passes[i].block_dim[k]);
    }
    w_var(w, t->nbuffers);
    for (size_t i = 0; i < t->nbuffers; i++) {
        w_str(w, t->buffers[i].name);
        w_byte(w, t->buffers[i].pass);
    }
    size_t nvalues = 0;
    for (size_t i = 0; i < t->nevents; i++)
        if (trace_kind_has_data((trace_kind)t->events[i].kind))
            nvalues += (size_t)trace_popcount(t->events[i].mask) * trace_event_width(&t->events[i]);
    w_var(w, t->nevents);
    w_var(w, t->nlanes);
    w_var(w, nvalues);
    /* event columns */
    const trace_event *ev = t->events;
    size_t n = t->nevents;
    for (size_t i = 0; i < n && !w->failed; i++) w_byte(w, ev[i].kind);
    for (size_t i = 0; i < n && !w->failed; i++) w_byte(w, ev[i].elem_size);
    for (size_t i = 0; i < n && !w->failed; i++) w_byte(w, ev[i].buf);
    for (size_t i = 0; i < n && !w->failed; i++) w_byte(w, ev[i].pass);
    for (size_t i = 0; i < n && !w->failed; i++) w_var(w, ev[i].warp);
    for (size_t i = 0; i < n && !w->failed; i++) w_var(w, ev[i].phase);
    for (size_t i = 0; i < n && !w->failed; i++) w_var(w, zigzag((int64_t)ev[i].block - (i ? (int64_t)ev[i - 1].block : 0)));
    for (size_t i = 0; i < n && !w->failed; i++) w_var(w, ev[i].line);
    for (size_t i = 0; i < n && !w->failed; i++) w_u(w, ev[i].mask, 4);
    for (size_t i = 0; i < n && !w->failed; i++) w_var(w, ev[i].sm);
    for (size_t i = 0; i < n && !w->failed; i++) w_var(w, zigzag((int64_t)(ev[i].clock - (i ? ev[i - 1].clock : 0))));
    /* lanes, in event order: addresses as deltas from the lane before, then the values */
    int64_t prev = 0;
    for (size_t i = 0; i < n && !w->failed; i++) {
        if (!trace_kind_has_data((trace_kind)ev[i].kind)) continue;
        size_t k = (size_t)trace_popcount(ev[i].mask);
        for (size_t j = 0; j < k; j++) {
            int64_t a = t->lane_addr[ev[i].lanes + j];
            w_var(w, zigzag(a - prev));
            prev = a;
        }
    }
    for (size_t i = 0; i < n && !w->failed; i++) {
        if (!trace_kind_has_data((trace_kind)ev[i].kind)) continue;
        size_t k = (size_t)trace_popcount(ev[i].mask);
        unsigned wd = trace_event_width(&ev[i]);
        for (size_t j = 0; j < k; j++)
            for (unsigned c = 0; c < wd; c++) {
                double v = trace_lane_value_exact(t, &ev[i], j, c);
                if (f64) w_u(w, f64_bits(v), 8);
                else w_u(w, f32_bits((float)v), 4);
            }
    }
    /* schema 4: the runs */
    w_var(w, t->nruns);
    for (size_t i = 0; i < t->nruns && !w->failed; i++) {
        const trace_run *u = &t->runs[i];
        w_var(w, u->pass);
        w_var(w, u->block);
        w_var(w, u->sm);
        w_var(w, u->start);
        w_var(w, u->end - u->start);
    }
    /* schema 2: the hazards, after the events they point at */
    w_var(w, t->nhazards);
    for (size_t i = 0; i < t->nhazards && !w->failed; i++) {
        const trace_hazard *h = &t->hazards[i];
        w_byte(w, h->kind);
        w_byte(w, h->space);
        w_byte(w, h->buf);
        w_byte(w, h->pass);
        w_var(w, zigzag(h->word));
        w_var(w, h->count);
        const trace_hazard_access *acc[2] = {&h->first, &h->second};
        for (int k = 0; k < 2; k++) {
            w_var(w, acc[k]->block);
            w_var(w, acc[k]->thread);
            w_var(w, acc[k]->line);
            w_byte(w, acc[k]->write);
            w_var(w, zigzag(acc[k]->event));
        }
    }
    /* schema 7: device printf's lines, then how many were cut */
    w_var(w, t->nprints);
    for (size_t i = 0; i < t->nprints && !w->failed; i++) {
        const trace_print *q = &t->prints[i];
        w_var(w, q->pass);
        w_var(w, q->block);
        w_var(w, q->thread);
        w_var(w, q->line);
        w_var(w, zigzag(q->event));
        w_var(w, q->len);
        for (uint32_t k = 0; k < q->len; k++) w_byte(w, (unsigned char)t->print_text[q->off + k]);
    }
    w_var(w, t->prints_cut);
    for (int i = 0; i < 8; i++) w_byte(w, magic[7 - i]); /* the end: a truncated file is caught */
    w_flush(w);
    int rc = w->failed == 2 ? -2 : w->failed ? -1 : 0;
    free(w);
    return rc;
}

/* ---- reading ---- */

/* An array the loader fills at once: aligned to 2 MiB when large, so that it can be huge pages
 * (trace_advise_huge). Freed with free() like any other. */
static void *big_alloc(size_t bytes)
{
    enum { HUGE_PAGE = 2 << 20 };
    if (bytes < HUGE_PAGE) return malloc(bytes ? bytes : 1);
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, bytes)) return NULL;
    trace_advise_huge(p, bytes);
    return p;
}

typedef struct rbuf {
    const unsigned char *p, *end;
    reader_error e;
} rbuf;

static size_t r_left(const rbuf *r) { return (size_t)(r->end - r->p); }

static uint64_t r_u(rbuf *r, int bytes, const char *what)
{
    if (r->e.failed) return 0;
    if (r_left(r) < (size_t)bytes) { reader_fail(&r->e, "%s: the file ends too soon", what); return 0; }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)r->p[i] << (8 * i);
    r->p += bytes;
    return v;
}

static uint64_t r_var(rbuf *r, const char *what)
{
    if (r->e.failed) return 0;
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p == r->end) { reader_fail(&r->e, "%s: the file ends too soon", what); return 0; }
        unsigned char c = *r->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return v;
    }
    reader_fail(&r->e, "%s: malformed number", what);
    return 0;
}

static void r_str(rbuf *r, char *dst, size_t cap, const char *what)
{
    uint64_t n = r_var(r, what);
    if (r->e.failed) return;
    if (n >= cap || n > r_left(r)) { reader_fail(&r->e, "%s: expected a string of at most %zu bytes", what, cap - 1); return; }
    if (memchr(r->p, '\0', (size_t)n)) { reader_fail(&r->e, "%s: NUL byte in a string", what); return; }
    memcpy(dst, r->p, (size_t)n);
    dst[n] = '\0';
    r->p += n;
}

static uint64_t r_range(rbuf *r, int bytes, uint64_t lo, uint64_t hi, const char *what)
{
    uint64_t v = r_u(r, bytes, what);
    if (!r->e.failed && (v < lo || v > hi)) reader_fail(&r->e, "%s: %" PRIu64 " is not from %" PRIu64 " to %" PRIu64, what, v, lo, hi);
    return v;
}


static void read_runs(rbuf *r, trace *t)
{
    uint64_t nr = r_var(r, "runs");
    if (!r->e.failed && (nr > TRACE_RUNS_MAX || nr > r_left(r) / 5)) { reader_fail(&r->e, "runs: %" PRIu64 " runs: at most %d, in the bytes left", nr, TRACE_RUNS_MAX); return; }
    for (uint64_t i = 0; i < nr && !r->e.failed; i++) {
        uint64_t pass = r_var(r, "runs"), block = r_var(r, "runs"), sm = r_var(r, "runs"), start = r_var(r, "runs"), len = r_var(r, "runs");
        if (r->e.failed) return;
        if (pass >= t->npasses || block >= t->passes[pass].grid || sm >= TRACE_SMS_MAX || start >= ((uint64_t)1 << 53) || len >= ((uint64_t)1 << 53) - start)
            { reader_fail(&r->e, "runs[%" PRIu64 "]: pass, block, SM or time out of range", i); return; }
        if (t->nruns && (pass < t->runs[t->nruns - 1].pass || (pass == t->runs[t->nruns - 1].pass && block <= t->runs[t->nruns - 1].block)))
            { reader_fail(&r->e, "runs[%" PRIu64 "]: runs go by pass, then block, each block once", i); return; }
        trace_run u = {(uint32_t)pass, (uint32_t)block, (uint32_t)sm, start, start + len};
        if (trace_add_run(t, &u)) { reader_fail(&r->e, "out of memory"); return; }
    }
}

/* Hazards point at events by index: read after the events, and checked against them. */
static void read_hazards(rbuf *r, trace *t)
{
    uint64_t nh = r_var(r, "hazards");
    if (!r->e.failed && nh > r_left(r) / 14) { reader_fail(&r->e, "hazards: %" PRIu64 " hazards cannot fit in the %zu bytes left", nh, r_left(r)); return; }
    for (uint64_t i = 0; i < nh && !r->e.failed; i++) {
        char wh[48];
        snprintf(wh, sizeof wh, "hazards[%" PRIu64 "]", i);
        trace_hazard h;
        memset(&h, 0, sizeof h);
        h.kind = (uint8_t)r_range(r, 1, 0, TRACE_HAZARD_KIND_COUNT - 1, wh);
        h.space = (uint8_t)r_range(r, 1, 0, TRACE_SPACE_GLOBAL, wh);
        h.buf = (uint8_t)r_range(r, 1, 0, t->nbuffers ? t->nbuffers - 1 : 0, wh);
        h.pass = (uint8_t)r_range(r, 1, 0, t->npasses - 1, wh);
        h.word = unzigzag(r_var(r, wh));
        uint64_t count = r_var(r, wh);
        if (!r->e.failed && (h.word < 0 || h.word >= BIN_MAX_GLOBAL_INDEX || count > UINT32_MAX)) { reader_fail(&r->e, "%s: word or count out of range", wh); return; }
        h.count = (uint32_t)count;
        trace_hazard_access *acc[2] = {&h.first, &h.second};
        for (int k = 0; k < 2 && !r->e.failed; k++) {
            uint64_t block = r_var(r, wh), thread = r_var(r, wh), line = r_var(r, wh);
            uint64_t write = r_range(r, 1, 0, 1, wh);
            int64_t ev = unzigzag(r_var(r, wh));
            if (r->e.failed) return;
            if (block > UINT32_MAX || thread >= 1024 || line > BIN_MAX_LINE || ev < -1 || ev >= (int64_t)t->nevents)
                { reader_fail(&r->e, "%s.%s: block, thread, line or event out of range", wh, k ? "second" : "first"); return; }
            *acc[k] = (trace_hazard_access){(uint32_t)block, (uint32_t)thread, (uint32_t)line, (uint8_t)write, ev};
        }
        if (!r->e.failed && trace_add_hazard(t, &h)) reader_fail(&r->e, "out of memory");
    }
}

/* prints (schema 7): each pass, block, thread, line, event and its text, checked at the door */
static void read_prints(rbuf *r, trace *t)
{
    uint64_t np = r_var(r, "prints");
    if (!r->e.failed && (np > TRACE_PRINTS_MAX || np > r_left(r) / 6)) { reader_fail(&r->e, "prints: %" PRIu64 " lines: at most %d, in the bytes left", np, TRACE_PRINTS_MAX); return; }
    for (uint64_t i = 0; i < np && !r->e.failed; i++) {
        uint64_t pass = r_var(r, "prints"), block = r_var(r, "prints"), thread = r_var(r, "prints"), line = r_var(r, "prints");
        int64_t ev = unzigzag(r_var(r, "prints"));
        uint64_t len = r_var(r, "prints");
        if (r->e.failed) return;
        if (pass >= t->npasses || block > UINT32_MAX || thread >= TRACE_BLOCK_THREADS_MAX || line > BIN_MAX_LINE || len > TRACE_PRINT_LINE_MAX ||
            len > r_left(r))
            { reader_fail(&r->e, "prints[%" PRIu64 "]: pass, block, thread, line or length out of range", i); return; }
        trace_print q = {(uint32_t)pass, (uint32_t)block, (uint32_t)thread, (uint32_t)line, ev, 0, 0};
        int rc = trace_add_print(t, &q, (const char *)r->p, (size_t)len);
        if (rc < 0) { reader_fail(&r->e, "out of memory"); return; }
        if (rc > 0 || t->prints[t->nprints - 1].len != len || memcmp(t->print_text + t->prints[t->nprints - 1].off, r->p, (size_t)len))
            { reader_fail(&r->e, "prints[%" PRIu64 "]: past the limits of printf text, or not plain text", i); return; }
        r->p += len;
    }
    t->prints_cut = r_var(r, "prints_cut");
}

static void read_bin(rbuf *r, trace *t)
{
    if (r_left(r) < 8 || memcmp(r->p, magic, 8) != 0) { reader_fail(&r->e, "not a warpscope compact trace (no WSTRACE header)"); return; }
    r->p += 8;
    uint64_t fmt = r_u(r, 4, "format"), sv = r_u(r, 4, "schema_version");
    if (!r->e.failed && fmt != BIN_FORMAT && fmt != 1) { reader_fail(&r->e, "format: this warpscope reads compact format %d, the file is %" PRIu64, BIN_FORMAT, fmt); return; }
    if (!r->e.failed && (sv < TRACE_SCHEMA_VERSION_MIN || sv > TRACE_SCHEMA_VERSION))
        { reader_fail(&r->e, "schema_version: this warpscope reads versions %d to %d, the file is version %" PRIu64, TRACE_SCHEMA_VERSION_MIN, TRACE_SCHEMA_VERSION, sv); return; }
    trace_provenance *p = &t->prov;
    r_str(r, p->backend, sizeof p->backend, "provenance.backend");
    r_str(r, p->device, sizeof p->device, "provenance.device");
    r_str(r, p->toolkit, sizeof p->toolkit, "provenance.toolkit");
    r_str(r, p->driver, sizeof p->driver, "provenance.driver");
    r_str(r, p->date, sizeof p->date, "provenance.date");
    r_str(r, p->version, sizeof p->version, "provenance.version");
    r_str(r, p->source, sizeof p->source, "provenance.source");
    r_str(r, p->data, sizeof p->data, "provenance.data");
    p->n = r_range(r, 8, 0, (uint64_t)1 << 40, "provenance.n");
    p->seed = r_range(r, 8, 0, (uint64_t)1 << 53, "provenance.seed");
    p->block = (uint32_t)r_range(r, 4, 1, 1024, "provenance.block");
    if (!r->e.failed && sv < 5 && p->block % WARP_SIZE) { reader_fail(&r->e, "provenance.block: %u is not a whole number of warps", p->block); return; }
    p->elems_per_thread = (uint32_t)r_range(r, 4, 0, 1 << 20, "provenance.elems_per_thread");
    p->blocks_traced = (uint32_t)r_u(r, 4, "provenance.blocks_traced");
    if (sv >= 2) {
        r_str(r, p->schedule, sizeof p->schedule, "provenance.schedule");
        for (int k = 0; k < 3 && sv >= 5; k++) {
            uint64_t v = r_var(r, "provenance.block_dim");
            if (!r->e.failed && v > 1024) { reader_fail(&r->e, "provenance.block_dim: %" PRIu64 " is over 1024", v); return; }
            p->block_dim[k] = (uint32_t)v;
        }
        if (sv >= 6) r_str(r, p->type, sizeof p->type, "provenance.type");
        if (!r->e.failed && trace_type_from_name(p->type) < 0) { reader_fail(&r->e, "provenance.type: \"%s\" is not float, int, unsigned, double or long long", p->type); return; }
        uint64_t db = r_var(r, "provenance.drop_barrier"), ds = r_var(r, "provenance.drop_syncwarp");
        if (!r->e.failed && (db > BIN_MAX_LINE || ds > BIN_MAX_LINE)) { reader_fail(&r->e, "provenance.drop_barrier: a line over %u", BIN_MAX_LINE); return; }
        p->drop_barrier = (uint32_t)db;
        p->drop_syncwarp = (uint32_t)ds;
        r_str(r, p->race_check, sizeof p->race_check, "provenance.race_check");
    }
    int f64 = trace_data_type(t) != TRACE_TYPE_FLOAT, vbytes = f64 ? 8 : 4;
    if (f64) {
        uint64_t rb = r_u(r, 8, "result");
        memcpy(&t->result, &rb, 8);
    } else {
        uint32_t rb = (uint32_t)r_u(r, 4, "result");
        float f;
        memcpy(&f, &rb, 4);
        t->result = f;
    }
    uint64_t db = r_u(r, 8, "reference");
    memcpy(&t->reference, &db, 8);
    if (fmt >= 2) {
        uint64_t tb = r_u(r, 8, "tolerance");
        memcpy(&t->tolerance, &tb, 8);
    }
    uint64_t np = r_var(r, "passes");
    if (!r->e.failed && (np < 1 || np > 255 || np * 20 > r_left(r))) { reader_fail(&r->e, "passes: expected 1 to 255 passes"); return; }
    for (uint64_t i = 0; i < np && !r->e.failed; i++) {
        char wh[48];
        snprintf(wh, sizeof wh, "passes[%" PRIu64 "]", i);
        trace_pass tp = {0};
        tp.grid = (uint32_t)r_range(r, 4, 1, UINT32_MAX, wh);
        tp.block = (uint32_t)r_range(r, 4, 1, 1024, wh);
        tp.stride = (uint32_t)r_u(r, 4, wh);
        tp.n_in = r_range(r, 8, 0, (uint64_t)1 << 40, wh);
        if (sv >= 4) {
            uint64_t sb = r_var(r, wh), rg = r_var(r, wh);
            if (!r->e.failed && (sb > TRACE_SHARED_BYTES_MAX || rg > TRACE_REGISTERS_MAX)) {
                reader_fail(&r->e, "%s: shared memory over %u bytes or registers over %u", wh, TRACE_SHARED_BYTES_MAX, TRACE_REGISTERS_MAX);
                return;
            }
            tp.shared_bytes = (uint32_t)sb;
            tp.registers = (uint32_t)rg;
        }
        for (int k = 0; k < 6 && sv >= 5; k++) { /* the shape; trace_check holds its product */
            uint64_t v = r_var(r, wh);
            if (!r->e.failed && (v < 1 || v > UINT32_MAX)) { reader_fail(&r->e, "%s: a %s dimension of %" PRIu64, wh, k < 3 ? "grid" : "block", v); return; }
            (k < 3 ? tp.grid_dim : tp.block_dim)[k % 3] = (uint32_t)v;
        }
        if (!r->e.failed && trace_add_pass(t, tp)) reader_fail(&r->e, "out of memory");
    }
    uint64_t nb = r_var(r, "buffers");
    if (!r->e.failed && (nb > 255 || nb * 2 > r_left(r))) { reader_fail(&r->e, "buffers: expected at most 255 buffers"); return; }
    for (uint64_t i = 0; i < nb && !r->e.failed; i++) {
        char wh[48], name[16] = "";
        snprintf(wh, sizeof wh, "buffers[%" PRIu64 "].name", i);
        r_str(r, name, sizeof name, wh);
        snprintf(wh, sizeof wh, "buffers[%" PRIu64 "].pass", i);
        unsigned bp = (unsigned)r_range(r, 1, 0, np - 1, wh);
        if (!r->e.failed && trace_add_buffer(t, name, bp)) reader_fail(&r->e, "out of memory");
    }
    uint64_t ne = r_var(r, "events"), nl = r_var(r, "lanes"), nv = r_var(r, "values");
    if (r->e.failed) return;
    /* each event takes at least 11 bytes of columns, each lane a byte of address and 4 of value:
     * counts the file cannot hold are rejected before anything is allocated */
    if (ne > r_left(r) / 11 || ne >= UINT32_MAX) { reader_fail(&r->e, "events: %" PRIu64 " events cannot fit in the %zu bytes left", ne, r_left(r)); return; }
    if (nl > r_left(r) / 5 || nl >= UINT32_MAX) { reader_fail(&r->e, "lanes: %" PRIu64 " lanes cannot fit in the %zu bytes left", nl, r_left(r)); return; }
    if (nv < nl || nv > nl * 4) { reader_fail(&r->e, "values: %" PRIu64 " values for %" PRIu64 " lanes (1 to 4 each)", nv, nl); return; }
    size_t n = (size_t)ne;
    t->events = big_alloc(n * sizeof *t->events);
    t->lane_addr = big_alloc(nl * sizeof *t->lane_addr);
    t->values = big_alloc(nv * sizeof *t->values);
    if (t->events) memset(t->events, 0, n * sizeof *t->events); /* big_alloc(0) gives 1 byte */
    if (!t->events || !t->lane_addr || !t->values) { reader_fail(&r->e, "out of memory for %zu events", n); return; }
    t->cap_vals = nv ? nv : 1;
    t->cap_events = n ? n : 1;
    t->cap_lanes = nl ? nl : 1;
    trace_event *ev = t->events;
    if (r_left(r) < 4 * n) { reader_fail(&r->e, "events: the file ends too soon"); return; }
    for (size_t i = 0; i < n; i++) ev[i].kind = *r->p++;
    for (size_t i = 0; i < n; i++) ev[i].elem_size = *r->p++;
    for (size_t i = 0; i < n; i++) ev[i].buf = *r->p++;
    for (size_t i = 0; i < n; i++) ev[i].pass = *r->p++;
    for (size_t i = 0; i < n && !r->e.failed; i++) ev[i].warp = (uint16_t)r_var(r, "events.warp");
    for (size_t i = 0; i < n && !r->e.failed; i++) {
        uint64_t v = r_var(r, "events.phase");
        if (v > UINT16_MAX) { reader_fail(&r->e, "events[%zu].phase: %" PRIu64 " is over %u", i, v, UINT16_MAX); return; }
        ev[i].phase = (uint16_t)v;
    }
    int64_t block = 0;
    for (size_t i = 0; i < n && !r->e.failed; i++) {
        if (!add_delta(block, r_var(r, "events.block"), &block) || block < 0 || block > UINT32_MAX) { reader_fail(&r->e, "events[%zu].block: out of range", i); return; }
        ev[i].block = (uint32_t)block;
    }
    for (size_t i = 0; i < n && !r->e.failed; i++) {
        uint64_t v = r_var(r, "events.line");
        if (v > BIN_MAX_LINE) { reader_fail(&r->e, "events[%zu].line: %" PRIu64 " is over %u", i, v, BIN_MAX_LINE); return; }
        ev[i].line = (uint32_t)v;
    }
    if (!r->e.failed && r_left(r) < 4 * n) { reader_fail(&r->e, "events.mask: the file ends too soon"); return; }
    for (size_t i = 0; i < n && !r->e.failed; i++) ev[i].mask = (uint32_t)r_u(r, 4, "events.mask");
    for (size_t i = 0; i < n && !r->e.failed; i++) {
        uint64_t v = r_var(r, "events.sm");
        if (v > BIN_MAX_SM) { reader_fail(&r->e, "events[%zu].sm: %" PRIu64 " is over %u", i, v, BIN_MAX_SM); return; }
        ev[i].sm = (uint32_t)v;
    }
    uint64_t clock = 0;
    for (size_t i = 0; i < n && !r->e.failed; i++) {
        clock += (uint64_t)unzigzag(r_var(r, "events.clock"));
        if (clock > BIN_MAX_CLOCK) { reader_fail(&r->e, "events[%zu].clock: over 2^53", i); return; }
        ev[i].clock = clock;
    }
    if (r->e.failed) return;
    /* every event against the geometry; lanes are counted from the masks */
    size_t lanes = 0, values = 0;
    for (size_t i = 0; i < n; i++) {
        trace_event *e = &ev[i];
        if (e->kind >= TRACE_KIND_COUNT) { reader_fail(&r->e, "events[%zu].kind: unknown event kind %u", i, e->kind); return; }
        if (e->pass >= t->npasses) { reader_fail(&r->e, "events[%zu].pass: %u, but the trace has %zu passes", i, e->pass, t->npasses); return; }
        const trace_pass *tp = &t->passes[e->pass];
        if (e->block >= tp->grid) { reader_fail(&r->e, "events[%zu].block: block %u is outside the grid of pass %u (%u blocks)", i, e->block, e->pass, tp->grid); return; }
        if ((uint32_t)e->warp >= trace_block_warps(tp->block)) { reader_fail(&r->e, "events[%zu].warp: warp %u is outside a block of %u threads", i, e->warp, tp->block); return; }
        int data = trace_kind_has_data((trace_kind)e->kind);
        if (data) {
            if (e->mask == 0) { reader_fail(&r->e, "events[%zu].mask: a data event needs at least one lane", i); return; }
            unsigned z = e->elem_size;
            if (z != 1 && z != 2 && z != 4 && z != 8 && z != 16) { reader_fail(&r->e, "events[%zu].elem_size: must be 1, 2, 4, 8 or 16 bytes, not %u", i, z); return; }
            int global = trace_kind_addr((trace_kind)e->kind) == TRACE_ADDR_GLOBAL;
            if (global && e->buf >= t->nbuffers) { reader_fail(&r->e, "events[%zu].buf: buffer %u, but the trace has %zu", i, e->buf, t->nbuffers); return; }
            if (!global && e->buf) { reader_fail(&r->e, "events[%zu].buf: %u on an event that is not a global access", i, e->buf); return; }
            e->lanes = (uint32_t)lanes;
            e->vals = (uint32_t)values;
            lanes += (size_t)trace_popcount(e->mask);
            values += (size_t)trace_popcount(e->mask) * trace_event_width(e);
            if (lanes > nl) { reader_fail(&r->e, "events[%zu].mask: more lanes than the %" PRIu64 " the file declares", i, nl); return; }
        } else {
            if (e->elem_size || e->buf) { reader_fail(&r->e, "events[%zu]: element size or buffer on a %s event", i, trace_kind_label((trace_kind)e->kind)); return; }
            e->lanes = (uint32_t)lanes;
            e->vals = (uint32_t)values;
        }
    }
    if (lanes != nl || values != nv) { reader_fail(&r->e, "lanes: the masks give %zu lanes and %zu values, the file declares %" PRIu64 " and %" PRIu64, lanes, values, nl, nv); return; }
    t->nevents = n;
    t->nlanes = lanes;
    t->nvals = values;
    int64_t prev = 0;
    for (size_t i = 0; i < n && !r->e.failed; i++) {
        const trace_event *e = &ev[i];
        if (!trace_kind_has_data((trace_kind)e->kind)) continue;
        size_t k = (size_t)trace_popcount(e->mask);
        for (size_t j = 0; j < k; j++) {
            int64_t a = 0;
            if (!add_delta(prev, r_var(r, "lanes.address"), &a)) a = -1; /* refused just below */
            prev = a;
            t->lane_addr[e->lanes + j] = a;
            trace_addr sp = trace_kind_addr((trace_kind)e->kind);
            int bad = sp == TRACE_ADDR_LANE     ? (a < 0 || a > trace_kind_addr_max((trace_kind)e->kind, 1))
                      : sp == TRACE_ADDR_GLOBAL ? (a < 0 || a >= BIN_MAX_GLOBAL_INDEX)
                                                : (a < 0 || a >= BIN_MAX_SHARED_WORD);
            if (bad && !r->e.failed) { reader_fail(&r->e, "events[%zu]: lane %zu's address %" PRId64 " is out of range for a %s", i, j, a, trace_kind_label((trace_kind)e->kind)); return; }
        }
    }
    if (r->e.failed) return;
    if (r_left(r) / (size_t)vbytes < (size_t)nv) { reader_fail(&r->e, "values: the file ends too soon"); return; }
    /* the values, in event order: the order of trace.values; f32, or f64 for a type other than float */
    for (size_t i = 0; i < values; i++, r->p += vbytes) {
        uint64_t u = 0;
        for (int b = 0; b < vbytes; b++) u |= (uint64_t)r->p[b] << (8 * b);
        if (f64) memcpy(&t->values[i], &u, 8);
        else {
            uint32_t u32 = (uint32_t)u;
            float f;
            memcpy(&f, &u32, 4);
            t->values[i] = f;
        }
    }
    if (sv >= 4) read_runs(r, t);
    if (sv >= 2) read_hazards(r, t);
    if (sv >= 7) read_prints(r, t);
    if (r->e.failed) return;
    if (r_left(r) < 8) { reader_fail(&r->e, "end: the file ends too soon"); return; }
    for (int i = 0; i < 8; i++)
        if (r->p[i] != magic[7 - i]) { reader_fail(&r->e, "end: the file does not end with the trailer (truncated or corrupted)"); return; }
    r->p += 8;
    if (r->p != r->end) reader_fail(&r->e, "end: %zu bytes after the trailer", r_left(r));
}

int trace_from_bin(trace *t, const void *data, size_t len, char *err, size_t errlen)
{
    trace_init(t);
    rbuf r = {data, (const unsigned char *)data + len, {err, errlen, 0}};
    read_bin(&r, t);
    /* the same check at the door as JSON: the geometry and the named limits of trace.h */
    if (r.e.failed || trace_check(t, err, errlen)) { trace_free(t); return -1; }
    return 0;
}
