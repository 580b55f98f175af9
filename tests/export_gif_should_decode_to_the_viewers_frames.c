/* warpscope export to GIF, decoded back with giflib: the screen size asked for, the NETSCAPE2.0
 * loop extension, one frame per step without motion and delays that add up to the steps' time,
 * frames of motion between steps, and the picture itself: the frames composited as a browser
 * shows them (each stores only its changed rectangle, unchanged pixels transparent) match the
 * PNG that `warpscope render --step S` draws of the first and the last step, pixel by pixel
 * up to the palette's rounding; a move between steps that draw different panels is a cut, so no
 * frame shows two steps at once. The file is created 0644 even under umask 077. */
#include <SDL.h>
#include <SDL_image.h>
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "app/export/export.h"
#include "app/viewer/viewer.h"

enum { W = 640, H = 360 };

typedef struct decoded {
    GifFileType *gif;
    int loop, loop_count, delays_sum, frames;
    int delay[4096];
} decoded;

static int open_gif(const char *path, decoded *d)
{
    memset(d, 0, sizeof *d);
    int e = 0;
    d->gif = DGifOpenFileName(path, &e);
    if (!d->gif || DGifSlurp(d->gif) != GIF_OK) { fprintf(stderr, "%s: %s\n", path, GifErrorString(d->gif ? d->gif->Error : e)); return -1; }
    d->frames = d->gif->ImageCount;
    d->loop_count = -1;
    for (int i = 0; i < d->gif->ImageCount; i++) {
        const SavedImage *im = &d->gif->SavedImages[i];
        for (int k = 0; k + 1 < im->ExtensionBlockCount; k++) {
            const ExtensionBlock *b = &im->ExtensionBlocks[k], *n = &im->ExtensionBlocks[k + 1];
            if (b->Function == APPLICATION_EXT_FUNC_CODE && b->ByteCount == 11 && !memcmp(b->Bytes, "NETSCAPE2.0", 11) &&
                n->Function == CONTINUE_EXT_FUNC_CODE && n->ByteCount == 3 && n->Bytes[0] == 1) {
                d->loop = 1;
                d->loop_count = n->Bytes[1] | n->Bytes[2] << 8;
            }
        }
        GraphicsControlBlock gcb;
        if (DGifSavedExtensionToGCB(d->gif, i, &gcb) == GIF_OK) {
            if (i < 4096) d->delay[i] = gcb.DelayTime;
            d->delays_sum += gcb.DelayTime;
        }
    }
    return 0;
}

/* The picture after frames 0..upto, as a viewer composites it (disposal: leave in place). */
static void composite(const decoded *d, int upto, uint32_t *canvas)
{
    const GifFileType *g = d->gif;
    for (int i = 0; i <= upto; i++) {
        const SavedImage *im = &g->SavedImages[i];
        const ColorMapObject *cm = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : g->SColorMap;
        GraphicsControlBlock gcb;
        int tr = DGifSavedExtensionToGCB((GifFileType *)g, i, &gcb) == GIF_OK ? gcb.TransparentColor : NO_TRANSPARENT_COLOR;
        const GifImageDesc *id = &im->ImageDesc;
        for (int y = 0; y < id->Height; y++)
            for (int x = 0; x < id->Width; x++) {
                int c = im->RasterBits[y * id->Width + x];
                if (c == tr) continue;
                GifColorType col = cm->Colors[c];
                canvas[(id->Top + y) * g->SWidth + id->Left + x] = (uint32_t)col.Red << 16 | (uint32_t)col.Green << 8 | col.Blue;
            }
    }
}

/* Share of pixels equal to the PNG, share off by more than 48 in a channel (a wrong picture, not
 * the palette's rounding of anti-aliased edges), and the mean error per channel. */
