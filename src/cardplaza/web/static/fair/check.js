// The fair-deal check of a finished game's record, in the browser: each commitment and the
// digest of the moves are computed here with the browser's own SHA-256 (crypto.subtle) and
// compared with the record and with what this browser was shown at the table; replaying
// every move through the rules is the server's (POST /api/verify, the same code as
// `cardplaza verify`). A page without crypto.subtle (it exists only on a secure connection)
// leaves the hashes to the server too, and says so.

const STORE = "cp-fair-seen";
const KEEP = 60;

/** Compact JSON with object keys sorted: the canonical encoding of core/fairness.py. */
export function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/** Whether this page can hash by itself. */
export function browserHashing() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle && globalThis.TextEncoder);
}

async function sha256(value) {
  const bytes = new TextEncoder().encode(canonical(value));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function commitment(table, deal, seed) {
  return sha256(["cardplaza-deal/1", table, deal, seed]);
}

// -- what the table showed ------------------------------------------------------------------
function readSeen() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch { return {}; }
}

/** Keep a table's commitments and latest log digest as the table sent them ({deal, commitment, log}, step). */
export function rememberSeen(table, fair, step) {
  if (!table || !fair || !fair.commitment) return;
  const all = readSeen();
  const e = all[table] || { deals: {}, at: 0 };
  if (e.deals[fair.deal] === fair.commitment && e.step === step && e.log === fair.log) return;
  e.deals[fair.deal] = fair.commitment;
  e.step = step;
  e.log = fair.log;
  e.at = Date.now();
  all[table] = e;
  const ids = Object.keys(all).sort((a, b) => all[b].at - all[a].at);
  for (const id of ids.slice(KEEP)) delete all[id];
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* storage full or off */ }
}

function seenOf(table) {
  return readSeen()[table] || null;
}

// -- the check ------------------------------------------------------------------------------
/** Browser-side part: commitments, digest, and what this browser saw. null when all agree. */
async function hashCheck(record) {
  const fair = record.fairness;
  const seed = BigInt(String(record.seed)).toString();
  for (const d of fair.deals) {
    if (String(d.commitment).toLowerCase() !== await commitment(fair.table, d.deal, seed)) {
      return { code: "commitment", params: { deal: d.deal } };
    }
  }
  let digest = await sha256(["cardplaza-log/1", fair.table, await commitment(fair.table, 1, seed)]);
  for (const a of record.actions) digest = await sha256(["cardplaza-log/1", digest, a.seat, a.action]);
  if (digest !== fair.log) return { code: "log", params: {} };
  return null;
}

/** What the table showed this browser and the record disagree on, or null. */
function seenCheck(record) {
  const seen = seenOf(record.fairness.table);
  if (!seen) return { known: false, fail: null };
  for (const d of record.fairness.deals) {
    const shown = seen.deals[d.deal];
    if (shown && shown !== d.commitment) return { known: true, fail: { code: "seen", params: { deal: d.deal } } };
  }
  if (seen.step === record.actions.length && seen.log && seen.log !== record.fairness.log) {
    return { known: true, fail: { code: "seen_log", params: {} } };
  }
  return { known: true, fail: null };
}

async function serverCheck(record) {
  const r = await fetch("/api/verify", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify({ record }) });
  const data = await r.json();
  if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), { code: data.code });
  return data;
}

/**
 * Check a record: {state: "ok"|"bad"|"later", mode: "browser"|"server", code, params, deals,
 * steps, seen (the record agrees with what this browser was shown at the table)}.
 */
export async function checkRecord(record) {
  const mode = browserHashing() ? "browser" : "server";
  if (!record || record.seed === undefined || record.seed === null) return { state: "later", mode };
  const base = { mode, code: "", params: {}, deals: 0, steps: 0, seen: false };
  const fair = record.fairness;
  if (mode === "browser" && fair && Array.isArray(fair.deals) && typeof fair.table === "string") {
    let own = null;
    try { own = await hashCheck(record); } catch { own = { code: "not_record", params: {} }; }
    if (own) return { ...base, state: "bad", ...own };
  }
  if (fair && typeof fair.table === "string") {
    const seen = seenCheck(record);
    if (seen.fail) return { ...base, state: "bad", ...seen.fail };
    base.seen = seen.known;
  }
  const out = await serverCheck(record);
  return { ...base, state: out.ok ? "ok" : "bad", code: out.code, params: out.params || {},
           deals: out.deals, steps: out.steps };
}
