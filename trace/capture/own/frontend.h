/* frontend: a learner's CUDA file, read by clang's own parser (libclang), rewritten so that the host
 * C++ compiler builds it against the emulator (trace/capture/ws_cuda.h, WS_USER).
 *
 * Every edit stays on its line, so the compiler's FILE:LINE:COL and the trace's lines are the
 * learner's. In __global__ and __device__ functions a pointer becomes ws_ptr<T> (it knows whether
 * it points into a global buffer or shared memory), a __shared__ array becomes shared_array<T, N>
 * (extern: ws_extern_shared<T>, sized by the launch; a scalar, an array of one whose every use is
 * NAME[0], so each records its line); every kernel's body opens with WS_KERNEL_ENTRY (the GPU's
 * traced build records there where its block ran and its threads' end); every loop's condition counts its turns
 * (ws_tick: a loop that never ends is stopped); K<<<g, b, s>>>(args) becomes
 * ws_launch(K, ws_config(g, b, s))(args). What the emulator does not model is refused before
 * anything runs, with the line and what to write instead (the table in frontend.c).
 *
 * In every kernel, the first `float` variable it declares (alone in its declaration) is the register
 * the viewer draws: it becomes reg<float>, whose assignments are recorded; every other use of it
 * reads its value (NAME.v), so it behaves as the float it is.
 *
 * The ladder's own files (kernels/, `ladder`) are rewritten into the handles ws_cuda.h gives every
 * build: a kernel's pointers are global_ptr<T>, a __device__ helper's shared_volatile<T> (volatile)
 * or shared_plain<T>, reinterpret_cast<const float4 *> is as_float4; they hold no host code, and
 * nothing is appended: the build adds each version's launch (ladder_launch.h). */
#ifndef WARPSCOPE_FRONTEND_H
#define WARPSCOPE_FRONTEND_H

#include <stddef.h>

/* The text after the learner's file: the entry, as `--entry` wrote it (see own.h). */
typedef struct frontend_input {
    const char *path;       /* as the learner named it: messages say it, #line holds it as a C string literal */
    const char *text;       /* the file */
    size_t len;
    const char *entry;      /* calls of the file's own functions (K<<<g, b>>>(...) or f(...), joined by commas), their
                             * arguments built of in, out, n, h_in, numbers, operators, casts and sizeof: anything
                             * else is refused (frontend.c, check_entry); one line */
    const char *const *defines; /* NAME or NAME=VALUE, NULL-terminated; may be NULL */
    const char *include_dir;    /* holds cuda_runtime.h and the other stubs the learner may include */
    const char *dir;            /* where its own #include "x.h" looks first (the folder of the file read); may be NULL */
    int ladder;                 /* a file of kernels/: see below */
    char **sites;               /* where not NULL (a learner's file): *sites gets the file's event sites (below) */
} frontend_input;

/* A learner's file's event sites: the lines where its device code can make an event, as text
 * ("LINE MASK\n" for each, MASK the trace_kind bits an event there may have, lines as the
 * compiler's __builtin_LINE gives them, #line included): a line of a device function's call holds
 * every kind; a line of any other expression of device code holds the loads, stores and register
 * values; a line of no device expression holds none. The build keeps it beside the object, and a
 * run whose trace holds an event at no site of its kind is refused (own.h: own_sites_check). */

/* 0 with *out the C++ text (malloc'd, NUL-terminated), or -1 with err: the first of clang's errors
 * or the first refusal, as "FILE:LINE:COL: error: ..." with what to write instead (the entry's:
 * "--entry:1:COL: error: ..."). */
int frontend_rewrite(const frontend_input *in, char **out, char *err, size_t errlen);

#endif
