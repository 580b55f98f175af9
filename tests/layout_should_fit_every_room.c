/* The layout at the rooms the viewer is used in: at 1024x768, 1280x720, 1366x768, 1920x1080 and
 * 3840x2160, at three text scales (1, Ctrl+ twice, presenter mode), in English and Chinese, for a
 * small block, a 1024-thread block, compare (at a step of the tree, and at a shared store), the help, the grid view (every block traced, one
 * traced, v8's tickets, the last pass, a GPU trace's SMs) and the benchmark view: every text box lies
 * inside its panel and no text box overlaps another. Presenter text is at least 24 px at 768 lines
 * (a picture's numbers, the values' floor: 16 px).
 * The grid, benchmark and passes views' key lines are read whole: every key of the line (split at
 * '|') lies whole in one text of the footer and, measured from where it starts there, ends inside
 * the footer. The grid view's launch plan says each pass's shape ("G x B", from the trace) whole
 * inside its tab, and its title lines above the plan are not cut ("…"). Each pane's banks panel
 * says the pane's conflict degree whole: counted from the trace (the most distinct words the step's
 * warp asks of one bank), it stands as a whole number in a text of the panel that is not cut. */
#include <SDL_ttf.h>
#include <ctype.h>
#include <stdlib.h>

#include "check.h"
#include "ui_fixture.h"

static void rooms(fixture *f, const char *what);

static const int sizes[][2] = {{1024, 768}, {1280, 720}, {1366, 768}, {1920, 1080}, {3840, 2160}};
/* a phone's canvas as the page draws it: portrait at a pixel ratio of 1 and of 3 (text at least 12
 * CSS px), landscape */
static const struct { int w, h, min_px; } phones[] = {{390, 520, 12}, {1170, 1560, 36}, {844, 300, 12}, {2532, 900, 36}};

static int frames_checked;

/* item i's text, NUL-terminated */
static const char *item_text(const fixture *f, const dl_item *it, char *b, size_t len)
{
    snprintf(b, len, "%.*s", (int)it->len, dl_item_text(&f->l, it));
    return b;
}

static int panel_named(const fixture *f, const char *name)
{
    for (int p = 0; p < f->l.npanels; p++)
        if (f->l.panels[p].name && !strcmp(f->l.panels[p].name, name)) return p;
    return -1;
}

/* The keys' line of the grid, the benchmark and the passes views: each of its keys (the line split
 * at '|') is drawn whole in one text of the footer, and measured in that text's font, from where it
 * starts there, it ends inside the footer. */
static void check_keys(fixture *f, const char *what, int w, int h)
{
    str_id id = f->s.overlay == OVERLAY_GRID ? (f->s.lesson.active ? STR_GRID_KEYS_LESSON : STR_GRID_KEYS)
              : f->s.overlay == OVERLAY_BENCH ? STR_BENCH_KEYS : f->s.overlay == OVERLAY_PASSES ? STR_PASSES_KEYS : STR_COUNT;
    int footer = panel_named(f, "footer");
    if (id == STR_COUNT || footer < 0 || f->sc.status[0] || f->sc.diff[0]) return; /* a status may take the keys' place */
    dl_rect pr = f->l.panels[footer].r;
    const char *keys = str_get(f->s.lang, id);
    for (const char *k = keys; *k;) {
        while (*k == ' ' || *k == '|') k++;
        const char *end = strchr(k, '|');
        size_t kl = end ? (size_t)(end - k) : strlen(k);
        while (kl && k[kl - 1] == ' ') kl--;
        char key[200], b[1024];
        snprintf(key, sizeof key, "%.*s", (int)kl, k);
        k = end ? end : k + strlen(k);
        if (!key[0]) continue;
        int found = 0;
        for (size_t i = 0; i < f->l.n && !found; i++) {
            const dl_item *it = &f->l.items[i];
            if (it->kind != DL_TEXT || it->panel != footer) continue;
            const char *at = strstr(item_text(f, it, b, sizeof b), key);
            if (!at) continue;
            found = 1;
            char before[1024];
            snprintf(before, sizeof before, "%.*s", (int)(at - b), b);
            int x = it->r.x + dl_text_width(&f->l, it->font, it->px, before), kw = dl_text_width(&f->l, it->font, it->px, key);
            CHECK(x + kw <= pr.x + pr.w, "%s %dx%d: the key \"%s\" runs from x %d to %d, past the footer's right edge %d", what, w, h, key, x, x + kw,
                  pr.x + pr.w);
        }
        CHECK(found, "%s %dx%d: the key \"%s\" is not drawn whole in the footer", what, w, h, key);
    }
}

