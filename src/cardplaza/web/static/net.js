// The server connection: a seat's WebSocket (with reconnection and whole state messages
// rebuilt from the server's deltas) and this browser's secret player key.

const KEY = "cardplaza.key";
let keyPromise = null;

/** This browser's player key: issued by the server on the first visit, kept here. */
export function playerKey() {
  if (!keyPromise) {
    keyPromise = (async () => {
      try {
        const saved = localStorage.getItem(KEY);
        if (saved) return saved;
      } catch { /* private mode: a key per page load */ }
      try {
        const r = await fetch("/api/players", {
          method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
        });
        if (!r.ok) return null;
        const data = await r.json();
        rememberKey(data.key);
        return data.key;
      } catch { return null; }
    })();
  }
  return keyPromise;
}

/** Keep a key the server issued (it sends a new one if it did not know ours). */
export function rememberKey(key) {
  if (!key) return;
  try { localStorage.setItem(KEY, key); } catch { /* ignore */ }
  keyPromise = Promise.resolve(key);
}

/** Headers that say who this browser is. */
export async function keyHeaders(extra = {}) {
  const key = await playerKey();
  return key ? { ...extra, "X-Player-Key": key } : { ...extra };
}

/** A state message made whole from the previous one and a delta (see web/delta.py). */
export function rebuild(prev, msg) {
  if (!msg.delta) return msg;
  if (!prev || prev.n !== msg.base) return null;
  const out = { ...prev };
  for (const k of msg.drop || []) delete out[k];
  for (const [k, v] of Object.entries(msg)) {
    if (k !== "delta" && k !== "base" && k !== "drop" && k !== "obs") out[k] = v;
  }
  const obs = { ...(prev.obs || {}) };
  const change = msg.obs || {};
  for (const k of change.drop || []) delete obs[k];
  Object.assign(obs, change.set || {});
  for (const [k, items] of Object.entries(change.add || {})) obs[k] = (obs[k] || []).concat(items);
  out.obs = obs;
  return out;
}

export class Connection {
  /** onMessage(msg) for every server message (state messages whole);
   *  onStatus("open" | "closed" | "gone"); options.pace rides along with each join. */
  constructor(table, token, onMessage, onStatus, options = {}) {
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.pace = options.pace || null;
    this.watch = options.watch || null;  // a spectator's watch token (instead of a seat token)
    this.closed = false;
    this.delay = 300;
    this.last = null;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    this.last = null;
    ws.onopen = () => {
      this.delay = 300;
      const join = this.watch ? { type: "join", table: this.table, watch: this.watch }
        : { type: "join", table: this.table, token: this.token };
      if (this.pace && !this.watch) join.pace = this.pace;
      ws.send(JSON.stringify(join));
      this.onStatus("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "error" && (msg.code === "unknown_table" || msg.code === "bad_token")
          && !this.joined) {
        this.closed = true;
        this.onStatus("gone");
        ws.close();
        return;
      }
      if (msg.type === "state") {
        const whole = rebuild(this.last, msg);
        if (!whole) {  // a delta without its base: ask for the whole state again
          this.send({ type: "state" });
          return;
        }
        this.last = whole;
        this.joined = true;
        msg = whole;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus("closed");
      this.joined = false;
      setTimeout(() => { if (!this.closed) this.open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  /** Computer pace of the table: "slow" | "normal" | "fast" | "instant". */
  setPace(pace) {
    this.pace = pace;
    return this.send({ type: "settings", pace });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
