/* Progress is saved under $XDG_STATE_HOME/warpscope and read back after a "restart" (a fresh
 * struct, a fresh player): the step, the answers, the solved questions; the file is replaced
 * atomically (no temporary left behind); a player opened with the saved entry resumes where it
 * was; a malformed progress file and an unwritable directory are errors, not crashes. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "app/learn/progress.h"

static int files_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    if (d) closedir(d);
    return n;
}

int main(void)
{
    char root[] = "/tmp/warpscope-progress-XXXXXX";
    CHECK(mkdtemp(root) != NULL, "mkdtemp");
    setenv("XDG_STATE_HOME", root, 1);
    char dir[1024], err[1600];
    CHECK(progress_default_dir(dir, sizeof dir, err, sizeof err) == 0, "%s", err);
    char want_dir[1100];
    snprintf(want_dir, sizeof want_dir, "%s/warpscope", root);
    CHECK(strcmp(dir, want_dir) == 0, "state dir %s, expected %s", dir, want_dir);

    /* a session: take the v1 lesson to step 3, answering its questions on the way */
    lesson l;
    if (lesson_load(&l, WS_ROOT "/lessons/03-v1-bank-conflicts.json", err, sizeof err)) { CHECK(0, "%s", err); CHECK_DONE("progress"); }
    progress p;
    CHECK(progress_load(&p, dir, err, sizeof err) == 0 && p.n == 0, "no file yet: empty progress (%s)", err);
    progress_entry *e = progress_find(&p, l.id, 1);
    player pl;
    player_opts o = {.strict = 0, .progress = e};
    CHECK(player_open(&pl, &l, &o, err, sizeof err) == 0, "%s", err);
    query_value v;
    CHECK(player_expected(&pl, &v, err, sizeof err) == 0 && player_answer_number(&pl, v.num, err, sizeof err) == 1, "step 0 answer");
    CHECK(player_next(&pl, err, sizeof err) == PLAYER_MOVED, "next");
    CHECK(player_answer_pick(&pl, NULL, 0, err, sizeof err) == 0, "an empty pick is wrong here");
    CHECK(player_reveal(&pl, err, sizeof err) == 0 && player_status(&pl) == PLAYER_REVEALED &&
          player_last_feedback(&pl)->answer.count > 0, "reveal gives the answer");
    CHECK(player_next(&pl, err, sizeof err) == PLAYER_MOVED && player_next(&pl, err, sizeof err) == PLAYER_MOVED, "next, next");
    CHECK(player_index(&pl) == 3 && e->step == 3, "at step 3 (entry says %zu)", e->step);
    player_close(&pl);
    CHECK(progress_save(&p, err, sizeof err) == 0, "save: %s", err);
    CHECK(files_in(dir) == 1, "only progress.json in %s, no temporary file (found %d)", dir, files_in(dir));
    progress_free(&p);

    /* restart */
    progress q;
    CHECK(progress_load(&q, dir, err, sizeof err) == 0, "reload: %s", err);
    progress_entry *f = progress_find(&q, l.id, 0);
    CHECK(f != NULL, "the lesson's entry survives");
    if (f) {
        CHECK(f->step == 3 && f->nsteps == l.nsteps && !f->done, "step 3 of %zu, not done (got %zu of %zu)", l.nsteps, f->step, f->nsteps);
        CHECK(f->right == 1 && f->wrong == 1, "one right, one wrong (got %u, %u)", f->right, f->wrong);
        CHECK(progress_solved(f, 0) && !progress_solved(f, 1) && progress_count_solved(f) == 1, "step 0 solved, step 1 revealed only");
        CHECK(player_open(&pl, &l, &(player_opts){.progress = f}, err, sizeof err) == 0 && player_index(&pl) == 3,
              "a player opened with the saved entry resumes at step 3");
        player_close(&pl);
        /* a solved question stays solved when the student comes back to it */
        CHECK(player_open(&pl, &l, &(player_opts){.progress = f}, err, sizeof err) == 0 && player_goto(&pl, 0, err, sizeof err) == 0 &&
              player_status(&pl) == PLAYER_CORRECT, "step 0 shows as answered");
        player_close(&pl);
    }
    progress_free(&q);

    /* a malformed file is reported with its position */
    char path[1200];
    snprintf(path, sizeof path, "%s/progress.json", dir);
    FILE *w = fopen(path, "w");
    fputs("{\n\"schema\": \"warpscope-progress\",\n\"schema_version\": 1,\n\"lessons\": [}\n", w);
    fclose(w);
    CHECK(progress_load(&q, dir, err, sizeof err) == -1 && strstr(err, "progress.json:4:"), "malformed: %s", err);
    progress_free(&q);

    /* a directory that cannot be made: one error, no crash, nothing written */
    char blocker[512];
    snprintf(blocker, sizeof blocker, "%s/file", root);
    w = fopen(blocker, "w");
    fclose(w);
    progress bad;
    memset(&bad, 0, sizeof bad);
    snprintf(bad.dir, sizeof bad.dir, "%s/sub", blocker);
    CHECK(progress_save(&bad, err, sizeof err) == -1 && strstr(err, "cannot create"), "unwritable: %s", err);

    unsetenv("XDG_STATE_HOME");
    setenv("HOME", root, 1);
    CHECK(progress_default_dir(dir, sizeof dir, err, sizeof err) == 0 && strstr(dir, "/.local/state/warpscope"), "HOME fallback: %s", dir);

    lesson_free(&l);
    remove(path);
    remove(blocker);
    rmdir(want_dir);
    rmdir(root);
    CHECK_DONE("progress_should_survive_a_restart");
}
