/* warpscope-run: the one program a learner's code runs in (sandbox.h). warpscope starts it in the
 * sandbox with limits; it confines itself further before anything of the learner's is loaded.
 *   warpscope-run trace WORK SO OUT KERNEL ENTRY N DATA SEED SEED_SET BLOCKS_TRACED SCHEDULE WARP_ORDER
 *                 DROP_BARRIER DROP_SYNCWARP NO_RACE_CHECK RESULT (in or out) CARD
 *       loads SO (a learner's file built for the emulator), calls its entry and writes the trace to
 *       OUT (fd:N, the descriptor warpscope handed on, or a path) in the compact encoding: 0 with "traced" in WORK/message; or 2 with the learner's error there;
 *       SCHEDULE adversarial: the search first (search() below), each order's run a child of its own,
 *       its result in WORK/order.result
 *   warpscope-run batch WORK SO OUT ... RUN...: every run of a check, each in a child (batch_mode)
 *   warpscope-run confine WORK [FILE...] -- PROGRAM ARGS...     (a build's step: the front end, the compiler)
 *   warpscope-run confine-calls WORK -- PROGRAM ARGS...        (a GPU's build: system calls only)
 *   warpscope-run probe: confines itself as a run would, and exits 0 where that works
 *       confines itself to WORK and the system (and FILE...) and execs PROGRAM
 * What it writes is read back by warpscope through the validating reader; nothing it says is
 * trusted beyond that. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture/capture.h"
#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"
#include "trace/capture/schedule.h"

/* Every descriptor above standard error closed but keep (-1: none): what a child that loads the
 * learner's file holds is its own alone (never the batch's records, never another run's trace). */
static void close_all_but(int keep)
{
    if (keep < 3) { close_range(3, ~0U, 0); return; }
    if (keep > 3) close_range(3, (unsigned)keep - 1, 0);
    close_range((unsigned)keep + 1, ~0U, 0);
}

static int say(const char *work, const char *msg)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/message", work);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(msg, f);
        fclose(f);
    }
    return 2;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for child pid (SIGCHLD blocked in *chld, the mask to restore in *old) for a run's wall clock
 * or until deadline, whichever is first; past it the child is killed. 1 when it was, else 0. */
static int wait_child(pid_t pid, const sigset_t *chld, const sigset_t *old, double deadline, int *status)
{
    int late = 0;
    double t0 = now_s(), end = t0 + sandbox_run_wall_s() < deadline ? t0 + sandbox_run_wall_s() : deadline;
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) break;
        double left = end - now_s();
        if (left <= 0) {
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
            late = 1;
            break;
        }
        struct timespec wait = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
        sigtimedwait(chld, NULL, &wait); /* a child's end, the deadline, or another signal: look again */
    }
    sigprocmask(SIG_SETMASK, old, NULL);
    return late;
}

/* c's result, from a child of this process confined as a run is (fork comes before anything of the
 * learner's is loaded here; the child can neither fork nor exec). The child writes it to a file of
 * its folder that it opens only once the learner's code has returned, so that nothing that code
 * does with the descriptors it finds (closing them all, writing into them) reaches the search; the
 * file is removed before each child starts. 0; -1 when the run failed (the trace's own run then
 * fails as it did, and says why); -2 when it ran past a run's wall clock; -3 when no child could
 * be started. */
static int result_in_child(const capture_desc *c, const char *so, const char *work, double deadline, double *result)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/order.result", work);
    sandbox_remove(path); /* whatever is there, a folder the learner's code made included */
    fflush(NULL);
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old); /* its end is waited for, with a deadline, by sigtimedwait */
    pid_t pid = fork();
    if (pid < 0) { sigprocmask(SIG_SETMASK, &old, NULL); return -3; }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        close_all_but(-1);
        char err[1024];
        trace t;
        trace_init(&t);
        int ok = sandbox_confine_self(SANDBOX_RUN, work, NULL, err, sizeof err) == 0 && own_run_so(c, so, &t, err, sizeof err) == 0;
        if (ok) {
            int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
            ok = fd >= 0 && write(fd, &t.result, sizeof t.result) == (ssize_t)sizeof t.result;
            if (fd >= 0) ok &= close(fd) == 0;
        }
        fflush(NULL);
        _exit(ok ? 0 : 3);
    }
    /* each order has a run's wall clock, within the search's one deadline */
    int status = 0, late = wait_child(pid, &chld, &old, deadline, &status);
    if (late) {
        unlink(path);
        return -2;
    }
    char *text = NULL;
    size_t len = 0;
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && own_read_plain(path, 64, &text, &len) == 0 && len == sizeof *result;
    if (ok) memcpy(result, text, sizeof *result);
    free(text);
    unlink(path);
    return ok ? 0 : -1;
}

