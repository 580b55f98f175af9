/* page: warpscope in a browser. The page's entry points, called from warpscope.js: the same
 * session, actions, scene, panels, draw list and lesson driver as the window's (app/viewer/), with
 * the browser as the platform. Keys arrive by name (keys.h's names, so the key table is the page's
 * too), the mouse by position; the draw list goes back to the page's canvas executor, and its text
 * is measured by the browser (the two imports below). Files are read through wasi-libc from the
 * page's own file system (warpscope.js): lessons/, assets/ and the bundled traces (bundle.c); lesson
 * progress is written there and kept in the browser's storage. The page owns the one app state,
 * as main does on the desktop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/draw/draw.h"
#include "app/draw/record.h"
#include "app/viewer/keys.h"
#include "app/viewer/learn.h"
#include "app/viewer/panels.h"
#include "app/viewer/scene.h"
#include "app/viewer/session.h"
#include "trace/capture/capture.h"
#include "trace/cards.h"
#include "trace/results.h"
#include "trace/ladder.h"
#include "trace/sources.h"

#define PAGE_EXPORT(name) __attribute__((export_name(name)))
#define PAGE_IMPORT(name) __attribute__((import_module("warpscope"), import_name(name)))

/* the browser's text measurement (canvas measureText, cached per glyph by the page) */
PAGE_IMPORT("advance") int page_advance(int font, int px, unsigned codepoint);
PAGE_IMPORT("height") int page_height(int font, int px);

static int advance(void *ctx, dl_font f, int px, uint32_t cp) { (void)ctx; return page_advance((int)f, px, cp); }
static int height(void *ctx, dl_font f, int px) { (void)ctx; return page_height((int)f, px); }

typedef struct page {
    session s;
    scene sc;
    dl_list l;
    learn *L;
    results_set res;
    int have_results, started, scrubbing;
    double move_start, last_tick, t; /* motion: the clock of the move under way, 0..1 */
    unsigned moves, shots, fulls;
    int32_t *packed;                 /* the list as the executor reads it */
    size_t packed_cap;
    char *json;                      /* the list as JSON (tests) */
    char err[512];
} page;
static page P;

/* what the page shows: the viewer's default capture of a version, with its break-it switches */
static int page_load(void *ctx, const char *version, const session_break *b, trace *t, char *note, size_t notelen, char *err, size_t errlen)
{
    (void)ctx;
    capture_desc d = {.version = version};
    if (b && b->schedule[0]) d.schedule = b->schedule;
    if (b) d.drop_barrier = b->drop_barrier, d.blocks_traced = b->blocks_traced, d.n = b->n;
    if (capture_with("cpu", &d, t, note, notelen, err, errlen) == 0) return 0;
    if (!d.blocks_traced) return -1;
    /* every block traced (the grid's A) is carried for the default capture alone: a schedule or a
     * dropped barrier after it is shown with one block traced, and says so */
    d.blocks_traced = 0;
    trace_free(t);
    trace_init(t);
    if (capture_with("cpu", &d, t, note, notelen, err, errlen)) return -1;
    if (note && notelen) snprintf(note, notelen, "%s", str_get(P.s.lang, STR_PAGE_ONE_BLOCK));
    return 0;
}

str_lang bundle_lang(void);
str_lang bundle_lang(void) { return P.s.lang; }

static void status(const char *msg)
{
    P.s.status_id = STR_COUNT;
    snprintf(P.s.status_text, sizeof P.s.status_text, "%s", msg);
    P.s.generation++;
}

/* after every action: the lesson driver acts on the requests it left */
static void settle(void)
{
    if (P.L && learn_update(P.L, &P.s, P.err, sizeof P.err)) status(P.err);
}

static void apply(const action *a)
{
    if (a->kind == ACT_NONE) return;
    session_apply(&P.s, a);
    settle();
}

/* Memory for strings from the page. */
PAGE_EXPORT("ws_alloc") void *ws_alloc(size_t n) { return malloc(n ? n : 1); }
PAGE_EXPORT("ws_free") void ws_free(void *p) { free(p); }

