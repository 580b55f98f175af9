/* panels/internal.h: what the panels share (not for use outside app/viewer/panels/). Every panel
 * registers its rectangle with the draw list; every string is placed inside it with dl_text (which
 * shortens what does not fit), and a row that does not fit is left out, so text never leaves its
 * panel nor lands on another text. One file per picture; the stage (stage.c) decides which picture
 * is the step's and shares out the heights; frame.c draws the whole frame. */
#ifndef WARPSCOPE_PANELS_INTERNAL_H
#define WARPSCOPE_PANELS_INTERNAL_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/viewer/keys.h"
#include "app/viewer/layout.h"
#include "app/viewer/panels.h"
#include "trace/ladder.h"

/* sizes derived from the base text size */
typedef struct ui {
    const scene *sc;
    const theme *th;
    str_lang L;
    dl_list *l;
    int px, big, lh, blh, pad, digit;
    int compact;     /* presenter mode or compare: one title line, a thin timeline, the pictures first */
    double ease;     /* progress of the move from the previous step, eased: 0 .. 1 */
    const scene_pane *to; /* while moving: where the move goes (drawing shows where it started) */
    int least;       /* the least size a value is drawn at: VALUE_PX_LEAST, or the platform's (session.least_px) */
} ui;

static inline const char *S(const ui *u, str_id id) { return str_get(u->L, id); }
/* A text that names keys, in the words of the device in use: on a touch screen (the page on a
 * phone) the one that names the page's buttons instead (one table: the key text and its touch
 * text). */
static inline const char *S_DEVICE(const ui *u, str_id id)
{
    static const struct { str_id keys, touch; } touch_words[] = {
        {STR_FOOTER_HINT, STR_FOOTER_HINT_TOUCH},         {STR_FOOTER_HINT_LESSON, STR_FOOTER_HINT_LESSON_TOUCH},
        {STR_LESSON_ASK_PICK, STR_LESSON_ASK_PICK_TOUCH}, {STR_LESSON_ASK_TYPE, STR_LESSON_ASK_TYPE_TOUCH},
        {STR_LESSON_RIGHT, STR_LESSON_RIGHT_TOUCH},       {STR_LESSON_NEXT, STR_LESSON_NEXT_TOUCH},
    };
    for (size_t i = 0; u->sc->s->touch && i < sizeof touch_words / sizeof *touch_words; i++)
        if (touch_words[i].keys == id) return S(u, touch_words[i].touch);
    return S(u, id);
}
static inline dl_rect inset(dl_rect r, int d) { return (dl_rect){r.x + d, r.y + d, r.w - 2 * d, r.h - 2 * d}; }
/* While a lesson's question is open, the pictures that would give the answer away hold back:
 * ask before show. */
static inline int holding_back(const ui *u) { return session_asking(u->sc->s); }

/* ---------- common.c: frames, lines, colours, values in cells ---------- */

dl_rect panel(ui *u, const char *name, dl_rect r, const char *title); /* background, title; the content below */
dl_rect panel_inner(const ui *u, dl_rect r);                           /* what panel() gives, drawing nothing */
int fit_px(ui *u, dl_font f, int px, const char *s, int w);          /* px shrunk towards the text size until s fits w */
void fit_text(ui *u, int w, const char *full, const char *shrt, char *b, size_t len); /* full if it fits w, else shrt */
void line_at(ui *u, dl_rect in, int row, dl_colour c, dl_font f, const char *s);
dl_colour mix(dl_colour a, dl_colour b, double t);
dl_colour lane_colour(const theme *th, int state);
void lesson_marks(ui *u, int kind, size_t item, dl_rect c);
dl_colour on_colour(const theme *th, dl_colour fill); /* the theme's text or background, whichever reads on fill */

/* The watched register of one warp and the cells' values: v with `digits` significant digits. */
enum { REG_DIGITS_FULL = 7, REG_DIGITS_SHORT = 2 }; /* 7: a float's integers up to 2^24 exactly */
void reg_format(float v, int digits, char *buf, size_t len);
enum { VALUE_PX_LEAST = 10 };
typedef struct value_fit {
    int px, digits;
} value_fit;
value_fit values_fit(ui *u, const float *vals, size_t n, int cw, int ch);
int value_least(const ui *u); /* the least size a value is drawn at (presenter mode: 16 px at 1024x768) */

/* ---------- one file per picture ---------- */

