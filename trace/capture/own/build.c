/* build: a learner's file, rewritten by the front end and compiled, each in the sandbox
 * (sandbox.h), into a shared object kept in the cache (own.h: own_build).
 *
 * What is built is exactly what was hashed: the file, the headers and sources beside it and
 * warpscope's own headers are each read once, their bytes hashed into the key and written into a
 * private folder, and the front end and the compiler see that folder alone (the learner's folder
 * is never read again, so a file saved during a build cannot give one content's key to another's
 * object). The cache is a folder of the user's, 0700, never through a symbolic link; an object
 * over the build's file limit cannot be written; a failed build is kept too (once for every
 * schedule); past its size (1 GiB) the least recently used files go. */
#define _DEFAULT_SOURCE /* DT_REG, strsep */
#include "trace/capture/own/own.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture/own/sandbox.h"
#include "trace/json_internal.h"

enum {
    OWN_FILE_MAX = 1 << 20,         /* bytes of a learner's file, and of each file beside it */
    OWN_BESIDE_MAX = 64,            /* files beside it taken into the build */
    OWN_BESIDE_BYTES = 8 << 20,     /* their bytes, together */
    OWN_FRONTEND_MAX = 64 << 20,    /* bytes of the front end's program, read for the key */
    OWN_MSG_MAX = 900,
    OWN_BUILD_FILE_MIB = 64,        /* sandbox.c's file size limit of a build, as messages say it */
};
static const uint64_t cache_max_default = (uint64_t)1 << 30; /* bytes of the cache (WARPSCOPE_CACHE_MAX) */

/* the files beside a learner's file that a build takes: the headers `#include "x.h"` finds as nvcc
 * does (not the other .cu files: a class's folder of sixty submissions would put every one in
 * every other's key) */
static const char *const beside_suffixes[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl"};

/* warpscope's headers the rewritten file compiles against, in the key: a new warpscope rebuilds */
static const char *const runtime_headers[] = {"trace/trace.h", "trace/capture/emu.h", "trace/capture/ws_cuda.h",
                                              "trace/capture/own/ws_user.h", "trace/capture/own/ws_user_api.h",
                                              "trace/capture/own/ws_entry.h", "trace/capture/own/ws_user_gpu.h",
                                              "trace/capture/own/ws_user_gpu_api.h"};
static const char stubs_rel[] = "trace/capture/own/include"; /* CUDA's header names, as the emulator's build has them */
static const char *const stub_folders[] = {"", "/cooperative_groups"}; /* its folders: <cooperative_groups/reduce.h> */

typedef struct own_blob {
    char rel[512]; /* its name in the build's folder */
    char *text;
    size_t len;
} own_blob;

typedef struct own_inputs {
    own_blob file;  /* the learner's, as src/NAME */
    own_blob beside[OWN_BESIDE_MAX];
    int nbeside;
    own_blob ours[24]; /* runtime headers and stubs, under inc/ */
    int nours;
    char dir[4096];    /* the learner's folder, as messages name it */
    size_t beside_bytes; /* the files beside it taken so far, their bytes together */
} own_inputs;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); }

static uint64_t fnv_blob(uint64_t h, const own_blob *b) { return fnv(fnv_str(h, b->rel), b->text, b->len); }

static void free_inputs(own_inputs *in)
{
    free(in->file.text);
    for (int i = 0; i < in->nbeside; i++) free(in->beside[i].text);
    for (int i = 0; i < in->nours; i++) free(in->ours[i].text);
}

int own_read_plain(const char *path, size_t max, char **text, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno == ELOOP ? 1 : -1;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) { close(fd); return 1; }
    char *b = malloc((size_t)st.st_size + 1);
    size_t n = 0;
    for (ssize_t k; b && n < (size_t)st.st_size && (k = read(fd, b + n, (size_t)st.st_size - n)) > 0;) n += (size_t)k;
    close(fd);
    if (!b) return -1;
    b[n] = 0;
    *text = b;
    *len = n;
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(((const own_blob *)a)->rel, ((const own_blob *)b)->rel); }

static int has_suffix(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof beside_suffixes / sizeof beside_suffixes[0]; i++) {
        size_t k = strlen(beside_suffixes[i]);
        if (n > k && strcmp(name + n - k, beside_suffixes[i]) == 0) return 1;
    }
    return 0;
}

/* The files a text names in `#include "NAME"` lines: NAME beside it (any extension: NVIDIA's
 * samples include .cu files) is called back with add; a name that leaves the folder (an absolute
 * path, or a "..") is refused in words, since only the file's own folder is taken into its build.
 * A line-based look, as the preprocessor's own lines are: an include inside a block comment is taken too. */
static int named_includes(const char *text, size_t len, const char *who, own_inputs *in, char *err, size_t errlen,
                          void (*add)(own_inputs *, const char *))
{
    unsigned line = 1;
    for (size_t i = 0; i < len; line++) {
        size_t e = i;
        while (e < len && text[e] != '\n') e++;
        size_t k = i;
        while (k < e && (text[k] == ' ' || text[k] == '\t')) k++;
        if (k < e && text[k] == '#') {
            k++;
            while (k < e && (text[k] == ' ' || text[k] == '\t')) k++;
            if (e - k > 7 && strncmp(text + k, "include", 7) == 0) {
                k += 7;
                while (k < e && (text[k] == ' ' || text[k] == '\t')) k++;
                char close = k < e && text[k] == '"' ? '"' : k < e && text[k] == '<' ? '>' : 0;
                size_t from = k + 1, to = from;
                while (close && to < e && text[to] != close) to++;
                if (close && to < e && to > from && to - from < 256) {
                    char name[256];
                    snprintf(name, sizeof name, "%.*s", (int)(to - from), text + from);
                    int outside = name[0] == '/' || strcmp(name, "..") == 0 || strncmp(name, "../", 3) == 0 || strstr(name, "/../") ||
                                  (strlen(name) > 3 && strcmp(name + strlen(name) - 3, "/..") == 0);
                    if (outside) {
                        snprintf(err, errlen, "%s:%u:%u: error: #include %c%s%c names a file outside the folder of %s: only the files "
                                 "beside it are taken into its build (copy it there)", who, line, (unsigned)(from - i), close == '"' ? '"' : '<',
                                 name, close, who);
                        return -1;
                    }
                    if (close == '"' && !strchr(name, '/')) add(in, name);
                }
            }
        }
        i = e + 1;
    }
    return 0;
}

