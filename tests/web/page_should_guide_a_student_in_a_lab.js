// The student's page in a lab (Debian's chromium, driven by puppeteer-core) against a real `warpscope
// serve`: the page in Chinese with ?exercise=02 shows the exercise's task, each of its goals and its
// hints (folded) beside the editor, the very words of lessons/exercises/02-v1-padding.json; a Run
// before a name is given asks for the name in the page's language (no "401", no "api/join"); a Run
// that does not build (a syntax error) leaves the picture before it dimmed and saying it is of an
// earlier run, and the next Run that builds clears that; a join code kept from an earlier class that
// no longer opens one is forgotten and the open class joined; a Run a proxy answers 502 (its server
// gone) is sent again by itself. No JavaScript error.
// Usage: node page_should_guide_a_student_in_a_lab.js SITE_DIR WARPSCOPE SOURCE_DIR OUT_DIR.
// Exit 77: no chromium or no puppeteer-core.
'use strict';
const fs = require('fs'), path = require('path'), os = require('os');
const { spawn } = require('child_process');

const [site, ws, src, outDir] = process.argv.slice(2);
const chromium = process.env.WS_CHROMIUM || '/usr/bin/chromium';
const NAME = 'page_should_guide_a_student_in_a_lab';
if (!fs.existsSync(chromium)) { console.log(`${NAME}: skipped: no chromium at ${chromium}`); process.exit(77); }
let puppeteer;
try { puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core')); } catch (e) {
  console.log(`${NAME}: skipped: puppeteer-core is not installed in tests/web (tools/setup-debian.sh runs npm ci there)`);
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-lab-page-'));
let failures = 0;
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; return ok; }
let server = null, browser = null;

