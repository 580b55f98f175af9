#include "app/viewer/panels/internal.h"

/* ---------- the grid view ---------- */

/* Tile colours: what the block is doing on the card, as the lanes' legend says it (running works,
 * done has exited), and grey for a block a GPU capture did not record. */
static dl_colour tile_colour(const theme *th, int state)
{
    const dl_colour c[] = {[TILE_WAITING] = th->background, [TILE_RUNNING] = th->working, [TILE_DONE] = th->read, [TILE_UNTRACED] = th->idle};
    return (unsigned)state < sizeof c / sizeof c[0] ? c[state] : th->idle;
}

/* text in a box only where all of it fits: a tile shows nothing rather than half a number */
static int fits_text(ui *u, dl_rect box, dl_font f, dl_colour c, const char *s)
{
    if (box.h < u->lh || dl_text_width(u->l, f, u->px, s) > box.w) return 0;
    dl_text(u->l, box, f, u->px, DL_LEFT, c, s);
    return 1;
}

/* A pass's tab: the whole of it ("pass 0: 128 x 256, n_in 65536") or its pass and shape alone;
 * its text in b, its width returned. */
static int plan_tab(ui *u, const trace *t, unsigned k, int whole, char *b, size_t len)
{
    const trace_pass *p = &t->passes[k];
    if (whole) snprintf(b, len, S(u, STR_GRID_PASS), k, p->grid, p->block, (unsigned long long)p->n_in);
    else snprintf(b, len, S(u, STR_GRID_PASS_SHAPE), k, p->grid, p->block);
    return dl_text_width(u->l, DL_FONT_MONO, u->px, b) + 2 * u->pad;
}

/* The launch plan as a row of passes, the selected one filled; returns the row's height. Each tab
 * is drawn whole or not at all: the first of these that fits the row is drawn (the label, the
 * selected tab, the others): every tab whole; the others by pass and shape; all by pass and shape;
 * the same without the label. Where even that is too wide (naive's many launches), the tabs
 * around the selected one that fit, and a count of the passes left out. */
