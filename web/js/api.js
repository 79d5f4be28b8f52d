// The room server's HTTP API (docs/SERVER.md), for the browser.
// Tokens travel only in the Authorization header; the seat link carries one
// in its #fragment, which the browser never sends to the server.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function param(name) {
  return new URLSearchParams(location.search).get(name);
}

// The seat token of `room`: taken from the seat link's fragment (#token=...)
// on first load, then kept in this tab's sessionStorage and removed from
// the address bar, so the address shown (and shared) is the observer's.
export function seatToken(room) {
  const key = `mentat.token.${room}`;
  const frag = new URLSearchParams(location.hash.slice(1));
  const t = frag.get('token');
  if (t) {
    sessionStorage.setItem(key, t);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(key);
}

export class Api {
  constructor(room, token) {
    this.room = room;
    this.token = token || null;
  }

  headers(extra = {}) {
    const h = { ...extra };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    return h;
  }

  async request(method, path, body, { signal, auth = true, text = false } = {}) {
    const init = { method, signal, headers: auth ? this.headers() : {}, cache: 'no-store' };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    const r = await fetch(path, init);
    if (text && r.ok) return r.text();
    let j = null;
    try { j = await r.json(); } catch (_) { j = null; }
    if (!r.ok) throw new ApiError(r.status, j);
    return j;
  }

  get(path, opts) { return this.request('GET', path, undefined, opts); }
  post(path, body, opts) { return this.request('POST', path, body, opts); }

  roomPath(what) { return `/rooms/${encodeURIComponent(this.room)}/${what}`; }

  view() { return this.get(this.roomPath('view')); }
  legal() { return this.get(this.roomPath('legal')); }
  board(version) { return this.get(this.roomPath(`board.svg${version === undefined ? '' : `?v=${version}`}`), { auth: false, text: true }); }
  observer(version) { return this.get(this.roomPath(`observer?v=${version}`), { auth: false }); }
  events(after, wait, signal) { return this.get(this.roomPath(`events?after=${after}&wait=${wait}`), { signal }); }

  pendingKey() { return `mentat.pending.${this.room}`; }
  pending() {
    const p = sessionStorage.getItem(this.pendingKey());
    return p ? JSON.parse(p) : null;
  }

  // Sends one action exactly once: the body (with its client action id) is
  // kept in sessionStorage until the server answers, and resent unchanged
  // after a network error, a timeout or a reload. A resent action that was
  // stored comes back as {"duplicate": true}; one that was not is stored now.
  // Returns {ok, status, body}; never throws for a server answer.
  async submit(body, onRetry) {
    sessionStorage.setItem(this.pendingKey(), JSON.stringify(body));
    for (let attempt = 0; ; attempt++) {
      try {
        const ctl = new AbortController();
        const timer = setTimeout(() => ctl.abort(), 15000);
        const r = await fetch(this.roomPath('actions'), {
          method: 'POST', signal: ctl.signal, cache: 'no-store',
          headers: this.headers({ 'Content-Type': 'application/json' }), body: JSON.stringify(body),
        });
        clearTimeout(timer);
        let j = null;
        try { j = await r.json(); } catch (_) { j = null; }
        if ([502, 503, 504].includes(r.status)) throw new Error(`HTTP ${r.status}`);  // a proxy lost the server: resend
        sessionStorage.removeItem(this.pendingKey());
        return { ok: r.ok, status: r.status, body: j || {} };
      } catch (e) {
        if (onRetry) onRetry(attempt, e);
        await sleep(Math.min(250 * 2 ** attempt, 4000));
      }
    }
  }
}

export function newActionId() {
  const a = new Uint8Array(12);
  crypto.getRandomValues(a);
  return 'web-' + Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const FACTIONS = [
  ['atreides', 'Atreides'], ['bene_gesserit', 'Bene Gesserit'], ['emperor', 'Emperor'],
  ['fremen', 'Fremen'], ['harkonnen', 'Harkonnen'], ['spacing_guild', 'Spacing Guild'],
];

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}
