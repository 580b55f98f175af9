/* commands: warpscope's commands in one table, and their flags in another, and what is made from
 * them: the dispatch (main.c), `warpscope help`, `help CMD` and `CMD --help`, the man page
 * (`help --man`), the bash completion (`help --completion bash`) and docs/reference.md's list of
 * commands (`help --markdown`, checked by a test). git's commands[] in git.c (name, function,
 * flags), with its help and completion generated from one command list, is the shape.
 *
 * A flag is a row of ws_flags: the scanner's spec (app/cli.h), the name of its value, one line of
 * help and how a shell completes its value. A command names groups of flags (the capture flags,
 * the viewer's, its own); main scans exactly those, so a command takes every flag its help lists
 * and no other. The handlers live in main.c (bench in bench_gpu.cu / bench_none.c, verify in
 * verify.c, behind small handlers in main.c); they read the scanned values by flag. */
#ifndef WARPSCOPE_COMMANDS_H
#define WARPSCOPE_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "app/cli.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every flag of every command. Two rows may share a name when two commands read it differently
 * (stats' --json is a switch, bench's --json names a file); a command takes one of them. */
typedef enum ws_flag {
    /* capture flags */
    WF_VERSION, WF_BLOCK, WF_N, WF_DATA, WF_SEED, WF_EPT, WF_BLOCKS_TRACED, WF_BACKEND, WF_WORKERS, WF_SCHEDULE,
    WF_WARP_ORDER, WF_DROP_BARRIER, WF_DROP_SYNCWARP, WF_KERNEL, WF_ENTRY, WF_DEFINE, WF_RESULT, WF_UNSAFE, WF_CARD, WF_TYPE,
    /* the traced block shown */
    WF_PASS, WF_BLOCK_INDEX,
    /* outputs */
    WF_OUT, WF_OUTPUT,
    /* stats, hazards */
    WF_JSON, WF_ALL_BLOCKS,
    /* the viewer */
    WF_COMPARE, WF_SIZE, WF_THEME, WF_LANG, WF_PRESENTER, WF_FINE, WF_ACTIONS, WF_VIEW, WF_KEYS,
    WF_EVENT, WF_PHASE, WF_STEP, WF_FRAMES, WF_BENCH, WF_LEARN, WF_METRICS,
    /* export */
    WF_FROM, WF_TO, WF_FPS, WF_SPEED, WF_LESSON, WF_NO_MOTION,
    /* bench */
    WF_SIZES, WF_VERSIONS, WF_MODES, WF_REPS, WF_BATCH, WF_BENCH_BLOCK, WF_DEVICE, WF_JSON_FILE, WF_CSV,
    /* verify */
    WF_BLOCKS, WF_MD,
    /* lesson list, exercises */
    WF_DIR, WF_EXERCISE,
    /* help */
    WF_MAN, WF_COMPLETION, WF_MARKDOWN,
    /* serve */
    WF_PORT, WF_BIND, WF_STATE, WF_TOKEN, WF_DB, WF_RUN_LIMIT, WF_TOKEN_FILE, WF_CLASS,
    WF_LTI, WF_LTI_KEY, WF_GPU, WF_GPU_LIMIT, WF_GPU_QUEUE, WF_JUDGED, WF_CARD_TURN,
    WF_COUNT
} ws_flag;

/* How a shell completes a value (or an operand). */
typedef enum ws_complete {
    WS_COMPLETE_NONE,     /* a number or free text */
    WS_COMPLETE_FILE,     /* a file name */
    WS_COMPLETE_DIR,      /* a folder */
    WS_COMPLETE_VERSION,  /* a version id of trace/ladder.h */
    WS_COMPLETE_VERSIONS, /* a comma-separated list of them */
    WS_COMPLETE_WORDS,    /* one of the words listed with the flag */
    WS_COMPLETE_CARD,     /* a card id of trace/cards.h */
    WS_COMPLETE_COMMAND   /* a command's name (help's operand) */
} ws_complete;

typedef struct ws_flag_row {
    cli_spec spec;         /* name, kind, number range, what "needs" says */
    const char *arg;       /* the value's name in help ("B", "FILE"); NULL for a switch */
    const char *help;      /* one line */
    ws_complete complete;
    const char *words;     /* WS_COMPLETE_WORDS: the values, space separated */
} ws_flag_row;

extern const ws_flag_row ws_flags[WF_COUNT];

/* Flags that go together, listed under one title in help. help, when not NULL, replaces the flag's
 * own line where a command gives it a narrower meaning (render's -o is a PNG). */
enum { WS_GROUP_MAX = 20 };
typedef struct ws_flag_use {
    ws_flag flag;
    const char *help;
} ws_flag_use;
typedef struct ws_flag_group {
    const char *title;     /* "capture flags" */
    size_t n;
    ws_flag_use use[WS_GROUP_MAX];
} ws_flag_group;

