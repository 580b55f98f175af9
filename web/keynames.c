/* keynames: SDL_GetKeyFromName for the page, which links no SDL: the key table (keys.c) reads key
 * names through it. The names are SDL's; warpscope.js turns the browser's key names into them. */
#include <SDL_keycode.h>
#include <string.h>

static const struct {
    const char *name;
    SDL_Keycode key;
} names[] = {
    {"Right", SDLK_RIGHT}, {"Left", SDLK_LEFT}, {"Up", SDLK_UP}, {"Down", SDLK_DOWN}, {"PageUp", SDLK_PAGEUP},
    {"PageDown", SDLK_PAGEDOWN}, {"Home", SDLK_HOME}, {"End", SDLK_END}, {"Return", SDLK_RETURN}, {"Keypad Enter", SDLK_KP_ENTER},
    {"Escape", SDLK_ESCAPE}, {"Backspace", SDLK_BACKSPACE}, {"Tab", SDLK_TAB}, {"Space", SDLK_SPACE}, {"Delete", SDLK_DELETE},
    {"F1", SDLK_F1}, {"F2", SDLK_F2}, {"F3", SDLK_F3}, {"F4", SDLK_F4}, {"F5", SDLK_F5}, {"F6", SDLK_F6},
    {"F7", SDLK_F7}, {"F8", SDLK_F8}, {"F9", SDLK_F9}, {"F10", SDLK_F10}, {"F11", SDLK_F11}, {"F12", SDLK_F12},
    {"Keypad +", SDLK_KP_PLUS}, {"Keypad -", SDLK_KP_MINUS},
};

SDL_Keycode SDL_GetKeyFromName(const char *name)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].name, name)) return names[i].key;
    /* one printable ASCII character: its own code, letters in lower case, as SDL gives them */
    if (name[0] > ' ' && name[0] < 127 && !name[1]) return name[0] >= 'A' && name[0] <= 'Z' ? name[0] - 'A' + 'a' : name[0];
    return SDLK_UNKNOWN;
}