/* Starts the page on v0 (the desktop's default); 0, or -1 with ws_error(). */
PAGE_EXPORT("ws_start") int ws_start(void)
{
    if (P.started) return 0;
    dl_init(&P.l, (dl_metrics){NULL, advance, height});
    if (session_init(&P.s, "assets/themes", (session_loader){NULL, page_load}, P.err, sizeof P.err)) return -1;
    scene_init(&P.sc);
    P.s.scale = 1.0;
    P.s.page = 1;
    char ignore[256];
    P.have_results = results_set_read_dir(&P.res, "assets", ignore, sizeof ignore) == 0 && P.res.count;
    session_set_results(&P.s, P.have_results ? &P.res : NULL);
    trace t;
    trace_init(&t);
    if (page_load(NULL, "v0", &P.s.brk, &t, NULL, 0, P.err, sizeof P.err) || session_set_trace(&P.s, 0, &t, P.err, sizeof P.err)) {
        trace_free(&t);
        return -1;
    }
    P.s.pane[0].step = P.s.pane[0].prev_step = 0; /* the page opens at the start of the run (a link's step=N moves on) */
    P.L = learn_create("lessons", 1, P.err, sizeof P.err);
    if (!P.L) return -1;
    P.started = 1;
    return 0;
}

PAGE_EXPORT("ws_error") const char *ws_error(void) { return P.err; }

/* The page is on a touch screen (a coarse pointer, or a touch seen): the picture's texts name the
 * page's buttons (Answer, ›) instead of keys (Enter, PgDn). */
PAGE_EXPORT("ws_touch") void ws_touch(int on)
{
    if (P.s.touch != !!on) P.s.touch = !!on, P.s.generation++;
}

PAGE_EXPORT("ws_learn") int ws_learn(const char *name);

/* A key by its name as keys.h reads them ("Right", "Shift+Right", "PageDown", "l"): 1 when the
 * key table has it. */
PAGE_EXPORT("ws_key") int ws_key(const char *name)
{
    SDL_Keycode k;
    Uint16 mod;
    if (keys_parse(name, &k, &mod)) return 0;
    action a = keys_action(&P.s, k, mod);
    if (a.kind == ACT_ESCAPE && P.s.overlay == OVERLAY_NONE && !P.s.focus) { /* a page is not quit: Esc goes back to the lessons (once the cursor has gone) */
        ws_learn("");
        return 1;
    }
    apply(&a);
    return a.kind != ACT_NONE;
}

/* the lesson driver's turn after each action of a script (its trouble goes to the status line) */
static int after_action(void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    settle();
    return 0;
}

/* Actions as the desktop's --actions takes them ("version:v2,step:+1"); 0, or -1 with ws_error(). */
PAGE_EXPORT("ws_actions") int ws_actions(const char *script)
{
    return session_apply_script(&P.s, script, after_action, NULL, P.err, sizeof P.err);
}

/* A lesson by id or number ("03"), or the menu of lessons (""); 0, or -1 with ws_error(). */
PAGE_EXPORT("ws_learn") int ws_learn(const char *name)
{
    int rc = name[0] ? learn_open(P.L, &P.s, name, P.err, sizeof P.err) : learn_menu(P.L, &P.s, P.err, sizeof P.err);
    if (rc && name[0]) { /* a lesson the page does not have: the menu of those it has, and why */
        char why[sizeof P.err];
        snprintf(why, sizeof why, str_get(P.s.lang, STR_PAGE_NO_LESSON), name);
        if (learn_menu(P.L, &P.s, P.err, sizeof P.err) == 0) status(why);
    }
    P.s.generation++;
    return rc;
}

/* The mouse: kind 0 moved (buttons: 1 while the left one is down), 1 pressed, 2 released. */
PAGE_EXPORT("ws_mouse") void ws_mouse(int kind, int x, int y, int buttons)
{
    action a;
    memset(&a, 0, sizeof a);
    const dl_item *it = dl_hit_item(&P.l, x, y);
    if (kind == 1) { /* a press on nothing lets a pinned item go */
        P.scrubbing = session_press(&P.s, it ? it->hit : 0, it ? it->r.x : 0, it ? it->r.w : 0, x, &a) == 2;
    } else if (kind == 2) {
        P.scrubbing = 0;
        return;
    } else {
        if (!(P.scrubbing && (buttons & 1) && it && session_timeline_seek(&P.s, it->hit, it->r.x, it->r.w, x, &a))) {
            a.kind = ACT_HOVER;
            a.i = it ? it->hit : 0;
            a.x = x;
            a.y = y;
        }
    }
    apply(&a);
}

/* A dropped file that did not open, in the page's words: a sentence in the page's language says
 * what went wrong (not a trace nor results, a trace or results that cannot be read), and the
 * reader's own message follows as its detail, naming the file as the learner dropped it (the
 * page keeps it under dropped/). */
static void drop_trouble(str_id what, const char *path, const char *detail)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t at = strlen(path);
    if (!strncmp(detail, path, at)) detail += at - strlen(name); /* "dropped/x.json:3:1: ..." -> "x.json:3:1: ..." */
    char b[sizeof P.s.status_text];
    snprintf(b, sizeof b, str_get(P.s.lang, what), name, detail);
    status(b);
}

