/* scene: see scene.h. */
#include "app/viewer/scene.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ladder.h"

void scene_init(scene *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->generation = UINT64_MAX;
}

static void pane_free(scene_pane *p)
{
    free(p->lanes);
    free(p->cells);
    free(p->written);
    free(p->touched);
    free(p->tree);
    free(p->loads);
    memset(p, 0, sizeof *p);
}

static void grid_free(scene_grid *g);

void scene_free(scene *sc)
{
    for (int i = 0; i < 2; i++) {
        pane_free(&sc->pane[i]);
        pane_free(&sc->prev[i]);
    }
    grid_free(&sc->grid);
}

static int reserve(scene_pane *p, size_t threads, size_t words)
{
    if (threads > p->cap_threads) {
        unsigned char *l = realloc(p->lanes, threads);
        if (!l) return -1;
        p->lanes = l;
        p->cap_threads = threads;
    }
    if (words > p->cap_words || !p->cells) {
        size_t w = words ? words : 1;
        float *c = realloc(p->cells, w * sizeof *c);
        if (c) p->cells = c;
        unsigned char *a = realloc(p->written, w), *b = a ? realloc(p->touched, w) : NULL, *d = b ? realloc(p->tree, w) : NULL;
        if (a) p->written = a;
        if (b) p->touched = b;
        if (d) p->tree = d;
        if (!c || !a || !b || !d) return -1;
        p->cap_words = w;
    }
    return 0;
}

/* the step's shared accesses: which words are read and written, and the worst bank conflict */
static void step_accesses(scene_pane *p)
{
    const view_model *m = p->m;
    memset(p->touched, 0, m->nwords ? m->nwords : 1);
    memset(p->banks, 0, sizeof p->banks);
    p->worst_event = p->bank_event = -1;
    p->worst_degree = 0;
    if (!p->st) return;
    for (size_t i = 0; i < p->st->count; i++) {
        size_t ei = m->order[p->st->first + i];
        const trace_event *e = &m->t->events[ei];
        if (e->kind != TRACE_SHARED_LOAD && e->kind != TRACE_SHARED_STORE) continue;
        int n = trace_popcount(e->mask);
        for (int j = 0; j < n; j++) {
            int64_t wd = m->t->lane_addr[e->lanes + (size_t)j];
            if (wd >= 0 && (size_t)wd < m->nwords) p->touched[wd] = e->kind == TRACE_SHARED_STORE ? 2 : 1;
        }
    }
    p->worst_event = (int)view_worst_shared(m, p->step, -1);
    if (p->worst_event >= 0) p->worst_degree = m->facts[p->worst_event].bank_degree;
    /* a warp picked by the user: its worst shared access in the step */
    p->bank_event = p->bank_warp >= 0 ? (int)view_worst_shared(m, p->step, p->bank_warp) : p->worst_event;
    if (p->bank_event < 0) return;
    p->worst_degree = m->facts[p->bank_event].bank_degree;
    /* per bank, the distinct words the access asks of it: each is one wavefront */
    analysis_banks(m->t, &m->t->events[p->bank_event], p->banks);
}

/* the step's global accesses, lane by lane, and each warp request's sectors */
static int step_loads(scene_pane *p)
{
    const view_model *m = p->m;
    p->nloads = 0;
    p->nsectors = 0;
    p->load_lo = INT64_MAX;
    p->load_hi = -1;
    for (size_t i = 0; p->st && i < p->st->count; i++) {
        size_t ei = m->order[p->st->first + i];
        const trace_event *e = &m->t->events[ei];
        if (e->kind != TRACE_GLOBAL_LOAD && e->kind != TRACE_GLOBAL_STORE && e->kind != TRACE_GLOBAL_ATOMIC) continue;
        if (p->nsectors < (int)(sizeof p->sectors / sizeof p->sectors[0]))
            p->sectors[p->nsectors++] = (scene_sectors){e->warp, m->facts[ei].sectors, m->facts[ei].sectors_min};
        unsigned width = trace_event_width(e);
        for (int j = 0, l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            if (p->nloads == p->cap_loads) {
                size_t cap = p->cap_loads ? p->cap_loads * 2 : 1024;
                scene_load *q = realloc(p->loads, cap * sizeof *q);
                if (!q) return -1;
                p->loads = q;
                p->cap_loads = cap;
            }
            int64_t a = m->t->lane_addr[e->lanes + (size_t)j++];
            p->loads[p->nloads++] = (scene_load){e->warp, (unsigned)l, a, width};
            if (a < p->load_lo) p->load_lo = a;
            if (a + width - 1 > p->load_hi) p->load_hi = a + (int64_t)width - 1;
        }
    }
    return 0;
}

/* the word the tree's window should hold: the slice the user moved to, the selected word, the
 * first word this step adds into, or the tree's lowest word (a trace's shared words need not start
 * at 0: GPU traces recorded before warpscope numbered them from a kernel's first word did not) */
