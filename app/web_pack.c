/* web_pack: see web_pack.h. */
#include "app/web_pack.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "app/viewer/session.h"
#include "trace/capture/capture.h"
#include "trace/json_internal.h"
#include "trace/ladder.h"
#include "trace/outfile.h"

enum { PACK_FILE_MAX = 16 << 20, PACK_KEY = 256 };

/* the captures to pack, each holding copies of its strings (d's point at them only when used: the
 * array moves as it grows) */
typedef struct want {
    capture_desc d;
    char key[PACK_KEY];
    char version[32], data[32], schedule[32];
} want;

typedef struct pack {
    want *w;
    size_t n, cap;
    FILE *f;
    web_pack_stats *st;
} pack;

static int put_u32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

static int put_entry(pack *P, const char *name, const void *data, size_t len)
{
    if (len > UINT32_MAX) return -1;
    if (put_u32(P->f, (uint32_t)strlen(name)) || fwrite(name, 1, strlen(name), P->f) != strlen(name) || put_u32(P->f, (uint32_t)len) ||
        (len && fwrite(data, 1, len, P->f) != len))
        return -1;
    P->st->bytes += len;
    return 0;
}

/* a file of the source tree, under its name in the page */
static int put_file(pack *P, const char *path, const char *name, char *err, size_t errlen)
{
    char *buf;
    size_t len;
    if (json_read_file(path, PACK_FILE_MAX, &buf, &len, err, errlen)) return -1;
    int rc = put_entry(P, name, buf, len);
    free(buf);
    if (rc) { snprintf(err, errlen, "write error"); return -1; }
    P->st->files++;
    return 0;
}

static int json_named(const struct dirent *e, const char *prefix)
{
    size_t n = strlen(e->d_name);
    return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".json") && !strncmp(e->d_name, prefix, strlen(prefix));
}
static int any_json(const struct dirent *e) { return json_named(e, ""); }
static int bench_json(const struct dirent *e) { return json_named(e, "bench-"); }
/* an exercise and its starting file, for the page's editor */
static int exercise_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return json_named(e, "") || (e->d_name[0] != '.' && n > 3 && !strcmp(e->d_name + n - 3, ".cu"));
}

/* every file of dir that filter takes, as prefix/NAME */
static int put_dir(pack *P, const char *dir, const char *prefix, int (*filter)(const struct dirent *), char *err, size_t errlen)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, filter, alphasort);
    if (n < 0) { snprintf(err, errlen, "%s: cannot read the folder", dir); return -1; }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[2048], name[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        snprintf(name, sizeof name, "%s/%s", prefix, names[i]->d_name);
        if (!rc) rc = put_file(P, path, name, err, errlen);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int want_add(pack *P, const capture_desc *d)
{
    if (!d->version) return 0;
    char key[PACK_KEY];
    capture_key(d, key, sizeof key);
    for (size_t i = 0; i < P->n; i++)
        if (!strcmp(P->w[i].key, key)) return 0;
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 64;
        want *w = realloc(P->w, cap * sizeof *w);
        if (!w) return -1;
        P->w = w;
        P->cap = cap;
    }
    want *w = &P->w[P->n++];
    memset(w, 0, sizeof *w);
    w->d = *d;
    snprintf(w->key, sizeof w->key, "%s", key);
    snprintf(w->version, sizeof w->version, "%s", d->version);
    if (d->data) snprintf(w->data, sizeof w->data, "%s", d->data);
    if (d->schedule) snprintf(w->schedule, sizeof w->schedule, "%s", d->schedule);
    /* only what makes the trace: nothing that points into the lesson being walked */
    w->d.cancel = NULL;
    w->d.emu = NULL;
    w->d.warp_order = NULL;
    w->d.kernel = w->d.entry = w->d.include_dir = NULL;
    w->d.defines = NULL;
    w->d.progress = NULL;
    w->d.progress_user = NULL;
    return 0;
}

