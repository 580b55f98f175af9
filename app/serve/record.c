/* record: the class record's logic and SQL, once for both back ends (record.h). Statements use
 * ?N parameters (record_pg.c writes them $N), text in and text out; what needs to hold together
 * (a join, a try) is one transaction. */
#define _GNU_SOURCE
#include "app/serve/record.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tables (lab_*: a record of an earlier warpscope keeps its own tables beside them, untouched).
 * lab_tries holds one row per distinct judgement of a student's exercise; its picture and source
 * are hashes into lab_blobs, where each content is kept once. */
const char record_schema[] =
    "CREATE TABLE IF NOT EXISTS lab_classes (id BIGINT PRIMARY KEY, code TEXT NOT NULL, roster TEXT NOT NULL, state TEXT NOT NULL,"
    " opened_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS lab_students (class BIGINT NOT NULL, name TEXT NOT NULL, session TEXT NOT NULL UNIQUE,"
    " joined_ms BIGINT NOT NULL, PRIMARY KEY (class, name));"
    "CREATE TABLE IF NOT EXISTS lab_tries (class BIGINT NOT NULL, student TEXT NOT NULL, exercise TEXT NOT NULL, judgement TEXT NOT NULL,"
    " at_ms BIGINT NOT NULL, times INTEGER NOT NULL, met INTEGER NOT NULL, goals INTEGER NOT NULL, first_missed INTEGER NOT NULL,"
    " ran INTEGER NOT NULL, error TEXT NOT NULL, report TEXT NOT NULL, picture TEXT, source TEXT,"
    " PRIMARY KEY (class, student, exercise, judgement));"
    "CREATE TABLE IF NOT EXISTS lab_latest (class BIGINT NOT NULL, student TEXT NOT NULL, exercise TEXT NOT NULL, judgement TEXT NOT NULL,"
    " at_ms BIGINT NOT NULL, tries INTEGER NOT NULL, PRIMARY KEY (class, student, exercise));"
    "CREATE TABLE IF NOT EXISTS lab_blobs (hash TEXT PRIMARY KEY, bytes BIGINT NOT NULL, body TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS lab_teachers (session TEXT PRIMARY KEY, at_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS lab_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS lab_flight (class BIGINT NOT NULL, student TEXT NOT NULL, since_ms BIGINT NOT NULL, owner TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY (class, student));"
    "CREATE TABLE IF NOT EXISTS lab_alive (owner TEXT PRIMARY KEY, at_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS lab_counts (key TEXT PRIMARY KEY, until_ms BIGINT NOT NULL, n BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS lab_verdicts (key TEXT PRIMARY KEY, source TEXT NOT NULL, used_ms BIGINT NOT NULL, judgement TEXT NOT NULL,"
    " picture TEXT);"
    "CREATE TABLE IF NOT EXISTS lab_gpu (id BIGINT PRIMARY KEY, class BIGINT NOT NULL, student TEXT NOT NULL, exercise TEXT NOT NULL,"
    " source TEXT NOT NULL, at_ms BIGINT NOT NULL, owner TEXT NOT NULL, state TEXT NOT NULL, gbs DOUBLE PRECISION NOT NULL DEFAULT 0,"
    " fraction DOUBLE PRECISION NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '{}', done_ms BIGINT NOT NULL DEFAULT 0);";

enum { TEACHER_SESSION_MS = 12 * 3600 * 1000 }; /* a teacher signs in once a day of teaching */

record *record_open(const char *state_dir, const char *db, char *err, size_t errlen)
{
    if (db && *db) {
        if (strncmp(db, "postgres://", 11) && strncmp(db, "postgresql://", 13)) {
            snprintf(err, errlen, "--db: a PostgreSQL URL, postgres://USER@HOST/DB, got \"%.200s\"", db);
            return NULL;
        }
        return record_open_pg(db, err, errlen);
    }
    return record_open_sqlite(state_dir, err, errlen);
}

void record_close(record *r)
{
    if (r) r->ops->close(r);
}

/* ---- rows into C ---- */

/* the first column of the first row, copied (NULL when none) */
typedef struct one_text {
    char *text;
    int rows;
} one_text;

static int take_one(void *ud, int ncol, const char *const *col)
{
    one_text *o = ud;
    if (!o->rows++ && ncol > 0 && col[0]) o->text = strdup(col[0]);
    return 0;
}

static int sql(record *r, const char *q, int n, const char *const *p, record_row_fn row, void *ud, char *err, size_t errlen)
{
    return r->ops->sql(r, q, n, p, row, ud, err, errlen);
}

/* one number (the first column of the first row): 0 with it in *v (0 when no row) */
static int sql_num(record *r, const char *q, int n, const char *const *p, int64_t *v, char *err, size_t errlen)
{
    one_text o = {0};
    int rc = sql(r, q, n, p, take_one, &o, err, errlen);
    *v = o.text ? strtoll(o.text, NULL, 10) : 0;
    free(o.text);
    return rc;
}

static void num_text(char *buf, size_t len, int64_t v) { snprintf(buf, len, "%" PRId64, v); }

