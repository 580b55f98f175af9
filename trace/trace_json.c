/* trace: JSON form. Written by hand (one event per line, floats as %.9g so they read back bit for
 * bit, the reference as %.17g); read with cJSON, checking every field so that a malformed file is
 * rejected with the place that is wrong instead of being half-loaded. */
#include "trace.h"

#include "json_internal.h"
#include <errno.h>
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
    sb_printf(&b, ", \"schedule\": "); sb_str(&b, p->schedule);
    sb_printf(&b, ", \"drop_barrier\": %u, \"drop_syncwarp\": %u, \"race_check\": ", p->drop_barrier, p->drop_syncwarp);
    sb_str(&b, p->race_check);
    sb_printf(&b, "},\n");
    sb_printf(&b, "\"result\": %.9g,\n\"reference\": %.17g,\n\"passes\": [", (double)t->result, t->reference);
    for (size_t i = 0; i < t->npasses; i++)
        sb_printf(&b, "%s{\"grid\": %u, \"block\": %u, \"stride\": %u, \"n_in\": %" PRIu64 "}", i ? ", " : "",
                  t->passes[i].grid, t->passes[i].block, t->passes[i].stride, t->passes[i].n_in);
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
                    sb_printf(&b, "%s%.9g", (j || c) ? "," : "", (double)trace_lane_value(t, e, (size_t)j, c));
            sb_printf(&b, "]");
        }
        sb_printf(&b, "}%s\n", i + 1 < t->nevents ? "," : "");
    }
    sb_printf(&b, "]\n}\n");
    if (b.failed) { free(b.p); return NULL; }
    return b.p;
}

/* ---- reading ---- */

typedef struct rd {
    char *err;
    size_t errlen;
    int failed;
} rd;

static void rd_fail(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rd_fail(rd *r, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
}

static const cJSON *get(rd *r, const cJSON *obj, const char *key, const char *where)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) rd_fail(r, "%s: missing key \"%s\"", where, key);
    return it;
}

/* An integer in [lo, hi]; anything else (a string, a fraction, out of range) is an error. */
static uint64_t get_uint(rd *r, const cJSON *obj, const char *key, const char *where, uint64_t hi)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return 0;
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || v < 0 || v != floor(v) || v > (double)hi) {
        rd_fail(r, "%s.%s: expected an integer from 0 to %" PRIu64, where, key, hi);
        return 0;
    }
    return (uint64_t)v;
}

static void get_str(rd *r, const cJSON *obj, const char *key, const char *where, char *dst, size_t cap)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return;
    if (!cJSON_IsString(it) || strlen(it->valuestring) >= cap) {
        rd_fail(r, "%s.%s: expected a string of at most %zu bytes", where, key, cap - 1);
        return;
    }
    strcpy(dst, it->valuestring);
}

static double get_num(rd *r, const cJSON *obj, const char *key, const char *where)
{
    const cJSON *it = get(r, obj, key, where);
    if (!it) return 0;
    if (!cJSON_IsNumber(it)) { rd_fail(r, "%s.%s: expected a number", where, key); return 0; }
    return it->valuedouble;
}

