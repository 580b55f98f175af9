// The page reaches every user (Debian's chromium, headless, from puppeteer-core): a screen
// reader's, a keyboard's, a phone's and a 400%-zoomed laptop's. Checked from outside the page's
// code:
//  - axe-core (npm, tests/web's lock file) finds no serious or critical violation in the states a
//    student meets (first load, a step, a lesson's page and its question, the lessons' menu, the
//    versions' list, Help, the menu of more controls, the editor, Chinese; at 1024x768 and as a
//    phone), with its rule that a control's name holds its visible words turned on; every state
//    has an h1, a main landmark and a meta description;
//  - the live region says what the step's picture shows, against references worked out from the
//    kernels' addressing formulas, not from the page: v0's tree adds in phases with 256 / 2s
//    threads working (128, 64, ... 1); v1's first add puts warp 0's 32 lanes on words 0, 2, ...
//    62, two words per bank: conflict degree 2; the last step names the result and its verdict;
//    a change of version is said (the text names the new version); playing for 3 s changes it at
//    most once a second; the lesson's narration is not read on a page turn but on request;
//    Help is a list in the page (not only drawn);
//  - the keyboard: ArrowDown and ArrowUp move within the lessons' menu and the versions' list,
//    Enter picks, Esc closes and gives focus back to the button that opened it; opening a lesson
//    puts focus on its first control; a letter typed while a button has focus does nothing of
//    the key table's (l, t, x), and the setting turns single-key shortcuts off;
//  - the picture's cursor: ArrowDown on the picture (not on a button) moves it lane by lane,
//    Shift+ArrowDown a warp on, and the live region says the item's details alone, their numbers
//    against v1's addressing (thread t stores at word 2t in its first add), in English and Chinese;
//    a step keeps it and says the step, then the details; Esc lets it go before it opens the
//    lessons; Help names its keys;
//  - a phone (390x844, touch) reaches phase, speed, break-it, grid, benchmark, theme, language,
//    screenshot and open-a-trace (a file picker) from the page's own controls, and a lesson's
//    texts in the picture name its buttons (Tap, Answer, ›), not keys (PgDn, Enter, H);
//  - at 320x256 CSS px the page scrolls vertically, the picture is at least 160 px high and a
//    lesson's answer field can be scrolled to.
// Usage: node page_should_reach_every_user.js SITE_DIR OUT_DIR (screenshots of each state go
// there). Exit 77: no chromium, or no puppeteer-core or axe-core (one line says which).
'use strict';
const fs = require('fs'), path = require('path'), http = require('http');

const NAME = 'page_should_reach_every_user';
const [site, outDir] = process.argv.slice(2);
const chromium = process.env.WS_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) { console.log(`${NAME}: skipped: no chromium at ${chromium}`); process.exit(77); }
let puppeteer, axeSource;
try {
  puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core'));
  axeSource = fs.readFileSync(require.resolve(path.join(__dirname, 'node_modules', 'axe-core', 'axe.min.js')), 'utf8');
} catch (e) {
  console.log(`${NAME}: skipped: puppeteer-core or axe-core is not installed in tests/web (tools/setup-debian.sh runs npm ci there)`);
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });

let failures = 0;
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const DESKTOP = { name: '1024x768', width: 1024, height: 768, deviceScaleFactor: 1, mobile: false };
const PHONE = { name: '390x844', width: 390, height: 844, deviceScaleFactor: 3, mobile: true };
const ZOOMED = { name: '320x256', width: 320, height: 256, deviceScaleFactor: 4, mobile: false }; // 1280x1024 at 400%