/* a content's name: two FNV-1a of different bases and its length (the record's names for blobs,
 * which a student cannot aim at another's: a blob is shown only to the teacher, under its try) */
static void blob_hash(const char *text, char out[56])
{
    uint64_t a = 14695981039346656037ull, b = 0x9e3779b97f4a7c15ull;
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i++) {
        a = (a ^ (unsigned char)text[i]) * 1099511628211ull;
        b = (b ^ (unsigned char)text[i]) * 1099511628211ull;
    }
    snprintf(out, 56, "%016llx%016llx-%zu", (unsigned long long)a, (unsigned long long)b, n);
}

/* ---- classes ---- */

typedef struct classes_ud {
    record_class_fn each;
    void *ud;
    int64_t *open_id;
} classes_ud;

static int class_row(void *ud, int ncol, const char *const *col)
{
    classes_ud *c = ud;
    if (ncol < 6) return 0;
    record_class k = {.id = strtoll(col[0], NULL, 10), .code = col[1] ? col[1] : "", .roster = col[2] ? col[2] : "",
                      .state = col[3] ? col[3] : "", .opened_ms = strtoll(col[4], NULL, 10), .students = atoi(col[5] ? col[5] : "0")};
    if (c->open_id && !*c->open_id && strcmp(k.state, "open") == 0) *c->open_id = k.id;
    if (c->each) c->each(c->ud, &k);
    return 0;
}

int record_classes(record *r, record_class_fn each, void *ud, int64_t *open_id, char *err, size_t errlen)
{
    classes_ud c = {each, ud, open_id};
    if (open_id) *open_id = 0;
    return sql(r,
               "SELECT c.id, c.code, c.roster, c.state, c.opened_ms, (SELECT COUNT(*) FROM lab_students s WHERE s.class = c.id)"
               " FROM lab_classes c ORDER BY c.id DESC",
               0, NULL, class_row, &c, err, errlen);
}

typedef struct open_ud {
    const char *code, *roster;
    int64_t now, id;
} open_ud;

static int open_txn(record *r, void *ud, char *err, size_t errlen)
{
    open_ud *o = ud;
    int64_t last;
    if (sql_num(r, "SELECT COALESCE(MAX(id), 0) FROM lab_classes", 0, NULL, &last, err, errlen)) return -1;
    o->id = last + 1;
    char id[24], now[24];
    num_text(id, sizeof id, o->id);
    num_text(now, sizeof now, o->now);
    const char *p[4] = {id, o->code, o->roster, now};
    if (sql(r, "UPDATE lab_classes SET state = 'closed' WHERE state = 'open'", 0, NULL, NULL, NULL, err, errlen)) return -1;
    return sql(r, "INSERT INTO lab_classes (id, code, roster, state, opened_ms) VALUES (?1, ?2, ?3, 'open', ?4)", 4, p, NULL, NULL, err, errlen);
}

int record_class_open(record *r, const char *code, const char *roster, int64_t now_ms, int64_t *id, char *err, size_t errlen)
{
    open_ud o = {code, roster, now_ms, 0};
    int rc = r->ops->txn(r, open_txn, &o, err, errlen);
    *id = o.id;
    return rc;
}

int record_class_state(record *r, int64_t id, const char *state, char *err, size_t errlen)
{
    char ids[24];
    num_text(ids, sizeof ids, id);
    const char *p[2] = {state, ids};
    return sql(r, "UPDATE lab_classes SET state = ?1 WHERE id = ?2", 2, p, NULL, NULL, err, errlen);
}

/* ---- students ---- */

/* whether name is a line of roster */
static int on_roster(const char *roster, const char *name)
{
    size_t n = strlen(name);
    for (const char *line = roster; *line;) {
        size_t len = strcspn(line, "\n");
        if (len == n && memcmp(line, name, n) == 0) return 1;
        line += len + (line[len] == '\n');
    }
    return 0;
}

typedef struct join_ud {
    const char *code, *name, *session, *old_session;
    int64_t now, class_id;
} join_ud;

