/* record_sqlite: the class record in SQLite, DIR/class.db. WAL mode with full synchronisation: a
 * try answered is on disk, whatever kills the server after; several servers on one folder share
 * it (SQLite's locks, a busy wait of a few seconds). One connection, serialised by a mutex: a
 * try is two small writes, far below a build's time. */
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/serve/record.h"

typedef struct lite {
    sqlite3 *db;
    pthread_mutex_t mu;
} lite;

/* The schema, also PostgreSQL's (record_pg.c keeps its own copy with its types). */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS tries (id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL, exercise TEXT NOT NULL,"
    " at_ms INTEGER NOT NULL, met INTEGER NOT NULL, goals INTEGER NOT NULL, first_missed INTEGER NOT NULL, ran INTEGER NOT NULL,"
    " error TEXT NOT NULL, report TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS latest (student TEXT NOT NULL, exercise TEXT NOT NULL, at_ms INTEGER NOT NULL, met INTEGER NOT NULL,"
    " goals INTEGER NOT NULL, first_missed INTEGER NOT NULL, ran INTEGER NOT NULL, tries INTEGER NOT NULL, trace TEXT,"
    " PRIMARY KEY (student, exercise));";

static int fail(lite *l, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "SQLite: %s: %s", what, sqlite3_errmsg(l->db));
    return -1;
}

static int lite_add(record *r, const record_try *t, char *err, size_t errlen)
{
    lite *l = r->impl;
    static const char *const sql[] = {
        "INSERT INTO tries (student, exercise, at_ms, met, goals, first_missed, ran, error, report) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        "INSERT INTO latest (student, exercise, at_ms, met, goals, first_missed, ran, tries, trace) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?10)"
        " ON CONFLICT (student, exercise) DO UPDATE SET at_ms = excluded.at_ms, met = excluded.met, goals = excluded.goals,"
        " first_missed = excluded.first_missed, ran = excluded.ran, tries = latest.tries + 1, trace = excluded.trace"};
    pthread_mutex_lock(&l->mu);
    int rc = sqlite3_exec(l->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(l, "begin", err, errlen);
    for (size_t i = 0; i < 2 && !rc; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(l->db, sql[i], -1, &st, NULL) != SQLITE_OK) { rc = fail(l, "prepare", err, errlen); break; }
        sqlite3_bind_text(st, 1, t->student, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, t->exercise, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, t->at_ms);
        sqlite3_bind_int(st, 4, t->met);
        sqlite3_bind_int(st, 5, t->goals);
        sqlite3_bind_int(st, 6, t->first_missed);
        sqlite3_bind_int(st, 7, t->ran);
        if (i == 0) {
            sqlite3_bind_text(st, 8, t->error ? t->error : "", -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 9, t->report ? t->report : "{}", -1, SQLITE_STATIC);
        } else if (t->trace) sqlite3_bind_text(st, 10, t->trace, -1, SQLITE_STATIC);
        else sqlite3_bind_null(st, 10);
        if (sqlite3_step(st) != SQLITE_DONE) rc = fail(l, "insert", err, errlen);
        sqlite3_finalize(st);
    }
    if (!rc && sqlite3_exec(l->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = fail(l, "commit", err, errlen);
    if (rc) sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL);
    pthread_mutex_unlock(&l->mu);
    return rc;
}

static int lite_list(record *r, record_each_fn each, void *ud, char *err, size_t errlen)
{
    lite *l = r->impl;
    pthread_mutex_lock(&l->mu);
    sqlite3_stmt *st;
    int rc = 0;
    if (sqlite3_prepare_v2(l->db, "SELECT student, exercise, at_ms, met, goals, first_missed, ran, tries FROM latest ORDER BY student, exercise",
                           -1, &st, NULL) != SQLITE_OK)
        rc = fail(l, "prepare", err, errlen);
    else {
        int s;
        while ((s = sqlite3_step(st)) == SQLITE_ROW) {
            record_row row = {(const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1), sqlite3_column_int64(st, 2),
                              sqlite3_column_int(st, 3), sqlite3_column_int(st, 4), sqlite3_column_int(st, 5), sqlite3_column_int(st, 6),
                              sqlite3_column_int(st, 7)};
            each(ud, &row);
        }
        if (s != SQLITE_DONE) rc = fail(l, "read", err, errlen);
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&l->mu);
    return rc;
}

static int lite_last_trace(record *r, const char *student, const char *exercise, char **trace, char *err, size_t errlen)
{
    lite *l = r->impl;
    *trace = NULL;
    pthread_mutex_lock(&l->mu);
    sqlite3_stmt *st;
    int rc = 0;
    if (sqlite3_prepare_v2(l->db, "SELECT trace FROM latest WHERE student = ?1 AND exercise = ?2", -1, &st, NULL) != SQLITE_OK)
        rc = fail(l, "prepare", err, errlen);
    else {
        sqlite3_bind_text(st, 1, student, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, exercise, -1, SQLITE_STATIC);
        int s = sqlite3_step(st);
        if (s == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT) {
            const char *text = (const char *)sqlite3_column_text(st, 0);
            if (!(*trace = strdup(text))) { snprintf(err, errlen, "out of memory"); rc = -1; }
        } else if (s != SQLITE_ROW && s != SQLITE_DONE) rc = fail(l, "read", err, errlen);
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&l->mu);
    return rc;
}

static void lite_close(record *r)
{
    lite *l = r->impl;
    sqlite3_close(l->db);
    pthread_mutex_destroy(&l->mu);
    free(l);
    free(r);
}

static const record_ops lite_ops = {"sqlite", lite_add, lite_list, lite_last_trace, lite_close};

record *record_open_sqlite(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0700) && errno != EEXIST) { snprintf(err, errlen, "--state %s: cannot make it: %s", dir, strerror(errno)); return NULL; }
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) { snprintf(err, errlen, "--state %s: not a folder", dir); return NULL; }
    record *r = calloc(1, sizeof *r);
    lite *l = calloc(1, sizeof *l);
    if (!r || !l) { free(r); free(l); snprintf(err, errlen, "out of memory"); return NULL; }
    char path[4200];
    snprintf(path, sizeof path, "%s/class.db", dir);
    if (sqlite3_open_v2(path, &l->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, l->db ? sqlite3_errmsg(l->db) : "cannot open");
        sqlite3_close(l->db);
        free(l);
        free(r);
        return NULL;
    }
    sqlite3_busy_timeout(l->db, 10000); /* another server on this folder writing */
    char *msg = NULL;
    if (sqlite3_exec(l->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(l->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(l->db));
        sqlite3_free(msg);
        sqlite3_close(l->db);
        free(l);
        free(r);
        return NULL;
    }
    pthread_mutex_init(&l->mu, NULL);
    r->ops = &lite_ops;
    r->impl = l;
    snprintf(r->where, sizeof r->where, "the class in %.400s (SQLite, WAL)", path);
    return r;
}