/* ---- the search's orders in one process ---- */

/* The learner's file's writable memory as it was loaded (its globals, __device__ variables among
 * them; not the part made read-only after relocation), kept to be put back before each order of
 * the search: each order then starts from the file's own globals, as a fresh load would, without
 * a process of its own. What the search finds is a hint of the order worth tracing, never a fact
 * the judge believes: a file's host code decides what each order's result is, in a process of its
 * own or not; the trace of the order kept is verified, and its races found from its events. */
enum { SEGS_MAX = 8 };
static struct seg {
    char *at, *copy;
    size_t len;
} segs[SEGS_MAX];
static int nsegs;
static const char *segs_of;

static int find_segs(struct dl_phdr_info *info, size_t size, void *ud)
{
    (void)size, (void)ud;
    if (!info->dlpi_name || strcmp(info->dlpi_name, segs_of)) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), relro_lo = 0, relro_hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_GNU_RELRO) continue;
        relro_lo = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
        relro_hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W)) continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (relro_lo < relro_hi && lo >= relro_lo && lo < relro_hi) lo = relro_hi;
        if (hi <= lo) continue;
        if (nsegs == SEGS_MAX || !(segs[nsegs].copy = malloc(hi - lo))) return nsegs = -1, 1;
        segs[nsegs].at = (char *)lo;
        segs[nsegs].len = hi - lo;
        memcpy(segs[nsegs].copy, segs[nsegs].at, segs[nsegs].len);
        nsegs++;
    }
    return 1;
}

/* what the search's child tells the batch, in WORK/order.result: the order it is at, then done */
typedef struct search_note {
    int at, done, found, failed;
} search_note;

/* The search's child: confined, the file loaded once and its writable memory kept, then lockstep
 * and each candidate in turn, that memory put back before each, until a result differs bit for bit
 * or a run fails. Never returns. */
static void search_child(const capture_desc *d, const char *so, const char *work, int note_fd)
{
    char err[1024];
    search_note sn = {-2, 0, -1, 0};
    close_all_but(note_fd);
    if (sandbox_confine_self(SANDBOX_RUN, work, NULL, err, sizeof err)) _exit(3);
    if (!dlopen(so, RTLD_NOW | RTLD_LOCAL)) _exit(3);
    segs_of = so;
    dl_iterate_phdr(find_segs, NULL);
    if (nsegs <= 0) _exit(4); /* not found: the batch searches a process per order */
    double base = 0;
    for (int i = -1; i < (int)schedule_candidates(); i++) {
        sn.at = i;
        if (pwrite(note_fd, &sn, sizeof sn, 0) != (ssize_t)sizeof sn) _exit(3);
        for (int k = 0; k < nsegs; k++) memcpy(segs[k].at, segs[k].copy, segs[k].len);
        capture_desc c;
        capture_search_order(d, i, &c);
        c.no_race_check = 1;
        c.blocks_traced = 1; /* the result is all it needs: the blocks run as they would traced, one after another */
        trace t;
        trace_init(&t);
        int rc = own_run_so(&c, so, &t, err, sizeof err);
        double r = t.result;
        trace_free(&t);
        if (rc) { sn.found = i, sn.failed = 1; break; }
        if (i < 0) base = r;
        else if (memcmp(&r, &base, sizeof r)) { sn.found = i; break; }
    }
    sn.done = 1;
    _exit(pwrite(note_fd, &sn, sizeof sn, 0) == (ssize_t)sizeof sn ? 0 : 3);
}

