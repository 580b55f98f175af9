/* lesson: reads a lesson file (see lesson.h and lessons/README.md). cJSON gives the tree; a walk
 * over the same text beside it gives each value's offset, so content errors also say
 * file:line:column. */
#include "app/learn/lesson.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/cards.h"
#include "trace/infile.h"
#include "trace/json_internal.h"
#include "trace/ladder.h"
#include "trace/words.h"
#include "trace/capture/capture.h"
#include "trace/capture/race.h"

const char *const lesson_lang_keys[LESSON_LANGS] = {"en", "zh"};
const char *const lesson_panel_keys[LESSON_PANEL_COUNT] = {
#define LESSON_X_KEY(name, key) key,
    LESSON_PANELS(LESSON_X_KEY)};
const char *const lesson_item_keys[LESSON_ITEM_COUNT] = {LESSON_ITEMS(LESSON_X_KEY)
#undef LESSON_X_KEY
};
const char *const lesson_ask_keys[LESSON_ASK_KINDS] = {"pick_lanes", "pick_banks", "pick_cells", "number", "choice"};
const char *const lesson_bound_keys[LESSON_BOUNDS] = {"at_most", "at_least", "equals"};

enum { MAX_FILE_BYTES = 4 << 20, MAX_ITEMS = 4096 };

/* ---- value offsets: walk the text as cJSON parsed it ---- */

typedef struct posmap {
    const cJSON **node;
    size_t *off;
    size_t n, cap;
} posmap;

static size_t skip_ws(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') i++;
    return i;
}

static size_t skip_string(const char *s, size_t i)
{
    for (i++; s[i] && s[i] != '"'; i++)
        if (s[i] == '\\' && s[i + 1]) i++;
    return s[i] ? i + 1 : i;
}

static int record(posmap *m, const cJSON *node, size_t off)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        const cJSON **nn = realloc(m->node, cap * sizeof *nn);
        if (!nn) return -1;
        m->node = nn;
        size_t *no = realloc(m->off, cap * sizeof *no);
        if (!no) return -1;
        m->off = no;
        m->cap = cap;
    }
    m->node[m->n] = node;
    m->off[m->n++] = off;
    return 0;
}

static int walk(const char *s, size_t *i, const cJSON *node, posmap *m)
{
    *i = skip_ws(s, *i);
    if (record(m, node, *i)) return -1;
    if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
        (*i)++;
        for (const cJSON *c = node->child; c; c = c->next) {
            *i = skip_ws(s, *i);
            if (cJSON_IsObject(node)) {
                *i = skip_ws(s, skip_string(s, *i));
                if (s[*i] == ':') (*i)++;
            }
            if (walk(s, i, c, m)) return -1;
            *i = skip_ws(s, *i);
            if (s[*i] == ',') (*i)++;
        }
        *i = skip_ws(s, *i);
        if (s[*i]) (*i)++;
    } else if (cJSON_IsString(node)) {
        *i = skip_string(s, *i);
    } else {
        while (s[*i] && !strchr(",}] \t\r\n", s[*i])) (*i)++;
    }
    return 0;
}

/* ---- the reader's state ---- */

typedef struct reader {
    const char *text, *name;
    posmap map;
    char *err;
    size_t errlen;
    lesson *l;
} reader;

static lesson_pos pos_of(const reader *r, const cJSON *node)
{
    lesson_pos p = {1, 1};
    for (size_t k = 0; k < r->map.n; k++)
        if (r->map.node[k] == node) {
            trace_text_position(r->text, r->map.off[k], &p.line, &p.col);
            break;
        }
    return p;
}

void lesson_where(const lesson *l, lesson_pos pos, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d:%d: ", l->file, pos.line, pos.col);
}

static int bad_at(reader *r, lesson_pos p, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s:%d:%d: %s", r->name, p.line, p.col, msg);
    return -1;
}

#define bad(r, node, ...) bad_at((r), pos_of((r), (node)), __VA_ARGS__)

/* Every key of obj must be in the NULL-terminated list: a misspelt key is an error, not a no-op. */
static int known_keys(reader *r, const cJSON *obj, const char *where, const char *const *keys)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        int ok = 0;
        for (size_t k = 0; keys[k] && !ok; k++) ok = strcmp(keys[k], c->string) == 0;
        if (!ok) {
            char list[300] = "";
            for (size_t k = 0; keys[k]; k++) {
                strncat(list, k ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, keys[k], sizeof list - strlen(list) - 1);
            }
            return bad(r, c, "%s: unknown key \"%s\" (known: %s)", where, c->string, list);
        }
    }
    return 0;
}

static const cJSON *get(const cJSON *obj, const char *key) { return cJSON_GetObjectItemCaseSensitive(obj, key); }

/* A query in a JSON string: parse errors point into the string. */
static int parse_query(reader *r, const cJSON *node, const char *text, size_t offset_in_string, query **out, const char *where)
{
    char msg[300];
    size_t errpos = 0;
    *out = query_parse(text, msg, sizeof msg, &errpos);
    if (*out) return 0;
    lesson_pos p = pos_of(r, node);
    p.col += (int)(1 + offset_in_string + errpos); /* past the opening quote; exact when nothing before is escaped */
    return bad_at(r, p, "%s: %s", where, msg);
}

/* an answer is read from the trace or the results: "3" would be a number typed in, true for any run */
static int computed(reader *r, const cJSON *node, const query *q, const char *where)
{
    if (query_reads_data(q)) return 0;
    return bad(r, node, "%s: the answer \"%s\" is typed in: compute it with a query on the trace or the results", where, query_text(q));
}

static int query_field(reader *r, const cJSON *obj, const char *key, const char *where, int required, query **out,
                       lesson_pos *pos)
{
    const cJSON *v = get(obj, key);
    *out = NULL;
    if (!v) return required ? bad(r, obj, "%s: \"%s\" is missing", where, key) : 0;
    if (!cJSON_IsString(v) || !v->valuestring[0]) return bad(r, v, "%s.%s: expected a query in a string", where, key);
    if (pos) *pos = pos_of(r, v);
    char w[160];
    snprintf(w, sizeof w, "%s.%s", where, key);
    return parse_query(r, v, v->valuestring, 0, out, w);
}

