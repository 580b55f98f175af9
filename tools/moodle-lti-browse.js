// moodle-lti-browse.js: a student and a teacher in Chromium (puppeteer-core), as tools/moodle-lti.sh runs them:
//   node moodle-lti-browse.js MOODLE_URL CMID COURSE_ID WORK SOLUTION.cu
// The student signs in to Moodle, opens the warpscope activity (Moodle's launch: the OIDC login at
// warpscope, Moodle's authorization, the id_token posted to warpscope), lands in the exercise, puts
// SOLUTION in the editor and presses Check; the teacher then opens the course's gradebook, read
// again until the score warpscope posted is there, and opens the activity (warpscope's /class, signed in).
// Pictures: WORK/launched.png, checked.png, gradebook.png, class.png.
'use strict';
const fs = require('fs');
const puppeteer = require('puppeteer-core');
const [www, cmid, course, work, solution, typeid] = process.argv.slice(2);
const say = (s) => console.log('moodle-lti: ' + s);

async function signIn(page, user) {
  for (let i = 0; i < 3 && (i === 0 || /\/login\//.test(page.url())); i++) { // Moodle's login page may ask twice (its cookie test)
    await page.goto(www + '/login/index.php', { waitUntil: 'networkidle2' });
    await page.type('#username', user);
    await page.type('#password', 'Pass-word-1');
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('#loginbtn')]);
  }
  say(user + ' signed in: ' + page.url());
}

(async () => {
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'],
                                           defaultViewport: { width: 1280, height: 900 } });
  try {
    const student = await browser.createBrowserContext();
    const page = await student.newPage();
    page.on('pageerror', (e) => say('page error: ' + e.message));
    await signIn(page, 'student1');
    await page.goto(`${www}/mod/lti/launch.php?id=${cmid}&triggerview=0`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => location.pathname === '/' && /editor=1/.test(location.search), { timeout: 60000 })
      .catch(async () => { say('the launch did not reach the exercise: ' + page.url()); say((await page.content()).slice(0, 1500)); });
    say('launched into ' + page.url());
    await page.waitForSelector('.cm-content', { timeout: 30000 });
    await new Promise((ok) => setTimeout(ok, 1500));
    await page.screenshot({ path: work + '/launched.png' });
    const text = fs.readFileSync(solution, 'utf8');
    const set = await page.evaluate((t) => {
      const c = document.querySelector('.cm-content').cmView, v = c && (c.rootView ? c.rootView.view : c.view);
      if (!v) return false;
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
      return true;
    }, text);
    if (!set) { // as a person would: select all, then the text arrives as one input (a paste)
      await page.click('.cm-content');
      await page.keyboard.down('Control'); await page.keyboard.press('KeyA'); await page.keyboard.up('Control');
      await page.keyboard.sendCharacter(text);
    }
    const now = await page.$eval('.cm-content', (e) => e.innerText.replace(/\s+/g, ''));
    say(now === text.replace(/\s+/g, '') ? 'the solution is in the editor' : 'the editor does not hold the solution');
    say('the name the page holds: ' + await page.$eval('#student', (e) => e.value));
    await page.waitForSelector('#check:not([hidden])', { timeout: 30000 });
    const [r] = await Promise.all([page.waitForResponse((q) => q.url().endsWith('/api/check'), { timeout: 180000 }), page.click('#check')]);
    const j = await r.json().catch(() => ({}));
    const f = (j.files && j.files[0]) || j;
    say(`Check answered ${r.status()}: ${f.goals ? f.goals.filter((g) => g.met).length + ' of ' + f.goals.length + ' goals met' : JSON.stringify(j).slice(0, 300)}`);
    await new Promise((ok) => setTimeout(ok, 2000));
    await page.screenshot({ path: work + '/checked.png' });

    const teacher = await browser.createBrowserContext();
    const tp = await teacher.newPage();
    await signIn(tp, 'teacher1');
    let seen = '';
    for (let i = 0; i < 30; i++) {
      await tp.goto(`${www}/grade/report/grader/index.php?id=${course}`, { waitUntil: 'networkidle0', timeout: 60000 });
      seen = await tp.evaluate(() => {
        const row = [...document.querySelectorAll('tr')].find((tr) => /Ana Lima/.test(tr.textContent));
        return row ? row.textContent.replace(/\s+/g, ' ').trim() : '';
      });
      if (/\d/.test(seen.replace(/student1@example\.com/, ''))) break;
      await new Promise((ok) => setTimeout(ok, 2000));
    }
    say('the gradebook\'s row: ' + seen.slice(0, 300));
    await tp.waitForSelector('table.gradereport-grader-table, #user-grades', { visible: true, timeout: 30000 }).catch(() => say('the grader table is not shown'));
    await new Promise((ok) => setTimeout(ok, 2000));
    // Moodle's first-visit tour and the course index stand over the table: put away, as the teacher would
    await tp.evaluate(() => {
      const skip = [...document.querySelectorAll('button, a')].find((b) => /Skip tour|End tour/.test(b.textContent));
      if (skip) skip.click();
      const close = document.querySelector('.drawer.show [data-action="closedrawer"]');
      if (close) close.click();
    });
    await new Promise((ok) => setTimeout(ok, 1500));
    await tp.screenshot({ path: work + '/gradebook.png', fullPage: true });
    // the teacher opens the same activity: warpscope's class page, signed in as the teacher
    await tp.goto(`${www}/mod/lti/launch.php?id=${cmid}&triggerview=0`, { waitUntil: 'domcontentloaded' });
    await tp.waitForFunction(() => location.pathname === '/class', { timeout: 60000 })
      .catch(() => say('the teacher\'s launch did not reach /class: ' + tp.url()));
    await new Promise((ok) => setTimeout(ok, 4000));
    say('the teacher\'s launch: ' + tp.url() + ': ' + (await tp.evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 200))));
    const cls = await tp.evaluate(async () => { const r = await fetch('/api/class'); return r.status + ' ' + (await r.text()).slice(0, 200); });
    say('the class as the launched teacher asks it (GET /api/class): ' + cls);
    await tp.screenshot({ path: work + '/class.png' });
    if (typeid) { // Deep Linking: Moodle's content selection, opened as a page of its own (the course form opens it in a dialog)
      await tp.goto(`${www}/mod/lti/contentitem.php?id=${typeid}&course=${course}&title=&text=`, { waitUntil: 'domcontentloaded' });
      await tp.waitForSelector('input[name="exercise"]', { timeout: 60000 }).catch(() => say('no exercise picker: ' + tp.url()));
      const offered = await tp.$$eval('input[name="exercise"]', (l) => l.map((e) => e.value));
      say('Deep Linking offers ' + offered.length + ' exercises: ' + offered.join(', '));
      await tp.screenshot({ path: work + '/deeplink.png' });
      await tp.click('input[name="exercise"]');
      await Promise.all([tp.waitForNavigation({ waitUntil: 'domcontentloaded' }), tp.click('button[type="submit"]')]);
      await tp.waitForFunction(() => /contentitem_return/.test(location.pathname), { timeout: 60000 }).catch(() => {});
      const html = await tp.content();
      const data = /contentitem_return[^\n]*?init[^\n]*/.exec(html);
      say('Moodle took the Deep Linking response at ' + tp.url().replace(/\?.*/, '') + ': ' + (data ? data[0].slice(0, 400) : html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 400)));
    }
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error('moodle-lti: ' + (e.stack || e)); process.exit(1); });
