/* commands: see commands.h. The tables first (flags, their groups, the commands), then what is
 * generated from them: help, the man page, docs/reference.md's list, the bash completion, the version. */
#include "app/commands.h"

#include <string.h>

#include "trace/capture/own/sandbox.h"
#include "trace/cards.h"
#include "trace/ladder.h"
#include "trace/words.h"
#include "app/version.h"

/* ---- the flags ---- */

#define SWITCH(nm, help_) {{nm, CLI_SWITCH, 0, 0, NULL}, NULL, help_, WS_COMPLETE_NONE, NULL}
#define NUMBER(nm, lo, hi, arg_, help_) {{nm, CLI_NUMBER, lo, hi, NULL}, arg_, help_, WS_COMPLETE_NONE, NULL}
#define TEXT(nm, what_, arg_, complete_, words_, help_) {{nm, CLI_TEXT, 0, 0, what_}, arg_, help_, complete_, words_}

const ws_flag_row ws_flags[WF_COUNT] = {
    [WF_VERSION] = TEXT("--version", "a version id", "ID", WS_COMPLETE_VERSION, NULL,
                        "the version: an id or one of its aliases (warpscope list); also its kernel file's name"),
    [WF_BLOCK] = NUMBER("--block", 1, 1024, "B", "threads per block, a power of two from 32 (64 for v4, v4s) to 1024; default 256"),
    [WF_N] = NUMBER("--n", 1, (uint64_t)1 << 31, "N", "elements to reduce, from 1 (2^20 may be written so); default one block's worth"),
    [WF_DATA] = TEXT("--data", NULL, "PATTERN", WS_COMPLETE_WORDS, "ones ramp random-int random-float random-negative",
                     "ones | ramp | random-int (0..9, whose sums stay exact; the default) | random-float (-1 to 1) | random-negative (-2 to -1)"),
    [WF_SEED] = NUMBER("--seed", 0, UINT64_MAX, "S", "seed of the random patterns; default 1"),
    [WF_EPT] = NUMBER("--ept", 1, 4096, "E", "elements each thread of v6, v7 and v8 reduces; default 8"),
    [WF_BLOCKS_TRACED] = NUMBER("--blocks-traced", 1, UINT32_MAX, "K", "blocks recorded in each pass; default 1 (the grid or more: every block)"),
    [WF_BACKEND] = TEXT("--backend", NULL, "B", WS_COMPLETE_WORDS, "cpu gpu auto",
                        "cpu (the emulator, default) | gpu | auto (the GPU when there is one, else the emulator)"),
    [WF_WORKERS] = NUMBER("--workers", 1, 64, "W", "emulator threads; default one per core (the trace is the same bytes whatever W)"),
    [WF_SCHEDULE] = TEXT("--schedule", NULL, "S", WS_COMPLETE_WORDS, "lockstep its:1 lanes-up lanes-down adversarial",
                         "lockstep (default) | its:SEED | lanes-up | lanes-down | adversarial (the emulator only)"),
    [WF_WARP_ORDER] = TEXT("--warp-order", NULL, "W", WS_COMPLETE_WORDS, "in-order reversed seeded:1",
                           "in-order (default) | reversed | seeded:SEED"),
    [WF_DROP_BARRIER] = NUMBER("--drop-barrier", 1, 1000000, "L", "break it: leave out the __syncthreads() at source line L"),
    [WF_DROP_SYNCWARP] = NUMBER("--drop-syncwarp", 1, 1000000, "L", "break it: leave out the __syncwarp() at source line L"),
    [WF_KERNEL] = TEXT("--kernel", "a CUDA file", "FILE.cu", WS_COMPLETE_FILE, NULL,
                       "a kernel of your own, in plain CUDA, instead of --version (see --entry)"),
    [WF_ENTRY] = TEXT("--entry", NULL, "CALL", WS_COMPLETE_NONE, NULL,
                      "how to run --kernel: calls of its functions or launches (comma separated), with in, out (device buffers of n floats), n, h_in and numbers"),
    [WF_DEFINE] = TEXT("--define", NULL, "N=V,...", WS_COMPLETE_NONE, NULL, "macros for --kernel, as -D gives them: BLOCK_SIZE=256,..."),
    [WF_RESULT] = TEXT("--result", NULL, "BUF", WS_COMPLETE_WORDS, "out in",
                       "where --kernel's result is when the entry returns: out (out[0], the default) or in (in[0], an in-place kernel)"),
    [WF_UNSAFE] = SWITCH("--unsafe", "run --kernel (or the files judged) where the sandbox cannot confine its files: only a file of your own"),
    [WF_CARD] = TEXT("--card", "a card", "NAME", WS_COMPLETE_CARD, NULL,
                     "the GPU whose SMs hold the blocks (its occupancy and waves): gtx1060, h100, ... (warpscope cards); "
                     "default h100, or the GPU a trace was captured on"),
    [WF_TYPE] = TEXT("--type", NULL, "T", WS_COMPLETE_WORDS, "float int unsigned double",
                     "the data's type for --kernel (its T *in and T *out): float (default) | int | unsigned | double | long long"),
    [WF_PASS] = NUMBER("--pass", 0, UINT32_MAX, "P", "the pass shown; default 0"),
    [WF_BLOCK_INDEX] = NUMBER("--block-index", 0, UINT32_MAX, "I", "the block shown, of that pass; default 0 (a capture traces it)"),
    [WF_OUT] = TEXT("-o", "a file name", "FILE", WS_COMPLETE_FILE, NULL, "the output file"),
    [WF_OUTPUT] = TEXT("--output", "a file name", "FILE", WS_COMPLETE_FILE, NULL, "the same as -o"),
    [WF_JSON] = SWITCH("--json", "one JSON object instead of the table"),
    [WF_ALL_BLOCKS] = SWITCH("--all-blocks", "also the totals of every traced block of the pass, and each block's partial sum"),
    [WF_COMPARE] = TEXT("--compare", "a version id", "ID", WS_COMPLETE_VERSION, NULL,
                        "a second version beside the first, stepped operation by operation"),
    [WF_SIZE] = TEXT("--size", NULL, "WxH", WS_COMPLETE_NONE, NULL, "the picture's size, 320x200 to 8192x8192"),
    [WF_THEME] = TEXT("--theme", NULL, "THEME", WS_COMPLETE_WORDS, "light dark", "light (default) | dark"),
    [WF_LANG] = TEXT("--lang", NULL, "LANG", WS_COMPLETE_WORDS, "en zh", "en (default) | zh: the text in English or Chinese"),
    [WF_PRESENTER] = SWITCH("--presenter", "presenter mode: text for the back of a room"),
    [WF_FINE] = SWITCH("--fine", "one step per warp instruction (warp by warp)"),
    [WF_ACTIONS] = TEXT("--actions", NULL, "A1,A2...", WS_COMPLETE_NONE, NULL,
                        "actions to apply first: step:N, phase:N, seek-step:N, version:ID, compare:ID|next|off, lang:zh, ..."),
    [WF_VIEW] = TEXT("--view", NULL, "VIEW", WS_COMPLETE_WORDS, "passes grid bench",
                     "passes (the launches as Harris's kernel decomposition, level by level) | grid (every block of a pass) | bench (the benchmark chart)"),
    [WF_KEYS] = TEXT("--keys", NULL, "K1,K2...", WS_COMPLETE_NONE, NULL, "keys to press, comma separated (Right,PageDown,q; wait:500 pauses 500 ms): demos and tests"),
    [WF_EVENT] = NUMBER("--event", 0, 100000000, "E", "show the step of event E of the trace"),
    [WF_PHASE] = NUMBER("--phase", 0, 100000000, "P", "show the first step of phase P"),
    [WF_STEP] = NUMBER("--step", 0, 100000000, "S", "show step S"),
    [WF_FRAMES] = TEXT("--frames", "a folder", "DIR", WS_COMPLETE_DIR, NULL, "one PNG per step into DIR"),
    [WF_METRICS] = TEXT("--metrics", "a file name", "FILE", WS_COMPLETE_FILE, NULL,
                        "with -o LIST.json: text widths from a table the page recorded (warpscope.metrics() in its console), so the list is laid out as the page's"),
    [WF_BENCH] = TEXT("--bench", "a results file", "FILE", WS_COMPLETE_FILE, NULL, "the benchmark chart of a results file (assets/bench-h100.json)"),
    [WF_LEARN] = TEXT("--learn", "a lesson", "LESSON", WS_COMPLETE_FILE, NULL, "a lesson (an id such as 03, or a file); --actions lesson:N picks its step"),
    [WF_FROM] = NUMBER("--from", 0, 100000000, "S", "the first step; default 0"),
    [WF_TO] = NUMBER("--to", 0, 100000000, "S", "the last step; default the last"),
    [WF_FPS] = TEXT("--fps", NULL, "F", WS_COMPLETE_NONE, NULL, "frames per second, 1 to 50 (GIF delays are centiseconds); default 15"),
    [WF_SPEED] = TEXT("--speed", NULL, "S", WS_COMPLETE_NONE, NULL, "steps per second, 0.1 to 60; default 1"),
    [WF_LESSON] = TEXT("--lesson", "a lesson", "LESSON", WS_COMPLETE_FILE, NULL, "every step of a lesson (an id such as 03, or a file), as its window shows them"),
    [WF_NO_MOTION] = SWITCH("--no-motion", "one still frame per step"),
    [WF_SIZES] = TEXT("--sizes", NULL, "LIST", WS_COMPLETE_NONE, NULL, "element counts, comma separated (2^20,2^24 or numbers); default 2^16 to 2^30"),
    [WF_VERSIONS] = TEXT("--versions", NULL, "LIST", WS_COMPLETE_VERSIONS, NULL, "versions, comma separated; default every version that does not race"),
    [WF_MODES] = TEXT("--modes", NULL, "LIST", WS_COMPLETE_NONE, NULL, "launch (events around each run), batch (back-to-back runs), or both (default)"),
    [WF_REPS] = NUMBER("--reps", 1, 10000, "R", "timed runs per row in launch mode; default 30"),
    [WF_BATCH] = NUMBER("--batch", 1, 100000, "K", "runs per batch in batch mode; default enough for 32 GiB"),
    [WF_BENCH_BLOCK] = NUMBER("--block", 32, 1024, "B", "threads per block for every version; default each version's tuned block"),
    [WF_DEVICE] = NUMBER("--device", 0, 63, "D", "the CUDA device; default 0"),
    [WF_JSON_FILE] = TEXT("--json", "a file name", "FILE", WS_COMPLETE_FILE, NULL, "write the results as JSON (schema 2) to FILE"),
    [WF_CSV] = TEXT("--csv", "a file name", "FILE", WS_COMPLETE_FILE, NULL, "write the rows as CSV to FILE"),
    [WF_BLOCKS] = TEXT("--blocks", NULL, "LIST", WS_COMPLETE_NONE, NULL, "block sizes, comma separated; default 32,64,256,1024"),
    [WF_MD] = TEXT("--md", "a file name", "FILE", WS_COMPLETE_FILE, NULL, "also write the report as Markdown to FILE"),
    [WF_DIR] = TEXT("--dir", "a folder", "DIR", WS_COMPLETE_DIR, NULL, "the lessons of another folder"),
    [WF_EXERCISE] = TEXT("--exercise", "an exercise", "EXERCISE", WS_COMPLETE_NONE, NULL,
                         "an exercise (a number or name: warpscope exercise list): its checklist beside your --kernel file (default its starting file)"),
    [WF_MAN] = SWITCH("--man", "the man page (roff), warpscope.1"),
    [WF_COMPLETION] = TEXT("--completion", "a shell", "SHELL", WS_COMPLETE_WORDS, "bash", "a completion script for SHELL (bash)"),
    [WF_MARKDOWN] = SWITCH("--markdown", "the list of commands as Markdown, as docs/reference.md has it"),
    [WF_PORT] = NUMBER("--port", 0, 65535, "P", "the TCP port to listen on; default 8080 (0: any free port, printed)"),
    [WF_BIND] = TEXT("--bind", "an address", "ADDR", WS_COMPLETE_NONE, NULL, "the address to listen on; default 127.0.0.1 (0.0.0.0: every IPv4 address, :: every IPv6)"),
    [WF_STATE] = TEXT("--state", "a folder", "DIR", WS_COMPLETE_DIR, NULL, "the class record's folder: DIR/class.db (SQLite, WAL), made if missing"),
    [WF_TOKEN] = TEXT("--token", NULL, "T", WS_COMPLETE_NONE, NULL, "the teacher's token for /class and /api/class; default a random one, printed at start"),
    [WF_DB] = TEXT("--db", "a URL", "URL", WS_COMPLETE_NONE, NULL, "the class record in PostgreSQL (postgres://USER@HOST/DB) instead of --state, shared by several servers"),
    [WF_TOKEN_FILE] = TEXT("--token-file", "a file name", "FILE", WS_COMPLETE_FILE, NULL,
                           "the teacher's token, the first line of FILE (or $WARPSCOPE_TOKEN): never seen in the process list as --token is"),
    [WF_CLASS] = NUMBER("--class", 1, 1000000000, "ID", "the class (its number, as /class lists it); default the open one, else the newest"),
    [WF_RUN_LIMIT] = NUMBER("--run-limit", 1, 600, "S", "seconds a learner's run may take on this server; default 5 (a loop that never ends holds a worker that long)"),
    [WF_LTI] = TEXT("--lti", "a file", "FILE", WS_COMPLETE_FILE, NULL, "serve as an LTI 1.3 tool of the platform FILE registers (JSON: docs/lti.md)"),
    [WF_GPU] = SWITCH("--gpu", "time every Check whose trace goals are met on this machine's GPU too (found at start where there is one; with --gpu, none is an error)"),
    [WF_GPU_LIMIT] = NUMBER("--gpu-limit", 5, 600, "S", "seconds one timing on the GPU may take, build excluded; default 60 (then the process is killed and the card is free)"),
    [WF_GPU_QUEUE] = NUMBER("--gpu-queue", 1, 4096, "N", "files waiting for the GPU at most; default 64 (beyond it: 429 and a Retry-After)"),
    [WF_JUDGED] = SWITCH("--judged", "with --kernel: a file the emulator judged already (the class server's): no emulator run first, and the kernel's rows alone (the card's best read and CUB measured apart once)"),
    [WF_CARD_TURN] = SWITCH("--card-turn", "with --judged: the class server's: the kernel's process starts CUDA, says so on descriptor 3 and waits for the card's turn on descriptor 4 before it loads the file (one timing on the card at a time, the next ones started beside it)"),
    [WF_LTI_KEY] = TEXT("--lti-key", "a file", "FILE", WS_COMPLETE_FILE, NULL, "the LTI tool's RSA key (JWK or PEM, 0600); default DIR/lti-key.json, made once"),
};

