// What the lobby and the table share: the game list, the tables this browser has open,
// creating a table, the player's name.
import { lang } from "./i18n.js";
import { keyHeaders, rememberKey } from "./net.js";

let gamesCache = null;

export function gameTitle(info) {
  if (!info) return "";
  return lang() === "ja" ? info.title_ja : info.title;
}

export async function loadGames() {
  if (!gamesCache) {
    const r = await fetch("/api/games");
    gamesCache = (await r.json()).games;
  }
  return gamesCache;
}

export function playerName() {
  try { return localStorage.getItem("cardplaza.name") || ""; } catch { return ""; }
}

export function savedTables() {
  try { return JSON.parse(localStorage.getItem("cardplaza.tables") || "[]"); } catch { return []; }
}

export function rememberTable(entry) {
  const list = savedTables().filter((e) => e.table !== entry.table);
  list.unshift(entry);
  try { localStorage.setItem("cardplaza.tables", JSON.stringify(list.slice(0, 8))); } catch { /* ignore */ }
}

export function forgetTable(id) {
  const list = savedTables().filter((e) => e.table !== id);
  try { localStorage.setItem("cardplaza.tables", JSON.stringify(list)); } catch { /* ignore */ }
}

export function tableEntry(id) {
  return savedTables().find((e) => e.table === id) || null;
}

export function markFinished(id) {
  const list = savedTables().map((e) => (e.table === id ? { ...e, finished: true } : e));
  try { localStorage.setItem("cardplaza.tables", JSON.stringify(list)); } catch { /* ignore */ }
}

/** Create a table and go to it. */
export async function startGame(game, body) {
  const r = await fetch("/api/tables", {
    method: "POST", headers: await keyHeaders({ "Content-Type": "application/json" }),
    body: JSON.stringify({ game, ...body }),
  });
  let data = {};
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = new Error(data.error || r.statusText);
    err.code = data.code;
    err.params = data.params;
    throw err;
  }
  rememberKey(data.key);
  const { again: _again, ...kept } = body;
  rememberTable({ table: data.table, token: data.token, seat: data.seat, game,
                  created: Date.now(), body: kept });
  location.hash = `#/play/${data.table}`;
  return data;
}

/** Registry level for a practice level number (falls back to the game's strongest). */
export function levelFor(info, n) {
  const levels = info.levels;
  return levels.find((l) => l === String(n) || l.endsWith(String(n)))
    ?? levels[Math.min(Number(n), levels.length) - 1] ?? levels[0];
}

/** Two-hand Pinochle dealer: the computer deals the session's first game, then it alternates. */
export function nextDealer() {
  let d = 1;
  try {
    const prev = sessionStorage.getItem("cardplaza.p2dealer");
    if (prev !== null) d = 1 - Number(prev);
    sessionStorage.setItem("cardplaza.p2dealer", String(d));
  } catch { /* ignore */ }
  return d;
}
