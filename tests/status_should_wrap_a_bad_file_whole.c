/* A bad file's error in the status line (a dropped trace that does not read, a kernel that does not
 * compile) is read whole on a phone's screen as at a projector: wrapped over the footer's lines, every
 * word of it drawn in the footer, nothing cut ("…"), no text past the footer or over another. At
 * 390 CSS px wide (12 px text, as the page draws it at a pixel ratio of 1, and 36 px at 3), at
 * 1024x768 and 1920x1080, in English and Chinese, on the desktop's layout (the page draws the same). */
#include <SDL_ttf.h>
#include <stdlib.h>

#include "check.h"
#include "ui_fixture.h"

static const struct { int w, h, min_px; } rooms[] = {{390, 520, 12}, {1170, 1560, 36}, {844, 240, 12}, {1024, 768, 0}, {1920, 1080, 0}};

/* s without its spaces */
static void unspaced(char *d, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        if (*s != ' ') d[k++] = *s;
    d[k] = '\0';
}

/* the status's texts (in the status's colour) say msg whole, in order, uncut, inside the footer */
static void check_whole(fixture *f, const char *msg, const char *what, int w, int h)
{
    int footer = -1;
    for (int p = 0; p < f->l.npanels; p++)
        if (f->l.panels[p].name && !strcmp(f->l.panels[p].name, "footer")) footer = p;
    CHECK(footer >= 0, "%s %dx%d: no footer", what, w, h);
    if (footer < 0) return;
    char said[4096] = "", want[4096], got[4096];
    for (size_t i = 0; i < f->l.n; i++) {
        const dl_item *it = &f->l.items[i];
        if (it->kind != DL_TEXT || it->panel != footer || !same_colour(it->c, f->sc.th->accent)) continue;
        char b[1024];
        snprintf(b, sizeof b, "%.*s", (int)it->len, dl_item_text(&f->l, it));
        CHECK(!strstr(b, "\xE2\x80\xA6"), "%s %dx%d: the status is cut: \"%s\"", what, w, h, b);
        CHECK(dl_rect_inside(f->l.panels[footer].r, it->r), "%s %dx%d: \"%s\" leaves the footer", what, w, h, b);
        size_t at = strlen(said);
        snprintf(said + at, sizeof said - at, "%s", b);
    }
    unspaced(want, sizeof want, msg);
    unspaced(got, sizeof got, said);
    CHECK(!strcmp(want, got), "%s %dx%d: the status says \"%s\", not the whole error", what, w, h, said);
    fixture_check_no_overlaps(f, what, w, h);
}

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    CHECK(fixture_open(&f, "v1", 64, NULL, 1920, 1080) == 0, "setup");
    fixture_act(&f, "seek-phase:1,step:1");
    static const char *const msgs[2] = {
        "This file did not open as a trace: mine.json:3:17: the field \"events\" should be a list of events, "
        "not a number (the trace must come from warpscope trace or the page's Run)",
        "此文件不能作为跟踪打开：mine.json:3:17：字段\"events\"应是事件的列表，不是数字（跟踪须来自 warpscope trace 或页面的运行）"};
    for (int lang = 0; lang < 2; lang++) {
        fixture_act(&f, lang ? "lang:zh" : "lang:en");
        for (size_t i = 0; i < sizeof rooms / sizeof *rooms; i++) {
            f.s.status_id = STR_COUNT;
            snprintf(f.s.status_text, sizeof f.s.status_text, "%s", msgs[lang]);
            f.s.generation++;
            scene_update(&f.sc, &f.s, sources_find);
            int px = panels_px(rooms[i].h, f.s.scale, f.s.presenter);
            if (px < rooms[i].min_px) px = rooms[i].min_px;
            panels_draw(&f.sc, &f.l, rooms[i].w, rooms[i].h, px, 1.0);
            check_whole(&f, msgs[lang], lang ? "zh" : "en", rooms[i].w, rooms[i].h);
        }
    }
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("status_should_wrap_a_bad_file_whole");
}