/* ---- the groups ---- */

#define USE(f) {f, NULL}

static const ws_flag_group g_capture = {"capture flags", 20, {USE(WF_VERSION), USE(WF_BLOCK), USE(WF_N), USE(WF_DATA), USE(WF_SEED),
    USE(WF_EPT), USE(WF_BLOCKS_TRACED), USE(WF_BACKEND), USE(WF_WORKERS), USE(WF_SCHEDULE), USE(WF_WARP_ORDER), USE(WF_DROP_BARRIER),
    USE(WF_DROP_SYNCWARP), USE(WF_KERNEL), USE(WF_ENTRY), USE(WF_DEFINE), USE(WF_RESULT), USE(WF_UNSAFE), USE(WF_CARD), USE(WF_TYPE)}};
static const ws_flag_group g_shown = {"the block shown", 2, {USE(WF_PASS), USE(WF_BLOCK_INDEX)}};
static const ws_flag_group g_viewer = {"viewer flags", 8, {USE(WF_COMPARE), USE(WF_SIZE), USE(WF_THEME), USE(WF_LANG),
    USE(WF_PRESENTER), USE(WF_FINE), USE(WF_ACTIONS), USE(WF_VIEW)}};
static const ws_flag_group g_window = {"window flags", 1, {USE(WF_KEYS)}};
static const ws_flag_group g_render = {"render flags", 9, {USE(WF_EVENT), USE(WF_PHASE), USE(WF_STEP),
    {WF_OUT, "the PNG file; a name ending in .json writes the frame's draw list instead (app/draw/record.h)"},
    USE(WF_FRAMES), USE(WF_BENCH), USE(WF_LEARN), USE(WF_EXERCISE), USE(WF_METRICS)}};
