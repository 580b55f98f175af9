/* json: a strict syntax check before cJSON, and the file reading the readers share (see
 * json_internal.h for why). _POSIX_C_SOURCE for fdopen under -std=c11. */
#define _POSIX_C_SOURCE 200809L
#include "trace/json_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/infile.h"
#include "trace/trace.h"

static size_t skip_ws(const char *s, size_t i, size_t len)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

/* Line and column (from 1) of a byte offset in a text: every reader's error position. */
void trace_text_position(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') { (*line)++; *col = 1; }
        else (*col)++;
    }
}

static int hex4(const char *s, size_t i, size_t len, unsigned *v)
{
    *v = 0;
    for (size_t k = 0; k < 4; k++) {
        if (i + k >= len) return -1;
        char c = s[i + k];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16) return -1;
        *v = *v * 16 + d;
    }
    return 0;
}

/* A string starting at s[i] == '"'; returns the index after the closing quote, or sets *why. */
static size_t check_string(const char *s, size_t i, size_t len, size_t *off, const char **why)
{
    for (i++; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') return i + 1;
        if (c < 0x20) { *off = i; *why = "a control character in a string (escape it)"; return 0; }
        if (c != '\\') continue;
        if (++i >= len) break;
        c = (unsigned char)s[i];
        if (c == 'u') {
            unsigned u, lo;
            if (hex4(s, i + 1, len, &u)) { *off = i; *why = "\\u needs four hex digits"; return 0; }
            i += 4;
            /* UTF-16 surrogates come in pairs (cJSON refuses anything else) */
            if (u >= 0xDC00 && u <= 0xDFFF) { *off = i - 5; *why = "a lone low surrogate"; return 0; }
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (i + 2 >= len || s[i + 1] != '\\' || s[i + 2] != 'u' || hex4(s, i + 3, len, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    { *off = i - 5; *why = "a high surrogate without its low surrogate"; return 0; }
                i += 6;
            }
        } else if (!strchr("\"\\/bfnrt", c) || c == '\0') {
            *off = i; *why = "an unknown escape in a string"; return 0;
        }
    }
    *off = len;
    *why = "the string is not closed";
    return 0;
}

static size_t check_number(const char *s, size_t i, size_t len, size_t *off, const char **why)
{
    size_t start = i;
#define DIGIT(k) ((k) < len && s[k] >= '0' && s[k] <= '9')
    if (i < len && s[i] == '-') i++;
    if (!DIGIT(i)) { *off = i; *why = "expected a digit"; return 0; }
    if (s[i] == '0') i++;
    else while (DIGIT(i)) i++;
    if (i < len && s[i] == '.') {
        i++;
        if (!DIGIT(i)) { *off = i; *why = "expected a digit after the decimal point"; return 0; }
        while (DIGIT(i)) i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) i++;
        if (!DIGIT(i)) { *off = i; *why = "expected a digit in the exponent"; return 0; }
        while (DIGIT(i)) i++;
    }
#undef DIGIT
    if (i - start > JSON_NUMBER_MAX) { *off = start; *why = "a number longer than 63 characters"; return 0; }
    return i;
}

int json_check(const char *s, size_t len, size_t *off, const char **why)
{
    char stack[JSON_DEPTH_MAX];
    int depth = 0;
    size_t i = skip_ws(s, 0, len);
    *why = NULL;
    for (;;) {
        /* a value at s[i] */
        if (i >= len) { *off = len; *why = "expected a value"; return -1; }
        char c = s[i];
        if (c == '{' || c == '[') {
            if (depth == JSON_DEPTH_MAX) { *off = i; *why = "nesting deeper than 512 levels"; return -1; }
            stack[depth++] = c;
            i = skip_ws(s, i + 1, len);
            if (i < len && s[i] == (c == '{' ? '}' : ']')) { depth--; i++; goto after_value; }
            if (c == '[') continue;
            goto key;
        } else if (c == '"') {
            if (!(i = check_string(s, i, len, off, why))) return -1;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!(i = check_number(s, i, len, off, why))) return -1;
        } else {
            static const char *const words[] = {"true", "false", "null"};
            size_t k = 0, n = 0;
            for (; k < 3; k++) {
                n = strlen(words[k]);
                if (len - i >= n && memcmp(s + i, words[k], n) == 0) break;
            }
            if (k == 3) { *off = i; *why = "expected a value"; return -1; }
            i += n;
        }
    after_value:
        i = skip_ws(s, i, len);
        if (depth == 0) {
            if (i == len) return 0;
            *off = i;
            *why = "text after the end of the JSON value";
            return -1;
        }
        if (i >= len) { *off = len; *why = "expected , or a closing bracket"; return -1; }
        if (s[i] == (stack[depth - 1] == '{' ? '}' : ']')) { depth--; i++; goto after_value; }
        if (s[i] != ',') { *off = i; *why = stack[depth - 1] == '{' ? "expected , or }" : "expected , or ]"; return -1; }
        i = skip_ws(s, i + 1, len);
        if (stack[depth - 1] == '[') continue;
    key:
        if (i >= len || s[i] != '"') { *off = i; *why = "expected a key in quotes"; return -1; }
        if (!(i = check_string(s, i, len, off, why))) return -1;
        i = skip_ws(s, i, len);
        if (i >= len || s[i] != ':') { *off = i; *why = "expected : after the key"; return -1; }
        i = skip_ws(s, i + 1, len);
    }
}

