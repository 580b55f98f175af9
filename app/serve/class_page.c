/* class_page: the teacher's page, /class (?lang=zh: in Chinese). Signed out, a form: the token typed
 * once and sent in a POST's body (/api/class/signin), which answers with a cookie; the token is never
 * in an address the page shows or copies. Signed in: the classes (each with its join code, its state
 * and how many students; an archived one is shown read only, with its record), the chosen class's
 * actions (close, archive: each asked first; open a new one with a code or a roster; the grades as
 * CSV), then a table, a row per student and a column per exercise: goals met, the first goal missed,
 * how long since the last try. It asks /api/class again every few seconds and changes only the cells
 * whose data changed (a focused cell keeps its focus; the live region speaks "updated" only when
 * something changed). A click on a cell shows that student's name and source beside the picture of
 * the try (the page at /?trace=/api/class/last..., in a frame), and a button removes the student
 * from the class (asked first): their tries, their session and their name. Students' names and
 * sources are text (textContent), never markup. The words are one table, English and Chinese, handed
 * to the script as JSON (cJSON escapes them: a quote in a word cannot end a string). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/serve/serve.h"

/* the words: the script's name for each, English, Chinese */
static const struct word {
    const char *key, *en, *zh;
} words[] = {
    {"student", "student", "学生"},
    {"none", "no student has joined or tried an exercise yet", "还没有学生加入或尝试练习"},
    {"solved", "solved", "已完成"},
    {"norun", "did not run", "没有运行"},
    {"missed", "first missed: ", "第一个未达成："},
    {"agoS", "s ago", "秒前"},
    {"agoM", "min ago", "分钟前"},
    {"agoH", "h ago", "小时前"},
    {"updated", "updated ", "更新于 "},
    {"failed", "the class could not be read: ", "无法读取班级："},
    {"open", "show the source and the picture", "显示源代码和画面"},
    {"code", "join code: ", "加入码："},
    {"anyone", "none (anyone who reaches the server joins with a name)", "无（能访问服务器的人用名字加入）"},
    {"state", "state: ", "状态："},
    {"newclass", "Open a new class", "开一个新班级"},
    {"roster", "roster (a name a line; empty: any name)", "名单（每行一个名字；空：任何名字）"},
    {"close", "Close the class", "关闭班级"},
    {"reopen", "Open it again", "重新开放"},
    {"archive", "Archive the class", "归档班级"},
    {"remove", "Remove this student from the class", "把这个学生从班级中删除"},
    {"removed", "removed: ", "已删除："},
    {"closeAsk", "Close this class? Its students can no longer run or check (you can open it again).",
     "关闭这个班级？学生将不能再运行或检查（之后可以重新开放）。"},
    {"archiveAsk", "Archive this class? It stays listed with its record, read only; no one can join or try it again.",
     "归档这个班级？它会保留在列表中，连同记录，只读；没有人能再加入或尝试。"},
    {"removeAsk", "Remove %s from the class? Their tries, their session and their name go; the name is free again.",
     "把 %s 从班级中删除？其尝试、会话和名字都会删除；这个名字可以再次使用。"},
    {"openAsk", "Open a new class? The class open now is closed.", "开一个新班级？现在开放的班级会被关闭。"},
    {"classes", "class", "班级"},
    {"students", "students", "名学生"},
    {"st_open", "open", "开放"},
    {"st_closed", "closed", "已关闭"},
    {"st_archived", "archived (read only)", "已归档（只读）"},
    {"noclass", "no class yet: open one below", "还没有班级：在下面开一个"},
    {"grades", "Grades (CSV)", "成绩（CSV）"},
    {"source", "source", "源代码"},
    {"picture", "the picture of the try", "这次尝试的画面"},
    {"hide", "Hide", "隐藏"},
    {"signout", "Sign out", "退出登录"},
    /* the leaderboard of the lab's GPU timing: the fastest timed try per student of one exercise */
    {"board", "The fastest try of each student on the card", "每个学生在显卡上最快的一次"},
    {"boardstudent", "Student", "学生"},
    {"boardex", "Exercise", "练习"},
    {"names", "Names", "名字"},
    {"n_full", "full", "全名"},
    {"n_initials", "initials", "缩写"},
    {"n_hidden", "hidden (for a projector)", "隐藏（投影时用）"},
    {"rank", "Rank", "名次"},
    {"gbs", "GB/s", "GB/s"},
    {"ofbest", "% of the card's best read", "占本卡最快读取的 %"},
    {"anon", "Student %d", "学生 %d"},
    {"boardnone", "No timed try of this exercise yet.", "这个练习还没有计时的尝试。"},
    {"boardfail", "the fastest could not be read: ", "无法读取最快的尝试："},
};