/* The grid view's launch plan and title: every tab (a pass's hit area) holds its pass's shape
 * ("G x B", from the trace) whole, inside the tab; the title lines above the tabs are not cut. */
static void check_grid_plan(fixture *f, const char *what, int w, int h)
{
    if (f->s.overlay != OVERLAY_GRID) return;
    const trace *t = &f->s.pane[0].t;
    int top = h;
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_FILL || it->hit >> 24 != HIT_PASS) continue;
        unsigned k = it->hit & 0x7FFFFFu;
        if (it->r.y < top) top = it->r.y;
        if (k >= t->npasses) { CHECK(0, "%s %dx%d: a tab for pass %u of %zu", what, w, h, k, t->npasses); continue; }
        char shape[64], b[1024];
        snprintf(shape, sizeof shape, "%u x %u", t->passes[k].grid, t->passes[k].block);
        int whole = 0;
        for (size_t j = 0; j < f->l.n; j++) {
            const dl_item *tx = &f->l.items[j];
            if (tx->kind != DL_TEXT || !dl_rect_inside(it->r, tx->r)) continue;
            item_text(f, tx, b, sizeof b);
            whole |= strstr(b, shape) && !strstr(b, "\xE2\x80\xA6") && dl_text_width(&f->l, tx->font, tx->px, b) <= it->r.w;
        }
        CHECK(whole, "%s %dx%d: pass %u's tab does not say its shape %s whole", what, w, h, k, shape);
    }
    int grid = panel_named(f, "grid");
    for (size_t i = 0; i < f->l.n && top < h; i++) {
        const dl_item *it = &f->l.items[i];
        char b[1024];
        if (it->kind == DL_TEXT && it->panel == grid && it->r.y + it->r.h <= top)
            CHECK(!strstr(item_text(f, it, b, sizeof b), "\xE2\x80\xA6"), "%s %dx%d: the grid's title is cut: \"%s\"", what, w, h, b);
    }
}

/* the conflict degree of event e, from its lanes' words: the most distinct words of one bank */
static int degree_of(const trace *t, const trace_event *e)
{
    int n = trace_popcount(e->mask), deg = 0;
    for (int q = 0; q < n; q++) {
        int64_t a = t->lane_addr[e->lanes + (size_t)q], words = 0;
        for (int k = 0; k < n; k++) {
            int64_t b = t->lane_addr[e->lanes + (size_t)k];
            if (((b % 32) + 32) % 32 != ((a % 32) + 32) % 32) continue;
            int first = 1; /* count each word of the bank once: at its first lane */
            for (int j = 0; j < k; j++) first &= t->lane_addr[e->lanes + (size_t)j] != b;
            words += first;
        }
        if (words > deg) deg = (int)words;
    }
    return deg;
}

/* every banks panel (or its one-line summary) of a pane says the pane's conflict degree whole: a
 * text of the panel, not cut, with more than digits in it, holds the number with no digit either side */
static void check_conflicts(fixture *f, const char *what, int w, int h)
{
    for (int pn = 0; pn < f->l.npanels; pn++) {
        const char *name = f->l.panels[pn].name;
        if (!name || (strcmp(name, "banks") && strcmp(name, "banks summary"))) continue;
        int pi = f->sc.compare && f->l.panels[pn].r.x >= w / 2;
        const scene_pane *sp = &f->sc.pane[pi];
        if (sp->bank_event < 0) continue;
        const trace *t = sp->m->t;
        char num[16], b[1024];
        snprintf(num, sizeof num, "%d", degree_of(t, &t->events[sp->bank_event]));
        int whole = 0;
        for (size_t i = 0; i < f->l.n && !whole; i++) {
            const dl_item *it = &f->l.items[i];
            if (it->kind != DL_TEXT || it->panel != pn) continue;
            item_text(f, it, b, sizeof b);
            if (strstr(b, "\xE2\x80\xA6") || strspn(b, "0123456789 ") == strlen(b)) continue;
            for (const char *at = strstr(b, num); at && !whole; at = strstr(at + 1, num))
                whole = (at == b || !isdigit((unsigned char)at[-1])) && !isdigit((unsigned char)at[strlen(num)]);
        }
        CHECK(whole, "%s %dx%d: pane %d's banks panel does not say its conflict degree %s whole", what, w, h, pi, num);
    }
}

