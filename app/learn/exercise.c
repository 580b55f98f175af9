/* exercise: judging a kernel file against an exercise's goals (see exercise.h). */
#include "app/learn/exercise.h"

#define _GNU_SOURCE /* getentropy */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/learn/progress.h"
#include "trace/capture/capture.h"
#include "trace/capture/race.h"
#include "trace/certify.h"
#include "trace/input.h"
#include "trace/ladder.h"
#include "trace/query.h"
#include "trace/view.h"

static int goal_met(const lesson_goal *g, double v)
{
    switch (g->bound) {
    case LESSON_AT_MOST: return v <= g->limit;
    case LESSON_AT_LEAST: return v >= g->limit;
    default: return v == g->limit;
    }
}

/* One run of the hidden test suite: a size under a schedule, on data of its own seed. */
typedef struct judge_run {
    uint64_t n;
    const char *schedule; /* "" lockstep */
    uint64_t seed;
    int own;              /* the exercise's own capture (its size, drawn): the topic goals' run */
    char spec[64];        /* the schedule the run is made with: schedule, and its blocks' drawn order */
} judge_run;

/* The suite is drawn when a file is judged, so that no file can know it: a secret seed of the
 * check's own (the kernel sees each run's input only as it runs), and each size the exercise lists
 * moved by up to a quarter either way (a size under 8 stays: the edge cases 1 and 8 are the point). */