/* one file beside the learner's that its text (or a file it includes) names: taken whatever its
 * extension, once */
static void add_named(own_inputs *in, const char *name)
{
    char rel[512];
    snprintf(rel, sizeof rel, "src/%s", name);
    if (strcmp(rel, in->file.rel) == 0 || in->nbeside == OWN_BESIDE_MAX || name[0] == '.') return;
    for (int i = 0; i < in->nbeside; i++)
        if (strcmp(in->beside[i].rel, rel) == 0) return;
    char p[8192];
    snprintf(p, sizeof p, "%s/%s", in->dir, name);
    own_blob *b = &in->beside[in->nbeside];
    if (own_read_plain(p, OWN_FILE_MAX, &b->text, &b->len)) return; /* not there: the compiler says so at the line */
    if (in->beside_bytes + b->len > OWN_BESIDE_BYTES) { free(b->text); b->text = NULL; return; }
    in->beside_bytes += b->len;
    snprintf(b->rel, sizeof b->rel, "%s", rel);
    in->nbeside++;
}

/* Reads everything the build compiles, once. */
static int read_inputs(const capture_desc *d, own_inputs *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    const char *base = own_base_name(d->kernel);
    if (json_read_file(d->kernel, OWN_FILE_MAX, &in->file.text, &in->file.len, err, errlen)) return -1;
    snprintf(in->file.rel, sizeof in->file.rel, "src/%s", base);
    snprintf(in->dir, sizeof in->dir, "%.*s", base == d->kernel ? 1 : (int)(base - d->kernel - 1), base == d->kernel ? "." : d->kernel);
    if (!in->dir[0]) snprintf(in->dir, sizeof in->dir, "/");
    DIR *dir = opendir(in->dir);
    size_t total = 0;
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, base) == 0 || !has_suffix(e->d_name) || in->nbeside == OWN_BESIDE_MAX) continue;
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", in->dir, e->d_name);
        own_blob *b = &in->beside[in->nbeside];
        if (strlen(e->d_name) + 5 > sizeof b->rel || own_read_plain(p, OWN_FILE_MAX, &b->text, &b->len)) continue;
        if (total + b->len > OWN_BESIDE_BYTES) { free(b->text); b->text = NULL; continue; }
        total += b->len;
        snprintf(b->rel, sizeof b->rel, "src/%s", e->d_name);
        in->nbeside++;
    }
    if (dir) closedir(dir);
    /* and what the file and those it includes name, whatever the extension */
    in->beside_bytes = total;
    if (named_includes(in->file.text, in->file.len, d->kernel, in, err, errlen, add_named)) return -1;
    for (int i = 0; i < in->nbeside; i++) {
        char who[4700];
        snprintf(who, sizeof who, "%s/%s", in->dir, in->beside[i].rel + 4);
        if (named_includes(in->beside[i].text, in->beside[i].len, who, in, err, errlen, add_named)) return -1;
    }
    qsort(in->beside, (size_t)in->nbeside, sizeof in->beside[0], by_name); /* the key does not follow readdir's order */
    const char *inc = d->include_dir ? d->include_dir : ".";
    for (size_t i = 0; i < sizeof runtime_headers / sizeof runtime_headers[0]; i++) {
        own_blob *b = &in->ours[in->nours];
        char p[4700];
        snprintf(p, sizeof p, "%s/%s", inc, runtime_headers[i]);
        snprintf(b->rel, sizeof b->rel, "inc/%s", runtime_headers[i]);
        if (json_read_file(p, OWN_FILE_MAX, &b->text, &b->len, err, errlen)) {
            snprintf(err, errlen, "%s: cannot read warpscope's kernel header (is warpscope installed whole?)", p);
            return -1;
        }
        in->nours++;
    }
    int first = in->nours;
    for (size_t f = 0; f < sizeof stub_folders / sizeof stub_folders[0]; f++) {
        char sd[4700];
        snprintf(sd, sizeof sd, "%s/%s%s", inc, stubs_rel, stub_folders[f]);
        dir = opendir(sd);
        if (!dir) { snprintf(err, errlen, "%s: cannot read warpscope's CUDA headers (is warpscope installed whole?)", sd); return -1; }
        for (struct dirent *e; (e = readdir(dir)) && in->nours < (int)(sizeof in->ours / sizeof in->ours[0]);) {
            if (e->d_name[0] == '.') continue;
            own_blob *b = &in->ours[in->nours];
            char p[8192];
            snprintf(p, sizeof p, "%s/%s", sd, e->d_name);
            if (own_read_plain(p, OWN_FILE_MAX, &b->text, &b->len)) continue;
            snprintf(b->rel, sizeof b->rel, "inc/%s%s/%s", stubs_rel, stub_folders[f], e->d_name);
            in->nours++;
        }
        closedir(dir);
    }
    qsort(in->ours + first, (size_t)(in->nours - first), sizeof in->ours[0], by_name);
    return 0;
}

static int mkdirs(char *path, mode_t mode)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int bad = mkdir(path, mode) && errno != EEXIST;
        *p = '/';
        if (bad) return -1;
    }
    return mkdir(path, mode) && errno != EEXIST ? -1 : 0;
}

