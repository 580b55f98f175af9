/* cards: see cards.h. The table's figures per SM are those of the CUDA C++ Programming Guide's
 * "Technical Specifications per Compute Capability" (6.1, 7.0, 8.0, 9.0); each row's SM count
 * names its source (what cudaDeviceProp.multiProcessorCount reported where this project measured
 * the card, else NVIDIA's own figures); the model follows cuda_occupancy.h. A row's device strings
 * are the names the CUDA runtime gives its GPUs (cudaDeviceProp.name: seeds 000 and 003 print the
 * Pascal ones, docs/bench-*.txt the H100's and H200's; newer drivers prefix GeForce with NVIDIA). */
#include "trace/cards.h"

#include "trace/trace.h"
#include "trace/words.h"

#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024u

const card cards[] = {
    /* the seeds' cards: seed 003's GTX 1050 Ti, seed 000's GTX 1060 6GB, seed 001's V100 PCIe */
    {"gtx1050ti", "GeForce GTX 1050 Ti", {"gtx 1050 ti"}, {"GeForce GTX 1050 Ti", "NVIDIA GeForce GTX 1050 Ti"},
     "NVIDIA's GTX 1050 Ti: 768 CUDA cores, 128 per Pascal SM", 6, 1, 6, 2048, 32, 65536, 65536, 96 * KB, 48 * KB, 0, 256, 32},
    /* the 3GB card of the same name has 9 SMs (1152 cores): its own model string, no row */
    {"gtx1060", "GeForce GTX 1060 6GB", {"gtx 1060 6gb", "gtx1060 6gb"}, {"GeForce GTX 1060 6GB", "NVIDIA GeForce GTX 1060 6GB"},
     "NVIDIA's GTX 1060 6GB: 1280 CUDA cores, 128 per Pascal SM", 6, 1, 10, 2048, 32, 65536, 65536, 96 * KB, 48 * KB, 0, 256, 32},
    {"v100", "Tesla V100 PCIe", {"v100 pcie", "tesla v100"}, {"Tesla V100-PCIE-16GB", "Tesla V100-PCIE-32GB", "Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB"},
     "NVIDIA Tesla V100 GPU Architecture whitepaper (2017): 80 SMs; seed 001 says 80", 7, 0, 80, 2048, 32, 65536, 65536, 96 * KB, 96 * KB, 0, 256, 32},
    {"a100", "NVIDIA A100", {"a100 sxm4", "a100 pcie"}, {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-80GB", "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe"},
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 108 SMs", 8, 0, 108, 2048, 32, 65536, 65536, 164 * KB, 163 * KB, 1 * KB, 128, 32},
    {"h100", "NVIDIA H100 SXM5", {"h100 sxm5", "h100 sxm", "h100-sxm5"}, {"NVIDIA H100 80GB HBM3"},
     "docs/bench-h100.txt (cudaDeviceProp on an NVIDIA H100 80GB HBM3): 132 SMs, all 132 in assets/traces", 9, 0, 132, 2048, 32, 65536, 65536, 228 * KB, 227 * KB, 1 * KB, 128, 32},
    /* the PCIe card is a cut-down GH100: the same SM, fewer of them */
    {"h100pcie", "NVIDIA H100 PCIe", {"h100 pcie", "h100-pcie"}, {"NVIDIA H100 PCIe"},
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), table 3: 114 SMs (the SXM5: 132)", 9, 0, 114, 2048, 32, 65536, 65536, 228 * KB, 227 * KB, 1 * KB, 128, 32},
    {"h200", "NVIDIA H200", {"h200 sxm", "h200-sxm"}, {"NVIDIA H200"},
     "docs/bench-h200.txt (cudaDeviceProp on an NVIDIA H200): 132 SMs", 9, 0, 132, 2048, 32, 65536, 65536, 228 * KB, 227 * KB, 1 * KB, 128, 32},
};
const size_t ncards = sizeof cards / sizeof cards[0];

static const char *const limit_words[] = {
#define CARD_X_WORD(e, w, en) w,
    CARD_LIMITS(CARD_X_WORD)
#undef CARD_X_WORD
};

static const char *const limit_texts[] = {
#define CARD_X_TEXT(e, w, en) en,
    CARD_LIMITS(CARD_X_TEXT)
#undef CARD_X_TEXT
};

const char *card_limit_word(card_limit l) { return (unsigned)l < CARD_LIMIT_COUNT ? limit_words[l] : "?"; }
const char *card_limit_text(card_limit l) { return (unsigned)l < CARD_LIMIT_COUNT ? limit_texts[l] : "?"; }

/* each spelling of row c (id, name, aliases, devices), through fn until it returns nonzero */
static int each_spelling(const card *c, int (*fn)(const char *spelling, void *ud), void *ud)
{
    if (fn(c->id, ud) || fn(c->name, ud)) return 1;
    for (int i = 0; i < CARD_ALIASES_MAX && c->aliases[i]; i++)
        if (fn(c->aliases[i], ud)) return 1;
    for (int i = 0; i < CARD_DEVICES_MAX && c->devices[i]; i++)
        if (fn(c->devices[i], ud)) return 1;
    return 0;
}

static int same_spelling(const char *spelling, void *name) { return !strcasecmp(spelling, (const char *)name); }

const card *card_find(const char *name)
{
    if (!name || !*name) return NULL;
    for (size_t i = 0; i < ncards; i++)
        if (each_spelling(&cards[i], same_spelling, (void *)name)) return &cards[i];
    return NULL;
}

enum { SPELLING_MAX = 64 }; /* longer than any row's spelling: a name past it is no typo of one */

static void lower(const char *s, char *out)
{
    size_t i = 0;
    for (; s[i] && i < SPELLING_MAX - 1; i++) out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = '\0';
}

typedef struct nearest {
    char word[SPELLING_MAX];
    const char *best;
    size_t distance;
} nearest;

static int closer(const char *spelling, void *ud)
{
    nearest *n = ud;
    char s[SPELLING_MAX];
    lower(spelling, s);
    size_t d = words_distance(n->word, s);
    if (d < n->distance) { n->distance = d; n->best = spelling; }
    return 0;
}

void card_unknown(const char *name, char *err, size_t errlen)
{
    nearest n = {.distance = (size_t)-1};
    lower(name, n.word);
    for (size_t i = 0; i < ncards; i++) each_spelling(&cards[i], closer, &n);
    /* near enough to be a typo: a third of the name's letters, at least one, at most three ("h1000",
     * "h100-pcie"); "RTX A1000" is no typo of "a100", and a card it is not is not suggested */
    size_t len = strlen(n.word), limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
    if (n.best && n.distance <= limit)
        snprintf(err, errlen, "unknown card \"%s\"; the cards are %s; did you mean \"%s\"?", name, card_ids(), n.best);
    else
        snprintf(err, errlen, "unknown card \"%s\"; the cards are %s", name, card_ids());
}

const card *card_for_device(const char *device, unsigned sms)
{
    if (!device || !*device) return NULL;
    for (size_t i = 0; i < ncards; i++) {
        const card *c = &cards[i];
        if (sms && c->sms != sms) continue;
        for (int k = 0; k < CARD_DEVICES_MAX && c->devices[k]; k++)
            if (!strcmp(c->devices[k], device)) return c;
    }
    return NULL;
}

const card card_unknown_gpu = {"unknown", "a GPU the card table does not have", {NULL}, {NULL}, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32};

const char *card_ids(void)
{
    static char buf[256];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ncards && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", cards[i].id);
    return buf;
}

static unsigned round_up(unsigned x, unsigned unit) { return unit ? (x + unit - 1) / unit * unit : x; }

int card_schedule_of(const card *c, const card_launch *l, card_schedule *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (!c->sms) {
        snprintf(err, errlen, "the card table has no figures for %s", c->name);
        return -1;
    }
    if (!l->block || l->block > c->threads_per_sm || l->block > 1024) {
        snprintf(err, errlen, "a block of %u threads does not fit an SM of the %s (%u threads)", l->block, c->name, c->threads_per_sm);
        return -1;
    }
    if (l->shared_bytes > c->shared_per_block) {
        snprintf(err, errlen, "%u bytes of shared memory per block: the %s gives a block at most %u", l->shared_bytes, c->name,
                 c->shared_per_block);
        return -1;
    }
    unsigned warps = (l->block + c->warp_size - 1) / c->warp_size;
    s->sms = c->sms;
    s->by[CARD_LIMIT_THREADS] = c->threads_per_sm / c->warp_size / warps;
    s->by[CARD_LIMIT_BLOCKS] = c->blocks_per_sm;
    /* shared memory: what the block declares, plus what the system keeps, in whole units */
    unsigned smem = round_up(l->shared_bytes + c->shared_reserved, c->shared_unit);
    s->by[CARD_LIMIT_SHARED] = l->shared_bytes ? c->shared_per_sm / smem : UINT32_MAX;
    /* registers: per warp in units of 256, in each of the SM's 4 partitions (cuda_occupancy.h) */
    s->by[CARD_LIMIT_REGISTERS] = UINT32_MAX;
    if (l->registers) {
        unsigned per_warp = round_up(l->registers * c->warp_size, 256), parts = 4;
        if (l->registers > 255 || per_warp * round_up(warps, parts) > c->regs_per_block) {
            snprintf(err, errlen, "%u registers per thread: a block of %u threads needs more than the %s's %u per block", l->registers,
                     l->block, c->name, c->regs_per_block);
            return -1;
        }
        s->by[CARD_LIMIT_REGISTERS] = (c->regs_per_sm / parts / per_warp) * parts / warps;
    }
    s->blocks_per_sm = UINT32_MAX;
    for (int k = 0; k < CARD_LIMIT_COUNT; k++)
        if (s->by[k] < s->blocks_per_sm) {
            s->blocks_per_sm = s->by[k];
            s->limit = (card_limit)k;
        }
    if (!s->blocks_per_sm) {
        snprintf(err, errlen, "not one block of this launch fits an SM of the %s (%s)", c->name, card_limit_word(s->limit));
        return -1;
    }
    s->resident_blocks = (uint64_t)s->blocks_per_sm * c->sms;
    s->waves = (l->grid + s->resident_blocks - 1) / s->resident_blocks;
    s->last_wave_blocks = l->grid - (s->waves ? s->waves - 1 : 0) * s->resident_blocks;
    s->occupancy = (double)s->blocks_per_sm * warps / (c->threads_per_sm / c->warp_size);
    return 0;
}

/* the SMs a GPU capture's runs name: the highest SM id + 1 (the card has at least as many); 0 none */
static unsigned sms_seen(const trace *t)
{
    unsigned n = 0;
    for (size_t i = 0; i < t->nruns; i++)
        if (t->runs[i].sm >= n) n = t->runs[i].sm == UINT32_MAX ? UINT32_MAX : t->runs[i].sm + 1;
    return n;
}

const card *card_for_trace(const trace *t, const char *name)
{
    if (name) return card_find(name);
    if (strcmp(t->prov.backend, "gpu")) return card_find(CARD_DEFAULT);
    /* the model string whole; the trace holds no SM count, so its runs' SMs must fit the row's */
    const card *c = card_for_device(t->prov.device, 0);
    return c && c->sms >= sms_seen(t) ? c : &card_unknown_gpu;
}

int card_schedule_pass(const card *c, const trace *t, unsigned pass, card_schedule *s, char *err, size_t errlen)
{
    if (pass >= t->npasses) {
        snprintf(err, errlen, "pass %u: the trace has %zu", pass, t->npasses);
        return -1;
    }
    if (!c->sms) { /* card_unknown_gpu: name the GPU, never put the launch on another */
        memset(s, 0, sizeof *s);
        unsigned seen = sms_seen(t);
        char saw[64] = "";
        if (seen) snprintf(saw, sizeof saw, ", at least %u SMs as its runs show", seen);
        snprintf(err, errlen, "the trace's GPU, \"%.80s\"%s, is not in the card table: --card NAME models the launch on one (warpscope cards)",
                 t->prov.device, saw);
        return -1;
    }
    const trace_pass *p = &t->passes[pass];
    card_launch l = {p->grid, p->block, p->shared_bytes, p->registers};
    return card_schedule_of(c, &l, s, err, errlen);
}

typedef struct edge {
    uint32_t sm;
    uint64_t time;
    int delta; /* -1 a block ends, +1 one starts: at one time, ends first */
} edge;

static int by_sm_time(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return x->delta - y->delta;
}

int card_observe(const trace *t, unsigned pass, card_observed *o)
{
    memset(o, 0, sizeof *o);
    size_t n = 0;
    for (size_t i = 0; i < t->nruns; i++) n += t->runs[i].pass == pass;
    if (!n) return -1;
    edge *e = malloc(2 * n * sizeof *e);
    if (!e) return -1;
    uint64_t first_end = UINT64_MAX, lo = UINT64_MAX, hi = 0;
    size_t k = 0;
    for (size_t i = 0; i < t->nruns; i++) {
        const trace_run *u = &t->runs[i];
        if (u->pass != pass) continue;
        uint64_t end = u->end > u->start ? u->end : u->start + 1; /* a run too short for the clock still ran */
        e[k++] = (edge){u->sm, u->start, +1};
        e[k++] = (edge){u->sm, end, -1};
        if (end < first_end) first_end = end;
        if (u->start < lo) lo = u->start;
        if (end > hi) hi = end;
    }
    qsort(e, k, sizeof *e, by_sm_time);
    int live = 0;
    for (size_t i = 0; i < k; i++) {
        if (!i || e[i].sm != e[i - 1].sm) { o->sms_used++; live = 0; }
        live += e[i].delta;
        if (live > (int)o->most_live_on_one_sm) o->most_live_on_one_sm = (unsigned)live;
    }
    for (size_t i = 0; i < t->nruns; i++) o->started_before_first_end += t->runs[i].pass == pass && t->runs[i].start < first_end;
    o->blocks = n;
    o->span_ns = hi - lo;
    free(e);
    return 0;
}

uint64_t card_pass_waves(const card *c, const trace *t, unsigned pass, card_observed *o, int *timed)
{
    card_observed seen;
    if (!o) o = &seen;
    if (timed) *timed = 0;
    if (pass < t->npasses && card_observe(t, pass, o) == 0 && o->started_before_first_end && o->blocks == t->passes[pass].grid) {
        if (timed) *timed = 1;
        return (o->blocks + o->started_before_first_end - 1) / o->started_before_first_end;
    }
    card_schedule s;
    char err[160];
    if (c && pass < t->npasses && card_schedule_pass(c, t, pass, &s, err, sizeof err) == 0) return s.waves ? s.waves : 1;
    return 1;
}
