/* warpscope: the command line. Owns all printing and exit codes; the libraries only return a
 * status and a message. Exit 0 on success, 2 on bad usage or bad input (one line saying what and
 * where), as the README documents. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>

#include "analysis.h"
#include "bench.h"
#include "capture.h"
#include "ladder.h"
#include "lesson.h"
#include "player.h"
#include "progress.h"
#include "trace.h"
#include "verify.h"
#include "viewer.h"

enum { EXIT_BAD = 2, EXIT_WRONG = 1 /* a result off its reference: the trace is written, the finding reported */ };

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "warpscope: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (warpscope help lists the commands)\n");
    return EXIT_BAD;
}

static void print_help(void)
{
    puts("warpscope: watch the CUDA reduction ladder run, warp by warp\n"
         "\n"
         "  warpscope                      the viewer on v0, a block of 64 threads, traced by the emulator\n"
         "  warpscope view (FILE | --version ID [capture flags]) [viewer flags] [--keys K1,K2...]\n"
         "  warpscope render (FILE | --version ID [capture flags]) [viewer flags] [--event E | --phase P | --step S]\n"
         "                   (-o out.png | --frames DIR)\n"
         "     viewer flags: [--compare ID2] [--size WxH] [--theme light|dark] [--lang en|zh] [--presenter] [--fine]\n"
         "                   [--actions A1,A2...]  (actions: step:N, phase:N, seek-step:N, version:ID, compare:ID|next|off, lang:zh, ...)\n"
         "  warpscope render --bench FILE -o out.png    the benchmark chart\n"
         "  warpscope ladder               per-version stats of the whole ladder (emulator, block 256)\n"
         "  warpscope list                 the versions: id, title, summary\n"
         "  warpscope capture --version ID [capture flags] -o FILE\n"
         "  warpscope stats (FILE | --version ID [capture flags]) [--json] [--all-blocks]\n"
         "  warpscope perf capture|draw    benchmarks: capture time and trace size; frame time of the viewer\n"
         "  warpscope bench [--sizes LIST] [--versions LIST] [--reps R] [--block B] [--json FILE] [--csv FILE]\n"
         "                                 every version on a CUDA GPU against CUB, Thrust and the bandwidth ceiling\n"
         "\n"
         "capture flags:\n"
         "  --block B          threads per block, a power of two from 32 (64 for v4, v4s) to 1024; default 256\n"
         "  --n N              elements to reduce, N >= 1; default one block's worth (block * elements per thread)\n"
         "  --data PATTERN     ones | ramp | random-int | random-float; default random-int (0..9)\n"
         "  --seed S           seed of the random patterns; default 1\n"
         "  --ept E            elements per thread for v6, v7, v8; default 8\n"
         "  --blocks-traced K  blocks recorded in each pass; default 1\n"
         "  --backend B        cpu (the emulator, default) | gpu | auto (the GPU when there is one, else the emulator)\n"
         "\n"
         "  warpscope verify [--versions LIST] [--blocks LIST] [--md FILE]   GPU against emulator, warp by warp\n"
         "  warpscope lesson check FILE...   validate lessons: schema, both languages, every query on its trace\n"
         "  warpscope lesson list [--dir D]  the lessons, with your progress\n"
         "  warpscope lesson print FILE [--lang en|zh]   a lesson as text: narration, questions, answers");
}

/* ---- flags ---- */

static int parse_u64(const char *flag, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9') goto bad; /* strtoull would skip spaces and take a sign */
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) goto bad;
    *out = v;
    return 0;
bad:
    fprintf(stderr, "warpscope: %s expects a whole number from %" PRIu64 " to %" PRIu64 ", got \"%s\"\n", flag, lo, hi,
            s ? s : "");
    return -1;
}

typedef struct cli {
    capture_desc cap;
    const char *backend;
    const char *out, *file;
    int json, all_blocks;
} cli;

