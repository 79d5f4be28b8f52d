// The replay of a stored room, as an observer sees it: a slider over the
// versions, the board at each, the log, and what changed in the observer's
// view from the version before. #v=N opens version N.
import { Api, param, el } from './api.js';

const room = param('room');
const api = new Api(room, null);
const $ = (id) => document.getElementById(id);
const events = [];
const views = new Map();

$('room').textContent = room || '';
$('watch').href = `/table.html?room=${encodeURIComponent(room || '')}`;

function flatten(v, prefix, out) {
  if (v === null || typeof v !== 'object') { out.set(prefix, JSON.stringify(v)); return out; }
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) { out.set(prefix, JSON.stringify(v)); return out; }
  for (const [k, x] of Object.entries(v)) {
    const key = Array.isArray(v) ? (x && (x.faction || x.name || x.location) ? `${prefix}[${x.faction || x.name || x.location}${x.sector !== undefined ? ' ' + x.sector : ''}]` : `${prefix}[${k}]`) : (prefix ? `${prefix}.${k}` : k);
    flatten(x, key, out);
  }
  return out;
}

async function observer(v) {
  if (!views.has(v)) views.set(v, api.observer(v).then((r) => r.view));
  return views.get(v);
}

let showing = 0;
async function show(v) {
  v = Math.max(0, Math.min(events.length - 1, v));
  showing = v;
  $('slider').value = String(v);
  $('ver').textContent = `version ${v} / ${events.length - 1}`;
  history.replaceState(null, '', `${location.pathname}${location.search}#v=${v}`);
  document.querySelectorAll('#log .cur').forEach((e) => e.classList.remove('cur'));
  const row = document.querySelector(`#log [data-version="${v}"]`);
  if (row) { row.classList.add('cur'); row.scrollIntoView({ block: 'nearest' }); }
  $('summary').textContent = events[v] ? events[v].summary : '';
  const [svg, now, before] = await Promise.all([api.board(v), observer(v), v > 0 ? observer(v - 1) : Promise.resolve(null)]);
  if (showing !== v) return;
  $('board').innerHTML = svg;
  const a = flatten(before || {}, '', new Map()), b = flatten(now, '', new Map());
  const changes = [];
  for (const [k, x] of b) if (k !== 'version' && a.get(k) !== x) changes.push(el('li', {}, `${k}: ${a.has(k) ? a.get(k) : '–'} → ${x}`));
  for (const [k, x] of a) if (!b.has(k)) changes.push(el('li', {}, `${k}: ${x} → –`));
  $('changes').replaceChildren(...(changes.length ? changes : [el('li', { class: 'muted' }, 'nothing public')]));
  document.body.dataset.version = String(v);
}

async function start() {
  if (!room) { $('summary').textContent = 'No room given (replay.html?room=ID).'; return; }
  let after = -1;
  for (;;) {
    const r = await api.events(after, 0);
    events.push(...r.events);
    if (r.events.length) after = r.events[r.events.length - 1].version;
    if (!r.more) break;
  }
  $('log').replaceChildren(...events.map((e) => el('div', { dataset: { version: e.version }, onclick: () => show(e.version) }, e.summary)));
  $('slider').max = String(events.length - 1);
  $('slider').addEventListener('input', () => show(Number($('slider').value)));
  $('prev').addEventListener('click', () => show(showing - 1));
  $('next').addEventListener('click', () => show(showing + 1));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') show(showing + 1);
    if (e.key === 'ArrowLeft') show(showing - 1);
    if (e.key === 'Home') show(0);
    if (e.key === 'End') show(events.length - 1);
  });
  const m = location.hash.match(/v=(\d+)/);
  await show(m ? Number(m[1]) : events.length - 1);
}
start();
