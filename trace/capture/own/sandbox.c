/* sandbox: see sandbox.h. The parent's half (probing, starting a step under bubblewrap with limits,
 * waiting with a wall clock) and warpscope-run's half (seccomp and Landlock on itself). */
#define _GNU_SOURCE /* setresuid, setgroups, nftw's FTW_PHYS, pipe2 */
#include "trace/capture/own/sandbox.h"

#include <elf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <linux/landlock.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define WS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_ASAN 1
#endif
#endif
#ifndef WS_ASAN
#define WS_ASAN 0
#endif

#ifndef LANDLOCK_ACCESS_FS_TRUNCATE /* Landlock ABI 3 (Linux 6.2), newer than Debian 12's headers */
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

enum {
    NOBODY_ID = 65534,        /* Debian's nobody and nogroup */
    OUT_MAX = 64 << 10,       /* bytes of a step's messages kept */
    REAP_GRACE_MS = 200,      /* how long the reaper waits for orphans still running after a step */
    SANDBOX_TRIES = 4,        /* bubblewrap that could not make its namespaces is tried again */
    PROBE_SECONDS = 10,
};

/* Each mode's limits: a build may write a 64 MiB object and take a minute; a run writes its trace
 * (up to the emulator's event cap) and has 15 s. The CPU limit stands behind the wall clock (a few
 * seconds more: the wall clock, which names the limit, comes first), its hard limit a second after
 * its soft one (SIGXCPU is seen, not a bare SIGKILL). The address space is not limited under
 * AddressSanitizer, whose shadow memory reserves terabytes. */
static sandbox_limits limits[] = { /* a run's wall clock may be set once, before any run (sandbox_set_run_wall_s) */
    [SANDBOX_BUILD] = {.wall_s = 60, .cpu_s = 65, .as_bytes = (uint64_t)2 << 30, .fsize_bytes = (uint64_t)64 << 20, .nproc = 512, .nofile = 256},
    [SANDBOX_RUN] = {.wall_s = 15, .cpu_s = 20, .as_bytes = (uint64_t)2 << 30, .fsize_bytes = (uint64_t)1 << 30, .nproc = 512, .nofile = 256},
};

unsigned sandbox_run_wall_s(void) { return limits[SANDBOX_RUN].wall_s; }
/* four runs' time: a search of about 2 s at most on the course notes' kernels, and time to spare */
unsigned sandbox_check_wall_s(void) { return 4 * limits[SANDBOX_RUN].wall_s; }

void sandbox_set_run_wall_s(unsigned s)
{
    if (s) limits[SANDBOX_RUN] = (sandbox_limits){.wall_s = s, .cpu_s = s + 5, .as_bytes = limits[SANDBOX_RUN].as_bytes,
                                                  .fsize_bytes = limits[SANDBOX_RUN].fsize_bytes, .nproc = limits[SANDBOX_RUN].nproc,
                                                  .nofile = limits[SANDBOX_RUN].nofile};
}

static sandbox_limits limits_of(const sandbox_job *j)
{
    sandbox_limits l = limits[j->mode], g = j->lim;
    if (g.wall_s) l.wall_s = g.wall_s;
    if (g.cpu_s) l.cpu_s = g.cpu_s;
    if (g.as_bytes) l.as_bytes = g.as_bytes;
    if (g.fsize_bytes) l.fsize_bytes = g.fsize_bytes;
    if (g.nproc) l.nproc = g.nproc;
    if (g.nofile) l.nofile = g.nofile;
    if (WS_ASAN || j->host_view || j->gpu) l.as_bytes = 0; /* CUDA, too, reserves more than it uses */
    return l;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void sandbox_beside_self(const char *name, char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(buf, len, "%s/%s", exe, name);
}

void sandbox_runner(char *buf, size_t len)
{
    const char *e = getenv("WARPSCOPE_RUN");
    if (e && *e) snprintf(buf, len, "%s", e);
    else sandbox_beside_self("warpscope-run", buf, len);
}

static const char *bwrap_path(void)
{
    static const char *const where[] = {"/usr/bin/bwrap", "/bin/bwrap"};
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
        if (access(where[i], X_OK) == 0) return where[i];
    return NULL;
}

/* WARPSCOPE_SANDBOX_OFF=namespaces,landlock,nobody turns a protection off (the tests try each
 * fallback on a machine that has them all) */
static int turned_off(const char *what)
{
    const char *off = getenv("WARPSCOPE_SANDBOX_OFF");
    size_t n = strlen(what);
    for (const char *p = off; p && *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && strncmp(p, what, n) == 0) return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

static int landlock_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v > 0 ? (int)v : 0;
}

/* ---- the parent's half ---- */

static int drop_to_nobody(void)
{
    return setgroups(0, NULL) || setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID) || setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID) ? -1 : 0;
}

enum { FDS_MAX = 48 };
typedef struct argv_list {
    const char *a[160];
    int n;
    char links[8][256]; /* the targets of /lib and friends, where they are links */
    int fds[FDS_MAX];   /* what bubblewrap copies from a descriptor (opened here, close-on-exec but in the step) */
    char fdnums[FDS_MAX][12];
    int nfds;
} argv_list;

