// Controls for a seat's decisions, generated from the engine's decisions
// (view.decisions: kind, prompt, min, max, options) and the seat's legal
// actions (GET /rooms/{id}/legal: kind, label, action_type, action).
//
// Every decision gets the generic control: its legal actions as buttons
// (labelled by the server), and the action as editable JSON, so a kind this
// client has never heard of is still playable. The common kinds get a
// widget on top: Bid (amount), Ship and Move (territories picked on the
// board), BattlePlan (the wheel: leader, cards, dial).
import { el } from './api.js';

const NONE = 255;

export function renderDecisions(box, ctx) {
  const byKind = new Map();
  for (const a of ctx.legal) {
    if (!byKind.has(a.kind)) byKind.set(a.kind, []);
    byKind.get(a.kind).push(a);
  }
  const decisions = new Map();
  for (const d of ctx.view.decisions || []) {
    const prev = decisions.get(d.kind);
    if (prev) prev.prompt = [prev.prompt, d.prompt].filter(Boolean).join(' / ');
    else decisions.set(d.kind, { ...d });
  }
  for (const kind of byKind.keys()) if (!decisions.has(kind)) decisions.set(kind, { kind, prompt: kind });
  const blocks = [];
  if (ctx.view.window) blocks.push(el('p', { class: 'window' }, el('strong', {}, 'Open window: '), ctx.view.window));
  let widgetShown = false;
  for (const d of decisions.values()) {
    const acts = byKind.get(d.kind) || [];
    const make = WIDGETS[d.kind];
    const w = make && acts.length ? make(d, acts, ctx, widgetShown) : null;
    if (w) widgetShown = true;
    blocks.push(el('div', { class: 'decision', dataset: { kind: d.kind } },
      el('div', { class: 'prompt' }, d.prompt || d.kind), w, generic(d, acts, ctx, !!w)));
  }
  if (!blocks.length) blocks.push(el('span', { class: 'muted' }, 'Nothing to choose.'));
  box.replaceChildren(...blocks);
}

// The legal actions as buttons (or a list when there are many), and the
// action as JSON to edit.
function generic(d, acts, ctx, collapsed) {
  const parts = [];
  // A response ("answers yes") names the card it would spend.
  const label = (a) => {
    const card = a.action && a.action.card;
    const name = card !== undefined && (myFaction(ctx).hand || []).find((h) => h.id === card);
    return name && !a.label.includes(name.name) ? `${a.label} (${name.name})` : a.label;
  };
  if (acts.length && acts.length <= 16) {
    parts.push(el('div', { class: 'legal' }, acts.map((a, i) => el('button', {
      type: 'button', class: i === 0 && !collapsed ? 'primary' : '', dataset: { legal: i },
      onclick: () => ctx.send(a.action_type, a.action ?? {}),
    }, label(a)))));
  } else if (acts.length) {
    const sel = el('select', { class: 'legal-select' }, acts.map((a, i) => el('option', { value: i }, label(a))));
    parts.push(el('div', { class: 'legal' }, sel, el('button', { type: 'button', class: 'legal-send',
      onclick: () => { const a = acts[Number(sel.value)]; ctx.send(a.action_type, a.action ?? {}); } }, 'Send')));
  }
  const sample = acts[0] ? { action_type: acts[0].action_type, action: acts[0].action ?? {} } : { action_type: d.kind, action: {} };
  const ta = el('textarea', { spellcheck: 'false' }, JSON.stringify(sample));
  const err = el('span', { class: 'error' });
  const json = el('details', {}, el('summary', {}, 'as JSON'), ta, el('button', { type: 'button', onclick: () => {
    try {
      const t = JSON.parse(ta.value);
      if (!t.action_type) throw new Error('give "action_type" and "action"');
      err.textContent = '';
      ctx.send(t.action_type, t.action ?? {});
    } catch (e) { err.textContent = e.message; }
  } }, 'Send JSON'), err);
  if (collapsed && acts.length) return el('details', { class: 'suggested' }, el('summary', {}, `legal choices (${acts.length})`), ...parts, json);
  return el('div', {}, ...parts, json);
}

const num = (name, value, min, max, title) => el('label', {}, title || name,
  el('input', { type: 'number', name, value, min, max, step: 1, inputmode: 'numeric' }));