/* The learner's own file, as the editor sent it to be traced: its text under the name its trace
 * gives (provenance.source), for the source panel; the kernels the page carries come from
 * sources_find. Each text is a new copy, so the scene sees a new text as new. */
static struct {
    char *name, *text;
} own;
static const char *page_source(const char *file)
{
    if (own.name && own.text && strcmp(file, own.name) == 0) return own.text;
    return sources_find(file);
}
/* 0, or -1 when out of memory (the panel then says the source is not available) */
PAGE_EXPORT("ws_source") int ws_source(const char *name, const char *text)
{
    char *n = strdup(name), *t = strdup(text);
    free(own.name);
    free(own.text);
    own.name = n && t ? n : NULL;
    own.text = n && t ? t : NULL;
    if (!own.name) free(n), free(t);
    return own.name ? 0 : -1;
}

/* A file the learner dropped on the page, at `path` in the page's files: a trace (JSON or the
 * compact encoding) opens in the first pane, leaving a lesson that was open (the lessons' menu
 * opens one again); benchmark results open the benchmark view. What does
 * not open says why on the status line (drop_trouble). 0, or -1. */
PAGE_EXPORT("ws_open") int ws_open(const char *path)
{
    trace t;
    trace_init(&t);
    char terr[300], rerr[300];
    if (trace_read_file(&t, path, terr, sizeof terr) == 0) {
        if (session_set_trace(&P.s, 0, &t, terr, sizeof terr) == 0) {
            P.s.compare = 0;
            P.s.overlay = OVERLAY_NONE;
            P.s.lesson.active = 0; /* a lesson's narration and question are about its own capture, not this one */
            P.s.generation++;
            return 0;
        }
        trace_free(&t);
        drop_trouble(STR_PAGE_DROP_TRACE, path, terr);
        return -1;
    }
    trace_free(&t);
    results_set rs;
    memset(&rs, 0, sizeof rs);
    if (results_set_read_files(&rs, &path, 1, rerr, sizeof rerr) == 0) {
        if (P.have_results) results_set_free(&P.res);
        P.res = rs;
        P.have_results = 1;
        session_set_results(&P.s, &P.res);
        P.s.overlay = OVERLAY_BENCH;
        return 0;
    }
    /* the message of the reader the file claims to be for: results and traces name their schema,
     * and a compact trace is known by its name */
    FILE *f = fopen(path, "rb");
    char head[4096] = "";
    if (f) {
        head[fread(head, 1, sizeof head - 1, f)] = '\0';
        fclose(f);
    }
    if (strstr(head, "\"warpscope-bench\"")) drop_trouble(STR_PAGE_DROP_RESULTS, path, rerr);
    else if (trace_path_is_compact(path) || strstr(head, "\"warpscope-trace\"")) drop_trouble(STR_PAGE_DROP_TRACE, path, terr);
    else drop_trouble(STR_PAGE_DROP_NEITHER, path, terr);
    return -1;
}

/* Builds the frame for a canvas of w x h pixels at time now (ms), its text at least min_px pixels
 * (the page's 12 CSS pixels at the screen's pixel ratio, so the browser's zoom makes it larger) and
 * the values in cells at least least_px (0: the panels' own least, as the desktop's):
 * the motion's clock and the player's ticks advance here. Returns 1 while something moves (draw again at the next animation
 * frame), 0 when the picture is still, -1 out of memory. */
PAGE_EXPORT("ws_frame") int ws_frame(int w, int h, double now, int min_px, int least_px)
{
    if (P.s.quit) { /* a page is not quit: Q and Esc, Esc go back to the lessons */
        P.s.quit = 0;
        P.s.overlay = OVERLAY_NONE;
        if (learn_menu(P.L, &P.s, P.err, sizeof P.err)) status(P.err);
    }
    if (P.s.playing && now - P.last_tick >= 1000.0 / P.s.speed) {
        P.last_tick = now;
        action a = {.kind = ACT_TICK};
        apply(&a);
    }
    if (P.s.motion_serial != P.moves) {
        P.moves = P.s.motion_serial;
        P.move_start = now;
        P.t = 0.0;
    }
    if (P.t < 1.0) P.t = P.s.no_motion ? 1.0 : (now - P.move_start) / (1000.0 * panels_motion_seconds(P.s.playing ? P.s.speed : 0));
    if (P.t > 1.0) P.t = 1.0;
    P.s.least_px = least_px; /* values smaller are left out (the title says so): the page's 12 CSS pixels on a dense screen */
    for (int again = 0; again < 2; again++) {
        if (scene_update(&P.sc, &P.s, page_source)) return -1;
        int px = panels_px(h, P.s.scale, P.s.presenter);
        panels_draw(&P.sc, &P.l, w, h, px < min_px && min_px <= 96 ? min_px : px, P.s.no_motion ? 1.0 : P.t);
        if (P.l.failed) return -1;
        /* the mouse at rest over a picture that changed: what is under it now */
        if (!session_rest_hover(&P.s, dl_hit(&P.l, P.s.mouse_x, P.s.mouse_y))) break;
    }
    return P.t < 1.0 || P.s.playing;
}

