/* warpscope: the command line. Owns all printing and exit codes; the libraries only return a
 * status and a message. Exit 0 on success, 2 on bad usage or bad input (one line saying what and
 * where), as docs/reference.md documents. The commands and their flags are one table (app/commands.c):
 * main finds the row, answers --help from it, scans exactly the flags it lists, and calls its
 * handler below with the values. */
#define _POSIX_C_SOURCE 200809L
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


#include "app/cmd/cmd.h"

/* ---- the commands implemented elsewhere, help and version ---- */

/* --kernel for bench and verify: the capture description, or NULL without --kernel */
static const capture_desc *own_kernel(const ws_call *k, cli *c, int *rc)
{
    *rc = 0;
    if (!k->v[WF_KERNEL].given) return NULL;
    if ((*rc = read_capture(k, c))) return NULL;
    c->cap.cancel = &interrupted;
    return &c->cap;
}

int cmd_bench(const ws_call *k)
{
    cli c;
    int rc;
    const capture_desc *own = own_kernel(k, &c, &rc);
    if (rc) return rc;
    rc = bench_main(k->v, own, &interrupted);
    return interrupted ? report_interrupt("nothing written") : rc;
}

int cmd_verify(const ws_call *k)
{
    cli c;
    int rc;
    const capture_desc *own = own_kernel(k, &c, &rc);
    if (rc) return rc;
    rc = verify_main(k->v, own, &interrupted);
    return interrupted ? report_interrupt("nothing written") : rc;
}

int cmd_version(const ws_call *k)
{
    (void)k;
    commands_print_version(stdout);
    return 0;
}

