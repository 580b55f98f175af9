/* Traces as text: cards, list, stats, capture, hazards and the ladder table. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "app/cmd/cmd.h"
#include "trace/cost.h"

int cmd_cards(const ws_call *k)
{
    (void)k;
    printf("%-10s %-22s %4s %5s %14s %13s %13s %13s\n", "card", "name", "cc", "SMs", "threads/SM", "blocks/SM", "registers/SM",
           "shared/SM");
    for (size_t i = 0; i < ncards; i++) {
        const card *c = &cards[i];
        printf("%-10s %-22s %2u.%u %5u %14u %13u %13u %10u KB\n", c->id, c->name, c->cc_major, c->cc_minor, c->sms, c->threads_per_sm,
               c->blocks_per_sm, c->regs_per_sm, c->shared_per_sm / 1024);
    }
    printf("\nThe SMs a kernel's blocks are shared among, and what one SM holds (CUDA C++ Programming Guide, compute\n"
           "capabilities); --card NAME puts a launch on one: warpscope stats --card gtx1060 --version v2 --n 2^20\n");
    return 0;
}

/* One pass's schedule on a card: as JSON (an object) or as a sentence. */
static void print_schedule(FILE *out, const trace *t, unsigned pass, const char *name, int json)
{
    const card *cd = card_for_trace(t, name);
    card_schedule s;
    char err[256];
    int bad = !cd || card_schedule_pass(cd, t, pass, &s, err, sizeof err);
    const trace_pass *p = &t->passes[pass];
    card_observed o;
    int seen = card_observe(t, pass, &o) == 0;
    if (json) {
        fprintf(out, ",\n \"schedule\": ");
        if (bad) { fprintf(out, "null"); return; }
        fprintf(out, "{\"card\": \"%s\", \"card_name\": \"%s\", \"grid\": %u, \"block\": %u, \"shared_bytes\": %u, \"registers\": ", cd->id,
               cd->name, p->grid, p->block, p->shared_bytes);
        if (p->registers) fprintf(out, "%u", p->registers);
        else fprintf(out, "null");
        fprintf(out, ", \"sms\": %u, \"blocks_per_sm\": %u, \"resident_blocks\": %" PRIu64 ", \"waves\": %" PRIu64
               ", \"last_wave_blocks\": %" PRIu64 ", \"occupancy\": %.4f, \"limited_by\": \"%s\", \"blocks_per_sm_by\": {",
               s.sms, s.blocks_per_sm, s.resident_blocks, s.waves, s.last_wave_blocks, s.occupancy, card_limit_word(s.limit));
        for (int k = 0; k < CARD_LIMIT_COUNT; k++) {
            fprintf(out, "%s\"%s\": ", k ? ", " : "", card_limit_word((card_limit)k));
            if (s.by[k] == UINT32_MAX) fprintf(out, "null");
            else fprintf(out, "%u", s.by[k]);
        }
        fprintf(out, "}, \"observed\": ");
        if (seen) fprintf(out, "{\"blocks\": %" PRIu64 ", \"sms_used\": %u, \"most_blocks_live_on_one_sm\": %u, \"blocks_started_before_first_ended\": %" PRIu64
                         ", \"span_ns\": %" PRIu64 "}}", o.blocks, o.sms_used, o.most_live_on_one_sm, o.started_before_first_end, o.span_ns);
        else fprintf(out, "null}");
        return;
    }
    if (bad) { fprintf(out, "\nschedule: %s\n", cd ? err : "no such card"); return; }
    fprintf(out, "\non the %s (%u SMs; --card picks another): %u block%s of %u threads per SM (limited by %s), %" PRIu64
           " at once; pass %u's grid of %u block%s takes %" PRIu64 " wave%s, the last filling %" PRIu64 " of %" PRIu64 " slots%s\n",
           cd->name, s.sms, s.blocks_per_sm, s.blocks_per_sm == 1 ? "" : "s", p->block, card_limit_text(s.limit), s.resident_blocks,
           pass, p->grid, p->grid == 1 ? "" : "s", s.waves, s.waves == 1 ? "" : "s", s.last_wave_blocks, s.resident_blocks,
           p->registers ? "" : " (registers per thread are not in the trace: left out)");
    if (seen)
        fprintf(out, "as it ran on the %s: %" PRIu64 " blocks on %u SMs, at most %u live on one SM, %" PRIu64 " started before the first ended; %.1f us "
               "from the first start to the last end\n", t->prov.device, o.blocks, o.sms_used, o.most_live_on_one_sm, o.started_before_first_end, (double)o.span_ns / 1000.0);
}

