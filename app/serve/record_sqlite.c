/* record_sqlite: the class record in SQLite, DIR/class.db. WAL mode with full synchronisation: a
 * try answered is on disk, whatever kills the server after; several servers on one folder share
 * it (SQLite's locks, a busy wait of a few seconds). One connection, serialised by a recursive
 * mutex (a transaction's statements take it again): a try is a few small writes, far below a
 * build's time. The folder is checked as the build cache's is: made 0700, refused when it is a
 * link, not this user's, or open to others; class.db is made 0600 and never followed as a link. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/serve/record.h"

typedef struct lite {
    sqlite3 *db;
    pthread_mutex_t mu;
} lite;

static int fail(lite *l, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "SQLite: %s: %s", what, sqlite3_errmsg(l->db));
    return -1;
}

static int lite_sql(record *r, const char *q, int n, const char *const *p, record_row_fn row, void *ud, char *err, size_t errlen)
{
    lite *l = r->impl;
    pthread_mutex_lock(&l->mu);
    sqlite3_stmt *st;
    int rc = 0;
    if (sqlite3_prepare_v2(l->db, q, -1, &st, NULL) != SQLITE_OK) rc = fail(l, "prepare", err, errlen);
    else {
        for (int i = 0; i < n; i++) {
            if (p[i]) sqlite3_bind_text(st, i + 1, p[i], -1, SQLITE_STATIC);
            else sqlite3_bind_null(st, i + 1);
        }
        int s, stop = 0;
        while (!stop && (s = sqlite3_step(st)) == SQLITE_ROW) {
            int nc = sqlite3_column_count(st);
            const char *col[16] = {0};
            for (int c = 0; c < nc && c < 16; c++) col[c] = (const char *)sqlite3_column_text(st, c);
            if (row) stop = row(ud, nc < 16 ? nc : 16, col);
        }
        if (!stop && s != SQLITE_DONE) rc = fail(l, "statement", err, errlen);
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&l->mu);
    return rc;
}

static int lite_txn(record *r, record_txn_fn fn, void *ud, char *err, size_t errlen)
{
    lite *l = r->impl;
    pthread_mutex_lock(&l->mu);
    int rc = sqlite3_exec(l->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(l, "begin", err, errlen);
    if (!rc) {
        rc = fn(r, ud, err, errlen);
        if (!rc && sqlite3_exec(l->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = fail(l, "commit", err, errlen);
        if (rc) sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL);
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

static const record_ops lite_ops = {"sqlite", lite_sql, lite_txn, lite_close};

/* The state folder as the cache's: 0 or -1 with err */
static int private_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0700) && errno != EEXIST) { snprintf(err, errlen, "--state %s: cannot make it: %s", dir, strerror(errno)); return -1; }
    if (lstat(dir, &st)) { snprintf(err, errlen, "--state %s: %s", dir, strerror(errno)); return -1; }
    if (S_ISLNK(st.st_mode)) { snprintf(err, errlen, "--state %s: a link; give the folder itself", dir); return -1; }
    if (!S_ISDIR(st.st_mode)) { snprintf(err, errlen, "--state %s: not a folder", dir); return -1; }
    if (st.st_uid != geteuid() || (st.st_mode & 077)) {
        snprintf(err, errlen, "--state %s: it must be this user's and private (0700; it is %04o): the class record holds students' sessions", dir,
                 (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

/* class.db and SQLite's files beside it (-wal, -shm, -journal): made 0600 here, never through a
 * link; one already there must be a plain file of this user's that others cannot read */
static int private_file(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, errno == ELOOP ? "a link: the record is never opened through one" : strerror(errno));
        return -1;
    }
    int bad = fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077);
    close(fd);
    if (bad) { snprintf(err, errlen, "%s: it must be a file of this user's that no one else may read (0600)", path); return -1; }
    return 0;
}

record *record_open_sqlite(const char *dir, char *err, size_t errlen)
{
    if (private_dir(dir, err, errlen)) return NULL;
    char path[4200], side[4300];
    snprintf(path, sizeof path, "%s/class.db", dir);
    if (private_file(path, err, errlen)) return NULL;
    static const char *const sides[] = {"-wal", "-shm"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(side, sizeof side, "%s%s", path, sides[i]);
        struct stat st;
        if (lstat(side, &st) == 0 && private_file(side, err, errlen)) return NULL;
    }
    record *r = calloc(1, sizeof *r);
    lite *l = calloc(1, sizeof *l);
    if (!r || !l) { free(r); free(l); snprintf(err, errlen, "out of memory"); return NULL; }
    mode_t was = umask(077); /* the -wal and -shm files SQLite makes are 0600 too */
    int orc = sqlite3_open_v2(path, &l->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX, NULL);
    umask(was);
    if (orc != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, l->db ? sqlite3_errmsg(l->db) : "cannot open");
        sqlite3_close(l->db);
        free(l);
        free(r);
        return NULL;
    }
    sqlite3_busy_timeout(l->db, 10000); /* another server on this folder writing */
    char *msg = NULL;
    if (sqlite3_exec(l->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(l->db, record_schema, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(l->db));
        sqlite3_free(msg);
        sqlite3_close(l->db);
        free(l);
        free(r);
        return NULL;
    }
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&l->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    r->ops = &lite_ops;
    r->impl = l;
    snprintf(r->where, sizeof r->where, "the class in %.400s (SQLite, WAL)", path);
    return r;
}
