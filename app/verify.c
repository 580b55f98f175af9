/* verify: see verify.h. */
#include "app/verify.h"

#include "app/cli.h"
#include "trace/outfile.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/analysis.h"
#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"
#include "trace/ladder.h"

static int64_t shared_base(const trace *t, unsigned pass, unsigned block)
{
    int64_t lo = INT64_MAX;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass || e->block != block || (e->kind != TRACE_SHARED_LOAD && e->kind != TRACE_SHARED_STORE)) continue;
        for (int j = 0; j < trace_popcount(e->mask); j++)
            if (t->lane_addr[e->lanes + (size_t)j] < lo) lo = t->lane_addr[e->lanes + (size_t)j];
    }
    return lo == INT64_MAX ? 0 : lo;
}

static int t_addr_eq(const trace *a, const trace *b, const trace_event *x, const trace_event *y, int j, int64_t ba, int64_t bb)
{
    return a->lane_addr[x->lanes + (size_t)j] - ba == b->lane_addr[y->lanes + (size_t)j] - bb;
}

/* the same event, addresses and all */
static int event_eq(const trace *a, const trace *b, const trace_event *x, const trace_event *y, int64_t ba, int64_t bb)
{
    if (x->kind != y->kind || x->line != y->line || x->mask != y->mask || x->phase != y->phase) return 0;
    if (!trace_kind_has_data((trace_kind)x->kind)) return 1;
    int sh = x->kind == TRACE_SHARED_LOAD || x->kind == TRACE_SHARED_STORE;
    for (int j = 0; j < trace_popcount(x->mask); j++)
        if (!t_addr_eq(a, b, x, y, j, sh ? ba : 0, sh ? bb : 0)) return 0;
    return 1;
}

/* x, x2 in one trace are y2, y in the other: two loads of one line, made in the other order */
static int swapped(const trace *a, const trace *b, const trace_event *x, const trace_event *y, const trace_event *x2,
                   const trace_event *y2, int64_t ba, int64_t bb)
{
    int loads = (x->kind == TRACE_SHARED_LOAD || x->kind == TRACE_GLOBAL_LOAD) && x2->kind == x->kind && x2->line == x->line;
    return loads && event_eq(a, b, x, y2, ba, bb) && event_eq(a, b, x2, y, ba, bb);
}

/* indices of warp w's events (exits left out) */
static size_t warp_events(const trace *t, unsigned pass, unsigned block, unsigned w, size_t *idx, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nevents && n < max; i++) {
        const trace_event *e = &t->events[i];
        /* a learner's other floats are the emulator's alone (the GPU's traced build records the watched register) */
        if (e->pass == pass && e->block == block && e->warp == w && e->kind != TRACE_EXIT && !trace_event_other_register(t, e)) idx[n++] = i;
    }
    return n;
}

#define NOTE(...)                                          \
    do {                                                   \
        if (out && ndiff < max) fprintf(out, __VA_ARGS__); \
        ndiff++;                                           \
    } while (0)

