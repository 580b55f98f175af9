/* kernel_lines.h: source lines of the kernel files found by their text, so that tests name lines
 * from the files themselves rather than from what the code under test reports. */
#ifndef WARPSCOPE_KERNEL_LINES_H
#define WARPSCOPE_KERNEL_LINES_H

#include <stdio.h>
#include <string.h>

/* Lines (from 1) of kernels/<file> that contain needle, up to max; returns how many. */
static int kernel_lines(const char *file, const char *needle, unsigned *out, int max)
{
    char path[512], buf[512];
    snprintf(path, sizeof path, "%s/kernels/%s", WS_ROOT, file);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int n = 0;
    for (unsigned line = 1; fgets(buf, sizeof buf, f); line++)
        if (strstr(buf, needle) && n < max) out[n++] = line;
    fclose(f);
    return n;
}

#endif
