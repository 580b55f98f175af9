/* Fuzz target: what `warpscope stats` and `render` do with a file, minus the pixels: read it
 * (compact when it starts with the WSTRACE magic, else JSON), then every analysis the CLI and the
 * viewer run on it (per-phase counters of each traced block, the whole grid, the reduction tree,
 * shared memory replayed) and the viewer's model at its steps. Any read outside an array, hang or
 * leak here is what a shared file could do to a learner's machine. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/cards.h"
#include "trace/trace.h"
#include "trace/view.h"
#include "mutate.h"

enum { STEPS_VISITED = 48 }; /* view_counts_at is linear in the step: keep each input quick */

static void analyse(const trace *t)
{
    analysis_grid g;
    if (analysis_grid_build(t, &g) == 0) {
        for (unsigned p = 0; p < t->npasses; p++) {
            analysis_counters sum;
            analysis_grid_totals(&g, p, &sum);
        }
        analysis_grid_free(&g);
    }
    /* the schedule on every card, and what a GPU capture's runs say (trace/cards.h) */
    for (unsigned p = 0; p < t->npasses && p < 4; p++) {
        for (size_t c = 0; c < ncards; c++) {
            card_schedule s;
            char err[200];
            if (card_schedule_pass(&cards[c], t, p, &s, err, sizeof err) == 0 && (!s.blocks_per_sm || s.waves * s.resident_blocks < t->passes[p].grid))
                abort(); /* a schedule that does not hold the grid */
            card_observed o;
            uint64_t w = card_pass_waves(&cards[c], t, p, &o, NULL);
            if (!w) abort();
        }
    }
    for (unsigned p = 0; p < t->npasses && p < 4; p++) {
        for (unsigned b = 0; b < 4; b++) {
            analysis_counters *ph, tot;
            size_t nph;
            if (analysis_phases(t, p, b, &ph, &nph, &tot) == 0) free(ph);
            analysis_edge *edges;
            size_t nedges;
            if (analysis_tree(t, p, b, &edges, &nedges) == 0) free(edges);
            size_t nw = analysis_shared_words(t, p, b);
            if (nw > TRACE_SHARED_WORDS_MAX) abort(); /* the reader's limit holds downstream */
            float *cells = malloc((nw ? nw : 1) * sizeof *cells);
            unsigned char *written = malloc(nw ? nw : 1);
            if (cells && written) analysis_shared_after(t, p, b, 1, cells, written, nw);
            free(cells);
            free(written);
        }
    }
    view_model m;
    char err[256];
    for (int fine = 0; fine < 2; fine++) {
        if (view_build(&m, t, 0, 0, fine, err, sizeof err)) continue;
        unsigned char lanes[TRACE_BLOCK_THREADS_MAX];
        float *cells = malloc((m.nwords ? m.nwords : 1) * sizeof *cells);
        unsigned char *written = malloc(m.nwords ? m.nwords : 1), *tree = malloc(m.nwords ? m.nwords : 1);
        for (size_t s = 0; s < m.nsteps && s < STEPS_VISITED; s++) {
            view_counts c;
            view_lanes(&m, s, lanes);
            view_counts_at(&m, s, &c);
            if (cells && written && tree) {
                view_shared_at(&m, s, cells, written);
                view_subtree(&m, s, (int64_t)s, tree);
            }
        }
        for (unsigned ph = 0; ph < m.nphases && ph < 8; ph++) {
            view_phase_first(&m, ph);
            view_phase_last(&m, ph);
        }
        free(cells);
        free(written);
        free(tree);
        view_free(&m);
    }
}

FUZZ_STRUCTURED(fuzz_mutate_any)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace t;
    char err[256];
    int compact = size >= 7 && memcmp(data, "WSTRACE", 7) == 0;
    if (compact ? trace_from_bin(&t, data, size, err, sizeof err) : trace_from_json(&t, (const char *)data, size, err, sizeof err))
        return 0;
    analyse(&t);
    trace_free(&t);
    return 0;
}
