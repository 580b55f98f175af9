/* player: see player.h. Captures are cached by their parameters for the life of the player, so
 * stepping back and forth through a lesson captures each picture once. */
#include "app/learn/player.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/cards.h"

struct player_capture {
    capture_desc d;
    unsigned pass, block;
    int fine;
    trace t;
    view_model m;
};

/* ---- captures ---- */

int player_same_capture(const capture_desc *a, const capture_desc *b)
{
    return strcmp(a->version, b->version) == 0 && a->block == b->block && a->n == b->n &&
           strcmp(a->data ? a->data : "", b->data ? b->data : "") == 0 && a->seed == b->seed && a->seed_set == b->seed_set &&
           a->ept == b->ept && a->blocks_traced == b->blocks_traced;
}

static player_capture *get_capture(player *p, const capture_desc *d, unsigned pass, unsigned block, int fine, char *err,
                                   size_t errlen)
{
    for (size_t i = 0; i < p->ncache; i++) {
        player_capture *c = p->cache[i];
        if (player_same_capture(&c->d, d) && c->pass == pass && c->block == block && c->fine == fine) return c;
    }
    player_capture **nc = realloc(p->cache, (p->ncache + 1) * sizeof *nc);
    if (!nc) { snprintf(err, errlen, "out of memory"); return NULL; }
    p->cache = nc;
    player_capture *c = calloc(1, sizeof *c);
    if (!c) { snprintf(err, errlen, "out of memory"); return NULL; }
    c->d = *d;
    c->pass = pass;
    c->block = block;
    c->fine = fine;
    trace_init(&c->t);
    char msg[300];
    capture_desc dd = *d;
    dd.cancel = p->o.cancel;
    if (capture_cpu(&dd, &c->t, msg, sizeof msg)) {
        snprintf(err, errlen, "capture of %s: %s", d->version, msg);
        trace_free(&c->t);
        free(c);
        return NULL;
    }
    if (pass >= c->t.npasses) {
        snprintf(err, errlen, "%s at n = %llu has %zu pass%s; pass %u does not exist", d->version,
                 (unsigned long long)c->t.prov.n, c->t.npasses, c->t.npasses == 1 ? "" : "es", pass);
        trace_free(&c->t);
        free(c);
        return NULL;
    }
    if (block >= c->t.passes[pass].grid) {
        snprintf(err, errlen, "pass %u of %s has %u block%s; block %u does not exist", pass, d->version, c->t.passes[pass].grid,
                 c->t.passes[pass].grid == 1 ? "" : "s", block);
        trace_free(&c->t);
        free(c);
        return NULL;
    }
    if (view_build(&c->m, &c->t, pass, block, fine, msg, sizeof msg)) {
        snprintf(err, errlen, "%s: %s", d->version, msg);
        trace_free(&c->t);
        free(c);
        return NULL;
    }
    p->cache[p->ncache++] = c;
    return c;
}

static void desc_of(const lesson_show *s, const char *version, capture_desc *d)
{
    memset(d, 0, sizeof *d);
    d->version = version;
    d->block = s->block;
    d->n = s->n;
    d->data = s->data[0] ? s->data : NULL;
    d->seed = s->seed;
    d->seed_set = s->seed_set;
    d->ept = s->ept;
    d->blocks_traced = s->view_block + 1;
}

/* ---- frames ---- */

