/* race: shadow memory, the ordering rules and the hazard list. See race.h for the model. */
#include "trace/capture/race.h"

#include <stdlib.h>
#include <string.h>

/* The hardware's sizes (WARP_SIZE, WORD_BYTES: racecheck's unit) and the block's limits are
 * trace.h's, the buffers the emulator's (emu.h). */
enum {
    MAX_WARPS = TRACE_BLOCK_THREADS_MAX / WARP_SIZE,
    READERS = 8, /* readers remembered per word */
    PAGE_WORDS = 1024, /* a global buffer's shadow is made a page at a time, where it is touched */
    PAGES_MAX = RACE_GLOBAL_MAX_WORDS / PAGE_WORDS,
    PAGES_BUDGET = RACE_SHADOW_WORDS_MAX / PAGE_WORDS /* pages made in all, every buffer together */
};

/* One access as the shadow remembers it. gen tells records of an older block (shared) or launch
 * (global) from current ones, so nothing is cleared between blocks. */
typedef struct rec {
    uint32_t gen;
    uint32_t block;
    uint16_t thread;
    uint16_t warp_syncs; /* its warp's __syncwarp count when it ran */
    uint32_t line;
    uint32_t epoch;      /* barriers its block had passed */
    uint32_t event;      /* event index + 1; 0 when not recorded */
    uint64_t time;
} rec;

typedef struct cell {
    rec w;               /* last writer (w.gen 0: none) */
    rec r[READERS];      /* readers since that write */
} cell;

/* A thread that fenced: when, and when its first atomic after the fence ran (its release). */
typedef struct release {
    uint64_t key;        /* block << 10 | thread, + 1 (0: empty slot) */
    uint64_t fence, at;
} release;

struct race {
    emu_observer obs;
    int readonly_buf;
    int failed, global_skipped;
    size_t pages;                            /* global shadow pages made */
    uint64_t time;
    uint32_t launch_gen, block_gen;
    unsigned pass, block, nthreads;
    uint32_t epoch;                          /* barriers the running block has passed */
    uint16_t wsyncs[MAX_WARPS];              /* __syncwarp count per warp of the running block */
    uint16_t pair[MAX_WARPS][WARP_SIZE][WARP_SIZE]; /* count at the last __syncwarp both lanes took */
    uint32_t wtouched;                       /* warps whose pair[] holds something */
    uint64_t acquired[TRACE_BLOCK_THREADS_MAX]; /* time of the latest atomic each thread has seen */
    uint64_t block_acquired;
    cell shared[TRACE_SHARED_WORDS_MAX];
    cell **global[EMU_MAX_BUFFERS]; /* [PAGES_MAX] pages of PAGE_WORDS cells, made when first touched; each cell
                                        marked with its launch (rec.gen) */
    release *rel;
    size_t nrel, caprel;
    trace_hazard *haz;
    size_t nhaz, caphaz;
};

/* ---- the ordering rules ---- */

static release *find_release(race *r, uint32_t block, unsigned thread, int create)
{
    uint64_t key = ((uint64_t)block << 10 | thread) + 1;
    if (create && (r->nrel + 1) * 2 > r->caprel) { /* keep the table at most half full */
        size_t nc = r->caprel ? r->caprel * 2 : 256;
        release *n = calloc(nc, sizeof *n);
        if (!n) { r->failed = 1; return NULL; }
        for (size_t i = 0; i < r->caprel; i++) {
            if (!r->rel[i].key) continue;
            size_t j = (size_t)(r->rel[i].key * 0x9e3779b97f4a7c15ull) & (nc - 1);
            while (n[j].key) j = (j + 1) & (nc - 1);
            n[j] = r->rel[i];
        }
        free(r->rel);
        r->rel = n;
        r->caprel = nc;
    }
    if (!r->caprel) return NULL;
    size_t j = (size_t)(key * 0x9e3779b97f4a7c15ull) & (r->caprel - 1);
    while (r->rel[j].key && r->rel[j].key != key) j = (j + 1) & (r->caprel - 1);
    if (r->rel[j].key) return &r->rel[j];
    if (!create) return NULL;
    r->rel[j].key = key;
    r->rel[j].fence = r->rel[j].at = 0;
    r->nrel++;
    return &r->rel[j];
}