static void close_fds(argv_list *l)
{
    for (int i = 0; i < l->nfds; i++) close(l->fds[i]);
    l->nfds = 0;
}

static void push(argv_list *l, const char *s)
{
    if (l->n < (int)(sizeof l->a / sizeof l->a[0]) - 1) l->a[l->n++] = s;
    l->a[l->n] = NULL;
}

static void push3(argv_list *l, const char *a, const char *b, const char *c)
{
    push(l, a);
    push(l, b);
    push(l, c);
}

/* bubblewrap's view: the system read-only, a fresh /proc, /dev and /tmp, the step's files, its
 * folder writable; every namespace new (no network); dies with warpscope */
/* Whether a user other than its owner (nobody) reaches the regular file path: every folder above
 * it searchable by others, the file readable and executable by them. */
static int others_reach(const char *path)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode) || (st.st_mode & (S_IROTH | S_IXOTH)) != (S_IROTH | S_IXOTH)) return !S_ISREG(st.st_mode);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *slash = strrchr(dir, '/'); slash && slash > dir; slash = strrchr(dir, '/')) {
        *slash = 0;
        if (stat(dir, &st) || !(st.st_mode & S_IXOTH)) return 0;
    }
    return 1;
}

static void bwrap_view(argv_list *l, const char *work, const char *const *show, int root, int as_other)
{
    static const char *const sys[] = {"/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin"};
    push(l, bwrap_path());
    push(l, "--unshare-all");
    push(l, "--die-with-parent");
    push(l, "--new-session");
    if (root) { /* root that could not become nobody: no capability inside */
        push(l, "--cap-drop");
        push(l, "ALL");
    }
    push3(l, "--ro-bind", "/usr", "/usr");
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++) {
        struct stat st;
        if (lstat(sys[i], &st)) continue;
        if (S_ISLNK(st.st_mode)) {
            char *t = l->links[i];
            ssize_t k = readlink(sys[i], t, sizeof l->links[i] - 1);
            if (k <= 0) continue;
            t[k] = 0;
            push3(l, "--symlink", t, sys[i]);
        } else if (S_ISDIR(st.st_mode)) {
            push3(l, "--ro-bind", sys[i], sys[i]);
        }
    }
    push3(l, "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache");
    push3(l, "--ro-bind-try", "/etc/alternatives", "/etc/alternatives");
    push(l, "--proc");
    push(l, "/proc");
    push(l, "--dev");
    push(l, "/dev");
    push(l, "--tmpfs");
    push(l, "/tmp");
    if (work) { /* first: what is shown stays in view when it lies below (the probe's work is /tmp) */
        push3(l, "--bind", work, work);
        push(l, "--chdir");
        push(l, work);
    }
    /* a program of warpscope's that the step's user cannot reach by path (warpscope as root, built
     * in a 0700 home): opened here, and copied by bubblewrap, already that user, from the
     * descriptor into the step's view at its path; whatever others can reach is bound */
    for (int i = 0; show && show[i]; i++) {
        if (!strncmp(show[i], "/usr/", 5) || !strncmp(show[i], "/proc/", 6)) continue; /* in view already (a fresh /proc) */
        if (!strncmp(show[i], "/dev/", 5)) { /* a GPU's device file (a GPU's build): a device, and writable */
            push3(l, "--dev-bind", show[i], show[i]);
            continue;
        }
        int at = as_other && !others_reach(show[i]) && l->nfds < FDS_MAX ? open(show[i], O_RDONLY | O_CLOEXEC) : -1;
        int fd = at >= 0 ? fcntl(at, F_DUPFD_CLOEXEC, 10) : -1; /* above the descriptor handed on (3) */
        if (at >= 0) close(at);
        if (fd < 0) { push3(l, "--ro-bind", show[i], show[i]); continue; }
        l->fds[l->nfds] = fd;
        snprintf(l->fdnums[l->nfds], sizeof l->fdnums[0], "%d", fd);
        push(l, "--perms");
        push(l, "0555");
        push3(l, "--ro-bind-data", l->fdnums[l->nfds++], show[i]);
    }
    push(l, "--");
}

/* In the step's first process: become the reaper of what the step leaves behind, fork, and let the
 * child go on to run the step. Bubblewrap's process inside its PID namespace outlives the bwrap we
 * wait for by a moment, and an orphan goes to the nearest subreaper, else to PID 1: in a container
 * whose PID 1 reaps nothing, each step left a zombie of nobody, and RLIMIT_NPROC, which counts them,
 * ran out after some hundred steps ("Creating new namespace failed: Resource temporarily
 * unavailable"). This process waits for the step, reaps every orphan, and ends as the step ended.
 * Returns in the child only (or here, when no fork is possible: then as before). */
