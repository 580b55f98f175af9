/* trace: JSON form. Written by hand (one event per line, floats as %.9g so they read back bit for
 * bit, the reference as %.17g); read with cJSON, checking every field so that a malformed file is
 * rejected with the place that is wrong instead of being half-loaded. */
#include "trace/trace.h"

#include "trace/json_internal.h"
#include "trace/trace_internal.h"
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int failed;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) { b->failed = 1; return; }
        if (b->p && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
        size_t nc = b->cap ? b->cap * 2 : 1 << 16;
        while (nc < b->len + (size_t)n + 1) nc *= 2;
        char *q = realloc(b->p, nc);
        if (!q) { b->failed = 1; return; }
        b->p = q;
        b->cap = nc;
    }
}

/* JSON string with the characters that need escaping escaped. */
static void sb_str(sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
        else if (c < 0x20) sb_printf(b, "\\u%04x", c);
        else sb_printf(b, "%c", c);
    }
    sb_printf(b, "\"");
}

/* JSON has no NaN or infinity: write null, which the reader refuses with the key's path, rather
 * than text that is not JSON at all */
static void sb_num(sbuf *b, int digits, double x)
{
    if (isfinite(x)) sb_printf(b, "%.*g", digits, x);
    else sb_printf(b, "null");
}

