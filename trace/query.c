/* query: parser and evaluator of lesson queries (see query.h). The functions are one table; each
 * takes the parsed call (positional and named arguments) and the context, and says why it cannot
 * answer rather than guessing. */
#include "trace/query.h"

#include "trace/cards.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/cost.h"
#include "trace/input.h"

/* ---- sets ---- */

void query_set_clear(query_value *v)
{
    memset(v, 0, sizeof *v);
    v->type = QUERY_SET;
}

void query_set_add(query_value *v, size_t item)
{
    if (item >= QUERY_SET_MAX || query_set_has(v, item)) return;
    v->bits[item / 8] = (uint8_t)(v->bits[item / 8] | 1u << (item % 8));
    v->count++;
}

int query_set_has(const query_value *v, size_t item)
{
    return item < QUERY_SET_MAX && (v->bits[item / 8] >> (item % 8) & 1);
}

/* ---- syntax tree ---- */

typedef enum node_kind { N_NUM, N_NAME, N_STR, N_CALL, N_UNARY, N_BINARY } node_kind;

/* MAX_DEPTH: parentheses, calls and signs nested in one another; the parser recurses once per
 * level, so a query nested thousands deep would overflow the stack. MAX_TEXT: a query's length. */
enum { NAME_MAX_LEN = 32, MAX_NODES = 256, MAX_ARGS = 8, MAX_DEPTH = 64, MAX_TEXT = 4096 };

typedef struct node {
    node_kind kind;
    int op;                 /* operator token for N_UNARY / N_BINARY */
    int a, b;               /* children (node indices), -1 if none */
    int fn;                 /* N_CALL: index into the function table */
    int args[MAX_ARGS];     /* N_CALL: argument nodes */
    char argname[MAX_ARGS][NAME_MAX_LEN]; /* "" for positional */
    int nargs;
    double num;
    char name[NAME_MAX_LEN]; /* N_NAME, N_STR */
    size_t pos;
} node;

struct query {
    char *text;
    node nodes[MAX_NODES];
    int nnodes, root;
};

const char *query_text(const query *q) { return q->text; }

/* tokens */
enum {
    T_END, T_NUM, T_NAME, T_STR, T_LP, T_RP, T_COMMA, T_ASSIGN, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_POW,
    T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR, T_NOT, T_BAD
};

typedef struct lexer {
    const char *s;
    size_t i, tpos;
    int tok;
    double num;
    char name[NAME_MAX_LEN];
    query *q;
    char *err;
    size_t errlen, errpos;
    int failed;
    int depth; /* parse_unary's nesting: each parenthesis, call argument and sign is one */
} lexer;

static void fail(lexer *L, size_t pos, const char *fmt, const char *arg)
{
    if (L->failed) return;
    L->failed = 1;
    L->errpos = pos;
    snprintf(L->err, L->errlen, fmt, arg);
}

static const struct { const char *text; int tok; } operators[] = {
    {"<=", T_LE}, {">=", T_GE}, {"==", T_EQ}, {"!=", T_NE}, {"&&", T_AND}, {"||", T_OR},
    {"(", T_LP}, {")", T_RP}, {",", T_COMMA}, {"=", T_ASSIGN}, {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR},
    {"/", T_SLASH}, {"^", T_POW}, {"<", T_LT}, {">", T_GT}, {"!", T_NOT},
};

static void next(lexer *L)
{
    const char *s = L->s;
    while (s[L->i] == ' ' || s[L->i] == '\t' || s[L->i] == '\n') L->i++;
    L->tpos = L->i;
    char c = s[L->i];
    if (!c) { L->tok = T_END; return; }
    if ((c >= '0' && c <= '9') || (c == '.' && s[L->i + 1] >= '0' && s[L->i + 1] <= '9')) {
        char *end;
        L->num = strtod(s + L->i, &end);
        L->i = (size_t)(end - s);
        L->tok = T_NUM;
        return;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        size_t n = 0;
        while ((s[L->i] >= 'a' && s[L->i] <= 'z') || (s[L->i] >= 'A' && s[L->i] <= 'Z') || s[L->i] == '_' ||
               (s[L->i] >= '0' && s[L->i] <= '9')) {
            if (n + 1 < NAME_MAX_LEN) L->name[n++] = s[L->i];
            L->i++;
        }
        L->name[n] = '\0';
        L->tok = T_NAME;
        return;
    }
    if (c == '"' || c == '\'') {
        size_t n = 0, start = L->i++;
        while (s[L->i] && s[L->i] != c) {
            if (n + 1 < NAME_MAX_LEN) L->name[n++] = s[L->i];
            L->i++;
        }
        if (!s[L->i]) { fail(L, start, "a string is not closed%s", ""); L->tok = T_BAD; return; }
        L->i++;
        L->name[n] = '\0';
        L->tok = T_STR;
        return;
    }
    for (size_t k = 0; k < sizeof operators / sizeof operators[0]; k++) {
        size_t n = strlen(operators[k].text);
        if (strncmp(s + L->i, operators[k].text, n) == 0) {
            L->i += n;
            L->tok = operators[k].tok;
            return;
        }
    }
    char what[8] = {c, 0};
    fail(L, L->i, "unexpected character '%s'", what);
    L->tok = T_BAD;
}

