/* cli: see cli.h. */
#include "app/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_find(const cli_spec *specs, size_t nspecs, const char *name)
{
    for (size_t i = 0; i < nspecs; i++)
        if (strcmp(specs[i].name, name) == 0) return (int)i;
    return -1;
}

/* digits only (no sign, no spaces, no base prefixes), or 2^k as the README writes sizes */
static int number(const char *s, uint64_t *out)
{
    if (s[0] == '2' && s[1] == '^') {
        uint64_t k;
        if (number(s + 2, &k) || k > 63) return -1;
        *out = (uint64_t)1 << k;
        return 0;
    }
    if (!*s) return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno) return -1;
    *out = v;
    return 0;
}

int cli_scan(const cli_spec *specs, size_t nspecs, int argc, char **argv, cli_value *values, const char **pos, size_t maxpos,
             size_t *npos, int *unknown, char *err, size_t errlen)
{
    memset(values, 0, nspecs * sizeof *values);
    *npos = 0;
    if (unknown) *unknown = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            if (*npos >= maxpos) { snprintf(err, errlen, "unexpected argument \"%s\"", a); return -1; }
            pos[(*npos)++] = a;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
        int k = -1;
        for (size_t j = 0; j < nspecs && k < 0; j++)
            if (strlen(specs[j].name) == nlen && strncmp(specs[j].name, a, nlen) == 0) k = (int)j;
        if (k < 0) {
            char name[128], near[256];
            const char *names[256];
            size_t n = nspecs < 256 ? nspecs : 256;
            snprintf(name, sizeof name, "%.*s", (int)nlen, a);
            for (size_t j = 0; j < n; j++) names[j] = specs[j].name;
            if (cli_suggest(name, names, n, near, sizeof near)) snprintf(err, errlen, "unknown flag \"%s\"; did you mean %s?", name, near);
            else snprintf(err, errlen, "unknown flag \"%s\"", name);
            if (unknown) *unknown = i;
            return -1;
        }
        const cli_spec *sp = &specs[k];
        cli_value *v = &values[k];
        if (sp->kind == CLI_SWITCH) {
            if (eq) { snprintf(err, errlen, "%s takes no value", sp->name); return -1; }
            v->given = 1;
            continue;
        }
        const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!val) { snprintf(err, errlen, "%s needs %s", sp->name, sp->what ? sp->what : "a value"); return -1; }
        v->given = 1;
        v->text = val;
        if (sp->kind == CLI_NUMBER && (number(val, &v->num) || v->num < sp->lo || v->num > sp->hi)) {
            snprintf(err, errlen, "%s expects a whole number from %" PRIu64 " to %" PRIu64 ", got \"%s\"", sp->name, sp->lo, sp->hi, val);
            return -1;
        }
    }
    return 0;
}

/* ---- did you mean ---- */

enum { WORD_MAX = 64 }; /* longer words are never typos of a flag or a command */

size_t cli_distance(const char *a, const char *b)
{
    while (*a == '-') a++;
    while (*b == '-') b++;
    size_t la = strlen(a), lb = strlen(b);
    if (la > WORD_MAX || lb > WORD_MAX) return la > lb ? la : lb;
    /* three rows of the dynamic programme: two back (for swaps), the last, this one */
    size_t rows[3][WORD_MAX + 1];
    size_t *pp = rows[0], *p = rows[1], *c = rows[2];
    for (size_t j = 0; j <= lb; j++) p[j] = j;
    for (size_t i = 1; i <= la; i++) {
        c[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t d = p[j] + 1;                              /* delete */
            if (c[j - 1] + 1 < d) d = c[j - 1] + 1;           /* insert */
            if (p[j - 1] + cost < d) d = p[j - 1] + cost;     /* substitute */
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < d) d = pp[j - 2] + 1; /* swap */
            c[j] = d;
        }
        size_t *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[lb];
}

size_t cli_suggest(const char *word, const char *const *names, size_t n, char *out, size_t outlen)
{
    const char *w = word;
    while (*w == '-') w++;
    size_t lw = strlen(w), best = (size_t)-1;
    out[0] = '\0';
    if (!lw || lw > WORD_MAX) return 0;
    /* a typo: one edit in a word of up to four letters, two in a longer one; or the start of a name */
    size_t limit = lw <= 4 ? 1 : 2;
    for (size_t i = 0; i < n; i++) {
        const char *m = names[i];
        while (*m == '-') m++;
        size_t d = cli_distance(w, m);
        if (lw >= 3 && strncmp(m, w, lw) == 0 && d > 1) d = 1; /* "--work" for "--workers" */
        if (d <= limit && d < best) best = d;
    }
    if (best == (size_t)-1) return 0;
    size_t k = 0, len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *m = names[i];
        while (*m == '-') m++;
        size_t d = cli_distance(w, m);
        if (lw >= 3 && strncmp(m, w, lw) == 0 && d > 1) d = 1;
        if (d != best) continue;
        int dup = 0; /* a name listed twice (two rows of one command) is said once */
        for (size_t j = 0; j < i && !dup; j++) dup = strcmp(names[j], names[i]) == 0;
        if (dup || k == 3) continue;
        int wrote = snprintf(out + len, outlen - len, "%s\"%s\"", k ? " or " : "", names[i]);
        if (wrote < 0 || (size_t)wrote >= outlen - len) break;
        len += (size_t)wrote;
        k++;
    }
    return k;
}