static int build_frame(player *p, size_t index, player_frame *f, char *err, size_t errlen)
{
    const lesson_step *st = &p->l->steps[index];
    const lesson_show *s = &st->show;
    char where[600], msg[600];
    lesson_where(p->l, s->pos, where, sizeof where);
    memset(f, 0, sizeof *f);
    f->show = s;
    f->panels = s->panels;
    f->motion = s->motion;
    f->fine = s->fine;
    f->bench_n = s->bench_n;
    f->highlight = s->highlight;
    desc_of(s, s->version, &f->cap);
    player_capture *c = get_capture(p, &f->cap, s->pass, s->view_block, s->fine, msg, sizeof msg);
    if (!c) { snprintf(err, errlen, "%ssteps[%zu].show: %s", where, index, msg); return -1; }
    const view_model *m = &c->m;
    long at;
    if (s->step >= 0) {
        at = s->step;
        if ((size_t)at >= m->nsteps) {
            snprintf(err, errlen, "%ssteps[%zu].show.step %ld: %s has steps 0 to %zu here", where, index, at, s->version, m->nsteps - 1);
            return -1;
        }
    } else {
        long first = view_phase_first(m, (unsigned)s->phase), last = view_phase_last(m, (unsigned)s->phase);
        if (first < 0) {
            snprintf(err, errlen, "%ssteps[%zu].show.phase %ld: %s has phases 0 to %u here", where, index, s->phase, s->version,
                     m->nphases ? m->nphases - 1 : 0);
            return -1;
        }
        if (first + s->op > last) {
            snprintf(err, errlen, "%ssteps[%zu].show.op %ld: phase %ld of %s has operations 0 to %ld", where, index, s->op, s->phase,
                     s->version, last - first);
            return -1;
        }
        at = first + s->op;
    }
    f->trace = &c->t;
    f->view = m;
    f->step = (size_t)at;
    if (s->compare[0]) {
        desc_of(s, s->compare, &f->cap_compare);
        const ladder_version *lv = ladder_find(s->compare);
        if (lv && !lv->ept_tunable) f->cap_compare.ept = 0;
        f->cap_compare.blocks_traced = 1;
        player_capture *c2 = get_capture(p, &f->cap_compare, 0, 0, s->fine, msg, sizeof msg);
        if (!c2) { snprintf(err, errlen, "%ssteps[%zu].show.compare: %s", where, index, msg); return -1; }
        /* aligned: the same phase, the same operation of the phase, clamped to what it has */
        unsigned phase = m->steps[at].phase;
        long op = at - view_phase_first(m, phase);
        long first = view_phase_first(&c2->m, phase), last = view_phase_last(&c2->m, phase);
        f->compare_trace = &c2->t;
        f->compare_view = &c2->m;
        f->compare_step = first < 0 ? c2->m.nsteps - 1 : (size_t)(first + op > last ? last : first + op);
    }
    return 0;
}

static query_ctx ctx_of(const player *p, const player_frame *f)
{
    query_ctx c;
    memset(&c, 0, sizeof c);
    c.r = p->have_results ? &p->res : NULL;
    c.pane[0] = (query_pane){f->trace, f->view, f->step};
    c.card = f->show->card[0] ? f->show->card : NULL;
    if (f->compare_trace) c.pane[1] = (query_pane){f->compare_trace, f->compare_view, f->compare_step};
    c.r = p->have_results ? &p->res : NULL;
    return c;
}

/* The question's picture: the next step's (what the answer reveals) unless it says "this". */
static int build_ask_frame(player *p, size_t index, player_frame *f, char *err, size_t errlen)
{
    const lesson_ask *a = p->l->steps[index].ask;
    if (a->on_this) { *f = p->frame; return index == p->index ? 0 : build_frame(p, index, f, err, errlen); }
    if (index + 1 >= p->l->nsteps) {
        char where[600];
        lesson_where(p->l, a->pos, where, sizeof where);
        snprintf(err, errlen, "%ssteps[%zu].ask: the last step has no next picture to reveal; say \"on\": \"this\"", where, index);
        return -1;
    }
    return build_frame(p, index + 1, f, err, errlen);
}

static int eval_at(const player *p, const player_frame *f, const query *q, lesson_pos pos, const char *what, query_value *out,
                   char *err, size_t errlen)
{
    query_ctx c = ctx_of(p, f);
    char msg[400];
    if (query_eval(q, &c, out, msg, sizeof msg) == 0) return 0;
    char where[600];
    lesson_where(p->l, pos, where, sizeof where);
    snprintf(err, errlen, "%s%s: %s: %s", where, what, query_text(q), msg);
    return -1;
}