static const ws_flag_group g_export = {"export flags", 11, {
    {WF_OUT, "OUT.gif | OUT.mp4 | OUT.webm | OUT.svg (one step) | a folder (PNG frames)"}, USE(WF_FROM), USE(WF_TO), USE(WF_STEP),
    USE(WF_PHASE), USE(WF_EVENT), USE(WF_FPS), USE(WF_SPEED), USE(WF_NO_MOTION), USE(WF_LESSON), {WF_LEARN, "the same as --lesson"}}};
static const ws_flag_group g_capture_out = {"output", 2, {
    {WF_OUT, "the trace file: JSON, or the compact encoding when the name ends in .wstrace"}, USE(WF_OUTPUT)}};
static const ws_flag_group g_stats = {"stats flags", 2, {USE(WF_JSON), USE(WF_ALL_BLOCKS)}};
static const ws_flag_group g_hazards = {"hazards flags", 1, {{WF_JSON, "one JSON object instead of the table"}}};
static const ws_flag_group g_bench = {"bench flags", 10, {USE(WF_SIZES),
    {WF_VERSIONS, "versions, comma separated; default every version that does not race (none beside --kernel)"}, USE(WF_MODES), USE(WF_REPS),
    USE(WF_BATCH), USE(WF_BENCH_BLOCK), USE(WF_EPT), USE(WF_DEVICE), USE(WF_JSON_FILE), USE(WF_CSV)}};
static const ws_flag_group g_bench_own = {"a kernel of your own", 6, {
    {WF_KERNEL, "a kernel of your own, in plain CUDA, built by nvcc and timed launch by launch (first run by the emulator, which must find it right and race-free)"},
    USE(WF_ENTRY), USE(WF_DEFINE), USE(WF_UNSAFE), USE(WF_JUDGED), USE(WF_CARD_TURN)}};
static const ws_flag_group g_verify = {"verify flags", 3, {{WF_VERSIONS, "versions, comma separated; default every version that does not race"},
    USE(WF_BLOCKS), USE(WF_MD)}};
static const ws_flag_group g_verify_own = {"a kernel of your own", 7, {
    {WF_KERNEL, "a kernel of your own, in plain CUDA: its emulator trace against its GPU trace (built traced by nvcc)"}, USE(WF_ENTRY),
    USE(WF_DEFINE), {WF_N, "elements to reduce; default 256"}, {WF_DATA, "the input pattern; default random-float"},
    {WF_SEED, "seed of the random patterns; default 42"}, {WF_BLOCKS_TRACED, "blocks recorded in each pass; default 4"}}};
