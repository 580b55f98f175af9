/* Lesson queries against values worked out here, independently of the analysis code:
 *   v1 (index = 2*s*tid, working if index < B): per tree step, the conflict degree of a warp's
 *     access is the most distinct words in one bank (bank = word % 32), over both loads;
 *     the banks with two or more words are the conflict banks;
 *   v0 (tid % (2s) == 0): warp 0's working lanes per step: 16, 8, 4, 2, 1 at a block of 64;
 *   a ramp input (x[i] = i): shared word 0 after k tree steps of v0 is 0 + 1 + ... + (2^k - 1);
 *   the benchmark's speedup(a, b, n) is ms(a) / ms(b) read straight from the results file;
 * and a query that is not one is rejected at the place it goes wrong. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "trace/query.h"
#include "trace/view.h"

enum { NBANKS = 32, WARP = 32 }; /* the test's own hardware, not trace.h's: bank = word % 32 */

static int eval(const char *text, const query_ctx *c, query_value *v)
{
    char err[400];
    size_t pos;
    query *q = query_parse(text, err, sizeof err, &pos);
    if (!q) { CHECK(0, "%s: %s at %zu", text, err, pos); return -1; }
    int rc = query_eval(q, c, v, err, sizeof err);
    CHECK(rc == 0, "%s: %s", text, err);
    query_free(q);
    return rc;
}

static double number(const char *text, const query_ctx *c)
{
    query_value v;
    if (eval(text, c, &v)) return NAN;
    CHECK(v.type != QUERY_SET, "%s should be a number", text);
    return v.num;
}

/* degree and conflict banks of one warp's access of words[] */
static int degree(const long *words, int n, unsigned char *conflict_bank)
{
    int best = 0;
    for (int b = 0; b < NBANKS; b++) {
        long seen[WARP];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (words[i] % NBANKS != b) continue;
            int dup = 0;
            for (int j = 0; j < k; j++) dup |= seen[j] == words[i];
            if (!dup) seen[k++] = words[i];
        }
        if (conflict_bank) conflict_bank[b] = k > 1;
        if (k > best) best = k;
    }
    return best;
}

static int capture_view(const char *version, unsigned block, const char *data, trace *t, view_model *m)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = block;
    d.data = data;
    char err[300];
    trace_init(t);
    if (capture_cpu(&d, t, err, sizeof err) || view_build(m, t, 0, 0, 0, err, sizeof err)) {
        CHECK(0, "%s: %s", version, err);
        return -1;
    }
    return 0;
}

static void v1_conflicts(void)
{
    const unsigned B = 64;
    trace t;
    view_model m;
    if (capture_view("v1", B, "ramp", &t, &m)) return;
    query_ctx c;
    memset(&c, 0, sizeof c);
    c.pane[0] = (query_pane){&t, &m, 0};
    unsigned step = 1;
    for (unsigned s = 1; s < B; s *= 2, step++) {
        /* warp 0's words for sdata[index] and sdata[index + s] */
        long lhs[WARP], rhs[WARP];
        int n = 0;
        for (unsigned tid = 0; tid < WARP; tid++) {
            long index = 2L * s * tid;
            if (index >= (long)B) continue;
            lhs[n] = index;
            rhs[n] = index + s;
            n++;
        }
        unsigned char cb_l[NBANKS], cb_r[NBANKS];
        int dl = degree(lhs, n, cb_l), dr = degree(rhs, n, cb_r);
        int want = dl > dr ? dl : dr;
        char q[128];
        /* the two loads are the phase's first two operations, in either order */
        snprintf(q, sizeof q, "max(conflict_degree(phase=%u, op=0), conflict_degree(phase=%u, op=1))", step, step);
        double got = number(q, &c);
        CHECK(got == want, "v1 block %u, s = %u: conflict degree %g, the formula gives %d", B, s, got, want);
        if (s == 1) {
            CHECK(want == 2, "v1 block 64, first step: the formula's degree is 2, got %d", want);
            CHECK(number("conflict_degree(phase=1)", &c) == 2, "v1 block 64, first step: conflict_degree() should be 2");
            /* which load is which: match the conflict banks of each op against the formula's */
            for (int op = 0; op < 2; op++) {
                snprintf(q, sizeof q, "conflict_banks(phase=1, op=%d, warp=0)", op);
                query_value v;
                if (eval(q, &c, &v)) continue;
                int same_l = 1, same_r = 1;
                for (int b = 0; b < NBANKS; b++) {
                    same_l &= query_set_has(&v, (size_t)b) == cb_l[b];
                    same_r &= query_set_has(&v, (size_t)b) == cb_r[b];
                }
                CHECK(same_l || same_r, "v1 s = 1 op %d: conflict banks should be the even or the odd banks", op);
            }
            double extra = number("extra_wavefronts(phase=1, op=0)", &c);
            CHECK(extra == (dr - 1) || extra == (dl - 1), "v1 s = 1: one warp works, so extra wavefronts = degree - 1 (got %g)", extra);
        }
    }
    view_free(&m);
    trace_free(&t);
}

