/* words: "did you mean": how far apart two words are, and the names closest to a mistyped one.
 * For commands and flags (app/cli.c), versions (trace/ladder.c), lessons and cards. */
#ifndef WARPSCOPE_WORDS_H
#define WARPSCOPE_WORDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How far apart two words are: insertions, deletions, substitutions and swaps of two neighbours
 * (the optimal string alignment distance), leading dashes ignored. */
size_t words_distance(const char *a, const char *b);
/* The names closest to a mistyped word ("did you mean"): close enough to be a typo (one edit in a
 * short word, two in a longer one) or a word it is the start of. Writes them quoted into out,
 * joined by " or " (`"--block"`, `"stats" or "list"`), and returns how many (0: none close, out
 * is ""). */
size_t words_suggest(const char *word, const char *const *names, size_t n, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif
#endif
