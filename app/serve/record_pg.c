/* record_pg: the class record in PostgreSQL through libpq (--db postgres://...), so that servers on
 * several machines share one class. The same two tables as SQLite's (record_sqlite.c); a try is one
 * transaction. One connection, serialised by a mutex, reset once when the server lost it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/serve/record.h"

#ifndef WS_HAVE_PQ
record *record_open_pg(const char *url, char *err, size_t errlen)
{
    (void)url;
    snprintf(err, errlen, "--db: this warpscope was built without PostgreSQL's client library (libpq-dev): use --state DIR");
    return NULL;
}
#else
#include <libpq-fe.h>
#include <pthread.h>

typedef struct pg {
    PGconn *c;
    pthread_mutex_t mu;
} pg;

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS tries (id BIGSERIAL PRIMARY KEY, student TEXT NOT NULL, exercise TEXT NOT NULL,"
    " at_ms BIGINT NOT NULL, met INTEGER NOT NULL, goals INTEGER NOT NULL, first_missed INTEGER NOT NULL, ran INTEGER NOT NULL,"
    " error TEXT NOT NULL, report TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS latest (student TEXT NOT NULL, exercise TEXT NOT NULL, at_ms BIGINT NOT NULL, met INTEGER NOT NULL,"
    " goals INTEGER NOT NULL, first_missed INTEGER NOT NULL, ran INTEGER NOT NULL, tries INTEGER NOT NULL, trace TEXT,"
    " PRIMARY KEY (student, exercise));";

/* A lost connection is reset once before a statement. */
static void pg_alive(pg *p)
{
    if (PQstatus(p->c) != CONNECTION_OK) PQreset(p->c);
}

static int pg_ok(PGresult *res, ExecStatusType want, pg *p, const char *what, char *err, size_t errlen)
{
    int ok = res && PQresultStatus(res) == want;
    if (!ok) {
        const char *m = res ? PQresultErrorMessage(res) : PQerrorMessage(p->c);
        snprintf(err, errlen, "PostgreSQL: %s: %.*s", what, (int)strcspn(m, "\n"), m);
    }
    return ok;
}

static int pg_add(record *r, const record_try *t, char *err, size_t errlen)
{
    pg *p = r->impl;
    char at[32], met[16], goals[16], first[16], ran[4];
    snprintf(at, sizeof at, "%lld", (long long)t->at_ms);
    snprintf(met, sizeof met, "%d", t->met);
    snprintf(goals, sizeof goals, "%d", t->goals);
    snprintf(first, sizeof first, "%d", t->first_missed);
    snprintf(ran, sizeof ran, "%d", t->ran);
    const char *v[10] = {t->student, t->exercise, at, met, goals, first, ran, t->error ? t->error : "", t->report ? t->report : "{}", t->trace};
    static const char sql[] =
        "WITH a AS (INSERT INTO tries (student, exercise, at_ms, met, goals, first_missed, ran, error, report)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id)"
        " INSERT INTO latest (student, exercise, at_ms, met, goals, first_missed, ran, tries, trace)"
        " SELECT $1, $2, $3, $4, $5, $6, $7, 1, $10 FROM a"
        " ON CONFLICT (student, exercise) DO UPDATE SET at_ms = excluded.at_ms, met = excluded.met, goals = excluded.goals,"
        " first_missed = excluded.first_missed, ran = excluded.ran, tries = latest.tries + 1, trace = excluded.trace";
    pthread_mutex_lock(&p->mu);
    pg_alive(p);
    PGresult *res = PQexecParams(p->c, sql, 10, NULL, v, NULL, NULL, 0);
    int ok = pg_ok(res, PGRES_COMMAND_OK, p, "insert", err, errlen);
    PQclear(res);
    pthread_mutex_unlock(&p->mu);
    return ok ? 0 : -1;
}

static int pg_list(record *r, record_each_fn each, void *ud, char *err, size_t errlen)
{
    pg *p = r->impl;
    pthread_mutex_lock(&p->mu);
    pg_alive(p);
    PGresult *res = PQexec(p->c, "SELECT student, exercise, at_ms, met, goals, first_missed, ran, tries FROM latest ORDER BY student, exercise");
    int ok = pg_ok(res, PGRES_TUPLES_OK, p, "read", err, errlen);
    for (int i = 0; ok && i < PQntuples(res); i++) {
        record_row row = {PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), strtoll(PQgetvalue(res, i, 2), NULL, 10), atoi(PQgetvalue(res, i, 3)),
                          atoi(PQgetvalue(res, i, 4)), atoi(PQgetvalue(res, i, 5)), atoi(PQgetvalue(res, i, 6)), atoi(PQgetvalue(res, i, 7))};
        each(ud, &row);
    }
    PQclear(res);
    pthread_mutex_unlock(&p->mu);
    return ok ? 0 : -1;
}

static int pg_last_trace(record *r, const char *student, const char *exercise, char **trace, char *err, size_t errlen)
{
    pg *p = r->impl;
    *trace = NULL;
    const char *v[2] = {student, exercise};
    pthread_mutex_lock(&p->mu);
    pg_alive(p);
    PGresult *res = PQexecParams(p->c, "SELECT trace FROM latest WHERE student = $1 AND exercise = $2", 2, NULL, v, NULL, NULL, 0);
    int ok = pg_ok(res, PGRES_TUPLES_OK, p, "read", err, errlen);
    if (ok && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) && !(*trace = strdup(PQgetvalue(res, 0, 0)))) {
        snprintf(err, errlen, "out of memory");
        ok = 0;
    }
    PQclear(res);
    pthread_mutex_unlock(&p->mu);
    return ok ? 0 : -1;
}

static void pg_close(record *r)
{
    pg *p = r->impl;
    PQfinish(p->c);
    pthread_mutex_destroy(&p->mu);
    free(p);
    free(r);
}

static const record_ops pg_ops = {"postgresql", pg_add, pg_list, pg_last_trace, pg_close};

record *record_open_pg(const char *url, char *err, size_t errlen)
{
    record *r = calloc(1, sizeof *r);
    pg *p = calloc(1, sizeof *p);
    if (!r || !p) { free(r); free(p); snprintf(err, errlen, "out of memory"); return NULL; }
    p->c = PQconnectdb(url);
    if (PQstatus(p->c) != CONNECTION_OK) {
        const char *m = PQerrorMessage(p->c);
        snprintf(err, errlen, "--db: cannot connect to PostgreSQL: %.*s", (int)strcspn(m, "\n"), m);
        PQfinish(p->c);
        free(p);
        free(r);
        return NULL;
    }
    /* servers starting together each create the tables (IF NOT EXISTS is not safe at once): one at
     * a time, under an advisory lock of warpscope's ("wscl") */
    PGresult *res = PQexec(p->c, "SELECT pg_advisory_lock(2004050284)");
    int ok = pg_ok(res, PGRES_TUPLES_OK, p, "lock", err, errlen);
    PQclear(res);
    if (ok) {
        res = PQexec(p->c, schema);
        ok = pg_ok(res, PGRES_COMMAND_OK, p, "schema", err, errlen);
        PQclear(res);
        PQclear(PQexec(p->c, "SELECT pg_advisory_unlock(2004050284)"));
    }
    if (!ok) { PQfinish(p->c); free(p); free(r); return NULL; }
    pthread_mutex_init(&p->mu, NULL);
    r->ops = &pg_ops;
    r->impl = p;
    snprintf(r->where, sizeof r->where, "the class in PostgreSQL, database %s on %s", PQdb(p->c), PQhost(p->c) ? PQhost(p->c) : "its socket");
    return r;
}
#endif