/* The search in one child (search_child), each order with a run's wall clock within the deadline:
 * 0 with *found and *failed as search() gives them; -2 past a wall clock (*at: the order); -1 when
 * this way cannot search here (the search then runs a process per order). */
static int search_one_process(const capture_desc *d, const char *so, const char *work, double deadline, int *found, int *failed, int *at)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/order.result", work);
    sandbox_remove(path);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int note_fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 210) : -1;
    if (fd >= 0) close(fd);
    if (note_fd < 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) search_child(d, so, work, note_fd);
    int status = 0, late = 0, seen = -3;
    double order_start = now_s();
    search_note sn = {-2, 0, -1, 0};
    while (pid > 0) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) break;
        if (pread(note_fd, &sn, sizeof sn, 0) == (ssize_t)sizeof sn && sn.at != seen) seen = sn.at, order_start = now_s();
        if (now_s() >= deadline || now_s() - order_start >= sandbox_run_wall_s()) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            late = 1;
            break;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    int got = pread(note_fd, &sn, sizeof sn, 0) == (ssize_t)sizeof sn;
    close(note_fd);
    unlink(path);
    int n = (int)schedule_candidates(), valid = got && sn.at >= -1 && sn.at < n;
    if (pid < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 4)) return -1;
    if (late) { *at = valid ? sn.at : -1; return -2; }
    if (!valid) return -1; /* it ended before its first order, or its note is not one: a process per order */
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && sn.done && sn.found >= -1 && sn.found < n && (sn.failed == 0 || sn.failed == 1)) {
        *found = sn.found, *failed = sn.failed;
        return 0;
    }
    *found = sn.at, *failed = 1; /* it stopped in an order: that order's run fails, as the trace will show */
    return 0;
}

/* --schedule adversarial (capture.h's search, in one sandboxed run): lockstep's result and each
 * candidate order's, each from a child, until one differs bit for bit; *pick is then the order this
 * process traces (race check as asked), *found the candidate (-1: none differed, lockstep). A run
 * that fails ends the search at its order (*failed), which the trace then runs and fails as it did;
 * where that run ends after all, the trace is refused rather than labelled with an order untried. 0, or -1 with why in err: an order that never ended, or no process to run it in. */
static int search(const capture_desc *d, const char *so, const char *work, double deadline, capture_desc *pick, int *found, int *failed,
                  char *err, size_t errlen)
{
    double base = 0, r;
    *found = -1;
    *failed = 0;
    double start = now_s();
    int at = -1, one = search_one_process(d, so, work, deadline, found, failed, &at);
    if (one == 0) {
        capture_search_order(d, *found, pick);
        return 0;
    }
    if (one == -2) {
        capture_desc c;
        capture_search_order(d, at, &c);
        snprintf(err, errlen, "%s: still running after %.0f s under the adversarial search (order %s, warps %s), and stopped: a loop "
                              "that never ends, or a wait? (a run has %u s, and the search %u s for all its orders)",
                 d->kernel, now_s() - start, c.schedule, c.warp_order ? c.warp_order : "in-order", sandbox_run_wall_s(),
                 sandbox_check_wall_s() - sandbox_run_wall_s());
        return -1;
    }
    *found = -1;
    *failed = 0;
    for (int i = -1; i < (int)schedule_candidates(); i++) {
        capture_desc c;
        capture_search_order(d, i, &c);
        *pick = c;
        c.no_race_check = 1;
        c.blocks_traced = 1;
        int rc = now_s() >= deadline ? -2 : result_in_child(&c, so, work, deadline, &r);
        if (rc == -2) {
            snprintf(err, errlen, "%s: still running after %.0f s under the adversarial search (order %s, warps %s), and stopped: a loop "
                                  "that never ends, or a wait? (a run has %u s, and the search %u s for all its orders, each a load of the file)",
                     d->kernel, now_s() - start, c.schedule, c.warp_order ? c.warp_order : "in-order", sandbox_run_wall_s(),
                     sandbox_check_wall_s() - sandbox_run_wall_s());
            return -1;
        }
        if (rc == -3) {
            snprintf(err, errlen, "the adversarial search could not start a process for its order %s (%s): try again", c.schedule, strerror(errno));
            return -1;
        }
        if (rc) { *found = i, *failed = 1; return 0; }
        if (i < 0) base = r;
        else if (memcmp(&r, &base, sizeof r)) { *found = i; return 0; }
    }
    capture_search_order(d, -1, pick);
    return 0;
}

