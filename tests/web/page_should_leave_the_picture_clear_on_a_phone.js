// The page on a phone leaves its picture clear (Debian's chromium, headless, its screen set through
// the CDP: Emulation.setDeviceMetricsOverride and Emulation.setTouchEmulationEnabled). At 390x844
// (pixel ratio 3), 360x740 (pixel ratio 2) and both in landscape (844x390, 740x360), in the states
// a student meets (the first screen, the versions' list open, a version picked by a tap, the
// lessons' menu open, a lesson's question, compare, a notice, the kernel editor), four rules read
// from the DOM, none from the page's own code:
//  - no visible control (a button, field, list or dialog) overlaps the canvas's box;
//  - no visible element reaches past the viewport's left or right edge, and the page does not
//    scroll sideways;
//  - every visible control is at least 44x44 CSS pixels;
//  - no visible text of the page's own is under 16 CSS pixels.
// And a tap on the list's entry opens that version (the list is in reach of a finger).
// Usage: node page_should_leave_the_picture_clear_on_a_phone.js SITE_DIR OUT_DIR (a screenshot of
// each state goes there). Exit 77: no chromium or no puppeteer-core (one line says which).
'use strict';
const fs = require('fs'), path = require('path'), http = require('http');

const NAME = 'page_should_leave_the_picture_clear_on_a_phone';
const [site, outDir] = process.argv.slice(2);
const chromium = process.env.WS_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) { console.log(`${NAME}: skipped: no chromium at ${chromium}`); process.exit(77); }
let puppeteer;
try { puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core')); } catch (e) {
  console.log(`${NAME}: skipped: puppeteer-core is not installed in tests/web (tools/setup-debian.sh runs npm ci there)`);
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });

let failures = 0;
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const LEAST_CONTROL = 44, LEAST_TEXT = 16; // CSS pixels: a finger's target, a phone's readable text
const SCREENS = [
  { name: '390x844', width: 390, height: 844, deviceScaleFactor: 3, mobile: true },
  { name: '360x740', width: 360, height: 740, deviceScaleFactor: 2, mobile: true },
  { name: '844x390', width: 844, height: 390, deviceScaleFactor: 3, mobile: true, screenOrientation: { type: 'landscapePrimary', angle: 90 } },
  { name: '740x360', width: 740, height: 360, deviceScaleFactor: 2, mobile: true, screenOrientation: { type: 'landscapePrimary', angle: 90 } },
];
// a state: the address, the controls tapped, and what must be shown then (so that no rule
// holds because the state never came)
const STATES = [
  ['the first screen', '?lang=en', [], '#bar'],
  ['the versions\' list', '?lang=en', ['#version'], '#versions-items button'],
  ['the lessons\' menu', '?lang=en', ['#lessons'], '#menu-items button'],
  ['a lesson\'s question', '?lang=en&lesson=02', ['#page-next'], '#answer'],
  ['compare', '?lang=en&version=v2&compare=v3&step=20', [], '#compare[aria-pressed=true]'],
  ['the first screen in Chinese', '?lang=zh', [], '#bar'],
  ['a notice', '?lang=en&actions=foo', [], '#notice-close'],
  ['the kernel editor', '?lang=en&editor=1', [], '#run'],
];

const types = { '.html': 'text/html', '.js': 'text/javascript' };
const server = http.createServer((q, r) => {
  let p = decodeURIComponent(q.url.split('?')[0]);
  // the editor's area as under `warpscope serve`: its health is answered here (nothing is run)
  if (p === '/api/health') { r.writeHead(200, { 'Content-Type': 'application/json' }); r.end('{"ok":true}'); return; }
  if (p === '/') p = '/index.html';
  const file = path.join(site, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
  fs.readFile(file, (e, d) => {
    if (e) { r.writeHead(404); r.end(); return; }
    r.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    r.end(d);
  });
});

async function open(ctx, url, screen) {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const cdp = await page.createCDPSession();
  const { name, ...metrics } = screen;
  await cdp.send('Emulation.setDeviceMetricsOverride', metrics);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  page.cdp = cdp;
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.firstPicture || !document.getElementById('trouble').hidden, { timeout: 20000 });
  await page.waitForFunction(() => !document.getElementById('trouble').hidden || window.warpscope.loaded(), { timeout: 20000 });
  return { page, errors };
}
async function tap(page, sel) {
  const b = await page.$(sel);
  if (!b) return false;
  await b.scrollIntoViewIfNeeded();
  const box = await b.boundingBox();
  if (!box) return false;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await sleep(200);
  return true;
}