static int new_node(lexer *L, node_kind kind)
{
    if (L->q->nnodes >= MAX_NODES) { fail(L, L->tpos, "the query is too long%s", ""); return -1; }
    node *n = &L->q->nodes[L->q->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->a = n->b = -1;
    n->pos = L->tpos;
    return L->q->nnodes++;
}

/* ---- the function table (declared here, defined below the evaluator's helpers) ---- */

typedef struct call call;
typedef int (*fn_impl)(call *k, query_value *out);

typedef struct function {
    const char *name;
    int min_pos, max_pos;  /* positional arguments */
    const char *named;     /* allowed named arguments, comma separated */
    fn_impl impl;
    const char *doc;
    int pure;              /* arithmetic on its arguments: reads neither the trace nor the results */
} function;

/* the table is defined after the functions it points to */
static const function *function_table(size_t *n);

static int find_function(const char *name)
{
    size_t n;
    const function *f = function_table(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0) return (int)i;
    return -1;
}

static int allowed_name(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* ---- parser: precedence climbing over the grammar in query.h ---- */

static int parse_or(lexer *L);

static int parse_call(lexer *L, const char *name, size_t pos)
{
    int id = new_node(L, N_CALL);
    if (id < 0) return -1;
    node *n = &L->q->nodes[id];
    n->pos = pos;
    n->fn = find_function(name);
    if (n->fn < 0) { fail(L, pos, "unknown function %s() (lessons/README.md lists them)", name); return -1; }
    next(L); /* ( */
    int npos = 0;
    if (L->tok != T_RP) {
        for (;;) {
            if (n->nargs >= MAX_ARGS) { fail(L, L->tpos, "too many arguments to %s()", name); return -1; }
            char argname[NAME_MAX_LEN] = "";
            size_t argpos = L->tpos;
            if (L->tok == T_NAME) {
                /* name=expr: look ahead for a single '=' */
                size_t save_i = L->i, save_t = L->tpos;
                char save_name[NAME_MAX_LEN];
                memcpy(save_name, L->name, sizeof save_name);
                next(L);
                if (L->tok == T_ASSIGN) {
                    memcpy(argname, save_name, sizeof argname);
                    next(L);
                } else {
                    L->i = save_i;
                    L->tpos = save_t;
                    memcpy(L->name, save_name, sizeof save_name);
                    L->tok = T_NAME;
                }
            }
            int a = parse_or(L);
            if (a < 0) return -1;
            n = &L->q->nodes[id];
            if (argname[0]) {
                size_t nf;
                const function *fd = &function_table(&nf)[n->fn];
                if (!allowed_name(fd->named, argname)) {
                    char msg[160];
                    snprintf(msg, sizeof msg, "%s() takes no argument named %s%s%s", name, argname,
                             fd->named[0] ? "; it takes " : "", fd->named);
                    fail(L, argpos, "%s", msg);
                    return -1;
                }
                for (int j = 0; j < n->nargs; j++)
                    if (strcmp(n->argname[j], argname) == 0) { fail(L, argpos, "%s given twice", argname); return -1; }
            } else {
                for (int j = 0; j < n->nargs; j++)
                    if (n->argname[j][0]) { fail(L, argpos, "a positional argument after a named one in %s()", name); return -1; }
                npos++;
            }
            memcpy(n->argname[n->nargs], argname, NAME_MAX_LEN);
            n->args[n->nargs++] = a;
            if (L->tok == T_COMMA) { next(L); continue; }
            break;
        }
    }
    if (L->tok != T_RP) { fail(L, L->tpos, "expected ',' or ')' in the arguments of %s()", name); return -1; }
    size_t nf;
    const function *f = &function_table(&nf)[n->fn];
    if (npos < f->min_pos || npos > f->max_pos) {
        char msg[160];
        if (f->min_pos == f->max_pos)
            snprintf(msg, sizeof msg, "%s() takes %d positional argument%s, got %d", name, f->min_pos, f->min_pos == 1 ? "" : "s", npos);
        else
            snprintf(msg, sizeof msg, "%s() takes %d to %d positional arguments, got %d", name, f->min_pos, f->max_pos, npos);
        fail(L, pos, "%s", msg);
        return -1;
    }
    next(L);
    return id;
}

static int parse_primary(lexer *L)
{
    if (L->failed) return -1;
    if (L->tok == T_NUM) {
        int id = new_node(L, N_NUM);
        if (id < 0) return -1;
        L->q->nodes[id].num = L->num;
        next(L);
        return id;
    }
    if (L->tok == T_STR) {
        int id = new_node(L, N_STR);
        if (id < 0) return -1;
        memcpy(L->q->nodes[id].name, L->name, NAME_MAX_LEN);
        next(L);
        return id;
    }
    if (L->tok == T_NAME) {
        char name[NAME_MAX_LEN];
        size_t pos = L->tpos;
        memcpy(name, L->name, sizeof name);
        next(L);
        if (L->tok == T_LP) return parse_call(L, name, pos);
        int id = new_node(L, N_NAME);
        if (id < 0) return -1;
        L->q->nodes[id].pos = pos;
        memcpy(L->q->nodes[id].name, name, sizeof name);
        if (strcmp(name, "true") == 0 || strcmp(name, "false") == 0) {
            L->q->nodes[id].kind = N_NUM;
            L->q->nodes[id].num = name[0] == 't';
            L->q->nodes[id].op = 1; /* a boolean literal */
        }
        return id;
    }
    if (L->tok == T_LP) {
        next(L);
        int id = parse_or(L);
        if (id < 0) return -1;
        if (L->tok != T_RP) { fail(L, L->tpos, "expected ')'%s", ""); return -1; }
        next(L);
        return id;
    }
    fail(L, L->tpos, L->tok == T_END ? "the query ends too soon%s" : "expected a number, a name or a call%s", "");
    return -1;
}

static int parse_unary(lexer *L);

static int parse_pow(lexer *L)
{
    int a = parse_primary(L);
    if (a < 0 || L->tok != T_POW) return a;
    size_t pos = L->tpos;
    next(L);
    int b = parse_unary(L); /* right associative: 2^3^2 = 2^(3^2) */
    if (b < 0) return -1;
    int id = new_node(L, N_BINARY);
    if (id < 0) return -1;
    L->q->nodes[id] = (node){.kind = N_BINARY, .op = T_POW, .a = a, .b = b, .pos = pos};
    return id;
}

static int parse_unary_nested(lexer *L);

static int parse_unary(lexer *L)
{
    if (L->depth >= MAX_DEPTH) {
        char what[16];
        snprintf(what, sizeof what, "%d", MAX_DEPTH);
        fail(L, L->tpos, "the query nests parentheses, calls and signs more than %s deep", what);
        return -1;
    }
    L->depth++;
    int id = parse_unary_nested(L);
    L->depth--;
    return id;
}

static int parse_unary_nested(lexer *L)
{
    if (L->tok == T_MINUS || L->tok == T_NOT) {
        int op = L->tok;
        size_t pos = L->tpos;
        next(L);
        int a = parse_unary(L);
        if (a < 0) return -1;
        int id = new_node(L, N_UNARY);
        if (id < 0) return -1;
        L->q->nodes[id] = (node){.kind = N_UNARY, .op = op, .a = a, .b = -1, .pos = pos};
        return id;
    }
    return parse_pow(L);
}

/* binary levels, lowest first; each level's operators */
static const int levels[][7] = {
    {T_OR, 0}, {T_AND, 0}, {T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, 0}, {T_PLUS, T_MINUS, 0}, {T_STAR, T_SLASH, 0},
};
enum { NLEVELS = sizeof levels / sizeof levels[0] };

static int parse_level(lexer *L, int level)
{
    if (level == NLEVELS) return parse_unary(L);
    int a = parse_level(L, level + 1);
    while (a >= 0) {
        int op = 0;
        for (int k = 0; levels[level][k]; k++)
            if (L->tok == levels[level][k]) op = L->tok;
        if (!op) break;
        size_t pos = L->tpos;
        next(L);
        int b = parse_level(L, level + 1);
        if (b < 0) return -1;
        int id = new_node(L, N_BINARY);
        if (id < 0) return -1;
        L->q->nodes[id] = (node){.kind = N_BINARY, .op = op, .a = a, .b = b, .pos = pos};
        a = id;
    }
    return a;
}

static int parse_or(lexer *L) { return parse_level(L, 0); }

query *query_parse(const char *text, char *err, size_t errlen, size_t *errpos)
{
    size_t len = strlen(text);
    if (len > MAX_TEXT) {
        snprintf(err, errlen, "the query is %zu characters long, more than the %d allowed", len, MAX_TEXT);
        if (errpos) *errpos = MAX_TEXT;
        return NULL;
    }
    query *q = calloc(1, sizeof *q);
    if (!q || !(q->text = malloc(len + 1))) {
        free(q);
        snprintf(err, errlen, "out of memory");
        if (errpos) *errpos = 0;
        return NULL;
    }
    memcpy(q->text, text, len + 1);
    lexer L = {.s = q->text, .q = q, .err = err, .errlen = errlen};
    next(&L);
    q->root = parse_or(&L);
    if (!L.failed && L.tok != T_END) fail(&L, L.tpos, "unexpected text after the query%s", "");
    if (L.failed || q->root < 0) {
        if (!L.failed) snprintf(err, errlen, "not a query");
        if (errpos) *errpos = L.errpos;
        query_free(q);
        return NULL;
    }
    return q;
}

void query_free(query *q)
{
    if (!q) return;
    free(q->text);
    free(q);
}

/* ---- evaluation ---- */

struct call {
    const query *q;
    const node *n;
    const query_ctx *c;
    char *err;
    size_t errlen;
};

static int eval(const query *q, int id, const query_ctx *c, query_value *out, char *err, size_t errlen);

static int set_number(query_value *out, double v)
{
    out->type = QUERY_NUMBER;
    out->num = v;
    out->count = 0;
    return 0;
}

static int set_bool(query_value *out, int v)
{
    out->type = QUERY_BOOL;
    out->num = v ? 1.0 : 0.0;
    out->count = 0;
    return 0;
}

static int call_fail(call *k, const char *fmt, const char *a, double x)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, a, x);
    size_t nf;
    snprintf(k->err, k->errlen, "%s(): %s", function_table(&nf)[k->n->fn].name, msg);
    return -1;
}

static int positional(const call *k, int i)
{
    int seen = 0;
    for (int j = 0; j < k->n->nargs; j++) {
        if (k->n->argname[j][0]) continue;
        if (seen++ == i) return k->n->args[j];
    }
    return -1;
}

static int npositional(const call *k)
{
    int n = 0;
    for (int j = 0; j < k->n->nargs; j++) n += !k->n->argname[j][0];
    return n;
}

static int arg_value(call *k, int i, query_value *v)
{
    int id = positional(k, i);
    if (id < 0) return call_fail(k, "missing argument%s", "", 0);
    return eval(k->q, id, k->c, v, k->err, k->errlen);
}

