/* Broken lessons (and exercises) are rejected with "name:line:column" pointing at what is wrong. The expected
 * position is found here by searching the text for a marker, not taken from the loader. Load-time
 * errors come from lesson_parse; errors that need the trace (a query that does not answer there,
 * a phase the capture lacks) from player_check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"

/* line:column (from 1, in bytes) of the first occurrence of marker, plus extra columns */
static void where(const char *text, const char *marker, int extra, char *out, size_t len)
{
    const char *m = strstr(text, marker);
    if (!m) { snprintf(out, len, "(marker %s missing)", marker); return; }
    int line = 1, col = 1;
    for (const char *p = text; p < m; p++) {
        if (*p == '\n') { line++; col = 1; }
        else col++;
    }
    snprintf(out, len, "bad.json:%d:%d: ", line, col + extra);
}

typedef struct collect {
    char first[1600];
    size_t n;
} collect;

static void report(void *ud, const char *message)
{
    collect *c = ud;
    if (!c->n++) snprintf(c->first, sizeof c->first, "%s", message);
}

/* a minimal good lesson with one step; %s pieces replace the show and the step's extra keys */
static char *make_lesson(const char *title, const char *show, const char *say, const char *ask)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "{\n"
             "  \"schema\": \"warpscope-lesson\",\n"
             "  \"schema_version\": 1,\n"
             "  \"id\": \"t\",\n"
             "  \"title\": %s,\n"
             "  \"steps\": [\n"
             "    {\n"
             "      \"show\": %s,\n"
             "      \"say\": %s%s%s\n"
             "    }\n"
             "  ]\n"
             "}\n",
             title, show, say, ask[0] ? ",\n      \"ask\": " : "", ask);
    return buf;
}

static const char *TITLE = "{\"en\": \"T\", \"zh\": \"T\"}";
static const char *SHOW = "{\"version\": \"v0\", \"capture\": {\"block\": 64}, \"phase\": 1, \"op\": 0}";
static const char *SAY = "{\"en\": \"s\", \"zh\": \"s\"}";

/* a minimal good exercise (exercise 10's starting file) with gpu as its "gpu" object */
static char *make_exercise(const char *gpu)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "{\n"
             "  \"schema\": \"warpscope-lesson\",\n"
             "  \"schema_version\": 1,\n"
             "  \"id\": \"x\",\n"
             "  \"title\": {\"en\": \"X\", \"zh\": \"X\"},\n"
             "  \"exercise\": {\n"
             "    \"task\": {\"en\": \"t\", \"zh\": \"t\"},\n"
             "    \"start\": \"10-last-rung.cu\",\n"
             "    \"entry\": \"run(in, out, n)\",\n"
             "    \"gpu\": %s,\n"
             "    \"goals\": [{\"say\": {\"en\": \"g\", \"zh\": \"g\"}, \"value\": \"hazards()\", \"equals\": 0}],\n"
             "    \"hints\": [{\"en\": \"h\", \"zh\": \"h\"}]\n"
             "  }\n"
             "}\n",
             gpu);
    return buf;
}

/* rejected when loading: the message must start with the marker's position */
static void load_rejects(const char *text, const char *marker, int extra, const char *what)
{
    char want[64], err[1600];
    where(text, marker, extra, want, sizeof want);
    lesson l;
    int rc = lesson_parse(&l, text, strlen(text), "bad.json", ".", err, sizeof err);
    CHECK(rc == -1, "%s: should be rejected", what);
    if (rc == 0) { lesson_free(&l); return; }
    CHECK(strncmp(err, want, strlen(want)) == 0, "%s: got \"%s\", expected it to start with \"%s\"", what, err, want);
}

/* loads, but the check against the trace fails at the marker */
static void check_rejects(const char *text, const char *marker, int extra, const char *what)
{
    char want[64], err[1600];
    where(text, marker, extra, want, sizeof want);
    lesson l;
    if (lesson_parse(&l, text, strlen(text), "bad.json", ".", err, sizeof err)) { CHECK(0, "%s: should load: %s", what, err); return; }
    collect c = {"", 0};
    size_t n = player_check(&l, NULL, report, &c);
    CHECK(n >= 1 && n == c.n, "%s: the check should fail (%zu problems)", what, n);
    CHECK(n == 0 || strncmp(c.first, want, strlen(want)) == 0, "%s: got \"%s\", expected it to start with \"%s\"", what, c.first, want);
    lesson_free(&l);
}

