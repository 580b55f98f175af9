/* outfile: see outfile.h. POSIX (mkstemp, fsync, rename); _POSIX_C_SOURCE because the build is
 * -std=c11. */
#define _POSIX_C_SOURCE 200809L
#include "trace/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __wasi__
#include <fcntl.h>
/* The page (WASI): no mkstemp and no file modes; one process writes its files, so the first free
 * name of the template's form does. */
static int tmp_open(char *tmpl, long mode, int *bad_mode)
{
    (void)mode;
    *bad_mode = 0;
    char *x = tmpl + strlen(tmpl) - 6;
    for (unsigned k = 0; k < 1000000; k++) {
        snprintf(x, 7, "%06u", k);
        int fd = open(tmpl, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}
#else
/* mkstemp makes 0600; the file gets the mode a plain fopen would give (0666 less the umask), or
 * the one asked for (mode >= 0), which must take */
static int tmp_open(char *tmpl, long mode, int *bad_mode)
{
    int fd = mkstemp(tmpl);
    if (fd < 0) return -1;
    if (mode < 0) {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    } else {
        *bad_mode = fchmod(fd, (mode_t)mode) != 0;
    }
    return fd;
}
#endif

/* mode -1: 0666 less the umask, as fopen; else that mode, which must take */
static int open_tmp(outfile *o, const char *path, long mode, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path);
    if (n == 0 || n + 16 >= OUTFILE_PATH_MAX) { snprintf(err, errlen, "%s: not a usable output path", path); return -1; }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { snprintf(err, errlen, "%s: is a folder, not a file", path); return -1; }
    if (path[n - 1] == '/') { snprintf(err, errlen, "%s: names a folder, not a file", path); return -1; }
    memcpy(o->path, path, n + 1);
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    /* dir/.name.XXXXXX: hidden, beside the target, so the rename stays on one file system */
    snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    int bad_mode = 0;
    int fd = tmp_open(o->tmp, mode, &bad_mode);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open for writing: %s", path, e == ENOENT ? "no such folder" : strerror(e));
        o->tmp[0] = '\0';
        return -1;
    }
    o->f = bad_mode ? NULL : fdopen(fd, "wb");
    if (!o->f) {
        snprintf(err, errlen, "%s: %s: %s", path, bad_mode ? "cannot set its mode" : "cannot open for writing", strerror(errno));
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return -1;
    }
    return 0;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen) { return open_tmp(o, path, -1, err, errlen); }

int outfile_open_mode(outfile *o, const char *path, unsigned mode, char *err, size_t errlen)
{
    return open_tmp(o, path, (long)(mode & 07777), err, errlen);
}

void outfile_abort(outfile *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp[0]) unlink(o->tmp);
    o->f = NULL;
    o->tmp[0] = '\0';
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int ok = o->f && fflush(o->f) == 0 && !ferror(o->f);
    int e = errno;
    /* on disk before the rename, so a crash leaves the old file or the whole new one */
    if (ok && fsync(fileno(o->f)) != 0 && errno != EINVAL) { ok = 0; e = errno; }
    if (o->f && fclose(o->f) != 0 && ok) { ok = 0; e = errno; }
    o->f = NULL;
    if (ok && rename(o->tmp, o->path) != 0) { ok = 0; e = errno; }
    if (!ok) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, e ? strerror(e) : "I/O error");
        unlink(o->tmp);
    }
    o->tmp[0] = '\0';
    return ok ? 0 : -1;
}

int outfile_is_input(const char *out, const char *in)
{
    struct stat a, b;
    if (!out || !in || stat(out, &a) != 0 || stat(in, &b) != 0) return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
