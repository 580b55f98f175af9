/* The pictures, checked against what the addressing formulas give, worked out here:
 * - v1's tree at block 64 on a ramp has log2(64) rows of additions, and the node of row L at word
 *   w holds x[w] + ... + x[w + 2^(L+1) - 1];
 * - v1 at block 256, the first shared load of the loop (s = 1): warp 0's lanes read word 2*lane + 1
 *   (the right operand sdata[index + s] is read first: C++17 sequences it before the left) so the
 *   lines from lanes to banks land in bank (2*lane + 1) % 32, two words per bank: 2-way, and
 *   every line is drawn in the conflict colour;
 * - v7's shuffles in warp 0 take from lane + 16, 8, 4, 2, 1, and the picture names those offsets;
 * - the register row, on a ramp (x[i] = i): after v3's second load lane l of warp w holds
 *   x[i] + x[i + 64] (i = 32w + l, block 64); when v6 stores its sum, what its grid-stride loop
 *   added (i, i + 64, then a stride of 128 x grid); at v7's first shuffle, the sum of the float4s
 *   lane l read (float4 index tid, then a stride of 256 x grid) plus its share of the n % 4 tail;
 *   and v3's under independent thread scheduling (its:SEED) at its last step, lane by lane;
 * - motion: the frame at t = 0 of a move is the static frame of the step it starts from, and the
 *   frame at t = 1 the static frame of the step it ends at;
 * - compare, single-stepping: both panes stay on the same kind of operation;
 * - break it: v4 under the adversarial schedule stores wrong partial sums; the tree paints them in
 *   the conflict colour, and its root should hold the double-precision sum of the input. */
#include <SDL_ttf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel_lines.h"
#include "ui_fixture.h"

static int has_text(const dl_list *l, const char *panel, const char *s)
{
    for (size_t i = 0; i < l->n; i++) {
        const dl_item *it = &l->items[i];
        if (it->kind != DL_TEXT || it->panel < 0 || strcmp(l->panels[it->panel].name, panel)) continue;
        if (it->len == strlen(s) && !memcmp(dl_item_text(l, it), s, it->len)) return 1;
    }
    return 0;
}

static int same_lists(const dl_list *a, const dl_list *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const dl_item *x = &a->items[i], *y = &b->items[i];
        if (x->kind != y->kind || memcmp(&x->r, &y->r, sizeof x->r) || x->x2 != y->x2 || x->y2 != y->y2 || !same_colour(x->c, y->c) ||
            x->len != y->len || (x->kind == DL_TEXT && memcmp(dl_item_text(a, x), dl_item_text(b, y), x->len)))
            return 0;
    }
    return 1;
}

static void copy_list(dl_list *to, const dl_list *from)
{
    to->n = from->n;
    to->tn = from->tn;
    to->items = realloc(to->items, from->n * sizeof *to->items);
    to->text = realloc(to->text, from->tn + 1);
    memcpy(to->items, from->items, from->n * sizeof *to->items);
    memcpy(to->text, from->text, from->tn);
}

/* moves pane 0 to the first step at source line `line` of kind `kind`; 0 if there is none */
static int seek_line(fixture *f, unsigned line, int kind)
{
    const view_model *m = &f->s.pane[0].m;
    for (size_t k = 0; k < m->nsteps; k++)
        if (m->steps[k].line == line && m->steps[k].kind == kind) {
            char a[40];
            snprintf(a, sizeof a, "seek-step:%zu", k);
            fixture_act(f, a);
            fixture_frame(f, 1920, 1080, 0);
            return f->sc.pane[0].step == k;
        }
    return 0;
}

/* the register row of warp `warp` against want[32] */
static void check_registers(const fixture *f, const char *what, unsigned warp, const double *want)
{
    const scene_pane *p = &f->sc.pane[0];
    CHECK(p->has_regs && p->reg_warp == warp, "%s: no register row for warp %u", what, warp);
    for (int l = 0; l < 32; l++)
        CHECK(p->reg_state[l] && fabs((double)p->reg_vals[l] - want[l]) <= 1e-6 * fabs(want[l]),
              "%s: lane %d of warp %u holds %g, the formula gives %g", what, l, warp, (double)p->reg_vals[l], want[l]);
}