static uint64_t suite_secret(void)
{
    uint64_t s = 0;
    if (getentropy(&s, sizeof s)) { /* never expected; the clock and the address then */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        s = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&ts;
    }
    return s;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t drawn_size(uint64_t listed, uint64_t secret)
{
    if (listed < 8) return listed;
    uint64_t spread = listed / 4;
    return listed - spread + mix(secret) % (2 * spread + 1);
}

/* Adversarial orders and interleavings search the fewest blocks that can interact: their runs are
 * the suite's sizes up to this many elements (every size under lockstep). */
enum { JUDGE_SEARCH_N_MAX = 1280 };
/* blocks_traced for a check: every block of every launch (the verifier replays them all) */
#define JUDGE_BLOCKS_ALL 0x7fffffffu

/* A run's trace made trustworthy, or said not to be: its provenance must be the run the check asked
 * for, its events a consistent execution on the check's own input (certify.h); then the result, the
 * reference, the tolerance and the races are the check's, not what the run wrote. 0 (f says whether
 * it was verified), or -1 when out of memory. */
static int verify_run(trace *t, const lesson_exercise *x, const judge_run *r, certify_facts *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    const char *data = x->data[0] ? x->data : "random-int";
    if (t->prov.n != r->n || t->prov.seed != r->seed || strcmp(t->prov.data, data)) {
        snprintf(f->why, sizeof f->why, "the trace is not of the run the check asked for (its size, data or seed differ)");
        return 0;
    }
    float *xf = malloc((size_t)(r->n ? r->n : 1) * sizeof *xf);
    double *xd = malloc((size_t)(r->n ? r->n : 1) * sizeof *xd);
    if (!xf || !xd) { free(xf); free(xd); snprintf(err, errlen, "out of memory"); return -1; }
    int rc = 0;
    if (input_fill(data, r->seed, xf, r->n)) {
        snprintf(f->why, sizeof f->why, "the data \"%s\" is not one warpscope makes", data);
    } else {
        double sum = 0;
        for (uint64_t i = 0; i < r->n; i++) xd[i] = xf[i], sum += xf[i];
        certify_input in = {.in = xd, .n = r->n, .op = x->operation == LESSON_MAX ? CERTIFY_MAX : CERTIFY_SUM};
        rc = certify_trace(t, &in, f, err, errlen);
        if (rc == 0 && f->verified) {
            t->result = f->result;
            t->reference = sum;
            t->tolerance = capture_tolerance(xf, r->n); /* 0: whole numbers, the sum exact */
            int raced = race_replay(t);
            if (raced < 0) { snprintf(err, errlen, "out of memory"); rc = -1; }
            else if (raced) { /* a run whose races cannot all be looked for is not believed */
                f->verified = 0;
                snprintf(f->why, sizeof f->why, "its global accesses spread over more memory than the race detector watches (%d words in "
                                                "pages of 1024, below word 2^26 of each buffer): it cannot be checked for races",
                         (int)RACE_SHADOW_WORDS_MAX);
            }
        }
    }
    free(xf);
    free(xd);
    return rc;
}

static int goal_applies(const lesson_goal *g, const judge_run *r, int in_suite)
{
    return g->every_run ? in_suite : r->own && strcmp(r->schedule, g->schedule) == 0;
}

static void run_name(const judge_run *r, char *buf, size_t len)
{
    snprintf(buf, len, "n = %llu, %s", (unsigned long long)r->n, r->spec);
}

/* Marks the goals of run r that are still open as not met there (why: 1 the run did not finish, 2 it
 * could not be verified) */
static void break_goals(const lesson_exercise *x, exercise_judgement *out, const judge_run *r, int in_suite, const char *name, int why,
                        int keep_verified)
{
    for (size_t j = 0; j < x->ngoals; j++) {
        exercise_mark *mk = &out->marks[j];
        if (!goal_applies(&x->goals[j], r, in_suite) || mk->state == EXERCISE_NOT_MET) continue;
        if (keep_verified && strstr(query_text(x->goals[j].value), "verified()")) continue;
        mk->state = EXERCISE_NOT_MET;
        mk->failed = why;
        snprintf(mk->run, sizeof mk->run, "%s", name);
    }
}

/* 1 when every goal run r would measure is already broken: the run can tell nothing more */
static int run_decided(const lesson_exercise *x, const exercise_judgement *out, const judge_run *r, int in_suite)
{
    for (size_t j = 0; j < x->ngoals; j++)
        if (goal_applies(&x->goals[j], r, in_suite) && out->marks[j].state != EXERCISE_NOT_MET) return 0;
    return 1;
}

static int judge_runs(const lesson_exercise *x, const capture_desc *d, const judge_run *runs, const int *suite, capture_batch_run *batch,
                      size_t nruns, size_t nbatch, exercise_judgement *out, char *why, size_t whylen, char *err, size_t errlen);

int exercise_judge(const lesson *l, const char *file, const char *include_dir, volatile int *cancel,
                   exercise_judgement *out, char *err, size_t errlen)
{
    return exercise_judge_pictured(l, file, include_dir, cancel, out, NULL, err, errlen);
}

int exercise_judge_pictured(const lesson *l, const char *file, const char *include_dir, volatile int *cancel,
                            exercise_judgement *out, trace *picture, char *err, size_t errlen)
{
    if (picture) trace_init(picture);
    memset(out, 0, sizeof *out);
    const lesson_exercise *x = l->exercise;
    if (!x) { snprintf(err, errlen, "%s: not an exercise", l->file); return -1; }
    /* the trace's goals, and the card's after them: none judged yet (the card's only where a GPU times
     * the file, exercise_judge_card) */
    for (size_t i = 0; i < exercise_goal_count(x); i++) out->marks[i].state = EXERCISE_NOT_RUN, out->marks[i].tolerance = -1;
    out->card = EXERCISE_CARD_NONE;
    const char *defines[5] = {NULL};
    for (size_t k = 0, d = 0; k < 4; k++)
        if (x->defines[k][0]) defines[d++] = x->defines[k];
    /* the runs: the exercise's own capture under each schedule its topic goals name, then every size
     * under lockstep and the small ones under every schedule of the suite (when a goal asks for every
     * run); each once, each size drawn now and each run on data of a seed of its own */
    enum { RUNS_MAX = LESSON_GOALS_MAX + LESSON_SIZES_MAX * LESSON_SCHEDULES_MAX };
    judge_run runs[RUNS_MAX];
    int suite[RUNS_MAX];
    size_t nruns = 0;
    int any_every = 0;
    uint64_t secret = suite_secret();
    uint64_t own_listed = x->n ? x->n : x->sizes[0], own_n = drawn_size(own_listed, mix(secret ^ own_listed));
    for (size_t i = 0; i < x->ngoals; i++) {
        any_every |= x->goals[i].every_run;
        if (x->goals[i].every_run) continue;
        int seen = 0;
        for (size_t r = 0; r < nruns && !seen; r++) seen = runs[r].own && !strcmp(runs[r].schedule, x->goals[i].schedule);
        if (!seen) suite[nruns] = 0, runs[nruns++] = (judge_run){.n = own_n, .schedule = x->goals[i].schedule, .own = 1};
    }
    for (size_t sz = 0; any_every && sz < x->nsizes; sz++)
        for (size_t c = 0; c < x->nschedules; c++) {
            judge_run r = {.n = drawn_size(x->sizes[sz], mix(secret ^ x->sizes[sz])), .schedule = x->schedules[c]};
            if (r.schedule[0] && strcmp(r.schedule, "lockstep") && r.n > JUDGE_SEARCH_N_MAX) continue;
            size_t at = nruns;
            for (size_t q = 0; q < nruns && at == nruns; q++)
                if (runs[q].n == r.n && !strcmp(runs[q].schedule, r.schedule)) at = q;
            if (at == nruns) runs[nruns++] = r;
            suite[at] = 1;
        }
    for (size_t ri = 0; ri < nruns; ri++) {
        runs[ri].seed = mix(secret + 0x5EED + ri) >> 11; /* a trace holds seeds up to 2^53 */
        /* the blocks of each launch finish in an order drawn for the run, as a GPU promises none (the
         * adversarial search tries orders of its own) */
        const char *sch = runs[ri].schedule[0] ? runs[ri].schedule : "lockstep";
        if (strcmp(sch, "adversarial")) snprintf(runs[ri].spec, sizeof runs[ri].spec, "%.30s+blocks:%llu", sch,
                                                 (unsigned long long)(mix(secret ^ (0xB10C + ri)) % 999983 + 1));
        else snprintf(runs[ri].spec, sizeof runs[ri].spec, "%s", sch);
    }
    /* every run in one sandbox, every block traced: the verifier replays the whole computation, and
     * the races are found again from the events (verify_run), so the run looks for none itself */
    capture_desc d = {.version = OWN_VERSION, .kernel = file, .entry = x->entry, .defines = defines, .include_dir = include_dir,
                      .block = x->block, .data = x->data[0] ? x->data : NULL, .seed_set = 1, .blocks_traced = JUDGE_BLOCKS_ALL,
                      .no_race_check = 1, .cancel = cancel};
    capture_batch_run *batch = calloc(nruns + 1, sizeof *batch);
    if (!batch) { snprintf(err, errlen, "out of memory"); return -1; }
    for (size_t ri = 0; ri < nruns; ri++)
        batch[ri] = (capture_batch_run){.n = runs[ri].n, .seed = runs[ri].seed, .schedule = runs[ri].spec};
    /* the picture: the exercise's own capture as the lesson shows it, the last of the batch */
    if (picture) batch[nruns] = (capture_batch_run){.n = own_listed, .seed = 1, .blocks_traced = 1};
    char why[1024];
    int rc = judge_runs(x, &d, runs, suite, batch, nruns, nruns + (picture != NULL), out, why, sizeof why, err, errlen);
    if (rc == 0 && picture && out->runs && batch[nruns].rc == 0) {
        *picture = batch[nruns].t;
        trace_init(&batch[nruns].t);
    }
    for (size_t ri = 0; ri <= nruns; ri++) trace_free(&batch[ri].t);
    free(batch);
    return rc;
}

/* Reads the goals of run r on ctx: the whole run's (whole 1: every_run goals, and a topic goal of a
 * run of one block) or one block's (whole 0: the topic goals); name is the run, and the block
 * where ctx shows one. A goal already broken stays broken at the first run and block that broke it. */
static void judge_goals(const lesson_exercise *x, exercise_judgement *out, const judge_run *r, int in_suite, size_t nruns,
                        const query_ctx *ctx, const trace *t, const char *name, int whole)
{
    for (size_t j = 0; j < x->ngoals; j++) {
        const lesson_goal *g = &x->goals[j];
        exercise_mark *mk = &out->marks[j];
        if (!goal_applies(g, r, in_suite) || mk->state == EXERCISE_NOT_MET || (whole ? !g->every_run : g->every_run)) continue;
        query_value v;
        char msg[400];
        if (query_eval(g->value, ctx, &v, msg, sizeof msg) || v.type == QUERY_SET) {
            /* a goal that cannot be measured on this run is not met there, and says why: one
             * file never stops a batch (a kernel without a barrier has no phase 1 to count) */
            if (!out->error[0])
                snprintf(out->error, sizeof out->error, "at %s: goal %zu could not be measured: %.600s", name, j + 1,
                         v.type == QUERY_SET ? "the value is a set" : msg);
            mk->state = EXERCISE_NOT_MET;
            mk->failed = 3;
            snprintf(mk->run, sizeof mk->run, "%s", name);
            continue;
        }
        int met = goal_met(g, v.num);
        if (mk->state == EXERCISE_MET && met) continue; /* the first run's (or block's) value stands */
        mk->value = v.num;
        mk->boolean = v.type == QUERY_BOOL;
        mk->result = t->result;
        mk->wanted = t->reference;
        mk->tolerance = strstr(query_text(g->value), "tolerance()") ? t->tolerance : -1;
        if (strstr(query_text(g->value), "input_max()")) { /* a maximum: the largest element, regenerated */
            size_t pos;
            query *w = query_parse("input_max()", msg, sizeof msg, &pos);
            query_value mx;
            if (w && query_eval(w, ctx, &mx, msg, sizeof msg) == 0) mk->wanted = mx.num;
            query_free(w);
        }
        mk->state = met ? EXERCISE_MET : EXERCISE_NOT_MET;
        if (!met && (g->every_run || !whole || nruns > 1)) snprintf(mk->run, sizeof mk->run, "%s", name);
    }
}

/* The topic goals of run r in every traced block of every pass of t (m: pass 0's block 0, built);
 * 0, or -1 when out of memory. */
static int judge_blocks(const lesson_exercise *x, exercise_judgement *out, const judge_run *r, int in_suite, size_t nruns,
                        const certify_facts *facts, const trace *t, const view_model *m, const char *run, char *err, size_t errlen)
{
    /* the blocks that made events, by pass: a block with none did nothing to judge */
    size_t *first = calloc(t->npasses + 1, sizeof *first);
    size_t nblocks = 0;
    if (!first) { snprintf(err, errlen, "out of memory"); return -1; }
    for (size_t p = 0; p < t->npasses; p++) first[p + 1] = first[p] + t->passes[p].grid, nblocks += t->passes[p].grid;
    unsigned char *seen = calloc(nblocks ? nblocks : 1, 1);
    if (!seen) { free(first); snprintf(err, errlen, "out of memory"); return -1; }
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_REGISTER && e->pass < t->npasses && e->block < t->passes[e->pass].grid) seen[first[e->pass] + e->block] = 1;
    }
    int rc = 0;
    for (unsigned p = 0; p < t->npasses && rc == 0; p++)
        for (unsigned b = 0; b < t->passes[p].grid && rc == 0; b++) {
            if (!seen[first[p] + b]) continue;
            char name[96], why[256];
            snprintf(name, sizeof name, "%.60s, pass %u, block %u", run, p, b);
            view_model bm;
            const view_model *vm = m;
            if ((p || b) && view_build(&bm, t, p, b, 0, why, sizeof why)) { snprintf(err, errlen, "%s", why); rc = -1; break; }
            if (p || b) vm = &bm;
            query_ctx ctx = {.pane = {{t, vm, vm->nsteps ? vm->nsteps - 1 : 0}}, .facts = facts};
            judge_goals(x, out, r, in_suite, nruns, &ctx, t, name, 0);
            if (p || b) view_free(&bm);
        }
    free(seen);
    free(first);
    return rc;
}

