/* record: the class record. Classes (opened by the teacher, with a join code or a roster), the
 * students who joined them (each a session: a name taken once per class), and what each student's
 * tries came to: one row per distinct judgement per student and exercise (a Check pressed again
 * with the same outcome counts a time, it adds no row), with the picture and the source of its
 * latest try kept once by content (a blob table keyed by a hash of the bytes), and each student's
 * latest per exercise (what the teacher sees). Quotas bound it: rows per student, students per
 * class, blob bytes per record.
 *
 * One seam: the logic and its SQL are here (record.c), once; a back end gives three calls, a
 * statement with text parameters (?1, ?2 ...; NULL is SQL NULL) whose rows come back as text, a
 * transaction around a function, and close. Two back ends: SQLite in a folder (record_sqlite.c:
 * DIR/class.db, WAL) and PostgreSQL through libpq (record_pg.c, --db postgres://...). Functions
 * return 0, or -1 with err (or a RECORD_* refusal, below). */
#ifndef WARPSCOPE_RECORD_H
#define WARPSCOPE_RECORD_H

#include <stddef.h>
#include <stdint.h>

typedef struct record record;

/* A row of a statement: its columns as text (NULL for SQL NULL). Nonzero stops the statement. */
typedef int (*record_row_fn)(void *ud, int ncol, const char *const *col);
typedef int (*record_txn_fn)(record *r, void *ud, char *err, size_t errlen);

typedef struct record_ops {
    const char *name; /* "sqlite", "postgresql" */
    /* one statement; within a transaction when called from its function */
    int (*sql)(record *r, const char *sql, int nparams, const char *const *params, record_row_fn row, void *ud, char *err, size_t errlen);
    /* fn inside one transaction: committed when it returns 0, rolled back otherwise (its value returned) */
    int (*txn)(record *r, record_txn_fn fn, void *ud, char *err, size_t errlen);
    void (*close)(record *r);
} record_ops;

struct record {
    const record_ops *ops;
    void *impl;
    char where[512]; /* what it is, for the start-up line: "SQLite DIR/class.db (WAL)" */
};

/* Refusals (not errors of the record): the caller answers them with a 4xx. */
enum {
    RECORD_NO_CLASS = -2,   /* no open class with that code */
    RECORD_NAME_TAKEN = -3, /* another session holds the name in this class */
    RECORD_NOT_ON_ROSTER = -4,
    RECORD_CLASS_FULL = -5, /* students per class */
    RECORD_STUDENT_FULL = -6, /* distinct judgements per student */
    RECORD_BYTES_FULL = -7, /* blob bytes of the record */
    RECORD_CLOSED = -8,     /* the session's class is closed or archived */
};

/* The quotas, each with why. */
enum {
    RECORD_STUDENTS_PER_CLASS = 1000,      /* a lecture hall, twice over */
    RECORD_ROWS_PER_STUDENT = 500,         /* distinct judgements: nine exercises of a dozen goals each, tried every way, fit */
    RECORD_BYTES_MAX = 1024 * 1024 * 1024, /* pictures and sources, each kept once: 1 GiB of disk (a picture is 33-317 kB) */
};

/* One try of an exercise by a student of a class. */
typedef struct record_try {
    int64_t class_id;
    const char *student, *exercise;  /* the exercise's id */
    int64_t at_ms;                   /* when, ms since 1970 (UTC) */
    int met, goals;                  /* goals met, of how many */
    int first_missed;                /* the index of the first goal missed; -1 when none */
    int ran;                         /* 0: it did not build or run */
    const char *error;               /* why not ("" none) */
    const char *judgement;           /* what identifies the judgement (the goals met, the error): equal text, one row */
    const char *report;              /* the judgement, as /api/check answered it (JSON) */
    const char *trace;               /* the trace of the exercise's capture (JSON), or NULL */
    const char *source;              /* the learner's source */
} record_try;

/* A student's latest try of an exercise, as the list gives it. */
typedef struct record_row {
    const char *student, *exercise;
    int64_t at_ms;
    int met, goals, first_missed, ran, tries;
} record_row;
typedef void (*record_each_fn)(void *ud, const record_row *row);

