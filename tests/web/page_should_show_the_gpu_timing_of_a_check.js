// The lab's GPU timing in the browser (issue 53's contract), without a GPU: the page's requests to
// api/check, api/gpu, api/gpu/tries, api/health and api/class/leaderboard are answered by this test
// (puppeteer's request interception) with JSON shaped as the contract says.
// The student's page (?exercise=07, English and Chinese): a Check queued for the card shows "Timing
// on the GPU… (2nd in the queue)" as the checklist's first item, then "running now", then the
// server's line in the page's language; the chart of the timed tries is named by them ("3 tries timed:
// 410, 980, 1,367 GB/s; best 1,367"); the outcome is said in the live region once, the polls stop,
// the focus stays in the editor; a new Check stops the old try's polls; wrong on the card is a missed
// goal with the card's error; failed says its error; not-timed is a quiet line, never said; no answer
// in two minutes says so and stops; axe-core finds no violation.
// The teacher's page (/class of a real `warpscope serve`, its /api/class answered with a class of
// three): the fastest per student of the exercise picked, ranks, GB/s and % of the best read, names
// full, as initials and hidden ("Student 1"), the choice kept across a reload; the leaderboard asked
// again with the class's table while a focused control keeps its focus and the live region says
// nothing; hidden where /api/health says "gpu": null; English and Chinese; axe-core.
// Screenshots at 1024x768 and 1920x1080, English and Chinese, in OUT_DIR.
// Usage: node page_should_show_the_gpu_timing_of_a_check.js SITE_DIR WARPSCOPE SOURCE_DIR OUT_DIR.
'use strict';
const fs = require('fs'), path = require('path'), os = require('os');
const { spawn } = require('child_process');
const [site, ws, src, outDir] = process.argv.slice(2);
const NAME = 'page_should_show_the_gpu_timing_of_a_check';
const H = require('./page_harness')(NAME, site, outDir);
const { check, sleep } = H;
const WIDE = { name: '1920x1080', width: 1920, height: 1080, deviceScaleFactor: 1, mobile: false };
const exJson = JSON.parse(fs.readFileSync(path.join(src, 'lessons/exercises/07-shuffles.json'), 'utf8'));
const EX_ID = exJson.id;
const STUDENT = 'Ada Lovelace';

// the server's lines of a timing, as app/gpu_time.h's gpu_speed_line writes them
const LINE = { en: '1,367 GB/s, 29 % of this card\'s best read, CUB 2,724 GB/s', zh: '1,367 GB/s，本卡最快读取的 29 %，CUB 2,724 GB/s' };
const WRONG = 'at n = 67108864 the card\'s sum is 1, the double-precision sum 2 (off by 1)';
const FAILED = 'the card\'s run did not finish in 60 s';
const gbsList = (v) => v.map((x) => Math.round(x).toLocaleString('en-US'));

// What the fake server answers, changed by the test as the lab's queue moves. gpu[id]: the try's
// answer to api/gpu?id=; tries: the session's tries of the exercise; asked: every request seen.
function fakeServer() {
  const f = { checks: [], gpu: {}, tries: [], asked: [], health: { ok: true, gpu: { card: 'NVIDIA H200', queue: 0, queue_max: 64 } } };
  const file = () => ({ file: 'source.cu', ran: true, judged: true, runs: 18, met: exJson.exercise.goals.length, solved: true,
                        goals: exJson.exercise.goals.map((g) => ({ goal: g.say.en, met: true, value: 0, every_run: true })) });
  f.routes = {
    '/api/health': () => [200, f.health],
    '/api/join': () => [200, { student: STUDENT }],
    '/api/check': () => [200, { exercise: EX_ID, sandbox: 'test', files: [file()], gpu: f.checks.shift() }],
    '/api/trace': () => [503, { error: { message: 'this test has no builds' } }],
    '/api/gpu': (u) => { const g = f.gpu[u.searchParams.get('id')]; return g ? [200, g] : [404, { error: { message: 'no such try' } }]; },
    '/api/gpu/tries': (u) => [200, { tries: u.searchParams.get('exercise') === EX_ID ? f.tries : [] }],
  };
  f.listen = async (page) => {
    await page.setRequestInterception(true);
    page.on('request', (q) => {
      const u = new URL(q.url()), route = f.routes[u.pathname];
      f.asked.push(u.pathname + u.search);
      if (!route) { q.continue(); return; }
      const [status, body] = route(u, q);
      q.respond({ status, contentType: 'application/json', body: JSON.stringify(body) });
    });
  };
  f.polls = (id) => f.asked.filter((a) => a === '/api/gpu?id=' + id).length;
  return f;
}
const gpuTry = (id, state, more) => ({ id, exercise: EX_ID, state, card: 'NVIDIA H200', at_ms: Date.now(), ...more });
const timedTry = (id, gbs) => ({ id, at_ms: Date.now(), state: 'timed', gbs, fraction: gbs / 4712 });

