/* Structure-aware mutations (see mutate.h). */
#define _POSIX_C_SOURCE 200809L
#include "mutate.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace/trace_internal.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* the values crafted files use: the edges of every field's type and of the documented limits */
static const double extremes[] = {0, -1, 1, 2, 31, 32, 33, 1023, 1024, 1025, 4095, 65535, 65536, 2147483647.0, 2147483648.0,
                                  4294967295.0, 4294967296.0, 1099511627775.0, 9007199254740992.0, 1e15, 1e300, -1e300, 0.5,
                                  -2147483648.0};

/* a double into a field of at most `max`: below 0 is all ones (a -1 stored unsigned), above is max */
static uint64_t field(double v, uint64_t max)
{
    if (!(v >= 0)) return max;
    if (v >= (double)max) return max;
    return (uint64_t)v;
}

static double extreme(uint64_t *s, double v)
{
    switch (next(s) % 4) {
    case 0: return v * 2;
    case 1: return v + (next(s) % 2 ? 1 : -1);
    default: return extremes[next(s) % (sizeof extremes / sizeof extremes[0])];
    }
}

/* every node of the tree, depth first, at most n */
static size_t collect(cJSON *node, cJSON **out, size_t n, size_t k)
{
    if (k >= n) return k;
    out[k++] = node;
    for (cJSON *c = node->child; c && k < n; c = c->next) k = collect(c, out, n, k);
    return k;
}

static char *deep(uint64_t *s)
{
    static const char *const units[] = {"(", "-", "!", "max(", "{"};
    const char *u = units[next(s) % (sizeof units / sizeof units[0])];
    size_t reps = 1 + next(s) % 20000, ul = strlen(u);
    char *t = malloc(reps * ul + 2);
    if (!t) return NULL;
    for (size_t i = 0; i < reps; i++) memcpy(t + i * ul, u, ul);
    t[reps * ul] = '1';
    t[reps * ul + 1] = '\0';
    return t;
}

size_t fuzz_mutate_json(uint8_t *data, size_t size, size_t max, unsigned seed)
{
    uint64_t s = seed;
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    if (!root) return 0;
    cJSON *nodes[4096];
    size_t n = collect(root, nodes, 4096, 0);
    cJSON *v = nodes[next(&s) % n];
    if (cJSON_IsNumber(v)) {
        cJSON_SetNumberValue(v, extreme(&s, v->valuedouble));
    } else if (cJSON_IsString(v)) {
        char *t = NULL;
        static const char *const words[] = {"", "2^40", "2^32 - 1", "4294967295", "-1", "count(active_lanes())", "v8", "kernel",
                                            "adversarial", "its:4294967295", "random-negative", "\xE4\xBD\xA0"};
        switch (next(&s) % 3) {
        case 0: t = deep(&s); break;
        case 1: t = strdup(words[next(&s) % (sizeof words / sizeof words[0])]); break;
        default: /* the string twice */
            if ((t = malloc(2 * strlen(v->valuestring) + 1))) sprintf(t, "%s%s", v->valuestring, v->valuestring);
        }
        if (t) {
            free(v->valuestring);
            v->valuestring = t;
        }
    } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        int len = cJSON_GetArraySize(v);
        if (len && next(&s) % 2) { /* one item dropped */
            cJSON_Delete(cJSON_DetachItemFromArray(v, (int)(next(&s) % (unsigned)len)));
        } else if (len) { /* one item repeated (an object's member under its own key again) */
            cJSON *item = cJSON_GetArrayItem(v, (int)(next(&s) % (unsigned)len));
            cJSON *copy = cJSON_Duplicate(item, 1);
            if (copy && cJSON_IsObject(v)) cJSON_AddItemToObject(v, item->string, copy);
            else if (copy) cJSON_AddItemToArray(v, copy);
        }
    } else if (cJSON_IsBool(v)) {
        v->type = cJSON_IsTrue(v) ? cJSON_False : cJSON_True;
    }
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    size_t len = out ? strlen(out) : 0;
    if (!out || len > max) { free(out); return 0; }
    memcpy(data, out, len);
    free(out);
    return len;
}

