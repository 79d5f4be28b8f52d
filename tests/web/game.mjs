// Browser test of the web client (docs/SERVER.md "Web client"), run by ctest
// ("web: a game in the browser"). Starts `mentat serve`, drives Debian's
// chromium with playwright-core (installed by tests/web/setup.sh into
// MENTAT_WEB_NODE; no browser is ever downloaded) and checks:
//  * the lobby creates a 2-faction basic game (Atreides, a person, against a
//    Harkonnen bot) and shows the seat link;
//  * the Atreides seat is played through the page's controls only (widgets
//    where they apply, else the generic legal-action buttons) to Game Over,
//    first in a desktop window, then on a 390-px-wide phone screen;
//  * in the middle: an action whose reply is lost (the page resends the same
//    client action id: stored once, answered as a duplicate), an action sent
//    while offline (resent after the connection comes back), and a reload;
//  * an observer page that never receives private data: every view it gets
//    equals the server's observer view at that version, no summary of it
//    shows a hidden detail, it never asks for legal actions, never sees a token;
//  * screenshots on the desktop and the phone, checked by size and content;
//  * the widgets on decisions and legal actions of the engine's shapes, the
//    Karama control found by the listing's `karama` under garbled labels
//    (one folded "Karama…" list, a confirmation before the card is spent),
//    the ally's share of a shipment from the view, not from a prompt;
//  * a modules room created in the lobby (CHOAM and the Richese offered with
//    their module, played by bots that move);
//  * the access log has a line per request and no token; the game verifies.
// Environment: MENTAT_BINARY, MENTAT_SOURCE_DIR, MENTAT_WEB_NODE, MENTAT_WEB_OUT,
// MENTAT_CHROMIUM (default /usr/bin/chromium).
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import assert from 'node:assert/strict';

const env = process.env;
const BIN = env.MENTAT_BINARY, SRC = env.MENTAT_SOURCE_DIR;
const OUT = env.MENTAT_WEB_OUT || fs.mkdtempSync(path.join(os.tmpdir(), 'mentat-web-out-'));
const CHROMIUM = env.MENTAT_CHROMIUM || '/usr/bin/chromium';
assert.ok(BIN && SRC && env.MENTAT_WEB_NODE, 'MENTAT_BINARY, MENTAT_SOURCE_DIR and MENTAT_WEB_NODE must be set');
const { chromium } = createRequire(path.join(env.MENTAT_WEB_NODE, 'package.json'))('playwright-core');

const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
fs.mkdirSync(OUT, { recursive: true });
const used = {};  // the widgets tried once
const stats = { actions: 0, widgets: {}, generic: 0, errors: 0 };

// ---- the server ----------------------------------------------------------------
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mentat-web-'));
const data = path.join(work, 'data'), portFile = path.join(work, 'port'), accessLog = path.join(work, 'access.log');
const adminFile = path.join(work, 'admin');
fs.writeFileSync(adminFile, 'admin-secret-0123456789abcdef\n');
const server = spawn(BIN, ['serve', '--data', data, '--listen', '127.0.0.1:0', '--port-file', portFile, '--threads', '16',
  '--web', path.join(SRC, 'web'), '--access-log', accessLog, '--admin-token-file', adminFile],
{ stdio: ['ignore', 'inherit', 'inherit'] });
let serverExited = false;
server.on('exit', () => { serverExited = true; });
let port = 0;
for (let i = 0; i < 400 && !port; i++) {
  if (serverExited) throw new Error('mentat serve exited early');
  try { port = Number(fs.readFileSync(portFile, 'utf8').trim()); } catch (_) { await sleep(25); }
}
assert.ok(port > 0, 'mentat serve did not write its port');
const BASE = `http://127.0.0.1:${port}`;
log('server on', BASE);