static int join_txn(record *r, void *ud, char *err, size_t errlen)
{
    join_ud *j = ud;
    const char *pc[1] = {j->code};
    one_text roster = {0};
    int64_t id;
    if (sql_num(r, "SELECT id FROM lab_classes WHERE state = 'open' AND code = ?1 ORDER BY id DESC", 1, pc, &id, err, errlen)) return -1;
    if (!id) return RECORD_NO_CLASS;
    char ids[24], now[24];
    num_text(ids, sizeof ids, id);
    num_text(now, sizeof now, j->now);
    const char *pi[1] = {ids};
    if (sql(r, "SELECT roster FROM lab_classes WHERE id = ?1", 1, pi, take_one, &roster, err, errlen)) return -1;
    int listed = !roster.text || !*roster.text || on_roster(roster.text, j->name);
    free(roster.text);
    if (!listed) return RECORD_NOT_ON_ROSTER;
    /* the name's holder, if any */
    one_text holder = {0};
    const char *pn[2] = {ids, j->name};
    if (sql(r, "SELECT session FROM lab_students WHERE class = ?1 AND name = ?2", 2, pn, take_one, &holder, err, errlen)) return -1;
    if (holder.text) {
        int mine = j->old_session && strcmp(holder.text, j->old_session) == 0;
        free(holder.text);
        j->class_id = id;
        if (!mine) return RECORD_NAME_TAKEN;
        /* the same browser joining again: its name kept, under the new session */
        const char *pu[3] = {j->session, ids, j->name};
        return sql(r, "UPDATE lab_students SET session = ?1 WHERE class = ?2 AND name = ?3", 3, pu, NULL, NULL, err, errlen);
    }
    int64_t students;
    if (sql_num(r, "SELECT COUNT(*) FROM lab_students WHERE class = ?1", 1, pi, &students, err, errlen)) return -1;
    if (students >= RECORD_STUDENTS_PER_CLASS) return RECORD_CLASS_FULL;
    /* a session is one student: joining under another name leaves the first */
    const char *ps[1] = {j->old_session};
    if (j->old_session && sql(r, "DELETE FROM lab_students WHERE session = ?1", 1, ps, NULL, NULL, err, errlen)) return -1;
    const char *pa[4] = {ids, j->name, j->session, now};
    if (sql(r, "INSERT INTO lab_students (class, name, session, joined_ms) VALUES (?1, ?2, ?3, ?4)", 4, pa, NULL, NULL, err, errlen))
        return -1;
    j->class_id = id;
    return 0;
}

int record_join(record *r, const char *code, const char *name, const char *session, const char *old_session, int64_t now_ms, int64_t *class_id,
                char *err, size_t errlen)
{
    join_ud j = {code, name, session, old_session, now_ms, 0};
    int rc = r->ops->txn(r, join_txn, &j, err, errlen);
    /* two joins of one name at once (two instances on PostgreSQL): the one whose insert lost is the
     * name taken, not an error of the record */
    if (rc == -1 && (strstr(err, "duplicate key") || strstr(err, "UNIQUE constraint failed"))) rc = RECORD_NAME_TAKEN;
    *class_id = j.class_id;
    return rc;
}

typedef struct session_ud {
    int64_t class_id;
    char *name, *state;
    int rows;
} session_ud;

static int session_row(void *ud, int ncol, const char *const *col)
{
    session_ud *s = ud;
    if (s->rows++ || ncol < 3) return 0;
    s->class_id = strtoll(col[0], NULL, 10);
    s->name = col[1] ? strdup(col[1]) : NULL;
    s->state = col[2] ? strdup(col[2]) : NULL;
    return 0;
}

int record_session(record *r, const char *session, int64_t *class_id, char *name, size_t namelen, char *err, size_t errlen)
{
    session_ud s = {0};
    const char *p[1] = {session};
    int rc = sql(r, "SELECT s.class, s.name, c.state FROM lab_students s JOIN lab_classes c ON c.id = s.class WHERE s.session = ?1", 1, p,
                 session_row, &s, err, errlen);
    if (!rc && !s.name) rc = 1;
    else if (!rc) {
        *class_id = s.class_id;
        snprintf(name, namelen, "%s", s.name);
        if (!s.state || strcmp(s.state, "open")) rc = RECORD_CLOSED;
    }
    free(s.name);
    free(s.state);
    return rc;
}

/* ---- tries ---- */

/* a blob kept (once): 0, or RECORD_BYTES_FULL when the record holds its most */
static int blob_put(record *r, const char *text, char hash[56], char *err, size_t errlen)
{
    blob_hash(text, hash);
    const char *ph[1] = {hash};
    int64_t have, bytes;
    if (sql_num(r, "SELECT COUNT(*) FROM lab_blobs WHERE hash = ?1", 1, ph, &have, err, errlen)) return -1;
    if (have) return 0;
    if (sql_num(r, "SELECT COALESCE(SUM(bytes), 0) FROM lab_blobs", 0, NULL, &bytes, err, errlen)) return -1;
    if (bytes + (int64_t)strlen(text) > RECORD_BYTES_MAX) return RECORD_BYTES_FULL;
    char len[24];
    num_text(len, sizeof len, (int64_t)strlen(text));
    const char *p[3] = {hash, len, text};
    return sql(r, "INSERT INTO lab_blobs (hash, bytes, body) VALUES (?1, ?2, ?3) ON CONFLICT (hash) DO NOTHING", 3, p, NULL, NULL, err, errlen);
}

/* the blobs no try holds any more go */
static int blobs_sweep(record *r, char *err, size_t errlen)
{
    return sql(r,
               "DELETE FROM lab_blobs WHERE hash NOT IN (SELECT picture FROM lab_tries WHERE picture IS NOT NULL)"
               " AND hash NOT IN (SELECT source FROM lab_tries WHERE source IS NOT NULL)",
               0, NULL, NULL, NULL, err, errlen);
}

