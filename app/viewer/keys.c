/* keys: see keys.h. */
#include "app/viewer/keys.h"

#include <stdio.h>
#include <string.h>

#include "trace/ladder.h"

const keys_row keys_table[] = {
    {SDLK_PAGEDOWN, KMOD_NONE, KEYS_LESSON, ACT_LESSON, 1, NULL, "PgDn (lesson)", STR_KEY_LESSON_NEXT},
    {SDLK_PAGEUP, KMOD_NONE, KEYS_LESSON, ACT_LESSON, -1, NULL, "PgUp (lesson)", STR_KEY_LESSON_BACK},
    {SDLK_RETURN, KMOD_NONE, KEYS_LESSON, ACT_ANSWER, 0, NULL, "Enter", STR_KEY_ANSWER},
    {SDLK_KP_ENTER, KMOD_NONE, KEYS_LESSON, ACT_ANSWER, 0, NULL, NULL, STR_KEY_ANSWER},
    {SDLK_h, KMOD_NONE, KEYS_LESSON, ACT_REVEAL, 0, NULL, "H", STR_KEY_REVEAL},
    {SDLK_BACKSPACE, KMOD_NONE, KEYS_LESSON, ACT_TYPE, 0, "\b", NULL, STR_KEY_ANSWER},
    {SDLK_DOWN, KMOD_NONE, KEYS_MENU, ACT_MENU, 1, NULL, "Down, Up (menu)", STR_KEY_MENU},
    {SDLK_UP, KMOD_NONE, KEYS_MENU, ACT_MENU, -1, NULL, NULL, STR_KEY_MENU},
    {SDLK_PAGEDOWN, KMOD_NONE, KEYS_MENU, ACT_MENU, 1, NULL, NULL, STR_KEY_MENU},
    {SDLK_PAGEUP, KMOD_NONE, KEYS_MENU, ACT_MENU, -1, NULL, NULL, STR_KEY_MENU},
    {SDLK_RETURN, KMOD_NONE, KEYS_MENU, ACT_MENU, 0, NULL, NULL, STR_KEY_MENU},
    {SDLK_KP_ENTER, KMOD_NONE, KEYS_MENU, ACT_MENU, 0, NULL, NULL, STR_KEY_MENU},
    {SDLK_RIGHT, KMOD_NONE, KEYS_GRID, ACT_GRID_PASS, 1, NULL, "Right, Left (grid)", STR_KEY_GRID_PASS},
    {SDLK_LEFT, KMOD_NONE, KEYS_GRID, ACT_GRID_PASS, -1, NULL, NULL, STR_KEY_GRID_PASS},
    {SDLK_PAGEDOWN, KMOD_NONE, KEYS_GRID, ACT_GRID_WAVE, 1, NULL, "PgDn, PgUp, Down, Up (grid)", STR_KEY_GRID_WAVE},
    {SDLK_PAGEUP, KMOD_NONE, KEYS_GRID, ACT_GRID_WAVE, -1, NULL, NULL, STR_KEY_GRID_WAVE},
    {SDLK_DOWN, KMOD_NONE, KEYS_GRID, ACT_GRID_WAVE, 1, NULL, NULL, STR_KEY_GRID_WAVE},
    {SDLK_UP, KMOD_NONE, KEYS_GRID, ACT_GRID_WAVE, -1, NULL, NULL, STR_KEY_GRID_WAVE},
    {SDLK_HOME, KMOD_NONE, KEYS_GRID, ACT_GRID_TIME, 1, NULL, "Home, End (grid)", STR_KEY_GRID_TIME},
    {SDLK_END, KMOD_NONE, KEYS_GRID, ACT_GRID_TIME, 0, NULL, NULL, STR_KEY_GRID_TIME},
    {SDLK_a, KMOD_NONE, KEYS_GRID, ACT_TRACE_ALL, 0, NULL, "A (grid)", STR_KEY_TRACE_ALL},
    {SDLK_a, KMOD_NONE, KEYS_PASSES, ACT_TRACE_ALL, 0, NULL, "A (passes)", STR_KEY_TRACE_ALL},
    {SDLK_n, KMOD_NONE, KEYS_GRID, ACT_GRID_N, 0, NULL, "N (grid)", STR_KEY_GRID_N},
    {SDLK_SPACE, KMOD_NONE, KEYS_MAIN, ACT_PLAY, 0, NULL, "Space", STR_KEY_PLAY},
    {SDLK_RIGHT, KMOD_NONE, KEYS_BENCH, ACT_BENCH_SIZE, 1, NULL, NULL, STR_KEY_STEP_NEXT},
    {SDLK_LEFT, KMOD_NONE, KEYS_BENCH, ACT_BENCH_SIZE, -1, NULL, NULL, STR_KEY_STEP_PREV},
    {SDLK_DOWN, KMOD_NONE, KEYS_BENCH, ACT_BENCH_GPU, 1, NULL, "Down, Up (benchmark)", STR_KEY_BENCH_GPU},
    {SDLK_UP, KMOD_NONE, KEYS_BENCH, ACT_BENCH_GPU, -1, NULL, NULL, STR_KEY_BENCH_GPU},
    {SDLK_m, KMOD_NONE, KEYS_BENCH, ACT_BENCH_MODE, 0, NULL, "M, Tab (benchmark)", STR_KEY_BENCH_MODE}, /* M: a browser's Tab moves focus */
    {SDLK_TAB, KMOD_NONE, KEYS_BENCH, ACT_BENCH_MODE, 0, NULL, NULL, STR_KEY_BENCH_MODE},
    {SDLK_RIGHT, KMOD_NONE, KEYS_MAIN, ACT_STEP, 1, NULL, "Right", STR_KEY_STEP_NEXT},
    {SDLK_LEFT, KMOD_NONE, KEYS_MAIN, ACT_STEP, -1, NULL, "Left", STR_KEY_STEP_PREV},
    {SDLK_PAGEDOWN, KMOD_NONE, KEYS_MAIN, ACT_PHASE, 1, NULL, "PgDn, Shift+Right", STR_KEY_PHASE_NEXT},
    {SDLK_RIGHT, KMOD_SHIFT, KEYS_MAIN, ACT_PHASE, 1, NULL, NULL, STR_KEY_PHASE_NEXT},
    {SDLK_PAGEUP, KMOD_NONE, KEYS_MAIN, ACT_PHASE, -1, NULL, "PgUp, Shift+Left", STR_KEY_PHASE_PREV},
    {SDLK_LEFT, KMOD_SHIFT, KEYS_MAIN, ACT_PHASE, -1, NULL, NULL, STR_KEY_PHASE_PREV},
    {SDLK_HOME, KMOD_NONE, KEYS_MAIN, ACT_FIRST, 0, NULL, "Home", STR_KEY_FIRST},
    {SDLK_END, KMOD_NONE, KEYS_MAIN, ACT_LAST, 0, NULL, "End", STR_KEY_LAST},
    {SDLK_EQUALS, KMOD_CTRL, KEYS_ANY, ACT_SCALE, 1, NULL, "Ctrl +", STR_KEY_BIGGER},
    {SDLK_PLUS, KMOD_CTRL, KEYS_ANY, ACT_SCALE, 1, NULL, NULL, STR_KEY_BIGGER},
    {SDLK_KP_PLUS, KMOD_CTRL, KEYS_ANY, ACT_SCALE, 1, NULL, NULL, STR_KEY_BIGGER},
    {SDLK_MINUS, KMOD_CTRL, KEYS_ANY, ACT_SCALE, -1, NULL, "Ctrl -", STR_KEY_SMALLER},
    {SDLK_KP_MINUS, KMOD_CTRL, KEYS_ANY, ACT_SCALE, -1, NULL, NULL, STR_KEY_SMALLER},
    {SDLK_EQUALS, KMOD_NONE, KEYS_MAIN, ACT_SPEED, 1, NULL, "+", STR_KEY_FASTER},
    {SDLK_PLUS, KMOD_NONE, KEYS_MAIN, ACT_SPEED, 1, NULL, NULL, STR_KEY_FASTER},
    {SDLK_KP_PLUS, KMOD_NONE, KEYS_MAIN, ACT_SPEED, 1, NULL, NULL, STR_KEY_FASTER},
    {SDLK_MINUS, KMOD_NONE, KEYS_MAIN, ACT_SPEED, -1, NULL, "-", STR_KEY_SLOWER},
    {SDLK_KP_MINUS, KMOD_NONE, KEYS_MAIN, ACT_SPEED, -1, NULL, NULL, STR_KEY_SLOWER},
    {SDLK_c, KMOD_NONE, KEYS_MAIN, ACT_COMPARE, 0, "", "C", STR_KEY_COMPARE},
    {SDLK_w, KMOD_NONE, KEYS_MAIN, ACT_FINE, 0, NULL, "W", STR_KEY_FINE},
    {SDLK_v, KMOD_NONE, KEYS_MAIN, ACT_PICTURE, -1, NULL, "V", STR_KEY_PICTURE},
    {SDLK_r, KMOD_NONE, KEYS_MAIN, ACT_REPLAY, 0, NULL, "R", STR_KEY_REPLAY},
    {SDLK_x, KMOD_NONE, KEYS_MAIN, ACT_SCHEDULE, 0, "", "X", STR_KEY_SCHEDULE},
    {SDLK_d, KMOD_NONE, KEYS_MAIN, ACT_DROP, -1, NULL, "D", STR_KEY_DROP},
    {SDLK_d, KMOD_SHIFT, KEYS_MAIN, ACT_DROP, 0, NULL, "Shift+D", STR_KEY_UNDROP},
    {SDLK_m, KMOD_NONE, KEYS_ANY, ACT_MOTION, 0, NULL, "M", STR_KEY_MOTION},
    {SDLK_RIGHTBRACKET, KMOD_NONE, KEYS_MAIN, ACT_WARP, 1, NULL, "]", STR_KEY_WARP_NEXT},
    {SDLK_LEFTBRACKET, KMOD_NONE, KEYS_MAIN, ACT_WARP, -1, NULL, "[", STR_KEY_WARP_PREV},
    /* the cursor over the lanes and shared words: Up and Down are free in the main view (Left and
     * Right step), and a row of either is a warp's WARP_SIZE lanes or the BANKS words drawn on one line */
    {SDLK_DOWN, KMOD_NONE, KEYS_MAIN, ACT_CURSOR, 1, NULL, "Down, Up", STR_KEY_CURSOR},
    {SDLK_UP, KMOD_NONE, KEYS_MAIN, ACT_CURSOR, -1, NULL, NULL, STR_KEY_CURSOR},
    {SDLK_DOWN, KMOD_SHIFT, KEYS_MAIN, ACT_CURSOR, WARP_SIZE, NULL, "Shift+Down, Shift+Up", STR_KEY_CURSOR_ROW},
    {SDLK_UP, KMOD_SHIFT, KEYS_MAIN, ACT_CURSOR, -WARP_SIZE, NULL, NULL, STR_KEY_CURSOR_ROW},
    {SDLK_PERIOD, KMOD_NONE, KEYS_MAIN, ACT_SLICE, 1, NULL, ".", STR_KEY_SLICE_NEXT},
    {SDLK_COMMA, KMOD_NONE, KEYS_MAIN, ACT_SLICE, -1, NULL, ",", STR_KEY_SLICE_PREV},
    {SDLK_b, KMOD_NONE, KEYS_ANY, ACT_BENCH, 0, NULL, "B", STR_KEY_BENCH},
    {SDLK_g, KMOD_NONE, KEYS_ANY, ACT_GRID, 0, NULL, "G", STR_KEY_GRID},
    {SDLK_k, KMOD_NONE, KEYS_ANY, ACT_PASSES, 0, NULL, "K", STR_KEY_PASSES},
    {SDLK_t, KMOD_NONE, KEYS_ANY, ACT_THEME, 0, NULL, "T", STR_KEY_THEME},
    {SDLK_p, KMOD_NONE, KEYS_ANY, ACT_PRESENTER, 0, NULL, "P", STR_KEY_PRESENTER},
    {SDLK_l, KMOD_NONE, KEYS_ANY, ACT_LANG, 0, "", "L", STR_KEY_LANG},
    {SDLK_F11, KMOD_NONE, KEYS_ANY, ACT_FULLSCREEN, 0, NULL, "F11", STR_KEY_FULLSCREEN},
    {SDLK_s, KMOD_NONE, KEYS_ANY, ACT_SCREENSHOT, 0, NULL, "S", STR_KEY_SHOT},
    {SDLK_e, KMOD_NONE, KEYS_MAIN, ACT_RECORD, 0, NULL, "E", STR_KEY_RECORD},
    {SDLK_QUESTION, KMOD_NONE, KEYS_ANY, ACT_HELP, 0, NULL, "?", STR_KEY_HELP},
    {SDLK_SLASH, KMOD_SHIFT, KEYS_ANY, ACT_HELP, 0, NULL, NULL, STR_KEY_HELP},
    {SDLK_F1, KMOD_NONE, KEYS_ANY, ACT_HELP, 0, NULL, NULL, STR_KEY_HELP},
    {SDLK_ESCAPE, KMOD_NONE, KEYS_ANY, ACT_ESCAPE, 0, NULL, "Esc", STR_KEY_ESCAPE},
    {SDLK_q, KMOD_NONE, KEYS_ANY, ACT_QUIT, 0, NULL, "Q", STR_KEY_QUIT},
};
const size_t keys_count = sizeof keys_table / sizeof keys_table[0];

