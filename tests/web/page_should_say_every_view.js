// Every view is said, as a step is (Debian's chromium, headless, from puppeteer-core), and each
// view's controls are reached without Tab and by touch. The expected numbers come from the launch's
// arithmetic and the benchmark's own files (assets/bench-*.json), not from the page:
//  - the page opens at step 0;
//  - the grid view says v0's blocks: ceil(n / 256) of 256 threads over n elements, n = 256 at first
//    and 2^20 after N (4096 blocks), and its wave; the passes view each launch of 2^20 (4096, 16
//    and 1 blocks, ceil(n / 256) each time); the benchmark its GPU, size, timing and the fastest
//    version with its time (the least ms of the file's rows at that size and mode); M switches the
//    benchmark's timing (a browser's Tab moves focus), and More holds the timing, the next GPU and
//    the grid's 2^20 as buttons shown in their view, which a tap presses;
//  - a change of theme or language says so before the sentence;
//  - while playing, the live region changes once per phase at most (never twice in a phase);
//  - axe-core finds no violation in the grid, passes and benchmark views, English and Chinese.
// Usage: node page_should_say_every_view.js SITE_DIR ASSETS_DIR OUT_DIR. Exit 77: no chromium, or
// no puppeteer-core or axe-core.
'use strict';
const fs = require('fs'), path = require('path');

const NAME = 'page_should_say_every_view';
const [site, assetsDir, outDir] = process.argv.slice(2);
const { check, sleep, open, close, shot, live, focused, frame, axe, tree, run, DESKTOP, squash } = require('./page_harness.js')(NAME, site, outDir);



const benches = fs.readdirSync(assetsDir).filter((f) => /^bench-.*\.json$/.test(f)).sort().map((f) => JSON.parse(fs.readFileSync(path.join(assetsDir, f), 'utf8')));
function fastest(b, n, mode) {
  const rows = b.rows.filter((r) => r.kind === 'version' && r.mode === mode && r.n === n && r.ok);
  return rows.reduce((a, r) => (!a || r.ms < a.ms ? r : a), null);
}
const press = async (page, k) => { await page.evaluate((x) => { window.warpscope.key(x); window.warpscope.draw(); }, k); await frame(page); return live(page); };
const blocksOf = (n) => Math.ceil(n / 256);

