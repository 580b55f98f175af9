/* warpscope-frontend: the front end (frontend.h) as its own program, so that warpscope neither
 * loads libclang nor shares its fate: warpscope runs it on a learner's file when the cache does
 * not hold the file's build.
 *   warpscope-frontend FILE INCLUDE_DIR OUT.cpp ENTRY [NAME=VALUE...]
 * 0 with OUT.cpp written, or 1 with one line on stderr: FILE:LINE:COL: error: ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/own/frontend.h"
#include "trace/json_internal.h"

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: warpscope-frontend FILE INCLUDE_DIR OUT.cpp ENTRY [NAME=VALUE...]\n"); return 2; }
    char *text = NULL, *out = NULL, err[2048];
    size_t n = 0;
    if (json_read_file(argv[1], 1 << 20, &text, &n, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    frontend_input in = {argv[1], text, n, argv[4], (const char *const *)(argv + 5), argv[2]};
    if (frontend_rewrite(&in, &out, err, sizeof err)) { fprintf(stderr, "%s\n", err); free(text); return 1; }
    FILE *o = fopen(argv[3], "wb");
    int bad = !o || fputs(out, o) < 0;
    if (o && fclose(o)) bad = 1;
    if (bad) fprintf(stderr, "cannot write %s\n", argv[3]);
    free(out);
    free(text);
    return bad;
}
