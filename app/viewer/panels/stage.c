#include "app/viewer/panels/internal.h"

static void draw_picture(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    if (p->has_regs && p->picture != PICTURE_TREE) { /* the register under the loads or the shuffles */
        /* only what the picture above can spare: the load strip gets by with a few rows, the
         * shuffles need a line of text per row for their offsets */
        int first, last;
        shfl_round(p, &first, &last);
        int keep = p->picture == PICTURE_LOADS ? u->lh + u->lh / 2 : (last - first + 1) * (u->lh + 4);
        int max_h = r.h - (keep + 2 * u->pad + u->lh + u->pad / 2);
        int cols = registers_cols(u, p, r.w, max_h), h = registers_height(u, cols);
        if (h <= max_h) {
            draw_registers(u, pi, p, (dl_rect){r.x, r.y + r.h - h, r.w, h}, cols);
            r.h -= h + u->pad / 2;
        }
    }
    if (u->sc->s->picture == PICTURE_AUTO && p->st && p->st->kind == TRACE_GLOBAL_ATOMIC && tickets_known(p)) draw_tickets(u, p, r);
    else if (p->picture == PICTURE_LOADS) draw_loads(u, p, r);
    else if (p->picture == PICTURE_SHUFFLE) draw_shuffles(u, p, r);
    else draw_tree(u, pi, p, r);
}

static void draw_timeline(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    char title[200];
    snprintf(title, sizeof title, S(u, m->fine ? STR_TIMELINE_FINE : STR_TIMELINE), m->nsteps, m->nphases);
    dl_rect in = panel(u, "timeline", r, r.h >= 2 * u->lh + 2 * u->pad ? title : NULL); /* compact: the bar alone */
    if (in.h < 4) return;
    dl_rect bar = {in.x, in.y + 3, in.w, in.h - 3};
    dl_fill_hit(u->l, bar, u->th->idle, HIT_CODE(HIT_TIMELINE, pi, 0)); /* click or drag: seek */
    size_t ns = m->nsteps ? m->nsteps : 1;
    int px = bar.x + (int)((double)(p->step + 1) / (double)ns * bar.w);
    dl_fill(u->l, (dl_rect){bar.x, bar.y, px - bar.x, bar.h}, u->th->accent);
    for (unsigned ph = 0; ph < m->nphases; ph++) {
        long s0 = view_phase_first(m, ph);
        if (s0 < 0) continue;
        int x = bar.x + (int)((double)s0 / (double)ns * bar.w);
        dl_fill(u->l, (dl_rect){x, bar.y - 3, 2, bar.h + 3}, u->th->dim);
    }
}

/* ---------- the stage: what each panel needs, and which the step is about ---------- */

/* per class, each panel's priority (0 is the step's picture) */
static const unsigned char stage_priority[CLASS_COUNT][PANEL_COUNT] = {
    /*                 SOURCE PICTURE MEMORY LANES BANKS STATS TIMELINE */
    [CLASS_CONFLICT] = {1, 2, 3, 4, 0, 5, 6},
    [CLASS_DIVERGENT] = {1, 2, 3, 0, 4, 5, 6},
    [CLASS_TREE] = {1, 0, 3, 4, 2, 5, 6},
    [CLASS_SHARED] = {1, 2, 3, 4, 0, 5, 6},
    [CLASS_GLOBAL] = {1, 0, 4, 2, 5, 3, 6},
    [CLASS_TICKET] = {1, 0, 4, 2, 5, 3, 6},
    [CLASS_SHUFFLE] = {1, 0, 4, 2, 5, 3, 6},
    [CLASS_BARRIER] = {1, 2, 3, 0, 5, 4, 6},
    [CLASS_END] = {2, 1, 4, 5, 6, 0, 3}, /* the verdict, then the tree that made it */
    [CLASS_OTHER] = {1, 0, 3, 2, 5, 4, 6},
};

