/* own: captures a learner's own CUDA file (capture_desc.kernel). The front end (frontend.h)
 * rewrites it, the host C++ compiler builds it into a shared object kept in a cache (keyed by the
 * file, its entry and defines, the compiler, the front end and warpscope's headers), and a child
 * process calls its entry with the input in device memory; each launch its host code makes runs
 * in the emulator and is a pass of the trace, which comes back to warpscope in the compact
 * encoding. Errors name the learner's FILE:LINE. */
#ifndef WARPSCOPE_OWN_H
#define WARPSCOPE_OWN_H

#include <stddef.h>

#include "trace/capture/capture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -1 with a message (a compile error as the compiler wrote it at the learner's line). */
int capture_own(const capture_desc *d, trace *t, char *err, size_t errlen);

/* Where the compiled files are kept: $XDG_CACHE_HOME/warpscope, or ~/.cache/warpscope. */
int own_cache_dir(char *buf, size_t len);

/* What the last capture_own did: compiled (1) or found in the cache (0); the build's time (reading
 * the file, the key, then the front end and the compiler, or the cache, and loading) and the
 * entry's (its host code and launches, traced). */
typedef struct own_build_info {
    int compiled;
    double build_ms, run_ms;
} own_build_info;
void own_last_build(own_build_info *info);

#ifdef __cplusplus
}
#endif
#endif