static Uint16 held(Uint16 mod)
{
    if (mod & KMOD_CTRL) return KMOD_CTRL;
    if (mod & KMOD_SHIFT) return KMOD_SHIFT;
    return KMOD_NONE;
}

/* What only the desktop program does: the page's key handler and help leave these out. */
static const act_kind desktop_only[] = {ACT_QUIT, ACT_RECORD};
/* What a key does differently in the page (web/page.c), as its help says it */
static const struct {
    act_kind act;
    str_id help;
} page_help[] = {{ACT_ESCAPE, STR_KEY_ESCAPE_PAGE}};

static int on_platform(act_kind k, int page)
{
    for (size_t i = 0; page && i < sizeof desktop_only / sizeof desktop_only[0]; i++)
        if (desktop_only[i] == k) return 0;
    return 1;
}

action keys_action(const session *s, SDL_Keycode key, Uint16 mod)
{
    action a;
    memset(&a, 0, sizeof a);
    Uint16 m = held(mod);
    keys_ctx ctx = s->overlay == OVERLAY_MENU    ? KEYS_MENU
                   : s->overlay == OVERLAY_BENCH ? KEYS_BENCH
                   : s->overlay == OVERLAY_GRID  ? KEYS_GRID
                   : s->overlay == OVERLAY_PASSES ? KEYS_PASSES
                   : s->lesson.active            ? KEYS_LESSON
                                                 : KEYS_MAIN;
    /* typing an answer: digits and signs for a number, letters for a choice, before any other key */
    const session_lesson *L = &s->lesson;
    int typing = L->active && (L->ask == ASK_NUMBER || L->ask == ASK_CHOICE) && L->state != ANSWER_RIGHT && L->state != ANSWER_REVEALED;
    if (typing && m != KMOD_CTRL && key > 0 && key < 128) {
        int ok = L->ask == ASK_NUMBER ? ((key >= '0' && key <= '9') || key == '.' || key == '-' || key == 'e')
                                      : (key >= 'a' && key < 'a' + L->noptions);
        if (ok) {
            a.kind = ACT_TYPE;
            a.s[0] = (char)key;
            return a;
        }
    }
    /* a context's own rows first (Left/Right pick a size in the benchmark view), then the rest; a
     * lesson that shows the grid or the benchmark keeps its own keys first (PgDn, Enter, H), and
     * the overlay's come next (Down/Up step waves) */
    keys_ctx first = s->lesson.active && (ctx == KEYS_GRID || ctx == KEYS_BENCH) ? KEYS_LESSON : ctx;
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < keys_count; i++) {
            const keys_row *r = &keys_table[i];
            /* a lesson's window is the main view too: its own rows first, then the main view's */
            int main_like = ctx == KEYS_MAIN || ctx == KEYS_LESSON;
            int applies = pass == 0 ? r->ctx == first : pass == 1 ? r->ctx == ctx && first != ctx
                                                                 : r->ctx == KEYS_ANY || (r->ctx == KEYS_MAIN && main_like);
            /* ? arrives as Shift+/ on most layouts and as ? on others: Shift is part of the key there */
            int mod_ok = r->mod == m || (r->key == SDLK_QUESTION) || (m == KMOD_SHIFT && r->mod == KMOD_NONE && r->key == SDLK_PLUS);
            if (!applies || r->key != key || !mod_ok) continue;
            if (!on_platform(r->act, s->page)) return a;
            a.kind = r->act;
            a.i = r->i;
            if (r->s) snprintf(a.s, sizeof a.s, "%s", r->s);
            return a;
        }
    /* the version keys, from the version table */
    if (m == KMOD_NONE && ctx == KEYS_MAIN && !L->active && key > 0 && key < 128)
        for (size_t i = 0; i < ladder_count; i++) {
            char k = ladder_versions[i].key;
            if (k && (key == k || (k >= 'A' && k <= 'Z' && key == k - 'A' + 'a'))) {
                a.kind = ACT_VERSION;
                snprintf(a.s, sizeof a.s, "%s", ladder_versions[i].id);
                return a;
            }
        }
    return a;
}