static const ws_flag_group g_lesson_list = {"flags", 2, {USE(WF_DIR), {WF_LANG, "en | zh: the titles in one language (default: both)"}}};
static const ws_flag_group g_lesson_print = {"flags", 1, {USE(WF_LANG)}};
static const ws_flag_group g_exercise_list = {"flags", 1, {{WF_LANG, "en | zh: the titles in one language (default: English)"}}};
static const ws_flag_group g_exercise_start = {"flags", 1,
    {{WF_DIR, "the folder your copy of the starting file goes in; default $XDG_DATA_HOME/warpscope/exercises (~/.local/share/...)"}}};
static const ws_flag_group g_exercise_check = {"flags", 2, {{WF_JSON, "one JSON object: each file's goals, values and whether they are met"},
    USE(WF_UNSAFE)}};
static const ws_flag_group g_web = {"flags", 1, {{WF_OUT, "the folder the page's data goes into (warpscope.pack, warpscope.rest.pack)"}}};
static const ws_flag_group g_serve = {"serve flags", 13, {USE(WF_PORT), USE(WF_BIND), USE(WF_STATE), USE(WF_TOKEN), USE(WF_TOKEN_FILE),
    {WF_WORKERS, "learners' files built and run at once; default one per core (8 more per worker wait, then 429)"}, USE(WF_DB), USE(WF_RUN_LIMIT),
    USE(WF_LTI), USE(WF_LTI_KEY), USE(WF_GPU), USE(WF_GPU_LIMIT), USE(WF_GPU_QUEUE)}};
static const ws_flag_group g_grades = {"flags", 4, {{WF_STATE, "the class record's folder (DIR/class.db), as serve --state names it"},
    {WF_DB, "the class record in PostgreSQL (postgres://USER@HOST/DB), as serve --db names it"}, USE(WF_CLASS),
    {WF_OUT, "the CSV file; default the standard output"}}};
static const ws_flag_group g_help = {"flags", 3, {USE(WF_MAN), {WF_COMPLETION, "a bash completion script"}, USE(WF_MARKDOWN)}};

/* ---- the commands ---- */

