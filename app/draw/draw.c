/* draw: see draw.h. */
#include "app/draw/draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dl_init(dl_list *l, dl_metrics m)
{
    memset(l, 0, sizeof *l);
    l->m = m;
    l->panel = -1;
}

void dl_free(dl_list *l)
{
    free(l->items);
    free(l->text);
    dl_metrics m = l->m;
    dl_init(l, m);
}

void dl_reset(dl_list *l)
{
    l->n = l->tn = 0;
    l->npanels = 0;
    l->panel = -1;
    l->failed = 0;
}

dl_mark dl_save(const dl_list *l) { return (dl_mark){l->n, l->tn, l->npanels, l->panel}; }

void dl_restore(dl_list *l, dl_mark m)
{
    if (m.n <= l->n) l->n = m.n;
    if (m.tn <= l->tn) l->tn = m.tn;
    if (m.npanels <= l->npanels) l->npanels = m.npanels;
    l->panel = m.panel;
}

static dl_item *push(dl_list *l, dl_kind k)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        dl_item *p = realloc(l->items, cap * sizeof *p);
        if (!p) { l->failed = 1; return NULL; }
        l->items = p;
        l->cap = cap;
    }
    dl_item *it = &l->items[l->n++];
    memset(it, 0, sizeof *it);
    it->kind = k;
    it->panel = l->panel;
    it->thick = 1;
    return it;
}

int dl_panel_begin(dl_list *l, const char *name, dl_rect r)
{
    if (!name || l->npanels == DL_MAX_PANELS) { l->panel = -1; return -1; }
    l->panels[l->npanels] = (dl_panel){r, name, NULL, 0};
    l->panel = l->npanels++;
    return l->panel;
}

void dl_panel_mark(dl_list *l, int panel, const char *kind, int stage)
{
    if (panel < 0 || panel >= l->npanels) return;
    if (kind) l->panels[panel].kind = kind;
    l->panels[panel].stage = stage;
}

/* a fill or an outline: nothing for an empty rectangle */
static dl_item *push_rect(dl_list *l, dl_kind k, dl_rect r, dl_colour c)
{
    if (r.w <= 0 || r.h <= 0) return NULL;
    dl_item *it = push(l, k);
    if (!it) return NULL;
    it->r = r;
    it->c = c;
    return it;
}

void dl_fill_hit(dl_list *l, dl_rect r, dl_colour c, uint32_t hit)
{
    dl_item *it = push_rect(l, DL_FILL, r, c);
    if (it) it->hit = hit;
}

void dl_fill(dl_list *l, dl_rect r, dl_colour c) { dl_fill_hit(l, r, c, 0); }

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

