/* The stage: for every version of the ladder at a step of each kind of picture it has, and at its
 * last step, at 800x600, 1024x768, 1280x720, 1920x1080 and 3840x2160, alone and compared with
 * another version, with presenter mode off and on, in English and Chinese, the draw list shows:
 * - no text box over another;
 * - no panel that is a title with nothing under it: every panel draws more than its background
 *   and its title (a panel with no room is a one-line summary, named "... summary");
 * - the highlighted source line whole: the text drawn on its band, put together, is the kernel's
 *   line (whitespace aside), with no "…" cut, and at least three other lines around it;
 * - the step's picture, of the kind the step's events call for, marked as the stage's picture and
 *   at a third of the window or more: the area of the panel that is the step's picture (its
 *   rectangle in the draw list, with the register row under the top picture) over the window's;
 *   in compare, in each pane that has that picture, over the pane's half (at the kernel's end, the
 *   result: its verdict in the large size, and the room left to the tree under it).
 *   Which picture that is comes from this test's own table of the rule, read from the
 *   trace's events: banks on a bank conflict (bank = word % 32), the result at the kernel's end
 *   (the exit that is its last step), the tickets on an atomic, the tree on a shared access that
 *   races (one of the trace's hazards), the lanes where a warp diverged (an event's mask short of its warp's lanes), the
 *   tree where a shared store adds into a word stored before, banks on any other shared access,
 *   loads on a global one, shuffles on a shuffle, the lanes on a barrier or an earlier exit;
 * - the verdict (a panel "verdict" with its text) in every frame, and at the kernel's end no
 *   "line 0";
 * - in presenter mode at 1024x768, no label under 14 px and no value or code under 16 px. */
#include <SDL_ttf.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "trace/ladder.h"
#include "ui_fixture.h"

static const int sizes[][2] = {{800, 600}, {1024, 768}, {1280, 720}, {1920, 1080}, {3840, 2160}};

static int frames, summaries, wrapped, floors;
/* the least share per size, alone or compared, presenter off or on: the table printed at the end */
static double least[5][2][2];
static int size_at;
static double least_share = 1.0;
static char least_what[200];

/* the most distinct words any bank serves in one shared access of the step (1: no conflict) */
static int step_degree(const view_model *m, size_t s)
{
    const trace *t = m->t;
    const view_step *st = &m->steps[s];
    int worst = 0;
    for (size_t k = 0; k < st->count; k++) {
        const trace_event *e = &t->events[m->order[st->first + k]];
        if (trace_kind_addr((trace_kind)e->kind) != TRACE_ADDR_SHARED) continue;
        int64_t words[BANKS][WARP_SIZE];
        int nw[BANKS] = {0};
        int lane = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            int64_t w = t->lane_addr[e->lanes + (size_t)lane++];
            if (w < 0) continue;
            int b = (int)(w % BANKS), seen = 0;
            for (int q = 0; q < nw[b]; q++) seen |= words[b][q] == w;
            if (!seen) words[b][nw[b]++] = w;
        }
        for (int b = 0; b < BANKS; b++)
            if (nw[b] > worst) worst = nw[b];
    }
    return worst;
}

/* the rule: which picture is the step's; the lower rank wins in compare */
typedef struct show {
    int rank;
    const char *panel, *kind;
} show;

/* a warp of the step ran its instruction with fewer lanes than it has live (not exited before it,
 * in the order the warp recorded them): it diverged */
