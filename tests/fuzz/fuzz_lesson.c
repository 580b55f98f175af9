/* Fuzz target: the lesson reader (lessons are files teachers pass around). Whatever the bytes,
 * it returns a lesson or a message with the position. */
#include <stdint.h>
#include <stdlib.h>

#include "app/learn/lesson.h"
#include "mutate.h"

FUZZ_STRUCTURED(fuzz_mutate_json)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lesson l;
    char err[512] = "";
    if (lesson_parse(&l, (const char *)data, size, "fuzz.json", ".", err, sizeof err)) {
        if (!err[0]) abort();
        return 0;
    }
    for (size_t i = 0; i < l.nsteps; i++) {
        char where[256];
        lesson_where(&l, (lesson_pos){0}, where, sizeof where);
    }
    lesson_free(&l);
    return 0;
}
