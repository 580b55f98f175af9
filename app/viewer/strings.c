/* strings: see strings.h. */
#include "app/viewer/strings.h"

#include <stdio.h>
#include <string.h>

#include "trace/trace.h"

static const char *const table[STR_COUNT][LANG_COUNT] = {
#define STR_X_ROW(id, en, zh) [id] = {en, zh},
    STR_TABLE(STR_X_ROW)
#undef STR_X_ROW
};

static const char *const codes[LANG_COUNT] = {"en", "zh"};

const char *str_get(str_lang lang, str_id id)
{
    if ((unsigned)id >= STR_COUNT) return "";
    if ((unsigned)lang >= LANG_COUNT) lang = LANG_EN;
    return table[id][lang];
}

int str_lang_parse(const char *s)
{
    for (int i = 0; i < LANG_COUNT; i++)
        if (s && strcmp(s, codes[i]) == 0) return i;
    return -1;
}

const char *str_lang_code(str_lang lang) { return (unsigned)lang < LANG_COUNT ? codes[lang] : "en"; }

static const char *const kinds[][LANG_COUNT] = {
#define STR_X_KIND(en, zh) {en, zh},
    STR_KIND_TABLE(STR_X_KIND)
#undef STR_X_KIND
};
_Static_assert(sizeof kinds / sizeof kinds[0] == TRACE_KIND_COUNT, "one learner's word per event kind");

const char *str_kind(str_lang lang, int kind)
{
    if ((unsigned)lang >= LANG_COUNT) lang = LANG_EN;
    return (unsigned)kind < TRACE_KIND_COUNT ? kinds[kind][lang] : "?";
}

static const struct {
    const char *one, *many, *zh;
} nouns[NOUN_COUNT] = {
#define STR_X_NOUN_ROW(id, one, many, zh) [id] = {one, many, zh},
    STR_NOUN_TABLE(STR_X_NOUN_ROW)
#undef STR_X_NOUN_ROW
};

const char *str_count(str_lang lang, str_noun noun, unsigned long long n, char *buf, unsigned long len)
{
    if ((unsigned)noun >= NOUN_COUNT || !len) return len ? (buf[0] = '\0', buf) : buf;
    if (lang == LANG_ZH) snprintf(buf, len, "%llu %s", n, nouns[noun].zh);
    else snprintf(buf, len, "%llu %s", n, n == 1 ? nouns[noun].one : nouns[noun].many);
    return buf;
}