static const char page_head[] =
    "<!doctype html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\n"
    "<title>%s</title>\n<style>\n"
    "[hidden]{display:none!important}"
    "body{font:16px system-ui,sans-serif;margin:1em;color:#111;background:#fff}"
    "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.3em .5em;text-align:left;vertical-align:top}"
    "td.cell{cursor:pointer}td.solved{background:#d8f0e4}td.missed{background:#fbe9d0}td.norun{background:#f6d6d6}"
    "td:focus{outline:3px solid #0072b2;outline-offset:-3px}"
    "small{color:#555}#status{margin:.5em 0;color:#555}#try{display:flex;gap:1em;margin-top:1em}#try pre{flex:1;overflow:auto;max-height:80vh;"
    "border:1px solid #bbb;padding:.5em;margin:0;min-width:0}#try iframe{flex:2;height:80vh;border:1px solid #bbb;min-width:0}"
    "#wrap{overflow-x:auto;max-width:100%%}#class th[scope=row]{position:sticky;left:0;background:#fff}"
    "#bar{display:flex;flex-wrap:wrap;gap:.5em;align-items:center}#bar a,#bar button{font:inherit}"
    "#board{margin-top:1.5em}#board h2{font-size:1.25em;margin:0 0 .4em}#boardbar{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:center;margin:0 0 .5em}"
    "#boardbar select{font:inherit;min-height:2.2em;max-width:100%%}#boardbar fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25em 1em;align-items:center}"
    "#boardbar legend{float:left;margin-right:.5em;padding:0}#boardbar label{white-space:nowrap;display:inline-flex;align-items:center;gap:.3em;min-height:2.2em}"
    "#boardtable{font-size:1.25em}#boardtable td.num,#boardtable th.num{text-align:right;font-variant-numeric:tabular-nums}#boardtable tr.first td,#boardtable tr.first th{font-weight:bold}\n"
    "@media (prefers-color-scheme:dark){body{color:#eee;background:#111}td.solved{background:#124}td.missed{background:#431}"
    "td.norun{background:#411}small,#status{color:#aaa}a{color:#8cf}#class th[scope=row]{background:#111}}\n"
    "</style></head><body><main>\n<h1>%s</h1><p><a id=\"lang\" href=\"%s\" lang=\"%s\">%s</a></p>\n";

static const char signin_body[] =
    "<form id=\"signin\"><label>%s <input id=\"token\" type=\"password\" autocomplete=\"current-password\" required></label>"
    " <button>%s</button></form><p id=\"status\" role=\"status\" aria-live=\"polite\"></p>\n<script>\n"
    "document.getElementById('signin').addEventListener('submit', async (e) => { e.preventDefault();\n"
    "  const r = await fetch('/api/class/signin', {method: 'POST', headers: {'Content-Type': 'application/json'},\n"
    "    body: JSON.stringify({token: document.getElementById('token').value})});\n"
    "  if (r.ok) location.reload(); else { const d = await r.json().catch(() => ({}));\n"
    "    document.getElementById('status').textContent = d.error ? d.error.message : r.status; } });\n"
    "</script></main></body></html>\n";

