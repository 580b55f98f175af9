/* learn: see learn.h. */
#include "app/viewer/learn.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/capture/capture.h"
#include "app/learn/exercise.h"
#include "app/learn/lesson.h"
#include "app/learn/player.h"
#include "app/learn/progress.h"
#include "app/viewer/strings.h"
#include "trace/words.h"

struct learn {
    char dir[1024];
    char **files;
    size_t nfiles;
    lesson l;
    int have_lesson;
    player p;
    int have_player;
    progress prog;
    int have_prog;
    progress_entry *entry;
    unsigned seen;      /* session requests acted on */
    str_lang lang;      /* the language the texts were filled in */
    capture_desc shown[2]; /* what each pane holds; its strings point into shown_text */
    char shown_text[2][2][LESSON_ID_MAX];
    char exercise_number[SESSION_MENU][8]; /* a menu entry's exercise: its file's number ("" for a lesson) */
};

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void free_files(learn *L)
{
    for (size_t i = 0; i < L->nfiles; i++) free(L->files[i]);
    free(L->files);
    L->files = NULL;
    L->nfiles = 0;
}

static int is_json(const struct dirent *e)
{
    size_t len = strlen(e->d_name);
    return len >= 6 && !strcmp(e->d_name + len - 5, ".json") && e->d_name[0] != '.';
}

static int list_files(learn *L, char *err, size_t errlen)
{
    free_files(L);
    DIR *d = opendir(L->dir);
    if (!d) { snprintf(err, errlen, "%s: cannot read the lessons folder", L->dir); return -1; }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") || e->d_name[0] == '.') continue;
        char **v = realloc(L->files, (L->nfiles + 1) * sizeof *v);
        char *path = malloc(strlen(L->dir) + len + 2);
        if (!v || !path) { free(path); if (v) L->files = v; closedir(d); snprintf(err, errlen, "out of memory"); return -1; }
        L->files = v;
        sprintf(path, "%s/%s", L->dir, e->d_name);
        L->files[L->nfiles++] = path;
    }
    closedir(d);
    qsort(L->files, L->nfiles, sizeof *L->files, cmp_str);
    return 0;
}

learn *learn_create(const char *dir, int keep_progress, char *err, size_t errlen)
{
    learn *L = calloc(1, sizeof *L);
    if (!L) { snprintf(err, errlen, "out of memory"); return NULL; }
    snprintf(L->dir, sizeof L->dir, "%s", dir);
    char pdir[1024], perr[256];
    /* progress is a convenience: without a state folder, lessons still run, unsaved */
    if (keep_progress && progress_default_dir(pdir, sizeof pdir, perr, sizeof perr) == 0) {
        if (progress_load(&L->prog, pdir, err, errlen)) { learn_destroy(L); return NULL; }
        L->have_prog = 1;
    }
    if (list_files(L, err, errlen)) { learn_destroy(L); return NULL; }
    return L;
}

static void close_lesson(learn *L)
{
    if (L->have_player) player_close(&L->p);
    if (L->have_lesson) lesson_free(&L->l);
    L->have_player = L->have_lesson = 0;
    memset(L->shown, 0, sizeof L->shown);
}

void learn_destroy(learn *L)
{
    if (!L) return;
    close_lesson(L);
    if (L->have_prog) progress_free(&L->prog);
    free_files(L);
    free(L);
}

static lesson_lang lang_of(const session *s) { return s->lang == LANG_ZH ? LESSON_ZH : LESSON_EN; }