static void reap_below(void)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) return;
    pid_t c = fork();
    if (c <= 0) return;
    int st = 0, cst = 0, done = 0;
    double end_by = 0;
    for (;;) {
        pid_t w = waitpid(-1, &st, done ? WNOHANG : 0);
        if (w == c) cst = st, done = 1, end_by = now_ms() + REAP_GRACE_MS;
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) break; /* no child left */
        if (w == 0) {     /* orphans still running after the step ended: PID 1 takes them */
            if (now_ms() > end_by) break;
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    if (WIFSIGNALED(cst)) {
        signal(WTERMSIG(cst), SIG_DFL);
        raise(WTERMSIG(cst));
    }
    _exit(WIFEXITED(cst) ? WEXITSTATUS(cst) : 127);
}

/* Starts argv in a child of its own group, with limits; dropped to nobody when asked. Its output
 * goes to *fd_out. The child's environment is the few names a compiler needs. */
static pid_t start(const char *const *argv, const argv_list *binds, const char *work, const sandbox_limits *lim, int nobody, int host_env,
                   int hand_fd, int *fd_out, char *err, size_t errlen)
{
    extern char **environ;
    int p[2];
    if (pipe2(p, O_CLOEXEC)) { snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno)); return -1; }
    char home[4200], tmp[4200];
    snprintf(home, sizeof home, "HOME=%s", work ? work : "/tmp");
    snprintf(tmp, sizeof tmp, "TMPDIR=%s", work ? work : "/tmp");
    const char *env[12] = {"PATH=/usr/bin:/bin", "LC_ALL=C", home, tmp};
    int ne = 4; /* (env holds 12: 4 here, 4 passed) */
    /* a sanitizer build's options; its leak check stays outside: LSan stops the world with ptrace,
     * which the sandbox denies, and its suppressions lie outside the sandbox's view */
    /* and where warpscope's own libraries are, when it was told (warpscope-run needs them) */
    static const char *const passed[] = {"ASAN_OPTIONS", "UBSAN_OPTIONS", "WARPSCOPE_SANDBOX_OFF", "LD_LIBRARY_PATH"};
    char keep[4][4200];
    for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) {
        const char *v = getenv(passed[i]);
        if (!v && !(WS_ASAN && i == 0)) continue;
        snprintf(keep[i], sizeof keep[i], "%s=%s%s", passed[i], v ? v : "", WS_ASAN && i == 0 ? ":detect_leaks=0" : "");
        env[ne++] = keep[i];
    }
    env[ne] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        snprintf(err, errlen, "cannot start a process: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(p[1], 1);
        dup2(p[1], 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        /* the one descriptor handed on: opened close-on-exec by the caller, so that no other step
         * started meanwhile (warpscope serve starts several at once) inherits it */
        if (hand_fd > 0 && (hand_fd == SANDBOX_HANDED_FD ? fcntl(hand_fd, F_SETFD, 0) : dup2(hand_fd, SANDBOX_HANDED_FD)) < 0) _exit(126);
        for (int i = 0; binds && i < binds->nfds; i++) /* bubblewrap's to copy, from their start (a try again included) */
            fcntl(binds->fds[i], F_SETFD, 0), lseek(binds->fds[i], 0, SEEK_SET);
        reap_below();
        struct rlimit r;
#define LIMIT(res, v) (r.rlim_cur = r.rlim_max = (rlim_t)(v), setrlimit(res, &r))
        if (lim->as_bytes) LIMIT(RLIMIT_AS, lim->as_bytes);
        r.rlim_cur = lim->cpu_s, r.rlim_max = lim->cpu_s + 1, setrlimit(RLIMIT_CPU, &r);
        LIMIT(RLIMIT_FSIZE, lim->fsize_bytes);
        LIMIT(RLIMIT_NOFILE, lim->nofile);
        LIMIT(RLIMIT_CORE, 0);
        if (nobody && drop_to_nobody()) {
            fprintf(stderr, "warpscope: cannot become nobody: %s\n", strerror(errno));
            _exit(126);
        }
        LIMIT(RLIMIT_NPROC, lim->nproc);
#undef LIMIT
        if (work && chdir(work)) _exit(126);
        execve(argv[0], (char *const *)argv, host_env ? environ : (char *const *)env);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(p[1]);
    *fd_out = p[0];
    return pid;
}

/* Waits for pid, keeping its output, killing its group at the wall clock or on cancel. */
static void wait_for(pid_t pid, int fd, unsigned wall_s, volatile int *cancel, sandbox_outcome *o)
{
    double start = now_ms();
    size_t cap = OUT_MAX, n = 0;
    char *buf = malloc(cap + 1);
    int status = 0, open_fd = 1;
    for (;;) {
        if (open_fd) {
            struct pollfd pf = {fd, POLLIN, 0};
            if (poll(&pf, 1, 20) > 0) {
                char scratch[4096];
                ssize_t k = read(fd, scratch, sizeof scratch);
                if (k > 0 && buf) {
                    size_t take = (size_t)k < cap - n ? (size_t)k : cap - n;
                    memcpy(buf + n, scratch, take);
                    n += take;
                }
                if (k == 0) open_fd = 0;
                if (k > 0) continue;
            }
        } else {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        int late = wall_s && now_ms() - start > wall_s * 1e3, stop = cancel && *cancel;
        if (late || stop) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            o->timed_out = late && !stop;
            o->cancelled = stop;
            break;
        }
    }
    kill(-pid, SIGKILL); /* whatever it left in its group */
    close(fd);
    if (buf) buf[n] = 0;
    o->out = buf;
    o->exited = WIFEXITED(status);
    o->status = o->exited ? WEXITSTATUS(status) : -1;
    o->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    o->ms = now_ms() - start;
}

/* What a step sees besides the system: warpscope-run, the step's own files, and the folders of
 * LD_LIBRARY_PATH that warpscope-run loads its libraries from (libs holds their names). */
enum { SHOW_MAX = 40 };
static int show_list(const char *runner, const char *const *extra, const char **show, char *libs, size_t libslen)
{
    int ns = 0;
    show[ns++] = runner;
    for (int i = 0; extra && extra[i] && ns < SHOW_MAX - 10; i++) show[ns++] = extra[i];
    const char *ld = getenv("LD_LIBRARY_PATH");
    snprintf(libs, libslen, "%s", ld ? ld : "");
    for (char *save = NULL, *d = strtok_r(libs, ":", &save); d && ns < SHOW_MAX - 2; d = strtok_r(NULL, ":", &save))
        if (d[0] == '/' && access(d, R_OK) == 0) show[ns++] = d;
    show[ns] = NULL;
    return ns;
}

/* Whether warpscope-run starts and confines itself as a run would, under bubblewrap or not, as
 * nobody or not: the whole chain, tried once (nobody must be able to reach the program, bubblewrap
 * needs user namespaces, Landlock and seccomp must load). */
static int chain_works(int namespaces, int as_nobody)
{
    char runner[4200];
    sandbox_runner(runner, sizeof runner);
    const char *show[SHOW_MAX];
    char libs[4200];
    show_list(runner, NULL, show, libs, sizeof libs);
    argv_list l = {.n = 0};
    if (namespaces) bwrap_view(&l, NULL, show, geteuid() == 0 && !as_nobody, as_nobody); /* its /tmp a private one */
    push(&l, runner);
    push(&l, "probe");
    sandbox_limits lim = limits[SANDBOX_BUILD];
    lim.as_bytes = 0;
    int fd;
    char err[256];
    pid_t pid = start(l.a, &l, NULL, &lim, as_nobody, 0, 0, &fd, err, sizeof err);
    if (pid < 0) { close_fds(&l); return 0; }
    sandbox_outcome o = {0};
    wait_for(pid, fd, PROBE_SECONDS, NULL, &o);
    close_fds(&l);
    free(o.out);
    return o.exited && o.status == 0;
}

static unsigned probe(void)
{
    unsigned p = SANDBOX_LIMITS | SANDBOX_SECCOMP;
    if (!turned_off("landlock") && landlock_abi() > 0) p |= SANDBOX_LANDLOCK;
    int root = geteuid() == 0, nobody = root && !turned_off("nobody"), ns = !turned_off("namespaces") && bwrap_path();
    /* the strongest that works: namespaces before nobody, nobody before root */
    static const struct { int namespaces, nobody; } tries[] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}};
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        if ((tries[i].namespaces && !ns) || (tries[i].nobody && !nobody)) continue;
        if (chain_works(tries[i].namespaces, tries[i].nobody))
            return p | (tries[i].namespaces ? SANDBOX_NAMESPACES : 0) | (tries[i].nobody ? SANDBOX_NOBODY : 0) |
                   (root && !tries[i].nobody ? SANDBOX_ROOT : 0);
    }
    return (p & ~(unsigned)SANDBOX_LANDLOCK) | (root ? SANDBOX_ROOT : 0); /* nothing confines the files: --unsafe alone runs a file */
}

