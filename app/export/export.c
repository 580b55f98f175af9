/* export: see export.h. */
#include "app/export/export.h"

#include <SDL.h>
#include <SDL_image.h>
#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/draw/render_svg.h"
#include "trace/outfile.h"

extern char **environ;

/* ---- the output: a temporary file beside it, renamed when complete (outfile) ---- */

enum {
    PATH_LEN = OUTFILE_PATH_MAX,
    EXPORT_MODE = 0644 /* not mkstemp's 0600, nor the umask's: a handout must stay readable by a
                          web server or a colleague */
};

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* ---- formats ---- */

static const struct {
    const char *ext, *name;
    export_format f;
} formats[] = {
    {".gif", "GIF", EXPORT_GIF}, {".mp4", "MP4", EXPORT_MP4}, {".webm", "WebM", EXPORT_WEBM}, {".svg", "SVG", EXPORT_SVG},
};

const char *export_format_name(export_format f)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].f == f) return formats[i].name;
    return "PNG frames";
}

int export_is_animated(export_format f) { return f != EXPORT_SVG; }

/* ".GIF" is ".gif" (not strcasecmp: <strings.h> is the viewer's string table here) */
static int same_ext(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = *a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a;
        if (x != *b) return 0;
    }
    return *a == *b;
}

int export_format_of(const char *out, export_format *f, char *err, size_t errlen)
{
    size_t n = strlen(out);
    struct stat st;
    if (!n) { snprintf(err, errlen, "-o needs a file or folder name"); return -1; }
    if (out[n - 1] == '/' || (stat(out, &st) == 0 && S_ISDIR(st.st_mode))) { *f = EXPORT_PNGS; return 0; }
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) { *f = EXPORT_PNGS; return 0; }
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (same_ext(dot, formats[i].ext)) { *f = formats[i].f; return 0; }
    snprintf(err, errlen, "%s: unknown output format \"%s\": use .gif, .mp4, .webm, .svg, or a folder for PNG frames", out, dot);
    return -1;
}

/* the program on PATH, as execvp would find it */
static int on_path(const char *prog, char *found, size_t len)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    for (const char *p = path;;) {
        size_t n = strcspn(p, ":");
        snprintf(found, len, "%.*s%s%s", (int)n, p, n ? "/" : "./", prog);
        struct stat st;
        if (stat(found, &st) == 0 && S_ISREG(st.st_mode) && access(found, X_OK) == 0) return 1;
        if (!p[n]) break;
        p += n + 1;
    }
    return 0;
}

int export_check_tools(export_format f, char *err, size_t errlen)
{
    if (f != EXPORT_MP4 && f != EXPORT_WEBM) return 0;
    char found[PATH_LEN];
    if (on_path("ffmpeg", found, sizeof found)) return 0;
    snprintf(err, errlen, "%s needs the ffmpeg program, which is not on PATH: install the Debian package ffmpeg (apt-get install ffmpeg), or export a .gif",
             export_format_name(f));
    return -1;
}

void export_fit_size(export_format f, int *w, int *h)
{
    if (f != EXPORT_MP4 && f != EXPORT_WEBM) return;
    *w &= ~1;
    *h &= ~1;
}

/* ---- the writer ---- */

enum {
    GIF_COLOURS = 256,
    GIF_OPAQUE = 255,       /* colours for the picture; index 255 is "unchanged" (transparent) */
    GIF_TRANSPARENT = 255,
    GIF_EXACT = 64,         /* the most frequent colours (theme fills) are kept exactly */
    RGB_SPACE = 1 << 24
};

struct export_writer {
    export_format f;
    int w, h;
    double fps;
    export_stats st;
    outfile t;  /* GIF, MP4, WebM */
    /* GIF */
    GifFileType *gif;
    uint32_t *hkey, *hcount; /* histogram of sampled colours: key rgb | 1 << 24, 0 empty */
    size_t hcap, hn;
    int have_palette, npal;
    uint8_t pal[GIF_COLOURS][3];
    uint16_t *map;           /* [RGB_SPACE]: palette index + 1, 0 not yet looked up */
    uint8_t *cur, *prev, *pend;
    int have_prev, have_pend, pend_x, pend_y, pend_w, pend_h, pend_transparent;
    uint64_t clock, pend_start, pend_end; /* in frame times */
    /* MP4, WebM */
    pid_t pid;
    int sock;
    FILE *log;
    uint8_t *rgba;
    /* PNG frames */
    char dir[PATH_LEN];
    int made_dir;
    size_t nfiles;
};