int learn_menu(learn *L, session *s, char *err, size_t errlen)
{
    session_lesson *SL = &s->lesson;
    SL->nmenu = 0;
    for (size_t i = 0; i < L->nfiles && SL->nmenu < SESSION_MENU; i++) {
        lesson l;
        if (lesson_load(&l, L->files[i], err, errlen)) return -1;
        progress_entry *e = L->have_prog ? progress_find(&L->prog, l.id, 0) : NULL;
        char mark[64] = "";
        if (e && e->done) snprintf(mark, sizeof mark, "  \xE2\x9C\x93"); /* a check mark */
        else if (e) snprintf(mark, sizeof mark, "  %zu/%zu", e->step + 1, e->nsteps);
        snprintf(SL->menu[SL->nmenu++], sizeof SL->menu[0], "%s%s", l.title.s[lang_of(s)], mark);
        lesson_free(&l);
    }
    /* the exercises after the lessons, with their state: one is started from the command line */
    char xdir[1100];
    snprintf(xdir, sizeof xdir, "%s/exercises", L->dir);
    struct dirent **names = NULL;
    int nx = scandir(xdir, &names, is_json, alphasort);
    for (int i = 0; i < nx; i++) {
        char path[1400];
        lesson l;
        snprintf(path, sizeof path, "%s/%s", xdir, names[i]->d_name);
        if (SL->nmenu < SESSION_MENU && lesson_load(&l, path, err, errlen) == 0) {
            progress_entry *e = L->have_prog ? progress_find(&L->prog, l.id, 0) : NULL;
            snprintf(L->exercise_number[SL->nmenu], sizeof L->exercise_number[0], "%.*s", (int)strcspn(names[i]->d_name, "-"),
                     names[i]->d_name);
            snprintf(SL->menu[SL->nmenu++], sizeof SL->menu[0], str_get(s->lang, STR_MENU_EXERCISE), names[i]->d_name,
                     l.title.s[lang_of(s)]);
            if (e && e->done) strncat(SL->menu[SL->nmenu - 1], "  \xE2\x9C\x93", sizeof SL->menu[0] - strlen(SL->menu[SL->nmenu - 1]) - 1);
            lesson_free(&l);
        }
        free(names[i]);
    }
    free(names);
    err[0] = '\0';
    SL->menu_sel = 0;
    s->overlay = OVERLAY_MENU;
    s->generation++;
    L->seen = SL->requests;
    return 0;
}

/* a capture of the frame's, handed to the session (which owns what it is given); a pane that
 * already holds it keeps it */
static int show_capture(learn *L, session *s, int pane, const capture_desc *d, char *err, size_t errlen)
{
    if (L->shown[pane].version && s->pane[pane].loaded && player_same_capture(&L->shown[pane], d)) return 0;
    trace t;
    trace_init(&t);
    if (capture_cpu(d, &t, err, errlen) || session_set_trace(s, pane, &t, err, errlen)) { trace_free(&t); return -1; }
    /* the lesson's strings may go before the pane does: keep copies */
    L->shown[pane] = *d;
    snprintf(L->shown_text[pane][0], sizeof L->shown_text[pane][0], "%s", d->version);
    L->shown[pane].version = L->shown_text[pane][0];
    if (d->data) {
        snprintf(L->shown_text[pane][1], sizeof L->shown_text[pane][1], "%s", d->data);
        L->shown[pane].data = L->shown_text[pane][1];
    }
    return 0;
}

static void show_step(session_pane *p, size_t step) { p->step = p->prev_step = step < p->m.nsteps ? step : (p->m.nsteps ? p->m.nsteps - 1 : 0); }

static void set_from_value(session_set *out, const query_value *v)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < QUERY_SET_MAX && i < SESSION_ITEM_MAX; i++)
        if (query_set_has(v, i)) session_set_put(out, i, 1);
}

/* lesson items -> the session's item kinds (tree nodes are shared words) */
static const int item_kind[LESSON_ITEM_COUNT] = {[LESSON_ITEM_LANES] = SESSION_ITEM_LANES, [LESSON_ITEM_BANKS] = SESSION_ITEM_BANKS,
                                                 [LESSON_ITEM_CELLS] = SESSION_ITEM_CELLS, [LESSON_ITEM_LINES] = SESSION_ITEM_LINES,
                                                 [LESSON_ITEM_NODES] = SESSION_ITEM_CELLS};

