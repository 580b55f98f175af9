/* record: the class record, what each student's tries of each exercise came to. One seam, a table
 * of functions, and two back ends behind it: SQLite in a folder (record_sqlite.c: DIR/class.db, WAL,
 * so it survives a restart and a kill -9, and several servers on one folder see each other's tries)
 * and PostgreSQL through libpq (record_pg.c: --db postgres://..., for servers on several machines).
 * Each try is kept (the log), and each student's latest per exercise (what the teacher sees, with the
 * trace of that try, the picture a click opens). Functions return 0, or -1 with err. */
#ifndef WARPSCOPE_RECORD_H
#define WARPSCOPE_RECORD_H

#include <stddef.h>
#include <stdint.h>

typedef struct record record;

/* One try of an exercise. */
typedef struct record_try {
    const char *student, *exercise;  /* the exercise's id */
    int64_t at_ms;                   /* when, ms since 1970 (UTC) */
    int met, goals;                  /* goals met, of how many */
    int first_missed;                /* the index of the first goal missed; -1 when none */
    int ran;                         /* 0: it did not build or run */
    const char *error;               /* why not ("" none) */
    const char *report;              /* the judgement, as /api/check answered it (JSON) */
    const char *trace;               /* the trace of the exercise's capture (JSON), or NULL */
} record_try;

/* A student's latest try of an exercise, as the list gives it (strings owned by the record until
 * the next call on the same thread... copied into the caller's callback, which must copy them). */
typedef struct record_row {
    const char *student, *exercise;
    int64_t at_ms;
    int met, goals, first_missed, ran, tries;
} record_row;

typedef void (*record_each_fn)(void *ud, const record_row *row);

typedef struct record_ops {
    const char *name; /* "sqlite", "postgresql" */
    int (*add)(record *r, const record_try *t, char *err, size_t errlen);
    /* every student's latest try of each exercise, ordered by student then exercise */
    int (*list)(record *r, record_each_fn each, void *ud, char *err, size_t errlen);
    /* the trace of a student's latest try (malloc'd; NULL with 0 when there is none) */
    int (*last_trace)(record *r, const char *student, const char *exercise, char **trace, char *err, size_t errlen);
    void (*close)(record *r);
} record_ops;

struct record {
    const record_ops *ops;
    void *impl;
    char where[512]; /* what it is, for the start-up line: "SQLite DIR/class.db (WAL)" */
};

/* Opens the record: db (postgres://... or postgresql://...) when given, else the SQLite file in
 * state_dir (made 0700 if missing). */
record *record_open(const char *state_dir, const char *db, char *err, size_t errlen);
void record_close(record *r);

/* the back ends (NULL: not in this build; err says why) */
record *record_open_sqlite(const char *dir, char *err, size_t errlen);
record *record_open_pg(const char *url, char *err, size_t errlen);

#endif