/* ---- narration text ---- */

typedef struct hole_ctx {
    reader *r;
    const cJSON *node;
    lesson_text *t;
    int lang;
    const char *where;
} hole_ctx;

static int add_hole(void *ud, const char *expr, size_t exprlen, const char *fmt, size_t fmtlen, size_t offset)
{
    hole_ctx *h = ud;
    lesson_text *t = h->t;
    size_t n = t->nholes[h->lang];
    lesson_hole *nh = realloc(t->holes[h->lang], (n + 1) * sizeof *nh);
    if (!nh) return bad(h->r, h->node, "out of memory");
    t->holes[h->lang] = nh;
    lesson_hole *hole = &nh[n];
    memset(hole, 0, sizeof *hole);
    t->nholes[h->lang] = n + 1;
    hole->start = offset - 1;
    hole->end = (fmtlen ? (size_t)(fmt - t->s[h->lang]) + fmtlen : offset + exprlen) + 1;
    hole->pos = pos_of(h->r, h->node);
    hole->pos.col += (int)(1 + offset);
    if (fmtlen >= sizeof hole->fmt) return bad_at(h->r, hole->pos, "%s: format too long", h->where);
    memcpy(hole->fmt, fmt, fmtlen);
    hole->fmt[fmtlen] = '\0';
    query_value probe = {.type = QUERY_NUMBER};
    char buf[8];
    if (query_format(&probe, hole->fmt, buf, sizeof buf))
        return bad_at(h->r, hole->pos, "%s: unknown format \"%s\" (use .0f to .9f, %% or 、)", h->where, hole->fmt);
    char *q = malloc(exprlen + 1);
    if (!q) return bad(h->r, h->node, "out of memory");
    memcpy(q, expr, exprlen);
    q[exprlen] = '\0';
    int rc = parse_query(h->r, h->node, q, offset, &hole->q, h->where);
    free(q);
    return rc;
}

static void text_free(lesson_text *t)
{
    for (int k = 0; k < LESSON_LANGS; k++) {
        for (size_t i = 0; i < t->nholes[k]; i++) query_free(t->holes[k][i].q);
        free(t->holes[k]);
        free(t->s[k]);
    }
    memset(t, 0, sizeof *t);
}

static int text_value(reader *r, const cJSON *v, const char *w, lesson_text *t);

/* {"en": "...", "zh": "..."}: both languages, neither empty. */
static int text_field(reader *r, const cJSON *obj, const char *key, const char *where, int required, lesson_text *t)
{
    memset(t, 0, sizeof *t);
    const cJSON *v = get(obj, key);
    char w[160];
    snprintf(w, sizeof w, "%s.%s", where, key);
    if (!v) return required ? bad(r, obj, "%s: \"%s\" is missing", where, key) : 0;
    return text_value(r, v, w, t);
}

static int text_value(reader *r, const cJSON *v, const char *w, lesson_text *t)
{
    memset(t, 0, sizeof *t);
    if (!cJSON_IsObject(v)) return bad(r, v, "%s: expected {\"en\": \"...\", \"zh\": \"...\"}", w);
    static const char *const langs[] = {"en", "zh", NULL};
    if (known_keys(r, v, w, langs)) return -1;
    for (int k = 0; k < LESSON_LANGS; k++) {
        const cJSON *s = get(v, lesson_lang_keys[k]);
        if (!s) return bad(r, v, "%s: the %s text is missing (every text is in English and Chinese)", w, lesson_lang_keys[k]);
        if (!cJSON_IsString(s) || !s->valuestring[0]) return bad(r, s, "%s.%s: expected a non-empty string", w, lesson_lang_keys[k]);
        t->pos[k] = pos_of(r, s);
        if (!(t->s[k] = strdup(s->valuestring))) return bad(r, s, "out of memory");
        char wl[180], msg[200];
        snprintf(wl, sizeof wl, "%s.%s", w, lesson_lang_keys[k]);
        hole_ctx h = {r, s, t, k, wl};
        size_t errpos = 0;
        if (query_placeholders(t->s[k], add_hole, &h, msg, sizeof msg, &errpos)) {
            if (r->err[0]) return -1; /* add_hole said why */
            lesson_pos p = t->pos[k];
            p.col += (int)(1 + errpos);
            return bad_at(r, p, "%s: %s", wl, msg);
        }
    }
    return 0;
}

/* ---- numbers ---- */

/* A whole number, given as a JSON number or as a constant query in a string ("2^24"). */
static int whole(reader *r, const cJSON *v, const char *where, double lo, double hi, double *out)
{
    double d;
    if (cJSON_IsNumber(v)) {
        d = v->valuedouble;
    } else if (cJSON_IsString(v)) {
        query *q;
        if (parse_query(r, v, v->valuestring, 0, &q, where)) return -1;
        query_ctx none;
        memset(&none, 0, sizeof none);
        query_value val;
        char msg[200];
        int rc = query_eval(q, &none, &val, msg, sizeof msg);
        query_free(q);
        if (rc || val.type != QUERY_NUMBER) return bad(r, v, "%s: expected a number like 16777216 or \"2^24\"", where);
        d = val.num;
    } else {
        return bad(r, v, "%s: expected a whole number", where);
    }
    if (d != floor(d) || d < lo || d > hi) return bad(r, v, "%s: expected a whole number from %.0f to %.0f, got %g", where, lo, hi, d);
    *out = d;
    return 0;
}

static int list_field(reader *r, const cJSON *v, const char *where, lesson_list *out)
{
    if (!cJSON_IsArray(v)) return bad(r, v, "%s: expected an array of whole numbers", where);
    size_t n = (size_t)cJSON_GetArraySize(v);
    out->v = n ? calloc(n, sizeof *out->v) : NULL;
    if (n && !out->v) return bad(r, v, "out of memory");
    for (const cJSON *c = v->child; c; c = c->next) {
        double d;
        if (whole(r, c, where, 0, MAX_ITEMS - 1, &d)) return -1;
        out->v[out->n++] = (unsigned)d;
    }
    return 0;
}

