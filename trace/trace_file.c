/* trace: files. The encoding follows the file name: ".wstrace" is the compact encoding
 * (trace_bin.c), anything else JSON (trace_json.c). A file is written under a unique temporary
 * name in the same folder and renamed into place when complete, so an interrupted or failed write
 * never leaves a partial file nor destroys an existing one. */
#define _GNU_SOURCE
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_internal.h"

static const char compact_ext[] = ".wstrace";

int trace_path_is_compact(const char *path)
{
    size_t n = strlen(path), e = sizeof compact_ext - 1;
    return n > e && strcmp(path + n - e, compact_ext) == 0;
}

static int cancelled(volatile int *cancel) { return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED); }

/* Opens a new file beside path (same folder, so the rename stays on one file system). */
static FILE *open_temp(const char *path, char *tmp, size_t cap)
{
    for (unsigned k = 0; k < 100; k++) {
        if (snprintf(tmp, cap, "%s.%ld-%u.tmp", path, (long)getpid(), k) >= (int)cap) { errno = ENAMETOOLONG; return NULL; }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "wb");
            if (!f) { close(fd); unlink(tmp); }
            return f;
        }
        if (errno != EEXIST) return NULL;
    }
    return NULL;
}

static int write_json(const trace *t, FILE *f, volatile int *cancel)
{
    char *json = trace_to_json(t);
    if (!json) return -1;
    if (cancelled(cancel)) { free(json); return -2; }
    size_t len = strlen(json), chunk = (size_t)1 << 20;
    int rc = 0;
    for (size_t off = 0; off < len && !rc; off += chunk) {
        size_t k = len - off < chunk ? len - off : chunk;
        if (fwrite(json + off, 1, k, f) != k) rc = -1;
        else if (cancelled(cancel)) rc = -2;
    }
    free(json);
    return rc;
}

int trace_save(const trace *t, const char *path, volatile int *cancel, char *err, size_t errlen)
{
    char tmp[4096];
    FILE *f = open_temp(path, tmp, sizeof tmp);
    if (!f) { snprintf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno)); return -1; }
    int rc = trace_path_is_compact(path) ? trace_write_bin(t, f, cancel) : write_json(t, f, cancel);
    int saved = errno;
    if (fclose(f) != 0 && rc == 0) { rc = -1; saved = errno; }
    if (rc == 0 && cancelled(cancel)) rc = -2;
    if (rc == 0 && rename(tmp, path) != 0) { rc = -1; saved = errno; }
    if (rc) {
        unlink(tmp);
        if (rc == -2) snprintf(err, errlen, "%s: interrupted; nothing written", path);
        else snprintf(err, errlen, "%s: write failed: %s", path, saved ? strerror(saved) : "out of memory");
    }
    return rc;
}

int trace_write_file(const trace *t, const char *path, char *err, size_t errlen)
{
    return trace_save(t, path, NULL, err, errlen) ? -1 : 0;
}

/* Caps what a trace file may be before it is read into memory: far above the compact encoding of
 * a whole 2^31-element capture's traced blocks, far below what would exhaust a laptop. */
#define TRACE_FILE_MAX ((long long)4 << 30)

int trace_read_file(trace *t, const char *path, char *err, size_t errlen)
{
    trace_init(t);
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno)); return -1; }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    if ((long long)st.st_size > TRACE_FILE_MAX) {
        fclose(f);
        snprintf(err, errlen, "%s: %lld bytes, more than a trace may be (%lld)", path, (long long)st.st_size, TRACE_FILE_MAX);
        return -1;
    }
    size_t len = (size_t)st.st_size;
    char *buf = malloc(len + 1);
    if (!buf) { fclose(f); snprintf(err, errlen, "%s: out of memory for %zu bytes", path, len); return -1; }
    size_t got = fread(buf, 1, len, f);
    int rerr = ferror(f) || got != len;
    fclose(f);
    if (rerr) { free(buf); snprintf(err, errlen, "%s: read error", path); return -1; }
    char msg[256];
    int compact = trace_path_is_compact(path);
    int rc = compact ? trace_from_bin(t, buf, len, msg, sizeof msg) : trace_from_json(t, buf, len, msg, sizeof msg);
    free(buf);
    /* JSON messages start with line:column, which follows the path as compilers write it */
    if (rc) snprintf(err, errlen, compact ? "%s: %s" : "%s:%s", path, msg);
    return rc;
}