/* exercise_judge's runs, judged as they come back from the batch: the first nruns of its nbatch
 * (a picture's run after them is not judged) */
static int judge_runs(const lesson_exercise *x, const capture_desc *d, const judge_run *runs, const int *suite, capture_batch_run *batch,
                      size_t nruns, size_t nbatch, exercise_judgement *out, char *why, size_t whylen, char *err, size_t errlen)
{
    if (capture_batch(d, batch, nbatch, why, whylen)) {
        if (d->cancel && *d->cancel) { snprintf(err, errlen, "interrupted"); return -1; }
        snprintf(out->error, sizeof out->error, "%s", why); /* it does not build, or cannot run here: it did not run */
        return 0;
    }
    if (d->cancel && *d->cancel) { snprintf(err, errlen, "interrupted"); return -1; }
    for (size_t ri = 0; ri < nruns; ri++) {
        const judge_run *r = &runs[ri];
        if (ri > 0 && run_decided(x, out, r, suite[ri])) continue; /* stop at what a file cannot meet */
        char name[64];
        run_name(r, name, sizeof name);
        trace t = batch[ri].t;
        trace_init(&batch[ri].t);
        int failed = batch[ri].rc != 0;
        snprintf(why, whylen, "%s", batch[ri].err);
        out->runs++;
        if (failed) {
            trace_free(&t);
            if (ri == 0) { /* the first run failed (its own capture fails): it did not run */
                snprintf(out->error, sizeof out->error, "%s", why);
                out->runs = 0;
                return 0;
            }
            if (!out->error[0]) snprintf(out->error, sizeof out->error, "at %s: %.900s", name, why);
            break_goals(x, out, r, suite[ri], name, 1, 0);
            continue;
        }
        certify_facts facts;
        if (verify_run(&t, x, r, &facts, err, errlen)) { trace_free(&t); return -1; }
        view_model m;
        int built = facts.verified && view_build(&m, &t, 0, 0, 0, why, whylen) == 0;
        if (!facts.verified || !built) { /* nothing of this run is believed but that it failed */
            if (!out->error[0]) {
                if (!facts.verified && facts.line) snprintf(out->error, sizeof out->error, "at %s: the run could not be verified at line %u: %.700s", name, facts.line, facts.why);
                else if (!facts.verified) snprintf(out->error, sizeof out->error, "at %s: the run could not be verified: %.800s", name, facts.why);
                else snprintf(out->error, sizeof out->error, "at %s: %.900s", name, why);
            }
            break_goals(x, out, r, suite[ri], name, 2, !facts.verified);
            if (!built && facts.verified) { trace_free(&t); continue; }
        }
        /* every goal is read at a block's last step: its counters are the block's totals. The goals
         * of the whole run (the certificate's facts) are read once; the goals on the rung's idea
         * (divergence, conflicts, sectors, the tree's pairs and phases) in every traced block of every
         * pass, and the first block that breaks one is named */
        query_ctx ctx = {.pane = {{&t, built ? &m : NULL, built && m.nsteps ? m.nsteps - 1 : 0}}, .facts = &facts};
        judge_goals(x, out, r, suite[ri], nruns, &ctx, &t, name, 1);
        int blockwise = 0;
        for (size_t j = 0; j < x->ngoals; j++)
            blockwise |= !x->goals[j].every_run && goal_applies(&x->goals[j], r, suite[ri]) && out->marks[j].state != EXERCISE_NOT_MET;
        if (built && blockwise && judge_blocks(x, out, r, suite[ri], nruns, &facts, &t, &m, name, err, errlen)) {
            view_free(&m);
            trace_free(&t);
            return -1;
        }
        if (built) view_free(&m);
        trace_free(&t);
    }
    for (size_t i = 0; i < x->ngoals; i++) out->met += out->marks[i].state == EXERCISE_MET;
    return 0;
}