/* writes len bytes to a new file (never through a link), 0644 so that nobody's steps read it */
static int write_new(const char *path, const void *p, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) return -1;
    const char *c = p;
    size_t n = 0;
    for (ssize_t k; n < len && (k = write(fd, c + n, len - n)) > 0;) n += (size_t)k;
    return close(fd) || n != len ? -1 : 0;
}

int own_copy_plain(const char *from, const char *to, size_t max)
{
    char *text;
    size_t len;
    if (own_read_plain(from, max, &text, &len)) return -1;
    int rc = write_new(to, text, len, 0644);
    free(text);
    return rc;
}

static int write_inputs(const own_inputs *in, const char *work)
{
    char p[8192];
    snprintf(p, sizeof p, "%s/src", work);
    if (mkdir(p, 0755)) return -1;
    const own_blob *all[1 + OWN_BESIDE_MAX + 16];
    int n = 0;
    all[n++] = &in->file;
    for (int i = 0; i < in->nbeside; i++) all[n++] = &in->beside[i];
    for (int i = 0; i < in->nours; i++) all[n++] = &in->ours[i];
    for (int i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", work, all[i]->rel);
        char *slash = strrchr(p, '/');
        *slash = 0;
        if (mkdirs(p, 0755)) return -1;
        *slash = '/';
        if (write_new(p, all[i]->text, all[i]->len, 0644)) return -1;
    }
    return 0;
}

/* ---- the emulator's precompiled header ---- */

/* warpscope's ws_cuda.h, which every emulator build includes first, compiled once by the host
 * compiler with the build's flags and kept in the cache as pch-KEY/trace/capture/ws_cuda.h.gch
 * (KEY: the compiler program, the flags, warpscope's headers and stubs; counted in the cache's
 * size and let go as its files are). Each build reads it where its steps cannot write it
 * (pch_place) and names its folder first in -I: GCC takes the .gch where it is valid for the build
 * (it checks its own version, the flags and the macros the build defines) and reads the header
 * itself where not, so a learner's build never depends on it being there. It is made as a build's
 * step is, in the sandbox, from warpscope's headers alone; where that fails, pch-KEY.fail says so
 * and builds go without for a day. Parsing the header was three quarters of an emulator build's
 * compile. */
static const char pch_rel[] = "trace/capture/ws_cuda.h";
static const uint64_t PCH_CACHE_MIN = (uint64_t)256 << 20; /* a cache smaller than this keeps no precompiled header (18 MB) */

static uint64_t pch_key(const own_inputs *in, const char *cc, const char **flags)
{
    uint64_t k = fnv_str(0xcbf29ce484222325ull, cc);
    struct stat st; /* the compiler program itself: a new compiler makes its own (GCC would refuse the old one) */
    if (stat(cc, &st) == 0) {
        k = fnv(k, &st.st_size, sizeof st.st_size);
        k = fnv(k, &st.st_mtime, sizeof st.st_mtime);
    }
    for (int i = 0; flags[i]; i++) k = fnv_str(k, flags[i]);
    for (int i = 0; i < in->nours; i++) k = fnv_blob(k, &in->ours[i]);
    return k;
}

/* ---- the cache ---- */

int own_cache_dir(char *buf, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n = x && *x ? snprintf(buf, len, "%s/warpscope", x) : home && *home ? snprintf(buf, len, "%s/.cache/warpscope", home) : -1;
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The cache folder, made 0700 where it is not there; refused when it is a link, not the user's,
 * or writable by others (a file planted there would be loaded). */
static int cache_open(char *dir, size_t len, char *err, size_t errlen)
{
    if (own_cache_dir(dir, len) || mkdirs(dir, 0700)) {
        snprintf(err, errlen, "cannot create the cache folder %s (set XDG_CACHE_HOME to a writable folder)", dir);
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "the cache folder %s is not a folder (a symbolic link?): refused", dir);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        snprintf(err, errlen, "the cache folder %s belongs to another user: refused", dir);
        return -1;
    }
    if (st.st_mode & 022) {
        snprintf(err, errlen, "the cache folder %s may be written by others (mode %03o): refused; make it 0700", dir, (unsigned)(st.st_mode & 0777));
        return -1;
    }
    if ((st.st_mode & 0777) != 0700) chmod(dir, 0700);
    return 0;
}

/* a cache file, read whole: 0; 1 when there is none (or it is a link, or not the user's) */
static int cache_read(const char *path, size_t max, char **text, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 1;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && (uint64_t)st.st_size <= max;
    close(fd);
    if (!ok) return 1;
    if (own_read_plain(path, max, text, len)) return 1;
    utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW); /* used now: the last to go */
    return 0;
}

static int cache_write(const char *path, const void *p, size_t len)
{
    /* the process and a count of its own: two threads of one process (warpscope serve's builds)
     * keeping the same file never write, unlink or rename each other's part */
    static unsigned seq;
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.%ld.%u.part", path, (long)getpid(), __atomic_add_fetch(&seq, 1u, __ATOMIC_RELAXED));
    unlink(tmp);
    if (write_new(tmp, p, len, 0600) || rename(tmp, path)) { unlink(tmp); return -1; }
    return 0;
}

typedef struct cache_file {
    char name[256];
    struct timespec when;
    off_t bytes;
} cache_file;

static int oldest_first(const void *a, const void *b)
{
    const cache_file *x = a, *y = b;
    if (x->when.tv_sec != y->when.tv_sec) return x->when.tv_sec < y->when.tv_sec ? -1 : 1;
    return x->when.tv_nsec < y->when.tv_nsec ? -1 : x->when.tv_nsec > y->when.tv_nsec;
}