/* -- histogram and palette -- */

static int hist_add(export_writer *x, uint32_t rgb, uint32_t count)
{
    if (x->hn * 2 >= x->hcap) {
        size_t cap = x->hcap ? x->hcap * 2 : 4096;
        uint32_t *k = calloc(cap, sizeof *k), *c = calloc(cap, sizeof *c);
        if (!k || !c) { free(k); free(c); return -1; }
        for (size_t i = 0; i < x->hcap; i++) {
            if (!x->hkey[i]) continue;
            size_t j = (x->hkey[i] * 2654435761u) & (cap - 1);
            while (k[j]) j = (j + 1) & (cap - 1);
            k[j] = x->hkey[i];
            c[j] = x->hcount[i];
        }
        free(x->hkey);
        free(x->hcount);
        x->hkey = k;
        x->hcount = c;
        x->hcap = cap;
    }
    uint32_t key = rgb | 1u << 24;
    size_t j = (key * 2654435761u) & (x->hcap - 1);
    while (x->hkey[j] && x->hkey[j] != key) j = (j + 1) & (x->hcap - 1);
    if (!x->hkey[j]) { x->hkey[j] = key; x->hn++; }
    x->hcount[j] += count;
    return 0;
}

typedef struct hcol {
    uint32_t rgb, count;
} hcol;

static int by_count(const void *a, const void *b)
{
    const hcol *p = a, *q = b;
    if (p->count != q->count) return p->count > q->count ? -1 : 1;
    return (p->rgb > q->rgb) - (p->rgb < q->rgb);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int channel(uint32_t rgb, int c) { return (int)(rgb >> (16 - 8 * c) & 255); }

/* Median cut of cols[0..n) into at most k boxes, each box's weighted mean a palette entry.
 * Deterministic: boxes are split in a fixed order and sorts break ties by the colour. */
static int median_cut(hcol *cols, size_t n, int k, uint8_t (*out)[3])
{
    typedef struct { size_t a, b; } box;
    box *boxes = malloc((size_t)k * sizeof *boxes);
    uint64_t *keys = malloc(n * sizeof *keys);
    if (!boxes || !keys) { free(boxes); free(keys); return -1; }
    int nb = 1;
    boxes[0] = (box){0, n};
    while (nb < k) {
        int best = -1, bestc = 0, bestr = 0;
        for (int i = 0; i < nb; i++) {
            if (boxes[i].b - boxes[i].a < 2) continue;
            for (int c = 0; c < 3; c++) {
                int lo = 255, hi = 0;
                for (size_t j = boxes[i].a; j < boxes[i].b; j++) {
                    int v = channel(cols[j].rgb, c);
                    if (v < lo) lo = v;
                    if (v > hi) hi = v;
                }
                if (hi - lo > bestr) { bestr = hi - lo; best = i; bestc = c; }
            }
        }
        if (best < 0) break; /* every box is one colour */
        box bx = boxes[best];
        size_t m = bx.b - bx.a;
        for (size_t j = 0; j < m; j++)
            keys[j] = (uint64_t)channel(cols[bx.a + j].rgb, bestc) << 56 | (uint64_t)cols[bx.a + j].rgb << 32 | cols[bx.a + j].count;
        qsort(keys, m, sizeof *keys, cmp_u64);
        uint64_t total = 0, acc = 0;
        for (size_t j = 0; j < m; j++) {
            cols[bx.a + j].rgb = (uint32_t)(keys[j] >> 32 & 0xFFFFFF);
            cols[bx.a + j].count = (uint32_t)keys[j];
            total += cols[bx.a + j].count;
        }
        size_t cut = 1;
        for (size_t j = 0; j + 1 < m; j++) {
            acc += cols[bx.a + j].count;
            cut = j + 1;
            if (acc * 2 >= total) break;
        }
        boxes[best] = (box){bx.a, bx.a + cut};
        boxes[nb++] = (box){bx.a + cut, bx.b};
    }
    for (int i = 0; i < nb; i++) {
        double s[3] = {0, 0, 0}, wsum = 0;
        for (size_t j = boxes[i].a; j < boxes[i].b; j++) {
            double wgt = cols[j].count ? cols[j].count : 1;
            for (int c = 0; c < 3; c++) s[c] += wgt * channel(cols[j].rgb, c);
            wsum += wgt;
        }
        for (int c = 0; c < 3; c++) out[i][c] = (uint8_t)lround(wsum > 0 ? s[c] / wsum : 0);
    }
    free(boxes);
    free(keys);
    return nb;
}

static int build_palette(export_writer *x, char *err, size_t errlen)
{
    hcol *cols = malloc((x->hn ? x->hn : 1) * sizeof *cols);
    if (!cols) { snprintf(err, errlen, "out of memory"); return -1; }
    size_t n = 0;
    for (size_t i = 0; i < x->hcap; i++)
        if (x->hkey[i]) cols[n++] = (hcol){x->hkey[i] & 0xFFFFFF, x->hcount[i]};
    qsort(cols, n, sizeof *cols, by_count);
    int np;
    if (n <= GIF_OPAQUE) {
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 3; c++) x->pal[i][c] = (uint8_t)channel(cols[i].rgb, c);
        np = (int)n;
    } else {
        /* the theme's fills exactly; anti-aliased edges and fades share the rest */
        for (int i = 0; i < GIF_EXACT; i++)
            for (int c = 0; c < 3; c++) x->pal[i][c] = (uint8_t)channel(cols[i].rgb, c);
        int k = median_cut(cols + GIF_EXACT, n - GIF_EXACT, GIF_OPAQUE - GIF_EXACT, x->pal + GIF_EXACT);
        if (k < 0) { free(cols); snprintf(err, errlen, "out of memory"); return -1; }
        np = GIF_EXACT + k;
    }
    free(cols);
    x->npal = np ? np : 1;
    x->st.colours = x->npal;
    x->have_palette = 1;
    return 0;
}