/* ---- show ---- */

static const char *const show_keys[] = {"version", "capture", "compare", "pass", "view_block", "step", "phase", "op", "fine",
                                        "panels", "motion", "bench_n", "highlight", "card", "wave", NULL};
static const char *const capture_keys[] = {"block", "n", "data", "seed", "ept", NULL};

static int version_field(reader *r, const cJSON *v, const char *where, char *out)
{
    if (cJSON_IsNull(v) && strstr(where, "compare")) { out[0] = '\0'; return 0; }
    if (!cJSON_IsString(v)) return bad(r, v, "%s: expected a version id (v0 ... v8, v4s, naive)", where);
    const ladder_version *lv = ladder_find(v->valuestring);
    if (!lv) {
        char why[300];
        ladder_unknown(v->valuestring, why, sizeof why);
        return bad(r, v, "%s: %s", where, why);
    }
    snprintf(out, LESSON_ID_MAX, "%s", lv->id);
    return 0;
}

static int parse_show(reader *r, const cJSON *step, const char *where, const lesson_show *prev, lesson_show *s)
{
    char w[160];
    snprintf(w, sizeof w, "%s.show", where);
    const cJSON *sh = get(step, "show");
    /* inherit all but the highlights */
    if (prev) {
        *s = *prev;
        memset(s->highlight, 0, sizeof s->highlight);
    } else {
        memset(s, 0, sizeof *s);
        s->step = -1;
        s->panels = LESSON_PANELS_TRACE;
        s->motion = 1;
        s->bench_n = (uint64_t)1 << 24;
    }
    s->pos = pos_of(r, sh ? sh : step);
    if (!sh) {
        if (!prev) return bad(r, step, "%s: the first step needs a \"show\" with a version", where);
        return 0;
    }
    if (!cJSON_IsObject(sh)) return bad(r, sh, "%s: expected an object", w);
    if (known_keys(r, sh, w, show_keys)) return -1;
    const cJSON *v;
    char wk[200];
    int moved = 0;
    if ((v = get(sh, "version"))) {
        snprintf(wk, sizeof wk, "%s.version", w);
        if (version_field(r, v, wk, s->version)) return -1;
        moved = 1;
    }
    if (!s->version[0]) return bad(r, sh, "%s: the first step must say which version to show", w);
    if ((v = get(sh, "compare"))) {
        snprintf(wk, sizeof wk, "%s.compare", w);
        if (version_field(r, v, wk, s->compare)) return -1;
    }
    if ((v = get(sh, "capture"))) {
        snprintf(wk, sizeof wk, "%s.capture", w);
        if (!cJSON_IsObject(v)) return bad(r, v, "%s: expected an object", wk);
        if (known_keys(r, v, wk, capture_keys)) return -1;
        /* a new capture starts from the defaults: what it does not say is not inherited */
        s->block = 0;
        s->n = 0;
        s->data[0] = '\0';
        s->seed = 0;
        s->seed_set = 0;
        s->ept = 0;
        const cJSON *c;
        double d;
        if ((c = get(v, "block"))) { if (whole(r, c, "capture.block", 32, 1024, &d)) return -1; s->block = (unsigned)d; }
        if ((c = get(v, "n"))) { if (whole(r, c, "capture.n", 1, LESSON_CAPTURE_N_MAX, &d)) return -1; s->n = (uint64_t)d; }
        if ((c = get(v, "seed"))) { if (whole(r, c, "capture.seed", 0, 9007199254740992.0, &d)) return -1; s->seed = (uint64_t)d; s->seed_set = 1; }
        if ((c = get(v, "ept"))) { if (whole(r, c, "capture.ept", 1, 4096, &d)) return -1; s->ept = (unsigned)d; }
        if ((c = get(v, "data"))) {
            int ok = 0;
            for (size_t k = 0; input_patterns[k] && cJSON_IsString(c); k++) ok |= strcmp(input_patterns[k], c->valuestring) == 0;
            if (!ok) return bad(r, c, "capture.data: expected ones, ramp, random-int, random-float or random-negative");
            snprintf(s->data, sizeof s->data, "%s", c->valuestring);
        }
        moved = 1;
    }
    double d;
    if ((v = get(sh, "pass"))) {
        if (whole(r, v, "show.pass", 0, 63, &d)) return -1;
        s->pass = (unsigned)d;
        moved = 1;
    } else if (moved) {
        s->pass = 0;
    }
    if ((v = get(sh, "view_block"))) {
        if (whole(r, v, "show.view_block", 0, 65535, &d)) return -1;
        s->view_block = (unsigned)d;
        moved = 1;
    } else if (moved) {
        s->view_block = 0;
    }
    const cJSON *st = get(sh, "step"), *ph = get(sh, "phase"), *op = get(sh, "op");
    if (st && (ph || op)) return bad(r, st, "%s: give \"step\" or \"phase\" (with \"op\"), not both", w);
    if (st) {
        if (whole(r, st, "show.step", 0, 1e7, &d)) return -1;
        s->step = (long)d;
    } else if (ph || op) {
        s->step = -1;
        s->phase = 0;
        s->op = 0;
        if (ph) { if (whole(r, ph, "show.phase", 0, 1e5, &d)) return -1; s->phase = (long)d; }
        if (op) { if (whole(r, op, "show.op", 0, 1e5, &d)) return -1; s->op = (long)d; }
    } else if (moved) {
        s->step = 0; /* another capture: start at its first step */
    }
    if ((v = get(sh, "fine"))) {
        if (!cJSON_IsBool(v)) return bad(r, v, "%s.fine: expected true or false", w);
        s->fine = cJSON_IsTrue(v);
    }
    if ((v = get(sh, "motion"))) {
        if (!cJSON_IsBool(v)) return bad(r, v, "%s.motion: expected true or false", w);
        s->motion = cJSON_IsTrue(v);
    }
    if ((v = get(sh, "bench_n"))) {
        if (whole(r, v, "show.bench_n", 1, 1e12, &d)) return -1;
        s->bench_n = (uint64_t)d;
    }
    if ((v = get(sh, "panels"))) {
        if (!cJSON_IsArray(v) || !v->child) return bad(r, v, "%s.panels: expected a non-empty array of panel names", w);
        s->panels = 0;
        for (const cJSON *c = v->child; c; c = c->next) {
            int k = -1;
            for (int j = 0; j < LESSON_PANEL_COUNT && cJSON_IsString(c); j++)
                if (strcmp(lesson_panel_keys[j], c->valuestring) == 0) k = j;
            if (k < 0) return bad(r, c, "%s.panels: expected one of source, tree, shared, lanes, banks, counters, timeline, bench, grid", w);
            s->panels |= 1u << k;
        }
    }
    if ((v = get(sh, "card"))) {
        if (!cJSON_IsString(v) || !card_find(v->valuestring)) return bad(r, v, "%s.card: expected one of %s", w, card_ids());
        snprintf(s->card, sizeof s->card, "%s", card_find(v->valuestring)->id);
    }
    if ((v = get(sh, "wave"))) {
        if (cJSON_IsString(v) && !strcmp(v->valuestring, "end")) s->wave = -1;
        else if (cJSON_IsString(v) && !strcmp(v->valuestring, "last")) s->wave = -2;
        else if (whole(r, v, "show.wave", 0, 1e9, &d)) return -1;
        else s->wave = (long)d;
    } else if (moved) {
        s->wave = 0; /* another capture: its first wave */
    }
    if ((v = get(sh, "highlight"))) {
        snprintf(wk, sizeof wk, "%s.highlight", w);
        if (!cJSON_IsObject(v)) return bad(r, v, "%s: expected an object", wk);
        static const char *const keys[] = {"lanes", "banks", "cells", "lines", "nodes", NULL};
        if (known_keys(r, v, wk, keys)) return -1;
        for (int k = 0; k < LESSON_ITEM_COUNT; k++) {
            const cJSON *c = get(v, lesson_item_keys[k]);
            char wi[220];
            snprintf(wi, sizeof wi, "%s.%s", wk, lesson_item_keys[k]);
            if (c && list_field(r, c, wi, &s->highlight[k])) return -1;
        }
    }
    /* the capture must be one the emulator takes: check the version's block and ept rules now */
    const ladder_version *lv = ladder_find(s->version);
    char msg[200];
    if (s->block && ladder_check_block(lv, s->block, msg, sizeof msg)) return bad(r, sh, "%s: %s", w, msg);
    if (s->ept && ladder_check_ept(lv, s->ept, msg, sizeof msg)) return bad(r, sh, "%s: %s", w, msg);
    return 0;
}

