/* A malformed trace is rejected with one message that says where: line:column for broken JSON,
 * the key path for bad content. Each case breaks a valid capture in one known place. */
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"

static char *valid_json(const char *version)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.block = 64;
    trace t;
    trace_init(&t);
    char err[256];
    if (capture_cpu(&d, &t, err, sizeof err)) return NULL;
    char *j = trace_to_json(&t);
    trace_free(&t);
    return j;
}

/* the text with the first `from` replaced by `to` */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) return NULL;
    size_t n = strlen(text) - strlen(from) + strlen(to);
    char *r = malloc(n + 1);
    size_t pre = (size_t)(at - text);
    memcpy(r, text, pre);
    strcpy(r + pre, to);
    strcat(r, at + strlen(from));
    return r;
}

static void expect_error(const char *text, size_t len, const char *want, const char *what)
{
    trace t;
    char err[256] = "";
    int rc = trace_from_json(&t, text, len, err, sizeof err);
    CHECK(rc == -1, "%s: accepted", what);
    CHECK(strstr(err, want) != NULL, "%s: message \"%s\" does not contain \"%s\"", what, err, want);
    if (rc == 0) trace_free(&t);
}

static void expect_replaced(const char *text, const char *from, const char *to, const char *want)
{
    char *bad = replaced(text, from, to);
    CHECK(bad != NULL, "test setup: \"%s\" not in the capture", from);
    if (!bad) return;
    expect_error(bad, strlen(bad), want, to);
    free(bad);
}

int main(void)
{
    char *ok = valid_json("v2");
    CHECK(ok != NULL, "capture failed");
    if (!ok) CHECK_DONE("malformed_trace_should_be_rejected_with_position");
    trace t;
    char err[256];
    CHECK(trace_from_json(&t, ok, strlen(ok), err, sizeof err) == 0, "valid trace rejected: %s", err);
    trace_free(&t);

    /* a stray character on a known line and column: line 2 is "schema": "warpscope-trace", */
    char *bad = replaced(ok, "\"schema\": \"warpscope-trace\",", "\"schema\": \"warpscope-trace\" x,");
    expect_error(bad, strlen(bad), "2:29: JSON syntax error", "stray x");
    free(bad);
    /* cut short in the events */
    size_t cut = (size_t)(strstr(ok, "\"events\"") - ok) + 40;
    expect_error(ok, cut, "ends too soon", "truncated");
    expect_error("", 0, "1:1: JSON syntax error", "empty file");

    expect_replaced(ok, "\"k\":\"shared_load\"", "\"k\":\"shared_lod\"", "unknown event kind \"shared_lod\"");
    /* where and when blocks ran (schema 4): each block of a pass once, in order, whole numbers, and
     * inside the passes; one block listed 3 times would otherwise count 3 blocks live on one SM */
    expect_replaced(ok, "],\n\"buffers\": [", "],\n\"runs\": [[0,0,1,0,10],[0,0,1,0,10],[0,0,1,0,10]],\n\"buffers\": [",
                    "runs[1]: runs go by pass, then block, each block once");
    expect_replaced(ok, "],\n\"buffers\": [", "],\n\"runs\": [[0,0,1.5,0,10]],\n\"buffers\": [", "runs[0]: expected [pass, block, sm, start, end], whole numbers");
    expect_replaced(ok, "],\n\"buffers\": [", "],\n\"runs\": [[0,99999,1,0,10]],\n\"buffers\": [", "runs[0]: pass, block or SM outside the trace");
    expect_replaced(ok, "],\n\"buffers\": [", "],\n\"runs\": [[0,0,1,10,5]],\n\"buffers\": [", "an end before its start");
    /* a full-warp store whose mask claims one lane */
    const char *store = strstr(ok, "{\"k\":\"shared_store\"");
    CHECK(store && strstr(store, "\"m\":4294967295"), "test setup: no full-warp shared store");
    if (store) {
        char *tail = replaced(store, "\"m\":4294967295", "\"m\":1");
        size_t pre = (size_t)(store - ok);
        char *whole = malloc(pre + strlen(tail) + 1);
        memcpy(whole, ok, pre);
        strcpy(whole + pre, tail);
        expect_error(whole, strlen(whole), "expected 1 addresses, one per lane of the mask", "mask of one lane");
        free(tail);
        free(whole);
    }
    expect_replaced(ok, "\"w\":1,", "\"w\":7,", "warp 7 is outside a block of 64 threads");
    {
        char have[40], want[80];
        snprintf(have, sizeof have, "\"schema_version\": %d", TRACE_SCHEMA_VERSION);
        snprintf(want, sizeof want, "schema_version: this warpscope reads versions 1 to %d", TRACE_SCHEMA_VERSION);
        expect_replaced(ok, have, "\"schema_version\": 99", want);
    }
    expect_replaced(ok, "\"race_check\"", "\"race_chek\"", "provenance: missing key \"race_check\"");
    expect_replaced(ok, "\"reference\"", "\"referense\"", "missing key \"reference\"");
    expect_replaced(ok, "\"block\": 64,", "\"block\": \"64\",", "provenance.block: expected an integer");
    expect_replaced(ok, "\"m\":4294967295", "\"m\":-3", "events[0].m: expected an integer");

    /* a register event's address is the lane that holds it, plus 32 x which register (schema 8):
     * lane 0's address names lane 0, and no id past TRACE_REGISTER_IDS */
    char *v3 = valid_json("v3");
    CHECK(v3 != NULL, "capture v3 failed");
    if (v3) {
        const char *reg0 = "\"k\":\"register\",\"p\":0,\"b\":0,\"w\":0,\"l\":18,\"ph\":0,\"m\":4294967295,\"z\":4,\"a\":[0,";
        char to[200], want[120];
        snprintf(to, sizeof to, "%.*s[%d,", (int)strlen(reg0) - 3, reg0, 32 + 1);
        expect_replaced(v3, reg0, to, ".a[0]: 33 names lane 1, but it is lane 0's");
        snprintf(to, sizeof to, "%.*s[%d,", (int)strlen(reg0) - 3, reg0, 32 * TRACE_REGISTER_IDS);
        snprintf(want, sizeof want, ".a[0]: expected a lane of the warp + 32 x the register's id, an integer from 0 to %d", 32 * TRACE_REGISTER_IDS - 1);
        expect_replaced(v3, reg0, to, want);
        snprintf(to, sizeof to, "%.*s[%d,", (int)strlen(reg0) - 3, reg0, 32 * 5);
        char *other = replaced(v3, reg0, to); /* another register of lane 0: read */
        int read = other && trace_from_json(&t, other, strlen(other), err, sizeof err) == 0;
        CHECK(read, "register 5 of lane 0 rejected: %s", other ? err : "out of memory");
        if (read) trace_free(&t);
        free(other);
        free(v3);
    }

    CHECK(trace_read_file(&t, "no/such/trace.json", err, sizeof err) == -1 && strstr(err, "no/such/trace.json: cannot open"),
          "missing file: \"%s\"", err);
    free(ok);
    CHECK_DONE("malformed_trace_should_be_rejected_with_position");
}