size_t exercise_check(const lesson *l, const char *include_dir, volatile int *cancel, exercise_report_fn report, void *ud)
{
    const lesson_exercise *x = l->exercise;
    char err[1600], msg[3200], w[600];
    exercise_judgement j;
    /* the starting file runs, and misses at least one (the model solutions are judged by the tests) */
    if (exercise_judge(l, x->start, include_dir, cancel, &j, err, sizeof err)) {
        report(ud, err);
        return 1;
    }
    lesson_where(l, x->start_pos, w, sizeof w);
    if (!j.runs) {
        snprintf(msg, sizeof msg, "%sthe starting file does not run: %s", w, j.error);
        report(ud, msg);
        return 1;
    }
    if (j.met == x->ngoals) { /* the trace's goals: the card's is judged only where a GPU times the file */
        snprintf(msg, sizeof msg, "%sthe starting file %s already meets every goal: there is nothing to do", w, x->start);
        report(ud, msg);
        return 1;
    }
    return 0;
}

int exercise_record_solved(const lesson *l, char *err, size_t errlen)
{
    progress p;
    char dir[1024];
    if (progress_default_dir(dir, sizeof dir, err, errlen) || progress_load(&p, dir, err, errlen)) return -1;
    progress_entry *e = progress_find(&p, l->id, 1);
    int rc = 0;
    if (!e) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else if (!e->done) {
        e->done = 1;
        rc = progress_save(&p, err, errlen);
    }
    progress_free(&p);
    return rc;
}