const types = { '.html': 'text/html', '.js': 'text/javascript' };
const server = http.createServer((q, r) => {
  let p = decodeURIComponent(q.url.split('?')[0]);
  if (p === '/api/health') { r.writeHead(200, { 'Content-Type': 'application/json' }); r.end('{"ok":true}'); return; }
  if (p === '/') p = '/index.html';
  const file = path.join(site, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
  fs.readFile(file, (e, d) => {
    if (e) { r.writeHead(404); r.end(); return; }
    r.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    r.end(d);
  });
});

let browser, base;
async function open(url, screen) {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  const cdp = await page.createCDPSession();
  const { name, ...metrics } = screen;
  await cdp.send('Emulation.setDeviceMetricsOverride', metrics);
  if (screen.mobile) await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  page.cdp = cdp; page.ctx = ctx;
  await page.goto(base + url);
  await page.waitForFunction(() => document.body.dataset.firstPicture || !document.getElementById('trouble').hidden, { timeout: 20000 });
  await page.waitForFunction(() => !document.getElementById('trouble').hidden || window.warpscope.loaded(), { timeout: 20000 });
  await sleep(300);
  return page;
}
async function close(page) { await page.close(); await page.ctx.close(); }
async function shot(page, name) {
  const png = await page.cdp.send('Page.captureScreenshot', { format: 'png' });
  fs.writeFileSync(path.join(outDir, name + '.png'), Buffer.from(png.data, 'base64'));
}
const live = (page) => page.evaluate(() => document.getElementById('live').textContent);
const focused = (page) => page.evaluate(() => { const e = document.activeElement; return e ? (e.id || e.tagName.toLowerCase()) + (e.closest('#menu-items') ? ':menu' : e.closest('#versions-items') ? ':versions' : '') : ''; });
const clickSel = (page, sel) => page.evaluate((s) => { const e = document.querySelector(s); if (e) e.click(); return !!e; }, sel);

// ---- axe-core over the states ----
const STATES = [
  ['first load', '?lang=en', []],
  ['a step', '?lang=en&version=v1&step=11', []],
  ['a lesson', '?lang=en&lesson=02', []],
  ['a question', '?lang=en&lesson=02', ['#page-next']],
  ['the lessons\' menu', '?lang=en', ['#lessons']],
  ['the versions\' list', '?lang=en', ['#version']],
  ['help', '?lang=en', ['#help']],
  ['more controls', '?lang=en', ['#more']],
  ['the editor', '?lang=en&editor=1', []],
  ['Chinese', '?lang=zh&version=v2&step=5', []],
  ['compare', '?lang=en&version=v1&compare=v2&step=8', []],
];
async function axeStates() {
  const summary = [];
  for (const screen of [DESKTOP, PHONE]) {
    for (const [what, url, clicks] of STATES) {
      const page = await open(url, screen);
      for (const c of clicks) await clickSel(page, c);
      if (/editor/.test(url)) await page.waitForFunction(() => document.body.dataset.editor, { timeout: 20000 }).catch(() => {});
      await sleep(400);
      await page.evaluate(axeSource);
      const res = await page.evaluate(async () => {
        const r = await window.axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length, where: v.nodes.slice(0, 2).map((n) => n.target.join(' ')) }));
      });
      const bad = res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      const at = `${screen.name}, ${what}`;
      summary.push(`${at}: ${res.length ? res.map((v) => `${v.id} (${v.impact}, ${v.n})`).join(', ') : 'none'}`);
      check(!bad.length, `${at}: axe-core finds no serious or critical violation${bad.length ? ': ' + bad.map((v) => `${v.id} (${v.impact}) at ${v.where.join('; ')}`).join(', ') : ''}`);
      const marks = await page.evaluate(() => ({
        h1: [...document.querySelectorAll('h1')].filter((h) => h.textContent.trim()).length,
        main: document.querySelectorAll('main, [role=main]').length,
        description: (document.querySelector('meta[name=description]') || {}).content || '',
      }));
      check(marks.h1 >= 1 && marks.main === 1 && marks.description.length > 20, `${at}: an h1 (${marks.h1}), one main landmark (${marks.main}) and a meta description (${marks.description.length} characters)`);
      await shot(page, `${screen.name}-${what.replace(/[^a-z0-9]+/gi, '-')}`);
      await close(page);
    }
  }
  console.log('axe-core, every violation by state:\n  ' + summary.join('\n  '));
}

