/* exercise: judging a kernel file against an exercise's goals (see exercise.h). */
#include "app/learn/exercise.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/learn/progress.h"
#include "trace/capture/capture.h"
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

/* One run of the hidden test suite: a size under a schedule. */
typedef struct judge_run {
    uint64_t n;
    const char *schedule; /* "" lockstep */
} judge_run;

static int goal_applies(const lesson_exercise *x, const lesson_goal *g, const judge_run *r, int in_suite)
{
    return g->every_run ? in_suite : r->n == (x->n ? x->n : x->sizes[0]) && strcmp(r->schedule, g->schedule) == 0;
}

static void run_name(const judge_run *r, char *buf, size_t len)
{
    snprintf(buf, len, "n = %llu, %s", (unsigned long long)r->n, r->schedule[0] ? r->schedule : "lockstep");
}

int exercise_judge(const lesson *l, const char *file, const char *include_dir, volatile int *cancel,
                   exercise_judgement *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const lesson_exercise *x = l->exercise;
    if (!x) { snprintf(err, errlen, "%s: not an exercise", l->file); return -1; }
    for (size_t i = 0; i < x->ngoals; i++) out->marks[i].state = EXERCISE_NOT_RUN;
    const char *defines[5] = {NULL};
    for (size_t k = 0, d = 0; k < 4; k++)
        if (x->defines[k][0]) defines[d++] = x->defines[k];
    /* the runs: the exercise's own capture under each schedule its topic goals name, then every size
     * under every schedule of the suite (when a goal asks for every run); each once */
    enum { RUNS_MAX = LESSON_GOALS_MAX + LESSON_SIZES_MAX * LESSON_SCHEDULES_MAX };
    judge_run runs[RUNS_MAX];
    int suite[RUNS_MAX];
    size_t nruns = 0;
    int any_every = 0;
    uint64_t own_n = x->n ? x->n : x->sizes[0];
    for (size_t i = 0; i < x->ngoals; i++) {
        any_every |= x->goals[i].every_run;
        if (x->goals[i].every_run) continue;
        int seen = 0;
        for (size_t r = 0; r < nruns && !seen; r++) seen = runs[r].n == own_n && !strcmp(runs[r].schedule, x->goals[i].schedule);
        if (!seen) suite[nruns] = 0, runs[nruns++] = (judge_run){own_n, x->goals[i].schedule};
    }
    for (size_t s = 0; any_every && s < x->nsizes; s++)
        for (size_t c = 0; c < x->nschedules; c++) {
            judge_run r = {x->sizes[s], x->schedules[c]};
            size_t at = nruns;
            for (size_t q = 0; q < nruns && at == nruns; q++)
                if (runs[q].n == r.n && !strcmp(runs[q].schedule, r.schedule)) at = q;
            if (at == nruns) runs[nruns++] = r;
            suite[at] = 1;
        }
    for (size_t ri = 0; ri < nruns; ri++) {
        const judge_run *r = &runs[ri];
        char name[64];
        run_name(r, name, sizeof name);
        capture_desc d = {.version = OWN_VERSION, .kernel = file, .entry = x->entry, .defines = defines, .include_dir = include_dir,
                          .block = x->block, .n = r->n, .data = x->data[0] ? x->data : NULL, .schedule = r->schedule[0] ? r->schedule : NULL,
                          .blocks_traced = 1, .cancel = cancel};
        trace t;
        trace_init(&t);
        char why[1024];
        int failed = capture_with("cpu", &d, &t, NULL, 0, why, sizeof why);
        view_model m;
        if (!failed && view_build(&m, &t, 0, 0, 0, why, sizeof why)) failed = 1;
        out->runs++;
        if (failed) {
            trace_free(&t);
            if (cancel && *cancel) { snprintf(err, errlen, "interrupted"); return -1; }
            if (ri == 0) { /* the first run failed (it does not build, or its own capture fails): it did not run */
                snprintf(out->error, sizeof out->error, "%s", why);
                out->runs = 0;
                return 0;
            }
            if (!out->error[0]) snprintf(out->error, sizeof out->error, "at %s: %.900s", name, why);
            for (size_t j = 0; j < x->ngoals; j++) { /* the goals of this run: broken here */
                exercise_mark *mk = &out->marks[j];
                if (!goal_applies(x, &x->goals[j], r, suite[ri]) || mk->state == EXERCISE_NOT_MET) continue;
                mk->state = EXERCISE_NOT_MET;
                mk->failed = 1;
                snprintf(mk->run, sizeof mk->run, "%s", name);
            }
            continue;
        }
        /* every goal is read at the block's last step: its counters are the block's totals */
        query_ctx ctx = {.pane = {{&t, &m, m.nsteps ? m.nsteps - 1 : 0}}};
        int rc = 0;
        for (size_t j = 0; j < x->ngoals && !rc; j++) {
            const lesson_goal *g = &x->goals[j];
            exercise_mark *mk = &out->marks[j];
            if (!goal_applies(x, g, r, suite[ri]) || mk->state == EXERCISE_NOT_MET) continue;
            query_value v;
            char msg[400];
            if (query_eval(g->value, &ctx, &v, msg, sizeof msg) || v.type == QUERY_SET) {
                char w[600];
                lesson_where(l, g->pos, w, sizeof w);
                snprintf(err, errlen, "%sgoal %zu: %s", w, j + 1, v.type == QUERY_SET ? "the value is a set: count() makes it a number" : msg);
                rc = -1;
                break;
            }
            int met = goal_met(g, v.num);
            if (mk->state == EXERCISE_MET && met) continue; /* the first run's value stands */
            mk->value = v.num;
            mk->boolean = v.type == QUERY_BOOL;
            mk->result = t.result;
            mk->wanted = t.reference;
            if (strstr(query_text(g->value), "input_max()")) { /* a maximum: the largest element, regenerated */
                size_t pos;
                query *w = query_parse("input_max()", msg, sizeof msg, &pos);
                query_value mx;
                if (w && query_eval(w, &ctx, &mx, msg, sizeof msg) == 0) mk->wanted = mx.num;
                query_free(w);
            }
            mk->state = met ? EXERCISE_MET : EXERCISE_NOT_MET;
            if (!met && (g->every_run || nruns > 1)) snprintf(mk->run, sizeof mk->run, "%s", name);
        }
        view_free(&m);
        trace_free(&t);
        if (rc) return -1;
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
    if (j.met == x->ngoals) {
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
    snprintf(buf + at, len - at, lang == LESSON_ZH ? "（首次出错：%s%s）" : " (first broken at %s%s)", m->run,
             m->failed ? (lang == LESSON_ZH ? "，未运行完" : ", which did not finish") : "");
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
        broken_at(m, lang, buf, len);
        return;
    }
    if (m->state != EXERCISE_NOT_RUN && !m->failed) snprintf(value, sizeof value, "%.10g", m->value);
    const char *b = bound_words[lang][g->bound];
    snprintf(buf, len, "%s%s%s%s%s%s%.10g", g->say.s[lang], lang == LESSON_ZH ? "：" : ": ", value, lang == LESSON_ZH ? "，目标" : ", goal ", b,
             lang == LESSON_ZH || !b[0] ? "" : " ", g->limit);
    broken_at(m, lang, buf, len);
}
