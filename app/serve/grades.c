/* grades: a class's grades as CSV, for a course's gradebook. One row per student (the record's
 * names, a student who joined and tried nothing included), then per exercise of the server five
 * columns: the goals met by the student's best try (a number: the points), whether any try met
 * them all (1 or 0), the tries, the last try (UTC, ISO 8601) and the fastest timing on the server's
 * GPU (GB/s; empty where none). The first columns are those
 * Canvas's gradebook import reads (Student, ID, SIS User ID, SIS Login ID, Section: the name in
 * Student and SIS Login ID, the class's join code as the section); Moodle's import (Grades > Import
 * > CSV file) maps a column to the user (SIS Login ID to "username") and the points columns to grade
 * items, the others ignored. UTF-8 with a byte-order mark (Excel reads it so; Moodle and Canvas
 * skip it); every cell quoted; a cell that begins with =, +, -, @, a tab or a carriage return is
 * written after an apostrophe, so that a spreadsheet takes no student's name for a formula. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/learn/exercise.h"
#include "app/serve/serve.h"

typedef struct best_gbs {
    char student[260], exercise[130];
    double gbs;
} best_gbs;

typedef struct csv {
    FILE *f;
    best_gbs *best; /* each student's fastest timing on the card, per exercise */
    size_t nbest, capbest;
    const serve_exercise *ex;
    size_t nex, at; /* the exercise the row has reached */
    const char *section;
    char student[4 * SERVE_NAME_CHARS + 1];
    int open; /* a student's row is being written */
} csv;

static void cell(FILE *f, const char *text, int first)
{
    if (!first) fputc(',', f);
    fputc('"', f);
    if (strchr("=+-@\t\r", text[0]) && text[0]) fputc('\'', f);
    for (const char *c = text; *c; c++) {
        if (*c == '"') fputc('"', f);
        fputc(*c, f);
    }
    fputc('"', f);
}

static void cell_num(FILE *f, long long v)
{
    char t[24];
    snprintf(t, sizeof t, "%lld", v);
    cell(f, t, 0);
}

/* the cells of exercises up to (not including) index end that the student did not try: empty */
static void skip_to(csv *c, size_t end)
{
    for (; c->at < end; c->at++)
        for (int k = 0; k < 5; k++) cell(c->f, k == 2 ? "0" : "", 0);
}

static void end_row(csv *c)
{
    if (!c->open) return;
    skip_to(c, c->nex);
    fputs("\r\n", c->f);
    c->open = 0;
}

static void add(void *ud, const record_grade *g)
{
    csv *c = ud;
    if (!c->open || strcmp(c->student, g->student)) {
        end_row(c);
        snprintf(c->student, sizeof c->student, "%s", g->student);
        cell(c->f, g->student, 1);
        cell(c->f, "", 0);
        cell(c->f, "", 0);
        cell(c->f, g->student, 0);
        cell(c->f, c->section, 0);
        c->open = 1;
        c->at = 0;
    }
    if (!g->exercise) return;
    size_t i = 0;
    while (i < c->nex && strcmp(c->ex[i].l.id, g->exercise)) i++;
    if (i == c->nex || i < c->at) return; /* an exercise this server no longer has */
    skip_to(c, i);
    char when[40] = "";
    time_t secs = (time_t)(g->last_ms / 1000);
    struct tm tmv;
    if (g->last_ms > 0 && gmtime_r(&secs, &tmv)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    cell_num(c->f, g->best_met);
    cell_num(c->f, g->solved);
    cell_num(c->f, g->tries);
    cell(c->f, when, 0);
    char gbs[32] = "";
    for (size_t k = 0; k < c->nbest; k++)
        if (strcmp(c->best[k].student, g->student) == 0 && strcmp(c->best[k].exercise, g->exercise) == 0)
            snprintf(gbs, sizeof gbs, "%.1f", c->best[k].gbs);
    cell(c->f, gbs, 0);
    c->at = i + 1;
}

static void keep_best(void *ud, const record_gpu *g)
{
    csv *c = ud;
    if (c->nbest == c->capbest) {
        best_gbs *b = realloc(c->best, (c->capbest = c->capbest ? 2 * c->capbest : 64) * sizeof *b);
        if (!b) return;
        c->best = b;
    }
    best_gbs *b = &c->best[c->nbest++];
    snprintf(b->student, sizeof b->student, "%s", g->student);
    snprintf(b->exercise, sizeof b->exercise, "%s", g->exercise);
    b->gbs = g->gbs;
}

char *grades_csv(record *r, int64_t class_id, const char *section, const serve_exercise *ex, size_t nex, size_t *len, char *err, size_t errlen)
{
    char *out = NULL;
    size_t n = 0;
    csv c = {.f = open_memstream(&out, &n), .ex = ex, .nex = nex, .section = section ? section : ""};
    if (!c.f) { snprintf(err, errlen, "out of memory"); return NULL; }
    fputs("\xEF\xBB\xBF", c.f);
    static const char *const first[] = {"Student", "ID", "SIS User ID", "SIS Login ID", "Section"};
    for (size_t i = 0; i < 5; i++) cell(c.f, first[i], i == 0);
    for (size_t i = 0; i < nex; i++) {
        const lesson *l = &ex[i].l;
        char *h = NULL;
        if (asprintf(&h, "%s %s (goals met of %zu)", l->id, l->title.s[LESSON_EN], exercise_goal_count(l->exercise)) >= 0) cell(c.f, h, 0);
        free(h);
        static const char *const more[] = {"solved", "tries", "last try (UTC)", "best GB/s on the GPU"};
        for (size_t k = 0; k < 4; k++) {
            h = NULL;
            if (asprintf(&h, "%s %s", l->id, more[k]) >= 0) cell(c.f, h, 0);
            free(h);
        }
    }
    fputs("\r\n", c.f);
    int rc = record_gpu_best(r, class_id, NULL, keep_best, &c, err, errlen) || record_grades(r, class_id, add, &c, err, errlen);
    end_row(&c);
    fclose(c.f);
    free(c.best);
    if (rc) { free(out); return NULL; }
    *len = n;
    return out;
}