static uint8_t nearest(export_writer *x, uint32_t rgb)
{
    uint16_t *m = &x->map[rgb];
    if (*m) return (uint8_t)(*m - 1);
    int r = channel(rgb, 0), g = channel(rgb, 1), b = channel(rgb, 2);
    long best = -1;
    int bi = 0;
    for (int i = 0; i < x->npal; i++) {
        /* weighted: the eye tells greens apart best and blues least */
        int dr = r - x->pal[i][0], dg = g - x->pal[i][1], db = b - x->pal[i][2];
        long d = 3L * dr * dr + 4L * dg * dg + 2L * db * db;
        if (best < 0 || d < best) { best = d; bi = i; }
    }
    *m = (uint16_t)(bi + 1);
    return (uint8_t)bi;
}

/* -- GIF -- */

static int gif_fail(export_writer *x, const char *what, int code, char *err, size_t errlen)
{
    const char *why = GifErrorString(code);
    snprintf(err, errlen, "%s: %s: %s", x->t.path, what, why ? why : "giflib error");
    return -1;
}

static int gif_header(export_writer *x, char *err, size_t errlen)
{
    GifColorType colours[GIF_COLOURS];
    memset(colours, 0, sizeof colours);
    for (int i = 0; i < x->npal; i++) colours[i] = (GifColorType){x->pal[i][0], x->pal[i][1], x->pal[i][2]};
    ColorMapObject *cm = GifMakeMapObject(GIF_COLOURS, colours);
    if (!cm) { snprintf(err, errlen, "out of memory"); return -1; }
    EGifSetGifVersion(x->gif, true);
    int rc = EGifPutScreenDesc(x->gif, x->w, x->h, 8, 0, cm);
    GifFreeMapObject(cm);
    if (rc != GIF_OK) return gif_fail(x, "screen descriptor", x->gif->Error, err, errlen);
    /* NETSCAPE2.0: loop forever (count 0) */
    static const GifByteType loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(x->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(x->gif, 11, "NETSCAPE2.0") != GIF_OK || EGifPutExtensionBlock(x->gif, 3, loop) != GIF_OK ||
        EGifPutExtensionTrailer(x->gif) != GIF_OK)
        return gif_fail(x, "loop extension", x->gif->Error, err, errlen);
    return 0;
}

