// The teacher's page, /class, in a real browser (Debian's chromium, driven by puppeteer-core) against
// a real `warpscope serve` (a free port, a temporary --state, the token given by $WARPSCOPE_TOKEN):
// in English and in Chinese, signed in through its form, with three students (one with a right try
// of exercise 02, one with a racing try, one who joined and tried nothing), it fails on any
// JavaScript error or failed request of the page; the join code and every student are shown (their
// names as text), each cell's goals as the record has them (met/goals of the model solution: every
// goal), the language link leads to the other language; a cell focused keeps its focus across the
// page's polls and the live region is not spoken again when nothing changed; Close, Archive and
// Remove ask first (dismissed: nothing happens; accepted: it does); a removed student leaves the
// table and the name is free to join again; an archived class stays listed, read only, with its
// record; the grades link answers CSV. Screenshots at 1024x768 (and 1366x768, a laptop) in OUT_DIR.
// Usage: node class_page_should_work_in_english_and_chinese.js WARPSCOPE SOURCE_DIR OUT_DIR.
// Exit 77: no chromium, no puppeteer-core or no sandbox for a learner's file (one line says which).
'use strict';
const fs = require('fs'), path = require('path'), http = require('http'), os = require('os');
const { spawn } = require('child_process');

const [ws, src, outDir] = process.argv.slice(2);
const chromium = process.env.WS_CHROMIUM || '/usr/bin/chromium';
const NAME = 'class_page_should_work_in_english_and_chinese';
if (!fs.existsSync(chromium)) { console.log(`${NAME}: skipped: no chromium at ${chromium}`); process.exit(77); }
let puppeteer;
try { puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core')); } catch (e) {
  console.log(`${NAME}: skipped: puppeteer-core is not installed in tests/web (tools/setup-debian.sh runs npm ci there)`);
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-class-page-'));
let failures = 0;
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; return ok; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TOKEN = 'class-page-token-9';
let server = null, browser = null;

function serve() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'cache'), WARPSCOPE_TOKEN: TOKEN,
                  WARPSCOPE_UNSAFE: '1' /* the files run are the project's own: a machine without a sandbox tests the page too */ };
    fs.mkdirSync(env.HOME, { recursive: true });
    const p = spawn(ws, ['serve', '--port', '0', '--state', path.join(tmp, 'state'), '--workers', '2'],
                    { env, stdio: ['ignore', 'pipe', fs.openSync(path.join(outDir, 'serve.err'), 'w')] });
    server = p;
    let said = '';
    const timer = setTimeout(() => reject(new Error('serve said nothing in 30 s: ' + said)), 30000);
    p.stdout.on('data', (d) => {
      said += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
      if (m) { clearTimeout(timer); resolve({ base: `http://127.0.0.1:${m[1]}` }); }
    });
    p.on('exit', (c) => reject(new Error('serve ended (' + c + '): ' + said + fs.readFileSync(path.join(outDir, 'serve.err'), 'utf8'))));
  });
}
// one HTTP request; cookie: the session to send; answers {status, body, cookie}
function call(base, method, p, body, cookie, headers) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const u = new URL(base + p);
    const h = { ...(headers || {}) };
    if (data) { h['Content-Type'] = 'application/json'; h['Content-Length'] = data.length; h.Origin = base; }
    if (cookie) h.Cookie = cookie;
    const r = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h }, (res) => {
      let b = ''; res.setEncoding('utf8'); res.on('data', (d) => { b += d; });
      res.on('end', () => { const sc = res.headers['set-cookie']; resolve({ status: res.statusCode, body: b, cookie: sc ? sc[0].split(';')[0] : null }); });
    });
    r.on('error', reject);
    if (data) r.write(data);
    r.end();
  });
}