static void v0_lanes_and_values(void)
{
    const unsigned B = 64;
    trace t;
    view_model m;
    if (capture_view("v0", B, "ramp", &t, &m)) return;
    query_ctx c;
    memset(&c, 0, sizeof c);
    c.pane[0] = (query_pane){&t, &m, 0};
    static const int expected_warp0[] = {16, 8, 4, 2, 1}; /* from the issue, and from the formula below */
    unsigned step = 1;
    for (unsigned s = 1; s < WARP; s *= 2, step++) {
        int formula = 0;
        for (unsigned tid = 0; tid < WARP; tid++) formula += tid % (2 * s) == 0;
        CHECK(formula == expected_warp0[step - 1], "v0 formula at s = %u gives %d", s, formula);
        char q[96];
        snprintf(q, sizeof q, "active_threads(warp=0, phase=%u)", step);
        double got = number(q, &c);
        CHECK(got == expected_warp0[step - 1], "v0 block 64, step %u: warp 0 has %g active lanes, expected %d", step, got,
              expected_warp0[step - 1]);
        snprintf(q, sizeof q, "active_lanes(warp=0, phase=%u)", step);
        query_value v;
        if (step == 3 && !eval(q, &c, &v)) {
            /* narration formats: lanes 0, 8, 16, 24 in English, 0、8、16、24 in Chinese */
            char en[64], zh[64];
            CHECK(query_format(&v, "", en, sizeof en) == 0 && !strcmp(en, "0, 8, 16, 24"), "set format: \"%s\"", en);
            CHECK(query_format(&v, "\xe3\x80\x81", zh, sizeof zh) == 0 && !strcmp(zh, "0\xe3\x80\x81" "8\xe3\x80\x81" "16\xe3\x80\x81" "24"),
                  "Chinese set format: \"%s\"", zh);
        }
        if (!eval(q, &c, &v))
            for (unsigned tid = 0; tid < WARP; tid++)
                CHECK(query_set_has(&v, tid) == (tid % (2 * s) == 0), "v0 step %u: lane %u should %swork", step, tid,
                      tid % (2 * s) == 0 ? "" : "not ");
        /* word 0 after this step sums the first 2^step ramp values */
        double sum = 0;
        for (unsigned i = 0; i < (1u << step); i++) sum += i;
        snprintf(q, sizeof q, "value(word=0, after_phase=%u)", step);
        CHECK(number(q, &c) == sum, "v0 ramp: word 0 after step %u should be %g", step, sum);
    }
    double ref = 0;
    for (unsigned i = 0; i < B; i++) ref += i;
    CHECK(number("result()", &c) == ref && number("reference()", &c) == ref, "v0 ramp of %u: the sum is %g", B, ref);
    CHECK(number("count(divergent_warps(phase=1))", &c) == B / WARP, "v0 s = 1: every warp diverges");
    CHECK(number("conflict_degree(phase=1) > 1", &c) == 0, "v0 has no bank conflicts");
    view_free(&m);
    trace_free(&t);
}

static double row_ms(const cJSON *rows, const char *name, double n)
{
    for (const cJSON *r = rows->child; r; r = r->next)
        if (!strcmp(cJSON_GetObjectItem(r, "name")->valuestring, name) && cJSON_GetObjectItem(r, "n")->valuedouble == n)
            return cJSON_GetObjectItem(r, "ms")->valuedouble;
    return NAN;
}

