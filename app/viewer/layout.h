/* layout: shares a column of the window among panels by what each needs and how much it matters
 * for the step at hand. Each panel states the height below which it is no use (min), the height
 * its content would fill (pref) and the height of its one-line summary; the solver gives the
 * step's picture its room first, then the others in priority order. A panel that cannot reach its
 * minimum is drawn as its summary line, never as a title with nothing under it; when not even
 * the summaries fit, or the step's picture or the source needs their room, the least important
 * ones are left out. Pure arithmetic: no scene, no drawing. */
#ifndef WARPSCOPE_LAYOUT_H
#define WARPSCOPE_LAYOUT_H

typedef enum layout_state { LAYOUT_HIDDEN, LAYOUT_SUMMARY, LAYOUT_FULL } layout_state;

typedef struct layout_item {
    int min_h, pref_h, summary_h;
    int priority; /* 0 first */
    int stretch;  /* takes what is left over once every panel has its preferred height */
    int claims;   /* 1: may take the place of less important panels' summary lines to reach its
                   * minimum; 2: to reach claim_h too (at most its preferred height) */
    int claim_h;
} layout_item;

typedef struct layout_slot {
    int y, h;
    layout_state state;
} layout_slot;

/* Lays n items out top to bottom (in the order given) in [y, y + h), gap pixels apart: out[i]
 * gets each item's place and state. Returns the height used. */
int layout_column(const layout_item *items, int n, int y, int h, int gap, layout_slot *out);

#endif