char *trace_to_json(const trace *t)
{
    sbuf b = {0};
    const trace_provenance *p = &t->prov;
    sb_printf(&b, "{\n\"schema\": \"warpscope-trace\",\n\"schema_version\": %d,\n\"provenance\": {", TRACE_SCHEMA_VERSION);
    sb_printf(&b, "\"backend\": "); sb_str(&b, p->backend);
    sb_printf(&b, ", \"device\": "); sb_str(&b, p->device);
    sb_printf(&b, ", \"toolkit\": "); sb_str(&b, p->toolkit);
    sb_printf(&b, ", \"driver\": "); sb_str(&b, p->driver);
    sb_printf(&b, ", \"date\": "); sb_str(&b, p->date);
    sb_printf(&b, ", \"version\": "); sb_str(&b, p->version);
    sb_printf(&b, ", \"source\": "); sb_str(&b, p->source);
    sb_printf(&b, ", \"data\": "); sb_str(&b, p->data);
    sb_printf(&b, ", \"n\": %" PRIu64 ", \"seed\": %" PRIu64 ", \"block\": %u, \"elems_per_thread\": %u, \"blocks_traced\": %u",
              p->n, p->seed, p->block, p->elems_per_thread, p->blocks_traced);
    if (p->block_dim[0]) sb_printf(&b, ", \"block_dim\": [%u, %u, %u]", p->block_dim[0], p->block_dim[1], p->block_dim[2]);
    if (p->type[0]) { sb_printf(&b, ", \"type\": "); sb_str(&b, p->type); }
    sb_printf(&b, ", \"schedule\": "); sb_str(&b, p->schedule);
    sb_printf(&b, ", \"drop_barrier\": %u, \"drop_syncwarp\": %u, \"race_check\": ", p->drop_barrier, p->drop_syncwarp);
    sb_str(&b, p->race_check);
    sb_printf(&b, "},\n");
    /* a float's value in 9 digits reads back bit for bit; any other type's in 17 (a double's; an
     * integer's up to 2^53 is its whole digits) */
    int digits = trace_data_type(t) == TRACE_TYPE_FLOAT ? 9 : 17;
    sb_printf(&b, "\"result\": ");
    sb_num(&b, digits, t->result);
    sb_printf(&b, ",\n\"reference\": ");
    sb_num(&b, 17, t->reference);
    if (t->tolerance > 0) { sb_printf(&b, ",\n\"tolerance\": "); sb_num(&b, 17, t->tolerance); }
    sb_printf(&b, ",\n\"passes\": [");
    for (size_t i = 0; i < t->npasses; i++)
        sb_printf(&b, "%s{\"grid\": %u, \"block\": %u, \"stride\": %u, \"n_in\": %" PRIu64 ", \"shared_bytes\": %u, \"registers\": %u"
                      ", \"grid_dim\": [%u, %u, %u], \"block_dim\": [%u, %u, %u]}",
                  i ? ", " : "", t->passes[i].grid, t->passes[i].block, t->passes[i].stride, t->passes[i].n_in, t->passes[i].shared_bytes,
                  t->passes[i].registers, t->passes[i].grid_dim[0], t->passes[i].grid_dim[1], t->passes[i].grid_dim[2],
                  t->passes[i].block_dim[0], t->passes[i].block_dim[1], t->passes[i].block_dim[2]);
    if (t->nruns) { /* schema 4: [pass, block, sm, start ns, end ns] */
        sb_printf(&b, "],\n\"runs\": [");
        for (size_t i = 0; i < t->nruns; i++) {
            const trace_run *u = &t->runs[i];
            sb_printf(&b, "%s[%u,%u,%u,%" PRIu64 ",%" PRIu64 "]", i ? (i % 8 ? "," : ",\n") : "", u->pass, u->block, u->sm, u->start, u->end);
        }
    }
    sb_printf(&b, "],\n\"buffers\": [");
    for (size_t i = 0; i < t->nbuffers; i++) {
        sb_printf(&b, "%s{\"name\": ", i ? ", " : "");
        sb_str(&b, t->buffers[i].name);
        sb_printf(&b, ", \"pass\": %u}", t->buffers[i].pass);
    }
    sb_printf(&b, "],\n\"hazards\": [");
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        sb_printf(&b, "%s\n{\"kind\": \"%s\", \"space\": \"%s\", \"buf\": %u, \"pass\": %u, \"word\": %" PRId64 ", \"count\": %u",
                  i ? "," : "", trace_hazard_label((trace_hazard_kind)h->kind), h->space == TRACE_SPACE_GLOBAL ? "global" : "shared",
                  h->buf, h->pass, h->word, h->count);
        const trace_hazard_access *acc[2] = {&h->first, &h->second};
        for (int k = 0; k < 2; k++)
            sb_printf(&b, ", \"%s\": {\"block\": %u, \"thread\": %u, \"line\": %u, \"access\": \"%s\", \"event\": %" PRId64 "}",
                      k ? "second" : "first", acc[k]->block, acc[k]->thread, acc[k]->line, acc[k]->write ? "write" : "read",
                      acc[k]->event);
        sb_printf(&b, "}");
    }
    if (t->nprints || t->prints_cut) { /* schema 7: device printf's lines */
        sb_printf(&b, "],\n\"prints_cut\": %" PRIu64 ",\n\"prints\": [", t->prints_cut);
        for (size_t i = 0; i < t->nprints; i++) {
            const trace_print *q = &t->prints[i];
            sb_printf(&b, "%s\n{\"pass\": %u, \"block\": %u, \"thread\": %u, \"line\": %u, \"event\": %" PRId64 ", \"text\": ", i ? "," : "",
                      q->pass, q->block, q->thread, q->line, q->event);
            char *line = malloc((size_t)q->len + 1);
            if (!line) { b.failed = 1; break; }
            memcpy(line, t->print_text + q->off, q->len);
            line[q->len] = '\0';
            sb_str(&b, line);
            free(line);
            sb_printf(&b, "}");
        }
    }
    sb_printf(&b, "],\n\"events\": [\n");
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        sb_printf(&b, "{\"k\":\"%s\",\"p\":%u,\"b\":%u,\"w\":%u,\"l\":%u,\"ph\":%u,\"m\":%u",
                  trace_kind_label((trace_kind)e->kind), e->pass, e->block, e->warp, e->line, e->phase, e->mask);
        if (e->clock || e->sm) sb_printf(&b, ",\"sm\":%u,\"c\":%" PRIu64, e->sm, e->clock);
        if (trace_kind_has_data((trace_kind)e->kind)) {
            int n = trace_popcount(e->mask);
            unsigned w = trace_event_width(e);
            if (e->kind == TRACE_GLOBAL_LOAD || e->kind == TRACE_GLOBAL_STORE || e->kind == TRACE_GLOBAL_ATOMIC)
                sb_printf(&b, ",\"g\":%u", e->buf);
            sb_printf(&b, ",\"z\":%u,\"a\":[", e->elem_size);
            for (int j = 0; j < n; j++)
                sb_printf(&b, "%s%" PRId64, j ? "," : "", t->lane_addr[e->lanes + (size_t)j]);
            sb_printf(&b, "],\"v\":[");
            for (int j = 0; j < n; j++)
                for (unsigned c = 0; c < w; c++)
                {
                    if (j || c) sb_printf(&b, ",");
                    sb_num(&b, digits, trace_lane_value_exact(t, e, (size_t)j, c));
                }
            sb_printf(&b, "]");
        }
        sb_printf(&b, "}%s\n", i + 1 < t->nevents ? "," : "");
    }
    sb_printf(&b, "]\n}\n");
    if (b.failed) { free(b.p); return NULL; }
    return b.p;
}

/* ---- reading ----
 *
 * Memory stays near the size of the trace: the file is checked by json_check, then the small
 * top-level values go through cJSON one by one, and the events array is walked element by
 * element (each event parsed, checked, appended and freed), never built as one tree (a cJSON node
 * per number costs about 20 times the number's text). */

typedef reader_error rd;

static const cJSON *get(rd *r, const cJSON *obj, const char *key, const char *where)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) reader_fail(r, "%s: missing key \"%s\"", where, key);
    return it;
}

