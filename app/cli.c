/* cli: see cli.h. */
#include "app/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/words.h"

int cli_find(const cli_spec *specs, size_t nspecs, const char *name)
{
    for (size_t i = 0; i < nspecs; i++)
        if (strcmp(specs[i].name, name) == 0) return (int)i;
    return -1;
}

/* digits only (no sign, no spaces, no base prefixes), or 2^k as docs/reference.md writes sizes */
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
            if (words_suggest(name, names, n, near, sizeof near)) snprintf(err, errlen, "unknown flag \"%s\"; did you mean %s?", name, near);
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

