/* The theme reader: the shipped themes read back with their colours; a colour must be exactly
 * "#" and six hex digits ("#12345G" once read as 0x12345); a valid theme longer than 8 KB (a
 * long comment) is read whole; each rejection names the key. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "app/draw/theme.h"

static char *file_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) return NULL;
    char *r = malloc(strlen(text) + strlen(to) + 1);
    memcpy(r, text, (size_t)(at - text));
    strcpy(r + (at - text), to);
    strcat(r, at + strlen(from));
    return r;
}

static void expect_bad(const char *text, const char *want)
{
    theme th;
    char err[256] = "";
    CHECK(text && theme_parse(&th, text, strlen(text), err, sizeof err) == -1, "accepted");
    CHECK(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
}

int main(void)
{
    theme th;
    char err[256];
    CHECK(theme_load(&th, WS_ASSETS "/themes/light.json", err, sizeof err) == 0, "%s", err);
    /* "working": "#009E73" in the file: Okabe-Ito's bluish green */
    CHECK(!strcmp(th.name, "light") && th.working.r == 0x00 && th.working.g == 0x9E && th.working.b == 0x73, "light: %s", th.name);
    CHECK(theme_load(&th, WS_ASSETS "/themes/dark.json", err, sizeof err) == 0, "%s", err);
    char *light = file_text(WS_ASSETS "/themes/light.json");
    CHECK(light != NULL, "cannot read light.json");
    if (!light) CHECK_DONE("theme_reader");

    char *bad = replaced(light, "\"#009E73\"", "\"#12345G\"");
    expect_bad(bad, "working: expected a colour \"#RRGGBB\"");
    free(bad);
    bad = replaced(light, "\"#009E73\"", "\"#009E7\"");
    expect_bad(bad, "working: expected a colour");
    free(bad);
    bad = replaced(light, "\"#009E73\"", "\"009E73#\"");
    expect_bad(bad, "working: expected a colour");
    free(bad);
    bad = replaced(light, "\"name\": \"light\"", "\"name\": \"a name far longer than sixteen bytes\"");
    expect_bad(bad, "name: expected a string of at most 15 bytes");
    free(bad);
    bad = replaced(light, "\"accent\"", "\"accent_\"");
    expect_bad(bad, "accent: expected a colour \"#RRGGBB\" (six hex digits), the key is missing");
    free(bad);
    expect_bad("[]", "top level: expected an object");
    expect_bad("{\"name\": \"x\",", "1:14: JSON syntax error (the file ends too soon)");

    /* a valid theme over 8 KB: a 20 KB comment */
    size_t pad = 20000;
    char *comment = malloc(pad + 64);
    strcpy(comment, "\"comment\": \"");
    size_t k = strlen(comment);
    memset(comment + k, 'x', pad);
    strcpy(comment + k + pad, "\", \"name\"");
    char *long_theme = replaced(light, "\"name\"", comment);
    CHECK(long_theme && strlen(long_theme) > 8192, "test setup");
    if (long_theme) {
        CHECK(theme_parse(&th, long_theme, strlen(long_theme), err, sizeof err) == 0 && th.accent.b == 0xB2,
              "a %zu-byte theme: %s", strlen(long_theme), err);
        /* and from a file, through the same reader the viewer uses */
        const char *path = "theme_reader_long.json";
        FILE *f = fopen(path, "wb");
        if (f) {
            fputs(long_theme, f);
            fclose(f);
            CHECK(theme_load(&th, path, err, sizeof err) == 0, "a %zu-byte theme file: %s", strlen(long_theme), err);
            remove(path);
        }
    }
    CHECK(theme_load(&th, "no/such/theme.json", err, sizeof err) == -1 && strstr(err, "no/such/theme.json: cannot open"), "%s", err);
    free(long_theme);
    free(comment);
    free(light);
    CHECK_DONE("theme_reader");
}
