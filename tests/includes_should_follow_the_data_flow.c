/* The folders follow the data flow (README, "Layout"): kernels and traces at the bottom, then what
 * reads them, then drawing, lessons, export and the viewer, with the command line on top. An
 * include may only run down that order, never back up, and SDL stays behind the few files that
 * talk to the window, the fonts and PNG files. This test reads every source file of app/, trace/
 * kernels/ and web/, resolves each `#include "..."` to the folder that holds it, and fails on any
 * include the table below does not allow, naming the file, the line and the rule. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Each room and the rooms it may include (itself always). Longest folder first: a file belongs
 * to the deepest folder that holds it. */
static const struct room {
    const char *dir;
    const char *may_include[8];
} rooms[] = {
    {"trace/capture", {"trace"}},                     /* produces traces: emulator, schedules, races, backends */
    {"app/viewer", {"app/draw", "app/export", "app/learn", "trace", "trace/capture"}},
    {"app/export", {"app/draw", "trace"}},            /* files from frames: knows no session */
    {"app/learn", {"trace", "trace/capture"}},        /* lessons without drawing */
    {"app/draw", {"trace"}},                          /* the draw list and its executors */
    {"kernels", {NULL}},                              /* the ladder: plain CUDA, including nothing of ours */
    {"trace", {NULL}},                                /* the reading library: nothing above it */
    {"app", {"app/viewer", "app/export", "app/learn", "app/draw", "trace", "trace/capture", "kernels"}},
    {"web", {"app/viewer", "app/learn", "app/draw", "trace", "trace/capture"}}, /* the page: the viewer's C, no window, no emulator */
};

/* The only files that may include SDL: the SDL executor (window, fonts, PNG), the window's event
 * loop, the key table (SDL's key codes are its names) and the PNG frames of export. */
static const char *const sdl_allowed[] = {
    "app/draw/render_sdl.c", "app/draw/render_sdl.h", "app/viewer/viewer.c", "app/viewer/keys.h", "app/viewer/keys.c",
    "app/export/export.c", "web/keynames.c",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *root;
static int files_read, includes_checked, failures;

static const struct room *room_of(const char *rel)
{
    for (size_t i = 0; i < COUNT(rooms); i++) {
        size_t n = strlen(rooms[i].dir);
        if (strncmp(rel, rooms[i].dir, n) == 0 && rel[n] == '/') {
            /* a deeper room listed later must not be shadowed: the table lists deeper rooms first */
            return &rooms[i];
        }
    }
    return NULL;
}

/* root/rel into path; -1 when it does not fit */
static int join(char *path, size_t len, const char *rel)
{
    int n = snprintf(path, len, "%s/%s", root, rel);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int exists(const char *rel)
{
    char path[4096];
    struct stat st;
    return join(path, sizeof path, rel) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Resolves a quoted include as the compiler does here: beside the file, then from the top (every
 * library's include folder), then trace/capture/ (the kernel files' `#include "ws_cuda.h"`). */
static int resolve(const char *from, const char *name, char *out, size_t outlen)
{
    const char *slash = strrchr(from, '/');
    snprintf(out, outlen, "%.*s/%s", (int)(slash ? slash - from : 0), from, name);
    if (exists(out)) return 0;
    snprintf(out, outlen, "%s", name);
    if (exists(out)) return 0;
    snprintf(out, outlen, "trace/capture/%s", name);
    return exists(out) ? 0 : -1;
}

static int allowed(const struct room *from, const struct room *to)
{
    if (from == to) return 1;
    for (size_t i = 0; i < COUNT(from->may_include) && from->may_include[i]; i++)
        if (strcmp(from->may_include[i], to->dir) == 0) return 1;
    return 0;
}

static void check_file(const char *rel)
{
    char path[4096], line[1024];
    FILE *f = join(path, sizeof path, rel) ? NULL : fopen(path, "r");
    if (!f) { printf("FAIL %s: cannot open\n", rel); failures++; return; }
    files_read++;
    const struct room *me = room_of(rel);
    int sdl_ok = 0;
    for (size_t i = 0; i < COUNT(sdl_allowed); i++) sdl_ok |= strcmp(rel, sdl_allowed[i]) == 0;
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != '#') continue;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, "include", 7) != 0) continue;
        p += 7;
        while (*p == ' ' || *p == '\t') p++;
        char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
        const char *e = close ? strchr(p + 1, close) : NULL;
        if (!e) continue;
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)(e - p - 1), p + 1);
        includes_checked++;
        if (close == '>') {
            if (strncmp(name, "SDL", 3) == 0 && !sdl_ok) {
                printf("FAIL %s:%d includes <%s>: SDL belongs to the SDL executor and the window only\n", rel, ln, name);
                failures++;
            }
            continue;
        }
        char target[2048];
        if (resolve(rel, name, target, sizeof target)) {
            printf("FAIL %s:%d includes \"%s\", which is in no folder of the tree\n", rel, ln, name);
            failures++;
            continue;
        }
        const struct room *to = room_of(target);
        if (!me || !to) continue; /* a file outside the rooms (none today) */
        if (!allowed(me, to)) {
            printf("FAIL %s:%d includes %s: %s/ may not include %s/ (the arrow would run back up)\n", rel, ln, target,
                   me->dir, to->dir);
            failures++;
        }
    }
    fclose(f);
}

static int source_file(const char *name)
{
    static const char *const ext[] = {".c", ".h", ".cu", ".cpp"};
    size_t n = strlen(name);
    for (size_t i = 0; i < COUNT(ext); i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcmp(name + n - k, ext[i]) == 0) return 1;
    }
    return 0;
}

static void walk(const char *rel)
{
    char path[4096];
    DIR *d = join(path, sizeof path, rel) ? NULL : opendir(path);
    if (!d) { printf("FAIL %s: cannot open the folder\n", rel); failures++; return; }
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char sub[2048], full[4096];
        int n = snprintf(sub, sizeof sub, "%s/%s", rel, de->d_name);
        struct stat st;
        if (n < 0 || (size_t)n >= sizeof sub || join(full, sizeof full, sub) || stat(full, &st)) continue;
        if (S_ISDIR(st.st_mode)) walk(sub);
        else if (source_file(de->d_name)) check_file(sub);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    root = argc > 1 ? argv[1] : WS_ROOT;
    walk("trace");
    walk("kernels");
    walk("app");
    walk("web");
    /* A boundary test that reads nothing proves nothing. */
    if (files_read < 60 || includes_checked < 200) {
        printf("FAIL read only %d files and %d includes under %s\n", files_read, includes_checked, root);
        return 1;
    }
    printf("%d files, %d includes: %s\n", files_read, includes_checked, failures ? "boundaries crossed" : "every include runs down the data flow");
    return failures ? 1 : 0;
}
