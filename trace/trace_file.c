/* trace: files. The encoding follows the file name: ".wstrace" is the compact encoding
 * (trace_bin.c), anything else JSON (trace_json.c). Writing goes through outfile (a unique
 * temporary file in the same folder, renamed into place when complete), so an interrupted or
 * failed write never leaves a partial file nor destroys an existing one. */
#define _GNU_SOURCE
#include "trace/trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/infile.h"
#include "trace/json_internal.h"
#include "trace/outfile.h"
#include "trace/trace_internal.h"

static const char compact_ext[] = ".wstrace";

int trace_path_is_compact(const char *path)
{
    size_t n = strlen(path), e = sizeof compact_ext - 1;
    return n > e && strcmp(path + n - e, compact_ext) == 0;
}

static int cancelled(volatile int *cancel) { return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED); }

/* A whole regular file of at most max bytes. */
static int read_binary(const char *path, size_t max, char **text, size_t *len, char *err, size_t errlen)
{
    *text = NULL;
    struct stat st;
    int fd = infile_open(path, &st, err, errlen); /* regular files only: a FIFO never blocks here */
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "rb");
    if (!f) { snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno)); close(fd); return -1; }
    if ((uint64_t)st.st_size > max) {
        fclose(f);
        snprintf(err, errlen, "%s: %lld bytes, more than the %zu MiB a compact trace may be", path, (long long)st.st_size, max >> 20);
        return -1;
    }
    *len = (size_t)st.st_size;
    char *buf = malloc(*len + 1);
    if (!buf) { fclose(f); snprintf(err, errlen, "%s: out of memory for %zu bytes", path, *len); return -1; }
    size_t got = fread(buf, 1, *len, f);
    int rerr = ferror(f) || got != *len;
    fclose(f);
    if (rerr) { free(buf); snprintf(err, errlen, "%s: read error", path); return -1; }
    buf[*len] = '\0';
    *text = buf;
    return 0;
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
    outfile of;
    if (outfile_open(&of, path, err, errlen)) return -1;
    int rc = trace_path_is_compact(path) ? trace_write_bin(t, of.f, cancel) : write_json(t, of.f, cancel);
    if (rc == 0 && cancelled(cancel)) rc = -2;
    if (rc) {
        int saved = errno;
        outfile_abort(&of);
        if (rc == -2) snprintf(err, errlen, "%s: interrupted; nothing written", path);
        else snprintf(err, errlen, "%s: write failed: %s", path, saved ? strerror(saved) : "out of memory");
        return rc;
    }
    return outfile_commit(&of, err, errlen);
}

int trace_write_compact(const trace *t, FILE *f) { return trace_write_bin(t, f, NULL) ? -1 : 0; }

int trace_write_file(const trace *t, const char *path, char *err, size_t errlen)
{
    return trace_save(t, path, NULL, err, errlen) ? -1 : 0;
}

/* Caps what a trace file may be before it is read into memory. JSON: TRACE_FILE_BYTES_MAX (the
 * reader then holds about twice the file). Compact: far above the encoding of a whole
 * 2^31-element capture's traced blocks, far below what would exhaust a laptop. */
#define TRACE_COMPACT_FILE_MAX ((size_t)1 << 30)

int trace_read_file(trace *t, const char *path, char *err, size_t errlen)
{
    trace_init(t);
    int compact = trace_path_is_compact(path);
    char *buf;
    size_t len;
    /* json_read_file also refuses NUL bytes, which JSON cannot hold but the compact encoding does */
    if (compact ? read_binary(path, TRACE_COMPACT_FILE_MAX, &buf, &len, err, errlen)
                : json_read_file(path, TRACE_FILE_BYTES_MAX, &buf, &len, err, errlen))
        return -1;
    char msg[256];
    int rc = compact ? trace_from_bin(t, buf, len, msg, sizeof msg) : trace_from_json_text(t, buf, len, msg, sizeof msg);
    free(buf);
    /* JSON syntax messages start with line:column, which follows the path as compilers write it */
    if (rc) snprintf(err, errlen, "%s:%s%s", path, msg[0] >= '0' && msg[0] <= '9' ? "" : " ", msg);
    return rc;
}