/* An integer in [lo, hi]; anything else (a string, a fraction, out of range) is an error. */
static uint64_t get_range(rd *r, const cJSON *obj, const char *key, const char *where, uint64_t lo, uint64_t hi)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return 0;
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !(v >= (double)lo) || v != floor(v) || v > (double)hi) {
        reader_fail(r, "%s.%s: expected an integer from %" PRIu64 " to %" PRIu64, where, key, lo, hi);
        return 0;
    }
    return (uint64_t)v;
}

static uint64_t get_uint(rd *r, const cJSON *obj, const char *key, const char *where, uint64_t hi)
{
    return get_range(r, obj, key, where, 0, hi);
}

static void get_str(rd *r, const cJSON *obj, const char *key, const char *where, char *dst, size_t cap)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return;
    if (!cJSON_IsString(it) || strlen(it->valuestring) >= cap) {
        reader_fail(r, "%s.%s: expected a string of at most %zu bytes", where, key, cap - 1);
        return;
    }
    strcpy(dst, it->valuestring);
}

static double get_num(rd *r, const cJSON *obj, const char *key, const char *where)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return 0;
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble)) { reader_fail(r, "%s.%s: expected a finite number", where, key); return 0; }
    return it->valuedouble;
}


/* A shape [x, y, z] (schema 5), each a whole number from 1 to hi; trace_check holds its product */
static void get_dim3(rd *r, const cJSON *obj, const char *key, const char *where, uint32_t d[3], uint32_t hi)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return;
    int k = 0;
    if (cJSON_IsArray(it) && cJSON_GetArraySize(it) == 3)
        for (const cJSON *x = it->child; x && cJSON_IsNumber(x) && x->valuedouble >= 1 && x->valuedouble <= hi &&
                                         x->valuedouble == floor(x->valuedouble); x = x->next)
            d[k++] = (uint32_t)x->valuedouble;
    if (k != 3) reader_fail(r, "%s.%s: expected [x, y, z], whole numbers from 1 to %u", where, key, hi);
}

static void read_event(rd *r, trace *t, const cJSON *je, size_t i, int64_t *addr, double *val)
{
    char where[48];
    snprintf(where, sizeof where, "events[%zu]", i);
    if (!cJSON_IsObject(je)) { reader_fail(r, "%s: expected an object", where); return; }
    trace_event e;
    memset(&e, 0, sizeof e);
    char kind[24] = "";
    get_str(r, je, "k", where, kind, sizeof kind);
    if (r->failed) return;
    int k = trace_kind_from_label(kind);
    if (k < 0) { reader_fail(r, "%s.k: unknown event kind \"%s\"", where, kind); return; }
    e.kind = (uint8_t)k;
    e.pass = (uint8_t)get_uint(r, je, "p", where, t->npasses - 1);
    if (r->failed) return;
    const trace_pass *ps = &t->passes[e.pass];
    /* the emulator and the GPU capture both record blocks 0 .. blocks_traced-1 of each pass */
    uint64_t traced = ps->grid < t->prov.blocks_traced ? ps->grid : t->prov.blocks_traced;
    e.block = (uint32_t)get_uint(r, je, "b", where, UINT32_MAX);
    if (!r->failed && e.block >= traced)
        { reader_fail(r, "%s.b: block %u is not one of the %" PRIu64 " traced blocks of pass %u", where, e.block, traced, e.pass); return; }
    e.warp = (uint16_t)get_uint(r, je, "w", where, 65535);
    if (!r->failed && e.warp >= trace_block_warps(ps->block))
        { reader_fail(r, "%s.w: warp %u is outside a block of %u threads", where, e.warp, ps->block); return; }
    e.line = (uint32_t)get_uint(r, je, "l", where, TRACE_LINE_MAX);
    e.phase = (uint16_t)get_uint(r, je, "ph", where, TRACE_PHASES_MAX - 1);
    e.mask = (uint32_t)get_uint(r, je, "m", where, UINT32_MAX);
    if (cJSON_GetObjectItemCaseSensitive(je, "c")) { /* hardware facts of GPU captures */
        e.sm = (uint32_t)get_uint(r, je, "sm", where, 4096);
        e.clock = get_uint(r, je, "c", where, (uint64_t)1 << 53);
    }
    if (r->failed) return;
    if (trace_kind_has_data((trace_kind)k)) {
        if (e.mask == 0) { reader_fail(r, "%s.m: a data event needs at least one lane", where); return; }
        uint64_t z = get_uint(r, je, "z", where, 16);
        if (!r->failed && z != 1 && z != 2 && z != 4 && z != 8 && z != 16) { reader_fail(r, "%s.z: element size must be 1, 2, 4, 8 or 16 bytes", where); return; }
        e.elem_size = (uint8_t)z;
        if (trace_kind_addr((trace_kind)k) == TRACE_ADDR_GLOBAL) {
            if (t->nbuffers == 0) { reader_fail(r, "%s.g: the trace declares no global buffers", where); return; }
            e.buf = (uint8_t)get_uint(r, je, "g", where, t->nbuffers - 1);
        }
        const cJSON *ja = get(r, je, "a", where), *jv = get(r, je, "v", where);
        if (r->failed) return;
        int n = trace_popcount(e.mask);
        unsigned w = trace_event_width(&e);
        if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) != n)
            { reader_fail(r, "%s.a: expected %d addresses, one per lane of the mask", where, n); return; }
        if (!cJSON_IsArray(jv) || cJSON_GetArraySize(jv) != n * (int)w)
            { reader_fail(r, "%s.v: expected %d values (%u per lane)", where, n * (int)w, w); return; }
        double lo = 0, hi = (double)trace_kind_addr_max((trace_kind)k, trace_event_words(&e));
        const char *what = trace_kind_addr_what((trace_kind)k);
        int j = 0;
        for (const cJSON *x = ja->child; x; x = x->next, j++) {
            double a = x->valuedouble;
            if (!cJSON_IsNumber(x) || a != floor(a) || !(a >= lo) || a > hi)
                { reader_fail(r, "%s.a[%d]: expected %s, an integer from 0 to %.0f", where, j, what, hi); return; }
            addr[j] = (int64_t)a;
        }
        j = 0;
        int is_float = trace_data_type(t) == TRACE_TYPE_FLOAT;
        for (const cJSON *x = jv->child; x; x = x->next, j++) {
            if (!cJSON_IsNumber(x) || !(fabs(x->valuedouble) <= (is_float ? FLT_MAX : DBL_MAX)))
                { reader_fail(r, "%s.v[%d]: expected a finite %s", where, j, is_float ? "float" : "number"); return; }
            val[j] = is_float ? (double)(float)x->valuedouble : x->valuedouble; /* 9 digits name one float */
        }
    }
    if (t->nevents >= TRACE_EVENTS_MAX) { reader_fail(r, "%s: more than %zu events", where, TRACE_EVENTS_MAX); return; }
    if (trace_push(t, &e, addr, val)) reader_fail(r, "%s: out of memory (%zu events, %zu lanes held)", where, t->nevents, t->nlanes);
}

