/* Lessons and exercises: list, print, check, start, and the exercise window. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "app/cmd/cmd.h"

/* ---- lessons: check and list (the player window is the viewer's) ---- */


/* a lesson's problem, one line (ud: a progress bar to clear first, or NULL) */
static void print_report(void *ud, const char *message)
{
    if (interrupted) return; /* what a stopped capture reports is not the lesson's fault */
    if (ud) {
        work_bar *bar = ud;
        work_bar_end(bar);
        if (bar->tty) bar->shown = 0;
    }
    fprintf(stderr, "warpscope: %s\n", message);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lesson files of a folder, sorted by name; NULL-terminated, malloc'd. */
static char **lesson_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    char **v = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || e->d_name[0] == '.') continue;
        char **nv = realloc(v, (*n + 2) * sizeof *nv);
        char *path = malloc(strlen(dir) + len + 2);
        if (!nv || !path) { free(path); free(nv ? nv : v); closedir(d); *n = 0; return NULL; }
        v = nv;
        sprintf(path, "%s/%s", dir, e->d_name);
        v[(*n)++] = path;
        v[*n] = NULL;
    }
    closedir(d);
    if (v) qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

/* The lesson as text, step by step: narration with its numbers filled in, each question and its
 * answer. What a teacher reads to prepare, and a lesson's author to proofread. */