int cmd_list(const ws_call *k)
{
    (void)k;
    for (size_t i = 0; i < ladder_count; i++) {
        const ladder_version *v = &ladder_versions[i];
        printf("%-6s %-44s %s\n", v->id, v->title, v->summary);
        printf("%-6s %-44s also: %s; blocks %u-%u\n", "", "", v->aliases, v->min_block, v->max_block);
    }
    return 0;
}

/* ---- stats ---- */

typedef struct stats {
    analysis_counters *phases, totals;
    size_t nphases;
} stats;

static int compute_stats(const trace *t, unsigned pass, unsigned block, stats *s)
{
    if (pass >= t->npasses) {
        if (t->npasses == 1) fprintf(stderr, "warpscope: --pass %u: the trace has 1 pass (0)\n", pass);
        else fprintf(stderr, "warpscope: --pass %u: the trace has %zu passes (0 to %zu)\n", pass, t->npasses, t->npasses - 1);
        return EXIT_BAD;
    }
    if (block >= t->passes[pass].grid) {
        fprintf(stderr, "warpscope: --block-index %u: pass %u has blocks 0 to %u\n", block, pass, t->passes[pass].grid - 1);
        return EXIT_BAD;
    }
    if (analysis_phases(t, pass, block, &s->phases, &s->nphases, &s->totals)) {
        fprintf(stderr, "warpscope: the trace holds no events of block %u of pass %u (blocks 0 to %u were traced; --blocks-traced)\n",
                block, pass, t->prov.blocks_traced ? t->prov.blocks_traced - 1 : 0);
        return EXIT_BAD;
    }
    return 0;
}

/* Totals summed over every traced block of a pass (what a profiler counts for a whole launch,
 * when every block is traced), in one pass over the events. Returns the number of blocks, or -1
 * when out of memory. */
static int all_blocks_totals(const trace *t, unsigned pass, analysis_counters *sum)
{
    analysis_grid g;
    memset(sum, 0, sizeof *sum);
    if (analysis_grid_build(t, &g)) return -1;
    int n = analysis_grid_totals(&g, pass, sum);
    analysis_grid_free(&g);
    return n;
}

/* Every traced block's partial sum in a pass (what thread 0 stored at element blockIdx.x, the grid
 * view's tiles), as a JSON object keyed by block index: only the blocks the trace holds, so the
 * output follows the file's size, not the grid it declares. */
static void json_partials(const trace *t, unsigned pass)
{
    analysis_grid g;
    printf("{");
    if (pass < t->npasses && !analysis_grid_build(t, &g)) {
        int first = 1;
        for (size_t i = g.pass_first[pass]; i < g.pass_first[pass + 1]; i++) {
            const analysis_block *ab = &g.blocks[i];
            if (!ab->has_partial) continue;
            printf("%s\"%u\": %.9g", first ? "" : ", ", ab->block, (double)ab->partial);
            first = 0;
        }
        analysis_grid_free(&g);
    }
    printf("}");
}

/* A JSON string: quotes, backslashes and control characters escaped, so the output stays JSON
 * whatever a trace file's provenance holds. */
static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

/* One line on stderr when a result is off its double-precision reference by more than the
 * tolerance for its n (a wrong result is a finding, not a number); 1 then, else 0. */
