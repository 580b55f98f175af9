/* The compact encoding (.wstrace) reads back as the same trace as the JSON form does, bit for bit,
 * and a damaged compact file (cut short anywhere, any byte changed) is rejected with one message
 * or, when the change happens to be valid, still loads a trace that passes the reader's checks:
 * never a crash (this test also runs under ASan and UBSan). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/capture/capture.h"
#include "check.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void round_trip(const char *version, uint64_t n, unsigned traced, char **keep, size_t *keep_len)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = version;
    d.n = n;
    d.data = "random-float";
    d.blocks_traced = traced;
    trace a, j, c;
    trace_init(&a);
    trace_init(&j);
    trace_init(&c);
    char err[512], jpath[64], cpath[64];
    snprintf(jpath, sizeof jpath, "rt-%d.json", (int)getpid());
    snprintf(cpath, sizeof cpath, "rt-%d.wstrace", (int)getpid());
    CHECK(capture_cpu(&d, &a, err, sizeof err) == 0, "%s: %s", version, err);
    /* where and when blocks ran, as a GPU capture records them (the emulator records none) */
    for (unsigned b = 0; b < 3 && a.npasses && b < a.passes[0].grid; b++) {
        trace_run u = {0, b, 131 - b, 1000ull * b, 1000ull * b + 4321};
        CHECK(trace_add_run(&a, &u) == 0, "trace_add_run");
    }
    CHECK(trace_write_file(&a, jpath, err, sizeof err) == 0, "%s: %s", version, err);
    CHECK(trace_write_file(&a, cpath, err, sizeof err) == 0, "%s: %s", version, err);
    CHECK(trace_read_file(&j, jpath, err, sizeof err) == 0, "%s: JSON: %s", version, err);
    CHECK(trace_read_file(&c, cpath, err, sizeof err) == 0, "%s: compact: %s", version, err);
    CHECK(a.nevents > 0 && trace_equal(&j, &c), "%s: the compact file reads back differently from the JSON one", version);
    CHECK(trace_equal(&a, &c), "%s: the compact file reads back differently from the capture", version);
    size_t jl = 0, cl = 0;
    char *jt = slurp(jpath, &jl), *ct = slurp(cpath, &cl);
    CHECK(jt && ct && cl * 2 < jl, "%s: compact %zu bytes against JSON %zu", version, cl, jl);
    CHECK(ct && memcmp(ct, "WSTRACE", 7) == 0, "%s: no header", version);
    free(jt);
    if (keep) { *keep = ct; *keep_len = cl; } else free(ct);
    remove(jpath);
    remove(cpath);
    trace_free(&a);
    trace_free(&j);
    trace_free(&c);
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* a write cancelled (Ctrl+C) or failing leaves nothing in the folder */
static void cancelled_write(void)
{
    capture_desc d;
    memset(&d, 0, sizeof d);
    d.version = "v2";
    trace a;
    trace_init(&a);
    char err[512], dir[] = "/tmp/ws-cancel-XXXXXX", path[600];
    CHECK(capture_cpu(&d, &a, err, sizeof err) == 0, "%s", err);
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    static const char *const names[] = {"x.json", "x.wstrace"};
    for (int i = 0; i < 2; i++) {
        volatile int stop = 1;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CHECK(trace_save(&a, path, &stop, err, sizeof err) == -2, "%s: a cancelled write did not say so", names[i]);
        CHECK(entries(dir) == 0, "%s: a cancelled write left a file", names[i]);
        snprintf(path, sizeof path, "%s/missing/%s", dir, names[i]);
        CHECK(trace_save(&a, path, NULL, err, sizeof err) == -1 && strstr(err, "cannot open"), "%s: %s", names[i], err);
    }
    rmdir(dir);
    trace_free(&a);
}

int main(void)
{
    cancelled_write();
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    char *bin = NULL;
    size_t len = 0;
    round_trip("v0", 0, 1, NULL, NULL);
    round_trip("v2", 3000, 100, NULL, NULL);
    round_trip("naive", 100, 1, NULL, NULL);
    round_trip("v7", 999, 2, NULL, NULL);
    round_trip("v4", 0, 1, NULL, NULL);          /* hazards in shared memory */
    round_trip("naive-race", 300, 2, NULL, NULL); /* hazards in global memory, several passes */
    round_trip("v8", 5000, 4, &bin, &len);
    if (!bin) CHECK_DONE("trace_should_round_trip_through_compact");
    /* cut short: every length fails with a message */
    trace t;
    char err[256];
    int crashes_avoided = 0;
    for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : 97) {
        err[0] = '\0';
        int rc = trace_from_bin(&t, bin, cut, err, sizeof err);
        CHECK(rc == -1 && err[0], "cut at %zu of %zu bytes: accepted", cut, len);
        if (rc == 0) trace_free(&t);
        crashes_avoided++;
    }
    /* one byte changed: rejected with a message, or loaded and consistent */
    char *copy = malloc(len);
    unsigned rejected = 0, loaded = 0;
    for (size_t at = 0; at < len; at += at < 512 ? 1 : 13) {
        memcpy(copy, bin, len);
        copy[at] = (char)(copy[at] ^ 0x5a);
        err[0] = '\0';
        if (trace_from_bin(&t, copy, len, err, sizeof err) == 0) {
            loaded++;
            for (size_t i = 0; i < t.nevents; i++) {
                const trace_event *e = &t.events[i];
                CHECK(e->pass < t.npasses && e->block < t.passes[e->pass].grid && e->warp * 32u < t.passes[e->pass].block,
                      "byte %zu changed: event %zu outside the declared geometry", at, i);
            }
            trace_free(&t);
        } else {
            rejected++;
            CHECK(err[0] && !strchr(err, '\n'), "byte %zu changed: no one-line message", at);
        }
    }
    CHECK(rejected > 0 && crashes_avoided > 0, "no damaged file was rejected");
    printf("damaged files: %u rejected, %u still valid (changed values)\n", rejected, loaded);
    free(copy);
    free(bin);
    CHECK_DONE("trace_should_round_trip_through_compact");
}
