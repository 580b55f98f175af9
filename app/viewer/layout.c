/* layout: see layout.h. */
#include "app/viewer/layout.h"

enum { LAYOUT_MAX_ITEMS = 16 };

/* item indices in priority order (stable: equal priorities keep the display order) */
static void by_priority(const layout_item *items, int n, int *order)
{
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && items[order[j]].priority < items[order[j - 1]].priority; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

int layout_column(const layout_item *items, int n, int y, int h, int gap, layout_slot *out)
{
    if (n > LAYOUT_MAX_ITEMS) n = LAYOUT_MAX_ITEMS;
    int order[LAYOUT_MAX_ITEMS], size[LAYOUT_MAX_ITEMS];
    by_priority(items, n, order);
    int shown = 0, used = 0;
    /* every item as its summary line, the least important left out while even that is too much */
    for (int i = 0; i < n; i++) {
        out[i].state = LAYOUT_SUMMARY;
        size[i] = items[i].summary_h;
        used += size[i];
        shown++;
    }
    used += (shown > 0 ? shown - 1 : 0) * gap;
    for (int k = n - 1; k >= 0 && used > h; k--) {
        int i = order[k];
        out[i].state = LAYOUT_HIDDEN;
        used -= size[i] + (shown > 1 ? gap : 0);
        size[i] = 0;
        shown--;
    }
    /* the items that claim room (the step's picture, the source) reach their minimum first, if need
     * be in place of the summary lines of less important items (the least first); then the others
     * reach theirs, by priority */
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (out[i].state != LAYOUT_SUMMARY || items[i].min_h <= 0 || (items[i].claims ? 0 : 1) != round) continue;
            int more = items[i].min_h - size[i], freed = 0, last = n;
            for (int j = n - 1; items[i].claims && j > k && used + more - freed > h; j--)
                if (out[order[j]].state == LAYOUT_SUMMARY) { freed += size[order[j]] + gap; last = j; }
            if (used + more - freed > h) continue;
            for (int j = last; freed && j < n; j++)
                if (out[order[j]].state == LAYOUT_SUMMARY) { out[order[j]].state = LAYOUT_HIDDEN; size[order[j]] = 0; }
            used += more - freed;
            out[i].state = LAYOUT_FULL;
            size[i] = items[i].min_h;
        }
    /* the step's picture grows to its share of the window (claim_h), in place of less important
     * summary lines if need be; then every panel grows toward its preferred height, by priority */
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (out[i].state != LAYOUT_FULL || items[i].pref_h <= size[i]) continue;
            int goal = items[i].pref_h;
            if (round == 0) {
                if (items[i].claims < 2) continue;
                if (items[i].claim_h < goal) goal = items[i].claim_h;
                /* less important panels give way: to their summary line first, then out */
                for (int j = n - 1; j > k && used + goal - size[i] > h; j--) {
                    int q = order[j];
                    if (out[q].state == LAYOUT_FULL && !items[q].claims) {
                        used -= size[q] - items[q].summary_h;
                        size[q] = items[q].summary_h;
                        out[q].state = LAYOUT_SUMMARY;
                    }
                }
                for (int j = n - 1; j > k && used + goal - size[i] > h; j--)
                    if (out[order[j]].state == LAYOUT_SUMMARY) {
                        used -= size[order[j]] + gap;
                        out[order[j]].state = LAYOUT_HIDDEN;
                        size[order[j]] = 0;
                    }
            }
            int more = goal - size[i];
            if (more > h - used) more = h - used;
            if (more <= 0) continue;
            size[i] += more;
            used += more;
        }
    /* what is left goes to the most important item that stretches */
    for (int k = 0; k < n && used < h; k++) {
        int i = order[k];
        if (out[i].state == LAYOUT_FULL && items[i].stretch) {
            size[i] += h - used;
            used = h;
        }
    }
    int at = y;
    for (int i = 0; i < n; i++) {
        out[i].y = at;
        out[i].h = size[i];
        if (out[i].state != LAYOUT_HIDDEN) at += size[i] + gap;
    }
    return used;
}