size_t verify_compare(const trace *a, const trace *b, FILE *out, size_t max, size_t *splits)
{
    size_t ndiff = 0;
    if (splits) *splits = 0;
    if (memcmp(&a->result, &b->result, sizeof a->result) != 0)
        NOTE("    result: emulator %.9g, GPU %.9g\n", (double)a->result, (double)b->result);
    if (a->npasses != b->npasses) {
        NOTE("    passes: emulator %zu, GPU %zu\n", a->npasses, b->npasses);
        return ndiff;
    }
    size_t cap = a->nevents + b->nevents + 1;
    size_t *ia = malloc(cap * sizeof *ia), *ib = malloc(cap * sizeof *ib);
    for (unsigned p = 0; p < a->npasses && ia && ib; p++) {
        unsigned traced = a->prov.blocks_traced < a->passes[p].grid ? a->prov.blocks_traced : a->passes[p].grid;
        unsigned nw = (a->passes[p].block + 31) / 32;
        for (unsigned blk = 0; blk < traced; blk++) {
            int64_t ba = shared_base(a, p, blk), bb = shared_base(b, p, blk);
            for (unsigned w = 0; w < nw; w++) {
                size_t na = warp_events(a, p, blk, w, ia, cap), nb = warp_events(b, p, blk, w, ib, cap);
                size_t k = 0;
                for (; k < na && k < nb; k++) {
                    const trace_event *x = &a->events[ia[k]], *y = &b->events[ib[k]];
                    int same = event_eq(a, b, x, y, ba, bb);
                    /* a register's value is the arithmetic itself: the same float adds in the same
                     * order give the same bits */
                    for (int j = 0; same && x->kind == TRACE_REGISTER && j < trace_popcount(x->mask); j++) {
                        float va = trace_lane_value(a, x, (size_t)j, 0), vb = trace_lane_value(b, y, (size_t)j, 0);
                        same = memcmp(&va, &vb, sizeof va) == 0; /* bits: -0 is not 0 */
                    }
                    /* two loads of one line in the other order: C++ leaves the order of a call's
                     * arguments (fmaxf(a[i], a[i + s])) to the compiler, and the GPU's and the
                     * host's compilers differ; the pair is the same */
                    if (!same && k + 1 < na && k + 1 < nb && swapped(a, b, x, y, &a->events[ia[k + 1]], &b->events[ib[k + 1]], ba, bb)) {
                        k++;
                        continue;
                    }
                    if (!same && splits && x->kind == y->kind && x->line == y->line && x->phase == y->phase &&
                        (y->mask & ~x->mask) == 0 && y->mask != x->mask)
                        ++*splits;
                    if (!same) {
                        NOTE("    pass %u block %u warp %u, its event %zu: emulator %s line %u mask %08x phase %u, GPU %s line %u mask %08x phase %u%s\n",
                             p, blk, w, k, trace_kind_label((trace_kind)x->kind), x->line, x->mask, x->phase,
                             trace_kind_label((trace_kind)y->kind), y->line, y->mask, y->phase,
                             x->kind == y->kind && x->line == y->line && x->mask == y->mask ? " (addresses or register values differ)" : "");
                        break;
                    }
                }
                if (k == na && k == nb) continue;
                if (k == na || k == nb)
                    NOTE("    pass %u block %u warp %u: the emulator has %zu events, the GPU %zu\n", p, blk, w, na, nb);
            }
            /* shared memory after each phase */
            size_t wa = analysis_shared_words(a, p, blk), wb = analysis_shared_words(b, p, blk);
            if (wa - (size_t)ba != wb - (size_t)bb) { NOTE("    pass %u block %u: shared words touched differ\n", p, blk); continue; }
            size_t nwords = wa - (size_t)ba;
            if (!nwords) continue;
            float *ca = malloc(wa * sizeof *ca), *cb = malloc(wb * sizeof *cb);
            unsigned char *xa = malloc(wa), *xb = malloc(wb);
            unsigned nph = 0;
            for (size_t i = 0; i < a->nevents; i++)
                if (a->events[i].pass == p && a->events[i].block == blk && a->events[i].phase + 1u > nph) nph = a->events[i].phase + 1u;
            for (unsigned ph = 0; ph < nph && ca && cb && xa && xb; ph++) {
                analysis_shared_after(a, p, blk, ph, ca, xa, wa);
                analysis_shared_after(b, p, blk, ph, cb, xb, wb);
                for (size_t i = 0; i < nwords; i++)
                    if (xa[ba + (int64_t)i] != xb[bb + (int64_t)i] || memcmp(&ca[ba + (int64_t)i], &cb[bb + (int64_t)i], sizeof *ca)) {
                        NOTE("    pass %u block %u: shared word %zu after phase %u: emulator %.9g, GPU %.9g\n", p, blk, i, ph,
                             (double)ca[ba + (int64_t)i], (double)cb[bb + (int64_t)i]);
                        break;
                    }
            }
            free(ca);
            free(cb);
            free(xa);
            free(xb);
        }
    }
    free(ia);
    free(ib);
    return ndiff;
}

/* ---- the command ---- */

/* why a version may legitimately differ on hardware: the version table says */
static const char *known_difference(const char *id)
{
    const ladder_version *v = ladder_find(id);
    return v ? v->hw_note : NULL;
}

/* A kernel of one's own: the emulator's trace and the GPU's (the file built traced by nvcc), compared
 * as a version's are. */