/* ---- ask ---- */

static const char *const ask_keys[] = {"kind", "prompt", "answer", "tolerance", "relative", "options", "explain", "on", "reveal", NULL};

static int parse_ask(reader *r, const cJSON *a, const char *where, lesson_ask *q)
{
    char w[160];
    snprintf(w, sizeof w, "%s.ask", where);
    if (!cJSON_IsObject(a)) return bad(r, a, "%s: expected an object", w);
    if (known_keys(r, a, w, ask_keys)) return -1;
    q->pos = pos_of(r, a);
    const cJSON *k = get(a, "kind");
    int kind = -1;
    for (int j = 0; j < LESSON_ASK_KINDS && cJSON_IsString(k); j++)
        if (strcmp(lesson_ask_keys[j], k->valuestring) == 0) kind = j;
    if (kind < 0) return bad(r, k ? k : a, "%s.kind: expected pick_lanes, pick_banks, pick_cells, number or choice", w);
    q->kind = (lesson_ask_kind)kind;
    if (text_field(r, a, "prompt", w, 1, &q->prompt) || text_field(r, a, "explain", w, 1, &q->explain)) return -1;
    const cJSON *on = get(a, "on");
    if (on) {
        if (!cJSON_IsString(on) || (strcmp(on->valuestring, "next") && strcmp(on->valuestring, "this")))
            return bad(r, on, "%s.on: expected \"next\" (the picture the answer reveals, the default) or \"this\"", w);
        q->on_this = strcmp(on->valuestring, "this") == 0;
    }
    const cJSON *opts = get(a, "options");
    if (q->kind == LESSON_ASK_CHOICE) {
        if (!cJSON_IsArray(opts) || cJSON_GetArraySize(opts) < 2) return bad(r, opts ? opts : a, "%s.options: a choice needs at least two options", w);
        q->options = calloc((size_t)cJSON_GetArraySize(opts), sizeof *q->options);
        if (!q->options) return bad(r, opts, "out of memory");
        int by_answer = get(a, "answer") != NULL;
        for (const cJSON *o = opts->child; o; o = o->next) {
            char wo[200];
            snprintf(wo, sizeof wo, "%s.options[%zu]", w, q->noptions);
            lesson_option *op = &q->options[q->noptions++];
            op->pos = pos_of(r, o);
            if (!cJSON_IsObject(o)) return bad(r, o, "%s: expected {\"text\": {...}, \"correct\": \"query\"}", wo);
            static const char *const okeys[] = {"text", "correct", NULL};
            if (known_keys(r, o, wo, okeys) || text_field(r, o, "text", wo, 1, &op->text)) return -1;
            if (by_answer && get(o, "correct")) return bad(r, get(o, "correct"), "%s: give the question an \"answer\" or each option a \"correct\", not both", wo);
            if (!by_answer && (query_field(r, o, "correct", wo, 1, &op->correct, NULL) || computed(r, get(o, "correct"), op->correct, wo)))
                return -1;
        }
        if (by_answer && (query_field(r, a, "answer", w, 1, &q->answer, &q->answer_pos) || computed(r, get(a, "answer"), q->answer, w)))
            return -1;
    } else {
        if (opts) return bad(r, opts, "%s.options: only a choice has options", w);
        if (query_field(r, a, "answer", w, 1, &q->answer, &q->answer_pos) || computed(r, get(a, "answer"), q->answer, w)) return -1;
    }
    const cJSON *tol = get(a, "tolerance"), *rel = get(a, "relative");
    if ((tol || rel) && q->kind != LESSON_ASK_NUMBER) return bad(r, tol ? tol : rel, "%s: only a number question has a tolerance", w);
    if (tol) {
        if (!cJSON_IsNumber(tol) || tol->valuedouble < 0) return bad(r, tol, "%s.tolerance: expected a number >= 0", w);
        q->tolerance = tol->valuedouble;
    }
    if (rel) {
        if (!cJSON_IsBool(rel)) return bad(r, rel, "%s.relative: expected true or false", w);
        q->relative = cJSON_IsTrue(rel);
    }
    const cJSON *rv = get(a, "reveal");
    if (rv) {
        char wr[200];
        snprintf(wr, sizeof wr, "%s.reveal", w);
        if (!cJSON_IsObject(rv)) return bad(r, rv, "%s: expected {\"lanes\": \"query\", ...}", wr);
        static const char *const keys[] = {"lanes", "banks", "cells", "lines", "nodes", NULL};
        if (known_keys(r, rv, wr, keys)) return -1;
        for (int j = 0; j < LESSON_ITEM_COUNT; j++)
            if (query_field(r, rv, lesson_item_keys[j], wr, 0, &q->reveal[j], &q->reveal_pos[j])) return -1;
    }
    return 0;
}