static int step_divergent(const view_model *m, size_t s)
{
    const trace *t = m->t;
    const view_step *st = &m->steps[s];
    for (size_t k = 0; k < st->count; k++) {
        size_t ei = m->order[st->first + k];
        const trace_event *e = &t->events[ei];
        if (e->kind == TRACE_EXIT || e->kind == TRACE_BARRIER || e->kind == TRACE_WARP_SYNC || e->kind == TRACE_FENCE || !e->mask) continue;
        unsigned first = e->warp * WARP_SIZE, n = m->threads > first ? m->threads - first : 0;
        uint32_t live = n >= WARP_SIZE ? 0xffffffffu : (1u << n) - 1u;
        for (size_t j = 0; j < ei; j++) {
            const trace_event *x = &t->events[j];
            if (x->kind == TRACE_EXIT && x->warp == e->warp && x->block == e->block && x->pass == e->pass) live &= ~x->mask;
        }
        if (e->mask != live) return 1;
    }
    return 0;
}

/* a shared store of the step writes a word this block stored before (an earlier step): an addition
 * into the tree, not its leaf */
static int step_adds(const view_model *m, size_t s)
{
    const trace *t = m->t;
    const view_step *st = &m->steps[s];
    for (size_t k = 0; k < st->count; k++) {
        const trace_event *e = &t->events[m->order[st->first + k]];
        if (e->kind != TRACE_SHARED_STORE) continue;
        int lane = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            int64_t w = t->lane_addr[e->lanes + (size_t)lane++];
            for (size_t q = 0; q < s; q++) { /* stored at an earlier step? */
                const view_step *sq = &m->steps[q];
                if (sq->kind != TRACE_SHARED_STORE) continue;
                for (size_t j = 0; j < sq->count; j++) {
                    const trace_event *f = &t->events[m->order[sq->first + j]];
                    int fl = 0;
                    for (unsigned b = 0; b < WARP_SIZE; b++) {
                        if (!(f->mask >> b & 1u)) continue;
                        if (t->lane_addr[f->lanes + (size_t)fl++] == w) return 1;
                    }
                }
            }
        }
    }
    return 0;
}

/* an event of the step is one of the block's races (the trace's hazards) */
static int step_races(const view_model *m, size_t s)
{
    const trace *t = m->t;
    const view_step *st = &m->steps[s];
    for (size_t i = 0; i < t->nhazards; i++) {
        const trace_hazard *h = &t->hazards[i];
        if (h->pass != m->pass) continue;
        for (size_t k = 0; k < st->count; k++) {
            int64_t ev = (int64_t)m->order[st->first + k];
            if ((h->first.event == ev && h->first.block == m->block) || (h->second.event == ev && h->second.block == m->block)) return 1;
        }
    }
    return 0;
}

static show step_show(const view_model *m, size_t s)
{
    int kind = m->steps[s].kind;
    trace_addr a = trace_kind_addr((trace_kind)kind);
    if (a == TRACE_ADDR_SHARED && step_degree(m, s) > 1) return (show){0, "banks", "banks"};
    if (kind == TRACE_EXIT && s + 1 == m->nsteps) return (show){8, "stats", "result"};
    if (kind == TRACE_GLOBAL_ATOMIC) return (show){5, "picture", "tickets"};
    if (a == TRACE_ADDR_SHARED && step_races(m, s)) return (show){2, "picture", "tree"};
    if (step_divergent(m, s)) return (show){1, "lanes", "lanes"};
    switch (a) {
    case TRACE_ADDR_SHARED: return kind == TRACE_SHARED_STORE && step_adds(m, s) ? (show){2, "picture", "tree"} : (show){3, "banks", "banks"};
    case TRACE_ADDR_GLOBAL: return kind == TRACE_GLOBAL_ATOMIC ? (show){5, "picture", "tickets"} : (show){4, "picture", "loads"};
    case TRACE_ADDR_LANE: return kind == TRACE_SHUFFLE ? (show){6, "picture", "shuffles"} : (show){9, "picture", NULL};
    default: return kind == TRACE_BARRIER || kind == TRACE_WARP_SYNC ? (show){7, "lanes", "lanes"} : (show){9, "picture", NULL};
    }
}

static int is_space_or_ellipsis_free(const char *s) { return !strstr(s, "\xe2\x80\xa6"); }

