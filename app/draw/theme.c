/* theme: see theme.h. Every colour key is required and must be "#RRGGBB" exactly; the name, when
 * given, at most 15 bytes; other keys ("comment") are ignored. Read through the JSON helpers the
 * trace readers use: a size cap, a strict syntax check with the position, out of memory said so. */
#include "app/draw/theme.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/json_internal.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "#RRGGBB": exactly six hex digits (sscanf's %x would take "#12345G" as 0x12345) */
static int parse_colour(const char *s, dl_colour *c)
{
    if (!s || s[0] != '#' || strlen(s) != 7) return -1;
    int v[6];
    for (int i = 0; i < 6; i++)
        if ((v[i] = hexval(s[1 + i])) < 0) return -1;
    *c = (dl_colour){(uint8_t)(v[0] * 16 + v[1]), (uint8_t)(v[2] * 16 + v[3]), (uint8_t)(v[4] * 16 + v[5]), 255};
    return 0;
}

int theme_parse(theme *th, const char *text, size_t len, char *err, size_t errlen)
{
    memset(th, 0, sizeof *th);
    cJSON *root = json_parse_at(text, len, err, errlen);
    if (!root) return -1;
    static const struct { const char *key; size_t off; } keys[] = {
#define THEME_X_KEY(name) {#name, offsetof(theme, name)},
        THEME_COLOURS(THEME_X_KEY)
#undef THEME_X_KEY
    };
    int rc = -1;
    if (!cJSON_IsObject(root)) { snprintf(err, errlen, "top level: expected an object"); goto out; }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (name && (!cJSON_IsString(name) || strlen(name->valuestring) >= sizeof th->name)) {
        snprintf(err, errlen, "name: expected a string of at most %zu bytes", sizeof th->name - 1);
        goto out;
    }
    snprintf(th->name, sizeof th->name, "%s", name ? name->valuestring : "theme");
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, keys[i].key);
        if (!cJSON_IsString(it) || parse_colour(it->valuestring, (dl_colour *)((char *)th + keys[i].off))) {
            snprintf(err, errlen, "%s: expected a colour \"#RRGGBB\" (six hex digits)%s", keys[i].key, it ? "" : ", the key is missing");
            goto out;
        }
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int theme_load(theme *th, const char *path, char *err, size_t errlen)
{
    memset(th, 0, sizeof *th);
    char *text;
    size_t len;
    if (json_read_file(path, THEME_FILE_BYTES_MAX, &text, &len, err, errlen)) return -1;
    char msg[256];
    int rc = theme_parse(th, text, len, msg, sizeof msg);
    free(text);
    if (rc) snprintf(err, errlen, "%s:%s%s", path, msg[0] >= '0' && msg[0] <= '9' ? "" : " ", msg);
    return rc;
}