static void registers_follow_formulas(void)
{
    fixture f;
    unsigned line;
    double want[32];
    char b[32];

    CHECK(fixture_open(&f, "v3", 64, "ramp", 1920, 1080) == 0, "setup v3 ramp");
    CHECK(kernel_lines("v3.cu", "mySum += g_idata", &line, 1) == 1 && seek_line(&f, line, TRACE_GLOBAL_LOAD), "v3: no step loads at line %u", line);
    for (unsigned w = 0; w < 2; w++) {
        if (w) fixture_act(&f, "warp:1"); /* from the step's own warp (0) to the next */
        fixture_frame(&f, 1920, 1080, 0);
        for (int l = 0; l < 32; l++) want[l] = (double)(32 * w + (unsigned)l) + (double)(32 * w + (unsigned)l + 64);
        check_registers(&f, "v3 after the second load", w, want);
        snprintf(b, sizeof b, "%g", want[31]);
        CHECK(has_text(&f.l, "registers", b), "v3: lane 31's %s is not drawn", b);
    }
    CHECK(strcmp(f.sc.pane[0].reg_name, "mySum") == 0, "v3: the register is called \"%s\", the kernel says mySum", f.sc.pane[0].reg_name);
    /* under independent thread scheduling lanes of a warp run apart: at the end every lane still
     * holds its own two elements' sum (several blocks, so block 0 is one of many) */
    static const char *const its[] = {"schedule:its:3,last", "schedule:its:7,last"};
    for (int k = 0; k < 2; k++) {
        f.cap.n = 3000;
        fixture_act(&f, its[k]);
        for (unsigned w = 0; w < 2; w++) {
            if (w) fixture_act(&f, "warp:1");
            fixture_frame(&f, 1920, 1080, 0);
            for (int l = 0; l < 32; l++) want[l] = (double)(32 * w + (unsigned)l) + (double)(32 * w + (unsigned)l + 64);
            check_registers(&f, its[k], w, want);
        }
    }
    fixture_close(&f);

    CHECK(fixture_open(&f, "v6", 64, "ramp", 1920, 1080) == 0, "setup v6 ramp");
    const trace *t = f.s.pane[0].m.t;
    uint64_t n = t->passes[0].n_in, grid_size = 2 * 64 * (uint64_t)t->passes[0].grid;
    CHECK(n > grid_size, "v6: n %llu should take the loop round more than once", (unsigned long long)n);
    CHECK(kernel_lines("v6.cu", "sdata[tid] = mySum", &line, 1) == 1 && seek_line(&f, line, TRACE_SHARED_STORE), "v6: no store at line %u", line);
    for (unsigned w = 0; w < 2; w++) {
        if (w) fixture_act(&f, "warp:1"); /* from the step's own warp (0) to the next */
        fixture_frame(&f, 1920, 1080, 0);
        for (unsigned l = 0; l < 32; l++) {
            want[l] = 0;
            for (uint64_t i = 32 * w + l; i < n; i += grid_size) want[l] += (double)i + (i + 64 < n ? (double)(i + 64) : 0.0);
        }
        check_registers(&f, "v6 at its store", w, want);
    }
    fixture_close(&f);

    CHECK(fixture_open(&f, "v7", 256, "ramp", 1920, 1080) == 0, "setup v7 ramp");
    t = f.s.pane[0].m.t;
    n = t->passes[0].n_in;
    uint64_t stride4 = 256 * (uint64_t)t->passes[0].grid;
    CHECK(kernel_lines("v7.cu", "__shfl_down_sync(0xffffffff", &line, 1) == 1 && seek_line(&f, line, TRACE_SHUFFLE), "v7: no shuffle at line %u", line);
    for (unsigned l = 0; l < 32; l++) {
        want[l] = 0;
        for (uint64_t i = l; i < n / 4; i += stride4) want[l] += (double)(4 * i) + (double)(4 * i + 1) + (double)(4 * i + 2) + (double)(4 * i + 3);
        if (l < n % 4) want[l] += (double)(n / 4 * 4 + l);
    }
    check_registers(&f, "v7 at its first shuffle", 0, want);
    fixture_close(&f);
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    char b[64];

    /* the tree of v1 at block 64 on a ramp */
    CHECK(fixture_open(&f, "v1", 64, "ramp", 1920, 1080) == 0, "setup v1 ramp");
    const view_model *m = &f.s.pane[0].m;
    double x[64];
    for (int i = 0; i < 64; i++) x[i] = m->leaf_value[i]; /* the ramp as loaded; checked next */
    for (int i = 0; i < 64; i++) CHECK(x[i] == i, "ramp: word %d holds %g", i, x[i]);
    CHECK(m->tree_levels == 6, "v1 block 64: %d rows of additions, log2(64) = 6 expected", m->tree_levels);
    int nodes_at[7] = {0};
    for (size_t i = 0; i < m->nnodes; i++) {
        const view_node *n = &m->nodes[i];
        double want = 0;
        for (int64_t k = n->word; k < n->word + (2 << n->level); k++) want += (double)k;
        CHECK(n->value == want, "row %d word %lld: %g, the formula gives %g", n->level, (long long)n->word, (double)n->value, want);
        CHECK(n->word % (2 << n->level) == 0 && n->from == n->word + (1 << n->level), "row %d: word %lld from %lld", n->level, (long long)n->word, (long long)n->from);
        if (n->level < 7) nodes_at[n->level]++;
    }
    for (int L = 0; L < 6; L++) CHECK(nodes_at[L] == 32 >> L, "row %d: %d nodes, 64 / 2^(L+1) = %d expected", L, nodes_at[L], 32 >> L);
    fixture_act(&f, "last,picture:1"); /* the last step is the result's: the tree pinned, as V pins it */
    fixture_frame(&f, 1920, 1080, 0);
    snprintf(b, sizeof b, "%d", 63 * 64 / 2);
    CHECK(has_text(&f.l, "picture", b), "the tree's root %s is not drawn", b);
    CHECK(has_text(&f.l, "picture", "1") && has_text(&f.l, "picture", "5"), "the first row's sums (0+1, 2+3) are not drawn");

    /* motion: t = 0 is the frame of the step the move starts from, t = 1 the frame it ends at */
    fixture_act(&f, "picture:0,seek-phase:2"); /* the picture as the step picks it */
    fixture_frame(&f, 1920, 1080, 0);
    dl_list before;
    dl_init(&before, f.l.m);
    copy_list(&before, &f.l);
    fixture_act(&f, "step:1");
    CHECK(f.s.pane[0].prev_step + 1 == f.s.pane[0].step, "a step forward should start a move");
    fixture_frame_t(&f, 1920, 1080, 0, 0.0);
    CHECK(same_lists(&before, &f.l), "the frame at t = 0 differs from the step before's");
    fixture_frame_t(&f, 1920, 1080, 0, 0.5);
    CHECK(!same_lists(&before, &f.l), "nothing moves at t = 0.5");
    fixture_frame_t(&f, 1920, 1080, 0, 1.0);
    copy_list(&before, &f.l);
    fixture_act(&f, "motion"); /* reduced motion: the static frame of the step */
    fixture_frame_t(&f, 1920, 1080, 0, 1.0);
    CHECK(same_lists(&before, &f.l), "the frame at t = 1 differs from the step's static frame");
    dl_free(&before);
    fixture_close(&f);

    /* v4s keeps its last warp's sum in a register between __syncwarp()s: its tree still reaches
     * the block's sum, log2(64) = 6 rows down, the root the double sum of the input */
    CHECK(fixture_open(&f, "v4s", 64, NULL, 1920, 1080) == 0, "setup v4s");
    m = &f.s.pane[0].m;
    const view_node *top = NULL;
    for (size_t i = 0; i < m->nnodes; i++)
        if (m->nodes[i].word == 0 && (!top || m->nodes[i].level > top->level)) top = &m->nodes[i];
    CHECK(top && top->level + 1 == 6 && (double)top->value == m->t->reference, "v4s block 64: the tree's root is %g after %d rows, the input sums to %g in 6",
          top ? (double)top->value : 0.0, top ? top->level + 1 : 0, m->t->reference);
    fixture_close(&f);

    /* lanes to banks: v1, block 256, the first load of the loop */
    CHECK(fixture_open(&f, "v1", 256, NULL, 1920, 1080) == 0, "setup v1 256");
    m = &f.s.pane[0].m;
    long st = -1;
    for (size_t s = 0; s < m->nsteps && st < 0; s++)
        if (m->steps[s].phase == 1 && m->steps[s].kind == TRACE_SHARED_LOAD) st = (long)s;
    snprintf(b, sizeof b, "seek-step:%ld,warp:1", st); /* warp:1 from auto picks warp 1; back to 0 next */
    fixture_act(&f, b);
    fixture_act(&f, "warp:-1");
    fixture_frame(&f, 1920, 1080, 0);
    const theme *th = session_theme(&f.s);
    CHECK(f.sc.pane[0].bank_warp == 0 && f.sc.pane[0].worst_degree == 2, "warp 0 at s = 1: degree %d, 2 expected", f.sc.pane[0].worst_degree);
    /* the bank columns, from the bank boxes' hit codes */
    int col_x[32], col_w = 0, lines = 0, red = 0, landed = 0;
    for (size_t i = 0; i < f.l.n; i++) {
        const dl_item *it = &f.l.items[i];
        if (it->kind == DL_FILL && HIT_KIND(it->hit) == HIT_BANK && HIT_PANE(it->hit) == 0) { col_x[HIT_INDEX(it->hit)] = it->r.x; col_w = it->r.w + 1; }
    }
    for (size_t i = 0; i < f.l.n; i++) {
        const dl_item *it = &f.l.items[i];
        if (it->kind != DL_LINE || it->panel < 0 || strcmp(f.l.panels[it->panel].name, "banks")) continue;
        /* which lane: the lane box the line starts under */
        int lane = -1;
        for (size_t j = 0; j < f.l.n; j++) {
            const dl_item *c = &f.l.items[j];
            if (c->kind == DL_FILL && HIT_KIND(c->hit) == HIT_LANE && c->panel == it->panel && it->r.x >= c->r.x && it->r.x < c->r.x + c->r.w + 1)
                lane = (int)(HIT_INDEX(c->hit) % 32);
        }
        lines++;
        red += same_colour(it->c, th->conflict);
        int bank = (2 * lane + 1) % 32;
        landed += lane >= 0 && it->x2 >= col_x[bank] && it->x2 < col_x[bank] + col_w;
    }
    CHECK(lines == 32 && red == 32 && landed == 32, "warp 0: %d lines, %d red, %d landing in bank (2*lane + 1) %% 32; 32 each expected", lines, red, landed);
    /* each lane says the word it asks for: index + s = 2*s*tid + s, 2*lane + 1 at s = 1 */
    int said = 0;
    for (size_t i = 0; i < f.l.n; i++) {
        const dl_item *c = &f.l.items[i];
        if (c->kind != DL_FILL || HIT_KIND(c->hit) != HIT_LANE || c->panel < 0 || strcmp(f.l.panels[c->panel].name, "banks")) continue;
        unsigned lane = HIT_INDEX(c->hit) % 32;
        for (size_t j = 0; j < f.l.n; j++) {
            const dl_item *t = &f.l.items[j];
            if (t->kind != DL_TEXT || t->panel != c->panel || t->r.x < c->r.x || t->r.x + t->r.w > c->r.x + c->r.w || t->r.y < c->r.y ||
                t->r.y + t->r.h > c->r.y + c->r.h)
                continue;
            char v[16];
            snprintf(v, sizeof v, "%.*s", (int)t->len, dl_item_text(&f.l, t));
            said += atoi(v) == (int)(2 * lane + 1);
        }
    }
    CHECK(said == 32, "warp 0: %d of 32 lanes say the word they ask for (2*lane + 1)", said);
    fixture_close(&f);

    /* v7's shuffles */
    CHECK(fixture_open(&f, "v7", 256, NULL, 1920, 1080) == 0, "setup v7");
    m = &f.s.pane[0].m;
    int offset[8] = {0};
    for (size_t i = 0; i < m->nshfl; i++) {
        const view_shfl *s = &m->shfl[i];
        if (s->warp == 0 && s->level < 8 && s->src != s->lane && !offset[s->level]) offset[s->level] = (int)s->src - (int)s->lane;
    }
    static const int want[5] = {16, 8, 4, 2, 1};
    for (int L = 0; L < 5; L++) CHECK(offset[L] == want[L], "shuffle %d of warp 0: offset %d, %d expected", L, offset[L], want[L]);
    fixture_act(&f, "last,picture:3");
    fixture_frame(&f, 1920, 1080, 0);
    for (int L = 0; L < 5; L++) {
        snprintf(b, sizeof b, "offset %d", want[L]);
        CHECK(has_text(&f.l, "picture", b), "the shuffle picture does not say \"%s\"", b);
    }
    fixture_close(&f);

    /* a race, shown: v4's tail under the adversarial schedule */
    CHECK(fixture_open(&f, "v4", 64, NULL, 1920, 1080) == 0, "setup v4");
    fixture_act(&f, "schedule:adversarial,last,picture:1");
    m = &f.s.pane[0].m;
    const view_node *root = NULL;
    for (size_t i = 0; i < m->nnodes; i++)
        if (m->nodes[i].word == 0 && (!root || m->nodes[i].level > root->level)) root = &m->nodes[i];
    CHECK(root && root->value == m->t->result && root->value != root->expected, "v4 adversarial: the root should be wrong");
    CHECK(root && (double)root->expected == m->t->reference, "the root should hold %g (the double sum), says %g", m->t->reference,
          root ? (double)root->expected : 0.0);
    fixture_frame(&f, 1920, 1080, 0);
    th = session_theme(&f.s);
    int reds = 0;
    for (size_t i = 0; i < f.l.n; i++) {
        const dl_item *it = &f.l.items[i];
        reds += it->kind == DL_FILL && HIT_KIND(it->hit) == HIT_CELL && it->panel >= 0 && !strcmp(f.l.panels[it->panel].name, "picture") &&
                same_colour(it->c, th->wrong) && !same_colour(th->wrong, th->conflict);
    }
    CHECK(reds > 0, "the tree marks no wrong partial sum in the wrong colour (not the bank conflict's)");
    fixture_close(&f);

    /* compare, step by step: the same role in both panes */
    CHECK(fixture_open(&f, "v1", 64, NULL, 1024, 768) == 0, "setup compare");
    fixture_act(&f, "compare:v2,first");
    int same = 0, steps = 0;
    for (int k = 0; k < 20; k++) {
        fixture_act(&f, "step:1");
        const view_step *a = &f.s.pane[0].m.steps[f.s.pane[0].step], *c = &f.s.pane[1].m.steps[f.s.pane[1].step];
        int ra = a->kind == TRACE_SHARED_LOAD || a->kind == TRACE_GLOBAL_LOAD, rc = c->kind == TRACE_SHARED_LOAD || c->kind == TRACE_GLOBAL_LOAD;
        same += a->kind == c->kind || (ra && rc);
        steps++;
    }
    CHECK(same == steps, "compare: %d of %d steps on the same kind of operation", same, steps);
    fixture_close(&f);
    TTF_Quit();
    registers_follow_formulas();
    CHECK_DONE("pictures_should_follow_the_addressing_formulas");
}