static const char class_body[] =
    "<p><label><span id=\"classeslabel\"></span> <select id=\"classes\"></select></label></p>\n"
    "<p id=\"info\"></p><div id=\"bar\"><button id=\"close\" hidden></button><button id=\"reopen\" hidden></button>"
    "<button id=\"archive\" hidden></button><a id=\"grades\" hidden></a> <button id=\"signout\"></button></div>\n"
    "<details><summary id=\"newclass\"></summary><p><label><span id=\"codelabel\"></span> <input id=\"code\" size=\"12\"></label></p>"
    "<p><label><span id=\"rosterlabel\"></span><br><textarea id=\"roster\" rows=\"6\" cols=\"40\"></textarea></label></p>"
    "<p><button id=\"open\"></button></p></details>\n"
    "<p id=\"status\" role=\"status\" aria-live=\"polite\"></p><p id=\"empty\" hidden></p>\n<div id=\"wrap\"><table id=\"class\"></table></div>\n"
    "<p id=\"trybar\" hidden><b id=\"tryname\"></b> <button id=\"remove\"></button> <button id=\"hide\"></button></p>\n"
    "<div id=\"try\" hidden><pre id=\"source\"></pre><iframe id=\"picture\"></iframe></div>\n"
    "<section id=\"board\" hidden aria-labelledby=\"boardtitle\"><h2 id=\"boardtitle\"></h2><div id=\"boardbar\">"
    "<label><span id=\"boardexlabel\"></span> <select id=\"boardex\"></select></label>"
    "<fieldset id=\"names\"><legend id=\"nameslabel\"></legend>"
    "<label><input type=\"radio\" name=\"names\" value=\"full\"> <span id=\"n_full\"></span></label>"
    "<label><input type=\"radio\" name=\"names\" value=\"initials\"> <span id=\"n_initials\"></span></label>"
    "<label><input type=\"radio\" name=\"names\" value=\"hidden\"> <span id=\"n_hidden\"></span></label></fieldset></div>"
    "<p id=\"boardnone\" hidden></p><table id=\"boardtable\" hidden><thead><tr><th scope=\"col\" id=\"h_rank\" class=\"num\"></th>"
    "<th scope=\"col\" id=\"h_student\"></th><th scope=\"col\" id=\"h_gbs\" class=\"num\"></th><th scope=\"col\" id=\"h_ofbest\" class=\"num\"></th></tr></thead>"
    "<tbody id=\"boardrows\"></tbody></table></section>\n"
    "<script>\n";