const ws_command ws_commands[] = {
    {"", NULL, cmd_default, "", "the viewer on v0, a block of 256 threads (every command's default block), traced by the emulator", {NULL}, WS_OPERAND_NONE, WS_CMD_WINDOW, NULL},
    {"view", NULL, cmd_view, "(FILE | --version ID [capture flags]) [--pass P] [--block-index I] [viewer flags] [--keys K1,K2...]",
     "the viewer: a trace file, or a version captured by the emulator", {&g_capture, &g_shown, &g_viewer, &g_window, NULL},
     WS_OPERAND_TRACE, WS_CMD_WINDOW, NULL},
    {"render", NULL, cmd_render,
     "(FILE | --version ID [capture flags] | --learn LESSON | --bench FILE) [viewer flags] [--event E | --phase P | --step S] "
     "(-o OUT.png | --frames DIR)",
     "what the viewer shows, headless, as PNG", {&g_capture, &g_shown, &g_viewer, &g_render, NULL}, WS_OPERAND_TRACE, 0, NULL},
    {"learn", NULL, cmd_learn, "[LESSON] [viewer flags] [--keys K1,K2...]",
     "the lessons: a menu, or one lesson, stepped with PageDown and PageUp", {&g_viewer, &g_window, NULL}, WS_OPERAND_LESSON,
     WS_CMD_WINDOW, NULL},
    {"export", NULL, cmd_export,
     "(FILE | --version ID [capture flags] | --lesson LESSON) [viewer flags] [--from S --to S | --step S | --phase P] [--fps F] "
     "[--speed S] [--no-motion] -o OUT",
     "the viewer's steps as GIF, MP4, WebM, SVG or PNG frames", {&g_capture, &g_shown, &g_viewer, &g_export, NULL}, WS_OPERAND_TRACE,
     0, NULL},
    {"capture", NULL, cmd_capture, "--version ID [capture flags] -o FILE", "capture a version and write its trace",
     {&g_capture, &g_capture_out, NULL}, WS_OPERAND_NONE, 0, NULL},
    {"stats", NULL, cmd_stats, "(FILE | --version ID [capture flags]) [--pass P] [--block-index I] [--json] [--all-blocks]",
     "a traced block's counters phase by phase, and the result against a double-precision sum",
     {&g_capture, &g_shown, &g_stats, NULL}, WS_OPERAND_TRACE, 0, NULL},
    {"hazards", NULL, cmd_hazards, "--version ID [capture flags] [--json]",
     "the races the emulator finds, like compute-sanitizer racecheck", {&g_capture, &g_hazards, NULL}, WS_OPERAND_NONE, 0, NULL},
    {"ladder", NULL, cmd_ladder, "", "each version's counters, the whole ladder in one table (the emulator)", {NULL}, WS_OPERAND_NONE, 0, NULL},
    {"web", NULL, cmd_web, "-o DIR",
     "the page's data: lessons, themes, benchmark results and the traces the page shows, packed into DIR/warpscope.pack (what the first picture needs) and DIR/warpscope.rest.pack (cmake --build build --target web builds the page around it)",
     {&g_web, NULL}, WS_OPERAND_NONE, 0, NULL},
    {"serve", NULL, cmd_serve, "--state DIR | --db URL [--port P] [--bind ADDR] [--token T | --token-file FILE] [--workers W]",
     "the class server: the page, a learner's kernel traced and judged in the sandbox (/api/trace, /api/check), the teacher's live view (/class)",
     {&g_serve, NULL}, WS_OPERAND_NONE, 0, NULL},
    {"grades", NULL, cmd_grades, "--state DIR | --db URL [--class ID] [-o FILE.csv]",
     "a class's grades as CSV for a gradebook (Canvas's columns; Moodle maps them): a row per student, per exercise the goals met, solved, tries, last try",
     {&g_grades, NULL}, WS_OPERAND_NONE, 0, NULL},
    {"cards", NULL, cmd_cards, "", "the GPUs --card knows: SMs, and the threads, blocks, registers and shared memory one SM holds", {NULL},
     WS_OPERAND_NONE, 0, NULL},
    {"list", NULL, cmd_list, "", "the versions: id, title, summary, the names the course notes use", {NULL}, WS_OPERAND_NONE, 0, NULL},
    {"bench", NULL, cmd_bench,
     "[--sizes LIST] [--versions LIST] [--modes LIST] [--reps R] [--batch K] [--block B] [--ept E] [--device D] [--json FILE] "
     "[--csv FILE] [--kernel FILE.cu --entry CALL [--define N=V,...]]",
     "every version's plain kernels (or a kernel of your own) against CUB, Thrust and the best read kernel", {&g_bench, &g_bench_own, NULL},
     WS_OPERAND_NONE, WS_CMD_GPU, NULL},
    {"verify", NULL, cmd_verify, "[--versions LIST] [--blocks LIST] [--md FILE] | --kernel FILE.cu --entry CALL [--define N=V,...] [--n N] [--md FILE]",
     "traces from the GPU against the emulator's, warp by warp: the versions', or a kernel of your own",
     {&g_verify, &g_verify_own, NULL}, WS_OPERAND_NONE, WS_CMD_GPU, NULL},
    {"lesson", "list", cmd_lesson_list, "[--dir DIR] [--lang en|zh]", "the lessons, with your progress", {&g_lesson_list, NULL}, WS_OPERAND_NONE, 0,
     "subcommand"},
    {"lesson", "print", cmd_lesson_print, "LESSON [--lang en|zh]", "a lesson as text (a file, or a number or name of warpscope's own): narration, questions and answers filled in",
     {&g_lesson_print, NULL}, WS_OPERAND_FILE, 0, "subcommand"},
    {"lesson", "check", cmd_lesson_check, "FILE...", "validate lessons: schema, both languages, every query on its trace", {NULL},
     WS_OPERAND_FILES, 0, "subcommand"},
    {"exercise", "list", cmd_exercise_list, "[--lang en|zh]", "the exercises: write the next rung yourself, judged on the trace; with what you solved",
     {&g_exercise_list, NULL}, WS_OPERAND_NONE, 0, "subcommand"},
    {"exercise", "start", cmd_exercise_start, "EXERCISE [--dir DIR] [viewer flags] [--keys K1,K2...]",
     "your copy of an exercise's starting file, in the window with its checklist, judged again at every save",
     {&g_exercise_start, &g_viewer, &g_window, NULL}, WS_OPERAND_FILE, WS_CMD_WINDOW, "subcommand"},
    {"exercise", "check", cmd_exercise_check, "EXERCISE FILE... [--json]",
     "judge kernel files against an exercise's goals: a checklist per file; where there is a GPU, a file that meets every goal of the trace is timed on it (its speed under the checklist, and the card's goal judged); exit 0 when every file meets every goal, 1 when not, 2 when a file could not be judged (it does not build or did not run: said apart from the goals)",
     {&g_exercise_check, NULL}, WS_OPERAND_FILES, 0, "subcommand"},
    {"perf", "capture", cmd_perf_capture, "", "benchmark: capture time and trace size per version, and the whole grid", {NULL},
     WS_OPERAND_NONE, 0, "benchmark"},
    {"perf", "kernel", cmd_perf_kernel, "", "benchmark: a kernel of your own, compiled cold and from the cache, and traced", {NULL},
     WS_OPERAND_NONE, 0, "benchmark"},
    {"perf", "draw", cmd_perf_draw, "", "benchmark: the viewer's frame time", {NULL}, WS_OPERAND_NONE, 0, "benchmark"},
    {"perf", "export", cmd_perf_export, "", "benchmark: a 30-step comparison written as a GIF", {NULL}, WS_OPERAND_NONE, 0, "benchmark"},
    {"help", NULL, cmd_help, "[COMMAND [SUBCOMMAND]] [--man | --completion bash | --markdown]",
     "this list; a command's flags; the man page; a completion script", {&g_help, NULL}, WS_OPERAND_COMMAND, 0, NULL},
    {"version", NULL, cmd_version, "", "the version, the commit it was built from, and whether CUDA is in the build (also --version)", {NULL},
     WS_OPERAND_NONE, 0, NULL},
};
const size_t ws_command_count = sizeof ws_commands / sizeof ws_commands[0];

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* What the help says around the tables: the program, its environment and exit codes. */
static const char program_line[] = "watch the CUDA reduction ladder run, warp by warp";
static const char *const description[] = {
    "warpscope runs the classic CUDA parallel reduction ladder (v0 to v8, and the naive one) and records, warp by warp, which lanes "
    "work and which idle, which diverge, which shared-memory banks collide and how the tree of partial sums grows. The kernels are "
    "plain CUDA; a deterministic CPU emulator runs them, so no GPU is needed; on a GPU it traces, verifies and benchmarks them.",
    "Sizes may be written 2^20. Trace files are JSON unless the name ends in .wstrace, the compact encoding. Files are written "
    "under a temporary name and renamed when complete.",
};
static const struct {
    const char *name, *text;
} environment[] = {
    {"WARPSCOPE_DATA", "the folder that holds assets/ and lessons/; by default share/warpscope beside the program's folder "
                       "(PREFIX/share/warpscope for PREFIX/bin/warpscope), or share/warpscope in a build folder"},
    {"WARPSCOPE_ASSETS", "the assets folder alone (fonts, themes, benchmark results)"},
    {"WARPSCOPE_CJK_FONT", "a font with Chinese glyphs, where fonts-wqy-microhei or fonts-noto-cjk is not installed"},
    {"XDG_STATE_HOME", "where lesson progress is kept: $XDG_STATE_HOME/warpscope/progress.json (default ~/.local/state)"},
    {"SOURCE_DATE_EPOCH", "whole seconds since 1970: the date a trace records, so that two captures are the same bytes"},
};
static const struct {
    const char *code, *text;
} exit_codes[] = {
    {"0", "success"},
    {"1", "a result further from its double-precision reference than a float tree sum may be (WRONG RESULT); the trace is still written"},
    {"2", "bad usage or bad input, with one line on stderr saying what was wrong and where"},
    {"130", "interrupted (Ctrl+C); no output file is left, whole or partial"},
};
static const char *const examples[][2] = {
    {"warpscope view --version v1 --compare v2 --block 64", "v1 beside v2: the same step, a bank conflict against none"},
    {"warpscope stats --version v2 --n 2^16 --json", "the counters of block 0 as JSON"},
    {"warpscope hazards --version v4 --schedule adversarial", "the textbook volatile tail breaks under independent threads"},
    {"warpscope export --version v1 --block 64 -o v1.gif", "every step of v1 as an animated GIF"},
    {"warpscope learn 03", "the lesson on bank conflicts"},
};

