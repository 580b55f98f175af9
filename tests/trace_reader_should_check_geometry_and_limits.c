/* The trace reader checks every event against the geometry the trace declares and the named
 * limits of trace.h, so nothing downstream indexes outside its arrays; each rejection says where
 * (the key path) and what was expected. Each case breaks a valid capture in one known place, the
 * classes a hostile file used to get through: events outside the block, grid, traced blocks or
 * phases; shared-memory words outside the block's shared memory; numbers a float cannot hold;
 * nesting that would overflow a recursive parser. (Out of memory said as such: the CLI table.) */
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"

static char *capture_json(const char *version, unsigned block, uint64_t n, unsigned traced)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = block;
    d.n = n;
    d.blocks_traced = traced;
    trace t;
    trace_init(&t);
    char err[256];
    if (capture_cpu(&d, &t, err, sizeof err)) return NULL;
    char *j = trace_to_json(&t);
    trace_free(&t);
    return j;
}

/* text with the first `from` after the first `after` (or anywhere, if after is NULL) replaced */
static char *replaced(const char *text, const char *after, const char *from, const char *to)
{
    const char *base = after ? strstr(text, after) : text;
    const char *at = base ? strstr(base, from) : NULL;
    if (!at) return NULL;
    size_t n = strlen(text) - strlen(from) + strlen(to);
    char *r = malloc(n + 1);
    size_t pre = (size_t)(at - text);
    memcpy(r, text, pre);
    strcpy(r + pre, to);
    strcat(r, at + strlen(from));
    return r;
}

static void expect_error(const char *text, const char *want, const char *what)
{
    trace t;
    char err[256] = "";
    int rc = trace_from_json(&t, text, strlen(text), err, sizeof err);
    CHECK(rc == -1, "%s: accepted", what);
    CHECK(strstr(err, want) != NULL, "%s: message \"%s\" does not contain \"%s\"", what, err, want);
    if (rc == 0) trace_free(&t);
}

static void expect_replaced(const char *text, const char *after, const char *from, const char *to, const char *want)
{
    char *bad = replaced(text, after, from, to);
    CHECK(bad != NULL, "test setup: \"%s\" not in the capture", from);
    if (!bad) return;
    expect_error(bad, want, to);
    free(bad);
}

