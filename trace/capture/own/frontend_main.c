/* warpscope-frontend: the front end (frontend.h) as its own program, so that warpscope neither
 * loads libclang nor shares its fate: warpscope runs it on a learner's file when the cache does
 * not hold the file's build.
 *   warpscope-frontend [--as NAME] FILE INCLUDE_DIR OUT.cpp ENTRY [NAME=VALUE...]
 * (--as: what messages and #line call the file; warpscope gives the learner's path while FILE is
 * its copy in the build's private folder)
 * The build runs it on each file of the ladder (kernels/), named as messages and #line say NAME:
 *   warpscope-frontend --ladder FILE NAME OUT.cu
 * A learner's file's event sites (frontend.h) go beside OUT.cpp, in OUT.cpp.sites.
 * 0 with OUT written, or 1 with one line on stderr: FILE:LINE:COL: error: ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/capture/own/frontend.h"
#include "trace/json_internal.h"

/* written whole or not at all: beside it first, then renamed; 0 or 1 with a line on stderr */
static int write_whole(const char *path, const char *text)
{
    char part[4300];
    snprintf(part, sizeof part, "%s.part%ld", path, (long)getpid()); /* two builds of one file do not share it */
    FILE *o = fopen(part, "wb");
    int bad = !o || fputs(text, o) < 0;
    if (o && fclose(o)) bad = 1;
    if (!bad && rename(part, path)) bad = 1;
    if (bad) { fprintf(stderr, "cannot write %s\n", path); remove(part); }
    return bad;
}

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
    char *text = NULL, *out = NULL, *sites = NULL, err[2048];
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
                                                  .defines = (const char *const *)(argv + 5), .include_dir = argv[2], .dir = dir,
                                                  .sites = &sites};
    if (frontend_rewrite(&in, &out, err, sizeof err)) { fprintf(stderr, "%s\n", err); free(text); return 1; }
    const char *outpath = argv[ladder ? 4 : 3];
    char sitespath[4200];
    snprintf(sitespath, sizeof sitespath, "%s.sites", outpath);
    int bad = (sites && write_whole(sitespath, sites)) || write_whole(outpath, out);
    free(sites);
    free(out);
    free(text);
    return bad;
}