/* ---- text ---- */

static int fill_text(const player *p, const player_frame *f, const lesson_text *t, lesson_lang lang, char *buf, size_t len,
                     char *err, size_t errlen)
{
    const char *s = t->s[lang];
    size_t used = 0, at = 0;
    if (!len) return -1;
    buf[0] = '\0';
    if (!s) return 0;
    query_value *v = malloc(sizeof *v);
    if (!v) { snprintf(err, errlen, "out of memory"); return -1; }
    for (size_t h = 0; h <= t->nholes[lang]; h++) {
        size_t end = h < t->nholes[lang] ? t->holes[lang][h].start : strlen(s);
        /* the literal part, with {{ and }} made single */
        for (size_t i = at; i < end && used + 1 < len; i++) {
            buf[used++] = s[i];
            if ((s[i] == '{' || s[i] == '}') && i + 1 < end && s[i + 1] == s[i]) i++;
        }
        buf[used] = '\0';
        if (h == t->nholes[lang]) break;
        const lesson_hole *hole = &t->holes[lang][h];
        char num[256];
        if (eval_at(p, f, hole->q, hole->pos, "placeholder", v, err, errlen)) { free(v); return -1; }
        query_format(v, hole->fmt, num, sizeof num);
        int w = snprintf(buf + used, len - used, "%s", num);
        used += w > 0 ? (size_t)w : 0;
        if (used >= len) used = len - 1;
        at = hole->end;
    }
    free(v);
    return 0;
}

int player_text(player *p, player_text_kind which, size_t option, lesson_lang lang, char *buf, size_t len, char *err,
                size_t errlen)
{
    const lesson_step *st = &p->l->steps[p->index];
    if (which == PLAYER_TEXT_SAY) return fill_text(p, &p->frame, &st->say, lang, buf, len, err, errlen);
    if (!st->ask) { snprintf(err, errlen, "this step asks nothing"); return -1; }
    const lesson_text *t = which == PLAYER_TEXT_PROMPT ? &st->ask->prompt : which == PLAYER_TEXT_EXPLAIN ? &st->ask->explain : NULL;
    if (which == PLAYER_TEXT_OPTION) {
        if (option >= st->ask->noptions) { snprintf(err, errlen, "option %zu does not exist", option); return -1; }
        t = &st->ask->options[option].text;
    }
    return fill_text(p, &p->ask_frame, t, lang, buf, len, err, errlen);
}

/* ---- moving ---- */

int player_goto(player *p, size_t index, char *err, size_t errlen)
{
    if (index >= p->l->nsteps) { snprintf(err, errlen, "step %zu: the lesson has %zu steps", index, p->l->nsteps); return -1; }
    player_frame f;
    if (build_frame(p, index, &f, err, errlen)) return -1;
    p->index = index;
    p->frame = f;
    memset(&p->fb, 0, sizeof p->fb);
    const lesson_ask *a = p->l->steps[index].ask;
    p->state = PLAYER_SHOWING;
    if (a) {
        if (build_ask_frame(p, index, &p->ask_frame, err, errlen)) return -1;
        p->state = p->o.progress && progress_solved(p->o.progress, index) ? PLAYER_CORRECT : PLAYER_ASKING;
    }
    if (p->o.progress) {
        p->o.progress->step = index;
        p->o.progress->nsteps = p->l->nsteps;
        if (index + 1 == p->l->nsteps) p->o.progress->done = 1;
    }
    return 0;
}

player_move player_next(player *p, char *err, size_t errlen)
{
    if (p->o.strict && (p->state == PLAYER_ASKING || p->state == PLAYER_WRONG)) return PLAYER_NEEDS_ANSWER;
    if (p->index + 1 >= p->l->nsteps) return PLAYER_AT_END;
    return player_goto(p, p->index + 1, err, errlen) ? PLAYER_FAILED : PLAYER_MOVED;
}