/* digits that write a result exactly: a float's 9; a double's, or an integer sum's up to 2^53, 17 */
static int result_digits(const trace *t) { return trace_data_type(t) == TRACE_TYPE_FLOAT ? 9 : 17; }

static int report_result(const trace *t)
{
    if (trace_result_verdict(t) == TRACE_RACING) { /* right here, but not a result to trust: said, not an error */
        char verdict[400];
        trace_verdict_words(t, verdict, sizeof verdict);
        fprintf(stderr, "warpscope: RACING: %s computed %.*g, %s\n", t->prov.version, result_digits(t), t->result, verdict);
    }
    if (trace_result_ok(t) != 0) return 0;
    char partials[400] = "";
    if (trace_unsummed_partials(t, partials + 2, sizeof partials - 2)) memcpy(partials, ": ", 2);
    fprintf(stderr, "warpscope: WRONG RESULT: %s computed %.*g, the double-precision reference is %.17g; off by %.3g, more than the %.3g allowed for n = %" PRIu64 "%s\n",
            t->prov.version, result_digits(t), t->result, t->reference, fabs(t->result - t->reference), t->tolerance, t->prov.n, partials);
    return 1;
}

/* Device printf's lines, after the result, in the order the threads wrote them: "printf output (N
 * lines):", then "block B thread T: text" (with the pass where there are several), and what the
 * capture's limits left out. */
static void print_prints(FILE *out, const trace *t)
{
    if (!t->nprints && !t->prints_cut) return;
    fprintf(out, "printf output (%zu line%s):\n", t->nprints, t->nprints == 1 ? "" : "s");
    for (size_t i = 0; i < t->nprints; i++) {
        const trace_print *q = &t->prints[i];
        /* each line of what a thread printed, its own lines included, behind "  | " and who printed
         * it: none can pass for warpscope's */
        const char *text = t->print_text + q->off;
        for (size_t at = 0; at < q->len || at == 0;) {
            size_t k = 0;
            while (at + k < q->len && text[at + k] != '\n') k++;
            fputs("  | ", out);
            if (t->npasses > 1) fprintf(out, "pass %u, ", q->pass);
            fprintf(out, "block %u thread %u: %.*s\n", q->block, q->thread, (int)k, text + at);
            at += k + 1;
            if (at >= q->len) break;
        }
    }
    if (t->prints_cut)
        fprintf(out, "(%" PRIu64 " more line%s cut: a capture keeps at most %d lines and %d KiB of printf output, %d bytes a line)\n", t->prints_cut,
                t->prints_cut == 1 ? "" : "s", TRACE_PRINTS_MAX, TRACE_PRINT_BYTES_MAX / 1024, TRACE_PRINT_LINE_MAX);
}

/* the exit status of a command done with its trace: EXIT_WRONG when the sum is wrong */
static int finish_with_result(trace *t)
{
    int wrong = report_result(t);
    trace_free(t);
    return wrong ? EXIT_WRONG : 0;
}

static void json_counters(const analysis_counters *c)
{
    printf("{\"active_threads\": %" PRIu64 ", \"idle_threads\": %" PRIu64 ", \"warp_instructions\": %" PRIu64
           ", \"divergent_warp_instructions\": %" PRIu64 ", \"bank_conflicts_load\": %" PRIu64
           ", \"bank_conflicts_store\": %" PRIu64 ", \"shared_loads\": %" PRIu64 ", \"shared_stores\": %" PRIu64
           ", \"global_requests\": %" PRIu64 ", \"global_sectors\": %" PRIu64 ", \"global_sectors_min\": %" PRIu64
           ", \"shuffles\": %" PRIu64 ", \"barriers\": %" PRIu64 ", \"simd_efficiency\": %.6f}",
           c->active_threads, c->idle_threads, c->warp_instructions, c->divergent_warp_instructions,
           c->bank_conflicts_load, c->bank_conflicts_store, c->shared_loads, c->shared_stores, c->global_requests,
           c->global_sectors, c->global_sectors_min, c->shuffles, c->barriers, c->simd_efficiency);
}

