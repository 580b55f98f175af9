#include "app/viewer/panels/internal.h"

/* Tickets (v8's single pass): each block's thread 0 draws a ticket with atomicInc when its partial
 * sum is stored; the block that draws the last one (grid - 1) knows every partial is there and sums
 * them all. A box per block of the pass, its ticket where the trace recorded its atomic ("?" where
 * the block was not traced), the last ticket outlined. */

/* the ticket block b of the pane's pass drew, or -1 where its atomic is not in the trace */
static int ticket_of(const scene_pane *p, unsigned b)
{
    const view_model *m = p->m;
    const trace *t = m->t;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind == TRACE_GLOBAL_ATOMIC && e->pass == m->pass && e->block == b && e->mask) return (int)trace_lane_value(t, e, 0, 0);
    }
    return -1;
}

static unsigned pass_grid(const scene_pane *p)
{
    const trace *t = p->m->t;
    return p->m->pass < t->npasses ? t->passes[p->m->pass].grid : 0;
}

int tickets_known(const scene_pane *p) { return pass_grid(p) > 0 && ticket_of(p, p->m->block) >= 0; }

void tickets_summary(ui *u, const scene_pane *p, char *b, size_t len)
{
    unsigned g = pass_grid(p);
    if (!g) { snprintf(b, len, "%s", S(u, STR_TICKETS_NONE)); return; }
    snprintf(b, len, S(u, STR_SUM_TICKETS), p->m->block, ticket_of(p, p->m->block), g - 1);
}

void draw_tickets(ui *u, const scene_pane *p, dl_rect r)
{
    unsigned g = pass_grid(p);
    char title[300];
    snprintf(title, sizeof title, S(u, STR_TICKETS_TITLE), g ? g - 1 : 0, g);
    dl_rect in = panel(u, "picture", r, title);
    const theme *th = u->th;
    if (!g) return;
    /* as many boxes per row as leave room for "b15" and "15" at the panel's size; rows as fit */
    char widest[48];
    int two = in.h >= 2 * u->lh + 6; /* the block over its ticket, or both on one line ("b3 #3") */
    snprintf(widest, sizeof widest, two ? "b%u" : "b%u #%u", g - 1, g - 1);
    int cw = dl_text_width(u->l, DL_FONT_MONO, u->px, widest) + 2 * u->pad, rh = two ? 2 * u->lh + 6 : u->lh + 4;
    int cols = cw > 0 ? in.w / cw : 0, rows = rh > 0 ? in.h / rh : 0;
    if (cols < 1 || rows < 1) return;
    if ((unsigned)cols > g) cols = (int)g;
    cw = in.w / cols;
    enum { SHOWN_MAX = 256 };
    unsigned show = (unsigned)(cols * rows) < g ? (unsigned)(cols * rows) : g, first = 0;
    if (show > SHOWN_MAX) show = SHOWN_MAX;
    if (show < g) { /* a window holding the block shown */
        unsigned b = p->m->block;
        first = b >= show / 2 ? b - show / 2 : 0;
        if (first + show > g) first = g - show;
    }
    int ticket[SHOWN_MAX]; /* one pass over the trace for the boxes shown */
    for (unsigned k = 0; k < show; k++) ticket[k] = -1;
    const trace *t = p->m->t;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind == TRACE_GLOBAL_ATOMIC && e->pass == p->m->pass && e->block >= first && e->block < first + show && e->mask &&
            ticket[e->block - first] < 0)
            ticket[e->block - first] = (int)trace_lane_value(t, e, 0, 0);
    }
    for (unsigned k = 0; k < show; k++) {
        unsigned b = first + k;
        int tk = ticket[k];
        dl_rect c = {in.x + (int)(k % (unsigned)cols) * cw, in.y + (int)(k / (unsigned)cols) * rh, cw - 2, rh - 4};
        dl_colour fill = tk < 0 ? th->idle : b == p->m->block ? th->working : th->panel;
        dl_fill(u->l, c, fill);
        dl_outline(u->l, c, tk >= 0 && (unsigned)tk + 1 == g ? th->accent : th->grid, tk >= 0 && (unsigned)tk + 1 == g ? 3 : 1);
        if (!two) {
            if (tk >= 0) dl_textf(u->l, (dl_rect){c.x + 1, c.y + 1, c.w - 2, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, on_colour(th, fill), "b%u #%d", b, tk);
            else dl_textf(u->l, (dl_rect){c.x + 1, c.y + 1, c.w - 2, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, on_colour(th, fill), "b%u ?", b);
            continue;
        }
        dl_textf(u->l, (dl_rect){c.x + 1, c.y + 1, c.w - 2, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, on_colour(th, fill), "b%u", b);
        if (tk >= 0) dl_textf(u->l, (dl_rect){c.x + 1, c.y + 1 + u->lh, c.w - 2, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, on_colour(th, fill), "#%d", tk);
        else dl_text(u->l, (dl_rect){c.x + 1, c.y + 1 + u->lh, c.w - 2, u->lh}, DL_FONT_MONO, u->px, DL_CENTRE, on_colour(th, fill), "?");
    }
}