player_move player_back(player *p, char *err, size_t errlen)
{
    if (p->index == 0) return PLAYER_AT_START;
    return player_goto(p, p->index - 1, err, errlen) ? PLAYER_FAILED : PLAYER_MOVED;
}

int player_open(player *p, const lesson *l, const player_opts *o, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->l = l;
    if (o) p->o = *o;
    if (l->results[0]) {
        char msg[600], where[600];
        if (results_read_file(&p->res, l->results, msg, sizeof msg)) {
            lesson_where(l, l->results_pos, where, sizeof where);
            snprintf(err, errlen, "%sresults: %s", where, msg);
            return -1;
        }
        p->have_results = 1;
    }
    size_t start = p->o.progress && p->o.progress->step < l->nsteps ? p->o.progress->step : 0;
    if (player_goto(p, start, err, errlen)) {
        player_close(p);
        return -1;
    }
    return 0;
}

void player_close(player *p)
{
    for (size_t i = 0; i < p->ncache; i++) {
        view_free(&p->cache[i]->m);
        trace_free(&p->cache[i]->t);
        free(p->cache[i]);
    }
    free(p->cache);
    if (p->have_results) results_free(&p->res);
    memset(p, 0, sizeof *p);
}

size_t player_index(const player *p) { return p->index; }
size_t player_count(const player *p) { return p->l->nsteps; }
const player_frame *player_current(const player *p) { return &p->frame; }
player_state player_status(const player *p) { return p->state; }
const lesson_ask *player_question(const player *p) { return p->l->steps[p->index].ask; }
const player_frame *player_question_frame(const player *p) { return &p->ask_frame; }
const player_feedback *player_last_feedback(const player *p) { return &p->fb; }

/* ---- answers ---- */

static const lesson_item pick_item[LESSON_ASK_KINDS] = {
    [LESSON_ASK_LANES] = LESSON_ITEM_LANES, [LESSON_ASK_BANKS] = LESSON_ITEM_BANKS, [LESSON_ASK_CELLS] = LESSON_ITEM_CELLS,
};

/* the answer, typed by the question's kind; for a choice, the set of correct options */
static int expected(const player *p, size_t index, const player_frame *f, query_value *out, char *err, size_t errlen)
{
    const lesson_ask *a = p->l->steps[index].ask;
    char what[64];
    snprintf(what, sizeof what, "steps[%zu].ask.answer", index);
    if (a->kind == LESSON_ASK_CHOICE) {
        query_value *v = malloc(sizeof *v);
        if (!v) { snprintf(err, errlen, "out of memory"); return -1; }
        query_set_clear(out);
        int rc = 0;
        if (a->answer) {
            rc = eval_at(p, f, a->answer, a->answer_pos, what, v, err, errlen);
            if (!rc && (v->type != QUERY_NUMBER || v->num != floor(v->num) || v->num < 0 || v->num >= (double)a->noptions)) {
                char where[600];
                lesson_where(p->l, a->answer_pos, where, sizeof where);
                snprintf(err, errlen, "%s%s: %s must give an option index from 0 to %zu", where, what, query_text(a->answer), a->noptions - 1);
                rc = -1;
            }
            if (!rc) query_set_add(out, (size_t)v->num);
        } else {
            for (size_t i = 0; i < a->noptions && !rc; i++) {
                snprintf(what, sizeof what, "steps[%zu].ask.options[%zu].correct", index, i);
                rc = eval_at(p, f, a->options[i].correct, a->options[i].pos, what, v, err, errlen);
                if (!rc && v->type != QUERY_BOOL) {
                    char where[600];
                    lesson_where(p->l, a->options[i].pos, where, sizeof where);
                    snprintf(err, errlen, "%s%s: %s must be true or false (a comparison)", where, what, query_text(a->options[i].correct));
                    rc = -1;
                }
                if (!rc && v->num != 0) query_set_add(out, i);
            }
            if (!rc && out->count == 0) {
                char where[600];
                lesson_where(p->l, a->pos, where, sizeof where);
                snprintf(err, errlen, "%ssteps[%zu].ask: no option is correct on this trace", where, index);
                rc = -1;
            }
        }
        free(v);
        return rc;
    }
    if (eval_at(p, f, a->answer, a->answer_pos, what, out, err, errlen)) return -1;
    int want_set = a->kind != LESSON_ASK_NUMBER;
    if ((out->type == QUERY_SET) != want_set || (!want_set && out->type != QUERY_NUMBER)) {
        char where[600];
        lesson_where(p->l, a->answer_pos, where, sizeof where);
        snprintf(err, errlen, "%s%s: %s gives %s, but a %s question needs %s", where, what, query_text(a->answer),
                 out->type == QUERY_SET ? "a set" : out->type == QUERY_BOOL ? "true/false" : "a number", lesson_ask_keys[a->kind],
                 want_set ? "a set (active_lanes(), conflict_banks() ...)" : "a number");
        return -1;
    }
    return 0;
}

