// The table: one seat's view (with its token) or the observer's (without).
// Updates by long-polling /events with the last version seen; after each
// new event the view, the board and (for a seat) the legal actions are
// fetched again. A lost connection is retried with back-off; an action sent
// but not answered is resent unchanged (same client action id) on reconnect.
import { Api, ApiError, param, seatToken, sleep, el, newActionId } from './api.js';
import { renderDecisions } from './controls.js';

const room = param('room');
const token = room ? seatToken(room) : null;
const api = new Api(room, token);
const $ = (id) => document.getElementById(id);

const state = { view: null, seat: null, legal: null, after: -1, names: new Map(), ids: new Map(), busy: false,
  boardVersion: -1, onLocation: null, gameOver: false };
window.mentat = state;  // for the curious (and the browser test)

$('replay-link').href = `/replay.html?room=${encodeURIComponent(room || '')}`;

function setConn(ok, text) {
  const c = $('conn');
  c.className = `pill ${ok ? 'online' : 'offline'}`;
  c.textContent = text || (ok ? 'live' : 'reconnecting…');
  document.body.dataset.conn = ok ? 'online' : 'offline';
}

function factionName(key) {
  return (key || '').replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

function setBoard(svgText, version) {
  const box = $('board');
  box.innerHTML = svgText;
  state.boardVersion = version;
  state.names.clear();
  state.ids.clear();
  for (const p of box.querySelectorAll('[data-location]')) {
    const t = p.querySelector('title');
    const m = (t ? t.textContent : '').match(/^(.*?)(?: \(sector (\d+)\))?$/);
    const id = Number(p.dataset.location);
    state.names.set(id, m[1]);
    state.ids.set(`${m[1]}|${m[2] === undefined ? -1 : m[2]}`, id);  // ForcesView: location name and sector
  }
  const cap = box.querySelector('#caption');
  $('caption').textContent = cap ? cap.textContent : '';
}

// The territory under the pointer (or last tapped, on a phone) is named
// under the board, with what stands in it.
function describe(id) {
  const v = state.view;
  if (!v) return;
  const name = state.names.get(id) || '';
  const here = [];
  for (const f of v.factions) for (const x of f.forces || []) if (state.ids.get(`${x.location}|${x.sector}`) === id) here.push(`${factionName(f.faction)} ${x.forces}${x.special ? '+' + x.special : ''}`);
  const spice = (v.spice_on_board || []).filter((x) => x.location === name).map((x) => `${x.amount} spice`);
  $('caption').textContent = [name, ...here, ...spice].join(' · ');
}
$('board').addEventListener('mouseover', (ev) => {
  const p = ev.target.closest('[data-location]');
  if (p) describe(Number(p.dataset.location));
});
$('board').addEventListener('click', (ev) => {
  const p = ev.target.closest('[data-location]');
  if (p) describe(Number(p.dataset.location));
  if (p && state.onLocation) state.onLocation(Number(p.dataset.location));
});

export function highlight(options, cls = 'option') {
  for (const p of $('board').querySelectorAll(`[data-location].${cls}`)) p.classList.remove(cls);
  for (const id of options || []) {
    const p = $('board').querySelector(`[data-location="${id}"]`);
    if (p) p.classList.add(cls);
  }
}

function renderStatus(v) {
  const waiting = (v.waiting_for || []).map((s) => factionName((v.factions.find((f) => f.seat === s) || {}).faction));
  const over = !v.waiting_for || v.waiting_for.length === 0;
  state.gameOver = over;
  document.body.dataset.gameOver = over ? 'yes' : 'no';
  document.body.dataset.version = String(v.version);
  $('status').replaceChildren(
    `v${v.version} · turn ${v.turn}/${v.max_turns} · ${v.phase} · storm ${v.storm_sector} · `,
    over ? el('span', { class: 'gameover', id: 'game-over' }, `Game Over — winner${(v.winners || []).length > 1 ? 's' : ''}: ${(v.winners || []).map(factionName).join(', ') || 'none'}`)
      : el('span', { class: 'waiting' }, `waiting for ${waiting.join(', ')}`));
  if (v.window) $('status').append(` · ${v.window}`);
}

function renderFactions(v) {
  const rows = v.factions.map((f) => el('tr', { class: f.seat === state.seat ? 'own' : '' },
    el('td', {}, factionName(f.faction), f.ally ? el('span', { class: 'muted' }, ` (ally ${factionName(f.ally)})`) : ''),
    el('td', {}, f.spice === null || f.spice === undefined ? '?' : String(f.spice), ' spice'),
    el('td', {}, `${f.hand_count} cards`),
    el('td', {}, `${f.reserves}${f.reserves_special ? '+' + f.reserves_special : ''} reserves`),
    el('td', {}, `${f.tanks}${f.tanks_special ? '+' + f.tanks_special : ''} tanks`)));
  $('factions').replaceChildren(el('table', {}, el('tbody', {}, rows)));
}

function renderPrivate(v) {
  const me = v.factions.find((f) => f.seat === state.seat);
  if (!me) { $('private-box').hidden = true; return; }
  $('private-box').hidden = false;
  const leaders = (v.leaders || []).filter((l) => l.faction === me.faction || l.holder === me.faction);
  const parts = [
    el('p', {}, el('strong', {}, factionName(me.faction)), ` · ${me.spice ?? '?'} spice`,
      me.bribes ? ` · ${me.bribes} bribes` : '', me.storm_dial !== null && me.storm_dial !== undefined ? ` · storm dial ${me.storm_dial}` : ''),
    el('div', {}, el('strong', {}, 'Hand: '), (me.hand || []).length ? el('ul', { class: 'hand', id: 'hand' }, me.hand.map((c) => el('li', {}, c.name))) : el('span', { class: 'muted' }, 'empty')),
    el('div', {}, el('strong', {}, 'Traitors: '), (me.traitors || []).join(', ') || el('span', { class: 'muted' }, 'none')),
  ];
  if ((me.traitor_offer || []).length) parts.push(el('div', {}, el('strong', {}, 'Traitor cards dealt: '), me.traitor_offer.join(', ')));
  if (me.prediction_faction) parts.push(el('div', {}, el('strong', {}, 'Prediction: '), `${factionName(me.prediction_faction)} on turn ${me.prediction_turn}`));
  parts.push(el('div', {}, el('strong', {}, 'Forces: '), `${me.reserves}${me.reserves_special ? '+' + me.reserves_special : ''} in reserve, ${me.tanks}${me.tanks_special ? '+' + me.tanks_special : ''} in the tanks; `,
    (me.forces || []).map((x) => `${x.location}: ${x.forces}${x.special ? '+' + x.special : ''}`).join(', ') || 'none on the board'));
  parts.push(el('div', {}, el('strong', {}, 'Leaders: '), leaders.map((l) => `${l.name} (${l.strength}, ${l.zone.replace(/_/g, ' ')})`).join(', ')));
  if (v.wormsign) parts.push(el('div', {}, el('strong', {}, 'Top of the spice deck: '), v.wormsign));
  if (v.bidding && v.bidding.current_card) parts.push(el('div', {}, el('strong', {}, 'Card up for bid: '), v.bidding.current_card.name));
  $('private').replaceChildren(...parts);
}

function renderBattle(v) {
  const b = v.battle;
  if (!b || !b.territory) { $('battle-box').hidden = true; return; }
  $('battle-box').hidden = false;
  const side = (seat) => factionName((v.factions.find((f) => f.seat === seat) || {}).faction);
  const plan = (p) => p ? `leader ${p.leader || '–'}, dial ${p.dial}, weapon ${p.weapon || '–'}, defense ${p.defense || '–'}${p.cheap_hero ? ', ' + p.cheap_hero : ''}` : 'not revealed';
  $('battle').replaceChildren(el('p', {}, `${side(b.aggressor)} attacks ${side(b.defender)} in ${b.territory}`),
    el('p', {}, `${side(b.aggressor)}: ${plan(b.aggressor_plan)}`), el('p', {}, `${side(b.defender)}: ${plan(b.defender_plan)}`));
}

function logEvents(events) {
  const log = $('log');
  for (const e of events) {
    log.append(el('div', { class: e.own ? 'own' : '', dataset: { version: e.version } }, e.summary));
  }
  log.scrollTop = log.scrollHeight;
}

let refreshing = null, again = false;
async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      const r = await api.view();
      state.seat = r.seat;
      const v = r.view;
      state.view = v;
      $('who').textContent = r.seat === null ? 'observer' : `${factionName((v.factions.find((f) => f.seat === r.seat) || {}).faction)} (seat ${r.seat})`;
      if (state.boardVersion !== v.version) setBoard(await api.board(v.version), v.version);
      renderStatus(v);
      renderFactions(v);
      renderPrivate(v);
      renderBattle(v);
      state.legal = null;
      if (r.seat !== null && (v.waiting_for || []).includes(r.seat)) state.legal = await api.legal();
      drawDecisions();
    } while (again);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