static void fill_feedback(learn *L, session *s)
{
    session_lesson *SL = &s->lesson;
    const player_feedback *fb = player_last_feedback(&L->p);
    player_state st = player_status(&L->p);
    SL->state = st == PLAYER_CORRECT ? ANSWER_RIGHT : st == PLAYER_REVEALED ? ANSWER_REVEALED : st == PLAYER_WRONG ? ANSWER_WRONG : ANSWER_OPEN;
    for (int k = 0; k < SESSION_ITEMS; k++) memset(&SL->missed[k], 0, sizeof SL->missed[k]), memset(&SL->wrong[k], 0, sizeof SL->wrong[k]);
    SL->explain[0] = SL->answer_text[0] = '\0';
    if (SL->state == ANSWER_OPEN || !fb) return;
    /* a wrong answer gets a hint from the trace (how many picks are right, higher or lower) and
     * keeps the answer, its outline and the explanation for H */
    int wrong = SL->state == ANSWER_WRONG;
    if (SL->ask == ASK_LANES || SL->ask == ASK_BANKS || SL->ask == ASK_CELLS) {
        int k = item_kind[fb->item];
        if (!wrong) set_from_value(&SL->missed[k], &fb->missed);
        set_from_value(&SL->wrong[k], &fb->wrong);
        if (SL->state == ANSWER_REVEALED) set_from_value(&SL->missed[k], &fb->answer);
        if (wrong) {
            unsigned right = 0;
            for (size_t i = 0; i < QUERY_SET_MAX; i++) right += query_set_has(&fb->answer, i) && !query_set_has(&fb->missed, i);
            snprintf(SL->explain, sizeof SL->explain, str_get(s->lang, STR_HINT_PICK), right, (unsigned)fb->wrong.count, (unsigned)fb->missed.count);
        }
    } else if (wrong && SL->ask == ASK_NUMBER) {
        char given[32];
        snprintf(given, sizeof given, "%g", fb->given);
        snprintf(SL->explain, sizeof SL->explain, str_get(s->lang, fb->given > fb->answer.num ? STR_HINT_HIGH : STR_HINT_LOW), given);
    } else if (wrong && SL->ask == ASK_CHOICE) {
        char given[4] = {(char)('a' + (int)fb->given), '\0'};
        snprintf(SL->explain, sizeof SL->explain, str_get(s->lang, STR_HINT_CHOICE), given);
    }
    for (int i = 0; i < LESSON_ITEM_COUNT && !wrong; i++)
        if (fb->reveal[i].count) set_from_value(&SL->missed[item_kind[i]], &fb->reveal[i]);
    char err[256];
    /* right or revealed, the explanation says why (a right guess learns it too) */
    if (!wrong && fb->explain) player_text(&L->p, PLAYER_TEXT_EXPLAIN, 0, lang_of(s), SL->explain, sizeof SL->explain, err, sizeof err);
    if (SL->ask == ASK_NUMBER) snprintf(SL->answer_text, sizeof SL->answer_text, "%g", fb->answer.num);
    else if (SL->ask == ASK_LANES || SL->ask == ASK_BANKS || SL->ask == ASK_CELLS) /* the items, as the picture outlines them */
        for (size_t i = 0, n = 0, shown = 0; i < QUERY_SET_MAX && n < sizeof SL->answer_text; i++) {
            if (!query_set_has(&fb->answer, i)) continue;
            if (shown++ == 24) { snprintf(SL->answer_text + n, sizeof SL->answer_text - n, ", \xE2\x80\xA6"); break; }
            n += (size_t)snprintf(SL->answer_text + n, sizeof SL->answer_text - n, "%s%zu", n ? ", " : "", i);
        }
    else if (SL->ask == ASK_CHOICE)
        for (size_t i = 0, n = 0; i < (size_t)SL->noptions && i < QUERY_SET_MAX; i++)
            if (query_set_has(&fb->answer, i)) n += (size_t)snprintf(SL->answer_text + n, sizeof SL->answer_text - n, "%s%c", n ? ", " : "", (int)('a' + i));
}