int player_expected(player *p, query_value *out, char *err, size_t errlen)
{
    if (!player_question(p)) { snprintf(err, errlen, "this step asks nothing"); return -1; }
    return expected(p, p->index, &p->ask_frame, out, err, errlen);
}

/* the current question, if it is of this kind (LESSON_ASK_KINDS: any pick question) */
static const lesson_ask *open_question(player *p, lesson_ask_kind kind, char *err, size_t errlen)
{
    const lesson_ask *a = player_question(p);
    if (!a) { snprintf(err, errlen, "this step asks nothing"); return NULL; }
    int ok = kind == LESSON_ASK_KINDS ? a->kind <= LESSON_ASK_CELLS : a->kind == kind;
    if (!ok) {
        snprintf(err, errlen, "the question is %s, not %s", lesson_ask_keys[a->kind], kind == LESSON_ASK_KINDS ? "a pick" : lesson_ask_keys[kind]);
        return NULL;
    }
    return a;
}

static int finish(player *p, int correct, char *err, size_t errlen)
{
    const lesson_ask *a = player_question(p);
    p->fb.correct = correct;
    p->fb.tries++;
    p->fb.explain = &a->explain; /* right, wrong or revealed: why the answer is the answer */
    for (int k = 0; k < LESSON_ITEM_COUNT; k++) {
        query_set_clear(&p->fb.reveal[k]);
        if (!correct && a->reveal[k]) {
            char what[64];
            snprintf(what, sizeof what, "ask.reveal.%s", lesson_item_keys[k]);
            if (eval_at(p, &p->ask_frame, a->reveal[k], a->reveal_pos[k], what, &p->fb.reveal[k], err, errlen)) return -1;
        }
    }
    if (p->state != PLAYER_CORRECT) p->state = correct ? PLAYER_CORRECT : PLAYER_WRONG;
    if (p->o.progress) {
        if (correct) { p->o.progress->right++; progress_set_solved(p->o.progress, p->index); }
        else p->o.progress->wrong++;
    }
    return correct;
}

int player_answer_pick(player *p, const unsigned *items, size_t n, char *err, size_t errlen)
{
    const lesson_ask *a = open_question(p, LESSON_ASK_KINDS, err, errlen);
    if (!a) return -1;
    if (expected(p, p->index, &p->ask_frame, &p->fb.answer, err, errlen)) return -1;
    p->fb.item = pick_item[a->kind];
    query_value *given = malloc(sizeof *given);
    if (!given) { snprintf(err, errlen, "out of memory"); return -1; }
    query_set_clear(given);
    for (size_t i = 0; i < n; i++) query_set_add(given, items[i]);
    query_set_clear(&p->fb.missed);
    query_set_clear(&p->fb.wrong);
    for (size_t i = 0; i < QUERY_SET_MAX; i++) {
        int want = query_set_has(&p->fb.answer, i), got = query_set_has(given, i);
        if (want && !got) query_set_add(&p->fb.missed, i);
        if (got && !want) query_set_add(&p->fb.wrong, i);
    }
    free(given);
    return finish(p, p->fb.missed.count == 0 && p->fb.wrong.count == 0, err, errlen);
}