static void read_event(rd *r, trace *t, const cJSON *je, size_t i, int64_t *addr, float *val)
{
    char where[48];
    snprintf(where, sizeof where, "events[%zu]", i);
    if (!cJSON_IsObject(je)) { rd_fail(r, "%s: expected an object", where); return; }
    trace_event e;
    memset(&e, 0, sizeof e);
    char kind[24] = "";
    get_str(r, je, "k", where, kind, sizeof kind);
    if (r->failed) return;
    int k = trace_kind_from_label(kind);
    if (k < 0) { rd_fail(r, "%s.k: unknown event kind \"%s\"", where, kind); return; }
    e.kind = (uint8_t)k;
    e.pass = (uint8_t)get_uint(r, je, "p", where, t->npasses ? t->npasses - 1 : 0);
    e.block = (uint32_t)get_uint(r, je, "b", where, UINT32_MAX);
    e.warp = (uint16_t)get_uint(r, je, "w", where, 31);
    e.line = (uint32_t)get_uint(r, je, "l", where, 1000000);
    e.phase = (uint16_t)get_uint(r, je, "ph", where, UINT16_MAX);
    e.mask = (uint32_t)get_uint(r, je, "m", where, UINT32_MAX);
    if (cJSON_GetObjectItemCaseSensitive(je, "c")) { /* hardware facts of GPU captures */
        e.sm = (uint32_t)get_uint(r, je, "sm", where, 4096);
        e.clock = get_uint(r, je, "c", where, (uint64_t)1 << 53);
    }
    if (r->failed) return;
    if (e.pass < t->npasses && e.block >= t->passes[e.pass].grid)
        { rd_fail(r, "%s.b: block %u is outside the grid of pass %u (%u blocks)", where, e.block, e.pass, t->passes[e.pass].grid); return; }
    if ((uint32_t)e.warp * 32 >= t->prov.block) { rd_fail(r, "%s.w: warp %u is outside a block of %u threads", where, e.warp, t->prov.block); return; }
    if (trace_kind_has_data((trace_kind)k)) {
        if (e.mask == 0) { rd_fail(r, "%s.m: a data event needs at least one lane", where); return; }
        uint64_t z = get_uint(r, je, "z", where, 16);
        if (!r->failed && z != 1 && z != 2 && z != 4 && z != 8 && z != 16) { rd_fail(r, "%s.z: element size must be 1, 2, 4, 8 or 16 bytes", where); return; }
        e.elem_size = (uint8_t)z;
        if (k == TRACE_GLOBAL_LOAD || k == TRACE_GLOBAL_STORE || k == TRACE_GLOBAL_ATOMIC)
            e.buf = (uint8_t)get_uint(r, je, "g", where, t->nbuffers ? t->nbuffers - 1 : 0);
        const cJSON *ja = get(r, je, "a", where), *jv = get(r, je, "v", where);
        if (r->failed) return;
        int n = trace_popcount(e.mask);
        unsigned w = trace_event_width(&e);
        if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) != n)
            { rd_fail(r, "%s.a: expected %d addresses, one per lane of the mask", where, n); return; }
        if (!cJSON_IsArray(jv) || cJSON_GetArraySize(jv) != n * (int)w)
            { rd_fail(r, "%s.v: expected %d values (%u per lane)", where, n * (int)w, w); return; }
        int j = 0;
        for (const cJSON *x = ja->child; x; x = x->next, j++) {
            if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) || fabs(x->valuedouble) > 9007199254740992.0)
                { rd_fail(r, "%s.a[%d]: expected an integer", where, j); return; }
            addr[j] = (int64_t)x->valuedouble;
        }
        j = 0;
        for (const cJSON *x = jv->child; x; x = x->next, j++) {
            if (!cJSON_IsNumber(x)) { rd_fail(r, "%s.v[%d]: expected a number", where, j); return; }
            val[j] = (float)x->valuedouble;
        }
    }
    if (trace_push(t, &e, addr, val)) rd_fail(r, "%s: out of memory", where);
}

static void read_hazard_access(rd *r, const cJSON *obj, const char *key, const char *where, trace_hazard_access *a)
{
    char wh[64];
    snprintf(wh, sizeof wh, "%s.%s", where, key);
    const cJSON *ja = get(r, obj, key, where);
    if (r->failed) return;
    if (!cJSON_IsObject(ja)) { rd_fail(r, "%s: expected an object", wh); return; }
    a->block = (uint32_t)get_uint(r, ja, "block", wh, UINT32_MAX);
    a->thread = (uint32_t)get_uint(r, ja, "thread", wh, 1023);
    a->line = (uint32_t)get_uint(r, ja, "line", wh, 1000000);
    char acc[8] = "";
    get_str(r, ja, "access", wh, acc, sizeof acc);
    if (!r->failed && strcmp(acc, "read") && strcmp(acc, "write")) { rd_fail(r, "%s.access: expected \"read\" or \"write\"", wh); return; }
    a->write = !strcmp(acc, "write");
    const cJSON *je = get(r, ja, "event", wh);
    if (r->failed) return;
    if (!cJSON_IsNumber(je) || je->valuedouble != floor(je->valuedouble) || je->valuedouble < -1 || je->valuedouble > 9007199254740992.0)
        { rd_fail(r, "%s.event: expected an event index or -1", wh); return; }
    a->event = (int64_t)je->valuedouble;
}

