/* wrap: see wrap.h for the rules. */
#include "app/draw/wrap.h"

/* CLREQ 3.1.7: marks that may not start a line (closing brackets and quotes, pause and stop marks,
 * the ellipsis and the connector marks), in their full-width forms and their ASCII kin */
static const uint32_t no_start[] = {
    0x3002 /* 。 */, 0xFF0C /* ， */, 0x3001 /* 、 */, 0xFF1B /* ； */, 0xFF1A /* ： */, 0xFF1F /* ？ */,
    0xFF01 /* ！ */, 0xFF0E /* ． */, 0xFF09 /* ） */, 0x300D /* 」 */, 0x300F /* 』 */, 0x3011 /* 】 */,
    0x3015 /* 〕 */, 0x3017 /* 〗 */, 0x3009 /* 〉 */, 0x300B /* 》 */, 0xFF3D /* ］ */, 0xFF5D /* ｝ */,
    0x2019 /* ’ */, 0x201D /* ” */, 0x2026 /* … */, 0x2025 /* ‥ */, 0x00B7 /* · */, 0x30FB /* ・ */,
    0x2014 /* — */, 0xFF5E /* ～ */, 0x3005 /* 々 */, 0x30FC /* ー */, 0xFF05 /* ％ */,
    ')', ']', '}', ',', '.', ';', ':', '!', '?', '%'};

/* marks that may not end a line: opening brackets and quotes */
static const uint32_t no_end[] = {
    0xFF08 /* （ */, 0x300C /* 「 */, 0x300E /* 『 */, 0x3010 /* 【 */, 0x3014 /* 〔 */, 0x3016 /* 〖 */,
    0x3008 /* 〈 */, 0x300A /* 《 */, 0xFF3B /* ［ */, 0xFF5B /* ｛ */, 0x2018 /* ‘ */, 0x201C /* “ */,
    '(', '[', '{'};

static int in(const uint32_t *set, size_t n, uint32_t cp)
{
    for (size_t i = 0; i < n; i++)
        if (set[i] == cp) return 1;
    return 0;
}

int dl_wrap_no_line_start(uint32_t cp) { return in(no_start, sizeof no_start / sizeof no_start[0], cp); }
int dl_wrap_no_line_end(uint32_t cp) { return in(no_end, sizeof no_end / sizeof no_end[0], cp); }

/* Chinese characters and their punctuation, which break without a space (CJK radicals onwards,
 * and the full-width forms) */
static int is_cjk(uint32_t cp) { return cp >= 0x2E80; }

/* May a line break between a and b (neither a space)? */
static int breakable(uint32_t a, uint32_t b)
{
    if (!is_cjk(a) && !is_cjk(b)) return 0;
    if (a == 0x2014 && b == 0x2014) return 0; /* the dash is two em dashes, never split */
    if (a == 0x2026 && b == 0x2026) return 0; /* the ellipsis likewise */
    return !dl_wrap_no_line_start(b) && !dl_wrap_no_line_end(a);
}

int dl_wrap(const dl_list *l, dl_font f, int px, const char *text, int width, const char **starts, size_t *lens, int max)
{
    int n = 0;
    const char *p = text;
    while (*p && n < max) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *line = p, *brk = NULL, *q = p;
        uint32_t prev = 0;
        int w = 0;
        while (*q && *q != '\n') {
            const char *before = q;
            uint32_t cp = dl_utf8_next(&q);
            int cw = l->m.advance(l->m.ctx, f, px, cp);
            if (before > line && cp != ' ' && prev != ' ' && breakable(prev, cp)) brk = before;
            if (cp == ' ' && before > line) brk = before;
            if (w + cw > width && before > line && cp != ' ') {
                /* no break in the line: cut here, unless this mark may not start a line (it hangs) */
                if (!brk || brk == line) {
                    if (dl_wrap_no_line_start(cp)) { w += cw; prev = cp; continue; }
                    brk = before;
                }
                q = before;
                break;
            }
            w += cw;
            prev = cp;
        }
        const char *end = *q && *q != '\n' && brk ? brk : q;
        /* a line of spaces only past the width ends at them */
        starts[n] = line;
        lens[n] = (size_t)(end - line);
        while (lens[n] > 0 && line[lens[n] - 1] == ' ') lens[n]--;
        n++;
        p = end;
        if (*p == '\n') p++;
    }
    return n;
}
