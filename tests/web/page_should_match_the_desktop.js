// The page in a real browser (Debian's chromium, headless, driven by puppeteer-core): it loads with
// no console error, Right steps, L draws Chinese, a lesson's lanes question is marked right and
// wrong by clicking lanes, a dropped trace opens, S saves a PNG, and the draw list the page executes
// at a step equals the one the desktop builds for the same step (the desktop laid out with the
// widths the browser measured), its pixels resembling the desktop's render.
// Usage: node page_should_match_the_desktop.js SITE_DIR WARPSCOPE OUT_DIR. Exit 77: no chromium or
// no puppeteer-core (one line says which).
'use strict';
const fs = require('fs'), path = require('path'), http = require('http'), os = require('os');
const { execFileSync } = require('child_process');

const [site, ws, outDir] = process.argv.slice(2);
const chromium = process.env.WS_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) { console.log(`page_should_match_the_desktop: skipped: no chromium at ${chromium} (tools/setup-debian.sh installs it)`); process.exit(77); }
let puppeteer;
try { puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core')); } catch (e) {
  console.log('page_should_match_the_desktop: skipped: puppeteer-core is not installed in tests/web (tools/setup-debian.sh runs npm ci there)');
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });

let failures = 0;
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((q, r) => {
  let p = decodeURIComponent(q.url.split('?')[0]);
  if (p === '/') p = '/index.html';
  const file = path.join(site, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
  fs.readFile(file, (e, d) => {
    if (e) { r.writeHead(404); r.end(); return; }
    r.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    r.end(d);
  });
});

function desktop(args) { return execFileSync(ws, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString(); }

async function open(browser, base, query, w, h) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewport({ width: w, height: h });
  await page.goto(base + query);
  await page.waitForFunction(() => document.body.dataset.firstPicture || !document.getElementById('trouble').hidden, { timeout: 20000 });
  await page.waitForFunction(() => !window.warpscope || window.warpscope.loaded(), { timeout: 20000 }); // the rest of the pack
  return { page, errors };
}

// the frame when its motion has ended: the list the page executed for it
async function settled(page) {
  await sleep(900);
  return page.evaluate(() => { window.warpscope.draw(); return window.warpscope.list(); });
}

// the canvas's size: the window less the page's controls
function canvasSize(page) { return page.evaluate(() => { const c = document.getElementById('warpscope'); return [c.width, c.height]; }); }

// the page's list against the desktop's for the same actions, laid out with the page's widths
async function sameList(page, name, actions) {
  const list = await settled(page);
  const [w, h] = await canvasSize(page);
  const metrics = await page.evaluate(() => window.warpscope.metrics());
  const mfile = path.join(outDir, name + '-metrics.json'), dfile = path.join(outDir, name + '-desktop.json');
  fs.writeFileSync(mfile, JSON.stringify(metrics));
  fs.writeFileSync(path.join(outDir, name + '-page.json'), JSON.stringify(list));
  desktop(['render', '--version', 'v0', '--actions', actions, '--size', `${w}x${h}`, '--metrics', mfile, '-o', dfile]);
  const want = JSON.parse(fs.readFileSync(dfile, 'utf8'));
  let first = -1;
  for (let i = 0; i < Math.max(want.items.length, list.items.length) && first < 0; i++)
    if (JSON.stringify(want.items[i]) !== JSON.stringify(list.items[i])) first = i;
  check(first < 0 && JSON.stringify(want.panels) === JSON.stringify(list.panels),
        `${name}: the page's draw list equals the desktop's (${list.items.length} items vs ${want.items.length}` +
        (first >= 0 ? `; first difference at item ${first}: page ${JSON.stringify(list.items[first])} desktop ${JSON.stringify(want.items[first])})` : ')'));
  return list;
}

// the canvas against the desktop's PNG of the same step: cell by cell (16 px), the mean colour
async function resembles(page, name, actions) {
  const [w, h] = await canvasSize(page);
  const png = path.join(outDir, name + '-desktop.png');
  desktop(['render', '--version', 'v0', '--actions', actions, '--size', `${w}x${h}`, '-o', png]);
  const data = fs.readFileSync(png).toString('base64');
  const r = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.getElementById('warpscope'), o = document.createElement('canvas');
    o.width = c.width; o.height = c.height;
    const octx = o.getContext('2d');
    octx.drawImage(img, 0, 0);
    const a = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, b = octx.getImageData(0, 0, c.width, c.height).data;
    let cells = 0, close = 0;
    for (let y = 0; y + 16 <= c.height; y += 16)
      for (let x = 0; x + 16 <= c.width; x += 16) {
        // the desktop's cell at the same place, or up to 8 px above or below: the page measures text
        // with the browser's fonts and the desktop with its own, so a panel may sit a few pixels apart
        let d = Infinity;
        for (const dy of [0, -4, 4, -8, 8]) {
          if (y + dy < 0 || y + dy + 16 > c.height) continue;
          let dd = 0;
          for (let k = 0; k < 3; k++) {
            let sa = 0, sb = 0;
            for (let yy = y; yy < y + 16; yy++) for (let xx = x; xx < x + 16; xx++) { const i = 4 * (yy * c.width + xx) + k; sa += a[i]; sb += b[i + 4 * dy * c.width]; }
            dd = Math.max(dd, Math.abs(sa - sb) / 256);
          }
          d = Math.min(d, dd);
        }
        cells++;
        if (d < 24) close++;
      }
    return { cells, close };
  }, data);
  const share = r.close / r.cells;
  check(share >= 0.9, `${name}: the canvas resembles the desktop's render: ${(100 * share).toFixed(1)}% of ${r.cells} 16-pixel cells within 24 of 255 in mean colour, the desktop's up to 8 px higher or lower (at least 90%)`);
}