/* A class as the teacher's view lists it. */
typedef struct record_class {
    int64_t id, opened_ms;
    const char *code;   /* "" : anyone who reaches the server may join */
    const char *roster; /* names, one a line; "" : any name */
    const char *state;  /* "open", "closed", "archived" */
    int students;
} record_class;
typedef void (*record_class_fn)(void *ud, const record_class *c);

/* Opens the record: db (postgres://... or postgresql://...) when given, else the SQLite file in
 * state_dir (made 0700 if missing; refused when it or class.db is a link, not ours, or open to
 * others, as the build cache's folder is). Its tables are made when missing. */
record *record_open(const char *state_dir, const char *db, char *err, size_t errlen);
void record_close(record *r);

/* The classes, newest first; the open one (the newest open) in *open_id (0: none). */
int record_classes(record *r, record_class_fn each, void *ud, int64_t *open_id, char *err, size_t errlen);
/* Opens a class (the others open are closed): its id in *id. */
int record_class_open(record *r, const char *code, const char *roster, int64_t now_ms, int64_t *id, char *err, size_t errlen);
/* "open", "closed" or "archived" */
int record_class_state(record *r, int64_t id, const char *state, char *err, size_t errlen);
/* A student joins the open class whose code is code with a new session (never one the browser
 * brought: a join never adopts a session id someone else may have chosen): 0, or a RECORD_* refusal.
 * old_session (NULL: none) is the session the browser had: joining again with its own name moves
 * the name to the new session; joining with another name leaves the old one. A verified identity
 * (an LMS's launch) joins the same way, its name the identity. */
int record_join(record *r, const char *code, const char *name, const char *session, const char *old_session, int64_t now_ms, int64_t *class_id,
                char *err, size_t errlen);
/* Who a session is: 0 with the class and the name (out, namelen), RECORD_CLOSED when its class is
 * not open, 1 when no one. */
int record_session(record *r, const char *session, int64_t *class_id, char *name, size_t namelen, char *err, size_t errlen);
/* Keeps a try: 0, or RECORD_STUDENT_FULL / RECORD_BYTES_FULL. */
int record_add(record *r, const record_try *t, char *err, size_t errlen);
/* Every student's latest try of each exercise in a class, ordered by student then exercise; a student
 * who joined and tried nothing is one row whose exercise is NULL. */
int record_list(record *r, int64_t class_id, record_each_fn each, void *ud, char *err, size_t errlen);
/* A student's standing in an exercise, for the grades: the best try's goals met (of goals), whether
 * any try met them all, the tries (every Check, the same judgement again included), the last one. */
typedef struct record_grade {
    const char *student, *exercise; /* exercise NULL: a student who joined and tried nothing */
    int best_met, goals, solved, tries;
    int64_t last_ms;
} record_grade;
typedef void (*record_grade_fn)(void *ud, const record_grade *g);
/* Every student's standing per exercise in a class, ordered by student then exercise. */
int record_grades(record *r, int64_t class_id, record_grade_fn each, void *ud, char *err, size_t errlen);
/* The picture (what = "picture") or source ("source") of a student's latest try (malloc'd; NULL
 * with 0 when there is none). */
int record_last(record *r, int64_t class_id, const char *student, const char *exercise, const char *what, char **text, char *err,
                size_t errlen);
/* Removes a student from a class: their tries (and the blobs no try holds any more), their session
 * and their name, which another may then take; the rows of tries removed in *n. */
int record_remove_student(record *r, int64_t class_id, const char *student, int64_t *n, char *err, size_t errlen);
/* The teacher's sign-in (a session of the teacher's): kept, and asked for. */
int record_teacher_add(record *r, const char *session, int64_t now_ms, char *err, size_t errlen);
int record_teacher_is(record *r, const char *session, int64_t now_ms, int *yes, char *err, size_t errlen);
/* The token's tag (a hash of it) as the server starts: when it is not the tag kept, every teacher's
 * sign-in ends (*ended 1) and the new tag is kept. */