static void tree_focus(scene_pane *p, const session_pane *sp)
{
    const view_model *m = p->m;
    p->slice = sp->slice;
    int64_t focus = -1, lowest = -1;
    if (p->selected >= 0) focus = p->selected;
    for (size_t i = 0; focus < 0 && i < m->nnodes; i++)
        if (m->nodes[i].step == p->step) focus = m->nodes[i].word;
    for (size_t i = 0; focus < 0 && i < m->nnodes; i++)
        if (lowest < 0 || m->nodes[i].word < lowest) lowest = m->nodes[i].word;
    p->tree_focus = focus >= 0 ? focus : lowest > 0 ? lowest : 0;
}

/* what the top picture shows at this step, when the user has not pinned one: the step's own
 * kind of memory first, then the tree, then the shuffles */
/* the block's races: the lines they join (for the source) and the ones of this step */
static void hazards(scene_pane *p)
{
    const view_model *m = p->m;
    const trace *t = m->t;
    p->hz_count = 0;
    p->hz_nlines = p->hz_nstep = 0;
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        if (h->pass != m->pass || (h->first.block != m->block && h->second.block != m->block)) continue;
        p->hz_count++;
        unsigned lines[2] = {h->first.line, h->second.line};
        for (int k = 0; k < 2; k++) {
            int seen = 0;
            for (int j = 0; j < p->hz_nlines; j++) seen |= p->hz_lines[j] == lines[k];
            if (!seen && p->hz_nlines < (int)(sizeof p->hz_lines / sizeof p->hz_lines[0])) p->hz_lines[p->hz_nlines++] = lines[k];
        }
        for (size_t k = 0; p->st && k < p->st->count; k++) {
            int64_t ev = (int64_t)m->order[p->st->first + k];
            if ((h->first.event == ev || h->second.event == ev) && p->hz_nstep < 4) { p->hz_step[p->hz_nstep++] = i; break; }
        }
    }
    /* the capture's own tolerance (capture_tolerance, carried in the trace); an older trace without
     * one is not judged */
    p->wrong_result = trace_result_ok(t) == 0;
    p->racing_result = trace_result_verdict(t) == TRACE_RACING;
}

static session_picture pick_picture(const scene_pane *p, session_picture pinned)
{
    if (pinned != PICTURE_AUTO) return pinned;
    int kind = p->st ? p->st->kind : -1;
    if (kind == TRACE_GLOBAL_LOAD || kind == TRACE_GLOBAL_STORE || kind == TRACE_GLOBAL_ATOMIC) return PICTURE_LOADS;
    if (kind == TRACE_SHUFFLE) return PICTURE_SHUFFLE;
    if (p->m->nnodes) return PICTURE_TREE;
    if (p->m->nshfl) return PICTURE_SHUFFLE;
    return PICTURE_LOADS;
}

/* The register's name: the variable its first assignment writes, on that line of the source
 * (`float mySum = ...`, `sum += ...`; the front end picks which variable is watched), or "reg". */
static void reg_name(const char *src, unsigned line, char *out, size_t len)
{
    snprintf(out, len, "reg");
    const char *l = src;
    for (unsigned k = 1; l && k < line; k++) {
        l = strchr(l, '\n');
        if (l) l++;
    }
    if (!l || !line) return;
    const char *eol = strchr(l, '\n');
    if (!eol) eol = l + strlen(l);
    for (const char *c = l; c < eol; c++) {
        /* the first lone '=' (not ==, <=, >=, !=): an assignment, perhaps compound (+=, *=) */
        if (*c != '=' || c[1] == '=' || (c > l && strchr("=<>!", c[-1]))) continue;
        const char *e = c;
        if (e > l && strchr("+-*/", e[-1])) e--;
        while (e > l && e[-1] == ' ') e--;
        const char *q = e;
        while (q > l && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) q--;
        if (e > q && !isdigit((unsigned char)*q)) snprintf(out, len, "%.*s", (int)(e - q), q);
        return;
    }
}

/* the watched register of the warp the picture shows (the picked warp, the shuffling warp, or
 * the warp of the step's first access) */
static void registers(scene_pane *p, const session_pane *sp)
{
    const view_model *m = p->m;
    p->has_regs = m->nregs > 0;
    if (!p->has_regs) return;
    p->reg_warp = sp->warp >= 0 ? (unsigned)sp->warp : p->picture == PICTURE_SHUFFLE ? p->shfl_warp
                  : p->st && p->st->count ? m->t->events[m->order[p->st->first]].warp : 0;
    view_registers_at(m, p->step, p->reg_warp, p->reg_vals, p->reg_state);
    if (p->reg_source != p->source || !p->reg_name[0]) {
        reg_name(p->source, m->t->events[m->regs[0].event].line, p->reg_name, sizeof p->reg_name);
        p->reg_source = p->source;
    }
}

