/* words: see words.h. */
#include "trace/words.h"

#include <stdio.h>
#include <string.h>

enum { WORD_MAX = 64 }; /* longer words are never typos of a flag or a command */

size_t words_distance(const char *a, const char *b)
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

size_t words_suggest(const char *word, const char *const *names, size_t n, char *out, size_t outlen)
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
        size_t d = words_distance(w, m);
        if (lw >= 3 && strncmp(m, w, lw) == 0 && d > 1) d = 1; /* "--work" for "--workers" */
        if (d <= limit && d < best) best = d;
    }
    if (best == (size_t)-1) return 0;
    size_t k = 0, len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *m = names[i];
        while (*m == '-') m++;
        size_t d = words_distance(w, m);
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