static int grid_plan(ui *u, const scene_grid *g, dl_rect in)
{
    static const struct { int label, sel_whole, rest_whole; } forms[] = {{1, 1, 1}, {1, 1, 0}, {1, 0, 0}, {0, 0, 0}};
    const theme *th = u->th;
    const trace *t = g->t;
    const unsigned np = g->npasses;
    char b[120];
    int lw = dl_text_width(u->l, DL_FONT_UI, u->px, S(u, STR_GRID_PLAN)) + u->pad, gap = u->pad;
    size_t f = 0;
    unsigned lo = 0, hi = np ? np - 1 : 0; /* the tabs drawn: [lo, hi] */
    for (; f < sizeof forms / sizeof forms[0]; f++) {
        int w = forms[f].label ? lw : 0;
        for (unsigned k = 0; k < np; k++) w += plan_tab(u, t, k, k == g->pass ? forms[f].sel_whole : forms[f].rest_whole, b, sizeof b) + gap;
        if (w - gap <= in.w) break;
    }
    const size_t nforms = sizeof forms / sizeof forms[0];
    int label = f < nforms && forms[f].label, sel_whole = f < nforms && forms[f].sel_whole, rest_whole = f < nforms && forms[f].rest_whole;
    if (f == nforms && np) { /* too many: the selected tab and its neighbours, then the rest counted */
        lo = hi = g->pass;
        int used = plan_tab(u, t, g->pass, 0, b, sizeof b);
        for (int grew = 1; grew;) {
            grew = 0;
            for (int side = 0; side < 2; side++) {
                if (side ? lo == 0 : hi + 1 >= np) continue;
                unsigned k = side ? lo - 1 : hi + 1, left = np - (hi - lo + 2);
                int w = used + gap + plan_tab(u, t, k, 0, b, sizeof b);
                if (left) snprintf(b, sizeof b, S(u, STR_GRID_PLAN_MORE), left);
                if (w + (left ? gap + dl_text_width(u->l, DL_FONT_UI, u->px, b) : 0) > in.w) continue;
                used = w;
                if (side) lo--;
                else hi++;
                grew = 1;
            }
        }
    }
    int x = in.x;
    if (label) {
        dl_text(u->l, (dl_rect){in.x, in.y, lw, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, S(u, STR_GRID_PLAN));
        x += lw;
    }
    for (unsigned k = lo; np && k <= hi; k++) {
        int sel = k == g->pass, w = plan_tab(u, t, k, sel ? sel_whole : rest_whole, b, sizeof b);
        dl_rect c = {x, in.y, w, u->lh};
        dl_fill_hit(u->l, c, sel ? th->accent : th->background, HIT_CODE(HIT_PASS, 0, k));
        dl_text(u->l, (dl_rect){c.x + u->pad, c.y, c.w - 2 * u->pad, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, sel ? th->background : th->text, b);
        x += w + gap;
    }
    if (np && hi - lo + 1 < np) {
        snprintf(b, sizeof b, S(u, STR_GRID_PLAN_MORE), np - (hi - lo + 1));
        dl_text(u->l, (dl_rect){x, in.y, in.x + in.w - x, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
    }
    return u->lh + u->pad;
}

/* The title: the version's name and the pass on one line where they fit at the title's size, else
 * the name on one line and the pass on the next (each shrunk towards the text's size before
 * anything is cut); returns its height. */
static int grid_title(ui *u, const scene_grid *g, const trace_pass *tp, dl_rect in)
{
    char pass[200], b[400];
    snprintf(pass, sizeof pass, S(u, STR_GRID_TITLE_PASS), g->pass, tp->grid, tp->block, (unsigned long long)tp->n_in);
    snprintf(b, sizeof b, S(u, STR_GRID_TITLE), g->name, pass);
    if (dl_text_width(u->l, DL_FONT_UI, u->big, b) <= in.w) {
        dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, b);
        return u->blh;
    }
    const char *lines[] = {g->name, pass};
    for (int i = 0; i < 2; i++) {
        int px = fit_px(u, DL_FONT_UI, u->big, lines[i], in.w);
        dl_text(u->l, (dl_rect){in.x, in.y + i * u->blh, in.w, u->blh}, DL_FONT_UI, px, DL_LEFT, u->th->text, lines[i]);
    }
    return 2 * u->blh;
}

/* the legend of tile states, on one line */
static void grid_legend(ui *u, dl_rect in)
{
    static const struct { int state; str_id name; } legend[] = {{TILE_WAITING, STR_GRID_WAITING}, {TILE_RUNNING, STR_GRID_RUNNING},
                                                                {TILE_DONE, STR_GRID_DONE}, {-1, STR_GRID_OPEN}};
    int x = in.x, sw = u->lh * 2 / 3, right = in.x + in.w;
    for (size_t i = 0; i < sizeof legend / sizeof *legend; i++) {
        const char *name = S(u, legend[i].name);
        int w = sw + u->pad / 2 + dl_text_width(u->l, DL_FONT_UI, u->px, name);
        if (x + w > right) break;
        dl_rect sq = {x, in.y + (u->lh - sw) / 2, sw, sw};
        if (legend[i].state >= 0) {
            dl_fill(u->l, sq, tile_colour(u->th, legend[i].state));
            dl_outline(u->l, sq, u->th->grid, 1);
        } else {
            dl_outline(u->l, sq, u->th->accent, 2);
        }
        dl_text(u->l, (dl_rect){x + sw + u->pad / 2, in.y, right - x - sw - u->pad / 2, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->text, name);
        x += w + 2 * u->pad;
    }
}

/* Columns for n tiles in w x h: the layout that gives the largest tiles about 4 times as wide as
 * high (a block number and a partial sum side by side). */
static int grid_columns(size_t n, int w, int h)
{
    int best = 1;
    double score = -1;
    for (size_t cols = 1; cols <= n; cols++) {
        size_t rows = (n + cols - 1) / cols;
        double tw = (double)w / (double)cols, th = (double)h / (double)rows, s = tw / 4 < th ? tw / 4 : th;
        if (s > score) { score = s; best = (int)cols; }
        if (rows == 1) break;
    }
    return best;
}

/* A GPU trace's SMs: a row per SM the pass ran on, its blocks left to right in the order they
 * started there (by that SM's clock: clocks of different SMs are not compared). */
static void grid_sms(ui *u, const scene_grid *g, dl_rect r)
{
    const theme *th = u->th;
    dl_text(u->l, (dl_rect){r.x, r.y, r.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_GRID_SM_TITLE));
    r.y += u->lh;
    r.h -= u->lh;
    int rows = (int)g->npass_sms, rh = r.h / (rows ? rows : 1);
    if (rh > u->lh + 2) rh = u->lh + 2; /* a line of text in each box, with a pixel to spare */
    if (rh < 1) return;
    int label_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "SM 000") + u->pad, every = (u->lh + rh - 1) / rh;
    int bw = (r.w - label_w) / g->max_turn, vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    int want = dl_text_width(u->l, DL_FONT_MONO, u->px, "00000") + u->pad;
    if (bw > want) bw = want;
    if (bw < 1) return;
    for (int k = 0; k < rows; k += every)
        if (r.y + k * rh + u->lh <= r.y + r.h)
            dl_textf(u->l, (dl_rect){r.x, r.y + k * rh, label_w - u->pad, u->lh}, DL_FONT_MONO, u->px, DL_RIGHT, th->dim, "SM %u", g->pass_sms[k]);
    for (size_t i = 0; i < g->ntiles; i++) {
        const scene_tile *tl = &g->tiles[i];
        if (tl->sm_order <= 0) continue;
        size_t lo = 0, hi = g->npass_sms; /* its SM's row */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (g->pass_sms[mid] < tl->sm) lo = mid + 1;
            else hi = mid;
        }
        dl_rect c = {r.x + label_w + (tl->sm_order - 1) * bw, r.y + (int)lo * rh, bw > 3 ? bw - 1 : bw, rh > 3 ? rh - 1 : rh};
        dl_fill_hit(u->l, c, tile_colour(th, tl->state), HIT_CODE(HIT_TILE, 0, tl->block));
        if (vh <= c.h) {
            char v[16];
            snprintf(v, sizeof v, "%u", tl->block);
            fits_text(u, (dl_rect){c.x + 2, c.y, c.w - 2, c.h}, DL_FONT_MONO, th->text, v);
        }
    }
}


/* what limits the blocks an SM holds, in the learner's language */
static const str_id limit_str[CARD_LIMIT_COUNT] = {[CARD_LIMIT_THREADS] = STR_LIMIT_THREADS, [CARD_LIMIT_BLOCKS] = STR_LIMIT_BLOCKS,
                                                   [CARD_LIMIT_SHARED] = STR_LIMIT_SHARED, [CARD_LIMIT_REGISTERS] = STR_LIMIT_REGISTERS};

/* The card: a box per SM, in each a slot per block the SM holds at once, filled with the block
 * that holds it at the wave shown (its number where it fits) or empty: in the last wave, the
 * empty slots are the card standing idle. A click on a block opens it. */
static void grid_card(ui *u, const scene_grid *g, dl_rect r)
{
    const theme *th = u->th;
    dl_rect title = {r.x, r.y, r.w, u->lh};
    r.y += u->lh;
    r.h -= u->lh;
    unsigned sms = g->nsm_slots, ns = g->nslots;
    if (!sms || !ns || r.h < 4) { dl_text(u->l, title, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_GRID_CARD_TITLE)); return; }
    /* slots in rows of up to 8 inside a box; boxes in the columns that give the largest slots
     * (twice as wide as high: a block number fits) */
    unsigned scols = ns < 8 ? ns : 8, srows = (ns + scols - 1) / scols;
    int best_cols = 1;
    double best = -1;
    for (unsigned c = 1; c <= sms; c++) {
        unsigned rows = (sms + c - 1) / c;
        double cw = ((double)r.w / c - 3) / scols, ch = ((double)r.h / rows - 3) / srows, sc = cw / 2 < ch ? cw / 2 : ch;
        if (sc > best) { best = sc; best_cols = (int)c; }
    }
    int cols = best_cols, rows = (int)((sms + (unsigned)cols - 1) / (unsigned)cols);
    int bw = r.w / cols, bh = r.h / rows, cw = (bw - 3) / (int)scols, ch = (bh - 3) / (int)srows;
    if (ch > u->lh + 2) ch = u->lh + 2;
    if (cw > 2 * (u->lh + 2) + dl_text_width(u->l, DL_FONT_MONO, u->px, "0000")) cw = 2 * (u->lh + 2) + dl_text_width(u->l, DL_FONT_MONO, u->px, "0000");
    if (cw < 1 || ch < 1) return;
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    int tiny = vh > ch - 1 || dl_text_width(u->l, DL_FONT_MONO, u->px, "0") > cw - 2;
    if (tiny) { /* slots too small to read: SMs in rows, with counts */
        /* a box per SM saying how many of its slots hold a block ("8/8"), filled as far as they do;
         * rows of SMs, each row's first SM number at its left: the card read at a glance */
        int px = u->px, least = u->sc->s->presenter ? u->px : value_least(u); /* presenter mode: its own size or the slots as they were */
        char widest[24], lab[24];
        snprintf(widest, sizeof widest, "%u/%u", ns, ns);
        snprintf(lab, sizeof lab, "SM %u ", sms - 1);
        for (; px >= least; px--) {
            int tw = dl_text_width(u->l, DL_FONT_MONO, px, widest) + 6, lw = dl_text_width(u->l, DL_FONT_MONO, px, lab), th_ = dl_text_height(u->l, DL_FONT_MONO, px) + 4;
            int per = tw > 0 ? (r.w - lw) / tw : 0, nrows = per > 0 ? (int)((sms + (unsigned)per - 1) / (unsigned)per) : 0;
            if (per < 1 || nrows * th_ > r.h) continue;
            dl_text(u->l, title, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_GRID_CARD_ROWS));
            for (int row = 0; row < nrows; row++) {
                unsigned s0 = (unsigned)(row * per);
                int y = r.y + row * th_;
                dl_textf(u->l, (dl_rect){r.x, y + 2, lw, th_ - 4}, DL_FONT_MONO, px, DL_LEFT, th->dim, "SM %u", s0);
                for (unsigned sm = s0; sm < sms && sm < s0 + (unsigned)per; sm++) {
                    unsigned busy = 0;
                    int any = -1;
                    for (unsigned k = 0; k < ns; k++)
                        if (g->slots[(size_t)sm * ns + k] >= 0) busy++, any = any < 0 ? g->slots[(size_t)sm * ns + k] : any;
                    dl_rect c = {r.x + lw + (int)(sm - s0) * tw, y, tw - 2, th_ - 2};
                    dl_colour full = tile_colour(th, g->slots_done ? TILE_DONE : TILE_RUNNING), fill = mix(th->panel, full, (double)busy / ns);
                    if (any >= 0) dl_fill_hit(u->l, c, fill, HIT_CODE(HIT_TILE, 0, (unsigned)any));
                    else dl_fill(u->l, c, fill);
                    dl_outline(u->l, c, th->grid, 1);
                    dl_textf(u->l, (dl_rect){c.x + 1, c.y + 1, c.w - 2, c.h - 2}, DL_FONT_MONO, px, DL_CENTRE, on_colour(th, fill), "%u/%u", busy, ns);
                }
            }
            return;
        }
    }
    /* the rows do not fit either (presenter mode keeps its size): the boxes, as the title says */
    dl_text(u->l, title, DL_FONT_UI, u->px, DL_LEFT, th->text, S(u, STR_GRID_CARD_TITLE));
    for (unsigned sm = 0; sm < sms; sm++) {
        int bx = r.x + (int)(sm % (unsigned)cols) * bw, by = r.y + (int)(sm / (unsigned)cols) * bh;
        dl_rect box = {bx, by, (int)scols * cw + 2, (int)srows * ch + 2};
        dl_outline(u->l, box, th->grid, 1);
        for (unsigned k = 0; k < ns; k++) {
            int b = g->slots[(size_t)sm * ns + k];
            dl_rect c = {bx + 1 + (int)(k % scols) * cw, by + 1 + (int)(k / scols) * ch, cw > 2 ? cw - 1 : cw, ch > 2 ? ch - 1 : ch};
            if (b < 0) continue; /* an idle slot: the box's background shows through */
            dl_fill_hit(u->l, c, tile_colour(th, g->slots_done ? TILE_DONE : TILE_RUNNING), HIT_CODE(HIT_TILE, 0, (unsigned)b));
            if (vh <= c.h) {
                char v[16];
                snprintf(v, sizeof v, "%d", b);
                fits_text(u, (dl_rect){c.x + 1, c.y, c.w - 1, c.h}, DL_FONT_MONO, th->text, v);
            }
        }
    }
}