void dl_fill_gaps(dl_list *l, size_t at)
{
    if (at >= l->n || l->items[at].kind != DL_FILL || l->items[at].c.a != 255 || l->failed) return;
    const dl_item bg = l->items[at];
    dl_rect cover[DL_MAX_PANELS];
    int ncover = 0, ys[2 * DL_MAX_PANELS + 2], ny = 0;
    /* the panels that paint their whole rectangle opaque, after the background */
    for (int p = 0; p < l->npanels; p++) {
        dl_rect r = l->panels[p].r;
        for (size_t i = at + 1; i < l->n; i++) {
            const dl_item *it = &l->items[i];
            if (it->kind == DL_FILL && it->c.a == 255 && it->r.x == r.x && it->r.y == r.y && it->r.w == r.w && it->r.h == r.h) {
                cover[ncover++] = r;
                ys[ny++] = r.y < bg.r.y ? bg.r.y : r.y;
                ys[ny++] = r.y + r.h > bg.r.y + bg.r.h ? bg.r.y + bg.r.h : r.y + r.h;
                break;
            }
        }
    }
    if (!ncover) return;
    ys[ny++] = bg.r.y;
    ys[ny++] = bg.r.y + bg.r.h;
    qsort(ys, (size_t)ny, sizeof *ys, cmp_int);
    /* band by band, the stretches of the background no covering panel spans */
    dl_item gaps[4 * DL_MAX_PANELS + 8];
    size_t ngaps = 0, overflow = 0;
    for (int b = 0; b + 1 < ny; b++) {
        int y0 = ys[b], y1 = ys[b + 1];
        if (y0 >= y1 || y0 < bg.r.y || y1 > bg.r.y + bg.r.h) continue;
        int xs[2 * DL_MAX_PANELS], nx = 0;
        for (int k = 0; k < ncover; k++)
            if (cover[k].y <= y0 && cover[k].y + cover[k].h >= y1) {
                xs[nx++] = cover[k].x;
                xs[nx++] = cover[k].x + cover[k].w;
            }
        /* the covered intervals, left to right (a simple sort of pairs by their start) */
        for (int i = 2; i < nx; i += 2)
            for (int j = i; j >= 2 && xs[j - 2] > xs[j]; j -= 2) {
                int a0 = xs[j - 2], a1 = xs[j - 1];
                xs[j - 2] = xs[j];
                xs[j - 1] = xs[j + 1];
                xs[j] = a0;
                xs[j + 1] = a1;
            }
        int x = bg.r.x, end = bg.r.x + bg.r.w;
        for (int i = 0; i <= nx; i += 2) {
            int stop = i < nx ? xs[i] : end;
            if (stop > end) stop = end;
            if (stop > x) {
                if (ngaps < sizeof gaps / sizeof gaps[0]) {
                    gaps[ngaps] = bg;
                    gaps[ngaps++].r = (dl_rect){x, y0, stop - x, y1 - y0};
                } else {
                    overflow = 1;
                }
            }
            if (i < nx && xs[i + 1] > x) x = xs[i + 1];
        }
    }
    if (overflow) return; /* the background as it was */
    /* item `at` becomes the first gap; the others follow it */
    if (!ngaps) {
        memmove(&l->items[at], &l->items[at + 1], (l->n - at - 1) * sizeof *l->items);
        l->n--;
        return;
    }
    size_t more = ngaps - 1;
    if (l->n + more > l->cap) {
        size_t cap = l->cap;
        while (cap < l->n + more) cap *= 2;
        dl_item *p = realloc(l->items, cap * sizeof *p);
        if (!p) return; /* the background as it was */
        l->items = p;
        l->cap = cap;
    }
    memmove(&l->items[at + ngaps], &l->items[at + 1], (l->n - at - 1) * sizeof *l->items);
    memcpy(&l->items[at], gaps, ngaps * sizeof *gaps);
    l->n += more;
}

void dl_outline(dl_list *l, dl_rect r, dl_colour c, int thick)
{
    dl_item *it = push_rect(l, DL_RECT, r, c);
    if (it) it->thick = thick;
}

static void segment(dl_list *l, dl_kind k, int x1, int y1, int x2, int y2, dl_colour c, int thick)
{
    dl_item *it = push(l, k);
    if (!it) return;
    it->r = (dl_rect){x1, y1, 0, 0};
    it->x2 = x2;
    it->y2 = y2;
    it->c = c;
    it->thick = thick;
}

void dl_line(dl_list *l, int x1, int y1, int x2, int y2, dl_colour c, int thick) { segment(l, DL_LINE, x1, y1, x2, y2, c, thick); }
void dl_arrow(dl_list *l, int x1, int y1, int x2, int y2, dl_colour c, int thick) { segment(l, DL_ARROW, x1, y1, x2, y2, c, thick); }


void dl_clip(dl_list *l, dl_rect r)
{
    dl_item *it = push(l, DL_CLIP);
    if (it) it->r = r;
}

void dl_unclip(dl_list *l) { push(l, DL_UNCLIP); }

uint32_t dl_utf8_next(const char **sp)
{
    const unsigned char *s = (const unsigned char *)*sp;
    uint32_t c = s[0];
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) { *sp += 1; return 0xFFFD; }
    if (n == 0) { *sp += 1; return c; }
    uint32_t cp = c & (0x3Fu >> n);
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) { *sp += 1; return 0xFFFD; }
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    *sp += n + 1;
    return cp;
}

