/* kernels_emu: which compiled kernel runs a version in the emulator. It lives in the producing
 * library, so that the version table (ladder.c) stays metadata a trace reader can link alone. */
#include <string.h>

#include "trace/capture/capture.h"
#include "trace/versions.h"

/* defined by WS_LAUNCH in each kernel file, compiled for the emulator */
#define WS_X_DECLARE(id) void ws_emu_##id(const void *);
WS_VERSIONS(WS_X_DECLARE)
#undef WS_X_DECLARE

static const struct {
    const char *id;
    emu_kernel_fn fn;
} kernels[] = {
#define WS_X_ENTRY(id) {#id, ws_emu_##id},
    WS_VERSIONS(WS_X_ENTRY)
#undef WS_X_ENTRY
};

emu_kernel_fn capture_emu_kernel(const ladder_version *v)
{
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (ladder_symbol_is(kernels[i].id, v->id)) return kernels[i].fn;
    return NULL;
}
