/* infile: every file a user names (a trace, a lesson, an exercise's starting file, a kernel of
 * one's own, a results file, a theme, a metrics table, progress) is opened for reading here, so
 * no command ever waits for ever on a FIFO, a terminal or a device, and every command refuses
 * them with the same line.
 *
 * The file is opened without blocking (O_NONBLOCK: opening a FIFO nobody writes to returns at
 * once instead of waiting for a writer) and must be a regular file; only then is it read, and a
 * regular file never blocks. Files under /proc are regular (of size 0) and stay readable. */
#ifndef WARPSCOPE_INFILE_H
#define WARPSCOPE_INFILE_H

#include <stddef.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open descriptor (close-on-exec, blocking reads) on the regular file path names, with *st
 * its fstat when st is not NULL; or -1 with one line in err: "path: cannot open: why", or
 * "path: is a FIFO, not a regular file" (a folder, a device, a socket likewise). */
int infile_open(const char *path, struct stat *st, char *err, size_t errlen);

/* What st is, as the messages say it: "a FIFO", "a folder", "a device", "a socket", "a regular
 * file", or "a special file". */
const char *infile_kind(const struct stat *st);

#ifdef __cplusplus
}
#endif
#endif