/* probed once: the machine does not change while warpscope runs */
unsigned sandbox_protections(void)
{
    static unsigned cached;
    static int done;
    if (!done) cached = probe(), done = 1;
    return cached;
}

int sandbox_runs_as_root(void) { return (sandbox_protections() & SANDBOX_ROOT) != 0; }

int sandbox_confines_files(void) { return (sandbox_protections() & (SANDBOX_NAMESPACES | SANDBOX_LANDLOCK)) != 0; }

void sandbox_describe(char *buf, size_t len)
{
    unsigned p = sandbox_protections();
    const sandbox_limits *b = &limits[SANDBOX_BUILD], *r = &limits[SANDBOX_RUN];
    snprintf(buf, len, "%s%s%s, limits (%s%u s a run, %u s a build, files of %u MiB a build)%s%s%s",
             p & SANDBOX_NAMESPACES ? "bubblewrap (no network, private files and /tmp), " : "no namespaces (no bubblewrap or user namespaces), ",
             p & SANDBOX_LANDLOCK ? "Landlock, " : "no Landlock, ", "seccomp (an allow-list in a run, no new code once the file is loaded)",
             WS_ASAN ? "" : "2 GiB, ", r->wall_s, b->wall_s, (unsigned)(b->fsize_bytes >> 20), p & SANDBOX_NOBODY ? ", as nobody" : "",
             sandbox_confines_files() ? "" : "; files NOT confined: others' files need --unsafe",
             p & SANDBOX_ROOT ? "; runs as root (nobody does not work here): others' files need --unsafe" : "");
}