/* "v2: strided index, bank conflicts", or for a kernel of one's own "kernel: my_reduce.cu" */
static void trace_name(const scene *sc, const trace *t, char *buf, size_t len)
{
    const ladder_version *v = ladder_find(t->prov.version);
    int zh = sc->lang == LANG_ZH && v && v->title_zh;
    const char *title = v ? (zh ? v->title_zh : v->title)
                          : strcmp(t->prov.version, OWN_VERSION) == 0 ? t->prov.source : str_get(sc->lang, STR_UNKNOWN_VERSION);
    snprintf(buf, len, "%s: %s", t->prov.version, title);
}

static int pane_update(scene *sc, scene_pane *p, const session_pane *sp, size_t step, const char *(*sources_find)(const char *))
{
    p->shown = sp->loaded;
    if (!sp->loaded) return 0;
    const view_model *m = &sp->m;
    p->m = m;
    p->step = step;
    p->st = step < m->nsteps ? &m->steps[step] : NULL;
    /* the keys' cursor on a word of this pane lights its input tree, before a word clicked (not
     * while a lesson's question is open: a click there picks, and the tree might be the answer) */
    const session *ss = sc->s;
    int pi = (int)(sp - ss->pane);
    int cursor = ss->focus_keys && HIT_KIND(ss->focus) == HIT_CELL && HIT_PANE(ss->focus) == pi && !session_asking(ss);
    p->selected = cursor ? HIT_INDEX(ss->focus) : sp->selected;
    p->source = sources_find ? sources_find(m->t->prov.source) : NULL;
    const ladder_version *v = ladder_find(m->t->prov.version);
    int zh = sc->lang == LANG_ZH && v && v->title_zh;
    char name[120];
    trace_name(sc, m->t, name, sizeof name);
    snprintf(p->title, sizeof p->title, str_get(sc->lang, STR_PANE_BLOCK), name, m->pass, m->block); /* which block of the grid */
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->summary, sizeof p->summary, "%s", v ? (zh ? v->summary_zh : v->summary) : "");
    if (reserve(p, m->threads, m->nwords)) return -1;
    view_lanes(m, step, p->lanes);
    view_shared_at(m, step, p->cells, p->written);
    if (p->selected >= 0 && (size_t)p->selected < m->nwords) view_subtree(m, step, p->selected, p->tree);
    else memset(p->tree, 0, m->nwords ? m->nwords : 1);
    view_counts_at(m, step, &p->counts);
    p->bank_warp = sp->warp;
    step_accesses(p);
    if (step_loads(p)) return -1;
    tree_focus(p, sp);
    p->picture = pick_picture(p, sc->s->picture);
    hazards(p);
    p->shfl_warp = sp->warp >= 0 ? (unsigned)sp->warp : 0;
    for (size_t k = 0; sp->warp < 0 && k < m->nshfl; k++) /* the warp that shuffles in this step */
        if (m->shfl[k].step == step) { p->shfl_warp = m->shfl[k].warp; break; }
    registers(p, sp);
    return 0;
}

static const str_id lane_state_names[] = {STR_STATE_IDLE, STR_STATE_WORKING, STR_STATE_DIVERGED, STR_STATE_BARRIER, STR_STATE_EXITED};

/* A word's last addition up to the step: "= word w + word from" and who added, from the tree's
 * nodes (each a store of the load-load-store pattern, in the order of the stores) */
static int word_sum(const scene_pane *p, int64_t w, str_lang L, char *out, size_t size)
{
    const view_model *m = p->m;
    const view_node *last = NULL;
    for (size_t i = 0; i < m->nnodes; i++)
        if (m->nodes[i].buf == -1 && m->nodes[i].word == w && m->nodes[i].step <= p->step) last = &m->nodes[i];
    if (!last) return 0;
    return snprintf(out, size, str_get(L, STR_TIP_WORD_SUM), (long long)last->word, (long long)last->from, last->thread);
}

/* The details of a lane, a shared word or a bank at the step shown, in words: what the hover's
 * tooltip says and the focus's (a pinned item, the keys' cursor) says and the page reads out. */