/* Before `incoming` bytes are kept: past the cache's size, the least recently used files go until
 * it holds three quarters of it; never those whose names begin with `keep` (the build under way's
 * own rewrite and event sites, written a moment before its object). */
static uint64_t cache_max(void)
{
    const char *e = getenv("WARPSCOPE_CACHE_MAX");
    return e && *e ? strtoull(e, NULL, 10) : cache_max_default;
}

static void cache_evict(const char *dir, uint64_t incoming, const char *keep)
{
    uint64_t max = cache_max(), total = incoming;
    DIR *dp = opendir(dir);
    if (!dp) return;
    size_t n = 0, cap = 0;
    cache_file *f = NULL;
    for (struct dirent *de; (de = readdir(dp));) {
        struct stat st;
        char gch[600];
        snprintf(gch, sizeof gch, "%s/%s.gch", de->d_name, pch_rel); /* a precompiled header's folder: its one file */
        if (de->d_name[0] == '.' || (keep && strncmp(de->d_name, keep, strlen(keep)) == 0)) continue;
        if (strncmp(de->d_name, "pch-", 4) == 0 ? fstatat(dirfd(dp), gch, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode)
                                                : fstatat(dirfd(dp), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            cache_file *g = realloc(f, (cap = cap ? cap * 2 : 64) * sizeof *f);
            if (!g) break;
            f = g;
        }
        snprintf(f[n].name, sizeof f[n].name, "%s", de->d_name);
        f[n].when = st.st_mtim;
        f[n].bytes = st.st_size;
        total += (uint64_t)st.st_size;
        n++;
    }
    if (total > max) {
        qsort(f, n, sizeof *f, oldest_first);
        for (size_t i = 0; i < n && total > max / 4 * 3; i++) {
            char p[4400];
            snprintf(p, sizeof p, "%s/%s", dir, f[i].name);
            if (strncmp(f[i].name, "pch-", 4) == 0) sandbox_remove(p), total -= (uint64_t)f[i].bytes;
            else if (unlinkat(dirfd(dp), f[i].name, 0) == 0) total -= (uint64_t)f[i].bytes;
        }
    }
    free(f);
    closedir(dp);
}

/* ---- the steps ---- */

const char *own_host_compiler(void)
{
    const char *c = getenv("WARPSCOPE_CXX");
    return c && *c ? c : "c++";
}

/* nvcc for the GPU's builds: WARPSCOPE_NVCC, else PATH's, else where CUDA installs it */
static const char *nvcc(void)
{
    const char *c = getenv("WARPSCOPE_NVCC");
    return c && *c ? c : "nvcc";
}

/* prog as execvp would find it on this process's PATH (the steps run with a PATH of their own),
 * else prog; CUDA's own folder for nvcc */
static void resolve(const char *prog, char *buf, size_t len)
{
    snprintf(buf, len, "%s", prog);
    if (strchr(prog, '/')) return;
    const char *path = getenv("PATH");
    for (const char *p = path; p && *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, len, "%.*s/%s", (int)n, p, prog);
        if (n && access(buf, X_OK) == 0) return;
        p += n + (p[n] == ':');
    }
    snprintf(buf, len, "/usr/local/cuda/bin/%s", prog);
    if (access(buf, X_OK) != 0) snprintf(buf, len, "%s", prog);
}

/* What a GPU build is made for and by (-arch=native): the GPUs' models, as the driver's files under
 * /proc/driver/nvidia/gpus name them (read, not asked of CUDA, which this process must not start),
 * and the compiler program's size and time. A cache shared by two machines, or kept through a new
 * toolkit, builds again. */
static uint64_t gpu_identity(uint64_t key, const char *full)
{
    DIR *dir = opendir("/proc/driver/nvidia/gpus");
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        char path[600], *text = NULL, err[64];
        size_t len;
        snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", e->d_name);
        if (json_read_file(path, 1 << 16, &text, &len, err, sizeof err)) continue;
        const char *m = strstr(text, "Model:");
        if (m) key = fnv(key, m, strcspn(m, "\n"));
        free(text);
    }
    if (dir) closedir(dir);
    struct stat st;
    if (stat(full, &st) == 0) {
        key = fnv(key, &st.st_size, sizeof st.st_size);
        key = fnv(key, &st.st_mtime, sizeof st.st_mtime);
    }
    return key;
}

/* How each build of a learner's file is compiled: the emulator's by the host C++ compiler, the
 * GPU's by nvcc for this machine's GPU (traced: every access recorded; plain: the benchmark's).
 * A GPU's build runs in the same sandbox as the emulator's, CUDA's folder and the GPU's device files
 * in its view (step_showing). */
static const struct {
    const char *(*compiler)(void);
    const char *tag; /* in the cache's file names */
    int gpu;
    const char *flags[10];
} flavours[] = {
    /* the emulator's object runs ws_user_at_load (ws_user.h) first when loaded, before any
     * constructor of the file's: it locks the run against new executable memory (sandbox.h) */
    [OWN_EMU] = {own_host_compiler, "emu", 0, {"-std=c++17", "-O1", "-fPIC", "-shared", "-w", "-DWS_EMU", "-DWS_USER", "-Wl,-init=ws_user_at_load", NULL}},
    [OWN_GPU_TRACED] = {nvcc, "gputrace", 1, {"-std=c++17", "-O3", "-Xcompiler=-fPIC", "-shared", "-w", "-arch=native", "-DWS_GPU_TRACE", "-DWS_USER"}},
    [OWN_GPU_PLAIN] = {nvcc, "gpu", 1, {"-std=c++17", "-O3", "-Xcompiler=-fPIC", "-shared", "-w", "-arch=native", "-DWS_USER", NULL}},
};

/* The first line of a step's messages that says "error", preferring one at the learner's file; the
 * private folder's name for the files beside it becomes the learner's folder. */