int dl_text_width(const dl_list *l, dl_font f, int px, const char *s)
{
    int w = 0;
    while (*s) w += l->m.advance(l->m.ctx, f, px, dl_utf8_next(&s));
    return w;
}

int dl_text_height(const dl_list *l, dl_font f, int px) { return l->m.height(l->m.ctx, f, px); }

static uint32_t keep_text(dl_list *l, const char *s, size_t len)
{
    if (l->tn + len > l->tcap) {
        size_t cap = l->tcap ? l->tcap : 16384;
        while (cap < l->tn + len) cap *= 2;
        char *p = realloc(l->text, cap);
        if (!p) { l->failed = 1; return UINT32_MAX; }
        l->text = p;
        l->tcap = cap;
    }
    memcpy(l->text + l->tn, s, len);
    uint32_t at = (uint32_t)l->tn;
    l->tn += len;
    return at;
}

static const char ellipsis[] = "\xE2\x80\xA6"; /* U+2026 */

int dl_text(dl_list *l, dl_rect box, dl_font f, int px, dl_align a, dl_colour c, const char *s)
{
    int h = dl_text_height(l, f, px);
    /* text stays inside its panel: cut to the panel's width, left out below or above it */
    if (l->panel >= 0) {
        dl_rect pr = l->panels[l->panel].r;
        if (box.y < pr.y || box.y + h > pr.y + pr.h) return 0;
        if (box.x < pr.x) { box.w -= pr.x - box.x; box.x = pr.x; }
        if (box.x + box.w > pr.x + pr.w) box.w = pr.x + pr.w - box.x;
    }
    if (box.h < h || box.w <= 0 || !s || !*s) return 0;
    size_t len = strlen(s);
    int w = dl_text_width(l, f, px, s);
    char buf[1024];
    if (w > box.w) { /* keep whole code points while they and the ellipsis fit */
        int ew = dl_text_width(l, f, px, ellipsis), acc = 0;
        const char *p = s, *cut = s;
        while (*p) {
            const char *q = p;
            int cw = l->m.advance(l->m.ctx, f, px, dl_utf8_next(&q));
            if (acc + cw + ew > box.w) break;
            acc += cw;
            p = q;
            cut = p;
        }
        size_t keep = (size_t)(cut - s);
        if (keep + sizeof ellipsis > sizeof buf) keep = sizeof buf - sizeof ellipsis;
        if (acc + ew > box.w) return 0; /* not even the ellipsis fits */
        memcpy(buf, s, keep);
        memcpy(buf + keep, ellipsis, sizeof ellipsis);
        s = buf;
        len = keep + sizeof ellipsis - 1;
        w = acc + ew;
    }
    int x = a == DL_LEFT ? box.x : a == DL_CENTRE ? box.x + (box.w - w) / 2 : box.x + box.w - w;
    uint32_t at = keep_text(l, s, len);
    if (at == UINT32_MAX) return 0;
    dl_item *it = push(l, DL_TEXT);
    if (!it) return 0;
    it->r = (dl_rect){x, box.y, w, h};
    it->c = c;
    it->font = f;
    it->px = px;
    it->text = at;
    it->len = (uint32_t)len;
    return w;
}

int dl_textf(dl_list *l, dl_rect box, dl_font f, int px, dl_align a, dl_colour c, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return dl_text(l, box, f, px, a, c, buf);
}

const char *dl_item_text(const dl_list *l, const dl_item *it) { return l->text + it->text; }

int dl_rect_has(dl_rect r, int x, int y) { return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h; }

const dl_item *dl_hit_item(const dl_list *l, int x, int y)
{
    for (size_t i = l->n; i-- > 0;)
        if (l->items[i].hit && dl_rect_has(l->items[i].r, x, y)) return &l->items[i];
    return NULL;
}

uint32_t dl_hit(const dl_list *l, int x, int y)
{
    const dl_item *it = dl_hit_item(l, x, y);
    return it ? it->hit : 0;
}

int dl_rect_inside(dl_rect o, dl_rect i)
{
    return i.x >= o.x && i.y >= o.y && i.x + i.w <= o.x + o.w && i.y + i.h <= o.y + o.h;
}