static int add_txn(record *r, void *ud, char *err, size_t errlen)
{
    const record_try *t = ud;
    char cls[24], at[24], met[16], goals[16], first[16], ran[4], pic[56] = "", src[56] = "";
    num_text(cls, sizeof cls, t->class_id);
    num_text(at, sizeof at, t->at_ms);
    snprintf(met, sizeof met, "%d", t->met);
    snprintf(goals, sizeof goals, "%d", t->goals);
    snprintf(first, sizeof first, "%d", t->first_missed);
    snprintf(ran, sizeof ran, "%d", t->ran);
    const char *pk[4] = {cls, t->student, t->exercise, t->judgement};
    int64_t have, rows;
    if (sql_num(r, "SELECT COUNT(*) FROM lab_tries WHERE class = ?1 AND student = ?2 AND exercise = ?3 AND judgement = ?4", 4, pk, &have, err,
                errlen))
        return -1;
    if (!have) {
        if (sql_num(r, "SELECT COUNT(*) FROM lab_tries WHERE class = ?1 AND student = ?2", 2, pk, &rows, err, errlen)) return -1;
        if (rows >= RECORD_ROWS_PER_STUDENT) return RECORD_STUDENT_FULL;
    }
    int rc;
    if (t->trace && (rc = blob_put(r, t->trace, pic, err, errlen))) return rc;
    if (t->source && (rc = blob_put(r, t->source, src, err, errlen))) return rc;
    const char *p[13] = {cls, t->student, t->exercise, t->judgement, at, met, goals, first, ran, t->error ? t->error : "",
                         t->report ? t->report : "{}", pic[0] ? pic : NULL, src[0] ? src : NULL};
    if (sql(r,
            "INSERT INTO lab_tries (class, student, exercise, judgement, at_ms, times, met, goals, first_missed, ran, error, report, picture, source)"
            " VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
            " ON CONFLICT (class, student, exercise, judgement) DO UPDATE SET at_ms = excluded.at_ms, times = lab_tries.times + 1,"
            " report = excluded.report, picture = excluded.picture, source = excluded.source",
            13, p, NULL, NULL, err, errlen) ||
        sql(r,
            "INSERT INTO lab_latest (class, student, exercise, judgement, at_ms, tries) VALUES (?1, ?2, ?3, ?4, ?5, 1)"
            " ON CONFLICT (class, student, exercise) DO UPDATE SET judgement = excluded.judgement, at_ms = excluded.at_ms,"
            " tries = lab_latest.tries + 1",
            5, p, NULL, NULL, err, errlen))
        return -1;
    /* a try of the same judgement replaced its picture and source: what no try holds goes */
    return have ? blobs_sweep(r, err, errlen) : 0;
}

int record_add(record *r, const record_try *t, char *err, size_t errlen)
{
    return r->ops->txn(r, add_txn, (void *)t, err, errlen);
}

typedef struct list_ud {
    record_each_fn each;
    void *ud;
} list_ud;

static int list_row(void *ud, int ncol, const char *const *col)
{
    list_ud *l = ud;
    if (ncol < 8) return 0;
    record_row row = {col[0], col[1], strtoll(col[2], NULL, 10), atoi(col[3]), atoi(col[4]), atoi(col[5]), atoi(col[6]), atoi(col[7])};
    l->each(l->ud, &row);
    return 0;
}

int record_list(record *r, int64_t class_id, record_each_fn each, void *ud, char *err, size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    const char *p[1] = {cls};
    list_ud l = {each, ud};
    /* the tries, and a row with no exercise for each student who joined and has none */
    return sql(r,
               "SELECT l.student, l.exercise, l.at_ms, t.met, t.goals, t.first_missed, t.ran, l.tries FROM lab_latest l JOIN lab_tries t"
               " ON t.class = l.class AND t.student = l.student AND t.exercise = l.exercise AND t.judgement = l.judgement"
               " WHERE l.class = ?1"
               " UNION ALL SELECT s.name, NULL, s.joined_ms, 0, 0, -1, 0, 0 FROM lab_students s WHERE s.class = ?1"
               " AND NOT EXISTS (SELECT 1 FROM lab_latest l WHERE l.class = s.class AND l.student = s.name)"
               " ORDER BY 1, 2",
               1, p, list_row, &l, err, errlen);
}

typedef struct grades_ud {
    record_grade_fn each;
    void *ud;
} grades_ud;

static int grade_row(void *ud, int ncol, const char *const *col)
{
    grades_ud *g = ud;
    if (ncol < 7 || !col[0]) return 0;
    record_grade row = {col[0], col[1], atoi(col[2] ? col[2] : "0"), atoi(col[3] ? col[3] : "0"), atoi(col[4] ? col[4] : "0"),
                        atoi(col[5] ? col[5] : "0"), col[6] ? strtoll(col[6], NULL, 10) : 0};
    g->each(g->ud, &row);
    return 0;
}

int record_grades(record *r, int64_t class_id, record_grade_fn each, void *ud, char *err, size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    const char *p[1] = {cls};
    grades_ud g = {each, ud};
    return sql(r,
               "SELECT student, exercise, MAX(met), MAX(goals), MAX(CASE WHEN ran = 1 AND met = goals THEN 1 ELSE 0 END), SUM(times),"
               " MAX(at_ms) FROM lab_tries WHERE class = ?1 GROUP BY student, exercise"
               " UNION ALL SELECT s.name, NULL, 0, 0, 0, 0, s.joined_ms FROM lab_students s WHERE s.class = ?1"
               " AND NOT EXISTS (SELECT 1 FROM lab_tries t WHERE t.class = s.class AND t.student = s.name)"
               " ORDER BY 1, 2",
               1, p, grade_row, &g, err, errlen);
}