// the live region's every text, recorded from the page's load
async function recordLive(page) {
  await page.evaluate(() => {
    window.liveSaid = [];
    new MutationObserver(() => { const t = document.getElementById('live').textContent; if (t) window.liveSaid.push(t); })
      .observe(document.getElementById('live'), { childList: true, characterData: true, subtree: true });
  });
}
const said = (page, text) => page.evaluate((t) => window.liveSaid.filter((s) => s.includes(t)).length, text);
const item = (page) => page.evaluate(() => {
  const li = document.getElementById('gpu-item'), svg = li && li.querySelector('svg');
  return li ? { text: li.querySelector('.gpu-line').textContent, cls: li.className, first: li === document.getElementById('checklist').firstElementChild,
                chart: svg ? svg.getAttribute('aria-label') : null, role: svg ? svg.getAttribute('role') : null } : null;
});
const itemIs = (page, re) => page.waitForFunction((s) => { const l = document.querySelector('#gpu-item .gpu-line'); return l && new RegExp(s).test(l.textContent); },
  { timeout: 8000 }, re.source).then(() => true, () => false);
async function pressCheck(page) {
  await page.waitForFunction(() => !document.getElementById('check').disabled && !document.getElementById('check').hidden, { timeout: 20000 });
  await page.click('#check');
  await page.waitForFunction(() => !document.getElementById('check').disabled && !document.getElementById('checklist').hidden, { timeout: 20000 });
}