static int lesson_print(const char *file, lesson_lang lang)
{
    char err[1600];
    lesson l;
    if (lesson_load(&l, file, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    player p;
    int rc = 0;
    if (player_open(&p, &l, NULL, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); lesson_free(&l); return EXIT_BAD; }
    static char buf[8192];
    printf("# %s\n\n", l.title.s[lang]);
    for (size_t i = 0; i < player_count(&p) && !rc; i++) {
        if (i && player_goto(&p, i, err, sizeof err)) { rc = EXIT_BAD; break; }
        const player_frame *f = player_current(&p);
        printf("## %zu/%zu  %s%s%s, step %zu (phase %u, line %u)\n", i + 1, player_count(&p), f->show->version,
               f->cap_compare.version ? " | " : "", f->cap_compare.version ? f->cap_compare.version : "", f->step,
               f->view->steps[f->step].phase, f->view->steps[f->step].line);
        if (player_text(&p, PLAYER_TEXT_SAY, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("%s\n", buf);
        const lesson_ask *a = player_question(&p);
        if (!a) { putchar('\n'); continue; }
        if (player_text(&p, PLAYER_TEXT_PROMPT, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("\n  ? [%s] %s\n", lesson_ask_keys[a->kind], buf);
        for (size_t o = 0; o < a->noptions; o++) {
            if (player_text(&p, PLAYER_TEXT_OPTION, o, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
            printf("    %c) %s\n", (int)('a' + o), buf);
        }
        query_value v;
        if (player_expected(&p, &v, err, sizeof err)) { rc = EXIT_BAD; break; }
        char ans[2048];
        if (a->kind == LESSON_ASK_CHOICE) {
            size_t k = 0;
            ans[0] = '\0';
            for (size_t o = 0; o < a->noptions; o++)
                if (query_set_has(&v, o)) k += (size_t)snprintf(ans + k, sizeof ans - k, "%s%c", k ? ", " : "", (int)('a' + o));
        } else {
            query_format(&v, "", ans, sizeof ans);
        }
        printf("  = %s\n", ans);
        if (player_text(&p, PLAYER_TEXT_EXPLAIN, 0, lang, buf, sizeof buf, err, sizeof err)) { rc = EXIT_BAD; break; }
        printf("  ! %s\n\n", buf);
    }
    if (rc) fprintf(stderr, "warpscope: %s\n", err);
    player_close(&p);
    lesson_free(&l);
    return rc;
}

int cmd_lesson_print(const ws_call *k)
{
    const cli_value *lang_v = &k->v[WF_LANG];
    lesson_lang lang = LESSON_EN;
    if (lang_v->given && !strcmp(lang_v->text, "zh")) lang = LESSON_ZH;
    else if (lang_v->given && strcmp(lang_v->text, "en")) return usage_error("--lang must be en or zh, got \"%s\"%s", lang_v->text, "");
    if (!k->npos) return usage_error("lesson print needs a lesson file%s%s", "", "");
    const char *name = k->pos[0];
    struct stat st;
    if (strchr(name, '/') || stat(name, &st) == 0) return lesson_print(name, lang);
    /* a lesson of warpscope's own, by number, name or id */
    data_dirs d;
    int rc = find_data(&d, 0, 1);
    if (rc) return rc;
    size_t n;
    char **files = lesson_files(d.lessons, &n), err[600], path[PATH_MAX];
    long i = lesson_match(files, n, name, "lesson", err, sizeof err);
    if (i >= 0) snprintf(path, sizeof path, "%s", files[i]);
    for (size_t j = 0; j < n; j++) free(files[j]);
    free(files);
    if (i < 0) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    return lesson_print(path, lang);
}

/* the headers a kernel of one's own compiles against (warpscope's data, include/); NULL when
 * the data is not found (find_data said why) */
static const char *exercise_include_dir(void)
{
    static data_dirs d;
    return d.include[0] || find_data(&d, 1, 0) == 0 ? d.include : NULL;
}

/* ---- exercises ---- */

/* The exercises (lessons/exercises of warpscope's data), sorted; NULL with one line on stderr. */
static char **exercise_files(char *dir, size_t dirlen, size_t *n)
{
    data_dirs d;
    *n = 0;
    if (find_data(&d, 1, 1)) return NULL;
    snprintf(dir, dirlen, "%s/exercises", d.lessons);
    char **files = lesson_files(dir, n);
    if (!*n) fprintf(stderr, "warpscope: %s: no exercises (*.json) there\n", dir);
    return files;
}

static void files_free(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++) free(files[i]);
    free(files);
}

/* Exercise `name` (a number, a file name or an id) into l: 0, or one line on stderr and 2. */
static int exercise_load(const char *name, lesson *l)
{
    char dir[DATA_PATH_MAX + 32], err[1600];
    size_t n;
    char **files = exercise_files(dir, sizeof dir, &n);
    if (!n) { free(files); return EXIT_BAD; }
    long i = lesson_match(files, n, name, "exercise", err, sizeof err);
    int rc = 0;
    if (i < 0 || lesson_load(l, files[i], err, sizeof err)) {
        fprintf(stderr, "warpscope: %s\n", err);
        rc = EXIT_BAD;
    } else if (!l->exercise) {
        fprintf(stderr, "warpscope: %s is a lesson, not an exercise (warpscope learn %s)\n", files[i], name);
        lesson_free(l);
        rc = EXIT_BAD;
    }
    files_free(files, n);
    return rc;
}

/* The viewer on `file` (NULL: the exercise's starting file) with the exercise's launch and its
 * checklist. The exercise lives as long as the command. */
int exercise_viewer(const char *name, const char *file, viewer_opts *o)
{
    static lesson l;
    static data_dirs d;
    static const char *defines[5];
    if (o->cap.version && strcmp(o->cap.version, OWN_VERSION) != 0)
        return usage_error("--exercise judges a kernel file of yours (--kernel), not --version %s%s", o->cap.version, "");
    int rc = exercise_load(name, &l);
    if (rc || (rc = find_data(&d, 1, 0) ? EXIT_BAD : 0)) return rc;
    const lesson_exercise *x = l.exercise;
    size_t nd = 0;
    for (size_t i = 0; i < 4; i++)
        if (x->defines[i][0]) defines[nd++] = x->defines[i];
    defines[nd] = NULL;
    o->exercise = &l;
    o->cap.version = OWN_VERSION;
    o->cap.kernel = file ? file : x->start;
    o->cap.entry = x->entry;
    o->cap.defines = defines;
    o->cap.include_dir = d.include;
    if (x->block) o->cap.block = x->block;
    if (x->n) o->cap.n = x->n;
    if (x->data[0]) o->cap.data = x->data;
    return 0;
}

/* Where a learner's copies of the starting files go: $XDG_DATA_HOME/warpscope/exercises, else
 * ~/.local/share/warpscope/exercises. 0, or -1 when neither variable names an absolute folder. */
static int exercise_home(char *dir, size_t len)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') snprintf(dir, len, "%s/warpscope/exercises", xdg);
    else if (home && home[0] == '/') snprintf(dir, len, "%s/.local/share/warpscope/exercises", home);
    else return -1;
    return 0;
}

/* mkdir -p, 0700 for the folders it makes */
static int make_dirs(const char *path)
{
    char p[DATA_PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = '\0';
        if (mkdir(p, 0700) && errno != EEXIST) return -1;
        *c = '/';
    }
    return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

/* The exercises, a line each: number, name, solved or not, title. 0, or 2 after its lines. */
static int exercise_list_print(int zh)
{
    char dir[DATA_PATH_MAX + 32], err[1600], pdir[1024];
    size_t n;
    char **files = exercise_files(dir, sizeof dir, &n);
    if (!n) { free(files); return EXIT_BAD; }
    progress prog;
    int have_prog = progress_default_dir(pdir, sizeof pdir, err, sizeof err) == 0 && progress_load(&prog, pdir, err, sizeof err) == 0;
    if (!have_prog) fprintf(stderr, "warpscope: progress not shown: %s\n", err);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        lesson l;
        if (lesson_load(&l, files[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); rc = EXIT_BAD; continue; }
        const progress_entry *e = have_prog ? progress_find(&prog, l.id, 0) : NULL;
        const char *base = strrchr(files[i], '/');
        base = base ? base + 1 : files[i];
        printf("%.*s  %-22s  %-10s  %s\n", (int)strcspn(base, "-"), base, l.id + (strncmp(l.id, "exercise-", 9) ? 0 : 9),
               e && e->done ? (zh ? "已完成" : "solved") : (zh ? "未完成" : "-"), l.title.s[zh ? LESSON_ZH : LESSON_EN]);
        lesson_free(&l);
    }
    if (have_prog) progress_free(&prog);
    files_free(files, n);
    return rc;
}

int cmd_exercise_list(const ws_call *k)
{
    const char *lang = k->v[WF_LANG].text;
    if (lang && strcmp(lang, "en") && strcmp(lang, "zh")) return usage_error("--lang must be en or zh, got \"%s\"%s", lang, "");
    return exercise_list_print(lang && !strcmp(lang, "zh"));
}

static int exercise_window_time(const lesson *l, const char *file, volatile int *cancel, viewer_card_timing *out);

int cmd_exercise_start(const ws_call *k)
{
    if (k->npos != 1) return usage_error("exercise start needs one exercise: a number or name (warpscope exercise list)%s%s", "", "");
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc || (rc = exercise_viewer(k->pos[0], NULL, &o))) return rc;
    /* the learner's copy, in a folder of theirs: never the starting file itself */
    char dir[DATA_PATH_MAX], path[DATA_PATH_MAX + 600];
    if (k->v[WF_DIR].given) snprintf(dir, sizeof dir, "%s", k->v[WF_DIR].text);
    else if (exercise_home(dir, sizeof dir)) return usage_error("say where your copy goes with --dir: neither XDG_DATA_HOME nor HOME is set%s%s", "", "");
    const char *base = strrchr(o.exercise->exercise->start, '/');
    snprintf(path, sizeof path, "%s/%s", dir, base ? base + 1 : o.exercise->exercise->start);
    struct stat st;
    if (outfile_is_input(path, o.cap.kernel))
        return usage_error("--dir %s is the exercises' own folder: your copy goes in a folder of yours%s", dir, "");
    if (stat(path, &st) == 0) {
        fprintf(stderr, "warpscope: your file %s is there already: it is kept, and opened\n", path);
    } else {
        char err[600];
        char *text = NULL;
        size_t len;
        if (make_dirs(dir)) { fprintf(stderr, "warpscope: cannot make %s: %s\n", dir, strerror(errno)); return EXIT_BAD; }
        if (json_read_file(o.cap.kernel, 1 << 20, &text, &len, err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
        outfile f;
        rc = outfile_open_mode(&f, path, 0644, err, sizeof err);
        if (!rc) {
            fwrite(text, 1, len, f.f);
            rc = outfile_commit(&f, err, sizeof err);
        }
        free(text);
        if (rc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
        fprintf(stderr, "warpscope: your copy of the starting file: %s (edit it in your editor; the window follows each save)\n", path);
    }
    static char kept[DATA_PATH_MAX + 600];
    snprintf(kept, sizeof kept, "%s", path);
    o.cap.kernel = kept;
    o.save_progress = 1;
    static char gpu[128]; /* where there is a GPU, the window times a file that meets every goal of the trace on it */
    if (o.exercise->exercise->operation == LESSON_SUM && gpu_time_present(gpu, sizeof gpu)) o.card_time = exercise_window_time, o.gpu = gpu; /* bench checks a sum */
    if ((rc = find_viewer_data(&o, &d, 0))) return rc;
    return viewer_window(&o);
}

/* The length of the UTF-8 character at s (1 to 4), or 0 where s starts no well-formed one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_char(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) || (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

/* The code point of the well-formed UTF-8 character of n bytes at p. */
static uint32_t utf8_code(const unsigned char *p, size_t n)
{
    uint32_t cp = n == 1 ? p[0] : p[0] & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) cp = cp << 6 | (p[i] & 0x3Fu);
    return cp;
}

/* A control character (C0, DEL, C1) or a bidirectional override or isolate (U+202A..E,
 * U+2066..9: they reorder what a terminal shows after them). */
static int hidden_code(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Text of the learner's (a file name, a message naming it) on one line of the text report: a
 * control byte (or a C1 control, or a bidirectional override, which reorders what follows) is
 * written as \n, \t, \r or \xNN (\u202E), each byte that is not UTF-8 as \xNN; a name that
 * needed any of these is written in double quotes with its quotes and backslashes escaped, as git
 * quotes paths, so that it can neither start a line of its own nor pass for another. */
static void print_escaped(FILE *out, const char *text, int name)
{
    const unsigned char *s = (const unsigned char *)text;
    int quote = 0;
    for (const unsigned char *p = s; *p && name && !quote;) {
        size_t n = utf8_char(p);
        int hidden = n && hidden_code(utf8_code(p, n));
        quote = !n || hidden || *p == '"' || *p == '\\';
        p += n ? n : 1;
    }
    if (quote) fputc('"', out);
    for (const unsigned char *p = s; *p;) {
        size_t n = utf8_char(p);
        uint32_t cp = n ? utf8_code(p, n) : 0;
        if (!n) fprintf(out, "\\x%02X", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p == '\r') fputs("\\r", out);
        else if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\x%02X", *p);
        else if (hidden_code(cp)) fprintf(out, "\\u%04X", (unsigned)cp);
        else if (quote && (*p == '"' || *p == '\\')) fprintf(out, "\\%c", *p);
        else fwrite(p, 1, n, out);
        p += n ? n : 1;
    }
    if (quote) fputc('"', out);
}

/* A JSON string of the report from bytes that need not be UTF-8 (a file name is any bytes but / and
 * NUL): each byte that is not part of a well-formed UTF-8 character becomes U+FFFD, the
 * replacement character (one per byte), so the report is always valid JSON; cJSON escapes the
 * quotes and the control characters. The text report keeps such a name's bytes, as \xNN. */
static cJSON *add_text(cJSON *o, const char *key, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text);
    char *clean = malloc(3 * len + 1), *c = clean;
    if (!clean) return NULL;
    for (const unsigned char *p = s; *p;) {
        size_t n = utf8_char(p);
        if (n) memcpy(c, p, n);
        else memcpy(c, "\xEF\xBF\xBD", 3);
        c += n ? n : 3;
        p += n ? n : 1;
    }
    *c = 0;
    cJSON *item = cJSON_AddStringToObject(o, key, clean);
    free(clean);
    return item;
}

/* the card goal's states in the JSON report, by exercise_card */
static const char *const card_states[] = {"not-judged", "timed", "wrong", "failed", "not-timed"};
static const char *const card_why[] = {[EXERCISE_CARD_NONE] = "not judged here: no GPU", [EXERCISE_CARD_UNTIMED] = "not timed: every goal of the trace comes first"};

/* what the card made of a file, in the checklist's words: one table says which is which */
static exercise_card card_of(gpu_time_state s)
{
    static const struct {
        gpu_time_state gpu;
        exercise_card card;
    } states[] = {{GPU_NONE, EXERCISE_CARD_NONE}, {GPU_TIMED, EXERCISE_CARD_TIMED}, {GPU_WRONG, EXERCISE_CARD_WRONG}, {GPU_FAILED, EXERCISE_CARD_FAILED}};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (states[i].gpu == s) return states[i].card;
    return EXERCISE_CARD_FAILED;
}

void exercise_judge_timing(const lesson_exercise *x, exercise_judgement *j, const gpu_timing *t)
{
    exercise_judge_card(x, j, card_of(t->state), t->fraction, t->error);
}

/* One file's object of exercise check's JSON report (cmd.h). */
cJSON *exercise_report_file(const lesson *l, const char *file, const exercise_judgement *j)
{
    const lesson_exercise *x = l->exercise;
    cJSON *f = cJSON_CreateObject(), *goals = cJSON_CreateArray();
    add_text(f, "file", file);
    cJSON_AddBoolToObject(f, "ran", j->runs > 0);
    cJSON_AddBoolToObject(f, "judged", j->runs > 0);
    cJSON_AddNumberToObject(f, "runs", (double)j->runs);
    if (j->error[0]) add_text(f, "error", j->error);
    cJSON_AddNumberToObject(f, "met", (double)j->met);
    cJSON_AddBoolToObject(f, "solved", j->met == exercise_goal_count(x));
    for (size_t g = 0; g < x->ngoals; g++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "goal", x->goals[g].say.s[LESSON_EN]);
        cJSON_AddStringToObject(o, lesson_bound_keys[x->goals[g].bound], "");
        cJSON_DeleteItemFromObject(o, lesson_bound_keys[x->goals[g].bound]);
        cJSON_AddNumberToObject(o, lesson_bound_keys[x->goals[g].bound], x->goals[g].limit);
        if (j->marks[g].state == EXERCISE_NOT_RUN) cJSON_AddNullToObject(o, "value");
        else cJSON_AddNumberToObject(o, "value", j->marks[g].value);
        cJSON_AddBoolToObject(o, "met", j->marks[g].state == EXERCISE_MET);
        cJSON_AddBoolToObject(o, "every_run", x->goals[g].every_run);
        if (j->marks[g].tolerance >= 0) cJSON_AddNumberToObject(o, "tolerance", j->marks[g].tolerance);
        if (j->marks[g].run[0]) add_text(o, "broken_at", j->marks[g].run);
        cJSON_AddItemToArray(goals, o);
    }
    if (exercise_goal_count(x) > x->ngoals) { /* the card's goal: its state, and why where it is not met */
        const exercise_mark *m = &j->marks[x->ngoals];
        cJSON *o = cJSON_CreateObject();
        char line[800];
        exercise_card_goal(x, LESSON_EN, line, sizeof line);
        cJSON_AddStringToObject(o, "goal", line);
        /* the goal, and its whole line with the verdict, in both languages: the page has no goal of
         * the exercise's file to take them from */
        cJSON *say = cJSON_AddObjectToObject(o, "say"), *said = cJSON_AddObjectToObject(o, "line");
        for (int lg = 0; lg < LESSON_LANGS; lg++) {
            exercise_card_goal(x, (lesson_lang)lg, line, sizeof line);
            cJSON_AddStringToObject(say, lesson_lang_keys[lg], line);
            exercise_checklist_line(x, j, x->ngoals, (lesson_lang)lg, line, sizeof line);
            add_text(said, lesson_lang_keys[lg], line);
        }
        exercise_card_goal(x, LESSON_EN, line, sizeof line);
        cJSON_AddNumberToObject(o, "at_least", x->gpu_fraction);
        if (m->state == EXERCISE_NOT_RUN || j->card != EXERCISE_CARD_TIMED) cJSON_AddNullToObject(o, "value");
        else cJSON_AddNumberToObject(o, "value", m->value);
        cJSON_AddBoolToObject(o, "met", m->state == EXERCISE_MET);
        cJSON_AddBoolToObject(o, "every_run", 0);
        cJSON_AddBoolToObject(o, "card", 1);
        cJSON_AddStringToObject(o, "state", card_states[j->card]);
        if (j->card == EXERCISE_CARD_NONE || j->card == EXERCISE_CARD_UNTIMED) cJSON_AddStringToObject(o, "why", card_why[j->card]);
        else if (j->card != EXERCISE_CARD_TIMED) add_text(o, "why", j->card_error);
        cJSON_AddItemToArray(goals, o);
    }
    cJSON_AddItemToObject(f, "goals", goals);
    return f;
}

/* One file's checklist, as text or as a JSON object of the report; t: the card's timing of the file,
 * or NULL where none was made (gpu: the GPU here, "" none) */
static void exercise_print(const lesson *l, const char *file, const exercise_judgement *j, const gpu_timing *t, const char *gpu, cJSON *report)
{
    const lesson_exercise *x = l->exercise;
    char speed[1024] = "";
    if (t) gpu_time_line(t, LESSON_EN, speed, sizeof speed);
    if (report) {
        cJSON *f = exercise_report_file(l, file, j);
        if (t) { /* what the card measured, as the server's /api/gpu says it */
            static const char *const gpu_states[] = {[GPU_NONE] = "none", [GPU_TIMED] = "timed", [GPU_WRONG] = "wrong", [GPU_FAILED] = "failed"};
            cJSON *g = cJSON_AddObjectToObject(f, "gpu");
            cJSON_AddStringToObject(g, "state", (size_t)t->state < sizeof gpu_states / sizeof *gpu_states ? gpu_states[t->state] : "failed");
            add_text(g, "card", t->card);
            if (t->state == GPU_TIMED) {
                cJSON_AddNumberToObject(g, "gbs", t->gbs);
                cJSON_AddNumberToObject(g, "best_read_gbs", t->best_read_gbs);
                cJSON_AddNumberToObject(g, "fraction", t->fraction);
                cJSON_AddNumberToObject(g, "cub_gbs", t->cub_gbs);
                cJSON_AddNumberToObject(g, "n", (double)t->largest);
            } else if (t->error[0]) {
                add_text(g, "error", t->error);
            }
            add_text(g, "line", speed);
        } else if (x->gpu_fraction > 0 && !gpu[0]) {
            cJSON_AddNullToObject(f, "gpu");
        }
        cJSON_AddItemToArray(cJSON_GetObjectItem(report, "files"), f);
        return;
    }
    print_escaped(stdout, file, 1);
    if (!j->runs) { /* not judged: no goal is met or missed by a file that never ran */
        fputs(": not judged: it did not run: ", stdout);
        print_escaped(stdout, j->error[0] ? j->error : "no run finished", 0);
        putchar('\n');
        return;
    }
    printf(": %zu of %zu goals met in %zu runs%s", j->met, exercise_goal_count(x), j->runs, j->error[0] ? "; " : "");
    print_escaped(stdout, j->error, 0);
    putchar('\n');
    for (size_t g = 0; g < exercise_goal_count(x); g++) {
        char line[1200];
        exercise_checklist_line(x, j, g, LESSON_EN, line, sizeof line);
        fputs(j->marks[g].state == EXERCISE_MET ? "  [x] " : j->marks[g].state == EXERCISE_NOT_MET ? "  [ ] " : "  [-] ", stdout);
        print_escaped(stdout, line, 0);
        putchar('\n');
    }
    if (t && (t->state == GPU_TIMED || x->gpu_fraction <= 0)) { /* a card goal's line already says what went wrong */
        fputs("  timed on ", stdout);
        print_escaped(stdout, t->card[0] ? t->card : gpu, 0);
        fputs(": ", stdout);
        print_escaped(stdout, speed, 0);
        putchar('\n');
    } else if (x->gpu_fraction > 0 && !gpu[0]) {
        puts("  (no GPU here: the card's goal is not judged)");
    }
}

/* Times a file on this machine's GPU as the exercise asks (its sizes, and one drawn between the first
 * and the last, fresh for each timing as the server's): gpu_time_file's answer */
static int exercise_gpu_time(const lesson_exercise *x, const char *file, volatile int *cancel, gpu_timing *t, char *err, size_t errlen)
{
    gpu_time_desc d = {.kernel = file, .entry = x->entry};
    for (size_t k = 0, n = 0; k < 4 && n < GPU_TIME_DEFINES_MAX; k++)
        if (x->defines[k][0]) d.defines[n++] = x->defines[k];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^ (uint64_t)getpid() << 32;
    d.nsizes = gpu_time_sizes(x, seed, d.sizes, GPU_TIME_SIZES_MAX);
    return gpu_time_file(&d, t, cancel, err, errlen);
}

/* The exercise window's card_time (viewer.h): the timing, said in the viewer's words */
static int exercise_window_time(const lesson *l, const char *file, volatile int *cancel, viewer_card_timing *out)
{
    gpu_timing t;
    memset(out, 0, sizeof *out);
    if (exercise_gpu_time(l->exercise, file, cancel, &t, out->error, sizeof out->error)) return -1;
    out->how = (int)card_of(t.state);
    out->fraction = t.fraction;
    snprintf(out->error, sizeof out->error, "%s", t.error);
    snprintf(out->card, sizeof out->card, "%s", t.card);
    for (int lg = 0; lg < LESSON_LANGS; lg++) gpu_time_line(&t, (lesson_lang)lg, out->speed[lg], sizeof out->speed[lg]);
    return 0;
}

/* Times a file that met every goal of the trace on this machine's GPU: 0 with *t filled, 1 when no
 * timing was made (said on stderr), -1 when interrupted */
static int exercise_time_on_card(const lesson *l, const char *file, gpu_timing *t)
{
    char err[600];
    if (exercise_gpu_time(l->exercise, file, &interrupted, t, err, sizeof err)) {
        if (interrupted) return -1;
        fputs("warpscope: ", stderr);
        print_escaped(stderr, file, 1);
        fprintf(stderr, ": not timed on the card: %s\n", err);
        return 1;
    }
    return 0;
}

int cmd_exercise_check(const ws_call *k)
{
    if (k->npos < 2) return usage_error("exercise check needs an exercise and the kernel files to judge%s%s", "", "");
    lesson l;
    int rc = exercise_load(k->pos[0], &l);
    if (rc) return rc;
    data_dirs d;
    if (find_data(&d, 1, 0)) { lesson_free(&l); return EXIT_BAD; }
    char sandbox[400]; /* the protections each file is judged under, said with the verdicts */
    sandbox_describe(sandbox, sizeof sandbox);
    cJSON *report = NULL;
    if (k->v[WF_JSON].given) {
        report = cJSON_CreateObject();
        cJSON_AddStringToObject(report, "exercise", l.id);
        cJSON_AddStringToObject(report, "sandbox", sandbox);
        cJSON_AddItemToObject(report, "files", cJSON_CreateArray());
    }
    char gpu[128] = ""; /* the GPU here, by name: "" none (a build without CUDA has none) */
    if (!gpu_time_present(gpu, sizeof gpu)) gpu[0] = 0;
    if (report && gpu[0]) cJSON_AddStringToObject(report, "card", gpu);
    else if (report) cJSON_AddNullToObject(report, "card");
    if (!report) printf("exercise %s: %s (%zu goals)\nsandbox: %s\n", l.id + (strncmp(l.id, "exercise-", 9) ? 0 : 9), l.title.s[LESSON_EN],
                        exercise_goal_count(l.exercise), sandbox);
    int bad = 0, missed = 0;
    for (size_t i = 1; i < k->npos && !interrupted; i++) {
        struct stat st;
        if (stat(k->pos[i], &st) || !S_ISREG(st.st_mode)) { /* said, in the report too; the others are still judged */
            char why[64]; /* a FIFO is looked at, never opened: it would wait for a writer */
            if (stat(k->pos[i], &st)) snprintf(why, sizeof why, "no such file");
            else snprintf(why, sizeof why, "is %s, not a regular file", infile_kind(&st));
            fputs("warpscope: ", stderr);
            print_escaped(stderr, k->pos[i], 1);
            fprintf(stderr, ": %s\n", why);
            if (report) {
                cJSON *f = cJSON_CreateObject();
                add_text(f, "file", k->pos[i]);
                cJSON_AddBoolToObject(f, "ran", 0);
                cJSON_AddStringToObject(f, "error", why);
                cJSON_AddItemToArray(cJSON_GetObjectItem(report, "files"), f);
            }
            bad = 1;
            continue;
        }
        exercise_judgement j;
        char err[1600];
        if (exercise_judge(&l, k->pos[i], d.include, &interrupted, &j, err, sizeof err)) {
            if (interrupted) break;
            fprintf(stderr, "warpscope: %s\n", err);
            bad = 1;
            break;
        }
        /* a file that meets every goal of the trace is timed on the card, where there is one: its speed
         * line under the checklist, and the card's goal judged */
        gpu_timing t, *timed = NULL;
        if (gpu[0] && j.runs && j.met == l.exercise->ngoals && l.exercise->operation == LESSON_SUM) { /* bench checks a sum */
            int tr = exercise_time_on_card(&l, k->pos[i], &t);
            if (tr < 0) break;
            if (tr == 0) {
                timed = &t;
                exercise_judge_timing(l.exercise, &j, &t);
            }
        } else if (gpu[0] && j.runs) {
            exercise_judge_card(l.exercise, &j, EXERCISE_CARD_UNTIMED, 0, NULL);
        }
        exercise_print(&l, k->pos[i], &j, timed, gpu, report);
        missed |= j.met != exercise_goal_count(l.exercise);
        bad |= j.runs == 0; /* a file that did not run is not judged: exit 2, as for bad input */
        if (k->npos == 2 && j.met == exercise_goal_count(l.exercise) && exercise_record_solved(&l, err, sizeof err)) /* one file: the learner's own */
            fprintf(stderr, "warpscope: not recorded as solved: %s\n", err);
        fflush(stdout);
    }
    lesson_free(&l);
    if (interrupted) { cJSON_Delete(report); return report_interrupt(NULL); }
    if (report) {
        char *text = cJSON_Print(report);
        if (text) puts(text);
        free(text);
        cJSON_Delete(report);
    }
    if (fflush(stdout)) return EXIT_BAD;
    return bad ? EXIT_BAD : missed ? 1 : 0;
}

int cmd_lesson_check(const ws_call *k)
{
    char err[1600];
    if (!k->npos) return usage_error("lesson check needs lesson files%s%s", "", "");
    size_t bad = 0;
    work_bar bar; /* a line after the first second: lessons checked of those given */
    work_bar_begin(&bar, "checking");
    bar.unit = k->npos > 1 ? "files" : "file";
    for (size_t i = 0; i < k->npos; i++) {
        work_bar_update(&bar, i, k->npos);
        lesson l;
        if (lesson_load(&l, k->pos[i], err, sizeof err)) { print_report(&bar, err); bad++; continue; }
        size_t nq = 0;
        for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
        size_t e = l.nsteps ? player_check(&l, &interrupted, print_report, &bar) : 0;
        if (l.exercise && !interrupted) e += exercise_check(&l, exercise_include_dir(), &interrupted, print_report, &bar);
        work_bar_end(&bar); /* the line's place, for what follows */
        if (bar.tty) bar.shown = 0;
        if (interrupted) {
            lesson_free(&l);
            return report_interrupt(NULL);
        }
        if (!e && l.exercise)
            printf("%s: ok: %s, an exercise of %zu goals: the starting file runs and misses some (the tests judge the model solution)\n",
                   k->pos[i], l.id, l.exercise->ngoals);
        else if (!e) printf("%s: ok: %s, %zu steps, %zu questions\n", k->pos[i], l.id, l.nsteps, nq);
        bad += e;
        lesson_free(&l);
    }
    return bad ? EXIT_BAD : 0;
}

int cmd_lesson_list(const ws_call *k)
{
    char err[1600];
    data_dirs d;
    const char *dir = k->v[WF_DIR].text, *lang = k->v[WF_LANG].text;
    if (lang && strcmp(lang, "en") && strcmp(lang, "zh")) return usage_error("--lang must be en or zh, got \"%s\"%s", lang, "");
    int zh = lang && !strcmp(lang, "zh");
    if (!dir) {
        int rc = find_data(&d, 0, 1);
        if (rc) return rc;
        dir = d.lessons;
    }
    size_t n;
    char **files = lesson_files(dir, &n);
    if (!n) { free(files); fprintf(stderr, "warpscope: %s: no lesson files (*.json) there\n", dir); return EXIT_BAD; }
    progress prog;
    char pdir[1024];
    int have_prog = progress_default_dir(pdir, sizeof pdir, err, sizeof err) == 0 && progress_load(&prog, pdir, err, sizeof err) == 0;
    if (!have_prog) fprintf(stderr, "warpscope: progress not shown: %s\n", err);
    int rc = 0;
    char (*ids)[sizeof ((lesson *)0)->id] = calloc(n, sizeof *ids);
    if (!ids) { fprintf(stderr, "warpscope: out of memory\n"); rc = EXIT_BAD; n = 0; }
    for (size_t i = 0; i < n; i++) {
        lesson l;
        if (lesson_load(&l, files[i], err, sizeof err)) { fprintf(stderr, "warpscope: %s\n", err); rc = EXIT_BAD; continue; }
        /* progress is kept by id: two files with one id would share it */
        size_t dup = 0;
        while (dup < i && strcmp(ids[dup], l.id) != 0) dup++;
        snprintf(ids[i], sizeof ids[i], "%s", l.id);
        if (dup < i) {
            fprintf(stderr, "warpscope: %s: id \"%s\" is already the id of %s\n", files[i], l.id, files[dup]);
            rc = EXIT_BAD;
        }
        size_t nq = 0;
        for (size_t s = 0; s < l.nsteps; s++) nq += l.steps[s].ask != NULL;
        const progress_entry *e = have_prog ? progress_find(&prog, l.id, 0) : NULL;
        char mark[64];
        if (!e) snprintf(mark, sizeof mark, "%s", zh ? "新" : "new");
        else if (e->done) snprintf(mark, sizeof mark, zh ? "已完成，答对 %u/%zu" : "done, %u/%zu right", progress_count_solved(e), nq);
        else snprintf(mark, sizeof mark, zh ? "第 %zu/%zu 步，答对 %u/%zu" : "step %zu/%zu, %u/%zu right", e->step + 1, l.nsteps, progress_count_solved(e), nq);
        if (lang) printf("%-22s %-24s %s\n", l.id, mark, l.title.s[zh ? LESSON_ZH : LESSON_EN]);
        else printf("%-22s %-24s %s  |  %s\n", l.id, mark, l.title.s[LESSON_EN], l.title.s[LESSON_ZH]);
        lesson_free(&l);
    }
    for (size_t i = 0; files && files[i]; i++) free(files[i]);
    free(files);
    free(ids);
    if (have_prog) progress_free(&prog);
    if (!k->v[WF_DIR].given) { /* warpscope's own lessons: its exercises follow them */
        printf("\n%s\n", zh ? "练习（warpscope exercise start 编号）：" : "exercises (warpscope exercise start NUMBER):");
        int e = exercise_list_print(zh);
        if (e) rc = e;
    }
    return rc;
}
