/* bench without CUDA in the build: one clear line, exit 2. */
#include <stdio.h>

#include "app/bench.h"

const int bench_has_cuda = 0; /* app/gpu_time.c: no GPU timing in this build */

int bench_main(const cli_value flag[WF_COUNT], const struct capture_desc *own, volatile int *cancel)
{
    (void)flag;
    (void)own;
    (void)cancel;
    fprintf(stderr, "warpscope: bench needs a build with CUDA (nvcc was not found when this was configured); "
                    "assets/bench-h100.json and assets/bench-h200.json hold results measured on an H100 and an H200\n");
    return 2;
}
