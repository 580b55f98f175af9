/* class_page: the teacher's page, /class (?lang=zh: in Chinese). Signed out, a form: the token typed
 * once and sent in a POST's body (/api/class/signin), which answers with a cookie; the token is never
 * in an address the page shows or copies. Signed in: the class (its join code, its state; open a new
 * one with a code or a roster, close or archive it), then a table, a row per student and a column per
 * exercise: goals met, the first goal missed, how long since the last try; it asks /api/class again
 * every few seconds. A click on a cell shows that student's name and source beside the picture of
 * the try (the page at /?trace=/api/class/last..., in a frame), and a button removes the student's
 * tries. Students' names and sources are text (textContent), never markup. The words are one table,
 * English and Chinese. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/serve/serve.h"

enum {
    W_TITLE, W_STUDENT, W_NONE, W_SOLVED, W_DIDNT_RUN, W_MISSED, W_AGO_S, W_AGO_M, W_AGO_H, W_UPDATED, W_FAILED, W_OPEN, W_LANG,
    W_SIGNIN, W_TOKEN, W_CODE, W_ANYONE, W_STATE, W_NEWCLASS, W_ROSTER, W_CLOSE, W_ARCHIVE, W_REMOVE, W_REMOVED, W_SOURCE, W_COUNT
};
static const char *const words[2][W_COUNT] = {
    {"The class", "student", "no student has tried an exercise yet", "solved", "did not run", "first missed: ", "s ago", "min ago",
     "h ago", "updated ", "the class could not be read: ", "show the source and the picture", "中文", "Sign in", "The class's token",
     "join code: ", "none (anyone who reaches the server joins with a name)", "state: ", "Open a new class",
     "roster (a name a line; empty: any name)", "Close", "Archive", "Remove this student's tries", "removed tries: ", "source"},
    {"班级", "学生", "还没有学生尝试练习", "已完成", "没有运行", "第一个未达成：", "秒前", "分钟前", "小时前", "更新于 ",
     "无法读取班级：", "显示源代码和画面", "English", "登录", "班级的令牌", "加入码：", "无（能访问服务器的人用名字加入）", "状态：",
     "开一个新班级", "名单（每行一个名字；空：任何名字）", "关闭", "归档", "删除这个学生的尝试", "已删除的尝试：", "源代码"},
};

static const char page_head[] =
    "<!doctype html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\n"
    "<title>%s</title>\n<style>\n"
    "body{font:16px system-ui,sans-serif;margin:1em;color:#111;background:#fff}"
    "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.3em .5em;text-align:left;vertical-align:top}"
    "td.cell{cursor:pointer}td.solved{background:#d8f0e4}td.missed{background:#fbe9d0}td.norun{background:#f6d6d6}"
    "small{color:#555}#status{margin:.5em 0;color:#555}#try{display:flex;gap:1em;margin-top:1em}#try pre{flex:1;overflow:auto;max-height:80vh;"
    "border:1px solid #bbb;padding:.5em;margin:0}#try iframe{flex:2;height:80vh;border:1px solid #bbb}\n"
    "@media (prefers-color-scheme:dark){body{color:#eee;background:#111}td.solved{background:#124}td.missed{background:#431}"
    "td.norun{background:#411}small,#status{color:#aaa}}\n"
    "</style></head><body>\n<h1>%s</h1><p><a id=\"lang\" href=\"#\">%s</a></p>\n";

static const char signin_body[] =
    "<form id=\"signin\"><label>%s <input id=\"token\" type=\"password\" autocomplete=\"current-password\" required></label>"
    " <button>%s</button></form><p id=\"status\" role=\"status\" aria-live=\"polite\"></p>\n<script>\n"
    "const zh = new URLSearchParams(location.search).get('lang') === 'zh';\n"
    "document.getElementById('lang').href = zh ? '/class' : '/class?lang=zh';\n"
    "document.getElementById('signin').addEventListener('submit', async (e) => { e.preventDefault();\n"
    "  const r = await fetch('/api/class/signin', {method: 'POST', headers: {'Content-Type': 'application/json'},\n"
    "    body: JSON.stringify({token: document.getElementById('token').value})});\n"
    "  if (r.ok) location.reload(); else { const d = await r.json().catch(() => ({}));\n"
    "    document.getElementById('status').textContent = d.error ? d.error.message : r.status; } });\n"
    "</script></body></html>\n";

static const char class_body[] =
    "<p id=\"info\"></p><p><button id=\"close\"></button> <button id=\"archive\"></button></p>\n"
    "<details><summary id=\"newclass\"></summary><p><label><span id=\"codelabel\"></span> <input id=\"code\" size=\"12\"></label></p>"
    "<p><label><span id=\"rosterlabel\"></span><br><textarea id=\"roster\" rows=\"6\" cols=\"40\"></textarea></label></p>"
    "<p><button id=\"open\"></button></p></details>\n"
    "<p id=\"status\" role=\"status\" aria-live=\"polite\"></p>\n<table id=\"class\"></table>\n<div id=\"try\" hidden><pre id=\"source\"></pre>"
    "<iframe id=\"picture\" title=\"picture\"></iframe></div><p id=\"trybar\" hidden><b id=\"tryname\"></b> <button id=\"remove\"></button></p>\n"
    "<script>\n";

static const char page_script[] =
    "const $ = (id) => document.getElementById(id), zh = new URLSearchParams(location.search).get('lang') === 'zh';\n"
    "$('lang').href = zh ? '/class' : '/class?lang=zh';\n"
    "$('close').textContent = W.close; $('archive').textContent = W.archive; $('newclass').textContent = W.newclass; $('open').textContent = W.newclass;\n"
    "$('codelabel').textContent = W.code; $('rosterlabel').textContent = W.roster; $('remove').textContent = W.remove;\n"
    "let cls = null, shown = null;\n"
    "async function post(path, body) { const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});\n"
    "  const d = await r.json().catch(() => ({})); if (!r.ok) throw new Error(d.error ? d.error.message : r.status); return d; }\n"
    "function ago(ms) { const s = Math.max(0, (Date.now() - ms) / 1000);\n"
    "  return s < 120 ? Math.round(s) + ' ' + W.agoS : s < 7200 ? Math.round(s / 60) + ' ' + W.agoM : Math.round(s / 3600) + ' ' + W.agoH; }\n"
    "function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }\n"
    "async function show(name, ex) {\n"
    "  shown = {name, ex}; const a = 'student=' + encodeURIComponent(name) + '&exercise=' + encodeURIComponent(ex) + (cls ? '&class=' + cls.id : '');\n"
    "  $('tryname').textContent = name + ' · ' + ex; $('trybar').hidden = false; $('try').hidden = false; $('source').textContent = '';\n"
    "  try { const r = await fetch('/api/class/source?' + a); const d = await r.json(); $('source').textContent = r.ok ? d.source : d.error.message; }\n"
    "  catch (e) { $('source').textContent = e.message; }\n"
    "  $('picture').src = '/?trace=' + encodeURIComponent('/api/class/last?' + a) + (zh ? '&lang=zh' : '');\n"
    "}\n"
    "function draw(d) {\n"
    "  cls = d.class; $('info').textContent = cls ? W.code + (cls.code || W.anyone) + ' · ' + W.state + cls.state : '';\n"
    "  const t = $('class'); t.replaceChildren();\n"
    "  if (!d.students.length) { $('status').textContent = W.none; return; }\n"
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
    "        const open = () => show(s.name, e.exercise);\n"
    "        td.addEventListener('click', open); td.addEventListener('keydown', (k) => { if (k.key === 'Enter') open(); });\n"
    "      }\n"
    "      tr.append(td);\n"
    "    }\n"
    "    t.append(tr);\n"
    "  }\n"
    "  $('status').textContent = W.updated + new Date().toLocaleTimeString();\n"
    "}\n"
    "async function poll() {\n"
    "  try { const r = await fetch('/api/class'); const d = await r.json(); if (!r.ok) throw new Error(d.error ? d.error.message : r.status); draw(d); }\n"
    "  catch (e) { $('status').textContent = W.failed + e.message; }\n"
    "  setTimeout(poll, 3000);\n"
    "}\n"
    "const act = (f) => async () => { try { await f(); } catch (e) { $('status').textContent = e.message; } };\n"
    "$('close').addEventListener('click', act(() => cls && post('/api/class/state', {class: cls.id, state: 'closed'})));\n"
    "$('archive').addEventListener('click', act(() => cls && post('/api/class/state', {class: cls.id, state: 'archived'})));\n"
    "$('open').addEventListener('click', act(async () => { const roster = $('roster').value.split('\\n').map((n) => n.trim()).filter((n) => n);\n"
    "  const code = $('code').value.trim(); await post('/api/class/open', code ? {code, roster} : {roster}); }));\n"
    "$('remove').addEventListener('click', act(async () => { if (!shown) return;\n"
    "  const d = await post('/api/class/remove', {class: cls ? cls.id : undefined, student: shown.name});\n"
    "  $('status').textContent = W.removed + d.removed; $('try').hidden = true; $('trybar').hidden = true; }));\n"
    "poll();\n</script></body></html>\n";

char *class_page_html(int signed_in, int zh, size_t *len)
{
    const char *const *w = words[zh ? 1 : 0];
    char *head = NULL, *out = NULL;
    if (asprintf(&head, page_head, zh ? "zh" : "en", w[W_TITLE], w[W_TITLE], w[W_LANG]) < 0) return NULL;
    int n;
    if (!signed_in) {
        char *form = NULL;
        if (asprintf(&form, signin_body, w[W_TOKEN], w[W_SIGNIN]) < 0) { free(head); return NULL; }
        n = asprintf(&out, "%s%s", head, form);
        free(form);
    } else {
        /* the words the script uses, as a JS object (the table holds no quote or backslash) */
        n = asprintf(&out,
                     "%s%sconst W = {student: '%s', none: '%s', solved: '%s', norun: '%s', missed: '%s', agoS: '%s', agoM: '%s', agoH: '%s', "
                     "updated: '%s', failed: '%s', open: '%s', code: '%s', anyone: '%s', state: '%s', newclass: '%s', roster: '%s', "
                     "close: '%s', archive: '%s', remove: '%s', removed: '%s', source: '%s'};\n%s",
                     head, class_body, w[W_STUDENT], w[W_NONE], w[W_SOLVED], w[W_DIDNT_RUN], w[W_MISSED], w[W_AGO_S], w[W_AGO_M], w[W_AGO_H],
                     w[W_UPDATED], w[W_FAILED], w[W_OPEN], w[W_CODE], w[W_ANYONE], w[W_STATE], w[W_NEWCLASS], w[W_ROSTER], w[W_CLOSE],
                     w[W_ARCHIVE], w[W_REMOVE], w[W_REMOVED], w[W_SOURCE], page_script);
    }
    free(head);
    if (n < 0) return NULL;
    *len = (size_t)n;
    return out;
}