size_t keys_help(str_lang lang, int page, keys_help_line *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < keys_count && n < max; i++) {
        const keys_row *r = &keys_table[i];
        if (!r->label || !on_platform(r->act, page)) continue;
        str_id help = r->help;
        for (size_t k = 0; page && k < sizeof page_help / sizeof page_help[0]; k++)
            if (page_help[k].act == r->act) help = page_help[k].help;
        /* a row of one context says which, in the help's language: "Down, Up (menu)" */
        static const str_id where[] = {[KEYS_LESSON] = STR_KEYS_IN_LESSON, [KEYS_MENU] = STR_KEYS_IN_MENU, [KEYS_GRID] = STR_KEYS_IN_GRID,
                                       [KEYS_BENCH] = STR_KEYS_IN_BENCH, [KEYS_PASSES] = STR_KEYS_IN_PASSES};
        const char *paren = strstr(r->label, " (");
        if (paren && (size_t)r->ctx < sizeof where / sizeof where[0] && where[r->ctx])
            snprintf(out[n].label, sizeof out[n].label, lang == LANG_ZH ? "%.*s（%s）" : "%.*s (%s)", (int)(paren - r->label), r->label,
                     str_get(lang, where[r->ctx]));
        else snprintf(out[n].label, sizeof out[n].label, "%s", r->label);
        snprintf(out[n].text, sizeof out[n].text, "%s", str_get(lang, help));
        n++;
    }
    if (n < max) { /* one line for the version keys, from the version table */
        char keys[64] = "", list[200] = "";
        size_t kl = 0, ll = 0;
        for (size_t i = 0; i < ladder_count; i++) {
            if (!ladder_versions[i].key) continue;
            kl += (size_t)snprintf(keys + kl, sizeof keys - kl, "%s%c", kl ? " " : "", ladder_versions[i].key);
            ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%c %s", ll ? ", " : "", ladder_versions[i].key, ladder_versions[i].id);
            if (kl >= sizeof keys || ll >= sizeof list) break;
        }
        snprintf(out[n].label, sizeof out[n].label, "%s", keys);
        snprintf(out[n].text, sizeof out[n].text, str_get(lang, STR_KEY_VERSION), list);
        n++;
    }
    if (n < max) {
        snprintf(out[n].label, sizeof out[n].label, "%s", str_get(lang, STR_MOUSE));
        snprintf(out[n].text, sizeof out[n].text, "%s", str_get(lang, STR_KEY_MOUSE));
        n++;
    }
    return n;
}

int keys_parse(const char *name, SDL_Keycode *key, Uint16 *mod)
{
    *mod = KMOD_NONE;
    if (!strncmp(name, "Shift+", 6)) { *mod = KMOD_LSHIFT; name += 6; }
    else if (!strncmp(name, "Ctrl+", 5)) { *mod = KMOD_LCTRL; name += 5; }
    *key = SDL_GetKeyFromName(name);
    return *key == SDLK_UNKNOWN ? -1 : 0;
}
