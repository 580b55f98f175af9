// A lesson is answered by ear and by keyboard, and focus stays where the student goes on (Debian's
// chromium, headless, from puppeteer-core). Checked from the accessibility tree and the DOM, with
// the expected words read from the lesson files themselves (lessons/*.json), not from the page:
//  - every choice question of every lesson: a group named by the question, holding one button per
//    option in the file's order, each read as "a) <the option's text>", in English and Chinese;
//  - choosing by keyboard (focus an option, Enter): a wrong option says "Not quite." and why, and
//    focus stays on the options; the right one says "Right." and the lesson's explanation (its
//    words up to the first number the trace fills in), and focus goes to Next page;
//  - a pick question answered wrong from the field says how many picks are right, wrong and
//    missing (numbers), and focus stays in the field; Hint after it keeps focus on a control;
//  - a page turn keeps focus on a control; Shift+R from the Next page button reads the page;
//  - Help takes focus and Esc gives it back; tabbing out of the versions' list closes it; a
//    focused button of the bottom bar draws its ring inside itself (the bar scrolls, which cuts
//    what is outside);
//  - Run (its button) and Ctrl+Enter in the editor keep focus where they were, the server's answer
//    a refusal (this test's server has no api/trace);
//  - at 400% zoom (320x256 CSS px) every question of every lesson has its words and its controls in
//    the page, which scrolls down only;
//  - axe-core finds no violation in the question, after a wrong and a right answer and at 400%
//    zoom, in English and Chinese.
// Usage: node page_should_answer_a_lesson_by_ear.js SITE_DIR LESSONS_DIR OUT_DIR. Exit 77: no
// chromium, or no puppeteer-core or axe-core.
'use strict';
const fs = require('fs'), path = require('path');

const NAME = 'page_should_answer_a_lesson_by_ear';
const [site, lessonsDir, outDir] = process.argv.slice(2);
const { check, sleep, open, close, shot, live, focused, frame, axe, tree, run, DESKTOP, squash } = require('./page_harness.js')(NAME, site, outDir);

// the lessons' choice questions, from their files
const choices = [];
for (const f of fs.readdirSync(lessonsDir).filter((f) => /^\d\d-.*\.json$/.test(f)).sort()) {
  const l = JSON.parse(fs.readFileSync(path.join(lessonsDir, f), 'utf8'));
  (l.steps || []).forEach((s, i) => { if (s.ask && s.ask.kind === 'choice') choices.push({ id: f.slice(0, 2), page: i + 1, ask: s.ask }); });
}


// the words of a text of the lesson up to its first {query} (the trace's numbers come after)
const lead = (t) => squash(t.split('{')[0]).slice(0, 40);

async function choiceQuestions() {
  check(choices.length >= 2, `the lessons hold choice questions (${choices.length})`);
  for (const c of choices) {
    for (const lang of ['en', 'zh']) {
      const page = await open(`?lang=${lang}&lesson=${c.id}&page=${c.page}`, DESKTOP);
      const st = await page.evaluate(() => window.warpscope.state());
      const at = `lesson ${c.id} page ${c.page} (${lang})`;
      if (st.ask !== 'choice') { check(false, `${at}: the page asks its choice question (asks "${st.ask}")`); await close(page); continue; }
      const g = await tree(page);
      const want = c.ask.options.map((o, i) => String.fromCharCode(97 + i) + (lang === 'zh' ? '）' : ') ') + squash(o.text[lang]).replace(/[.。]$/, ''));
      const got = g ? g.options.map((o) => squash(o.name)) : [];
      check(g && squash(g.name).includes(squash(c.ask.prompt[lang]).slice(0, 20)), `${at}: the options are a group named by the question (${g ? g.name : 'no group'})`);
      check(JSON.stringify(got) === JSON.stringify(want), `${at}: its buttons read the options in order: ${got.join(' | ')}`);
      if (!got.length) { await close(page); continue; }
      if (c.id === '03' || c.id === '02') await axe(page, `${at}, the question`);
      // which option is right is the trace's answer to the file's "correct" queries: each is tried
      // until the page says right
      const right = [], n = c.ask.options.length;
      let wrongDone = false;
      for (let i = n - 1; i >= 0 && right.length === 0; i--) { // from the last: a wrong one first, mostly
        await page.evaluate((k) => document.querySelectorAll('#choices button')[k].focus(), i);
        await page.keyboard.press('Enter');
        await frame(page); await sleep(100);
        const s = await page.evaluate(() => window.warpscope.state());
        const said = await live(page), f = await focused(page);
        if (s.answerState === 'wrong') {
          if (!wrongDone) {
            wrongDone = true;
            check(new RegExp(lang === 'zh' ? '不太对。.*不是 ' + String.fromCharCode(97 + i) : 'Not quite\\. Not ' + String.fromCharCode(97 + i)).test(said), `${at}: a wrong option is said with why (${said.slice(-90)})`);
            check(f === 'choice', `${at}: after a wrong answer focus stays on the options (${f})`);
            if (c.id === '03') { await axe(page, `${at}, a wrong answer`); await shot(page, `1024x768-${lang}-lesson${c.id}-wrong`); }
          }
        } else if (s.answerState === 'right') {
          right.push(i);
          const ex = lead(c.ask.explain[lang]);
          check(said.includes(lang === 'zh' ? '正确。' : 'Right.') && said.includes(ex), `${at}: the right option is said with the explanation ("${ex}…": ${said.slice(-120)})`);
          check(f === 'page-next', `${at}: after the right answer focus is on Next page (${f})`);
          if (c.id === '03') { await axe(page, `${at}, the right answer`); await shot(page, `1024x768-${lang}-lesson${c.id}-right`); }
        } else check(false, `${at}: option ${i} answered, the state is ${s.answerState}`);
      }
      check(right.length === 1, `${at}: one option is right`);
      await close(page);
    }
  }
}

