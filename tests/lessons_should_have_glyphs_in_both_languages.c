/* Every text of every shipped lesson, in English and in Chinese, with its numbers filled in (title,
 * summary, narration, prompts, options, explanations), has a glyph for each of its characters in
 * the viewer's UI font: a lesson never shows a box in place of a character. */
#include <SDL_ttf.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "ui_fixture.h"

static void glyphs(rsdl *x, const char *what, const char *s)
{
    for (const char *p = s; *p;) {
        uint32_t cp = dl_utf8_next(&p);
        CHECK(cp < 0x20 || rsdl_has_glyph(x, DL_FONT_UI, cp), "%s: U+%04X has no glyph in the UI font", what, cp);
    }
}

static void lesson_glyphs(rsdl *x, const char *path)
{
    char err[1600], what[1400];
    static char buf[8192];
    lesson l;
    if (lesson_load(&l, path, err, sizeof err)) { CHECK(0, "%s", err); return; }
    player p;
    if (player_open(&p, &l, NULL, err, sizeof err)) { CHECK(0, "%s", err); lesson_free(&l); return; }
    for (int lang = 0; lang < LESSON_LANGS; lang++) {
        snprintf(what, sizeof what, "%s title.%s", path, lesson_lang_keys[lang]);
        glyphs(x, what, l.title.s[lang]);
        if (l.summary.s[lang]) glyphs(x, what, l.summary.s[lang]);
    }
    for (size_t i = 0; i < l.nsteps; i++) {
        if (player_goto(&p, i, err, sizeof err)) { CHECK(0, "%s", err); break; }
        const lesson_ask *a = player_question(&p);
        for (int lang = 0; lang < LESSON_LANGS; lang++) {
            struct { player_text_kind k; size_t n; } texts[] = {{PLAYER_TEXT_SAY, 1}, {PLAYER_TEXT_PROMPT, a != NULL},
                                                                {PLAYER_TEXT_EXPLAIN, a != NULL}, {PLAYER_TEXT_OPTION, a ? a->noptions : 0}};
            for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
                for (size_t o = 0; o < texts[t].n; o++) {
                    snprintf(what, sizeof what, "%s steps[%zu] text %zu.%zu %s", path, i, t, o, lesson_lang_keys[lang]);
                    if (player_text(&p, texts[t].k, o, (lesson_lang)lang, buf, sizeof buf, err, sizeof err)) { CHECK(0, "%s: %s", what, err); continue; }
                    glyphs(x, what, buf);
                }
        }
    }
    player_close(&p);
    lesson_free(&l);
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    if (fixture_open(&f, NULL, 64, NULL, 320, 200) != 0) { CHECK(0, "setup"); CHECK_DONE("lessons_should_have_glyphs_in_both_languages"); }
    DIR *d = opendir(WS_ROOT "/lessons");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/lessons/%s", WS_ROOT, e->d_name);
        lesson_glyphs(f.x, path);
        n++;
    }
    if (d) closedir(d);
    CHECK(n >= 11, "lessons found: %d", n);
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("lessons_should_have_glyphs_in_both_languages");
}