/* a lane of a warp at this point left out of its instruction: the warp diverged */
static int pane_divergent(const scene_pane *p)
{
    int k = p->st->kind;
    if (k == TRACE_BARRIER || k == TRACE_WARP_SYNC || k == TRACE_FENCE || k == TRACE_EXIT) return 0; /* who waits: the barrier's class */
    for (unsigned t = 0; t < p->m->threads; t++)
        if (p->lanes[t] == VIEW_LANE_DIVERGED) return 1;
    return 0;
}

/* an addition of the tree stored at this step */
static int pane_adds(const scene_pane *p)
{
    const view_model *m = p->m;
    for (size_t i = 0; i < m->nnodes; i++)
        if (m->nodes[i].step == p->step && m->nodes[i].buf == -1) return 1;
    return 0;
}

stage_class pane_class(const scene_pane *p)
{
    if (!p->shown || !p->st) return CLASS_OTHER;
    int kind = p->st->kind;
    if (trace_kind_addr((trace_kind)kind) == TRACE_ADDR_SHARED && p->worst_degree > 1) return CLASS_CONFLICT;
    if (kind == TRACE_EXIT && p->step + 1 >= p->m->nsteps) return CLASS_END; /* the kernel's end: its last step */
    if (kind == TRACE_GLOBAL_ATOMIC) return CLASS_TICKET; /* one thread draws the ticket: the tickets, not the idle lanes */
    /* a shared access that races: the tree, where the wrong sum it leaves shows (under a schedule
     * that runs lanes apart every step diverges: the race is the slide's point) */
    if (p->hz_nstep && p->m->nnodes && trace_kind_addr((trace_kind)kind) == TRACE_ADDR_SHARED) return CLASS_TREE;
    if (pane_divergent(p)) return CLASS_DIVERGENT;
    switch (trace_kind_addr((trace_kind)kind)) {
    case TRACE_ADDR_SHARED: return kind == TRACE_SHARED_STORE && pane_adds(p) ? CLASS_TREE : CLASS_SHARED;
    case TRACE_ADDR_GLOBAL: return kind == TRACE_GLOBAL_ATOMIC ? CLASS_TICKET : CLASS_GLOBAL;
    case TRACE_ADDR_LANE: return kind == TRACE_SHUFFLE ? CLASS_SHUFFLE : CLASS_OTHER;
    default: return kind == TRACE_BARRIER || kind == TRACE_WARP_SYNC ? CLASS_BARRIER : CLASS_OTHER;
    }
}

/* The panel that is the step's picture for a class. */
int stage_focus(stage_class c)
{
    for (int k = 0; k < PANEL_COUNT; k++)
        if (stage_priority[c][k] == 0) return k;
    return PANEL_PICTURE;
}

/* While a lesson's step asks for lanes, banks or shared words to be clicked, the panel that holds
 * them is the step's picture: the learner cannot answer on a summary line, nor see the answer
 * outlined there. -1: none. */
static int ask_panel(const session *s)
{
    if (!s->lesson.active) return -1; /* open, answered or revealed: the answer is shown there too */
    int a = s->lesson.ask == ASK_LANES ? PANEL_LANES : s->lesson.ask == ASK_BANKS ? PANEL_BANKS : s->lesson.ask == ASK_CELLS ? PANEL_MEMORY : -1;
    return a >= 0 && s->panels && !(s->panels >> a & 1) ? -1 : a; /* a panel the step leaves out stays out */
}

/* The stage's picture and each panel's priority: the step's class's, the panel a question is
 * answered on swapping places with the class's picture. */
int stage_focus_of(const ui *u, stage_class c)
{
    int a = ask_panel(u->sc->s);
    return a >= 0 ? a : stage_focus(c);
}
static int stage_priority_of(const ui *u, stage_class c, int panel)
{
    int a = ask_panel(u->sc->s), f = stage_focus(c);
    if (a < 0 || a == f) return stage_priority[c][panel];
    return panel == a ? 0 : panel == f ? stage_priority[c][a] : stage_priority[c][panel];
}

/* Compare shows both panes the same kind of picture: a conflict in either is the show. A picture
 * the user pinned (V) is the show whatever the step. */
