/* scene: see scene.h. */
#include "scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ladder.h"

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
    memset(p, 0, sizeof *p);
}

void scene_free(scene *sc)
{
    pane_free(&sc->pane[0]);
    pane_free(&sc->pane[1]);
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
    p->worst_event = -1;
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
        if (m->facts[ei].bank_degree > p->worst_degree) {
            p->worst_degree = m->facts[ei].bank_degree;
            p->worst_event = (int)ei;
        }
    }
    if (p->worst_event < 0) return;
    /* per bank, the distinct words the worst access asks of it: each is one wavefront */
    const trace_event *e = &m->t->events[p->worst_event];
    p->worst_load = e->kind == TRACE_SHARED_LOAD;
    int k = 0;
    for (unsigned lane = 0; lane < WARP_SIZE; lane++) {
        if (!(e->mask >> lane & 1u)) continue;
        int64_t wd = m->t->lane_addr[e->lanes + (size_t)k++];
        if (wd < 0) continue;
        scene_bank *b = &p->banks[wd % BANKS];
        b->lanes |= 1u << lane;
        int seen = 0;
        for (int q = 0; q < b->nwords; q++) seen |= b->words[q] == wd;
        if (!seen && b->nwords < WARP_SIZE) b->words[b->nwords++] = wd;
    }
}

static int pane_update(scene *sc, int i, const session_pane *sp, const char *(*sources_find)(const char *))
{
    scene_pane *p = &sc->pane[i];
    p->shown = sp->loaded;
    if (!sp->loaded) return 0;
    const view_model *m = &sp->m;
    p->m = m;
    p->step = sp->step;
    p->st = sp->step < m->nsteps ? &m->steps[sp->step] : NULL;
    p->selected = sp->selected;
    p->source = sources_find ? sources_find(m->t->prov.source) : NULL;
    const ladder_version *v = ladder_find(m->t->prov.version);
    int zh = sc->lang == LANG_ZH && v && v->title_zh;
    snprintf(p->title, sizeof p->title, "%s: %s", m->t->prov.version, v ? (zh ? v->title_zh : v->title) : str_get(sc->lang, STR_UNKNOWN_VERSION));
    snprintf(p->summary, sizeof p->summary, "%s", v ? (zh ? v->summary_zh : v->summary) : "");
    if (reserve(p, m->threads, m->nwords)) return -1;
    view_lanes(m, sp->step, p->lanes);
    view_shared_at(m, sp->step, p->cells, p->written);
    if (p->selected >= 0 && (size_t)p->selected < m->nwords) view_subtree(m, sp->step, p->selected, p->tree);
    else memset(p->tree, 0, m->nwords ? m->nwords : 1);
    view_counts_at(m, sp->step, &p->counts);
    step_accesses(p);
    return 0;
}

static const str_id lane_state_names[] = {STR_STATE_IDLE, STR_STATE_WORKING, STR_STATE_DIVERGED, STR_STATE_BARRIER, STR_STATE_EXITED};

/* the hover text for what is under the mouse */
static void tooltip(scene *sc)
{
    const session *s = sc->s;
    sc->tooltip[0] = '\0';
    if (!s->hover || sc->overlay != OVERLAY_NONE) return;
    int kind = HIT_KIND(s->hover), pi = HIT_PANE(s->hover);
    int64_t idx = HIT_INDEX(s->hover);
    const scene_pane *p = &sc->pane[pi];
    if (!p->shown) return;
    const view_model *m = p->m;
    str_lang L = sc->lang;
    if (kind == HIT_LANE && idx < (int64_t)m->threads) {
        unsigned tid = (unsigned)idx, warp = tid / WARP_SIZE, lane = tid % WARP_SIZE;
        int len = snprintf(sc->tooltip, sizeof sc->tooltip, str_get(L, STR_TIP_THREAD), tid, warp, lane,
                           str_get(L, lane_state_names[p->lanes[tid] < 5 ? p->lanes[tid] : 0]));
        for (size_t i = 0; p->st && i < p->st->count && len > 0 && (size_t)len < sizeof sc->tooltip; i++) {
            const trace_event *e = &m->t->events[m->order[p->st->first + i]];
            if (e->warp != warp || !(e->mask >> lane & 1u) || !trace_kind_has_data((trace_kind)e->kind)) continue;
            size_t k = (size_t)trace_popcount(e->mask & ((1u << lane) - 1u)), j = e->lanes + k;
            if (e->kind == TRACE_SHUFFLE)
                snprintf(sc->tooltip + len, sizeof sc->tooltip - (size_t)len, str_get(L, STR_TIP_SHUFFLE),
                         (long long)m->t->lane_addr[j], (double)trace_lane_value(m->t, e, k, 0));
            else
                snprintf(sc->tooltip + len, sizeof sc->tooltip - (size_t)len, str_get(L, STR_TIP_ACCESS),
                         trace_kind_label((trace_kind)e->kind), (long long)m->t->lane_addr[j], (double)trace_lane_value(m->t, e, k, 0));
            break;
        }
    } else if (kind == HIT_CELL && idx < (int64_t)m->nwords) {
        long long w = (long long)idx;
        if (p->written[idx])
            snprintf(sc->tooltip, sizeof sc->tooltip, str_get(L, STR_TIP_WORD), w, w * WORD_BYTES, w % BANKS, (double)p->cells[idx]);
        else
            snprintf(sc->tooltip, sizeof sc->tooltip, str_get(L, STR_TIP_WORD_EMPTY), w, w * WORD_BYTES, w % BANKS);
    } else if (kind == HIT_BANK && idx < BANKS && p->worst_event >= 0) {
        const trace_event *e = &m->t->events[p->worst_event];
        int len = snprintf(sc->tooltip, sizeof sc->tooltip, str_get(L, STR_TIP_BANK), (int)idx), k = 0;
        for (unsigned lane = 0; lane < WARP_SIZE && len > 0 && len < (int)sizeof sc->tooltip - 24; lane++) {
            if (!(e->mask >> lane & 1u)) continue;
            int64_t wd = m->t->lane_addr[e->lanes + (size_t)k++];
            if (wd % BANKS == idx) len += snprintf(sc->tooltip + len, sizeof sc->tooltip - (size_t)len, " %u(%lld)", lane, (long long)wd);
        }
    }
}

int scene_update(scene *sc, const session *s, const char *(*sources_find)(const char *))
{
    if (sc->s == s && sc->generation == s->generation) return 0;
    sc->s = s;
    sc->generation = s->generation;
    sc->th = session_theme(s);
    sc->lang = s->lang;
    sc->compare = s->compare;
    sc->overlay = (int)s->overlay;
    for (int i = 0; i < 2; i++)
        if (pane_update(sc, i, &s->pane[i], sources_find)) return -1;
    if (!s->compare) sc->pane[1].shown = 0;
    if (s->status_id == STR_COUNT) snprintf(sc->status, sizeof sc->status, "%s", s->status_text);
    else snprintf(sc->status, sizeof sc->status, str_get(s->lang, s->status_id), s->status_text);
    tooltip(sc);
    return 0;
}