// ---- what the live region says ----
async function words() {
  const page = await open('?lang=en&version=v0&step=0', DESKTOP);
  // v0's adds: `sdata[tid] += sdata[tid + s]` where tid % (2s) == 0, s = 1, 2, ... 128: 256 / 2s threads
  const st0 = await page.evaluate(() => window.warpscope.state());
  const said = [], adds = [];
  for (let s = 0; s < st0.steps; s++) {
    await page.evaluate((k) => window.warpscope.actions('seek-step:' + k), s);
    await page.evaluate(() => window.warpscope.draw());
    const st = await page.evaluate(() => window.warpscope.state());
    const text = await live(page);
    said.push(`${s}: ${text}`);
    if (/\+=/.test(st.code || '') && /sdata\[tid \+ s\]/.test(st.code || '') && st.facts && st.facts.kind === 'shared_store') adds.push([s, text]);
  }
  const want = [128, 64, 32, 16, 8, 4, 2, 1];
  const got = adds.map(([, t]) => { const m = /(\d+) (?:lanes )?working/.exec(t); return m ? +m[1] : -1; });
  check(JSON.stringify(got) === JSON.stringify(want), `v0's adds say ${want.join(', ')} working, as 256 / 2s gives (they say ${got.join(', ')})`);
  check(adds.length && adds.every(([, t]) => /^v0\b/.test(t) && /step \d+ of \d+/.test(t)), 'each of them names the version and the step');
  check(adds.length && adds.every(([, t], i) => new RegExp(`\\b${want[i]} partial sums?\\b`).test(t)), 'each add says the partial sums it stores (the same count: each working thread stores one)');
  const last = said[said.length - 1];
  check(/result [-\d.]+/.test(last) && /\b(right|wrong|racing)\b/.test(last), `the last step names the result and its verdict: ${last}`);
  check(said.every((t) => t.length <= 260), `each step's text is short (longest ${Math.max(...said.map((t) => t.length))} characters)`);
  console.log('v0 said:\n  ' + [1, 3, 5, 8, 12].map((k) => said[k]).join('\n  '));
  // v1's first add: tid < 128 works, index 2*s*tid: warp 0's lanes on words 0, 2, ... 62 -> 2 per bank
  await page.evaluate(() => window.warpscope.actions('version:v1'));
  await page.evaluate(() => window.warpscope.draw());
  const v1 = await live(page);
  check(/^v1\b/.test(v1), `changing the version is said: ${v1}`);
  let found = '';
  for (let s = 0; s < 40 && !found; s++) {
    await page.evaluate((k) => window.warpscope.actions('seek-step:' + k), s);
    await page.evaluate(() => window.warpscope.draw());
    const st = await page.evaluate(() => window.warpscope.state());
    if (/\+=/.test(st.code || '') && st.facts && st.facts.kind === 'shared_store') found = await live(page);
  }
  check(/warp 0: (bank )?conflict degree 2/.test(found), `v1's first add: warp 0, conflict degree 2: ${found}`);
  await page.evaluate(() => window.warpscope.actions('version:v2,seek-step:5'));
  await page.evaluate(() => window.warpscope.draw());
  console.log('v2 step 5 said: ' + await live(page));
  await page.evaluate(() => window.warpscope.actions('compare:v3'));
  await page.evaluate(() => window.warpscope.draw());
  const cmp = await live(page);
  check(/v2\b.*v3\b/.test(cmp), `compare is said, with both versions: ${cmp}`);
  // playing: at most one line a second
  await page.evaluate(() => window.warpscope.actions('compare:off,seek-step:0'));
  await page.evaluate(() => {
    window.__changes = 0;
    new MutationObserver(() => { window.__changes++; }).observe(document.getElementById('live'), { childList: true, characterData: true, subtree: true });
  });
  await page.focus('canvas');
  await page.keyboard.press('Space');
  await sleep(3000);
  // counted while it plays (its start said at once, then at most a line a second), before the pause is said
  const changes = await page.evaluate(() => window.__changes);
  await page.keyboard.press('Space');
  check(changes <= 4, `playing for 3 s changes the live region at most once a second (${changes} times)`);
  await close(page);

  // a lesson: a page turn does not re-read the narration; the button reads it on request
  const lp = await open('?lang=en&lesson=02', DESKTOP);
  const say = (await lp.evaluate(() => window.warpscope.state())).say.replace(/\s+/g, ' ').trim();
  await clickSel(lp, '#page-next');
  await sleep(300);
  const turned = await live(lp), say2 = (await lp.evaluate(() => window.warpscope.state())).say.replace(/\s+/g, ' ').trim();
  check(say2 && !turned.includes(say2.slice(0, 40)) && turned.length < 300, `a page turn does not re-read the narration (${turned.length} characters: ${turned})`);
  const read = await clickSel(lp, '#read');
  await sleep(300);
  const onRequest = await live(lp);
  check(read && onRequest.includes(say2.slice(0, 40)), 'the Read button reads the narration and the question' + (read ? '' : ' (no #read button)'));
  await lp.focus('canvas');
  await lp.keyboard.press('Escape'); // leave the lesson: the menu
  await sleep(200);
  await close(lp);
  void say;

  // help: the page's own list
  const hp = await open('?lang=zh', DESKTOP);
  await clickSel(hp, '#help');
  await sleep(300);
  const help = await hp.evaluate(() => { const l = document.querySelector('#helplist'); return l && !l.closest('[hidden]') ? [...l.querySelectorAll('li')].map((li) => li.textContent) : []; });
  check(help.length >= 10 && help.some((t) => /[\u4e00-\u9fff]/.test(t)), `Help is a list in the page, in its language (${help.length} items${help.length ? ': ' + help.slice(0, 2).join(' | ') : ''})`);
  const cursorHelp = help.filter((t) => /Down, Up|Shift\+Down, Shift\+Up/.test(t) && t.includes('光标'));
  check(cursorHelp.length === 2, `Help names the picture's cursor keys in Chinese (${cursorHelp.join(' | ') || 'not there'})`);
  await close(hp);
}