/* ", first broken at n = 1000, its:1" */
static void broken_at(const exercise_mark *m, lesson_lang lang, char *buf, size_t len)
{
    if (m->state != EXERCISE_NOT_MET || !m->run[0]) return;
    size_t at = strlen(buf);
    /* why a run told nothing: m->failed's order (exercise_mark) */
    static const char *const how[LESSON_LANGS][4] = {{"", ", which did not finish", ", which could not be verified", ", where it could not be measured"},
                                                     {"", "，未运行完", "，无法验证", "，无法测量"}};
    snprintf(buf + at, len - at, lang == LESSON_ZH ? "（首次出错：%s%s）" : " (first broken at %s%s)", m->run, how[lang][m->failed & 3]);
}

void exercise_goal_line(const lesson_goal *g, const exercise_mark *m, lesson_lang lang, char *buf, size_t len)
{
    static const char *const bound_words[LESSON_LANGS][LESSON_BOUNDS] = {{"at most", "at least", ""}, {"至多", "至少", ""}};
    static const char *const yes_no[LESSON_LANGS][2] = {{"no", "yes"}, {"否", "是"}};
    char value[32] = "-";
    if (g->bound == LESSON_EQUALS && (g->limit == 0 || g->limit == 1) && (m->boolean || m->state == EXERCISE_NOT_RUN)) {
        /* a yes-or-no goal: "the sum is right: no (result 9344, reference 18498)"; equals 0 asks for no */
        const char *said = m->state == EXERCISE_NOT_RUN || m->failed ? "-" : yes_no[lang][m->value != 0];
        snprintf(buf, len, lang == LESSON_ZH ? "%s：%s" : "%s: %s", g->say.s[lang], said);
        if (g->limit == 0) snprintf(buf + strlen(buf), len - strlen(buf), lang == LESSON_ZH ? "，目标 %s" : ", goal %s", yes_no[lang][0]);
        int max = strstr(query_text(g->value), "input_max()") != NULL;
        if (m->state == EXERCISE_NOT_MET && !m->failed && strstr(query_text(g->value), "result()"))
            snprintf(buf + strlen(buf), len - strlen(buf),
                     lang == LESSON_ZH ? (max ? "（结果 %.9g，最大元素 %.9g）" : "（结果 %.9g，参考值 %.9g）")
                                       : (max ? " (result %.9g, the largest element %.9g)" : " (result %.9g, reference %.9g)"),
                     m->result, m->wanted);
        if (m->state != EXERCISE_NOT_RUN && !m->failed && m->tolerance >= 0) { /* the tolerance used, said */
            if (m->tolerance == 0)
                snprintf(buf + strlen(buf), len - strlen(buf), lang == LESSON_ZH ? "（整数数据：须精确相等）" : " (whole numbers: exactly)");
            else
                snprintf(buf + strlen(buf), len - strlen(buf), lang == LESSON_ZH ? "（容差 %.3g）" : " (within %.3g)", m->tolerance);
        }
        broken_at(m, lang, buf, len);
        return;
    }
    if (m->state != EXERCISE_NOT_RUN && !m->failed) snprintf(value, sizeof value, "%.10g", m->value);
    const char *b = bound_words[lang][g->bound];
    snprintf(buf, len, "%s%s%s%s%s%s%.10g", g->say.s[lang], lang == LESSON_ZH ? "：" : ": ", value, lang == LESSON_ZH ? "，目标" : ", goal ", b,
             lang == LESSON_ZH || !b[0] ? "" : " ", g->limit);
    broken_at(m, lang, buf, len);
}

