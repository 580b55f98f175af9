/* record: see record.h. */
#include "app/draw/record.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/json_internal.h"

enum { TABLE_MAX_BYTES = 32 << 20 };

char *dl_record_json(const dl_list *l)
{
    cJSON *root = cJSON_CreateObject(), *panels = cJSON_AddArrayToObject(root, "panels"), *items = cJSON_AddArrayToObject(root, "items");
    if (!items) { cJSON_Delete(root); return NULL; }
    for (int p = 0; p < l->npanels; p++) cJSON_AddItemToArray(panels, cJSON_CreateString(l->panels[p].name ? l->panels[p].name : ""));
    for (size_t i = 0; i < l->n; i++) {
        const dl_item *it = &l->items[i];
        char colour[12], *text = malloc(it->len + 1);
        if (!text) { cJSON_Delete(root); return NULL; }
        memcpy(text, l->text + it->text, it->len);
        text[it->len] = '\0';
        snprintf(colour, sizeof colour, "%02x%02x%02x%02x", it->c.r, it->c.g, it->c.b, it->c.a);
        const double nums[] = {it->kind, it->r.x, it->r.y, it->r.w, it->r.h, it->x2, it->y2, it->thick};
        cJSON *a = cJSON_CreateArray();
        for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) cJSON_AddItemToArray(a, cJSON_CreateNumber(nums[k]));
        cJSON_AddItemToArray(a, cJSON_CreateString(colour));
        cJSON_AddItemToArray(a, cJSON_CreateNumber(it->font));
        cJSON_AddItemToArray(a, cJSON_CreateNumber(it->px));
        cJSON_AddItemToArray(a, cJSON_CreateString(text));
        cJSON_AddItemToArray(a, cJSON_CreateNumber(it->panel));
        cJSON_AddItemToArray(a, cJSON_CreateNumber(it->hit));
        cJSON_AddItemToArray(items, a);
        free(text);
    }
    /* what each panel drew: its picture, whether it is the step's, its least text sizes (labels in
     * the UI font, values and code in the monospaced one; 0: none) and the verdict it says */
    cJSON *pics = cJSON_AddArrayToObject(root, "pictures");
    for (int p = 0; pics && p < l->npanels; p++) {
        const dl_panel *pp = &l->panels[p];
        int ui = 0, mono = 0;
        for (size_t i = 0; i < l->n; i++) {
            const dl_item *it = &l->items[i];
            if (it->panel != p || it->kind != DL_TEXT || !it->len) continue;
            int *least = it->font == DL_FONT_MONO ? &mono : &ui;
            if (!*least || it->px < *least) *least = it->px;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "panel", pp->name ? pp->name : "");
        cJSON_AddStringToObject(o, "picture", pp->kind ? pp->kind : pp->name ? pp->name : "");
        cJSON_AddBoolToObject(o, "stage", pp->stage);
        cJSON_AddNumberToObject(o, "x", pp->r.x);
        cJSON_AddNumberToObject(o, "y", pp->r.y);
        cJSON_AddNumberToObject(o, "w", pp->r.w);
        cJSON_AddNumberToObject(o, "h", pp->r.h);
        cJSON_AddNumberToObject(o, "label_px_min", ui);
        cJSON_AddNumberToObject(o, "value_px_min", mono);
        if (pp->name && !strcmp(pp->name, "verdict"))
            for (size_t i = 0; i < l->n; i++)
                if (l->items[i].panel == p && l->items[i].kind == DL_TEXT) {
                    char *text = malloc(l->items[i].len + 1);
                    if (!text) break;
                    memcpy(text, l->text + l->items[i].text, l->items[i].len);
                    text[l->items[i].len] = '\0';
                    cJSON_AddStringToObject(o, "verdict", text);
                    free(text);
                }
        cJSON_AddItemToArray(pics, o);
    }
    char *s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

/* ---- a table of metrics ---- */

typedef struct entry {
    uint64_t key; /* font, px, codepoint (height: codepoint UINT32_MAX) */
    int value;
} entry;

struct dl_table {
    entry *e;
    size_t n;
    size_t missing;
    char first_missing[64];
};

static uint64_t key_of(int font, int px, uint32_t cp) { return (uint64_t)(font & 0xff) << 56 | (uint64_t)(px & 0xffffff) << 32 | cp; }