static int arg_number(call *k, int i, double *out)
{
    query_value *v = malloc(sizeof *v);
    if (!v) return call_fail(k, "out of memory%s", "", 0);
    int rc = arg_value(k, i, v);
    if (!rc && v->type == QUERY_SET) rc = call_fail(k, "argument %.0f is a set, not a number%s", "", i + 1);
    if (!rc) *out = v->num;
    free(v);
    return rc;
}

/* A name argument: v0, cub, "read-ceiling". */
static const char *arg_name(call *k, int i)
{
    int id = positional(k, i);
    if (id < 0) return NULL;
    const node *n = &k->q->nodes[id];
    return n->kind == N_NAME || n->kind == N_STR ? n->name : NULL;
}

/* named argument as a number; *given 0 when absent */
static int named_number(call *k, const char *name, double *out, int *given)
{
    *given = 0;
    for (int j = 0; j < k->n->nargs; j++) {
        if (strcmp(k->n->argname[j], name) != 0) continue;
        query_value *v = malloc(sizeof *v);
        if (!v) return call_fail(k, "out of memory%s", "", 0);
        int rc = eval(k->q, k->n->args[j], k->c, v, k->err, k->errlen);
        if (!rc && v->type != QUERY_NUMBER) rc = call_fail(k, "%s= must be a number", name, 0);
        if (!rc) *out = v->num;
        free(v);
        *given = !rc;
        return rc;
    }
    return 0;
}

static int named_index(call *k, const char *name, long lo, long hi, long *out, int *given)
{
    double d = 0;
    if (named_number(k, name, &d, given)) return -1;
    if (!*given) return 0;
    if (d != floor(d) || d < (double)lo || d > (double)hi) {
        char msg[120];
        snprintf(msg, sizeof msg, "%s=%g is out of range (%ld to %ld)", name, d, lo, hi);
        return call_fail(k, "%s", msg, 0);
    }
    *out = (long)d;
    return 0;
}

/* ---- the pane and step a trace function looks at ---- */

typedef struct where {
    const query_pane *p;
    size_t step;
    long warp; /* -1: all warps */
} where;

static int locate(call *k, where *w)
{
    long pane = 0, v = 0;
    int given;
    if (named_index(k, "pane", 0, 1, &pane, &given)) return -1;
    const query_pane *p = &k->c->pane[pane];
    if (!p->t || !p->m) return call_fail(k, pane ? "pane=1 asked, but no version is compared%s" : "no trace is shown%s", "", 0);
    const view_model *m = p->m;
    w->p = p;
    w->step = p->step;
    w->warp = -1;
    if (named_index(k, "step", 0, (long)m->nsteps - 1, &v, &given)) return -1;
    if (given) w->step = (size_t)v;
    long phase = 0, op = 0;
    int has_phase, has_op;
    if (named_index(k, "phase", 0, (long)m->nphases - 1, &phase, &has_phase)) return -1;
    if (named_index(k, "op", 0, 1000000, &op, &has_op)) return -1;
    if (has_phase || has_op) {
        if (!has_phase) phase = w->step < m->nsteps ? m->steps[w->step].phase : 0;
        long first = view_phase_first(m, (unsigned)phase), last = view_phase_last(m, (unsigned)phase);
        if (first < 0 || first + op > last) {
            char msg[120];
            snprintf(msg, sizeof msg, "phase %ld has no operation %ld", phase, op);
            return call_fail(k, "%s", msg, 0);
        }
        w->step = (size_t)(first + op);
    }
    if (w->step >= m->nsteps) return call_fail(k, "step %.0f is past the last step%s", "", (double)w->step);
    if (named_index(k, "warp", 0, (long)m->nwarps - 1, &w->warp, &given)) return -1;
    if (!given) w->warp = -1;
    return 0;
}

static const trace_event *step_event(const where *w, size_t i, size_t *index)
{
    const view_step *st = &w->p->m->steps[w->step];
    if (i >= st->count) return NULL;
    *index = w->p->m->order[st->first + i];
    return &w->p->t->events[*index];
}

static int is_shared(int kind) { return kind == TRACE_SHARED_LOAD || kind == TRACE_SHARED_STORE; }

/* lanes by view state: mask of view_lane states to include */
static int lanes_in(call *k, query_value *out, unsigned states)
{
    where w;
    if (locate(k, &w)) return -1;
    unsigned char lanes[TRACE_BLOCK_THREADS_MAX];
    const view_model *m = w.p->m;
    view_lanes(m, w.step, lanes);
    query_set_clear(out);
    for (unsigned tid = 0; tid < m->threads && tid < TRACE_BLOCK_THREADS_MAX; tid++) {
        if (w.warp >= 0 && tid / WARP_SIZE != (unsigned)w.warp) continue;
        if (states >> lanes[tid] & 1) query_set_add(out, tid);
    }
    return 0;
}

static int f_active_lanes(call *k, query_value *out) { return lanes_in(k, out, 1u << VIEW_LANE_WORKING); }
static int f_diverged_lanes(call *k, query_value *out) { return lanes_in(k, out, 1u << VIEW_LANE_DIVERGED); }
static int f_idle_lanes(call *k, query_value *out)
{
    return lanes_in(k, out, 1u << VIEW_LANE_IDLE | 1u << VIEW_LANE_DIVERGED | 1u << VIEW_LANE_BARRIER);
}
static int f_active_threads(call *k, query_value *out)
{
    if (lanes_in(k, out, 1u << VIEW_LANE_WORKING)) return -1;
    return set_number(out, (double)out->count);
}

static int f_active_warps(call *k, query_value *out)
{
    if (lanes_in(k, out, 1u << VIEW_LANE_WORKING)) return -1;
    query_value *lanes = malloc(sizeof *lanes);
    if (!lanes) return call_fail(k, "out of memory%s", "", 0);
    *lanes = *out;
    query_set_clear(out);
    for (size_t tid = 0; tid < TRACE_BLOCK_THREADS_MAX; tid++)
        if (query_set_has(lanes, tid)) query_set_add(out, tid / WARP_SIZE);
    free(lanes);
    return 0;
}

static int f_divergent_warps(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    query_set_clear(out);
    size_t ei;
    for (size_t i = 0; step_event(&w, i, &ei); i++)
        if (w.p->m->facts[ei].divergent && (w.warp < 0 || w.p->t->events[ei].warp == w.warp))
            query_set_add(out, w.p->t->events[ei].warp);
    return 0;
}

/* The step's shared access with the worst conflict (of warp w.warp when given); -1 with an error
 * when the step is not a shared-memory access. */
static long worst_shared(call *k, const where *w)
{
    long best = view_worst_shared(w->p->m, w->step, w->warp);
    if (best < 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "step %zu (line %u) is not a shared-memory access%s", w->step, w->p->m->steps[w->step].line,
                 w->warp >= 0 ? " of that warp" : "");
        call_fail(k, "%s", msg, 0);
    }
    return best;
}

static int f_conflict_degree(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    long e = worst_shared(k, &w);
    return e < 0 ? -1 : set_number(out, w.p->m->facts[e].bank_degree);
}

static int f_extra_wavefronts(call *k, query_value *out)
{
    where w;
    if (locate(k, &w) || worst_shared(k, &w) < 0) return -1;
    double sum = 0;
    size_t ei;
    for (size_t i = 0; step_event(&w, i, &ei); i++) {
        const trace_event *e = &w.p->t->events[ei];
        if (is_shared(e->kind) && (w.warp < 0 || e->warp == w.warp)) sum += w.p->m->facts[ei].bank_degree - 1;
    }
    return set_number(out, sum);
}

/* banks of the worst access: every bank it touches (all = 1) or those serving 2+ distinct words */
static int banks_of(call *k, query_value *out, int all)
{
    where w;
    if (locate(k, &w)) return -1;
    long ei = worst_shared(k, &w);
    if (ei < 0) return -1;
    analysis_bank banks[BANKS];
    analysis_banks(w.p->t, &w.p->t->events[ei], banks);
    query_set_clear(out);
    for (int b = 0; b < BANKS; b++)
        if (banks[b].nwords > (all ? 0 : 1)) query_set_add(out, (size_t)b);
    return 0;
}

static int f_conflict_banks(call *k, query_value *out) { return banks_of(k, out, 0); }
static int f_banks(call *k, query_value *out) { return banks_of(k, out, 1); }