/* OUT is "fd:N", a descriptor warpscope opened and handed on (sandbox.h: hand_fd), or a path (a
 * run started by hand). The descriptor is moved out of the way of the learner's code before it
 * is loaded (host code that closes descriptors 3 to 63 is the learner's to write), and the file it
 * names noted: at the end the trace goes into that file, through the descriptor, or where the
 * learner's code closed it, through WORK/trace.wstrace if that is still the same file (never
 * through a link or a file put in its place). Written from its start, whatever was written into it. */
static int trace_fd = -1;
static struct stat trace_st;

static void keep_trace_fd(const char *out)
{
    if (strncmp(out, "fd:", 3)) return;
    int fd = atoi(out + 3);
    if (fstat(fd, &trace_st) == 0) trace_fd = fcntl(fd, F_DUPFD_CLOEXEC, 200);
    if (trace_fd >= 0) close(fd);
}

static int same_file(int fd)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == trace_st.st_dev && st.st_ino == trace_st.st_ino;
}

static int write_trace(const trace *t, const char *work, const char *out, char *err, size_t errlen)
{
    if (strncmp(out, "fd:", 3)) return trace_write_file(t, out, err, errlen);
    int fd = same_file(trace_fd) ? dup(trace_fd) : -1;
    if (fd < 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s/trace.wstrace", work);
        fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
        if (!same_file(fd)) {
            if (fd >= 0) close(fd);
            snprintf(err, errlen, "the run's trace file was closed and replaced by its host code: nothing to write the trace into");
            return -1;
        }
    }
    FILE *f = fd >= 0 && ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "w") : NULL;
    int bad = !f || trace_write_compact(t, f) != 0;
    if (f) bad |= fclose(f) != 0;
    else if (fd >= 0) close(fd);
    if (bad) snprintf(err, errlen, "cannot write the trace: %s", strerror(errno));
    return bad ? -1 : 0;
}

static int trace_mode(int argc, char **argv)
{
    if (argc != 20) { fprintf(stderr, "warpscope-run trace: 18 arguments expected\n"); return 2; }
    const char *work = argv[2], *so = argv[3], *out = argv[4];
    char err[1024];
    capture_desc d = {.version = OWN_VERSION, .kernel = argv[5], .entry = argv[6], .n = strtoull(argv[7], NULL, 10),
                      .data = *argv[8] ? argv[8] : NULL, .seed = strtoull(argv[9], NULL, 10), .seed_set = atoi(argv[10]),
                      .blocks_traced = (unsigned)strtoul(argv[11], NULL, 10), .schedule = *argv[12] ? argv[12] : NULL,
                      .warp_order = *argv[13] ? argv[13] : NULL, .drop_barrier = (unsigned)strtoul(argv[14], NULL, 10),
                      .drop_syncwarp = (unsigned)strtoul(argv[15], NULL, 10), .no_race_check = atoi(argv[16]),
                      .result_in = strcmp(argv[17], "in") == 0, .card = argv[18], .type = argv[19]};
    keep_trace_fd(out);
    emu_schedule s;
    int adversarial = 0, found = -1, failed = 0;
    capture_desc pick = d;
    /* one deadline for the whole search, leaving the trace's own run a run's wall clock within the
     * check's (warpscope kills the whole run at the check's): a file that takes its time at each
     * load does not take it once per order */
    double deadline = now_s() + (double)(sandbox_check_wall_s() - sandbox_run_wall_s());
    if (schedule_parse(d.schedule, &s, &adversarial, err, sizeof err) == 0 && adversarial &&
        search(&d, so, work, deadline, &pick, &found, &failed, err, sizeof err))
        return say(work, err);
    if (sandbox_confine_self(SANDBOX_RUN, work, NULL, err, sizeof err)) return say(work, err);
    trace t;
    trace_init(&t);
    int rc = own_run_so(&pick, so, &t, err, sizeof err);
    if (rc == 0 && failed) { /* the search never learnt what this order gives: it says so, it does not guess */
        snprintf(err, sizeof err, "%s: under --schedule adversarial its run with the order %s, warps %s left no result, yet ran again it "
                 "ends: does its host code remove, replace or write the files of its folder?", d.kernel, pick.schedule,
                 pick.warp_order ? pick.warp_order : "in-order");
        rc = -1;
    }
    if (rc == 0 && adversarial) capture_search_label(&pick, found, &t);
    if (rc || write_trace(&t, work, out, err, sizeof err)) {
        trace_free(&t);
        return say(work, err);
    }
    trace_free(&t);
    say(work, OWN_TRACED); /* the last word: a program that called exit() never says it */
    return 0;
}