// the four rules, from the DOM's boxes and computed styles
function rules(least) {
  const vw = document.documentElement.clientWidth;
  const shown = (el) => {
    if (el.closest('[hidden]')) return false;
    for (let e = el; e; e = e.parentElement) { const s = getComputedStyle(e); if (s.display === 'none' || s.visibility === 'hidden') return false; }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  // the screen reader's region is clipped to nothing on purpose: it is read, not seen
  const unseen = (el) => !!el.closest('.sr');
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.getAttribute('aria-label') ? ` "${el.getAttribute('aria-label')}"` : el.textContent.trim() ? ` "${el.textContent.trim().slice(0, 24)}"` : '');
  const canvas = document.querySelector('canvas'), c = canvas.getBoundingClientRect();
  const out = { canvas: [c.left, c.top, c.width, c.height].map(Math.round), over: [], wide: [], small: [], tiny: [], controls: 0, texts: 0,
                scroll: document.documentElement.scrollWidth, vw };
  for (const el of document.body.querySelectorAll('*')) {
    if (el === canvas || !shown(el) || unseen(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > vw + 0.5) out.wide.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    const control = el.matches('button, input, select, textarea, a[href], [role=dialog], [tabindex]');
    if (control) {
      out.controls++;
      const ix = Math.min(r.right, c.right) - Math.max(r.left, c.left), iy = Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top);
      if (ix > 0.5 && iy > 0.5) out.over.push(`${name(el)} (${Math.round(ix)}x${Math.round(iy)} px over it)`);
      if (!el.matches('[role=dialog]') && (r.width < least.control - 0.5 || r.height < least.control - 0.5)) out.small.push(`${name(el)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    if ([...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) {
      out.texts++;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < least.text - 0.01) out.tiny.push(`${name(el)} ${px} px`);
    }
  }
  return out;
}
const some = (list) => list.length ? ': ' + [...new Set(list)].slice(0, 6).join(', ') + (list.length > 6 ? ` and ${list.length - 6} more` : '') : '';

async function main() {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  // no viewport of puppeteer's own: the screen is the CDP's override alone, screenshots included
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox'], defaultViewport: null });
  try {
    for (const screen of SCREENS) {
      for (const [what, query, taps, must] of STATES) {
        const ctx = await browser.createBrowserContext();
        const { page, errors } = await open(ctx, base + query, screen);
        const tapped = [];
        for (const sel of taps) tapped.push(await tap(page, sel));
        if (/editor/.test(query)) tapped.push(await page.waitForFunction(() => document.body.dataset.editor, { timeout: 20000 }).then(() => true, () => false));
        await sleep(500); // the picture has been drawn at its new size
        const shot = `${screen.name}-${what.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}.png`;
        const png = await page.cdp.send('Page.captureScreenshot', { format: 'png' }); // in device pixels
        fs.writeFileSync(path.join(outDir, shot), Buffer.from(png.data, 'base64'));
        const r = await page.evaluate(rules, { control: LEAST_CONTROL, text: LEAST_TEXT });
        const seen = await page.evaluate((sel) => { const e = document.querySelector(sel); return !!e && !e.closest('[hidden]') && e.getBoundingClientRect().height > 0; }, must);
        const at = `${screen.name}, ${what}`;
        check(tapped.every(Boolean) && seen && r.canvas[2] > 0 && r.canvas[3] > 0 && r.controls > 0,
              `${at}: the page opens with its picture (canvas ${r.canvas.join(',')}) and ${r.controls} controls${taps.length ? ', ' + taps.join(' then ') + ' tapped' : ''}, ${must} ${seen ? 'shown' : 'NOT shown'}`);
        check(!r.over.length, `${at}: no visible control overlaps the picture${some(r.over)}`);
        check(!r.wide.length && r.scroll <= r.vw, `${at}: nothing reaches past the ${r.vw} px viewport (the page is ${r.scroll} px wide)${some(r.wide)}`);
        check(!r.small.length, `${at}: every control is at least ${LEAST_CONTROL}x${LEAST_CONTROL} CSS px${some(r.small)}`);
        check(!r.tiny.length, `${at}: none of the page's ${r.texts} texts is under ${LEAST_TEXT} CSS px${some(r.tiny)}`);
        check(!errors.length, `${at}: no console error${some(errors)}`);
        // the versions' list is in reach: its last entry (scrolled to, where the list scrolls),
        // tapped, opens that version
        if (/versions/.test(what)) {
          const was = await page.evaluate(() => window.warpscope.state().version);
          const want = await page.evaluate(() => { const b = document.querySelector('#versions-items button:last-child'); return b ? b.textContent.split(':')[0] : ''; });
          await tap(page, '#versions-items button:last-child');
          await sleep(300);
          const got = await page.evaluate(() => ({ version: window.warpscope.state().version, open: !document.getElementById('versions').hidden }));
          check(want && want !== was && got.version === want && !got.open,
                `${screen.name}: the list's last entry, tapped, opens ${want || '(no entry)'} instead of ${was} and closes the list (${got.version}${got.open ? ', the list still open' : ''})`);
          const p = await page.evaluate(rules, { control: LEAST_CONTROL, text: LEAST_TEXT });
          check(!p.over.length && !p.wide.length, `${screen.name}, a version picked: the picture is clear and nothing is wider than the viewport${some(p.over.concat(p.wide))}`);
        }
        await page.close();
        await ctx.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(failures ? `${NAME}: ${failures} failed` : `${NAME}: ok`);
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log('FAIL ' + (e.stack || e)); process.exit(1); });