/* shared words the step reads (kind load) or writes (store) */
static int words_of(call *k, query_value *out, int kind)
{
    where w;
    if (locate(k, &w)) return -1;
    query_set_clear(out);
    size_t ei;
    for (size_t i = 0; step_event(&w, i, &ei); i++) {
        const trace_event *e = &w.p->t->events[ei];
        if (e->kind != kind || (w.warp >= 0 && e->warp != w.warp)) continue;
        unsigned span = trace_event_words(e);
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++)
            for (unsigned c = 0; c < span; c++) {
                int64_t word = w.p->t->lane_addr[e->lanes + (size_t)j] + (int64_t)c;
                if (word >= 0) query_set_add(out, (size_t)word);
            }
    }
    return 0;
}
static int f_words_read(call *k, query_value *out) { return words_of(k, out, TRACE_SHARED_LOAD); }

/* global elements the step's loads, stores or atomics touch (index in units of the access: a
 * float4 load gives float4 indices) */
static int f_elements(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    query_set_clear(out);
    size_t ei;
    int any = 0;
    for (size_t i = 0; step_event(&w, i, &ei); i++) {
        const trace_event *e = &w.p->t->events[ei];
        if ((e->kind != TRACE_GLOBAL_LOAD && e->kind != TRACE_GLOBAL_STORE && e->kind != TRACE_GLOBAL_ATOMIC) ||
            (w.warp >= 0 && e->warp != w.warp))
            continue;
        any = 1;
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++) {
            int64_t x = w.p->t->lane_addr[e->lanes + (size_t)j];
            if (x < 0 || x >= QUERY_SET_MAX) return call_fail(k, "element %.0f is beyond what a set holds; use a smaller n%s", "", (double)x);
            query_set_add(out, (size_t)x);
        }
    }
    if (!any) return call_fail(k, "step %.0f is not a global-memory access%s", "", (double)w.step);
    return 0;
}
static int f_words_written(call *k, query_value *out) { return words_of(k, out, TRACE_SHARED_STORE); }

static int f_value(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    const view_model *m = w.p->m;
    long word = 0, after = 0;
    int given, has_after;
    if (named_index(k, "word", 0, (long)m->nwords - 1, &word, &given)) return -1;
    if (!given) return call_fail(k, "needs word=W%s", "", 0);
    if (named_index(k, "after_phase", 0, (long)m->nphases - 1, &after, &has_after)) return -1;
    float *cells = malloc(m->nwords * sizeof *cells);
    unsigned char *written = malloc(m->nwords);
    if (!cells || !written) { free(cells); free(written); return call_fail(k, "out of memory%s", "", 0); }
    if (has_after) analysis_shared_after(w.p->t, m->pass, m->block, (unsigned)after, cells, written, m->nwords);
    else view_shared_at(m, w.step, cells, written);
    int ok = written[word];
    double v = cells[word];
    free(cells);
    free(written);
    if (!ok) return call_fail(k, "word %.0f has not been written yet%s", "", (double)word);
    return set_number(out, v);
}

/* what thread T holds in the kernel's watched register (the first float it declares) after this step */
static int f_register(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    const view_model *m = w.p->m;
    long thread = 0;
    int given;
    if (named_index(k, "thread", 0, (long)m->threads - 1, &thread, &given)) return -1;
    if (!given) return call_fail(k, "needs thread=T%s", "", 0);
    if (!m->nregs) return call_fail(k, "this version watches no register%s", "", 0);
    float vals[WARP_SIZE];
    unsigned char state[WARP_SIZE];
    view_registers_at(m, w.step, (unsigned)thread / WARP_SIZE, vals, state);
    if (!state[thread % WARP_SIZE]) return call_fail(k, "thread %.0f has not assigned its register yet%s", "", (double)thread);
    return set_number(out, vals[thread % WARP_SIZE]);
}

static int f_subtree(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    const view_model *m = w.p->m;
    long word = 0;
    int given;
    if (named_index(k, "word", 0, (long)m->nwords - 1, &word, &given)) return -1;
    if (!given) return call_fail(k, "needs word=W%s", "", 0);
    unsigned char *in = malloc(m->nwords);
    if (!in) return call_fail(k, "out of memory%s", "", 0);
    view_subtree(m, w.step, word, in);
    query_set_clear(out);
    for (size_t i = 0; i < m->nwords; i++)
        if (in[i]) query_set_add(out, i);
    free(in);
    return 0;
}

/* facts of the step on screen */
static int f_line(call *k, query_value *out)
{
    where w;
    return locate(k, &w) ? -1 : set_number(out, w.p->m->steps[w.step].line);
}
static int f_phase(call *k, query_value *out)
{
    where w;
    return locate(k, &w) ? -1 : set_number(out, w.p->m->steps[w.step].phase);
}
static int f_phases(call *k, query_value *out)
{
    where w;
    return locate(k, &w) ? -1 : set_number(out, w.p->m->nphases);
}
/* the pairs the block's tree starts from: every addition of one word a thread loaded into another
 * (both leaves) adds word W + d into word W; the distance d when it is the same for every such
 * pair (1: v0's and v1's pairs, blockDim/2: v2's), else 0 */
static int f_first_pair_distance(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    const view_model *m = w.p->m;
    int64_t d = 0;
    int seen = 0;
    for (size_t i = 0; i < m->nnodes; i++) {
        const view_node *nd = &m->nodes[i];
        if (nd->level != 0 || nd->from_level != 0 || nd->buf != -1) continue;
        int64_t g = nd->from - nd->word;
        if (seen && g != d) return set_number(out, 0);
        d = g, seen = 1;
    }
    if (!seen) return call_fail(k, "the block adds no two loaded words in shared memory%s", "", 0);
    return set_number(out, (double)d);
}
/* threads that execute step st of m: its events' lanes */
static unsigned step_threads(const view_model *m, size_t st)
{
    unsigned n = 0;
    for (size_t i = 0; i < m->steps[st].count; i++) n += (unsigned)trace_popcount(m->t->events[m->order[m->steps[st].first + i]].mask);
    return n;
}

/* the block's warp tail (the additions into its shared tree made by 32 threads or fewer): true when
 * they are all in one phase (no __syncthreads once 32 or fewer threads work) and a __syncwarp lies
 * between each two of them */
static int f_warp_tail(call *k, query_value *out)
{
    where w;
    if (locate(k, &w)) return -1;
    const view_model *m = w.p->m;
    size_t prev = SIZE_MAX, steps = 0;
    int ok = 1;
    for (size_t i = 0; i < m->nnodes; i++) { /* nodes are in order of their stores: their steps ascend */
        const view_node *nd = &m->nodes[i];
        size_t st = nd->step;
        if (nd->buf != -1 || st == prev || st >= m->nsteps || step_threads(m, st) > WARP_SIZE) continue;
        if (prev != SIZE_MAX) {
            int synced = 0;
            for (size_t b = prev + 1; b < st && !synced; b++) synced = m->steps[b].kind == TRACE_WARP_SYNC;
            ok &= synced && m->steps[st].phase == m->steps[prev].phase && st > prev;
        }
        prev = st;
        steps++;
    }
    if (!steps) return call_fail(k, "no addition into the block's shared tree is made by 32 threads or fewer%s", "", 0);
    return set_bool(out, ok);
}
static int f_steps(call *k, query_value *out)
{
    where w;
    return locate(k, &w) ? -1 : set_number(out, (double)w.p->m->nsteps);
}
static int f_threads(call *k, query_value *out)
{
    where w;
    return locate(k, &w) ? -1 : set_number(out, w.p->m->threads);
}
static int f_warps(call *k, query_value *out)
{
    where w;
    return locate(k, &w) ? -1 : set_number(out, w.p->m->nwarps);
}