// ---- the keyboard ----
async function keyboard() {
  const page = await open('?lang=en', DESKTOP);
  await page.focus('#lessons');
  await page.keyboard.press('Enter');
  await sleep(300);
  const first = await focused(page);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const third = await page.evaluate(() => [...document.querySelectorAll('#menu-items button')].indexOf(document.activeElement));
  await page.keyboard.press('ArrowUp');
  const second = await page.evaluate(() => [...document.querySelectorAll('#menu-items button')].indexOf(document.activeElement));
  check(first.endsWith(':menu') && third === 2 && second === 1, `the lessons' menu: focus on its first entry (${first}), ArrowDown twice to the third (${third}), ArrowUp to the second (${second})`);
  await page.keyboard.press('Escape');
  await sleep(300);
  const back = await focused(page), menuShut = await page.evaluate(() => document.getElementById('menu').hidden);
  check(menuShut && back === 'lessons', `Esc closes the menu and focus goes back to Lessons (${back})`);
  // a lesson opened from the menu: focus on its first control
  await page.keyboard.press('Enter');
  await sleep(300);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await sleep(500);
  const inLesson = await page.evaluate(() => window.warpscope.state().lesson);
  const lf = await focused(page);
  check(inLesson && /^(page-prev|page-next|read|answer)$/.test(lf), `opening a lesson puts focus on its first control (${lf})`);
  await close(page);

  const vp = await open('?lang=en', DESKTOP);
  await vp.focus('#version');
  await vp.keyboard.press('Enter');
  await sleep(200);
  for (let k = 0; k < 3; k++) await vp.keyboard.press('ArrowDown');
  const [vi, vwant] = await vp.evaluate(() => { const bs = [...document.querySelectorAll('#versions-items button')]; return [bs.indexOf(document.activeElement), bs[3] ? bs[3].textContent.split(':')[0] : '']; });
  await vp.keyboard.press('Enter');
  await sleep(300);
  const vs = await vp.evaluate(() => window.warpscope.state().version);
  check(vi === 3 && vwant && vwant !== 'v0' && vs === vwant, `the versions' list: ArrowDown three times to its fourth entry (${vi}: ${vwant}), Enter opens it (${vs})`);
  await vp.focus('#version');
  await vp.keyboard.press('Enter');
  await sleep(200);
  await vp.keyboard.press('Escape');
  await sleep(200);
  const vback = await focused(vp), vshut = await vp.evaluate(() => document.getElementById('versions').hidden);
  check(vshut && vback === 'version', `Esc closes the versions' list and focus goes back to Version (${vback})`);
  // letters on a focused button do nothing of the key table's
  await vp.focus('#step-next');
  const before = await vp.evaluate(() => { const s = window.warpscope.state(); return [s.lang, s.theme, s.status].join('|'); });
  for (const k of ['l', 't', 'x']) await vp.keyboard.press(k);
  await sleep(300);
  const after = await vp.evaluate(() => { const s = window.warpscope.state(); return [s.lang, s.theme, s.status].join('|'); });
  check(before === after, `l, t and x typed with Next step focused change nothing (${before} -> ${after})`);
  // on the picture they act; with the setting off they do not
  await vp.focus('canvas');
  await vp.keyboard.press('t');
  await sleep(200);
  const themed = await vp.evaluate(() => window.warpscope.state().theme);
  await vp.keyboard.press('t');
  const toggled = await clickSel(vp, '#shortcuts');
  await vp.focus('canvas');
  await vp.keyboard.press('t');
  await sleep(200);
  const off = await vp.evaluate(() => window.warpscope.state().theme);
  check(themed === 'dark' && toggled && off === 'light', `t on the picture switches the theme (${themed}); with single-key shortcuts off it does not (${toggled ? off : 'no #shortcuts control'})`);
  await close(vp);
}

