/* wrap: a paragraph broken into lines that fit a width, for the window and the page alike (both
 * measure with the list's metrics).
 *
 * Lines break at spaces, and between two characters where either is Chinese (which needs no space
 * to break), by the line-start and line-end rules of the W3C's "Requirements for Chinese Text
 * Layout" (CLREQ, 3.1.7): no line starts with a closing or pause mark (。，、；：？！）」』】》…
 * and their ASCII kin), and no line ends with an opening one (（「『【《 ...). Where a line holds
 * no break, it is cut between characters, except before a mark that may not start a line: that
 * mark stays at the line's end, past the width (CLREQ's hanging punctuation). '\n' is a hard
 * break; the spaces at a break are dropped. */
#ifndef WARPSCOPE_WRAP_H
#define WARPSCOPE_WRAP_H

#include <stddef.h>
#include <stdint.h>

#include "app/draw/draw.h"

/* Lines of text that fit width pixels in font f at px: line i is [starts[i], starts[i] + lens[i]).
 * Returns the number of lines (at most max). */
int dl_wrap(const dl_list *l, dl_font f, int px, const char *text, int width, const char **starts, size_t *lens, int max);

/* 1 when a line may not start with code point cp (a closing or pause mark), 0 when it may */
int dl_wrap_no_line_start(uint32_t cp);
/* 1 when a line may not end with code point cp (an opening mark) */
int dl_wrap_no_line_end(uint32_t cp);

#endif