/* counters so far (from the block's first step up to this one), as the counters panel shows */
typedef enum so_far { SF_INSTR, SF_DIVERGENT, SF_CONFLICTS, SF_BARRIERS, SF_SECTORS, SF_SECTORS_MIN, SF_SIMD } so_far;
static int counts_so_far(call *k, query_value *out, so_far which)
{
    where w;
    if (locate(k, &w)) return -1;
    view_counts c;
    view_counts_at(w.p->m, w.step, &c);
    const double values[] = {
        [SF_INSTR] = (double)c.warp_instructions,
        [SF_DIVERGENT] = (double)c.divergent,
        [SF_CONFLICTS] = (double)(c.conflicts_load + c.conflicts_store),
        [SF_BARRIERS] = (double)c.barriers,
        [SF_SECTORS] = (double)c.sectors,
        [SF_SECTORS_MIN] = (double)c.sectors_min,
        [SF_SIMD] = c.lane_slots ? (double)c.active_lanes / (double)c.lane_slots : 0.0,
    };
    return set_number(out, values[which]);
}
static int f_instructions(call *k, query_value *out) { return counts_so_far(k, out, SF_INSTR); }
static int f_divergent_instructions(call *k, query_value *out) { return counts_so_far(k, out, SF_DIVERGENT); }
static int f_bank_conflicts(call *k, query_value *out) { return counts_so_far(k, out, SF_CONFLICTS); }
static int f_barriers(call *k, query_value *out) { return counts_so_far(k, out, SF_BARRIERS); }
static int f_sectors(call *k, query_value *out) { return counts_so_far(k, out, SF_SECTORS); }
static int f_sectors_min(call *k, query_value *out) { return counts_so_far(k, out, SF_SECTORS_MIN); }
static int f_simd_efficiency(call *k, query_value *out) { return counts_so_far(k, out, SF_SIMD); }

/* a counter of analysis.h for one phase (phase=P) or the whole block (the sum of its phases) */
static const struct { const char *name; size_t offset; } counter_fields[] = {
#define FIELD(f) {#f, offsetof(analysis_counters, f)}
    FIELD(active_threads), FIELD(idle_threads), FIELD(warp_instructions), FIELD(divergent_warp_instructions),
    FIELD(active_lanes), FIELD(bank_conflicts_load), FIELD(bank_conflicts_store), FIELD(shared_loads),
    FIELD(shared_stores), FIELD(global_requests), FIELD(global_sectors), FIELD(global_sectors_min), FIELD(shuffles),
    FIELD(barriers),
#undef FIELD
};

static int f_counter(call *k, query_value *out)
{
    long pane = 0, phase = 0;
    int given, has_phase;
    if (named_index(k, "pane", 0, 1, &pane, &given)) return -1;
    const query_pane *p = &k->c->pane[pane];
    if (!p->t || !p->m) return call_fail(k, "no trace in pane %.0f%s", "", (double)pane);
    const char *name = arg_name(k, 0);
    if (!name) return call_fail(k, "the first argument is a counter's name%s", "", 0);
    int simd = strcmp(name, "simd_efficiency") == 0, conflicts = strcmp(name, "bank_conflicts") == 0;
    long field = -1;
    for (size_t i = 0; i < sizeof counter_fields / sizeof counter_fields[0]; i++)
        if (strcmp(counter_fields[i].name, name) == 0) field = (long)i;
    if (field < 0 && !simd && !conflicts) return call_fail(k, "unknown counter %s (the keys of warpscope stats --json)", name, 0);
    analysis_counters *ph = NULL, tot;
    size_t nph = 0;
    if (analysis_phases(p->t, p->m->pass, p->m->block, &ph, &nph, &tot)) return call_fail(k, "the block was not traced%s", "", 0);
    if (named_index(k, "phase", 0, (long)nph - 1, &phase, &has_phase)) { free(ph); return -1; }
    const analysis_counters *c = has_phase ? &ph[phase] : &tot;
    double v = simd ? c->simd_efficiency
             : conflicts ? (double)(c->bank_conflicts_load + c->bank_conflicts_store)
             : (double)*(const uint64_t *)((const char *)c + counter_fields[field].offset);
    free(ph);
    return set_number(out, v);
}

/* the capture as a whole */
static const trace *pane_trace(call *k)
{
    long pane = 0;
    int given;
    if (named_index(k, "pane", 0, 1, &pane, &given)) return NULL;
    const trace *t = k->c->pane[pane].t;
    if (!t) call_fail(k, "no trace in pane %.0f%s", "", (double)pane);
    return t;
}
static int f_result(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, t->result) : -1;
}
static int f_reference(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, t->reference) : -1;
}
static int f_tolerance(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, t->tolerance) : -1;
}
static int f_hazards(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, (double)t->nhazards) : -1;
}
/* Lanes that load a shared word no thread of their block stored before (in the trace's order), in
 * every traced block: what compute-sanitizer's initcheck calls an uninitialized shared read. */
static int f_uninitialised_reads(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    if (!t) return -1;
    /* the first BLOCKS_MAX traced blocks, in the order they first appear, each with the shared words
     * it has stored so far; one pass over the events (a scan of every event per block was
     * quadratic: seconds for a whole 2^20-element grid) */
    enum { WORDS = TRACE_SHARED_WORDS_MAX, SET_WORDS = (WORDS + 63) / 64, BLOCKS_MAX = 4096, SLOTS = 2 * BLOCKS_MAX };
    typedef struct { uint64_t key; int index; } slot; /* key: pass, block, + 1; 0 empty */
    slot *slots = calloc(SLOTS, sizeof *slots);
    uint64_t **stored = calloc(BLOCKS_MAX, sizeof *stored);
    int fail = !slots || !stored;
    size_t nb = 0;
    double reads = 0;
    for (size_t i = 0; i < t->nevents && !fail; i++) {
        const trace_event *e = &t->events[i];
        uint64_t key = ((uint64_t)e->pass << 32 | e->block) + 1;
        size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 51) & (SLOTS - 1);
        while (slots[h].key && slots[h].key != key) h = (h + 1) & (SLOTS - 1);
        if (!slots[h].key) {
            if (nb == BLOCKS_MAX) continue; /* past the blocks counted: no new slot */
            slots[h].key = key;
            slots[h].index = (int)nb++;
        }
        if (e->kind != TRACE_SHARED_LOAD && e->kind != TRACE_SHARED_STORE) continue;
        uint64_t **set = &stored[slots[h].index];
        if (!*set && !(*set = calloc(SET_WORDS, sizeof **set))) { fail = 1; break; }
        unsigned span = trace_event_words(e);
        size_t lane = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            int64_t w0 = t->lane_addr[e->lanes + lane++];
            int unset = 0;
            for (unsigned c = 0; c < span; c++) {
                int64_t w = w0 + (int64_t)c;
                if (w < 0 || w >= WORDS) continue;
                if (e->kind == TRACE_SHARED_STORE) (*set)[w / 64] |= (uint64_t)1 << (w % 64);
                else unset |= !((*set)[w / 64] >> (w % 64) & 1u);
            }
            reads += unset;
        }
    }
    for (size_t b = 0; stored && b < nb; b++) free(stored[b]);
    free(stored);
    free(slots);
    if (fail) return call_fail(k, "out of memory%s", "", 0);
    return set_number(out, reads);
}
/* the largest element of the input, regenerated from the trace's data pattern and seed */
enum { INPUT_REGENERATED_MAX = 1 << 24 };
static int f_input_max(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    if (!t) return -1;
    uint64_t n = t->prov.n;
    if (!n || n > INPUT_REGENERATED_MAX)
        return call_fail(k, "the input is regenerated for n from 1 to 2^24, not %s%.0f", "", (double)n);
    float *x = malloc(n * sizeof *x);
    if (!x) return call_fail(k, "out of memory%s", "", 0);
    if (input_fill(t->prov.data, t->prov.seed, x, n)) {
        free(x);
        return call_fail(k, "the trace's data pattern \"%s\" is not one warpscope makes", t->prov.data, 0);
    }
    float m = x[0];
    for (uint64_t i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
    free(x);
    return set_number(out, m);
}
static int f_n(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, (double)t->prov.n) : -1;
}
/* Harris's cost table of the capture (trace/cost.h): every traced block of every pass */
static int cost_of(call *k, cost_figures *c)
{
    const trace *t = pane_trace(k);
    if (!t) return -1;
    if (cost_compute(t, c)) return call_fail(k, "out of memory%s", "", 0);
    return 0;
}
static int f_adds(call *k, query_value *out)
{
    cost_figures c;
    return cost_of(k, &c) ? -1 : set_number(out, (double)c.adds);
}
static int f_add_chain(call *k, query_value *out)
{
    cost_figures c;
    return cost_of(k, &c) ? -1 : set_number(out, c.steps);
}
/* what a check verified of the capture (certify.h): only an exercise's check has it */
static const certify_facts *pane_facts(call *k)
{
    const certify_facts *f = k->c->facts;
    if (!f) call_fail(k, "measured only when an exercise is checked (its run verified against the check's own input)%s", "", 0);
    return f;
}
static int f_verified(call *k, query_value *out)
{
    const certify_facts *f = pane_facts(k);
    return f ? set_bool(out, f->verified) : -1;
}
#define FACT(fn, field)                                              \
    static int fn(call *k, query_value *out)                         \
    {                                                                \
        const certify_facts *f = pane_facts(k);                      \
        return f ? set_number(out, f->verified ? (double)f->field : NAN) : -1; \
    }