/* centiseconds from frame a to frame b, rounded on the clock so the total stays exact */
static int centis(const export_writer *x, uint64_t a, uint64_t b)
{
    long d = lround((double)b * 100.0 / x->fps) - lround((double)a * 100.0 / x->fps);
    return d < 2 ? 2 : d > 65535 ? 65535 : (int)d;
}

static int gif_flush(export_writer *x, char *err, size_t errlen)
{
    if (!x->have_pend) return 0;
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT,
                                .UserInputFlag = false,
                                .DelayTime = centis(x, x->pend_start, x->pend_end),
                                .TransparentColor = x->pend_transparent ? GIF_TRANSPARENT : NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(x->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) != GIF_OK ||
        EGifPutImageDesc(x->gif, x->pend_x, x->pend_y, x->pend_w, x->pend_h, false, NULL) != GIF_OK)
        return gif_fail(x, "frame", x->gif->Error, err, errlen);
    for (int y = 0; y < x->pend_h; y++)
        if (EGifPutLine(x->gif, x->pend + (size_t)y * (size_t)x->pend_w, x->pend_w) != GIF_OK)
            return gif_fail(x, "frame", x->gif->Error, err, errlen);
    x->have_pend = 0;
    x->st.frames_out++;
    return 0;
}

static int gif_frame(export_writer *x, export_image im, unsigned repeat, char *err, size_t errlen)
{
    if (!x->have_palette) {
        if (!x->hn && export_sample(x, im, err, errlen)) return -1;
        if (build_palette(x, err, errlen) || gif_header(x, err, errlen)) return -1;
    }
    int w = x->w, h = x->h;
    /* to palette indices, and the rectangle that changed */
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)((const char *)im.px + (size_t)y * (size_t)im.pitch);
        uint8_t *c = x->cur + (size_t)y * (size_t)w, *p = x->prev + (size_t)y * (size_t)w;
        uint32_t last = UINT32_MAX;
        uint8_t li = 0;
        int first = -1, lastx = -1;
        for (int i = 0; i < w; i++) {
            uint32_t rgb = row[i] & 0xFFFFFF;
            if (rgb != last) { last = rgb; li = nearest(x, rgb); }
            c[i] = li;
            if (!x->have_prev || li != p[i]) {
                if (first < 0) first = i;
                lastx = i;
            }
        }
        if (first >= 0) {
            if (first < x0) x0 = first;
            if (lastx > x1) x1 = lastx;
            if (y < y0) y0 = y;
            y1 = y;
        }
    }
    x->st.frames_in++;
    if (x1 < 0) { /* nothing changed: the frame before stays up longer */
        x->pend_end += repeat;
        x->clock += repeat;
        return 0;
    }
    if (gif_flush(x, err, errlen)) return -1;
    x->pend_x = x0;
    x->pend_y = y0;
    x->pend_w = x1 - x0 + 1;
    x->pend_h = y1 - y0 + 1;
    x->pend_transparent = x->have_prev;
    for (int y = 0; y < x->pend_h; y++) {
        const uint8_t *c = x->cur + (size_t)(y0 + y) * (size_t)w + x0, *p = x->prev + (size_t)(y0 + y) * (size_t)w + x0;
        uint8_t *o = x->pend + (size_t)y * (size_t)x->pend_w;
        /* pixels that did not change are transparent: long runs of one index compress well */
        for (int i = 0; i < x->pend_w; i++) o[i] = x->have_prev && c[i] == p[i] ? GIF_TRANSPARENT : c[i];
    }
    x->have_pend = 1;
    x->pend_start = x->clock;
    x->pend_end = x->clock + repeat;
    x->clock += repeat;
    uint8_t *t = x->prev;
    x->prev = x->cur;
    x->cur = t;
    x->have_prev = 1;
    return 0;
}

static int gif_write(GifFileType *g, const GifByteType *b, int n)
{
    return (int)fwrite(b, 1, (size_t)n, (FILE *)g->UserData);
}