int record_last(record *r, int64_t class_id, const char *student, const char *exercise, const char *what, char **text, char *err,
                size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    const char *p[3] = {cls, student, exercise};
    /* one statement per column: the column's name is never built from a request */
    static const char *const by_what[2][2] = {
        {"picture", "SELECT b.body FROM lab_latest l JOIN lab_tries t ON t.class = l.class AND t.student = l.student AND t.exercise = l.exercise"
                    " AND t.judgement = l.judgement JOIN lab_blobs b ON b.hash = t.picture WHERE l.class = ?1 AND l.student = ?2 AND l.exercise = ?3"},
        {"source", "SELECT b.body FROM lab_latest l JOIN lab_tries t ON t.class = l.class AND t.student = l.student AND t.exercise = l.exercise"
                   " AND t.judgement = l.judgement JOIN lab_blobs b ON b.hash = t.source WHERE l.class = ?1 AND l.student = ?2 AND l.exercise = ?3"},
    };
    *text = NULL;
    for (size_t i = 0; i < 2; i++) {
        if (strcmp(what, by_what[i][0])) continue;
        one_text o = {0};
        int rc = sql(r, by_what[i][1], 3, p, take_one, &o, err, errlen);
        *text = o.text;
        return rc;
    }
    snprintf(err, errlen, "no such part of a try: %s", what);
    return -1;
}

typedef struct remove_ud {
    const char *cls, *student;
    int64_t n;
} remove_ud;

static int remove_txn(record *r, void *ud, char *err, size_t errlen)
{
    remove_ud *m = ud;
    const char *p[2] = {m->cls, m->student};
    if (sql_num(r, "SELECT COUNT(*) FROM lab_tries WHERE class = ?1 AND student = ?2", 2, p, &m->n, err, errlen) ||
        sql(r, "DELETE FROM lab_tries WHERE class = ?1 AND student = ?2", 2, p, NULL, NULL, err, errlen) ||
        sql(r, "DELETE FROM lab_latest WHERE class = ?1 AND student = ?2", 2, p, NULL, NULL, err, errlen) ||
        sql(r, "DELETE FROM lab_gpu WHERE class = ?1 AND student = ?2", 2, p, NULL, NULL, err, errlen) ||
        sql(r, "DELETE FROM lab_students WHERE class = ?1 AND name = ?2", 2, p, NULL, NULL, err, errlen))
        return -1;
    return blobs_sweep(r, err, errlen);
}

int record_remove_student(record *r, int64_t class_id, const char *student, int64_t *n, char *err, size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    remove_ud m = {cls, student, 0};
    int rc = r->ops->txn(r, remove_txn, &m, err, errlen);
    *n = m.n;
    return rc;
}

int record_teacher_add(record *r, const char *session, int64_t now_ms, char *err, size_t errlen)
{
    char now[24], old[24];
    num_text(now, sizeof now, now_ms);
    num_text(old, sizeof old, now_ms - TEACHER_SESSION_MS);
    const char *p[2] = {session, now}, *po[1] = {old};
    return sql(r, "DELETE FROM lab_teachers WHERE at_ms < ?1", 1, po, NULL, NULL, err, errlen) ||
                   sql(r, "INSERT INTO lab_teachers (session, at_ms) VALUES (?1, ?2)", 2, p, NULL, NULL, err, errlen)
               ? -1
               : 0;
}

typedef struct token_ud {
    const char *tag;
    int changed;
} token_ud;

static int token_txn(record *r, void *ud, char *err, size_t errlen)
{
    token_ud *t = ud;
    one_text had = {0};
    const char *p[1] = {t->tag};
    if (sql(r, "SELECT value FROM lab_settings WHERE name = 'token'", 0, NULL, take_one, &had, err, errlen)) return -1;
    t->changed = !had.text || strcmp(had.text, t->tag) != 0;
    free(had.text);
    if (!t->changed) return 0;
    return sql(r, "DELETE FROM lab_teachers", 0, NULL, NULL, NULL, err, errlen) ||
                   sql(r, "INSERT INTO lab_settings (name, value) VALUES ('token', ?1) ON CONFLICT (name) DO UPDATE SET value = excluded.value", 1, p,
                       NULL, NULL, err, errlen)
               ? -1
               : 0;
}

int record_teacher_token(record *r, const char *tag, int *ended, char *err, size_t errlen)
{
    token_ud t = {tag, 0};
    int rc = r->ops->txn(r, token_txn, &t, err, errlen);
    *ended = t.changed;
    return rc;
}

typedef struct flight_ud {
    const char *p[4]; /* class, student, now, owner */
    const char *old, *gone;
    int busy;
} flight_ud;

