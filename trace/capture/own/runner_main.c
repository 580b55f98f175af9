/* warpscope-run: the one program a learner's code runs in (sandbox.h). warpscope starts it in the
 * sandbox with limits; it confines itself further before anything of the learner's is loaded.
 *   warpscope-run trace WORK SO OUT KERNEL ENTRY N DATA SEED SEED_SET BLOCKS_TRACED SCHEDULE WARP_ORDER
 *                 DROP_BARRIER DROP_SYNCWARP NO_RACE_CHECK RESULT (in or out) CARD
 *       loads SO (a learner's file built for the emulator), calls its entry and writes the trace to
 *       OUT in the compact encoding: 0 with "traced" in WORK/message; or 2 with the learner's error there
 *   warpscope-run confine WORK [FILE...] -- PROGRAM ARGS...     (a build's step: the front end, the compiler)
 *   warpscope-run confine-calls WORK -- PROGRAM ARGS...        (a GPU's build: system calls only)
 *   warpscope-run probe: confines itself as a run would, and exits 0 where that works
 *       confines itself to WORK and the system (and FILE...) and execs PROGRAM
 * What it writes is read back by warpscope through the validating reader; nothing it says is
 * trusted beyond that. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"

static int say(const char *work, const char *msg)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/message", work);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(msg, f);
        fclose(f);
    }
    return 2;
}

static int trace_mode(int argc, char **argv)
{
    if (argc != 20) { fprintf(stderr, "warpscope-run trace: 18 arguments expected\n"); return 2; }
    const char *work = argv[2], *so = argv[3], *out = argv[4];
    char err[1024];
    if (sandbox_confine_self(SANDBOX_RUN, work, NULL, err, sizeof err)) return say(work, err);
    capture_desc d = {.version = OWN_VERSION, .kernel = argv[5], .entry = argv[6], .n = strtoull(argv[7], NULL, 10),
                      .data = *argv[8] ? argv[8] : NULL, .seed = strtoull(argv[9], NULL, 10), .seed_set = atoi(argv[10]),
                      .blocks_traced = (unsigned)strtoul(argv[11], NULL, 10), .schedule = *argv[12] ? argv[12] : NULL,
                      .warp_order = *argv[13] ? argv[13] : NULL, .drop_barrier = (unsigned)strtoul(argv[14], NULL, 10),
                      .drop_syncwarp = (unsigned)strtoul(argv[15], NULL, 10), .no_race_check = atoi(argv[16]),
                      .result_in = strcmp(argv[17], "in") == 0, .card = argv[18], .type = argv[19]};
    trace t;
    trace_init(&t);
    if (own_run_so(&d, so, &t, err, sizeof err) || trace_write_file(&t, out, err, sizeof err)) {
        trace_free(&t);
        return say(work, err);
    }
    trace_free(&t);
    say(work, OWN_TRACED); /* the last word: a program that called exit() never says it */
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "trace") == 0) return trace_mode(argc, argv);
    if (argc == 2 && strcmp(argv[1], "probe") == 0) { /* warpscope asks whether the sandbox holds here */
        char err[1024];
        if (sandbox_confine_self(SANDBOX_RUN, "/tmp", NULL, err, sizeof err)) { fprintf(stderr, "warpscope-run: %s\n", err); return 1; }
        return 0;
    }
    int calls_only = argc > 1 && strcmp(argv[1], "confine-calls") == 0;
    if (argc > 4 && (calls_only || strcmp(argv[1], "confine") == 0)) {
        int dash = 3;
        while (dash < argc && strcmp(argv[dash], "--")) dash++;
        if (dash + 1 >= argc) { fprintf(stderr, "warpscope-run confine: no program after --\n"); return 2; }
        argv[dash] = NULL;
        char err[1024];
        if (sandbox_confine_self(SANDBOX_BUILD, calls_only ? NULL : argv[2], (const char *const *)(argv + 3), err, sizeof err)) {
            fprintf(stderr, "warpscope-run: %s\n", err);
            return 126;
        }
        execvp(argv[dash + 1], argv + dash + 1);
        fprintf(stderr, "cannot run %s\n", argv[dash + 1]);
        return 127;
    }
    fprintf(stderr, "usage: warpscope-run trace WORK SO OUT ... | confine WORK [FILE...] -- PROGRAM ARGS...\n");
    return 2;
}