static void compare_png(const char *png, const uint32_t *canvas, double *same, double *far, double *mean)
{
    *same = 0;
    *far = 1;
    *mean = 255;
    SDL_Surface *s = IMG_Load(png), *c = s ? SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGB888, 0) : NULL;
    if (!c || c->w != W || c->h != H) { fprintf(stderr, "%s: cannot read it at %dx%d\n", png, W, H); goto done; }
    long eq = 0, off = 0;
    double err = 0;
    for (int y = 0; y < H; y++) {
        const uint32_t *row = (const uint32_t *)((const char *)c->pixels + y * c->pitch);
        for (int x = 0; x < W; x++) {
            uint32_t a = row[x] & 0xFFFFFF, b = canvas[y * W + x];
            eq += a == b;
            int worst = 0;
            for (int k = 0; k < 24; k += 8) {
                int e = abs((int)(a >> k & 255) - (int)(b >> k & 255));
                err += e;
                if (e > worst) worst = e;
            }
            off += worst > 48;
        }
    }
    *same = (double)eq / (W * H);
    *far = (double)off / (W * H);
    *mean = err / (3.0 * W * H);
done:
    if (c) SDL_FreeSurface(c);
    if (s) SDL_FreeSurface(s);
}

static int export_gif(const char *out, long from, long to, double fps, double speed, int no_motion)
{
    export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.v.assets_dir = WS_ASSETS; /* the source's assets: what the program finds beside itself */
    eo.v.cap.version = "v1";
    eo.v.cap.block = 64;
    eo.v.event = eo.v.phase = eo.v.step = -1;
    eo.v.width = W;
    eo.v.height = H;
    eo.from = from;
    eo.to = to;
    eo.fps = fps;
    eo.speed = speed;
    eo.no_motion = no_motion;
    eo.out = out;
    return viewer_export(&eo);
}

static int render_png(const char *out, long step)
{
    viewer_opts o;
    memset(&o, 0, sizeof o);
    o.assets_dir = WS_ASSETS;
    o.cap.version = "v1";
    o.cap.block = 64;
    o.event = o.phase = -1;
    o.step = step;
    o.width = W;
    o.height = H;
    o.out = out;
    return viewer_render(&o);
}