/* The list of the last frame as the canvas executor reads it: WS_ITEM_INTS per item (kind, x, y,
 * w, h, x2, y2, thick, rgba, font, px, text offset, text bytes, hit); NULL out of memory. */
enum { WS_ITEM_INTS = 14 };
PAGE_EXPORT("ws_items") const int32_t *ws_items(void)
{
    size_t need = P.l.n * WS_ITEM_INTS;
    if (need > P.packed_cap) {
        int32_t *p = realloc(P.packed, need * sizeof *p);
        if (!p) return NULL;
        P.packed = p;
        P.packed_cap = need;
    }
    for (size_t i = 0; i < P.l.n; i++) {
        const dl_item *it = &P.l.items[i];
        int32_t *o = P.packed + i * WS_ITEM_INTS;
        o[0] = (int32_t)it->kind, o[1] = it->r.x, o[2] = it->r.y, o[3] = it->r.w, o[4] = it->r.h, o[5] = it->x2, o[6] = it->y2;
        o[7] = it->thick, o[8] = (int32_t)((uint32_t)it->c.r << 24 | (uint32_t)it->c.g << 16 | (uint32_t)it->c.b << 8 | it->c.a);
        o[9] = (int32_t)it->font, o[10] = it->px, o[11] = (int32_t)it->text, o[12] = (int32_t)it->len, o[13] = (int32_t)it->hit;
    }
    return P.packed;
}
PAGE_EXPORT("ws_item_count") size_t ws_item_count(void) { return P.l.n; }
PAGE_EXPORT("ws_item_ints") int ws_item_ints(void) { return WS_ITEM_INTS; }
PAGE_EXPORT("ws_text") const char *ws_text(void) { return P.l.text; }

/* The last frame's list as JSON (record.h), for comparing with the desktop's. */
PAGE_EXPORT("ws_list_json") const char *ws_list_json(void)
{
    free(P.json);
    P.json = dl_record_json(&P.l);
    return P.json ? P.json : "";
}

/* What the session asks of the platform since the last call: bit 0 a screenshot (the page saves
 * the canvas as PNG), bit 1 full screen. */
PAGE_EXPORT("ws_requests") int ws_requests(void)
{
    int r = 0;
    if (P.s.screenshot_requests != P.shots) r |= 1, P.shots = P.s.screenshot_requests;
    if (P.s.fullscreen_requests != P.fulls) r |= 2, P.fulls = P.s.fullscreen_requests;
    return r;
}

/* The state the page keeps in its address (and a test reads): language, version shown, step. */
PAGE_EXPORT("ws_lang") const char *ws_lang(void) { return P.s.lang == LANG_ZH ? "zh" : "en"; }
PAGE_EXPORT("ws_step") long ws_step(void) { return P.s.pane[0].loaded ? (long)P.s.pane[0].step : -1; }
PAGE_EXPORT("ws_version") const char *ws_version(void) { return P.s.pane[0].loaded ? P.s.pane[0].t.prov.version : ""; }
PAGE_EXPORT("ws_answer_state") int ws_answer_state(void) { return P.s.lesson.active ? (int)P.s.lesson.state : -1; }
PAGE_EXPORT("ws_status") const char *ws_status(void)
{
    return P.s.status_id == STR_COUNT ? P.s.status_text : str_get(P.s.lang, P.s.status_id);
}

/* ---- the page's own controls (warpscope.js): what they show and the actions they make ---- */

/* What the step's picture shows, as numbers for the live region's sentence (warpscope.js says it
 * in the page's language): taken from the scene the picture is drawn from (its lanes, its worst
 * bank conflict, the tree's stores, the shuffle, the atomic), never typed in, so the words and the
 * picture cannot disagree. Pane i of the scene; nothing when it shows no step. */
static void view_facts(cJSON *o);