/* Hazards refer to events by index; events come after them in the file, so the indices are
 * checked against the event count once the events are read (check_hazard_events). */
static void read_hazards(rd *r, trace *t, const cJSON *ja)
{
    if (r->failed) return;
    if (!cJSON_IsArray(ja)) { rd_fail(r, "hazards: expected an array"); return; }
    int i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32], kind[8] = "", space[8] = "";
        snprintf(wh, sizeof wh, "hazards[%d]", i);
        if (!cJSON_IsObject(x)) { rd_fail(r, "%s: expected an object", wh); return; }
        trace_hazard h;
        memset(&h, 0, sizeof h);
        get_str(r, x, "kind", wh, kind, sizeof kind);
        get_str(r, x, "space", wh, space, sizeof space);
        if (r->failed) return;
        int k = trace_hazard_from_label(kind);
        if (k < 0) { rd_fail(r, "%s.kind: expected raw, war or waw, found \"%s\"", wh, kind); return; }
        if (strcmp(space, "shared") && strcmp(space, "global")) { rd_fail(r, "%s.space: expected shared or global", wh); return; }
        h.kind = (uint8_t)k;
        h.space = (uint8_t)(strcmp(space, "global") == 0 ? TRACE_SPACE_GLOBAL : TRACE_SPACE_SHARED);
        h.buf = (uint8_t)get_uint(r, x, "buf", wh, t->nbuffers ? t->nbuffers - 1 : 0);
        h.pass = (uint8_t)get_uint(r, x, "pass", wh, t->npasses ? t->npasses - 1 : 0);
        h.word = (int64_t)get_uint(r, x, "word", wh, (uint64_t)1 << 40);
        h.count = (uint32_t)get_uint(r, x, "count", wh, UINT32_MAX);
        read_hazard_access(r, x, "first", wh, &h.first);
        read_hazard_access(r, x, "second", wh, &h.second);
        if (!r->failed && trace_add_hazard(t, &h)) rd_fail(r, "out of memory");
    }
}

static void check_hazard_events(rd *r, const trace *t)
{
    for (size_t i = 0; i < t->nhazards && !r->failed; i++) {
        const trace_hazard *h = &t->hazards[i];
        if (h->first.event >= (int64_t)t->nevents || h->second.event >= (int64_t)t->nevents)
            rd_fail(r, "hazards[%zu]: refers to an event beyond the %zu events of the trace", i, t->nevents);
    }
}