const browser = await chromium.launch({
  executablePath: CHROMIUM, headless: true, chromiumSandbox: false,
  args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

let failed = false;
try {
  await run();
  log('PASS');
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await browser.close().catch(() => {});
  server.kill('SIGTERM');
  await new Promise((r) => (serverExited ? r() : server.on('exit', r)));
}
if (!failed) {
  const room = globalThis.ROOM;
  const out = execFileSync(BIN, ['--data', data, 'verify', room], { encoding: 'utf8' });
  log('verify:', out.trim().split('\n').pop());
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

// ---- helpers ---------------------------------------------------------------------

// Decodes an 8-bit RGB(A) non-interlaced PNG (what chromium writes) into
// {width, height, colours (distinct, sampled), dark (share of dark pixels)}.
function pngStats(file) {
  const b = fs.readFileSync(file);
  assert.equal(b.toString('latin1', 1, 4), 'PNG');
  let width = 0, height = 0, ctype = 0;
  const idat = [];
  for (let at = 8; at < b.length;) {
    const len = b.readUInt32BE(at), type = b.toString('latin1', at + 4, at + 8);
    const body = b.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4);
      assert.equal(body[8], 8, 'bit depth'); ctype = body[9]; assert.equal(body[12], 0, 'interlace');
    } else if (type === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  const bpp = ctype === 6 ? 4 : ctype === 2 ? 3 : assert.fail(`PNG colour type ${ctype}`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp, img = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? img[y * stride + x - bpp] : 0, up = y ? img[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y ? img[(y - 1) * stride + x - bpp] : 0;
      let v = src[x];
      if (f === 1) v += a; else if (f === 2) v += up; else if (f === 3) v += (a + up) >> 1;
      else if (f === 4) { const p = a + up - c, pa = Math.abs(p - a), pb = Math.abs(p - up), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? up : c; }
      img[y * stride + x] = v & 255;
    }
  }
  const colours = new Set();
  let dark = 0, n = 0;
  for (let y = 0; y < height; y += 3) for (let x = 0; x < width; x += 3) {
    const i = y * stride + x * bpp;
    colours.add((img[i] << 16) | (img[i + 1] << 8) | img[i + 2]);
    if (img[i] + img[i + 1] + img[i + 2] < 200) dark++;
    n++;
  }
  return { width, height, colours: colours.size, dark: dark / n };
}

async function shot(page, name, w, h) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  const s = pngStats(file);
  log(`screenshot ${name}: ${s.width}x${s.height}, ${s.colours} colours, ${(s.dark * 100).toFixed(1)}% dark`);
  assert.equal(s.width, w, `${name}: width`);
  assert.equal(s.height, h, `${name}: height`);
  assert.ok(s.colours >= 30, `${name}: a page with a board has many colours, got ${s.colours}`);
  assert.ok(s.dark > 0.002 && s.dark < 0.5, `${name}: some text, not a dark page (${s.dark})`);
  return s;
}

async function api(p, token) {
  const r = await fetch(BASE + p, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: r.status, body: await r.json() };
}

// The page is drawn for its newest view: decisions rendered for the version shown.
async function settled(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const d = document.body.dataset;
    return d.gameOver === 'yes' || (d.sending !== 'yes' && d.version && d.decisions === d.version && d.myTurn === 'yes');
  }, null, { timeout, polling: 50 });
  return page.evaluate(() => ({ ...document.body.dataset }));
}


// One action through the page's controls. Returns false at Game Over.
// The page redraws its controls when a newer position arrives: every click
// goes through a locator (found again at the moment of the click), and an
// attempt that met a control just replaced ("not attached to the DOM") is
// made again on the redrawn page.
async function playOne(page) {
  let d, v, kinds, how;
  for (let attempt = 0; ; attempt++) {
    d = await settled(page);
    if (d.gameOver === 'yes') return false;
    v = Number(d.version);
    kinds = await page.locator('.decision').evaluateAll((ds) => ds.map((x) => x.dataset.kind));
    try {
      how = await actOnce(page, kinds);
      break;
    } catch (e) {
      if (attempt >= 4 || !/not attached|detached|Target closed|element was removed|Element is not/i.test(String(e.message))) throw e;
      log(`  redrawn under the click at v${v} (${String(e.message).split('\n')[0]}): again`);
      await sleep(100);
    }
  }
  try {
    await page.waitForFunction((v0) => Number(document.body.dataset.version) > v0 || document.querySelector('#act-result.error') ||
      document.body.dataset.gameOver === 'yes', v, { timeout: 30000, polling: 50 });
  } catch (e) {
    await page.screenshot({ path: path.join(OUT, 'failure.png') }).catch(() => {});
    log(`stuck after ${how} at v${v}:`, JSON.stringify(await page.evaluate(() => ({ ...document.body.dataset,
      result: document.querySelector('#act-result').textContent, decisions: document.querySelector('#decisions').textContent.slice(0, 400) }))));
    throw e;
  }
  if (env.MENTAT_WEB_VERBOSE) log(`  v${v} ${kinds.join(',')}: ${how}`);
  const err = await page.$eval('#act-result', (e) => (e.className === 'error' ? e.textContent : ''));
  if (err) { stats.errors++; log(`  ${how} at v${v} answered: ${err}`); }
  if (how === 'generic') stats.generic++; else stats.widgets[how] = (stats.widgets[how] || 0) + 1;
  stats.actions++;
  return true;
}

// The Move widget is built from the engine's labelled choices (the view's
// decisions[].choices, docs/CLI.md "Labelled choices"): its origins are the
// choices of role "origin" with their names, the destinations offered for the
// chosen origin are exactly that origin's "to", named as the destination
// choices; and the page's choices equal `mentat actions --json` at that version.
async function checkMoveChoices(page) {
  const got = await page.evaluate(() => {
    const v = window.mentat.view, d = v.decisions.find((x) => x.kind === 'Move');
    const opts = (sel) => [...document.querySelectorAll(`form.move select[name=${sel}] option`)].map((o) => ({ id: Number(o.value), text: o.textContent }));
    return { version: v.version, choices: d.choices, from: opts('from'), to: opts('to'), cur: Number(document.querySelector('form.move select[name=from]').value) };
  });
  const origins = got.choices.filter((c) => c.role === 'origin');
  assert.ok(origins.length > 0, 'a Move decision labels its origins');
  assert.deepEqual(got.from.map((o) => o.id), origins.map((c) => c.set[0].value), 'the widget offers the labelled origins');
  origins.forEach((c, i) => assert.ok(got.from[i].text.startsWith(c.name), `origin ${c.name} is named`));
  const cur = origins.find((c) => c.set[0].value === got.cur);
  assert.ok(cur && cur.to.length, 'the widget starts from an origin that can move');
  assert.deepEqual(got.to.map((o) => o.id), cur.to, `the destinations offered from ${cur.name} are that origin's`);
  for (const o of got.to) assert.equal(o.text, got.choices.find((c) => c.role === 'destination' && c.option === o.id).name, 'a destination is named');
  const norm = (cs) => cs.map((c) => ({ option: c.option, name: c.name, role: c.role, set: c.set, to: c.to || [] }));
  const cli = JSON.parse(execFileSync(BIN, ['--data', data, 'actions', globalThis.ROOM, '--seat', 'atreides', '--json'], { encoding: 'utf8' }));
  if (cli.version === got.version) {
    assert.deepEqual(norm(cli.decisions.find((x) => x.kind === 'Move').choices), norm(got.choices), 'the page has the choices of actions --json');
    stats.choicesChecked = (stats.choicesChecked || 0) + 1;
  }
  log(`Move: ${origins.length} origin(s), ${cur.to.length} destinations from ${cur.name}, labelled as the engine's choices`);
}