static void read_hazard_access(rd *r, const cJSON *obj, const char *key, const char *where, trace_hazard_access *a)
{
    char wh[64];
    snprintf(wh, sizeof wh, "%s.%s", where, key);
    const cJSON *ja = get(r, obj, key, where);
    if (r->failed) return;
    if (!cJSON_IsObject(ja)) { reader_fail(r, "%s: expected an object", wh); return; }
    a->block = (uint32_t)get_uint(r, ja, "block", wh, UINT32_MAX);
    a->thread = (uint32_t)get_uint(r, ja, "thread", wh, 1023);
    a->line = (uint32_t)get_uint(r, ja, "line", wh, 1000000);
    char acc[8] = "";
    get_str(r, ja, "access", wh, acc, sizeof acc);
    if (!r->failed && strcmp(acc, "read") && strcmp(acc, "write")) { reader_fail(r, "%s.access: expected \"read\" or \"write\"", wh); return; }
    a->write = !strcmp(acc, "write");
    const cJSON *je = get(r, ja, "event", wh);
    if (r->failed) return;
    if (!cJSON_IsNumber(je) || je->valuedouble != floor(je->valuedouble) || je->valuedouble < -1 || je->valuedouble > 9007199254740992.0)
        { reader_fail(r, "%s.event: expected an event index or -1", wh); return; }
    a->event = (int64_t)je->valuedouble;
}

/* Hazards refer to events by index; events come after them in the file, so the indices are
 * checked against the event count once the events are read (check_hazard_events). */
static void read_hazards(rd *r, trace *t, const cJSON *ja)
{
    if (r->failed) return;
    if (!cJSON_IsArray(ja)) { reader_fail(r, "hazards: expected an array"); return; }
    int i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32], kind[8] = "", space[8] = "";
        snprintf(wh, sizeof wh, "hazards[%d]", i);
        if (!cJSON_IsObject(x)) { reader_fail(r, "%s: expected an object", wh); return; }
        trace_hazard h;
        memset(&h, 0, sizeof h);
        get_str(r, x, "kind", wh, kind, sizeof kind);
        get_str(r, x, "space", wh, space, sizeof space);
        if (r->failed) return;
        int k = trace_hazard_from_label(kind);
        if (k < 0) { reader_fail(r, "%s.kind: expected raw, war or waw, found \"%s\"", wh, kind); return; }
        if (strcmp(space, "shared") && strcmp(space, "global")) { reader_fail(r, "%s.space: expected shared or global", wh); return; }
        h.kind = (uint8_t)k;
        h.space = (uint8_t)(strcmp(space, "global") == 0 ? TRACE_SPACE_GLOBAL : TRACE_SPACE_SHARED);
        h.buf = (uint8_t)get_uint(r, x, "buf", wh, t->nbuffers ? t->nbuffers - 1 : 0);
        h.pass = (uint8_t)get_uint(r, x, "pass", wh, t->npasses ? t->npasses - 1 : 0);
        h.word = (int64_t)get_uint(r, x, "word", wh, (uint64_t)1 << 40);
        h.count = (uint32_t)get_uint(r, x, "count", wh, UINT32_MAX);
        read_hazard_access(r, x, "first", wh, &h.first);
        read_hazard_access(r, x, "second", wh, &h.second);
        if (!r->failed && trace_add_hazard(t, &h)) reader_fail(r, "out of memory");
    }
}

