// Controls for a seat's decisions, generated from the engine's decisions
// (view.decisions: kind, prompt, min, max, options, choices, about) and the
// seat's legal actions (GET /rooms/{id}/legal: kind, label, action_type,
// action, karama).
//
// Protocol apart from display: what a control offers and sends comes from
// the typed fields only (a decision's kind, range, options, choices and
// `about`; a legal action's `action` and `karama`; the view's figures). A
// prompt and a label are shown as they are, never matched or cut
// (tests/test_decision_protocol.cpp checks web/js for it).
//
// Every decision gets the generic control: its legal actions as buttons
// (labelled by the server), and the action as editable JSON, so a kind this
// client has never heard of is still playable. The common kinds get a
// widget on top: Bid (amount), Ship and Move (territories picked on the
// board), Revive (forces and a leader), PlaceForces (a location, or forces
// per location), KeepCards (a box per card), BattlePlan (the wheel: leader discs,
// card tiles, the dial), Respond (the open window and its answers), PlayCard
// (a Karama's uses under one "Karama…" control, confirmed before the card
// is spent).
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
  // A Karama's uses are offered by the PlayCard widget, with a confirmation.
  if (d.kind === 'PlayCard' && collapsed) acts = acts.filter((a) => !a.karama);
  // A response ("answers yes") names the card of the hand it would spend; its
  // label does not, except a CHOAM sale's ("sells Lasgun").
  const about = d.about || {};
  const label = (a) => {
    const card = a.action && a.action.card;
    const name = a.action_type === 'Respond' && about.window !== 'choam_sale' && card !== undefined &&
      (myFaction(ctx).hand || []).find((h) => h.id === card);
    return name ? `${a.label} (${name.name})` : a.label;
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
// The board picks a location for `select`: the options highlighted, the
// chosen one marked, a click on an option chooses it.
function pickOnBoard(ctx, select, options) {
  ctx.highlight(options);
  const pick = () => ctx.highlight([Number(select.value)], 'picked');
  select.addEventListener('change', pick);
  ctx.setOnLocation((id) => { if (options.includes(id)) { select.value = String(id); pick(); } });
  pick();
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
    // 1.10.02.06: what the ally lets this faction spend on shipments (its
    // permission, within its spice; both in the view of the two allies).
    const ally = me.ally ? ctx.view.factions.find((f) => f.faction === me.ally) : null;
    const allowance = ally ? Math.min(ally.ally_permission_shipment || 0, ally.spice ?? Infinity) : 0;
    const allyPays = acts.some((a) => a.action && a.action.ally_pays) || allowance > 0
      ? num('ally_pays', 0, 0, allowance > 0 ? allowance : 99, 'ally pays ') : '';
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
    if (!another) pickOnBoard(ctx, to, options);
    return form;
  },

  Move(d, acts, ctx, another) {
    // The origins and, per origin, the destinations a group from there may
    // reach: the engine's labelled choices (role "origin", "to").
    const origins = (d.choices || []).filter((c) => c.role === 'origin').map((c) => ({
      id: (c.set || []).find((f) => f.field === 'from[].location').value, name: c.name,
      forces: c.forces || 0, special: c.special || 0, to: c.to || [] }));
    const options = d.options || [];
    const from = el('select', { name: 'from' }, origins.map((o) => el('option', { value: o.id, disabled: !o.to.length },
      `${o.name} (${o.forces}${o.special ? ', ' + o.special + ' special' : ''})`)));
    const to = el('select', { name: 'to' });
    const flip = acts.some((a) => a.action && a.action.flip) ? el('label', {}, el('input', { type: 'checkbox', name: 'flip' }), 'take up arms') : '';
    const forces = num('forces', 1, 0, 20, 'forces '), special = num('special', 0, 0, 20, 'special ');
    const origin = () => origins.find((o) => o.id === Number(from.value));
    const fillTo = () => {  // the destinations of the chosen origin only
      const o = origin(), keep = Number(to.value);
      const reach = o ? o.to : [];
      to.replaceChildren(...reach.map((id) => el('option', { value: id }, locName(ctx, id, d))));
      if (reach.includes(keep)) to.value = String(keep);
    };
    const sync = () => {
      const f = origin();
      const fi = forces.querySelector('input'), si = special.querySelector('input');
      fi.max = f ? f.forces - f.special : 0; si.max = f ? f.special : 0;
      if (Number(fi.value) > Number(fi.max)) fi.value = fi.max;
      if (Number(si.value) > Number(si.max)) si.value = si.max;
      special.hidden = !f || !f.special;
      if (!another) {
        ctx.highlight(f ? f.to : options);
        ctx.highlight([Number(from.value)], 'picked-from');
        ctx.highlight([Number(to.value)], 'picked');
      }
    };
    from.addEventListener('change', () => { fillTo(); sync(); });
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
      ctx.setOnLocation((id) => {
        const o = origin();
        if (o && o.to.includes(id)) to.value = String(id);
        else if (origins.some((x) => x.id === id && x.to.length)) { from.value = String(id); fillTo(); }
        sync();
      });
    }
    // Start from a legal move when the server offered one, else the first origin that can move.
    const first = acts.find((a) => a.action && a.action.from && a.action.from.length);
    const start = first ? first.action.from[0].location : (origins.find((o) => o.to.length) || {}).id;
    if (start !== undefined) from.value = String(start);
    fillTo();
    if (first && origin() && origin().to.includes(first.action.to)) to.value = String(first.action.to);
    sync();
    return form;
  },

  // The battle wheel: the leader (or Cheap Hero) as discs, the weapon and
  // defense as card tiles from the hand, the dial as a wheel of numbers
  // around the total; starts from the engine's first legal plan.
  BattlePlan(d, acts, ctx) {
    const first = acts[0].action || {};
    const plan = { leader: first.leader ?? NONE, cheap_hero: first.cheap_hero ?? NONE, weapon: first.weapon ?? NONE,
      defense: first.defense ?? NONE, dial: first.dial ?? 0, spice: first.spice ?? 0, kwisatz_haderach: !!first.kwisatz_haderach };
    const choices = d.choices || [];
    const named = (role, field, id) => { const c = choices.find((x) => x.role === role && (x.set || []).some((f) => f.field === field && f.value === id)); return c && c.name; };
    const strength = (id) => { const l = (ctx.view.leaders || []).find((x) => x.id === id); return l ? l.strength : 0; };
    // The leader discs: every leader and Cheap Hero the engine offers (labelled choices), and "no leader".
    const discs = [];
    for (const id of distinct(acts, 'leader')) if (id !== NONE) { const n = named('leader', 'leader', id) || `leader ${id}`; discs.push({ leader: id, cheap_hero: NONE, name: n, value: strength(id) }); }
    for (const id of distinct(acts, 'cheap_hero')) if (id !== NONE) discs.push({ leader: NONE, cheap_hero: id, name: named('cheap_hero', 'cheap_hero', id) || cardName(ctx, id), value: 0 });
    if (acts.some((a) => ((a.action || {}).leader ?? NONE) === NONE && ((a.action || {}).cheap_hero ?? NONE) === NONE)) discs.push({ leader: NONE, cheap_hero: NONE, name: 'no leader', value: 0 });
    const weapons = distinct(acts, 'weapon'), defenses = distinct(acts, 'defense');
    if (!weapons.includes(NONE)) weapons.push(NONE);
    if (!defenses.includes(NONE)) defenses.push(NONE);
    const dials = distinct(acts, 'dial', 0);
    const maxDial = Math.max(0, d.max || 0, ...dials);
    const spices = distinct(acts, 'spice', 0);
    const spice = spices.some((x) => x > 0) ? num('spice', plan.spice, 0, Math.max(...spices, myFaction(ctx).spice || 0), 'spice ') : null;
    const kh = acts.some((a) => a.action && a.action.kwisatz_haderach) ? el('label', {}, el('input', { type: 'checkbox', name: 'kwisatz_haderach', checked: plan.kwisatz_haderach }), 'with the Kwisatz Haderach') : null;
    const hidden = (name) => el('input', { type: 'hidden', name });
    const inputs = { leader: hidden('leader'), cheap_hero: hidden('cheap_hero'), weapon: hidden('weapon'), defense: hidden('defense'), dial: hidden('dial') };
    const tile = (cls, label, sub, on, pick, data) => el('button', { type: 'button', class: `${cls}${on ? ' on' : ''}`, 'aria-pressed': on ? 'true' : 'false', dataset: data, onclick: pick },
      el('span', { class: 'name' }, label), sub !== '' ? el('span', { class: 'sub' }, sub) : '');
    const discBox = el('div', { class: 'discs' }), weaponBox = el('div', { class: 'cards' }), defenseBox = el('div', { class: 'cards' });
    const svgNS = 'http://www.w3.org/2000/svg';
    const svg = (tag, attrs, text) => { const e = document.createElementNS(svgNS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; return e; };
    const dialSvg = svg('svg', { viewBox: '0 0 200 200', class: 'dial', role: 'group', 'aria-label': 'dial' });
    const total = el('div', { class: 'total' });
    const draw = () => {
      for (const [k, i] of Object.entries(inputs)) i.value = String(plan[k]);
      discBox.replaceChildren(...discs.map((x) => tile('disc', x.name, x.cheap_hero !== NONE ? 'Cheap Hero' : x.leader !== NONE ? String(x.value) : '',
        x.leader === plan.leader && x.cheap_hero === plan.cheap_hero, () => { plan.leader = x.leader; plan.cheap_hero = x.cheap_hero; draw(); },
        { leader: x.leader, cheapHero: x.cheap_hero })));
      const cards = (box, list, field) => box.replaceChildren(...list.map((id) => tile('card', id === NONE ? 'none' : cardName(ctx, id), '', plan[field] === id,
        () => { plan[field] = id; draw(); }, { card: id })));
      cards(weaponBox, weapons, 'weapon');
      cards(defenseBox, defenses, 'defense');
      // The dial: 0..max around the wheel, the chosen one lit; the middle shows the total.
      const n = maxDial + 1;
      dialSvg.replaceChildren(svg('circle', { cx: 100, cy: 100, r: 92, class: 'rim' }), svg('circle', { cx: 100, cy: 100, r: 46, class: 'hub' }));
      for (let k = 0; k < n; k++) {
        const a = (-90 + (360 * k) / Math.max(n, 1)) * Math.PI / 180, x = 100 + 70 * Math.cos(a), y = 100 + 70 * Math.sin(a);
        const g = svg('g', { class: `dial-n${k === plan.dial ? ' on' : ''}`, 'data-n': k, tabindex: 0, role: 'button', 'aria-label': `dial ${k}` });
        g.append(svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: n > 16 ? 10 : 14 }), svg('text', { x: x.toFixed(1), y: (y + 5).toFixed(1), 'text-anchor': 'middle' }, String(k)));
        const pick = () => { plan.dial = k; draw(); };
        g.addEventListener('click', pick);
        g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); } });
        dialSvg.append(g);
      }
      const disc = discs.find((x) => x.leader === plan.leader && x.cheap_hero === plan.cheap_hero);
      dialSvg.append(svg('text', { x: 100, y: 98, 'text-anchor': 'middle', class: 'hub-n' }, String(plan.dial)),
        svg('text', { x: 100, y: 118, 'text-anchor': 'middle', class: 'hub-t' }, 'dialed'));
      total.textContent = `${disc ? disc.name : 'no leader'}${disc && disc.value ? ` (${disc.value})` : ''} + dial ${plan.dial}` +
        `${disc && disc.value ? ` = ${disc.value + plan.dial}` : ''} · weapon ${plan.weapon === NONE ? 'none' : cardName(ctx, plan.weapon)} · defense ${plan.defense === NONE ? 'none' : cardName(ctx, plan.defense)}`;
    };
    const step = (by) => el('button', { type: 'button', class: 'step', 'aria-label': by < 0 ? 'dial down' : 'dial up', onclick: () => { plan.dial = Math.min(maxDial, Math.max(0, plan.dial + by)); draw(); } }, by < 0 ? '−' : '+');
    const form = el('form', { class: 'widget wheel', onsubmit: (e) => {
      e.preventDefault();
      const action = { dial: plan.dial };
      for (const f of ['leader', 'cheap_hero', 'weapon', 'defense']) if (plan[f] !== NONE) action[f] = plan[f];
      if (spice) action.spice = value(form, 'spice');
      if (kh && kh.querySelector('input').checked) action.kwisatz_haderach = true;
      ctx.send('BattlePlan', action);
    } }, Object.values(inputs),
    el('div', { class: 'wheel-part' }, el('strong', {}, 'Leader'), discBox),
    el('div', { class: 'wheel-part dial-part' }, el('strong', {}, 'Dial'), el('div', { class: 'dial-row' }, step(-1), dialSvg, step(1))),
    el('div', { class: 'wheel-part' }, el('strong', {}, 'Weapon'), weaponBox),
    el('div', { class: 'wheel-part' }, el('strong', {}, 'Defense'), defenseBox),
    spice || '', kh || '', total,
    el('button', { class: 'primary', type: 'submit' }, 'Commit the plan'));
    draw();
    return form;
  },

  // Revival (1.05): how many forces (and special forces) and which leader,
  // within what the engine offers; starts from the largest revival of forces
  // alone it lists, else a leader alone (so the default is always legal).
  Revive(d, acts, ctx) {
    const list = acts.map((a) => a.action || {});
    const most = (f) => Math.max(0, ...list.map((a) => a[f] || 0));
    const start = list.filter((a) => (a.leader ?? NONE) === NONE)
      .reduce((b, a) => ((a.forces || 0) + (a.special || 0) > (b.forces || 0) + (b.special || 0) ? a : b), {});
    const leaders = distinct(acts, 'leader').filter((id) => id !== NONE);
    const leaderName = (id) => choiceName(d, id) || ((ctx.view.leaders || []).find((l) => l.id === id) || {}).name || `leader ${id}`;
    const pick = el('select', { name: 'leader' }, el('option', { value: NONE }, 'no leader'), leaders.map((id) => el('option', { value: id }, leaderName(id))));
    const leader = leaders.length ? el('label', {}, 'leader ', pick) : '';
    // No forces to revive: start from a leader alone, when one is offered.
    const alone = list.find((a) => (a.leader ?? NONE) !== NONE && !a.forces && !a.special);
    if (!start.forces && !start.special && alone) pick.value = String(alone.leader);
    const special = most('special') > 0 ? num('special', start.special || 0, 0, most('special'), 'special ') : '';
    const form = el('form', { class: 'widget revive', onsubmit: (e) => {
      e.preventDefault();
      const action = { forces: value(form, 'forces') };
      if (special) action.special = value(form, 'special');
      if (leader && Number(pick.value) !== NONE) action.leader = Number(pick.value);
      ctx.send('Revive', action);
    } }, num('forces', start.forces || 0, 0, most('forces'), 'forces '), special, leader,
    el('button', { class: 'primary', type: 'submit' }, 'Revive'));
    return form;
  },

  // Placing starting forces (PlaceForces): one force anywhere (the Bene
  // Gesserit: a location to pick, on the board too), or a number of forces
  // distributed over the offered locations (the Fremen: forces and special
  // forces per location, the total shown); starts from the first legal one.
  PlaceForces(d, acts, ctx, another) {
    const options = d.options || [];
    const first = ((acts[0] || {}).action || {}).placements || [];
    const need = d.max || 1;
    const placement = (location, forces, special) => ({ location, forces, special });  // a struct: every field
    if (need === 1 || options.length > 12) {
      const at = el('select', { name: 'location' }, options.map((id) => el('option', { value: id }, locName(ctx, id, d))));
      if (first.length) at.value = String(first[0].location);
      const form = el('form', { class: 'widget place', onsubmit: (e) => {
        e.preventDefault();
        ctx.send('PlaceForces', { placements: [placement(Number(at.value), 1, 0)] });
      } }, el('label', {}, 'place one force in ', at), el('button', { class: 'primary', type: 'submit' }, 'Place'),
      el('span', { class: 'muted' }, 'or click a highlighted territory'));
      if (!another) pickOnBoard(ctx, at, options);
      return form;
    }
    const specials = myFaction(ctx).reserves_special || 0;
    const from = (id, f) => { const p = first.find((x) => x.location === id); return p ? p[f] : 0; };
    const total = el('span', { class: 'total' });
    const rows = options.map((id) => el('div', { class: 'place-row', dataset: { location: id } },
      el('span', { class: 'name' }, locName(ctx, id, d)),
      num(`forces-${id}`, from(id, 'forces'), 0, need, 'forces '),
      specials ? num(`special-${id}`, from(id, 'special'), 0, specials, 'special ') : ''));
    const placed = (form) => options.map((id) => placement(id, value(form, `forces-${id}`) || 0, specials ? value(form, `special-${id}`) || 0 : 0))
      .filter((p) => p.forces + p.special > 0);
    const count = () => { total.textContent = `${placed(form).reduce((n, p) => n + p.forces + p.special, 0)} of ${need} placed`; };
    const form = el('form', { class: 'widget place', oninput: count, onsubmit: (e) => {
      e.preventDefault();
      ctx.send('PlaceForces', { placements: placed(form) });
    } }, ...rows, total, el('button', { class: 'primary', type: 'submit' }, 'Place'));
    count();
    return form;
  },

  // The battle's winner keeps its cards or discards them (KeepCards): a box
  // per card it may keep, all ticked (keeping every card, as Pass does).
  KeepCards(d, acts, ctx) {
    const cards = (d.options || []).map((id) => ({ id, name: choiceName(d, id) || cardName(ctx, id) }));
    if (!cards.length) return null;
    const boxes = cards.map((c) => el('label', { class: 'keep-card' }, el('input', { type: 'checkbox', name: 'keep', value: c.id, checked: true }), c.name));
    const form = el('form', { class: 'widget keep', onsubmit: (e) => {
      e.preventDefault();
      const keep = [...form.querySelectorAll('[name=keep]')].filter((i) => i.checked).map((i) => Number(i.value));
      ctx.send('KeepCards', { keep });
    } }, el('span', {}, 'keep: '), ...boxes, el('button', { class: 'primary', type: 'submit' }, 'Keep the ticked cards'));
    return form;
  },

  // A response window (view.window names it): what is asked, and the answers
  // as buttons, the cards they spend named.
  Respond(d, acts, ctx) {
    const card = (a) => { const id = (a.action || {}).card; return id !== undefined && id !== NONE ? (choiceName(d, id) || cardName(ctx, id)) : null; };
    const yes = acts.filter((a) => (a.action || {}).accept), no = acts.filter((a) => !(a.action || {}).accept);
    const button = (a, text, cls) => el('button', { type: 'button', class: cls, dataset: { respond: (a.action || {}).accept ? 'yes' : 'no' }, onclick: () => ctx.send(a.action_type, a.action ?? {}) }, text);
    return el('div', { class: 'widget window-widget', dataset: { window: (d.about || {}).window || '' } },
      el('div', { class: 'window-what' }, ctx.view.window || d.prompt),
      ...yes.map((a) => button(a, card(a) ? `Yes — spend ${card(a)}` : 'Yes', 'primary')),
      ...no.map((a) => button(a, card(a) ? `No (${card(a)})` : (yes.length ? 'No, let it pass' : 'No'), '')));
  },

  // A card to play (PlayCard): a Karama's uses (the legal listing's
  // `karama`: "guild_rates", "prevent", "power") under one "Karama…" control:
  // a list to pick from, then a confirmation before the card is spent. Other
  // card plays stay with the generic controls.
  PlayCard(d, acts, ctx) {
    const uses = acts.filter((a) => a.karama && a.action);
    if (!uses.length) return null;
    const kinds = [['guild_rates', 'Guild rates'], ['power', 'the faction\'s own power'], ['prevent', 'prevent an ability']];
    const cards = [...new Set(uses.map((a) => a.action.card))];
    const groups = [];
    for (const card of cards) {
      for (const [key, title] of kinds) {
        const list = uses.filter((a) => a.action.card === card && a.karama === key);
        if (list.length) groups.push(el('optgroup', { label: `${cardName(ctx, card)}: ${title}` },
          list.map((a) => el('option', { value: uses.indexOf(a) }, a.label))));
      }
      // A use of a kind this client does not know yet: still offered.
      const other = uses.filter((a) => a.action.card === card && !kinds.some(([key]) => key === a.karama));
      if (other.length) groups.push(el('optgroup', { label: cardName(ctx, card) }, other.map((a) => el('option', { value: uses.indexOf(a) }, a.label))));
    }
    const sel = el('select', { class: 'karama-select', name: 'karama' }, groups);
    const what = el('span', { class: 'karama-what' });
    const confirm = el('div', { class: 'karama-confirm-box', hidden: true }, what,
      el('button', { type: 'button', class: 'primary karama-confirm', onclick: () => {
        const a = uses[Number(sel.value)];
        if (a) ctx.send(a.action_type, a.action ?? {});
      } }, 'Spend it'),
      el('button', { type: 'button', class: 'karama-cancel', onclick: () => { confirm.hidden = true; } }, 'Cancel'));
    sel.addEventListener('change', () => { confirm.hidden = true; });
    const spend = el('button', { type: 'button', class: 'karama-spend', onclick: () => {
      const a = uses[Number(sel.value)];
      if (!a) return;
      what.textContent = `Spend ${cardName(ctx, a.action.card)}? ${a.label}`;
      confirm.hidden = false;
    } }, 'Spend…');
    return el('details', { class: 'widget karama', dataset: { uses: uses.length } },
      el('summary', {}, `Karama… (${uses.length} use${uses.length === 1 ? '' : 's'})`),
      el('div', { class: 'karama-pick' }, sel, spend), confirm);
  },
};