int sandbox_work(char *buf, size_t len, char *err, size_t errlen)
{
    snprintf(buf, len, "/tmp/warpscope-XXXXXX");
    if (!mkdtemp(buf)) { snprintf(err, errlen, "cannot make a folder in /tmp: %s", strerror(errno)); return -1; }
    if ((sandbox_protections() & SANDBOX_NOBODY) && chown(buf, NOBODY_ID, NOBODY_ID)) {
        snprintf(err, errlen, "cannot give %s to nobody: %s", buf, strerror(errno));
        rmdir(buf);
        return -1;
    }
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
    (void)st;
    (void)f;
    if (type == FTW_DP) rmdir(path);
    else unlink(path);
    return 0;
}

void sandbox_remove(const char *work)
{
    if (work && *work) nftw(work, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int sandbox_run(const sandbox_job *job, sandbox_outcome *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    unsigned p = sandbox_protections();
    sandbox_limits lim = limits_of(job);
    char runner[4200];
    sandbox_runner(runner, sizeof runner);
    argv_list l = {.n = 0};
    const char *show[SHOW_MAX];
    char libs[4200];
    int ns = show_list(runner, job->show, show, libs, sizeof libs);
    if (!job->confine && job->argv[0][0] == '/') show[ns++] = job->argv[0];
    show[ns] = NULL;
    int nobody = (p & SANDBOX_NOBODY) != 0;
    if ((p & SANDBOX_NAMESPACES) && !job->host_view) bwrap_view(&l, job->work, show, geteuid() == 0 && !nobody, nobody);
    if (job->confine) {
        for (int i = 0; job->argv[i]; i++) push(&l, job->argv[i]);
    } else { /* warpscope-run confines itself, then execs the step */
        push(&l, runner);
        push(&l, job->host_view ? "confine-calls" : "confine");
        push(&l, job->work);
        for (int i = 1; show[i]; i++) push(&l, show[i]);
        push(&l, "--");
        for (int i = 0; job->argv[i]; i++) push(&l, job->argv[i]);
    }
    if (l.n >= (int)(sizeof l.a / sizeof l.a[0]) - 1) { close_fds(&l); snprintf(err, errlen, "too many arguments for the sandbox"); return -1; }
    /* bubblewrap that could not make its namespaces (EAGAIN: the system's processes or namespaces
     * at their limit for a moment, as under a class's load) is tried again, then said as the
     * sandbox's failure, never as the learner's */
    for (int attempt = 0;; attempt++) {
        int fd;
        pid_t pid = start(l.a, &l, job->work, &lim, nobody, job->host_view, job->hand_fd, &fd, err, errlen);
        if (pid < 0) { close_fds(&l); return -1; }
        wait_for(pid, fd, lim.wall_s, job->cancel, out);
        int unmade = l.a[0] != runner && out->exited && out->status == 1 && out->out && !strncmp(out->out, "bwrap: ", 7);
        if (!unmade) break;
        if (attempt + 1 == SANDBOX_TRIES || (job->cancel && *job->cancel)) {
            snprintf(err, errlen, SANDBOX_BUSY " (%.*s): the machine is busy, try again", (int)strcspn(out->out, "\n"), out->out);
            close_fds(&l);
            free(out->out);
            out->out = NULL;
            return -1;
        }
        free(out->out);
        memset(out, 0, sizeof *out);
        struct timespec ts = {0, (long)(100000000L << attempt)}; /* 0.1 s, 0.2 s, 0.4 s */
        nanosleep(&ts, NULL);
    }
    close_fds(&l);
    if (l.a[0] != runner && out->exited && out->status > 128 && out->status <= 128 + 64) { /* bubblewrap says a signal so */
        out->sig = out->status - 128;
        out->exited = 0;
        out->status = -1;
    }
    return 0;
}

void sandbox_ending(const sandbox_job *job, const sandbox_outcome *o, char *buf, size_t len)
{
    sandbox_limits lim = limits_of(job);
    buf[0] = 0;
    if (o->cancelled) snprintf(buf, len, "interrupted");
    else if (o->timed_out) snprintf(buf, len, "still running after %u s, and stopped", lim.wall_s);
    else if (o->sig == SIGXCPU) snprintf(buf, len, "used more than %u s of CPU time, and was stopped", lim.cpu_s);
    else if (o->sig == SIGXFSZ) snprintf(buf, len, "wrote a file larger than %u MiB, and was stopped", (unsigned)(lim.fsize_bytes >> 20));
    else if (o->sig == SIGSYS) /* only the run's lock kills (the allow-list refuses a call with EPERM) */
        snprintf(buf, len, "tried to make executable memory (mmap or mprotect with PROT_EXEC, memfd, dlopen of other code, exec), and was "
                           "stopped: only the code compiled from the file itself may run");
    else if (o->sig) snprintf(buf, len, "stopped with signal %d (%s)", o->sig, strsignal(o->sig));
}

/* ---- warpscope-run's half ---- */

static int add_rule(int ruleset, const char *path, uint64_t dir_rights, uint64_t file_rights)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0; /* a folder this system lacks */
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) == 0) {
        struct landlock_path_beneath_attr a = {.allowed_access = S_ISDIR(st.st_mode) ? dir_rights : file_rights, .parent_fd = fd};
        rc = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &a, 0);
    }
    close(fd);
    return rc;
}