async function views() {
  for (const lang of ['en', 'zh']) {
    const page = await open(`?lang=${lang}`, DESKTOP);
    const en = lang === 'en';
    const st = await page.evaluate(() => window.warpscope.state());
    if (en) check(st.step === 0 && /step 0 of/.test(await live(page)), `the page opens at step 0 (step ${st.step}: ${await live(page)})`);
    let said = await press(page, 'g');
    const g1 = en ? `Grid view: v0, pass 1 of 1: 1 block of 256 threads over 256 elements` : `网格视图：v0，第 1 轮（共 1 轮）：1 个线程块，每块 256 个线程，共 256 个元素`;
    check(said.startsWith(g1), `${lang}: G says the grid: ${said}`);
    await axe(page, `${lang}: the grid view`);
    said = await press(page, 'n');
    const n = 1 << 20;
    check(new RegExp(en ? `^Grid view: v0, pass 1 of \\d+: ${blocksOf(n)} blocks of 256 threads over ${n} elements; wave 1 of \\d+ on ` : `^网格视图：v0，第 1 轮（共 \\d+ 轮）：${blocksOf(n)} 个线程块，每块 256 个线程，共 ${n} 个元素；`).test(said), `${lang}: N (2^20) says ${blocksOf(n)} blocks: ${said}`);
    said = await press(page, 'PageDown');
    check(new RegExp(en ? 'wave 2 of' : '第 2 波').test(said), `${lang}: the next wave is said: ${said}`);
    await press(page, 'g');
    said = await press(page, 'k');
    const launches = [n, blocksOf(n), blocksOf(blocksOf(n))].map((m) => en ? `${blocksOf(m) === 1 ? '1 block' : blocksOf(m) + ' blocks'} of 256 threads over ${m} elements` : `${blocksOf(m)} 个线程块，每块 256 个线程，共 ${m} 个元素`);
    check(said.includes(en ? `3 launches: ${launches.join('; ')}` : `3 次启动：${launches.join('；')}`), `${lang}: K says each launch of 2^20 (${launches.join(' | ')}): ${said}`);
    await axe(page, `${lang}: the passes view`);
    await press(page, 'k');
    said = await press(page, 'b');
    const b0 = benches.find((b) => said.includes(b.device));
    const sizes = b0 ? [...new Set(b0.rows.map((r) => r.n))].sort((a, b) => a - b) : [];
    const size = sizes.find((s) => new RegExp(`(^|\\D)${s}(\\D|$)`).test(said));
    const f = b0 && size ? fastest(b0, size, 'launch') : null;
    check(f && new RegExp(`(^|\\W)${f.name}(\\W|$)`).test(said) && said.includes(String(+f.ms.toPrecision(3))), `${lang}: B says the benchmark's fastest version at its size per launch (${f ? f.name + ' ' + f.ms : 'none found'}): ${said}`);
    await axe(page, `${lang}: the benchmark view`);
    await shot(page, `1024x768-${lang}-bench`);
    said = await press(page, 'm');
    const fb = b0 && size ? fastest(b0, size, 'batch') : null;
    check(said !== '' && (en ? /a batch of launches/ : /一批启动/).test(said) && fb && said.includes(String(+fb.ms.toPrecision(3))), `${lang}: M switches the benchmark's timing to a batch (${fb ? fb.name + ' ' + fb.ms : ''}): ${said}`);
    // More's buttons of the view: shown in it, pressed by a tap
    await page.evaluate(() => document.getElementById('more').click());
    await frame(page);
    const shown = await page.evaluate(() => [...document.querySelectorAll('#more-items [data-act]')].filter((b) => !b.hidden).map((b) => b.dataset.act));
    check(shown.includes('bench-mode') && shown.includes('bench-gpu:1') && !shown.includes('grid-n'), `${lang}: More holds the benchmark's timing and next GPU in its view (${shown.join(', ')})`);
    const box = await page.evaluate(() => { const r = document.querySelector('#more-items [data-act="bench-gpu:1"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; });
    await page.touchscreen.tap(box[0], box[1]);
    await frame(page);
    said = await live(page);
    const other = benches.find((b) => b !== b0);
    check(other && said.includes(other.device), `${lang}: a tap on More's next GPU shows the other GPU (${other ? other.device : ''}): ${said}`);
    await press(page, 'b');
    said = await press(page, 't');
    check(said.startsWith(en ? 'Dark theme. v0' : '深色主题。v0'), `${lang}: T says the theme, then the step: ${said}`);
    said = await press(page, 't');
    check(said.startsWith(en ? 'Light theme. v0' : '浅色主题。v0'), `${lang}: T again says the light theme once: ${said}`);
    said = await press(page, 'l');
    check(said.startsWith(en ? '中文。v0' : 'English. v0'), `${lang}: L says the language, then the step in it: ${said}`);
    await close(page);
  }
  // playing: a sentence per phase
  const page = await open('?lang=en&version=v0&step=0', DESKTOP);
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver(() => { const t = document.getElementById('live').textContent; if (t) window.__said.push([t, window.warpscope.state().phase]); }).observe(document.getElementById('live'), { childList: true, characterData: true, subtree: true });
  });
  await page.focus('canvas');
  await page.keyboard.press('Space');
  await sleep(4000);
  const said = await page.evaluate(() => window.__said); // while it plays (the pause is said after, in the phase it stopped in)
  await page.keyboard.press('Space');
  const phases = said.map(([, p]) => p);
  check(said.length >= 2 && said.length <= 5 && new Set(said.map(([t]) => t)).size === said.length, `playing 4 s: ${said.length} sentences, each different:\n    ${said.map(([t]) => t).join('\n    ')}`);
  check(phases.slice(0, -1).every((p, i) => p !== phases[i + 1]), `while playing, never two sentences in one phase (phases ${phases.join(', ')})`);
  await close(page);
}

run(async () => {
  await views();
});