/* Reads --flag value and --flag=value; positional arguments go to cli->file. */
static int parse_flags(int argc, char **argv, cli *c, int allow_capture, int allow_out, int allow_json, int allow_file)
{
    for (int i = 0; i < argc; i++) {
        char *arg = argv[i], *val = NULL;
        char name[64];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            if (strcmp(arg, "-o") == 0 && allow_out) {
                if (i + 1 >= argc) return usage_error("-o needs a file name%s%s", "", "");
                c->out = argv[++i];
                continue;
            }
            if (arg[0] == '-' || !allow_file) return usage_error("unexpected argument \"%s\"%s", arg, "");
            if (c->file) return usage_error("two input files given: \"%s\" and \"%s\"", c->file, arg);
            c->file = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (nlen >= sizeof name) return usage_error("unknown flag \"%s\"%s", arg, "");
        memcpy(name, arg, nlen);
        name[nlen] = '\0';
        if (strcmp(name, "--json") == 0 && allow_json && !eq) { c->json = 1; continue; }
        if (strcmp(name, "--all-blocks") == 0 && allow_json && !eq) { c->all_blocks = 1; continue; }
        if (strcmp(name, "--output") == 0 && allow_out) name[0] = '\0';
        static const char *const with_value[] = {"--version", "--block", "--n", "--data", "--seed", "--ept", "--blocks-traced", "--backend", NULL};
        int known = 0;
        for (int k = 0; with_value[k]; k++) known |= strcmp(name, with_value[k]) == 0;
        if (!(known && allow_capture) && name[0]) return usage_error("unknown flag \"%s\" for this command%s", name, "");
        if (eq) val = (char *)eq + 1;
        else if (i + 1 < argc) val = argv[++i];
        else return usage_error("%s needs a value%s", name[0] ? name : "--output", "");
        uint64_t u = 0;
        if (!name[0]) c->out = val;
        else if (strcmp(name, "--version") == 0) c->cap.version = val;
        else if (strcmp(name, "--data") == 0) c->cap.data = val;
        else if (strcmp(name, "--backend") == 0) {
            if (strcmp(val, "auto") && strcmp(val, "cpu") && strcmp(val, "gpu")) return usage_error("--backend must be auto, cpu or gpu, got \"%s\"%s", val, "");
            c->backend = val;
        }
        else if (strcmp(name, "--block") == 0) { if (parse_u64(name, val, 1, 1024, &u)) return EXIT_BAD; c->cap.block = (unsigned)u; }
        else if (strcmp(name, "--n") == 0) { if (parse_u64(name, val, 1, (uint64_t)1 << 31, &u)) return EXIT_BAD; c->cap.n = u; }
        else if (strcmp(name, "--seed") == 0) { if (parse_u64(name, val, 0, UINT64_MAX, &u)) return EXIT_BAD; c->cap.seed = u; c->cap.seed_set = 1; }
        else if (strcmp(name, "--ept") == 0) { if (parse_u64(name, val, 1, 4096, &u)) return EXIT_BAD; c->cap.ept = (unsigned)u; }
        else if (strcmp(name, "--blocks-traced") == 0) { if (parse_u64(name, val, 1, TRACE_BLOCKS_TRACED_MAX, &u)) return EXIT_BAD; c->cap.blocks_traced = (unsigned)u; }
    }
    return 0;
}

static int do_capture_with(const char *backend, const capture_desc *d, trace *t)
{
    char err[512], note[600];
    if (capture_with(backend, d, t, note, sizeof note, err, sizeof err)) {
        fprintf(stderr, "warpscope: %s\n", err);
        return EXIT_BAD;
    }
    if (note[0]) fprintf(stderr, "warpscope: %s\n", note);
    return 0;
}

static int do_capture(const capture_desc *d, trace *t) { return do_capture_with("cpu", d, t); }

/* ---- view and render ---- */

