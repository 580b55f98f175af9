/* record: the draw list as data, for comparing two executors' lists. A list is written as JSON
 * (one array per item), and the text widths of a list can come from a table instead of fonts: the
 * widths the page's browser measured, so that the desktop lays its text out as the page did and
 * the two lists built for one step can be compared item by item. */
#ifndef WARPSCOPE_RECORD_H
#define WARPSCOPE_RECORD_H

#include <stddef.h>

#include "app/draw/draw.h"

/* {"panels": [names], "items": [[kind, x, y, w, h, x2, y2, thick, "rrggbbaa", font, px, text,
 * panel, hit], ...], "pictures": [{"panel", "picture" (what it draws: tree, loads, shuffles,
 * tickets, lanes, banks, result, ...), "stage" (the step's picture), "x", "y", "w", "h",
 * "label_px_min", "value_px_min" (its least UI and monospaced text, 0: none), "verdict" (the verdict
 * panel's text)}, ...]}; malloc'd, NULL when out of memory. */
char *dl_record_json(const dl_list *l);

/* A table of metrics as the page records them: {"advance": [[font, px, codepoint, width], ...],
 * "height": [[font, px, height], ...]}. */
typedef struct dl_table dl_table;
dl_table *dl_table_read(const char *path, char *err, size_t errlen);
void dl_table_free(dl_table *t);
dl_metrics dl_table_metrics(dl_table *t);
/* How many lookups found nothing in the table (a glyph the page never measured), and the first. */
size_t dl_table_missing(const dl_table *t, char *what, size_t len);

#endif