/* ---- the file ---- */

static const char *const top_keys[] = {"schema", "schema_version", "id", "title", "summary", "results", "steps", "exercise", NULL};
static const char *const step_keys[] = {"show", "say", "ask", NULL};

/* A question never hides the picture it is about: a pick question's panel, for an answer that
 * counts shuffles the picture that draws them, and for one about the card's schedule the grid,
 * must be shown; the grid and the benchmark view cover every panel of the trace. The answer's and
 * the options' queries are what the question is about. */
static int ask_sees_its_picture(reader *r, const cJSON *a, const char *w, const lesson_step *st)
{
    static const struct {
        int kind;           /* a lesson_ask_kind, or -1: any kind whose queries name `word` */
        const char *word;
        int panel;
    } needs[] = {{LESSON_ASK_LANES, NULL, LESSON_PANEL_LANES}, {LESSON_ASK_BANKS, NULL, LESSON_PANEL_BANKS},
                 {LESSON_ASK_CELLS, NULL, LESSON_PANEL_SHARED}, {-1, "shuffles", LESSON_PANEL_TREE},
                 {-1, "waves(", LESSON_PANEL_GRID}, {-1, "resident_blocks(", LESSON_PANEL_GRID},
                 {-1, "last_wave_blocks(", LESSON_PANEL_GRID}, {-1, "blocks_per_sm(", LESSON_PANEL_GRID}, {-1, "sms(", LESSON_PANEL_GRID}};
    unsigned covers = (1u << LESSON_PANEL_GRID) | (1u << LESSON_PANEL_BENCH), shown = st->show.panels;
    if (shown & covers) shown &= covers; /* an overlay hides the trace's panels under it */
    char text[4096] = "";
    const cJSON *ans = get(a, "answer"), *opts = get(a, "options");
    if (cJSON_IsString(ans)) snprintf(text, sizeof text, "%s", ans->valuestring);
    for (const cJSON *o = cJSON_IsArray(opts) ? opts->child : NULL; o; o = o->next) {
        const cJSON *c = get(o, "correct");
        size_t len = strlen(text);
        if (cJSON_IsString(c) && len + 2 < sizeof text) snprintf(text + len, sizeof text - len, " %s", c->valuestring);
    }
    for (size_t i = 0; i < sizeof needs / sizeof *needs; i++) {
        int about = needs[i].kind >= 0 ? (int)st->ask->kind == needs[i].kind : strstr(text, needs[i].word) != NULL;
        if (about && !(shown & (1u << needs[i].panel)))
            return bad(r, a, "%s.ask: the question is about what the %s panel shows, and this step's panels hide it; add \"%s\" to show.panels", w,
                       lesson_panel_keys[needs[i].panel], lesson_panel_keys[needs[i].panel]);
    }
    return 0;
}

/* ---- an exercise ---- */

static const char *const exercise_keys[] = {"task", "start", "entry", "defines", "capture", "runs", "gpu", "operation", "goals", "hints", NULL};
static const char *const exercise_gpu_keys[] = {"sizes", "fraction", NULL};
/* what the exercise's kernels compute, which a check's verifier replays (certify.h): lesson_op's order */
static const char *const exercise_operations[LESSON_OPS] = {"sum", "max"};
static const char *const goal_keys[] = {"say", "value", "at_most", "at_least", "equals", "schedule", "every_run", NULL};
static const char *const exercise_runs_keys[] = {"n", "schedules", NULL};
static const char *const exercise_capture_keys[] = {"block", "n", "data", NULL};

/* texts read in a menu or a checklist, without a trace: no placeholders */
static int plain_text(reader *r, const lesson_text *t, const char *where)
{
    for (int k = 0; k < LESSON_LANGS; k++)
        if (t->nholes[k]) return bad_at(r, t->holes[k][0].pos, "%s: shown without a trace: no {query} placeholders here", where);
    return 0;
}

/* a file beside the lesson: it must be there, a regular file */
static int file_field(reader *r, const cJSON *x, const char *key, const char *dir, char *out, size_t len, lesson_pos *pos)
{
    const cJSON *v = get(x, key);
    if (!cJSON_IsString(v) || !v->valuestring[0] || v->valuestring[0] == '/' || strstr(v->valuestring, ".."))
        return bad(r, v ? v : x, "exercise.%s: expected the name of a .cu file beside the lesson", key);
    *pos = pos_of(r, v);
    snprintf(out, len, "%s/%s", dir && dir[0] ? dir : ".", v->valuestring);
    char why[300];
    int fd = infile_open(out, NULL, why, sizeof why); /* a FIFO is refused by name, never waited on */
    if (fd < 0) return bad(r, v, "exercise.%s: %s", key, why);
    close(fd);
    return 0;
}

