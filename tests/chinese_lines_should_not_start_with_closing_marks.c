/* Chinese paragraphs broken into lines as the window and the page break them (app/draw/wrap.h):
 * every Chinese text of every lesson, at widths from 6 to 60 characters, with Chinese characters
 * a whole em wide and Latin ones half of it (as the UI fonts draw them). By the W3C's Chinese
 * layout rules (CLREQ), no line starts with 。，、；：？！）」』】》 (the marks listed here, not
 * the wrapper's own table), no line ends with （「『【《; a line is never wider than the width
 * unless it ends with such a hanging mark; and the lines, joined, are the paragraph (only spaces
 * at a break are dropped). A paragraph written to put 。 at a break checks that it moves. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "app/draw/wrap.h"
#include "check.h"

enum { EM = 16 };

static const char *const closing[] = {"。", "，", "、", "；", "：", "？", "！", "）", "」", "』", "】", "》"};
static const char *const ascii_closing[] = {")", "]", "}", ",", ".", ";", ":", "!", "?"};
static const char *const opening[] = {"（", "「", "『", "【", "《"};

static int advance(void *ctx, dl_font f, int px, uint32_t cp)
{
    (void)ctx, (void)f, (void)px;
    return cp >= 0x2E80 ? EM : EM / 2;
}
static int height(void *ctx, dl_font f, int px) { (void)ctx, (void)f; return px; }

static int starts_with_any(const char *s, size_t len, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(set[i]);
        if (len >= k && !memcmp(s, set[i], k)) return 1;
    }
    return 0;
}
static int ends_with_any(const char *s, size_t len, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(set[i]);
        if (len >= k && !memcmp(s + len - k, set[i], k)) return 1;
    }
    return 0;
}

static int width_of(const char *s, size_t len)
{
    int w = 0;
    const char *p = s, *end = s + len;
    while (p < end) w += advance(NULL, DL_FONT_UI, 0, dl_utf8_next(&p));
    return w;
}

static long paragraphs, lines_checked;

static void check_paragraph(const dl_list *l, const char *where, const char *text)
{
    paragraphs++;
    for (int chars = 6; chars <= 60; chars++) {
        int width = chars * EM;
        const char *starts[512];
        size_t lens[512];
        int n = dl_wrap(l, DL_FONT_UI, 16, text, width, starts, lens, 512);
        /* joined again: the text, less spaces at the breaks and newlines */
        const char *p = text;
        for (int i = 0; i < n; i++) {
            lines_checked++;
            const char *s = starts[i];
            size_t len = lens[i];
            CHECK(!starts_with_any(s, len, closing, sizeof closing / sizeof closing[0]),
                  "%s at %d em: line %d starts with a closing mark: \"%.*s\"", where, chars, i, (int)len, s);
            if (i + 1 < n)
                CHECK(!ends_with_any(s, len, opening, sizeof opening / sizeof opening[0]),
                      "%s at %d em: line %d ends with an opening mark: \"%.*s\"", where, chars, i, (int)len, s);
            int w = width_of(s, len);
            CHECK(w <= width || ends_with_any(s, len, closing, sizeof closing / sizeof closing[0]) || ends_with_any(s, len, ascii_closing, 9),
                  "%s at %d em: line %d is %d px in %d: \"%.*s\"", where, chars, i, w, width, (int)len, s);
            while (p < s && (*p == ' ' || *p == '\n')) p++;
            CHECK(p == s, "%s at %d em: line %d does not follow the one before (text lost or repeated)", where, chars, i);
            p = s + len;
        }
        while (*p == ' ' || *p == '\n') p++;
        CHECK(*p == '\0', "%s at %d em: the lines end before the text: \"%.20s\"", where, chars, p);
    }
}

static void walk(const dl_list *l, const char *file, const cJSON *j)
{
    if (cJSON_IsObject(j)) {
        const cJSON *zh = cJSON_GetObjectItemCaseSensitive(j, "zh");
        if (cJSON_IsString(zh) && zh->valuestring[0]) check_paragraph(l, file, zh->valuestring);
    }
    for (const cJSON *c = j ? j->child : NULL; c; c = c->next) walk(l, file, c);
}

int main(void)
{
    dl_list l;
    dl_init(&l, (dl_metrics){NULL, advance, height});
    /* 10 characters then 。: at 10 em the mark may not begin line 2 */
    const char *made = "一二三四五六七八九十。一二三四五六七八九十，一二三四五六七八九（十）";
    const char *starts[16];
    size_t lens[16];
    int n = dl_wrap(&l, DL_FONT_UI, 16, made, 10 * EM, starts, lens, 16);
    CHECK(n >= 2 && !starts_with_any(starts[1], lens[1], closing, 12), "at 10 em the second line starts \"%.*s\"", n >= 2 ? (int)lens[1] : 0,
          n >= 2 ? starts[1] : "");
    check_paragraph(&l, "made", made);
    /* every Chinese text of the lessons */
    DIR *d = opendir(WS_ROOT "/lessons");
    CHECK(d != NULL, "cannot open the lessons");
    struct dirent *e;
    int files = 0;
    while (d && (e = readdir(d))) {
        size_t k = strlen(e->d_name);
        if (k < 6 || strcmp(e->d_name + k - 5, ".json")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/lessons/%s", WS_ROOT, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *buf = malloc((size_t)len + 1);
        size_t got = buf ? fread(buf, 1, (size_t)len, f) : 0;
        fclose(f);
        if (!buf) continue;
        buf[got] = '\0';
        cJSON *j = cJSON_Parse(buf);
        CHECK(j != NULL, "%s: not JSON", path);
        walk(&l, e->d_name, j);
        cJSON_Delete(j);
        free(buf);
        files++;
    }
    if (d) closedir(d);
    CHECK(files >= 10, "%d lesson files read", files);
    printf("%ld paragraphs, %ld lines at widths of 6 to 60 em\n", paragraphs, lines_checked);
    dl_free(&l);
    CHECK_DONE("chinese_lines_should_not_start_with_closing_marks");
}