/* "capture, draw or export": the subcommands of a command, from the table */
static const char *subs_of(const char *name, char *out, size_t outlen)
{
    size_t n = 0, len = 0;
    for (size_t i = 0; i < ws_command_count; i++) n += ws_commands[i].sub && !strcmp(ws_commands[i].name, name);
    out[0] = '\0';
    for (size_t i = 0, k = 0; i < ws_command_count; i++) {
        const ws_command *c = &ws_commands[i];
        if (!c->sub || strcmp(c->name, name)) continue;
        int w = snprintf(out + len, outlen - len, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", c->sub);
        if (w < 0 || (size_t)w >= outlen - len) break;
        len += (size_t)w;
        k++;
    }
    return out;
}

/* The row of NAME [SUB]: 0, or one line on stderr and 2 (with the nearest names when close). A
 * command with subcommands and none given answers its first row with *whole set. */
static int lookup(const char *name, const char *sub, const ws_command **out, int *whole)
{
    char near[256], subs[256];
    const ws_command *c = commands_find(name, NULL);
    *whole = 0;
    if (!c) {
        if (commands_suggest(name, NULL, near, sizeof near))
            fprintf(stderr, "warpscope: unknown command \"%s\"; did you mean %s? (warpscope help lists the commands)\n", name, near);
        else
            fprintf(stderr, "warpscope: unknown command \"%s\" (warpscope help lists the commands)\n", name);
        return EXIT_BAD;
    }
    if (c->sub && !sub) {
        *out = c;
        *whole = 1;
        return 0;
    }
    if (c->sub && !(c = commands_find(name, sub))) {
        const ws_command *g = commands_find(name, NULL);
        subs_of(name, subs, sizeof subs);
        size_t nn = commands_suggest(sub, name, near, sizeof near);
        fprintf(stderr, "warpscope: %s takes one %s: %s, not \"%s\"%s%s%s (warpscope help %s)\n", name, g->what, subs, sub,
                nn ? "; did you mean " : "", nn ? near : "", nn ? "?" : "", name);
        return EXIT_BAD;
    }
    *out = c;
    return 0;
}

int cmd_help(const ws_call *k)
{
    const cli_value *v = k->v;
    int asked = v[WF_MAN].given + v[WF_COMPLETION].given + v[WF_MARKDOWN].given;
    if (asked > 1 || (asked && k->npos)) return usage_error("give one of COMMAND, --man, --completion SHELL or --markdown%s%s", "", "");
    if (v[WF_MAN].given) commands_print_man(stdout);
    else if (v[WF_MARKDOWN].given) commands_print_markdown(stdout);
    else if (v[WF_COMPLETION].given && commands_print_completion(stdout, v[WF_COMPLETION].text))
        return usage_error("--completion writes a script for bash, not \"%s\"%s", v[WF_COMPLETION].text, "");
    else if (!asked && !k->npos) commands_print_list(stdout);
    else if (!asked) {
        const ws_command *c;
        int whole, rc = lookup(k->pos[0], k->npos > 1 ? k->pos[1] : NULL, &c, &whole);
        if (rc) return rc;
        if (k->npos > 1 && !c->sub) return usage_error("%s has no subcommands, got \"%s\"", k->pos[0], k->pos[1]);
        commands_print_help(stdout, c, whole);
    }
    return fflush(stdout) == 0 ? 0 : EXIT_BAD;
}

/* "unknown flag" for the command: where other commands take it, which; else the nearest of its own */
static int unknown_flag(const ws_command *c, const char *arg, const cli_spec *specs, size_t n)
{
    char name[128], title[64], others[512], near[256], line[1200];
    const char *names[WS_CMD_GROUPS * WS_GROUP_MAX];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
    commands_title(c, title, sizeof title);
    for (size_t i = 0; i < n; i++) names[i] = specs[i].name;
    int elsewhere = commands_taking(name, c, others, sizeof others) > 0, close = words_suggest(name, names, n, near, sizeof near) > 0;
    if (close && elsewhere) /* bench --version: a typo of its --versions, and a flag of other commands */
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s; did you mean %s? (%s is for %s)", name, title, near, name, others);
    else if (elsewhere)
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s: %s is for %s", name, title, name, others);
    else if (close)
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s; did you mean %s?", name, title, near);
    else
        snprintf(line, sizeof line, "unknown flag \"%s\" for %s", name, title);
    return usage_error("%s%s", line, "");
}

/* Scans exactly the flags the command's row lists, and its operands, then runs it. */
static int run(const ws_command *c, int argc, char **argv)
{
    ws_call k;
    cli_spec specs[WS_CMD_GROUPS * WS_GROUP_MAX];
    ws_flag which[WS_CMD_GROUPS * WS_GROUP_MAX];
    cli_value got[WS_CMD_GROUPS * WS_GROUP_MAX];
    size_t n = 0;
    memset(&k, 0, sizeof k);
    k.cmd = c;
    for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
        for (size_t u = 0; u < c->groups[g]->n; u++) {
            ws_flag f = c->groups[g]->use[u].flag;
            which[n] = f;
            specs[n++] = ws_flags[f].spec;
        }
    /* one more operand than allowed, to say "two input files" rather than "unexpected" */
    size_t maxpos = c->operand == WS_OPERAND_NONE ? 0 : c->operand == WS_OPERAND_FILES ? (size_t)argc : 2;
    const char **pos = calloc((size_t)argc + 1, sizeof *pos);
    if (!pos) { fprintf(stderr, "warpscope: out of memory\n"); return EXIT_BAD; }
    char why[600];
    int bad, rc = 0;
    if (cli_scan(specs, n, argc, argv, got, pos, maxpos, &k.npos, &bad, why, sizeof why)) {
        rc = bad >= 0 ? unknown_flag(c, argv[bad], specs, n) : usage_error("%s%s", why, "");
    } else if (k.npos == 2 && c->operand == WS_OPERAND_TRACE) {
        rc = usage_error("two input files given: \"%s\" and \"%s\"", pos[0], pos[1]);
    } else if (k.npos == 2 && c->operand != WS_OPERAND_FILES && c->operand != WS_OPERAND_COMMAND) {
        rc = usage_error("unexpected argument \"%s\"%s", pos[1], "");
    } else {
        for (size_t i = 0; i < n; i++) k.v[which[i]] = got[i];
        k.pos = pos;
        if (k.v[WF_UNSAFE].given) setenv("WARPSCOPE_UNSAFE", "1", 1); /* for every capture of a learner's file, however deep */
        /* the window takes Ctrl+C as SDL's quit event; everything else stops through `interrupted` */
        if (!(c->flags & WS_CMD_WINDOW)) catch_interrupts();
        rc = c->run(&k);
    }
    free(pos);
    return rc;
}

int main(int argc, char **argv)
{
    /* Large arrays (a trace's events and lanes) always get their own mapping, so that growing them
     * is a remap, not a copy; glibc would otherwise raise this threshold after the first large
     * free and copy a whole-grid trace several times while it grows. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    const ws_command *c = NULL;
    int first = 2, whole = 0, rc;
    if (argc < 2) return run(&ws_commands[0], 0, argv + 1); /* no command: the viewer on its built-in default */
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        commands_print_list(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        if (argc > 2) return usage_error("--version alone says which warpscope this is; to open a version: warpscope view --version %s%s", argv[2], "");
        commands_print_version(stdout);
        return 0;
    }
    if (argv[1][0] == '-') return usage_error("\"%s\" comes before a command: flags follow it (warpscope COMMAND [FLAGS])%s", argv[1], "");
    const char *sub = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    if ((rc = lookup(argv[1], sub, &c, &whole))) return rc;
    if (c->sub && !whole) first = 3;
    running = c;
    /* --help or -h anywhere among its arguments (not as a flag's value) */
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            commands_print_help(stdout, c, whole);
            return 0;
        }
        if (a[0] != '-' || strchr(a, '=')) continue;
        for (size_t g = 0; g < WS_CMD_GROUPS && c->groups[g]; g++)
            for (size_t u = 0; u < c->groups[g]->n; u++) {
                const cli_spec *sp = &ws_flags[c->groups[g]->use[u].flag].spec;
                if (!strcmp(sp->name, a) && sp->kind != CLI_SWITCH) i++;
            }
    }
    if (whole) { /* "perf" alone */
        char subs[256], line[512];
        snprintf(line, sizeof line, "%s takes one %s: %s", c->name, c->what, subs_of(c->name, subs, sizeof subs));
        running = NULL;
        fprintf(stderr, "warpscope: %s (warpscope help %s)\n", line, c->name);
        return EXIT_BAD;
    }
    return run(c, argc - first, argv + first);
}