FACT(f_result_chain, result_chain)
FACT(f_shuffles_used, shuffles_used)
FACT(f_input_adds, input_adds)
FACT(f_loads_in_flight, loads_in_flight)
FACT(f_result_by_last_ticket, result_by_last_ticket)
FACT(f_result_blocks, result_blocks)
#undef FACT
static int f_instructions_per_element(call *k, query_value *out)
{
    cost_figures c;
    return cost_of(k, &c) ? -1 : set_number(out, c.instructions_per_element);
}
static int f_ept(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, t->prov.elems_per_thread) : -1;
}
static int f_passes(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    return t ? set_number(out, (double)t->npasses) : -1;
}
static int f_grid(call *k, query_value *out)
{
    const trace *t = pane_trace(k);
    if (!t) return -1;
    long pass = 0;
    int given;
    if (named_index(k, "pass", 0, (long)t->npasses - 1, &pass, &given)) return -1;
    return set_number(out, t->passes[pass].grid);
}

/* ---- the card: the pass's schedule on the step's card (trace/cards.h) ---- */

/* the card of the step and the pass's schedule on it; NULL (the call failed, with why) when none */
static const card *pass_schedule(call *k, card_schedule *s)
{
    const trace *t = pane_trace(k);
    if (!t) return NULL;
    long pass = 0;
    int given;
    if (named_index(k, "pass", 0, (long)t->npasses - 1, &pass, &given)) return NULL;
    const card *c = card_for_trace(t, k->c->card);
    char why[200];
    if (!c) { call_fail(k, "no card \"%s\"", k->c->card ? k->c->card : "", 0.0); return NULL; }
    if (card_schedule_pass(c, t, (unsigned)pass, s, why, sizeof why)) { call_fail(k, "%s", why, 0.0); return NULL; }
    return c;
}
/* one function per figure of the card or the schedule (c: the card, s: the schedule) */
#define SCHEDULE_FIGURE(fn, figure)                                 \
    static int fn(call *k, query_value *out)                        \
    {                                                               \
        card_schedule s;                                            \
        const card *c = pass_schedule(k, &s);                       \
        return c ? set_number(out, (double)(figure)) : -1;          \
    }
SCHEDULE_FIGURE(f_sms, s.sms)
SCHEDULE_FIGURE(f_sm_threads, c->threads_per_sm)
SCHEDULE_FIGURE(f_sm_blocks, c->blocks_per_sm)
SCHEDULE_FIGURE(f_blocks_per_sm, s.blocks_per_sm)
SCHEDULE_FIGURE(f_resident_blocks, s.resident_blocks)
SCHEDULE_FIGURE(f_waves, s.waves)
SCHEDULE_FIGURE(f_last_wave_blocks, s.last_wave_blocks)
#undef SCHEDULE_FIGURE

/* ---- the benchmark results ---- */

static const results_row *row_of(call *k, int arg)
{
    if (!k->c->r) { call_fail(k, "no benchmark results are loaded (give the lesson a \"results\" file)%s", "", 0); return NULL; }
    const char *name = arg_name(k, arg);
    if (!name) { call_fail(k, "argument %.0f must name a row (v0, cub, \"read-ceiling\")%s", "", arg + 1); return NULL; }
    double n = 0;
    int given;
    if (named_number(k, "n", &n, &given)) return NULL;
    if (!given) { call_fail(k, "needs n=N, a size of the results (2^24)%s", "", 0); return NULL; }
    const results_row *row = results_find(k->c->r, name, (uint64_t)n);
    if (!row) {
        char msg[160];
        snprintf(msg, sizeof msg, "the results have no row %s at n = %.0f", name, n);
        call_fail(k, "%s", msg, 0);
        return NULL;
    }
    if (!row->ok) { call_fail(k, "the row %s failed its check in the results and has no time", name, 0); return NULL; }
    return row;
}

static int f_ms(call *k, query_value *out)
{
    const results_row *r = row_of(k, 0);
    return r ? set_number(out, r->ms) : -1;
}
static int f_gbs(call *k, query_value *out)
{
    const results_row *r = row_of(k, 0);
    return r ? set_number(out, r->gbs) : -1;
}
static int f_speedup(call *k, query_value *out)
{
    const results_row *a = row_of(k, 0), *b = a ? row_of(k, 1) : NULL;
    return b ? set_number(out, a->ms / b->ms) : -1;
}
static int f_peak(call *k, query_value *out)
{
    if (!k->c->r) return call_fail(k, "no benchmark results are loaded%s", "", 0);
    return set_number(out, k->c->r->spec_peak_gbs);
}
static int f_percent_peak(call *k, query_value *out)
{
    const results_row *r = row_of(k, 0);
    return r ? set_number(out, 100.0 * r->gbs / k->c->r->spec_peak_gbs) : -1;
}

/* ---- general ---- */

static int f_count(call *k, query_value *out)
{
    if (arg_value(k, 0, out)) return -1;
    if (out->type != QUERY_SET) return call_fail(k, "counts a set, got a number%s", "", 0);
    return set_number(out, (double)out->count);
}

static int f_has(call *k, query_value *out)
{
    double x;
    if (arg_number(k, 1, &x) || arg_value(k, 0, out)) return -1;
    if (out->type != QUERY_SET) return call_fail(k, "the first argument must be a set%s", "", 0);
    return set_bool(out, x >= 0 && x == floor(x) && query_set_has(out, (size_t)x));
}

typedef enum pick { PICK_MIN, PICK_MAX, PICK_ARGMIN, PICK_ARGMAX } pick;
static int pick_of(call *k, query_value *out, pick how)
{
    double best = 0;
    int besti = -1;
    if (npositional(k) == 1 && (how == PICK_MIN || how == PICK_MAX)) {
        /* min(set) / max(set): its smallest or largest item */
        if (arg_value(k, 0, out)) return -1;
        if (out->type != QUERY_SET) return set_number(out, out->num);
        if (!out->count) return call_fail(k, "the set is empty%s", "", 0);
        for (size_t i = 0; i < QUERY_SET_MAX; i++)
            if (query_set_has(out, i)) { if (besti < 0 || how == PICK_MAX) best = (double)i; besti = 0; }
        return set_number(out, best);
    }
    for (int i = 0; i < npositional(k); i++) {
        double x;
        if (arg_number(k, i, &x)) return -1;
        int better = (how == PICK_MIN || how == PICK_ARGMIN) ? x < best : x > best;
        if (besti < 0 || better) { best = x; besti = i; }
    }
    return set_number(out, how == PICK_ARGMIN || how == PICK_ARGMAX ? besti : best);
}
static int f_min(call *k, query_value *out) { return pick_of(k, out, PICK_MIN); }
static int f_max(call *k, query_value *out) { return pick_of(k, out, PICK_MAX); }
static int f_argmin(call *k, query_value *out) { return pick_of(k, out, PICK_ARGMIN); }
static int f_argmax(call *k, query_value *out) { return pick_of(k, out, PICK_ARGMAX); }

typedef double (*math1)(double);
static int apply1(call *k, query_value *out, math1 f)
{
    double x;
    return arg_number(k, 0, &x) ? -1 : set_number(out, f(x));
}
static int f_abs(call *k, query_value *out) { return apply1(k, out, fabs); }
static int f_log2(call *k, query_value *out) { return apply1(k, out, log2); }
static int f_round(call *k, query_value *out) { return apply1(k, out, round); }
static int f_floor(call *k, query_value *out) { return apply1(k, out, floor); }