static void first_error(const char *out, const char *path, const char *work, const own_inputs *in, char *err, size_t errlen)
{
    const char *pick = NULL;
    size_t plen = strlen(path);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t ll = strcspn(l, "\n");
        int has_error = 0;
        for (size_t i = 0; i + 5 <= ll && !has_error; i++) has_error = memcmp(l + i, "error", 5) == 0;
        if (has_error && strncmp(l, path, plen) == 0 && (l[plen] == ':' || l[plen] == '(')) { pick = l; break; } /* nvcc: FILE(LINE) */
        if (has_error && !pick) pick = l;
    }
    if (!pick) pick = out && *out ? out : "the step failed and said nothing";
    char line[OWN_MSG_MAX], src[4200], inc[4200];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(pick, "\n"), pick);
    snprintf(src, sizeof src, "%s/src/", work);
    snprintf(inc, sizeof inc, "%s/inc/", work);
    if (strncmp(line, inc, strlen(inc)) == 0) {
        /* an error inside warpscope's own headers (a folder that is gone once the build ends): said
         * at the learner's line that led there (the compiler's "required from here"), else without a path */
        const char *what = strstr(line, "error: ");
        what = what ? what + 7 : line;
        for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            size_t ll = strcspn(l, "\n");
            char one[OWN_MSG_MAX];
            snprintf(one, sizeof one, "%.*s", (int)ll, l);
            if (strncmp(one, path, plen) == 0 && one[plen] == ':' && strstr(one, "required from here")) {
                unsigned at = 0, col = 0;
                sscanf(l + plen + 1, "%u:%u", &at, &col);
                snprintf(err, errlen, "%s:%u:%u: error: %s (warpscope's emulator cannot build this line: please report it)", path, at, col, what);
                return;
            }
        }
        snprintf(err, errlen, "%s: error: %s (in warpscope's emulator: please report it)", path, what);
        return;
    }
    char *at = strstr(line, src);
    if (at) { /* a header beside the file: named where the learner keeps it */
        snprintf(err, errlen, "%.*s%s/%s", (int)(at - line), line, in->dir, at + strlen(src));
        return;
    }
    snprintf(err, errlen, "%s", line);
}

/* Runs one step in the sandbox: 0 when it succeeded, 1 when it failed (err says why: its first
 * error, or how it was stopped), -1 when it could not run or was interrupted. */
static int step_showing(const capture_desc *d, const char *what, char *const *argv, const char *work, int gpu, const char *const *show,
                        const own_inputs *in, char *err, size_t errlen)
{
    /* a GPU's build in the same sandbox as the emulator's: CUDA's folder (nvcc's, two up) shown
     * read-only, and the GPU's device files, which nvcc's -arch=native asks what it is */
    const char *all[24];
    int na = 0;
    char cuda[4200] = "";
    for (int i = 0; show && show[i] && na < 8; i++) all[na++] = show[i];
    if (gpu) {
        if (realpath(argv[0], cuda)) {
            for (int up = 0; up < 2; up++) {
                char *slash = strrchr(cuda, '/');
                if (slash && slash != cuda) *slash = 0;
            }
            if (strcmp(cuda, "/usr") && strncmp(cuda, "/usr/", 5)) all[na++] = cuda;
        }
        static const char *const gpu_files[] = {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia0", "/dev/nvidia1",
                                                "/dev/nvidia2", "/dev/nvidia3", "/dev/nvidia4", "/dev/nvidia5", "/dev/nvidia6", "/dev/nvidia7",
                                                "/proc/driver/nvidia", "/sys"};
        for (size_t i = 0; i < sizeof gpu_files / sizeof gpu_files[0] && na < 23; i++)
            if (access(gpu_files[i], F_OK) == 0) all[na++] = gpu_files[i];
    }
    all[na] = NULL;
    sandbox_job job = {.mode = SANDBOX_BUILD, .argv = (const char *const *)argv, .work = work, .show = all, .cancel = d->cancel, .gpu = gpu};
    sandbox_outcome o;
    if (sandbox_run(&job, &o, err, errlen)) return -1;
    char ending[300];
    sandbox_ending(&job, &o, ending, sizeof ending);
    int rc = 0;
    if (o.cancelled) {
        snprintf(err, errlen, "interrupted");
        rc = -1;
    } else if (o.exited && o.status == 127 && o.out && strstr(o.out, "cannot run")) {
        snprintf(err, errlen, "%.*s (set WARPSCOPE_CXX to a C++ compiler, or WARPSCOPE_NVCC to nvcc)", (int)strcspn(o.out, "\n"), o.out);
        rc = -1;
    } else if (!ending[0] && o.out && strstr(o.out, "File size limit exceeded")) { /* the driver tells of its assembler's SIGXFSZ */
        snprintf(err, errlen, "%s: %s wrote a file larger than %u MiB, and was stopped", d->kernel, what, OWN_BUILD_FILE_MIB);
        rc = 1;
    } else if (ending[0]) {
        int memory = o.out && (strstr(o.out, "memory exhausted") || strstr(o.out, "out of memory") || strstr(o.out, "bad_alloc") ||
                               strstr(o.out, "Cannot allocate memory"));
        snprintf(err, errlen, "%s: %s %s%s", d->kernel, what, memory ? "ran out of its 2 GiB of memory" : ending,
                 memory ? ", and was stopped" : "");
        rc = 1;
    } else if (!o.exited || o.status) {
        int memory = o.out && (strstr(o.out, "memory exhausted") || strstr(o.out, "out of memory") || strstr(o.out, "bad_alloc") ||
                               strstr(o.out, "Cannot allocate memory"));
        if (memory) snprintf(err, errlen, "%s: %s ran out of its 2 GiB of memory, and was stopped", d->kernel, what);
        else first_error(o.out, d->kernel, work, in, err, errlen);
        rc = 1;
    }
    free(o.out);
    return rc;
}

