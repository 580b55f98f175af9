/* json_internal: what the trace, results and theme readers share (not part of the public API).
 *
 * Every file is first checked by json_check, a strict JSON syntax checker that builds nothing and
 * keeps its own nesting stack (so hostile nesting cannot overflow the C stack). Only text it
 * accepted goes to cJSON, so when cJSON then fails the cause is memory, and it is reported so,
 * never as a syntax error at some line. */
#ifndef WARPSCOPE_JSON_INTERNAL_H
#define WARPSCOPE_JSON_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

enum {
    JSON_DEPTH_MAX = 512,  /* cJSON refuses deeper than 1000 (CJSON_NESTING_LIMIT) */
    JSON_NUMBER_MAX = 63   /* cJSON copies a number into a 64-byte buffer before strtod */
};

/* 0 when text[0..len) is exactly one JSON value (whitespace around it allowed); else -1 with
 * *off the byte where it went wrong and *why a short reason ("expected a value"). */
int json_check(const char *text, size_t len, size_t *off, const char **why);

/* "line:column: JSON syntax error: why" (or "... (the file ends too soon)") for offset off. */
void json_syntax_error(const char *text, size_t len, size_t off, const char *why, char *err, size_t errlen);

/* Parses len bytes (need not end in NUL); NULL with "line:column: ..." in err when the text is
 * not JSON, or "out of memory ..." when it is but could not be held. The caller frees the tree
 * with cJSON_Delete. */
cJSON *json_parse_at(const char *text, size_t len, char *err, size_t errlen);

/* Reads a whole regular file of at most max bytes into a malloc'd NUL-terminated buffer, opened
 * through infile (a FIFO, device or folder is refused by name, never waited on); a NUL byte in it
 * is refused at once (JSON is text). 0, or -1 with "path: ..." in err. */
int json_read_file(const char *path, size_t max, char **text, size_t *len, char *err, size_t errlen);

#endif
