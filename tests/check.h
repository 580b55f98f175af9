/* check.h: the few assertions the tests need. A failed check prints where and why, and the test
 * exits 1 at the end; nothing here can pass without comparing something. */
#ifndef WARPSCOPE_CHECK_H
#define WARPSCOPE_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

#define CHECK_DONE(name)                                                        \
    do {                                                                        \
        if (check_failures) fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures); \
        else printf("%s: ok\n", name);                                          \
        return check_failures ? 1 : 0;                                          \
    } while (0)

#endif