int player_answer_number(player *p, double x, char *err, size_t errlen)
{
    const lesson_ask *a = open_question(p, LESSON_ASK_NUMBER, err, errlen);
    if (!a) return -1;
    if (expected(p, p->index, &p->ask_frame, &p->fb.answer, err, errlen)) return -1;
    double want = p->fb.answer.num, tol = a->relative ? a->tolerance * fabs(want) : a->tolerance;
    p->fb.given = x;
    query_set_clear(&p->fb.missed);
    query_set_clear(&p->fb.wrong);
    /* a hair of slack so 0.1 + 0.2 style rounding never fails an exact answer */
    return finish(p, isfinite(x) && fabs(x - want) <= tol + 1e-9 * fmax(1.0, fabs(want)), err, errlen);
}

int player_answer_choice(player *p, size_t option, char *err, size_t errlen)
{
    const lesson_ask *a = open_question(p, LESSON_ASK_CHOICE, err, errlen);
    if (!a) return -1;
    if (option >= a->noptions) { snprintf(err, errlen, "option %zu does not exist (0 to %zu)", option, a->noptions - 1); return -1; }
    if (expected(p, p->index, &p->ask_frame, &p->fb.answer, err, errlen)) return -1;
    p->fb.given = (double)option;
    query_set_clear(&p->fb.missed);
    query_set_clear(&p->fb.wrong);
    int correct = query_set_has(&p->fb.answer, option);
    if (!correct) query_set_add(&p->fb.wrong, option);
    return finish(p, correct, err, errlen);
}

int player_reveal(player *p, char *err, size_t errlen)
{
    const lesson_ask *a = player_question(p);
    if (!a) { snprintf(err, errlen, "this step asks nothing"); return -1; }
    if (expected(p, p->index, &p->ask_frame, &p->fb.answer, err, errlen)) return -1;
    if (a->kind <= LESSON_ASK_CELLS) p->fb.item = pick_item[a->kind];
    p->fb.explain = &a->explain;
    for (int k = 0; k < LESSON_ITEM_COUNT; k++) {
        query_set_clear(&p->fb.reveal[k]);
        if (a->reveal[k] && eval_at(p, &p->ask_frame, a->reveal[k], a->reveal_pos[k], "ask.reveal", &p->fb.reveal[k], err, errlen))
            return -1;
    }
    if (p->state != PLAYER_CORRECT) p->state = PLAYER_REVEALED;
    return 0;
}

/* ---- check ---- */

typedef struct checker {
    player_report_fn report;
    void *ud;
    size_t errors;
} checker;

static void say(checker *c, const char *msg)
{
    c->errors++;
    c->report(c->ud, msg);
}

static void check_text(checker *c, player *p, const player_frame *f, const lesson_text *t)
{
    char buf[4096], err[1200];
    for (int k = 0; k < LESSON_LANGS; k++)
        if (fill_text(p, f, t, (lesson_lang)k, buf, sizeof buf, err, sizeof err)) say(c, err);
}

static void check_highlights(checker *c, const player *p, size_t index, const player_frame *f)
{
    const view_model *m = f->view;
    const size_t limit[LESSON_ITEM_COUNT] = {
        [LESSON_ITEM_LANES] = m->threads, [LESSON_ITEM_BANKS] = BANKS, [LESSON_ITEM_CELLS] = m->nwords,
        [LESSON_ITEM_LINES] = QUERY_SET_MAX, [LESSON_ITEM_NODES] = m->nwords,
    };
    for (int k = 0; k < LESSON_ITEM_COUNT; k++)
        for (size_t i = 0; i < f->highlight[k].n; i++) {
            unsigned v = f->highlight[k].v[i];
            if (v < limit[k] && (k != LESSON_ITEM_LINES || v >= 1)) continue;
            char where[600], msg[1000];
            lesson_where(p->l, f->show->pos, where, sizeof where);
            snprintf(msg, sizeof msg, "%ssteps[%zu].show.highlight.%s: %u is out of range (%s: %zu %s)", where, index,
                     lesson_item_keys[k], v, f->show->version, limit[k], lesson_item_keys[k]);
            say(c, msg);
        }
}

