/* A value on screen is the cell's current value, or absent. Every version, at blocks of 64 and 256,
 * every step, at 1024x768 (where cells are narrow) and 1920x1080, with and without presenter's
 * text, checked on the draw list:
 *  - shared memory: a number drawn in a cell is that word's value after the step (to the digits
 *    drawn: 1.1k stands for 1050 to 1150), only written words show one, and within one grid of
 *    cells either every written word shows its value or none does;
 *  - the watched register: each lane's number is what it holds, in every lane or in none;
 *  - shuffles: each row's numbers, lane by lane, are what one shuffle of the warp gave its lanes
 *    by this step, and either every box shows one or none does.
 * The values come from the scene (the replay of the trace's stores), the text from the panels. */
#include <SDL_ttf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trace/ladder.h"
#include "ui_fixture.h"

/* "1124", "1.1k", "-3.5", "2M": its value, and how far off it may be for the digits drawn */
static int parse_value(const char *s, double *v, double *slack)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s) return 0;
    double scale = *end == 'k' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : 1;
    if (scale != 1) end++;
    if (*end) return 0;
    /* half a unit of the last digit drawn */
    const char *dot = strchr(s, '.');
    int decimals = 0;
    if (dot) for (const char *c = dot + 1; *c >= '0' && *c <= '9'; c++) decimals++;
    *v = x * scale;
    *slack = 0.5 * pow(10, -decimals) * scale + 1e-6 * fabs(*v);
    return 1;
}

static int inside(dl_rect outer, dl_rect r) { return r.x >= outer.x && r.y >= outer.y && r.x + r.w <= outer.x + outer.w && r.y + r.h <= outer.y + outer.h; }

static int in_panel(const fixture *f, const dl_item *it, const char *name) { return it->panel >= 0 && !strcmp(f->l.panels[it->panel].name, name); }

static void check_memory(const fixture *f, const char *what)
{
    const scene_pane *p = &f->sc.pane[0];
    /* the cells, grouped by their height: the overview and the zoom are two grids */
    int heights[4] = {0}, nh = 0, texts[4] = {0}, written[4] = {0};
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *c = &f->l.items[i];
        if (c->kind != DL_FILL || HIT_KIND(c->hit) != HIT_CELL || HIT_PANE(c->hit) != 0 || !in_panel(f, c, "memory")) continue;
        size_t w = (size_t)HIT_INDEX(c->hit);
        int g = 0;
        while (g < nh && heights[g] != c->r.h) g++;
        if (g == nh && nh < 4) heights[nh++] = c->r.h;
        if (g >= 4) continue;
        written[g] += p->written[w] != 0;
        for (size_t j = i + 1; j < f->l.n; j++) {
            const dl_item *t = &f->l.items[j];
            if (t->kind != DL_TEXT || !inside(c->r, t->r)) continue;
            char s[64];
            snprintf(s, sizeof s, "%.*s", (int)t->len, dl_item_text(&f->l, t));
            double v, slack;
            CHECK(p->written[w], "%s: word %zu shows \"%s\" but was never written", what, w, s);
            CHECK(parse_value(s, &v, &slack) && fabs(v - p->cells[w]) <= slack, "%s: word %zu shows \"%s\", it holds %.9g", what, w, s,
                  (double)p->cells[w]);
            texts[g]++;
            break;
        }
    }
    for (int g = 0; g < nh; g++)
        CHECK(texts[g] == 0 || texts[g] == written[g], "%s: a grid of cells shows %d values of its %d written words", what, texts[g], written[g]);
}

/* The watched register's row: a number in a lane's cell is what that lane holds after the step,
 * and either every lane that holds one shows it or none does. */
static void check_registers(const fixture *f, const char *what)
{
    const scene_pane *p = &f->sc.pane[0];
    if (!p->has_regs) return;
    int held = 0, shown = 0;
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *c = &f->l.items[i];
        if (c->kind != DL_FILL || HIT_KIND(c->hit) != HIT_LANE || HIT_PANE(c->hit) != 0 || !in_panel(f, c, "registers")) continue;
        unsigned lane = (unsigned)HIT_INDEX(c->hit) % 32;
        held += p->reg_state[lane] != 0;
        for (size_t j = i + 1; j < f->l.n; j++) {
            const dl_item *t = &f->l.items[j];
            if (t->kind != DL_TEXT || !inside(c->r, t->r)) continue;
            char s[64];
            snprintf(s, sizeof s, "%.*s", (int)t->len, dl_item_text(&f->l, t));
            double v, slack;
            CHECK(p->reg_state[lane] && parse_value(s, &v, &slack) && fabs(v - p->reg_vals[lane]) <= slack, "%s: lane %u's register shows \"%s\", it holds %.9g",
                  what, lane, s, (double)p->reg_vals[lane]);
            shown++;
            break;
        }
    }
    CHECK(shown == 0 || shown == held, "%s: the register row shows %d values of the %d lanes that hold one", what, shown, held);
}

/* a shuffle box and the text drawn in it (NULL: none) */
typedef struct box {
    const dl_item *fill, *text;
} box;