static int parse_goal(reader *r, const cJSON *g, const char *w, lesson_goal *goal)
{
    if (!cJSON_IsObject(g)) return bad(r, g, "%s: expected an object", w);
    if (known_keys(r, g, w, goal_keys)) return -1;
    goal->pos = pos_of(r, g);
    if (text_field(r, g, "say", w, 1, &goal->say) || plain_text(r, &goal->say, w)) return -1;
    if (query_field(r, g, "value", w, 1, &goal->value, NULL)) return -1;
    if (computed(r, get(g, "value"), goal->value, w)) return -1;
    int bounds = 0;
    for (int b = 0; b < LESSON_BOUNDS; b++) {
        const cJSON *v = get(g, lesson_bound_keys[b]);
        if (!v) continue;
        char wb[200];
        snprintf(wb, sizeof wb, "%s.%s", w, lesson_bound_keys[b]);
        if (whole(r, v, wb, -1e12, 1e12, &goal->limit)) return -1;
        goal->bound = (lesson_bound)b;
        bounds++;
    }
    if (bounds != 1) return bad(r, g, "%s: give one of at_most, at_least or equals", w);
    const cJSON *v = get(g, "schedule");
    if (v) { /* the capture parses it: lesson check says where a bad one is */
        if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= sizeof goal->schedule)
            return bad(r, v, "%s.schedule: expected lockstep, its:SEED, lanes-up, lanes-down or adversarial", w);
        snprintf(goal->schedule, sizeof goal->schedule, "%s", v->valuestring);
    }
    if ((v = get(g, "every_run"))) {
        if (!cJSON_IsBool(v)) return bad(r, v, "%s.every_run: expected true or false", w);
        if (goal->schedule[0] && cJSON_IsTrue(v)) return bad(r, v, "%s: a goal of every run takes the runs' schedules, not one of its own", w);
        goal->every_run = cJSON_IsTrue(v);
    }
    return 0;
}

/* "runs": {"n": [sizes], "schedules": [schedules]}: the hidden test suite's runs */
static int parse_runs(reader *r, const cJSON *v, lesson_exercise *e)
{
    if (!cJSON_IsObject(v)) return bad(r, v, "exercise.runs: expected an object");
    if (known_keys(r, v, "exercise.runs", exercise_runs_keys)) return -1;
    const cJSON *a = get(v, "n");
    if (!cJSON_IsArray(a) || !a->child || cJSON_GetArraySize(a) > LESSON_SIZES_MAX)
        return bad(r, a ? a : v, "exercise.runs.n: expected 1 to %d element counts", LESSON_SIZES_MAX);
    for (const cJSON *c = a->child; c; c = c->next) {
        double d;
        if (whole(r, c, "runs.n", 1, RACE_CAPTURE_MAX_N, &d)) return -1;
        e->sizes[e->nsizes++] = (uint64_t)d;
    }
    a = get(v, "schedules");
    if (a) {
        if (!cJSON_IsArray(a) || !a->child || cJSON_GetArraySize(a) > LESSON_SCHEDULES_MAX)
            return bad(r, a, "exercise.runs.schedules: expected 1 to %d schedules", LESSON_SCHEDULES_MAX);
        for (const cJSON *c = a->child; c; c = c->next) {
            if (!cJSON_IsString(c) || !c->valuestring[0] || strlen(c->valuestring) >= sizeof e->schedules[0])
                return bad(r, c, "exercise.runs.schedules: expected lockstep, its:SEED, lanes-up, lanes-down or adversarial");
            snprintf(e->schedules[e->nschedules++], sizeof e->schedules[0], "%s", strcmp(c->valuestring, "lockstep") ? c->valuestring : "");
        }
    }
    return 0;
}

/* "gpu": {"sizes": [sizes], "fraction": F}: the card's runs, and its goal where F is given */
static int parse_gpu(reader *r, const cJSON *v, lesson_exercise *e)
{
    if (!cJSON_IsObject(v)) return bad(r, v, "exercise.gpu: expected an object");
    if (known_keys(r, v, "exercise.gpu", exercise_gpu_keys)) return -1;
    const cJSON *a = get(v, "sizes");
    if (a) {
        if (!cJSON_IsArray(a) || !a->child || cJSON_GetArraySize(a) > LESSON_GPU_SIZES_MAX)
            return bad(r, a, "exercise.gpu.sizes: expected 1 to %d element counts", LESSON_GPU_SIZES_MAX);
        for (const cJSON *c = a->child; c; c = c->next) {
            double d;
            if (whole(r, c, "gpu.sizes", 1024, (double)(1u << 30), &d)) return -1;
            e->gpu_sizes[e->ngpu_sizes++] = (uint64_t)d;
        }
    }
    if ((a = get(v, "fraction"))) {
        if (!cJSON_IsNumber(a) || !(a->valuedouble > 0 && a->valuedouble <= 1))
            return bad(r, a, "exercise.gpu.fraction: expected a number above 0 and at most 1 (of the card's best read)");
        e->gpu_fraction = a->valuedouble;
    }
    return 0;
}

