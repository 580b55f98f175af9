/* session: see session.h. */
#include "app/viewer/session.h"

#include "trace/cards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ladder.h"

static const struct {
    const char *name;
    act_arg arg;
} act_info[ACT_COUNT] = {
    [ACT_NONE] = {"none", ARG_NONE},
#define ACT_X_INFO(id, name, arg) [id] = {name, arg},
    ACT_TABLE(ACT_X_INFO)
#undef ACT_X_INFO
};

const char *act_name(act_kind k) { return (unsigned)k < ACT_COUNT ? act_info[k].name : "?"; }

int act_parse(const char *text, action *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    const char *colon = strchr(text, ':');
    size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
    for (int k = 1; k < ACT_COUNT; k++) {
        if (strlen(act_info[k].name) != nlen || strncmp(act_info[k].name, text, nlen) != 0) continue;
        a->kind = (act_kind)k;
        const char *v = colon ? colon + 1 : "";
        if (act_info[k].arg == ARG_NONE && colon) break;
        if (act_info[k].arg == ARG_INT) {
            char *end;
            if (!*v) { snprintf(err, errlen, "action \"%s\" needs a number (%s:N)", text, act_info[k].name); return -1; }
            a->i = strtol(v, &end, 10);
            if (*end) { snprintf(err, errlen, "action \"%s\": \"%s\" is not a whole number", text, v); return -1; }
        }
        if (act_info[k].arg == ARG_STR) {
            if (strlen(v) >= sizeof a->s) { snprintf(err, errlen, "action \"%s\": value too long", text); return -1; }
            snprintf(a->s, sizeof a->s, "%s", v);
        }
        if (a->kind == ACT_CARD && v[0] && !card_find(v)) { snprintf(err, errlen, "action \"%s\": unknown card; the cards are %s", text, card_ids()); return -1; }
        return 0;
    }
    snprintf(err, errlen, "unknown action \"%s\" (actions: step:N, phase:N, seek-step:N, version:ID, compare:ID|next|off, ...)", text);
    return -1;
}

int session_init(session *s, const char *theme_dir, session_loader loader, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    static const char *const names[2] = {"light", "dark"};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.json", theme_dir, names[i]);
        if (theme_load(&s->themes[i], path, err, errlen)) return -1;
    }
    s->speed = 4.0;
    s->scale = 1.0;
    for (int i = 0; i < 2; i++) s->pane[i].selected = s->pane[i].warp = s->pane[i].slice = -1;
    s->status_id = STR_COUNT;
    s->loader = loader;
    s->mouse_x = s->mouse_y = -1;
    return 0;
}

static void pane_free(session_pane *p)
{
    if (!p->loaded) return;
    view_free(&p->m);
    trace_free(&p->t);
    p->loaded = 0;
}

void session_free(session *s)
{
    pane_free(&s->pane[0]);
    pane_free(&s->pane[1]);
}

int session_set_has(const session_set *s, size_t i) { return i < SESSION_ITEM_MAX && (s->bits[i / 8] >> (i % 8) & 1); }

void session_set_put(session_set *s, size_t i, int on)
{
    if (i >= SESSION_ITEM_MAX) return;
    if (on) s->bits[i / 8] |= (uint8_t)(1u << (i % 8));
    else s->bits[i / 8] &= (uint8_t)~(1u << (i % 8));
}

/* hit code -> (item kind, index) for picks: lanes, banks, shared words (tree nodes are words) */
static void pick(session *s, uint32_t hit)
{
    session_lesson *L = &s->lesson;
    static const int kinds[] = {[HIT_LANE] = SESSION_ITEM_LANES, [HIT_BANK] = SESSION_ITEM_BANKS, [HIT_CELL] = SESSION_ITEM_CELLS};
    static const session_ask asks[] = {[HIT_LANE] = ASK_LANES, [HIT_BANK] = ASK_BANKS, [HIT_CELL] = ASK_CELLS};
    int k = HIT_KIND(hit);
    if (k <= 0 || k > HIT_BANK || asks[k] != L->ask || L->state == ANSWER_RIGHT || L->state == ANSWER_REVEALED) return;
    size_t i = (size_t)HIT_INDEX(hit);
    session_set *set = &L->picked[kinds[k]];
    session_set_put(set, i, !session_set_has(set, i));
}