/* ---- batch: every run of a check, one sandbox ---- */

/* One run of a batch, in a child of the batch's process (which never loads the learner's file, so
 * each run starts from the file's own globals, as a program of its own would): the child confines
 * itself, runs c (the adversarial search's pick, found: its candidate) and writes the trace into
 * trace_fd. Never returns. */
static void batch_child(const capture_desc *c, int found, int failed, int adversarial, const char *so, const char *work)
{
    char err[1024];
    trace t;
    trace_init(&t);
    if (sandbox_confine_self(SANDBOX_RUN, work, NULL, err, sizeof err)) _exit(say(work, err));
    int rc = own_run_so(c, so, &t, err, sizeof err);
    if (rc == 0 && failed) {
        snprintf(err, sizeof err, "%s: under --schedule adversarial its run with the order %s, warps %s left no result, yet ran again it "
                 "ends: does its host code remove, replace or write the files of its folder?", c->kernel, c->schedule,
                 c->warp_order ? c->warp_order : "in-order");
        rc = -1;
    }
    if (rc == 0 && adversarial) capture_search_label(c, found, &t);
    if (rc || write_trace(&t, work, "fd:", err, sizeof err)) _exit(say(work, err));
    say(work, OWN_TRACED);
    fflush(NULL);
    _exit(0);
}

/* Appends run i's record to out: "RUN I EXITED STATUS SIGNAL TIMED_OUT MESSAGE_BYTES TRACE_BYTES\n",
 * the message (WORK/message), then the trace (what the child wrote into trace_fd), at most room
 * bytes of trace (a longer one is left out: the run then says so). 0, or -1 when out cannot be written. */