static const char page_script[] =
    "const $ = (id) => document.getElementById(id);\n"
    "for (const id of ['close', 'reopen', 'archive', 'grades', 'newclass', 'open', 'remove', 'hide', 'signout']) $(id).textContent = W[id === 'open' ? 'newclass' : id];\n"
    "$('classeslabel').textContent = W.classes; $('codelabel').textContent = W.code; $('rosterlabel').textContent = W.roster;\n"
    "$('picture').title = W.picture;\n"
    "let cls = null, chosen = null, shown = null, seen = '';\n"
    "const stateWord = (st) => W['st_' + st] || st;\n"
    "async function post(path, body) { const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});\n"
    "  const d = await r.json().catch(() => ({})); if (!r.ok) throw new Error(d.error ? d.error.message : r.status); return d; }\n"
    "function ago(ms) { const s = Math.max(0, (Date.now() - ms) / 1000);\n"
    "  return s < 120 ? Math.round(s) + ' ' + W.agoS : s < 7200 ? Math.round(s / 60) + ' ' + W.agoM : Math.round(s / 3600) + ' ' + W.agoH; }\n"
    "function el(tag, text, c) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (c) e.className = c; return e; }\n"
    "function setText(e, t) { if (e.textContent !== t) e.textContent = t; }\n"
    "/* parent's children made to be one per key, in order: kept where they are, made when new, gone when\n"
    "   their key is; a child is moved only when out of place (moving a node takes its focus) */\n"
    "function sync(parent, keys, make) {\n"
    "  const have = new Map(); for (const c of [...parent.children]) have.set(c.dataset.key, c);\n"
    "  const want = new Set(keys);\n"
    "  for (const [k, c] of have) if (!want.has(k)) c.remove();\n"
    "  let at = parent.firstElementChild;\n"
    "  for (const k of keys) {\n"
    "    let c = have.get(k);\n"
    "    if (!c || !c.isConnected) { c = make(k); c.dataset.key = k; }\n"
    "    if (c !== at) parent.insertBefore(c, at); else at = at.nextElementSibling;\n"
    "  }\n"
    "  return [...parent.children];\n"
    "}\n"
    "function hideTry() { shown = null; $('trybar').hidden = true; $('try').hidden = true; $('source').textContent = ''; $('picture').removeAttribute('src'); }\n"
    "async function show(name, ex) {\n"
    "  shown = {name, ex}; const a = 'student=' + encodeURIComponent(name) + '&exercise=' + encodeURIComponent(ex) + (cls ? '&class=' + cls.id : '');\n"
    "  $('tryname').textContent = name + ' · ' + ex; $('trybar').hidden = false; $('try').hidden = false; $('source').textContent = '';\n"
    "  $('remove').hidden = !cls || cls.state === 'archived';\n"
    "  try { const r = await fetch('/api/class/source?' + a); const d = await r.json(); $('source').textContent = r.ok ? d.source : d.error.message; }\n"
    "  catch (e) { $('source').textContent = e.message; }\n"
    "  $('picture').src = '/?trace=' + encodeURIComponent('/api/class/last?' + a) + (ZH ? '&lang=zh' : '');\n"
    "}\n"
    "function drawClasses(d) {\n"
    "  const sel = $('classes');\n"
    "  sync(sel, d.classes.map((k) => String(k.id)), () => el('option'));\n"
    "  for (const o of sel.children) { const k = d.classes.find((k) => String(k.id) === o.dataset.key);\n"
    "    o.value = o.dataset.key; setText(o, '#' + k.id + ' · ' + (k.code || '—') + ' · ' + stateWord(k.state) + ' · ' + k.students + ' ' + W.students + ' · ' + new Date(k.opened_ms).toLocaleDateString()); }\n"
    "  if (cls && sel.value !== String(cls.id)) sel.value = String(cls.id);\n"
    "  sel.disabled = !d.classes.length;\n"
    "}\n"
    "function cell(td, e) {\n"
    "  const c = !e ? '' : 'cell ' + (!e.ran ? 'norun' : e.solved ? 'solved' : 'missed');\n"
    "  if (td.className !== c) td.className = c;\n"
    "  const sig = e ? [e.met, e.goals, e.solved, e.ran, e.tries, e.last_try_ms, e.first_missed ? e.first_missed.index : -1].join() : '';\n"
    "  const changed = td.dataset.sig !== sig;\n"
    "  if (changed) {\n"
    "    td.dataset.sig = sig; td.replaceChildren();\n"
    "    if (e) {\n"
    "      td.append(el('b', e.met + '/' + e.goals + ' ' + (e.solved ? W.solved : !e.ran ? W.norun : '')));\n"
    "      if (e.first_missed) td.append(el('br'), el('span', W.missed + (ZH ? e.first_missed.zh : e.first_missed.en)));\n"
    "      td.append(el('br'), el('small'));\n"
    "      td.title = W.open; td.tabIndex = 0;\n"
    "    } else { td.removeAttribute('title'); td.removeAttribute('tabindex'); }\n"
    "  }\n"
    "  if (e) setText(td.querySelector('small'), ago(e.last_try_ms) + ' (' + e.tries + ')');\n"
    "  return changed;\n"
    "}\n"
    "function draw(d) {\n"
    "  cls = d.class; drawClasses(d);\n"
    "  const ro = !cls || cls.state === 'archived';\n"
    "  $('info').textContent = cls ? W.code + (cls.code || W.anyone) + ' · ' + W.state + stateWord(cls.state) : W.noclass;\n"
    "  $('close').hidden = !cls || cls.state !== 'open'; $('reopen').hidden = !cls || cls.state !== 'closed'; $('archive').hidden = ro;\n"
    "  $('grades').hidden = !cls; if (cls) $('grades').href = '/api/class/grades.csv?class=' + cls.id;\n"
    "  if (shown && (!cls || !d.students.some((s) => s.name === shown.name))) hideTry();\n"
    "  if (shown) $('remove').hidden = ro;\n"
    "  $('empty').hidden = d.students.length > 0; setText($('empty'), W.none);\n"
    "  const used = d.exercises.filter((x) => d.students.some((s) => s.exercises.some((e) => e.exercise === x.id)));\n"
    "  const t = $('class');\n"
    "  let changed = false;\n"
    "  const rows = sync(t, d.students.length ? ['', ...d.students.map((s) => 's:' + s.name)] : [], (k) => { changed = true; return el('tr'); });\n"
    "  for (const tr of rows) {\n"
    "    const s = d.students.find((s) => 's:' + s.name === tr.dataset.key);\n"
    "    const cells = sync(tr, ['', ...used.map((x) => x.id)], (k) => {\n"
    "      changed = true; if (k === '') return el('th');\n"
    "      if (!s) return el('th');\n"
    "      const td = el('td'), open = () => show(s.name, k);\n"
    "      td.addEventListener('click', () => { if (td.dataset.sig) open(); });\n"
    "      td.addEventListener('keydown', (ev) => { if (td.dataset.sig && (ev.key === 'Enter' || ev.key === ' ')) { ev.preventDefault(); open(); } });\n"
    "      return td;\n"
    "    });\n"
    "    for (const c of cells) {\n"
    "      if (c.dataset.key === '') { setText(c, s ? s.name : W.student); if (s) c.scope = 'row'; else c.scope = 'col'; continue; }\n"
    "      if (!s) { const x = used.find((x) => x.id === c.dataset.key); setText(c, ZH ? x.title.zh : x.title.en); c.scope = 'col'; continue; }\n"
    "      if (cell(c, s.exercises.find((e) => e.exercise === c.dataset.key))) changed = true;\n"
    "    }\n"
    "  }\n"
    "  const now = JSON.stringify([cls && cls.id, cls && cls.state, d.students.length]);\n"
    "  if (now !== seen) changed = true;\n"
    "  if (changed && seen) $('status').textContent = W.updated + new Date().toLocaleTimeString();\n"
    "  seen = now;\n"
    "  board(d);\n"
    "}\n"
    "let timer = null;\n"
    "async function poll() {\n"
    "  clearTimeout(timer);\n"
    "  try { const r = await fetch('/api/class' + (chosen ? '?class=' + chosen : '')); const d = await r.json(); if (!r.ok) throw new Error(d.error ? d.error.message : r.status); draw(d); }\n"
    "  catch (e) { $('status').textContent = W.failed + e.message; }\n"
    "  timer = setTimeout(poll, 3000);\n"
    "}\n"
    "const act = (ask, f) => async () => { if (ask && !confirm(ask())) return; try { await f(); } catch (e) { $('status').textContent = e.message; } poll(); };\n"
    "const setState = (st) => cls && post('/api/class/state', {class: cls.id, state: st});\n"
    "$('classes').addEventListener('change', () => { chosen = $('classes').value; hideTry(); seen = ''; poll(); });\n"
    "$('close').addEventListener('click', act(() => W.closeAsk, () => setState('closed')));\n"
    "$('reopen').addEventListener('click', act(null, () => setState('open')));\n"
    "$('archive').addEventListener('click', act(() => W.archiveAsk, () => setState('archived')));\n"
    "$('hide').addEventListener('click', hideTry);\n"
    "$('signout').addEventListener('click', act(null, async () => { await post('/api/class/signout', {}); location.reload(); }));\n"
    "$('open').addEventListener('click', act(() => W.openAsk, async () => { const roster = $('roster').value.split('\\n').map((n) => n.trim()).filter((n) => n);\n"
    "  const code = $('code').value.trim(); await post('/api/class/open', code ? {code, roster} : {roster}); chosen = null; hideTry(); }));\n"
    "$('remove').addEventListener('click', act(() => shown && W.removeAsk.replace('%s', shown.name), async () => { if (!shown) return;\n"
    "  const d = await post('/api/class/remove', {class: cls ? cls.id : undefined, student: shown.name});\n"
    "  hideTry(); $('status').textContent = W.removed + d.student; }));\n"
    "/* the leaderboard (shown where the server has a GPU: /api/health's \"gpu\"): the fastest timed try\n"
    "   per student of the exercise picked, asked again with the class's table; its rows are kept and\n"
    "   changed in place (a focused control keeps its focus), and nothing of it is said in the live region.\n"
    "   Names as the teacher picks: full, initials, or hidden (\"Student 1\", for a projector), kept in\n"
    "   the browser's storage */\n"
    "const BOARD = 'warpscope-class:';\n"
    "const kept = (k, v) => { try { if (v === undefined) return localStorage.getItem(BOARD + k); localStorage.setItem(BOARD + k, v); } catch (e) { /* this visit only */ } return null; };\n"
    "let gpu = null, boardAsked = 0, boardLast = null, lastClass = null;\n"
    "$('boardexlabel').textContent = W.boardex; $('nameslabel').textContent = W.names;\n"
    "for (const k of ['n_full', 'n_initials', 'n_hidden']) $(k).textContent = W[k];\n"
    "$('h_rank').textContent = W.rank; $('h_student').textContent = W.boardstudent; $('h_gbs').textContent = W.gbs; $('h_ofbest').textContent = W.ofbest;\n"
    "let names = ['full', 'initials', 'hidden'].includes(kept('names')) ? kept('names') : 'full';\n"
    "for (const r of document.querySelectorAll('input[name=names]')) { r.checked = r.value === names;\n"
    "  r.addEventListener('change', () => { if (!r.checked) return; names = r.value; kept('names', names); if (boardLast) drawBoard(boardLast); }); }\n"
    "/* initials: each word's first letter (\"A. L.\"); a name written without spaces in Chinese, Japanese or\n"
    "   Korean keeps its first character and hides the rest (\"李*\"), as such names are masked */\n"
    "function initials(n) {\n"
    "  const parts = n.trim().split(/\\s+/).filter((p) => p);\n"
    "  if (parts.length === 1 && /[\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af]/.test(parts[0])) { const c = Array.from(parts[0]); return c[0] + '*'.repeat(Math.max(1, c.length - 1)); }\n"
    "  return parts.map((p) => Array.from(p)[0].toUpperCase() + '.').join(' ');\n"
    "}\n"
    "const shownName = (n, i) => names === 'hidden' ? W.anon.replace('%d', i + 1) : names === 'initials' ? initials(n) : n;\n"
    "const gbsText = (v) => Math.round(v).toLocaleString('en-US');\n"
    "function drawBoard(d) {\n"
    "  boardLast = d; const rows = d.rows || [];\n"
    "  setText($('boardtitle'), W.board + (d.card || (gpu && gpu.card) ? ' · ' + (d.card || gpu.card) : ''));\n"
    "  $('boardnone').hidden = rows.length > 0; setText($('boardnone'), W.boardnone); $('boardtable').hidden = !rows.length;\n"
    "  const trs = sync($('boardrows'), rows.map((r, i) => 'r:' + i), () => { const tr = el('tr'); tr.append(el('td', '', 'num'), el('th'), el('td', '', 'num'), el('td', '', 'num')); tr.children[1].scope = 'row'; return tr; });\n"
    "  trs.forEach((tr, i) => { const r = rows[i], c = tr.children;\n"
    "    setText(c[0], String(r.rank)); setText(c[1], shownName(String(r.name), i)); setText(c[2], gbsText(r.gbs));\n"
    "    setText(c[3], Number.isFinite(r.fraction) ? Math.round(r.fraction * 100) + ' %' : '—');\n"
    "    const first = r.rank === 1; if (tr.classList.contains('first') !== first) tr.classList.toggle('first', first); });\n"
    "}\n"
    "function boardExercises(d) {\n"
    "  const sel = $('boardex'), was = sel.value || kept('exercise') || '';\n"
    "  sync(sel, d.exercises.map((x) => x.id), () => el('option'));\n"
    "  for (const o of sel.children) { const x = d.exercises.find((x) => x.id === o.dataset.key); o.value = x.id; setText(o, ZH ? x.title.zh : x.title.en); }\n"
    "  if (was && d.exercises.some((x) => x.id === was)) { if (sel.value !== was) sel.value = was; }\n"
    "  else { const used = d.exercises.find((x) => d.students.some((s) => s.exercises.some((e) => e.exercise === x.id))); if (used) sel.value = used.id; }\n"
    "}\n"
    "async function board(d) {\n"
    "  if (d) lastClass = d;\n"
    "  if (!gpu) return;\n"
    "  if (lastClass) boardExercises(lastClass);\n"
    "  const ex = $('boardex').value; if (!ex) return;\n"
    "  const asked = ++boardAsked;\n"
    "  try { const r = await fetch('/api/class/leaderboard?exercise=' + encodeURIComponent(ex)); const j = await r.json();\n"
    "    if (!r.ok) throw new Error(j.error ? j.error.message : r.status);\n"
    "    if (asked === boardAsked && $('boardex').value === ex) drawBoard(j); }\n"
    "  catch (e) { if (asked === boardAsked) { $('boardtable').hidden = true; $('boardnone').hidden = false; setText($('boardnone'), W.boardfail + e.message); } }\n"
    "}\n"
    "$('boardex').addEventListener('change', () => { kept('exercise', $('boardex').value); boardLast = null; board(null); });\n"
    "fetch('/api/health').then((r) => r.json()).then((h) => { gpu = h && h.gpu ? h.gpu : null; $('board').hidden = !gpu; if (gpu && lastClass) board(lastClass); }, () => {});\n"
    "poll();\n</script></main></body></html>\n";