static void describe(const scene *sc, uint32_t hit, char *out, size_t size)
{
    const session *s = sc->s;
    out[0] = '\0';
    int kind = HIT_KIND(hit), pi = HIT_PANE(hit);
    int64_t idx = HIT_INDEX(hit);
    const scene_pane *p = &sc->pane[pi];
    if (!hit || !p->shown) return;
    const view_model *m = p->m;
    str_lang L = sc->lang;
    /* a lesson asks before it shows: what a question is about waits in the tooltips too */
    int asking = session_asking(s);
    if (kind == HIT_LANE && idx < (int64_t)m->threads) {
        unsigned tid = (unsigned)idx, warp = tid / WARP_SIZE, lane = tid % WARP_SIZE;
        if (asking && s->lesson.ask == ASK_LANES) { /* which lanes work is the question */
            snprintf(out, size, str_get(L, STR_TIP_THREAD), tid, warp, lane, "?");
            return;
        }
        int len = snprintf(out, size, str_get(L, STR_TIP_THREAD), tid, warp, lane,
                           str_get(L, lane_state_names[p->lanes[tid] < 5 ? p->lanes[tid] : 0]));
        for (size_t i = 0; p->st && i < p->st->count && len > 0 && (size_t)len < size; i++) {
            const trace_event *e = &m->t->events[m->order[p->st->first + i]];
            if (e->warp != warp || !(e->mask >> lane & 1u) || !trace_kind_has_data((trace_kind)e->kind)) continue;
            size_t k = (size_t)trace_popcount(e->mask & ((1u << lane) - 1u)), j = e->lanes + k;
            if (e->kind == TRACE_SHUFFLE)
                snprintf(out + len, size - (size_t)len, str_get(L, STR_TIP_SHUFFLE),
                         (long long)m->t->lane_addr[j], (double)trace_lane_value(m->t, e, k, 0));
            else
                snprintf(out + len, size - (size_t)len, str_get(L, STR_TIP_ACCESS),
                         str_kind(L, e->kind), (long long)m->t->lane_addr[j], (double)trace_lane_value(m->t, e, k, 0));
            break;
        }
        len = (int)strlen(out);
        /* a lesson asks before it shows: not while a question is open */
        if (p->has_regs && !asking && warp == p->reg_warp && p->reg_state[lane] && (size_t)len < size)
            snprintf(out + len, size - (size_t)len, str_get(L, STR_TIP_REG), p->reg_name, (double)p->reg_vals[lane]);
    } else if (kind == HIT_CELL && idx < (int64_t)m->nwords) {
        long long w = (long long)idx;
        if (p->written[idx] && asking) { /* a question open: no value (the tree's ? holds it back) */
            snprintf(out, size, str_get(L, STR_TIP_WORD_ASKING), w, w * WORD_BYTES, w % BANKS);
            return;
        }
        if (!p->written[idx]) {
            snprintf(out, size, str_get(L, STR_TIP_WORD_EMPTY), w, w * WORD_BYTES, w % BANKS);
            return;
        }
        size_t len = (size_t)snprintf(out, size, str_get(L, STR_TIP_WORD), w, w * WORD_BYTES, w % BANKS, (double)p->cells[idx]);
        if (len < size) len += (size_t)word_sum(p, idx, L, out + len, size - len);
        if (len >= size) return;
        if (p->selected == idx) { /* its input tree is lit: how many words it holds, as outlined */
            size_t n = 0;
            for (size_t i = 0; i < m->nwords; i++) n += p->tree[i] != 0;
            char words[32];
            snprintf(out + len, size - len, str_get(L, STR_TIP_WORD_TREE), str_count(L, NOUN_WORD, n, words, sizeof words));
        } else {
            snprintf(out + len, size - len, "%s", str_get(L, STR_TIP_WORD_CLICK));
        }
    } else if (kind == HIT_BANK && idx < BANKS && p->bank_event >= 0) {
        const trace_event *e = &m->t->events[p->bank_event];
        int len = snprintf(out, size, str_get(L, STR_TIP_BANK), (int)idx), k = 0;
        for (unsigned lane = 0; lane < WARP_SIZE && len > 0 && len < (int)size - 24; lane++) {
            if (!(e->mask >> lane & 1u)) continue;
            int64_t wd = m->t->lane_addr[e->lanes + (size_t)k++];
            if (wd % BANKS == idx) len += snprintf(out + len, size - (size_t)len, " %u(%lld)", lane, (long long)wd);
        }
    }
}

/* The tooltip: what is under a mouse that moved since the focus was set, else the focus's
 * details; and the focus's details alone (the page's live region reads them). */
static void tooltip(scene *sc)
{
    const session *s = sc->s;
    sc->tooltip[0] = sc->details[0] = '\0';
    sc->tip_focus = 0;
    if (sc->overlay != OVERLAY_NONE) return;
    describe(sc, s->focus, sc->details, sizeof sc->details);
    if (s->hover && s->mouse_x >= 0 && (s->tip_hover || !sc->details[0])) {
        describe(sc, s->hover, sc->tooltip, sizeof sc->tooltip);
    } else if (sc->details[0]) {
        snprintf(sc->tooltip, sizeof sc->tooltip, "%s", sc->details);
        sc->tip_focus = 1;
    }
}