int main(void)
{
    char dir[] = "/tmp/ws-export-test-XXXXXX", a[128], b[128], p0[128], p1[128];
    if (!mkdtemp(dir)) return 1;
    snprintf(a, sizeof a, "%s/still.gif", dir);
    snprintf(b, sizeof b, "%s/moving.gif", dir);
    snprintf(p0, sizeof p0, "%s/first.png", dir);
    snprintf(p1, sizeof p1, "%s/last.png", dir);
    umask(077);
    enum { FROM = 3, TO = 10, STEPS = TO - FROM + 1 };

    /* without motion: one frame per step, each up for 1/speed s = 50 cs at 2 steps per second */
    CHECK(export_gif(a, FROM, TO, 10, 2, 1) == 0, "export --no-motion");
    decoded d;
    int opened = open_gif(a, &d) == 0;
    CHECK(opened, "giflib cannot decode %s", a);
    if (opened) {
        CHECK(d.gif->SWidth == W && d.gif->SHeight == H, "screen %dx%d", d.gif->SWidth, d.gif->SHeight);
        CHECK(d.loop && d.loop_count == 0, "NETSCAPE2.0 loop forever: found %d, count %d", d.loop, d.loop_count);
        CHECK(d.frames == STEPS, "%d frames for %d steps", d.frames, STEPS);
        for (int i = 0; i < d.frames && i < 4096; i++) CHECK(d.delay[i] == 50, "frame %d: delay %d cs, expected 50", i, d.delay[i]);
        const GifImageDesc *f0 = &d.gif->SavedImages[0].ImageDesc;
        CHECK(f0->Left == 0 && f0->Top == 0 && f0->Width == W && f0->Height == H, "the first frame covers the screen");
        int smaller = 0;
        for (int i = 1; i < d.frames; i++) smaller += d.gif->SavedImages[i].ImageDesc.Width * d.gif->SavedImages[i].ImageDesc.Height < W * H;
        CHECK(smaller > 0, "no frame stores less than the whole picture: frame differences are not used");
        struct stat st;
        CHECK(stat(a, &st) == 0 && (st.st_mode & 0777) == 0644, "mode %o under umask 077, expected 644", st.st_mode & 0777);

        /* the picture: the first frame and everything composited to the end, against render's PNGs */
        uint32_t *canvas = calloc((size_t)W * H, sizeof *canvas);
        CHECK(render_png(p0, FROM) == 0 && render_png(p1, TO) == 0, "render the reference PNGs");
        /* the footer differs by a word (export says playing, render paused) */
        double same, far, mean;
        composite(&d, 0, canvas);
        compare_png(p0, canvas, &same, &far, &mean);
        CHECK(same > 0.95 && far < 0.005 && mean < 1.0, "first frame against render --step %d: %.2f%% pixels equal, %.2f%% far off, mean error %.2f",
              FROM, 100 * same, 100 * far, mean);
        composite(&d, d.frames - 1, canvas);
        compare_png(p1, canvas, &same, &far, &mean);
        CHECK(same > 0.95 && far < 0.005 && mean < 1.0, "last frame composited against render --step %d: %.2f%% pixels equal, %.2f%% far off, mean error %.2f",
              TO, 100 * same, 100 * far, mean);
        printf("against render's PNG: %.2f%% pixels equal, %.3f%% far off, mean error %.3f per channel\n", 100 * same, 100 * far, mean);
        free(canvas);
        DGifCloseFile(d.gif, NULL);
    }

    /* with motion at 15 fps and 1 step per second: each step lasts 100 cs in all, and the moves
     * between steps add frames (a move of 0.45 s is 7 frames at 15 fps) */
    CHECK(export_gif(b, FROM, TO, 15, 1, 0) == 0, "export with motion");
    opened = open_gif(b, &d) == 0;
    CHECK(opened, "giflib cannot decode %s", b);
    if (opened) {
        CHECK(d.delays_sum == STEPS * 100, "delays add up to %d cs, expected %d", d.delays_sum, STEPS * 100);
        CHECK(d.frames > STEPS && d.frames <= 1 + (STEPS - 1) * 7, "%d frames for %d steps with motion", d.frames, STEPS);
        for (int i = 0; i < d.frames && i < 4096; i++)
            CHECK(d.delay[i] >= 6, "frame %d: delay %d cs, less than one frame at 15 fps", i, d.delay[i]);
        DGifCloseFile(d.gif, NULL);
    }

    /* one step's state per frame: v1's step 0 (a global load, no shared access) and step 1 (its
     * store into shared memory, drawn lanes to banks) do not draw the same panels, so the move
     * between them is a cut (its first frame and the next step's hold); steps 3 and 4 (two shared
     * accesses) keep their move's frames */
    CHECK(export_gif(b, 0, 1, 15, 1, 0) == 0, "export steps 0 to 1 with motion");
    opened = open_gif(b, &d) == 0;
    CHECK(opened && d.frames == 2, "steps 0 to 1: %d frames, expected 2 (a cut: no frame mixes the two steps' panels)", opened ? d.frames : -1);
    if (opened) DGifCloseFile(d.gif, NULL);
    CHECK(export_gif(b, 3, 4, 15, 1, 0) == 0, "export steps 3 to 4 with motion");
    opened = open_gif(b, &d) == 0;
    CHECK(opened && d.frames > 2, "steps 3 to 4: %d frames, expected the move's frames between them", opened ? d.frames : -1);
    if (opened) DGifCloseFile(d.gif, NULL);
    unlink(a);
    unlink(b);
    unlink(p0);
    unlink(p1);
    CHECK(rmdir(dir) == 0, "the folder holds only what the test wrote (no temporary files left)");
    CHECK_DONE("export_gif_should_decode_to_the_viewers_frames");
}