/* s without its whitespace, into out */
static void squeeze(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && s[i] && k + 1 < cap; i++)
        if (!isspace((unsigned char)s[i])) out[k++] = s[i];
    out[k] = '\0';
}

static void check_source(fixture *f, const char *what, int pane)
{
    const session_pane *sp = &f->s.pane[pane];
    const view_step *st = &sp->m.steps[sp->step];
    const char *text = sources_find(sp->t.prov.source);
    if (!text || !st->line) return;
    char want[512], got[512] = "", line[512];
    trace_text_line_copy(text, st->line, line, sizeof line);
    squeeze(line, strlen(line), want, sizeof want);
    /* the source panel of this pane: the pane's panels come in its own part of the window */
    const theme *th = session_theme(&f->s);
    int found = 0;
    for (size_t k = 0; k < (size_t)f->l.npanels && !found; k++) {
        const dl_panel *pp = &f->l.panels[k];
        if (strcmp(pp->name, "source")) continue;
        if (f->s.compare && (pane == 0) != (pp->r.x + pp->r.w / 2 < f->w / 2) && (pane == 0) != (pp->r.y + pp->r.h / 2 < f->h / 2)) continue;
        /* the band: the fill in the line's colour */
        const dl_item *band = NULL;
        for (size_t i = 0; i < f->l.n && !band; i++) {
            const dl_item *it = &f->l.items[i];
            if ((size_t)it->panel == k && it->kind == DL_FILL && same_colour(it->c, th->line)) band = it;
        }
        if (!band) continue;
        found = 1;
        int rows = 0, numx = -1;
        for (size_t i = 0; i < f->l.n; i++) { /* the line number is the leftmost text on the band */
            const dl_item *it = &f->l.items[i];
            if ((size_t)it->panel == k && it->kind == DL_TEXT && it->r.y >= band->r.y && it->r.y < band->r.y + band->r.h)
                if (numx < 0 || it->r.x < numx) numx = it->r.x;
        }
        for (size_t i = 0; i < f->l.n; i++) {
            const dl_item *it = &f->l.items[i];
            if ((size_t)it->panel != k || it->kind != DL_TEXT || it->r.y < band->r.y || it->r.y >= band->r.y + band->r.h || it->r.x == numx)
                continue;
            char piece[512];
            squeeze(dl_item_text(&f->l, it), it->len, piece, sizeof piece);
            strncat(got, piece, sizeof got - strlen(got) - 1);
            rows++;
        }
        if (rows > 1) wrapped++;
        int around = 0; /* other lines' numbers: at least three lines around the step's */
        for (size_t i = 0; i < f->l.n; i++) {
            const dl_item *it = &f->l.items[i];
            if ((size_t)it->panel == k && it->kind == DL_TEXT && it->r.x == numx && (it->r.y < band->r.y || it->r.y >= band->r.y + band->r.h))
                around++;
        }
        CHECK(around >= 3, "%s: pane %d's source shows %d lines around the step's", what, pane, around);
    }
    if (!found) {
        /* the source may only be a summary where nothing else fits; then it says the line */
        CHECK(0, "%s: the source panel of pane %d has no highlighted line", what, pane);
        return;
    }
    CHECK(!strcmp(got, want) && is_space_or_ellipsis_free(got), "%s: pane %d's highlighted line reads \"%s\", the kernel's line %u is \"%s\"",
          what, pane, got, st->line, want);
}