size_t exercise_goal_count(const lesson_exercise *x)
{
    return x->ngoals + (x->gpu_fraction > 0);
}

/* the size the card goal is read at: the largest of the card's sizes (gpu_time_sizes' default 2^26
 * where the exercise names none), "2^26" when a power of two */
static void card_size(const lesson_exercise *x, char *buf, size_t len)
{
    uint64_t n = x->ngpu_sizes ? 0 : (uint64_t)1 << 26;
    for (size_t i = 0; i < x->ngpu_sizes; i++)
        if (x->gpu_sizes[i] > n) n = x->gpu_sizes[i];
    int k = 0;
    while (k < 63 && ((uint64_t)1 << k) < n) k++;
    if (((uint64_t)1 << k) == n) snprintf(buf, len, "2^%d", k);
    else snprintf(buf, len, "%llu", (unsigned long long)n);
}

void exercise_card_goal(const lesson_exercise *x, lesson_lang lang, char *buf, size_t len)
{
    char n[32];
    card_size(x, n, sizeof n);
    if (lang == LESSON_ZH) snprintf(buf, len, "在显卡上：n = %s 时至少达到这块显卡最佳读取带宽的 %.3g %%", n, 100 * x->gpu_fraction);
    else snprintf(buf, len, "on the card: at least %.3g %% of its best read at n = %s", 100 * x->gpu_fraction, n);
}