static int batch_record(int out, size_t i, int exited, int status, int sig, int late, const char *work, uint64_t *room)
{
    char path[4200], head[200];
    snprintf(path, sizeof path, "%s/message", work);
    char *msg = NULL;
    size_t mlen = 0;
    if (own_read_plain(path, 4096, &msg, &mlen)) mlen = 0;
    struct stat st;
    uint64_t tlen = exited && status == 0 && same_file(trace_fd) && fstat(trace_fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    if (tlen > *room) tlen = 0, status = 3; /* 3: past the batch's room for traces */
    int hl = snprintf(head, sizeof head, "RUN %zu %d %d %d %d %zu %" PRIu64 "\n", i, exited, status, sig, late, mlen, tlen);
    int bad = write(out, head, (size_t)hl) != hl || (mlen && write(out, msg, mlen) != (ssize_t)mlen);
    free(msg);
    char buf[1 << 16];
    for (uint64_t at = 0; !bad && at < tlen;) {
        ssize_t k = pread(trace_fd, buf, tlen - at < sizeof buf ? (size_t)(tlen - at) : sizeof buf, (off_t)at);
        if (k <= 0) { /* shorter than it said: the reader refuses the cut trace */
            memset(buf, 0, sizeof buf);
            k = tlen - at < sizeof buf ? (ssize_t)(tlen - at) : (ssize_t)sizeof buf;
        }
        bad = write(out, buf, (size_t)k) != k;
        at += (uint64_t)k;
    }
    *room -= tlen;
    return bad ? -1 : 0;
}

/* warpscope-run batch WORK SO OUT KERNEL ENTRY DATA BLOCKS_TRACED NO_RACE_CHECK RESULT CARD TYPE RUN_WALL_S CHECK_WALL_S THREADS
 * The runs are not in the command line or the environment (where a constructor would read the
 * hidden suite's sizes and seeds): warpscope writes them into OUT's file, a line each, ended by an
 * empty line; they are read and the file emptied before anything of the learner's is loaded.
 * RUN: N,SEED,SCHEDULE,BLOCKS (SCHEDULE "-": lockstep; BLOCKS 0: BLOCKS_TRACED). Each run as `trace` runs it, each in a child of
 * this process, one after another, all within CHECK_WALL_S; the emulator's stacks made once here
 * (THREADS fibers' guard pages) and inherited. OUT (fd:N) receives a record per run (batch_record);
 * a run that fails takes its record and the next one runs, but for the first: the batch stops
 * there (a file that does not run at its first size is not judged further). */
static int batch_mode(int argc, char **argv)
{
    if (argc != 16 || strncmp(argv[4], "fd:", 3)) { fprintf(stderr, "warpscope-run batch: 14 arguments expected\n"); return 2; }
    const char *work = argv[2], *so = argv[3];
    capture_desc base = {.version = OWN_VERSION, .kernel = argv[5], .entry = argv[6], .data = *argv[7] ? argv[7] : NULL, .seed_set = 1,
                         .blocks_traced = (unsigned)strtoul(argv[8], NULL, 10), .no_race_check = atoi(argv[9]),
                         .result_in = strcmp(argv[10], "in") == 0, .card = argv[11], .type = argv[12]};
    sandbox_set_run_wall_s((unsigned)strtoul(argv[13], NULL, 10));
    double deadline = now_s() + strtod(argv[14], NULL);
    int out = fcntl(atoi(argv[4] + 3), F_DUPFD_CLOEXEC, 230); /* above the learner's reach (3 to 63), under the 256 a run may open */
    if (out < 0) { fprintf(stderr, "warpscope-run batch: no descriptor %s\n", argv[4]); return 2; }
    close(atoi(argv[4] + 3));
    enum { RUNS_MAX = 256 };
    static char runs_text[RUNS_MAX * 96 + 2];
    char *runs[RUNS_MAX];
    int nruns = 0;
    ssize_t got = pread(out, runs_text, sizeof runs_text - 1, 0);
    runs_text[got > 0 ? got : 0] = 0;
    char *end = strstr(runs_text, "\n\n");
    if (!end || ftruncate(out, 0) || lseek(out, 0, SEEK_SET)) { fprintf(stderr, "warpscope-run batch: no runs in %s\n", argv[4]); return 2; }
    *end = 0;
    for (char *save = NULL, *r = strtok_r(runs_text, "\n", &save); r && nruns < RUNS_MAX; r = strtok_r(NULL, "\n", &save)) runs[nruns++] = r;
    emu *e = emu_create();
    /* a learner's launches run their blocks one after another, on one worker (own.c) */
    if (!e || emu_prepare(e, (unsigned)strtoul(argv[15], NULL, 10), 1)) return say(work, "out of memory for the emulator");
    base.emu = e;
    uint64_t room = OWN_TRACE_MAX - 4096;
    char path[4200], msgpath[4200], err[1024];
    snprintf(path, sizeof path, "%s/trace.wstrace", work);
    snprintf(msgpath, sizeof msgpath, "%s/message", work);
    for (int a = 0; a < nruns; a++) {
        size_t i = (size_t)a;
        capture_desc d = base;
        char sched[64] = "";
        unsigned long long n = 0, seed = 0;
        unsigned blocks = 0;
        if (sscanf(runs[a], "%llu,%llu,%63[^,],%u", &n, &seed, sched, &blocks) != 4) { fprintf(stderr, "warpscope-run batch: bad run %s\n", runs[a]); return 2; }
        d.n = n, d.seed = seed, d.schedule = strcmp(sched, "-") ? sched : NULL;
        if (blocks) d.blocks_traced = blocks;
        sandbox_remove(msgpath);
        sandbox_remove(path);
        int tfd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        trace_fd = tfd >= 0 ? fcntl(tfd, F_DUPFD_CLOEXEC, 200) : -1;
        if (tfd >= 0) close(tfd);
        if (trace_fd < 0 || fstat(trace_fd, &trace_st)) return say(work, "cannot make a run's trace file in its folder");
        emu_schedule sc;
        int adversarial = 0, found = -1, failed = 0, exited = 1, status = 2, late = 0, sig = 0;
        capture_desc pick = d;
        if (now_s() >= deadline) {
            say(work, "not run: the check's time was spent on the runs before");
        } else if (schedule_parse(d.schedule, &sc, &adversarial, err, sizeof err) ||
                   (adversarial && search(&d, so, work, deadline - sandbox_run_wall_s(), &pick, &found, &failed, err, sizeof err))) {
            say(work, err);
        } else {
            fflush(NULL);
            sigset_t chld, old;
            sigemptyset(&chld);
            sigaddset(&chld, SIGCHLD);
            sigprocmask(SIG_BLOCK, &chld, &old);
            pid_t pid = fork();
            if (pid == 0) {
                sigprocmask(SIG_SETMASK, &old, NULL);
                close_all_but(trace_fd);
                batch_child(&pick, found, failed, adversarial, so, work);
            }
            if (pid < 0) {
                sigprocmask(SIG_SETMASK, &old, NULL);
                say(work, "cannot start a process for the run: try again");
            } else {
                int st = 0;
                late = wait_child(pid, &chld, &old, deadline, &st);
                exited = !late && WIFEXITED(st);
                status = exited ? WEXITSTATUS(st) : 0;
                sig = !late && WIFSIGNALED(st) ? WTERMSIG(st) : 0;
            }
        }
        if (batch_record(out, i, exited, status, sig, late, work, &room)) return 2;
        close(trace_fd);
        trace_fd = -1;
        if (i == 0 && !(exited && status == 0)) break;
    }
    sandbox_remove(msgpath);
    sandbox_remove(path);
    return 0;
}

int main(int argc, char **argv)
{
    /* nothing but standard input, output, error and the descriptor handed on (SANDBOX_HANDED_FD):
     * whatever bubblewrap or a parent left open is closed before anything else runs */
    close_range(SANDBOX_HANDED_FD + 1, ~0U, 0);
    if (argc > 1 && strcmp(argv[1], "trace") == 0) return trace_mode(argc, argv);
    if (argc > 1 && strcmp(argv[1], "batch") == 0) return batch_mode(argc, argv);
    if (argc == 2 && strcmp(argv[1], "probe") == 0) { /* warpscope asks whether the sandbox holds here */
        char err[1024];
        if (sandbox_confine_self(SANDBOX_RUN, "/tmp", NULL, err, sizeof err)) { fprintf(stderr, "warpscope-run: %s\n", err); return 1; }
        return 0;
    }
    int calls_only = argc > 1 && strcmp(argv[1], "confine-calls") == 0;
    if (argc > 4 && (calls_only || strcmp(argv[1], "confine") == 0)) {
        int dash = 3;
        while (dash < argc && strcmp(argv[dash], "--")) dash++;
        if (dash + 1 >= argc) { fprintf(stderr, "warpscope-run confine: no program after --\n"); return 2; }
        argv[dash] = NULL;
        char err[1024];
        if (sandbox_confine_self(SANDBOX_BUILD, calls_only ? NULL : argv[2], (const char *const *)(argv + 3), err, sizeof err)) {
            fprintf(stderr, "warpscope-run: %s\n", err);
            return 126;
        }
        execvp(argv[dash + 1], argv + dash + 1);
        fprintf(stderr, "cannot run %s\n", argv[dash + 1]);
        return 127;
    }
    fprintf(stderr, "usage: warpscope-run trace WORK SO OUT ... | confine WORK [FILE...] -- PROGRAM ARGS...\n");
    return 2;
}
