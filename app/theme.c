/* theme: reading a colour theme (see theme.h), every key checked. */
#include "theme.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_internal.h"

/* "#RRGGBB": exactly six hex digits (sscanf's %x would take "#12345G" as 0x12345) */
static int parse_colour(const char *s, SDL_Color *c)
{
    if (!s || s[0] != '#' || strlen(s) != 7) return -1;
    unsigned v = 0;
    for (int i = 1; i < 7; i++) {
        char ch = s[i];
        unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                   : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16u;
        if (d == 16) return -1;
        v = v * 16 + d;
    }
    *c = (SDL_Color){(Uint8)(v >> 16), (Uint8)(v >> 8), (Uint8)v, 255};
    return 0;
}

int theme_parse(ui_theme *th, const char *text, size_t len, char *err, size_t errlen)
{
    memset(th, 0, sizeof *th);
    cJSON *root = json_parse_at(text, len, err, errlen);
    if (!root) return -1;
    static const struct { const char *key; size_t off; } keys[] = {
#define K(name) {#name, offsetof(ui_theme, name)}
        K(background), K(panel), K(text), K(dim), K(grid), K(working), K(idle), K(diverged), K(exited), K(barrier),
        K(read), K(write), K(conflict), K(line), K(tree), K(subtree), K(accent)
#undef K
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
        if (!cJSON_IsString(it) || parse_colour(it->valuestring, (SDL_Color *)((char *)th + keys[i].off))) {
            snprintf(err, errlen, "%s: expected a colour \"#RRGGBB\" (six hex digits)%s", keys[i].key, it ? "" : ", the key is missing");
            goto out;
        }
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int theme_load(ui_theme *th, const char *path, char *err, size_t errlen)
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