static int by_place(const void *a, const void *b)
{
    const dl_item *x = ((const box *)a)->fill, *y = ((const box *)b)->fill;
    return x->r.y != y->r.y ? (x->r.y < y->r.y ? -1 : 1) : (x->r.x > y->r.x) - (x->r.x < y->r.x);
}

/* Each row of boxes is one shuffle of the warp (all its lanes, or the first 16 or 8 where all 32
 * values do not fit): lane by lane, left to right, the numbers drawn are what that shuffle's lanes received (some shuffle of the warp done by this step; the model's
 * view_shfl, from the trace); and either every box shows its number or none does. */
static void check_shuffles(const fixture *f, const char *what)
{
    const scene_pane *p = &f->sc.pane[0];
    if (p->picture != PICTURE_SHUFFLE) return;
    const theme *th = session_theme(&f->s);
    const view_model *m = p->m;
    box boxes[512];
    size_t nb = 0, texts = 0;
    for (size_t i = 0; i < f->l.n && nb < 512; i++) {
        const dl_item *it = &f->l.items[i];
        if (in_panel(f, it, "picture") && it->kind == DL_FILL && (same_colour(it->c, th->working) || same_colour(it->c, th->read)))
            boxes[nb++] = (box){it, NULL};
    }
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_TEXT || it->font != DL_FONT_MONO || !in_panel(f, it, "picture")) continue;
        for (size_t k = 0; k < nb; k++)
            if (inside(boxes[k].fill->r, it->r)) { boxes[k].text = it; texts++; break; }
    }
    CHECK(texts == 0 || texts == nb, "%s: %zu of %zu shuffle boxes show a value", what, texts, nb);
    if (!texts) return;
    qsort(boxes, nb, sizeof *boxes, by_place);
    for (size_t r0 = 0; r0 < nb;) {
        size_t r1 = r0;
        while (r1 < nb && boxes[r1].fill->r.y == boxes[r0].fill->r.y) r1++;
        /* some level whose lanes, in lane order, received these numbers */
        int found = 0;
        for (int level = 0; level < 64 && !found; level++) {
            float got[32];
            unsigned lanes[32];
            size_t n = 0;
            for (size_t k = 0; k < m->nshfl && n < 32; k++) {
                const view_shfl *sh = &m->shfl[k];
                if (sh->warp != p->shfl_warp || sh->level != level || sh->step > p->step) continue;
                size_t at = n++; /* in lane order */
                while (at > 0 && lanes[at - 1] > sh->lane) { lanes[at] = lanes[at - 1]; got[at] = got[at - 1]; at--; }
                lanes[at] = sh->lane;
                got[at] = sh->value;
            }
            if (n < r1 - r0) continue; /* a window of lanes 0 .. k where all 32 values do not fit at the least size */
            int all = 1;
            for (size_t k = 0; k < r1 - r0 && all; k++) {
                char t[64];
                snprintf(t, sizeof t, "%.*s", (int)boxes[r0 + k].text->len, dl_item_text(&f->l, boxes[r0 + k].text));
                double v, slack;
                all = parse_value(t, &v, &slack) && fabs(v - got[k]) <= slack;
            }
            found = all;
        }
        CHECK(found, "%s: a row of %zu shuffle boxes shows numbers that no shuffle of warp %u gave its lanes, lane by lane", what, r1 - r0,
              p->shfl_warp);
        r0 = r1;
    }
}

int main(void)
{
    if (TTF_Init() != 0) { fprintf(stderr, "TTF_Init: %s\n", TTF_GetError()); return 1; }
    static const int sizes[][2] = {{1024, 768}, {1920, 1080}};
    static const unsigned blocks[] = {64, 256};
    size_t frames = 0;
    for (size_t v = 0; v < ladder_count; v++)
        for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++) {
            const ladder_version *lv = &ladder_versions[v];
            char err[256];
            if (ladder_check_block(lv, blocks[b], err, sizeof err)) continue;
            fixture f;
            if (fixture_open(&f, lv->id, blocks[b], NULL, sizes[0][0], sizes[0][1])) { CHECK(0, "%s: setup", lv->id); continue; }
            fixture_act(&f, "motion");
            size_t n = f.s.pane[0].m.nsteps;
            for (size_t st = 0; st < n; st++) {
                char a[32], what[96];
                snprintf(a, sizeof a, "seek-step:%zu", st);
                fixture_act(&f, a);
                for (size_t z = 0; z < 2 * sizeof sizes / sizeof *sizes; z++) { /* each size, then with presenter's text */
                    f.s.presenter = z >= sizeof sizes / sizeof *sizes;
                    f.s.generation++;
                    const int *wh = sizes[z % (sizeof sizes / sizeof *sizes)];
                    snprintf(what, sizeof what, "%s block %u step %zu at %dx%d%s", lv->id, blocks[b], st, wh[0], wh[1], f.s.presenter ? " presenter" : "");
                    fixture_frame(&f, wh[0], wh[1], 0);
                    check_memory(&f, what);
                    check_shuffles(&f, what);
                    check_registers(&f, what);
                    frames++;
                }
            }
            fixture_close(&f);
        }
    CHECK(frames > 1000, "only %zu frames were checked", frames);
    TTF_Quit();
    CHECK_DONE("values_should_be_current_or_absent");
}