static int step(const capture_desc *d, const char *what, char *const *argv, const char *work, int gpu, const own_inputs *in,
                char *err, size_t errlen)
{
    return step_showing(d, what, argv, work, gpu, NULL, in, err, errlen);
}

/* The precompiled header for an emulator build by cc (made here when it is not yet in the cache):
 * 0 with the .gch's path in gch, -1 when the build goes without. */
static int pch_ready(const capture_desc *d, const own_inputs *in, const char *cc, const char *cache, char *gch, size_t gchlen)
{
    const char *pch_flags[11];
    int nf = 0;
    for (int i = 0; i < 10 && flavours[OWN_EMU].flags[i]; i++) /* the build's flags, less the link's */
        if (strcmp(flavours[OWN_EMU].flags[i], "-shared") && strncmp(flavours[OWN_EMU].flags[i], "-Wl,", 4)) pch_flags[nf++] = flavours[OWN_EMU].flags[i];
    pch_flags[nf] = NULL;
    char name[64], dir[4400], fail[4500];
    snprintf(name, sizeof name, "pch-%016" PRIx64, pch_key(in, cc, pch_flags));
    snprintf(dir, sizeof dir, "%s/%s", cache, name);
    snprintf(gch, gchlen, "%s/%s.gch", dir, pch_rel);
    snprintf(fail, sizeof fail, "%s.fail", dir);
    struct stat st;
    if (lstat(gch, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()) {
        utimensat(AT_FDCWD, gch, NULL, AT_SYMLINK_NOFOLLOW); /* used now: the last to go */
        return 0;
    }
    /* one that failed is not tried again for a day (a step stopped by a busy machine fails too); a
     * cache that small keeps none */
    if ((lstat(fail, &st) == 0 && time(NULL) - st.st_mtime < 24 * 3600) || cache_max() < PCH_CACHE_MIN) return -1;
    char work[4200], err[OWN_MSG_MAX], part[4500], at[4700];
    if (sandbox_work(work, sizeof work, err, sizeof err)) return -1;
    own_inputs ours = *in; /* warpscope's headers and stubs alone: nothing of the learner's */
    ours.nbeside = 0;
    snprintf(ours.file.rel, sizeof ours.file.rel, "src/none.h");
    ours.file.text = (char *)"";
    ours.file.len = 0;
    int rc = -1;
    char i1[4400], i2[4400], i3[4400], hdr[4400], out[4400];
    snprintf(i1, sizeof i1, "-I%s/inc", work);
    snprintf(i2, sizeof i2, "-I%s/inc/trace/capture", work);
    snprintf(i3, sizeof i3, "-I%s/inc/%s", work, stubs_rel);
    snprintf(hdr, sizeof hdr, "%s/inc/%s", work, pch_rel);
    snprintf(out, sizeof out, "%s/out.gch", work);
    char *argv[16] = {(char *)cc};
    int na = 1;
    for (int i = 0; pch_flags[i]; i++) argv[na++] = (char *)pch_flags[i];
    argv[na++] = i1;
    argv[na++] = i2;
    argv[na++] = i3;
    argv[na++] = "-x";
    argv[na++] = "c++-header";
    argv[na++] = hdr;
    argv[na++] = "-o";
    argv[na++] = out;
    argv[na] = NULL;
    char *text = NULL;
    size_t len;
    if (write_inputs(&ours, work) == 0) {
        int s = step(d, "the precompiled header", argv, work, 0, in, err, sizeof err);
        if (s > 0) cache_write(fail, err, strlen(err)); /* not again for a while: builds go on without it */
        /* into a folder of its own, whole or not at all: made aside, then renamed into place */
        static unsigned seq;
        snprintf(part, sizeof part, "%s.%ld.%u.part", dir, (long)getpid(), __atomic_add_fetch(&seq, 1u, __ATOMIC_RELAXED));
        snprintf(at, sizeof at, "%s/%s.gch", part, pch_rel);
        char *slash = strrchr(at, '/');
        if (s == 0 && own_read_plain(out, (size_t)256 << 20, &text, &len) == 0) {
            *slash = 0;
            int made = mkdirs(at, 0755) == 0 && chmod(part, 0755) == 0;
            *slash = '/';
            /* readable by the build's steps, which may run as nobody */
            if (made && (cache_evict(cache, len, NULL), write_new(at, text, len, 0644) == 0) && (rename(part, dir) == 0 || (errno == ENOTEMPTY || errno == EEXIST))) rc = 0;
            sandbox_remove(part);
        }
    }
    free(text);
    sandbox_remove(work);
    return rc == 0 && lstat(gch, &st) == 0 ? 0 : -1;
}

/* Where a build finds the precompiled header, never where its steps may write it (a step that a
 * hostile file took over would change every later build): where the steps run as nobody, a second
 * name of the cache's file (root's, 0644) in the build's folder, as work/pch/...; else the cache's
 * own folder, shown to the steps read-only (bubblewrap binds it read-only, Landlock lets them read
 * it only). 0 with the folder to name first in -I in inc, -1: the build goes without. */
static int pch_place(const capture_desc *d, const own_inputs *in, const char *cc, const char *cache, const char *work, char *inc,
                     size_t inclen)
{
    char gch[4600], to[4400];
    if (pch_ready(d, in, cc, cache, gch, sizeof gch)) return -1;
    if (!(sandbox_protections() & SANDBOX_NOBODY)) {
        snprintf(inc, inclen, "%.*s", (int)(strlen(gch) - strlen(pch_rel) - 5), gch); /* .../pch-KEY, less /trace/capture/ws_cuda.h.gch */
        return 0;
    }
    snprintf(to, sizeof to, "%s/pch/%s", work, pch_rel);
    char *slash = strrchr(to, '/');
    *slash = 0;
    int made = mkdirs(to, 0755) == 0;
    *slash = '/';
    strcat(to, ".gch");
    if (!made || link(gch, to)) return -1; /* another file system: the build goes without */
    snprintf(inc, inclen, "%s/pch", work);
    return 0;
}

/* --define: NAME or NAME=VALUE, at most OWN_DEFINES_MAX of them, each under OWN_DEFINE_LEN bytes */
static int check_defines(const capture_desc *d, char *err, size_t errlen)
{
    int n = 0;
    for (; d->defines && d->defines[n]; n++) {
        const char *s = d->defines[n];
        size_t name = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
        if (!name || (s[0] >= '0' && s[0] <= '9') || (s[name] && s[name] != '=')) {
            snprintf(err, errlen, "--define \"%.60s\": a macro is NAME or NAME=VALUE, NAME a C identifier", s);
            return -1;
        }
        if (strlen(s) >= OWN_DEFINE_LEN) {
            snprintf(err, errlen, "--define %.*s: %zu bytes, more than the %d a definition may have", (int)name, s, strlen(s), OWN_DEFINE_LEN - 1);
            return -1;
        }
    }
    if (n > OWN_DEFINES_MAX) { snprintf(err, errlen, "--define: %d macros, more than the %d warpscope passes on", n, OWN_DEFINES_MAX); return -1; }
    return 0;
}

/* The build's two keys: the rewrite's (the files, how the file is called and named, the front end),
 * which every build of the file shares, and the build's (the rewrite's key, the compiler and
 * flavour, warpscope's headers); cc and fe name the compiler and the front end. */
static void build_keys(const capture_desc *d, int flavour, const own_inputs *in, char *cc, size_t cclen, char *fe, size_t felen,
                       uint64_t *rkey_out, uint64_t *key_out)
{
    char *text = NULL;
    size_t len;
    resolve(flavours[flavour].compiler(), cc, cclen);
    sandbox_beside_self("warpscope-frontend", fe, felen); /* the front end runs as a program of its own */
    uint64_t rkey = fnv_blob(0xcbf29ce484222325ull, &in->file);
    for (int i = 0; i < in->nbeside; i++) rkey = fnv_blob(rkey, &in->beside[i]);
    for (int i = 0; i < in->nours; i++) rkey = fnv_blob(rkey, &in->ours[i]);
    rkey = fnv_str(rkey, d->entry ? d->entry : "");
    rkey = fnv_str(rkey, d->kernel);
    for (int i = 0; d->defines && d->defines[i]; i++) rkey = fnv_str(rkey, d->defines[i]);
    if (own_read_plain(fe, OWN_FRONTEND_MAX, &text, &len) == 0) rkey = fnv(rkey, text, len); /* a new front end rewrites again (a program: bytes, NULs and all) */
    free(text);
    uint64_t key = fnv_str(rkey, cc);
    key = fnv_str(key, flavours[flavour].tag);
    if (flavours[flavour].gpu) key = gpu_identity(key, cc); /* built for this machine's GPU, by this nvcc */
    *rkey_out = rkey;
    *key_out = key;
}

int own_build_cached(const capture_desc *d, int flavour)
{
    char err[300], cc[4200], fe[4200], dir[4096], path[4400];
    uint64_t rkey, key;
    own_inputs *in = calloc(1, sizeof *in);
    int found = 0;
    if (in && check_defines(d, err, sizeof err) == 0 && read_inputs(d, in, err, sizeof err) == 0 &&
        cache_open(dir, sizeof dir, err, sizeof err) == 0) {
        build_keys(d, flavour, in, cc, sizeof cc, fe, sizeof fe, &rkey, &key);
        struct stat st;
        const char *const kinds[] = {"so", "fail"};
        for (size_t i = 0; i < 2 && !found; i++) {
            snprintf(path, sizeof path, "%s/%016" PRIx64 ".%s.%s", dir, key, flavours[flavour].tag, kinds[i]);
            found = lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
        }
        snprintf(path, sizeof path, "%s/%016" PRIx64 ".fail", dir, rkey);
        if (!found) found = lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
    }
    if (in) free_inputs(in);
    free(in);
    return found;
}

int own_build(const capture_desc *d, int flavour, char *so, size_t solen, char *err, size_t errlen)
{
    own_build_info *info = own_build_record();
    memset(info, 0, sizeof *info);
    double start = now_ms();
    if (check_defines(d, err, errlen)) return -1;
    own_inputs *in = calloc(1, sizeof *in);
    if (!in) { snprintf(err, errlen, "out of memory"); return -1; }
    int rc = -1;
    char *text = NULL, work[4200] = "", cc[4200], dir[4096], fe[4200];
    size_t len;
    if (read_inputs(d, in, err, errlen)) goto done;
    uint64_t rkey, key;
    build_keys(d, flavour, in, cc, sizeof cc, fe, sizeof fe, &rkey, &key);
    if (cache_open(dir, sizeof dir, err, errlen)) goto done;
    char src[4400], fail[4400], rfail[4400];
    snprintf(so, solen, "%s/%016" PRIx64 ".%s.so", dir, key, flavours[flavour].tag);
    snprintf(fail, sizeof fail, "%s/%016" PRIx64 ".%s.fail", dir, key, flavours[flavour].tag);
    snprintf(src, sizeof src, "%s/%016" PRIx64 ".cpp", dir, rkey);
    snprintf(rfail, sizeof rfail, "%s/%016" PRIx64 ".fail", dir, rkey);
    char sites[4400];
    snprintf(sites, sizeof sites, "%s/%016" PRIx64 ".sites", dir, rkey);
    snprintf(info->sites, sizeof info->sites, "%s", sites);
    /* a build that failed before fails again with the same words, at once */
    if (cache_read(rfail, OWN_MSG_MAX, &text, &len) == 0 || cache_read(fail, OWN_MSG_MAX, &text, &len) == 0) {
        snprintf(err, errlen, "%s", text);
        goto done;
    }
    struct stat st;
    if (lstat(so, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && cache_read(sites, OWN_SITES_MAX, &text, &len) == 0) {
        utimensat(AT_FDCWD, so, NULL, AT_SYMLINK_NOFOLLOW); /* and its sites, read above: both used now */
        info->build_ms = now_ms() - start;
        rc = 0;
        goto done;
    }
    if (sandbox_work(work, sizeof work, err, errlen) || (write_inputs(in, work) && (snprintf(err, errlen, "cannot write the build's files in %s", work), 1)))
        goto done;
    char file[8400], stubs[8400], rewrite[4400], out[4400];
    snprintf(file, sizeof file, "%s/%s", work, in->file.rel);
    snprintf(stubs, sizeof stubs, "%s/inc/%s", work, stubs_rel);
    snprintf(rewrite, sizeof rewrite, "%s/rewrite.cpp", work);
    snprintf(out, sizeof out, "%s/out.so", work);
    struct stat sst; /* the rewrite from the cache, where its sites are there too */
    if (lstat(sites, &sst) == 0 && S_ISREG(sst.st_mode) && sst.st_uid == geteuid() &&
        cache_read(src, (size_t)OWN_FILE_MAX * 8, &text, &len) == 0) {
        if (write_new(rewrite, text, len, 0644)) { snprintf(err, errlen, "cannot write %s", rewrite); goto done; }
    } else {
        if (access(fe, X_OK) != 0) {
            snprintf(err, errlen, "%s: this warpscope has no CUDA front end (%s is missing; it is built where libclang-14-dev is installed)", d->kernel, fe);
            goto done;
        }
        char *argv[8 + OWN_DEFINES_MAX] = {fe, "--as", (char *)d->kernel, file, stubs, rewrite, (char *)(d->entry ? d->entry : "")};
        int na = 7;
        for (int i = 0; d->defines && d->defines[i]; i++) argv[na++] = (char *)d->defines[i];
        argv[na] = NULL;
        int s = step(d, "the front end", argv, work, 0, in, err, errlen);
        if (s) {
            if (s > 0) cache_write(rfail, err, strlen(err));
            goto done;
        }
        char rsites[4500];
        snprintf(rsites, sizeof rsites, "%s.sites", rewrite);
        if (own_read_plain(rsites, OWN_SITES_MAX, &text, &len) || cache_write(sites, text, len)) {
            snprintf(err, errlen, "cannot keep the event sites of %s in %s", d->kernel, dir);
            goto done;
        }
        free(text);
        text = NULL;
        if (own_read_plain(rewrite, (size_t)OWN_FILE_MAX * 8, &text, &len) || cache_write(src, text, len)) {
            snprintf(err, errlen, "cannot keep the rewrite of %s in %s", d->kernel, dir);
            goto done;
        }
    }
    free(text);
    text = NULL;
    char i1[4400], i2[4400], i3[8500], i4[4400];
    snprintf(i1, sizeof i1, "-I%s/inc", work);
    snprintf(i2, sizeof i2, "-I%s/inc/trace/capture", work);
    snprintf(i3, sizeof i3, "-I%s", stubs);
    snprintf(i4, sizeof i4, "-I%s/src", work);
    char *argv[32 + OWN_DEFINES_MAX] = {cc};
    int na = 1;
    for (int i = 0; i < 10 && flavours[flavour].flags[i]; i++) argv[na++] = (char *)flavours[flavour].flags[i];
    char pch[4400], ipch[4500];
    const char *show[2] = {NULL, NULL};
    if (flavour == OWN_EMU && pch_place(d, in, cc, dir, work, pch, sizeof pch) == 0) {
        snprintf(ipch, sizeof ipch, "-I%s", pch); /* first: where the compiler looks for ws_cuda.h(.gch) */
        argv[na++] = ipch;
        if (strncmp(pch, work, strlen(work)) != 0) show[0] = pch; /* the cache's folder, read-only */
    }
    argv[na++] = i1;
    argv[na++] = i2;
    if (flavour == OWN_EMU) argv[na++] = i3; /* the emulator's stubs of CUDA's headers; nvcc has its own */
    argv[na++] = i4;
    char defs[OWN_DEFINES_MAX][OWN_DEFINE_LEN + 2];
    for (int i = 0; d->defines && d->defines[i]; i++) {
        snprintf(defs[i], sizeof defs[i], "-D%s", d->defines[i]);
        argv[na++] = defs[i];
    }
    argv[na++] = "-x";
    argv[na++] = flavour == OWN_EMU ? "c++" : "cu";
    argv[na++] = rewrite;
    argv[na++] = "-o";
    argv[na++] = out;
    argv[na] = NULL;
    int s = step_showing(d, "the compiler", argv, work, flavours[flavour].gpu, show, in, err, errlen);
    if (s) {
        if (s > 0) cache_write(fail, err, strlen(err));
        goto done;
    }
    char mine[32];
    snprintf(mine, sizeof mine, "%016" PRIx64 ".", rkey);
    if (own_read_plain(out, (size_t)64 << 20, &text, &len) || (cache_evict(dir, len, mine), cache_write(so, text, len))) {
        snprintf(err, errlen, "cannot keep the build of %s in %s", d->kernel, dir);
        goto done;
    }
    info->compiled = 1;
    info->build_ms = now_ms() - start;
    rc = 0;
done:
    if (work[0]) sandbox_remove(work);
    free(text);
    free_inputs(in);
    free(in);
    return rc;
}