int main(void)
{
    char *t;
    /* the good one passes both */
    t = make_lesson(TITLE, SHOW, SAY, "");
    lesson l;
    char err[1600];
    CHECK(lesson_parse(&l, t, strlen(t), "bad.json", ".", err, sizeof err) == 0, "the minimal lesson loads: %s", err);
    collect c = {"", 0};
    CHECK(player_check(&l, NULL, report, &c) == 0, "the minimal lesson checks: %s", c.first);
    lesson_free(&l);

    /* syntax: a missing comma after line 4; cJSON stops on line 5 */
    t = make_lesson(TITLE, SHOW, SAY, "");
    char broken[4096];
    snprintf(broken, sizeof broken, "%s", t);
    char *comma = strstr(broken, "\"t\",");
    comma[3] = ' ';
    CHECK(lesson_parse(&l, broken, strlen(broken), "bad.json", ".", err, sizeof err) == -1 && strncmp(err, "bad.json:5:", 11) == 0,
          "syntax error: %s", err);

    t = make_lesson("{\"en\": \"only English\"}", SHOW, SAY, "");
    load_rejects(t, "{\"en\": \"only English\"}", 0, "a title without Chinese");
    t = make_lesson("{\"en\": \"T {n()}\", \"zh\": \"T\"}", SHOW, SAY, "");
    load_rejects(t, "n()}", 0, "a placeholder in a title");
    t = make_lesson(TITLE, "{\"version\": \"v9\"}", SAY, "");
    load_rejects(t, "\"v9\"", 0, "an unknown version");
    t = make_lesson(TITLE, "{\"version\": \"v0\", \"phse\": 2}", SAY, "");
    load_rejects(t, "2}", 0, "a misspelt key");
    t = make_lesson(TITLE, "{\"version\": \"v4\", \"capture\": {\"block\": 32}}", SAY, "");
    load_rejects(t, "{\"version\": \"v4\"", 0, "a block v4 cannot run");
    t = make_lesson(TITLE, SHOW, "{\"en\": \"x {conflict_degre()} y\", \"zh\": \"s\"}", "");
    load_rejects(t, "conflict_degre", 0, "an unknown function in a placeholder");
    t = make_lesson(TITLE, SHOW, "{\"en\": \"a { b\", \"zh\": \"s\"}", "");
    load_rejects(t, "{ b", 0, "an unclosed brace in narration");
    t = make_lesson(TITLE, SHOW, SAY,
                    "{\"kind\": \"pick_lanes\", \"on\": \"this\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, "
                    "\"answer\": \"active_lanes(wrap=0)\", \"explain\": {\"en\": \"e\", \"zh\": \"e\"}}");
    load_rejects(t, "wrap", 0, "a misspelt argument name in an answer");
    t = make_lesson(TITLE, SHOW, SAY,
                    "{\"kind\": \"number\", \"on\": \"this\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, \"answer\": \"threads()\", "
                    "\"explain\": {\"en\": \"e\"}}");
    load_rejects(t, "{\"en\": \"e\"}", 0, "an explanation without Chinese");
    t = make_lesson(TITLE, SHOW, SAY,
                    "{\"kind\": \"guess\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, \"answer\": \"threads()\", \"explain\": {\"en\": \"e\", \"zh\": \"e\"}}");
    load_rejects(t, "\"guess\"", 0, "an unknown kind of question");
    t = make_lesson(TITLE, SHOW, SAY,
                    "{\"kind\": \"number\", \"on\": \"this\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, \"answer\": \"2 * 32\", "
                    "\"explain\": {\"en\": \"e\", \"zh\": \"e\"}}");
    load_rejects(t, "\"2 * 32\"", 0, "an answer typed in rather than computed from the trace");
    snprintf(broken, sizeof broken, "%s", make_lesson(TITLE, SHOW, SAY, ""));
    memcpy(strstr(broken, "\"schema_version\": 1") + 18, "2", 1);
    load_rejects(broken, "2,\n  \"id\"", 0, "a schema version from the future");

    /* an exercise's "gpu" object: the card's sizes and its goal, each bad value one line at its place */
    const char *exdir = WS_ROOT "/lessons/exercises";
    t = make_exercise("{\"sizes\": [16777216, 67108864], \"fraction\": 0.85}");
    CHECK(lesson_parse(&l, t, strlen(t), "bad.json", exdir, err, sizeof err) == 0, "a good gpu object loads: %s", err);
    if (l.exercise)
        CHECK(l.exercise->ngpu_sizes == 2 && l.exercise->gpu_sizes[0] == 16777216 && l.exercise->gpu_sizes[1] == 67108864 &&
                  l.exercise->gpu_fraction == 0.85,
              "the card's sizes and fraction as written: %zu sizes, %g", l.exercise->ngpu_sizes, l.exercise->gpu_fraction);
    lesson_free(&l);
    static const struct {
        const char *gpu, *marker, *what;
    } gpus[] = {
        {"{\"sizes\": [16777216, 67108864], \"fraction\": 1.5}", "1.5}", "a card goal above the card's best read (fraction 1.5)"},
        {"{\"sizes\": [16777216, 67108864], \"fraction\": 0}", "0}", "a card goal of nothing (fraction 0)"},
        {"{\"sizes\": [0, 67108864], \"fraction\": 0.85}", "0, 67108864", "a size of 0"},
        {"{\"sizes\": [16777216, 0]}", "0]", "a size of 0, last"},
        {"{\"sizes\": [], \"fraction\": 0.85}", "[]", "no sizes"},
        {"{\"sizes\": [16777216], \"fractoin\": 0.85}", "0.85}", "an unknown key (a misspelt fraction)"},
        {"{\"sizes\": [16777216], \"card\": \"h200\"}", "\"h200\"", "an unknown key"},
        {"[16777216, 67108864]", "[16777216, 67108864]", "sizes without their object"},
    };
    for (size_t k = 0; k < sizeof gpus / sizeof gpus[0]; k++) {
        char want[64];
        t = make_exercise(gpus[k].gpu);
        where(t, gpus[k].marker, 0, want, sizeof want);
        int rc = lesson_parse(&l, t, strlen(t), "bad.json", exdir, err, sizeof err);
        CHECK(rc == -1, "%s: should be rejected", gpus[k].what);
        if (rc == 0) { lesson_free(&l); continue; }
        CHECK(strncmp(err, want, strlen(want)) == 0 && strstr(err, "gpu") && !strchr(err, '\n'),
              "%s: got \"%s\", expected one line starting with \"%s\" and naming gpu", gpus[k].what, err, want);
    }

    /* the checks that need the trace */
    t = make_lesson(TITLE, "{\"version\": \"v0\", \"capture\": {\"block\": 64}, \"phase\": 12}", SAY, "");
    check_rejects(t, "{\"version\": \"v0\"", 0, "a phase the capture does not have");
    t = make_lesson(TITLE, "{\"version\": \"v0\", \"capture\": {\"block\": 64}, \"phase\": 0, \"op\": 2}", SAY,
                    "{\"kind\": \"number\", \"on\": \"this\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, \"answer\": \"conflict_degree()\", "
                    "\"explain\": {\"en\": \"e\", \"zh\": \"e\"}}");
    check_rejects(t, "\"conflict_degree()\"", 0, "a query that does not answer at a barrier");
    t = make_lesson(TITLE, SHOW, SAY,
                    "{\"kind\": \"number\", \"on\": \"this\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, \"answer\": \"active_lanes()\", "
                    "\"explain\": {\"en\": \"e\", \"zh\": \"e\"}}");
    check_rejects(t, "\"active_lanes()\"", 0, "a set where a number is asked");
    t = make_lesson(TITLE, SHOW, "{\"en\": \"{speedup(v0, v1, n=2^24)}\", \"zh\": \"s\"}", "");
    check_rejects(t, "speedup", 0, "a benchmark query in a lesson with no results");
    t = make_lesson(TITLE, SHOW, SAY,
                    "{\"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"p\"}, \"answer\": \"threads()\", "
                    "\"explain\": {\"en\": \"e\", \"zh\": \"e\"}}");
    check_rejects(t, "{\"kind\": \"number\"", 0, "a question on the last step that asks about the next");
    t = make_lesson(TITLE, "{\"version\": \"v0\", \"capture\": {\"block\": 64}, \"highlight\": {\"lanes\": [64]}}", SAY, "");
    check_rejects(t, "{\"version\": \"v0\"", 0, "a highlighted lane past the block");
    CHECK_DONE("malformed_lessons_should_be_rejected_with_position");
}
