/* The help screen and the key handler come from one table: every labelled key row's key gives
 * that row's action, every row's label is drawn on the help screen, each version's key picks that
 * version, and Esc closes the help before it ever asks to quit. */
#include <SDL_ttf.h>
#include <string.h>

#include "check.h"
#include "app/viewer/keys.h"
#include "trace/ladder.h"
#include "ui_fixture.h"

int main(void)
{
    if (TTF_Init() != 0) return 1;
    fixture f;
    CHECK(fixture_open(&f, "v1", 64, NULL, 1920, 1080) == 0, "setup");
    for (size_t i = 0; i < keys_count; i++) {
        const keys_row *r = &keys_table[i];
        f.s.overlay = r->ctx == KEYS_BENCH ? OVERLAY_BENCH : r->ctx == KEYS_MENU ? OVERLAY_MENU : r->ctx == KEYS_GRID ? OVERLAY_GRID
                    : r->ctx == KEYS_PASSES ? OVERLAY_PASSES : OVERLAY_NONE;
        f.s.lesson.active = r->ctx == KEYS_LESSON;
        action a = keys_action(&f.s, r->key, r->mod);
        CHECK(a.kind == r->act && a.i == r->i, "row %zu (%s): the key gives action %s %ld, the table says %s %ld", i, SDL_GetKeyName(r->key),
              act_name(a.kind), a.i, act_name(r->act), r->i);
    }
    /* a lesson that shows the grid or the benchmark keeps its keys (the clicker's PgDn, Enter, H);
     * the grid's own Down/Up still step waves */
    static const struct { SDL_Keycode key; act_kind act; } lesson_keys[] = {
        {SDLK_PAGEDOWN, ACT_LESSON}, {SDLK_PAGEUP, ACT_LESSON}, {SDLK_RETURN, ACT_ANSWER}, {SDLK_h, ACT_REVEAL}};
    static const session_overlay overlays[] = {OVERLAY_GRID, OVERLAY_BENCH};
    f.s.lesson.active = 1;
    for (size_t o = 0; o < 2; o++)
        for (size_t i = 0; i < sizeof lesson_keys / sizeof *lesson_keys; i++) {
            f.s.overlay = overlays[o];
            action a = keys_action(&f.s, lesson_keys[i].key, KMOD_NONE);
            CHECK(a.kind == lesson_keys[i].act, "a lesson over overlay %d: %s gives %s", (int)overlays[o], SDL_GetKeyName(lesson_keys[i].key),
                  act_name(a.kind));
        }
    f.s.overlay = OVERLAY_GRID;
    CHECK(keys_action(&f.s, SDLK_DOWN, KMOD_NONE).kind == ACT_GRID_WAVE, "a lesson over the grid: Down should step a wave");
    f.s.overlay = OVERLAY_NONE;
    f.s.lesson.active = 0;
    for (size_t v = 0; v < ladder_count; v++) {
        char k = ladder_versions[v].key;
        if (!k) continue; /* a version with no key of its own (naive-race) */
        action a = keys_action(&f.s, (SDL_Keycode)(k >= 'A' && k <= 'Z' ? k - 'A' + 'a' : k), KMOD_NONE);
        CHECK(a.kind == ACT_VERSION && !strcmp(a.s, ladder_versions[v].id), "key %c should pick %s", k, ladder_versions[v].id);
    }
    /* the help screen shows every label of the table */
    fixture_act(&f, "help");
    fixture_frame(&f, 1920, 1080, 0);
    for (size_t i = 0; i < keys_count; i++) {
        if (!keys_table[i].label) continue;
        int shown = 0;
        for (size_t j = 0; j < f.l.n; j++)
            shown |= f.l.items[j].kind == DL_TEXT && f.l.items[j].len == strlen(keys_table[i].label) &&
                     !memcmp(dl_item_text(&f.l, &f.l.items[j]), keys_table[i].label, f.l.items[j].len);
        CHECK(shown, "the help screen does not show \"%s\"", keys_table[i].label);
    }
    action esc = keys_action(&f.s, SDLK_ESCAPE, KMOD_NONE);
    session_apply(&f.s, &esc);
    CHECK(f.s.overlay == OVERLAY_NONE && !f.s.quit, "Esc with the help open should close the help only");
    fixture_close(&f);
    TTF_Quit();
    CHECK_DONE("keys_help_and_handler_should_agree");
}