function serve() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'cache'), WARPSCOPE_WEB: site,
                  WARPSCOPE_TOKEN: 'lab-page-token-1', WARPSCOPE_UNSAFE: '1' /* the files run are this test's own */ };
    fs.mkdirSync(env.HOME, { recursive: true });
    const p = spawn(ws, ['serve', '--port', '0', '--state', path.join(tmp, 'state'), '--workers', '2'],
                    { env, stdio: ['ignore', 'pipe', fs.openSync(path.join(outDir, 'serve.err'), 'w')] });
    server = p;
    let said = '';
    const timer = setTimeout(() => reject(new Error('serve said nothing in 30 s: ' + said)), 30000);
    p.stdout.on('data', (d) => { said += d; const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said); if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}/`); } });
    p.on('exit', (c) => reject(new Error('serve ended (' + c + '): ' + said)));
  });
}
const status = (page) => page.$eval('#editor-status', (e) => e.textContent);
async function runAndWait(page) {
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/trace') || r.url().endsWith('/api/join'), { timeout: 120000 }).catch(() => null);
  await page.click('#run');
  await answer;
  await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 120000 });
}
async function setText(page, text) {
  await page.evaluate((t) => { const ta = document.querySelector('#code textarea'); if (ta) { ta.value = t; ta.dispatchEvent(new Event('input')); } }, text);
  const cm = await page.$('#code .cm-content');
  if (cm) { await cm.click(); await page.keyboard.down('Control'); await page.keyboard.press('a'); await page.keyboard.up('Control'); await page.keyboard.press('Backspace'); await page.keyboard.type(text); }
}

async function main() {
  const base = await serve();
  const ex = JSON.parse(fs.readFileSync(path.join(src, 'lessons/exercises/02-v1-padding.json'), 'utf8')).exercise;
  browser = await puppeteer.launch({ executablePath: chromium, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewport({ width: 1366, height: 768 });
  await page.goto(base + '?lang=zh&exercise=02');
  await page.waitForFunction(() => document.body.dataset.firstPicture, { timeout: 30000 });
  for (let i = 0; i < 20 && await page.$eval('#editor', (e) => e.hidden); i++) { await page.click('#write'); await new Promise((r) => setTimeout(r, 500)); }
  await page.waitForFunction(() => document.body.dataset.editor && !document.getElementById('task').hidden, { timeout: 30000 }).catch(() => {});
  const task = await page.evaluate(() => ({
    hidden: document.getElementById('task').hidden, text: document.getElementById('task-text').textContent,
    goals: [...document.querySelectorAll('#task-goals li')].map((l) => l.textContent),
    hints: [...document.querySelectorAll('#task-hints details')].map((d) => [d.open, d.querySelector('p').textContent]),
  }));
  check(!task.hidden && task.text === ex.task.zh, `the task beside the editor, in Chinese: ${task.text.slice(0, 60)}`);
  check(JSON.stringify(task.goals) === JSON.stringify(ex.goals.map((g) => g.say.zh)), `each goal listed (${task.goals.length} of ${ex.goals.length})`);
  check(task.hints.length === ex.hints.length && task.hints.every(([open, t], i) => !open && t === ex.hints[i].zh), `the hints, each folded (${task.hints.length} of ${ex.hints.length})`);
  await page.screenshot({ path: path.join(outDir, 'lab-1366x768-zh.png') });

  // a Run without a name: asked for it, in Chinese
  await page.evaluate(() => { document.getElementById('student').value = ''; });
  await runAndWait(page);
  const said = await status(page);
  check(/名字/.test(said) && !/401|api\/join/.test(said), `a Run without a name asks for it in Chinese: ${said}`);

  // a Run that builds, then one that does not: the picture before it dimmed and said to be old
  await page.type('#student', '王芳');
  await runAndWait(page);
  check(!(await page.$eval('#picture', (e) => e.classList.contains('stale'))), `the starting file runs: ${await status(page)}`);
  await setText(page, '__global__ void broken(float *in, float *out, unsigned n) { in[0] = ; }\n');
  await runAndWait(page);
  const st = await page.$eval('#picture', (e) => [e.classList.contains('stale'), e.dataset.stale || '', getComputedStyle(e.querySelector('canvas')).opacity]);
  check(st[0] && /之前/.test(st[1]) && Number(st[2]) < 0.5, `a compile error leaves the old picture dimmed, said to be old: ${st} ${await status(page)}`);
  await page.screenshot({ path: path.join(outDir, 'lab-stale-1366x768-zh.png') });
  await setText(page, fs.readFileSync(path.join(src, 'lessons/exercises/02-v1-padding.cu'), 'utf8'));
  await runAndWait(page);
  check(!(await page.$eval('#picture', (e) => e.classList.contains('stale'))), `the next Run that builds clears it: ${await status(page)}`);

  // a join code of a class gone: forgotten, and the open class joined
  await page.evaluate(() => { localStorage.setItem('warpscope-editor:code', 'GONE42'); localStorage.removeItem('warpscope-editor:joined'); });
  await page.evaluate(() => { document.getElementById('student').value = '李明'; });
  const joins = [];
  page.on('request', (q) => { if (q.url().endsWith('/api/join')) joins.push(JSON.parse(q.postData() || '{}').code); });
  await runAndWait(page);
  await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 120000 });
  const kept = await page.evaluate(() => localStorage.getItem('warpscope-editor:code'));
  check(kept === null && joins[0] === 'GONE42' && joins.includes(''), `a code that opens no class is forgotten and the open class joined: ${JSON.stringify(joins)} kept ${kept}; ${await status(page)}`);
  // a Run whose server went away behind the proxy (502) is sent again by itself, and answered
  let traces = 0, failed = 0;
  await page.setRequestInterception(true);
  page.on('request', (q) => {
    if (!q.url().endsWith('/api/trace')) { q.continue(); return; }
    traces++;
    if (!failed++) q.respond({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' });
    else q.continue();
  });
  await setText(page, fs.readFileSync(path.join(src, 'lessons/exercises/02-v1-padding.cu'), 'utf8') + '// again\n');
  const answered = new Promise((ok) => { page.on('response', (r) => { if (r.url().endsWith('/api/trace') && r.status() === 200) ok(); }); setTimeout(ok, 120000); });
  await page.click('#run');
  await answered;
  await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 120000 }).catch(() => {});
  check(traces === 2 && /CPU/.test(await status(page)), `a Run answered 502 by the proxy is sent again by itself: ${traces} requests; ${await status(page)}`);
  check(errors.length === 0, `no JavaScript error: ${errors.join(' | ')}`);
  return failures ? 1 : 0;
}

main().then((rc) => rc, (e) => { console.log('FAIL ' + (e.stack || e)); return 1; }).then(async (rc) => {
  if (browser) await browser.close().catch(() => {});
  if (server) server.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(rc === 0 ? `${NAME}: passed` : `${NAME}: ${failures} failed`);
  process.exit(rc);
});