function distinct(acts, field, dflt = NONE) {
  const out = [];
  for (const a of acts) {
    const v = (a.action || {})[field] ?? dflt;
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

function myFaction(ctx) { return ctx.view.factions.find((f) => f.seat === ctx.seat) || {}; }
function cardName(ctx, id) {
  const c = (myFaction(ctx).hand || []).find((h) => h.id === id);
  return c ? c.name : `card ${id}`;
}
// An option's name: the decision's labelled choice where the engine gives
// one (view.decisions[].choices), else the board's name for a location.
function choiceName(d, option) {
  const c = (d.choices || []).find((x) => x.option === option && x.name);
  return c ? c.name : null;
}
function locName(ctx, id, d) { return (d && choiceName(d, id)) || ctx.names.get(id) || `location ${id}`; }
function value(form, name) { const i = form.querySelector(`[name=${name}]`); return i ? Number(i.value) : undefined; }

const WIDGETS = {
  Bid(d, acts, ctx) {
    const min = d.min || 1, max = Math.max(d.max || min, min);
    const karama = acts.some((a) => a.action && a.action.karama);
    const form = el('form', { class: 'widget bid', onsubmit: (e) => {
      e.preventDefault();
      const action = { amount: value(form, 'amount') };
      if (karama && form.querySelector('[name=karama]').checked) action.karama = true;
      ctx.send('Bid', action);
    } }, num('amount', min, min, max, 'Bid '), karama ? el('label', {}, el('input', { type: 'checkbox', name: 'karama' }), 'with Karama') : '',
    el('button', { class: 'primary', type: 'submit' }, 'Bid'));
    return form;
  },

  Ship(d, acts, ctx, another) {
    const me = myFaction(ctx);
    const options = d.options || [];
    const to = el('select', { name: 'to' }, options.map((id) => el('option', { value: id }, locName(ctx, id, d))));
    const crossFrom = distinct(acts, 'from').filter((x) => x !== NONE);
    const from = crossFrom.length ? el('label', {}, 'from ', el('select', { name: 'from' },
      el('option', { value: NONE }, 'reserves'), crossFrom.map((id) => el('option', { value: id }, locName(ctx, id))))) : '';
    const special = me.reserves_special ? num('special', 0, 0, me.reserves_special, 'special ') : '';
    const advisors = acts.some((a) => a.action && a.action.advisors) ? el('label', {}, el('input', { type: 'checkbox', name: 'advisors' }), 'as advisors') : '';
    const allyPays = acts.some((a) => a.action && a.action.ally_pays) || /ally_pays/.test(d.prompt || '') ? num('ally_pays', 0, 0, 99, 'ally pays ') : '';
    const form = el('form', { class: 'widget ship', onsubmit: (e) => {
      e.preventDefault();
      const action = { to: Number(to.value), forces: value(form, 'forces') };
      if (special) action.special = value(form, 'special');
      if (from && Number(form.querySelector('[name=from]').value) !== NONE) action.from = Number(form.querySelector('[name=from]').value);
      if (advisors && form.querySelector('[name=advisors]').checked) action.advisors = true;
      if (allyPays) action.ally_pays = value(form, 'ally_pays');
      ctx.send('Ship', action);
    } }, el('label', {}, 'to ', to), num('forces', Math.min(1, d.max || 1), 0, d.max || 20, 'forces '), special, from, advisors, allyPays,
    el('button', { class: 'primary', type: 'submit' }, 'Ship'), el('span', { class: 'muted' }, 'or click a highlighted territory'));
    if (!another) {
      ctx.highlight(options);
      const pick = () => ctx.highlight([Number(to.value)], 'picked');
      to.addEventListener('change', pick);
      ctx.setOnLocation((id) => { if (options.includes(id)) { to.value = String(id); pick(); } });
      pick();
    }
    return form;
  },

  Move(d, acts, ctx, another) {
    const me = myFaction(ctx);
    const mine = (me.forces || []).map((f) => ({ id: ctx.ids.get(`${f.location}|${f.sector}`), ...f })).filter((f) => f.id !== undefined);
    const options = d.options || [];
    const from = el('select', { name: 'from' }, mine.map((f) => el('option', { value: f.id }, `${f.location} (${f.forces}${f.special ? '+' + f.special : ''})`)));
    const to = el('select', { name: 'to' }, options.map((id) => el('option', { value: id }, locName(ctx, id, d))));
    const flip = acts.some((a) => a.action && a.action.flip) ? el('label', {}, el('input', { type: 'checkbox', name: 'flip' }), 'take up arms') : '';
    const forces = num('forces', 1, 0, 20, 'forces '), special = num('special', 0, 0, 20, 'special ');
    const sync = () => {
      const f = mine.find((x) => x.id === Number(from.value));
      const fi = forces.querySelector('input'), si = special.querySelector('input');
      fi.max = f ? f.forces : 0; si.max = f ? f.special : 0;
      if (Number(fi.value) > Number(fi.max)) fi.value = fi.max;
      if (Number(si.value) > Number(si.max)) si.value = si.max;
      special.hidden = !f || !f.special;
      if (!another) { ctx.highlight([Number(from.value)], 'picked-from'); ctx.highlight([Number(to.value)], 'picked'); }
    };
    from.addEventListener('change', sync);
    to.addEventListener('change', sync);
    const form = el('form', { class: 'widget move', onsubmit: (e) => {
      e.preventDefault();
      // Placement is a FlatBuffers struct: every field is required.
      const p = { location: Number(from.value), forces: value(form, 'forces'), special: special.hidden ? 0 : value(form, 'special') };
      const action = { from: [p], to: Number(to.value) };
      if (flip && form.querySelector('[name=flip]').checked) action.flip = true;
      ctx.send('Move', action);
    } }, el('label', {}, 'from ', from), forces, special, el('label', {}, 'to ', to), flip,
    el('button', { class: 'primary', type: 'submit' }, 'Move'), el('span', { class: 'muted' }, 'or click your territory, then a highlighted one'));
    if (!another) {
      ctx.highlight(options);
      ctx.setOnLocation((id) => {
        if (options.includes(id) && mine.some((f) => f.id === Number(from.value))) to.value = String(id);
        else if (mine.some((f) => f.id === id)) from.value = String(id);
        sync();
      });
    }
    // Start from a legal move when the server offered one.
    const first = acts.find((a) => a.action && a.action.from && a.action.from.length);
    if (first) { from.value = String(first.action.from[0].location); to.value = String(first.action.to); }
    sync();
    return form;
  },

  BattlePlan(d, acts, ctx) {
    const leaderNames = new Map();
    for (const a of acts) {
      const m = /leader (.+?), dial/.exec(a.label || '');
      const id = (a.action || {}).leader ?? NONE;
      if (m && id !== NONE) leaderNames.set(id, m[1]);
    }
    for (const id of d.options || []) if (choiceName(d, id)) leaderNames.set(id, choiceName(d, id));
    const select = (name, values, label) => el('select', { name }, values.map((v) => el('option', { value: v }, label(v))));
    const card = (v) => (v === NONE ? 'none' : cardName(ctx, v));
    const first = acts[0].action || {};
    const leader = select('leader', distinct(acts, 'leader'), (v) => (v === NONE ? 'no leader' : leaderNames.get(v) || `leader ${v}`));
    const hero = select('cheap_hero', distinct(acts, 'cheap_hero'), card);
    const weapon = select('weapon', distinct(acts, 'weapon'), card);
    const defense = select('defense', distinct(acts, 'defense'), card);
    const dials = distinct(acts, 'dial', 0);
    const dial = num('dial', first.dial ?? 0, Math.min(...dials), Math.max(...dials), '');
    const spices = distinct(acts, 'spice', 0);
    const spice = spices.some((x) => x > 0) ? num('spice', first.spice ?? 0, 0, Math.max(...spices, myFaction(ctx).spice || 0), '') : null;
    const kh = acts.some((a) => a.action && a.action.kwisatz_haderach) ? el('input', { type: 'checkbox', name: 'kwisatz_haderach' }) : null;
    for (const [s, f] of [[leader, 'leader'], [hero, 'cheap_hero'], [weapon, 'weapon'], [defense, 'defense']]) s.value = String(first[f] ?? NONE);
    const row = (label, input) => [el('span', {}, label), input];
    const form = el('form', { class: 'widget wheel', onsubmit: (e) => {
      e.preventDefault();
      const action = { dial: value(form, 'dial') };
      for (const s of [leader, hero, weapon, defense]) if (Number(s.value) !== NONE) action[s.name] = Number(s.value);
      if (spice) action.spice = value(form, 'spice');
      if (kh && kh.checked) action.kwisatz_haderach = true;
      ctx.send('BattlePlan', action);
    } }, row('Leader', leader), hero.options.length > 1 ? row('Cheap hero', hero) : '', row('Weapon', weapon), row('Defense', defense),
    row('Dial (forces)', dial), spice ? row('Spice', spice) : '', kh ? row('Kwisatz Haderach', kh) : '',
    el('span', {}), el('button', { class: 'primary', type: 'submit' }, 'Commit the plan'));
    return form;
  },
};
