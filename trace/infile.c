/* infile: see infile.h. POSIX open/fstat/fcntl; _POSIX_C_SOURCE because the build is -std=c11. */
#define _POSIX_C_SOURCE 200809L
#include "trace/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

const char *infile_kind(const struct stat *st)
{
    if (S_ISREG(st->st_mode)) return "a regular file";
    if (S_ISDIR(st->st_mode)) return "a folder";
    if (S_ISFIFO(st->st_mode)) return "a FIFO";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) return "a device";
#ifdef S_ISSOCK
    if (S_ISSOCK(st->st_mode)) return "a socket";
#endif
    return "a special file";
}

static int refuse(const char *path, const struct stat *st, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: is %s, not a regular file", path, infile_kind(st));
    return -1;
}

int infile_open(const char *path, struct stat *st, char *err, size_t errlen)
{
    struct stat s;
    if (!st) st = &s;
    /* looked at before it is opened: a device is refused without being opened at all (opening
     * some has effects), a socket (which open refuses with ENXIO) by what it is */
    if (stat(path, st) == 0 && !S_ISREG(st->st_mode)) return refuse(path, st, err, errlen);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) { snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno)); return -1; }
    /* what was opened is what counts: the name may have been replaced since stat */
    if (fstat(fd, st) != 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        return refuse(path, st, err, errlen);
    }
    /* a regular file: reads behave as usual from here */
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}