/* ---- lookups ---- */

const ws_command *commands_find(const char *name, const char *sub)
{
    if (!name || !name[0]) return NULL;
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        if (strcmp(c->name, name) != 0) continue;
        if (!c->sub || !sub || strcmp(c->sub, sub) == 0) return c;
    }
    return NULL;
}

int commands_takes(const ws_command *c, ws_flag f)
{
    for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
        for (size_t k = 0; k < c->groups[g]->n; k++)
            if (c->groups[g]->use[k].flag == f) return 1;
    return 0;
}

const char *commands_title(const ws_command *c, char *out, size_t outlen)
{
    snprintf(out, outlen, "warpscope%s%s%s%s", c->name[0] ? " " : "", c->name, c->sub ? " " : "", c->sub ? c->sub : "");
    return out;
}

size_t commands_taking(const char *flag, const ws_command *c, char *out, size_t outlen)
{
    size_t k = 0, len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *o = &ws_commands[i];
        if (o == c) continue;
        int takes = 0;
        for (size_t g = 0; g < WS_CMD_GROUPS && o->groups[g] && !takes; g++)
            for (size_t u = 0; u < o->groups[g]->n && !takes; u++)
                takes = strcmp(ws_flags[o->groups[g]->use[u].flag].spec.name, flag) == 0;
        if (!takes) continue;
        char title[64];
        int wrote = snprintf(out + len, outlen - len, "%s%s", k ? ", " : "", commands_title(o, title, sizeof title));
        if (wrote < 0 || (size_t)wrote >= outlen - len) break;
        len += (size_t)wrote;
        k++;
    }
    return k;
}

size_t commands_suggest(const char *word, const char *sub_of, char *out, size_t outlen)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < ws_command_count && n < COUNT(names); i++) {
        const ws_command *c = &ws_commands[i];
        const char *nm = sub_of ? (c->sub && strcmp(c->name, sub_of) == 0 ? c->sub : NULL) : c->name;
        if (nm && nm[0]) names[n++] = nm;
    }
    return words_suggest(word, names, n, out, outlen);
}

/* ---- help ---- */

enum { HELP_COLUMN = 26 }; /* where a flag's help starts */

static const char *needs(const ws_command *c)
{
    return c->flags & WS_CMD_WINDOW ? " (needs a display)" : c->flags & WS_CMD_GPU ? " (needs a CUDA GPU)" : "";
}

/* "--block B", or "--json" */
static const char *flag_words(ws_flag f, char *out, size_t outlen)
{
    const ws_flag_row *r = &ws_flags[f];
    snprintf(out, outlen, "%s%s%s", r->spec.name, r->arg ? " " : "", r->arg ? r->arg : "");
    return out;
}

static const char *use_help(const ws_flag_use *u) { return u->help ? u->help : ws_flags[u->flag].help; }

static void print_flag_line(FILE *out, const char *left, const char *help)
{
    int w = (int)strlen(left) + 2;
    if (w >= HELP_COLUMN) fprintf(out, "  %s\n%*s%s\n", left, HELP_COLUMN, "", help);
    else fprintf(out, "  %s%*s%s\n", left, HELP_COLUMN - w, "", help);
}

void commands_print_list(FILE *out)
{
    fprintf(out, "warpscope %s: %s\n\nusage: warpscope [COMMAND [FLAGS]]\n\n", ws_version, program_line);
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        char name[48];
        snprintf(name, sizeof name, "%s%s%s", c->name[0] ? c->name : "(no command)", c->sub ? " " : "", c->sub ? c->sub : "");
        fprintf(out, "  %-16s%s%s\n", name, c->summary, needs(c));
    }
    fprintf(out, "\nwarpscope help COMMAND (or warpscope COMMAND --help) lists a command's flags; warpscope help --man prints the\n"
                 "manual; warpscope --version says which build this is.\n");
}

static void print_one(FILE *out, const ws_command *c, int with_usage_line)
{
    char title[64];
    if (with_usage_line) fprintf(out, "usage: %s%s%s\n\n", commands_title(c, title, sizeof title), c->synopsis[0] ? " " : "", c->synopsis);
    /* the summary as a sentence */
    fprintf(out, "%c%s%s.\n", c->summary[0] >= 'a' && c->summary[0] <= 'z' ? c->summary[0] - 'a' + 'A' : c->summary[0], c->summary + 1, needs(c));
    for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++) {
        const ws_flag_group *gr = c->groups[g];
        fprintf(out, "\n%s:\n", gr->title);
        for (size_t k = 0; k < gr->n; k++) {
            char left[64];
            print_flag_line(out, flag_words(gr->use[k].flag, left, sizeof left), use_help(&gr->use[k]));
        }
    }
}

void commands_print_help(FILE *out, const ws_command *c, int whole)
{
    char title[64];
    if (!c->sub || !whole) {
        print_one(out, c, 1);
        fprintf(out, "\n");
        print_flag_line(out, "-h, --help", "this help");
        return;
    }
    /* a command with subcommands: each of them */
    const char *sep = "usage:";
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *s = &ws_commands[i];
        if (strcmp(s->name, c->name) != 0) continue;
        fprintf(out, "%s %s%s%s\n", sep, commands_title(s, title, sizeof title), s->synopsis[0] ? " " : "", s->synopsis);
        sep = "      ";
    }
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *s = &ws_commands[i];
        if (strcmp(s->name, c->name) != 0) continue;
        fprintf(out, "\n%s: ", commands_title(s, title, sizeof title));
        print_one(out, s, 0);
    }
    fprintf(out, "\n");
    print_flag_line(out, "-h, --help", "this help");
}

/* ---- docs/reference.md's list ---- */

void commands_print_markdown(FILE *out)
{
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        char title[64];
        fprintf(out, "- `%s%s%s`: %s%s\n", commands_title(c, title, sizeof title), c->synopsis[0] ? " " : "", c->synopsis, c->summary, needs(c));
    }
}

/* ---- the man page ---- */

/* Text as roff reads it: backslashes and hyphens escaped (a hyphen in a flag must stay a plain
 * minus when copied from the page), a leading dot or quote kept from being a request. */
static void roff(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'') fputs("\\&", out);
    for (; *s; s++) {
        if (*s == '\\') fputs("\\e", out);
        else if (*s == '-') fputs("\\-", out);
        else fputc(*s, out);
    }
}