let drawn = '';
function drawDecisions() {
  const box = $('decisions');
  $('decisions-box').hidden = state.seat === null;
  if (state.seat === null) return;
  const v = state.view;
  // Redraw only for a new position: a half-filled form survives a refresh.
  const key = `${v.version}/${state.legal ? state.legal.version : '-'}`;
  if (key === drawn) return;
  drawn = key;
  state.onLocation = null;
  highlight([]);
  highlight([], 'picked');
  highlight([], 'picked-from');
  if (!(v.waiting_for || []).includes(state.seat) || !state.legal || state.legal.version !== v.version) {
    box.replaceChildren(el('span', { class: 'muted', id: 'idle' }, state.gameOver ? 'The game is over.' : 'Nothing asked of you now.'));
    document.body.dataset.myTurn = 'no';
    document.body.dataset.decisions = String(v.version);
    return;
  }
  document.body.dataset.myTurn = 'yes';
  renderDecisions(box, {
    view: v, seat: state.seat, legal: state.legal.actions || [], names: state.names, ids: state.ids,
    highlight, setOnLocation: (fn) => { state.onLocation = fn; }, send,
  });
  document.body.dataset.decisions = String(v.version);
}

// Sends one action based on the current version. The client action id is
// drawn once per intended action; Api.submit resends it unchanged until
// the server answers.
async function send(actionType, action) {
  if (state.busy) return;
  state.busy = true;
  document.body.dataset.sending = 'yes';
  const result = $('act-result');
  result.textContent = 'sending…';
  result.className = 'muted';
  const body = { expect: state.view.version, id: newActionId(), action_type: actionType, action };
  try {
    const r = await api.submit(body, () => { setConn(false); result.textContent = 'connection lost: resending…'; });
    setConn(true);
    showResult(r);
  } finally {
    state.busy = false;
    document.body.dataset.sending = 'no';
  }
  await refresh().catch(() => {});
}