static void print_row(const char *label, const analysis_counters *c)
{
    printf("%-6s %7" PRIu64 " %6" PRIu64 " %10" PRIu64 " %10" PRIu64 " %7" PRIu64 "/%-7" PRIu64 " %7.1f%% %8" PRIu64 "/%-6" PRIu64 " %5" PRIu64 "\n",
           label, c->active_threads, c->idle_threads, c->warp_instructions, c->divergent_warp_instructions,
           c->bank_conflicts_load, c->bank_conflicts_store, 100.0 * c->simd_efficiency, c->global_sectors,
           c->global_sectors_min, c->shuffles);
}

int cmd_stats(const ws_call *k)
{
    cli c;
    int rc = read_capture(k, &c);
    if (rc) return rc;
    int json = k->v[WF_JSON].given, all_blocks = k->v[WF_ALL_BLOCKS].given;
    if (!c.file && !c.cap.version) return usage_error("stats needs a trace file or --version ID%s%s", "", "");
    trace t;
    trace_init(&t);
    if (c.file) {
        char err[512];
        /* reading writes nothing: Ctrl+C may end it at once */
        signal(SIGINT, SIG_DFL);
        int rrc = trace_read_file(&t, c.file, err, sizeof err);
        catch_interrupts();
        if (rrc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    } else {
        if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) return rc;
    }
    unsigned pass = c.pass >= 0 ? (unsigned)c.pass : 0, block = c.block_index >= 0 ? (unsigned)c.block_index : 0;
    stats s;
    if ((rc = compute_stats(&t, pass, block, &s))) { trace_free(&t); return rc; }
    const ladder_version *v = ladder_find(t.prov.version);
    const trace_provenance *p = &t.prov;
    cost_figures cost; /* the whole capture: every traced block of every pass */
    if (cost_compute(&t, &cost)) { free(s.phases); trace_free(&t); fprintf(stderr, "warpscope: out of memory counting the adds\n"); return EXIT_BAD; }
    if (json) {
        int ok = trace_result_ok(&t);
        printf("{\"version\": ");
        json_str(p->version);
        printf(", \"title\": ");
        json_str(title_of(p, v));
        printf(", \"device\": ");
        json_str(p->device);
        printf(", \"block\": %u, \"n\": %" PRIu64 ", \"data\": ", p->block, p->n);
        json_str(p->data);
        printf(", \"seed\": %" PRIu64 ", \"elems_per_thread\": %u, \"passes\": %zu, \"result\": %.*g, \"reference\": %.17g, \"tolerance\": %.17g, \"result_ok\": %s,\n"
               " \"pass\": %u, \"block_index\": %u, \"phases\": [",
               p->seed, p->elems_per_thread, t.npasses, result_digits(&t), t.result, t.reference, t.tolerance,
               ok < 0 ? "null" : ok ? "true" : "false", pass, block);
        for (size_t i = 0; i < s.nphases; i++) {
            printf("%s\n  ", i ? "," : "");
            json_counters(&s.phases[i]);
        }
        printf("],\n \"totals\": ");
        json_counters(&s.totals);
        print_schedule(stdout, &t, pass, c.card, 1);
        printf(",\n \"cost\": {\"adds\": %" PRIu64 ", \"steps\": %u, \"instructions\": %" PRIu64 ", \"elements\": %" PRIu64
               ", \"instructions_per_element\": %.6g, \"adds_per_element\": %.6g, \"blocks_traced\": %u, \"blocks\": %u, \"complete\": %s}",
               cost.adds, cost.steps, cost.instructions, cost.elements, cost.instructions_per_element, cost.adds_per_element,
               cost.blocks_traced, cost.blocks, cost.complete ? "true" : "false");
        if (all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, pass, &all);
            printf(",\n \"all_blocks\": %d, \"totals_all_blocks\": ", nb);
            json_counters(&all);
            printf(",\n \"partials_all_blocks\": ");
            json_partials(&t, pass);
        }
        printf("}\n");
    } else {
        printf("%s: %s\n", p->version, title_of(p, v));
        printf("%s, block %u, n %" PRIu64 ", data %s (seed %" PRIu64 "), %zu pass%s; counters of block %u, pass %u\n\n",
               p->device, p->block, p->n, p->data, p->seed, t.npasses, t.npasses == 1 ? "" : "es", block, pass);
        printf("%-6s %7s %6s %10s %10s %15s %8s %15s %5s\n", "phase", "active", "idle", "warp-instr", "divergent",
               "conflicts ld/st", "SIMD", "sectors/min", "shfl");
        for (size_t i = 0; i < s.nphases; i++) {
            char label[24];
            snprintf(label, sizeof label, "%zu", i);
            print_row(label, &s.phases[i]);
        }
        print_row("total", &s.totals);
        if (all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, pass, &all);
            char label[32];
            snprintf(label, sizeof label, "%d blk", nb);
            print_row(label, &all);
        }
        char verdict[400];
        trace_verdict_words(&t, verdict, sizeof verdict);
        printf("\nresult %.*g, double-precision reference %.17g, difference %.3g: %s\n", result_digits(&t), t.result, t.reference,
               fabs((double)t.result - t.reference), verdict);
        char partials[400];
        if (trace_result_ok(&t) == 0 && trace_unsummed_partials(&t, partials, sizeof partials)) printf("%s\n", partials);
        print_prints(stdout, &t);
        print_schedule(stdout, &t, pass, c.card, 0);
        /* Harris's cost table, from the data flow of every traced block of every pass */
        printf("cost, %s: %" PRIu64 " adds (%.3g per element), the longest chain %u adds, %.3g instructions per element "
               "(loads, stores, atomics, shuffles, barriers and adds per thread; index arithmetic is not traced)\n",
               cost.complete ? "every block of every pass" : "the traced blocks", cost.adds, cost.adds_per_element, cost.steps,
               cost.instructions_per_element);
        if (!cost.complete)
            printf("  %u of the %u blocks were traced: --blocks-traced %u counts the whole reduction\n", cost.blocks_traced, cost.blocks,
                   cost.blocks);
    }
    free(s.phases);
    return finish_with_result(&t);
}