// ---- the picture's cursor: the keys move it over the lanes and cells, the live region says them ----
async function cursor() {
  // v1's first add: `sdata[index] += sdata[index + s]` with index = 2 * s * tid, s = 1, for tid < 128:
  // thread t stores at word 2t
  const page = await open('?lang=en&version=v1&step=0', DESKTOP);
  const st = async () => { await page.evaluate(() => window.warpscope.draw()); return page.evaluate(() => window.warpscope.state()); }; // the drawn scene's
  let at = -1;
  for (let k = 0; k < 40 && at < 0; k++) {
    await page.evaluate((n) => window.warpscope.actions('seek-step:' + n), k);
    const s = await st();
    if (/\+=/.test(s.code || '') && s.facts && s.facts.kind === 'shared_store') at = k;
  }
  await page.evaluate((n) => window.warpscope.actions('seek-step:' + n), at);
  await page.evaluate(() => window.warpscope.draw());
  // from a button the arrows do not move it
  await page.focus('#step-next');
  await page.keyboard.press('ArrowDown');
  await sleep(100);
  check(!(await st()).focus, 'ArrowDown with a button focused leaves the picture\'s cursor alone');
  await page.focus('canvas');
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowDown');
  await sleep(200);
  const a = await st(), aLive = await live(page);
  check(at >= 0 && a.focus && a.focus.kind === 'lane' && a.focus.index === 3 && a.focus.cursor && /^thread 3: warp 0, lane 3, working; shared store \[6\], value \d/.test(aLive) && aLive === a.focus.details,
        `ArrowDown four times on the picture puts the cursor on thread 3, and the live region says it alone: ${aLive}`);
  // the ring around thread 3 (warp 0's lane 3 in the lanes-to-banks picture) and its tooltip
  const ring = await page.evaluate(() => {
    window.warpscope.draw();
    const l = window.warpscope.list(), f = l.panels.indexOf('focus'), lane = l.items.find((i) => i[0] === 0 && i[13] === ((2 << 24) | 3));
    return f >= 0 && !!lane && l.panels.includes('tooltip') &&
      l.items.some((i) => i[0] === 1 && i[12] === f && i[7] >= 2 && i[1] < lane[1] && i[2] < lane[2] && i[1] + i[3] > lane[1] + lane[3] && i[2] + i[4] > lane[2] + lane[4]);
  });
  check(ring, 'the cursor is drawn: a ring around thread 3, and its tooltip');
  await shot(page, '1024x768-cursor');
  await page.keyboard.down('Shift'); await page.keyboard.press('ArrowDown'); await page.keyboard.up('Shift');
  await sleep(200);
  const b = await st(), bLive = await live(page);
  check(b.focus && b.focus.index === 35 && /^thread 35: warp 1, lane 3, working; shared store \[70\]/.test(bLive),
        `Shift+ArrowDown moves it a warp on, to thread 35, stored at word 70: ${bLive}`);
  // a step keeps the cursor and says the step, then its details
  await page.keyboard.press('ArrowRight');
  await sleep(300);
  const c = await st(), cLive = await live(page);
  check(c.focus && c.focus.index === 35 && /^v1, step \d+ of \d+/.test(cLive) && cLive.endsWith(c.focus.details), `a step keeps the cursor: the step's sentence, then thread 35's details: ${cLive}`);
  await page.keyboard.press('Escape');
  await sleep(200);
  const d = await st();
  await page.keyboard.press('Escape');
  await sleep(300);
  const e = await st();
  check(!d.focus && d.overlay === '' && e.overlay === 'menu', `Esc lets the cursor go first (${d.focus ? 'still there' : 'gone'}, overlay "${d.overlay}"), then opens the lessons (${e.overlay})`);
  await close(page);
  // in Chinese the details are Chinese, from the same scene
  const zp = await open('?lang=zh&version=v1&step=' + at, DESKTOP);
  await zp.focus('canvas');
  await zp.keyboard.press('ArrowDown');
  await sleep(200);
  const zLive = await live(zp);
  check(/^线程 0：线程束 0，lane 0，工作；写共享内存 \[0\]/.test(zLive), `in Chinese the live region says the cursor's lane in Chinese: ${zLive}`);
  await shot(zp, '1024x768-cursor-zh');
  await close(zp);
}