/* the words in the page's language as a JSON object (escaped by cJSON), and whether it is Chinese */
static char *words_json(int zh)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) cJSON_AddStringToObject(o, words[i].key, zh ? words[i].zh : words[i].en);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

char *class_page_html(int signed_in, int zh, size_t *len)
{
    static const char *const title[2] = {"The class", "班级"}, *const token[2] = {"The class's token", "班级的令牌"},
                             *const signin[2] = {"Sign in", "登录"};
    char *head = NULL, *out = NULL;
    if (asprintf(&head, page_head, zh ? "zh" : "en", title[zh], title[zh], zh ? "/class" : "/class?lang=zh", zh ? "en" : "zh",
                 zh ? "English" : "中文") < 0)
        return NULL;
    int n;
    if (!signed_in) {
        char *form = NULL;
        if (asprintf(&form, signin_body, token[zh], signin[zh]) < 0) { free(head); return NULL; }
        n = asprintf(&out, "%s%s", head, form);
        free(form);
    } else {
        char *w = words_json(zh);
        n = w ? asprintf(&out, "%s%sconst ZH = %s, W = %s;\n%s", head, class_body, zh ? "true" : "false", w, page_script) : -1;
        free(w);
    }
    free(head);
    if (n < 0) return NULL;
    *len = strlen(out);
    return out;
}
