/* progress: see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "app/learn/progress.h"
#include "trace/outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/json_internal.h"

enum { MAX_PROGRESS_BYTES = 1 << 20 };

static const char FILE_NAME[] = "progress.json";

int progress_default_dir(char *dir, size_t len, char *err, size_t errlen)
{
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') n = snprintf(dir, len, "%s/warpscope", xdg);
    else if (home && home[0] == '/') n = snprintf(dir, len, "%s/.local/state/warpscope", home);
    else {
        snprintf(err, errlen, "neither XDG_STATE_HOME nor HOME is set to an absolute path: nowhere to keep progress");
        return -1;
    }
    if (n < 0 || (size_t)n >= len) { snprintf(err, errlen, "the state directory's path is too long"); return -1; }
    return 0;
}

void progress_free(progress *p)
{
    free(p->e);
    p->e = NULL;
    p->n = 0;
}

progress_entry *progress_find(progress *p, const char *id, int create)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->e[i].id, id) == 0) return &p->e[i];
    if (!create) return NULL;
    progress_entry *e = realloc(p->e, (p->n + 1) * sizeof *e);
    if (!e) return NULL;
    p->e = e;
    memset(&e[p->n], 0, sizeof e[p->n]);
    snprintf(e[p->n].id, sizeof e[p->n].id, "%s", id);
    return &e[p->n++];
}

int progress_solved(const progress_entry *e, size_t step)
{
    return step < PROGRESS_MAX_STEPS && (e->solved[step / 8] >> (step % 8) & 1);
}

void progress_set_solved(progress_entry *e, size_t step)
{
    if (step < PROGRESS_MAX_STEPS) e->solved[step / 8] = (uint8_t)(e->solved[step / 8] | 1u << (step % 8));
}

unsigned progress_count_solved(const progress_entry *e)
{
    unsigned n = 0;
    for (size_t i = 0; i < PROGRESS_MAX_STEPS; i++) n += (unsigned)progress_solved(e, i);
    return n;
}

static int whole(const cJSON *obj, const char *key, double hi, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > hi || v->valuedouble != floor(v->valuedouble)) return -1;
    *out = v->valuedouble;
    return 0;
}

static int parse(progress *p, const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char msg[300];
    cJSON *root = json_parse_at(text, len, msg, sizeof msg);
    if (!root) { snprintf(err, errlen, "%s:%s", path, msg); return -1; }
    int rc = -1;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    const cJSON *lessons = cJSON_GetObjectItemCaseSensitive(root, "lessons");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, PROGRESS_SCHEMA) != 0 || !cJSON_IsNumber(ver) ||
        ver->valuedouble != PROGRESS_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: schema: expected \"%s\" version %d", path, PROGRESS_SCHEMA, PROGRESS_SCHEMA_VERSION);
        goto out;
    }
    if (!cJSON_IsArray(lessons)) { snprintf(err, errlen, "%s: lessons: expected an array", path); goto out; }
    int i = 0;
    for (const cJSON *x = lessons->child; x; x = x->next, i++) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(x, "id");
        const cJSON *done = cJSON_GetObjectItemCaseSensitive(x, "done");
        const cJSON *solved = cJSON_GetObjectItemCaseSensitive(x, "solved");
        double step, nsteps, right, wrong;
        if (!cJSON_IsString(id) || !id->valuestring[0] || strlen(id->valuestring) >= PROGRESS_ID_MAX || !cJSON_IsBool(done) ||
            !cJSON_IsArray(solved) || whole(x, "step", 1e9, &step) || whole(x, "steps", 1e9, &nsteps) ||
            whole(x, "right", 4e9, &right) || whole(x, "wrong", 4e9, &wrong)) {
            snprintf(err, errlen, "%s: lessons[%d]: expected id, step, steps, done, right, wrong and solved", path, i);
            goto out;
        }
        progress_entry *e = progress_find(p, id->valuestring, 1);
        if (!e) { snprintf(err, errlen, "out of memory"); goto out; }
        e->step = (size_t)step;
        e->nsteps = (size_t)nsteps;
        e->done = cJSON_IsTrue(done);
        e->right = (unsigned)right;
        e->wrong = (unsigned)wrong;
        for (const cJSON *s = solved->child; s; s = s->next) {
            if (!cJSON_IsNumber(s) || s->valuedouble < 0 || s->valuedouble >= PROGRESS_MAX_STEPS) {
                snprintf(err, errlen, "%s: lessons[%d].solved: expected step numbers below %d", path, i, PROGRESS_MAX_STEPS);
                goto out;
            }
            progress_set_solved(e, (size_t)s->valuedouble);
        }
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int progress_load(progress *p, const char *dir, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (snprintf(p->dir, sizeof p->dir, "%s", dir) >= (int)sizeof p->dir) { snprintf(err, errlen, "%s: path too long", dir); return -1; }
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, FILE_NAME);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return 0; /* nothing saved yet */
    char *buf;
    size_t n;
    if (json_read_file(path, MAX_PROGRESS_BYTES, &buf, &n, err, errlen)) return -1; /* the size cap, NUL bytes, folders */
    int rc = parse(p, path, buf, n, err, errlen);
    free(buf);
    if (rc) progress_free(p);
    return rc;
}

/* mkdir -p with 0700 for the parts it creates */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *s = path + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(path, 0700) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
                return -1;
            }
            *s = c;
            if (!c) break;
        }
    }
    return 0;
}

int progress_save(const progress *p, char *err, size_t errlen)
{
    if (make_dirs(p->dir, err, errlen)) return -1;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", p->dir, FILE_NAME);
    outfile of; /* a unique temporary file beside it, renamed when complete */
    if (outfile_open(&of, path, err, errlen)) return -1;
    FILE *f = of.f;
    int bad = fprintf(f, "{\n\"schema\": \"%s\",\n\"schema_version\": %d,\n\"lessons\": [", PROGRESS_SCHEMA, PROGRESS_SCHEMA_VERSION) < 0;
    for (size_t i = 0; i < p->n && !bad; i++) {
        const progress_entry *e = &p->e[i];
        /* lesson ids hold no quote or backslash (the loader checks), but escape anyway */
        cJSON *str = cJSON_CreateString(e->id);
        char *id = str ? cJSON_PrintUnformatted(str) : NULL;
        cJSON_Delete(str);
        bad |= !id;
        if (!bad) bad |= fprintf(f, "%s\n{\"id\": %s, \"step\": %zu, \"steps\": %zu, \"done\": %s, \"right\": %u, \"wrong\": %u, \"solved\": [",
                                 i ? "," : "", id, e->step, e->nsteps, e->done ? "true" : "false", e->right, e->wrong) < 0;
        free(id);
        int first = 1;
        for (size_t k = 0; k < PROGRESS_MAX_STEPS && !bad; k++)
            if (progress_solved(e, k)) { bad |= fprintf(f, "%s%zu", first ? "" : ", ", k) < 0; first = 0; }
        if (!bad) bad |= fprintf(f, "]}") < 0;
    }
    if (!bad) bad |= fprintf(f, "\n]}\n") < 0;
    if (bad) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, err, errlen);
}
