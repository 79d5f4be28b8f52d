// The lobby: create a room (factions, modules, rules, rulings, bot seats) and list rooms.
import { Api, ApiError, FACTIONS, el } from './api.js';

const api = new Api(null, null);
const factions = document.getElementById('factions');
const PROFILES = ['human', 'easy', 'medium', 'hard', 'brutal'];

// A faction's row: the checkbox and who plays it. `module`: the module that
// lets it sit (its row is shown and usable only while that module is chosen).
function factionRow(key, name, module) {
  const row = el('div', { class: 'faction-row', dataset: module ? { needs: module } : {}, hidden: !!module },
    el('label', {}, el('input', { type: 'checkbox', name: 'faction', value: key, disabled: !!module, dataset: { faction: key } }), name),
    el('label', {}, 'played by ', el('select', { name: `who-${key}`, dataset: { who: key } },
      PROFILES.map((p) => el('option', { value: p, selected: p === 'human' }, p === 'human' ? 'a person' : `bot (${p})`)))));
  factions.append(row);
}
for (const [key, name] of FACTIONS) factionRow(key, name, null);

// The playable modules (GET /modules) and the factions each one lets sit.
async function loadModules() {
  const box = document.getElementById('modules');
  try {
    const r = await api.get('/modules', { auth: false });
    for (const m of r.modules) for (const f of m.factions || []) factionRow(f.key, f.name, m.key);
    box.replaceChildren(...r.modules.map((m) => el('label', { class: 'module' },
      el('input', { type: 'checkbox', name: 'module', value: m.key, dataset: { module: m.key }, onchange: showModuleFactions }),
      ` ${m.name}`, (m.factions || []).length ? el('span', { class: 'muted' }, ` (adds ${m.factions.map((f) => f.name).join(', ')})`) : '')));
  } catch (e) {
    box.textContent = String(e.message || e);
  }
}
// A module's factions are offered while it is chosen; unchosen, they are cleared.
function showModuleFactions() {
  const chosen = new Set([...document.querySelectorAll('input[name=module]:checked')].map((i) => i.value));
  for (const row of factions.querySelectorAll('.faction-row[data-needs]')) {
    const on = chosen.has(row.dataset.needs);
    row.hidden = !on;
    const box = row.querySelector('input[name=faction]');
    box.disabled = !on;
    if (!on) box.checked = false;
  }
}
loadModules();

function seatLink(room, seat) {
  const u = new URL('/table.html', location.href);
  u.searchParams.set('room', room);
  if (seat) u.hash = `token=${seat.token}`;
  return u.href;
}

document.getElementById('create-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const err = document.getElementById('create-error');
  err.textContent = '';
  const chosen = [...f.querySelectorAll('input[name=faction]:checked')].map((i) => i.value);
  const req = { factions: chosen, rules: f.rules.value, turns: Number(f.turns.value) };
  const modules = [...f.querySelectorAll('input[name=module]:checked')].map((i) => i.value);
  if (modules.length) req.modules = modules;
  const bots = [], profiles = [];
  chosen.forEach((k, seat) => {
    const who = f.querySelector(`[data-who=${k}]`).value;
    if (who !== 'human') { bots.push(seat); profiles.push(who); }
  });
  if (bots.length) { req.bots = bots; req.bot_profiles = profiles; }
  if (f.seed.value) req.seed = Number(f.seed.value);
  if (f.bot_seed.value) req.bot_seed = Number(f.bot_seed.value);
  if (f.room.value) req.room = f.room.value;
  if (f.name.value) req.name = f.name.value;
  // Only the rulings changed from their defaults.
  const rulings = [...f.querySelectorAll('select[data-ruling]')].filter((s) => s.value !== s.dataset.default)
    .map((s) => ({ id: s.dataset.ruling, value: s.value }));
  if (rulings.length) req.rulings = rulings;
  try {
    const r = await api.post('/rooms', req);
    showCreated(r);
    loadRooms();
  } catch (e) {
    err.textContent = e instanceof ApiError ? e.message : String(e);
  }
});

function showCreated(r) {
  document.getElementById('created').hidden = false;
  document.getElementById('created-room').textContent = r.room;
  const ul = document.getElementById('seat-links');
  ul.replaceChildren();
  for (const s of r.seats) {
    const href = seatLink(r.room, s);
    ul.append(el('li', { dataset: { seat: s.seat, faction: s.faction } },
      el('strong', {}, `${s.faction}`), s.bot ? ` (bot, ${s.bot_profile}) ` : ' ',
      s.bot ? el('span', { class: 'muted' }, 'played by the server ') : el('a', { href, class: 'seat-link', target: '_blank' }, 'seat link'), ' ',
      s.bot ? '' : el('button', { type: 'button', class: 'copy', onclick: () => navigator.clipboard && navigator.clipboard.writeText(href) }, 'copy')));
  }
  ul.append(el('li', {}, el('strong', {}, 'observers: '), el('a', { href: seatLink(r.room), class: 'observer-link' }, 'watch')),
    el('li', {}, el('strong', {}, 'replay: '), el('a', { href: `/replay.html?room=${encodeURIComponent(r.room)}` }, 'replay')));
}

async function loadRooms() {
  const tbody = document.querySelector('#rooms tbody');
  try {
    const r = await api.get('/rooms', { auth: false });
    tbody.replaceChildren(...r.rooms.slice().reverse().map((m) => el('tr', {},
      el('td', {}, m.room, m.parent ? el('span', { class: 'muted' }, ` (fork of ${m.parent}@${m.parent_version})`) : ''),
      el('td', {}, String(m.head)),
      el('td', { class: 'muted' }, new Date(Number(m.created_unix_ms)).toLocaleString()),
      el('td', {}, el('a', { href: seatLink(m.room) }, 'watch'), ' · ', el('a', { href: `/replay.html?room=${encodeURIComponent(m.room)}` }, 'replay')))));
  } catch (e) {
    tbody.replaceChildren(el('tr', {}, el('td', { class: 'error', colspan: 4 }, String(e.message || e))));
  }
}
loadRooms();

async function loadRulings() {
  try {
    const r = await api.get('/rulings', { auth: false });
    document.getElementById('rulings').replaceChildren(...r.rulings.map((x) => el('div', {},
      el('label', { title: x.source }, el('select', { dataset: { ruling: x.id, default: x.default_value } },
        x.values.map((v) => el('option', { value: v, selected: v === x.default_value }, v))), ` ${x.question}`))));
  } catch (e) {
    document.getElementById('rulings').textContent = String(e.message || e);
  }
}
loadRulings();