/* runs: [pass, block, sm, start, end] each, inside the passes' grids, at most TRACE_RUNS_MAX */
static void read_runs(rd *r, trace *t, const cJSON *ja)
{
    if (r->failed) return;
    if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) > TRACE_RUNS_MAX) { reader_fail(r, "runs: expected an array of at most %d runs", TRACE_RUNS_MAX); return; }
    int i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        uint64_t f[5] = {0};
        int k = 0;
        if (cJSON_IsArray(x) && cJSON_GetArraySize(x) == 5)
            for (const cJSON *y = x->child; y && k < 5 && cJSON_IsNumber(y) && y->valuedouble >= 0 && y->valuedouble < 9007199254740992.0 &&
                                            y->valuedouble == floor(y->valuedouble); y = y->next)
                f[k++] = (uint64_t)y->valuedouble;
        if (k != 5) { reader_fail(r, "runs[%d]: expected [pass, block, sm, start, end], whole numbers", i); return; }
        if (f[0] >= t->npasses || f[1] >= t->passes[f[0]].grid || f[2] >= TRACE_SMS_MAX || f[4] < f[3])
            { reader_fail(r, "runs[%d]: pass, block or SM outside the trace, or an end before its start", i); return; }
        if (t->nruns && (f[0] < t->runs[t->nruns - 1].pass || (f[0] == t->runs[t->nruns - 1].pass && f[1] <= t->runs[t->nruns - 1].block)))
            { reader_fail(r, "runs[%d]: runs go by pass, then block, each block once", i); return; }
        trace_run u = {(uint32_t)f[0], (uint32_t)f[1], (uint32_t)f[2], f[3], f[4]};
        if (trace_add_run(t, &u)) { reader_fail(r, "out of memory"); return; }
    }
}

/* prints (schema 7): each {pass, block, thread, line, event, text}, the text kept as written */
static void read_prints(rd *r, trace *t, const cJSON *ja, const cJSON *jc)
{
    if (r->failed) return;
    if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) > TRACE_PRINTS_MAX) { reader_fail(r, "prints: expected an array of at most %d lines", TRACE_PRINTS_MAX); return; }
    if (jc) {
        if (!cJSON_IsNumber(jc) || jc->valuedouble < 0 || jc->valuedouble > 9007199254740992.0 || jc->valuedouble != floor(jc->valuedouble))
            { reader_fail(r, "prints_cut: expected a whole number"); return; }
        t->prints_cut = (uint64_t)jc->valuedouble;
    }
    uint64_t cut = t->prints_cut;
    int i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32];
        snprintf(wh, sizeof wh, "prints[%d]", i);
        if (!cJSON_IsObject(x)) { reader_fail(r, "%s: expected an object", wh); return; }
        trace_print q = {0};
        q.pass = (uint32_t)get_uint(r, x, "pass", wh, t->npasses - 1);
        q.block = (uint32_t)get_uint(r, x, "block", wh, UINT32_MAX);
        q.thread = (uint32_t)get_uint(r, x, "thread", wh, TRACE_BLOCK_THREADS_MAX - 1);
        q.line = (uint32_t)get_uint(r, x, "line", wh, TRACE_LINE_MAX);
        const cJSON *je = get(r, x, "event", wh), *jt = get(r, x, "text", wh);
        if (r->failed) return;
        if (!cJSON_IsNumber(je) || je->valuedouble != floor(je->valuedouble) || je->valuedouble < -1 || je->valuedouble > 9007199254740992.0)
            { reader_fail(r, "%s.event: expected an event index or -1", wh); return; }
        q.event = (int64_t)je->valuedouble;
        if (!cJSON_IsString(jt) || strlen(jt->valuestring) > TRACE_PRINT_LINE_MAX)
            { reader_fail(r, "%s.text: expected a string of at most %d bytes", wh, TRACE_PRINT_LINE_MAX); return; }
        int rc = trace_add_print(t, &q, jt->valuestring, strlen(jt->valuestring));
        if (rc < 0) { reader_fail(r, "out of memory"); return; }
        if (rc > 0 || t->print_bytes != (size_t)t->prints[t->nprints - 1].off + strlen(jt->valuestring))
            { reader_fail(r, "%s.text: past the %d bytes of printf text a trace holds, or not plain text", wh, TRACE_PRINT_BYTES_MAX); return; }
    }
    t->prints_cut = cut;
}