static void step_facts(cJSON *o, int i)
{
    const scene_pane *p = &P.sc.pane[i];
    if (!p->shown || !p->m || !p->st || !p->lanes) return;
    const view_model *m = p->m;
    cJSON *f = cJSON_AddObjectToObject(o, i ? "facts2" : "facts");
    if (!f) return;
    cJSON_AddStringToObject(f, "version", m->t->prov.version);
    cJSON_AddStringToObject(f, "kind", trace_kind_label((trace_kind)p->st->kind));
    /* the lanes as the lanes panel colours them: one count per view_lane state */
    static const char *const lane_names[] = {"idle", "working", "diverged", "barrier", "exited"};
    unsigned count[sizeof lane_names / sizeof *lane_names] = {0};
    for (unsigned t = 0; t < m->threads; t++)
        if (p->lanes[t] < sizeof lane_names / sizeof *lane_names) count[p->lanes[t]]++;
    for (size_t k = 0; k < sizeof lane_names / sizeof *lane_names; k++) cJSON_AddNumberToObject(f, lane_names[k], count[k]);
    cJSON_AddNumberToObject(f, "threads", m->threads);
    /* the banks: the step's worst shared access, as the banks panel draws it by default */
    if (p->worst_event >= 0) {
        cJSON_AddNumberToObject(f, "bankWarp", m->t->events[p->worst_event].warp);
        cJSON_AddNumberToObject(f, "bankDegree", m->facts[p->worst_event].bank_degree);
    }
    /* the tree: the partial sums this step stores, and all stored up to it */
    unsigned stored = 0, so_far = 0;
    for (size_t k = 0; k < m->nnodes; k++) {
        stored += m->nodes[k].step == p->step;
        so_far += m->nodes[k].step <= p->step;
    }
    cJSON_AddNumberToObject(f, "partials", stored);
    cJSON_AddNumberToObject(f, "partialsSoFar", so_far);
    /* a shuffle: its warp, how many lanes received, and from how far */
    unsigned sh = 0;
    for (size_t k = 0; k < m->nshfl; k++)
        if (m->shfl[k].step == p->step && m->shfl[k].warp == p->shfl_warp) {
            if (!sh) {
                cJSON_AddNumberToObject(f, "shuffleWarp", m->shfl[k].warp);
                cJSON_AddNumberToObject(f, "shuffleDelta", (double)m->shfl[k].src - (double)m->shfl[k].lane);
            }
            sh++;
        }
    if (sh) cJSON_AddNumberToObject(f, "shuffleLanes", sh);
    /* an atomic (the last block's ticket): the lanes that took part and the value the first drew */
    if (p->st->kind == TRACE_GLOBAL_ATOMIC) {
        for (size_t k = 0; k < p->st->count; k++) {
            const trace_event *e = &m->t->events[m->order[p->st->first + k]];
            if (e->kind != TRACE_GLOBAL_ATOMIC || !e->mask) continue;
            cJSON_AddNumberToObject(f, "ticket", m->t->values[e->vals]);
            cJSON_AddNumberToObject(f, "ticketBlock", m->block);
            break;
        }
    }
    cJSON_AddBoolToObject(f, "last", p->step + 1 >= m->nsteps);
    static const char *const verdicts[] = {[TRACE_UNCHECKED] = "unchecked", [TRACE_RIGHT] = "right", [TRACE_RACING] = "racing", [TRACE_WRONG] = "wrong"};
    cJSON_AddNumberToObject(f, "result", m->t->result);
    cJSON_AddNumberToObject(f, "reference", m->t->reference);
    trace_verdict v = trace_result_verdict(m->t);
    cJSON_AddStringToObject(f, "verdict", (unsigned)v < sizeof verdicts / sizeof *verdicts ? verdicts[v] : "unchecked");
}

/* Everything the page's controls and its live region read, as JSON: the step and its line, the
 * status line, the lesson's narration, question and answer state, the menu, the versions, and
 * what the address keeps (version, compare, step, lesson and page, language, theme). */