/* ---- capture ---- */

int cmd_capture(const ws_call *k)
{
    cli c;
    int rc = read_version_to_capture(k, &c);
    if (rc) return rc;
    if (!c.out) return usage_error("capture needs -o FILE%s%s", "", "");
    trace t;
    if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) return rc;
    char err[512];
    double t0 = now_s();
    int wrc = trace_save(&t, c.out, &interrupted, err, sizeof err);
    if (wrc) {
        trace_free(&t);
        if (wrc == -2) return report_interrupt("nothing written");
        fprintf(stderr, "warpscope: %s\n", err);
        return EXIT_BAD;
    }
    if (now_s() - t0 > PROGRESS_QUIET_S) fprintf(stderr, "warpscope: wrote %s in %.1f s\n", c.out, now_s() - t0);
    fprintf(stderr, "warpscope: %s captured on %s: %zu events, block %u, n %" PRIu64 ", result %.*g -> %s\n",
            t.prov.version, t.prov.device, t.nevents, t.prov.block, t.prov.n, result_digits(&t), t.result, c.out);
    if (c.card) print_schedule(stderr, &t, 0, c.card, 0); /* --card: pass 0 on that card */
    print_prints(stdout, &t);
    return finish_with_result(&t);
}

/* ---- hazards ---- */