/* What the strip of the pass's output says: who reads it, or the result. */
static void flow_says(ui *u, const scene_grid *g, char *b, size_t len)
{
    const trace *t = g->t;
    const trace_pass *tp = &t->passes[g->pass];
    if (g->pass + 1 < g->npasses && tp->stride) /* the naive version: one launch per stride, in place */
        snprintf(b, len, S(u, STR_GRID_FLOW_IN_PLACE), g->pass, tp->stride, 2 * tp->stride, g->pass + 1);
    else if (g->pass + 1 < g->npasses) snprintf(b, len, S(u, STR_GRID_FLOW), g->pass, g->blocks, g->pass + 1);
    else if (g->last_block >= 0) snprintf(b, len, S(u, STR_GRID_TICKETS), g->last_block, g->blocks);
    else if (g->ntiles > 1) snprintf(b, len, "%s", S(u, STR_GRID_TICKETS_UNTRACED));
    else snprintf(b, len, S(u, STR_GRID_RESULT), g->pass, (double)t->result, t->reference);
}

/* the strip of a pass's output: element i of n at [x(i), x(i + 1)) */
static int strip_x(dl_rect s, size_t i, size_t n) { return s.x + (int)((double)i * s.w / (double)(n ? n : 1)); }

void draw_grid(ui *u, dl_rect r)
{
    const scene_grid *g = &u->sc->grid;
    const session *s = u->sc->s;
    const theme *th = u->th;
    dl_rect in = panel(u, "grid", r, NULL);
    if (!g->shown) { line_at(u, in, 0, th->text, DL_FONT_UI, S(u, STR_GRID_NONE)); return; }
    const trace *t = g->t;
    const trace_pass *tp = &t->passes[g->pass];
    char b[400];
    int y = in.y + grid_title(u, g, tp, in) + u->pad;
    y += grid_plan(u, g, (dl_rect){in.x, y, in.w, u->lh});
    grid_legend(u, (dl_rect){in.x, y, in.w, u->lh});
    y += u->lh;
    /* what the states mean now, and what is missing */
    if (g->blocks > g->ntiles) {
        snprintf(b, sizeof b, S(u, STR_GRID_CAPPED), g->blocks, (unsigned)g->ntiles);
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, b);
        y += u->lh;
    } else if (g->traced < g->ntiles && !s->lesson.active) { /* a lesson's grid is about the card, not the sums */
        snprintf(b, sizeof b, S(u, s->loader.load ? STR_GRID_SOME_TRACED : STR_GRID_SOME_TRACED_FILE), g->traced, (unsigned)g->ntiles,
                 (unsigned)g->ntiles); /* A captures again; a file cannot */
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, b);
        y += u->lh;
    }
    /* the schedule: on which card, how many at once, which wave */
    const card_schedule *cs = &g->sched;
    if (!g->card) snprintf(b, sizeof b, S(u, STR_GRID_NO_SCHED), g->sched_err);
    else if (g->timed) {
        const card_observed *o = &g->obs;
        snprintf(b, sizeof b, S(u, STR_GRID_TIMED_SCHED), o->sms_used, o->most_live_on_one_sm, (unsigned long long)o->started_before_first_end, g->card->id,
                 cs->blocks_per_sm);
    } else if (holding_back(u)) { /* a question is open: its figures wait for the answer */
        snprintf(b, sizeof b, S(u, STR_GRID_SCHED_HELD), g->card->name, cs->sms);
    } else {
        char nb[48], nw[48];
        snprintf(b, sizeof b, S(u, STR_GRID_SCHED), g->card->name, cs->sms, cs->blocks_per_sm, tp->block, (unsigned long long)cs->resident_blocks,
                 S(u, limit_str[cs->limit]), str_count(u->L, NOUN_BLOCK, tp->grid, nb, sizeof nb),
                 str_count(u->L, NOUN_WAVE, g->nwaves, nw, sizeof nw));
    }
    /* these lines wrap: at a room's size they are the point of the view */
    dl_rect lines = {in.x, y, in.w, 4 * u->lh}; /* two lines each at most */
    y = text_block(u, lines, y, u->px, th->text, b);
    lines = (dl_rect){in.x, y, in.w, 2 * u->lh};
    char nblocks[48];
    str_count(u->L, NOUN_BLOCK, tp->grid, nblocks, sizeof nblocks);
    if (holding_back(u)) b[0] = '\0';
    else if (g->wave >= g->nwaves) snprintf(b, sizeof b, S(u, STR_GRID_ENDED), nblocks);
    else if (g->timed)
        snprintf(b, sizeof b, S(u, STR_GRID_TIMED), t->prov.device, (double)g->moment / 1000.0, g->wave + 1, g->nwaves,
                 (unsigned long long)g->running, (unsigned long long)g->done);
    else if (g->card) {
        unsigned long long first = g->wave_first, last = g->wave_last ? g->wave_last - 1 : 0;
        if (g->wave + 1 == g->nwaves && g->running < cs->resident_blocks) /* the last (or only) wave leaves slots idle */
            snprintf(b, sizeof b, S(u, STR_GRID_WAVE_LAST), g->wave + 1, g->nwaves, first, last, (unsigned long long)g->running,
                     (unsigned long long)cs->resident_blocks);
        else
            snprintf(b, sizeof b, S(u, STR_GRID_WAVE), g->wave + 1, g->nwaves, first, last, (unsigned long long)g->done);
    } else b[0] = '\0';
    y = b[0] ? text_block(u, lines, y, u->px, th->accent, b) : y + u->lh;
    if (g->gpu && !g->timed) {
        snprintf(b, sizeof b, S(u, STR_GRID_SMS), g->nsms);
        dl_text(u->l, (dl_rect){in.x, y, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->dim, b);
        y += u->lh;
    }
    /* the flow below the tiles: the pass's output as a strip, and who reads it */
    /* a lesson's grid is about the card: its SMs get the room, the output strip none */
    int lesson = s->lesson.active;
    int strips = !lesson && (g->pass + 1 < g->npasses || g->last_block >= 0 || g->ntiles > 1);
    /* what the strip says: on up to FLOW_LINES lines where one line is too narrow for it */
    enum { FLOW_LINES = 3 };
    char flow[400];
    const char *starts[FLOW_LINES + 1];
    size_t lens[FLOW_LINES + 1];
    flow_says(u, g, flow, sizeof flow);
    int flow_lines = lesson ? 0 : wrap(u, flow, in.w, u->px, starts, lens, FLOW_LINES + 1);
    if (flow_lines > FLOW_LINES) flow_lines = 1; /* more than that: one line, cut */
    int strip_h = strips ? 4 * u->lh + 2 * u->pad : lesson ? 0 : 2 * u->lh;
    if (flow_lines > 1) strip_h += (flow_lines - 1) * u->lh;
    dl_rect area = {in.x, y + u->pad / 2, in.w, in.y + in.h - strip_h - (y + u->pad / 2)};
    if (area.h < 4 || g->ntiles == 0) return;
    /* under the tiles, the card: a GPU trace with no recorded runs, a row per SM, its blocks in
     * the order they ran there; otherwise a box per SM with the blocks it holds at the wave shown */
    int sm_h = 0, old_rows = g->gpu && !g->timed && g->npass_sms && g->max_turn > 0;
    if (old_rows) {
        sm_h = area.h * 2 / 5;
        if (sm_h > (int)(g->npass_sms + 1) * (u->lh + 2)) sm_h = (int)(g->npass_sms + 1) * (u->lh + 2);
        area.h -= sm_h + u->pad;
        if (area.h < 4) return;
    } else if (g->nsm_slots && g->nslots) {
        sm_h = lesson ? area.h * 3 / 4 : area.h / 2;
        area.h -= sm_h + u->pad;
        if (area.h < 4) return;
    }
    /* tiles: as large as the area allows, capped at three lines of text */
    size_t n = g->ntiles;
    /* a tile wants room for "block: partial" and two more lines; few tiles get that (and up to
     * twice as wide), many share the area */
    int want_w = dl_text_width(u->l, DL_FONT_MONO, u->px, "0000: -0000.000") + 2 * u->pad, want_h = 3 * u->lh + u->pad;
    int cols = area.w / want_w > 0 ? area.w / want_w : 1;
    if ((size_t)cols > n) cols = (int)n;
    int rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
    int tw = area.w / cols, tht = want_h;
    if (tw > 2 * want_w) tw = 2 * want_w;
    if (rows * tht > area.h) { /* more than fit at full size */
        cols = grid_columns(n, area.w, area.h);
        rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
        tw = area.w / cols;
        tht = area.h / rows;
        if (tht > want_h) tht = want_h;
    }
    size_t shown = n;
    if (tw < 4 || tht < 3) { /* too many for the window: as many as fit, the rest counted */
        tw = 4;
        tht = 3;
        cols = area.w / tw;
        rows = (area.h - u->lh - u->pad) / tht; /* a line under them says how many more there are */
        if (rows < 1) rows = 1;
        shown = (size_t)cols * (size_t)rows < n ? (size_t)cols * (size_t)rows : n;
    }
    int gap = tw >= 12 && tht >= 8 ? 2 : tw >= 6 ? 1 : 0;
    int more_h = shown < n ? u->lh : 0; /* the line that counts the blocks not drawn */
    if (sm_h && old_rows) grid_sms(u, g, (dl_rect){in.x, area.y + rows * tht + more_h + u->pad, in.w, sm_h});
    else if (sm_h) grid_card(u, g, (dl_rect){in.x, area.y + rows * tht + more_h + u->pad, in.w, sm_h});
    dl_rect strip = {in.x, area.y + rows * tht + more_h + (sm_h ? sm_h + u->pad : 0) + (flow_lines > 1 ? flow_lines : 1) * u->lh + u->pad, in.w, u->lh};
    if (strip.y + 3 * u->lh > in.y + in.h) strip.y = in.y + in.h - 3 * u->lh;
    size_t nout = n;
    /* one row of tiles: a link from each to the element of the strip it wrote (more rows would
     * cross each other's links: there the strip's numbers say which element is whose) */
    if (strips && rows == 1 && shown == n && !sm_h) /* not across the SMs' boxes */
        for (size_t i = 0; i < n; i++)
            dl_line(u->l, area.x + (int)i * tw + (tw - gap) / 2, area.y + tht - gap, (strip_x(strip, i, n) + strip_x(strip, i + 1, n)) / 2,
                    strip.y, th->dim, 1);
    int vh = dl_text_height(u->l, DL_FONT_MONO, u->px);
    for (size_t i = 0; i < shown; i++) {
        const scene_tile *tl = &g->tiles[i];
        dl_rect c = {area.x + (int)(i % (size_t)cols) * tw, area.y + (int)(i / (size_t)cols) * tht, tw - gap, tht - gap};
        dl_fill_hit(u->l, c, tile_colour(th, tl->state), HIT_CODE(HIT_TILE, 0, tl->block));
        if (tl->state == TILE_WAITING) dl_outline(u->l, c, th->grid, 1);
        if ((int)tl->block == g->last_block) dl_outline(u->l, c, th->subtree, c.w > 8 ? 3 : 1);
        if (s->pass == g->pass && s->block_index == tl->block) dl_outline(u->l, c, th->accent, c.w > 8 ? 2 : 1);
        if (vh > c.h) continue;
        /* line 1: block and partial sum; line 2: SM and turn, or ticket, or state; line 3: last ticket */
        dl_rect l1 = {c.x + 3, c.y + 1, c.w - 6, u->lh};
        char v[64];
        if (tl->has_partial) snprintf(v, sizeof v, "%u: %.7g", tl->block, (double)tl->partial);
        else snprintf(v, sizeof v, "%u", tl->block);
        if (!fits_text(u, l1, DL_FONT_MONO, th->text, v) && tl->has_partial) {
            snprintf(v, sizeof v, "%.7g", (double)tl->partial); /* the sum matters more than the number */
            if (!fits_text(u, l1, DL_FONT_MONO, th->text, v)) {
                snprintf(v, sizeof v, "%u", tl->block);
                fits_text(u, l1, DL_FONT_MONO, th->text, v);
            }
        }
        dl_rect l2 = {l1.x, l1.y + u->lh, l1.w, c.y + c.h - (l1.y + u->lh)};
        if (tl->sm_order > 0) snprintf(v, sizeof v, S(u, STR_GRID_SM), tl->sm, tl->sm_order);
        else if (tl->ticket >= 0) snprintf(v, sizeof v, S(u, STR_GRID_TICKET), tl->ticket);
        else if (tl->state != TILE_DONE) snprintf(v, sizeof v, "%s", S(u, scene_tile_names[tl->state]));
        else if (!tl->traced) snprintf(v, sizeof v, "%s", S(u, STR_GRID_UNTRACED));
        else v[0] = '\0';
        if (v[0]) fits_text(u, l2, DL_FONT_UI, th->text, v);
        dl_rect l3 = {l1.x, l2.y + u->lh, l1.w, c.y + c.h - (l2.y + u->lh)};
        if ((int)tl->block == g->last_block) fits_text(u, l3, DL_FONT_UI, th->text, S(u, STR_GRID_LAST));
    }
    if (shown < n) {
        snprintf(b, sizeof b, S(u, STR_GRID_HIDDEN), n - shown);
        dl_text(u->l, (dl_rect){in.x, area.y + rows * tht, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->conflict, b);
    }
    /* the strip: what the pass wrote to global memory, and who reads it */
    if (lesson) return;
    if (flow_lines > 1) { /* wrapped over the lines kept for it above the strip */
        int y0 = strip.y - flow_lines * u->lh - u->pad / 2;
        text_block(u, (dl_rect){in.x, y0, in.w, flow_lines * u->lh}, y0, u->px, th->text, flow);
    } else {
        dl_text(u->l, (dl_rect){in.x, strip.y - u->lh - u->pad / 2, in.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, flow);
    }
    if (!strips) return;
    int every = 1, numw = dl_text_width(u->l, DL_FONT_MONO, u->px, "0000") + u->pad;
    while ((size_t)every < nout && every * strip.w / (int)nout < numw) every *= 2;
    for (size_t i = 0; i < nout; i++) {
        int x0 = strip_x(strip, i, nout), x1 = strip_x(strip, i + 1, nout);
        const scene_tile *tl = &g->tiles[i];
        dl_fill(u->l, (dl_rect){x0, strip.y, x1 - x0 > 2 ? x1 - x0 - 1 : 1, strip.h}, tl->has_partial ? th->write : th->idle);
    }
    for (size_t i = 0; i < nout; i++) { /* over the cells: each element's index, or every k-th */
        int x0 = strip_x(strip, i, nout);
        if (i % (size_t)every == 0 && vh <= strip.h) {
            char num[24];
            snprintf(num, sizeof num, "%zu", i);
            if (every > 1) dl_fill(u->l, (dl_rect){x0, strip.y, 1, strip.h}, th->text); /* a tick where the number is */
            fits_text(u, (dl_rect){x0 + 2, strip.y, every * strip.w / (int)nout - 2, strip.h}, DL_FONT_MONO, th->text, num);
        }
    }

    /* the readers: the next pass's blocks (or the last block) under the elements each read */
    int by = strip.y + strip.h + u->pad / 2;
    const scene_tile *readers = g->pass + 1 < g->npasses ? g->next : g->tiles;
    size_t nreaders = g->pass + 1 < g->npasses ? g->nnext : n;
    for (size_t j = 0; j < nreaders; j++) {
        const scene_tile *rd = &readers[j];
        if (rd->read_lo < 0 || (readers == g->tiles && (int)rd->block != g->last_block)) continue;
        int64_t lo = rd->read_lo, hi = rd->read_hi + 1 < (int64_t)nout ? rd->read_hi + 1 : (int64_t)nout;
        int x0 = strip_x(strip, (size_t)lo, nout), x1 = strip_x(strip, (size_t)hi, nout);
        dl_rect bar = {x0, by, x1 - x0 > 2 ? x1 - x0 - 1 : 1, u->lh / 3 > 2 ? u->lh / 3 : 2};
        dl_fill(u->l, bar, warp_colour(th, rd->block));
        snprintf(b, sizeof b, S(u, STR_GRID_READS), readers == g->tiles ? g->pass : g->pass + 1, rd->block);
        if (readers == g->tiles) snprintf(b + strlen(b), sizeof b - strlen(b), ": %s", S(u, STR_GRID_LAST));
        dl_rect lb = {x0, by + bar.h, x1 - x0, u->lh};
        if (lb.y + u->lh > in.y + in.h || fits_text(u, lb, DL_FONT_UI, th->dim, b)) continue;
        snprintf(b, sizeof b, "%u", rd->block); /* narrow: the block's number alone */
        fits_text(u, lb, DL_FONT_UI, th->dim, b);
    }
}
