/* class_page: the teacher's page, /class?token=T (?lang=zh: in Chinese). A table of the class, a
 * row per student and a column per exercise: goals met, the first goal missed, how long since the
 * last try; it asks /api/class again every few seconds. A click on a cell opens that student's
 * last picture: the page at /?trace=URL, the URL being /api/class/last for that try. Students'
 * names are text (textContent), never markup. The words are one table, English and Chinese. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/serve/serve.h"

enum { W_TITLE, W_STUDENT, W_NONE, W_SOLVED, W_DIDNT_RUN, W_MISSED, W_AGO_S, W_AGO_M, W_AGO_H, W_UPDATED, W_FAILED, W_OPEN, W_LANG, W_COUNT };
static const char *const words[2][W_COUNT] = {
    {"The class", "student", "no student has tried an exercise yet", "solved", "did not run", "first missed: ", "s ago", "min ago",
     "h ago", "updated ", "the class could not be read: ", "open the last picture", "中文"},
    {"班级", "学生", "还没有学生尝试练习", "已完成", "没有运行", "第一个未达成：", "秒前", "分钟前", "小时前", "更新于 ",
     "无法读取班级：", "打开最后一次的画面", "English"},
};

static const char page_head[] =
    "<!doctype html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\n"
    "<title>%s</title>\n<style>\n"
    "body{font:16px system-ui,sans-serif;margin:1em;color:#111;background:#fff}"
    "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.3em .5em;text-align:left;vertical-align:top}"
    "td.cell{cursor:pointer}td.solved{background:#d8f0e4}td.missed{background:#fbe9d0}td.norun{background:#f6d6d6}"
    "small{color:#555}#status{margin:.5em 0;color:#555}\n"
    "@media (prefers-color-scheme:dark){body{color:#eee;background:#111}td.solved{background:#124}td.missed{background:#431}"
    "td.norun{background:#411}small,#status{color:#aaa}}\n"
    "</style></head><body>\n<h1>%s</h1><p><a id=\"lang\" href=\"#\">%s</a></p><p id=\"status\" role=\"status\" aria-live=\"polite\"></p>\n"
    "<table id=\"class\"></table>\n<script>\n";

static const char page_script[] =
    "const q = new URLSearchParams(location.search), token = q.get('token') || '', zh = q.get('lang') === 'zh';\n"
    "document.getElementById('lang').href = '/class?token=' + encodeURIComponent(token) + (zh ? '' : '&lang=zh');\n"
    "function ago(ms) { const s = Math.max(0, (Date.now() - ms) / 1000);\n"
    "  return s < 120 ? Math.round(s) + ' ' + W.agoS : s < 7200 ? Math.round(s / 60) + ' ' + W.agoM : Math.round(s / 3600) + ' ' + W.agoH; }\n"
    "function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }\n"
    "function draw(d) {\n"
    "  const t = document.getElementById('class'); t.replaceChildren();\n"
    "  if (!d.students.length) { document.getElementById('status').textContent = W.none; return; }\n"
    "  const used = d.exercises.filter((x) => d.students.some((s) => s.exercises.some((e) => e.exercise === x.id)));\n"
    "  const head = el('tr'); head.append(el('th', W.student)); for (const x of used) head.append(el('th', zh ? x.title.zh : x.title.en)); t.append(head);\n"
    "  for (const s of d.students) {\n"
    "    const tr = el('tr'); tr.append(el('th', s.name));\n"
    "    for (const x of used) {\n"
    "      const e = s.exercises.find((e) => e.exercise === x.id), td = el('td');\n"
    "      if (e) {\n"
    "        td.className = 'cell ' + (!e.ran ? 'norun' : e.solved ? 'solved' : 'missed');\n"
    "        td.append(el('b', e.met + '/' + e.goals + ' ' + (e.solved ? W.solved : !e.ran ? W.norun : '')));\n"
    "        if (e.first_missed) td.append(el('br'), el('span', W.missed + (zh ? e.first_missed.zh : e.first_missed.en)));\n"
    "        td.append(el('br'), el('small', ago(e.last_try_ms) + ' (' + e.tries + ')'));\n"
    "        td.title = W.open; td.tabIndex = 0;\n"
    "        const last = '/api/class/last?student=' + encodeURIComponent(s.name) + '&exercise=' + encodeURIComponent(e.exercise) + '&token=' + encodeURIComponent(token);\n"
    "        const open = () => window.open('/?trace=' + encodeURIComponent(last) + (zh ? '&lang=zh' : ''), '_blank');\n"
    "        td.addEventListener('click', open); td.addEventListener('keydown', (k) => { if (k.key === 'Enter') open(); });\n"
    "      }\n"
    "      tr.append(td);\n"
    "    }\n"
    "    t.append(tr);\n"
    "  }\n"
    "  document.getElementById('status').textContent = W.updated + new Date().toLocaleTimeString();\n"
    "}\n"
    "async function poll() {\n"
    "  try { const r = await fetch('/api/class', {headers: {Authorization: 'Bearer ' + token}});\n"
    "    const d = await r.json(); if (!r.ok) throw new Error(d.error ? d.error.message : r.status); draw(d); }\n"
    "  catch (e) { document.getElementById('status').textContent = W.failed + e.message; }\n"
    "  setTimeout(poll, 3000);\n"
    "}\n"
    "poll();\n</script></body></html>\n";

char *class_page_html(const char *token, int zh, size_t *len)
{
    (void)token; /* the page reads it from its own address, never from markup */
    const char *const *w = words[zh ? 1 : 0];
    char *head = NULL, *out = NULL;
    if (asprintf(&head, page_head, zh ? "zh" : "en", w[W_TITLE], w[W_TITLE], w[W_LANG]) < 0) return NULL;
    /* the words the script uses, as a JS object (the table holds no quote or backslash) */
    int n = asprintf(&out,
                     "%sconst W = {student: '%s', none: '%s', solved: '%s', norun: '%s', missed: '%s', agoS: '%s', agoM: '%s', agoH: '%s', "
                     "updated: '%s', failed: '%s', open: '%s'};\n%s",
                     head, w[W_STUDENT], w[W_NONE], w[W_SOLVED], w[W_DIDNT_RUN], w[W_MISSED], w[W_AGO_S], w[W_AGO_M], w[W_AGO_H],
                     w[W_UPDATED], w[W_FAILED], w[W_OPEN], page_script);
    free(head);
    if (n < 0) return NULL;
    *len = (size_t)n;
    return out;
}