int cmd_hazards(const ws_call *k)
{
    cli c;
    int rc = read_version_to_capture(k, &c);
    if (rc) return rc;
    if (c.backend && strcmp(c.backend, "cpu")) return usage_error("hazards runs on the emulator (--backend cpu); compute-sanitizer racecheck is the GPU's%s%s", "", "");
    trace t;
    if ((rc = do_capture(&c.cap, &t))) return rc;
    const trace_provenance *p = &t.prov;
    double tol = t.tolerance; /* the capture's own, carried in the trace */
    int right = trace_result_ok(&t) != 0; /* within the tolerance under this schedule; "verdict" weighs the races too */
    static const char *const verdict_names[] = {[TRACE_UNCHECKED] = "unchecked", [TRACE_RIGHT] = "right", [TRACE_RACING] = "racing",
                                                [TRACE_WRONG] = "wrong"};
    uint64_t pairs = 0;
    for (size_t i = 0; i < t.nhazards; i++) pairs += t.hazards[i].count;
    if (k->v[WF_JSON].given) {
        printf("{\"version\": \"%s\", \"block\": %u, \"n\": %" PRIu64 ", \"data\": \"%s\", \"seed\": %" PRIu64
               ", \"schedule\": \"%s\", \"drop_barrier\": %u, \"drop_syncwarp\": %u, \"race_check\": \"%s\",\n"
               " \"result\": %.*g, \"reference\": %.17g, \"tolerance\": %.3g, \"right\": %s, \"verdict\": \"%s\", \"pairs\": %" PRIu64
               ",\n \"hazards\": [",
               p->version, p->block, p->n, p->data, p->seed, p->schedule, p->drop_barrier, p->drop_syncwarp, p->race_check,
               result_digits(&t), t.result, t.reference, tol, right ? "true" : "false", verdict_names[trace_result_verdict(&t)], pairs);
        for (size_t i = 0; i < t.nhazards; i++) {
            const trace_hazard *h = &t.hazards[i];
            printf("%s\n  {\"kind\": \"%s\", \"space\": \"%s\", \"buffer\": \"%s\", \"pass\": %u, \"word\": %" PRId64
                   ", \"count\": %u, \"first\": {\"line\": %u, \"block\": %u, \"thread\": %u, \"access\": \"%s\"}"
                   ", \"second\": {\"line\": %u, \"block\": %u, \"thread\": %u, \"access\": \"%s\"}}",
                   i ? "," : "", trace_hazard_label((trace_hazard_kind)h->kind), h->space == TRACE_SPACE_GLOBAL ? "global" : "shared",
                   h->space == TRACE_SPACE_GLOBAL && h->buf < t.nbuffers ? t.buffers[h->buf].name : "", h->pass, h->word,
                   h->count, h->first.line, h->first.block, h->first.thread, h->first.write ? "write" : "read",
                   h->second.line, h->second.block, h->second.thread, h->second.write ? "write" : "read");
        }
        printf("]}\n");
        trace_free(&t);
        return 0;
    }
    const ladder_version *v = ladder_find(p->version);
    printf("%s: %s\n", p->version, title_of(p, v));
    printf("block %u, n %" PRIu64 ", data %s (seed %" PRIu64 "), schedule %s", p->block, p->n, p->data, p->seed, p->schedule);
    if (p->drop_barrier) printf(", without the __syncthreads() of line %u", p->drop_barrier);
    if (p->drop_syncwarp) printf(", without the __syncwarp() of line %u", p->drop_syncwarp);
    printf("\nresult %.*g against the double-precision reference %.17g: %s\n", result_digits(&t), t.result, t.reference,
           right ? "right" : "WRONG");
    if (!t.nhazards) {
        printf("no hazards (%s memory watched)\n", p->race_check);
        trace_free(&t);
        return 0;
    }
    printf("%zu hazard%s (pairs of source lines), %" PRIu64 " racing pairs of accesses (%s memory watched):\n\n", t.nhazards,
           t.nhazards == 1 ? "" : "s", pairs, p->race_check);
    printf("%-4s %-6s %-7s %-26s %-26s %12s %7s\n", "kind", "space", "pass", "first (ran first)", "second", "word", "count");
    for (size_t i = 0; i < t.nhazards; i++) {
        const trace_hazard *h = &t.hazards[i];
        char a[64], b[64], w[40];
        snprintf(a, sizeof a, "line %u %s, thread %u", h->first.line, h->first.write ? "write" : "read", h->first.thread);
        snprintf(b, sizeof b, "line %u %s, thread %u", h->second.line, h->second.write ? "write" : "read", h->second.thread);
        if (h->first.block != h->second.block) {
            snprintf(a + strlen(a), sizeof a - strlen(a), " (block %u)", h->first.block);
            snprintf(b + strlen(b), sizeof b - strlen(b), " (block %u)", h->second.block);
        }
        if (h->space == TRACE_SPACE_GLOBAL)
            snprintf(w, sizeof w, "%s[%" PRId64 "]", h->buf < t.nbuffers ? t.buffers[h->buf].name : "?", h->word);
        else
            snprintf(w, sizeof w, "%" PRId64, h->word);
        printf("%-4s %-6s %-7u %-26s %-26s %12s %7u\n", trace_hazard_label((trace_hazard_kind)h->kind),
               h->space == TRACE_SPACE_GLOBAL ? "global" : "shared", h->pass, a, b, w, h->count);
    }
    /* the lines named, as the kernel file has them */
    unsigned shown[64];
    size_t nshown = 0;
    printf("\n");
    for (size_t i = 0; i < t.nhazards; i++) {
        unsigned lines[2] = {t.hazards[i].first.line, t.hazards[i].second.line};
        for (int l = 0; l < 2; l++) {
            int seen = 0;
            for (size_t j = 0; j < nshown; j++) seen |= shown[j] == lines[l];
            if (seen || nshown == 64) continue;
            shown[nshown++] = lines[l];
            char text[160];
            trace_text_line_copy(sources_find(p->source), lines[l], text, sizeof text);
            printf("%s:%u: %s\n", p->source, lines[l], text);
        }
    }
    trace_free(&t);
    return 0;
}