int main(void)
{
    char *ok = capture_json("v2", 64, 0, 1);
    CHECK(ok != NULL, "capture failed");
    if (!ok) CHECK_DONE("trace_reader_should_check_geometry_and_limits");
    trace t;
    char err[256];
    CHECK(trace_from_json(&t, ok, strlen(ok), err, sizeof err) == 0, "valid trace rejected: %s", err);
    CHECK(trace_check(&t, err, sizeof err) == 0, "a capture fails the check: %s", err);
    trace_free(&t);

    expect_replaced(ok, "\"events\"", "\"b\":0,", "\"b\":1,", "events[0].b: block 1 is not one of the 1 traced blocks of pass 0");
    expect_replaced(ok, "\"events\"", "\"ph\":0,", "\"ph\":5000,", "events[0].ph: expected an integer from 0 to 4095");
    expect_replaced(ok, "\"events\"", "\"w\":0,", "\"w\":2,", "warp 2 is outside a block of 64 threads");
    expect_replaced(ok, "\"k\":\"shared_load\"", "\"a\":[", "\"a\":[-1,", "expected 32 addresses"); /* one too many */
    {   /* a shared word before the start and far past the end of shared memory */
        char *neg = replaced(ok, "\"k\":\"shared_store\"", "\"a\":[0,", "\"a\":[-1,");
        CHECK(neg != NULL, "test setup: no shared store at word 0");
        if (neg) { expect_error(neg, "expected a shared-memory word, an integer from 0 to 12287", "shared word -1"); free(neg); }
        char *far = replaced(ok, "\"k\":\"shared_store\"", "\"a\":[0,", "\"a\":[99999999,");
        CHECK(far != NULL, "test setup: no shared store at word 0");
        if (far) { expect_error(far, "expected a shared-memory word", "shared word 99999999"); free(far); }
    }
    /* since schema 5 a block may end in a partial warp, but its shape must multiply to it and its
     * events name no lane past it; before, a block was a whole number of warps */
    expect_replaced(ok, "\"passes\"", "\"block\": 64,", "\"block\": 48,", "passes[0].block_dim: 64 x 1 x 1 is not a block of 48 threads");
    expect_replaced(ok, "\"passes\"", "\"block_dim\": [64, 1, 1]", "\"block_dim\": [8, 4, 3]", "passes[0].block_dim: 8 x 4 x 3 is not a block of 64 threads");
    expect_replaced(ok, "\"passes\"", "\"grid_dim\": [1, 1, 1]", "\"grid_dim\": [1, 0, 1]", "passes[0].grid_dim: expected [x, y, z], whole numbers from 1");
    {   /* a block of 48 (warp 1 holds lanes 0-15): an event of warp 1 with all 32 lanes names 16 that do not exist */
        char *b48 = replaced(ok, "\"passes\"", "\"block\": 64,", "\"block\": 48,"), *shape = b48 ? replaced(b48, "\"passes\"", "\"block_dim\": [64, 1, 1]", "\"block_dim\": [48, 1, 1]") : NULL;
        char *prov = shape ? replaced(shape, NULL, "\"block\": 64,", "\"block\": 48,") : NULL;
        CHECK(prov != NULL, "test setup: a block of 48");
        if (prov) expect_error(prov, "lie past the block's 48 threads", "an event of warp 1 with 32 lanes in a block of 48");
        char *old = prov ? replaced(prov, NULL, "\"schema_version\": 5", "\"schema_version\": 4") : NULL;
        if (old) expect_error(old, "provenance.block: 48 is not a whole number of warps", "a block of 48 in a schema 4 file");
        free(b48), free(shape), free(prov), free(old);
    }
    expect_replaced(ok, "\"passes\"", "\"grid\": 1,", "\"grid\": 0,", "passes[0].grid: expected an integer from 1");
    expect_replaced(ok, NULL, "\"blocks_traced\": 1", "\"blocks_traced\": 0", "provenance.blocks_traced: expected an integer from 1 to 4294967295");
    expect_replaced(ok, NULL, "\"block\": 64,", "\"block\": 2048,", "provenance.block: expected an integer from 1 to 1024");
    expect_replaced(ok, "\"events\"", "\"v\":[", "\"v\":[1e39,", "events[0].v: expected 32 values"); /* one too many */
    {   /* the first event's first value overflows a float: same count, so the value check is reached */
        const char *v = strstr(strstr(ok, "\"events\""), "\"v\":[");
        char first[64] = "";
        if (v) snprintf(first, sizeof first, "%.*s", (int)(strcspn(v + 5, ",]") + 6), v);
        CHECK(first[0] != '\0', "test setup: no values in the first event");
        if (first[0]) expect_replaced(ok, "\"events\"", first, strchr(first, ']') ? "\"v\":[1e39]" : "\"v\":[1e39,", "events[0].v[0]: expected a finite float");
    }
    expect_replaced(ok, NULL, "\"result\": ", "\"result\": 1e39, \"x\": ", "result: expected a finite float");
    expect_replaced(ok, "\"events\"", "\"g\":0", "\"g\":9", "events[0].g: expected an integer from 0 to");
    expect_replaced(ok, NULL, "\"passes\": [", "\"passes\": [{\"grid\": 1}, ", "passes[0]: missing key \"block\"");

    /* a hostile header value is refused before cJSON builds it */
    {
        size_t big = (2u << 20) + 100;
        char *pad = malloc(big + 32);
        strcpy(pad, "\"passes\": [");
        size_t k = strlen(pad);
        while (k < big) pad[k++] = ' ';
        pad[k] = '\0';
        char *bad = replaced(ok, NULL, "\"passes\": [", pad);
        CHECK(bad != NULL, "test setup: no passes");
        if (bad) { expect_error(bad, "passes: more than 1048576 bytes", "2 MB of passes"); free(bad); }
        free(pad);
    }
    /* so is a hostile event */
    {
        size_t big = 100000;
        char *pad = malloc(big + 64);
        strcpy(pad, "{\"k\":\"exit\", \"junk\": \"");
        size_t k = strlen(pad);
        memset(pad + k, 'x', big);
        strcpy(pad + k + big, "\"}, {\"k\"");
        char *bad = replaced(ok, "\"events\"", "{\"k\"", pad);
        CHECK(bad != NULL, "test setup: no events");
        if (bad) { expect_error(bad, "events[0]: more than 65536 bytes", "a 100 KB event"); free(bad); }
        free(pad);
    }
    /* nesting deeper than the checker's stack: refused with the place, not a stack overflow */
    {
        size_t depth = 100000;
        char *deep = malloc(depth + 1);
        memset(deep, '[', depth);
        deep[depth] = '\0';
        expect_error(deep, "1:513: JSON syntax error: nesting deeper than 512 levels", "deep nesting");
        free(deep);
    }
    expect_error("{\"a\": \"\\ud800\"}", "1:8: JSON syntax error: a high surrogate without its low surrogate", "lone surrogate");
    expect_error("{\"a\": 1.}", "1:9: JSON syntax error: expected a digit after the decimal point", "1.");
    expect_error("{\"a\": 1} x", "1:10: JSON syntax error: text after the end of the JSON value", "trailing text");

    free(ok);
    CHECK_DONE("trace_reader_should_check_geometry_and_limits");
}