#define AT "pane,step,phase,op"
#define ATW AT ",warp"
static const function functions[] = {
    /* lanes and warps at the step */
    {"active_lanes", 0, 0, ATW, f_active_lanes, "set of threads that execute this step (warp=W: only that warp's)", 0},
    {"idle_lanes", 0, 0, ATW, f_idle_lanes, "set of live threads that do not execute this step", 0},
    {"diverged_lanes", 0, 0, ATW, f_diverged_lanes, "set of threads whose warp is here but which are masked off", 0},
    {"active_threads", 0, 0, ATW, f_active_threads, "number of threads that execute this step", 0},
    {"active_warps", 0, 0, ATW, f_active_warps, "set of warps with a lane executing this step", 0},
    {"divergent_warps", 0, 0, ATW, f_divergent_warps, "set of warps that execute this step with live lanes masked off", 0},
    /* shared memory at the step */
    {"conflict_degree", 0, 0, ATW, f_conflict_degree, "the worst bank-conflict degree of the step's shared accesses (1: none)", 0},
    {"extra_wavefronts", 0, 0, ATW, f_extra_wavefronts, "extra wavefronts (degree - 1) summed over the step's shared accesses", 0},
    {"conflict_banks", 0, 0, ATW, f_conflict_banks, "set of banks serving two or more words in the worst access", 0},
    {"banks", 0, 0, ATW, f_banks, "set of banks the worst access touches", 0},
    {"words_read", 0, 0, ATW, f_words_read, "set of shared words the step loads", 0},
    {"words_written", 0, 0, ATW, f_words_written, "set of shared words the step stores", 0},
    {"elements", 0, 0, ATW, f_elements, "set of global elements the step's loads/stores touch (float4 loads: float4 indices)", 0},
    {"value", 0, 0, AT ",word,after_phase", f_value, "shared word W after this step, or after phase P (after_phase=P)", 0},
    {"register", 0, 0, AT ",thread", f_register, "what thread T holds in the kernel's watched register (the first float it declares) after this step", 0},
    {"subtree", 0, 0, AT ",word", f_subtree, "set of words whose values have been added into word W by this step", 0},
    /* where the step is */
    {"line", 0, 0, AT, f_line, "source line of the step", 0},
    {"phase", 0, 0, AT, f_phase, "phase of the step (barriers passed)", 0},
    {"phases", 0, 0, AT, f_phases, "number of phases of the block", 0},
    {"first_pair_distance", 0, 0, AT, f_first_pair_distance, "distance from each word to the word the tree's first additions add into it, when it is the same for all (v0: 1, v2: threads / 2), else 0", 0},
    {"warp_tail", 0, 0, AT, f_warp_tail, "true when the block's tree additions made by 32 threads or fewer are in one phase, a __syncwarp between each two", 0},
    {"steps", 0, 0, AT, f_steps, "number of steps of the block", 0},
    {"threads", 0, 0, AT, f_threads, "threads in the block", 0},
    {"warps", 0, 0, AT, f_warps, "warps in the block", 0},
    /* counters so far */
    {"instructions", 0, 0, AT, f_instructions, "warp instructions from the first step up to this one", 0},
    {"divergent_instructions", 0, 0, AT, f_divergent_instructions, "divergent warp instructions so far", 0},
    {"bank_conflicts", 0, 0, AT, f_bank_conflicts, "extra shared wavefronts (loads and stores) so far", 0},
    {"barriers", 0, 0, AT, f_barriers, "warps that waited at __syncthreads so far", 0},
    {"sectors", 0, 0, AT, f_sectors, "global 32-byte sectors so far", 0},
    {"sectors_min", 0, 0, AT, f_sectors_min, "the fewest sectors those requests could have touched", 0},
    {"simd_efficiency", 0, 0, AT, f_simd_efficiency, "active lanes / lanes that exist (32 a whole warp) x warp instructions so far", 0},
    {"counter", 1, 1, "pane,phase", f_counter, "a counter of warpscope stats (name) for the block, or one phase", 0},
    /* the capture */
    {"result", 0, 0, "pane", f_result, "what the kernels computed", 0},
    {"reference", 0, 0, "pane", f_reference, "the double-precision sum of the input", 0},
    {"tolerance", 0, 0, "pane", f_tolerance, "how far from the reference a float tree sum of this input may be", 0},
    {"input_max", 0, 0, "pane", f_input_max, "the largest element of the input (its pattern and seed, regenerated)", 0},
    {"hazards", 0, 0, "pane", f_hazards, "races the race detector found in the capture (every traced launch)", 0},
    {"uninitialised_reads", 0, 0, "pane", f_uninitialised_reads, "lanes that load a shared word their block never stored before (initcheck), every traced block", 0},
    {"n", 0, 0, "pane", f_n, "elements reduced", 0},
    {"ept", 0, 0, "pane", f_ept, "elements per thread", 0},
    {"passes", 0, 0, "pane", f_passes, "launches of the plan", 0},
    {"adds", 0, 0, "pane", f_adds, "additions the traced blocks executed, every pass (warpscope stats' cost)", 0},
    {"add_chain", 0, 0, "pane", f_add_chain, "the longest chain of dependent adds, through every pass", 0},
    {"verified", 0, 0, "", f_verified, "the run checked against the check's own input: every load, every add, the result (exercises)", 0},
    {"result_chain", 0, 0, "", f_result_chain, "the longest chain of dependent adds behind the verified result (exercises)", 0},
    {"shuffles_used", 0, 0, "", f_shuffles_used, "shuffled values, one per receiving lane, that take part in the verified result (exercises)", 0},
    {"input_adds", 0, 0, "", f_input_adds, "adds of two input elements in the result's data flow: the first add during load (exercises)", 0},
    {"loads_in_flight", 0, 0, "", f_loads_in_flight, "the most input elements one thread loads in one turn, none feeding another before all are issued, in whichever floats (exercises)", 0},
    {"result_by_last_ticket", 0, 0, "", f_result_by_last_ticket, "1 when the block that stored the result drew its launch's last ticket (exercises)", 0},
    {"result_blocks", 0, 0, "", f_result_blocks, "blocks, over every launch, whose writes take part in the verified result (exercises)", 0},
    {"instructions_per_element", 0, 0, "pane", f_instructions_per_element, "loads, stores, atomics, shuffles, barriers and adds per thread, over the input elements read", 0},
    {"grid", 0, 0, "pane,pass", f_grid, "blocks of a pass (pass=P, default 0)", 0},
    {"sms", 0, 0, "pane,pass", f_sms, "SMs of the step's card (show.card; else the trace's GPU, else h100)", 0},
    {"sm_threads", 0, 0, "pane,pass", f_sm_threads, "threads one SM of the step's card holds", 0},
    {"sm_blocks", 0, 0, "pane,pass", f_sm_blocks, "blocks one SM of the step's card holds at most, whatever their size", 0},
    {"blocks_per_sm", 0, 0, "pane,pass", f_blocks_per_sm, "blocks of a pass one SM of the card holds at once", 0},
    {"resident_blocks", 0, 0, "pane,pass", f_resident_blocks, "blocks of a pass the whole card holds at once", 0},
    {"waves", 0, 0, "pane,pass", f_waves, "waves a pass's grid runs in on the card: grid / resident blocks, rounded up", 0},
    {"last_wave_blocks", 0, 0, "pane,pass", f_last_wave_blocks, "blocks in a pass's last wave", 0},
    /* the benchmark results */
    {"ms", 1, 1, "n", f_ms, "time of a row (v0, cub, thrust, \"read-ceiling\") at n=N, in ms", 0},
    {"gbs", 1, 1, "n", f_gbs, "bandwidth of a row at n=N, GB/s", 0},
    {"speedup", 2, 2, "n", f_speedup, "speedup(a, b, n=N) = ms(a) / ms(b): how many times faster b is", 0},
    {"peak", 0, 0, "", f_peak, "the GPU's spec peak bandwidth, GB/s", 0},
    {"percent_peak", 1, 1, "n", f_percent_peak, "a row's bandwidth as a percentage of the spec peak", 0},
    /* general */
    {"count", 1, 1, "", f_count, "number of items in a set", 1},
    {"has", 2, 2, "", f_has, "has(set, x): whether x is in the set", 1},
    {"min", 1, MAX_ARGS, "", f_min, "the smallest of its arguments, or of a set's items", 1},
    {"max", 1, MAX_ARGS, "", f_max, "the largest of its arguments, or of a set's items", 1},
    {"argmin", 1, MAX_ARGS, "", f_argmin, "index (from 0) of the smallest argument: picks a multiple-choice option", 1},
    {"argmax", 1, MAX_ARGS, "", f_argmax, "index (from 0) of the largest argument", 1},
    {"abs", 1, 1, "", f_abs, "absolute value", 1},
    {"log2", 1, 1, "", f_log2, "base-2 logarithm", 1},
    {"round", 1, 1, "", f_round, "nearest whole number", 1},
    {"floor", 1, 1, "", f_floor, "largest whole number not above", 1},
};
static const size_t nfunctions = sizeof functions / sizeof functions[0];