void json_syntax_error(const char *text, size_t len, size_t off, const char *why, char *err, size_t errlen)
{
    int line, col;
    trace_text_position(text, off < len ? off : len, &line, &col);
    if (off >= len) snprintf(err, errlen, "%d:%d: JSON syntax error (the file ends too soon)", line, col);
    else snprintf(err, errlen, "%d:%d: JSON syntax error: %s", line, col, why ? why : "unexpected character");
}

cJSON *json_parse_at(const char *text, size_t len, char *err, size_t errlen)
{
    size_t off;
    const char *why;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line, col;
        trace_text_position(text, (size_t)(nul - text), &line, &col);
        snprintf(err, errlen, "%d:%d: unexpected NUL byte (JSON is text)", line, col);
        return NULL;
    }
    if (json_check(text, len, &off, &why)) { json_syntax_error(text, len, off, why, err, errlen); return NULL; }
    /* cJSON needs the terminating NUL inside the length it is given */
    char *copy = malloc(len + 1);
    if (!copy) { snprintf(err, errlen, "out of memory (%zu bytes of JSON)", len); return NULL; }
    memcpy(copy, text, len);
    copy[len] = '\0';
    cJSON *root = cJSON_ParseWithLengthOpts(copy, len + 1, NULL, 0);
    free(copy);
    if (!root) snprintf(err, errlen, "out of memory while parsing %zu bytes of JSON", len);
    return root;
}

static void nul_error(const char *path, const char *buf, size_t at, char *err, size_t errlen)
{
    int line, col;
    trace_text_position(buf, at, &line, &col);
    snprintf(err, errlen, "%s:%d:%d: unexpected NUL byte (not a text file)", path, line, col);
}

int json_read_file(const char *path, size_t max, char **text, size_t *len, char *err, size_t errlen)
{
    *text = NULL;
    *len = 0;
    struct stat st;
    int fd = infile_open(path, &st, err, errlen); /* regular files only: a FIFO never blocks here */
    if (fd < 0) return -1;
    if ((uint64_t)st.st_size > max) {
        close(fd);
        snprintf(err, errlen, "%s: %lld bytes, more than the %zu MiB this reader takes", path, (long long)st.st_size, max >> 20);
        return -1;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) { snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno)); close(fd); return -1; }
    /* exact: no doubling slack for the common case; a file under /proc says 0 bytes and grows */
    size_t cap = (size_t)st.st_size + 1;
    char *buf = malloc(cap);
    size_t n = 0;
    int rc = -1;
    if (!buf) { snprintf(err, errlen, "%s: out of memory for %zu bytes", path, cap); goto out; }
    for (;;) {
        if (n + 1 == cap) { /* full: at the end, or a /proc or growing file: double, up to the cap */
            int c = fgetc(f);
            if (c == EOF) break;
            if (cap > max) { snprintf(err, errlen, "%s: more than the %zu MiB this reader takes", path, max >> 20); goto out; }
            size_t nc = cap * 2 > max + 1 ? max + 2 : cap * 2;
            char *q = realloc(buf, nc);
            if (!q) { snprintf(err, errlen, "%s: out of memory for %zu bytes", path, nc); goto out; }
            buf = q;
            cap = nc;
            buf[n++] = (char)c;
            if (c == '\0') { nul_error(path, buf, n - 1, err, errlen); goto out; }
            continue;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        const char *nul = got ? memchr(buf + n, '\0', got) : NULL;
        if (nul) { nul_error(path, buf, (size_t)(nul - buf), err, errlen); goto out; }
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) { snprintf(err, errlen, "%s: read error: %s", path, strerror(errno)); goto out; }
    if (n > max) { snprintf(err, errlen, "%s: more than the %zu MiB this reader takes", path, max >> 20); goto out; }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    buf = NULL;
    rc = 0;
out:
    free(buf);
    fclose(f);
    return rc;
}
