/* A frame drawn only where its list differs from the last one (dl_damage, rsdl_execute_regions: what
 * the window does) leaves the same pixels as the whole list drawn on a fresh surface: through steps,
 * the frames of motion between them, a hover and its tooltip coming and going, compare turned on
 * and off, the language and the theme switched. And it does draw less: a frame of motion redraws
 * less than the whole window, a frame that changed nothing redraws nothing. */
#include "ui_fixture.h"

enum { W = 1280, H = 720 };

static int same_pixels(SDL_Surface *a, SDL_Surface *b, int *x, int *y)
{
    for (int r = 0; r < a->h; r++) {
        const uint32_t *pa = (const uint32_t *)((const uint8_t *)a->pixels + (size_t)r * (size_t)a->pitch);
        const uint32_t *pb = (const uint32_t *)((const uint8_t *)b->pixels + (size_t)r * (size_t)b->pitch);
        for (int c = 0; c < a->w; c++)
            if ((pa[c] & 0xFFFFFF) != (pb[c] & 0xFFFFFF)) { *x = c; *y = r; return 0; }
    }
    return 1;
}

int main(void)
{
    fixture f;
    if (fixture_open(&f, "v1", 64, "ramp", W, H)) return 1;
    /* the whole list each frame, on a surface of its own */
    SDL_Surface *full = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_RGB888);
    SDL_Renderer *fr = full ? SDL_CreateSoftwareRenderer(full) : NULL;
    rsdl_font_file files[DL_FONT_COUNT];
    int have_cjk;
    char err[256];
    rsdl *fx = fr && rsdl_find_fonts(WS_ASSETS, 1, files, &have_cjk, err, sizeof err) == 0 ? rsdl_create(fr, files, err, sizeof err) : NULL;
    if (!fx) { fprintf(stderr, "renderer: %s\n", SDL_GetError()); return 1; }
    dl_summary shown, now;
    int have_shown = 0, partial = 0, empty = 0;
    long area_max = 0;
    /* each entry: actions before the frame, and the frame's place in its move */
    static const struct {
        const char *act;
        double t;
    } frames[] = {
        {"", 1.0},           {"step:+1", 0.0},         {"", 0.25},        {"", 0.5},          {"", 1.0},        {"", 1.0},
        {"step:+1", 0.0},    {"", 0.6},                {"", 1.0},         {"step:+1", 0.3},   {"", 1.0},        {"phase:+1", 0.0},
        {"", 0.5},           {"", 1.0},                {"compare:v2", 1.0}, {"step:+1", 0.4},  {"", 1.0},        {"compare:off", 1.0},
        {"lang:zh", 1.0},    {"step:+1", 0.5},         {"", 1.0},         {"theme", 1.0},     {"step:-1", 0.5}, {"", 1.0},
        {"lang:en", 1.0},    {"theme", 1.0},           {"step:+1", 1.0},  {"", 1.0},
    };
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        if (frames[i].act[0]) fixture_act(&f, frames[i].act);
        if (i == 4 || i == 9) { /* the mouse over lane 5, then gone */
            action a = {.kind = ACT_HOVER, .i = i == 4 ? HIT_CODE(HIT_LANE, 0, 5) : 0, .x = i == 4 ? 900 : -1, .y = i == 4 ? 500 : -1};
            session_apply(&f.s, &a);
        }
        fixture_frame_t(&f, W, H, 0, frames[i].t);
        dl_rect regions[16];
        dl_summarise(&f.l, &now);
        int n = have_shown ? dl_damage(&shown, &now, regions, 16) : -1;
        rsdl_execute_regions(f.x, &f.l, regions, n);
        SDL_RenderPresent(f.r);
        rsdl_execute(fx, &f.l);
        SDL_RenderPresent(fr);
        shown = now;
        have_shown = 1;
        long area = 0;
        for (int k = 0; k < n; k++) area += (long)regions[k].w * regions[k].h;
        if (n > 0 && area < (long)W * H / 2) partial++;
        if (n == 0) empty++;
        if (n >= 0 && area > area_max) area_max = area;
        int x = 0, y = 0;
        CHECK(same_pixels(f.surf, full, &x, &y), "frame %zu (\"%s\", t %.2f): drawn where it changed (%d regions), its pixel (%d, %d) differs from the whole list drawn",
              i, frames[i].act, frames[i].t, n, x, y);
    }
    CHECK(partial >= 5, "%d frames redrew less than half the window (want at least 5 of the motion frames)", partial);
    CHECK(empty >= 1, "%d frames that changed nothing redrew nothing (want at least 1)", empty);
    printf("frames: %d redrew less than half the window, %d redrew nothing; the largest partial redraw %.0f%% of it\n", partial, empty,
           100.0 * (double)area_max / ((double)W * H));
    rsdl_destroy(fx);
    SDL_DestroyRenderer(fr);
    SDL_FreeSurface(full);
    fixture_close(&f);
    CHECK_DONE("frames_should_redraw_only_what_changed");
}
