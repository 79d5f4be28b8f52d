// The HTML replay (`mentat replay --html`) in Debian's chromium, driven by
// playwright-core (ctest "web: the HTML replay's keys"; docs/CLI.md): a short
// game played to its end, its replay opened from the file with no network,
// and the keyboard: → and ← step one version (the page focused, and the
// slider focused), Home and End, each time checking the shown version, the
// slider's value and the address's #v=N; a changed #v is followed and an
// out-of-range one is named; the last frame names the winners; the layout
// fits 1024×768 with the slider visible.
// Environment: MENTAT_BINARY, MENTAT_WEB_NODE, MENTAT_CHROMIUM.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

const env = process.env;
const BIN = env.MENTAT_BINARY;
assert.ok(BIN && env.MENTAT_WEB_NODE, 'MENTAT_BINARY and MENTAT_WEB_NODE must be set');
const { chromium } = createRequire(path.join(env.MENTAT_WEB_NODE, 'package.json'))('playwright-core');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mentat-replay-'));
const data = path.join(work, 'data'), html = path.join(work, 'replay.html');
const mentat = (...args) => execFileSync(BIN, ['--data', data, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
mentat('new', '--factions', 'atreides,harkonnen', '--seed', '12', '--turns', '2', '--room', 'k1');
mentat('play', 'k1', '--seed', '3');
mentat('replay', 'k1', '--html', html);
const head = JSON.parse(mentat('rooms', '--json')).find((r) => r.room === 'k1').head;
assert.ok(head > 20, `a game of some length (${head} events)`);
assert.match(mentat('log', 'k1'), /game over: /, 'the game ended');

const browser = await chromium.launch({ executablePath: env.MENTAT_CHROMIUM || '/usr/bin/chromium', headless: true, chromiumSandbox: false,
  args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
let failed = false;
try {
  const page = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = 'file://' + html;
  await page.goto(url + '#v=3');
  const at = async () => page.evaluate(() => ({ shown: Number(document.body.dataset.version), slider: Number(document.getElementById('slider').value),
    hash: location.hash, ver: document.getElementById('ver').textContent, msg: document.getElementById('msg').textContent }));
  const expectAt = async (v, how) => {
    await page.waitForFunction((x) => document.body.dataset.version === String(x), v, { timeout: 5000 }).catch(() => {});
    const s = await at();
    assert.equal(s.shown, v, `${how}: version shown`);
    assert.equal(s.slider, v, `${how}: the slider's value`);
    assert.equal(s.hash, `#v=${v}`, `${how}: the address`);
    assert.match(s.ver, new RegExp(`^version ${v} / ${head}$`), `${how}: the caption`);
  };
  await expectAt(3, '#v=3 opened');
  await page.keyboard.press('ArrowRight');
  await expectAt(4, '→ on the page');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expectAt(2, '← ← on the page');
  await page.focus('#slider');
  await page.keyboard.press('ArrowRight');
  await expectAt(3, '→ on the focused slider (one version per key)');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expectAt(5, '→ → on the focused slider');
  await page.keyboard.press('ArrowLeft');
  await expectAt(4, '← on the focused slider');
  await page.keyboard.press('End');
  await expectAt(head, 'End');
  const winners = await page.locator('#svg #winners').textContent();
  assert.match(winners, /^Winners: .+ \(.+\)$/, 'the last frame names the winners and the victory kind');
  await page.keyboard.press('Home');
  await expectAt(0, 'Home');
  await page.evaluate(() => { document.activeElement.blur(); location.hash = '#v=7'; });
  await expectAt(7, 'a changed #v');
  await page.evaluate(() => { location.hash = '#v=99999'; });
  await page.waitForFunction(() => /no version 99999/.test(document.getElementById('msg').textContent), null, { timeout: 5000 });
  assert.equal((await at()).shown, 7, 'an out-of-range #v keeps the version shown');
  // 1024x768: the slider and the board are visible, nothing scrolls sideways.
  const box = await page.evaluate(() => {
    const r = (id) => document.getElementById(id).getBoundingClientRect();
    return { slider: r('slider'), svg: r('svg'), scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight };
  });
  assert.ok(box.slider.top >= 0 && box.slider.bottom <= 768 && box.slider.width > 100, 'the slider is visible');
  assert.ok(box.svg.bottom <= 768 && box.svg.height > 500, `the board fits (${JSON.stringify(box.svg)})`);
  assert.ok(box.scrollW <= 1024 && box.scrollH <= 768, 'no scrolling at 1024x768');
  await page.screenshot({ path: path.join(work, 'replay.png') });
  assert.ok(requests.every((u) => u.startsWith('file://')), `no network requests (${requests.filter((u) => !u.startsWith('file://'))})`);
  console.log(`replay keys: ${head + 1} versions, stepping, Home/End, #v follow and out-of-range checked; ${requests.length} request(s), all file://`);
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await browser.close().catch(() => {});
}
if (!failed) fs.rmSync(work, { recursive: true, force: true });
else console.error('left in', work);
process.exit(failed ? 1 : 0);