/* the captures of a lesson: its player walked through every step and every question's picture */
static int want_lesson(pack *P, const char *path, volatile int *cancel, char *err, size_t errlen)
{
    lesson l;
    if (lesson_load(&l, path, err, errlen)) return -1;
    player p;
    if (player_open(&p, &l, &(player_opts){.strict = 0, .cancel = cancel}, err, errlen)) { lesson_free(&l); return -1; }
    int rc = 0;
    for (size_t i = 0; i < player_count(&p) && !rc; i++) {
        if (player_goto(&p, i, err, errlen)) { rc = -1; break; }
        const player_frame *f = player_current(&p), *q = player_question(&p) ? player_question_frame(&p) : NULL;
        if (want_add(P, &f->cap) || want_add(P, &f->cap_compare) || (q && (want_add(P, &q->cap) || want_add(P, &q->cap_compare)))) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
    }
    player_close(&p);
    lesson_free(&l);
    return rc;
}

/* a version as the page's viewer loads it: the default capture, each schedule of break-it, each
 * barrier left out (under each schedule), and every block traced */
static int want_version(pack *P, const ladder_version *v)
{
    static const char *const schedules[] = {NULL, "its:1", "adversarial"}; /* session.c's cycle */
    capture_desc d = {.version = v->id};
    trace t;
    trace_init(&t);
    char err[300];
    uint32_t lines[64];
    size_t nlines = 0;
    if (capture_cpu(&d, &t, err, sizeof err) == 0)
        for (size_t e = 0; e < t.nevents; e++) {
            if (t.events[e].kind != TRACE_BARRIER) continue;
            size_t k = 0;
            while (k < nlines && lines[k] != t.events[e].line) k++;
            if (k == nlines && nlines < 64) lines[nlines++] = t.events[e].line;
        }
    trace_free(&t);
    for (size_t s = 0; s < sizeof schedules / sizeof schedules[0]; s++) {
        d.schedule = schedules[s];
        d.drop_barrier = 0;
        if (want_add(P, &d)) return -1;
        for (size_t k = 0; k < nlines; k++) {
            d.drop_barrier = lines[k];
            if (want_add(P, &d)) return -1;
        }
    }
    d = (capture_desc){.version = v->id, .blocks_traced = UINT32_MAX};
    if (want_add(P, &d)) return -1;
    d = (capture_desc){.version = v->id, .n = SESSION_GRID_N}; /* the grid's N: the card in waves */
    return want_add(P, &d);
}

/* what the first picture needs ends here: the mark (an entry with no name and no bytes) closes
 * warpscope.pack, and what follows goes to warpscope.rest.pack, which the page feeds on behind it */
static int first_part_ends(pack *P, FILE *rest)
{
    if (put_u32(P->f, 0) || put_u32(P->f, 0)) return -1;
    P->f = rest;
    return 0;
}