static void type(session *s, const char *text)
{
    session_lesson *L = &s->lesson;
    if (L->ask != ASK_NUMBER && L->ask != ASK_CHOICE) return;
    for (const char *p = text; *p; p++) {
        size_t n = strlen(L->typed);
        if (*p == '\b') { if (n) L->typed[n - 1] = '\0'; continue; }
        if (L->ask == ASK_CHOICE) { /* one letter: the option */
            if (*p >= 'a' && *p < 'a' + L->noptions) { L->typed[0] = *p; L->typed[1] = '\0'; }
            continue;
        }
        if ((*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == 'e') {
            if (n + 1 < sizeof L->typed) { L->typed[n] = *p; L->typed[n + 1] = '\0'; }
        }
    }
}

static void lesson_request(session *s, int kind, long arg)
{
    s->lesson.requests++;
    s->lesson.request_kind = kind;
    s->lesson.request_arg = arg;
}

int session_timeline_seek(const session *s, uint32_t hit, int bar_x, int bar_w, int x, action *a)
{
    const session_pane *p = &s->pane[HIT_PANE(hit)];
    if (HIT_KIND(hit) != HIT_TIMELINE || !p->loaded || !p->m.nsteps || bar_w <= 0) return 0;
    long st = (long)((double)(x - bar_x) / bar_w * (double)p->m.nsteps); /* the bar shows step k up to (k+1)/n */
    if (st < 0) st = 0;
    if (st >= (long)p->m.nsteps) st = (long)p->m.nsteps - 1;
    memset(a, 0, sizeof *a);
    a->kind = ACT_SEEK_STEP;
    a->i = st;
    return 1;
}

int session_press(const session *s, uint32_t hit, int item_x, int item_w, int x, action *a)
{
    memset(a, 0, sizeof *a);
    if (HIT_KIND(hit) == HIT_TIMELINE) return session_timeline_seek(s, hit, item_x, item_w, x, a) ? 2 : 0;
    if (s->lesson.active && s->lesson.ask >= ASK_LANES && s->lesson.ask <= ASK_CELLS && hit) {
        a->kind = ACT_PICK;
        a->i = hit;
        return 1;
    }
    if (s->overlay == OVERLAY_NONE && (HIT_KIND(hit) == HIT_CELL || HIT_KIND(hit) == HIT_LANE || HIT_KIND(hit) == HIT_BANK)) {
        a->kind = ACT_PIN; /* a finger does not hover: what it pressed on stays described */
        a->i = (long)hit;
        return 1;
    }
    if (session_grid_click(s, hit, a)) return 1;
    if (!s->focus) return 0;
    a->kind = ACT_PIN; /* a press elsewhere lets the pinned item go */
    a->i = 0;
    return 1;
}

/* The items the keys' cursor walks, in order: each shown pane's lanes (its threads), then its
 * shared words. */
typedef struct cursor_group {
    int kind, pane;
    int64_t n;
} cursor_group;

static int cursor_groups(const session *s, cursor_group g[4])
{
    int n = 0;
    for (int i = 0; i < 1 + !!s->compare; i++) {
        const session_pane *p = &s->pane[i];
        if (!p->loaded) continue;
        if (p->m.threads) g[n++] = (cursor_group){HIT_LANE, i, (int64_t)p->m.threads};
        if (p->m.nwords) g[n++] = (cursor_group){HIT_CELL, i, (int64_t)p->m.nwords};
    }
    return n;
}

/* the group a hit code is an item of, or -1 */
static int cursor_group_of(const cursor_group *g, int n, uint32_t hit)
{
    for (int k = 0; hit && k < n; k++)
        if (g[k].kind == HIT_KIND(hit) && g[k].pane == HIT_PANE(hit) && HIT_INDEX(hit) < g[k].n) return k;
    return -1;
}

static void cursor_move(session *s, long delta)
{
    cursor_group g[4];
    int n = cursor_groups(s, g), k = cursor_group_of(g, n, s->focus);
    if (!n || !delta) return;
    int64_t at;
    if (k < 0) { /* no cursor yet (or a bank pinned): the first item, or the last going back */
        k = delta > 0 ? 0 : n - 1;
        at = delta > 0 ? 0 : g[k].n - 1;
    } else {
        at = HIT_INDEX(s->focus) + delta;
        if (at >= g[k].n) { /* past a group's end: the next group's first item, or the last item there is */
            if (k + 1 < n) at = 0, k++;
            else at = g[k].n - 1;
        } else if (at < 0) {
            if (k > 0) k--, at = g[k].n - 1;
            else at = 0;
        }
    }
    s->focus = HIT_CODE(g[k].kind, g[k].pane, at);
    s->focus_keys = 1;
    s->tip_hover = 0;
}

static void pin(session *s, uint32_t hit)
{
    session_pane *p = &s->pane[HIT_PANE(hit)];
    int cell = HIT_KIND(hit) == HIT_CELL && p->loaded && HIT_INDEX(hit) < (int64_t)p->m.nwords;
    if (!hit || hit == s->focus) { /* elsewhere, or the pinned item again: it goes (a word's tree too) */
        if (hit && cell && p->selected == HIT_INDEX(hit)) p->selected = -1;
        s->focus = 0;
        return;
    }
    s->focus = hit;
    s->focus_keys = 0;
    s->tip_hover = 0;
    if (cell) p->selected = HIT_INDEX(hit);
}

/* after every action: a focus on an item that is gone goes too (pane 1 without compare, a word of
 * a version with fewer); the keys' cursor stays on the last item of its group instead */
static void focus_check(session *s)
{
    if (!s->focus) return;
    if (HIT_KIND(s->focus) == HIT_BANK) {
        if (!s->pane[HIT_PANE(s->focus)].loaded || (HIT_PANE(s->focus) && !s->compare)) s->focus = 0;
        return;
    }
    cursor_group g[4];
    int n = cursor_groups(s, g);
    if (cursor_group_of(g, n, s->focus) >= 0) return;
    for (int k = 0; k < n && s->focus_keys; k++)
        if (g[k].kind == HIT_KIND(s->focus) && g[k].pane == HIT_PANE(s->focus)) {
            s->focus = HIT_CODE(g[k].kind, g[k].pane, g[k].n - 1);
            return;
        }
    s->focus = 0;
}

const theme *session_theme(const session *s) { return &s->themes[s->theme_index & 1]; }

const char *session_next_version(const char *id)
{
    for (size_t i = 0; i < ladder_count; i++)
        if (!strcmp(ladder_versions[i].id, id)) return ladder_versions[(i + 1) % ladder_count].id;
    return ladder_versions[0].id;
}

static void status_raw(session *s, const char *msg)
{
    s->status_id = STR_COUNT;
    snprintf(s->status_text, sizeof s->status_text, "%s", msg);
}

static void status_str(session *s, str_id id, const char *arg)
{
    s->status_id = id;
    snprintf(s->status_text, sizeof s->status_text, "%s", arg ? arg : "");
}

/* The step that defines phase 1 (the first step of the tree), or 0. */
static size_t default_step(const view_model *m)
{
    long st = view_phase_defining(m, 1);
    return st >= 0 ? (size_t)st : 0;
}

int session_set_trace(session *s, int p, trace *t, char *err, size_t errlen)
{
    session_pane *sp = &s->pane[p];
    view_model m;
    if (view_build(&m, t, s->pass, s->block_index, s->fine, err, errlen)) return -1;
    pane_free(sp);
    sp->t = *t;
    trace_init(t); /* ownership moved */
    m.t = &sp->t;
    sp->m = m;
    sp->loaded = 1;
    sp->step = default_step(&sp->m);
    sp->selected = -1;
    sp->warp = sp->slice = -1;
    sp->serial++;
    s->generation++;
    return 0;
}

int session_open_block(session *s, unsigned pass, unsigned block, char *err, size_t errlen)
{
    view_model m[2];
    int n = 0;
    for (; n < 2; n++) { /* both or neither: a pane whose trace lacks the block keeps nothing half-built */
        session_pane *p = &s->pane[n];
        if (!p->loaded || (n == 1 && !s->compare)) continue;
        if (view_build(&m[n], &p->t, pass, block, s->fine, err, errlen)) {
            if (n == 1 && s->pane[0].loaded) view_free(&m[0]);
            return -1;
        }
    }
    for (int i = 0; i < 2; i++) {
        session_pane *p = &s->pane[i];
        if (!p->loaded || (i == 1 && !s->compare)) continue;
        view_free(&p->m);
        p->m = m[i];
        p->step = p->prev_step = default_step(&p->m);
        p->selected = -1;
        p->warp = p->slice = -1;
    }
    s->pass = pass;
    s->block_index = block;
    s->generation++;
    return 0;
}

/* "P/B", or "B" in the grid view's pass */
static void open_block(session *s, const char *arg)
{
    char *end;
    unsigned long a = strtoul(arg, &end, 10), pass = s->grid_pass, block = a;
    int bad = end == arg || *arg == '-';
    if (!bad && *end == '/') {
        const char *b = end + 1;
        pass = a;
        block = strtoul(b, &end, 10);
        bad = end == b || *b == '-';
    }
    char err[300];
    if (bad || *end || pass > UINT32_MAX || block > UINT32_MAX) {
        snprintf(err, sizeof err, "open-block: \"%s\" is not P/B or B (a pass and a block index)", arg);
        status_raw(s, err);
        return;
    }
    if (session_open_block(s, (unsigned)pass, (unsigned)block, err, sizeof err)) {
        status_raw(s, err);
        return;
    }
    s->overlay = OVERLAY_NONE;
}

int session_grid_click(const session *s, uint32_t hit, action *a)
{
    memset(a, 0, sizeof *a);
    if (s->overlay != OVERLAY_GRID) return 0;
    if (HIT_KIND(hit) == HIT_TILE) {
        a->kind = ACT_OPEN_BLOCK;
        snprintf(a->s, sizeof a->s, "%u/%lld", s->grid_pass, (long long)HIT_INDEX(hit));
        return 1;
    }
    if (HIT_KIND(hit) == HIT_PASS) {
        a->kind = ACT_GRID_PASS;
        a->i = (long)HIT_INDEX(hit) - (long)s->grid_pass;
        return 1;
    }
    return 0;
}

unsigned long session_grid_waves(const session *s)
{
    const session_pane *p = &s->pane[0];
    if (!p->loaded || s->grid_pass >= p->t.npasses) return 1;
    const card *c = s->card[0] ? card_find(s->card) : card_for_trace(&p->t, NULL);
    return (unsigned long)card_pass_waves(c, &p->t, s->grid_pass, NULL, NULL);
}

/* the wave moves by delta; past the last one the launch has ended (-1), and back from there is the last */
static void grid_wave(session *s, long delta)
{
    long n = (long)session_grid_waves(s), w = s->grid_wave == -1 ? n : s->grid_wave < 0 ? n - 1 : s->grid_wave;
    w += delta;
    if (w < 0) w = 0;
    s->grid_wave = w >= n ? -1 : w;
}

static void grid_pass(session *s, long delta)
{
    const session_pane *p = &s->pane[0];
    long n = p->loaded ? (long)p->t.npasses : 1, k = (long)s->grid_pass + delta;
    s->grid_pass = (unsigned)(k < 0 ? 0 : k >= n ? (n > 0 ? n - 1 : 0) : k);
    s->grid_wave = session_grid_waves(s) > 1 ? 0 : -1;
}

static int load_version(session *s, int p, const char *version)
{
    char err[512], note[512] = "";
    if (!s->loader.load) { status_raw(s, "this viewer shows a recorded trace: it cannot capture another version"); return -1; }
    if (!ladder_find(version) && strcmp(version, OWN_VERSION) != 0) { /* a kernel of one's own is captured again too */
        ladder_unknown(version, err, sizeof err);
        status_raw(s, err);
        return -1;
    }
    trace t;
    trace_init(&t);
    if (s->loader.load(s->loader.ctx, version, &s->brk, &t, note, sizeof note, err, sizeof err)) {
        trace_free(&t);
        status_raw(s, err);
        return -1;
    }
    if (session_set_trace(s, p, &t, err, sizeof err)) {
        /* a block opened from the grid view that this capture did not trace: back to block 0 of
         * pass 0 in every pane, and say so, rather than refuse the version */
        unsigned pass = s->pass, block = s->block_index;
        char was[48];
        s->pass = s->block_index = 0;
        if ((!pass && !block) || session_set_trace(s, p, &t, err, sizeof err) || session_open_block(s, 0, 0, err, sizeof err)) {
            s->pass = pass;
            s->block_index = block;
            trace_free(&t);
            status_raw(s, err);
            return -1;
        }
        snprintf(was, sizeof was, "%u/%u", pass, block);
        status_str(s, STR_GRID_FELL_BACK, was);
        return 0;
    }
    if (note[0]) status_raw(s, note);
    return 0;
}

static void clamp_step(session_pane *p, long st)
{
    if (!p->loaded || p->m.nsteps == 0) return;
    if (st < 0) st = 0;
    if (st >= (long)p->m.nsteps) st = (long)p->m.nsteps - 1;
    p->step = (size_t)st;
}

/* The role of a step, for stepping two versions side by side operation by operation. */
typedef enum step_role { ROLE_LOAD, ROLE_STORE, ROLE_BARRIER, ROLE_SHUFFLE, ROLE_OTHER } step_role;

static step_role role_of(const view_step *st)
{
    static const step_role roles[TRACE_KIND_COUNT] = {
        [TRACE_SHARED_LOAD] = ROLE_LOAD, [TRACE_GLOBAL_LOAD] = ROLE_LOAD, [TRACE_SHARED_STORE] = ROLE_STORE,
        [TRACE_GLOBAL_STORE] = ROLE_STORE, [TRACE_GLOBAL_ATOMIC] = ROLE_STORE, [TRACE_BARRIER] = ROLE_BARRIER,
        [TRACE_SHUFFLE] = ROLE_SHUFFLE, [TRACE_WARP_SYNC] = ROLE_BARRIER, [TRACE_FENCE] = ROLE_OTHER, [TRACE_EXIT] = ROLE_OTHER,
        [TRACE_REGISTER] = ROLE_OTHER};
    return (unsigned)st->kind < TRACE_KIND_COUNT ? roles[st->kind] : ROLE_OTHER;
}

/* Alone, one step. In compare, pane 0 moves one step and pane 1 to its next (or previous) step
 * of the same role, so both show the same kind of operation side by side. */
static void step_by(session *s, long delta)
{
    clamp_step(&s->pane[0], (long)s->pane[0].step + delta);
    if (!s->compare) return;
    session_pane *a = &s->pane[0], *b = &s->pane[1];
    if (!a->loaded || !b->loaded || !a->m.nsteps || !b->m.nsteps) return;
    if (delta > 1 || delta < -1) { clamp_step(b, (long)b->step + delta); return; }
    step_role want = role_of(&a->m.steps[a->step]);
    for (long k = (long)b->step + delta; k >= 0 && k < (long)b->m.nsteps; k += delta)
        if (role_of(&b->m.steps[k]) == want) { b->step = (size_t)k; return; }
}

/* Alone: to the step that defines the phase (its first shared access, shuffle or store into the
 * tree); in compare, both panes to the end of the same phase, where its work is done in both. */
static void seek_phase(session *s, long ph)
{
    for (int i = 0; i < 1 + s->compare; i++) {
        session_pane *p = &s->pane[i];
        if (!p->loaded || !p->m.nphases) continue;
        long q = ph < 0 ? 0 : ph >= (long)p->m.nphases ? (long)p->m.nphases - 1 : ph;
        long st = s->compare ? view_phase_last(&p->m, (unsigned)q) : view_phase_defining(&p->m, (unsigned)q);
        if (st >= 0) p->step = (size_t)st;
    }
}

static long current_phase(const session *s)
{
    const session_pane *p = &s->pane[0];
    return p->loaded && p->step < p->m.nsteps ? (long)p->m.steps[p->step].phase : 0;
}

/* W keeps the place: the new step is the one holding the event the old step began with. */
static void toggle_fine(session *s)
{
    s->fine = !s->fine;
    for (int i = 0; i < 2; i++) {
        session_pane *p = &s->pane[i];
        if (!p->loaded) continue;
        size_t ev = p->step < p->m.nsteps ? p->m.order[p->m.steps[p->step].first] : 0;
        view_model m;
        char err[256];
        if (view_build(&m, &p->t, s->pass, s->block_index, s->fine, err, sizeof err)) { status_raw(s, err); continue; }
        view_free(&p->m);
        p->m = m;
        p->step = ev < p->t.nevents && p->m.event_step[ev] != SIZE_MAX ? p->m.event_step[ev] : 0; /* the same event's step */
    }
    status_str(s, s->fine ? STR_FINE_ON : STR_FINE_OFF, NULL);
}

static void set_compare(session *s, const char *arg)
{
    if (!strcmp(arg, "off") || (!arg[0] && s->compare)) { s->compare = 0; return; }
    if (!s->pane[0].loaded) return;
    const char *v = !arg[0] || !strcmp(arg, "next") ? session_next_version(s->pane[0].t.prov.version) : arg;
    if (load_version(s, 1, v)) return;
    s->compare = 1;
    seek_phase(s, current_phase(s));
}

static void set_version(session *s, const char *id)
{
    long ph = current_phase(s);
    if (load_version(s, 0, id)) return;
    if (s->compare && !load_version(s, 1, session_next_version(s->pane[0].t.prov.version))) seek_phase(s, ph);
}

/* break-it: recapture what is shown with the new switches; if that fails, keep the old ones
 * (0: the new ones took) */
static int rebreak(session *s, session_break nb)
{
    session_break old = s->brk;
    s->brk = nb;
    char v0[16], v1[16];
    snprintf(v0, sizeof v0, "%s", s->pane[0].t.prov.version);
    snprintf(v1, sizeof v1, "%s", s->pane[1].t.prov.version);
    long ph = current_phase(s);
    if (!s->pane[0].loaded || load_version(s, 0, v0) || (s->compare && load_version(s, 1, v1))) {
        char why[sizeof s->status_text];
        snprintf(why, sizeof why, "%s", s->status_text);
        s->brk = old;
        if (s->pane[0].loaded) load_version(s, 0, v0);
        status_raw(s, why);
        return -1;
    }
    seek_phase(s, ph);
    return 0;
}

static void set_schedule(session *s, const char *name)
{
    static const char *const cycle[] = {"", "its:1", "adversarial"}; /* lockstep first */
    session_break nb = s->brk;
    if (name[0]) snprintf(nb.schedule, sizeof nb.schedule, "%s", strcmp(name, "lockstep") ? name : "");
    else {
        size_t k = 0;
        for (size_t i = 0; i < sizeof cycle / sizeof cycle[0]; i++)
            if (!strcmp(cycle[i], s->brk.schedule)) k = (i + 1) % (sizeof cycle / sizeof cycle[0]);
        snprintf(nb.schedule, sizeof nb.schedule, "%s", cycle[k]);
    }
    rebreak(s, nb);
}

static void drop_barrier(session *s, long line)
{
    session_break nb = s->brk;
    const session_pane *p = &s->pane[0];
    if (line < 0) { /* the barrier of the current step */
        if (!p->loaded || p->step >= p->m.nsteps || p->m.steps[p->step].kind != TRACE_BARRIER) {
            s->status_id = STR_DROP_NEEDS_BARRIER;
            s->status_text[0] = '\0';
            return;
        }
        line = (long)p->m.steps[p->step].line;
    }
    nb.drop_barrier = (unsigned)line;
    if (rebreak(s, nb)) return;
    char at[24];
    snprintf(at, sizeof at, "%ld", line);
    if (line) status_str(s, STR_DROPPED, at);
    else status_str(s, STR_UNDROPPED, NULL);
}

static void bench_size(session *s, long delta)
{
    uint64_t sizes[64];
    size_t n = s->results ? results_sizes(s->results, sizes, 64) : 0;
    long k = (long)s->bench_size + delta;
    if (k >= (long)n) k = (long)n - 1;
    if (k < 0) k = 0;
    s->bench_size = (size_t)k;
}

static void apply_one(session *s, const action *a);

/* applies a and records where a move started: a step forward moves (values travel, lanes
 * fade); anything else jumps */
static void apply_moving(session *s, const action *a)
{
    size_t was[2] = {s->pane[0].step, s->pane[1].step};
    const void *had[2] = {s->pane[0].t.events, s->pane[1].t.events};
    apply_one(s, a);
    int moved = 0;
    for (int i = 0; i < 2; i++) {
        session_pane *p = &s->pane[i];
        p->prev_step = p->step;
        if (p->loaded && p->t.events == had[i] && p->step > was[i]) { p->prev_step = was[i]; moved = 1; }
        if (a->kind == ACT_REPLAY && p->loaded && p->step > 0) { p->prev_step = p->step - 1; moved = 1; }
    }
    if (moved) s->motion_serial++;
}

/* every action but the mouse's moves: a tick while playing, the quit question's answer, or any other */
static void apply_action(session *s, const action *a)
{
    if (a->kind == ACT_TICK) { /* while playing: one step, stopping at the end */
        const session_pane *p0 = &s->pane[0];
        if (!s->playing) return;
        if (!p0->loaded || p0->step + 1 >= p0->m.nsteps) { s->playing = 0; return; }
        apply_moving(s, &(action){.kind = ACT_STEP, .i = 1});
        return;
    }
    /* the quit question: Esc or Q again quits; anything else keeps the lecture going */
    if (s->overlay == OVERLAY_QUIT) {
        s->overlay = OVERLAY_NONE;
        if (a->kind == ACT_ESCAPE || a->kind == ACT_QUIT) s->quit = 1;
        return;
    }
    s->status_id = STR_COUNT;
    s->status_text[0] = '\0';
    apply_moving(s, a);
}

void session_apply(session *s, const action *a)
{
    if (a->kind == ACT_HOVER) { /* the mouse moves all the time: nothing else is derived again */
        /* a mouse that moved takes the tooltip from the focus; one at rest under a picture that
         * changed (session_rest_hover) does not */
        int tip = s->tip_hover || (s->focus && (a->x != s->mouse_x || a->y != s->mouse_y));
        if (s->hover != (uint32_t)a->i || tip != s->tip_hover) s->hover_serial++;
        s->hover = (uint32_t)a->i;
        s->tip_hover = tip;
        s->mouse_x = a->x;
        s->mouse_y = a->y;
        return;
    }
    s->generation++;
    size_t was[2] = {s->pane[0].step, s->pane[1].step};
    unsigned serial[2] = {s->pane[0].serial, s->pane[1].serial};
    apply_action(s, a);
    /* a pinned item's details are about its step: they go when the step (or the trace) changes */
    for (int i = 0; i < 2 && s->focus && !s->focus_keys; i++)
        if (s->pane[i].step != was[i] || s->pane[i].serial != serial[i]) s->focus = 0;
    focus_check(s);
}

static void apply_one(session *s, const action *a)
{
    switch (a->kind) {
    case ACT_STEP: step_by(s, a->i); break;
    case ACT_PHASE: seek_phase(s, current_phase(s) + a->i); break;
    case ACT_FIRST: step_by(s, -(long)1e9); break;
    case ACT_LAST: step_by(s, (long)1e9); break;
    case ACT_SEEK_STEP:
        for (int i = 0; i < 1 + s->compare; i++) clamp_step(&s->pane[i], a->i);
        break;
    case ACT_SEEK_PHASE: seek_phase(s, a->i); break;
    case ACT_PLAY: s->playing = !s->playing; break;
    case ACT_SPEED:
        if (a->i > 0 && s->speed < 60) s->speed *= 1.5;
        if (a->i < 0 && s->speed > 0.25) s->speed /= 1.5;
        break;
    case ACT_VERSION: set_version(s, a->s); break;
    case ACT_COMPARE: set_compare(s, a->s); break;
    case ACT_FINE: toggle_fine(s); break;
    case ACT_SELECT: {
        session_pane *p = &s->pane[a->pane & 1];
        p->selected = p->selected == a->i ? -1 : a->i;
        break;
    }
    case ACT_PICTURE:
        s->picture = a->i < 0 ? (session_picture)((s->picture + 1) % PICTURE_COUNT)
                              : (session_picture)(a->i < PICTURE_COUNT ? a->i : PICTURE_AUTO);
        break;
    case ACT_WARP:
        for (int i = 0; i < 1 + s->compare; i++) {
            session_pane *p = &s->pane[i];
            if (!p->loaded || !p->m.nwarps) continue;
            long w = (p->warp < 0 ? 0 : p->warp) + (a->i > 0 ? 1 : -1);
            p->warp = (int)((w + (long)p->m.nwarps) % (long)p->m.nwarps);
        }
        break;
    case ACT_SLICE:
        for (int i = 0; i < 1 + s->compare; i++) {
            session_pane *p = &s->pane[i];
            p->slice = (p->slice < 0 ? 0 : p->slice) + (a->i > 0 ? 1 : -1);
            if (p->slice < 0) p->slice = 0;
        }
        break;
    case ACT_THEME: s->theme_index ^= 1; break;
    case ACT_SCALE:
        s->scale *= a->i > 0 ? 1.2 : 1 / 1.2;
        if (s->scale < 0.5) s->scale = 0.5;
        if (s->scale > 3.0) s->scale = 3.0;
        break;
    case ACT_PRESENTER: s->presenter = !s->presenter; break;
    case ACT_LANG: {
        int l = a->s[0] ? str_lang_parse(a->s) : (int)(s->lang == LANG_EN ? LANG_ZH : LANG_EN);
        if (l < 0) status_raw(s, "language must be en or zh");
        else s->lang = (str_lang)l;
        break;
    }
    case ACT_HELP: s->overlay = s->overlay == OVERLAY_HELP ? OVERLAY_NONE : OVERLAY_HELP; break;
    case ACT_BENCH:
        s->overlay = s->overlay == OVERLAY_BENCH ? OVERLAY_NONE : OVERLAY_BENCH;
        if (s->overlay == OVERLAY_BENCH && !s->results) status_str(s, STR_NO_RESULTS, NULL);
        break;
    case ACT_BENCH_SIZE: bench_size(s, a->i); break;
    case ACT_GRID:
        s->overlay = s->overlay == OVERLAY_GRID ? OVERLAY_NONE : OVERLAY_GRID;
        if (s->overlay == OVERLAY_GRID) {
            s->grid_pass = s->pass;
            /* a launch of several waves from its first (the card fills, then drains); one that
             * fits the card at once at its end, every partial sum in place */
            s->grid_wave = session_grid_waves(s) > 1 ? 0 : -1;
        }
        break;
    case ACT_PASSES: s->overlay = s->overlay == OVERLAY_PASSES ? OVERLAY_NONE : OVERLAY_PASSES; break;
    case ACT_GRID_PASS: grid_pass(s, a->i); break;
    case ACT_GRID_TIME: s->grid_wave = a->i > 0 ? 0 : -1; break;
    case ACT_GRID_WAVE: grid_wave(s, a->i); break;
    case ACT_TRACE_ALL: {
        session_break nb = s->brk;
        nb.blocks_traced = UINT32_MAX;
        if (s->brk.blocks_traced == UINT32_MAX) break; /* already */
        rebreak(s, nb);
        break;
    }
    case ACT_GRID_N: {
        session_break nb = s->brk;
        nb.n = s->brk.n ? 0 : SESSION_GRID_N;
        nb.blocks_traced = 0; /* every block of 4096 is a 40 MB trace: A asks for it */
        if (rebreak(s, nb) == 0 && s->overlay == OVERLAY_GRID) {
            s->grid_pass = 0;
            s->grid_wave = session_grid_waves(s) > 1 ? 0 : -1;
        }
        break;
    }
    case ACT_CARD:
        if (a->s[0] && !card_find(a->s)) {
            char err[300];
            snprintf(err, sizeof err, "card: unknown card \"%s\"; the cards are %s", a->s, card_ids());
            status_raw(s, err);
        } else {
            snprintf(s->card, sizeof s->card, "%s", a->s[0] ? card_find(a->s)->id : ""); /* its id: a long name would not fit */
        }
        break;
    case ACT_OPEN_BLOCK: open_block(s, a->s); break;
    case ACT_BENCH_GPU:
        if (s->results_set && s->results_set->count) {
            size_t k = 0, n = s->results_set->count;
            for (size_t i = 0; i < n; i++)
                if (&s->results_set->runs[i] == s->results) k = i;
            s->results = &s->results_set->runs[(k + n + (size_t)(a->i > 0 ? 1 : n - 1)) % n];
            if (!results_has_mode(s->results, (results_mode)s->bench_mode)) s->bench_mode = RESULTS_LAUNCH;
            bench_size(s, 0);
        }
        break;
    case ACT_BENCH_MODE:
        if (s->results && results_has_mode(s->results, (results_mode)((s->bench_mode + 1) % RESULTS_NMODES)))
            s->bench_mode = (s->bench_mode + 1) % RESULTS_NMODES;
        break;
    case ACT_FULLSCREEN: s->fullscreen_requests++; break;
    case ACT_SCREENSHOT: s->screenshot_requests++; break;
    case ACT_RECORD:
        if (!s->pane[0].loaded) break;
        s->recording = !s->recording;
        if (s->recording) {
            s->record_from = (long)s->pane[0].step;
            char at[32];
            snprintf(at, sizeof at, "%ld", s->record_from);
            status_str(s, STR_RECORDING, at);
        } else {
            s->export_requests++;
        }
        break;
    case ACT_ESCAPE: /* an overlay closes first, then a pinned item or the cursor goes: a clicker's Esc must not end the lecture */
        if (s->overlay != OVERLAY_NONE) s->overlay = OVERLAY_NONE;
        else if (s->focus) s->focus = 0;
        else s->overlay = OVERLAY_QUIT;
        break;
    case ACT_PIN: pin(s, (uint32_t)a->i); break;
    case ACT_CURSOR: cursor_move(s, a->i); break;
    case ACT_QUIT: s->overlay = OVERLAY_QUIT; break;
    case ACT_MOTION: s->no_motion = !s->no_motion; break;
    case ACT_SCHEDULE: set_schedule(s, a->s); break;
    case ACT_DROP: drop_barrier(s, a->i); break;
    case ACT_LESSON: if (s->lesson.active) lesson_request(s, ACT_LESSON, a->i); break;
    case ACT_PICK: if (s->lesson.active) pick(s, (uint32_t)a->i); break;
    case ACT_TYPE: if (s->lesson.active) type(s, a->s); break;
    case ACT_ANSWER:
        if (s->overlay == OVERLAY_MENU) lesson_request(s, ACT_MENU, s->lesson.menu_sel);
        else if (s->lesson.active && s->lesson.ask != ASK_NONE) lesson_request(s, ACT_ANSWER, 0);
        break;
    case ACT_REVEAL: if (s->lesson.active && s->lesson.ask != ASK_NONE) lesson_request(s, ACT_REVEAL, 0); break;
    case ACT_MENU:
        if (s->overlay != OVERLAY_MENU || !s->lesson.nmenu) break;
        if (a->i == 0) lesson_request(s, ACT_MENU, s->lesson.menu_sel);
        else s->lesson.menu_sel = (int)((s->lesson.menu_sel + a->i + s->lesson.nmenu) % s->lesson.nmenu);
        break;
    default: break;
    }
}

int session_asking(const session *s)
{
    const session_lesson *L = &s->lesson;
    return L->active && L->ask != ASK_NONE && (L->state == ANSWER_OPEN || L->state == ANSWER_WRONG);
}

int session_apply_script(session *s, const char *script, int (*after)(void *ctx, char *err, size_t errlen), void *ctx, char *err,
                         size_t errlen)
{
    for (const char *p = script; p && *p;) {
        size_t n = strcspn(p, ",");
        char one[64];
        if (n >= sizeof one) { snprintf(err, errlen, "action \"%.*s\" is too long", (int)n, p); return -1; }
        memcpy(one, p, n);
        one[n] = '\0';
        p += n + (p[n] == ',');
        if (!n) continue;
        action a;
        if (act_parse(one, &a, err, errlen)) return -1;
        session_apply(s, &a);
        if (after && after(ctx, err, errlen)) return -1;
    }
    return 0;
}

void session_set_results(session *s, const results_set *rs)
{
    s->results_set = rs && rs->count ? rs : NULL;
    s->results = s->results_set ? &rs->runs[0] : NULL;
    uint64_t sizes[64];
    size_t n = s->results ? results_sizes(s->results, sizes, 64) : 0;
    s->bench_size = n ? n - 1 : 0;
    s->generation++;
}

int session_rest_hover(session *s, uint32_t under)
{
    if (s->mouse_x < 0 || under == s->hover) return 0;
    action a = {.kind = ACT_HOVER, .i = under, .x = s->mouse_x, .y = s->mouse_y};
    session_apply(s, &a);
    return 1;
}