static int cmp_entry(const void *a, const void *b)
{
    uint64_t x = ((const entry *)a)->key, y = ((const entry *)b)->key;
    return x < y ? -1 : x > y;
}

static int lookup(dl_table *t, int font, int px, uint32_t cp)
{
    entry want = {key_of(font, px, cp), 0};
    const entry *e = bsearch(&want, t->e, t->n, sizeof *t->e, cmp_entry);
    if (e) return e->value;
    /* missing: counted and said after the frame; meanwhile a size laying out can rely on (a
     * line's height of 0 would let a layout loop for ever) */
    int guess = cp == UINT32_MAX ? (px > 1 ? px : 1) : px / 2;
    if (!t->missing++) {
        if (cp == UINT32_MAX) snprintf(t->first_missing, sizeof t->first_missing, "the height of font %d at %d px", font, px);
        else snprintf(t->first_missing, sizeof t->first_missing, "U+%04X in font %d at %d px", (unsigned)cp, font, px);
    }
    return guess;
}

static int table_advance(void *ctx, dl_font f, int px, uint32_t cp) { return lookup(ctx, (int)f, px, cp); }
static int table_height(void *ctx, dl_font f, int px) { return lookup(ctx, (int)f, px, UINT32_MAX); }

dl_metrics dl_table_metrics(dl_table *t) { return (dl_metrics){t, table_advance, table_height}; }

size_t dl_table_missing(const dl_table *t, char *what, size_t len)
{
    snprintf(what, len, "%s", t->first_missing);
    return t->missing;
}

void dl_table_free(dl_table *t)
{
    if (!t) return;
    free(t->e);
    free(t);
}

/* one row of whole numbers, each within [0, max] */
static int row(const cJSON *r, int want, const double *max, long *out)
{
    if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) != want) return -1;
    int k = 0;
    for (const cJSON *x = r->child; x; x = x->next, k++) {
        if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0 && x->valuedouble <= max[k]) || x->valuedouble != (double)(long)x->valuedouble) return -1;
        out[k] = (long)x->valuedouble;
    }
    return 0;
}

dl_table *dl_table_read(const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    if (json_read_file(path, TABLE_MAX_BYTES, &text, &len, err, errlen)) return NULL;
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    dl_table *t = calloc(1, sizeof *t);
    const cJSON *adv = cJSON_GetObjectItemCaseSensitive(root, "advance"), *hgt = cJSON_GetObjectItemCaseSensitive(root, "height");
    if (!t || !cJSON_IsArray(adv) || !cJSON_IsArray(hgt)) {
        snprintf(err, errlen, "%s: %s", path, !t ? "out of memory" : "expected a metrics table: {\"advance\": [...], \"height\": [...]}");
        goto fail;
    }
    size_t n = (size_t)cJSON_GetArraySize(adv) + (size_t)cJSON_GetArraySize(hgt);
    t->e = malloc((n ? n : 1) * sizeof *t->e);
    if (!t->e) { snprintf(err, errlen, "out of memory"); goto fail; }
    static const double amax[] = {DL_FONT_COUNT - 1, 4096, 0x10FFFF, 1 << 16}, hmax[] = {DL_FONT_COUNT - 1, 4096, 1 << 16};
    size_t i = 0;
    for (const cJSON *r = adv->child; r; r = r->next, i++) {
        long v[4];
        if (row(r, 4, amax, v)) { snprintf(err, errlen, "%s: advance %zu: expected [font, px, codepoint, width] in range", path, i); goto fail; }
        t->e[t->n++] = (entry){key_of((int)v[0], (int)v[1], (uint32_t)v[2]), (int)v[3]};
    }
    i = 0;
    for (const cJSON *r = hgt->child; r; r = r->next, i++) {
        long v[3];
        if (row(r, 3, hmax, v)) { snprintf(err, errlen, "%s: height %zu: expected [font, px, height] in range", path, i); goto fail; }
        t->e[t->n++] = (entry){key_of((int)v[0], (int)v[1], UINT32_MAX), (int)v[2]};
    }
    qsort(t->e, t->n, sizeof *t->e, cmp_entry);
    cJSON_Delete(root);
    return t;
fail:
    cJSON_Delete(root);
    dl_table_free(t);
    return NULL;
}