/* the player's current step, into the session */
static int show(learn *L, session *s, char *err, size_t errlen)
{
    const player_frame *f = player_current(&L->p);
    session_lesson *SL = &s->lesson;
    s->pass = f->show->pass;
    s->block_index = f->show->view_block;
    s->fine = f->fine;
    if (show_capture(L, s, 0, &f->cap, err, errlen)) return -1;
    s->compare = 0;
    if (f->cap_compare.version) {
        if (show_capture(L, s, 1, &f->cap_compare, err, errlen)) return -1;
        s->compare = 1;
    }
    /* a step that moves to another pass or block, or to the fine mode, of the same capture: the
     * views are rebuilt for it (the player's frame, which the questions are asked on, shows it) */
    for (int i = 0; i <= s->compare; i++) {
        const view_model *m = &s->pane[i].m;
        if (m->pass != s->pass || m->block != s->block_index || m->fine != s->fine) {
            if (session_open_block(s, s->pass, s->block_index, err, errlen)) return -1;
            break;
        }
    }
    show_step(&s->pane[0], f->step);
    if (s->compare) show_step(&s->pane[1], f->compare_step);
    static const int panel_of[LESSON_PANEL_COUNT] = {[LESSON_PANEL_SOURCE] = PANEL_SOURCE, [LESSON_PANEL_TREE] = PANEL_PICTURE,
                                                     [LESSON_PANEL_SHARED] = PANEL_MEMORY, [LESSON_PANEL_LANES] = PANEL_LANES,
                                                     [LESSON_PANEL_BANKS] = PANEL_BANKS, [LESSON_PANEL_COUNTERS] = PANEL_STATS,
                                                     [LESSON_PANEL_TIMELINE] = PANEL_TIMELINE, [LESSON_PANEL_BENCH] = -1,
                                                     [LESSON_PANEL_GRID] = -1};
    s->panels = 0;
    for (int i = 0; i < LESSON_PANEL_COUNT; i++)
        if (f->panels & (1u << i) && panel_of[i] >= 0) s->panels |= 1u << panel_of[i];
    s->overlay = f->panels & (1u << LESSON_PANEL_BENCH) ? OVERLAY_BENCH : f->panels & (1u << LESSON_PANEL_GRID) ? OVERLAY_GRID : OVERLAY_NONE;
    if (s->overlay == OVERLAY_GRID) { /* the launch on the step's card, at its wave */
        snprintf(s->card, sizeof s->card, "%s", f->show->card); /* an id: the lesson's reader stored it */
        s->grid_pass = f->show->pass;
        s->grid_wave = f->show->wave;
    }
    if (s->overlay == OVERLAY_BENCH && s->results && f->bench_n) {
        uint64_t sizes[64];
        size_t n = results_sizes(s->results, sizes, 64);
        for (size_t i = 0; i < n; i++)
            if (sizes[i] == f->bench_n) s->bench_size = i;
    }
    lesson_lang lg = lang_of(s);
    SL->active = 1;
    SL->index = player_index(&L->p);
    SL->count = player_count(&L->p);
    snprintf(SL->title, sizeof SL->title, "%s", L->l.title.s[lg]);
    if (player_text(&L->p, PLAYER_TEXT_SAY, 0, lg, SL->say, sizeof SL->say, err, errlen)) return -1;
    for (int k = 0; k < SESSION_ITEMS; k++) {
        memset(&SL->highlight[k], 0, sizeof SL->highlight[k]);
        memset(&SL->picked[k], 0, sizeof SL->picked[k]);
    }
    for (int i = 0; i < LESSON_ITEM_COUNT; i++)
        for (size_t j = 0; j < f->highlight[i].n; j++) session_set_put(&SL->highlight[item_kind[i]], f->highlight[i].v[j], 1);
    const lesson_ask *a = player_question(&L->p);
    static const session_ask asks[LESSON_ASK_KINDS] = {[LESSON_ASK_LANES] = ASK_LANES, [LESSON_ASK_BANKS] = ASK_BANKS, [LESSON_ASK_CELLS] = ASK_CELLS,
                                                       [LESSON_ASK_NUMBER] = ASK_NUMBER, [LESSON_ASK_CHOICE] = ASK_CHOICE};
    SL->ask = a ? asks[a->kind] : ASK_NONE;
    SL->prompt[0] = '\0';
    SL->noptions = 0;
    SL->typed[0] = '\0';
    if (a) {
        if (player_text(&L->p, PLAYER_TEXT_PROMPT, 0, lg, SL->prompt, sizeof SL->prompt, err, errlen)) return -1;
        for (size_t o = 0; o < a->noptions && o < SESSION_OPTIONS; o++)
            if (player_text(&L->p, PLAYER_TEXT_OPTION, o, lg, SL->options[SL->noptions++], sizeof SL->options[0], err, errlen)) return -1;
    }
    fill_feedback(L, s);
    L->lang = s->lang;
    s->generation++;
    return 0;
}