/* What a command's arguments that are not flags are. */
typedef enum ws_operand {
    WS_OPERAND_NONE,
    WS_OPERAND_TRACE,   /* at most one trace file */
    WS_OPERAND_LESSON,  /* at most one lesson: an id or a file */
    WS_OPERAND_FILE,    /* exactly one file (lesson print) */
    WS_OPERAND_FILES,   /* one or more files (lesson check) */
    WS_OPERAND_COMMAND  /* a command and its subcommand (help) */
} ws_operand;

/* What a handler gets: the command's row, the scanned flags by ws_flag (given = 0 for every flag
 * the command does not take) and its operands. */
struct ws_command;
typedef struct ws_call {
    const struct ws_command *cmd;
    cli_value v[WF_COUNT];
    const char **pos;
    size_t npos;
} ws_call;

enum {
    WS_CMD_WINDOW = 1,  /* opens a window: needs a display; SDL takes Ctrl+C */
    WS_CMD_GPU = 2      /* needs a CUDA GPU and a build with CUDA */
};

enum { WS_CMD_GROUPS = 6 };
typedef struct ws_command {
    const char *name;       /* "" is warpscope with no command */
    const char *sub;        /* "check" of "lesson check"; NULL when the command has none */
    int (*run)(const ws_call *c);
    const char *synopsis;   /* what follows "warpscope NAME [SUB]" */
    const char *summary;    /* one line */
    const ws_flag_group *groups[WS_CMD_GROUPS]; /* the flags it takes; NULL ends the list */
    ws_operand operand;
    unsigned flags;         /* WS_CMD_* */
    const char *what;       /* a command with subcommands: what they are ("one benchmark") */
} ws_command;

extern const ws_command ws_commands[];
extern const size_t ws_command_count;

/* The row of `warpscope NAME [SUB]`; NULL if none. With sub NULL, a command with subcommands
 * answers its first row. */
const ws_command *commands_find(const char *name, const char *sub);
/* 1 when the command takes the flag. */
int commands_takes(const ws_command *c, ws_flag f);
/* "warpscope stats" or "warpscope lesson print" into out. */
const char *commands_title(const ws_command *c, char *out, size_t outlen);
/* The commands (other than c) that take a flag of this name, as "warpscope render, warpscope
 * export" into out; 0 when none does. */
size_t commands_taking(const char *flag, const ws_command *c, char *out, size_t outlen);
/* The names of the commands (or of NAME's subcommands, sub_of not NULL) closest to a mistyped
 * word, as words_suggest writes them. */
size_t commands_suggest(const char *word, const char *sub_of, char *out, size_t outlen);

/* What the table makes, written to out. */
void commands_print_list(FILE *out);                         /* warpscope help */
/* help CMD, CMD --help; whole: every subcommand of c's name (help lesson) */
void commands_print_help(FILE *out, const ws_command *c, int whole);
void commands_print_man(FILE *out);                          /* warpscope.1, roff */
void commands_print_markdown(FILE *out);                     /* docs/reference.md's list */
int commands_print_completion(FILE *out, const char *shell); /* -1: a shell it does not know */
void commands_print_version(FILE *out);                      /* warpscope --version */

/* The handlers (main.c). */
int cmd_default(const ws_call *c);
int cmd_view(const ws_call *c);
int cmd_render(const ws_call *c);
int cmd_learn(const ws_call *c);
int cmd_export(const ws_call *c);
int cmd_capture(const ws_call *c);
int cmd_stats(const ws_call *c);
int cmd_hazards(const ws_call *c);
int cmd_ladder(const ws_call *c);
int cmd_list(const ws_call *c);
int cmd_cards(const ws_call *c);
int cmd_web(const ws_call *c);
int cmd_bench(const ws_call *c);
int cmd_verify(const ws_call *c);
int cmd_lesson_check(const ws_call *c);
int cmd_exercise_list(const ws_call *c);
int cmd_exercise_start(const ws_call *c);
int cmd_exercise_check(const ws_call *c);
int cmd_lesson_list(const ws_call *c);
int cmd_lesson_print(const ws_call *c);
int cmd_perf_capture(const ws_call *c);
int cmd_perf_draw(const ws_call *c);
int cmd_perf_kernel(const ws_call *c);
int cmd_perf_export(const ws_call *c);
int cmd_help(const ws_call *c);
int cmd_version(const ws_call *c);
int cmd_serve(const ws_call *c); /* app/serve/serve.c (serve_none.c in a build without it) */
int cmd_grades(const ws_call *c); /* app/serve/serve.c (serve_none.c in a build without it) */

#ifdef __cplusplus
}
#endif
#endif