static int flight_txn(record *r, void *ud, char *err, size_t errlen)
{
    flight_ud *f = ud;
    const char *po[4] = {f->p[0], f->p[1], f->old, f->gone};
    int64_t held;
    /* a hold too old, or one whose server no longer says it is alive (killed), is dropped */
    if (sql(r, "DELETE FROM lab_flight WHERE class = ?1 AND student = ?2 AND (since_ms < ?3 OR NOT EXISTS (SELECT 1 FROM lab_alive"
               " WHERE lab_alive.owner = lab_flight.owner AND lab_alive.at_ms >= ?4))", 4, po, NULL, NULL, err, errlen) ||
        sql_num(r, "SELECT COUNT(*) FROM lab_flight WHERE class = ?1 AND student = ?2", 2, f->p, &held, err, errlen))
        return -1;
    if ((f->busy = held > 0)) return 0;
    return sql(r, "INSERT INTO lab_flight (class, student, since_ms, owner) VALUES (?1, ?2, ?3, ?4)", 4, f->p, NULL, NULL, err, errlen);
}

int record_flight_take(record *r, int64_t class_id, const char *student, const char *owner, int64_t now_ms, int64_t stale_ms, int64_t lapse_ms,
                       int *busy, char *err, size_t errlen)
{
    char cls[24], now[24], old[24], gone[24];
    num_text(cls, sizeof cls, class_id);
    num_text(now, sizeof now, now_ms);
    num_text(old, sizeof old, now_ms - stale_ms);
    num_text(gone, sizeof gone, now_ms - lapse_ms);
    flight_ud f = {{cls, student, now, owner}, old, gone, 0};
    int rc = r->ops->txn(r, flight_txn, &f, err, errlen);
    /* two instances taking it at once (PostgreSQL): the insert that lost finds the key held */
    if (rc == -1 && (strstr(err, "duplicate key") || strstr(err, "UNIQUE constraint failed"))) { f.busy = 1; rc = 0; }
    *busy = f.busy;
    return rc;
}

int record_flight_give(record *r, int64_t class_id, const char *student, char *err, size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    const char *p[2] = {cls, student};
    return sql(r, "DELETE FROM lab_flight WHERE class = ?1 AND student = ?2", 2, p, NULL, NULL, err, errlen);
}

int record_alive(record *r, const char *owner, int64_t now_ms, char *err, size_t errlen)
{
    char now[24];
    num_text(now, sizeof now, now_ms);
    const char *p[2] = {owner, now};
    return sql(r, "INSERT INTO lab_alive (owner, at_ms) VALUES (?1, ?2) ON CONFLICT (owner) DO UPDATE SET at_ms = excluded.at_ms", 2, p, NULL,
               NULL, err, errlen);
}

int record_ping(record *r, char *err, size_t errlen)
{
    int64_t one;
    return sql_num(r, "SELECT 1", 0, NULL, &one, err, errlen);
}

int record_teacher_end(record *r, const char *session, char *err, size_t errlen)
{
    const char *p[1] = {session};
    return sql(r, "DELETE FROM lab_teachers WHERE session = ?1", 1, p, NULL, NULL, err, errlen);
}

int record_teacher_is(record *r, const char *session, int64_t now_ms, int *yes, char *err, size_t errlen)
{
    char old[24];
    num_text(old, sizeof old, now_ms - TEACHER_SESSION_MS);
    const char *p[2] = {session, old};
    int64_t n;
    int rc = sql_num(r, "SELECT COUNT(*) FROM lab_teachers WHERE session = ?1 AND at_ms >= ?2", 2, p, &n, err, errlen);
    *yes = !rc && n > 0;
    return rc;
}

/* ---- counts shared by every server of the record ---- */

typedef struct count_ud {
    int n;
    const char *const *keys;
    const char *until, *now;
    const int64_t *add, *most;
    int over;
    int64_t first;
} count_ud;

static int count_txn(record *r, void *ud, char *err, size_t errlen)
{
    count_ud *c = ud;
    for (int i = 0; i < c->n; i++) {
        char add[24], most[24];
        num_text(add, sizeof add, c->add[i]);
        num_text(most, sizeof most, c->most[i]);
        const char *p[5] = {c->keys[i], c->until, add, most, c->now};
        one_text o = {0};
        /* one statement, under the row's own lock (PostgreSQL's ON CONFLICT; SQLite's one writer): a count
         * past its window starts again; one that would pass its most is left as it is, and no row comes back */
        if (sql(r,
                "INSERT INTO lab_counts (key, until_ms, n) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET"
                " n = CASE WHEN lab_counts.until_ms <= CAST(?5 AS BIGINT) THEN excluded.n ELSE lab_counts.n + excluded.n END,"
                " until_ms = CASE WHEN lab_counts.until_ms <= CAST(?5 AS BIGINT) THEN excluded.until_ms ELSE lab_counts.until_ms END"
                " WHERE lab_counts.until_ms <= CAST(?5 AS BIGINT) OR lab_counts.n + excluded.n <= CAST(?4 AS BIGINT) RETURNING n",
                5, p, take_one, &o, err, errlen))
            return -1;
        if (!o.rows) { c->over = i + 1; return 1; } /* rolled back: none of the keys counted */
        if (i == 0) c->first = o.text ? strtoll(o.text, NULL, 10) : 0;
        free(o.text);
    }
    return 0;
}