function showResult(r) {
  const result = $('act-result');
  if (r.ok) {
    result.className = 'ok';
    result.textContent = `${r.body.duplicate ? 'already stored: ' : ''}${r.body.summary || 'done'}`;
  } else {
    result.className = 'error';
    result.textContent = r.status === 409 && r.body.code === 'stale_version' ? 'The game moved on before your action arrived; look again.' : (r.body.error || `HTTP ${r.status}`);
  }
}

async function poll() {
  let backoff = 250;
  for (;;) {
    try {
      const r = await api.events(state.after, 25);
      setConn(true);
      backoff = 250;
      if (r.events.length) {
        logEvents(r.events);
        state.after = r.events[r.events.length - 1].version;
      }
      if (r.more) continue;
      if (r.events.length || state.view === null || state.view.version !== r.head) await refresh();
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 404)) {
        setConn(false, e.message);
        $('decisions').replaceChildren(el('span', { class: 'error' }, e.message));
        return;
      }
      setConn(false);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 4000);
    }
  }
}

async function start() {
  if (!room) { $('decisions').textContent = 'No room given (table.html?room=ID).'; return; }
  document.title = `Mentat — ${room}`;
  // An action sent before a reload or a crash of the tab, never answered: resend it.
  const pending = api.pending();
  if (pending && token) {
    const r = await api.submit(pending, () => setConn(false));
    showResult(r);
  }
  poll();
}
start();