static void check_hazard_events(rd *r, const trace *t)
{
    for (size_t i = 0; i < t->nhazards && !r->failed; i++) {
        const trace_hazard *h = &t->hazards[i];
        if (h->first.event >= (int64_t)t->nevents || h->second.event >= (int64_t)t->nevents)
            reader_fail(r, "hazards[%zu]: refers to an event beyond the %zu events of the trace", i, t->nevents);
    }
}

static void read_header(rd *r, trace *t, const cJSON *root)
{
    char schema[32] = "";
    get_str(r, root, "schema", "top level", schema, sizeof schema);
    if (!r->failed && strcmp(schema, "warpscope-trace") != 0) { reader_fail(r, "schema: expected \"warpscope-trace\", found \"%s\"", schema); return; }
    uint64_t sv = get_uint(r, root, "schema_version", "top level", 1000);
    if (!r->failed && (sv < TRACE_SCHEMA_VERSION_MIN || sv > TRACE_SCHEMA_VERSION))
        { reader_fail(r, "schema_version: this warpscope reads versions %d to %d, the file is version %" PRIu64, TRACE_SCHEMA_VERSION_MIN, TRACE_SCHEMA_VERSION, sv); return; }
    const cJSON *jp = get(r, root, "provenance", "top level");
    if (r->failed) return;
    if (!cJSON_IsObject(jp)) { reader_fail(r, "provenance: expected an object"); return; }
    trace_provenance *p = &t->prov;
    const char *w = "provenance";
    get_str(r, jp, "backend", w, p->backend, sizeof p->backend);
    get_str(r, jp, "device", w, p->device, sizeof p->device);
    get_str(r, jp, "toolkit", w, p->toolkit, sizeof p->toolkit);
    get_str(r, jp, "driver", w, p->driver, sizeof p->driver);
    get_str(r, jp, "date", w, p->date, sizeof p->date);
    get_str(r, jp, "version", w, p->version, sizeof p->version);
    get_str(r, jp, "source", w, p->source, sizeof p->source);
    get_str(r, jp, "data", w, p->data, sizeof p->data);
    p->n = get_range(r, jp, "n", w, 1, TRACE_GLOBAL_ELEMS_MAX);
    p->seed = get_uint(r, jp, "seed", w, (uint64_t)1 << 53);
    p->block = (uint32_t)get_range(r, jp, "block", w, 1, TRACE_BLOCK_THREADS_MAX);
    p->elems_per_thread = (uint32_t)get_range(r, jp, "elems_per_thread", w, 1, 1 << 20);
    p->blocks_traced = (uint32_t)get_range(r, jp, "blocks_traced", w, 1, UINT32_MAX);
    if (!r->failed && (sv < 5 && p->block % WARP_SIZE)) { reader_fail(r, "provenance.block: %u is not a whole number of warps from 32 to 1024", p->block); return; }
    if (sv >= 5 && cJSON_GetObjectItemCaseSensitive(jp, "block_dim")) get_dim3(r, jp, "block_dim", w, p->block_dim, TRACE_BLOCK_THREADS_MAX);
    if (sv >= 2) {
        get_str(r, jp, "schedule", w, p->schedule, sizeof p->schedule);
        p->drop_barrier = (uint32_t)get_uint(r, jp, "drop_barrier", w, 1000000);
        p->drop_syncwarp = (uint32_t)get_uint(r, jp, "drop_syncwarp", w, 1000000);
        get_str(r, jp, "race_check", w, p->race_check, sizeof p->race_check);
    }
    if (sv >= 6 && cJSON_GetObjectItemCaseSensitive(jp, "type")) {
        get_str(r, jp, "type", w, p->type, sizeof p->type);
        if (!r->failed && trace_type_from_name(p->type) < 0)
            { reader_fail(r, "provenance.type: \"%s\" is not float, int, unsigned, double or long long", p->type); return; }
    }
    int is_float = trace_data_type(t) == TRACE_TYPE_FLOAT;
    t->result = get_num(r, root, "result", "top level");
    if (!r->failed && !(fabs(t->result) <= (is_float ? FLT_MAX : DBL_MAX)))
        { reader_fail(r, "result: expected a finite %s", is_float ? "float" : "number"); return; }
    if (is_float) t->result = (double)(float)t->result;
    t->reference = get_num(r, root, "reference", "top level");
    if (cJSON_GetObjectItemCaseSensitive(root, "tolerance")) { /* since the results check; older files lack it */
        t->tolerance = get_num(r, root, "tolerance", "top level");
        if (!r->failed && t->tolerance < 0) { reader_fail(r, "tolerance: expected a number of at least 0"); return; }
    }
    const cJSON *ja = get(r, root, "passes", "top level");
    if (r->failed) return;
    if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) < 1 || cJSON_GetArraySize(ja) > TRACE_PASSES_MAX)
        { reader_fail(r, "passes: expected an array of 1 to %d passes", TRACE_PASSES_MAX); return; }
    int i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32];
        snprintf(wh, sizeof wh, "passes[%d]", i);
        if (!cJSON_IsObject(x)) { reader_fail(r, "%s: expected an object", wh); return; }
        trace_pass tp = {0};
        tp.grid = (uint32_t)get_range(r, x, "grid", wh, 1, UINT32_MAX);
        tp.block = (uint32_t)get_range(r, x, "block", wh, 1, TRACE_BLOCK_THREADS_MAX);
        tp.stride = (uint32_t)get_uint(r, x, "stride", wh, UINT32_MAX);
        tp.n_in = get_uint(r, x, "n_in", wh, TRACE_GLOBAL_ELEMS_MAX);
        /* schema 4; either may be left out of a file written by hand (unknown) */
        if (cJSON_GetObjectItemCaseSensitive(x, "shared_bytes"))
            tp.shared_bytes = (uint32_t)get_uint(r, x, "shared_bytes", wh, TRACE_SHARED_BYTES_MAX);
        if (cJSON_GetObjectItemCaseSensitive(x, "registers")) tp.registers = (uint32_t)get_uint(r, x, "registers", wh, TRACE_REGISTERS_MAX);
        /* before schema 5 a block was a whole number of warps; since, any size, with its shape */
        if (!r->failed && sv < 5 && tp.block % WARP_SIZE) { reader_fail(r, "%s.block: %u is not a whole number of warps", wh, tp.block); return; }
        if (sv >= 5 && cJSON_GetObjectItemCaseSensitive(x, "grid_dim")) get_dim3(r, x, "grid_dim", wh, tp.grid_dim, UINT32_MAX);
        if (sv >= 5 && cJSON_GetObjectItemCaseSensitive(x, "block_dim")) get_dim3(r, x, "block_dim", wh, tp.block_dim, TRACE_BLOCK_THREADS_MAX);
        if (!r->failed && trace_add_pass(t, tp)) reader_fail(r, "out of memory");
    }
    ja = get(r, root, "buffers", "top level");
    if (r->failed) return;
    if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) > TRACE_BUFFERS_MAX) { reader_fail(r, "buffers: expected an array of at most %d buffers", TRACE_BUFFERS_MAX); return; }
    i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32], name[16] = "";
        snprintf(wh, sizeof wh, "buffers[%d]", i);
        get_str(r, x, "name", wh, name, sizeof name);
        unsigned bp = (unsigned)get_uint(r, x, "pass", wh, t->npasses - 1);
        if (!r->failed && trace_add_buffer(t, name, bp)) reader_fail(r, "out of memory");
    }
    if (sv >= 2) read_hazards(r, t, get(r, root, "hazards", "top level"));
    if (sv >= 4 && cJSON_GetObjectItemCaseSensitive(root, "runs")) read_runs(r, t, cJSON_GetObjectItemCaseSensitive(root, "runs"));
    if (sv >= 7 && cJSON_GetObjectItemCaseSensitive(root, "prints"))
        read_prints(r, t, cJSON_GetObjectItemCaseSensitive(root, "prints"), cJSON_GetObjectItemCaseSensitive(root, "prints_cut"));
}

