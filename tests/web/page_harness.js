// What the page's browser tests share: the skip when Chromium, puppeteer-core or axe-core is
// missing (exit 77, one line saying which), a static server of the built site (its /api/ answered
// as by no class server), a page opened at a screen's size and waited for until its first picture,
// the live region, the focus, a frame, axe-core, the choice question read from the accessibility
// tree, and a run that launches the browser, reports every check and exits 0 or 1.
'use strict';
const fs = require('fs'), path = require('path'), http = require('http');

module.exports = function harness(NAME, site, outDir) {
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

  let failures = 0, browser = null, base = '';
  const check = (ok, what) => { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const types = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = http.createServer((q, r) => {
    let p = decodeURIComponent(q.url.split('?')[0]);
    if (p === '/api/health') { r.writeHead(200, { 'Content-Type': 'application/json' }); r.end('{"ok":true}'); return; }
    if (p.startsWith('/api/')) { r.writeHead(503, { 'Content-Type': 'application/json' }); r.end('{"error":"this test has no server"}'); return; }
    if (p === '/') p = '/index.html';
    const file = path.join(site, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(file, (e, d) => {
      if (e) { r.writeHead(404); r.end(); return; }
      r.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      r.end(d);
    });
  });
  // a page of its own (a fresh context: its own storage) at a screen's size, not yet anywhere
  async function blank(screen) {
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    const cdp = await page.createCDPSession();
    const { name, ...metrics } = screen;
    await cdp.send('Emulation.setDeviceMetricsOverride', metrics);
    page.cdp = cdp; page.ctx = ctx;
    return page;
  }
  // before(page): what the test sets up before the page loads (its requests answered, say)
  async function open(url, screen, before) {
    const page = await blank(screen);
    if (before) await before(page);
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
  const focused = (page) => page.evaluate(() => { const e = document.activeElement; return !e || e === document.body ? 'body' : e.id || (e.closest('#choices') ? 'choice' : e.closest('#code') ? 'code' : e.tagName.toLowerCase()); });
  const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  async function axe(page, at) {
    await page.evaluate(axeSource);
    const res = await page.evaluate(async () => {
      const r = await window.axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, where: v.nodes.slice(0, 2).map((n) => n.target.join(' ')) }));
    });
    check(!res.length, `${at}: axe-core finds no violation${res.length ? ': ' + res.map((v) => `${v.id} (${v.impact}) at ${v.where.join('; ')}`).join(', ') : ''}`);
  }
  // the question's group and its buttons, from the accessibility tree
  async function tree(page) {
    const snap = await page.accessibility.snapshot({ interestingOnly: false });
    let group = null;
    (function walk(n) { if (!n || group) return; if (n.role === 'group' && (n.children || []).some((c) => c.role === 'button') && n.name) group = n; (n.children || []).forEach(walk); })(snap);
    return group ? { name: group.name || '', options: (group.children || []).filter((c) => c.role === 'button').map((c) => ({ name: c.name, disabled: !!c.disabled })) } : null;
  }
  async function run(body) {
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${server.address().port}/`;
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      await body();
    } catch (e) {
      check(false, 'the test ran to its end: ' + (e.stack || e));
    } finally {
      await browser.close();
      server.close();
    }
    console.log(failures ? `${NAME}: ${failures} FAILED` : `${NAME}: all passed`);
    process.exit(failures ? 1 : 0);
  }
  return {
    check, sleep, blank, open, close, shot, live, focused, frame, axe, tree, run,
    DESKTOP: { name: '1024x768', width: 1024, height: 768, deviceScaleFactor: 1, mobile: false },
    squash: (t) => t.replace(/\s+/g, ' ').trim(),
  };
};