async function main() {
  const { base } = await serve();
  const good = fs.readFileSync(path.join(src, 'tests/exercises/02-v1-padding.solution.cu'), 'utf8');
  const racing = good.replace(/(\n\s*\}\n)\s*__syncthreads\(\);\n(\s*\}\n)/, '$1$2');
  check(racing !== good, 'the racing copy differs from the solution');
  const who = {};
  // names a page must show as text: a quote, markup, a formula
  for (const n of ["Ana O'Neil", '李雷', '<b>=1+1</b>']) {
    const j = await call(base, 'POST', '/api/join', { name: n });
    check(j.status === 200 && j.cookie, `${n} joins: ${j.status} ${j.body}`);
    who[n] = j.cookie;
  }
  let c = await call(base, 'POST', '/api/check', { exercise: '02', source: good }, who["Ana O'Neil"]);
  if (c.status === 503 && /sandbox/.test(c.body)) { console.log(`${NAME}: skipped: ${c.body}`); return 77; }
  const goals = JSON.parse(fs.readFileSync(path.join(src, 'lessons/exercises/02-v1-padding.json'), 'utf8')).exercise.goals.length;
  check(c.status === 200, `the solution is checked: ${c.status} ${c.body.slice(0, 200)}`);
  c = await call(base, 'POST', '/api/check', { exercise: '02', source: racing }, who['李雷']);
  check(c.status === 200, `the racing copy is checked: ${c.status} ${c.body.slice(0, 200)}`);

  browser = await puppeteer.launch({ executablePath: chromium, args: ['--no-sandbox', '--lang=en-US'], headless: 'new' });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  // the page's own errors: the picture's frame (the page of the viewer, not built for this test) and
  // the browser's own favicon request aside
  const ours = (u) => u && !/\/favicon\.ico$|[?&]trace=/.test(u);
  page.on('console', (m) => { if (m.type() === 'error' && ours(m.location().url)) errors.push('console: ' + m.text() + ' ' + m.location().url); });
  page.on('requestfailed', (q) => { if (q.frame() === page.mainFrame() && ours(q.url())) errors.push('request failed: ' + q.url()); });
  page.on('response', (q) => { if (q.status() >= 400 && q.request().frame() === page.mainFrame() && ours(q.url()) && !/\/api\/class\/(source|last)/.test(q.url())) errors.push(q.status() + ' ' + q.url()); });
  let dialogs = [], answer = false;
  page.on('dialog', async (d) => { dialogs.push(d.message()); if (answer) await d.accept(); else await d.dismiss(); });
  await page.setViewport({ width: 1024, height: 768 });

  // signed out: the form; the token typed once
  await page.goto(base + '/class', { waitUntil: 'load' });
  check(await page.$('#token') !== null, 'signed out, /class shows the sign-in form');
  await page.type('#token', TOKEN);
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#signin button')]);

  for (const lang of ['en', 'zh']) {
    const zh = lang === 'zh';
    await page.goto(base + '/class' + (zh ? '?lang=zh' : ''), { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelectorAll('#class tr').length >= 4, { timeout: 10000 }).catch(() => {});
    const seen = await page.evaluate(() => ({
      info: document.getElementById('info').textContent,
      rows: [...document.querySelectorAll('#class tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
      bold: document.querySelectorAll('#class b b').length,
      lang: document.getElementById('lang').getAttribute('href'),
      close: document.getElementById('close').textContent,
      grades: document.getElementById('grades').getAttribute('href'),
      tryShown: !document.getElementById('try').hidden || getComputedStyle(document.getElementById('try')).display !== 'none',
    }));
    check(/(state|状态)/.test(seen.info), `${lang}: the class's state is shown: ${seen.info}`);
    const names = seen.rows.slice(1).map((r) => r[0]);
    check(JSON.stringify(names.slice().sort()) === JSON.stringify(["<b>=1+1</b>", "Ana O'Neil", '李雷'].sort()),
          `${lang}: every student has a row, the name as text: ${JSON.stringify(names)}`);
    check(seen.bold === 0, `${lang}: a name is never markup`);
    const ana = seen.rows.find((r) => r[0] === "Ana O'Neil");
    check(ana && ana[1].startsWith(`${goals}/${goals}`), `${lang}: the solution's cell says ${goals}/${goals} goals: ${ana && ana[1]}`);
    const li = seen.rows.find((r) => r[0] === '李雷');
    check(li && !li[1].startsWith(`${goals}/${goals}`) && /^\d+\/\d+/.test(li[1]), `${lang}: the racing copy's cell misses a goal: ${li && li[1]}`);
    check(seen.lang === (zh ? '/class' : '/class?lang=zh'), `${lang}: the language link leads to the other language: ${seen.lang}`);
    check(zh ? /[\u4e00-\u9fff]/.test(seen.close) : /^[\x20-\x7e]+$/.test(seen.close), `${lang}: the buttons speak the page's language: ${seen.close}`);
    check(/\/api\/class\/grades\.csv\?class=\d+/.test(seen.grades || ''), `${lang}: the grades link: ${seen.grades}`);
    check(!seen.tryShown, `${lang}: no empty boxes before a student is opened`);
    await page.screenshot({ path: path.join(outDir, `class-1024x768-${lang}.png`), fullPage: true });
    await page.setViewport({ width: 1366, height: 768 });
    await page.screenshot({ path: path.join(outDir, `class-1366x768-${lang}.png`), fullPage: true });
    await page.setViewport({ width: 1024, height: 768 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    check(wide <= 1024, `${lang}: nothing wider than a projector's 1024 px: ${wide}`);
  }
  // the language link works (clicked, not typed)
  await page.goto(base + '/class', { waitUntil: 'load' });
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#lang')]);
  check(page.url().endsWith('/class?lang=zh') && (await page.$eval('html', (h) => h.lang)) === 'zh', `中文 leads to the Chinese page: ${page.url()}`);
  await page.goto(base + '/class', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('#class td.cell').length >= 2, { timeout: 10000 });

  // a focused cell keeps its focus across polls; nothing changed: the live region says nothing new
  await page.focus('#class td.cell');
  const before = await page.$eval('#status', (e) => e.textContent);
  await sleep(7000);
  const still = await page.evaluate(() => document.activeElement && document.activeElement.matches('#class td.cell'));
  check(still, 'a focused cell keeps its focus across two polls');
  check(await page.$eval('#status', (e) => e.textContent) === before, `nothing changed: "updated" is not said again (${before})`);
  // a change (a new try) is said
  await call(base, 'POST', '/api/check', { exercise: '02', source: good }, who['李雷']);
  await page.waitForFunction((b) => document.getElementById('status').textContent !== b, { timeout: 10000 }, before).catch(() => {});
  check(/updated/.test(await page.$eval('#status', (e) => e.textContent)), 'a new try: the live region says the class was updated');
  check(await page.evaluate(() => document.activeElement && document.activeElement.matches('#class td.cell')), 'and the focus stayed');

  // Remove asks first: dismissed, nothing; accepted, the student leaves and the name is free
  await page.evaluate(() => { for (const th of document.querySelectorAll('#class th')) if (th.textContent === '李雷') th.nextElementSibling.click(); });
  await page.waitForFunction(() => !document.getElementById('trybar').hidden, { timeout: 5000 });
  answer = false; dialogs = [];
  await page.click('#remove');
  await sleep(500);
  check(dialogs.length === 1 && dialogs[0].includes('李雷'), `Remove asks first, naming the student: ${dialogs}`);
  let d = JSON.parse((await call(base, 'GET', '/api/class', undefined, null, { Authorization: 'Bearer ' + TOKEN })).body);
  check(d.students.some((s) => s.name === '李雷'), 'dismissed: the student is still there');
  answer = true; dialogs = [];
  await page.click('#remove');
  await page.waitForFunction(() => ![...document.querySelectorAll('#class th')].some((t) => t.textContent === '李雷'), { timeout: 10000 }).catch(() => {});
  check(!(await page.evaluate(() => [...document.querySelectorAll('#class th')].some((t) => t.textContent === '李雷'))), 'accepted: the student leaves the table');
  check(await page.evaluate(() => document.getElementById('try').hidden && !document.getElementById('picture').getAttribute('src')),
        'and their source and picture leave the page');
  d = JSON.parse((await call(base, 'GET', '/api/class', undefined, null, { Authorization: 'Bearer ' + TOKEN })).body);
  check(!d.students.some((s) => s.name === '李雷'), 'and /api/class');
  let r = await call(base, 'POST', '/api/check', { exercise: '02', source: good }, who['李雷']);
  check(r.status === 401, `the removed student's session is gone: ${r.status}`);
  r = await call(base, 'POST', '/api/join', { name: '李雷' });
  check(r.status === 200, `the name is free to join again: ${r.status} ${r.body}`);

  // the grades as CSV, through the page's own sign-in
  const csv = await page.evaluate(async () => { const h = document.getElementById('grades').href; const q = await fetch(h); return [q.status, q.headers.get('content-type'), await q.text()]; });
  check(csv[0] === 200 && /text\/csv/.test(csv[1]) && csv[2].includes("Ana O'Neil"), `the grades link answers CSV: ${csv[0]} ${csv[1]}`);

  // Close and Archive ask first; an archived class stays listed, read only, with its record
  answer = false; dialogs = [];
  await page.click('#close');
  await sleep(500);
  d = JSON.parse((await call(base, 'GET', '/api/class', undefined, null, { Authorization: 'Bearer ' + TOKEN })).body);
  check(dialogs.length === 1 && d.class.state === 'open', `Close asks first; dismissed, the class stays open: ${dialogs.length} ${d.class.state}`);
  answer = true; dialogs = [];
  await page.click('#archive');
  await page.waitForFunction(() => document.getElementById('archive').hidden, { timeout: 10000 }).catch(() => {});
  d = JSON.parse((await call(base, 'GET', '/api/class', undefined, null, { Authorization: 'Bearer ' + TOKEN })).body);
  check(dialogs.length === 1 && d.class && d.class.state === 'archived', `Archive asks first; accepted, the class is archived and still shown: ${d.class && d.class.state}`);
  const ro = await page.evaluate(() => ({ close: document.getElementById('close').hidden, archive: document.getElementById('archive').hidden,
    rows: document.querySelectorAll('#class tr').length, listed: document.getElementById('classes').selectedOptions[0].textContent }));
  check(ro.close && ro.archive && ro.rows >= 3 && /archived/.test(ro.listed), `archived: listed read only with its record: ${JSON.stringify(ro)}`);
  await page.screenshot({ path: path.join(outDir, 'class-1024x768-en-archived.png'), fullPage: true });
  check(errors.length === 0, `no JavaScript error or failed request: ${errors.join(' | ')}`);
  return failures ? 1 : 0;
}

main().then((rc) => rc, (e) => { console.log('FAIL ' + (e.stack || e)); return 1; }).then(async (rc) => {
  if (browser) await browser.close().catch(() => {});
  if (server) server.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(rc === 0 ? `${NAME}: passed` : rc === 77 ? '' : `${NAME}: ${failures} failed`);
  process.exit(rc);
});
process.on('SIGTERM', () => { if (server) server.kill('SIGKILL'); process.exit(1); });
