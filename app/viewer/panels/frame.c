#include "app/viewer/panels/internal.h"
#include "app/draw/wrap.h"

/* ---------- help, footer, tooltip ---------- */

static void draw_help(ui *u, dl_rect r)
{
    keys_help_line lines[64];
    size_t n = keys_help(u->L, u->sc->s->page, lines, 64);
    dl_rect in = panel(u, "help", r, NULL);
    dl_text(u->l, (dl_rect){in.x, in.y, in.w, u->blh}, DL_FONT_UI, u->big, DL_LEFT, u->th->text, S(u, STR_HELP_TITLE));
    int y0 = in.y + u->blh + u->pad, per_col = (in.y + in.h - y0) / u->lh;
    if (per_col < 1) return;
    int cols = (int)((n + (size_t)per_col - 1) / (size_t)per_col);
    if (cols < 2 && in.w > 90 * u->digit) cols = 2;
    per_col = (int)((n + (size_t)cols - 1) / (size_t)cols);
    int cw = in.w / cols, kw = 0;
    for (size_t i = 0; i < n; i++) {
        int w = dl_text_width(u->l, DL_FONT_MONO, u->px, lines[i].label);
        if (w > kw) kw = w;
    }
    if (kw > cw / 3) kw = cw / 3;
    /* each key's text wrapped to its column where every row then still fits (no "..." cut): the
     * rows run down a column and on to the next; where they would not fit, one line each */
    int tw = cw - kw - 2 * u->pad, bottom = in.y + in.h, col = 0, y = y0, wrapped = tw > 0;
    const char *starts[64]; /* as many lines as text_block draws */
    size_t lens[64];
    for (size_t i = 0; i < n && wrapped; i++) {
        int h = wrap(u, lines[i].text, tw, u->px, starts, lens, 64) * u->lh;
        if (y + h > bottom && y > y0) col++, y = y0;
        if (col >= cols || y + h > bottom) wrapped = 0;
        y += h;
    }
    col = 0, y = y0;
    for (size_t i = 0; i < n; i++) {
        if (wrapped) {
            int h = wrap(u, lines[i].text, tw, u->px, starts, lens, 64) * u->lh;
            if (y + h > bottom && y > y0) col++, y = y0;
        } else {
            col = (int)i / per_col, y = y0 + (int)i % per_col * u->lh;
        }
        int x = in.x + col * cw;
        dl_text(u->l, (dl_rect){x, y, kw, u->lh}, DL_FONT_MONO, u->px, DL_LEFT, u->th->accent, lines[i].label);
        dl_rect tr = {x + kw + u->pad, y, tw, u->lh};
        if (wrapped) y = text_block(u, (dl_rect){tr.x, y, tw, bottom - y}, y, u->px, u->th->text, lines[i].text);
        else dl_text(u->l, tr, DL_FONT_UI, u->px, DL_LEFT, u->th->text, lines[i].text);
    }
}

/* The keys' line ("PgDn/PgUp: wave  |  Left/Right: pass  |  ..."): whole keys, as many to a line
 * as fit r.w, over up to rows lines: a key that does not fit goes whole onto the next line, and
 * only a key wider than a line alone is broken, by the wrapper. Where the rows cannot hold every
 * key, the last row holds the rest, cut. Returns the lines drawn. */