static int gif_open(export_writer *x, char *err, size_t errlen)
{
    size_t px = (size_t)x->w * (size_t)x->h;
    x->map = calloc(RGB_SPACE, sizeof *x->map); /* pages are touched only for colours seen */
    x->cur = malloc(px);
    x->prev = malloc(px);
    x->pend = malloc(px);
    if (!x->map || !x->cur || !x->prev || !x->pend) { snprintf(err, errlen, "out of memory"); return -1; }
    if (outfile_open_mode(&x->t, x->dir, EXPORT_MODE, err, errlen)) return -1;
    int e = 0;
    x->gif = EGifOpen(x->t.f, gif_write, &e); /* into the outfile's stream, which commit checks */
    if (!x->gif) return gif_fail(x, "cannot start the GIF", e, err, errlen);
    return 0;
}

static int gif_close(export_writer *x, char *err, size_t errlen)
{
    int rc = 0, e = 0;
    if (!x->have_palette) { snprintf(err, errlen, "%s: no frames to write", x->t.path); rc = -1; }
    if (!rc) rc = gif_flush(x, err, errlen);
    if (EGifCloseFile(x->gif, &e) != GIF_OK && !rc) rc = gif_fail(x, "cannot finish the GIF", e, err, errlen);
    x->gif = NULL;
    return rc;
}

/* -- ffmpeg -- */

static const char *const codec_args[][12] = {
    [EXPORT_MP4] = {"-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4"},
    [EXPORT_WEBM] = {"-c:v", "libvpx-vp9", "-crf", "32", "-b:v", "0", "-row-mt", "1", "-pix_fmt", "yuv420p", "-f", "webm"},
};

static void log_tail(FILE *log, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!log) return;
    char line[300];
    rewind(log);
    while (fgets(line, sizeof line, log)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0]) snprintf(buf, len, "%s", line);
    }
}

static int ffmpeg_open(export_writer *x, char *err, size_t errlen)
{
    /* ffmpeg writes the temporary file by its name; the outfile renames it when ffmpeg is done */
    if (export_check_tools(x->f, err, errlen) || outfile_open_mode(&x->t, x->dir, EXPORT_MODE, err, errlen)) return -1;
    x->rgba = malloc((size_t)x->w * (size_t)x->h * 4);
    x->log = tmpfile();
    int sv[2];
    /* a socket rather than a pipe: send(MSG_NOSIGNAL) reports a dead ffmpeg as an error instead
     * of a SIGPIPE that would kill warpscope with the temporary file still there */
    if (!x->rgba || !x->log || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, errlen, "cannot start ffmpeg: %s", strerror(errno));
        return -1;
    }
    char size[32], rate[32];
    snprintf(size, sizeof size, "%dx%d", x->w, x->h);
    snprintf(rate, sizeof rate, "%g", x->fps);
    const char *argv[40] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", "rgba",
                            "-s", size, "-r", rate, "-i", "pipe:0"};
    int n = 15;
    for (int i = 0; i < 12; i++) argv[n++] = codec_args[x->f][i];
    argv[n++] = "-y";
    argv[n++] = x->t.tmp;
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fileno(x->log), 2);
    posix_spawn_file_actions_addclose(&fa, fileno(x->t.f)); /* ffmpeg opens the file by its name */
    /* -nostdin stops ffmpeg reading keys from the terminal; the frames come on pipe:0 */
    int rc = posix_spawnp(&x->pid, "ffmpeg", &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        x->pid = 0;
        snprintf(err, errlen, "cannot start ffmpeg: %s", strerror(rc));
        return -1;
    }
    x->sock = sv[0];
    return 0;
}

static int ffmpeg_wait(export_writer *x, char *err, size_t errlen)
{
    if (x->sock >= 0) close(x->sock);
    x->sock = -1;
    int status = 0;
    while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR) {}
    x->pid = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    char tail[400];
    log_tail(x->log, tail, sizeof tail);
    snprintf(err, errlen, "%s: ffmpeg failed (%s %d)%s%s", x->t.path, WIFEXITED(status) ? "exit" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), tail[0] ? ": " : "", tail);
    return -1;
}

