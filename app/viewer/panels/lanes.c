#include "app/viewer/panels/internal.h"

/* A warp's lanes in one word: the state they share, or how many work ("w3: 16 of 32 working"). */
static const str_id state_words[] = {[VIEW_LANE_IDLE] = STR_STATE_IDLE, [VIEW_LANE_WORKING] = STR_STATE_WORKING,
                                     [VIEW_LANE_DIVERGED] = STR_STATE_DIVERGED, [VIEW_LANE_BARRIER] = STR_STATE_BARRIER,
                                     [VIEW_LANE_EXITED] = STR_STATE_EXITED};

/* the state every lane of warp w is in, or -1 when they differ */
static int warp_state(const scene_pane *p, unsigned w)
{
    const view_model *m = p->m;
    int st = -1;
    for (unsigned l = 0; l < WARP_SIZE && w * WARP_SIZE + l < m->threads; l++) {
        int s = p->lanes[w * WARP_SIZE + l];
        if (st >= 0 && s != st) return -1;
        st = s;
    }
    return st;
}

/* Warps [from, to) in words, runs of one state joined: "w2–w7: idle; w8: 12 of 32 working". */
void warps_in_words(ui *u, const scene_pane *p, unsigned from, unsigned to, char *b, size_t len)
{
    size_t n = 0;
    b[0] = '\0';
    for (unsigned w = from; w < to && n + 1 < len;) {
        int st = warp_state(p, w);
        unsigned e = w + 1;
        while (st >= 0 && e < to && warp_state(p, e) == st) e++;
        char what[96];
        if (st >= 0 && (size_t)st < sizeof state_words / sizeof state_words[0]) snprintf(what, sizeof what, "%s", S(u, state_words[st]));
        else {
            unsigned working = 0;
            for (unsigned l = 0; l < WARP_SIZE && w * WARP_SIZE + l < p->m->threads; l++) working += p->lanes[w * WARP_SIZE + l] == VIEW_LANE_WORKING;
            snprintf(what, sizeof what, S(u, STR_SUM_WARP_PART), working, WARP_SIZE);
        }
        int k = e - w > 1 ? snprintf(b + n, len - n, "%sw%u\xE2\x80\x93w%u: %s", n ? "; " : "", w, e - 1, what)
                          : snprintf(b + n, len - n, "%sw%u: %s", n ? "; " : "", w, what);
        if (k < 0 || (size_t)k >= len - n) break;
        n += (size_t)k;
        w = e;
    }
}

/* Every thread as a cell, a row per warp, each row at least a line of text high so its label reads;
 * the warps that do not fit are said in words on the last row ("w2–w7: idle"). The rows shown are
 * the ones around the step's warp. */
void draw_lanes(ui *u, int pi, const scene_pane *p, dl_rect r)
{
    const view_model *m = p->m;
    /* a warp that diverged here: the title says where and how its lanes split */
    char title[300];
    snprintf(title, sizeof title, "%s", S(u, STR_LANES_TITLE));
    for (unsigned w = 0; w < m->nwarps && p->st && p->st->line && p->st->kind != TRACE_EXIT; w++) {
        unsigned n[VIEW_LANE_EXITED + 1] = {0};
        for (unsigned l = 0; l < WARP_SIZE && w * WARP_SIZE + l < m->threads; l++) n[p->lanes[w * WARP_SIZE + l] % (VIEW_LANE_EXITED + 1)]++;
        if (!n[VIEW_LANE_DIVERGED]) continue;
        snprintf(title, sizeof title, S(u, STR_LANES_DIVERGED), w, p->st->line, n[VIEW_LANE_WORKING], n[VIEW_LANE_DIVERGED],
                 n[VIEW_LANE_IDLE] + n[VIEW_LANE_BARRIER] + n[VIEW_LANE_EXITED]);
        break;
    }
    dl_rect in = panel(u, "lanes", r, title);
    int nw = (int)m->nwarps, rh = u->lh + 2, fit = in.h / rh;
    if (fit < nw && nw * u->lh <= in.h) fit = nw, rh = in.h / nw; /* every warp, its label's line high, before a line of words */
    if (fit < 1 || nw < 1) return;
    int show = nw <= fit ? nw : fit - 1, w0 = 0;
    if (show < nw) { /* a window of warps holding the focus's lane (a pinned one, the keys' cursor), else the step's first working warp */
        uint32_t f = u->sc->s->focus;
        int focus = HIT_KIND(f) == HIT_LANE && HIT_PANE(f) == pi && HIT_INDEX(f) < (int64_t)m->threads ? (int)(HIT_INDEX(f) / WARP_SIZE) : -1;
        for (int w = 0; focus < 0 && w < nw; w++)
            if (warp_state(p, (unsigned)w) != VIEW_LANE_IDLE && warp_state(p, (unsigned)w) != VIEW_LANE_EXITED) { focus = w; break; }
        w0 = focus - show / 2;
        if (w0 + show > nw) w0 = nw - show;
        if (w0 < 0) w0 = 0;
    }
    if (nw <= fit && rh * nw < in.h) rh = in.h / nw > 2 * u->lh ? 2 * u->lh : in.h / nw; /* room to spare: taller rows */
    int label_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "w00") + u->pad;
    int cw = (in.w - label_w) / WARP_SIZE;
    if (cw < 2) cw = 2;
    int gap = cw >= 12 ? 2 : 1;
    /* asked which lanes do something, the lanes wait for the answer uncoloured */
    int hold = holding_back(u) && u->sc->s->lesson.ask == ASK_LANES;
    dl_clip(u->l, in);
    for (int k = 0; k < show; k++) {
        unsigned w = (unsigned)(w0 + k);
        int y = in.y + k * rh;
        dl_textf(u->l, (dl_rect){in.x, y + (rh - u->lh) / 2, label_w - u->pad / 2, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, u->th->dim, "w%u", w);
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            unsigned tid = w * WARP_SIZE + l;
            if (tid >= m->threads) break;
            dl_rect c = {in.x + label_w + (int)l * cw, y + 1, cw - gap, rh - 2};
            dl_colour col = lane_colour(u->th, hold ? VIEW_LANE_IDLE : p->lanes[tid]);
            if (u->to && u->ease > 0 && !hold) col = mix(col, lane_colour(u->th, u->to->lanes[tid]), u->ease); /* lanes fade to their next state */
            dl_fill_hit(u->l, c, col, HIT_CODE(HIT_LANE, pi, tid));
            if (pi == 0) lesson_marks(u, SESSION_ITEM_LANES, tid, c);
        }
    }
    if (show < nw && !hold) { /* the others, in words: before the window, then after it */
        char b[400], a2[200] = "";
        warps_in_words(u, p, 0, (unsigned)w0, b, sizeof b);
        warps_in_words(u, p, (unsigned)(w0 + show), (unsigned)nw, a2, sizeof a2);
        if (b[0] && a2[0]) strncat(b, "; ", sizeof b - strlen(b) - 1);
        strncat(b, a2, sizeof b - strlen(b) - 1);
        dl_text(u->l, (dl_rect){in.x, in.y + show * rh, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, b);
    }
    dl_unclip(u->l);
}
