/* app/cmd: what the command files share (internal to app/; only app/ prints and exits). */
#ifndef WS_APP_CMD_H
#define WS_APP_CMD_H

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "trace/analysis.h"
#include "app/bench.h"
#include "trace/capture/capture.h"
#include "app/cli.h"
#include "app/commands.h"
#include "app/export/export.h"
#include "trace/cards.h"
#include "trace/ladder.h"
#include "trace/capture/own/own.h"
#include "trace/capture/own/sandbox.h"
#include "trace/capture/schedule.h"
#include "trace/sources.h"
#include "trace/outfile.h"
#include "trace/infile.h"
#include "trace/json_internal.h"
#include <cjson/cJSON.h>
#include "app/learn/exercise.h"
#include "app/gpu_time.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "app/learn/progress.h"
#include "trace/trace.h"
#include "trace/words.h"
#include "app/verify.h"
#include "app/web_pack.h"
#include "app/viewer/viewer.h"

enum { EXIT_BAD = 2, EXIT_WRONG = 1 /* a result off its reference: the trace is written, the finding reported */,
       EXIT_INTERRUPTED = 130 /* 128 + SIGINT, as shells report it */ };

#ifndef WS_DATA_FROM_BIN
#define WS_DATA_FROM_BIN "../share/warpscope" /* GNUInstallDirs: from CMAKE_INSTALL_BINDIR to CMAKE_INSTALL_DATADIR/warpscope */
#endif

enum { DATA_PATH_MAX = PATH_MAX + 64 }; /* the program's folder and a few names after it */
typedef struct data_dirs {
    char assets[DATA_PATH_MAX + 16], lessons[DATA_PATH_MAX + 16], include[DATA_PATH_MAX + 16];
} data_dirs;

typedef struct cli {
    capture_desc cap;
    const char *backend;
    const char *out, *file;
    long pass, block_index; /* -1: not given */
    const char *card;       /* --card: an id of trace/cards.h; NULL: the trace's GPU or the default */
} cli;

/* Progress of one long step: silent for its first second, then a bar redrawn in place on a
 * terminal, or a plain line every few seconds when stderr is a file or a pipe. */
typedef struct work_bar {
    const char *what, *unit; /* "capturing", "blocks" */
    double start, last;
    int tty, shown;
} work_bar;

enum { BAR_WIDTH = 30 };
#define PROGRESS_QUIET_S 1.0 /* work shorter than this prints nothing */
#define PROGRESS_TTY_S 0.1   /* redraw interval on a terminal */
#define PROGRESS_LINE_S 5.0  /* interval between plain lines */

enum { VIEW_TRACE_ALL_N = 1 << 20 };

extern const ws_command *running; /* the command being run, for usage errors (main sets it) */
extern volatile int interrupted;    /* the signal that stopped a long job, or 0 */

int usage_error(const char *fmt, const char *a, const char *b);
int is_dir(const char *path);
int has_assets(const char *dir);
int find_data(data_dirs *d, int need_assets, int need_lessons);
const char *title_of(const trace_provenance *p, const ladder_version *v);
int read_kernel_flags(const cli_value *v, cli *c);
int read_capture(const ws_call *k, cli *c);
void catch_interrupts(void);
double now_s(void);
void work_bar_begin(work_bar *p, const char *what);
void work_bar_update(void *user, uint64_t done, uint64_t total);
void work_bar_end(work_bar *p);
int report_interrupt(const char *what);
int do_capture_with(const char *backend, const capture_desc *desc, trace *t);
int do_capture(const capture_desc *d, trace *t);
int read_version_to_capture(const ws_call *k, cli *c);
int read_viewer(const ws_call *k, viewer_opts *o);
void with_progress(viewer_opts *o, work_bar *bar);
void export_progress(void *user, uint64_t done, uint64_t total);
int viewer_stopped(int rc, work_bar *bar);
int find_viewer_data(viewer_opts *o, data_dirs *d, int need_lessons);
int exercise_viewer(const char *name, const char *file, viewer_opts *o);
/* One file's object of `exercise check --json`'s report ("files": [...]): its name, whether and how often it
 * ran, its error, and each goal met or not with its value (warpscope serve answers the same). */
cJSON *exercise_report_file(const lesson *l, const char *file, const exercise_judgement *j);
/* The card goal's mark (exercise_judge_card) from the card's timing of the file: met when it was timed
 * and reached the exercise's fraction of the card's best read; a sum wrong on the card or a file that
 * did not run there, not met, with the error; no GPU, not judged. */
void exercise_judge_timing(const lesson_exercise *x, exercise_judgement *j, const gpu_timing *t);

#endif