// Chooses and clicks one control; returns which ("Ship", "Move", ..., "generic").
async function actOnce(page, kinds) {
  const lastError = await page.locator('#act-result').evaluate((e) => e.className === 'error');
  const has = async (sel) => (await page.locator(sel).count()) > 0;
  if (!lastError && kinds.includes('Ship') && !used.Ship && await has('#board [data-location].option')) {
    // Pick the destination on the board itself, one force.
    await page.locator('#board [data-location].option').first().click({ force: true });
    const picked = await page.locator('form.ship select[name=to]').inputValue();
    const clicked = await page.locator('#board [data-location].picked').first().evaluate((p) => p.dataset.location);
    assert.equal(picked, clicked, 'clicking a territory picks it as the destination');
    await page.locator('form.ship input[name=forces]').fill('1');
    await page.locator('form.ship button[type=submit]').click();
    return (used.Ship = 'Ship');
  }
  if (!lastError && kinds.includes('Move') && !used.Move && await has('form.move')) {
    await checkMoveChoices(page);
    await page.locator('form.move button[type=submit]').click();
    return (used.Move = 'Move');
  }
  if (!lastError && kinds.includes('BattlePlan') && await has('form.wheel')) {
    // The wheel: a leader disc, dial 0 on the wheel, no weapon, no defense (always legal), then commit.
    const w = page.locator('form.wheel');
    await w.locator('.discs .disc').first().click();
    assert.equal(await w.locator('.discs .disc').first().getAttribute('aria-pressed'), 'true', 'a leader disc is picked');
    await w.locator('svg.dial .dial-n[data-n="0"]').click();
    assert.equal(await w.locator('input[name=dial]').inputValue(), '0', 'clicking the wheel sets the dial');
    await w.locator('.wheel-part', { hasText: 'Weapon' }).locator('.card', { hasText: 'none' }).click();
    await w.locator('.wheel-part', { hasText: 'Defense' }).locator('.card', { hasText: 'none' }).click();
    assert.match(await w.locator('.total').textContent(), /dial 0/, 'the wheel shows the plan');
    if (!used.wheelShot) { used.wheelShot = true; await w.screenshot({ path: path.join(OUT, 'battle-wheel.png') }); }
    await w.locator('button[type=submit]').click();
    return 'BattlePlan';
  }
  if (!lastError && kinds.includes('Respond') && await has('.window-widget button')) {
    // A response window: its own widget (the window named, the answers as buttons); let it pass.
    assert.ok((await page.locator('.window-widget .window-what').textContent()).length > 0, 'the window is named');
    const no = page.locator('.window-widget button[data-respond=no]');
    await (await no.count() ? no : page.locator('.window-widget button')).first().click();
    return 'Respond';
  }
  if (!lastError && kinds.includes('Revive') && !used.Revive && await has('form.revive')) {
    await page.locator('form.revive button[type=submit]').click();  // its default: the largest revival of forces alone
    return (used.Revive = 'Revive');
  }
  if (!lastError && kinds.includes('Bid') && !used.Bid && await has('form.bid')) {
    await page.locator('form.bid button[type=submit]').click();
    return (used.Bid = 'Bid');
  }
  // The generic control: prefer passing (short games), else the first legal choice.
  const open = '.decision > div > .legal > [data-legal="0"], .decision > div > .legal > .legal-send';
  let target = page.locator('.decision[data-kind=Pass] > div > .legal > [data-legal="0"]');
  if (!await target.count()) target = page.locator(open);
  if (!await target.count()) {  // only widgets' kinds: their legal choices are folded under the widget
    await page.locator('.decision details.suggested > summary').first().click();
    target = page.locator('.decision details.suggested > .legal > [data-legal="0"], .decision details.suggested > .legal > .legal-send');
  }
  await target.first().click();
  return 'generic';
}

// ---- the test -------------------------------------------------------------------

