/* sandbox: where a learner's file is rewritten, compiled and run. A learner's file is a stranger's
 * code: none of it runs in warpscope's process. Each step is a program of its own (the front end,
 * the host compiler, warpscope-run), started here in a process group of its own with limits (CPU
 * time, address space, file size, processes, open files, a wall clock), and, where the machine has
 * them, in Debian's bubblewrap (no network, no view of home or of files the step does not need,
 * writes only to one private folder); inside, warpscope-run adds seccomp (a build: no sockets,
 * tracing or mounts; a run: an allow-list of the calls a run makes, so no process, exec, socket or
 * signal to another) and Landlock (the same folders, enforced by the kernel where no namespaces
 * are). As root, each step runs as the user nobody, wherever warpscope lies (what nobody cannot reach
 * by path is copied into bubblewrap's view from descriptors); where nobody does not work, a
 * learner's program is refused unless --unsafe. Once a learner's object is loaded, its run makes no
 * new executable memory (sandbox_lock_code). At the wall clock the whole group is killed, and with bubblewrap the
 * whole namespace: no grandchild is left.
 *
 * The protections in force are probed once per process and said by sandbox_describe. */
#ifndef WARPSCOPE_SANDBOX_H
#define WARPSCOPE_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a step may do: a build (the front end and the compiler start processes of their own and
 * exec them), a run (the learner's program: no new process, no exec, no signal to another). */
typedef enum sandbox_mode { SANDBOX_BUILD, SANDBOX_RUN } sandbox_mode;

/* Zero fields take the mode's defaults (sandbox.c: limits[]). */
typedef struct sandbox_limits {
    unsigned wall_s, cpu_s;
    uint64_t as_bytes, fsize_bytes;
    unsigned nproc, nofile;
} sandbox_limits;

typedef struct sandbox_job {
    sandbox_mode mode;
    const char *const *argv;  /* the program (a path) and its arguments, NULL-terminated */
    const char *work;         /* the one folder it may write (sandbox_work makes it); also its cwd, HOME and TMPDIR */
    const char *const *show;  /* further files or folders it reads, read-only (NULL-terminated; may be NULL) */
    sandbox_limits lim;
    int confine;              /* 1: argv[0] is warpscope-run, which confines itself (a run); 0: warpscope-run
                                 confines then execs argv (a build) */
    int host_view;            /* 1: the machine's own files and environment: no namespaces and no Landlock;
                                 limits and seccomp (no step of warpscope's asks for it now: a GPU's build is gpu) */
    int gpu;                  /* 1: a GPU's build (nvcc): show's /dev files are the GPU's, bound as devices
                                 and writable; no address-space limit (CUDA's tools reserve more than they use) */
    volatile int *cancel;     /* nonzero: stop it */
    int hand_fd;              /* > 0: a descriptor of the caller's (opened close-on-exec) that the step gets
                                 as descriptor SANDBOX_HANDED_FD, and no other process does */
} sandbox_job;
/* the number the step finds hand_fd under */
#define SANDBOX_HANDED_FD 3

typedef struct sandbox_outcome {
    int exited, status;   /* exited normally, with this status */
    int sig;              /* stopped by this signal (0: none) */
    int timed_out, cancelled;
    char *out;            /* its standard output and error together, the first 64 KiB (malloc'd; may be NULL) */
    double ms;            /* wall time */
} sandbox_outcome;

/* Which protections this machine gives (probed once per process): a bit each. */
enum {
    SANDBOX_NAMESPACES = 1, /* bubblewrap: no network, a private file system view, private /tmp */
    SANDBOX_LANDLOCK = 2,   /* the kernel's Landlock: reads and writes limited to named folders */
    SANDBOX_SECCOMP = 4,    /* a system-call filter: no sockets, no process or exec in a run */
    SANDBOX_LIMITS = 8,     /* rlimits, a wall clock and a process group killed whole */
    SANDBOX_NOBODY = 16,    /* warpscope is root: the steps run as nobody */
    SANDBOX_ROOT = 32,      /* warpscope is root and no step could run as nobody: they would run as root */
};
unsigned sandbox_protections(void);
/* The wall clock of one run (its limits[SANDBOX_RUN]), in seconds. */
unsigned sandbox_run_wall_s(void);
/* Sets it (and the CPU limit behind it, 5 s more) for every run after; 0 keeps it. Called once, before any run. */
void sandbox_set_run_wall_s(unsigned s);
/* The wall clock of one whole check (--schedule adversarial: every order of the search and the
 * trace's own run together), in seconds: one deadline, however many times the file is loaded. */
unsigned sandbox_check_wall_s(void);
/* "bubblewrap (no network, private files), seccomp, Landlock, limits (2 GiB, 15 s run / 60 s build)" */
void sandbox_describe(char *buf, size_t len);
/* Whether the file system is confined (namespaces or Landlock): without it warpscope refuses to run
 * a file unless told it is the user's own (--unsafe). */
int sandbox_confines_files(void);
/* Whether a learner's program would run as root (warpscope is root and nobody does not work here):
 * warpscope then refuses it unless told it is the user's own (--unsafe). */
int sandbox_runs_as_root(void);

/* A private folder for one build or run, 0700, usable by the user the steps run as: 0 with the
 * path in buf (size len), or -1. sandbox_remove deletes it and what is in it. */
int sandbox_work(char *buf, size_t len, char *err, size_t errlen);
void sandbox_remove(const char *work);

/* Runs job; 0 when it could be started (out says how it ended), -1 with err when not. Free
 * out->out. */
int sandbox_run(const sandbox_job *job, sandbox_outcome *out, char *err, size_t errlen);
/* How err begins when the sandbox itself could not start after its tries (the machine busy): the
 * server's fault for the moment, never the learner's */
#define SANDBOX_BUSY "the sandbox could not start"
/* How it ended, in words for the learner ("stopped after 15 s", "used more than 2 GiB of memory"),
 * "" when it exited by itself. */
void sandbox_ending(const sandbox_job *job, const sandbox_outcome *o, char *buf, size_t len);

/* Inside warpscope-run: confines this process (seccomp for the mode; Landlock to work and show,
 * unless work is NULL) before the learner's code or the build's program runs. 0, or -1 with err. */
int sandbox_confine_self(sandbox_mode mode, const char *work, const char *const *show, char *err, size_t errlen);

/* The run's lock, loaded once the learner's object is mapped (from its DT_INIT, before any of its
 * constructors): from then on no new executable memory (mmap/mprotect/pkey_mprotect with
 * PROT_EXEC, memfd_create, exec): no dlopen of other code, no code written and jumped to. A call
 * that tries kills the run (SIGSYS). 0, or -1 with err. */
int sandbox_lock_code(char *err, size_t errlen);
/* Whether the object at path runs init_sym as its DT_INIT and no code of its own before (no
 * IFUNC resolver): checked before it is loaded. 0, or -1 with why in err. */
int sandbox_object_locks(const char *path, const char *init_sym, char *err, size_t errlen);

/* A forked child that must see the machine (a GPU's run: CUDA opens the driver's files and reserves
 * more address space than it uses; it spins on the CPU while the GPU works) confines itself: a run's
 * limits but the address space, cpu_s seconds of CPU (0: a run's), nobody where it is root, a
 * run's system calls (no socket, no process, no exec), and with Landlock its files: the system's
 * libraries read-only, work (a folder of sandbox_work's, where the learner's object is copied) and
 * the GPU's device files, nothing else. 0, or -1 with err. */
int sandbox_confine_apart(unsigned cpu_s, const char *work, char *err, size_t errlen);
/* The GPU's device files a run may open again (/dev/nvidia*), NULL-terminated in show (up to max - 1). */
void sandbox_gpu_devices(char (*names)[64], const char **show, size_t max);

/* warpscope-run's path (beside warpscope, or WARPSCOPE_RUN); a program of warpscope's beside it. */
void sandbox_runner(char *buf, size_t len);
void sandbox_beside_self(const char *name, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