/* ---- default: the ladder at a glance ---- */

int cmd_ladder(const ws_call *k)
{
    (void)k;
    printf("The reduction ladder in the CPU emulator: each version at its default block, one block's worth of its default data;\n"
           "counters of block 0 summed over its phases (conflicts are extra shared-memory wavefronts).\n\n");
    printf("%-6s %-44s %5s %6s %7s %10s %9s %15s %6s %13s %12s\n", "id", "title", "block", "phases", "idle", "warp-instr",
           "divergent", "conflicts ld/st", "SIMD", "sectors/min", "result/ref");
    for (size_t i = 0; i < ladder_count; i++) {
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = ladder_versions[i].id;
        trace t;
        int rc = do_capture(&d, &t);
        if (rc) return rc;
        stats s;
        if ((rc = compute_stats(&t, 0, 0, &s))) { trace_free(&t); return rc; }
        const analysis_counters *c = &s.totals;
        char rr[40];
        snprintf(rr, sizeof rr, "%.9g/%.9g%s", (double)t.result, t.reference, trace_result_ok(&t) == 0 ? " WRONG" : "");
        printf("%-6s %-44s %5u %6zu %7" PRIu64 " %10" PRIu64 " %9" PRIu64 " %7" PRIu64 "/%-7" PRIu64 " %5.1f%% %6" PRIu64 "/%-6" PRIu64 " %12s\n",
               d.version, ladder_versions[i].title, t.prov.block, s.nphases, c->idle_threads, c->warp_instructions,
               c->divergent_warp_instructions, c->bank_conflicts_load, c->bank_conflicts_store,
               100.0 * c->simd_efficiency, c->global_sectors, c->global_sectors_min, rr);
        free(s.phases);
        trace_free(&t);
    }
    printf("\nMore: warpscope list | warpscope stats --version v2 | warpscope help\n");
    return 0;
}