async function run() {
  // Lobby, on the desktop.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const lobby = await desk.newPage();
  await lobby.goto(BASE + '/');
  await lobby.waitForSelector('#rulings select[data-ruling]', { state: 'attached' });
  assert.ok(await lobby.locator('#rulings select[data-ruling]').count() >= 10, 'the lobby offers the rulings');
  await lobby.check('input[data-faction=atreides]');
  await lobby.check('input[data-faction=harkonnen]');
  await lobby.selectOption('select[data-who=harkonnen]', 'easy');
  await lobby.fill('input[name=turns]', '2');
  await lobby.fill('input[name=room]', 'browser-game');
  await lobby.click('summary:has-text("Seeds")');
  await lobby.fill('input[name=seed]', '7');
  await lobby.fill('input[name=bot_seed]', '7');
  await lobby.click('#create-button');
  await lobby.waitForSelector('#seat-links li[data-faction=atreides] a.seat-link');
  const seatLink = await lobby.getAttribute('#seat-links li[data-faction=atreides] a.seat-link', 'href');
  const observerLink = await lobby.getAttribute('#seat-links a.observer-link', 'href');
  assert.equal(await lobby.$('#seat-links li[data-faction=harkonnen] a.seat-link'), null, 'a bot seat has no link');
  const room = new URL(seatLink).searchParams.get('room');
  globalThis.ROOM = room;
  const token = new URLSearchParams(new URL(seatLink).hash.slice(1)).get('token');
  assert.match(token, /^[0-9a-f]{64}$/);
  assert.ok(!observerLink.includes(token), 'the observer link has no token');
  log('room', room, 'created in the lobby');

  // The observer: record every API answer it receives.
  const obsCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const obs = await obsCtx.newPage();
  const seen = [];
  obs.on('response', async (r) => {
    const u = new URL(r.url());
    if (!u.pathname.startsWith('/rooms/')) return;
    let body = '';
    try { body = await r.text(); } catch (_) { return; }
    seen.push({ path: u.pathname, query: u.search, status: r.status(), body, auth: !!(await r.request().allHeaders()).authorization });
  });
  await obs.goto(observerLink);
  await obs.waitForSelector('#board svg');

  // The seat, on the desktop.
  const page = await desk.newPage();
  await page.goto(seatLink);
  await page.waitForSelector('#board svg');
  assert.ok(!page.url().includes(token), 'the token leaves the address bar once read');
  assert.match(await page.textContent('#who'), /Atreides/);
  await settled(page);
  await shot(page, 'desktop-start', 1280, 900);
  const layout = await page.evaluate(() => {
    const b = document.querySelector('#board svg').getBoundingClientRect(), s = document.querySelector('.side').getBoundingClientRect();
    return { board: b.width, sideLeft: s.left, boardRight: b.right };
  });
  assert.ok(layout.board > 600 && layout.sideLeft >= layout.boardRight - 1, `desktop: board beside the panel ${JSON.stringify(layout)}`);
  assert.ok(await page.$eval('#private', (e) => /Hand:/.test(e.textContent)), 'the private panel shows the hand');

  for (let i = 0; i < 6 && await playOne(page); i++);

  // A reply lost on the way back: the page resends the same id.
  let lostId = null;
  await page.route('**/rooms/*/actions', async (route) => {
    if (lostId) return route.continue();
    lostId = JSON.parse(route.request().postData()).id;
    const first = await route.fetch();  // the server stores it ...
    log(`lost reply: the server answered ${first.status()} to ${lostId}; the page never hears of it`);
    await route.abort('connectionreset');
  });
  if (await playOne(page)) {
    assert.ok(lostId, 'an action was sent');
    await page.waitForFunction(() => /already stored/.test(document.querySelector('#act-result').textContent), null, { timeout: 20000 });
    log('lost reply: resent', lostId, 'and answered as a duplicate');
  }
  await page.unroute('**/rooms/*/actions');

  // Offline while acting: the page keeps the action and sends it when back.
  let offlineId = null, offlineStale = false;
  const d = await settled(page);
  if (d.gameOver !== 'yes') {
    page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/actions')) offlineId = JSON.parse(r.postData()).id; });
    await desk.setOffline(true);
    const acting = playOne(page);
    await page.waitForFunction(() => document.body.dataset.conn === 'offline', null, { timeout: 20000 });
    await sleep(1500);
    await desk.setOffline(false);
    await acting;
    offlineStale = await page.$eval('#act-result', (e) => /moved on/.test(e.textContent));
    await page.waitForFunction(() => document.body.dataset.conn === 'online', null, { timeout: 30000 });
    log('offline: reconnected, action', offlineId);
  }
  // A reload in the middle keeps the seat (this tab's sessionStorage).
  await page.reload();
  await page.waitForSelector('#board svg');
  assert.match(await page.textContent('#who'), /Atreides/);

  for (const id of [lostId, offlineId].filter(Boolean)) {
    let all = [];
    for (let after = -1; ;) {
      const r = await api(`/rooms/${room}/events?after=${after}`, token);
      all = all.concat(r.body.events);
      if (!r.body.more) break;
      after = all[all.length - 1].version;
    }
    const n = all.filter((e) => e.id === id).length;
    // Stored once; or never, if the game moved on before it arrived (409, shown).
    assert.ok(n === 1 || (n === 0 && id === offlineId && offlineStale), `action ${id} is stored exactly once (found ${n})`);
  }

  for (let i = 0; i < 4 && await playOne(page); i++);
  await page.close();

  // The rest on a phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  const mob = await phone.newPage();
  await mob.goto(seatLink);
  await mob.waitForSelector('#board svg');
  await settled(mob);
  await shot(mob, 'phone-table', 390, 844);
  const fit = await mob.evaluate(() => ({ scroll: document.documentElement.scrollWidth, board: document.querySelector('#board svg').getBoundingClientRect().width }));
  assert.ok(fit.scroll <= 390 && fit.board > 300 && fit.board <= 390, `phone: the table fits the screen ${JSON.stringify(fit)}`);
  let guard = 0;
  while (await playOne(mob)) assert.ok(++guard < 400, 'the game ends');
  await mob.waitForSelector('#game-over');
  log('Game Over on the phone:', await mob.textContent('#game-over'), JSON.stringify(stats));
  // The page may redraw the panel (a late poll) between finding and
  // scrolling it: find it again and retry a few times.
  for (let tries = 0; ; tries++) {
    try {
      await mob.locator('#game-over').scrollIntoViewIfNeeded({ timeout: 5000 });
      break;
    } catch (e) {
      if (tries >= 4 || !/not attached|detached/i.test(String(e))) throw e;
      await sleep(200);
    }
  }
  await shot(mob, 'phone-game-over', 390, 844);
  assert.ok(stats.widgets.Ship || stats.widgets.Move || stats.widgets.Bid || stats.widgets.BattlePlan, 'a widget was used');
  assert.ok(stats.generic > 0, 'the generic controls were used');
  assert.ok(stats.widgets.Move && stats.choicesChecked, 'the Move widget was used and its labelled choices checked against actions --json');

  // The observer saw the end too, and only public data.
  await obs.waitForSelector('#game-over', { timeout: 30000 });
  await shot(obs, 'desktop-observer', 1280, 900);
  assert.equal(await obs.$('#decisions-box:not([hidden])'), null, 'no decisions for the observer');
  assert.ok(!(await obs.$eval('#private-box', (e) => !e.hidden)), 'no private panel for the observer');
  await sleep(300);
  let views = 0, evs = 0;
  for (const r of seen) {
    assert.ok(!r.auth, 'the observer sends no token');
    assert.ok(!r.body.includes(token), 'the observer never receives a token');
    assert.ok(!r.path.endsWith('/legal'), 'the observer never asks for legal actions');
    if (r.path.endsWith('/view')) {
      const got = JSON.parse(r.body);
      assert.equal(got.seat, null);
      assert.equal(got.view.viewer, 'observer');
      const want = await api(`/rooms/${room}/observer?v=${got.version}`);
      assert.deepEqual(got.view, want.body.view, `the observer's view at v${got.version} is the observer view`);
      for (const f of got.view.factions) {
        for (const k of ['hand', 'traitors', 'traitor_offer', 'prediction_faction', 'storm_dial'])
          assert.ok(f[k] === undefined || f[k] === null || (Array.isArray(f[k]) && f[k].length === 0), `observer: ${f.faction}.${k} hidden`);
        assert.ok(f.spice === null || f.spice === undefined, `observer: ${f.faction} spice hidden`);
      }
      views++;
    } else if (r.path.endsWith('/events')) {
      const got = JSON.parse(r.body);
      assert.equal(got.seat, null);
      for (const e of got.events) {
        assert.ok(!e.own && e.id === undefined, 'observer events carry no client ids');
        assert.doesNotMatch(e.summary, /keeps traitor|predicts .* on turn|dials \d+|battle plan:/, 'no hidden detail in a summary');
      }
      evs += got.events.length;
    }
  }
  assert.ok(views >= 3 && evs >= 10, `the observer followed the game (${views} views, ${evs} events)`);
  log(`observer: ${seen.length} answers, ${views} views, ${evs} events, all public`);

  // The replay: every version, the board at each, what changed.
  const rep = await obsCtx.newPage();
  await rep.goto(`${BASE}/replay.html?room=${room}#v=1`);
  await rep.waitForFunction(() => document.body.dataset.version === '1' && document.querySelector('#board svg'));
  const head = (await api(`/rooms/${room}/observer`)).body.version;
  assert.equal(Number(await rep.getAttribute('#slider', 'max')), head, 'the slider spans every version');
  assert.equal(await rep.locator('#log [data-version]').count(), head + 1, 'one log line per event');
  await rep.keyboard.press('ArrowRight');
  await rep.waitForFunction(() => document.body.dataset.version === '2');
  assert.ok(await rep.locator('#changes li').count() > 0, 'what changed is listed');
  await rep.keyboard.press('End');
  await rep.waitForFunction((h) => document.body.dataset.version === String(h), head);
  assert.match(await rep.textContent('#summary'), /v\d+/);
  log(`replay: ${head + 1} versions`);

  // The window and Karama widgets, on decisions the engine gives (shapes of
  // view.decisions and /legal): rendered by the page's own module, clicked.
  // The labels are garbled on purpose: the client reads the typed fields
  // (the action, the listing's `karama`, the decision's `about`), and a label
  // that reads like a Karama use ("plays Karama: prevents …") without them
  // is not one.
  const wid = await obsCtx.newPage();
  await wid.goto(`${BASE}/index.html`);
  const sent = await wid.evaluate(async () => {
    const { renderDecisions } = await import('/js/controls.js');
    const box = document.createElement('div');
    document.body.append(box);
    const out = [];
    const view = { version: 40, window: 'Harkonnen uses take up arms: the Atreides may cancel it with a Karama', decisions: [
      { kind: 'Respond', prompt: 'Respond accept=false lets it pass; accept=true with a Karama card cancels it', min: 0, max: 1, options: [31],
        choices: [{ option: 31, name: 'Karama', role: 'card', set: [{ field: 'card', value: 31 }] }],
        about: { window: 'karama_cancel', owner: 'atreides', ability: 'take up arms' } },
      { kind: 'PlayCard', prompt: 'Play Karama as a Karama', min: 0, max: 128, options: [31], choices: [] },
      { kind: 'PlayCard', prompt: 'Play Truthtrance', min: 0, max: 95, options: [40], choices: [] }],
    factions: [{ seat: 0, faction: 'atreides', hand: [{ id: 31, name: 'Karama' }, { id: 40, name: 'Truthtrance' }], forces: [] }], leaders: [] };
    const legal = [
      { kind: 'Respond', label: 'Atreides answers yes', action_type: 'Respond', action: { accept: true, card: 31 } },
      { kind: 'Respond', label: 'Atreides answers no', action_type: 'Respond', action: {} },
      { kind: 'PlayCard', label: 'use #1', action_type: 'PlayCard', action: { card: 31, value: 128 }, karama: 'guild_rates' },
      { kind: 'PlayCard', label: 'use #2', action_type: 'PlayCard', action: { card: 31, value: 77, target: 1 }, karama: 'prevent' },
      { kind: 'PlayCard', label: 'use #3', action_type: 'PlayCard', action: { card: 31, value: 78, target: 1 }, karama: 'prevent' },
      { kind: 'PlayCard', label: 'Atreides plays Karama: prevents take up arms (Bene Gesserit)', action_type: 'PlayCard', action: { card: 40, value: 80, target: 4 } }];
    renderDecisions(box, { view, seat: 0, legal, names: new Map(), ids: new Map(), highlight() {}, setOnLocation() {},
      send: (t, a) => out.push({ t, a }) });
    const texts = (sel) => [...box.querySelectorAll(sel)].map((b) => b.textContent);
    const k = box.querySelector('details.karama');
    const result = { window: texts('.window-widget .window-what'), windowKind: box.querySelector('.window-widget').dataset.window,
      answers: texts('.window-widget button'), karamas: box.querySelectorAll('details.karama').length, open: !!(k && k.open),
      summary: k && k.querySelector('summary').textContent, groups: k ? [...k.querySelectorAll('optgroup')].map((g) => g.label) : [],
      uses: texts('details.karama option'), generic: texts('.decision[data-kind=PlayCard] .suggested .legal button') };
    box.querySelector('.window-widget button[data-respond=yes]').click();
    const afterYes = out.length;
    if (k) {
      const sel = k.querySelector('select.karama-select');
      sel.value = [...sel.options].find((o) => o.textContent === 'use #2').value;
      sel.dispatchEvent(new Event('change'));
      k.querySelector('.karama-spend').click();
      result.confirmShown = !k.querySelector('.karama-confirm-box').hidden;
      result.confirmText = k.querySelector('.karama-what').textContent;
      result.sentBeforeConfirm = out.length - afterYes;
      k.querySelector('.karama-cancel').click();
      result.cancelled = k.querySelector('.karama-confirm-box').hidden && out.length === afterYes;
      k.querySelector('.karama-spend').click();
      k.querySelector('.karama-confirm').click();
    }
    return { ...result, out };
  });
  assert.deepEqual(sent.window, ['Harkonnen uses take up arms: the Atreides may cancel it with a Karama'], 'the window is named');
  assert.equal(sent.windowKind, 'karama_cancel', "the window widget carries the decision's window kind (about)");
  assert.deepEqual(sent.answers, ['Yes — spend Karama', 'No, let it pass'], 'the answers name the card they spend');
  assert.equal(sent.karamas, 1, 'one "Karama…" control, found by the listing\'s `karama`, whatever the labels say');
  assert.equal(sent.open, false, 'the Karama control starts folded');
  assert.equal(sent.summary, 'Karama… (3 uses)');
  assert.deepEqual(sent.groups, ['Karama: Guild rates', 'Karama: prevent an ability'], 'the uses grouped by card and kind');
  assert.deepEqual(sent.uses, ['use #1', 'use #2', 'use #3'], "the Karama's uses, labelled by the server, and only those");
  assert.deepEqual(sent.generic, ['Atreides plays Karama: prevents take up arms (Bene Gesserit)'],
    'a card play without `karama` stays with the generic controls, whatever its label says; the Karama uses are not repeated there');
  assert.equal(sent.confirmShown, true, 'spending asks for a confirmation');
  assert.equal(sent.confirmText, 'Spend Karama? use #2');
  assert.equal(sent.sentBeforeConfirm, 0, 'nothing is sent before the confirmation');
  assert.equal(sent.cancelled, true, 'cancel sends nothing');
  assert.deepEqual(sent.out, [{ t: 'Respond', a: { accept: true, card: 31 } }, { t: 'PlayCard', a: { card: 31, value: 77, target: 1 } }],
    'the widgets send the legal actions chosen');
  log('window and Karama widgets: rendered, confirmed and sent');

  // The Ship widget offers the ally's share where the ally lets this faction
  // spend its spice (the view: the ally's permission and spice), not where a
  // prompt mentions it.
  const ship = await wid.evaluate(async () => {
    const { renderDecisions } = await import('/js/controls.js');
    const render = (prompt, factions) => {
      const box = document.createElement('div');
      document.body.append(box);
      renderDecisions(box, { view: { version: 30, decisions: [{ kind: 'Ship', prompt, min: 1, max: 20, options: [30] }], factions, leaders: [] },
        seat: 0, legal: [{ kind: 'Ship', label: 'ships', action_type: 'Ship', action: { to: 30, forces: 1 } }],
        names: new Map([[30, 'False Wall South']]), ids: new Map(), highlight() {}, setOnLocation() {}, send() {} });
      const i = box.querySelector('form.ship [name=ally_pays]');
      return i ? Number(i.max) : null;
    };
    return {
      allied: render('Ship forces', [{ seat: 0, faction: 'atreides', ally: 'fremen', hand: [], forces: [], spice: 5 },
        { seat: 1, faction: 'fremen', ally: 'atreides', spice: 3, ally_permission_shipment: 4, forces: [] }]),
      mentioned: render('Ship forces; your ally may pay up to 4 (ally_pays, 1.10.02.06)', [{ seat: 0, faction: 'atreides', hand: [], forces: [], spice: 5 }]),
    };
  });
  assert.equal(ship.allied, 3, "the ally's share: its permission within its spice");
  assert.equal(ship.mentioned, null, 'a prompt naming ally_pays adds no field');
  log("ship widget: the ally's share from the view");

  // The Revive widget, on a revival decision and its legal actions: forces
  // from the largest revival of forces alone, the leader from the labelled
  // choices; what it sends is the form's.
  const rev = await wid.evaluate(async () => {
    const { renderDecisions } = await import('/js/controls.js');
    const box = document.createElement('div');
    document.body.append(box);
    const out = [];
    const view = { version: 12, decisions: [
      { kind: 'Revive', prompt: 'Revive up to 3 forces (2 free, then 2 spice each) and/or one leader (its strength in spice)', min: 0, max: 3,
        options: [3], choices: [{ option: 3, name: 'Duncan Idaho', role: 'leader', set: [{ field: 'leader', value: 3 }] }] },
      { kind: 'Pass', prompt: 'Revive nothing', min: 0, max: 0, options: [] }],
    factions: [{ seat: 0, faction: 'atreides', hand: [], forces: [] }], leaders: [{ id: 3, name: 'Duncan Idaho', strength: 2 }] };
    const legal = [];
    for (const leader of [undefined, 3])
      for (let n = 0; n <= 3; n++) if (n || leader !== undefined) legal.push({ kind: 'Revive', label: `revive ${n}`, action_type: 'Revive', action: leader === undefined ? { forces: n } : { forces: n, leader } });
    legal.push({ kind: 'Pass', label: 'Atreides passes', action_type: 'Pass', action: {} });
    renderDecisions(box, { view, seat: 0, legal, names: new Map(), ids: new Map(), highlight() {}, setOnLocation() {},
      send: (t, a) => out.push({ t, a }) });
    const f = box.querySelector('form.revive');
    const forces = f.querySelector('[name=forces]');
    const result = { start: forces.value, max: forces.max, leaders: [...f.querySelectorAll('[name=leader] option')].map((o) => o.textContent),
      special: !!f.querySelector('[name=special]') };
    f.querySelector('button[type=submit]').click();
    forces.value = '2';
    f.querySelector('[name=leader]').value = '3';
    f.querySelector('button[type=submit]').click();
    return { ...result, out };
  });
  assert.equal(rev.start, '3', 'the widget starts from the largest revival of forces alone');
  assert.equal(rev.max, '3', 'no more forces than the engine offers');
  assert.deepEqual(rev.leaders, ['no leader', 'Duncan Idaho'], 'the leaders the engine offers, named');
  assert.equal(rev.special, false, 'no special forces field when none may be revived');
  assert.deepEqual(rev.out, [{ t: 'Revive', a: { forces: 3 } }, { t: 'Revive', a: { forces: 2, leader: 3 } }], 'the widget sends the form');
  log('revive widget: rendered and sent');

  // The PlaceForces widget: the Fremen's 10 forces over their three
  // territories (per location, forces and Fedaykin, the total shown), and the
  // Bene Gesserit's one force anywhere (a location to pick).
  const place = await wid.evaluate(async () => {
    const { renderDecisions } = await import('/js/controls.js');
    const out = [];
    const render = (decisions, legal, faction) => {
      const box = document.createElement('div');
      document.body.append(box);
      renderDecisions(box, { view: { version: 1, decisions, factions: [{ seat: 0, ...faction, hand: [], forces: [] }], leaders: [] }, seat: 0, legal,
        names: new Map([[65, 'Sietch Tabr'], [30, 'False Wall South (West Sector)'], [33, 'False Wall West (North Sector)']]), ids: new Map(),
        highlight() {}, setOnLocation() {}, send: (t, a) => out.push({ t, a }) });
      return box;
    };
    const fremen = render([{ kind: 'PlaceForces', prompt: 'Distribute 10 forces among Sietch Tabr, False Wall South and False Wall West', min: 10, max: 10,
      options: [65, 30, 33] }], [{ kind: 'PlaceForces', label: 'Fremen places 10', action_type: 'PlaceForces', action: { placements: [{ location: 65, forces: 10, special: 0 }] } }],
    { faction: 'fremen', reserves: 17, reserves_special: 3 });
    const f = fremen.querySelector('form.place');
    const start = [...f.querySelectorAll('.place-row')].map((r) => r.querySelector('input').value);
    const startTotal = f.querySelector('.total').textContent;
    const set = (name, v) => { const i = f.querySelector(`[name=${name}]`); i.value = String(v); i.dispatchEvent(new Event('input', { bubbles: true })); };
    set('forces-65', 3); set('special-65', 1); set('forces-30', 3); set('forces-33', 3);
    const total = f.querySelector('.total').textContent;
    f.querySelector('button[type=submit]').click();
    const bg = render([{ kind: 'PlaceForces', prompt: 'Place one force (an advisor in the advanced game) in any territory', min: 1, max: 1,
      options: Array.from({ length: 86 }, (_, i) => i) }], [{ kind: 'PlaceForces', label: 'Bene Gesserit places 1', action_type: 'PlaceForces',
      action: { placements: [{ location: 0, forces: 1, special: 0 }] } }], { faction: 'bene_gesserit', reserves: 19, reserves_special: 0 });
    const g = bg.querySelector('form.place');
    g.querySelector('[name=location]').value = '30';
    g.querySelector('button[type=submit]').click();
    return { start, startTotal, total, out };
  });
  assert.deepEqual(place.start, ['10', '0', '0'], 'the distribution starts from the legal one');
  assert.equal(place.startTotal, '10 of 10 placed');
  assert.equal(place.total, '10 of 10 placed', 'the total counts forces and Fedaykin');
  assert.deepEqual(place.out, [
    { t: 'PlaceForces', a: { placements: [{ location: 65, forces: 3, special: 1 }, { location: 30, forces: 3, special: 0 }, { location: 33, forces: 3, special: 0 }] } },
    { t: 'PlaceForces', a: { placements: [{ location: 30, forces: 1, special: 0 }] } }], 'the widgets send the placements');
  log('placement widgets: rendered and sent');

  // The KeepCards widget: a box per card the winner may keep, all ticked.
  const keep = await wid.evaluate(async () => {
    const { renderDecisions } = await import('/js/controls.js');
    const out = [];
    const box = document.createElement('div');
    document.body.append(box);
    const legal = [[], [4], [17], [4, 17]].map((k) => ({ kind: 'KeepCards', label: `keep ${k.length}`, action_type: 'KeepCards', action: { keep: k } }));
    renderDecisions(box, { view: { version: 80, decisions: [
      { kind: 'KeepCards', prompt: 'You won: keep any of these cards', min: 0, max: 2, options: [4, 17],
        choices: [{ option: 4, name: 'Crysknife', role: 'card', set: [{ field: 'keep[]', value: 4 }] },
                  { option: 17, name: 'Shield', role: 'card', set: [{ field: 'keep[]', value: 17 }] }] }],
    factions: [{ seat: 0, faction: 'atreides', hand: [], forces: [] }], leaders: [] }, seat: 0, legal, names: new Map(), ids: new Map(),
    highlight() {}, setOnLocation() {}, send: (t, a) => out.push({ t, a }) });
    const f = box.querySelector('form.keep');
    const names = [...f.querySelectorAll('.keep-card')].map((l) => l.textContent);
    const ticked = [...f.querySelectorAll('[name=keep]')].map((i) => i.checked);
    f.querySelector('button[type=submit]').click();
    f.querySelector('[name=keep][value="4"]').checked = false;
    f.querySelector('button[type=submit]').click();
    return { names, ticked, out };
  });
  assert.deepEqual(keep.names, ['Crysknife', 'Shield'], 'the cards named');
  assert.deepEqual(keep.ticked, [true, true], 'every card ticked at first');
  assert.deepEqual(keep.out, [{ t: 'KeepCards', a: { keep: [4, 17] } }, { t: 'KeepCards', a: { keep: [17] } }], 'the widget sends the ticked cards');
  log('keep-cards widget: rendered and sent');

  // A modules room from the lobby: CHOAM and the Richese are offered only
  // once their module is ticked, then seated as bots; the bots play them.
  const lob2 = await desk.newPage();
  await lob2.goto(BASE + '/');
  await lob2.waitForSelector('input[data-module=choam_richese]');
  assert.ok(await lob2.isHidden('input[data-faction=choam]'), 'CHOAM is offered only with its module');
  await lob2.check('input[data-module=choam_richese]');
  await lob2.check('input[data-module=leader_skills]');
  await lob2.check('input[data-faction=choam]');
  await lob2.check('input[data-faction=richese]');
  await lob2.check('input[data-faction=atreides]');
  await lob2.selectOption('select[data-who=choam]', 'brutal');
  await lob2.selectOption('select[data-who=richese]', 'hard');
  await lob2.selectOption('select[data-who=atreides]', 'easy');
  await lob2.fill('input[name=turns]', '1');
  await lob2.fill('input[name=room]', 'browser-modules');
  await lob2.click('#create-button');
  await lob2.waitForSelector('#seat-links li[data-faction=richese]');
  assert.equal(await lob2.$('#seat-links li[data-faction=choam] a.seat-link'), null, 'the CHOAM bot has no seat link');
  assert.match(await lob2.textContent('#seat-links li[data-faction=choam]'), /bot, brutal/);
  let moved = 0;
  for (let i = 0; i < 200 && moved === 0; i++) {
    const ev = await (await fetch(`${BASE}/rooms/browser-modules/events?after=0`)).json();
    moved = ev.events.filter((e) => e.faction === 'choam' || e.faction === 'richese').length;
    if (!moved) await sleep(50);
  }
  assert.ok(moved > 0, 'the CHOAM and Richese bots move');
  await lob2.close();
  log(`modules room from the lobby: ${moved} bot moves by CHOAM and the Richese`);

  // The access log: one line per request, no token.
  const lines = fs.readFileSync(accessLog, 'utf8').trim().split('\n');
  assert.ok(lines.length >= seen.length, 'a line per request');
  assert.ok(lines.some((l) => / "POST \/rooms\/browser-game\/actions" 200 /.test(l)), 'actions are logged');
  assert.ok(!lines.some((l) => l.includes(token)), 'the access log holds no token');
  log(`access log: ${lines.length} lines, no token`);
}