static int verify_own(const capture_desc *own, const char *md, volatile int *cancel)
{
    capture_desc d = *own;
    d.cancel = cancel;
    if (!d.data) d.data = "random-float";
    if (!d.seed_set) {
        d.seed = 42;
        d.seed_set = 1;
    }
    if (!d.blocks_traced) d.blocks_traced = 4;
    trace a, b;
    trace_init(&a);
    trace_init(&b);
    char err[1024];
    if (capture_own(&d, &a, err, sizeof err) || capture_own_gpu(&d, &b, err, sizeof err)) {
        fprintf(stderr, "warpscope: verify: %s\n", err);
        trace_free(&a);
        return 2;
    }
    outfile mdo;
    int rc = 2;
    if (md && outfile_open(&mdo, md, err, sizeof err)) {
        fprintf(stderr, "warpscope: verify: %s\n", err);
        goto done;
    }
    char details[1 << 15];
    FILE *mem = fmemopen(details, sizeof details, "w");
    size_t splits;
    size_t nd = verify_compare(&a, &b, mem, 8, &splits);
    if (mem) fclose(mem);
    else details[0] = '\0';
    size_t atomics = 0;
    for (size_t i = 0; i < b.nevents; i++) atomics += b.events[i].kind == TRACE_GLOBAL_ATOMIC;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    FILE *outs[2] = {stdout, md ? mdo.f : NULL};
    for (int o = 0; o < 2; o++) {
        if (!outs[o]) continue;
        fprintf(outs[o], "# GPU against the emulator\n\n%s, driver %s, %s; %s. %s, --entry '%s', n %llu, %s data (seed %llu), %u "
                         "blocks traced per pass: every traced block of every pass compared warp by warp, shared memory after "
                         "each phase, and the result bit for bit.\n\n| file | passes | result (emulator / GPU) | verdict |\n"
                         "| --- | --- | --- | --- |\n| %s | %zu | %.9g / %.9g | %s |\n\n",
                b.prov.device, b.prov.driver, b.prov.toolkit, date, d.kernel, d.entry, (unsigned long long)a.prov.n, d.data,
                (unsigned long long)d.seed, d.blocks_traced, own_base_name(d.kernel), a.npasses, (double)a.result, (double)b.result,
                nd ? "DIFFERS" : "identical");
        if (nd) fprintf(outs[o], "## Differences\n\n%s", details);
        if (nd && atomics)
            fprintf(outs[o], "\nIts %zu atomic warp instructions run in the GPU's order; the emulator runs blocks one after another, "
                             "so a float sum made by atomics may round differently and a ticket may go to another block.\n", atomics);
        if (splits)
            fprintf(outs[o], "\nIn %zu warp%s the GPU ran an instruction for part of the lanes the emulator ran together: after a branch or "
                             "a loop, independent thread scheduling may leave a warp split, where the emulator's lockstep joins it at "
                             "the first line its lanes share.\n", splits, splits == 1 ? "" : "s");
        if (nd && a.nhazards)
            fprintf(outs[o], "\nThe emulator finds %zu hazard%s (warpscope hazards --kernel): a race may end differently on the GPU.\n",
                    a.nhazards, a.nhazards == 1 ? "" : "s");
    }
    if (md && outfile_commit(&mdo, err, sizeof err)) {
        fprintf(stderr, "warpscope: verify: %s\n", err);
        goto done;
    }
    rc = nd ? 1 : 0;
done:
    trace_free(&a);
    trace_free(&b);
    return rc;
}

