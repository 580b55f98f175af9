/* cards: see cards.h. The table's figures per SM are those of the CUDA C++ Programming Guide's
 * "Technical Specifications per Compute Capability" (6.1, 7.0, 8.0, 9.0) and the SM counts those
 * cudaDeviceProp.multiProcessorCount reports for each card; the model follows cuda_occupancy.h. */
#include "trace/cards.h"

#include "trace/trace.h"

#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024u

const card cards[] = {
    /* the seeds' cards: seed 003's GTX 1050 Ti, seed 000's GTX 1060 6GB, seed 001's V100 PCIe */
    {"gtx1050ti", "GeForce GTX 1050 Ti", "gtx 1050 ti", 6, 1, 6, 2048, 32, 65536, 65536, 96 * KB, 48 * KB, 0, 256, 32},
    {"gtx1060", "GeForce GTX 1060 6GB", "gtx 1060", 6, 1, 10, 2048, 32, 65536, 65536, 96 * KB, 48 * KB, 0, 256, 32},
    {"v100", "Tesla V100 PCIe", "v100", 7, 0, 80, 2048, 32, 65536, 65536, 96 * KB, 96 * KB, 0, 256, 32},
    {"a100", "NVIDIA A100", "a100", 8, 0, 108, 2048, 32, 65536, 65536, 164 * KB, 163 * KB, 1 * KB, 128, 32},
    {"h100", "NVIDIA H100 SXM5", "h100", 9, 0, 132, 2048, 32, 65536, 65536, 228 * KB, 227 * KB, 1 * KB, 128, 32},
    {"h200", "NVIDIA H200", "h200", 9, 0, 132, 2048, 32, 65536, 65536, 228 * KB, 227 * KB, 1 * KB, 128, 32},
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

/* haystack contains needle, case ignored */
static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (!n) return 0;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return 0;
}

const card *card_find(const char *name)
{
    if (!name || !*name) return NULL;
    for (size_t i = 0; i < ncards; i++)
        if (!strcasecmp(cards[i].id, name)) return &cards[i];
    for (size_t i = 0; i < ncards; i++)
        if (contains(name, cards[i].aliases)) return &cards[i];
    return NULL;
}

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

const card *card_for_trace(const trace *t, const char *name)
{
    if (name) return card_find(name);
    const card *c = !strcmp(t->prov.backend, "gpu") ? card_find(t->prov.device) : NULL;
    return c ? c : card_find(CARD_DEFAULT);
}

int card_schedule_pass(const card *c, const trace *t, unsigned pass, card_schedule *s, char *err, size_t errlen)
{
    if (pass >= t->npasses) {
        snprintf(err, errlen, "pass %u: the trace has %zu", pass, t->npasses);
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