static int confine_files(const char *work, const char *const *show, char *err, size_t errlen)
{
    int abi = landlock_abi();
    if (!work || abi <= 0 || turned_off("landlock")) return 0;
    const uint64_t file_read = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE;
    const uint64_t dir_read = file_read | LANDLOCK_ACCESS_FS_READ_DIR;
    const uint64_t file_write = LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
    uint64_t all = dir_read | file_write | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                   LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                   LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0);
    struct landlock_ruleset_attr ra = {.handled_access_fs = all};
    int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0);
    if (rs < 0) { snprintf(err, errlen, "Landlock: %s", strerror(errno)); return -1; }
    static const char *const sys[] = {"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache", "/etc/alternatives", "/proc/self"};
    int bad = 0;
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++) bad |= add_rule(rs, sys[i], dir_read, file_read);
    for (int i = 0; show && show[i]; i++)
        bad |= add_rule(rs, show[i], dir_read, file_read | (strncmp(show[i], "/dev/", 5) ? 0 : file_write)); /* a GPU's device file */
    bad |= add_rule(rs, "/dev/null", 0, LANDLOCK_ACCESS_FS_READ_FILE | file_write);
    bad |= add_rule(rs, work, all, all & ~(uint64_t)(LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                                                      LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                                      LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                                                      LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER));
    if (bad || syscall(SYS_landlock_restrict_self, rs, 0)) {
        snprintf(err, errlen, "Landlock: %s", strerror(errno));
        close(rs);
        return -1;
    }
    close(rs);
    return 0;
}

/* The system calls a learner's program makes when the emulator runs it (warpscope-run after it
 * confined itself: loading the object, its host code's stdio, memory and clock, the emulator's
 * fibers, writing the trace to the descriptor it was handed), found with `strace -f -c` on the
 * course notes' kernels and the tests' files, and the file calls a C++ program makes in its own
 * folder (Landlock or the namespaces confine where). Nothing else: every other call fails with
 * EPERM, so that a process, a signal to another (kill, tgkill, pidfd_send_signal, rt_sigqueueinfo,
 * rt_tgsigqueueinfo), a socket or any of the kernel's rarer surfaces is out of reach. */
static const char *const run_calls[] = {
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "fstat", "newfstatat", "statx", "stat", "lstat",
    "openat", "open", "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents64", "getcwd", "fcntl", "dup", "dup2",
    "dup3", "ioctl", "ftruncate", "fsync", "fdatasync", "mkdir", "mkdirat", "unlink", "unlinkat", "rename", "renameat", "renameat2",
    "rmdir", "umask", "fchmod", "poll", "ppoll", "select", "pselect6", "pipe", "pipe2",
    "mmap", "munmap", "mprotect", "mremap", "madvise", "brk", "msync", "mincore",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "rt_sigpending", "rt_sigsuspend", "rt_sigtimedwait",
    "futex", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "sched_yield", "sched_getaffinity", "membarrier",
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "getrandom", "prlimit64", "getrlimit",
    "getrusage", "times", "sysinfo", "uname", "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups",
    "getresuid", "getresgid", "getpgrp", "getcpu", "arch_prctl", "exit", "exit_group",
};
/* (and seccomp's SECCOMP_SET_MODE_FILTER alone: the run's lock, sandbox_lock_code, is a second
 * filter loaded once the object is in; a filter only ever narrows what the first allows) */

static int rule_by_name(scmp_filter_ctx ctx, uint32_t action, const char *name)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return 0; /* not a call of this architecture */
    return seccomp_rule_add(ctx, action, nr, 0);
}

/* What no step may do (sockets, tracing, mounting, the kernel's keys and modules): a build's
 * compilers start processes and exec them, so a build's filter is a deny-list, the namespaces and
 * Landlock confining its files and the limits its resources. A run of the emulator (allow_list)
 * is held to run_calls; a run on the GPU, whose driver makes calls of its own after CUDA started
 * threads, keeps the deny-list with a run's additions (no process, no exec, no signal to another,
 * by any of the calls that send one). */
