/* record: which back end keeps the class (record.h). */
#include "app/serve/record.h"

#include <stdio.h>
#include <string.h>

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