int verify_main(const cli_value flag[WF_COUNT], const capture_desc *own, volatile int *cancel)
{
    if (own && (flag[WF_VERSIONS].given || flag[WF_BLOCKS].given)) {
        fprintf(stderr, "warpscope: verify: give --kernel or --versions and --blocks, not both (--kernel %s)\n", own->kernel);
        return 2;
    }
    if (own) return verify_own(own, flag[WF_MD].given ? flag[WF_MD].text : NULL, cancel);
    const char *versions = flag[WF_VERSIONS].text, *blocks = flag[WF_BLOCKS].given ? flag[WF_BLOCKS].text : "32,64,256,1024",
               *md = flag[WF_MD].text;
    /* is there a GPU at all? one tiny capture tells, with the reason */
    capture_desc probe;
    memset(&probe, 0, sizeof probe);
    probe.version = "v2";
    probe.block = 32;
    trace t;
    trace_init(&t);
    char err[512];
    if (capture_gpu(&probe, &t, err, sizeof err)) {
        fprintf(stderr, "warpscope: verify needs a GPU: %s\n", err);
        return 2;
    }
    char device[TRACE_NAME_MAX], driver[TRACE_NAME_MAX], toolkit[TRACE_NAME_MAX];
    snprintf(device, sizeof device, "%s", t.prov.device);
    snprintf(driver, sizeof driver, "%s", t.prov.driver);
    snprintf(toolkit, sizeof toolkit, "%s", t.prov.toolkit);
    trace_free(&t);
    outfile mdo;
    if (md && outfile_open(&mdo, md, err, sizeof err)) { fprintf(stderr, "warpscope: verify: %s\n", err); return 2; }
    FILE *mdf = md ? mdo.f : NULL;
    FILE *outs[2] = {stdout, mdf};
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    for (int o = 0; o < 2; o++)
        if (outs[o])
            fprintf(outs[o], "# GPU against the emulator\n\n%s, driver %s, %s; %s. Every traced block of every pass "
                             "compared warp by warp: (kind, line, mask, phase, addresses) of each event but exits, the values "
                             "of register assignments, shared "
                             "memory after each phase, and the result bit for bit.\n\n| version | block | n | blocks traced | result | verdict |\n| --- | --- | --- | --- | --- | --- |\n",
                    device, driver, toolkit, date);
    int failed = 0;
    char details[1 << 15];
    size_t dlen = 0;
    details[0] = '\0';
    for (size_t vi = 0; vi < ladder_count; vi++) {
        const ladder_version *v = &ladder_versions[vi];
        if (versions ? !strstr(versions, v->id) : v->races) continue;
        for (const char *bp = blocks; *bp;) {
            unsigned block = (unsigned)strtoul(bp, NULL, 10);
            bp += strcspn(bp, ",");
            if (*bp) bp++;
            if (ladder_check_block(v, block, err, sizeof err)) continue;
            uint64_t ns[3] = {(uint64_t)block * v->ept_default, 1000, (uint64_t)block * v->ept_default * 3 + 7};
            for (int k = 0; k < 3; k++) {
                if (*cancel) {
                    if (md) outfile_abort(&mdo);
                    return 2; /* stopped: no file; main says so */
                }
                capture_desc d;
                memset(&d, 0, sizeof d);
                d.cancel = cancel;
                d.version = v->id;
                d.block = block;
                d.n = ns[k];
                d.data = "random-float";
                d.seed = 42;
                d.seed_set = 1;
                d.blocks_traced = 4;
                trace a, b;
                trace_init(&a);
                trace_init(&b);
                if (capture_cpu(&d, &a, err, sizeof err) || capture_gpu(&d, &b, err, sizeof err)) {
                    fprintf(stderr, "warpscope: verify: %s block %u n %llu: %s\n", v->id, block, (unsigned long long)ns[k], err);
                    trace_free(&a);
                    if (md) outfile_abort(&mdo);
                    return 2;
                }
                FILE *mem = fmemopen(details + dlen, sizeof details - dlen, "w");
                if (mem && dlen + 200 < sizeof details)
                    fprintf(mem, "### %s, block %u, n %llu\n\n", v->id, block, (unsigned long long)ns[k]);
                size_t nd = verify_compare(&a, &b, mem, 4, NULL);
                const char *why = known_difference(v->id);
                if (nd && why && mem) fprintf(mem, "\n%s.\n\n", why);
                if (mem) {
                    fflush(mem);
                    if (nd) dlen += strlen(details + dlen);
                    else details[dlen] = '\0';
                    fclose(mem);
                }
                if (nd && !why) failed = 1;
                char res[64];
                snprintf(res, sizeof res, "%.9g / %.9g", (double)a.result, (double)b.result);
                for (int o = 0; o < 2; o++)
                    if (outs[o])
                        fprintf(outs[o], "| %s | %u | %llu | %u | %s | %s |\n", v->id, block, (unsigned long long)ns[k],
                                a.prov.blocks_traced, res,
                                nd == 0 ? "identical" : why ? "differs (expected, see below)" : "DIFFERS");
                trace_free(&a);
                trace_free(&b);
            }
        }
    }
    for (int o = 0; o < 2; o++)
        if (outs[o]) fprintf(outs[o], "\n%s%s", dlen ? "## Differences\n\n" : "No differences.\n", details);
    if (md && outfile_commit(&mdo, err, sizeof err)) { fprintf(stderr, "warpscope: verify: %s\n", err); return 2; }
    return failed ? 1 : 0;
}