stage_class scene_class(const scene *sc)
{
    if (sc->s->picture != PICTURE_AUTO) return CLASS_OTHER; /* the class whose show is the picture panel */
    stage_class c = pane_class(&sc->pane[0]);
    if (sc->compare) {
        stage_class d = pane_class(&sc->pane[1]);
        if (d < c) c = d;
    }
    return c;
}

/* A panel's frame: padding around, a title line. */
static int chrome(const ui *u) { return 2 * u->pad + u->lh; }

/* The content heights (below the title) each panel needs at content width w: the least that
 * still shows what it is for, and what its content would fill. */
static void measure(ui *u, int panel_id, const scene_pane *p, int w, int *min, int *pref)
{
    const view_model *m = p->m;
    int lh = u->lh, vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    *min = *pref = 0;
    switch (panel_id) {
    case PANEL_SOURCE: {
        if (!p->st || !p->st->line) break; /* the kernel's end: no line of it, the summary says so */
        int rows = source_rows_min(u, p, w);
        *min = rows * lh;
        *pref = (rows + 8) * lh;
        break;
    }
    case PANEL_PICTURE:
        if (u->sc->s->picture == PICTURE_AUTO && p->st && p->st->kind == TRACE_GLOBAL_ATOMIC && tickets_known(p)) {
            *min = lh + 4;
            *pref = 5 * lh;
        } else if (p->picture == PICTURE_LOADS) {
            if (!p->nloads) break;
            int text_rows = (p->nsectors < 8 ? p->nsectors : 8) + 1;
            *min = lh + lh;
            *pref = 3 * lh + text_rows / 2 * lh;
        } else if (p->picture == PICTURE_SHUFFLE) {
            if (!m->nshfl) break;
            int first, last;
            shfl_round(p, &first, &last);
            int rows = last - first + 1;
            *min = rows * (lh + 4);
            *pref = rows * 2 * lh;
        } else {
            if (!m->nnodes || m->tree_words <= 0) break;
            int rows = m->tree_levels + 1, overview = m->tree_words > 8 ? lh / 2 + 2 : 0;
            /* two rows (the step's sums and their inputs) of values at the least size, else the summary */
            int two = 2 * (dl_text_height(u->l, DL_FONT_MONO, tree_value_least(u)) + 6);
            *min = overview + (rows * 8 > two ? rows * 8 : two);
            *pref = overview + rows * (vh + 10);
        }
        if (p->has_regs && p->picture != PICTURE_TREE && *min) { /* the register row under it */
            int cols = registers_cols(u, p, w + 2 * u->pad, 1 << 20);
            *pref += registers_height(u, cols) + u->pad / 2;
        }
        break;
    case PANEL_MEMORY: {
        if (!m->nwords) break;
        int rows = (int)((m->nwords + WARP_SIZE - 1) / WARP_SIZE), shown = rows < 8 ? rows : 8;
        *min = shown * (value_least(u) + 4); /* cells a value fits in at the least size; less, and the panel is its summary line */
        *pref = shown * (vh + 4);
        break;
    }
    case PANEL_LANES: {
        int nw = (int)m->nwarps;
        *min = (nw > 1 ? 2 : 1) * (lh + 2);
        *pref = (nw < 16 ? nw : 16) * (lh + 2);
        break;
    }
    case PANEL_BANKS: {
        if (p->bank_event < 0) break;
        int deg = p->worst_degree > 0 ? p->worst_degree : 1;
        *min = lh + (lh + 2) + 8 + deg * 6 + lh;
        int every = 1, numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "31 ");
        while (every < BANKS && every * (w / BANKS) < numw) every *= 2;
        *pref = lh + (lh + 2) + 2 * lh + deg * (lh + 4) + every * lh; /* every bank's number, staggered where need be */
        break;
    }
    case PANEL_STATS:
        if (pane_class(p) == CLASS_END) { /* the verdict, the races and the result: the tree that made them gets the rest */
            *min = u->blh + u->pad / 2 + 2 * lh;
            *pref = u->blh + u->pad / 2 + 4 * lh;
            break;
        }
        *min = 3 * lh;
        *pref = (11 + p->hz_nstep) * lh;
        break;
    default: break;
    }
    if (*pref < *min) *pref = *min;
}