/* compare: what tells the two current operations apart, in one line */
static void compare_diff(scene *sc)
{
    sc->diff[0] = '\0';
    if (!sc->compare || !sc->pane[0].shown || !sc->pane[1].shown) return;
    size_t len = 0;
    for (int i = 0; i < 2 && len < sizeof sc->diff; i++) {
        const scene_pane *p = &sc->pane[i];
        const char *id = p->m->t->prov.version;
        char one[140], extra[64];
        if (p->bank_event >= 0 && p->worst_degree > 1)
            snprintf(one, sizeof one, str_get(sc->lang, STR_DIFF_CONFLICT), id, p->worst_degree,
                     str_count(sc->lang, NOUN_WAVEFRONT, (unsigned long long)(p->worst_degree - 1), extra, sizeof extra));
        else if (p->bank_event >= 0)
            snprintf(one, sizeof one, str_get(sc->lang, STR_DIFF_NONE), id);
        else if (p->st && p->st->kind == TRACE_EXIT && p->step + 1 >= p->m->nsteps) /* not "0 of 256 lanes work" */
            snprintf(one, sizeof one, str_get(sc->lang, STR_DIFF_END), id);
        else {
            int work = 0;
            for (unsigned t = 0; t < p->m->threads; t++) work += p->lanes[t] == VIEW_LANE_WORKING;
            snprintf(one, sizeof one, str_get(sc->lang, STR_DIFF_LANES), id, work, (int)p->m->threads);
        }
        len += (size_t)snprintf(sc->diff + len, sizeof sc->diff - len, "%s%s", i ? "   |   " : "", one);
    }
}

static int grid_update(scene *sc, const session *s);

static void grid_tooltip(scene *sc, const session *s);

int scene_update(scene *sc, const session *s, const char *(*sources_find)(const char *))
{
    if (sc->s == s && sc->generation == s->generation) {
        if (sc->hover_serial != s->hover_serial) { /* only the mouse moved onto something else */
            sc->hover_serial = s->hover_serial;
            tooltip(sc);
            if (sc->grid.shown) grid_tooltip(sc, s);
        }
        return 0;
    }
    sc->s = s;
    sc->generation = s->generation;
    sc->hover_serial = s->hover_serial;
    sc->th = session_theme(s);
    sc->lang = s->lang;
    sc->compare = s->compare;
    sc->overlay = (int)s->overlay;
    sc->s = s;
    for (int i = 0; i < 2; i++) {
        if (pane_update(sc, &sc->pane[i], &s->pane[i], s->pane[i].step, sources_find)) return -1;
        /* where a move starts from, drawn only while one runs (panels' draw_pane) */
        if (s->pane[i].prev_step == s->pane[i].step) sc->prev[i].shown = 0;
        else if (pane_update(sc, &sc->prev[i], &s->pane[i], s->pane[i].prev_step, sources_find)) return -1;
    }
    if (!s->compare) sc->pane[1].shown = sc->prev[1].shown = 0;
    compare_diff(sc);
    if (s->status_id == STR_COUNT) snprintf(sc->status, sizeof sc->status, "%s", s->status_text);
    else snprintf(sc->status, sizeof sc->status, str_get(s->lang, s->status_id), s->status_text);
    tooltip(sc);
    return grid_update(sc, s) || scene_passes_update(sc, s) ? -1 : 0;
}

/* ---------- the grid view ---------- */

static void grid_free(scene_grid *g)
{
    if (g->built) analysis_grid_free(&g->g);
    free(g->ticket);
    free(g->rd_lo);
    free(g->rd_hi);
    free(g->sm_order);
    free(g->tiles);
    free(g->next);
    free(g->pass_sms);
    free(g->slots);
    memset(g, 0, sizeof *g);
}

/* a traced block's place in the SM order: sorted by (pass, SM, first clock) */
typedef struct sm_key {
    unsigned pass, sm, block;
    uint64_t clock;
    size_t k;
} sm_key;