async function picksAndFocus() {
  // lesson 02's first question picks lanes: "0" alone is wrong (v0's first add works on every other lane)
  const page = await open('?lang=en&lesson=02&page=2', DESKTOP);
  const st = await page.evaluate(() => window.warpscope.state());
  check(st.ask === 'lanes', `lesson 02 page 2 asks for lanes (${st.ask})`);
  await page.focus('#answer');
  await page.keyboard.type('0 1');
  await page.keyboard.press('Enter');
  await frame(page); await sleep(100);
  const said = await live(page);
  check(/Not quite\. Your picks: \d+ right, \d+ wrong \(in red\); \d+ missing/.test(said), `a wrong pick is said with how many are right, wrong and missing: ${said.slice(-100)}`);
  check(await focused(page) === 'answer', `after a wrong pick focus stays in the answer field (${await focused(page)})`);
  await page.focus('#hint');
  await page.keyboard.press('Enter');
  await frame(page); await sleep(100);
  const afterHint = await focused(page);
  check(afterHint !== 'body', `after Hint focus is on a control (${afterHint}; the state: ${(await page.evaluate(() => window.warpscope.state())).answerState})`);
  // a page turn from Next page, then Shift+R there reads the page
  for (let k = 0; k < 3; k++) {
    const s = await page.evaluate(() => window.warpscope.state());
    if (s.ask && s.answerState === 'open') await page.evaluate(() => window.warpscope.key('h')); // shown, to move on
    await page.focus('#page-next');
    await page.keyboard.press('Enter');
    await frame(page); await sleep(100);
    const f = await focused(page);
    check(f !== 'body', `a page turn keeps focus on a control (${f})`);
  }
  await page.focus('#page-next');
  await page.keyboard.down('Shift'); await page.keyboard.press('KeyR'); await page.keyboard.up('Shift');
  await frame(page);
  const say = squash((await page.evaluate(() => window.warpscope.state())).say).slice(0, 30), read = await live(page);
  check(say && read.includes(say), `Shift+R on Next page reads the page ("${say}…" in: ${read.slice(0, 80)}…)`);
  await close(page);

  const p = await open('?lang=en', DESKTOP);
  await p.focus('#help');
  await p.keyboard.press('Enter');
  await frame(p);
  check(await focused(p) === 'helplist', `Help takes focus (${await focused(p)})`);
  await p.keyboard.press('Escape');
  await frame(p);
  check(await focused(p) === 'help', `Esc closes Help and gives focus back to its button (${await focused(p)})`);
  await p.focus('#version');
  await p.keyboard.press('Enter');
  await frame(p);
  await p.keyboard.press('End');
  await p.keyboard.press('Tab');
  await frame(p); await sleep(100);
  const open_ = await p.evaluate(() => !document.getElementById('versions').hidden);
  check(!open_, `tabbing out of the versions' list closes it (focus on ${await focused(p)})`);
  // the bottom bar's ring: a keyboard's focus, drawn inside the button
  await p.focus('#copy');
  await p.keyboard.down('Shift'); await p.keyboard.press('Tab'); await p.keyboard.up('Shift'); await p.keyboard.press('Tab');
  const ring = await p.evaluate(() => { const s = getComputedStyle(document.activeElement); return { off: parseFloat(s.outlineOffset), w: parseFloat(s.outlineWidth), style: s.outlineStyle, id: document.activeElement.id }; });
  check(ring.style !== 'none' && ring.off + ring.w <= 0, `a focused button of the bottom bar draws its ring inside itself, where the bar cannot cut it (${ring.id}: offset ${ring.off}, width ${ring.w})`);
  await close(p);

  // Run and Ctrl+Enter: the server refuses (503); focus is where it was
  const e = await open('?lang=en&editor=1', DESKTOP);
  await e.waitForFunction(() => document.body.dataset.editor, { timeout: 20000 }).catch(() => {});
  await sleep(300);
  await e.focus('#run');
  await e.keyboard.press('Enter');
  await e.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 10000 }).catch(() => {});
  await sleep(200);
  check(await focused(e) === 'run', `after Run focus stays on Run (${await focused(e)})`);
  const code = await e.evaluate(() => { const c = document.querySelector('#code .cm-content, #code textarea'); if (c) c.focus(); return !!c; });
  if (code) {
    await e.keyboard.down('Control'); await e.keyboard.press('Enter'); await e.keyboard.up('Control');
    await e.waitForFunction(() => !document.getElementById('run').disabled, { timeout: 10000 }).catch(() => {});
    await sleep(200);
    check(await focused(e) === 'code', `after Ctrl+Enter focus stays in the editor (${await focused(e)})`);
  } else check(false, 'the editor has a text to focus');
  await close(e);
}

