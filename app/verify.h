/* verify: the same captures on the GPU and in the emulator, compared warp by warp. */
#ifndef WARPSCOPE_VERIFY_H
#define WARPSCOPE_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include "app/commands.h"
#include "trace/trace.h"

/* Differences between two traces of the same capture, for block b of pass p: per warp the
 * sequence of (kind, line, mask, addresses) of every event but exits, shared memory after each
 * phase, and the result. Shared addresses are compared from the lowest word each trace touched
 * (the GPU's shared window may start the arrays elsewhere). Writes up to `max` lines describing
 * the first differences into out (may be NULL); returns how many differences were found. Two loads
 * of one line in the other order are the same (C++ leaves a call's argument order to the compiler).
 * splits (may be NULL): how many of the differences are the GPU running for part of a warp what the
 * emulator ran for all of it together. */
size_t verify_compare(const trace *cpu, const trace *gpu, FILE *out, size_t max, size_t *splits);

/* warpscope verify [--versions LIST] [--blocks LIST] [--md FILE], with the flags main scanned from
 * the command table (app/commands.c), by ws_flag; or, given own (--kernel), that file's emulator
 * and GPU traces: exit code. */
struct capture_desc;
int verify_main(const cli_value flag[WF_COUNT], const struct capture_desc *own, volatile int *cancel);

#endif