int web_pack_write(const web_pack_opts *o, web_pack_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    pack P = {.st = st};
    char out[2048], rest[2048], path[2048];
    /* two files: what the first picture needs, and the rest, which the page asks for after it */
    snprintf(out, sizeof out, "%s/warpscope.pack", o->dir);
    snprintf(rest, sizeof rest, "%s/warpscope.rest.pack", o->dir);
    outfile of, orest;
    if (outfile_open(&of, out, err, errlen)) return -1;
    if (outfile_open(&orest, rest, err, errlen)) { outfile_abort(&of); return -1; }
    P.f = of.f;
    int rc = fwrite("WSPACK1\n", 1, 8, P.f) == 8 ? 0 : -1;
    if (rc) snprintf(err, errlen, "%s: write error", out);
    char themes[2048];
    snprintf(themes, sizeof themes, "%s/themes", o->assets_dir);
    if (!rc) rc = put_dir(&P, o->lesson_dir, "lessons", any_json, err, errlen);
    if (!rc) rc = put_dir(&P, themes, "assets/themes", any_json, err, errlen);
    if (!rc) rc = put_dir(&P, o->assets_dir, "assets", bench_json, err, errlen);
    /* the captures: the page's opening picture (v0's default) first, then the lessons', then each
     * version's */
    capture_desc opening = {.version = "v0"}; /* web/page.c's ws_start, as the desktop opens */
    if (!rc && want_add(&P, &opening)) { snprintf(err, errlen, "out of memory"); rc = -1; }
    struct dirent **names = NULL;
    int nl = rc ? 0 : scandir(o->lesson_dir, &names, any_json, alphasort);
    for (int i = 0; i < nl; i++) {
        snprintf(path, sizeof path, "%s/%s", o->lesson_dir, names[i]->d_name);
        if (!rc && want_lesson(&P, path, o->cancel, err, errlen)) rc = -1;
        free(names[i]);
    }
    free(names);
    for (size_t v = 0; v < ladder_count && !rc; v++)
        if (want_version(&P, &ladder_versions[v])) { snprintf(err, errlen, "out of memory"); rc = -1; }
    for (size_t i = 0; i < P.n && !rc; i++) {
        if (o->cancel && *o->cancel) { rc = -2; break; }
        trace t;
        trace_init(&t);
        char why[300], name[PACK_KEY + 32];
        capture_desc d = P.w[i].d; /* its strings, where the array holds them now */
        d.version = P.w[i].version;
        d.data = d.data ? P.w[i].data : NULL;
        d.schedule = d.schedule ? P.w[i].schedule : NULL;
        d.cancel = o->cancel;
        if (capture_cpu(&d, &t, why, sizeof why)) { /* the page says it does not carry it */
            if (o->cancel && *o->cancel) { rc = -2; trace_free(&t); break; }
            st->skipped++;
            trace_free(&t);
            if (i == 0 && first_part_ends(&P, orest.f)) { snprintf(err, errlen, "%s: write error", out); rc = -1; break; }
            continue;
        }
        snprintf(name, sizeof name, "traces/%s.wstrace", P.w[i].key);
        /* the entry's size is known once the trace is written: written after it, then put back */
        long at = ftell(P.f);
        if (put_u32(P.f, (uint32_t)strlen(name)) || fwrite(name, 1, strlen(name), P.f) != strlen(name) || put_u32(P.f, 0) ||
            trace_write_compact(&t, P.f)) {
            rc = -1;
        } else {
            long end = ftell(P.f), size = end - at - 8 - (long)strlen(name);
            if (at < 0 || end < 0 || fseek(P.f, at + 4 + (long)strlen(name), SEEK_SET) || put_u32(P.f, (uint32_t)size) || fseek(P.f, end, SEEK_SET))
                rc = -1;
            else st->bytes += (size_t)size, st->traces++;
        }
        trace_free(&t);
        if (rc) snprintf(err, errlen, "%s: write error", P.f == of.f ? out : rest);
        if (!rc && i == 0 && first_part_ends(&P, orest.f)) { snprintf(err, errlen, "%s: write error", out); rc = -1; }
    }
    /* v0's capture did not run (the page says it lacks it): the first part ends all the same */
    if (!rc && P.f == of.f && first_part_ends(&P, orest.f)) { snprintf(err, errlen, "%s: write error", out); rc = -1; }
    /* last, the exercises and their starting files: the page's editor offers them (the page builds
     * nothing: warpscope serve traces and judges what the learner writes) */
    char xdir[2048];
    snprintf(xdir, sizeof xdir, "%s/exercises", o->lesson_dir);
    DIR *xd = rc ? NULL : opendir(xdir);
    if (xd) {
        closedir(xd);
        rc = put_dir(&P, xdir, "exercises", exercise_file, err, errlen);
    }
    free(P.w);
    if (!rc && o->cancel && *o->cancel) rc = -2; /* asked to stop during the last trace: nothing is kept */
    if (rc) {
        outfile_abort(&of);
        outfile_abort(&orest);
        if (rc == -2) snprintf(err, errlen, "interrupted; nothing written");
        return rc;
    }
    if (outfile_commit(&of, err, errlen)) { outfile_abort(&orest); return -1; }
    return outfile_commit(&orest, err, errlen);
}