/* a summary as a sentence: its first letter capital */
static void roff_sentence(FILE *out, const char *s)
{
    if (*s >= 'a' && *s <= 'z') {
        fputc(*s - 'a' + 'A', out);
        s++;
    }
    roff(out, s);
}

static void roff_flag(FILE *out, const ws_flag_use *u)
{
    const ws_flag_row *r = &ws_flags[u->flag];
    fputs(".TP\n\\fB", out);
    roff(out, r->spec.name);
    fputs("\\fR", out);
    if (r->arg) {
        fputs(" \\fI", out);
        roff(out, r->arg);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    roff(out, use_help(u));
    fputc('\n', out);
}

/* the groups more than one command takes get a section of their own */
static int shared_group(const ws_flag_group *g)
{
    int n = 0;
    for (size_t i = 0; i < ws_command_count; i++)
        for (size_t k = 0; k < WS_CMD_GROUPS && ws_commands[i].groups[k]; k++) n += ws_commands[i].groups[k] == g;
    return n > 1;
}

static void roff_upper(FILE *out, const char *s)
{
    for (; *s; s++) fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s, out);
}

/* a command's name, then (when it has one) its synopsis, each followed by what is given */
static void roff_synopsis(FILE *out, const ws_command *c, const char *after_name, const char *after_synopsis)
{
    char title[64];
    roff(out, commands_title(c, title, sizeof title));
    fputs(after_name, out);
    if (c->synopsis[0]) roff(out, c->synopsis);
    fputs(after_synopsis, out);
}

void commands_print_man(FILE *out)
{
    char title[64];
    fprintf(out, ".\\\" generated by `warpscope help --man` from the command table (app/commands.c)\n");
    fprintf(out, ".TH WARPSCOPE 1 \"\" \"warpscope %s\" \"User Commands\"\n.SH NAME\nwarpscope \\- ", ws_version);
    roff(out, program_line);
    fputs("\n.SH SYNOPSIS\n", out);
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        fputs(".B ", out);
        roff_synopsis(out, c, "\n", c->synopsis[0] ? "\n.br\n" : ".br\n");
    }
    fputs(".SH DESCRIPTION\n", out);
    for (size_t i = 0; i < COUNT(description); i++) {
        if (i) fputs(".PP\n", out);
        roff(out, description[i]);
        fputc('\n', out);
    }
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        fputs(".SS \"", out);
        roff(out, commands_title(c, title, sizeof title));
        fputs("\"\n", out);
        if (c->synopsis[0]) {
            fputs("\\fB", out);
            roff_synopsis(out, c, "\\fR ", "\n.br\n");
        }
        roff_sentence(out, c->summary);
        roff(out, needs(c));
        fputs(".\n", out);
        /* the groups several commands share are sections of their own: named here */
        size_t nshared = 0, k = 0;
        for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++) nshared += (size_t)shared_group(c->groups[g]);
        for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++) {
            if (!shared_group(c->groups[g])) continue;
            fputs(k == 0 ? ".PP\nFlags: see " : k + 1 == nshared ? " and " : ", ", out);
            roff_upper(out, c->groups[g]->title);
            if (++k == nshared) fputs(" below.\n", out);
        }
        for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
            if (!shared_group(c->groups[g]))
                for (size_t u = 0; u < c->groups[g]->n; u++) roff_flag(out, &c->groups[g]->use[u]);
    }
    /* the shared groups, each once, in the order the commands first name them */
    const ws_flag_group *done[16];
    size_t ndone = 0;
    for (size_t i = 0; i < ws_command_count; i++)
        for (size_t g = 0; g < WS_CMD_GROUPS && ws_commands[i].groups[g]; g++) {
            const ws_flag_group *gr = ws_commands[i].groups[g];
            int seen = 0;
            for (size_t d = 0; d < ndone; d++) seen |= done[d] == gr;
            if (seen || !shared_group(gr) || ndone == COUNT(done)) continue;
            done[ndone++] = gr;
            fputs(".SH \"", out);
            roff_upper(out, gr->title);
            fputs("\"\n", out);
            for (size_t k = 0; k < gr->n; k++) roff_flag(out, &gr->use[k]);
        }
    fputs(".SH VERSIONS\nThe rungs of the ladder, by id (every command also takes the aliases that \\fBwarpscope list\\fR prints):\n", out);
    for (size_t i = 0; i < ladder_count; i++) {
        fputs(".TP\n\\fB", out);
        roff(out, ladder_versions[i].id);
        fputs("\\fR\n", out);
        roff(out, ladder_versions[i].title);
        fputs(": ", out);
        roff(out, ladder_versions[i].summary);
        fputc('\n', out);
    }
    fputs(".SH ENVIRONMENT\n", out);
    for (size_t i = 0; i < COUNT(environment); i++) {
        fprintf(out, ".TP\n.B %s\n", environment[i].name);
        roff(out, environment[i].text);
        fputc('\n', out);
    }
    fputs(".SH FILES\n.TP\n.I PREFIX/share/warpscope/assets\nfonts (with their licence), themes, benchmark results measured on an H100 "
          "and an H200\n.TP\n.I PREFIX/share/warpscope/lessons\nthe lessons, in English and Chinese\n.SH \"EXIT STATUS\"\n",
          out);
    for (size_t i = 0; i < COUNT(exit_codes); i++) {
        fprintf(out, ".TP\n.B %s\n", exit_codes[i].code);
        roff(out, exit_codes[i].text);
        fputc('\n', out);
    }
    fputs(".SH EXAMPLES\n", out);
    for (size_t i = 0; i < COUNT(examples); i++) {
        fputs(".TP\n.B ", out);
        roff(out, examples[i][0]);
        fputc('\n', out);
        roff(out, examples[i][1]);
        fputc('\n', out);
    }
    fputs(".SH \"SEE ALSO\"\n.BR compute-sanitizer (1),\n.BR ncu (1);\nthe reference guide, docs/reference.md in the source, and \\fBwarpscope help\\fR.\n", out);
}

/* ---- bash completion ---- */