/* What a panel says in one line of width w when it has no room to draw (a shorter wording where
 * the whole one is wider than w). */
static void summary(ui *u, int panel_id, const scene_pane *p, int w, char *b, size_t len)
{
    const view_model *m = p->m;
    b[0] = '\0';
    switch (panel_id) {
    case PANEL_SOURCE: {
        if (!p->st || !p->st->line) { snprintf(b, len, "%s", S(u, STR_SOURCE_END)); break; }
        char code[200];
        trace_text_line_copy(p->source, p->st ? p->st->line : 0, code, sizeof code);
        snprintf(b, len, S(u, STR_SUM_SOURCE), p->st ? p->st->line : 0, code);
        break;
    }
    case PANEL_PICTURE:
        if (u->sc->s->picture == PICTURE_AUTO && p->st && p->st->kind == TRACE_GLOBAL_ATOMIC && tickets_known(p)) tickets_summary(u, p, b, len);
        else if (p->picture == PICTURE_LOADS) {
            if (!p->nloads) { snprintf(b, len, "%s", S(u, STR_LOADS_NONE)); break; }
            int sec = 0, fewest = 0;
            for (int i = 0; i < p->nsectors; i++) { sec += p->sectors[i].sectors; fewest += p->sectors[i].sectors_min; }
            snprintf(b, len, S(u, STR_SUM_LOADS), (long long)p->load_lo, (long long)p->load_hi, sec, fewest);
        } else if (p->picture == PICTURE_SHUFFLE) {
            if (!m->nshfl) { snprintf(b, len, "%s", S(u, STR_SHFL_NONE)); break; }
            size_t got = 0;
            for (size_t i = 0; i < m->nshfl; i++) got += m->shfl[i].warp == p->shfl_warp && m->shfl[i].step <= p->step;
            snprintf(b, len, S(u, STR_SUM_SHFL), p->shfl_warp, got);
        } else {
            if (!m->nnodes || m->tree_words <= 0) { snprintf(b, len, "%s", S(u, STR_TREE_NONE)); break; }
            size_t sofar = 0, now = 0;
            for (size_t i = 0; i < m->nnodes; i++) { sofar += m->nodes[i].step <= p->step; now += m->nodes[i].step == p->step; }
            char full[300], shrt[200];
            snprintf(full, sizeof full, S(u, STR_SUM_TREE), sofar, now);
            snprintf(shrt, sizeof shrt, S(u, STR_SUM_TREE_SHORT), sofar, now);
            fit_text(u, w, full, shrt, b, len);
        }
        break;
    case PANEL_MEMORY: {
        if (!m->nwords) { snprintf(b, len, "%s", S(u, STR_SHARED_NONE)); break; }
        size_t rd = 0, wr = 0;
        for (size_t i = 0; i < m->nwords; i++) { rd += p->touched[i] == 1; wr += p->touched[i] == 2; }
        char full[300], shrt[200];
        snprintf(full, sizeof full, S(u, STR_SUM_MEMORY), m->nwords, rd, wr);
        snprintf(shrt, sizeof shrt, S(u, STR_SUM_MEMORY_SHORT), m->nwords, rd, wr);
        fit_text(u, w, full, shrt, b, len);
        break;
    }
    case PANEL_LANES: {
        char ws[400];
        warps_in_words(u, p, 0, m->nwarps, ws, sizeof ws);
        snprintf(b, len, S(u, STR_SUM_LANES), ws);
        break;
    }
    case PANEL_BANKS:
        if (p->bank_event < 0) { snprintf(b, len, "%s", S(u, STR_BANKS_NONE)); break; }
        banks_title(u, p, w, b, len);
        break;
    case PANEL_STATS: {
        const view_counts *c = &p->counts;
        char v[300];
        verdict_line(u, p, v, sizeof v);
        int k = snprintf(b, len, "%s; ", v);
        unsigned long long conflicts = c->conflicts_load + c->conflicts_store;
        if (k > 0 && (size_t)k < len)
            snprintf(b + k, len - (size_t)k, S(u, STR_SUM_STATS), p->st ? p->st->phase : 0, m->nphases ? m->nphases - 1 : 0, p->step, m->nsteps ? m->nsteps - 1 : 0,
                     conflicts, (double)m->t->result, m->t->reference);
        /* too wide: the brief verdict, the conflicts and the step; else without the step */
        char full[600], shrt[400];
        snprintf(full, sizeof full, "%s", b);
        verdict_line_brief(u, p, v, sizeof v);
        snprintf(shrt, sizeof shrt, S(u, STR_SUM_STATS_SHORT), v, conflicts, p->step, m->nsteps ? m->nsteps - 1 : 0);
        fit_text(u, w, full, shrt, b, len);
        snprintf(full, sizeof full, "%s", b);
        snprintf(shrt, sizeof shrt, S(u, STR_SUM_STATS_LEAST), v, conflicts);
        fit_text(u, w, full, shrt, b, len);
        break;
    }
    default: break;
    }
}

