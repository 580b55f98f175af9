/* warpscope-frontend: the front end (frontend.h) as its own program, so that warpscope neither
 * loads libclang nor shares its fate: warpscope runs it on a learner's file when the cache does
 * not hold the file's build.
 *   warpscope-frontend [--as NAME] FILE INCLUDE_DIR OUT.cpp ENTRY [NAME=VALUE...]
 * (--as: what messages and #line call the file; warpscope gives the learner's path while FILE is
 * its copy in the build's private folder)
 * The build runs it on each file of the ladder (kernels/), named as messages and #line say NAME:
 *   warpscope-frontend --ladder FILE NAME OUT.cu
 * 0 with OUT written, or 1 with one line on stderr: FILE:LINE:COL: error: ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/capture/own/frontend.h"
#include "trace/json_internal.h"

int main(int argc, char **argv)
{
    const char *as = NULL;
    if (argc > 3 && strcmp(argv[1], "--as") == 0) {
        as = argv[2];
        argv += 2;
        argc -= 2;
    }
    int ladder = argc > 1 && strcmp(argv[1], "--ladder") == 0;
    if (argc < 5 || (ladder && argc != 5)) {
        fprintf(stderr, "usage: warpscope-frontend FILE INCLUDE_DIR OUT.cpp ENTRY [NAME=VALUE...] | --ladder FILE NAME OUT.cu\n");
        return 2;
    }
    char *text = NULL, *out = NULL, err[2048];
    size_t n = 0;
    const char *file = argv[1 + ladder];
    if (json_read_file(file, 1 << 20, &text, &n, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    frontend_input in = ladder ? (frontend_input){.path = argv[3], .text = text, .len = n, .ladder = 1}
                               : (frontend_input){.path = as ? as : argv[1], .text = text, .len = n, .entry = argv[4],
                                                  .defines = (const char *const *)(argv + 5), .include_dir = argv[2], .dir = dir};
    if (frontend_rewrite(&in, &out, err, sizeof err)) { fprintf(stderr, "%s\n", err); free(text); return 1; }
    /* written whole or not at all: beside it first, then renamed */
    const char *outpath = argv[ladder ? 4 : 3];
    char part[4200];
    snprintf(part, sizeof part, "%s.part%ld", outpath, (long)getpid()); /* two builds of one file do not share it */
    FILE *o = fopen(part, "wb");
    int bad = !o || fputs(out, o) < 0;
    if (o && fclose(o)) bad = 1;
    if (!bad && rename(part, outpath)) bad = 1;
    if (bad) { fprintf(stderr, "cannot write %s\n", outpath); remove(part); }
    free(out);
    free(text);
    return bad;
}