// the site's size as a server sends it gzipped: at most 5 MB
function siteSize() {
  const zlib = require('zlib');
  let raw = 0, gz = 0;
  const parts = [];
  for (const f of fs.readdirSync(site)) {
    const p = path.join(site, f);
    if (!fs.statSync(p).isFile()) continue;
    const b = fs.readFileSync(p), z = zlib.gzipSync(b, { level: 9 }).length;
    raw += b.length; gz += z;
    parts.push(`${f} ${(z / 1e3).toFixed(0)} kB`);
  }
  check(gz <= 5e6, `the site is ${(raw / 1e6).toFixed(2)} MB, ${(gz / 1e6).toFixed(2)} MB gzipped (at most 5 MB): ${parts.join(', ')}`);
}

async function main() {
  siteSize();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--force-device-scale-factor=1'] });
  try {
    // the first picture, and no console error
    const W = 1024, H = 768;
    const { page, errors } = await open(browser, base, '?lang=en', W, H);
    const times = await page.evaluate(() => ({ load: +document.body.dataset.loadMs, first: +document.body.dataset.firstPicture }));
    console.log(`page: the first picture ${times.first} ms after navigation began, ${times.load} ms after the page's script started`);
    const trouble = await page.evaluate(() => document.getElementById('trouble').hidden ? '' : document.getElementById('trouble').textContent);
    check(!trouble, 'the page starts' + (trouble ? ': ' + trouble : ''));

    // Right steps
    const s0 = (await page.evaluate(() => window.warpscope.state())).step;
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const s1 = (await page.evaluate(() => window.warpscope.state())).step;
    check(s1 === s0 + 2, `Right steps: step ${s0} -> ${s1} after two presses`);
    await sameList(page, 'v0-en', 'first,step:+1,step:+1');
    await resembles(page, 'v0-en', 'first,step:+1,step:+1');
    await page.screenshot({ path: path.join(outDir, 'page-en.png') });

    // L: Chinese, drawn with glyphs of a real font (not the empty box a missing glyph gets)
    await page.keyboard.press('l');
    const st = await page.evaluate(() => window.warpscope.state());
    check(st.lang === 'zh', `L switches to Chinese (lang ${st.lang})`);
    const zh = await settled(page);
    const cjk = zh.items.filter((it) => it[0] === 4 && /[\u4e00-\u9fff]/.test(it[11]));
    check(cjk.length > 5, `Chinese text is in the list: ${cjk.length} text items with CJK characters`);
    const glyphs = await page.evaluate(() => {
      const c = document.createElement('canvas'); c.width = 64; c.height = 64;
      const x = c.getContext('2d');
      const ink = (s) => { x.clearRect(0, 0, 64, 64); x.font = '40px sans-serif'; x.fillText(s, 4, 48); return Array.from(x.getImageData(0, 0, 64, 64).data.filter((v, i) => i % 4 === 3 && v > 0)).length; };
      const box = (s) => { x.clearRect(0, 0, 64, 64); x.font = '40px sans-serif'; x.fillText(s, 4, 48); return x.getImageData(0, 0, 64, 64).data.join(','); };
      return { zhong: ink('\u4e2d'), guo: ink('\u56fd'), same: box('\u4e2d') === box('\u56fd') };
    });
    check(glyphs.zhong > 50 && !glyphs.same, `Chinese glyphs are drawn from a font (中 ${glyphs.zhong} px of ink, 中 and 国 differ: ${!glyphs.same})`);
    await sameList(page, 'v0-zh', 'first,step:+1,step:+1,lang:zh');
    await page.screenshot({ path: path.join(outDir, 'page-zh.png') });
    await page.keyboard.press('l');

    // compare, the grid and the benchmark view open from their keys
    await page.keyboard.press('c');
    await sameList(page, 'compare', 'first,step:+1,step:+1,compare:next');
    await page.keyboard.press('c');
    await page.keyboard.press('b');
    let list = await settled(page);
    check(list.panels.some((p) => /bench/.test(p)), `B opens the benchmark view (panels: ${list.panels.join(', ')})`);
    await page.keyboard.press('b');
    await page.keyboard.press('g');
    list = await settled(page);
    check(list.panels.some((p) => /grid/.test(p)), `G opens the grid view (panels: ${list.panels.join(', ')})`);
    // N: the grid of 2^20 elements, carried by the pack: 4096 blocks of 256 on an H100 (132 SMs, 2048
    // threads each: 8 such blocks) take ceil(4096 / (132 * 8)) waves
    await page.keyboard.press('n');
    list = await settled(page);
    const waves = Math.ceil((1 << 20) / 256 / (132 * Math.floor(2048 / 256)));
    const said = list.items.map((it) => it.find((x) => typeof x === 'string' && / waves?$/.test(x))).find((s) => s);
    check(waves === 4 && said && said.endsWith(`the grid of ${(1 << 20) / 256} blocks takes ${waves} waves`),
          `N in the grid shows the card in ${waves} waves of a 2^20 capture (${said || 'no waves line'})`);
    await page.keyboard.press('n');
    await page.keyboard.press('Escape');

    // S saves the canvas as a PNG
    const dl = fs.mkdtempSync(path.join(os.tmpdir(), 'warpscope-page-'));
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dl });
    await page.keyboard.press('s');
    let saved = [];
    for (let i = 0; i < 100 && !saved.some((f) => f.endsWith('.png')); i++) { await sleep(100); saved = fs.readdirSync(dl); }
    const png = saved.find((f) => f.endsWith('.png'));
    const magic = png ? fs.readFileSync(path.join(dl, png)).subarray(0, 8).toString('hex') : '';
    check(magic === '89504e470d0a1a0a', `S saves a PNG of the canvas (${png || 'nothing saved'})`);

    // a dropped trace opens in the first pane
    const wstrace = path.join(outDir, 'dropped-v3.wstrace');
    desktop(['capture', '--version', 'v3', '--block', '64', '-o', wstrace]);
    const bytes = Array.from(fs.readFileSync(wstrace));
    await page.evaluate((b) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(b)], 'dropped-v3.wstrace'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, bytes);
    await sleep(500);
    const dropped = await page.evaluate(() => window.warpscope.state());
    check(dropped.version === 'v3', `a dropped .wstrace opens (version shown: ${dropped.version}; status: ${dropped.status})`);
    await page.evaluate(() => { const dt = new DataTransfer(); dt.items.add(new File(['{"not": "a trace"}'], 'bad.json')); window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); });
    await sleep(300);
    const bad = await page.evaluate(() => window.warpscope.state());
    check(bad.version === 'v3' && /bad\.json/.test(bad.status), `a dropped file that is no trace says why and keeps the picture (${bad.status})`);
    check(errors.length === 0, `no console error (${errors.join(' | ') || 'none'})`);
    await page.close();

    // a lesson's question, answered by clicking lanes: lesson 2 asks which lanes of warp 0 add at
    // s = 1; the rule tid % (2*s) == 0 says the even lanes
    const L = await open(browser, base, '?lang=en&lesson=02', W, H);
    await L.page.keyboard.press('PageDown');
    await settled(L.page);
    async function pick(lanes) {
      const items = (await L.page.evaluate(() => window.warpscope.list())).items;
      for (const lane of lanes) {
        const it = items.find((i) => i[13] === ((2 << 24) | lane) && i[0] === 0);
        if (!it) return false;
        await L.page.mouse.click(it[1] + it[3] / 2, it[2] + it[4] / 2);
      }
      return true;
    }
    const even = [...Array(16).keys()].map((k) => 2 * k), odd = even.map((k) => k + 1);
    check(await pick(odd), 'the lanes of warp 0 can be clicked');
    await L.page.keyboard.press('Enter');
    let ans = await L.page.evaluate(() => window.warpscope.state());
    check(ans.answer === 1, `the odd lanes are marked wrong (answer state ${ans.answer}, 1 is wrong)`);
    await pick(odd); // unpick them
    await pick(even);
    await L.page.keyboard.press('Enter');
    ans = await L.page.evaluate(() => window.warpscope.state());
    check(ans.answer === 2, `the even lanes are marked right (answer state ${ans.answer}, 2 is right)`);
    // progress is kept in the browser's storage: a reload opens the lesson where it was left
    await L.page.keyboard.press('PageDown');
    await sleep(200);
    const kept = await L.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('warpscope:')));
    check(kept.length > 0, `lesson progress is in the browser's storage (${kept.join(', ') || 'nothing'})`);
    check(L.errors.length === 0, `no console error in the lesson (${L.errors.join(' | ') || 'none'})`);
    await L.page.close();

    // H on a lanes question: the answer in words and outlined on the lanes, which stay on screen
    const ctx2 = await browser.createBrowserContext();
    const R = await open(ctx2, base, '?lang=en&lesson=02', W, H);
    await R.page.keyboard.press('PageDown');
    await settled(R.page);
    await R.page.keyboard.press('h');
    const rl = await settled(R.page), rs = await R.page.evaluate(() => window.warpscope.state());
    const lanes = rl.items.filter((i) => (i[13] >>> 24) === 2).length, words = rl.items.filter((i) => i[0] === 4 && /0, 2, 4, 6/.test(i[11])).length;
    check(rs.answer === 3 && lanes >= 32 && words >= 1, `H reveals the lanes (state ${rs.answer}, 3 is revealed; ${lanes} lanes on screen; the answer in words: ${words ? 'yes' : 'no'})`);
    await R.page.close();
    // a lesson the page lacks opens the menu and says why; a link that compares opens comparing
    const M = await open(ctx2, base, '?lang=en&lesson=99', W, H);
    const ml = await settled(M.page), ms = await M.page.evaluate(() => window.warpscope.state());
    check(ml.panels.includes('menu') && /99/.test(ms.status), `?lesson=99 opens the menu of lessons and says why (${ms.status})`);
    await M.page.close();
    const C = await open(ctx2, base, '?lang=en&actions=version:v1,compare:v2', W, H);
    await sleep(600);
    const ct = await C.page.evaluate(() => document.getElementById('trouble').hidden ? '' : document.getElementById('trouble').textContent);
    const cl = await C.page.evaluate(() => window.warpscope.list());
    check(!ct && C.errors.length === 0 && cl.panels.filter((p) => p === 'title').length === 2,
          `a link that compares opens on both panes, with no error (${ct || C.errors.join(' | ') || 'none'})`);
    await C.page.keyboard.press('c');
    await C.page.keyboard.press('c');
    await sleep(600);
    check(C.errors.length === 0, `compare off and on again draws with no error (${C.errors.join(' | ') || 'none'})`);
    await C.page.close();
    await ctx2.close();
  } finally {
    await browser.close();
    server.close();
  }
  console.log(failures ? `page_should_match_the_desktop: ${failures} failed` : 'page_should_match_the_desktop: ok');
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log('FAIL ' + (e.stack || e)); process.exit(1); });
