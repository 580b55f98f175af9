/* Text: `__syncthreads` keeps its underscores at every size from 10 to 40 px (checked on the pixels
 * of a headless render: the columns of the two leading underscores hold ink), in both font roles;
 * every Chinese label has glyphs in the font (no boxes), a Chinese frame draws no replacement box,
 * and each label has the same printf conversions in both languages. */
#include <SDL_ttf.h>
#include <string.h>

#include "check.h"
#include "trace/ladder.h"
#include "ui_fixture.h"

static int ink_columns(SDL_Surface *s, int x0, int x1, int y0, int y1)
{
    int cols = 0;
    for (int x = x0; x < x1; x++) {
        int ink = 0;
        for (int y = y0; y < y1; y++) {
            Uint8 r, g, b;
            SDL_GetRGB(((Uint32 *)s->pixels)[y * (s->pitch / 4) + x], s->format, &r, &g, &b);
            ink |= r < 128;
        }
        cols += ink;
    }
    return cols;
}

/* the conversions of a printf format, in order ("%u%s%d") */
static void conversions(const char *f, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = f; *p && k + 8 < len; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') { p++; continue; }
        const char *q = p + 1;
        while (*q && !strchr("diouxXeEfgGcspz", *q)) q++;
        while (*q == 'z' || *q == 'l') q++;
        size_t n = (size_t)(q - p) + 1;
        if (k + n >= len) break;
        memcpy(out + k, p, n);
        k += n;
        p = q;
    }
    out[k] = '\0';
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    CHECK(fixture_open(&f, "v2", 64, NULL, 800, 200) == 0, "setup");
    dl_colour black = {0, 0, 0, 255}, white = {255, 255, 255, 255};
    for (int role = 0; role < DL_FONT_COUNT; role++)
        for (int px = 10; px <= 40; px++) {
            dl_reset(&f.l);
            dl_fill(&f.l, (dl_rect){0, 0, 800, 200}, white);
            dl_text(&f.l, (dl_rect){10, 10, 780, 180}, (dl_font)role, px, DL_LEFT, black, "__syncthreads();");
            rsdl_execute(f.x, &f.l);
            SDL_RenderPresent(f.r);
            const dl_item *t = &f.l.items[f.l.n - 1];
            int us = rsdl_metrics(f.x).advance(f.x, (dl_font)role, px, '_');
            /* only the underscores live in these columns: they must hold ink, in the lower half */
            int cols = ink_columns(f.surf, t->r.x, t->r.x + 2 * us, t->r.y + t->r.h / 2, t->r.y + t->r.h);
            CHECK(cols >= us, "font %d at %d px: the underscores of __syncthreads have ink in %d of %d columns", role, px, cols, 2 * us);
        }
    /* every Chinese label has its glyphs */
    for (int id = 0; id < STR_COUNT; id++) {
        const char *zh = str_get(LANG_ZH, (str_id)id);
        for (const char *p = zh; *p;) {
            uint32_t cp = dl_utf8_next(&p);
            CHECK(rsdl_has_glyph(f.x, DL_FONT_UI, cp), "string %d: U+%04X has no glyph in the UI font", id, cp);
        }
        char a[64], b[64];
        conversions(str_get(LANG_EN, (str_id)id), a, sizeof a);
        conversions(zh, b, sizeof b);
        CHECK(!strcmp(a, b), "string %d: conversions \"%s\" in English, \"%s\" in Chinese", id, a, b);
    }
    for (size_t v = 0; v < ladder_count; v++)
        for (const char *p = ladder_versions[v].title_zh; p && *p;) {
            uint32_t cp = dl_utf8_next(&p);
            CHECK(rsdl_has_glyph(f.x, DL_FONT_UI, cp), "version %s: U+%04X has no glyph", ladder_versions[v].id, cp);
        }
    /* a whole Chinese frame, the help too: no replacement boxes drawn */
    fixture_act(&f, "lang:zh,seek-phase:1");
    unsigned long before = rsdl_missing_glyphs(f.x);
    fixture_frame(&f, 800, 200, 1);
    fixture_act(&f, "help");
    fixture_frame(&f, 800, 200, 1);
    CHECK(rsdl_missing_glyphs(f.x) == before, "%lu glyphs drawn as boxes in a Chinese frame", rsdl_missing_glyphs(f.x) - before);
    int cjk = 0;
    for (size_t i = 0; i < f.l.n; i++)
        if (f.l.items[i].kind == DL_TEXT)
            for (const char *p = dl_item_text(&f.l, &f.l.items[i]), *e = p + f.l.items[i].len; p < e;) cjk |= dl_utf8_next(&p) >= 0x4E00;
    CHECK(cjk, "the Chinese frame holds no Chinese text");
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("text_should_keep_underscores_and_chinese");
}