int record_teacher_token(record *r, const char *tag, int *ended, char *err, size_t errlen);
/* A student's Check in flight, shared by every server of the record: taken by owner (a server) (*busy
 * 0) unless another holds it (*busy 1); a hold older than stale_ms, or whose owner has not said it is
 * alive (record_alive) within lapse_ms (it was killed), is dropped. Given back when the Check is
 * answered. */
int record_flight_take(record *r, int64_t class_id, const char *student, const char *owner, int64_t now_ms, int64_t stale_ms, int64_t lapse_ms,
                       int *busy, char *err, size_t errlen);
/* A server says it is alive (every SERVE_ALIVE_S): its holds stand while it does. */
int record_alive(record *r, const char *owner, int64_t now_ms, char *err, size_t errlen);
int record_flight_give(record *r, int64_t class_id, const char *student, char *err, size_t errlen);
/* Whether the record answers now (0), for /api/health. */
int record_ping(record *r, char *err, size_t errlen);
/* A sign-out: that sign-in ends. */
int record_teacher_end(record *r, const char *session, char *err, size_t errlen);

/* A count shared by every server of the record (requests, joins, bytes of sources, a student's Runs),
 * each key's kept until until_ms, then begun again from 0. The n keys are counted together: add[i]
 * added to each, unless one would pass its most[i] (*over: i + 1, and none is counted; 0 when all
 * were). *value (may be NULL): the first key's count after. PostgreSQL's row locks (or SQLite's one
 * writer) make it one count for every server. */
int record_count(record *r, int n, const char *const *keys, int64_t until_ms, const int64_t *add, const int64_t *most, int64_t now_ms, int *over,
                 int64_t *value, char *err, size_t errlen);
/* A count as it stands (0: none, or its window is past). */
int record_count_get(record *r, const char *key, int64_t now_ms, int64_t *value, char *err, size_t errlen);
/* A Check's judgement kept for every server, by key (the exercise and a hash of the source) and the
 * source's bytes (compared whole): 1 with the judgement's text and the picture (malloc'd; the picture
 * may be NULL), 0 when none is kept. Keeping one drops the least recently used past most. */
int record_verdict_find(record *r, const char *key, const char *source, int64_t now_ms, char **judgement, char **picture, char *err, size_t errlen);
int record_verdict_keep(record *r, const char *key, const char *source, int64_t now_ms, const char *judgement, const char *picture, int most,
                        char *err, size_t errlen);

/* The GPU's timings of solved tries (app/serve/gpu_queue.c): one row per timing asked, its id drawn at
 * random; state queued, running, timed, wrong or failed; result the answer's JSON (GET /api/gpu). */
typedef struct record_gpu {
    int found;
    int64_t id, class_id, at_ms;
    char student[260], exercise[130], owner[40], state[16];
    double gbs, fraction;
    char *result;           /* malloc'd (record_gpu_free) */
    int64_t owner_alive_ms; /* record_gpu_get: when its server last said it was alive (0: never) */
} record_gpu;
typedef void (*record_gpu_fn)(void *ud, const record_gpu *g);
int record_gpu_add(record *r, int64_t id, int64_t class_id, const char *student, const char *exercise, const char *source, int64_t now_ms,
                   const char *owner, char *err, size_t errlen);
int record_gpu_set(record *r, int64_t id, const char *state, double gbs, double fraction, const char *result, int64_t now_ms, char *err,
                   size_t errlen);
int record_gpu_get(record *r, int64_t id, record_gpu *g, char *err, size_t errlen);
int record_gpu_recent(record *r, const char *exercise, const char *source, int64_t since_ms, record_gpu *g, char *err, size_t errlen);
int record_gpu_tries(record *r, int64_t class_id, const char *student, const char *exercise, record_gpu_fn each, void *ud, char *err, size_t errlen);
int record_gpu_best(record *r, int64_t class_id, const char *exercise, record_gpu_fn each, void *ud, char *err, size_t errlen);
void record_gpu_free(record_gpu *g);

/* the back ends (NULL: not in this build; err says why) */
record *record_open_sqlite(const char *dir, char *err, size_t errlen);
record *record_open_pg(const char *url, char *err, size_t errlen);
/* the tables, for each back end (the same SQL serves both) */
extern const char record_schema[];

#endif