static void read_trace(rd *r, trace *t, const cJSON *root)
{
    if (!cJSON_IsObject(root)) { rd_fail(r, "top level: expected an object"); return; }
    char schema[32] = "";
    get_str(r, root, "schema", "top level", schema, sizeof schema);
    if (!r->failed && strcmp(schema, "warpscope-trace") != 0) { rd_fail(r, "schema: expected \"warpscope-trace\", found \"%s\"", schema); return; }
    uint64_t sv = get_uint(r, root, "schema_version", "top level", 1000);
    if (!r->failed && (sv < TRACE_SCHEMA_VERSION_MIN || sv > TRACE_SCHEMA_VERSION))
        { rd_fail(r, "schema_version: this warpscope reads versions %d to %d, the file is version %" PRIu64, TRACE_SCHEMA_VERSION_MIN, TRACE_SCHEMA_VERSION, sv); return; }
    const cJSON *jp = get(r, root, "provenance", "top level");
    if (r->failed) return;
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
    p->n = get_uint(r, jp, "n", w, (uint64_t)1 << 40);
    p->seed = get_uint(r, jp, "seed", w, (uint64_t)1 << 53);
    p->block = (uint32_t)get_uint(r, jp, "block", w, 1024);
    p->elems_per_thread = (uint32_t)get_uint(r, jp, "elems_per_thread", w, 1 << 20);
    p->blocks_traced = (uint32_t)get_uint(r, jp, "blocks_traced", w, UINT32_MAX);
    if (sv >= 2) {
        get_str(r, jp, "schedule", w, p->schedule, sizeof p->schedule);
        p->drop_barrier = (uint32_t)get_uint(r, jp, "drop_barrier", w, 1000000);
        p->drop_syncwarp = (uint32_t)get_uint(r, jp, "drop_syncwarp", w, 1000000);
        get_str(r, jp, "race_check", w, p->race_check, sizeof p->race_check);
    }
    if (!r->failed && (p->block < 32 || p->block % 32)) { rd_fail(r, "provenance.block: %u is not a whole number of warps from 32 to 1024", p->block); return; }
    t->result = (float)get_num(r, root, "result", "top level");
    t->reference = get_num(r, root, "reference", "top level");
    const cJSON *ja = get(r, root, "passes", "top level");
    if (r->failed) return;
    if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) < 1 || cJSON_GetArraySize(ja) > 255) { rd_fail(r, "passes: expected an array of 1 to 255 passes"); return; }
    int i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32];
        snprintf(wh, sizeof wh, "passes[%d]", i);
        trace_pass tp = {0, 0, 0, 0};
        tp.grid = (uint32_t)get_uint(r, x, "grid", wh, UINT32_MAX);
        tp.block = (uint32_t)get_uint(r, x, "block", wh, 1024);
        tp.stride = (uint32_t)get_uint(r, x, "stride", wh, UINT32_MAX);
        tp.n_in = get_uint(r, x, "n_in", wh, (uint64_t)1 << 40);
        if (!r->failed && trace_add_pass(t, tp)) rd_fail(r, "out of memory");
    }
    ja = get(r, root, "buffers", "top level");
    if (r->failed) return;
    if (!cJSON_IsArray(ja) || cJSON_GetArraySize(ja) > 255) { rd_fail(r, "buffers: expected an array of at most 255 buffers"); return; }
    i = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, i++) {
        char wh[32], name[16] = "";
        snprintf(wh, sizeof wh, "buffers[%d]", i);
        get_str(r, x, "name", wh, name, sizeof name);
        unsigned bp = (unsigned)get_uint(r, x, "pass", wh, t->npasses - 1);
        if (!r->failed && trace_add_buffer(t, name, bp)) rd_fail(r, "out of memory");
    }
    if (sv >= 2) read_hazards(r, t, get(r, root, "hazards", "top level"));
    ja = get(r, root, "events", "top level");
    if (r->failed) return;
    if (!cJSON_IsArray(ja)) { rd_fail(r, "events: expected an array"); return; }
    int64_t addr[32];
    float val[32 * 4];
    size_t n = 0;
    for (const cJSON *x = ja->child; x && !r->failed; x = x->next, n++)
        read_event(r, t, x, n, addr, val);
    check_hazard_events(r, t);
}

void trace_text_position(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') { (*line)++; *col = 1; }
        else (*col)++;
    }
}

cJSON *json_parse_at(const char *text, size_t len, char *err, size_t errlen)
{
    int line, col;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        trace_text_position(text, (size_t)(nul - text), &line, &col);
        snprintf(err, errlen, "%d:%d: unexpected NUL byte", line, col);
        return NULL;
    }
    char *copy = malloc(len + 1);
    if (!copy) { snprintf(err, errlen, "out of memory"); return NULL; }
    memcpy(copy, text, len);
    copy[len] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(copy, &end, 1);
    if (!root) {
        size_t off = end ? (size_t)(end - copy) : 0;
        trace_text_position(copy, off < len ? off : len, &line, &col);
        snprintf(err, errlen, "%d:%d: JSON syntax error%s", line, col, off >= len ? " (the file ends too soon)" : "");
    }
    free(copy);
    return root;
}

int trace_from_json(trace *t, const char *text, size_t len, char *err, size_t errlen)
{
    trace_init(t);
    rd r = {err, errlen, 0};
    cJSON *root = json_parse_at(text, len, err, errlen);
    if (!root) return -1;
    read_trace(&r, t, root);
    cJSON_Delete(root);
    if (r.failed) { trace_free(t); return -1; }
    return 0;
}