static int ffmpeg_frame(export_writer *x, export_image im, unsigned repeat, char *err, size_t errlen)
{
    uint8_t *o = x->rgba;
    for (int y = 0; y < x->h; y++) {
        const uint32_t *row = (const uint32_t *)((const char *)im.px + (size_t)y * (size_t)im.pitch);
        for (int i = 0; i < x->w; i++, o += 4) {
            o[0] = (uint8_t)(row[i] >> 16);
            o[1] = (uint8_t)(row[i] >> 8);
            o[2] = (uint8_t)row[i];
            o[3] = 255;
        }
    }
    size_t total = (size_t)x->w * (size_t)x->h * 4;
    for (unsigned r = 0; r < repeat; r++)
        for (size_t done = 0; done < total;) {
            ssize_t k = send(x->sock, x->rgba + done, total - done, MSG_NOSIGNAL);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                if (ffmpeg_wait(x, err, errlen) == 0) snprintf(err, errlen, "%s: ffmpeg stopped reading frames", x->t.path);
                return -1;
            }
            done += (size_t)k;
        }
    x->st.frames_in++;
    x->st.frames_out += repeat;
    return 0;
}

/* -- PNG frames -- */

static int png_open(export_writer *x, char *err, size_t errlen)
{
    struct stat st;
    size_t n = strlen(x->dir);
    while (n > 1 && x->dir[n - 1] == '/') x->dir[--n] = '\0';
    if (stat(x->dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) { snprintf(err, errlen, "%s: exists and is not a folder", x->dir); return -1; }
        if (access(x->dir, W_OK) != 0) { snprintf(err, errlen, "%s: cannot write there: %s", x->dir, strerror(errno)); return -1; }
    } else if (mkdir(x->dir, 0755) != 0) {
        snprintf(err, errlen, "%s: cannot make the folder: %s", x->dir, strerror(errno));
        return -1;
    } else {
        x->made_dir = 1;
    }
    return 0;
}

static void png_name(const export_writer *x, size_t i, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s/frame-%05zu.png", (int)(len - 32), x->dir, i);
}

static int png_frame(export_writer *x, export_image im, char *err, size_t errlen)
{
    char path[PATH_LEN];
    png_name(x, x->nfiles, path, sizeof path);
    outfile t;
    if (outfile_open_mode(&t, path, EXPORT_MODE, err, errlen)) return -1;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormatFrom((void *)im.px, im.w, im.h, 32, im.pitch, SDL_PIXELFORMAT_RGB888);
    SDL_RWops *rw = s ? SDL_RWFromFP(t.f, SDL_FALSE) : NULL; /* the outfile keeps its stream */
    int ok = rw && IMG_SavePNG_RW(s, rw, 1) == 0;
    if (s) SDL_FreeSurface(s);
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write PNG: %s", path, s ? IMG_GetError() : SDL_GetError());
        outfile_abort(&t);
        return -1;
    }
    if (outfile_commit(&t, err, errlen)) return -1;
    x->nfiles++;
    x->st.frames_in++;
    x->st.frames_out++;
    x->st.bytes += file_size(path);
    return 0;
}

static void png_drop(export_writer *x)
{
    char path[PATH_LEN];
    for (size_t i = 0; i < x->nfiles; i++) {
        png_name(x, i, path, sizeof path);
        unlink(path);
    }
    x->nfiles = 0;
    if (x->made_dir) rmdir(x->dir);
}

/* -- the writer's interface -- */

static void writer_free(export_writer *x)
{
    if (x->gif) {
        int e;
        EGifCloseFile(x->gif, &e);
    }
    if (x->pid > 0) {
        if (x->sock >= 0) close(x->sock);
        x->sock = -1;
        int status;
        while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR) {}
    }
    if (x->sock >= 0) close(x->sock);
    if (x->log) fclose(x->log);
    outfile_abort(&x->t);
    free(x->hkey);
    free(x->hcount);
    free(x->map);
    free(x->cur);
    free(x->prev);
    free(x->pend);
    free(x->rgba);
    free(x);
}

