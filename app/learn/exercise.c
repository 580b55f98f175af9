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
    /* one capture per schedule, in the order the goals first name them */
    for (size_t i = 0; i < x->ngoals; i++) {
        const char *sched = x->goals[i].schedule;
        int seen = 0;
        for (size_t j = 0; j < i; j++) seen |= strcmp(x->goals[j].schedule, sched) == 0;
        if (seen || out->marks[i].state != EXERCISE_NOT_RUN) continue;
        capture_desc d = {.version = OWN_VERSION, .kernel = file, .entry = x->entry, .defines = defines, .include_dir = include_dir,
                          .block = x->block, .n = x->n, .data = x->data[0] ? x->data : NULL, .schedule = sched[0] ? sched : NULL,
                          .blocks_traced = 1, .cancel = cancel};
        trace t;
        trace_init(&t);
        char why[1024];
        if (capture_with("cpu", &d, &t, NULL, 0, why, sizeof why)) {
            trace_free(&t);
            if (cancel && *cancel) { snprintf(err, errlen, "interrupted"); return -1; }
            if (!out->error[0]) snprintf(out->error, sizeof out->error, "%s", why);
            continue; /* the goals of this capture stay not run */
        }
        view_model m;
        if (view_build(&m, &t, 0, 0, 0, why, sizeof why)) {
            trace_free(&t);
            if (!out->error[0]) snprintf(out->error, sizeof out->error, "%s", why);
            continue;
        }
        /* every goal is read at the block's last step: its counters are the block's totals */
        query_ctx ctx = {.pane = {{&t, &m, m.nsteps ? m.nsteps - 1 : 0}}};
        int rc = 0;
        for (size_t j = i; j < x->ngoals && !rc; j++) {
            const lesson_goal *g = &x->goals[j];
            if (strcmp(g->schedule, sched) != 0) continue;
            query_value v;
            char msg[400];
            if (query_eval(g->value, &ctx, &v, msg, sizeof msg) || v.type == QUERY_SET) {
                char w[600];
                lesson_where(l, g->pos, w, sizeof w);
                snprintf(err, errlen, "%sgoal %zu: %s", w, j + 1, v.type == QUERY_SET ? "the value is a set: count() makes it a number" : msg);
                rc = -1;
                break;
            }
            out->marks[j].value = v.num;
            out->marks[j].boolean = v.type == QUERY_BOOL;
            out->marks[j].result = t.result;
            out->marks[j].wanted = t.reference;
            if (strstr(query_text(g->value), "input_max()")) { /* a maximum: the largest element, regenerated */
                size_t pos;
                query *w = query_parse("input_max()", msg, sizeof msg, &pos);
                query_value mx;
                if (w && query_eval(w, &ctx, &mx, msg, sizeof msg) == 0) out->marks[j].wanted = mx.num;
                query_free(w);
            }
            out->marks[j].state = goal_met(g, v.num) ? EXERCISE_MET : EXERCISE_NOT_MET;
            out->met += out->marks[j].state == EXERCISE_MET;
        }
        view_free(&m);
        trace_free(&t);
        if (rc) return -1;
    }
    return 0;
}

size_t exercise_check(const lesson *l, const char *include_dir, volatile int *cancel, exercise_report_fn report, void *ud)
{
    const lesson_exercise *x = l->exercise;
    size_t bad = 0;
    char err[1600], msg[3200], w[600], line[400];
    exercise_judgement j;
    /* the model solution meets every goal */
    if (exercise_judge(l, x->solution, include_dir, cancel, &j, err, sizeof err)) {
        report(ud, err);
        return 1;
    }
    for (size_t i = 0; i < x->ngoals; i++) {
        if (j.marks[i].state == EXERCISE_MET) continue;
        lesson_where(l, x->goals[i].pos, w, sizeof w);
        exercise_goal_line(&x->goals[i], &j.marks[i], LESSON_EN, line, sizeof line);
        snprintf(msg, sizeof msg, "%sthe solution %s misses this goal (%s)%s%s", w, x->solution, line, j.error[0] ? ": " : "", j.error);
        report(ud, msg);
        bad++;
    }
    /* the starting file runs, and misses at least one */
    if (exercise_judge(l, x->start, include_dir, cancel, &j, err, sizeof err)) {
        report(ud, err);
        return bad + 1;
    }
    lesson_where(l, x->start_pos, w, sizeof w);
    if (j.error[0]) {
        snprintf(msg, sizeof msg, "%sthe starting file does not run: %s", w, j.error);
        report(ud, msg);
        bad++;
    } else if (j.met == x->ngoals) {
        snprintf(msg, sizeof msg, "%sthe starting file %s already meets every goal: there is nothing to do", w, x->start);
        report(ud, msg);
        bad++;
    }
    return bad;
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

void exercise_goal_line(const lesson_goal *g, const exercise_mark *m, lesson_lang lang, char *buf, size_t len)
{
    static const char *const bound_words[LESSON_LANGS][LESSON_BOUNDS] = {{"at most", "at least", ""}, {"至多", "至少", ""}};
    static const char *const yes_no[LESSON_LANGS][2] = {{"no", "yes"}, {"否", "是"}};
    char value[32] = "-";
    if (g->bound == LESSON_EQUALS && (g->limit == 0 || g->limit == 1) && (m->boolean || m->state == EXERCISE_NOT_RUN)) {
        /* a yes-or-no goal: "the sum is right: no (result 9344, reference 18498)"; equals 0 asks for no */
        const char *said = m->state == EXERCISE_NOT_RUN ? "-" : yes_no[lang][m->value != 0];
        snprintf(buf, len, lang == LESSON_ZH ? "%s：%s" : "%s: %s", g->say.s[lang], said);
        if (g->limit == 0) snprintf(buf + strlen(buf), len - strlen(buf), lang == LESSON_ZH ? "，目标 %s" : ", goal %s", yes_no[lang][0]);
        int max = strstr(query_text(g->value), "input_max()") != NULL;
        if (m->state == EXERCISE_NOT_MET && strstr(query_text(g->value), "result()"))
            snprintf(buf + strlen(buf), len - strlen(buf),
                     lang == LESSON_ZH ? (max ? "（结果 %.9g，最大元素 %.9g）" : "（结果 %.9g，参考值 %.9g）")
                                       : (max ? " (result %.9g, the largest element %.9g)" : " (result %.9g, reference %.9g)"),
                     m->result, m->wanted);
        return;
    }
    if (m->state != EXERCISE_NOT_RUN) snprintf(value, sizeof value, "%.10g", m->value);
    const char *b = bound_words[lang][g->bound];
    snprintf(buf, len, "%s%s%s%s%s%s%.10g", g->say.s[lang], lang == LESSON_ZH ? "：" : ": ", value, lang == LESSON_ZH ? "，目标" : ", goal ", b,
             lang == LESSON_ZH || !b[0] ? "" : " ", g->limit);
}