static void check_frame(fixture *f, const char *what)
{
    int w = f->w, h = f->h;
    fixture_frame(f, w, h, 0);
    frames++;
    fixture_check_no_overlaps(f, what, w, h);
    /* each panel: more than its background and its title */
    for (size_t k = 0; k < (size_t)f->l.npanels; k++) {
        const dl_panel *pp = &f->l.panels[k];
        int fills = 0, texts = 0, other = 0, nonempty = 0;
        for (size_t i = 0; i < f->l.n; i++) {
            const dl_item *it = &f->l.items[i];
            if ((size_t)it->panel != k) continue;
            if (it->kind == DL_FILL) fills++;
            else if (it->kind == DL_TEXT) { texts++; nonempty += it->len > 0; }
            else if (it->kind != DL_CLIP && it->kind != DL_UNCLIP) other++;
        }
        size_t nl = strlen(pp->name);
        if (nl > 8 && !strcmp(pp->name + nl - 8, " summary")) {
            summaries++;
            CHECK(texts == 1 && nonempty == 1, "%s %dx%d: the summary %s is not one line of text", what, w, h, pp->name);
            continue;
        }
        /* background fill + title text is a title with nothing under it (the pictures and the code;
         * the title, footer and timeline lines are text by design) */
        static const char *const stage[] = {"source", "picture", "banks", "memory", "lanes", "stats"};
        int is_stage = 0;
        for (size_t q = 0; q < sizeof stage / sizeof stage[0]; q++) is_stage |= !strcmp(pp->name, stage[q]);
        if (is_stage) CHECK(fills + texts + other > 2, "%s %dx%d: panel \"%s\" (%dx%d) draws its title and nothing under it", what, w, h, pp->name, pp->r.w,
              pp->r.h);
    }
    /* the step's picture: its panel (with the register row drawn under it, when it is the top
     * picture), in each pane that has one; alone a third of the window, in compare a third of
     * each pane's half; a pane whose version has no such picture (naive has no shared memory)
     * shows its summary there */
    show a = step_show(&f->s.pane[0].m, f->s.pane[0].step);
    if (f->s.compare) {
        show b = step_show(&f->s.pane[1].m, f->s.pane[1].step);
        if (b.rank < a.rank) a = b;
    }
    double area[2] = {0, 0};
    for (size_t k = 0; k < (size_t)f->l.npanels; k++) {
        const dl_panel *pp = &f->l.panels[k];
        if (strcmp(pp->name, a.panel) && !(!strcmp(a.panel, "picture") && !strcmp(pp->name, "registers"))) continue;
        area[f->s.compare && pp->r.x >= w / 2] += (double)pp->r.w * pp->r.h;
    }
    int panes = 1 + f->s.compare, with = 0;
    for (int q = 0; q < panes; q++) {
        if (area[q] == 0) continue;
        with++;
        if (a.rank == 8) continue; /* the kernel's end: the verdict in the large size, the tree under it takes the room */
        double share = area[q] * panes / ((double)w * h);
        double *cell = &least[size_at][f->s.compare][f->s.presenter];
        if (share < *cell) *cell = share;
        if (share < least_share) {
            least_share = share;
            snprintf(least_what, sizeof least_what, "%s %dx%d (%s)", what, w, h, a.panel);
        }
        CHECK(share * 3 >= 1, "%s %dx%d: the step's picture (%s) of pane %d has %.0f%% of %s", what, w, h, a.panel, q, 100 * share,
              panes > 1 ? "its half" : "the window");
    }
    CHECK(with > 0, "%s %dx%d: no pane shows the step's picture (%s)", what, w, h, a.panel);
    /* the panel marked as the stage's picture draws the picture the step calls for */
    int marked = 0, right_kind = 0, verdicts = 0;
    for (size_t k = 0; k < (size_t)f->l.npanels; k++) {
        const dl_panel *pp = &f->l.panels[k];
        if (!strcmp(pp->name, "verdict")) {
            for (size_t i = 0; i < f->l.n; i++) verdicts += (size_t)f->l.items[i].panel == k && f->l.items[i].kind == DL_TEXT && f->l.items[i].len > 0;
            continue;
        }
        if (!pp->stage) continue;
        marked++;
        right_kind += !a.kind || (pp->kind && !strcmp(pp->kind, a.kind));
    }
    if (a.kind && with) CHECK(marked > 0 && right_kind > 0, "%s %dx%d: the stage's picture is not the %s the step calls for", what, w, h, a.kind);
    CHECK(verdicts >= 1 + f->s.compare, "%s %dx%d: %d verdicts drawn for %d panes", what, w, h, verdicts, 1 + f->s.compare);
    /* the kernel's end is named as such, never "line 0" */
    const view_step *st0 = &f->s.pane[0].m.steps[f->s.pane[0].step];
    for (size_t i = 0; st0->kind == TRACE_EXIT && i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_TEXT) continue;
        char t[600];
        snprintf(t, sizeof t, "%.*s", (int)it->len, dl_item_text(&f->l, it));
        CHECK(!strstr(t, "line 0") && !strstr(t, "\xe7\xac\xac 0 \xe8\xa1\x8c"), "%s %dx%d: the kernel's end says \"%s\"", what, w, h, t);
    }
    /* readable from the back: presenter mode at 1024x768 draws no label under 14 px, no value or code under 16 */
    if (f->s.presenter && w == 1024 && h == 768) {
        int reported = 0;
        for (size_t i = 0; i < f->l.n && reported < 3; i++) {
            const dl_item *it = &f->l.items[i];
            if (it->kind != DL_TEXT || !it->len) continue;
            int floor = it->font == DL_FONT_MONO ? 16 : 14;
            if (it->px >= floor) continue;
            reported++;
            CHECK(0, "%s %dx%d: \"%.*s\" in %s is drawn at %d px, under %d", what, w, h, (int)it->len, dl_item_text(&f->l, it),
                  it->panel >= 0 ? f->l.panels[it->panel].name : "no panel", it->px, floor);
        }
        floors++;
    }
    if (!with) least[size_at][f->s.compare][f->s.presenter] = 0;
    check_source(f, what, 0);
    if (f->s.compare) check_source(f, what, 1);
}