static int by_sm_clock(const void *a, const void *b)
{
    const sm_key *x = a, *y = b;
    if (x->pass != y->pass) return x->pass < y->pass ? -1 : 1;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    if (x->clock != y->clock) return x->clock < y->clock ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Once per trace: the whole-grid analysis, and per traced block the ticket its atomic drew, the
 * range of elements it read from outputs (any buffer but the input), and its place on its SM. */
static int grid_build(scene_grid *g, const trace *t)
{
    grid_free(g);
    if (analysis_grid_build(t, &g->g)) return -1;
    g->built = 1;
    size_t nb = g->g.nblocks ? g->g.nblocks : 1;
    g->ticket = malloc(nb * sizeof *g->ticket);
    g->rd_lo = malloc(nb * sizeof *g->rd_lo);
    g->rd_hi = malloc(nb * sizeof *g->rd_hi);
    g->sm_order = calloc(nb, sizeof *g->sm_order);
    if (!g->ticket || !g->rd_lo || !g->rd_hi || !g->sm_order) return -1;
    for (size_t k = 0; k < g->g.nblocks; k++) {
        const analysis_block *b = &g->g.blocks[k];
        g->ticket[k] = -1;
        g->rd_lo[k] = g->rd_hi[k] = -1;
        for (size_t i = b->first; i < b->first + b->count; i++) {
            const trace_event *e = &t->events[g->g.order[i]];
            if (e->kind == TRACE_GLOBAL_ATOMIC && g->ticket[k] < 0 && e->mask)
                g->ticket[k] = (int)trace_lane_value(t, e, 0, 0); /* atomicInc's old value: the ticket */
            if (e->kind != TRACE_GLOBAL_LOAD || e->buf == 0) continue;
            int n = trace_popcount(e->mask);
            int64_t w = trace_event_width(e);
            for (int j = 0; j < n; j++) { /* a lane's address counts in its own width: a float4's is elements 4a .. 4a + 3 */
                int64_t a = t->lane_addr[e->lanes + (size_t)j] * w;
                if (g->rd_lo[k] < 0 || a < g->rd_lo[k]) g->rd_lo[k] = a;
                if (a + w - 1 > g->rd_hi[k]) g->rd_hi[k] = a + w - 1;
            }
        }
    }
    g->gpu = !strcmp(t->prov.backend, "gpu");
    if (g->gpu && g->g.nblocks) { /* clocks are per SM: order is only meaningful among one SM's blocks */
        sm_key *keys = malloc(g->g.nblocks * sizeof *keys);
        if (!keys) return -1;
        for (size_t k = 0; k < g->g.nblocks; k++) {
            const analysis_block *b = &g->g.blocks[k];
            keys[k] = (sm_key){b->pass, b->sm, b->block, b->clock_first, k};
        }
        qsort(keys, g->g.nblocks, sizeof *keys, by_sm_clock);
        int rank = 0;
        for (size_t k = 0; k < g->g.nblocks; k++) {
            int same = k && keys[k - 1].sm == keys[k].sm && keys[k - 1].pass == keys[k].pass;
            rank = same ? rank + 1 : 1;
            g->sm_order[keys[k].k] = rank;
        }
        /* the SMs the whole trace ran on */
        for (size_t k = 0; k < g->g.nblocks; k++) keys[k].pass = 0;
        qsort(keys, g->g.nblocks, sizeof *keys, by_sm_clock);
        for (size_t k = 0; k < g->g.nblocks; k++) g->nsms += !k || keys[k - 1].sm != keys[k].sm;
        free(keys);
    }
    return 0;
}

static int grid_reserve(scene_tile **tiles, size_t *cap, size_t n)
{
    if (n <= *cap) return 0;
    scene_tile *q = realloc(*tiles, n * sizeof *q);
    if (!q) return -1;
    *tiles = q;
    *cap = n;
    return 0;
}

/* the tiles of one pass: a tile per block of its grid, the traced ones from the analysis */
static int grid_tiles(scene_grid *g, const trace *t, unsigned pass, scene_tile **tiles, size_t *cap, size_t *ntiles, unsigned *traced)
{
    unsigned grid = pass < t->npasses ? t->passes[pass].grid : 0;
    if (grid > SCENE_GRID_TILES_MAX) grid = SCENE_GRID_TILES_MAX;
    if (grid_reserve(tiles, cap, grid ? grid : 1)) return -1;
    size_t k = pass < g->g.npasses ? g->g.pass_first[pass] : 0, end = pass < g->g.npasses ? g->g.pass_first[pass + 1] : 0;
    *traced = 0;
    for (unsigned b = 0; b < grid; b++) {
        scene_tile *tl = &(*tiles)[b];
        memset(tl, 0, sizeof *tl);
        tl->block = b;
        tl->state = TILE_UNTRACED;
        tl->ticket = -1;
        tl->read_lo = tl->read_hi = -1;
        while (k < end && g->g.blocks[k].block < b) k++;
        if (k >= end || g->g.blocks[k].block != b) continue;
        const analysis_block *ab = &g->g.blocks[k];
        (*traced)++;
        tl->traced = 1;
        tl->state = TILE_DONE; /* the pass after the one shown: what its blocks read */
        tl->has_partial = (uint8_t)ab->has_partial;
        tl->partial = ab->partial;
        tl->ticket = g->ticket[k];
        tl->sm = ab->sm;
        tl->sm_order = g->gpu ? g->sm_order[k] : 0;
        tl->read_lo = g->rd_lo[k];
        tl->read_hi = g->rd_hi[k];
    }
    *ntiles = grid;
    return 0;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The schedule of the pass shown: on the card (the model), or, where the capture recorded where
 * and when every block ran, as the card ran it: wave w is then shown at the moment its last block
 * (in start order) started, with the blocks running and done at that moment. Sets the tiles'
 * states, the SMs' slots and the counts; nothing here depends on how many tiles are drawn. */
static int grid_schedule(scene_grid *g, const trace *t, const session *s)
{
    g->card = s->card[0] ? card_find(s->card) : card_for_trace(t, NULL);
    g->sched_err[0] = '\0';
    if (!g->card) snprintf(g->sched_err, sizeof g->sched_err, "no card \"%s\" (warpscope cards)", s->card);
    else if (card_schedule_pass(g->card, t, g->pass, &g->sched, g->sched_err, sizeof g->sched_err)) g->card = NULL;
    uint64_t grid = t->passes[g->pass].grid;
    g->nwaves = card_pass_waves(g->card, t, g->pass, &g->obs, &g->timed);
    g->wave = s->grid_wave == -1 || (unsigned long)s->grid_wave >= g->nwaves ? g->nwaves
              : s->grid_wave < 0 ? g->nwaves - 1 /* -2: the last wave */
                                 : (unsigned long)s->grid_wave;
    unsigned sms = g->card ? g->sched.sms : 0;
    g->moment = UINT64_MAX;
    if (g->timed) { /* the moment: the wave's last start */
        uint64_t *starts = malloc(g->obs.blocks * sizeof *starts);
        if (!starts) return -1;
        size_t k = 0;
        sms = 0;
        for (size_t i = 0; i < t->nruns; i++)
            if (t->runs[i].pass == g->pass) {
                starts[k++] = t->runs[i].start;
                if (t->runs[i].sm + 1 > sms) sms = t->runs[i].sm + 1;
            }
        qsort(starts, k, sizeof *starts, by_u64);
        uint64_t last = (g->wave + 1) * g->obs.started_before_first_end;
        if (g->wave < g->nwaves) g->moment = starts[(last < k ? last : k) - 1];
        free(starts);
    }
    g->nslots = g->timed ? g->obs.most_live_on_one_sm : g->card ? g->sched.blocks_per_sm : 0;
    if (g->nslots > 64) g->nslots = 64;
    if (sms > TRACE_SMS_MAX) sms = TRACE_SMS_MAX;
    size_t nslot = (size_t)sms * g->nslots;
    if (nslot > g->cap_slots) {
        int *q = realloc(g->slots, nslot * sizeof *q);
        if (!q) return -1;
        g->slots = q;
        g->cap_slots = nslot;
    }
    for (size_t i = 0; i < nslot; i++) g->slots[i] = -1;
    g->nsm_slots = sms;
    g->running = g->done = 0;
    g->wave_first = g->wave_last = 0;
    g->slots_done = 0;
    if (g->timed) { /* every run of the pass, whether its tile is drawn or not */
        for (size_t i = 0; i < t->nruns; i++) {
            const trace_run *u = &t->runs[i];
            if (u->pass != g->pass) continue;
            int run = u->start <= g->moment && g->moment < u->end, done = u->end <= g->moment;
            g->running += (uint64_t)run;
            g->done += (uint64_t)done;
            if (run && u->sm < sms)
                for (unsigned k = 0; k < g->nslots; k++) /* the SM's first free slot */
                    if (g->slots[(size_t)u->sm * g->nslots + k] < 0) { g->slots[(size_t)u->sm * g->nslots + k] = (int)u->block; break; }
        }
    } else if (g->card) { /* the model: the wave's blocks go to the SMs in turn */
        uint64_t r = g->sched.resident_blocks;
        g->wave_first = g->wave * r < grid ? g->wave * r : grid;
        g->wave_last = g->wave_first + r < grid ? g->wave_first + r : grid;
        g->running = g->wave_last - g->wave_first;
        g->done = g->wave_first;
        /* ended: the SMs show the last wave's blocks, done */
        g->slots_done = g->wave >= g->nwaves;
        uint64_t from = g->wave_first, to = g->wave_last;
        if (g->slots_done) from = (g->nwaves - 1) * r < grid ? (g->nwaves - 1) * r : 0, to = grid;
        for (uint64_t b = from; b < to && sms; b++) {
            uint64_t i = b - from, slot = i / sms;
            if (slot < g->nslots) g->slots[(size_t)(i % sms) * g->nslots + (size_t)slot] = (int)b;
        }
    } else {
        g->done = grid;
    }
    /* the tiles drawn; a pass's runs are in block order (the readers check it) */
    size_t r0 = 0, r1;
    while (r0 < t->nruns && t->runs[r0].pass < g->pass) r0++;
    for (r1 = r0; r1 < t->nruns && t->runs[r1].pass == g->pass;) r1++;
    for (size_t b = 0; b < g->ntiles; b++) {
        scene_tile *tl = &g->tiles[b];
        uint8_t st;
        if (g->timed) {
            size_t lo = r0, hi = r1;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (t->runs[mid].block < b) lo = mid + 1;
                else hi = mid;
            }
            const trace_run *u = lo < r1 && t->runs[lo].block == b ? &t->runs[lo] : NULL;
            st = !u ? TILE_UNTRACED : u->end <= g->moment ? TILE_DONE : u->start <= g->moment ? TILE_RUNNING : TILE_WAITING;
        } else if (g->card) {
            st = b < g->wave_first ? TILE_DONE : b < g->wave_last ? TILE_RUNNING : TILE_WAITING;
        } else {
            st = TILE_DONE;
        }
        tl->state = st;
        if (st != TILE_DONE) tl->has_partial = 0, tl->ticket = -1;
    }
    return 0;
}

const str_id scene_tile_names[TILE_STATES] = {[TILE_WAITING] = STR_GRID_WAITING, [TILE_RUNNING] = STR_GRID_RUNNING, [TILE_DONE] = STR_GRID_DONE,
                                              [TILE_UNTRACED] = STR_GRID_UNTRACED};

/* the hover text of a tile: the block's state and what its trace holds */
static void grid_tooltip(scene *sc, const session *s)
{
    const scene_grid *g = &sc->grid;
    if (HIT_KIND(s->hover) != HIT_TILE || (size_t)HIT_INDEX(s->hover) >= g->ntiles) return;
    const scene_tile *tl = &g->tiles[HIT_INDEX(s->hover)];
    const analysis_block *b = analysis_grid_find(&g->g, g->pass, tl->block);
    if (!b) {
        snprintf(sc->tooltip, sizeof sc->tooltip, str_get(sc->lang, STR_GRID_TIP_UNTRACED), g->pass, tl->block);
        return;
    }
    int len = snprintf(sc->tooltip, sizeof sc->tooltip, str_get(sc->lang, STR_GRID_TIP), g->pass, tl->block, str_get(sc->lang, scene_tile_names[tl->state]), b->count,
                       b->nphases, (unsigned long long)b->totals.warp_instructions);
    if (tl->has_partial && len > 0 && (size_t)len < sizeof sc->tooltip)
        snprintf(sc->tooltip + len, sizeof sc->tooltip - (size_t)len, str_get(sc->lang, STR_GRID_TIP_PARTIAL), (double)tl->partial);
}

static int grid_update(scene *sc, const session *s)
{
    scene_grid *g = &sc->grid;
    g->shown = 0;
    const session_pane *p0 = &s->pane[0];
    if (s->overlay != OVERLAY_GRID || !p0->loaded) return 0;
    const trace *t = &p0->t;
    if (!g->built || g->key != t || g->key_serial != p0->serial) {
        if (grid_build(g, t)) { grid_free(g); return -1; }
        g->key = t;
        g->key_serial = p0->serial;
    }
    g->t = t;
    g->npasses = (unsigned)t->npasses;
    g->pass = s->grid_pass < g->npasses ? s->grid_pass : 0;
    if (!t->nevents) return 0;
    if (grid_tiles(g, t, g->pass, &g->tiles, &g->cap_tiles, &g->ntiles, &g->traced) || grid_schedule(g, t, s)) return -1;
    g->blocks = g->pass < t->npasses ? t->passes[g->pass].grid : 0;
    unsigned next_traced = 0;
    g->nnext = 0;
    if (g->pass + 1 < g->npasses && grid_tiles(g, t, g->pass + 1, &g->next, &g->cap_next, &g->nnext, &next_traced)) return -1;
    g->last_block = -1;
    unsigned grid = t->passes[g->pass].grid;
    for (size_t k = g->g.pass_first[g->pass]; k < g->g.pass_first[g->pass + 1]; k++) {
        const analysis_block *b = &g->g.blocks[k];
        if (g->ticket[k] >= 0 && (unsigned)g->ticket[k] + 1 == grid) g->last_block = (int)b->block;
    }
    trace_name(sc, t, g->name, sizeof g->name);
    /* a GPU trace: the SMs this pass ran on, for a row each */
    g->npass_sms = 0;
    g->max_turn = 0;
    if (g->gpu) {
        if (g->cap_pass_sms < g->ntiles) {
            unsigned *q = realloc(g->pass_sms, g->ntiles * sizeof *q);
            if (!q) return -1;
            g->pass_sms = q;
            g->cap_pass_sms = g->ntiles;
        }
        for (size_t i = 0; i < g->ntiles; i++) {
            const scene_tile *tl = &g->tiles[i];
            if (!tl->traced) continue;
            if (tl->sm_order > g->max_turn) g->max_turn = tl->sm_order;
            size_t k = 0;
            while (k < g->npass_sms && g->pass_sms[k] < tl->sm) k++;
            if (k < g->npass_sms && g->pass_sms[k] == tl->sm) continue;
            memmove(g->pass_sms + k + 1, g->pass_sms + k, (g->npass_sms - k) * sizeof *g->pass_sms);
            g->pass_sms[k] = tl->sm;
            g->npass_sms++;
        }
    }
    g->shown = 1;
    grid_tooltip(sc, s);
    return 0;
}