static const function *function_table(size_t *n)
{
    *n = nfunctions;
    return functions;
}

int query_reads_data(const query *q)
{
    size_t nf;
    const function *fns = function_table(&nf);
    for (int i = 0; i < q->nnodes; i++)
        if (q->nodes[i].kind == N_CALL && (size_t)q->nodes[i].fn < nf && !fns[q->nodes[i].fn].pure) return 1;
    return 0;
}

const char *query_function_doc(size_t i, const char **name)
{
    if (i >= nfunctions) return NULL;
    *name = functions[i].name;
    return functions[i].doc;
}

static int compare_sets(const query_value *a, const query_value *b)
{
    return a->count == b->count && memcmp(a->bits, b->bits, sizeof a->bits) == 0;
}

static int eval(const query *q, int id, const query_ctx *c, query_value *out, char *err, size_t errlen)
{
    const node *n = &q->nodes[id];
    switch (n->kind) {
    case N_NUM: return n->op ? set_bool(out, n->num != 0) : set_number(out, n->num);
    case N_NAME:
    case N_STR:
        snprintf(err, errlen, "%s is a name; only some functions take names (speedup(v1, v2, n=2^24))", n->name);
        return -1;
    case N_CALL: {
        call k = {q, n, c, err, errlen};
        return functions[n->fn].impl(&k, out);
    }
    default: break;
    }
    query_value *a = malloc(sizeof *a), *b = NULL;
    int rc = -1;
    if (!a) { snprintf(err, errlen, "out of memory"); return -1; }
    if (eval(q, n->a, c, a, err, errlen)) goto out;
    if (n->kind == N_UNARY) {
        if (a->type == QUERY_SET) { snprintf(err, errlen, "'%c' applied to a set", n->op == T_NOT ? '!' : '-'); goto out; }
        rc = n->op == T_NOT ? set_bool(out, a->num == 0) : set_number(out, -a->num);
        goto out;
    }
    /* && and || do not evaluate their right side when the left decides */
    if ((n->op == T_AND && a->type != QUERY_SET && a->num == 0) || (n->op == T_OR && a->type != QUERY_SET && a->num != 0)) {
        rc = set_bool(out, n->op == T_OR);
        goto out;
    }
    if (!(b = malloc(sizeof *b))) { snprintf(err, errlen, "out of memory"); goto out; }
    if (eval(q, n->b, c, b, err, errlen)) goto out;
    if (a->type == QUERY_SET || b->type == QUERY_SET) {
        if ((n->op == T_EQ || n->op == T_NE) && a->type == b->type) {
            rc = set_bool(out, compare_sets(a, b) == (n->op == T_EQ));
            goto out;
        }
        snprintf(err, errlen, "a set can only be compared with == or != to another set (count() makes a number)");
        goto out;
    }
    double x = a->num, y = b->num;
    switch (n->op) {
    case T_PLUS: rc = set_number(out, x + y); break;
    case T_MINUS: rc = set_number(out, x - y); break;
    case T_STAR: rc = set_number(out, x * y); break;
    case T_SLASH:
        if (y == 0) { snprintf(err, errlen, "division by zero"); goto out; }
        rc = set_number(out, x / y);
        break;
    case T_POW: rc = set_number(out, pow(x, y)); break;
    case T_LT: rc = set_bool(out, x < y); break;
    case T_LE: rc = set_bool(out, x <= y); break;
    case T_GT: rc = set_bool(out, x > y); break;
    case T_GE: rc = set_bool(out, x >= y); break;
    case T_EQ: rc = set_bool(out, x == y); break;
    case T_NE: rc = set_bool(out, x != y); break;
    case T_AND: rc = set_bool(out, x != 0 && y != 0); break;
    case T_OR: rc = set_bool(out, x != 0 || y != 0); break;
    default: snprintf(err, errlen, "unknown operator"); break;
    }
out:
    free(a);
    free(b);
    return rc;
}

int query_eval(const query *q, const query_ctx *c, query_value *out, char *err, size_t errlen)
{
    return eval(q, q->root, c, out, err, errlen);
}

/* U+3001, the ideographic comma that separates the items of a Chinese list */
#define LIST_COMMA_ZH "\xe3\x80\x81"

int query_format(const query_value *v, const char *fmt, char *buf, size_t len)
{
    if (len == 0) return -1;
    buf[0] = '\0';
    int ideographic = strcmp(fmt, LIST_COMMA_ZH) == 0; /* Chinese lists: 0、2、4 */
    if (v->type == QUERY_SET) {
        size_t used = 0, shown = 0;
        for (size_t i = 0; i < QUERY_SET_MAX && used + 1 < len; i++) {
            if (!query_set_has(v, i)) continue;
            int w = snprintf(buf + used, len - used, "%s%zu", shown++ ? (ideographic ? LIST_COMMA_ZH : ", ") : "", i);
            if (w < 0) return -1;
            used += (size_t)w;
        }
        return 0;
    }
    if (ideographic) fmt = "";
    if (v->type == QUERY_BOOL && !fmt[0]) { snprintf(buf, len, "%s", v->num != 0 ? "true" : "false"); return 0; }
    double x = v->num;
    if (!fmt[0]) {
        if (x == floor(x) && fabs(x) < 1e15) snprintf(buf, len, "%.0f", x);
        else snprintf(buf, len, "%.3g", x);
        return 0;
    }
    if (strcmp(fmt, "%") == 0) { snprintf(buf, len, "%.0f%%", 100.0 * x); return 0; }
    if (fmt[0] == '.' && fmt[1] >= '0' && fmt[1] <= '9' && fmt[2] == 'f' && !fmt[3]) {
        snprintf(buf, len, "%.*f", fmt[1] - '0', x);
        return 0;
    }
    return -1;
}

int query_placeholders(const char *text, query_placeholder_fn fn, void *ud, char *err, size_t errlen, size_t *errpos)
{
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == '}' ) {
            if (text[i + 1] == '}') { i++; continue; }
            snprintf(err, errlen, "a lone '}' (write }} for a brace)");
            *errpos = i;
            return -1;
        }
        if (text[i] != '{') continue;
        if (text[i + 1] == '{') { i++; continue; }
        size_t start = i + 1, depth = 0, j = start, colon = 0;
        int quote = 0;
        for (; text[j]; j++) {
            char c = text[j];
            if (quote) { if (c == quote) quote = 0; continue; }
            if (c == '"' || c == '\'') quote = c;
            else if (c == '(') depth++;
            else if (c == ')' && depth) depth--;
            else if (c == ':' && !depth) colon = j;
            else if (c == '}' && !depth) break;
        }
        if (!text[j]) {
            snprintf(err, errlen, "a '{' is not closed (write {{ for a brace)");
            *errpos = i;
            return -1;
        }
        size_t end = colon ? colon : j;
        const char *fmt = colon ? text + colon + 1 : text + j;
        size_t fmtlen = colon ? j - colon - 1 : 0;
        if (fn(ud, text + start, end - start, fmt, fmtlen, start)) return -1;
        i = j;
    }
    return 0;
}
