/* capture_gpu in a build without CUDA: says so. */
#include <stdio.h>

#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"

int capture_gpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    (void)d;
    (void)t;
    snprintf(err, errlen, "this build has no CUDA (nvcc was not found when it was configured)");
    return -1;
}

int capture_own_gpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    (void)d;
    (void)t;
    snprintf(err, errlen, "this build has no CUDA (nvcc was not found when it was configured)");
    return -1;
}