int record_count(record *r, int n, const char *const *keys, int64_t until_ms, const int64_t *add, const int64_t *most, int64_t now_ms, int *over,
                 int64_t *value, char *err, size_t errlen)
{
    static unsigned long calls;
    char until[24], now[24];
    num_text(until, sizeof until, until_ms);
    num_text(now, sizeof now, now_ms);
    *over = 0;
    for (int i = 0; i < n; i++)
        if (add[i] > most[i]) { *over = i + 1; return 0; }
    count_ud c = {n, keys, until, now, add, most, 0, 0};
    int rc = r->ops->txn(r, count_txn, &c, err, errlen);
    if (rc == 1) { *over = c.over; rc = 0; }
    if (value) *value = c.first;
    /* the counts past their window, now and then (a request in a thousand of this server's) */
    if (!rc && __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % 1000 == 0) {
        const char *p[1] = {now};
        char e2[200];
        sql(r, "DELETE FROM lab_counts WHERE until_ms <= ?1", 1, p, NULL, NULL, e2, sizeof e2);
    }
    return rc;
}

int record_count_get(record *r, const char *key, int64_t now_ms, int64_t *value, char *err, size_t errlen)
{
    char now[24];
    num_text(now, sizeof now, now_ms);
    const char *p[2] = {key, now};
    return sql_num(r, "SELECT n FROM lab_counts WHERE key = ?1 AND until_ms > ?2", 2, p, value, err, errlen);
}

/* ---- judgements kept, by exercise and source ---- */

typedef struct verdict_ud {
    const char *source;
    char *judgement, *picture;
    int found;
} verdict_ud;

static int verdict_row(void *ud, int ncol, const char *const *col)
{
    verdict_ud *v = ud;
    if (v->found || ncol < 3 || !col[0] || !col[1] || strcmp(col[0], v->source)) return 0; /* the bytes themselves, not only their key */
    v->judgement = strdup(col[1]);
    v->picture = col[2] ? strdup(col[2]) : NULL;
    v->found = 1;
    return 0;
}

int record_verdict_find(record *r, const char *key, const char *source, int64_t now_ms, char **judgement, char **picture, char *err, size_t errlen)
{
    const char *p[1] = {key};
    verdict_ud v = {source, NULL, NULL, 0};
    *judgement = *picture = NULL;
    if (sql(r, "SELECT source, judgement, picture FROM lab_verdicts WHERE key = ?1", 1, p, verdict_row, &v, err, errlen)) return -1;
    if (!v.found) return 0;
    if (!v.judgement) { free(v.picture); snprintf(err, errlen, "out of memory"); return -1; }
    char now[24];
    num_text(now, sizeof now, now_ms);
    const char *pu[2] = {key, now};
    sql(r, "UPDATE lab_verdicts SET used_ms = ?2 WHERE key = ?1", 2, pu, NULL, NULL, err, errlen); /* the least recently used go first */
    *judgement = v.judgement;
    *picture = v.picture;
    return 1;
}

typedef struct keep_ud {
    const char *p[5];
    int most;
} keep_ud;

static int keep_txn(record *r, void *ud, char *err, size_t errlen)
{
    keep_ud *k = ud;
    char off[24];
    num_text(off, sizeof off, k->most - 1);
    const char *po[1] = {off};
    return sql(r,
               "INSERT INTO lab_verdicts (key, source, used_ms, judgement, picture) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (key) DO UPDATE SET"
               " source = excluded.source, used_ms = excluded.used_ms, judgement = excluded.judgement, picture = excluded.picture",
               5, k->p, NULL, NULL, err, errlen) ||
           sql(r,
               "DELETE FROM lab_verdicts WHERE used_ms < (SELECT used_ms FROM lab_verdicts ORDER BY used_ms DESC LIMIT 1 OFFSET CAST(?1 AS INTEGER))",
               1, po, NULL, NULL, err, errlen);
}

int record_verdict_keep(record *r, const char *key, const char *source, int64_t now_ms, const char *judgement, const char *picture, int most,
                        char *err, size_t errlen)
{
    char now[24];
    num_text(now, sizeof now, now_ms);
    keep_ud k = {{key, source, now, judgement, picture}, most};
    return r->ops->txn(r, keep_txn, &k, err, errlen);
}

/* ---- the GPU's timings (lab_gpu) ---- */

int record_gpu_add(record *r, int64_t id, int64_t class_id, const char *student, const char *exercise, const char *source, int64_t now_ms,
                   const char *owner, char *err, size_t errlen)
{
    char ids[24], cls[24], now[24];
    num_text(ids, sizeof ids, id);
    num_text(cls, sizeof cls, class_id);
    num_text(now, sizeof now, now_ms);
    const char *p[7] = {ids, cls, student, exercise, source, now, owner};
    return sql(r, "INSERT INTO lab_gpu (id, class, student, exercise, source, at_ms, owner, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'queued')", 7, p,
               NULL, NULL, err, errlen);
}