static int confine_calls(sandbox_mode mode, int allow_list, char *err, size_t errlen)
{
    static const int denied[] = {
        SCMP_SYS(socket), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen), SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv),
        SCMP_SYS(process_vm_writev), SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(unshare),
        SCMP_SYS(setns), SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(bpf), SCMP_SYS(perf_event_open),
        SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(kexec_load), SCMP_SYS(reboot),
        SCMP_SYS(io_uring_setup), SCMP_SYS(userfaultfd), SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at)};
    static const char *const denied_in_run[] = {"execve", "execveat", "fork", "vfork", "setsid", "setpgid", "tkill", "pidfd_open",
                                                 "pidfd_send_signal", "pidfd_getfd", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
                                                 "process_madvise", "kcmp", "prctl"};
    allow_list = allow_list && mode == SANDBOX_RUN && !WS_ASAN; /* a sanitizer's runtime makes calls of its own */
    scmp_filter_ctx ctx = seccomp_init(allow_list ? SCMP_ACT_ERRNO(EPERM) : SCMP_ACT_ALLOW);
    if (!ctx) { snprintf(err, errlen, "seccomp: cannot start a filter"); return -1; }
    int rc = 0;
    if (allow_list) {
        for (size_t i = 0; i < sizeof run_calls / sizeof run_calls[0]; i++) rc |= rule_by_name(ctx, SCMP_ACT_ALLOW, run_calls[i]);
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(seccomp), 1, SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER));
    } else {
        for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), denied[i], 0);
        if (mode == SANDBOX_RUN)
            for (size_t i = 0; i < sizeof denied_in_run / sizeof denied_in_run[0]; i++)
                rc |= rule_by_name(ctx, SCMP_ACT_ERRNO(EPERM), denied_in_run[i]);
        /* a filter added, and nothing else of seccomp's: the run's lock narrows what this one allows */
        if (mode == SANDBOX_RUN)
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 1, SCMP_A0(SCMP_CMP_NE, SECCOMP_SET_MODE_FILTER));
    }
    if (mode == SANDBOX_RUN) {
        /* threads only: a clone without CLONE_THREAD is a new process; clone3 says it is not there,
         * so that a thread library falls back to clone */
        uint32_t thread = allow_list ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(EPERM);
        rc |= seccomp_rule_add(ctx, thread, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, allow_list ? CLONE_THREAD : 0));
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
        /* signals to itself only (abort() is tgkill of its own process) */
        scmp_datum_t self = (scmp_datum_t)getpid();
        if (allow_list) {
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_EQ, self));
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, self));
        } else {
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, self));
            rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, self));
        }
    }
    if (!rc) rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc) { snprintf(err, errlen, "seccomp: %s", strerror(-rc)); return -1; }
    return 0;
}

void sandbox_gpu_devices(char (*names)[64], const char **show, size_t max)
{
    size_t n = 0;
    DIR *dir = opendir("/dev");
    for (struct dirent *e; dir && n + 1 < max && (e = readdir(dir));) {
        if (strncmp(e->d_name, "nvidia", 6)) continue;
        snprintf(names[n], 64, "/dev/%.55s", e->d_name);
        show[n] = names[n];
        n++;
    }
    if (dir) closedir(dir);
    show[n] = NULL;
}

int sandbox_confine_apart(unsigned cpu_s, const char *work, char *err, size_t errlen)
{
    const sandbox_limits *l = &limits[SANDBOX_RUN];
    struct rlimit r;
#define LIMIT(res, v) (r.rlim_cur = r.rlim_max = (rlim_t)(v), setrlimit(res, &r))
    if (LIMIT(RLIMIT_CPU, cpu_s ? cpu_s : l->cpu_s) || LIMIT(RLIMIT_FSIZE, l->fsize_bytes) || LIMIT(RLIMIT_CORE, 0)) {
        snprintf(err, errlen, "cannot set the run's limits: %s", strerror(errno));
        return -1;
    }
#undef LIMIT
    /* as root, the learner's code runs as nobody, as the emulator's runs do (the GPU's device files
     * CUDA opened stay open) */
    if (geteuid() == 0 && !turned_off("nobody") && drop_to_nobody()) {
        snprintf(err, errlen, "cannot run a learner's program as nobody: %s", strerror(errno));
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) { snprintf(err, errlen, "no_new_privs: %s", strerror(errno)); return -1; }
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    char names[32][64];
    const char *show[33];
    sandbox_gpu_devices(names, show, 33);
    if (confine_files(work, show, err, errlen)) return -1;
    return confine_calls(SANDBOX_RUN, 0, err, errlen);
}

int sandbox_confine_self(sandbox_mode mode, const char *work, const char *const *show, char *err, size_t errlen)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) { snprintf(err, errlen, "no_new_privs: %s", strerror(errno)); return -1; }
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* nothing of this user may trace it */
    if (confine_files(work, show, err, errlen)) return -1;
    return confine_calls(mode, 1, err, errlen);
}

/* ---- the run's lock: no code but the object's own ---- */

/* Once the learner's object is mapped (its DT_INIT, ws_user_at_load, is the first of its code
 * to run), no new executable memory: mmap, mprotect or pkey_mprotect asking for PROT_EXEC (so no
 * dlopen of another object and no code written into memory and made to run), memfd_create,
 * remap_file_pages, and no exec of any kind; the process is killed at the call (SIGSYS: said as
 * such by sandbox_ending), so that no handler of the file's goes on. All threads at once. */