int dl_rect_overlap(dl_rect a, dl_rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* ---- damage ---- */

dl_rect dl_item_extent(const dl_item *it)
{
    switch (it->kind) {
    case DL_LINE:
    case DL_ARROW: { /* the endpoints, the thickness, an arrow's head (render_sdl.c: 4 + 2 thick long) */
        int m = it->thick + 1 + (it->kind == DL_ARROW ? 4 + 2 * it->thick : 0);
        int x0 = it->r.x < it->x2 ? it->r.x : it->x2, x1 = it->r.x < it->x2 ? it->x2 : it->r.x;
        int y0 = it->r.y < it->y2 ? it->r.y : it->y2, y1 = it->r.y < it->y2 ? it->y2 : it->r.y;
        return (dl_rect){x0 - m, y0 - m, x1 - x0 + 2 * m + 1, y1 - y0 + 2 * m + 1};
    }
    case DL_CLIP:
    case DL_UNCLIP: return (dl_rect){0, 0, 0, 0};
    case DL_TEXT: { /* a glyph's ink may reach past its advance (1 to 2 px in the fonts used) */
        int m = it->px / 8 + 2;
        return (dl_rect){it->r.x - m, it->r.y, it->r.w + 2 * m, it->r.h};
    }
    default: return it->r;
    }
}

static dl_rect rect_union(dl_rect a, dl_rect b)
{
    if (a.w <= 0 || a.h <= 0) return b;
    if (b.w <= 0 || b.h <= 0) return a;
    int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
    int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w, y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
    return (dl_rect){x0, y0, x1 - x0, y1 - y0};
}

/* FNV-1a over what decides an item's pixels (not its hit code) */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_item(uint64_t h, const dl_list *l, const dl_item *it)
{
    const int v[] = {(int)it->kind, it->r.x, it->r.y, it->r.w, it->r.h, it->x2, it->y2, it->thick, (int)it->font, it->px};
    h = hash_bytes(h, v, sizeof v);
    h = hash_bytes(h, &it->c, sizeof it->c);
    return it->kind == DL_TEXT ? hash_bytes(h, l->text + it->text, it->len) : h;
}

void dl_summarise(const dl_list *l, dl_summary *s)
{
    s->npanels = l->npanels;
    s->failed = l->failed;
    memcpy(s->panels, l->panels, (size_t)l->npanels * sizeof *l->panels);
    for (int p = 0; p <= l->npanels; p++) s->hash[p] = 0xcbf29ce484222325ull, s->ext[p] = (dl_rect){0, 0, 0, 0};
    for (size_t i = 0; i < l->n; i++) { /* index npanels: outside every panel */
        const dl_item *it = &l->items[i];
        int p = it->panel >= 0 && it->panel < l->npanels ? it->panel : l->npanels;
        s->hash[p] = hash_item(s->hash[p], l, it);
        s->ext[p] = rect_union(s->ext[p], dl_item_extent(it));
    }
}

int dl_damage(const dl_summary *prev, const dl_summary *cur, dl_rect *out, int max)
{
    if (prev->failed || cur->failed || prev->npanels != cur->npanels || prev->hash[cur->npanels] != cur->hash[cur->npanels]) return -1;
    for (int p = 0; p < cur->npanels; p++) {
        const dl_panel *a = &prev->panels[p], *b = &cur->panels[p];
        if (memcmp(&a->r, &b->r, sizeof a->r) || strcmp(a->name ? a->name : "", b->name ? b->name : "")) return -1;
    }
    int n = 0;
    for (int p = 0; p < cur->npanels; p++) {
        if (prev->hash[p] == cur->hash[p]) continue;
        dl_rect r = rect_union(prev->ext[p], cur->ext[p]);
        if (r.w <= 0 || r.h <= 0) continue;
        /* merged with every region it meets, until none meets another */
        for (int k = 0; k < n;) {
            if (dl_rect_overlap(out[k], r)) {
                r = rect_union(r, out[k]);
                out[k] = out[--n];
                k = 0;
            } else {
                k++;
            }
        }
        if (n == max) return -1;
        out[n++] = r;
    }
    return n;
}