PAGE_EXPORT("ws_state_json") const char *ws_state_json(void)
{
    static char *out;
    free(out);
    out = NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o) return "";
    const session *s = &P.s;
    const session_pane *p = &s->pane[0];
    cJSON_AddStringToObject(o, "lang", ws_lang());
    cJSON_AddStringToObject(o, "theme", session_theme(s)->name);
    cJSON_AddNumberToObject(o, "themeIndex", s->theme_index & 1);
    cJSON_AddStringToObject(o, "version", ws_version());
    cJSON_AddStringToObject(o, "compare", s->compare && s->pane[1].loaded ? s->pane[1].t.prov.version : "");
    cJSON_AddNumberToObject(o, "step", p->loaded ? (double)p->step : -1);
    cJSON_AddNumberToObject(o, "steps", p->loaded ? (double)p->m.nsteps : 0);
    if (p->loaded && p->step < p->m.nsteps) {
        const view_step *st = &p->m.steps[p->step];
        char code[200];
        trace_text_line_copy(P.sc.pane[0].source, st->line, code, sizeof code);
        cJSON_AddNumberToObject(o, "line", st->line);
        cJSON_AddNumberToObject(o, "phase", st->phase);
        cJSON_AddStringToObject(o, "code", code);
    }
    cJSON_AddStringToObject(o, "title", P.sc.pane[0].title);
    /* the focus (a tapped item, the keys' cursor): its details as its tooltip says them, from the
     * scene (scene.c's describe), in the session's language, for the live region */
    if (P.sc.details[0]) {
        static const char *const kinds[] = {[HIT_CELL] = "cell", [HIT_LANE] = "lane", [HIT_BANK] = "bank"};
        int k = HIT_KIND(s->focus);
        cJSON *d = cJSON_AddObjectToObject(o, "focus");
        if (d) {
            cJSON_AddStringToObject(d, "kind", k > 0 && (size_t)k < sizeof kinds / sizeof *kinds && kinds[k] ? kinds[k] : "");
            cJSON_AddNumberToObject(d, "pane", HIT_PANE(s->focus));
            cJSON_AddNumberToObject(d, "index", (double)HIT_INDEX(s->focus));
            cJSON_AddBoolToObject(d, "cursor", s->focus_keys);
            cJSON_AddStringToObject(d, "details", P.sc.details);
        }
    }
    step_facts(o, 0);
    if (s->compare) step_facts(o, 1);
    cJSON_AddStringToObject(o, "status", P.sc.status[0] ? P.sc.status : ws_status());
    cJSON_AddBoolToObject(o, "playing", s->playing);
    static const char *const overlays[] = {"", "help", "bench", "quit", "menu", "grid", "passes"};
    cJSON_AddStringToObject(o, "overlay", (unsigned)s->overlay < sizeof overlays / sizeof *overlays ? overlays[s->overlay] : "");
    view_facts(o);
    const session_lesson *L = &s->lesson;
    cJSON_AddBoolToObject(o, "lesson", L->active);
    if (L->active) {
        static const char *const asks[] = {"", "lanes", "banks", "cells", "number", "choice"};
        static const char *const states[] = {"open", "wrong", "right", "revealed"};
        cJSON_AddStringToObject(o, "lessonId", learn_lesson_id(P.L));
        cJSON_AddStringToObject(o, "lessonTitle", L->title);
        cJSON_AddNumberToObject(o, "page", (double)L->index);
        cJSON_AddNumberToObject(o, "pages", (double)L->count);
        cJSON_AddStringToObject(o, "say", L->say);
        cJSON_AddStringToObject(o, "ask", (unsigned)L->ask < 6 ? asks[L->ask] : "");
        cJSON_AddStringToObject(o, "prompt", L->prompt);
        cJSON_AddStringToObject(o, "answerState", (unsigned)L->state < 4 ? states[L->state] : "");
        cJSON_AddStringToObject(o, "explain", L->state == ANSWER_OPEN ? "" : L->explain);
        cJSON_AddStringToObject(o, "typed", L->typed);
        cJSON *opts = cJSON_AddArrayToObject(o, "options");
        for (int i = 0; opts && i < L->noptions; i++) cJSON_AddItemToArray(opts, cJSON_CreateString(L->options[i]));
    }
    if (s->overlay == OVERLAY_MENU) {
        cJSON *m = cJSON_AddArrayToObject(o, "menu");
        for (int i = 0; m && i < L->nmenu; i++) cJSON_AddItemToArray(m, cJSON_CreateString(L->menu[i]));
        cJSON_AddNumberToObject(o, "menuSel", L->menu_sel);
    }
    cJSON *v = cJSON_AddArrayToObject(o, "versions");
    for (size_t i = 0; v && i < ladder_count; i++) {
        cJSON *e = cJSON_CreateObject();
        if (!e) break;
        cJSON_AddStringToObject(e, "id", ladder_versions[i].id);
        cJSON_AddStringToObject(e, "title", s->lang == LANG_ZH && ladder_versions[i].title_zh ? ladder_versions[i].title_zh : ladder_versions[i].title);
        cJSON_AddItemToArray(v, e);
    }
    out = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return out ? out : "";
}

