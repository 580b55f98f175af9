/* theme: see theme.h. Every colour key is required and must be "#RRGGBB". */
#include "theme.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

enum { THEME_MAX_BYTES = 1 << 20 }; /* a theme is a few hundred bytes; this only stops /dev/zero */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int parse_colour(const char *s, dl_colour *c)
{
    if (!s || s[0] != '#' || strlen(s) != 7) return -1;
    int v[6];
    for (int i = 0; i < 6; i++)
        if ((v[i] = hexval(s[1 + i])) < 0) return -1;
    *c = (dl_colour){(uint8_t)(v[0] * 16 + v[1]), (uint8_t)(v[2] * 16 + v[3]), (uint8_t)(v[4] * 16 + v[5]), 255};
    return 0;
}

int theme_load(theme *th, const char *path, char *err, size_t errlen)
{
    memset(th, 0, sizeof *th);
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "%s: cannot open theme", path); return -1; }
    char *buf = malloc(THEME_MAX_BYTES + 1);
    if (!buf) { fclose(f); snprintf(err, errlen, "%s: out of memory", path); return -1; }
    size_t n = fread(buf, 1, THEME_MAX_BYTES + 1, f);
    fclose(f);
    if (n > THEME_MAX_BYTES) { free(buf); snprintf(err, errlen, "%s: larger than %d bytes: not a theme", path, THEME_MAX_BYTES); return -1; }
    buf[n] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(buf, &end, 1);
    if (!root || !cJSON_IsObject(root)) {
        int line, col;
        trace_text_position(buf, end ? (size_t)(end - buf) : 0, &line, &col);
        snprintf(err, errlen, "%s:%d:%d: %s", path, line, col, root ? "expected a JSON object" : "JSON syntax error");
        cJSON_Delete(root);
        free(buf);
        return -1;
    }
    static const struct { const char *key; size_t off; } keys[] = {
#define THEME_X_KEY(name) {#name, offsetof(theme, name)},
        THEME_COLOURS(THEME_X_KEY)
#undef THEME_X_KEY
    };
    int rc = 0;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    snprintf(th->name, sizeof th->name, "%s", cJSON_IsString(name) ? name->valuestring : "theme");
    for (size_t i = 0; i < sizeof keys / sizeof *keys && !rc; i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, keys[i].key);
        if (!cJSON_IsString(it) || parse_colour(it->valuestring, (dl_colour *)((char *)th + keys[i].off))) {
            snprintf(err, errlen, "%s: %s: expected a colour \"#RRGGBB\"", path, keys[i].key);
            rc = -1;
        }
    }
    cJSON_Delete(root);
    free(buf);
    return rc;
}