// ---- a phone reaches every feature ----
async function phone() {
  const page = await open('?lang=en', PHONE);
  await clickSel(page, '#more');
  await sleep(300);
  const got = await page.evaluate(() => {
    const m = document.getElementById('more-items');
    if (!m || m.closest('[hidden]')) return null;
    return { keys: [...m.querySelectorAll('button[data-key]')].map((b) => b.dataset.key), file: !!m.querySelector('input[type=file]') || !!document.querySelector('#open-trace input[type=file], input[type=file]#trace-file') };
  });
  const want = ['PageUp', 'PageDown', '-', '=', 'x', 'd', 'g', 'b', 't', 'l', 's'];
  const missing = got ? want.filter((k) => !got.keys.includes(k)) : want;
  check(got && !missing.length && got.file, `a phone's More menu reaches phase, speed, break-it, grid, benchmark, theme, language and screenshot (missing: ${missing.join(' ') || 'none'}) and opens a trace from a file picker (${got && got.file})`);
  await shot(page, 'phone-more');
  // a tap on a theme entry acts
  await clickSel(page, '#more-items button[data-key="t"]');
  await sleep(300);
  check(await page.evaluate(() => window.warpscope.state().theme) === 'dark', 'the menu\'s Theme entry switches the theme');
  await close(page);
  // a lesson on a phone names the page's buttons, not keys: the picture's texts (the draw list)
  const lp = await open('?lang=en&lesson=02', PHONE);
  await clickSel(lp, '#page-next');
  await sleep(400);
  const texts = await lp.evaluate(() => { window.warpscope.draw(); return window.warpscope.items ? JSON.stringify(window.warpscope.list()) : ''; });
  const keysNamed = ['PgDn', 'PgUp', 'Enter', 'H: show', 'Space play'].filter((k) => texts.includes(k));
  check(!keysNamed.length && /Tap to pick/.test(texts) && /Answer/.test(texts), `a lesson's question on a phone names the buttons (Tap, Answer, ›), no key (${keysNamed.join(', ') || 'none named'})`);
  await close(lp);
}

// ---- 400% zoom: 320x256 CSS px ----
async function reflow() {
  for (const url of ['?lang=en', '?lang=en&lesson=02']) {
    const page = await open(url, ZOOMED);
    if (/lesson/.test(url)) { await clickSel(page, '#page-next'); await sleep(300); }
    const r = await page.evaluate(() => {
      const se = document.scrollingElement, c = document.querySelector('canvas').getBoundingClientRect();
      const a = document.getElementById('answer');
      let reach = null;
      if (a && !a.hidden) { a.scrollIntoView(); const b = a.getBoundingClientRect(); reach = b.top >= 0 && b.bottom <= window.innerHeight + 0.5; }
      return { scroll: se.scrollHeight, view: window.innerHeight, wide: se.scrollWidth, vw: window.innerWidth, canvas: Math.round(c.height), reach };
    });
    await shot(page, `320x256-${/lesson/.test(url) ? 'question' : 'first'}`);
    check(r.scroll > r.view && r.wide <= r.vw && r.canvas >= 160 && r.reach !== false,
          `320x256 (${url}): the page scrolls vertically (${r.scroll} of ${r.view} px), not sideways (${r.wide}), the picture is ${r.canvas} px high (160 or more)${r.reach === null ? '' : ', the answer field ' + (r.reach ? 'reached' : 'NOT reached')}`);
    await close(page);
  }
}

async function main() {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox'], defaultViewport: null });
  const only = process.env.WS_ONLY ? process.env.WS_ONLY.split(',') : null;
  try {
    for (const [name, fn] of [['axe', axeStates], ['words', words], ['keyboard', keyboard], ['cursor', cursor], ['phone', phone], ['reflow', reflow]])
      if (!only || only.includes(name)) await fn().catch((e) => check(false, `${name}: ${e.message}`));
  } finally {
    await browser.close();
    server.close();
  }
  console.log(failures ? `${NAME}: ${failures} failed` : `${NAME}: ok`);
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log('FAIL ' + (e.stack || e)); process.exit(1); });
