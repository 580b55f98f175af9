/* outfile: every file warpscope writes (traces, PNGs, benchmark JSON and CSV, verify reports)
 * goes through here, so an error or Ctrl+C leaves the old file (or none), never half a file, and
 * nothing else is touched.
 *
 * The data goes to a uniquely named temporary file in the same folder (mkstemp: created with
 * O_EXCL, so it never follows a symlink or reuses a file), which is flushed to disk and renamed
 * over the target. */
#ifndef WARPSCOPE_OUTFILE_H
#define WARPSCOPE_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { OUTFILE_PATH_MAX = 4096 };

typedef struct outfile {
    FILE *f;                       /* write here */
    char path[OUTFILE_PATH_MAX];   /* the target */
    char tmp[OUTFILE_PATH_MAX];    /* "dir/.name.XXXXXX" while open */
} outfile;

/* 0 with o->f open on the temporary file, or -1 with "path: why" in err (a folder, an
 * unwritable folder, a missing folder, a path too long). The file gets the mode a plain fopen
 * would give it: 0666 less the umask. */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);
/* outfile_open with the file's mode given (0644: a handout stays readable by a web server or a
 * colleague whatever the umask); -1 also when that mode cannot be set. Another writer (giflib's
 * callback, a child process given o->tmp) may fill the file: commit flushes o->f, syncs the file
 * and renames it all the same. */
int outfile_open_mode(outfile *o, const char *path, unsigned mode, char *err, size_t errlen);
/* Closes and renames into place; -1 with "path: write failed: why" (and the temporary file
 * removed) when anything went wrong, including an earlier write error on o->f. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Removes the temporary file; the target is untouched. */
void outfile_abort(outfile *o);
/* 1 when out names the same file as in (both exist: same device and inode), else 0: an output
 * must never overwrite the input it is made from. */
int outfile_is_input(const char *out, const char *in);

#ifdef __cplusplus
}
#endif
#endif