/* Is earlier access a ordered before thread `thread` of the running block now? */
static int ordered(race *r, const rec *a, unsigned thread)
{
    if (a->block == r->block) {
        if (a->thread == thread || a->epoch != r->epoch) return 1;
        unsigned w = a->thread / WARP_SIZE;
        if (w == thread / WARP_SIZE && r->pair[w][a->thread % WARP_SIZE][thread % WARP_SIZE] > a->warp_syncs) return 1;
        return 0;
    }
    /* another block of this launch: only a fence-then-atomic release the thread has acquired */
    const release *rel = find_release(r, a->block, a->thread, 0);
    return rel && rel->at && rel->fence > a->time && rel->at < r->acquired[thread];
}

static void fill(race *r, rec *x, uint32_t gen, const emu_access *a)
{
    x->gen = gen;
    x->block = a->block;
    x->thread = (uint16_t)a->thread;
    x->warp_syncs = r->wsyncs[a->thread / WARP_SIZE];
    x->line = a->line;
    x->epoch = r->epoch;
    x->event = a->event >= 0 ? (uint32_t)a->event + 1 : 0;
    x->time = r->time;
}

static void report(race *r, int kind, const emu_access *a, const rec *first, int first_write)
{
    int space = a->global ? TRACE_SPACE_GLOBAL : TRACE_SPACE_SHARED;
    uint8_t buf = (uint8_t)(a->global ? a->buf : 0);
    for (size_t i = 0; i < r->nhaz; i++) {
        trace_hazard *h = &r->haz[i];
        if (h->kind == kind && h->space == space && h->buf == buf && h->pass == r->pass &&
            h->first.line == first->line && h->second.line == a->line) {
            h->count++;
            return;
        }
    }
    if (r->nhaz == r->caphaz) {
        size_t nc = r->caphaz ? r->caphaz * 2 : 16;
        trace_hazard *n = realloc(r->haz, nc * sizeof *n);
        if (!n) { r->failed = 1; return; }
        r->haz = n;
        r->caphaz = nc;
    }
    trace_hazard *h = &r->haz[r->nhaz++];
    memset(h, 0, sizeof *h);
    h->kind = (uint8_t)kind;
    h->space = (uint8_t)space;
    h->buf = buf;
    h->pass = (uint8_t)r->pass;
    h->word = a->word;
    h->count = 1;
    h->first = (trace_hazard_access){first->block, first->thread, first->line, (uint8_t)first_write,
                                     first->event ? (int64_t)first->event - 1 : -1};
    h->second = (trace_hazard_access){a->block, a->thread, a->line, (uint8_t)a->write, a->event};
}

static void check_word(race *r, cell *c, uint32_t gen, const emu_access *a)
{
    if (c->w.gen == gen && !ordered(r, &c->w, a->thread))
        report(r, a->write ? TRACE_HAZARD_WAW : TRACE_HAZARD_RAW, a, &c->w, 1);
    if (a->write) {
        for (int i = 0; i < READERS; i++)
            if (c->r[i].gen == gen && !ordered(r, &c->r[i], a->thread)) report(r, TRACE_HAZARD_WAR, a, &c->r[i], 0);
        fill(r, &c->w, gen, a);
        for (int i = 0; i < READERS; i++) c->r[i].gen = 0; /* readers since the last write */
        return;
    }
    /* a reader: take the slot of this thread, an empty or ordered one; when all are taken, that of
     * a reader at the same line (so every line that read stays represented), else the oldest */
    int slot = -1, same_line = -1, oldest = 0;
    for (int i = 0; i < READERS && slot < 0; i++) {
        const rec *x = &c->r[i];
        if (x->gen != gen || (x->block == a->block && x->thread == a->thread) || ordered(r, x, a->thread)) slot = i;
        else if (x->line == a->line && same_line < 0) same_line = i;
        else if (x->time < c->r[oldest].time) oldest = i;
    }
    if (slot < 0) slot = same_line >= 0 ? same_line : oldest;
    fill(r, &c->r[slot], gen, a);
}