export_writer *export_open(export_format f, const char *out, int w, int h, double fps, char *err, size_t errlen)
{
    if (!export_is_animated(f)) { snprintf(err, errlen, "%s: SVG holds one step, not frames", out); return NULL; }
    export_writer *x = calloc(1, sizeof *x);
    if (!x) { snprintf(err, errlen, "out of memory"); return NULL; }
    x->f = f;
    x->w = w;
    x->h = h;
    x->fps = fps;
    x->sock = -1;
    snprintf(x->dir, sizeof x->dir, "%s", out);
    int rc = f == EXPORT_GIF ? gif_open(x, err, errlen) : f == EXPORT_PNGS ? png_open(x, err, errlen) : ffmpeg_open(x, err, errlen);
    if (rc) { writer_free(x); return NULL; }
    return x;
}

int export_wants_samples(const export_writer *x) { return x->f == EXPORT_GIF && !x->have_palette; }

int export_sample(export_writer *x, export_image im, char *err, size_t errlen)
{
    if (!export_wants_samples(x)) return 0;
    /* every pixel: anti-aliased text is thin, and a sparser sample would miss its edge shades */
    for (int y = 0; y < im.h; y++) {
        const uint32_t *row = (const uint32_t *)((const char *)im.px + (size_t)y * (size_t)im.pitch);
        for (int i = 0; i < im.w;) {
            uint32_t rgb = row[i] & 0xFFFFFF;
            int j = i + 1;
            while (j < im.w && (row[j] & 0xFFFFFF) == rgb) j++;
            if (hist_add(x, rgb, (uint32_t)(j - i))) { snprintf(err, errlen, "out of memory"); return -1; }
            i = j;
        }
    }
    return 0;
}

int export_frame(export_writer *x, export_image im, unsigned repeat, char *err, size_t errlen)
{
    if (im.w != x->w || im.h != x->h) { snprintf(err, errlen, "frame of %dx%d for a %dx%d export", im.w, im.h, x->w, x->h); return -1; }
    if (!repeat) return 0;
    if (x->f == EXPORT_GIF) return gif_frame(x, im, repeat, err, errlen);
    if (x->f == EXPORT_PNGS) return png_frame(x, im, err, errlen);
    return ffmpeg_frame(x, im, repeat, err, errlen);
}

int export_close(export_writer *x, export_stats *st, char *err, size_t errlen)
{
    int rc = 0;
    if (x->f == EXPORT_GIF) rc = gif_close(x, err, errlen);
    else if (x->f != EXPORT_PNGS) {
        rc = ffmpeg_wait(x, err, errlen);
        if (!rc && file_size(x->t.tmp) == 0) { snprintf(err, errlen, "%s: ffmpeg wrote nothing", x->t.path); rc = -1; }
        if (!rc && chmod(x->t.tmp, EXPORT_MODE) != 0) { snprintf(err, errlen, "%s: %s", x->t.path, strerror(errno)); rc = -1; }
    }
    if (x->f != EXPORT_PNGS && !rc) {
        rc = outfile_commit(&x->t, err, errlen);
        if (!rc) x->st.bytes = file_size(x->t.path);
    }
    if (rc && x->f == EXPORT_PNGS) png_drop(x);
    if (!rc && x->f == EXPORT_PNGS) { /* frames of an earlier, longer export into this folder would play on after ours */
        char path[PATH_LEN];
        for (size_t i = x->nfiles;; i++) {
            png_name(x, i, path, sizeof path);
            if (unlink(path) != 0) break;
        }
    }
    if (st) *st = x->st;
    writer_free(x);
    return rc;
}

void export_abort(export_writer *x)
{
    if (!x) return;
    if (x->f == EXPORT_PNGS) png_drop(x);
    writer_free(x);
}

/* ---- SVG ---- */

int export_svg(const char *out, const dl_list *l, int w, int h, void *ctx, int (*ascent)(void *ctx, dl_font f, int px),
               char *err, size_t errlen)
{
    outfile t;
    if (outfile_open_mode(&t, out, EXPORT_MODE, err, errlen)) return -1;
    rsvg_opts o = {.ctx = ctx, .ascent = ascent, .title = "warpscope"};
    if (rsvg_write(t.f, l, w, h, &o)) {
        snprintf(err, errlen, "%s: write failed: %s", out, strerror(errno));
        outfile_abort(&t);
        return -1;
    }
    return outfile_commit(&t, err, errlen); /* a failed flush or close is "write failed" too */
}