// 400% zoom (320x256 CSS px): every lesson's question, its words and its controls are in the page,
// which scrolls one way (down), never sideways
async function zoomed() {
  const ZOOMED = { name: '320x256', width: 320, height: 256, deviceScaleFactor: 4, mobile: false };
  const asks = [];
  for (const f of fs.readdirSync(lessonsDir).filter((f) => /^\d\d-.*\.json$/.test(f)).sort()) {
    const l = JSON.parse(fs.readFileSync(path.join(lessonsDir, f), 'utf8'));
    (l.steps || []).forEach((s, i) => { if (s.ask) asks.push({ id: f.slice(0, 2), page: i + 1, prompt: s.ask.prompt }); });
  }
  for (const a of asks) {
    for (const lang of a.id === '03' ? ['en', 'zh'] : ['en']) {
      const page = await open(`?lang=${lang}&lesson=${a.id}&page=${a.page}`, ZOOMED);
      const r = await page.evaluate(() => {
        const d = document.scrollingElement, vis = (e) => e && !e.hidden && e.getClientRects().length > 0;
        const ids = ['ask-text', 'answer', 'answer-go', 'hint'].map((id) => document.getElementById(id)).concat([...document.querySelectorAll('#choices button')]);
        const out = ids.filter(vis).map((e) => { const b = e.getBoundingClientRect(); return { id: e.id || 'choice', top: b.top + d.scrollTop, bottom: b.bottom + d.scrollTop, left: b.left, right: b.right }; });
        return { text: document.getElementById('ask-text').textContent, shown: vis(document.getElementById('ask-text')), wide: d.scrollWidth - d.clientWidth, height: d.scrollHeight, width: d.clientWidth, controls: out, ask: window.warpscope.state().ask };
      });
      const at = `320x256, lesson ${a.id} page ${a.page} (${lang})`;
      const inPage = r.controls.every((c) => c.top >= 0 && c.bottom <= r.height && c.left >= 0 && c.right <= r.width);
      check(r.shown && r.text.includes(lead(a.prompt[lang]).slice(0, 12)), `${at}: the question's words are in the page: ${r.text.slice(0, 80)}`);
      check(r.wide <= 0 && inPage && r.controls.length >= 4, `${at}: its controls (${r.controls.map((c) => c.id).join(', ')}) are in the page, which does not scroll sideways (${r.wide} px)`);
      if (a.id === '03' && a.page === 5) { await axe(page, at); await shot(page, `320x256-${lang}-lesson03`); }
      await close(page);
    }
  }
}

run(async () => {
  await choiceQuestions();
  await picksAndFocus();
  await zoomed();
});