/* A wave the grid shows must be one of the launch's on the step's card ("last" and "end" always are). */
static void check_wave(checker *c, const player *p, size_t index, const player_frame *f)
{
    const lesson_show *sh = f->show;
    if (!(sh->panels & (1u << LESSON_PANEL_GRID)) || sh->wave < 0 || !f->trace) return;
    const card *cd = sh->card[0] ? card_find(sh->card) : card_for_trace(f->trace, NULL);
    uint64_t waves = card_pass_waves(cd, f->trace, sh->pass, NULL, NULL);
    if ((uint64_t)sh->wave < waves) return;
    char where[600], msg[900];
    lesson_where(p->l, sh->pos, where, sizeof where);
    snprintf(msg, sizeof msg, "%ssteps[%zu].show.wave: wave %ld, but the launch runs in %llu on the %s (from 0; \"last\" is its last)", where,
             index, sh->wave, (unsigned long long)waves, cd ? cd->id : "card");
    say(c, msg);
}

size_t player_check(const lesson *l, volatile int *cancel, player_report_fn report, void *ud)
{
    checker c = {report, ud, 0};
    player p;
    memset(&p, 0, sizeof p);
    p.l = l;
    p.o.cancel = cancel;
    char err[1200];
    if (l->results[0]) {
        char msg[500], where[600];
        if (results_read_file(&p.res, l->results, msg, sizeof msg)) {
            lesson_where(l, l->results_pos, where, sizeof where);
            snprintf(err, sizeof err, "%sresults: %s", where, msg);
            say(&c, err);
        } else {
            p.have_results = 1;
        }
    }
    query_value *v = malloc(sizeof *v);
    if (!v) { say(&c, "out of memory"); return c.errors; }
    for (size_t i = 0; i < l->nsteps && !(cancel && *cancel); i++) {
        const lesson_step *st = &l->steps[i];
        if (build_frame(&p, i, &p.frame, err, sizeof err)) { say(&c, err); continue; }
        p.index = i;
        check_highlights(&c, &p, i, &p.frame);
        check_wave(&c, &p, i, &p.frame);
        check_text(&c, &p, &p.frame, &st->say);
        if (!st->ask) continue;
        const lesson_ask *a = st->ask;
        if (build_ask_frame(&p, i, &p.ask_frame, err, sizeof err)) { say(&c, err); continue; }
        if (expected(&p, i, &p.ask_frame, v, err, sizeof err)) say(&c, err);
        check_text(&c, &p, &p.ask_frame, &a->prompt);
        check_text(&c, &p, &p.ask_frame, &a->explain);
        for (size_t o = 0; o < a->noptions; o++) check_text(&c, &p, &p.ask_frame, &a->options[o].text);
        for (int k = 0; k < LESSON_ITEM_COUNT; k++) {
            if (!a->reveal[k]) continue;
            if (eval_at(&p, &p.ask_frame, a->reveal[k], a->reveal_pos[k], "ask.reveal", v, err, sizeof err)) say(&c, err);
            else if (v->type != QUERY_SET) {
                char where[600];
                lesson_where(l, a->reveal_pos[k], where, sizeof where);
                snprintf(err, sizeof err, "%ssteps[%zu].ask.reveal.%s: %s must give a set", where, i, lesson_item_keys[k], query_text(a->reveal[k]));
                say(&c, err);
            }
        }
    }
    free(v);
    player_close(&p);
    return c.errors;
}