/* What a view over the step's picture shows, for the live region's sentence (as step_facts is the
 * step's): the grid's pass, its blocks, elements, wave and card; each launch of the passes view;
 * the benchmark's GPU, size, timing mode and its fastest kernel there. */
static void view_facts(cJSON *o)
{
    const session *s = &P.s;
    const session_pane *p = &s->pane[0];
    cJSON *v = NULL;
    if (s->overlay == OVERLAY_GRID && p->loaded && s->grid_pass < p->t.npasses && (v = cJSON_AddObjectToObject(o, "view"))) {
        const trace_pass *tp = &p->t.passes[s->grid_pass];
        const card *c = s->card[0] ? card_find(s->card) : card_for_trace(&p->t, NULL);
        cJSON_AddStringToObject(v, "kind", "grid");
        cJSON_AddNumberToObject(v, "pass", s->grid_pass);
        cJSON_AddNumberToObject(v, "passes", (double)p->t.npasses);
        cJSON_AddNumberToObject(v, "blocks", tp->grid);
        cJSON_AddNumberToObject(v, "block", tp->block);
        cJSON_AddNumberToObject(v, "n", (double)tp->n_in);
        cJSON_AddNumberToObject(v, "wave", (double)s->grid_wave);
        cJSON_AddNumberToObject(v, "waves", (double)session_grid_waves(s));
        cJSON_AddStringToObject(v, "card", c && c->name ? c->name : "");
    } else if (s->overlay == OVERLAY_PASSES && p->loaded && (v = cJSON_AddObjectToObject(o, "view"))) {
        cJSON_AddStringToObject(v, "kind", "passes");
        cJSON *l = cJSON_AddArrayToObject(v, "launches");
        for (size_t i = 0; l && i < p->t.npasses; i++) {
            cJSON *e = cJSON_CreateObject();
            if (!e) break;
            cJSON_AddNumberToObject(e, "blocks", p->t.passes[i].grid);
            cJSON_AddNumberToObject(e, "block", p->t.passes[i].block);
            cJSON_AddNumberToObject(e, "n", (double)p->t.passes[i].n_in);
            cJSON_AddItemToArray(l, e);
        }
    } else if (s->overlay == OVERLAY_BENCH && s->results && (v = cJSON_AddObjectToObject(o, "view"))) {
        const results *r = s->results;
        cJSON_AddStringToObject(v, "kind", "bench");
        cJSON_AddStringToObject(v, "device", r->device);
        cJSON_AddStringToObject(v, "mode", results_mode_id((results_mode)s->bench_mode));
        cJSON_AddNumberToObject(v, "gpus", s->results_set ? (double)s->results_set->count : 1);
        uint64_t n = s->bench_size < r->nsizes ? r->sizes[s->bench_size].n : 0;
        cJSON_AddNumberToObject(v, "n", (double)n);
        const results_row *best = NULL;
        size_t rows = 0;
        for (size_t i = 0; i < r->nrows; i++) {
            const results_row *w = &r->rows[i];
            if (w->n != n || (int)w->mode != s->bench_mode || strcmp(w->kind, "version") != 0 || !w->ok) continue;
            rows++;
            if (!best || w->ms < best->ms) best = w;
        }
        cJSON_AddNumberToObject(v, "versions", (double)rows);
        if (best) {
            cJSON_AddStringToObject(v, "fastest", best->name);
            cJSON_AddNumberToObject(v, "ms", best->ms);
            cJSON_AddNumberToObject(v, "gbs", best->gbs);
        }
    }
}

/* one number or range of an answer typed as text ("0 2 4 6", "0-30 even", "1,3,5"), read into
 * want[]; 0, or -1 when the text is not a list of numbers */