/* the values of one flag or operand, as bash code that fills COMPREPLY from $cur */
static void bash_values(FILE *out, ws_complete how, const char *words)
{
    switch (how) {
    case WS_COMPLETE_FILE: fputs("_warpscope_files", out); break;
    case WS_COMPLETE_DIR: fputs("_warpscope_dirs", out); break;
    case WS_COMPLETE_VERSION: fputs("_warpscope_words \"$versions\"", out); break;
    case WS_COMPLETE_VERSIONS: fputs("_warpscope_list \"$versions\"", out); break;
    case WS_COMPLETE_WORDS: fprintf(out, "_warpscope_words \"%s\"", words ? words : ""); break;
    case WS_COMPLETE_CARD: fputs("_warpscope_words \"$cards\"", out); break;
    case WS_COMPLETE_COMMAND: fputs("_warpscope_words \"$commands\"", out); break;
    case WS_COMPLETE_NONE: fputs("COMPREPLY=()", out); break;
    }
}

static ws_complete operand_completion(ws_operand o)
{
    switch (o) {
    case WS_OPERAND_TRACE:
    case WS_OPERAND_LESSON:
    case WS_OPERAND_FILE:
    case WS_OPERAND_FILES: return WS_COMPLETE_FILE;
    case WS_OPERAND_COMMAND: return WS_COMPLETE_COMMAND;
    case WS_OPERAND_NONE: break;
    }
    return WS_COMPLETE_NONE;
}

static void bash_command(FILE *out, const ws_command *c)
{
    fprintf(out, "    \"%s%s%s\")\n        case \"$prev\" in\n", c->name, c->sub ? " " : "", c->sub ? c->sub : "");
    for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
        for (size_t k = 0; k < c->groups[g]->n; k++) {
            const ws_flag_row *r = &ws_flags[c->groups[g]->use[k].flag];
            if (r->spec.kind == CLI_SWITCH) continue;
            fprintf(out, "        %s) ", r->spec.name);
            bash_values(out, r->complete, r->words);
            fputs("; return ;;\n", out);
        }
    fputs("        esac\n        flags=\"--help", out);
    for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
        for (size_t k = 0; k < c->groups[g]->n; k++) fprintf(out, " %s", ws_flags[c->groups[g]->use[k].flag].spec.name);
    static const char *const operand_names[] = {[WS_COMPLETE_NONE] = "none", [WS_COMPLETE_FILE] = "file", [WS_COMPLETE_DIR] = "dir",
                                                [WS_COMPLETE_VERSION] = "none", [WS_COMPLETE_VERSIONS] = "none",
                                                [WS_COMPLETE_WORDS] = "none", [WS_COMPLETE_CARD] = "none",
                                                [WS_COMPLETE_COMMAND] = "command"};
    fprintf(out, "\"\n        operand=%s\n        ;;\n", operand_names[operand_completion(c->operand)]);
}

int commands_print_completion(FILE *out, const char *shell)
{
    if (strcmp(shell, "bash") != 0) return -1;
    fprintf(out, "# bash completion for warpscope %s, generated by `warpscope help --completion bash` from its command table\n", ws_version);
    fputs("_warpscope_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")); }\n"
          "_warpscope_files() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); }\n"
          "_warpscope_dirs() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")); }\n"
          "# a comma-separated list: complete the item after the last comma\n"
          "_warpscope_list() {\n"
          "    local pre=\"\" item=\"$cur\"\n"
          "    if [[ $cur == *,* ]]; then pre=\"${cur%,*},\"; item=\"${cur##*,}\"; fi\n"
          "    COMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"$item\"))\n"
          "    compopt -o nospace 2>/dev/null\n"
          "}\n"
          "_warpscope() {\n"
          "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n",
          out);
    fputs("    local versions=\"", out);
    for (size_t i = 0; i < ladder_count; i++) fprintf(out, "%s%s", i ? " " : "", ladder_versions[i].id);
    fputs("\"\n    local cards=\"", out);
    for (size_t i = 0; i < ncards; i++) fprintf(out, "%s%s", i ? " " : "", cards[i].id);
    fputs("\"\n    local commands=\"", out);
    int first = 1;
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        if (!c->name[0] || (i && strcmp(ws_commands[i - 1].name, c->name) == 0)) continue;
        fprintf(out, "%s%s", first ? "" : " ", c->name);
        first = 0;
    }
    fputs("\"\n    local subs=\"\"\n    case \"${COMP_WORDS[1]}\" in\n", out);
    for (size_t i = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        if (!c->sub || (i && strcmp(ws_commands[i - 1].name, c->name) == 0)) continue;
        fprintf(out, "    %s) subs=\"", c->name);
        for (size_t j = i; j < ws_command_count && strcmp(ws_commands[j].name, c->name) == 0; j++)
            fprintf(out, "%s%s", j > i ? " " : "", ws_commands[j].sub);
        fputs("\" ;;\n", out);
    }
    fputs("    esac\n"
          "    if [[ $COMP_CWORD -eq 1 ]]; then _warpscope_words \"$commands --help --version\"; return; fi\n"
          "    local cmd=\"${COMP_WORDS[1]}\"\n"
          "    if [[ -n $subs ]]; then\n"
          "        if [[ $COMP_CWORD -eq 2 ]]; then _warpscope_words \"$subs\"; return; fi\n"
          "        cmd=\"$cmd ${COMP_WORDS[2]}\"\n"
          "    fi\n"
          "    local flags=\"\" operand=none\n"
          "    case \"$cmd\" in\n",
          out);
    for (size_t i = 0; i < ws_command_count; i++)
        if (ws_commands[i].name[0]) bash_command(out, &ws_commands[i]);
    fputs("    *) return ;;\n"
          "    esac\n"
          "    if [[ $cur == -* ]]; then _warpscope_words \"$flags\"; return; fi\n"
          "    case $operand in\n"
          "    file) _warpscope_files ;;\n"
          "    dir) _warpscope_dirs ;;\n"
          "    command) _warpscope_words \"$commands\" ;;\n"
          "    *) COMPREPLY=() ;;\n"
          "    esac\n"
          "}\n"
          "complete -F _warpscope warpscope\n",
          out);
    return 0;
}

/* ---- the version ---- */

void commands_print_version(FILE *out)
{
    fprintf(out, "warpscope %s\ncommit %s\n", ws_version, ws_commit);
    if (ws_cuda) fprintf(out, "CUDA: in this build (nvcc %s, architectures %s; the runtime linked statically)\n", ws_cuda_version, ws_cuda_archs);
    else fprintf(out, "CUDA: not in this build (the emulator only: bench, verify and --backend gpu need a build with nvcc)\n");
    char sandbox[400];
    sandbox_describe(sandbox, sizeof sandbox);
    fprintf(out, "sandbox for a learner's file: %s\n", sandbox);
}
