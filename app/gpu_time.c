/* gpu_time: one learner's file timed on the GPU by a fresh `warpscope bench --kernel` (gpu_time.h). */
#define _GNU_SOURCE
#include "app/gpu_time.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"

extern const int bench_has_cuda; /* bench_gpu.cu: 1; bench_none.c: 0 */

static const size_t GPU_TIME_JSON_MAX = (size_t)1 << 20; /* what bench writes for a handful of sizes: a few kB */
static const size_t GPU_TIME_ERR_KEPT = 4096;             /* the tail of its stderr kept for the error */
/* A card reads no faster than its best read kernel: a figure above this share of it was not
 * measured (a run that printed its own numbers), and is refused. */
static const double GPU_TIME_ABOVE_BEST = 1.05;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int gpu_time_present(char *card, size_t len)
{
    if (len) card[0] = 0;
    if (!bench_has_cuda && !getenv("WARPSCOPE_GPU_TIMER")) return 0;
    const char *fake = getenv("WARPSCOPE_GPU_TIMER");
    if (fake && *fake) { /* the tests' stand-in names its card itself */
        snprintf(card, len, "a stand-in card");
        return 1;
    }
    DIR *dir = opendir("/proc/driver/nvidia/gpus");
    int found = 0;
    for (struct dirent *e; dir && !found && (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        char path[600], line[256];
        snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", e->d_name);
        FILE *f = fopen(path, "re");
        while (f && fgets(line, sizeof line, f)) {
            if (strncmp(line, "Model:", 6)) continue;
            const char *m = line + 6;
            while (*m == ' ' || *m == '\t') m++;
            snprintf(card, len, "%.*s", (int)strcspn(m, "\n"), m);
            found = 1;
            break;
        }
        if (f) fclose(f);
    }
    if (dir) closedir(dir);
    return found;
}

/* "2^26" for a power of two, else the number */
static void size_words(uint64_t n, char *buf, size_t len)
{
    int k = 0;
    while (k < 63 && ((uint64_t)1 << k) < n) k++;
    if (((uint64_t)1 << k) == n) snprintf(buf, len, "2^%d", k);
    else snprintf(buf, len, "%" PRIu64, n);
}

size_t gpu_time_sizes(const lesson_exercise *x, uint64_t seed, uint64_t *sizes, size_t max)
{
    size_t n = 0;
    if (x && x->ngpu_sizes)
        for (size_t i = 0; i < x->ngpu_sizes && n < max; i++) sizes[n++] = x->gpu_sizes[i];
    else {
        if (n < max) sizes[n++] = (uint64_t)1 << 24;
        if (n < max) sizes[n++] = (uint64_t)1 << 26;
    }
    uint64_t lo = sizes[0], hi = sizes[0];
    for (size_t i = 1; i < n; i++) {
        if (sizes[i] < lo) lo = sizes[i];
        if (sizes[i] > hi) hi = sizes[i];
    }
    if (n < max && hi - lo > 512) { /* one drawn between them, not a multiple of 256 */
        uint64_t z = seed + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        uint64_t d = lo + 1 + z % (hi - lo - 1);
        if (d % 256 == 0) d += 1 + z % 255;
        if (d >= hi) d = hi - 1;
        /* the largest stays last: the figure shown is the largest size's */
        sizes[n] = sizes[n - 1];
        sizes[n - 1] = d;
        for (size_t i = 0; i < n && sizes[n] < hi; i++) /* the largest to the end */
            if (sizes[i] == hi) { sizes[i] = sizes[n]; sizes[n] = hi; }
        n++;
    }
    return n;
}

/* ---- the process ---- */

static const char *timer_program(char *buf, size_t len)
{
    const char *fake = getenv("WARPSCOPE_GPU_TIMER");
    if (fake && *fake) return fake;
    ssize_t k = readlink("/proc/self/exe", buf, len - 1);
    if (k <= 0) return NULL;
    buf[k] = 0;
    return buf;
}

/* runs argv with stdout to /dev/null and stderr's tail into tail; killed (its group) past limit_s or
 * on cancel. turn (may be NULL): the card's turn (gpu_time_desc): the process gets descriptor 3 to
 * say it is ready and 4 to be told its turn has come; the turn is taken when it says so (or at once
 * where it ends first), held until its whole group is gone, and the limit counts from it. 0 with
 * *status, or -1 with err. */
static void close_pipes(const int pfd[2], const int rfd[2], const int gfd[2])
{
    for (int i = 0; i < 2; i++) {
        close(pfd[i]);
        if (rfd[i] >= 0) close(rfd[i]);
        if (gfd[i] >= 0) close(gfd[i]);
    }
}

static int run_timer(char *const *argv, char *const *envp, unsigned limit_s, pthread_mutex_t *turn, double *turn_ms, volatile int *cancel,
                     int *status, int *killed, char *tail, size_t taillen, char *err, size_t errlen)
{
    if (turn_ms) *turn_ms = 0;
    int pfd[2], rfd[2] = {-1, -1}, gfd[2] = {-1, -1};
    if (pipe2(pfd, O_CLOEXEC)) { snprintf(err, errlen, "cannot start the GPU's timing: %s", strerror(errno)); return -1; }
    if (turn && (pipe2(rfd, O_CLOEXEC) || pipe2(gfd, O_CLOEXEC))) {
        snprintf(err, errlen, "cannot start the GPU's timing: %s", strerror(errno));
        close_pipes(pfd, rfd, gfd);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start the GPU's timing: %s", strerror(errno));
        close_pipes(pfd, rfd, gfd);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (nul >= 0) { dup2(nul, 0); dup2(nul, 1); }
        dup2(pfd[1], 2);
        int keep = 3;
        if (turn) { /* above every descriptor first, so that neither lands on the other's number */
            int r = fcntl(rfd[1], F_DUPFD_CLOEXEC, 16), g = fcntl(gfd[0], F_DUPFD_CLOEXEC, 16);
            if (r < 0 || g < 0 || dup2(r, 3) != 3 || dup2(g, 4) != 4) _exit(127);
            keep = 5;
        }
        /* every other descriptor closed: nothing of the server's reaches the timing */
        for (int fd = keep; fd < 1024; fd++) close(fd);
        signal(SIGPIPE, SIG_DFL);
        execve(argv[0], argv, envp);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(pfd[1]);
    if (turn) {
        close(rfd[1]);
        close(gfd[0]);
    }
    size_t have = 0;
    tail[0] = 0;
    double start = now_ms(), limit = (double)limit_s * 1e3;
    *killed = 0;
    int open_pipe = 1, held = 0, waiting = turn != NULL; /* waiting: for the process to say it is ready */
    for (;;) {
        if (open_pipe || waiting) {
            struct pollfd p[2] = {{open_pipe ? pfd[0] : -1, POLLIN, 0}, {waiting ? rfd[0] : -1, POLLIN, 0}};
            if (poll(p, 2, 50) > 0) {
                if (p[0].revents) {
                    char buf[1024];
                    ssize_t k = read(pfd[0], buf, sizeof buf);
                    if (k <= 0) open_pipe = 0;
                    else { /* the last taillen - 1 bytes */
                        for (ssize_t i = 0; i < k; i++) {
                            if (have + 1 >= taillen) { memmove(tail, tail + taillen / 2, have - taillen / 2); have -= taillen / 2; }
                            tail[have++] = buf[i];
                        }
                        tail[have] = 0;
                    }
                }
                if (p[1].revents) {
                    char c;
                    ssize_t k = read(rfd[0], &c, 1);
                    waiting = 0;
                    if (k == 1 && !*killed) { /* ready: the card's turn, then the limit from it */
                        pthread_mutex_lock(turn);
                        held = 1;
                        c = 'g';
                        if (write(gfd[1], &c, 1) != 1) { /* it is gone: its end is seen below */ }
                        start = now_ms();
                    }
                }
            }
        } else {
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
        }
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) { *status = 0; break; }
        if (!*killed && ((cancel && *cancel) || now_ms() - start > limit)) {
            kill(-pid, SIGKILL);
            *killed = cancel && *cancel ? 2 : 1;
        }
    }
    kill(-pid, SIGKILL); /* anything of its group left behind */
    if (held) { /* the group's last process gone before the card is another's */
        for (int i = 0; i < 200 && kill(-pid, 0) == 0; i++) {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
        if (turn_ms) *turn_ms = now_ms() - start;
        pthread_mutex_unlock(turn);
    }
    close(pfd[0]);
    if (turn) {
        close(rfd[0]);
        close(gfd[1]);
    }
    return 0;
}

extern char **environ;

/* this process's environment, WARPSCOPE_DATA=data in it where data is given (made before fork:
 * a threaded server's child may not allocate) */
static char **child_env(const char *data)
{
    size_t n = 0;
    while (environ[n]) n++;
    char **e = calloc(n + 2, sizeof *e);
    if (!e) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!(data && strncmp(environ[i], "WARPSCOPE_DATA=", 15) == 0)) e[k++] = strdup(environ[i]);
    if (data && asprintf(&e[k], "WARPSCOPE_DATA=%s", data) > 0) k++;
    e[k] = NULL;
    return e;
}

static void free_env(char **e)
{
    for (size_t i = 0; e && e[i]; i++) free(e[i]);
    free(e);
}

/* the last line of what the timing said, without warpscope's "warpscope: bench: " */
static void last_words(const char *tail, char *buf, size_t len)
{
    const char *end = tail + strlen(tail);
    while (end > tail && (end[-1] == '\n' || end[-1] == ' ')) end--;
    const char *start = end;
    while (start > tail && start[-1] != '\n') start--;
    static const char *const prefixes[] = {"warpscope: bench: ", "warpscope: "};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if ((size_t)(end - start) > strlen(prefixes[i]) && strncmp(start, prefixes[i], strlen(prefixes[i])) == 0) {
            start += strlen(prefixes[i]);
            break;
        }
    snprintf(buf, len, "%.*s", (int)(end - start), start);
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* bench's JSON (schema warpscope-bench 2) into out: the kernel's rows (kind "kernel"), CUB's and the
 * best read's, per size, launch mode. 0, or -1 with err when it is not what bench writes. */
static int read_results(const char *text, const gpu_time_desc *d, gpu_timing *out, char *err, size_t errlen)
{
    cJSON *root = cJSON_Parse(text);
    const char *schema = str(root, "schema");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    if (!root || !schema || strcmp(schema, "warpscope-bench") || !cJSON_IsArray(rows)) {
        snprintf(err, errlen, "the GPU's timing wrote no results warpscope can read");
        cJSON_Delete(root);
        return -1;
    }
    const char *dev = str(root, "device");
    if (dev) snprintf(out->card, sizeof out->card, "%s", dev);
    out->nsizes = d->nsizes;
    for (size_t i = 0; i < d->nsizes; i++) out->sizes[i].n = d->sizes[i];
    int seen[GPU_TIME_SIZES_MAX] = {0};
    for (const cJSON *r = rows->child; r; r = r->next) {
        const char *kind = str(r, "kind"), *name = str(r, "name"), *mode = str(r, "mode");
        double n = num(r, "n");
        if (!kind || !name || !mode || strcmp(mode, "launch") || !(n > 0)) continue;
        size_t i = 0;
        while (i < d->nsizes && (double)d->sizes[i] != n) i++;
        if (i == d->nsizes) continue;
        gpu_size_time *s = &out->sizes[i];
        const cJSON *ok = cJSON_GetObjectItemCaseSensitive(r, "ok");
        double gbs = num(r, "gbs");
        if (strcmp(kind, "kernel") == 0) {
            seen[i] = 1;
            s->ok = cJSON_IsTrue(ok) && gbs > 0;
            if (s->ok) {
                s->gbs = gbs;
                s->ms = num(r, "ms");
            } else {
                s->got = num(r, "got");
                s->reference = num(r, "reference");
            }
        } else if (strcmp(name, "cub") == 0 && cJSON_IsTrue(ok)) {
            s->cub_gbs = gbs;
        } else if (strcmp(name, "best-read") == 0 && cJSON_IsTrue(ok)) {
            s->best_read_gbs = gbs;
        }
    }
    cJSON_Delete(root);
    for (size_t i = 0; i < d->nsizes; i++)
        if (!seen[i]) {
            char w[32];
            size_words(d->sizes[i], w, sizeof w);
            snprintf(err, errlen, "the GPU's timing has no row for the kernel at n = %s", w);
            return -1;
        }
    return 0;
}

/* "1,367" */
static void thousands(double v, char *buf, size_t len)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.0f", v);
    size_t n = strlen(raw), o = 0, lead = (raw[0] == '-');
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        if (i > lead && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = 0;
}

int gpu_time_file(const gpu_time_desc *d, gpu_timing *out, volatile int *cancel, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->state = GPU_NONE;
    if (!d->nsizes || d->nsizes > GPU_TIME_SIZES_MAX) { snprintf(err, errlen, "the GPU's timing needs 1 to %d sizes", GPU_TIME_SIZES_MAX); return -1; }
    if (!gpu_time_present(out->card, sizeof out->card)) { snprintf(err, errlen, "no GPU here"); return -1; }
    char exe[PATH_MAX], work[4200], json[4400], sizes[200] = "", defines[GPU_TIME_DEFINES_MAX * 80] = "";
    const char *prog = timer_program(exe, sizeof exe);
    if (!prog) { snprintf(err, errlen, "cannot find warpscope's own program"); return -1; }
    if (sandbox_work(work, sizeof work, err, errlen)) return -1;
    snprintf(json, sizeof json, "%s/timing.json", work);
    for (size_t i = 0; i < d->nsizes; i++)
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%" PRIu64, i ? "," : "", d->sizes[i]);
    for (int i = 0; i < GPU_TIME_DEFINES_MAX && d->defines[i]; i++)
        snprintf(defines + strlen(defines), sizeof defines - strlen(defines), "%s%s", i ? "," : "", d->defines[i]);
    char *argv[24] = {(char *)prog, "bench", "--kernel", (char *)d->kernel, "--entry", (char *)d->entry, "--sizes", sizes,
                      "--modes", "launch", "--json", json};
    int na = 12;
    if (defines[0]) { argv[na++] = "--define"; argv[na++] = defines; }
    int judged = d->trusted_best_read_gbs > 0 && d->trusted_cub_gbs > 0;
    if (judged) { /* the card's figures are known, the file judged */
        argv[na++] = "--judged";
        argv[na++] = "--reps";
        argv[na++] = "15";
        if (d->turn) argv[na++] = "--card-turn";
    }
    argv[na] = NULL;
    char device[16];
    snprintf(device, sizeof device, "%d", d->device);
    if (d->device) { argv[na++] = "--device"; argv[na++] = device; }
    argv[na] = NULL;
    char **envp = child_env(d->include_dir);
    int status = 0, killed = 0;
    char tail[GPU_TIME_ERR_KEPT];
    double t0 = now_ms();
    /* with the card's turn: taken when the process is ready (bench --card-turn), else for all of it */
    if (d->turn && !judged) pthread_mutex_lock(d->turn);
    int rc = envp ? run_timer(argv, envp, d->limit_s ? d->limit_s : GPU_TIME_LIMIT_S, judged ? d->turn : NULL, &out->turn_ms, cancel, &status, &killed, tail,
                              sizeof tail, err, errlen)
                  : (snprintf(err, errlen, "out of memory"), -1);
    if (d->turn && !judged) pthread_mutex_unlock(d->turn);
    free_env(envp);
    out->wall_ms = now_ms() - t0;
    char *text = NULL;
    if (rc) goto done;
    if (killed == 2) { snprintf(err, errlen, "cancelled"); rc = -1; goto done; }
    if (killed) {
        out->state = GPU_FAILED;
        unsigned lim = d->limit_s ? d->limit_s : GPU_TIME_LIMIT_S;
        snprintf(out->error, sizeof out->error, "stopped after %u s on the card (a loop that never ends?)", lim);
        snprintf(out->error_zh, sizeof out->error_zh, "在卡上运行 %u 秒后被停止（一个永不结束的循环？）", lim);
        goto done;
    }
    /* bench exits 0 when every row is right, 1 when one is wrong (its JSON written), 2 when the file
     * could not be timed (its reason on stderr) */
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    struct stat st;
    int have_json = (code == 0 || code == 1) && lstat(json, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= GPU_TIME_JSON_MAX;
    if (!have_json) {
        out->state = GPU_FAILED;
        char words[400];
        last_words(tail, words, sizeof words);
        if (WIFSIGNALED(status)) {
            snprintf(out->error, sizeof out->error, "the timing stopped with signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
            snprintf(out->error_zh, sizeof out->error_zh, "计时进程被信号 %d（%s）终止", WTERMSIG(status), strsignal(WTERMSIG(status)));
        }
        else snprintf(out->error, sizeof out->error, "%s", words[0] ? words : "the timing ended without results");
        goto done;
    }
    size_t len;
    if (own_read_plain(json, GPU_TIME_JSON_MAX, &text, &len)) {
        snprintf(err, errlen, "cannot read the GPU's timing");
        rc = -1;
        goto done;
    }
    if (read_results(text, d, out, out->error, sizeof out->error)) {
        out->state = GPU_FAILED;
        goto done;
    }
    out->state = GPU_TIMED;
    for (size_t i = 0; i < out->nsizes && out->state == GPU_TIMED; i++) {
        const gpu_size_time *s = &out->sizes[i];
        char w[32];
        size_words(s->n, w, sizeof w);
        if (!s->ok) {
            out->state = GPU_WRONG;
            if (isfinite(s->got) && isfinite(s->reference)) {
                snprintf(out->error, sizeof out->error, "at n = %s the card's sum is %.9g, the double-precision sum %.9g (off by %.3g)", w, s->got,
                         s->reference, fabs(s->got - s->reference));
                snprintf(out->error_zh, sizeof out->error_zh, "n = %s 时卡上的和是 %.9g，双精度的和是 %.9g（差 %.3g）", w, s->got, s->reference,
                         fabs(s->got - s->reference));
            } else {
                snprintf(out->error, sizeof out->error, "at n = %s the card's sum is wrong", w);
                snprintf(out->error_zh, sizeof out->error_zh, "n = %s 时卡上的和不对", w);
            }
        } else {
            double best = d->trusted_best_read_gbs > 0 ? d->trusted_best_read_gbs : s->best_read_gbs;
            if (best > 0 && s->gbs > GPU_TIME_ABOVE_BEST * best) {
                out->state = GPU_FAILED;
                snprintf(out->error, sizeof out->error, "at n = %s it claims %.0f GB/s, faster than this card reads (%.0f GB/s): not a measurement", w,
                         s->gbs, best);
                snprintf(out->error_zh, sizeof out->error_zh, "n = %s 时它声称 %.0f GB/s，比这块卡的读取还快（%.0f GB/s）：这不是测量结果", w, s->gbs, best);
            }
        }
    }
    {
        size_t big = 0;
        for (size_t i = 1; i < out->nsizes; i++)
            if (out->sizes[i].n > out->sizes[big].n) big = i;
        const gpu_size_time *s = &out->sizes[big];
        out->largest = s->n;
        out->gbs = s->ok ? s->gbs : 0;
        out->best_read_gbs = d->trusted_best_read_gbs > 0 ? d->trusted_best_read_gbs : s->best_read_gbs;
        out->cub_gbs = d->trusted_cub_gbs > 0 ? d->trusted_cub_gbs : s->cub_gbs;
        out->fraction = out->best_read_gbs > 0 && s->ok ? s->gbs / out->best_read_gbs : 0;
        if (out->state == GPU_FAILED) out->gbs = out->fraction = 0;
    }
done:
    free(text);
    sandbox_remove(work);
    return rc;
}

int gpu_time_calibrate(uint64_t n, int device, unsigned limit_s, volatile int *cancel, double *best_read_gbs, double *cub_gbs, char *err,
                       size_t errlen)
{
    *best_read_gbs = *cub_gbs = 0;
    char card[128], exe[PATH_MAX], work[4200], json[4400], size[32], dev[16];
    if (!gpu_time_present(card, sizeof card)) { snprintf(err, errlen, "no GPU here"); return -1; }
    const char *prog = timer_program(exe, sizeof exe);
    if (!prog) { snprintf(err, errlen, "cannot find warpscope's own program"); return -1; }
    if (sandbox_work(work, sizeof work, err, errlen)) return -1;
    snprintf(json, sizeof json, "%s/card.json", work);
    snprintf(size, sizeof size, "%" PRIu64, n);
    snprintf(dev, sizeof dev, "%d", device);
    char *argv[] = {(char *)prog, "bench", "--versions", "v8", "--sizes", size, "--modes", "launch", "--device", dev, "--json", json, NULL};
    char **envp = child_env(NULL);
    int status = 0, killed = 0, rc = -1;
    char tail[GPU_TIME_ERR_KEPT], *text = NULL;
    if (!envp || run_timer(argv, envp, limit_s ? limit_s : GPU_TIME_LIMIT_S, NULL, NULL, cancel, &status, &killed, tail, sizeof tail, err, errlen)) goto done;
    struct stat st;
    if (killed || !WIFEXITED(status) || WEXITSTATUS(status) > 1 || lstat(json, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > GPU_TIME_JSON_MAX) {
        char words[400];
        last_words(tail, words, sizeof words);
        snprintf(err, errlen, "the card's own figures could not be measured: %s", killed ? "stopped at the limit" : words);
        goto done;
    }
    size_t len;
    if (own_read_plain(json, GPU_TIME_JSON_MAX, &text, &len)) {
        snprintf(err, errlen, "cannot read the card's own figures");
        goto done;
    }
    cJSON *root = cJSON_Parse(text);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    for (const cJSON *r = cJSON_IsArray(rows) ? rows->child : NULL; r; r = r->next) {
        const char *name = str(r, "name"), *mode = str(r, "mode");
        if (!name || !mode || strcmp(mode, "launch") || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "ok"))) continue;
        if (strcmp(name, "best-read") == 0) *best_read_gbs = num(r, "gbs");
        if (strcmp(name, "cub") == 0) *cub_gbs = num(r, "gbs");
    }
    cJSON_Delete(root);
    if (*best_read_gbs > 0 && *cub_gbs > 0) rc = 0;
    else snprintf(err, errlen, "the card's own figures have no best read or no CUB row");
done:
    free(text);
    free_env(envp);
    sandbox_remove(work);
    return rc;
}

void gpu_time_line(const gpu_timing *t, lesson_lang lang, char *buf, size_t len)
{
    char gbs[32], cub[32], w[32];
    size_words(t->largest, w, sizeof w);
    switch (t->state) {
    case GPU_TIMED:
        thousands(t->gbs, gbs, sizeof gbs);
        thousands(t->cub_gbs, cub, sizeof cub);
        if (lang == LESSON_ZH)
            snprintf(buf, len, "%s GB/s，达到这块卡最快读取的 %.0f%%，CUB %s GB/s（%s，n = %s）", gbs, 100 * t->fraction, cub, t->card, w);
        else
            snprintf(buf, len, "%s GB/s, %.0f %% of this card's best read, CUB %s GB/s (%s, n = %s)", gbs, 100 * t->fraction, cub, t->card, w);
        break;
    case GPU_WRONG:
        snprintf(buf, len, lang == LESSON_ZH ? "在卡上算错了：%s" : "wrong on the card: %s", lang == LESSON_ZH && t->error_zh[0] ? t->error_zh : t->error);
        break;
    case GPU_FAILED:
        snprintf(buf, len, lang == LESSON_ZH ? "没能在卡上运行：%s" : "did not run on the card: %s", lang == LESSON_ZH && t->error_zh[0] ? t->error_zh : t->error);
        break;
    default:
        snprintf(buf, len, lang == LESSON_ZH ? "这里没有 GPU：没有在卡上计时" : "no GPU here: not timed on a card");
    }
}