static int save(learn *L, char *err, size_t errlen)
{
    return L->have_prog ? progress_save(&L->prog, err, errlen) : 0;
}

int learn_open(learn *L, session *s, const char *name, char *err, size_t errlen)
{
    close_lesson(L);
    const char *file = name;
    struct stat st;
    if (!strchr(name, '/') && stat(name, &st) != 0) { /* not a file: a lesson of the folder, by number, name or id */
        long k = lesson_match(L->files, L->nfiles, name, "lesson", err, errlen);
        if (k < 0) return -1;
        file = L->files[k];
    }
    if (lesson_load(&L->l, file, err, errlen)) return -1;
    L->have_lesson = 1;
    L->entry = L->have_prog ? progress_find(&L->prog, L->l.id, 1) : NULL;
    if (player_open(&L->p, &L->l, &(player_opts){.strict = 0, .progress = L->entry}, err, errlen)) { close_lesson(L); return -1; }
    L->have_player = 1;
    s->overlay = OVERLAY_NONE;
    L->seen = s->lesson.requests;
    return show(L, s, err, errlen);
}

const char *learn_lesson_id(const learn *L) { return L && L->have_lesson ? L->l.id : ""; }

static int answer(learn *L, session *s, char *err, size_t errlen)
{
    session_lesson *SL = &s->lesson;
    int rc = 0;
    if (SL->ask == ASK_NUMBER) {
        char *end;
        double x = strtod(SL->typed, &end);
        if (!SL->typed[0] || *end) { s->status_id = STR_TYPE_NUMBER; s->status_text[0] = '\0'; s->generation++; return 0; }
        rc = player_answer_number(&L->p, x, err, errlen);
    } else if (SL->ask == ASK_CHOICE) {
        if (!SL->typed[0]) { s->status_id = STR_TYPE_CHOICE; s->status_text[0] = '\0'; s->generation++; return 0; }
        rc = player_answer_choice(&L->p, (size_t)(SL->typed[0] - 'a'), err, errlen);
    } else {
        static const int kinds[] = {[ASK_LANES] = SESSION_ITEM_LANES, [ASK_BANKS] = SESSION_ITEM_BANKS, [ASK_CELLS] = SESSION_ITEM_CELLS};
        unsigned items[SESSION_ITEM_MAX];
        size_t n = 0;
        for (size_t i = 0; i < SESSION_ITEM_MAX; i++)
            if (session_set_has(&SL->picked[kinds[SL->ask]], i)) items[n++] = (unsigned)i;
        rc = player_answer_pick(&L->p, items, n, err, errlen);
    }
    if (rc < 0) return -1;
    fill_feedback(L, s);
    s->generation++;
    return save(L, err, errlen);
}