static void benchmark(void)
{
    const char *path = WS_ROOT "/assets/bench-h100.json";
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return;
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    cJSON *root = cJSON_Parse(text);
    const cJSON *rows = cJSON_GetObjectItem(root, "rows");
    results r;
    char err[300];
    if (results_read_file(&r, path, err, sizeof err)) { CHECK(0, "%s", err); cJSON_Delete(root); return; }
    query_ctx c;
    memset(&c, 0, sizeof c);
    c.r = &r;
    double n = 16777216.0;
    double want = row_ms(rows, "v1", n) / row_ms(rows, "v2", n);
    CHECK(fabs(number("speedup(v1, v2, n=2^24)", &c) - want) < 1e-12, "speedup(v1, v2, n=2^24) should be %g", want);
    want = row_ms(rows, "thrust", 65536) / row_ms(rows, "v8", 65536);
    CHECK(fabs(number("speedup(thrust, v8, n=2^16)", &c) - want) < 1e-12, "speedup(thrust, v8, n=2^16) should be %g", want);
    CHECK(number("argmin(ms(v0, n=2^24), ms(v8, n=2^24))", &c) == 1, "argmin picks the faster row");
    query_value v;
    char e2[300];
    query *q = query_parse("ms(v0, n=3)", e2, sizeof e2, NULL);
    CHECK(q && query_eval(q, &c, &v, e2, sizeof e2) != 0 && strstr(e2, "no row"), "a size the results lack is an error, not a number");
    query_free(q);
    results_free(&r);
    cJSON_Delete(root);
}

static void rejected(const char *text, size_t want_pos, const char *want_msg)
{
    char err[300];
    size_t pos = 9999;
    query *q = query_parse(text, err, sizeof err, &pos);
    CHECK(q == NULL, "\"%s\" should not parse", text);
    query_free(q);
    CHECK(pos == want_pos, "\"%s\": error at %zu, expected %zu (%s)", text, pos, want_pos, err);
    CHECK(strstr(err, want_msg) != NULL, "\"%s\": message \"%s\" should say \"%s\"", text, err, want_msg);
}

/* every function of the table is documented in lessons/README.md */
static void documented(void)
{
    FILE *f = fopen(WS_ROOT "/lessons/README.md", "rb");
    CHECK(f != NULL, "lessons/README.md is missing");
    if (!f) return;
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    const char *name;
    for (size_t i = 0; query_function_doc(i, &name); i++) {
        char row[64];
        snprintf(row, sizeof row, "| `%s` |", name);
        CHECK(strstr(text, row) != NULL, "lessons/README.md does not document %s()", name);
    }
}

/* the cost table's queries: v1 over one block of 64 elements is 63 adds (n - 1) in a chain of
 * log2 64 = 6, and every add is one of the operations counted per element */
static void cost(void)
{
    const unsigned B = 64;
    trace t;
    view_model m;
    if (capture_view("v1", B, "ramp", &t, &m)) return;
    query_ctx c;
    memset(&c, 0, sizeof c);
    c.pane[0] = (query_pane){&t, &m, 0};
    CHECK(number("adds()", &c) == B - 1, "v1 block %u: adds() %g, n - 1 is %u", B, number("adds()", &c), B - 1);
    CHECK(number("add_chain()", &c) == 6, "v1 block %u: add_chain() %g, log2 64 is 6", B, number("add_chain()", &c));
    CHECK(number("instructions_per_element()", &c) > (double)(B - 1) / B, "v1: instructions_per_element() %g", number("instructions_per_element()", &c));
    view_free(&m);
    trace_free(&t);
}

int main(void)
{
    documented();
    cost();
    v1_conflicts();
    v0_lanes_and_values();
    benchmark();
    rejected("active_lanes(wrap=0)", 13, "no argument named wrap");
    rejected("conflict_degre()", 0, "unknown function");
    rejected("count(active_lanes()", 20, "expected ',' or ')'");
    rejected("1 + * 2", 4, "expected a number");
    rejected("speedup(v1, n=2^24)", 0, "takes 2 positional");
    rejected("value(word=0) $", 14, "unexpected character");
    CHECK_DONE("query_values_should_follow_addressing_formulas");
}