async function student(lang) {
  const zh = lang === 'zh', f = fakeServer();
  const page = await H.open(`?lang=${lang}&exercise=07`, H.DESKTOP, f.listen);
  await page.waitForFunction(() => document.body.dataset.editor && !document.getElementById('task').hidden, { timeout: 30000 });
  await page.evaluate((n) => { document.getElementById('student').value = n; }, STUDENT);
  await recordLive(page);

  // queued (2nd, then next), running, timed: the first item of the checklist says each
  f.checks.push({ id: 11, state: 'queued' });
  f.gpu[11] = gpuTry(11, 'queued', { position: 2 });
  f.tries = [timedTry(5, 410.2), { id: 6, at_ms: Date.now(), state: 'wrong', gbs: null, fraction: null }, timedTry(7, 980.4)];
  await pressCheck(page);
  check(await itemIs(page, zh ? /正在 GPU 上计时……（排队第 2 位）/ : /^Timing on the GPU… \(2nd in the queue\)$/), `${lang}: queued: ${JSON.stringify(await item(page))}`);
  let it = await item(page);
  check(it && it.first, `${lang}: the speed line is the checklist's first item`);
  await page.waitForFunction(() => document.querySelector('#gpu-item svg'), { timeout: 5000 }).catch(() => {});
  it = await item(page);
  const two = zh ? `已计时 2 次：${gbsList([410.2, 980.4]).join('、')} GB/s；最好 980` : `2 tries timed: ${gbsList([410.2, 980.4]).join(', ')} GB/s; best 980`;
  check(it && it.chart === two && it.role === 'img', `${lang}: while it waits, the earlier tries' chart is named by them: ${it && it.chart}`);
  await page.focus('#code .cm-content');
  f.gpu[11] = gpuTry(11, 'queued', { position: 1 });
  check(await itemIs(page, zh ? /（下一个就是你）/ : /\(next in the queue\)$/), `${lang}: next in the queue: ${(await item(page) || {}).text}`);
  f.gpu[11] = gpuTry(11, 'running');
  check(await itemIs(page, zh ? /（正在运行）/ : /\(running now\)$/), `${lang}: running: ${(await item(page) || {}).text}`);
  check(await said(page, zh ? '排队' : 'in the queue') === 0, `${lang}: the waiting is not said at each poll`);
  f.tries = [...f.tries, timedTry(11, 1367.2)];
  f.gpu[11] = gpuTry(11, 'timed', { gbs: 1367.2, best_read_gbs: 4712.0, fraction: 0.29, cub_gbs: 2724.1, line: LINE,
                                    sizes: [{ n: 16777216, ok: true, gbs: 1200.1 }, { n: 67108864, ok: true, gbs: 1367.2 }] });
  check(await itemIs(page, new RegExp('^' + LINE[lang].replace(/[()]/g, '\\$&') + '$')), `${lang}: timed: the server's line in the page's language: ${(await item(page) || {}).text}`);
  const three = zh ? `已计时 3 次：${gbsList([410.2, 980.4, 1367.2]).join('、')} GB/s；最好 1,367` : '3 tries timed: 410, 980, 1,367 GB/s; best 1,367';
  await page.waitForFunction((t) => { const s = document.querySelector('#gpu-item svg'); return s && s.getAttribute('aria-label') === t; }, { timeout: 5000 }, three).catch(() => {});
  it = await item(page);
  check(it && it.chart === three, `${lang}: the chart's text alternative lists the timed tries: ${it && it.chart}`);
  const drawn = await page.evaluate(() => { const s = document.querySelector('#gpu-item svg'), b = s.getBoundingClientRect(), li = s.closest('li').getBoundingClientRect();
    return { dots: s.querySelectorAll('circle').length, best: s.querySelectorAll('circle.best').length, inside: b.right <= li.right + 1 && b.left >= li.left - 1 && b.width > 100 }; });
  check(drawn.dots === 3 && drawn.best === 1 && drawn.inside, `${lang}: the chart draws 3 tries, the best marked, inside its item: ${JSON.stringify(drawn)}`);
  const polls = f.polls(11);
  await sleep(2500);
  check(f.polls(11) === polls, `${lang}: timed: the polls stop (${polls} asked)`);
  check(await said(page, LINE[lang]) === 1, `${lang}: the line is said in the live region once: ${await said(page, LINE[lang])}`);
  check(await H.focused(page) === 'code', `${lang}: the focus stays in the editor: ${await H.focused(page)}`);
  await H.axe(page, `${lang}: the timed line and its chart`);
  await H.shot(page, `gpu-line-1024x768-${lang}`);
  await page.cdp.send('Emulation.setDeviceMetricsOverride', (({ name, ...m }) => m)(WIDE));
  await H.frame(page); await sleep(300);
  await H.shot(page, `gpu-line-1920x1080-${lang}`);
  // on a phone: the chart within the screen, its words 16 CSS pixels or more, as the page's own text
  await page.cdp.send('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 3, mobile: true });
  await H.frame(page); await sleep(300);
  await page.evaluate(() => { const c = document.getElementById('checklist'); c.scrollTop = 0; document.getElementById('editor').scrollTop = document.getElementById('editor').scrollHeight; });
  const phone = await page.evaluate(() => { const s = document.querySelector('#gpu-item svg'), b = s.getBoundingClientRect(), t = s.querySelector('text');
    return { left: b.left, right: b.right, vw: innerWidth, px: parseFloat(getComputedStyle(t).fontSize), line: parseFloat(getComputedStyle(document.querySelector('#gpu-item .gpu-line')).fontSize) }; });
  check(phone.left >= 0 && phone.right <= phone.vw && phone.px >= 16 && phone.line >= 16, `${lang}: on a phone the chart fits the screen, its words 16 px or more: ${JSON.stringify(phone)}`);
  await H.shot(page, `gpu-line-390x844-${lang}`);
  await page.cdp.send('Emulation.setDeviceMetricsOverride', (({ name, ...m }) => m)(H.DESKTOP));

  // a new Check while a try waits: the old try is asked no more; this one is wrong on the card
  f.checks.push({ id: 12, state: 'queued' });
  f.gpu[12] = gpuTry(12, 'queued', { position: 3 });
  await pressCheck(page);
  await page.waitForFunction(() => /3/.test((document.querySelector('#gpu-item .gpu-line') || {}).textContent || ''), { timeout: 5000 }).catch(() => {});
  f.checks.push({ id: 13, state: 'queued' });
  f.gpu[13] = gpuTry(13, 'queued', { position: 1 });
  await pressCheck(page);
  const old = f.polls(12);
  f.gpu[13] = gpuTry(13, 'wrong', { error: WRONG, sizes: [{ n: 16777216, ok: true, gbs: 1200.1 }, { n: 67108864, ok: false, got: 1.0, reference: 2.0 }] });
  const wrongText = (zh ? '在显卡上算错了：' : 'Wrong on the card: ') + WRONG;
  check(await itemIs(page, new RegExp(wrongText.replace(/[()]/g, '\\$&'))), `${lang}: wrong on the card, with the card's error: ${(await item(page) || {}).text}`);
  it = await item(page);
  check(it && /\bmissed\b/.test(it.cls), `${lang}: wrong on the card is a missed goal: ${it && it.cls}`);
  await sleep(1500);
  check(f.polls(12) === old && old >= 1, `${lang}: a new Check stops the polls of the try before it (${old} asked, none after)`);
  check(await said(page, wrongText) === 1, `${lang}: wrong on the card is said once`);
  await page.close(); await page.ctx.close();
  return f;
}

async function studentEnds() {
  const f = fakeServer();
  const page = await H.open('?lang=en&exercise=07', H.DESKTOP, f.listen);
  await page.waitForFunction(() => document.body.dataset.editor && !document.getElementById('task').hidden, { timeout: 30000 });
  await page.evaluate((n) => { document.getElementById('student').value = n; }, STUDENT);
  await recordLive(page);
  // failed: its error
  f.checks.push({ id: 21, state: 'queued' });
  f.gpu[21] = gpuTry(21, 'failed', { error: FAILED });
  await pressCheck(page);
  check(await itemIs(page, new RegExp('^Not timed on the card: ' + FAILED + '$')), `failed: its error: ${(await item(page) || {}).text}`);
  // not-timed: its why, quietly (shown, never said), nothing asked of api/gpu
  const why = 'a correctness goal was missed: the card times only a solved file';
  f.checks.push({ state: 'not-timed', why });
  const asked = f.asked.filter((a) => a.startsWith('/api/gpu')).length;
  await pressCheck(page);
  await sleep(1500);
  const it = await item(page);
  check(it && it.text === why && /quiet/.test(it.cls), `not-timed: its why, as a quiet line: ${JSON.stringify(it)}`);
  check(await said(page, why) === 0 && f.asked.filter((a) => a.startsWith('/api/gpu')).length === asked, 'not-timed: not said, and no try asked for');
  // no answer in two minutes (the clock moved on): said, and the polls stop
  f.checks.push({ id: 22, state: 'queued' });
  f.gpu[22] = gpuTry(22, 'queued', { position: 40 });
  await pressCheck(page);
  check(await itemIs(page, /\(40th in the queue\)$/), `the 40th in the queue: ${(await item(page) || {}).text}`);
  await page.evaluate(() => { const real = Date.now; Date.now = () => real() + 121000; });
  check(await itemIs(page, /^No timing came back from the GPU in 2 minutes/), `two minutes without an answer: said: ${(await item(page) || {}).text}`);
  const polls = f.polls(22);
  await sleep(2000);
  check(f.polls(22) === polls, 'and the polls stop');
  await page.close(); await page.ctx.close();
}

// ---- the teacher's page ----
function serve(tmp) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: path.join(tmp, 'cache'), WARPSCOPE_TOKEN: 'gpu-page-token-5',
                  WARPSCOPE_UNSAFE: '1' /* this test runs no file: a machine without a sandbox serves the teacher's page too */ };
    fs.mkdirSync(env.HOME, { recursive: true });
    const p = spawn(ws, ['serve', '--port', '0', '--state', path.join(tmp, 'state'), '--workers', '1'],
                    { env, stdio: ['ignore', 'pipe', fs.openSync(path.join(outDir, 'serve.err'), 'w')] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('serve said nothing in 30 s: ' + out)), 30000);
    p.stdout.on('data', (d) => { out += d; const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out); if (m) { clearTimeout(timer); resolve({ p, base: `http://127.0.0.1:${m[1]}` }); } });
    p.on('exit', (c) => reject(new Error('serve ended (' + c + '): ' + out)));
  });
}
function classOf() {
  const exercises = fs.readdirSync(path.join(src, 'lessons/exercises')).filter((n) => n.endsWith('.json')).sort().map((n) => {
    const l = JSON.parse(fs.readFileSync(path.join(src, 'lessons/exercises', n), 'utf8'));
    return { id: l.id, title: l.title, goals: l.exercise.goals.map((g) => g.say) };
  });
  const goals = exercises.find((x) => x.id === EX_ID).goals.length, now = Date.now();
  const tried = (met) => ({ exercise: EX_ID, met, goals, solved: met === goals, ran: true, tries: 3, last_try_ms: now - 60000 });
  return {
    class: { id: 1, code: 'GPU753', state: 'open', students: 3, opened_ms: now - 3600000 },
    classes: [{ id: 1, code: 'GPU753', state: 'open', students: 3, opened_ms: now - 3600000 }],
    exercises,
    students: [{ name: STUDENT, exercises: [tried(goals)] }, { name: '李雷', exercises: [tried(goals)] }, { name: "Ana O'Neil", exercises: [tried(goals)] }],
  };
}
const ROWS = [{ rank: 1, name: STUDENT, gbs: 2500.3, fraction: 0.53 }, { rank: 2, name: '李雷', gbs: 1800.0, fraction: 0.382 }, { rank: 3, name: "Ana O'Neil", gbs: 900.4, fraction: 0.191 }];