int learn_update(learn *L, session *s, char *err, size_t errlen)
{
    session_lesson *SL = &s->lesson;
    if (SL->requests == L->seen) {
        if (L->have_player && s->lang != L->lang) return show(L, s, err, errlen); /* texts in the new language */
        return 0;
    }
    L->seen = SL->requests;
    if (SL->request_kind == ACT_MENU) {
        if (SL->request_arg >= 0 && (size_t)SL->request_arg >= L->nfiles && SL->request_arg < SL->nmenu) { /* an exercise */
            s->status_id = STR_COUNT;
            snprintf(s->status_text, sizeof s->status_text, str_get(s->lang, STR_MENU_EXERCISE_START), L->exercise_number[SL->request_arg]);
            s->generation++;
            return 0;
        }
        if (SL->request_arg < 0 || (size_t)SL->request_arg >= L->nfiles) return 0;
        return learn_open(L, s, L->files[SL->request_arg], err, errlen);
    }
    if (!L->have_player) return 0;
    if (SL->request_kind == ACT_ANSWER) return answer(L, s, err, errlen);
    if (SL->request_kind == ACT_REVEAL) {
        if (player_reveal(&L->p, err, errlen)) return -1;
        fill_feedback(L, s);
        s->generation++;
        return save(L, err, errlen);
    }
    if (SL->request_kind == ACT_LESSON) {
        player_state before = player_status(&L->p);
        /* lesson:N moves N steps (a script's lesson:3), stopping at either end; lesson:0 stays */
        long want = SL->request_arg < 0 ? -SL->request_arg : SL->request_arg, moved = 0;
        player_move mv = PLAYER_MOVED;
        for (; moved < want; moved++) {
            mv = SL->request_arg > 0 ? player_next(&L->p, err, errlen) : player_back(&L->p, err, errlen);
            if (mv != PLAYER_MOVED) break;
        }
        if (mv == PLAYER_FAILED) return -1;
        if (moved && mv != PLAYER_MOVED) mv = PLAYER_MOVED; /* it went some of the way: show where */
        /* a move that does not happen, or leaves a question open, says so (a clicker may step past) */
        static const str_id why[] = {[PLAYER_AT_END] = STR_LESSON_AT_END, [PLAYER_AT_START] = STR_LESSON_AT_START,
                                     [PLAYER_NEEDS_ANSWER] = STR_LESSON_OPEN};
        if (mv != PLAYER_MOVED) {
            if (SL->request_arg && (size_t)mv < sizeof why / sizeof *why && why[mv]) { s->status_id = why[mv]; s->status_text[0] = '\0'; }
            return 0;
        }
        if (show(L, s, err, errlen)) return -1;
        if (SL->request_arg > 0 && (before == PLAYER_ASKING || before == PLAYER_WRONG)) { s->status_id = STR_LESSON_OPEN; s->status_text[0] = '\0'; }
        return save(L, err, errlen);
    }
    return 0;
}

void learn_exercise(session *s, const lesson *l, const char *file, const exercise_judgement *j, size_t hints)
{
    session_lesson *SL = &s->lesson;
    const lesson_exercise *x = l->exercise;
    lesson_lang lg = lang_of(s);
    SL->active = 1;
    SL->exercise = 1;
    SL->ask = ASK_NONE;
    snprintf(SL->title, sizeof SL->title, "%s", l->title.s[lg]);
    const char *slash = strrchr(file, '/');
    int n = snprintf(SL->say, sizeof SL->say, "%s\n", x->task.s[lg]);
    size_t at = n > 0 && (size_t)n < sizeof SL->say ? (size_t)n : sizeof SL->say - 1;
    at += (size_t)snprintf(SL->say + at, sizeof SL->say - at, str_get(s->lang, STR_EXERCISE_FILE), slash ? slash + 1 : file);
    if (j->error[0] && at < sizeof SL->say - 2) {
        SL->say[at++] = '\n';
        at += (size_t)snprintf(SL->say + at, sizeof SL->say - at, str_get(s->lang, STR_EXERCISE_NOT_RUN), j->error);
    }
    for (size_t h = 0; h < hints && h < x->nhints && at < sizeof SL->say - 2; h++) {
        SL->say[at++] = '\n';
        at += (size_t)snprintf(SL->say + at, sizeof SL->say - at, str_get(s->lang, STR_EXERCISE_HINT), h + 1, x->hints[h].s[lg]);
    }
    /* the trace's goals, then the card's where the exercise has one ("not judged here: no GPU": the
     * window times nothing on a card) */
    size_t ngoals = exercise_goal_count(x);
    SL->ngoals = ngoals < sizeof SL->goal / sizeof SL->goal[0] ? ngoals : sizeof SL->goal / sizeof SL->goal[0];
    SL->goals_met = j->met;
    for (size_t g = 0; g < SL->ngoals; g++) {
        exercise_checklist_line(x, j, g, lg, SL->goal[g], sizeof SL->goal[g]);
        SL->goal_met[g] = j->marks[g].state == EXERCISE_MET ? 1 : j->marks[g].state == EXERCISE_NOT_MET ? 0 : -1;
    }
    s->generation++;
}

