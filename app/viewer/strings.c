/* strings: see strings.h. */
#include "app/viewer/strings.h"

#include <string.h>

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