async function teacher(base) {
  const cls = classOf(), board = [];
  let health = { ok: true, gpu: { card: 'NVIDIA H200', queue: 0, queue_max: 64 } };
  const listen = async (page) => {
    await page.setRequestInterception(true);
    page.on('request', (q) => {
      const u = new URL(q.url()), json = (body) => q.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
      if (u.pathname === '/api/health') json(health);
      else if (u.pathname === '/api/class') json(cls);
      else if (u.pathname === '/api/class/leaderboard') {
        board.push(u.searchParams.get('exercise'));
        json({ exercise: u.searchParams.get('exercise'), card: 'NVIDIA H200', rows: u.searchParams.get('exercise') === EX_ID ? ROWS.map((r) => ({ ...r, at_ms: Date.now() })) : [] });
      } else q.continue();
    });
  };
  const page = await H.blank(H.DESKTOP);
  await listen(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '/class', { waitUntil: 'load' });
  await page.type('#token', 'gpu-page-token-5');
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#signin button')]);
  const rows = () => page.evaluate(() => [...document.querySelectorAll('#boardrows tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
  const pick = async (mode) => { await page.click(`input[name=names][value=${mode}]`); await sleep(200); return rows(); };
  for (const lang of ['en', 'zh']) {
    const zh = lang === 'zh';
    await page.goto(base + '/class' + (zh ? '?lang=zh' : ''), { waitUntil: 'load' });
    await page.waitForFunction(() => !document.getElementById('board').hidden && document.querySelectorAll('#boardrows tr').length === 3, { timeout: 10000 }).catch(() => {});
    const seen = await page.evaluate(() => ({ title: document.getElementById('boardtitle').textContent, ex: document.getElementById('boardex').value,
      heads: [...document.querySelectorAll('#boardtable thead th')].map((t) => t.textContent) }));
    check(seen.ex === EX_ID && board.includes(EX_ID), `${lang}: the picker opens on the exercise the class tried: ${seen.ex}`);
    check(/NVIDIA H200/.test(seen.title) && (zh ? /显卡/.test(seen.title) : /fastest/.test(seen.title)), `${lang}: the leaderboard's title names the card: ${seen.title}`);
    check(zh ? seen.heads.join() === '名次,学生,GB/s,占本卡最快读取的 %' : seen.heads.join() === "Rank,Student,GB/s,% of the card's best read", `${lang}: its columns: ${seen.heads.join(' | ')}`);
    let r = await pick('full');
    check(JSON.stringify(r) === JSON.stringify(ROWS.map((x) => [String(x.rank), x.name, Math.round(x.gbs).toLocaleString('en-US'), Math.round(x.fraction * 100) + ' %'])),
          `${lang}: full names, ranks, GB/s, % of the best read: ${JSON.stringify(r)}`);
    r = await pick('initials');
    check(JSON.stringify(r.map((x) => x[1])) === JSON.stringify(['A. L.', '李*', 'A. O.']), `${lang}: initials: ${r.map((x) => x[1]).join(', ')}`);
    r = await pick('hidden');
    const anon = [1, 2, 3].map((i) => (zh ? '学生 ' : 'Student ') + i);
    check(JSON.stringify(r.map((x) => x[1])) === JSON.stringify(anon), `${lang}: hidden, for a projector: ${r.map((x) => x[1]).join(', ')}`);
    const text = await page.$eval('#board', (e) => e.innerText);
    check(!/Ada|Lovelace|李雷|O'Neil/.test(text), `${lang}: hidden: no name in the leaderboard's section`);
    await H.axe(page, `${lang}: /class with the leaderboard`);
    await page.screenshot({ path: path.join(outDir, `leaderboard-1024x768-${lang}.png`), fullPage: true });
    await page.setViewport({ width: 1920, height: 1080 });
    await page.screenshot({ path: path.join(outDir, `leaderboard-1920x1080-${lang}.png`), fullPage: true });
    await page.setViewport({ width: 1024, height: 768 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    check(wide <= 1024, `${lang}: nothing wider than a projector's 1024 px: ${wide}`);
  }
  // the choice is kept across a reload (the browser's storage)
  await page.goto(base + '/class', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('#boardrows tr').length === 3, { timeout: 10000 }).catch(() => {});
  check(JSON.stringify((await rows()).map((x) => x[1])) === JSON.stringify(['Student 1', 'Student 2', 'Student 3']), 'hidden names are kept across a reload');
  // refreshed with the class's table: a focused control keeps its focus, and nothing is said
  await page.focus('input[name=names][value=initials]');
  const before = await page.$eval('#status', (e) => e.textContent), asked = board.length;
  await sleep(7000);
  check(board.length >= asked + 2, `the leaderboard is asked again with the class's table: ${board.length - asked} times in 7 s`);
  check(await page.evaluate(() => document.activeElement && document.activeElement.matches('input[name=names][value=initials]')), 'a focused control keeps its focus across the refreshes');
  check(await page.$eval('#status', (e) => e.textContent) === before, `the live region says nothing of the refreshes (${JSON.stringify(before)})`);
  await pick('full');
  // another exercise: asked for it; none timed yet: said
  const other = cls.exercises.find((x) => x.id !== EX_ID).id;
  await page.select('#boardex', other);
  await page.waitForFunction(() => !document.getElementById('boardnone').hidden, { timeout: 5000 }).catch(() => {});
  check(board[board.length - 1] === other && await page.$eval('#boardnone', (e) => e.textContent) === 'No timed try of this exercise yet.', `another exercise: asked for it, none timed yet: ${board[board.length - 1]}`);
  await page.select('#boardex', EX_ID);
  // a server without a GPU: no leaderboard
  health = { ok: true, gpu: null };
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('#class tr').length >= 4, { timeout: 10000 }).catch(() => {});
  await sleep(500);
  check(await page.$eval('#board', (e) => e.hidden && getComputedStyle(e).display === 'none'), 'a server without a GPU ("gpu": null): no leaderboard');
  check(errors.length === 0, `no JavaScript error on /class: ${errors.join(' | ')}`);
  await page.close(); await page.ctx.close();
}

H.run(async () => {
  for (const lang of ['en', 'zh']) await student(lang);
  await studentEnds();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-gpu-page-'));
  let server = null;
  try {
    const s = await serve(tmp);
    server = s.p;
    await teacher(s.base);
  } finally {
    if (server) server.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