enum {
    HEADER_VALUE_MAX = 1 << 20, /* bytes of one top-level value other than the events */
    EVENT_BYTES_MAX = 1 << 16   /* bytes of one event */
};

static size_t ws_at(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') i++;
    return i;
}

/* s[i] starts a value of text that json_check accepted: the index after it */
static size_t skip_value(const char *s, size_t i)
{
    size_t depth = 0;
    do {
        char c = s[i];
        if (c == '"') {
            for (i++; s[i] != '"'; i++)
                if (s[i] == '\\') i++;
            i++;
        } else if (c == '{' || c == '[') { depth++; i++; }
        else if (c == '}' || c == ']') { depth--; i++; }
        else if (c == ',' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
        else { while (s[i] && !strchr(",:]} \t\n\r", s[i])) i++; }
    } while (depth > 0);
    return i;
}

/* One value of the checked text at s[*i], through cJSON; NULL only when out of memory. */
static cJSON *parse_one(const char *s, size_t len, size_t *i)
{
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(s + *i, len + 1 - *i, &end, 0);
    if (v) *i = (size_t)(end - s);
    return v;
}

/* text is NUL-terminated at len */
static int read_checked(trace *t, const char *s, size_t len, char *err, size_t errlen)
{
    rd r = {err, errlen, 0};
    size_t off;
    const char *why;
    if (json_check(s, len, &off, &why)) { json_syntax_error(s, len, off, why, err, errlen); return -1; }
    size_t i = ws_at(s, 0), events_at = 0;
    if (s[i] != '{') { reader_fail(&r, "top level: expected an object"); return -1; }
    cJSON *root = cJSON_CreateObject();
    if (!root) { reader_fail(&r, "out of memory"); return -1; }
    i = ws_at(s, i + 1);
    /* only the keys the reader knows are parsed, each at most HEADER_VALUE_MAX bytes, so no
     * part of a hostile file is ever built as a whole cJSON tree */
    static const char *const known[] = {"schema", "schema_version", "provenance", "result", "reference", "tolerance",
                                        "passes", "buffers", "hazards", "runs", "prints", "prints_cut", NULL};
    while (s[i] == '"' && !r.failed) {
        cJSON *key = parse_one(s, len, &i), *val = NULL;
        if (!key) { reader_fail(&r, "out of memory while reading the trace's header"); break; }
        i = ws_at(s, ws_at(s, i) + 1); /* past the ':' */
        size_t end = skip_value(s, i);
        int k = 0;
        while (known[k] && strcmp(known[k], key->valuestring)) k++;
        if (!strcmp(key->valuestring, "events")) {
            if (!events_at) events_at = i + 1;
        } else if (known[k] && !cJSON_GetObjectItemCaseSensitive(root, known[k])) {
            if (end - i > HEADER_VALUE_MAX) reader_fail(&r, "%s: more than %d bytes", known[k], HEADER_VALUE_MAX);
            else if ((val = parse_one(s, len, &i)) == NULL) reader_fail(&r, "out of memory while reading the trace's header");
            else cJSON_AddItemToObject(root, known[k], val);
        }
        cJSON_Delete(key);
        i = ws_at(s, end);
        if (s[i] == ',') i = ws_at(s, i + 1);
    }
    if (!r.failed) read_header(&r, t, root);
    if (!r.failed && !events_at) reader_fail(&r, "top level: missing key \"events\"");
    if (!r.failed && s[events_at - 1] != '[') reader_fail(&r, "events: expected an array");
    cJSON_Delete(root);
    if (r.failed) return -1;
    int64_t addr[WARP_SIZE];
    double val[WARP_SIZE * 4];
    i = ws_at(s, events_at);
    for (size_t n = 0; s[i] != ']' && !r.failed; n++) {
        /* one warp's event is at most a few KB (32 lanes, 4 values each): a bigger one is hostile,
         * and would be built as a tree about 20 times its size */
        if (skip_value(s, i) - i > EVENT_BYTES_MAX) { reader_fail(&r, "events[%zu]: more than %d bytes", n, EVENT_BYTES_MAX); break; }
        cJSON *je = parse_one(s, len, &i);
        if (!je) { reader_fail(&r, "events[%zu]: out of memory (%zu events, %zu lanes held)", n, t->nevents, t->nlanes); break; }
        read_event(&r, t, je, n, addr, val);
        cJSON_Delete(je);
        i = ws_at(s, i);
        if (s[i] == ',') i = ws_at(s, i + 1);
    }
    check_hazard_events(&r, t);
    if (r.failed) return -1;
    return trace_check(t, err, errlen); /* the same check at the door as the compact reader's */
}

/* Growth by doubling leaves up to half of each array unused: give it back. */
static void shrink(trace *t)
{
    if (t->nevents && t->nevents < t->cap_events) {
        trace_event *q = realloc(t->events, t->nevents * sizeof *q);
        if (q) { t->events = q; t->cap_events = t->nevents; }
    }
    if (t->nlanes && t->nlanes < t->cap_lanes) {
        int64_t *a = realloc(t->lane_addr, t->nlanes * sizeof *a);
        if (a) { t->lane_addr = a; t->cap_lanes = t->nlanes; }
    }
    if (t->nvals && t->nvals < t->cap_vals) {
        double *v = realloc(t->values, t->nvals * sizeof *v);
        if (v) { t->values = v; t->cap_vals = t->nvals; }
    }
}

int trace_from_json(trace *t, const char *text, size_t len, char *err, size_t errlen)
{
    trace_init(t);
    if (memchr(text, '\0', len)) {
        int line, col;
        trace_text_position(text, (size_t)((const char *)memchr(text, '\0', len) - text), &line, &col);
        snprintf(err, errlen, "%d:%d: unexpected NUL byte (JSON is text)", line, col);
        return -1;
    }
    char *copy = malloc(len + 1);
    if (!copy) { snprintf(err, errlen, "out of memory (%zu bytes of JSON)", len); return -1; }
    memcpy(copy, text, len);
    copy[len] = '\0';
    int rc = read_checked(t, copy, len, err, errlen);
    free(copy);
    if (rc) trace_free(t);
    else shrink(t);
    return rc;
}

int trace_from_json_text(trace *t, const char *text, size_t len, char *err, size_t errlen)
{
    trace_init(t);
    int rc = read_checked(t, text, len, err, errlen);
    if (rc) trace_free(t);
    else shrink(t);
    return rc;
}