static int draw_keys(ui *u, dl_rect r, int rows, dl_colour c, const char *keys)
{
    static const char sep[] = "  |  "; /* how every key line in strings.h separates its keys */
    char line[400] = "", cand[400];
    int n = 0;
    for (const char *k = keys; *k && n < rows;) {
        const char *end = strstr(k, sep), *next = end ? end + strlen(sep) : k + strlen(k);
        int kl = (int)((end ? end : next) - k);
        snprintf(cand, sizeof cand, "%s%s%.*s", line, line[0] ? sep : "", kl, k);
        if (dl_text_width(u->l, DL_FONT_UI, u->px, cand) <= r.w) { /* the key joins the line */
            snprintf(line, sizeof line, "%s", cand);
            k = next;
            if (*k) continue;
        } else if (line[0] && n + 1 == rows) { /* the last row: the rest of the keys, cut */
            snprintf(cand, sizeof cand, "%s%s%s", line, sep, k);
            snprintf(line, sizeof line, "%s", cand);
        } else if (!line[0]) { /* one key wider than a line: the wrapper breaks it */
            const char *starts[8];
            size_t lens[8];
            snprintf(line, sizeof line, "%.*s", kl, k);
            int m = wrap(u, line, r.w, u->px, starts, lens, 8);
            for (int i = 0; i < m && n < rows; i++, n++) {
                snprintf(cand, sizeof cand, "%.*s", (int)lens[i], starts[i]);
                dl_text(u->l, (dl_rect){r.x, r.y + n * u->lh, r.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, c, cand);
            }
            line[0] = '\0';
            k = next;
            continue;
        }
        dl_text(u->l, (dl_rect){r.x, r.y + n * u->lh, r.w, u->lh}, DL_FONT_UI, u->px, DL_LEFT, c, line);
        n++;
        line[0] = '\0';
    }
    return n;
}

/* What the status line says (a status, else the compare's difference; NULL: nothing), wrapped to
 * the footer's width: a bad file's error is read whole, at most a quarter of the window's lines */
enum { SAID_LINES = 8 };
typedef struct said_lines {
    const char *starts[SAID_LINES];
    size_t lens[SAID_LINES];
    int n;
} said_lines;

static void wrap_said(const ui *u, int w, int h, said_lines *said)
{
    const scene *sc = u->sc;
    const char *s = sc->overlay == OVERLAY_QUIT ? NULL : sc->status[0] ? sc->status : sc->diff[0] ? sc->diff : NULL;
    int most = h / u->lh / 4;
    if (most > SAID_LINES) most = SAID_LINES;
    if (most < 1) most = 1;
    said->n = s ? dl_wrap(u->l, DL_FONT_UI, u->px, s, w - 2 * u->pad, said->starts, said->lens, most) : 0;
    if (said->n == most) said->lens[said->n - 1] = strlen(said->starts[said->n - 1]); /* at the most lines, the last holds the rest, cut if it must be */
}

static void draw_footer(ui *u, dl_rect r, int with_legend, const said_lines *said)
{
    const scene *sc = u->sc;
    const theme *th = u->th;
    dl_panel_begin(u->l, "footer", r);
    int y = r.y, x = r.x + u->pad, sw = u->lh * 2 / 3, right = r.x + r.w - u->pad;
    if (!with_legend) {
    } else if (sc->overlay != OVERLAY_BENCH) { /* the legend flows over two lines at most */
        static const struct { int state; str_id name; } legend[] = {
            {VIEW_LANE_WORKING, STR_LEGEND_WORKING}, {VIEW_LANE_DIVERGED, STR_LEGEND_DIVERGED}, {VIEW_LANE_IDLE, STR_LEGEND_IDLE},
            {VIEW_LANE_BARRIER, STR_LEGEND_BARRIER}, {VIEW_LANE_EXITED, STR_LEGEND_EXITED}, {-1, STR_LEGEND_READ},
            {-2, STR_LEGEND_WRITTEN}, {-3, STR_LEGEND_CONFLICT}, {-4, STR_LEGEND_WRONG}};
        int line = 0, lines = u->compact ? 1 : 2;
        /* a wrong or racing result: its colour's entry first, where even one line holds it */
        int wrong = sc->pane[0].shown && (sc->pane[0].wrong_result || sc->pane[0].racing_result);
        if (sc->compare) wrong |= sc->pane[1].shown && (sc->pane[1].wrong_result || sc->pane[1].racing_result);
        size_t n = sizeof legend / sizeof *legend;
        for (size_t i = 0; i < n && line < lines; i++) {
            size_t k = wrong ? (i + n - 1) % n : i;
            const char *name = S(u, legend[k].name);
            int w = sw + u->pad / 2 + dl_text_width(u->l, DL_FONT_UI, u->px, name);
            if (x + w > right && x > r.x + u->pad) { line++; x = r.x + u->pad; y += u->lh; }
            if (line >= lines) break;
            dl_colour c = legend[k].state >= 0 ? lane_colour(th, legend[k].state) : legend[k].state == -1 ? th->read
                                                                                      : legend[k].state == -2 ? th->write : legend[k].state == -3 ? th->conflict : th->wrong;
            dl_fill(u->l, (dl_rect){x, y + (u->lh - sw) / 2, sw, sw}, c);
            if (legend[k].state == -4) dl_outline(u->l, (dl_rect){x, y + (u->lh - sw) / 2, sw, sw}, th->text, 1); /* as the tree outlines it */
            dl_text(u->l, (dl_rect){x + sw + u->pad / 2, y, right - x - sw - u->pad / 2, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, name);
            x += w + 2 * u->pad;
        }
        y = r.y + (u->compact ? 1 : 2) * u->lh;
    } else {
        const char *starts[2]; /* the benchmark's colours, over the legend's lines, the last holding the rest */
        size_t lens[2];
        int lines = dl_wrap(u->l, DL_FONT_UI, u->px, S(u, STR_BENCH_LEGEND), right - x, starts, lens, u->compact ? 1 : 2);
        for (int i = 0; i < lines; i++) {
            char line[300];
            snprintf(line, sizeof line, "%.*s", (int)(i == lines - 1 && lines == (u->compact ? 1 : 2) ? strlen(starts[i]) : lens[i]), starts[i]);
            dl_text(u->l, (dl_rect){x, y + i * u->lh, right - x, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->text, line);
        }
        y += (u->compact ? 1 : 2) * u->lh;
    }
    char b[300];
    int tell = sc->overlay == OVERLAY_QUIT || sc->status[0] || sc->diff[0];
    /* compact: one line for both, and what the step says comes before the keys */
    if (sc->overlay == OVERLAY_BENCH) snprintf(b, sizeof b, "%s", S(u, STR_BENCH_KEYS));
    else if (sc->overlay == OVERLAY_GRID) snprintf(b, sizeof b, "%s", S(u, sc->s->lesson.active ? STR_GRID_KEYS_LESSON : STR_GRID_KEYS));
    else if (sc->overlay == OVERLAY_PASSES) snprintf(b, sizeof b, "%s", S(u, STR_PASSES_KEYS));
    else /* in a lesson PgDn and PgUp turn its pages (keys.c's lesson rows come first) */
        snprintf(b, sizeof b, S_DEVICE(u, sc->s->lesson.active ? STR_FOOTER_HINT_LESSON : STR_FOOTER_HINT), S(u, sc->s->playing ? STR_PLAYING : STR_PAUSED),
                 sc->s->speed);
    if (!(u->compact && tell)) { /* the keys take the lines the footer has free, the status keeping one */
        int rows = (r.y + r.h - y) / u->lh - (tell ? (said->n > 1 ? said->n : 1) : 0);
        y += draw_keys(u, (dl_rect){r.x + u->pad, y, r.w - 2 * u->pad, u->lh}, rows > 1 ? rows : 1, th->dim, b) * u->lh;
    }
    if (sc->overlay == OVERLAY_QUIT) {
        dl_fill(u->l, (dl_rect){r.x, y, r.w, u->lh}, th->conflict);
        dl_text(u->l, (dl_rect){r.x + u->pad, y, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, th->background, S(u, STR_QUIT_ASK));
    } else {
        for (int i = 0; i < said->n; i++) {
            char line[sizeof sc->status > sizeof sc->diff ? sizeof sc->status : sizeof sc->diff];
            snprintf(line, sizeof line, "%.*s", (int)said->lens[i], said->starts[i]);
            dl_text(u->l, (dl_rect){r.x + u->pad, y + i * u->lh, r.w - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT,
                    sc->status[0] ? th->accent : th->text, line);
        }
    }
}

/* The focus (a pinned item, the keys' cursor): a ring around each place its item is drawn (a lane
 * in the lanes and in the banks picture, a word in shared memory and in the tree), outside the
 * item so its colour and marks still show, in the text's colour with a line of the background's
 * inside it, so that it shows on any fill and over any neighbour in either theme; kept to the
 * item's panel. Drawn after the panels, so no neighbour drawn later covers it. *at: for the
 * tooltip, the box around its items in the first panel that draws it; where none is drawn, the
 * one-line summary that stands for its panel (w 0: neither). */
static void draw_focus(ui *u, int w, int h, dl_rect *at)
{
    dl_list *l = u->l;
    uint32_t focus = u->sc->s->focus;
    *at = (dl_rect){0, 0, 0, 0};
    if (!focus || u->sc->overlay != OVERLAY_NONE) return;
    int t = u->px / 6 > 2 ? u->px / 6 : 2, g = t / 3 > 1 ? t / 3 : 1, begun = 0, first = -1; /* 2 CSS pixels on a phone's screen */
    for (size_t i = 0, n = l->n; i < n; i++) {
        dl_item it = l->items[i]; /* a copy: drawing the ring may move the list */
        if (it.kind != DL_FILL || it.hit != focus || it.panel < 0) continue;
        dl_rect pr = l->panels[it.panel].r;
        if (!dl_rect_inside(pr, it.r)) continue; /* a row scrolled out of its panel */
        if (!at->w) *at = it.r, first = it.panel;
        else if (it.panel == first) { /* the tooltip goes by all of them in that panel (a word's column of the tree) */
            int x2 = at->x + at->w > it.r.x + it.r.w ? at->x + at->w : it.r.x + it.r.w;
            int y2 = at->y + at->h > it.r.y + it.r.h ? at->y + at->h : it.r.y + it.r.h;
            at->x = at->x < it.r.x ? at->x : it.r.x, at->y = at->y < it.r.y ? at->y : it.r.y;
            at->w = x2 - at->x, at->h = y2 - at->y;
        }
        if (!begun) begun = 1, dl_panel_begin(l, "focus", (dl_rect){0, 0, w, h});
        dl_clip(l, pr);
        dl_outline(l, (dl_rect){it.r.x - t - g, it.r.y - t - g, it.r.w + 2 * (t + g), it.r.h + 2 * (t + g)}, u->th->text, t);
        dl_outline(l, (dl_rect){it.r.x - g, it.r.y - g, it.r.w + 2 * g, it.r.h + 2 * g}, u->th->background, g);
        dl_unclip(l);
    }
    /* not drawn (its panel is a one-line summary): the tooltip goes by that line, of its pane */
    static const char *const summary[] = {[HIT_LANE] = "lanes summary", [HIT_CELL] = "memory summary"};
    int kind = HIT_KIND(focus), pane = HIT_PANE(focus);
    if (at->w || kind <= 0 || (size_t)kind >= sizeof summary / sizeof *summary || !summary[kind]) return;
    for (int k = 0; k < l->npanels; k++) {
        const dl_panel *pp = &l->panels[k];
        if (pp->name && !strcmp(pp->name, summary[kind]) && (!u->sc->compare || (pp->r.x + pp->r.w / 2 >= w / 2) == pane)) {
            *at = pp->r;
            return;
        }
    }
}

/* The tooltip: by the mouse for what it hovers, under (or over) the item for the focus's; where one
 * line is wider than the window, wrapped onto a few */
static void draw_tooltip(ui *u, int w, int h, dl_rect item)
{
    const scene *sc = u->sc;
    if (!sc->tooltip[0] || (!sc->tip_focus && sc->s->mouse_x < 0)) return;
    int maxw = w - 2 * u->pad, one = dl_text_width(u->l, DL_FONT_UI, u->px, sc->tooltip);
    enum { TIP_LINES = 8 }; /* the longest (a bank's lanes, 300 bytes) is about six lines at a phone's width */
    const char *starts[TIP_LINES];
    size_t lens[TIP_LINES];
    int n = one > maxw - 2 * u->pad ? wrap(u, sc->tooltip, maxw - 2 * u->pad, u->px, starts, lens, TIP_LINES) : 1;
    if (n < 1) n = 1;
    int tw = (n > 1 ? maxw : one + 2 * u->pad), th_ = n * u->lh + u->pad, x, y;
    if (tw > w) tw = w;
    if (!sc->tip_focus) {
        x = sc->s->mouse_x + 14, y = sc->s->mouse_y + 18;
        if (y + th_ > h) y = sc->s->mouse_y - th_ - 4;
    } else if (item.w) { /* above the ring, else beside it, else below: never over its item (nor, above, over the row after it) */
        x = item.x, y = item.y - th_ - 6;
        if (y < 0) {
            y = item.y;
            if (item.x + item.w + 6 + tw <= w) x = item.x + item.w + 6;
            else if (item.x - 6 - tw >= 0) x = item.x - 6 - tw;
            else y = item.y + item.h + 6;
            if (y + th_ > h) y = h - th_;
        }
    } else { /* its item is not drawn (its panel is a summary): at the picture's foot */
        x = u->pad, y = h - th_ - 4 * u->lh;
    }
    if (x + tw > w) x = w - tw;
    if (x < 0) x = 0;
    if (y < 0) y = 0;
    dl_rect r = {x, y, tw, th_};
    dl_panel_begin(u->l, "tooltip", r);
    dl_fill(u->l, r, u->th->text);
    for (int i = 0; i < n; i++) {
        char line[sizeof sc->tooltip];
        if (n > 1) snprintf(line, sizeof line, "%.*s", (int)lens[i], starts[i]);
        dl_text(u->l, (dl_rect){x + u->pad, y + u->pad / 2 + i * u->lh, tw - 2 * u->pad, u->lh}, DL_FONT_UI, u->px, DL_LEFT, u->th->background,
                n > 1 ? line : sc->tooltip);
    }
}

void panels_draw(const scene *sc, dl_list *l, int w, int h, int px, double t)
{
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    ui u = {sc, sc->th, sc->lang, l, px, px * 7 / 5, 0, 0, px / 3 > 2 ? px / 3 : 2, 0, sc->s->presenter || sc->compare, t * t * (3 - 2 * t), NULL,
           sc->s->least_px > VALUE_PX_LEAST ? sc->s->least_px : VALUE_PX_LEAST};
    u.lh = dl_text_height(l, DL_FONT_UI, u.px);
    int mh = dl_text_height(l, DL_FONT_MONO, u.px);
    if (mh > u.lh) u.lh = mh;
    u.blh = dl_text_height(l, DL_FONT_UI, u.big);
    u.digit = dl_text_width(l, DL_FONT_MONO, u.px, "0");
    dl_reset(l);
    dl_fill(l, (dl_rect){0, 0, w, h}, u.th->background);
    /* a presented lesson needs the room: the legend gives way to the narration */
    int legend = !(sc->s->lesson.active && sc->s->presenter);
    said_lines said;
    wrap_said(&u, w, h, &said);
    int footer_h = (u.compact ? 1 + legend : legend ? 4 : 2) * u.lh + u.pad + (said.n > 1 ? said.n - 1 : 0) * u.lh;
    dl_rect main = {0, 0, w, h - footer_h};
    long area = (long)w * h * 36 / 100; /* the step's picture: over a third of the window */
    if (sc->s->lesson.active && sc->overlay != OVERLAY_MENU && sc->overlay != OVERLAY_HELP) { /* a lesson: narration below the picture */
        int nh = narration_height(&u, w - 2 * u.pad, main.h);
        draw_narration(&u, (dl_rect){u.pad, main.h - nh, w - 2 * u.pad, nh - u.pad});
        main.h -= nh;
    }
    if (sc->overlay == OVERLAY_MENU) {
        draw_menu(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_HELP) {
        draw_help(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_BENCH) {
        draw_bench(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_PASSES) {
        draw_passes(&u, inset(main, u.pad));
    } else if (sc->overlay == OVERLAY_GRID) {
        draw_grid(&u, inset(main, u.pad));
    } else if (sc->compare) {
        stage_class cls = scene_class(sc);
        draw_pane(&u, 0, (dl_rect){u.pad, u.pad, w / 2 - 2 * u.pad, main.h - u.pad}, cls, area / 2);
        dl_panel_begin(l, NULL, main);
        dl_fill(l, (dl_rect){w / 2 - 1, 0, 2, main.h}, u.th->grid);
        draw_pane(&u, 1, (dl_rect){w / 2 + u.pad, u.pad, w - w / 2 - 2 * u.pad, main.h - u.pad}, cls, area / 2);
    } else {
        draw_pane(&u, 0, (dl_rect){u.pad, u.pad, w - 2 * u.pad, main.h - u.pad}, scene_class(sc), area);
    }
    draw_footer(&u, (dl_rect){0, h - footer_h, w, footer_h}, legend && sc->overlay != OVERLAY_GRID && sc->overlay != OVERLAY_PASSES, &said); /* the grid has its own legend; the passes view needs none */
    dl_rect focus;
    draw_focus(&u, w, h, &focus);
    draw_tooltip(&u, w, h, focus);
    dl_fill_gaps(l, 0); /* the background only where no panel paints */
}

double panels_motion_seconds(double steps_per_second)
{
    /* 450 ms, eased; shorter while playing fast so a move ends before the next step */
    double s = 0.45, gap = steps_per_second > 0 ? 0.8 / steps_per_second : s;
    return gap < s ? gap : s;
}
