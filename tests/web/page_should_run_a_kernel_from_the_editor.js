// The page's kernel editor against a real `warpscope serve` (Debian's chromium, driven by
// puppeteer-core): started on a free port with a temporary --state and --token, the page it serves
// opens its editor; a kernel typed into `Kernel source` and `Run` comes back as a trace the page
// shows, and the live region names its result, checked against the double-precision sum (computed
// here) of the input values the trace says the kernel loaded; a syntax error is marked at its line in
// the editor and said in the status line and the live region; exercise 02 checked in the page shows
// one line per goal of the exercise's file and the student appears in /api/class (with the token),
// the teacher's link to that try (?trace=) opening it; a wrong entry is marked in its field;
// the learner's text, exercise and name are kept across a reload; served as a plain static site,
// the editor area says that writing kernels needs `warpscope serve`, in English and in Chinese.
// Usage: node page_should_run_a_kernel_from_the_editor.js SITE_DIR WARPSCOPE SOURCE_DIR OUT_DIR.
// Exit 77: no chromium or no puppeteer-core (one line says which).
'use strict';
const fs = require('fs'), path = require('path'), http = require('http'), os = require('os');
const { spawn } = require('child_process');

const [site, ws, src, outDir] = process.argv.slice(2);
const chromium = process.env.WS_CHROMIUM || '/usr/bin/chromium';
const NAME = 'page_should_run_a_kernel_from_the_editor';
if (!fs.existsSync(chromium)) { console.log(`${NAME}: skipped: no chromium at ${chromium} (tools/setup-debian.sh installs it)`); process.exit(77); }
let puppeteer;
try { puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core')); } catch (e) {
  console.log(`${NAME}: skipped: puppeteer-core is not installed in tests/web (tools/setup-debian.sh runs npm ci there)`);
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-editor-'));

let failures = 0;
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; return ok; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TOKEN = 'editor-test-token-7';

// the server, on a free port, with a state and a cache of its own; it prints where it listens
function serve() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'cache'), WARPSCOPE_WEB: site };
    fs.mkdirSync(env.HOME, { recursive: true });
    const p = spawn(ws, ['serve', '--port', '0', '--state', path.join(tmp, 'state'), '--token', TOKEN, '--workers', '2'],
                    { env, stdio: ['ignore', 'pipe', fs.openSync(path.join(outDir, 'serve.err'), 'w')] });
    let said = '';
    const timer = setTimeout(() => reject(new Error('serve said nothing in 30 s: ' + said)), 30000);
    p.stdout.on('data', (d) => {
      said += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
      if (m) { clearTimeout(timer); resolve({ p, base: `http://127.0.0.1:${m[1]}/` }); }
    });
    p.on('exit', (c) => reject(new Error('serve ended (' + c + '): ' + said + fs.readFileSync(path.join(outDir, 'serve.err'), 'utf8'))));
  });
}
function get(url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (r) => { let b = ''; r.on('data', (d) => { b += d; }); r.on('end', () => resolve({ status: r.statusCode, body: b })); }).on('error', reject);
  });
}