size_t learn_exercise_requests(const session *s, unsigned *seen, size_t hints, size_t nhints)
{
    const session_lesson *SL = &s->lesson;
    if (SL->requests == *seen) return hints;
    *seen = SL->requests;
    return SL->request_kind == ACT_LESSON && SL->request_arg > 0 && hints < nhints ? hints + 1 : hints;
}

/* the step of pane p that holds event e, or -1 */
static long step_of_event(const session_pane *p, int64_t e)
{
    for (size_t st = 0; e >= 0 && st < p->m.nsteps; st++)
        for (size_t k = 0; k < p->m.steps[st].count; k++)
            if ((int64_t)p->m.order[p->m.steps[st].first + k] == e) return (long)st;
    return -1;
}

/* the first step where a step query holds, or -1 */
static long first_step_where(const session_pane *p, const char *shows)
{
    char err[200];
    size_t pos;
    long found = -1;
    query *q = query_parse(shows, err, sizeof err, &pos);
    for (size_t st = 0; q && st < p->m.nsteps && found < 0; st++) {
        query_ctx c = {.pane = {{&p->t, &p->m, st}}};
        query_value v;
        if (query_eval(q, &c, &v, err, sizeof err) == 0 && v.num != 0) found = (long)st;
    }
    query_free(q);
    return found;
}

void learn_exercise_picture(session *s, const lesson *l, const exercise_judgement *j)
{
    /* what a goal's query measures, and the picture that shows it: the first step with a bank
     * conflict or diverged lanes, the second access of the first race in the shown block, or
     * the end of the tree for a result */
    enum { SOURCE = 1u << PANEL_SOURCE, STATS = 1u << PANEL_STATS, TIMELINE = 1u << PANEL_TIMELINE };
    enum { AT_QUERY, AT_RACE, AT_END };
    static const struct {
        const char *measures, *shows;
        int at;
        unsigned panels;
    } pictures[] = {{"bank_conflicts", "conflict_degree() > 1", AT_QUERY, SOURCE | 1u << PANEL_BANKS | 1u << PANEL_MEMORY | STATS | TIMELINE},
                    {"divergent", "count(diverged_lanes()) > 0", AT_QUERY, SOURCE | 1u << PANEL_LANES | STATS | TIMELINE},
                    {"hazards", NULL, AT_RACE, SOURCE | 1u << PANEL_LANES | 1u << PANEL_MEMORY | STATS | TIMELINE},
                    {"result()", NULL, AT_END, SOURCE | 1u << PANEL_PICTURE | STATS | TIMELINE}};
    const lesson_exercise *x = l->exercise;
    session_pane *p = &s->pane[0];
    s->panels = 0; /* every panel, unless a missed goal has a picture */
    if (!p->loaded) return;
    for (size_t g = 0; g < x->ngoals; g++) {
        if (j->marks[g].state != EXERCISE_NOT_MET) continue;
        const char *text = query_text(x->goals[g].value);
        for (size_t k = 0; k < sizeof pictures / sizeof pictures[0]; k++) {
            if (!strstr(text, pictures[k].measures)) continue;
            long st = -1;
            if (pictures[k].at == AT_QUERY) st = first_step_where(p, pictures[k].shows);
            else if (pictures[k].at == AT_END) /* the last step that is not threads leaving */
                for (st = (long)p->m.nsteps - 1; st > 0 && p->m.steps[st].kind == TRACE_EXIT; st--) {}
            else
                for (size_t h = 0; h < p->t.nhazards && st < 0; h++) {
                    const trace_hazard *z = &p->t.hazards[h];
                    if (z->pass == p->m.pass && z->second.block == p->m.block) st = step_of_event(p, z->second.event);
                }
            if (st >= 0) {
                p->step = (size_t)st;
                s->panels = pictures[k].panels;
                s->generation++;
            }
            return; /* the first missed goal's picture, if it has one */
        }
        return;
    }
}