/* the draw list keeps the name's pointer: the summaries' names are constants too */
static const char *const summary_names[PANEL_COUNT] = {
    [PANEL_SOURCE] = "source summary", [PANEL_PICTURE] = "picture summary", [PANEL_MEMORY] = "memory summary",
    [PANEL_LANES] = "lanes summary",   [PANEL_BANKS] = "banks summary",     [PANEL_STATS] = "stats summary",
    [PANEL_TIMELINE] = "timeline summary"};

/* A panel with no room for its picture: one line that says what it would show. */
static void draw_summary(ui *u, int panel_id, const scene_pane *p, dl_rect r)
{
    char b[600];
    dl_panel_begin(u->l, summary_names[panel_id], r);
    dl_fill(u->l, r, u->th->panel);
    summary(u, panel_id, p, r.w - 2 * u->pad, b, sizeof b);
    dl_text(u->l, (dl_rect){r.x + u->pad, r.y + (r.h - u->lh) / 2, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, b);
}

/* ---------- a pane: one traced block of one version ---------- */

static void draw_panel(ui *u, int panel_id, int pi, const scene_pane *p, const scene_pane *bp, int waves, dl_rect r)
{
    switch (panel_id) {
    case PANEL_SOURCE: draw_source(u, p, r); break;
    case PANEL_STATS: draw_stats(u, p, r); break;
    case PANEL_PICTURE: draw_picture(u, pi, p, r); break;
    case PANEL_MEMORY: draw_memory(u, pi, p, r); break;
    case PANEL_LANES: draw_lanes(u, pi, p, r); break;
    default: draw_banks(u, pi, bp, r, waves); break;
    }
}

/* what a panel shows, as the record names it: the top picture's kind, "registers" for the register
 * row under it (p NULL), "result" for the counters and the verdict */
static const char *panel_kind(const ui *u, int panel_id, const scene_pane *p)
{
    static const char *const kinds[PANEL_COUNT] = {[PANEL_SOURCE] = "source", [PANEL_PICTURE] = "registers", [PANEL_MEMORY] = "memory",
                                                   [PANEL_LANES] = "lanes",   [PANEL_BANKS] = "banks",       [PANEL_STATS] = "result",
                                                   [PANEL_TIMELINE] = "timeline"};
    if (panel_id != PANEL_PICTURE || !p) return kinds[panel_id];
    if (u->sc->s->picture == PICTURE_AUTO && p->st && p->st->kind == TRACE_GLOBAL_ATOMIC && tickets_known(p)) return "tickets";
    return p->picture == PICTURE_LOADS ? "loads" : p->picture == PICTURE_SHUFFLE ? "shuffles" : "tree";
}

/* Lays panels out in a column: each states its minimum and preferred height, the solver
 * (layout.h) gives the step's picture its room first; a panel short of its minimum is a summary
 * line. `want` is the height the step's picture should have to hold its share of the window. */
static void stage_column(ui *u, int pi, const scene_pane *p, const scene_pane *bp, int waves, dl_rect col, const int *ids, int n,
                         stage_class cls, int want, const scene_pane *twin)
{
    layout_item it[PANEL_COUNT] = {{0}};
    layout_slot sl[PANEL_COUNT] = {{0}};
    int own_empty[PANEL_COUNT] = {0}; /* this pane has nothing for it at this step (its twin may) */
    int focus = stage_focus_of(u, cls);
    for (int i = 0; i < n; i++) {
        int mn, pf, tmn, tpf;
        measure(u, ids[i], p, col.w - 2 * u->pad, &mn, &pf);
        own_empty[i] = mn == 0;
        if (twin && twin->shown) { /* compare: both panes get the same layout, panel beside panel */
            measure(u, ids[i], twin, col.w - 2 * u->pad, &tmn, &tpf);
            if (mn && tmn > mn) mn = tmn;
            if (!mn) mn = tmn;
            if (tpf > pf) pf = tpf;
        }
        int empty = mn == 0; /* nothing to draw at this step: its summary says so */
        it[i] = (layout_item){.min_h = empty ? 0 : mn + chrome(u), .pref_h = empty ? 0 : pf + chrome(u), .summary_h = u->lh + u->pad / 2,
                              .priority = stage_priority_of(u, cls, ids[i]), .stretch = ids[i] == focus || (ids[i] == PANEL_SOURCE && n <= 2),
                              .claims = ids[i] == focus ? 2 : ids[i] == PANEL_SOURCE};
        int share = cls == CLASS_END ? 0 : want; /* the verdict is a few lines: the tree under it takes the room */
        if (ids[i] == focus && it[i].pref_h < share) it[i].pref_h = share;
        if (ids[i] == focus) it[i].claim_h = share; /* its share of the window, in place of summaries if need be */
    }
    layout_column(it, n, col.y, col.h, u->pad, sl);
    for (int i = 0; i < n; i++) {
        dl_rect r = {col.x, sl[i].y, col.w, sl[i].h};
        int before = u->l->npanels;
        if (sl[i].state == LAYOUT_FULL && !own_empty[i]) draw_panel(u, ids[i], pi, p, bp, waves, r);
        else if (sl[i].state != LAYOUT_HIDDEN) draw_summary(u, ids[i], p, r);
        for (int k = before; k < u->l->npanels; k++) { /* what it drew, for the record and the tests */
            const char *name = u->l->panels[k].name;
            int full = !strstr(name, " summary") && strcmp(name, "verdict");
            dl_panel_mark(u->l, k, full ? panel_kind(u, ids[i], ids[i] == PANEL_PICTURE && !strcmp(name, "registers") ? NULL : p) : NULL,
                          full && ids[i] == focus);
        }
    }
}

/* One pane: title, the panels, the timeline. Wide panes keep the code and the counters in a
 * column on the left and the pictures on the right; narrow ones (compare, presenter mode, small
 * windows) stack them: the source, the step's picture under it, then the rest. `share` is the
 * part of the window's area the step's picture of this pane should reach. */
void draw_pane(ui *u, int pi, dl_rect r, stage_class cls, long share)
{
    const scene_pane *twin = u->sc->compare ? &u->sc->pane[1 - pi] : NULL;
    /* moving: everything is drawn as at the step the move started from, with the motion on top
     * (values travelling, lanes fading, wavefronts landing); at the end it is the new step */
    const scene_pane *to = &u->sc->pane[pi], *from = &u->sc->prev[pi];
    int moving = u->ease < 1 && from->shown && to->shown && from->step != to->step;
    const scene_pane *p = moving ? from : to;
    u->to = moving ? to : NULL;
    if (!p->shown) return;
    int waves = moving && u->ease > 0 ? (int)ceil(u->ease * to->worst_degree) : BANKS;
    const scene_pane *bp = moving && u->ease > 0 ? to : p;
    /* the verdict is never hidden: beside the title where both fit, else on a line of its own. A
     * title too wide for the pane's line goes on two: the version's name (shrunk towards the text
     * size before anything is cut), then the pass and block, with the verdict beside them where
     * both fit (in brief where only that fits: "right: 1140") */
    int compact = u->compact, vw = verdict_width(u, p, u->px), tw = dl_text_width(u->l, DL_FONT_UI, u->big, p->title);
    int tx = r.x + u->pad, inw = r.w - 2 * u->pad;
    int beside = tw + vw + 3 * u->pad <= r.w, split = !beside && tw > inw;
    char where[80];
    snprintf(where, sizeof where, S(u, STR_PANE_WHERE), p->m->pass, p->m->block);
    int ww = dl_text_width(u->l, DL_FONT_UI, u->px, where), shared = split && ww + verdict_width_brief(u, p, u->px) + 3 * u->pad <= r.w;
    int head = u->blh + (compact ? 0 : u->lh) + (beside || shared ? 0 : u->lh) + (split ? u->lh : 0);
    dl_panel_begin(u->l, "title", (dl_rect){r.x, r.y, r.w, head});
    int y = r.y + u->blh;
    if (split) {
        dl_text(u->l, (dl_rect){tx, r.y, inw, u->blh}, DL_FONT_UI, fit_px(u, DL_FONT_UI, u->big, p->name, inw), DL_LEFT, u->th->text, p->name);
        dl_text(u->l, (dl_rect){tx, y, shared ? ww + u->pad : inw, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, where);
        y += u->lh;
    } else dl_text(u->l, (dl_rect){tx, r.y, beside ? tw + u->pad : inw, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, p->title);
    if (!compact) dl_text(u->l, (dl_rect){tx, y, inw, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->dim, p->summary);
    draw_verdict(u, p, beside ? (dl_rect){tx, r.y, inw, u->blh} : shared ? (dl_rect){tx + ww + u->pad, r.y + u->blh, inw - ww - u->pad, u->lh} : (dl_rect){tx, r.y + head - u->lh, inw, u->lh}, u->px);
    unsigned shown = u->sc->s->panels ? u->sc->s->panels : ~0u;
    int has_timeline = (shown >> PANEL_TIMELINE) & 1;
    int top = r.y + head + u->pad, tl_h = has_timeline ? (compact ? u->lh / 2 + 2 * u->pad + 3 : 2 * u->lh + 2 * u->pad) : 0;
    dl_rect body = {r.x, top, r.w, r.y + r.h - top - tl_h - (has_timeline ? u->pad : 0)};
    static const int order[] = {PANEL_SOURCE, PANEL_PICTURE, PANEL_BANKS, PANEL_MEMORY, PANEL_LANES, PANEL_STATS};
    int focus = stage_focus_of(u, cls), wide = r.w >= 100 * u->digit;
    int left[PANEL_COUNT], right[PANEL_COUNT], nl = 0, nr = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int id = order[k];
        if (!(shown >> id & 1)) continue;
        if (wide && id != focus && (id == PANEL_SOURCE || id == PANEL_STATS)) left[nl++] = id;
        else if (id == focus) { /* the step's picture: right under the source (or at the top of the right) */
            int at = wide ? 0 : (nr > 0 && right[0] == PANEL_SOURCE);
            for (int j = nr; j > at; j--) right[j] = right[j - 1];
            right[at] = id;
            nr++;
        } else right[nr++] = id;
    }
    if (wide && nl && nr) {
        int lw = r.w * 38 / 100;
        dl_rect lc = {body.x, body.y, lw - u->pad, body.h}, rc = {body.x + lw, body.y, body.w - lw, body.h};
        stage_column(u, pi, p, bp, waves, lc, left, nl, cls, 0, twin);
        stage_column(u, pi, p, bp, waves, rc, right, nr, cls, rc.w > 0 ? (int)(share / rc.w) : 0, twin);
    } else {
        for (int i = 0; i < nl; i++) right[nr++] = left[i];
        stage_column(u, pi, p, bp, waves, body, right, nr, cls, body.w > 0 ? (int)(share / body.w) : 0, twin);
    }
    if (has_timeline) draw_timeline(u, pi, p, (dl_rect){r.x, r.y + r.h - tl_h, r.w, tl_h});
}
