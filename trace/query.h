/* query: the little expression language a lesson's answers and narration numbers are written in.
 *
 * A lesson never types an answer: it writes a query, evaluated on the trace at the step shown
 * (`active_lanes(warp=0)`, `conflict_degree()`, `value(word=0, after_phase=3)`) or on the
 * benchmark results (`speedup(v1, v2, n=2^24)`), so the answer stays true when the block size or
 * the data change. A value is a number, a boolean or a set (of threads, banks, words, warps).
 *
 * Grammar: || && (lowest), comparisons (< <= > >= == !=), + -, * /, unary - !, ^ (power, right
 * associative), then numbers, "strings" or 'strings', names (v0, cub), calls f(a, b, name=expr),
 * and parentheses. The functions are one table in query.c; query_function_doc lists them. */
#ifndef WARPSCOPE_QUERY_H
#define WARPSCOPE_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "trace/certify.h"
#include "trace/results.h"
#include "trace/trace.h"
#include "trace/view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum query_type { QUERY_NUMBER, QUERY_BOOL, QUERY_SET } query_type;

/* Sets hold small non-negative integers: thread ids (< 1024), banks, warps, shared words. */
enum { QUERY_SET_MAX = 4096 };

typedef struct query_value {
    query_type type;
    double num;          /* the number; 0 or 1 for a boolean */
    size_t count;        /* a set's size */
    uint8_t bits[QUERY_SET_MAX / 8];
} query_value;

void query_set_clear(query_value *v);
void query_set_add(query_value *v, size_t item);
int query_set_has(const query_value *v, size_t item);

/* One traced block as the viewer shows it: the trace, its view model and the step on screen. */
typedef struct query_pane {
    const trace *t;
    const view_model *m;
    size_t step;
} query_pane;

/* What a query is evaluated on. pane[1].t is NULL unless two versions are compared; r is NULL
 * when no benchmark results were loaded (then the results functions report that). */
typedef struct query_ctx {
    query_pane pane[2];
    const results *r;
    const certify_facts *facts; /* what an exercise's check verified of pane 0's trace (certify.h); NULL elsewhere */
    const char *card;   /* the card the schedule functions use (trace/cards.h id); NULL: the trace's GPU or h100 */
} query_ctx;

typedef struct query query; /* a parsed expression */

/* NULL with a message and the byte offset in text where it went wrong (*errpos) when the text is
 * not a query, names an unknown function or argument, or gives a function the wrong arguments. */
query *query_parse(const char *text, char *err, size_t errlen, size_t *errpos);
void query_free(query *q);
const char *query_text(const query *q);
/* 1 when the query calls a function of the trace or the results, 0 when it is arithmetic on
 * literals alone (a lesson's answer must be computed, never typed in) */
int query_reads_data(const query *q);

/* 0, or -1 with a message (a step that is not a shared access, a size the results lack...). */
int query_eval(const query *q, const query_ctx *c, query_value *out, char *err, size_t errlen);

/* Formats a value for narration: fmt "" (whole numbers plainly, others to 3 significant digits;
 * booleans as true/false), ".Nf" (N decimals, N a digit), "%" (a fraction as a whole percentage),
 * "、" (sets joined with the ideographic comma, for Chinese text); sets as "0, 2, 4" otherwise.
 * Returns 0, or -1 for an unknown format. */
int query_format(const query_value *v, const char *fmt, char *buf, size_t len);

/* The functions, for documentation and `lesson check`'s hints: name and one line; NULL past the end. */
const char *query_function_doc(size_t i, const char **name);

/* Parses "{query}" and "{query:fmt}" placeholders of a narration string: calls fn for each with
 * the query text (without braces) and its offset in text; "{{" and "}}" are literal braces.
 * Returns 0, or -1 with err when a brace is left open. */
typedef int (*query_placeholder_fn)(void *ud, const char *expr, size_t exprlen, const char *fmt, size_t fmtlen,
                                    size_t offset);
int query_placeholders(const char *text, query_placeholder_fn fn, void *ud, char *err, size_t errlen, size_t *errpos);

#ifdef __cplusplus
}
#endif
#endif