int main(void)
{
    if (TTF_Init() != 0) { fprintf(stderr, "TTF_Init: %s\n", TTF_GetError()); return 1; }
    fixture f;
    for (int z = 0; z < 5; z++)
        for (int c = 0; c < 2; c++) least[z][c][0] = least[z][c][1] = 1.0;
    for (size_t v = 0; v < ladder_count; v++) {
        const char *id = ladder_versions[v].id;
        const char *other = strcmp(id, "v1") ? "v1" : "v2";
        CHECK(fixture_open(&f, id, 256, NULL, 1024, 768) == 0, "setup %s", id);
        const view_model *m = &f.s.pane[0].m;
        /* a step of each kind the version has; shared accesses once with a conflict, once without */
        long pick[64];
        int npick = 0;
        static int seen[64 * 16];
        memset(seen, 0, sizeof seen);
        for (size_t s = 0; s < m->nsteps && npick < 63; s++) {
            show sh = step_show(m, s);
            int key = sh.rank * 16 + m->steps[s].kind % 16;
            if (key < 0 || key >= 64 * 16 || seen[key]) continue;
            seen[key] = 1;
            pick[npick++] = (long)s;
        }
        if (m->nsteps && (!npick || pick[npick - 1] != (long)m->nsteps - 1)) pick[npick++] = (long)m->nsteps - 1; /* the kernel's end */
        for (int c = 0; c < 2; c++) {
            char act[64];
            snprintf(act, sizeof act, "compare:%s", c ? other : "off");
            fixture_act(&f, act);
            for (int i = 0; i < npick; i++) {
                snprintf(act, sizeof act, "seek-step:%ld", pick[i]);
                fixture_act(&f, act);
                for (int pres = 0; pres < 2; pres++) {
                    if (pres != f.s.presenter) fixture_act(&f, "presenter");
                    for (int lang = 0; lang < 2; lang++) {
                        fixture_act(&f, lang ? "lang:zh" : "lang:en");
                        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                            size_at = (int)z;
                            f.w = sizes[z][0];
                            f.h = sizes[z][1];
                            char what[160];
                            snprintf(what, sizeof what, "%s%s%s step %ld (%s)%s %s", id, c ? " | " : "", c ? other : "", pick[i],
                                     trace_kind_label((trace_kind)m->steps[pick[i]].kind), pres ? " presenter" : "", lang ? "zh" : "en");
                            check_frame(&f, what);
                        }
                    }
                }
            }
        }
        fixture_close(&f);
    }
    /* the race slide: v4 at block 64 under the adversarial schedule, its last step, in presenter
     * mode at 1024x768: the verdict says WRONG (the result off the reference by more than the
     * trace's tolerance) and the race count (the trace's hazards in this block), in both languages,
     * and the tree is drawn under it, not its summary */
    CHECK(fixture_open(&f, "v4", 64, NULL, 1024, 768) == 0, "setup v4 adversarial");
    fixture_act(&f, "schedule:adversarial,last,presenter");
    {
        const trace *t = &f.s.pane[0].t;
        int wrong = fabs((double)t->result - t->reference) > t->tolerance;
        size_t races = 0;
        for (size_t i = 0; i < t->nhazards; i++) races += t->hazards[i].first.block == 0 || t->hazards[i].second.block == 0;
        CHECK(wrong && races > 0, "v4 adversarial at block 64 should be wrong and racing (result %g, reference %g, %zu races)", (double)t->result,
              t->reference, races);
        for (int lang = 0; lang < 2; lang++) {
            fixture_act(&f, lang ? "lang:zh" : "lang:en");
            check_frame(&f, lang ? "v4 adversarial last step presenter zh" : "v4 adversarial last step presenter en");
            char want_races[32], verdict[400] = "";
            snprintf(want_races, sizeof want_races, "%zu", races);
            int tree = 0;
            for (size_t k = 0; k < (size_t)f.l.npanels; k++) {
                const dl_panel *pp = &f.l.panels[k];
                tree |= !strcmp(pp->name, "picture") && pp->kind && !strcmp(pp->kind, "tree");
                if (strcmp(pp->name, "verdict") || verdict[0]) continue;
                for (size_t i = 0; i < f.l.n; i++)
                    if ((size_t)f.l.items[i].panel == k && f.l.items[i].kind == DL_TEXT)
                        snprintf(verdict, sizeof verdict, "%.*s", (int)f.l.items[i].len, dl_item_text(&f.l, &f.l.items[i]));
            }
            const char *word = lang ? "\xe9\x94\x99\xe8\xaf\xaf" : "WRONG"; /* 错误 */
            CHECK(strstr(verdict, word) && strstr(verdict, want_races), "the race slide's verdict reads \"%s\": it should say %s and %zu races", verdict, word,
                  races);
            CHECK(tree, "the race slide (%s) draws no tree under its verdict", lang ? "zh" : "en");
        }
        fixture_close(&f);
    }
    printf("%d frames in presenter mode at 1024x768 held to the 14/16 px floor\n", floors);
    printf("%d frames checked (%d summary lines, %d highlighted lines wrapped); the least share of the step's picture (of the window, or of a pane's half): %.0f%%, %s\n", frames,
           summaries, wrapped, 100 * least_share, least_what);
    printf("the least share of the step's picture (of the window; in compare, of a pane's half):\n%-10s %8s %10s %8s %10s\n", "size", "alone",
           "presenter", "compare", "presenter");
    for (int z = 0; z < 5; z++)
        printf("%4dx%-5d %7.0f%% %9.0f%% %7.0f%% %9.0f%%\n", sizes[z][0], sizes[z][1], 100 * least[z][0][0], 100 * least[z][0][1], 100 * least[z][1][0],
               100 * least[z][1][1]);
    TTF_Quit();
    CHECK_DONE("stage_should_give_the_window_to_the_steps_picture");
}
