/* Fuzz target: the colour theme reader. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/draw/theme.h"
#include "mutate.h"

FUZZ_STRUCTURED(fuzz_mutate_json)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    theme th;
    char err[256] = "";
    if (theme_parse(&th, (const char *)data, size, err, sizeof err)) {
        if (!err[0]) abort();
        return 0;
    }
    if (memchr(th.name, '\0', sizeof th.name) == NULL) abort();
    return 0;
}