static int parse_items(const char *text, unsigned char *want, size_t max)
{
    long lo = -1, hi = -1; /* the last range, which "even" or "odd" after it filters */
    int any = 0;
    for (const char *c = text; *c;) {
        if (*c == ' ' || *c == ',' || *c == ';' || *c == '\t' || (unsigned char)*c >= 0x80) {
            /* a separator, or a Chinese comma or word: "偶数" (even) and "奇数" (odd) as in English */
            if (!strncmp(c, "\xe5\x81\xb6\xe6\x95\xb0", 6) || !strncmp(c, "\xe5\xa5\x87\xe6\x95\xb0", 6)) {
                int odd = c[1] == '\xa5';
                if (lo < 0) return -1;
                for (long i = lo; i <= hi; i++) want[i] = (unsigned char)((i & 1) == odd);
                c += 6;
                continue;
            }
            if ((unsigned char)*c >= 0x80 && strncmp(c, "\xef\xbc\x8c", 3) && strncmp(c, "\xe3\x80\x81", 3)) return -1; /* ， 、 */
            c += (unsigned char)*c >= 0x80 ? 3 : 1;
            continue;
        }
        if (!strncmp(c, "even", 4) || !strncmp(c, "odd", 3)) {
            int odd = *c == 'o';
            if (lo < 0) return -1;
            for (long i = lo; i <= hi; i++) want[i] = (unsigned char)((i & 1) == odd);
            c += odd ? 3 : 4;
            continue;
        }
        if (*c < '0' || *c > '9') return -1;
        char *end;
        long a = strtol(c, &end, 10), b = a;
        c = end;
        if (*c == '-' || !strncmp(c, "\xe2\x80\x93", 3) || *c == '~') { /* a range: 0-30, 0–30, 0~30 */
            c += *c == '-' || *c == '~' ? 1 : 3;
            if (*c < '0' || *c > '9') return -1;
            b = strtol(c, &end, 10);
            c = end;
        }
        if (a < 0 || b < a || (size_t)b >= max) return -1;
        for (long i = a; i <= b; i++) want[i] = 1;
        lo = a, hi = b, any = 1;
    }
    return any ? 0 : -1;
}

/* An answer typed into the page's field: for a lanes, banks or cells question a list of numbers,
 * which becomes the picks (ACT_PICK for each item that changes); for a number or a choice, what
 * the keys would type (ACT_TYPE). The answer itself is the Answer button's (Enter). 0, or -1 when
 * the text is no answer to this question (nothing changes). */
PAGE_EXPORT("ws_answer_text") int ws_answer_text(const char *text)
{
    session_lesson *L = &P.s.lesson;
    if (!L->active || L->ask == ASK_NONE) return -1;
    if (L->ask == ASK_NUMBER || L->ask == ASK_CHOICE) {
        action a = {.kind = ACT_TYPE};
        for (size_t n = strlen(L->typed); n; n--) { snprintf(a.s, sizeof a.s, "\b"); apply(&a); }
        for (const char *c = text; *c; c++) {
            if (*c == ' ') continue;
            a.s[0] = L->ask == ASK_CHOICE && *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
            a.s[1] = '\0';
            apply(&a);
        }
        return L->typed[0] ? 0 : -1;
    }
    static unsigned char want[SESSION_ITEM_MAX];
    memset(want, 0, sizeof want);
    if (parse_items(text, want, SESSION_ITEM_MAX)) return -1;
    static const int kinds[] = {[ASK_LANES] = SESSION_ITEM_LANES, [ASK_BANKS] = SESSION_ITEM_BANKS, [ASK_CELLS] = SESSION_ITEM_CELLS};
    static const int hits[] = {[ASK_LANES] = HIT_LANE, [ASK_BANKS] = HIT_BANK, [ASK_CELLS] = HIT_CELL};
    for (size_t i = 0; i < SESSION_ITEM_MAX; i++)
        if (session_set_has(&L->picked[kinds[L->ask]], i) != want[i]) {
            action a = {.kind = ACT_PICK, .i = (long)HIT_CODE(hits[L->ask], 0, i)};
            apply(&a);
        }
    P.s.generation++;
    return 0;
}

/* The menu's entry i chosen by a tap: the menu's own actions (move to it, open it). */
PAGE_EXPORT("ws_menu_choose") int ws_menu_choose(int i)
{
    if (P.s.overlay != OVERLAY_MENU || i < 0 || i >= P.s.lesson.nmenu) return -1;
    action a = {.kind = ACT_MENU, .i = i - P.s.lesson.menu_sel};
    if (a.i) apply(&a);
    a.i = 0;
    apply(&a);
    return 0;
}

/* Help as the page's own list (the canvas's help is a picture a screen reader cannot read): the
 * key table's lines in the page's language, from keys_help as the help screen draws them, as JSON
 * [[label, text], ...]. */
PAGE_EXPORT("ws_help_json") const char *ws_help_json(void)
{
    static char *out;
    static keys_help_line lines[96];
    free(out);
    out = NULL;
    size_t n = keys_help(P.s.lang, 1, lines, sizeof lines / sizeof *lines);
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++) {
        cJSON *row = cJSON_CreateArray();
        if (!row) break;
        cJSON_AddItemToArray(row, cJSON_CreateString(lines[i].label));
        cJSON_AddItemToArray(row, cJSON_CreateString(lines[i].text));
        cJSON_AddItemToArray(a, row);
    }
    out = a ? cJSON_PrintUnformatted(a) : NULL;
    cJSON_Delete(a);
    return out ? out : "[]";
}