size_t fuzz_mutate_trace_bin(uint8_t *data, size_t size, size_t max, unsigned seed)
{
    uint64_t s = seed;
    trace t;
    char err[256];
    if (trace_from_bin(&t, data, size, err, sizeof err)) return 0;
    uint64_t pick = next(&s) % 10;
    if (pick < 2 && t.npasses) { /* a pass's shape */
        trace_pass *p = &t.passes[next(&s) % t.npasses];
        uint32_t *f[] = {&p->grid, &p->block, &p->stride, &p->shared_bytes, &p->registers};
        size_t k = next(&s) % 6;
        if (k < 5) *f[k] = (uint32_t)field(extreme(&s, *f[k]), UINT32_MAX);
        else p->n_in = field(extreme(&s, (double)p->n_in), UINT64_MAX / 2);
    } else if (pick < 6 && t.nevents) { /* an event's place */
        trace_event *e = &t.events[next(&s) % t.nevents];
        switch (next(&s) % 7) {
        case 0: e->phase = (uint16_t)field(extreme(&s, e->phase), UINT16_MAX); break;
        case 1: e->block = (uint32_t)field(extreme(&s, e->block), UINT32_MAX); break;
        case 2: e->warp = (uint16_t)field(extreme(&s, e->warp), UINT16_MAX); break;
        case 3: e->line = (uint32_t)field(extreme(&s, e->line), UINT32_MAX); break;
        case 4: { /* other lanes, as many: the encoding counts an event's lanes from its mask */
            unsigned k = 1 + (unsigned)(next(&s) % 31);
            e->mask = e->mask << k | e->mask >> (32 - k);
            break;
        }
        case 5: e->pass = (uint8_t)field(extreme(&s, e->pass), UINT8_MAX); break;
        default: { /* another kind that carries lanes as this one does (or none, as this one) */
            uint8_t k = (uint8_t)(next(&s) % TRACE_KIND_COUNT);
            if (trace_kind_has_data((trace_kind)k) == trace_kind_has_data((trace_kind)e->kind)) e->kind = k;
        }
        }
    } else if (pick < 8 && t.nlanes) { /* a lane's address */
        int64_t *a = &t.lane_addr[next(&s) % t.nlanes];
        *a = (int64_t)field(extreme(&s, (double)*a), INT64_MAX / 2);
    } else if (pick < 9) { /* the capture */
        uint32_t *f[] = {&t.prov.block, &t.prov.elems_per_thread, &t.prov.blocks_traced};
        size_t k = next(&s) % 4;
        if (k < 3) *f[k] = (uint32_t)field(extreme(&s, *f[k]), UINT32_MAX);
        else t.prov.n = field(extreme(&s, (double)t.prov.n), UINT64_MAX / 2);
    } else if (t.nruns) { /* where and when a block ran */
        trace_run *r = &t.runs[next(&s) % t.nruns];
        r->sm = (uint32_t)field(extreme(&s, r->sm), UINT32_MAX);
        r->end = field(extreme(&s, (double)r->end), UINT64_MAX / 2);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = f ? trace_write_bin(&t, f, NULL) : -1;
    if (f) fclose(f);
    trace_free(&t);
    if (rc || !buf || len > max) { free(buf); return 0; }
    memcpy(data, buf, len);
    free(buf);
    return len;
}

size_t fuzz_mutate_any(uint8_t *data, size_t size, size_t max, unsigned seed)
{
    static const char magic[] = "WSTRACE";
    if (size >= sizeof magic - 1 && memcmp(data, magic, sizeof magic - 1) == 0) return fuzz_mutate_trace_bin(data, size, max, seed);
    return fuzz_mutate_json(data, size, max, seed);
}