/* the benchmark view says every label and number whole: no text of its panel, nor of its colours'
 * legend in the footer, is cut ("…") */
static void check_bench_whole(fixture *f, const char *what, int w, int h)
{
    int bench = panel_named(f, "bench"), footer = panel_named(f, "footer");
    if (f->s.overlay != OVERLAY_BENCH || bench < 0) return;
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        char b[1024];
        if (it->kind == DL_TEXT && (it->panel == bench || (it->panel == footer && same_colour(it->c, f->sc.th->text))))
            CHECK(!strstr(item_text(f, it, b, sizeof b), "\xE2\x80\xA6"), "%s %dx%d: the benchmark's text is cut: \"%s\"", what, w, h, b);
    }
}

static void check_frame_px(fixture *f, const char *what, int w, int h, int min_px)
{
    if (!min_px) fixture_frame(f, w, h, 0);
    else {
        scene_update(&f->sc, &f->s, sources_find);
        int px = panels_px(h, f->s.scale, f->s.presenter);
        panels_draw(&f->sc, &f->l, w, h, px < min_px ? min_px : px, 1.0);
    }
    frames_checked++;
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_TEXT) continue;
        CHECK(it->panel >= 0, "%s %dx%d: text \"%.*s\" outside any panel", what, w, h, (int)it->len, dl_item_text(&f->l, it));
        if (it->panel < 0) continue;
        dl_rect pr = f->l.panels[it->panel].r;
        CHECK(dl_rect_inside(pr, it->r), "%s %dx%d: text \"%.*s\" at (%d,%d %dx%d) leaves panel %s (%d,%d %dx%d)", what, w, h, (int)it->len,
              dl_item_text(&f->l, it), it->r.x, it->r.y, it->r.w, it->r.h, f->l.panels[it->panel].name, pr.x, pr.y, pr.w, pr.h);
        CHECK(dl_rect_inside((dl_rect){0, 0, w, h}, it->r), "%s %dx%d: text leaves the window", what, w, h);
        /* a picture's numbers (a bank's, a lane's) keep the values' floor, 16 px at 768 lines */
        char b[1024];
        int value = it->font == DL_FONT_MONO && strspn(item_text(f, it, b, sizeof b), "0123456789 ") == strlen(b);
        if (f->s.presenter && h == 768) CHECK(it->px >= (value ? 16 : 24), "%s: presenter text \"%s\" of %d px at 768 lines", what, b, it->px);
    }
    fixture_check_no_overlaps(f, what, w, h);
    check_keys(f, what, w, h);
    check_grid_plan(f, what, w, h);
    check_conflicts(f, what, w, h);
    check_bench_whole(f, what, w, h);
}

static void check_frame(fixture *f, const char *what, int w, int h) { check_frame_px(f, what, w, h, 0); }

/* the rooms, and a phone's at the page's text scale */
static void rooms_and_phones(fixture *f, const char *what)
{
    rooms(f, what);
    for (int lang = 0; lang < 2; lang++) {
        fixture_act(f, lang ? "lang:zh" : "lang:en");
        for (size_t i = 0; i < sizeof phones / sizeof phones[0]; i++) check_frame_px(f, what, phones[i].w, phones[i].h, phones[i].min_px);
    }
}