void exercise_checklist_line(const lesson_exercise *x, const exercise_judgement *j, size_t g, lesson_lang lang, char *buf, size_t len)
{
    if (g < x->ngoals) {
        exercise_goal_line(&x->goals[g], &j->marks[g], lang, buf, len);
        return;
    }
    exercise_card_goal(x, lang, buf, len);
    size_t at = strlen(buf);
    const char *sep = lang == LESSON_ZH ? "：" : ": ";
    switch (j->card) {
    case EXERCISE_CARD_TIMED:
        snprintf(buf + at, len - at, "%s%.3g %%", sep, 100 * j->marks[g].value);
        break;
    case EXERCISE_CARD_WRONG:
        snprintf(buf + at, len - at, lang == LESSON_ZH ? "%s在显卡上算错了：%s" : "%swrong on the card: %s", sep, j->card_error);
        break;
    case EXERCISE_CARD_FAILED:
        snprintf(buf + at, len - at, lang == LESSON_ZH ? "%s没能在显卡上运行：%s" : "%sdid not run on the card: %s", sep, j->card_error);
        break;
    case EXERCISE_CARD_UNTIMED:
        snprintf(buf + at, len - at, lang == LESSON_ZH ? "%s未计时：先达成轨迹上的每个目标" : "%snot timed: every goal of the trace comes first", sep);
        break;
    default:
        snprintf(buf + at, len - at, lang == LESSON_ZH ? "%s此处未评判：没有 GPU" : "%snot judged here: no GPU", sep);
        break;
    }
}

void exercise_judge_card(const lesson_exercise *x, exercise_judgement *j, exercise_card how, double fraction, const char *error)
{
    if (x->gpu_fraction <= 0) return;
    exercise_mark *m = &j->marks[x->ngoals];
    memset(m, 0, sizeof *m);
    m->tolerance = -1;
    j->card = how;
    snprintf(j->card_error, sizeof j->card_error, "%s", how == EXERCISE_CARD_WRONG || how == EXERCISE_CARD_FAILED ? (error ? error : "") : "");
    if (how == EXERCISE_CARD_TIMED) {
        m->value = fraction;
        m->state = fraction >= x->gpu_fraction ? EXERCISE_MET : EXERCISE_NOT_MET;
    } else if (how == EXERCISE_CARD_WRONG || how == EXERCISE_CARD_FAILED) {
        m->state = EXERCISE_NOT_MET;
        m->failed = how == EXERCISE_CARD_WRONG ? 2 : 1;
    } else {
        m->state = EXERCISE_NOT_RUN;
    }
    j->met = 0;
    for (size_t g = 0; g < exercise_goal_count(x); g++) j->met += j->marks[g].state == EXERCISE_MET;
}