static int parse_exercise(reader *r, const cJSON *x, const char *dir)
{
    lesson *l = r->l;
    if (!cJSON_IsObject(x)) return bad(r, x, "exercise: expected an object");
    if (known_keys(r, x, "exercise", exercise_keys)) return -1;
    lesson_exercise *e = l->exercise = calloc(1, sizeof *l->exercise);
    if (!e) return bad(r, x, "out of memory");
    if (text_field(r, x, "task", "exercise", 1, &e->task) || plain_text(r, &e->task, "exercise.task")) return -1;
    if (file_field(r, x, "start", dir, e->start, sizeof e->start, &e->start_pos)) return -1;
    const cJSON *v = get(x, "entry");
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= sizeof e->entry)
        return bad(r, v ? v : x, "exercise.entry: expected how to run the file, as --entry says it");
    snprintf(e->entry, sizeof e->entry, "%s", v->valuestring);
    if ((v = get(x, "defines"))) {
        if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > 4) return bad(r, v, "exercise.defines: expected up to 4 strings NAME=VALUE");
        size_t k = 0;
        for (const cJSON *d = v->child; d; d = d->next, k++) {
            if (!cJSON_IsString(d) || !d->valuestring[0] || strlen(d->valuestring) >= sizeof e->defines[0] || strpbrk(d->valuestring, " ,\"'"))
                return bad(r, d, "exercise.defines: expected NAME=VALUE");
            snprintf(e->defines[k], sizeof e->defines[k], "%s", d->valuestring);
        }
    }
    if ((v = get(x, "capture"))) {
        if (!cJSON_IsObject(v)) return bad(r, v, "exercise.capture: expected an object");
        if (known_keys(r, v, "exercise.capture", exercise_capture_keys)) return -1;
        const cJSON *c;
        double d;
        if ((c = get(v, "block"))) { if (whole(r, c, "capture.block", 32, 1024, &d)) return -1; e->block = (unsigned)d; }
        /* the race detector watches captures this large, and a goal may count its races */
        if ((c = get(v, "n"))) { if (whole(r, c, "capture.n", 1, RACE_CAPTURE_MAX_N, &d)) return -1; e->n = (uint64_t)d; }
        if ((c = get(v, "data"))) {
            int ok = 0;
            for (size_t k = 0; input_patterns[k] && cJSON_IsString(c); k++) ok |= strcmp(input_patterns[k], c->valuestring) == 0;
            if (!ok) return bad(r, c, "capture.data: expected ones, ramp, random-int, random-float or random-negative");
            snprintf(e->data, sizeof e->data, "%s", c->valuestring);
        }
    }
    if ((v = get(x, "operation"))) {
        size_t k = 0;
        while (k < LESSON_OPS && !(cJSON_IsString(v) && strcmp(v->valuestring, exercise_operations[k]) == 0)) k++;
        if (k == LESSON_OPS) return bad(r, v, "exercise.operation: expected \"sum\" or \"max\"");
        e->operation = (lesson_op)k;
    }
    if ((v = get(x, "runs")) && parse_runs(r, v, e)) return -1;
    if ((v = get(x, "gpu")) && parse_gpu(r, v, e)) return -1;
    if (!e->nsizes) e->sizes[e->nsizes++] = e->n ? e->n : 256;
    if (!e->nschedules) e->schedules[e->nschedules++][0] = 0;
    v = get(x, "goals");
    if (!cJSON_IsArray(v) || !v->child || cJSON_GetArraySize(v) > LESSON_GOALS_MAX)
        return bad(r, v ? v : x, "exercise.goals: expected 1 to %d goals", LESSON_GOALS_MAX);
    for (const cJSON *g = v->child; g; g = g->next) {
        char w[64];
        snprintf(w, sizeof w, "exercise.goals[%zu]", e->ngoals);
        if (parse_goal(r, g, w, &e->goals[e->ngoals++])) return -1;
    }
    v = get(x, "hints");
    if (!cJSON_IsArray(v) || !v->child || cJSON_GetArraySize(v) > LESSON_HINTS_MAX)
        return bad(r, v ? v : x, "exercise.hints: expected 1 to %d hints", LESSON_HINTS_MAX);
    for (const cJSON *h = v->child; h; h = h->next) {
        char w[64];
        snprintf(w, sizeof w, "exercise.hints[%zu]", e->nhints);
        if (text_value(r, h, w, &e->hints[e->nhints++]) || plain_text(r, &e->hints[e->nhints - 1], w)) return -1;
    }
    return 0;
}

static int parse_root(reader *r, const cJSON *root, const char *dir)
{
    lesson *l = r->l;
    if (!cJSON_IsObject(root)) return bad(r, root, "expected a lesson object");
    const cJSON *v = get(root, "schema");
    if (!cJSON_IsString(v) || strcmp(v->valuestring, LESSON_SCHEMA) != 0)
        return bad(r, v ? v : root, "schema: expected \"" LESSON_SCHEMA "\"");
    v = get(root, "schema_version");
    if (!cJSON_IsNumber(v)) return bad(r, v ? v : root, "schema_version: expected %d", LESSON_SCHEMA_VERSION);
    if (v->valuedouble != LESSON_SCHEMA_VERSION)
        return bad(r, v, "schema_version %g: this warpscope reads version %d", v->valuedouble, LESSON_SCHEMA_VERSION);
    if (known_keys(r, root, "lesson", top_keys)) return -1;
    v = get(root, "id");
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= sizeof l->id || strpbrk(v->valuestring, " /\\\"\t\n"))
        return bad(r, v ? v : root, "id: expected a short name without spaces, slashes or quotes");
    snprintf(l->id, sizeof l->id, "%s", v->valuestring);
    if (text_field(r, root, "title", "lesson", 1, &l->title) || text_field(r, root, "summary", "lesson", 0, &l->summary)) return -1;
    /* menus show these without a trace */
    for (int k = 0; k < LESSON_LANGS; k++)
        if (l->title.nholes[k] || l->summary.nholes[k])
            return bad_at(r, l->title.nholes[k] ? l->title.holes[k][0].pos : l->summary.holes[k][0].pos,
                          "the title and summary are shown in menus, without a trace: no {query} placeholders there");
    if ((v = get(root, "results"))) {
        if (!cJSON_IsString(v) || !v->valuestring[0]) return bad(r, v, "results: expected a path to a benchmark results file");
        l->results_pos = pos_of(r, v);
        if (v->valuestring[0] == '/' || !dir || !dir[0]) snprintf(l->results, sizeof l->results, "%s", v->valuestring);
        else snprintf(l->results, sizeof l->results, "%s/%s", dir, v->valuestring);
    }
    const cJSON *steps = get(root, "steps"), *ex = get(root, "exercise");
    if (ex && parse_exercise(r, ex, dir)) return -1;
    if (ex && !steps) return 0; /* an exercise needs no narration */
    if (!cJSON_IsArray(steps) || !steps->child) return bad(r, steps ? steps : root, "steps: expected a non-empty array");
    l->steps = calloc((size_t)cJSON_GetArraySize(steps), sizeof *l->steps);
    if (!l->steps) return bad(r, steps, "out of memory");
    for (const cJSON *s = steps->child; s; s = s->next) {
        char w[64];
        snprintf(w, sizeof w, "steps[%zu]", l->nsteps);
        lesson_step *st = &l->steps[l->nsteps++];
        st->pos = pos_of(r, s);
        if (!cJSON_IsObject(s)) return bad(r, s, "%s: expected an object", w);
        if (known_keys(r, s, w, step_keys)) return -1;
        if (parse_show(r, s, w, l->nsteps > 1 ? &l->steps[l->nsteps - 2].show : NULL, &st->show)) return -1;
        if (text_field(r, s, "say", w, 1, &st->say)) return -1;
        const cJSON *a = get(s, "ask");
        if (a) {
            if (!(st->ask = calloc(1, sizeof *st->ask))) return bad(r, a, "out of memory");
            if (parse_ask(r, a, w, st->ask)) return -1;
            if (ask_sees_its_picture(r, a, w, st)) return -1;
        }
    }
    return 0;
}