/* Viewer flags are taken here; the rest (capture flags, -o, a file) go through parse_flags. */
static int parse_viewer(int argc, char **argv, viewer_opts *o, int headless)
{
    memset(o, 0, sizeof *o);
    o->event = o->phase = o->step = -1;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    if (!rest) return usage_error("out of memory%s%s", "", "");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        static const char *const valued[] = {"--compare", "--theme", "--size", "--event", "--phase", "--step", "--frames", "--bench", "--keys", "--lang", "--actions", NULL};
        int k = -1;
        size_t alen = strcspn(a, "=");
        for (int j = 0; valued[j]; j++)
            if (strlen(valued[j]) == alen && !strncmp(a, valued[j], alen)) k = j;
        if (!strcmp(a, "--fine")) { o->fine = 1; continue; }
        if (!strcmp(a, "--presenter")) { o->presenter = 1; continue; }
        if (k < 0) { rest[nrest++] = argv[i]; continue; }
        const char *name = valued[k], *val = a[alen] == '=' ? a + alen + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) { free(rest); return usage_error("%s needs a value%s", name, ""); }
        if ((!strcmp(name, "--event") || !strcmp(name, "--phase") || !strcmp(name, "--step") || !strcmp(name, "--frames")) && !headless) {
            free(rest);
            return usage_error("%s is for warpscope render%s", name, "");
        }
        if (!strcmp(name, "--keys") && headless) { free(rest); return usage_error("--keys drives the window (warpscope view)%s%s", "", ""); }
        uint64_t u;
        switch (k) {
        case 0: o->compare = val; break;
        case 1: o->theme = val; break;
        case 2: {
            unsigned w = 0, h = 0;
            char tail;
            if (sscanf(val, "%ux%u%c", &w, &h, &tail) != 2 || w < 320 || h < 200 || w > 8192 || h > 8192) {
                free(rest);
                return usage_error("--size expects WIDTHxHEIGHT from 320x200 to 8192x8192, got \"%s\"%s", val, "");
            }
            o->width = (int)w;
            o->height = (int)h;
            break;
        }
        case 3: case 4: case 5:
            if (parse_u64(name, val, 0, 100000000, &u)) { free(rest); return EXIT_BAD; }
            if (k == 3) o->event = (long)u; else if (k == 4) o->phase = (long)u; else o->step = (long)u;
            break;
        case 6: o->frames = val; break;
        case 7: o->bench = val; break;
        case 8: o->keys = val; break;
        case 9:
            if (strcmp(val, "en") && strcmp(val, "zh")) { free(rest); return usage_error("--lang must be en or zh, got \"%s\"%s", val, ""); }
            o->lang = val;
            break;
        default: o->actions = val; break;
        }
    }
    cli c;
    memset(&c, 0, sizeof c);
    int rc = parse_flags(nrest, rest, &c, 1, headless, 0, 1);
    free(rest);
    if (rc) return rc;
    if (c.file && c.cap.version) return usage_error("give a trace file or --version, not both (%s, %s)", c.file, c.cap.version);
    if ((o->event >= 0) + (o->phase >= 0) + (o->step >= 0) > 1) return usage_error("give one of --event, --phase, --step%s%s", "", "");
    o->cap = c.cap;
    o->backend = c.backend;
    o->file = c.file;
    o->out = c.out;
    return 0;
}

static int cmd_view(int argc, char **argv)
{
    viewer_opts o;
    int rc = parse_viewer(argc, argv, &o, 0);
    if (rc) return rc;
    return viewer_window(&o);
}

static int cmd_render(int argc, char **argv)
{
    viewer_opts o;
    int rc = parse_viewer(argc, argv, &o, 1);
    if (rc) return rc;
    if (!o.out && !o.frames) return usage_error("render needs -o out.png or --frames DIR%s%s", "", "");
    if (!o.file && !o.cap.version && !o.bench) return usage_error("render needs a trace file, --version ID or --bench FILE%s%s", "", "");
    return viewer_render(&o);
}

