/* progress: how far a user got in each lesson, saved as JSON under the XDG state directory
 * ($XDG_STATE_HOME/warpscope, by default ~/.local/state/warpscope) so a lesson resumes where it
 * was left. Written atomically (a temporary file, then rename): a crash leaves the old file or the
 * new one, never half of one. No SDL. */
#ifndef WARPSCOPE_PROGRESS_H
#define WARPSCOPE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#define PROGRESS_SCHEMA "warpscope-progress"
enum { PROGRESS_SCHEMA_VERSION = 1, PROGRESS_MAX_STEPS = 256, PROGRESS_ID_MAX = 64 };

typedef struct progress_entry {
    char id[PROGRESS_ID_MAX];  /* the lesson's id */
    size_t step, nsteps;       /* where the user is, of how many */
    int done;                  /* reached the last step once */
    unsigned right, wrong;     /* answers given */
    uint8_t solved[PROGRESS_MAX_STEPS / 8]; /* steps whose question was answered right */
} progress_entry;

typedef struct progress {
    char dir[1024];
    progress_entry *e;
    size_t n;
} progress;

/* The directory: $XDG_STATE_HOME/warpscope, else $HOME/.local/state/warpscope. -1 when neither
 * variable is set (or is not an absolute path, which the XDG spec says to ignore). */
int progress_default_dir(char *dir, size_t len, char *err, size_t errlen);
/* Reads dir/progress.json; a missing file is an empty progress. -1 with "path:line:column: ..."
 * when the file is there but malformed. */
int progress_load(progress *p, const char *dir, char *err, size_t errlen);
/* Creates the directory (0700) if needed and replaces dir/progress.json atomically. */
int progress_save(const progress *p, char *err, size_t errlen);
/* The entry of a lesson; with create, a new one (NULL only when out of memory). */
progress_entry *progress_find(progress *p, const char *id, int create);
int progress_solved(const progress_entry *e, size_t step);
void progress_set_solved(progress_entry *e, size_t step);
/* Solved questions of an entry. */
unsigned progress_count_solved(const progress_entry *e);
void progress_free(progress *p);

#endif