int sandbox_lock_code(char *err, size_t errlen)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) { snprintf(err, errlen, "seccomp: cannot start the run's lock"); return -1; }
    const uint32_t kill_it = SCMP_ACT_KILL_PROCESS;
    /* no_new_privs is set already (sandbox_confine_self), and prctl is not a run's call */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) | seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
    rc |= seccomp_rule_add(ctx, kill_it, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC));
    rc |= seccomp_rule_add(ctx, kill_it, SCMP_SYS(mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC));
    rc |= seccomp_rule_add(ctx, kill_it, SCMP_SYS(pkey_mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC));
    static const char *const never[] = {"memfd_create", "memfd_secret", "remap_file_pages", "execve", "execveat", "shmat"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) rc |= rule_by_name(ctx, kill_it, never[i]);
    if (!rc) rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc) { snprintf(err, errlen, "seccomp: the run's lock: %s", strerror(rc < 0 ? -rc : rc)); return -1; }
    return 0;
}

/* Whether the object at path locks itself before any code of its own runs: its DT_INIT is init_sym
 * (which calls sandbox_lock_code) and no code of it runs while it is relocated (no IRELATIVE
 * relocation, no relocation against an IFUNC symbol it defines: a resolver runs before DT_INIT).
 * The object is the build's own link of the file (the link's flags are warpscope's). 0, or -1 with
 * why in err. */
int sandbox_object_locks(const char *path, const char *init_sym, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr) || st.st_size > ((off_t)256 << 20)) {
        if (fd >= 0) close(fd);
        snprintf(err, errlen, "its build cannot be read: %s", strerror(errno));
        return -1;
    }
    size_t len = (size_t)st.st_size;
    unsigned char *b = malloc(len);
    size_t got = 0;
    for (ssize_t k; b && got < len && (k = pread(fd, b + got, len - got, (off_t)got)) > 0;) got += (size_t)k;
    close(fd);
    const char *bad = NULL;
    uint64_t init = 0, sym_at = 0;
    int has_init = 0, has_sym = 0;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
#define FITS(off, n) ((uint64_t)(off) <= len && (uint64_t)(n) <= len - (uint64_t)(off))
    if (!b || got != len) bad = "cannot be read";
    else if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
             !FITS(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
        bad = "is not an object of this machine";
    const Elf64_Shdr *sh = bad ? NULL : (const Elf64_Shdr *)(b + eh->e_shoff);
    const Elf64_Sym *dynsym = NULL;
    size_t nsym = 0;
    const char *dynstr = NULL;
    size_t strsz = 0;
    for (int i = 0; sh && !bad && i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_DYNSYM && FITS(sh[i].sh_offset, sh[i].sh_size) && sh[i].sh_link < eh->e_shnum &&
            FITS(sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size)) {
            dynsym = (const Elf64_Sym *)(b + sh[i].sh_offset), nsym = sh[i].sh_size / sizeof(Elf64_Sym);
            dynstr = (const char *)(b + sh[sh[i].sh_link].sh_offset), strsz = sh[sh[i].sh_link].sh_size;
        }
    for (size_t i = 0; dynsym && !bad && i < nsym; i++) {
        if (ELF64_ST_TYPE(dynsym[i].st_info) == STT_GNU_IFUNC && dynsym[i].st_shndx != SHN_UNDEF) bad = "defines a function chosen at load time (ifunc)";
        if (dynsym[i].st_name < strsz && strnlen(dynstr + dynsym[i].st_name, strsz - dynsym[i].st_name) < strsz - dynsym[i].st_name &&
            !strcmp(dynstr + dynsym[i].st_name, init_sym) && dynsym[i].st_shndx != SHN_UNDEF)
            sym_at = dynsym[i].st_value, has_sym = 1;
    }
    for (int i = 0; sh && !bad && i < eh->e_shnum; i++) {
        if (!FITS(sh[i].sh_offset, sh[i].sh_size) && sh[i].sh_type != SHT_NOBITS) { bad = "is cut short"; break; }
        if (sh[i].sh_type == SHT_RELA || sh[i].sh_type == SHT_REL) {
            size_t ent = sh[i].sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
            for (size_t k = 0; k < sh[i].sh_size / ent && !bad; k++) {
                uint64_t info = sh[i].sh_type == SHT_RELA ? ((const Elf64_Rela *)(b + sh[i].sh_offset))[k].r_info
                                                          : ((const Elf64_Rel *)(b + sh[i].sh_offset))[k].r_info;
                if (ELF64_R_TYPE(info) == R_X86_64_IRELATIVE) bad = "has code that runs while it is loaded (an IRELATIVE relocation)";
            }
        }
        if (sh[i].sh_type == SHT_DYNAMIC)
            for (size_t k = 0; k < sh[i].sh_size / sizeof(Elf64_Dyn); k++) {
                const Elf64_Dyn *dn = (const Elf64_Dyn *)(b + sh[i].sh_offset) + k;
                if (dn->d_tag == DT_INIT) init = dn->d_un.d_ptr, has_init = 1;
                if (dn->d_tag == DT_PREINIT_ARRAY) bad = "has a pre-init array";
            }
    }
#undef FITS
    free(b);
    if (!bad && !(has_init && has_sym && init == sym_at)) bad = "does not lock itself when loaded (it was not linked by warpscope's build)";
    if (bad) { snprintf(err, errlen, "its build %s: not run", bad); return -1; }
    return 0;
}