/* ---- list ---- */

static int cmd_list(void)
{
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

static int compute_stats(const trace *t, stats *s)
{
    if (analysis_phases(t, 0, 0, &s->phases, &s->nphases, &s->totals)) {
        fprintf(stderr, "warpscope: the trace holds no events of block 0 of pass 0\n");
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
static int report_result(const trace *t)
{
    if (trace_result_ok(t) != 0) return 0;
    fprintf(stderr, "warpscope: WRONG RESULT: %s computed %.9g, the double-precision reference is %.17g; off by %.3g, more than the %.3g allowed for n = %" PRIu64 "\n",
            t->prov.version, (double)t->result, t->reference, fabs((double)t->result - t->reference), t->tolerance, t->prov.n);
    return 1;
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

static int cmd_stats(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    int rc = parse_flags(argc, argv, &c, 1, 0, 1, 1);
    if (rc) return rc;
    if (c.file && c.cap.version) return usage_error("give a trace file or --version, not both (%s, %s)", c.file, c.cap.version);
    if (!c.file && !c.cap.version) return usage_error("stats needs a trace file or --version ID%s%s", "", "");
    trace t;
    trace_init(&t);
    if (c.file) {
        char err[512];
        if (trace_read_file(&t, c.file, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    } else if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) {
        return rc;
    }
    stats s;
    if ((rc = compute_stats(&t, &s))) { trace_free(&t); return rc; }
    const ladder_version *v = ladder_find(t.prov.version);
    const trace_provenance *p = &t.prov;
    if (c.json) {
        int ok = trace_result_ok(&t);
        printf("{\"version\": ");
        json_str(p->version);
        printf(", \"title\": ");
        json_str(v ? v->title : "");
        printf(", \"device\": ");
        json_str(p->device);
        printf(", \"block\": %u, \"n\": %" PRIu64 ", \"data\": ", p->block, p->n);
        json_str(p->data);
        printf(", \"seed\": %" PRIu64 ", \"elems_per_thread\": %u, \"passes\": %zu, \"result\": %.9g, \"reference\": %.17g, \"tolerance\": %.17g, \"result_ok\": %s,\n \"phases\": [",
               p->seed, p->elems_per_thread, t.npasses, (double)t.result, t.reference, t.tolerance,
               ok < 0 ? "null" : ok ? "true" : "false");
        for (size_t i = 0; i < s.nphases; i++) {
            printf("%s\n  ", i ? "," : "");
            json_counters(&s.phases[i]);
        }
        printf("],\n \"totals\": ");
        json_counters(&s.totals);
        if (c.all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, 0, &all);
            printf(",\n \"all_blocks\": %d, \"totals_all_blocks\": ", nb);
            json_counters(&all);
        }
        printf("}\n");
    } else {
        printf("%s: %s\n", p->version, v ? v->title : "(unknown version)");
        printf("%s, block %u, n %" PRIu64 ", data %s (seed %" PRIu64 "), %zu pass%s; counters of block 0, pass 0\n\n",
               p->device, p->block, p->n, p->data, p->seed, t.npasses, t.npasses == 1 ? "" : "es");
        printf("%-6s %7s %6s %10s %10s %15s %8s %15s %5s\n", "phase", "active", "idle", "warp-instr", "divergent",
               "conflicts ld/st", "SIMD", "sectors/min", "shfl");
        for (size_t i = 0; i < s.nphases; i++) {
            char label[24];
            snprintf(label, sizeof label, "%zu", i);
            print_row(label, &s.phases[i]);
        }
        print_row("total", &s.totals);
        if (c.all_blocks) {
            analysis_counters all;
            int nb = all_blocks_totals(&t, 0, &all);
            char label[32];
            snprintf(label, sizeof label, "%d blk", nb);
            print_row(label, &all);
        }
        int ok = trace_result_ok(&t);
        printf("\nresult %.9g, double-precision reference %.17g, difference %.3g: %s\n", (double)t.result, t.reference,
               fabs((double)t.result - t.reference),
               ok < 0 ? "not checked (the trace carries no tolerance)" : ok ? "within the tolerance for this n" : "WRONG");
    }
    int wrong = report_result(&t);
    free(s.phases);
    trace_free(&t);
    return wrong ? EXIT_WRONG : 0;
}

/* ---- capture ---- */

/* Ctrl+C (or TERM) while the trace is written: the write stops and its temporary file goes, so
 * nothing is left behind. Before that, Ctrl+C simply ends the process: no file exists yet. */
static volatile sig_atomic_t save_cancel; /* trace_save polls it (sig_atomic_t is int here) */
static void on_interrupt(int sig) { (void)sig; save_cancel = 1; }

static int save_interruptibly(const trace *t, const char *path, char *err, size_t errlen)
{
    _Static_assert(sizeof(sig_atomic_t) == sizeof(int), "trace_save polls an int");
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int rc = trace_save(t, path, (volatile int *)&save_cancel, err, errlen);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

static int cmd_capture(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    int rc = parse_flags(argc, argv, &c, 1, 1, 0, 0);
    if (rc) return rc;
    if (!c.cap.version) return usage_error("capture needs --version ID%s%s", "", "");
    if (!c.out) return usage_error("capture needs -o FILE%s%s", "", "");
    trace t;
    trace_init(&t);
    if ((rc = do_capture_with(c.backend ? c.backend : "cpu", &c.cap, &t))) return rc;
    char err[512];
    if (save_interruptibly(&t, c.out, err, sizeof err)) {
        fprintf(stderr, "warpscope: %s\n", err);
        trace_free(&t);
        return EXIT_BAD;
    }
    fprintf(stderr, "warpscope: %s captured on %s: %zu events, block %u, n %" PRIu64 ", result %.9g -> %s\n",
            t.prov.version, t.prov.device, t.nevents, t.prov.block, t.prov.n, (double)t.result, c.out);
    int wrong = report_result(&t);
    trace_free(&t);
    return wrong ? EXIT_WRONG : 0;
}

/* ---- perf ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmd_perf(int argc, char **argv)
{
    if (argc < 1 || (strcmp(argv[0], "capture") != 0 && strcmp(argv[0], "draw") != 0))
        return usage_error("perf takes one benchmark: capture or draw%s%s", "", "");
    if (argc > 1) return usage_error("unexpected argument \"%s\"%s", argv[1], "");
    if (!strcmp(argv[0], "draw")) return viewer_perf_draw();
    enum { REPS = 7 };
    static const unsigned blocks[] = {256, 1024};
    printf("capture of one block (n = block * elements per thread), CPU emulator, median of %d runs\n", REPS);
    printf("%-6s %6s %8s %8s %10s %10s %10s\n", "version", "block", "events", "capture", "to JSON", "JSON size", "target");
    for (size_t i = 0; i < ladder_count; i++) {
        for (size_t b = 0; b < 2; b++) {
            capture_desc d;
            memset(&d, 0, sizeof d);
            d.version = ladder_versions[i].id;
            d.block = blocks[b];
            d.data = "random-float";
            double tc[REPS], tj[REPS];
            size_t bytes = 0, events = 0;
            for (int r = 0; r < REPS; r++) {
                trace t;
                trace_init(&t);
                double t0 = now_ms();
                int rc = do_capture(&d, &t);
                if (rc) return rc;
                double t1 = now_ms();
                char *json = trace_to_json(&t);
                double t2 = now_ms();
                if (!json) { fprintf(stderr, "warpscope: out of memory\n"); trace_free(&t); return EXIT_BAD; }
                bytes = strlen(json);
                events = t.nevents;
                free(json);
                trace_free(&t);
                tc[r] = t1 - t0;
                tj[r] = t2 - t1;
            }
            qsort(tc, REPS, sizeof *tc, cmp_double);
            qsort(tj, REPS, sizeof *tj, cmp_double);
            int ok = tc[REPS / 2] + tj[REPS / 2] <= 50.0 && bytes < 1000000;
            printf("%-7s %6u %8zu %6.2f ms %7.2f ms %8.1f kB %10s\n", ladder_versions[i].id, blocks[b], events,
                   tc[REPS / 2], tj[REPS / 2], (double)bytes / 1000.0, ok ? "met" : "MISSED");
        }
    }
    puts("target: capture + JSON at most 50 ms, JSON under 1 MB (1024 threads)");
    return 0;
}

/* ---- default: the ladder at a glance ---- */

static int cmd_ladder(void)
{
    printf("The reduction ladder in the CPU emulator: block 256, one block's worth of random-int data each;\n"
           "counters of block 0 summed over its phases (conflicts are extra shared-memory wavefronts).\n\n");
    printf("%-6s %-44s %6s %7s %10s %9s %15s %6s %13s %12s\n", "id", "title", "phases", "idle", "warp-instr",
           "divergent", "conflicts ld/st", "SIMD", "sectors/min", "result/ref");
    for (size_t i = 0; i < ladder_count; i++) {
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = ladder_versions[i].id;
        trace t;
        trace_init(&t);
        int rc = do_capture(&d, &t);
        if (rc) return rc;
        stats s;
        if ((rc = compute_stats(&t, &s))) { trace_free(&t); return rc; }
        const analysis_counters *c = &s.totals;
        char rr[40];
        snprintf(rr, sizeof rr, "%.9g/%.9g%s", (double)t.result, t.reference, trace_result_ok(&t) == 0 ? " WRONG" : "");
        printf("%-6s %-44s %6zu %7" PRIu64 " %10" PRIu64 " %9" PRIu64 " %7" PRIu64 "/%-7" PRIu64 " %5.1f%% %6" PRIu64 "/%-6" PRIu64 " %12s\n",
               d.version, ladder_versions[i].title, s.nphases, c->idle_threads, c->warp_instructions,
               c->divergent_warp_instructions, c->bank_conflicts_load, c->bank_conflicts_store,
               100.0 * c->simd_efficiency, c->global_sectors, c->global_sectors_min, rr);
        free(s.phases);
        trace_free(&t);
    }
    printf("\nMore: warpscope list | warpscope stats --version v2 | warpscope help\n");
    return 0;
}

/* ---- lessons: check and list (the player window is the viewer's) ---- */

#ifndef WS_LESSON_DIR
#define WS_LESSON_DIR "lessons"
#endif

static void print_report(void *ud, const char *message)
{
    (void)ud;
    fprintf(stderr, "warpscope: %s\n", message);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lesson files of a folder, sorted by name; NULL-terminated, malloc'd. */
static char **lesson_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    char **v = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || e->d_name[0] == '.') continue;
        char **nv = realloc(v, (*n + 2) * sizeof *nv);
        char *path = malloc(strlen(dir) + len + 2);
        if (!nv || !path) { free(path); free(nv ? nv : v); closedir(d); *n = 0; return NULL; }
        v = nv;
        sprintf(path, "%s/%s", dir, e->d_name);
        v[(*n)++] = path;
        v[*n] = NULL;
    }
    closedir(d);
    if (v) qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

/* The lesson as text, step by step: narration with its numbers filled in, each question and its
 * answer. What a teacher reads to prepare, and a lesson's author to proofread. */
static int lesson_print(const char *file, lesson_lang lang)
{
    char err[1600];
    lesson l;
    if (lesson_load(&l, file, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    player p;
    int rc = 0;
    if (player_open(&p, &l, NULL, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); lesson_free(&l); return EXIT_BAD; }
    static char buf[8192];
    printf("# %s\n\n", l.title.s[lang]);
    for (size_t i = 0; i < player_count(&p) && !rc; i++) {
        if (i && player_goto(&p, i, err, sizeof err)) { rc = EXIT_BAD; break; }
        const player_frame *f = player_current(&p);
        printf("## %zu/%zu  %s%s%s, step %zu (phase %u, line %u)\n", i + 1, player_count(&p), f->show->version,
               f->cap_compare.version ? " | " : "", f->cap_compare.version ? f->cap_compare.version : "", f->step,
               f->view->steps[f->step].phase, f->view->steps[f->step].line);
        if (player_text(&p, PLAYER_TEXT_SAY, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("%s\n", buf);
        const lesson_ask *a = player_question(&p);
        if (!a) { putchar('\n'); continue; }
        if (player_text(&p, PLAYER_TEXT_PROMPT, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("\n  ? [%s] %s\n", lesson_ask_keys[a->kind], buf);
        for (size_t o = 0; o < a->noptions; o++) {
            if (player_text(&p, PLAYER_TEXT_OPTION, o, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
            printf("    %c) %s\n", (int)('a' + o), buf);
        }
        query_value v;
        if (player_expected(&p, &v, err, sizeof err)) { rc = EXIT_BAD; break; }
        char ans[2048];
        if (a->kind == LESSON_ASK_CHOICE) {
            size_t k = 0;
            ans[0] = '\0';
            for (size_t o = 0; o < a->noptions; o++)
                if (query_set_has(&v, o)) k += (size_t)snprintf(ans + k, sizeof ans - k, "%s%c", k ? ", " : "", (int)('a' + o));
        } else {
            query_format(&v, "", ans, sizeof ans);
        }
        printf("  = %s\n", ans);
        if (player_text(&p, PLAYER_TEXT_EXPLAIN, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("  ! %s\n\n", buf);
    }
    if (rc) fprintf(stderr, "warpscope: %s\n", err);
    player_close(&p);
    lesson_free(&l);
    return rc;
}

static int cmd_lesson(int argc, char **argv)
{
    if (argc < 1 || (strcmp(argv[0], "check") && strcmp(argv[0], "list") && strcmp(argv[0], "print")))
        return usage_error("lesson takes check FILE..., list [--dir DIR] or print FILE [--lang en|zh]%s%s", "", "");
    char err[1600];
    if (!strcmp(argv[0], "print")) {
        const char *file = NULL;
        lesson_lang lang = LESSON_EN;
        for (int i = 1; i < argc; i++) {
            const char *val = !strcmp(argv[i], "--lang") && i + 1 < argc ? argv[++i] : !strncmp(argv[i], "--lang=", 7) ? argv[i] + 7 : NULL;
            if (val) {
                if (!strcmp(val, "en")) lang = LESSON_EN;
                else if (!strcmp(val, "zh")) lang = LESSON_ZH;
                else return usage_error("--lang must be en or zh, got \"%s\"%s", val, "");
            } else if (argv[i][0] == '-' || file) {
                return usage_error("unexpected argument \"%s\" (lesson print FILE [--lang en|zh])%s", argv[i], "");
            } else {
                file = argv[i];
            }
        }
        if (!file) return usage_error("lesson print needs a lesson file%s%s", "", "");
        return lesson_print(file, lang);
    }
    if (!strcmp(argv[0], "check")) {
        if (argc < 2) return usage_error("lesson check needs lesson files%s%s", "", "");
        size_t bad = 0;
        for (int i = 1; i < argc; i++) {
            lesson l;
            if (lesson_load(&l, argv[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); bad++; continue; }
            size_t nq = 0;
            for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
            size_t e = player_check(&l, print_report, NULL);
            if (!e) printf("%s: ok: %s, %zu steps, %zu questions\n", argv[i], l.id, l.nsteps, nq);
            bad += e;
            lesson_free(&l);
        }
        return bad ? EXIT_BAD : 0;
    }
    const char *dir = WS_LESSON_DIR;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
        else if (!strncmp(argv[i], "--dir=", 6)) dir = argv[i] + 6;
        else return usage_error("unexpected argument \"%s\" (lesson list [--dir DIR])%s", argv[i], "");
    }
    size_t n;
    char **files = lesson_files(dir, &n);
    if (!n) { free(files); fprintf(stderr, "warpscope: %s: no lesson files (*.json) there\n", dir); return EXIT_BAD; }
    progress prog;
    char pdir[1024];
    int have_prog = progress_default_dir(pdir, sizeof pdir, err, sizeof err) == 0 && progress_load(&prog, pdir, err, sizeof err) == 0;
    if (!have_prog) fprintf(stderr, "warpscope: progress not shown: %s\n", err);
    int rc = 0;
    char (*ids)[sizeof ((lesson *)0)->id] = calloc(n, sizeof *ids);
    if (!ids) { fprintf(stderr, "warpscope: out of memory\n"); rc = EXIT_BAD; n = 0; }
    for (size_t i = 0; i < n; i++) {
        lesson l;
        if (lesson_load(&l, files[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); rc = EXIT_BAD; continue; }
        /* progress is kept by id: two files with one id would share it */
        size_t dup = 0;
        while (dup < i && strcmp(ids[dup], l.id) != 0) dup++;
        snprintf(ids[i], sizeof ids[i], "%s", l.id);
        if (dup < i) {
            fprintf(stderr, "warpscope: %s: id \"%s\" is already the id of %s\n", files[i], l.id, files[dup]);
            rc = EXIT_BAD;
        }
        size_t nq = 0;
        for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
        const progress_entry *e = have_prog ? progress_find(&prog, l.id, 0) : NULL;
        char mark[64];
        if (!e) snprintf(mark, sizeof mark, "new");
        else if (e->done) snprintf(mark, sizeof mark, "done, %u/%zu right", progress_count_solved(e), nq);
        else snprintf(mark, sizeof mark, "step %zu/%zu, %u/%zu right", e->step + 1, l.nsteps, progress_count_solved(e), nq);
        printf("%-22s %-24s %s  |  %s\n", l.id, mark, l.title.s[LESSON_EN], l.title.s[LESSON_ZH]);
        lesson_free(&l);
    }
    for (size_t i = 0; files && files[i]; i++) free(files[i]);
    free(files);
    free(ids);
    if (have_prog) progress_free(&prog);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) { /* the built-in default: v0 at a block small enough to read */
        viewer_opts o;
        memset(&o, 0, sizeof o);
        o.cap.version = "v0";
        o.cap.block = 64;
        o.event = o.phase = o.step = -1;
        return viewer_window(&o);
    }
    if (strcmp(argv[1], "ladder") == 0) return cmd_ladder();
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) { print_help(); return 0; }
    if (strcmp(cmd, "list") == 0) {
        if (argc > 2) return usage_error("unexpected argument \"%s\"%s", argv[2], "");
        return cmd_list();
    }
    if (strcmp(cmd, "stats") == 0) return cmd_stats(argc - 2, argv + 2);
    if (strcmp(cmd, "capture") == 0) return cmd_capture(argc - 2, argv + 2);
    if (strcmp(cmd, "perf") == 0) return cmd_perf(argc - 2, argv + 2);
    if (strcmp(cmd, "view") == 0) return cmd_view(argc - 2, argv + 2);
    if (strcmp(cmd, "verify") == 0) return verify_main(argc - 2, argv + 2);
    if (strcmp(cmd, "render") == 0) return cmd_render(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0) return bench_main(argc - 2, argv + 2);
    if (strcmp(cmd, "lesson") == 0) return cmd_lesson(argc - 2, argv + 2);
    return usage_error("unknown command \"%s\"%s", cmd, "");
}
