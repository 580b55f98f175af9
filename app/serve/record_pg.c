/* record_pg: the class record in PostgreSQL through libpq (--db postgres://...), so that servers on
 * several machines share one class. The same tables and statements as SQLite's (record.c); a try is
 * one transaction. One connection, serialised by a mutex, reset once when the server lost it. */
#define _GNU_SOURCE
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
    pthread_mutex_t mu; /* recursive: a transaction's statements take it again */
    int in_txn;
} pg;

/* A lost connection is reset once before a statement (never inside a transaction). */
static void pg_alive(pg *p)
{
    if (!p->in_txn && PQstatus(p->c) != CONNECTION_OK) PQreset(p->c);
}

static int pg_ok(PGresult *res, pg *p, const char *what, char *err, size_t errlen)
{
    int ok = res && (PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK);
    if (!ok) {
        const char *m = res ? PQresultErrorMessage(res) : PQerrorMessage(p->c);
        snprintf(err, errlen, "PostgreSQL: %s: %.*s", what, (int)strcspn(m, "\n"), m);
    }
    return ok;
}

/* record.c's ?N parameters as libpq's $N (its statements hold no ? in a string) */
static char *dollars(const char *q)
{
    char *out = strdup(q);
    for (char *c = out; c && *c; c++)
        if (*c == '?') *c = '$';
    return out;
}

static int pg_sql(record *r, const char *q, int n, const char *const *params, record_row_fn row, void *ud, char *err, size_t errlen)
{
    pg *p = r->impl;
    char *text = dollars(q);
    if (!text) { snprintf(err, errlen, "out of memory"); return -1; }
    pthread_mutex_lock(&p->mu);
    pg_alive(p);
    PGresult *res = PQexecParams(p->c, text, n, NULL, params, NULL, NULL, 0);
    int ok = pg_ok(res, p, "statement", err, errlen);
    int nc = ok ? PQnfields(res) : 0;
    for (int i = 0, stop = 0; ok && row && !stop && i < PQntuples(res); i++) {
        const char *col[16] = {0};
        for (int c = 0; c < nc && c < 16; c++) col[c] = PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
        stop = row(ud, nc < 16 ? nc : 16, col);
    }
    PQclear(res);
    pthread_mutex_unlock(&p->mu);
    free(text);
    return ok ? 0 : -1;
}

static int pg_txn(record *r, record_txn_fn fn, void *ud, char *err, size_t errlen)
{
    pg *p = r->impl;
    pthread_mutex_lock(&p->mu);
    pg_alive(p);
    PGresult *res = PQexec(p->c, "BEGIN");
    int rc = pg_ok(res, p, "begin", err, errlen) ? 0 : -1;
    PQclear(res);
    if (!rc) {
        p->in_txn = 1;
        rc = fn(r, ud, err, errlen);
        p->in_txn = 0;
        res = PQexec(p->c, rc ? "ROLLBACK" : "COMMIT");
        if (!pg_ok(res, p, "commit", err, errlen) && !rc) rc = -1;
        PQclear(res);
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

static void pg_close(record *r)
{
    pg *p = r->impl;
    PQfinish(p->c);
    pthread_mutex_destroy(&p->mu);
    free(p);
    free(r);
}

static const record_ops pg_ops = {"postgresql", pg_sql, pg_txn, pg_close};

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
    int ok = pg_ok(res, p, "lock", err, errlen);
    PQclear(res);
    if (ok) {
        res = PQexec(p->c, record_schema);
        ok = pg_ok(res, p, "schema", err, errlen);
        PQclear(res);
        PQclear(PQexec(p->c, "SELECT pg_advisory_unlock(2004050284)"));
    }
    if (!ok) { PQfinish(p->c); free(p); free(r); return NULL; }
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&p->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    r->ops = &pg_ops;
    r->impl = p;
    snprintf(r->where, sizeof r->where, "the class in PostgreSQL, database %s on %s", PQdb(p->c), PQhost(p->c) ? PQhost(p->c) : "its socket");
    return r;
}
#endif