int record_gpu_set(record *r, int64_t id, const char *state, double gbs, double fraction, const char *result, int64_t now_ms, char *err,
                   size_t errlen)
{
    char ids[24], g[40], f[40], now[24];
    num_text(ids, sizeof ids, id);
    snprintf(g, sizeof g, "%.3f", gbs);
    snprintf(f, sizeof f, "%.6f", fraction);
    num_text(now, sizeof now, now_ms);
    const char *p[6] = {ids, state, g, f, result, now};
    return sql(r, "UPDATE lab_gpu SET state = ?2, gbs = ?3, fraction = ?4, result = ?5, done_ms = ?6 WHERE id = ?1", 6, p, NULL, NULL, err, errlen);
}

static int gpu_row(void *ud, int ncol, const char *const *col)
{
    record_gpu *g = ud;
    if (g->found || ncol < 10) return 0;
    g->found = 1;
    g->id = strtoll(col[0], NULL, 10);
    g->class_id = strtoll(col[1], NULL, 10);
    snprintf(g->student, sizeof g->student, "%s", col[2] ? col[2] : "");
    snprintf(g->exercise, sizeof g->exercise, "%s", col[3] ? col[3] : "");
    g->at_ms = strtoll(col[4], NULL, 10);
    snprintf(g->owner, sizeof g->owner, "%s", col[5] ? col[5] : "");
    snprintf(g->state, sizeof g->state, "%s", col[6] ? col[6] : "");
    g->gbs = col[7] ? strtod(col[7], NULL) : 0;
    g->fraction = col[8] ? strtod(col[8], NULL) : 0;
    g->result = col[9] ? strdup(col[9]) : NULL;
    g->owner_alive_ms = ncol > 10 && col[10] ? strtoll(col[10], NULL, 10) : 0;
    return 0;
}

int record_gpu_get(record *r, int64_t id, record_gpu *g, char *err, size_t errlen)
{
    char ids[24];
    num_text(ids, sizeof ids, id);
    const char *p[1] = {ids};
    memset(g, 0, sizeof *g);
    return sql(r,
               "SELECT g.id, g.class, g.student, g.exercise, g.at_ms, g.owner, g.state, g.gbs, g.fraction, g.result,"
               " (SELECT a.at_ms FROM lab_alive a WHERE a.owner = g.owner) FROM lab_gpu g WHERE g.id = ?1",
               1, p, gpu_row, g, err, errlen);
}

void record_gpu_free(record_gpu *g) { free(g->result), g->result = NULL; }

/* the newest timing of this exercise's source, done within since_ms (any student: the same bytes
 * time the same on the same card) */
int record_gpu_recent(record *r, const char *exercise, const char *source, int64_t since_ms, record_gpu *g, char *err, size_t errlen)
{
    char since[24];
    num_text(since, sizeof since, since_ms);
    const char *p[3] = {exercise, source, since};
    memset(g, 0, sizeof *g);
    return sql(r,
               "SELECT id, class, student, exercise, at_ms, owner, state, gbs, fraction, result FROM lab_gpu WHERE exercise = ?1 AND source = ?2"
               " AND done_ms >= ?3 AND state IN ('timed', 'wrong') ORDER BY done_ms DESC LIMIT 1",
               3, p, gpu_row, g, err, errlen);
}

typedef struct gpu_each_ud {
    record_gpu_fn each;
    void *ud;
} gpu_each_ud;

static int gpu_each_row(void *ud, int ncol, const char *const *col)
{
    gpu_each_ud *e = ud;
    record_gpu g;
    memset(&g, 0, sizeof g);
    gpu_row(&g, ncol, col);
    if (g.found) e->each(e->ud, &g);
    record_gpu_free(&g);
    return 0;
}

int record_gpu_tries(record *r, int64_t class_id, const char *student, const char *exercise, record_gpu_fn each, void *ud, char *err, size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    const char *p[3] = {cls, student, exercise};
    gpu_each_ud e = {each, ud};
    return sql(r,
               "SELECT id, class, student, exercise, at_ms, owner, state, gbs, fraction, result FROM lab_gpu WHERE class = ?1 AND student = ?2"
               " AND exercise = ?3 ORDER BY at_ms, id LIMIT 200",
               3, p, gpu_each_row, &e, err, errlen);
}

/* each student's fastest timed try of exercise (all exercises when NULL), fastest first */
int record_gpu_best(record *r, int64_t class_id, const char *exercise, record_gpu_fn each, void *ud, char *err, size_t errlen)
{
    char cls[24];
    num_text(cls, sizeof cls, class_id);
    const char *p[2] = {cls, exercise ? exercise : ""};
    gpu_each_ud e = {each, ud};
    return sql(r,
               "SELECT g.id, g.class, g.student, g.exercise, g.at_ms, g.owner, g.state, g.gbs, g.fraction, '' FROM lab_gpu g"
               " WHERE g.class = ?1 AND (?2 = '' OR g.exercise = ?2) AND g.state = 'timed' AND g.id = (SELECT h.id FROM lab_gpu h"
               " WHERE h.class = g.class AND h.student = g.student AND h.exercise = g.exercise AND h.state = 'timed'"
               " ORDER BY h.gbs DESC, h.at_ms LIMIT 1) ORDER BY g.exercise, g.gbs DESC, g.at_ms",
               2, p, gpu_each_row, &e, err, errlen);
}