// the live region's text once it holds what `want` finds (or the time is up)
async function liveWhen(page, want, ms) {
  try {
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('live').textContent), { timeout: ms || 120000, polling: 100 }, want.source);
  } catch (e) { /* said below */ }
  return page.evaluate(() => document.getElementById('live').textContent);
}
// the editor's text replaced by `text`, typed as a learner types it (lines without indentation:
// the editor indents by itself)
async function typeKernel(page, text) {
  const box = await page.waitForSelector('aria/Kernel source', { timeout: 20000 });
  const now = () => page.evaluate(() => { const t = document.querySelector('#code textarea'); return t ? t.value : document.querySelector('#code .cm-content').textContent; });
  for (let tries = 0; tries < 5 && (tries === 0 || await now()); tries++) { // all of it selected and gone, as a learner makes sure
    if (tries) await sleep(200);
    await box.focus();
    await page.keyboard.down('Control'); await page.keyboard.press('a'); await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
  }
  await page.keyboard.type(text.split('\n').map((l) => l.trim()).join('\n'));
}
async function field(page, id, value) {
  await page.click('#' + id, { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.type('#' + id, value);
}
// the line (1-based) of the error mark in the editor: CodeMirror's marked range, or the plain
// field's selection where the page was built without its editor
function markedLine(page) {
  return page.evaluate(() => {
    const r = document.querySelector('#code .cm-lintRange-error');
    if (r) { const line = r.closest('.cm-line'); return [...line.parentNode.children].filter((e) => e.classList.contains('cm-line')).indexOf(line) + 1; }
    const t = document.querySelector('#code textarea');
    return t && t.selectionEnd > t.selectionStart ? t.value.slice(0, t.selectionStart).split('\n').length : 0;
  });
}

// each element one thread loads into shared memory: a block's tree sum into out[0]
const KERNEL = `__global__ void sum(const float *in, float *out, unsigned n)
{
__shared__ float s[256];
unsigned t = threadIdx.x;
s[t] = t < n ? in[t] : 0.0f;
__syncthreads();
for (unsigned half = 128; half > 0; half >>= 1) {
if (t < half) s[t] += s[t + half];
__syncthreads();
}
if (t == 0) out[0] = s[0];
}
`;
const N = 200;

(async () => {
  let server = null, browser = null, statics = null;
  try {
    server = await serve();
    console.log('serve: ' + server.base);
    browser = await puppeteer.launch({ executablePath: chromium, args: ['--no-sandbox', '--font-render-hinting=none'] });
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewport({ width: 1366, height: 768 });
    await page.goto(server.base + '?lang=en');
    await page.waitForFunction(() => document.body.dataset.firstPicture, { timeout: 30000 });
    // the editor opens by its button, beside the picture on a wide screen
    await (await page.waitForSelector('aria/Write a kernel[role="button"]')).click();
    await page.waitForFunction(() => document.body.dataset.editor, { timeout: 30000 }).catch(() => {});
    const kind = await page.evaluate(() => document.body.dataset.editor || '');
    const bundled = fs.existsSync(path.join(site, 'editor.js.gz'));
    const beside = await page.evaluate(() => { const e = document.getElementById('editor').getBoundingClientRect(), c = document.getElementById('warpscope').getBoundingClientRect(); return e.left >= c.right - 1 && e.height > 600; });
    check((kind === 'codemirror' || (kind === 'plain' && !bundled)) && beside,
          `the editor opens beside the picture at 1366x768 (${kind || 'not opened'}; the bundle ${bundled ? 'built' : 'not built'}; beside: ${beside})`);

    // a kernel typed and run: the live region names its result, the double sum of what it loaded
    await typeKernel(page, KERNEL);
    await field(page, 'student', 'Ada Lovelace'); // a Run is a student's: the page joins the class with the name (a session)
    await field(page, 'entry', 'sum<<<1, 256>>>(in, out, n)');
    await field(page, 'n', String(N));
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/trace'), { timeout: 120000 });
    await (await page.$('aria/Run[role="button"]')).click();
    const res = await answer;
    const trace = res.status() === 200 ? await res.json() : null;
    check(trace !== null, `Run: /api/trace answered ${res.status()}` + (trace ? '' : ': ' + (await res.text()).slice(0, 300)));
    let live = await liveWhen(page, /result/);
    if (trace) {
      // the input, as the trace's loads of buffer 0 ("in") carry it: each element once, summed in double
      const seen = new Map();
      for (const e of trace.events) if (e.k === 'global_load' && e.g === 0) e.a.forEach((a, i) => seen.set(a, e.v[i]));
      let sum = 0;
      for (const [a, v] of seen) if (a < N) sum += v;
      const m = /result (-?[\d.e+-]+)/.exec(live);
      const said = m ? Number(m[1]) : NaN;
      check(seen.size >= N && Math.abs(said - sum) <= 1e-5 * Math.max(1, Math.abs(sum)),
            `the live region names the result ${m ? m[1] : '(none)'}, the double sum of the ${seen.size} elements loaded is ${sum}: "${live.slice(0, 160)}"`);
      const steps = await page.evaluate(() => window.warpscope.state());
      check(steps.steps > 1 && steps.version === trace.provenance.version,
            `the trace opens in the viewer (${steps.steps} steps, version ${steps.version})`);
      const panel = await page.evaluate(() => { window.warpscope.draw(); return window.warpscope.list().items.map((i) => i[11]).filter(Boolean).join('\n'); }); // the frame after the trace opened
      check(/s\[t\] \+= s\[t \+ half\]/.test(panel), 'the source panel shows the text that was run' + (/s\[t\] \+= s\[t \+ half\]/.test(panel) ? '' : ': ' + JSON.stringify(panel.slice(0, 600))));
      // compare: the learner's capture beside a ladder version
      await page.select('#compare-with', 'v2');
      await sleep(500);
      const cmp = await page.evaluate(() => window.warpscope.state());
      check(cmp.compare === 'v2' && cmp.version === trace.provenance.version, `compare: the kernel beside v2 (${cmp.version} | ${cmp.compare})`);
      await page.select('#compare-with', '');
    }
    await page.screenshot({ path: path.join(outDir, 'run.png') });

    // a syntax error: marked at its line in the editor, said in the status line and the live region
    const BAD = KERNEL.replace('unsigned t = threadIdx.x;', 'unsigned t = threadIdx.x +;');
    const badLine = BAD.split('\n').findIndex((l) => l.includes('+;')) + 1;
    await typeKernel(page, BAD);
    await (await page.$('aria/Run[role="button"]')).click();
    live = await liveWhen(page, /Line \d+/);
    await page.waitForSelector('#code .cm-lintRange-error', { timeout: 5000 }).catch(() => {});
    const marked = await markedLine(page);
    const status = await page.evaluate(() => document.getElementById('editor-status').textContent);
    check(marked === badLine, `the error is marked at line ${badLine} in the editor (marked: ${marked})`);
    check(new RegExp('^Line ' + badLine + ', column \\d+: ').test(status) && live.includes(status),
          `the status line and the live region say it: "${status}"`);
    await page.screenshot({ path: path.join(outDir, 'error.png') });
    // a wrong entry is marked in its own field, not in the kernel's text
    await typeKernel(page, KERNEL);
    await field(page, 'entry', 'nosuch<<<1, 256>>>(in, out, n)');
    await (await page.$('aria/Run[role="button"]')).click();
    live = await liveWhen(page, /Entry(, column \d+)?: /, 120000);
    const entryMark = await page.evaluate(() => [document.activeElement.id, document.getElementById('code').querySelector('.cm-lintRange-error') !== null]);
    check(/Entry(, column \d+)?: /.test(live) && entryMark[0] === 'entry' && !entryMark[1], `a wrong entry is said and its field focused: "${live.slice(0, 120)}"`);
    await field(page, 'entry', 'sum<<<1, 256>>>(in, out, n)');

    // exercise 02 checked in the page: one line per goal of its file, and the class has the student
    const ex = JSON.parse(fs.readFileSync(path.join(src, 'lessons/exercises/02-v1-padding.json'), 'utf8'));
    await page.select('#exercise', '02-v1-padding');
    const start = fs.readFileSync(path.join(src, 'lessons/exercises', ex.exercise.start), 'utf8');
    const shown = await page.evaluate(() => [document.querySelector('#code .cm-content') ? [...document.querySelectorAll('#code .cm-line')].map((l) => l.textContent).join('\n') : document.querySelector('#code textarea').value, document.getElementById('entry').value]);
    check(shown[0].trim() === start.trim() && shown[1] === ex.exercise.entry, 'exercise 02 loads its starting file and its entry');
    await field(page, 'student', 'Ada Lovelace');
    const checked = page.waitForResponse((r) => r.url().endsWith('/api/check'), { timeout: 300000 });
    await (await page.$('aria/Check[role="button"]')).click();
    const cres = await checked;
    check(cres.status() === 200, `Check: /api/check answered ${cres.status()}`);
    live = await liveWhen(page, /goals met/, 10000);
    const items = await page.evaluate(() => [...document.querySelectorAll('#checklist li')].map((l) => [l.className, l.textContent]));
    const goals = items.filter((i) => i[0] === 'met' || i[0] === 'missed');
    check(goals.length === ex.exercise.goals.length && goals.every((g, i) => g[1].startsWith(ex.exercise.goals[i].say.en)),
          `the checklist has a line per goal of the exercise, in its words (${goals.length} of ${ex.exercise.goals.length})`);
    // the starting file misses a goal by design (lesson check proves it)
    check(goals.some((g) => g[0] === 'missed') && /\d+ of \d+ goals met/.test(live) && /Missed: /.test(live),
          `the live region names the goals missed: "${live.slice(0, 200)}"`);
    // and the checked file's picture, under the exercise's capture: its text in the source panel
    await page.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 120000 }).catch(() => {});
    await page.waitForFunction(() => window.warpscope.list().items.some((i) => /g_odata\[blockIdx\.x\]/.test(i[11] || '')), { timeout: 10000 }).catch(() => {});
    const pic = await page.evaluate(() => [window.warpscope.state().version, window.warpscope.state().steps, window.warpscope.list().items.some((i) => /g_odata\[blockIdx\.x\]/.test(i[11] || ''))]);
    check(pic[0] === 'kernel' && pic[2], `the checked file's trace is shown after the checklist (${JSON.stringify(pic)})`);
    await page.screenshot({ path: path.join(outDir, 'check.png') });
    const cls = await get(server.base + 'api/class', { Authorization: 'Bearer ' + TOKEN });
    let mine = null;
    try { mine = JSON.parse(cls.body).students.find((st) => st.name === 'Ada Lovelace'); } catch (e) { mine = null; }
    const tried = mine && mine.exercises.find((x) => x.exercise === ex.id);
    check(cls.status === 200 && tried && tried.goals === ex.exercise.goals.length && tried.met === goals.filter((g) => g[0] === 'met').length,
          `/api/class has the student and the exercise, with as many goals met as the page showed (${cls.status}: ${JSON.stringify(tried || cls.body.slice(0, 200))})`);
    // the teacher's link to the student's last try opens it in the page (?trace=)
    if (tried) {
      // the teacher signs in once (the token in a POST's body; a cookie after), then no address holds the token
      const last = '/api/class/last?student=' + encodeURIComponent('Ada Lovelace') + '&exercise=' + encodeURIComponent(ex.id);
      const t = await browser.newPage();
      await t.setViewport({ width: 1366, height: 768 });
      await t.goto(server.base + 'class');
      await t.evaluate((tok) => fetch('/api/class/signin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: tok }) }), TOKEN);
      await t.goto(server.base + '?trace=' + encodeURIComponent(last));
      await t.waitForFunction(() => document.body.dataset.firstPicture, { timeout: 30000 });
      await t.waitForFunction(() => window.warpscope.state().version === 'kernel', { timeout: 20000 }).catch(() => {});
      const st = await t.evaluate(() => window.warpscope.state());
      check(st.version === 'kernel' && st.steps > 1, `the teacher's link (?trace=/api/class/last...) opens the student's last try (${st.version}, ${st.steps} steps)`);
      await t.close();
    }

    // a Check of a file that does not compile: its error at its line, and nothing of the Check
    // before left beside it (no goal shown met)
    const brokenText = start + '\nint broken = ;\n', brokenLine = brokenText.split('\n').indexOf('int broken = ;') + 1;
    await typeKernel(page, brokenText);
    const bad = page.waitForResponse((r) => r.url().endsWith('/api/check'), { timeout: 300000 });
    await (await page.$('aria/Check[role="button"]')).click();
    const bres = await bad;
    await page.waitForFunction(() => !document.getElementById('check').disabled, { timeout: 60000 }).catch(() => {});
    const broke = await page.evaluate(() => [document.getElementById('checklist').hidden ? '' : document.getElementById('checklist').textContent,
                                             document.querySelectorAll('#checklist li.met').length, document.getElementById('editor-status').textContent]);
    const said = broke[0] + ' ' + broke[2];
    check((bres.status() === 200 || bres.status() === 422) && broke[1] === 0 && said.includes(String(brokenLine)),
          `a Check that does not compile says its error at line ${brokenLine} and shows no goal met from the Check before (${bres.status()}, ${broke[1]} met, "${said.slice(0, 160)}")`);

    // kept: the exercise, its text and the name, across a reload
    await typeKernel(page, '// mine\n' + start);
    await sleep(300);
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.editor, { timeout: 30000 }).catch(() => {});
    const kept = await page.evaluate(() => [document.getElementById('exercise').value, document.getElementById('student').value,
      (document.querySelector('#code .cm-line') || {}).textContent || (document.querySelector('#code textarea') || {}).value || '']);
    check(kept[0] === '02-v1-padding' && kept[1] === 'Ada Lovelace' && kept[2].startsWith('// mine') && /[?&]editor=1&exercise=02/.test(page.url()),
          `after a reload the editor, the exercise, the name and the learner's text are kept (${page.url().replace(/^.*\?/, '?')}; ${JSON.stringify(kept).slice(0, 120)})`);
    // run from inside a lesson: the learner's trace leaves the lesson (its narration is about its own capture)
    await page.waitForFunction(() => window.warpscope.loaded(), { timeout: 30000 });
    await page.evaluate(() => window.warpscope.learn('02'));
    const inLesson = await page.evaluate(() => window.warpscope.state().lesson);
    await (await page.$('aria/Run[role="button"]')).click();
    await liveWhen(page, /result/, 120000);
    const after = await page.evaluate(() => [window.warpscope.state().lesson, window.warpscope.state().version, document.getElementById('lessonbar').hidden]);
    check(inLesson === true && after[0] === false && after[1] === 'kernel' && after[2] === true, `Run in lesson 02 leaves the lesson for the kernel's trace (${JSON.stringify(after)})`);
    // on a phone every control of the editor is a target of 44 CSS pixels or more
    const phone = await browser.newPage();
    await phone.setViewport({ width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    await phone.goto(server.base + '?lang=en&editor=1&exercise=02');
    await phone.waitForFunction(() => document.body.dataset.editor, { timeout: 30000 }).catch(() => {});
    const small = await phone.evaluate(() => [...document.querySelectorAll('#editor button, #editor input, #editor select, #write')]
      .filter((e) => e.offsetParent !== null).map((e) => [e.id, Math.round(e.getBoundingClientRect().width), Math.round(e.getBoundingClientRect().height)]));
    check(small.length >= 8 && small.every((t) => t[1] >= 44 && t[2] >= 44), `at 390x844 the editor's ${small.length} controls are 44 CSS pixels or more (${JSON.stringify(small.filter((t) => t[1] < 44 || t[2] < 44))})`);
    await phone.close();
    check(errors.length === 0, 'no console error' + (errors.length ? ': ' + errors.join(' | ') : ''));
    await page.close();

    // a plain static site: the editor area says what writing kernels needs, in both languages
    statics = http.createServer((q, r) => {
      let p = decodeURIComponent(q.url.split('?')[0]);
      if (p === '/') p = '/index.html';
      fs.readFile(path.join(site, path.normalize(p).replace(/^(\.\.[/\\])+/, '')), (e, d) => { r.writeHead(e ? 404 : 200); r.end(e ? '' : d); });
    });
    await new Promise((r) => statics.listen(0, '127.0.0.1', r));
    for (const [lang, words] of [['en', /Writing kernels needs warpscope serve/], ['zh', /编写内核需要 warpscope serve/]]) {
      const p = await browser.newPage();
      await p.setViewport({ width: 1366, height: 768 });
      await p.goto(`http://127.0.0.1:${statics.address().port}/?lang=${lang}`);
      await p.waitForFunction(() => document.body.dataset.firstPicture, { timeout: 30000 });
      await (await p.waitForSelector(`aria/${lang === 'zh' ? '编写内核' : 'Write a kernel'}[role="button"]`)).click();
      await p.waitForFunction(() => !document.getElementById('editor-note').hidden, { timeout: 10000 }).catch(() => {});
      const note = await p.evaluate(() => [document.getElementById('editor-note').textContent, document.getElementById('editor-note').hidden,
                                           document.getElementById('code').offsetHeight, !!document.querySelector('#code .cm-editor')]);
      check(words.test(note[0]) && !note[1] && note[2] === 0 && !note[3], `static site (${lang}): "${note[0]}", no editor loaded`);
      // the lessons keep working
      await p.waitForFunction(() => window.warpscope.loaded(), { timeout: 30000 }); // the rest of the pack
      await p.evaluate(() => window.warpscope.learn('02'));
      const st = await p.evaluate(() => window.warpscope.state());
      check(st.lesson === true, `static site (${lang}): lesson 02 opens`);
      if (lang === 'en') await p.screenshot({ path: path.join(outDir, 'static.png') });
      await p.close();
    }
  } catch (e) {
    check(false, 'the test ran to its end: ' + (e.stack || e));
  } finally {
    if (browser) await browser.close();
    if (statics) statics.close();
    if (server) server.p.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(failures ? `${NAME}: ${failures} failed` : `${NAME}: all passed`);
  process.exit(failures ? 1 : 0);
})();