/* ---- the observer ---- */

static void on_launch(void *ctx, unsigned pass, unsigned grid, unsigned block)
{
    race *r = ctx;
    (void)grid;
    (void)block;
    r->pass = pass;
    r->launch_gen++;
    r->nrel = 0;
    if (r->caprel) memset(r->rel, 0, r->caprel * sizeof *r->rel);
}

static void on_block(void *ctx, unsigned block)
{
    race *r = ctx;
    r->block = block;
    r->block_gen++;
    r->epoch = 0;
    for (unsigned w = 0; w < MAX_WARPS; w++)
        if (r->wtouched >> w & 1) memset(r->pair[w], 0, sizeof r->pair[w]);
    r->wtouched = 0;
    memset(r->wsyncs, 0, sizeof r->wsyncs);
    memset(r->acquired, 0, sizeof r->acquired);
    r->block_acquired = 0;
}

static cell *global_cell(race *r, int buf, int64_t word)
{
    if (buf < 0 || buf >= EMU_MAX_BUFFERS || word < 0 || word >= RACE_GLOBAL_MAX_WORDS) { r->global_skipped = 1; return NULL; }
    /* a new launch: the kernel boundary orders everything before it. Its cells stay, each marked
     * with the launch that wrote it (rec.gen), so an older one reads as empty: no buffer is cleared
     * or made again at each launch; a page no access touched is never made (a buffer's words far
     * apart cost two pages, not the words between) */
    if (!r->global[buf] && !(r->global[buf] = calloc(PAGES_MAX, sizeof *r->global[buf]))) { r->failed = 1; return NULL; }
    cell **page = &r->global[buf][word / PAGE_WORDS];
    if (!*page) {
        if (r->pages >= PAGES_BUDGET) { r->global_skipped = 1; return NULL; } /* the shadow's bound: not watched */
        if (!(*page = calloc(PAGE_WORDS, sizeof(cell)))) { r->failed = 1; return NULL; } /* gen 0: no launch's */
        r->pages++;
    }
    return &(*page)[word % PAGE_WORDS];
}

static void on_access(void *ctx, const emu_access *a)
{
    race *r = ctx;
    r->time++;
    if (a->atomic) { /* acquire everything released before it; release if the thread fenced */
        r->acquired[a->thread] = r->time;
        if (r->time > r->block_acquired) r->block_acquired = r->time;
        release *rel = find_release(r, a->block, a->thread, 0);
        if (rel && rel->fence && !rel->at) rel->at = r->time;
        return;
    }
    if (a->global) {
        if (a->buf == r->readonly_buf && !a->write) return;
        for (unsigned k = 0; k < a->words; k++) {
            cell *c = global_cell(r, a->buf, a->word + k);
            if (!c) return;
            check_word(r, c, r->launch_gen, a);
        }
        return;
    }
    if (a->word < 0 || a->word + a->words > TRACE_SHARED_WORDS_MAX) return; /* the emulator reports it */
    for (unsigned k = 0; k < a->words; k++) check_word(r, &r->shared[a->word + k], r->block_gen, a);
}

static void on_barrier(void *ctx)
{
    race *r = ctx;
    r->epoch++;
    /* a barrier passes on what any thread of the block acquired */
    for (unsigned t = 0; t < TRACE_BLOCK_THREADS_MAX; t++) r->acquired[t] = r->block_acquired;
}

static void on_warp_sync(void *ctx, unsigned warp, uint32_t lanes)
{
    race *r = ctx;
    if (warp >= MAX_WARPS) return;
    uint16_t n = ++r->wsyncs[warp];
    r->wtouched |= 1u << warp;
    for (unsigned i = 0; i < WARP_SIZE; i++) {
        if (!(lanes >> i & 1)) continue;
        for (unsigned j = 0; j < WARP_SIZE; j++)
            if (lanes >> j & 1) r->pair[warp][i][j] = n;
    }
}