int source_rows_min(ui *u, const scene_pane *p, int w);                 /* source.c */
void draw_source(ui *u, const scene_pane *p, dl_rect r);
void draw_memory(ui *u, int pi, const scene_pane *p, dl_rect r);        /* memory.c */
void warps_in_words(ui *u, const scene_pane *p, unsigned from, unsigned to, char *b, size_t len); /* lanes.c */
void draw_lanes(ui *u, int pi, const scene_pane *p, dl_rect r);
dl_colour warp_colour(const theme *th, unsigned warp);                  /* banks.c */
void banks_title(ui *u, const scene_pane *p, int w, char *b, size_t len); /* shortened where wider than w */
void draw_banks(ui *u, int pi, const scene_pane *p, dl_rect r, int waves);
int tree_value_least(const ui *u);                                      /* tree.c */
void draw_tree(ui *u, int pi, const scene_pane *p, dl_rect r);
void draw_loads(ui *u, const scene_pane *p, dl_rect r);                 /* loads.c */
void shfl_round(const scene_pane *p, int *first_out, int *last_out);    /* shuffles.c */
void draw_shuffles(ui *u, const scene_pane *p, dl_rect r);
static inline int registers_height(ui *u, int cols) { return 2 * u->pad + u->lh + (WARP_SIZE / cols) * (u->lh + 2); } /* registers.c */
int registers_cols(ui *u, const scene_pane *p, int w, int max_h);
void draw_registers(ui *u, int pi, const scene_pane *p, dl_rect r, int cols);
void draw_stats(ui *u, const scene_pane *p, dl_rect r);                 /* result.c: the counters and the verdict */
/* The verdict in one line ("WRONG: 3968, should be 4096; races: 12"); 1 when it is wrong or racing */
int verdict_line(ui *u, const scene_pane *p, char *b, size_t len);
/* the verdict as a badge right-aligned in r (the wrong colour when wrong or racing); its width, 0 if it does not fit */
int draw_verdict(ui *u, const scene_pane *p, dl_rect r, int px);
int verdict_width(ui *u, const scene_pane *p, int px);
int verdict_width_brief(ui *u, const scene_pane *p, int px); /* the brief one's ("right: 1140") */
int verdict_line_brief(ui *u, const scene_pane *p, char *b, size_t len); /* "right: 1140" */
int tickets_known(const scene_pane *p);                                  /* tickets.c */
void draw_tickets(ui *u, const scene_pane *p, dl_rect r);
void tickets_summary(ui *u, const scene_pane *p, char *b, size_t len);
void draw_bench(ui *u, dl_rect r);                                      /* bench.c */
void draw_grid(ui *u, dl_rect r);                                       /* grid.c */
void draw_passes(ui *u, dl_rect r);                                     /* passes.c: Harris's kernel decomposition */
int wrap(ui *u, const char *text, int width, int px, const char **starts, size_t *lens, int max); /* lessons.c */
int text_block(ui *u, dl_rect r, int y, int px, dl_colour c, const char *text);
int draw_narration(ui *u, dl_rect r);
int narration_height(ui *u, int w, int room);
void draw_menu(ui *u, dl_rect r);

/* ---------- stage.c: which picture is the step's, and the panes ---------- */

/* The step's kind decides which picture is the show: a shared access with a bank conflict shows
 * lanes to banks; the end of the kernel its result and verdict; a step where a warp diverged its
 * lanes (working, diverged, idle); a shared store that adds into the tree the tree; any other shared
 * access lanes to banks; a global access its loads; an atomic the tickets; a shuffle the shuffles;
 * a barrier who waits; anything else the picture as it stands. The source line comes next, then
 * the rest. In compare the lower class of the two panes is the show of both. */
typedef enum stage_class {
    CLASS_CONFLICT, CLASS_DIVERGENT, CLASS_TREE, CLASS_SHARED, CLASS_GLOBAL, CLASS_TICKET, CLASS_SHUFFLE, CLASS_BARRIER, CLASS_END,
    CLASS_OTHER, CLASS_COUNT
} stage_class;
stage_class pane_class(const scene_pane *p);
stage_class scene_class(const scene *sc);
int stage_focus(stage_class c);                 /* the panel that is a class's picture */
int stage_focus_of(const ui *u, stage_class c); /* the same, or the panel a lesson's question is answered on */
void draw_pane(ui *u, int pi, dl_rect r, stage_class cls, long share);

#endif