int lesson_parse(lesson *l, const char *text, size_t len, const char *name, const char *dir, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    snprintf(l->file, sizeof l->file, "%s", name);
    err[0] = '\0';
    char msg[300];
    cJSON *root = json_parse_at(text, len, msg, sizeof msg);
    if (!root) {
        snprintf(err, errlen, "%s:%s", name, msg);
        return -1;
    }
    char *copy = malloc(len + 1);
    if (!copy) { cJSON_Delete(root); snprintf(err, errlen, "%s: out of memory", name); return -1; }
    memcpy(copy, text, len);
    copy[len] = '\0';
    reader r = {.text = copy, .name = name, .err = err, .errlen = errlen, .l = l};
    size_t i = 0;
    int rc = walk(copy, &i, root, &r.map);
    if (rc) snprintf(err, errlen, "%s: out of memory", name);
    else rc = parse_root(&r, root, dir);
    free(r.map.node);
    free(r.map.off);
    free(copy);
    cJSON_Delete(root);
    if (rc) lesson_free(l);
    if (rc) snprintf(l->file, sizeof l->file, "%s", name);
    return rc;
}

int lesson_load(lesson *l, const char *path, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    char *buf;
    size_t n;
    if (json_read_file(path, MAX_FILE_BYTES, &buf, &n, err, errlen)) return -1; /* the size cap, NUL bytes, folders */
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    int rc = lesson_parse(l, buf, n, path, dir, err, errlen);
    free(buf);
    return rc;
}

static void ask_free(lesson_ask *a)
{
    text_free(&a->prompt);
    text_free(&a->explain);
    query_free(a->answer);
    for (size_t i = 0; i < a->noptions; i++) {
        text_free(&a->options[i].text);
        query_free(a->options[i].correct);
    }
    free(a->options);
    for (int k = 0; k < LESSON_ITEM_COUNT; k++) query_free(a->reveal[k]);
    free(a);
}

void lesson_free(lesson *l)
{
    text_free(&l->title);
    text_free(&l->summary);
    for (size_t i = 0; i < l->nsteps; i++) {
        lesson_step *s = &l->steps[i];
        for (int k = 0; k < LESSON_ITEM_COUNT; k++) free(s->show.highlight[k].v);
        text_free(&s->say);
        if (s->ask) ask_free(s->ask);
    }
    free(l->steps);
    if (l->exercise) {
        lesson_exercise *e = l->exercise;
        text_free(&e->task);
        for (size_t i = 0; i < e->ngoals; i++) {
            text_free(&e->goals[i].say);
            query_free(e->goals[i].value);
        }
        for (size_t i = 0; i < e->nhints; i++) text_free(&e->hints[i]);
        free(e);
    }
    memset(l, 0, sizeof *l);
}

long lesson_match(char *const *files, size_t n, const char *name, const char *noun, char *err, size_t errlen)
{
    size_t nlen = strlen(name);
    int number = nlen && strspn(name, "0123456789") == nlen;
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(files[i], '/');
        base = base ? base + 1 : files[i];
        size_t blen = strcspn(base, "."), digits = strspn(base, "0123456789");
        const char *id = base[digits] == '-' ? base + digits + 1 : base; /* "13-waves": "waves" */
        if ((number && digits && atoi(base) == atoi(name)) || (blen == nlen && !strncmp(base, name, nlen)) || !strcmp(base, name) ||
            ((size_t)(base + blen - id) == nlen && !strncmp(id, name, nlen)))
            return (long)i;
    }
    /* none: the numbers and ids there are, and the closest */
    enum { SHOWN = 64 };
    char words[2 * SHOWN][48], near[200] = "";
    const char *names[2 * SHOWN] = {NULL};
    size_t k = 0;
    for (size_t i = 0; i < n && k + 2 <= 2 * SHOWN; i++) {
        const char *base = strrchr(files[i], '/');
        base = base ? base + 1 : files[i];
        size_t blen = strcspn(base, "."), digits = strspn(base, "0123456789");
        snprintf(words[k], sizeof words[k], "%.*s", (int)digits, base);
        names[k] = words[k];
        k++;
        if (base[digits] == '-' && blen > digits + 1) {
            snprintf(words[k], sizeof words[k], "%.*s", (int)(blen - digits - 1), base + digits + 1);
            names[k] = words[k];
            k++;
        }
    }
    int close = words_suggest(name, names, k, near, sizeof near) > 0;
    if (!n) snprintf(err, errlen, "no %s \"%s\": the %ss folder has none", noun, name, noun);
    else
        snprintf(err, errlen, "no %s \"%s\"%s%s%s; the %ss are %s to %s, by number or name (warpscope %s list)", noun, name,
                 close ? " (did you mean " : "", near, close ? "?)" : "", noun, names[0],
                 k > 1 && names[k - 1][0] >= 'a' ? names[k - 2] : names[k - 1], noun);
    return -1;
}
