/* cli: the one argument scanner every command uses. The command table (app/commands.h) describes
 * each command's flags (name, whether it takes a value, a number's range); cli_scan reads
 * `--flag value`, `--flag=value` and positionals, checks numbers strictly (digits only, in range)
 * and reports the first problem in one line, with the nearest known flag when one is close ("did
 * you mean"). What a flag means stays with the command. */
#ifndef WARPSCOPE_CLI_H
#define WARPSCOPE_CLI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cli_kind { CLI_SWITCH, CLI_TEXT, CLI_NUMBER } cli_kind;

typedef struct cli_spec {
    const char *name;   /* "--block"; "-o" style short names too */
    cli_kind kind;
    uint64_t lo, hi;    /* CLI_NUMBER: the range (numbers may be written 2^k) */
    const char *what;   /* what the value is, for "needs ...": NULL says "a value" */
} cli_spec;

typedef struct cli_value {
    int given;
    const char *text;   /* CLI_TEXT and CLI_NUMBER: as given */
    uint64_t num;       /* CLI_NUMBER */
} cli_value;

/* values[i] answers specs[i]. Arguments not starting with '-' go to pos (at most maxpos; more is
 * an error). A flag given twice keeps the last. 0, or -1 with one line in err; when the problem is
 * a flag the table does not have, *unknown (when not NULL) is its index in argv, else -1. */
int cli_scan(const cli_spec *specs, size_t nspecs, int argc, char **argv, cli_value *values, const char **pos, size_t maxpos,
             size_t *npos, int *unknown, char *err, size_t errlen);
/* The index of a flag in a table, or -1 (for reading values by name). */
int cli_find(const cli_spec *specs, size_t nspecs, const char *name);


#ifdef __cplusplus
}
#endif
#endif