static void rooms(fixture *f, const char *what)
{
    static const char *const scales[] = {"", "scale:1,scale:1", "scale:-1,scale:-1,presenter"};
    for (int lang = 0; lang < 2; lang++) {
        fixture_act(f, lang ? "lang:zh" : "lang:en");
        for (size_t sc = 0; sc < 3; sc++) {
            fixture_act(f, sc == 0 ? "" : scales[sc]);
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_frame(f, what, sizes[i][0], sizes[i][1]);
            if (sc == 1) fixture_act(f, "scale:-1,scale:-1");
            if (sc == 2) fixture_act(f, "presenter,scale:1,scale:1");
        }
    }
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    CHECK(fixture_open(&f, "v1", 64, NULL, 3840, 2160) == 0, "setup");
    fixture_act(&f, "seek-phase:1,step:1");
    rooms(&f, "v1 block 64");
    fixture_act(&f, "compare:v2");
    rooms(&f, "v1 | v2");
    fixture_act(&f, "seek-step:5"); /* a shared store: v1's two-way conflict beside v2's none */
    rooms(&f, "v1 | v2 step 5");
    fixture_act(&f, "compare:off,help");
    rooms(&f, "help");
    fixture_act(&f, "help");
    fixture_close(&f);

    CHECK(fixture_open(&f, "v0", 1024, NULL, 3840, 2160) == 0, "setup 1024");
    fixture_act(&f, "seek-phase:1,step:1");
    rooms(&f, "v0 block 1024");
    fixture_close(&f);

    /* the passes view: v1's two launches (every block traced, 256 partial sums), and naive's ten */
    CHECK(fixture_open(&f, "v1", 256, NULL, 3840, 2160) == 0, "setup passes");
    f.cap.n = 1u << 16;
    f.cap.blocks_traced = 256;
    fixture_act(&f, "version:v1,passes");
    CHECK(f.s.overlay == OVERLAY_PASSES, "passes: %s", f.s.status_text);
    rooms(&f, "passes v1 2^16");
    f.cap.n = 1024;
    fixture_act(&f, "version:naive");
    rooms(&f, "passes naive 1024");
    fixture_close(&f);

    /* the grid view: 256 blocks all traced, then only one traced (the rest say so), the last pass */
    CHECK(fixture_open(&f, "v2", 256, NULL, 3840, 2160) == 0, "setup grid");
    f.cap.n = 1u << 16;
    f.cap.blocks_traced = 256;
    fixture_act(&f, "version:v2,grid");
    CHECK(f.s.overlay == OVERLAY_GRID && f.s.pane[0].t.passes[0].grid == 256, "grid: %s", f.s.status_text);
    rooms(&f, "grid v2 2^16");
    fixture_act(&f, "grid-pass:1");
    rooms(&f, "grid v2 2^16, pass 1");
    f.cap.blocks_traced = 1;
    fixture_act(&f, "version:v2,grid-pass:-1,grid-time:1");
    CHECK(f.s.overlay == OVERLAY_GRID, "the grid should stay open across a capture");
    rooms(&f, "grid v2 2^16, one block traced");
    f.cap.n = 1u << 18;
    f.cap.blocks_traced = 64;
    fixture_act(&f, "version:v8,grid-time:0");
    rooms(&f, "grid v8 2^18");
    /* as a GPU trace of an H100 would read: 256 blocks over 132 SMs, a row for each */
    f.cap.n = 1u << 16;
    f.cap.blocks_traced = 256;
    fixture_act(&f, "version:v2");
    trace *gt = &f.s.pane[0].t;
    snprintf(gt->prov.backend, sizeof gt->prov.backend, "gpu");
    for (size_t i = 0; i < gt->nevents; i++) {
        gt->events[i].sm = gt->events[i].block % 132;
        gt->events[i].clock = 5000 + 100 * (uint64_t)gt->events[i].block + i % 17;
    }
    rooms(&f, "grid v2 2^16 on 132 SMs");
    fixture_close(&f);

    results res;
    char err[256];
    CHECK(fixture_open(&f, NULL, 0, NULL, 3840, 2160) == 0, "setup bench");
    CHECK(results_read_file(&res, WS_ASSETS "/bench-h100.json", err, sizeof err) == 0, "%s", err);
    f.s.results = &res;
    fixture_act(&f, "bench,bench-size:99");
    rooms_and_phones(&f, "benchmark");
    fixture_act(&f, "bench-size:-99");
    rooms_and_phones(&f, "benchmark, smallest size");
    fixture_close(&f);
    results_free(&res);
    printf("%d frames checked\n", frames_checked);
    TTF_Quit();
    CHECK_DONE("layout_should_fit_every_room");
}