static void on_fence(void *ctx, unsigned thread)
{
    race *r = ctx;
    r->time++;
    release *rel = find_release(r, r->block, thread, 1);
    if (rel) { rel->fence = r->time; rel->at = 0; }
}

race *race_create(int readonly_buf)
{
    race *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->readonly_buf = readonly_buf;
    r->obs = (emu_observer){r, on_launch, on_block, on_access, on_barrier, on_warp_sync, on_fence};
    return r;
}

void race_destroy(race *r)
{
    if (!r) return;
    for (int i = 0; i < EMU_MAX_BUFFERS; i++) {
        for (size_t p = 0; r->global[i] && p < PAGES_MAX; p++) free(r->global[i][p]);
        free(r->global[i]);
    }
    free(r->rel);
    free(r->haz);
    free(r);
}

const emu_observer *race_observer(race *r) { return &r->obs; }
int race_status(const race *r) { return r->failed ? -1 : 0; }
int race_watched_global(const race *r) { return !r->global_skipped; }

int race_to_trace(const race *r, trace *t)
{
    for (size_t i = 0; i < r->nhaz; i++)
        if (trace_add_hazard(t, &r->haz[i])) return -1;
    return 0;
}

/* race_replay (race.h): what the emulator fed the observer, read back from the events */
int race_replay(trace *t)
{
    race *r = race_create(-1);
    if (!r) return -1;
    const emu_observer *o = race_observer(r);
    /* a global buffer no event writes (the input, say) has no race: its reads are not watched */
    unsigned char written[256] = {0};
    for (size_t i = 0; i < t->nevents; i++) {
        int k = t->events[i].kind;
        if (k == TRACE_GLOBAL_STORE || k == TRACE_GLOBAL_ATOMIC) written[t->events[i].buf] = 1;
    }
    uint32_t pass = UINT32_MAX, block = UINT32_MAX, epoch = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->pass != pass) {
            pass = e->pass;
            block = UINT32_MAX;
            o->launch(o->ctx, e->pass, e->pass < t->npasses ? t->passes[e->pass].grid : 0, e->pass < t->npasses ? t->passes[e->pass].block : 0);
        }
        if (e->block != block) {
            block = e->block;
            epoch = 0;
            o->block(o->ctx, e->block);
        }
        for (; epoch < e->phase; epoch++) o->barrier(o->ctx);
        if (e->kind == TRACE_WARP_SYNC) { o->warp_sync(o->ctx, e->warp, e->mask); continue; }
        size_t k = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(e->mask >> l & 1u)) continue;
            unsigned tid = e->warp * WARP_SIZE + l;
            if (e->kind == TRACE_FENCE) { o->fence(o->ctx, tid); continue; }
            if (!trace_kind_has_data((trace_kind)e->kind) || trace_kind_addr((trace_kind)e->kind) == TRACE_ADDR_LANE) continue;
            int64_t addr = t->lane_addr[e->lanes + k++];
            int global = e->kind == TRACE_GLOBAL_LOAD || e->kind == TRACE_GLOBAL_STORE || e->kind == TRACE_GLOBAL_ATOMIC;
            if (global && !written[e->buf]) continue;
            unsigned words = trace_event_words(e);
            emu_access a = {global, e->buf, global ? addr * (int64_t)words : addr, words,
                            e->kind == TRACE_SHARED_STORE || e->kind == TRACE_GLOBAL_STORE || e->kind == TRACE_GLOBAL_ATOMIC,
                            e->kind == TRACE_GLOBAL_ATOMIC, e->block, tid, e->warp, e->line, (int64_t)i};
            o->access(o->ctx, &a);
        }
    }
    free(t->hazards);
    t->hazards = NULL;
    t->nhazards = 0;
    int rc = race_status(r) || race_to_trace(r, t) ? -1 : !race_watched_global(r);
    race_destroy(r);
    return rc;
}

