// The replay viewer: a game record stepped through action by action on the same table as
// live play (the table core draws it), every hand face up, with the post-game review's
// marks beside the player's own decisions. Reached from the game-end screen (#/replay/<table>)
// and from the lobby by opening a record file (#/replay/file).
import { h } from "../dom.js";
import { tableEntry } from "../site.js";
import { t, lang, onLang, engineText, errorText } from "../i18n.js";
import { openBoard, currentTable } from "../table.js";
import { Connection, rebuild } from "../net.js";
import * as generic from "../games/generic.js";
import { saveFile } from "./download.js";
import { checkRecord } from "../fair/check.js";
import { checkLine } from "../fair/view.js";

export const MARKS = ["good", "inaccuracy", "mistake", "blunder"];

let R = null;          // the record on screen
let uploaded = null;   // {name, text, frames} of a record file opened in the lobby

// -- loading ---------------------------------------------------------------------------------
/** Frames as sent by the server (views as state deltas) → [{step, seat, text, action, views}]. */
export function decodeFrames(data) {
  const prev = new Array(data.players).fill(null);
  return data.frames.map((f) => ({
    step: f.step, seat: f.seat, text: f.text, action: f.action ?? null,
    // A seat whose view is not given (a running game shows only the player's own) is null.
    views: f.views.map((wire, s) => {
      if (wire === null || wire === undefined) return null;
      const whole = data.delta ? rebuild(prev[s], wire) : { obs: wire };
      if (!whole) throw new Error("broken frames");
      prev[s] = whole;
      return whole.obs;
    }),
  }));
}

async function postJSON(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = new Error((data && data.error) || r.statusText);
    err.code = data && data.code;
    throw err;
  }
  return data;
}

/** Open a record file's text: the server turns it into frames; then show #/replay/file. */
export async function openRecordText(text, name = "") {
  let record;
  // A seed written as a long number (older records) is read as text, so it is not rounded.
  const exact = text.replace(/("seed"\s*:\s*)(\d{16,})/, '$1"$2"');
  try { record = JSON.parse(exact); } catch {
    const err = new Error("not JSON");
    err.code = "bad_record";
    throw err;
  }
  const data = await postJSON("/api/replay", { record });
  uploaded = { name, text, data, record };
  if (location.hash === "#/replay/file") renderReplay(document.getElementById("main"), ["file"]);
  else location.hash = "#/replay/file";
}

async function loadTable(id) {
  const entry = tableEntry(id);
  if (!entry) throw Object.assign(new Error("unknown table"), { code: "unknown_table" });
  const r = await fetch(`/api/tables/${encodeURIComponent(id)}/replay`, { headers: { "X-Seat-Token": entry.token }, cache: "no-store" });
  const data = await r.json();
  if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), { code: data.code });
  return { data, entry };
}

// -- the page --------------------------------------------------------------------------------
export async function renderReplay(main, parts) {
  const key = parts[0] || "";
  let data;
  let entry;
  try {
    if (key === "file") {
      if (!uploaded) { main.replaceChildren(openFilePanel()); return; }
      data = uploaded.data;
    } else ({ data, entry } = await loadTable(key));
  } catch (e) {
    main.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("rep.title")),
      h("p", { class: "error", role: "alert" }, errorText(e.code, e.message)),
      h("a", { href: "#/", class: "btn" }, t("end.lobby"))));
    return;
  }
  const frames = decodeFrames(data);
  const seat = data.seat ?? 0;
  const names = data.names || [];
  const players = frames[0].views.map((_, s) => ({ name: names[s] || t("rep.seat", { n: s + 1 }),
                                                    kind: s === seat ? "human" : "computer" }));
  if (R && R.offLang) R.offLang();
  if (R && R.conn) R.conn.close();
  R = { key, game: data.game, frames, seat, players, result: data.result, table: entry ? key : null,
        token: entry ? entry.token : null, i: 0, review: null, progress: null, reviewError: null,
        decisions: new Map(), controls: null, fair: null };
  startFairCheck(R);
  R.show = await openBoard(main, { game: data.game, table: key, body: {} }, {
    id: `replay:${key}`,
    status: () => statusLine(),
  });
  const view = currentTable().view;
  view.drawer = "moves";
  view.root.classList.add("replay-view");
  R.offLang = onLang(() => { if (R && R.controls) updateControls(); });
  const want = Number(new URLSearchParams(location.hash.split("?")[1] || "").get("step"));
  go(Number.isFinite(want) && want > 0 ? want : 0);
}

/** Check the record's deals (see fair/check.js); the result shows under the controls. */
async function startFairCheck(mine) {
  let res;
  try {
    let record;
    if (mine.table) {
      const { fetchRecord } = await import("./download.js");
      record = (await fetchRecord(mine.table, mine.token)).data;
    } else record = uploaded ? uploaded.record : null;
    res = await checkRecord(record);
  } catch (e) {
    res = { state: "error", msg: errorText(e.code, e.message) };
  }
  mine.fair = res;
  if (R === mine && R.controls) updateControls();
}

function saveEl() {
  const b = h("button", { type: "button", class: "btn small", id: "rec-save" }, t("rec.download"));
  b.addEventListener("click", async () => {
    if (R.table) {
      const { fetchRecord } = await import("./download.js");
      const rec = await fetchRecord(R.table, R.token);
      saveFile(rec.text, rec.name);
    } else if (uploaded) saveFile(uploaded.text, uploaded.name || "cardplaza-record.json");
  });
  return b;
}

function statusLine() {
  if (!R) return "";
  const f = R.frames[R.i];
  if (!f || f.seat === null || f.seat === undefined) return t("rep.start");
  return `${t("rep.step", { i: R.i, n: R.frames.length - 1 })} · ${actionLine(f)}`;
}

function seatName(s) {
  const v = currentTable();
  return v && v.ctx ? v.ctx.seatName(s) : R.players[s].name;
}

function actionLine(f) {
  return `${seatName(f.seat)}: ${engineText(f.text)}`;
}

function handKeyOf(obs) {
  const view = currentTable() && currentTable().view;
  const hk = (view && view.adapter.handKey) || generic.handKey;
  return hk(obs);
}

function message(i) {
  const f = R.frames[i];
  const next = R.frames[i + 1];
  const last = !next;
  const returns = last && R.result ? R.result : undefined;
  return { type: "state", step: f.step, seat: R.seat, obs: f.views[R.seat], players: R.players,
           current: next ? next.seat : -1, terminal: Boolean(last && R.result), legal: [], illegal: {},
           extra: {}, returns, winners: undefined };
}

/** A trick finished by the last card of a hand (the next frame is a new deal): shown held. */
function finishingTrick(i) {
  if (i < 1) return null;
  const view = currentTable().view;
  const f = R.frames[i];
  const before = R.frames[i - 1];
  if (handKeyOf(f.views[R.seat]) === handKeyOf(before.views[R.seat]) && !(i === R.frames.length - 1)) return null;
  const final = view.adapter.finalTrick || generic.finalTrick;
  const ctx = { obs: f.views[R.seat], msg: message(i), seat: R.seat, n: R.players.length, view };
  try {
    const tr = final(ctx, ctx);
    if (!tr || !tr.plays.length) return null;
    // Only right after the card that ended it.
    return tr.plays.some(([s]) => s === f.seat) && tr.plays[tr.plays.length - 1][0] === f.seat ? tr : null;
  } catch { return null; }
}

/** Show frame i. */
export function go(i) {
  if (!R) return;
  const n = R.frames.length - 1;
  R.i = Math.max(0, Math.min(n, Math.round(i)));
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.rep : null;
  const f = R.frames[R.i];
  R.show(message(R.i), f.views.map((v) => (v ? v.hand || [] : null)), finishingTrick(R.i));
  const root = currentTable().view.root;
  root.dataset.replayStep = String(R.i);
  updateControls();
  if (focused) {
    const el = root.querySelector(`[data-rep="${focused}"]`);
    if (el) el.focus({ preventScroll: true });
  }
  scrollToCurrent(root);
}

/** Keep the current move in view inside the drawer (the page itself never scrolls). */
function scrollToCurrent(root) {
  const cur = root.querySelector(".move-list .current");
  const box = cur && cur.closest(".drawer-body");
  if (!box) return;
  const c = cur.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (c.top < b.top + 40 || c.bottom > b.bottom) box.scrollTop += c.top - b.top - b.height / 3;
}

function hands() {
  // Frame index → hand number (from 1), and where each hand starts.
  const out = [];
  let hand = 0;
  let key = null;
  R.frames.forEach((f, i) => {
    const k = handKeyOf(f.views[R.seat]);
    if (i === 0 || (k !== key && i > 0)) {
      // The frame after the action that ended a hand belongs to the new hand.
      hand += 1;
      key = k;
    }
    out.push(hand);
  });
  return out;
}

// -- the controls (dock) ---------------------------------------------------------------------
function controlsEl() {
  const btn = (id, label, aria, fnc) => {
    const b = h("button", { type: "button", class: "btn step rep-btn", "data-rep": id, "aria-label": aria }, label);
    b.addEventListener("click", fnc);
    return b;
  };
  const slider = h("input", { type: "range", min: "0", max: String(R.frames.length - 1), value: "0", step: "1",
                              class: "rep-slider", "data-rep": "slider" });
  // While dragged only the count follows; the table is drawn when the slider is let go (or
  // at each arrow key press), so the drag is not broken by drawing the table under it.
  slider.addEventListener("input", () => {
    box.querySelector(".rep-count").textContent = `${slider.value} / ${R.frames.length - 1}`;
  });
  slider.addEventListener("change", () => go(Number(slider.value)));
  const box = h("div", { class: "rep-controls", role: "group" },
    h("div", { class: "dock-row rep-row" },
      btn("first", "|◀", "", () => go(0)),
      btn("prev", "◀", "", () => go(R.i - 1)),
      slider,
      btn("next", "▶", "", () => go(R.i + 1)),
      btn("last", "▶|", "", () => go(R.frames.length - 1)),
      h("output", { class: "rep-count", "aria-live": "polite" })),
    h("div", { class: "rep-line" }),
    h("div", { class: "rep-fair-box" }));
  R.controls = box;
  return box;
}

function updateControls() {
  const box = R.controls;
  if (!box) return;
  const n = R.frames.length - 1;
  box.setAttribute("aria-label", t("rep.controls"));
  const labels = { first: t("rep.first"), prev: t("rep.prev"), next: t("rep.next"), last: t("rep.last") };
  for (const [id, label] of Object.entries(labels)) {
    const b = box.querySelector(`[data-rep="${id}"]`);
    b.setAttribute("aria-label", label);
    b.title = label;
    b.disabled = (id === "first" || id === "prev") ? R.i === 0 : R.i === n;
  }
  const slider = box.querySelector(".rep-slider");
  slider.value = String(R.i);
  slider.setAttribute("aria-label", t("rep.slider"));
  slider.setAttribute("aria-valuetext", t("rep.step", { i: R.i, n }));
  box.querySelector(".rep-count").textContent = `${R.i} / ${n}`;
  box.querySelector(".rep-fair-box").replaceChildren(checkLine(R.fair));
  const line = box.querySelector(".rep-line");
  const f = R.frames[R.i];
  const d = R.decisions.get(R.i - 1);
  line.replaceChildren(...(f.seat === null || f.seat === undefined ? [h("span", {}, t("rep.start"))]
    : [h("span", { class: "rep-act" }, actionLine(f)), d ? markChip(d) : null, d && d.loss ? h("span", { class: "rep-loss" }, lossText(d)) : null]).filter(Boolean));
}

// -- marks -----------------------------------------------------------------------------------
function markChip(d) {
  if (!d.mark) return null;
  return h("span", { class: `mark mark-${d.mark}`, "data-mark": d.mark }, t(`mark.${d.mark}`));
}

function num(v, unit) {
  if (v === null || v === undefined) return "—";
  if (unit === "chance") return `${Math.round(v * 100)} %`;
  return v.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function lossText(d) {
  if (!d.loss) return "";
  return d.unit === "chance" ? t("rev.losschance", { n: Math.round(d.loss * 100) }) : t("rev.loss", { n: num(d.loss) });
}

function decisionEl(d) {
  return h("div", { class: "decision" },
    h("p", {}, markChip(d), " ", t("rev.played", { a: engineText(d.text) }), d.loss ? ` · ${lossText(d)}` : ""),
    d.best_text !== d.text ? h("p", { class: "small" }, t("rev.best", { a: engineText(d.best_text) })) : null,
    h("p", { class: "small rev-value" }, valueLine(d)),
    h("table", { class: "result alts" },
      h("caption", {}, t(d.unit === "chance" ? "rev.alts.chance" : "rev.alts")),
      h("tbody", {}, (d.choices || []).map((c) => h("tr", { class: c.played || c.text === d.text ? "played" : "" },
        h("th", { scope: "row" }, engineText(c.text)), h("td", {}, num(c.value, d.unit)),
        h("td", { class: "muted" }, c.share !== undefined ? t("rev.share", { n: Math.round(c.share * 100) }) : ""))))),
    h("p", { class: "muted small" }, t(d.exact ? "rev.exact" : "rev.worlds", { n: d.worlds })),
    h("p", { class: "muted small rev-meaning" }, t(d.unit === "chance" ? "analysis.review.meaning.chance" : "analysis.review.meaning.points")));
}

/** The played move's value against the best's (always shown). */
function valueLine(d) {
  const v = num(d.value, d.unit);
  if (d.followed || !d.loss) {
    const same = t("analysis.review.value.same", { v });
    return d.followed ? `${t("analysis.review.followed")} ${same}` : same;
  }
  const n = d.unit === "chance" ? `${Math.round(d.loss * 100)}` : num(d.loss);
  return t("analysis.review.value", { v, b: engineText(d.best_text), bv: num(d.best_value, d.unit), n });
}

function legendEl(rv) {
  const th = rv.thresholds;
  const rows = [
    ["good", t("rev.lt", { n: th.inaccuracy })],
    ["inaccuracy", t("rev.range", { a: th.inaccuracy, b: th.mistake })],
    ["mistake", t("rev.range", { a: th.mistake, b: th.blunder })],
    ["blunder", t("rev.ge", { n: th.blunder })],
  ];
  return h("div", { class: "legend" },
    h("ul", { class: "legend-list" }, rows.map(([m, txt]) => h("li", {}, h("span", { class: `mark mark-${m}` }, t(`mark.${m}`)), h("span", {}, txt)))),
    h("p", { class: "muted small" }, rv.marks ? (rv.marks[lang()] || rv.marks.en) : ""));
}

function summaryEl(rv) {
  // One line per hand (it wraps on a phone): decisions, each mark's count, points lost.
  return h("div", { class: "rev-hands" }, h("h4", {}, t("rev.perhand")),
    h("ul", { class: "rev-hand-list" }, rv.hands.map((x) => h("li", { "data-hand": String(x.hand) },
      h("strong", {}, t("rev.handn", { n: x.hand })),
      h("span", {}, t("rev.ndecisions", { n: x.decisions })),
      ...MARKS.filter((m) => x[m]).map((m) => h("span", { class: `mark mark-${m}` }, `${t(`mark.${m}`)} ${x[m]}`)),
      h("span", { class: "rev-lost" }, t("rev.loss", { n: num(x.lost) }) + (x.chance_lost ? ` · ${t("rev.losschance", { n: Math.round(x.chance_lost * 100) })}` : ""))))));
}

// -- review ----------------------------------------------------------------------------------
function startReview() {
  if (!R || !R.table || R.progress) return;
  R.reviewError = null;
  R.progress = { done: 0, total: 0 };
  redraw();
  const mine = R;
  const conn = new Connection(R.table, R.token, (msg) => {
    if (R !== mine) return;
    if (msg.type === "state" && !mine.asked) {
      mine.asked = true;
      conn.send({ type: "review" });
    } else if (msg.type === "review_progress") {
      mine.progress = { done: msg.done, total: msg.total };
      updateProgress();
    } else if (msg.type === "review") {
      setReview(msg.review);
      mine.progress = null;
      conn.close();
      redraw();
    } else if (msg.type === "error") {
      mine.reviewError = errorText(msg.code, msg.message, msg.params);
      mine.progress = null;
      conn.close();
      redraw();
    }
  }, (st) => {
    if (st === "gone" && R === mine) { mine.reviewError = t("table.notfound"); mine.progress = null; redraw(); }
  });
  R.conn = conn;
}

function setReview(rv) {
  R.review = rv;
  R.decisions = new Map(rv.decisions.map((d) => [d.index, d]));
}

function updateProgress() {
  const root = currentTable() && currentTable().view.root;
  const bar = root && root.querySelector(".rev-progress");
  if (!bar || !R.progress) { redraw(); return; }
  const { done, total } = R.progress;
  bar.querySelector("progress").max = Math.max(total, 1);
  bar.querySelector("progress").value = done;
  bar.querySelector(".rev-count").textContent = total ? t("rev.progress", { k: done, n: total }) : t("rev.starting");
}

function redraw() {
  const v = currentTable();
  if (v && v.view.board && R) { v.view.drawerCache = null; go(R.i); }
}

function reviewPart() {
  const parts = [];
  if (R.review) {
    const s = R.review.summary;
    parts.push(h("p", { class: "rev-total" }, t("rev.total", { n: s.decisions, lost: num(s.lost) }),
      ...MARKS.filter((m) => s[m]).map((m) => h("span", { class: `mark mark-${m}` }, `${t(`mark.${m}`)} ${s[m]}`))));
    parts.push(legendEl(R.review), summaryEl(R.review));
  } else if (R.progress) {
    parts.push(h("div", { class: "rev-progress", role: "status" },
      h("progress", { max: String(Math.max(R.progress.total, 1)), value: String(R.progress.done) }),
      h("span", { class: "rev-count" }, R.progress.total ? t("rev.progress", { k: R.progress.done, n: R.progress.total }) : t("rev.starting"))));
  } else if (R.table && !R.result) {
    parts.push(h("p", { class: "muted small" }, t("rev.notover")));
  } else if (R.table) {
    const b = h("button", { type: "button", class: "btn primary", id: "review-btn" }, t("rev.run"));
    b.addEventListener("click", startReview);
    parts.push(h("p", { class: "muted small" }, t("rev.about")), b);
  } else parts.push(h("p", { class: "muted small" }, t("rev.fileonly")));
  if (R.reviewError) parts.push(h("p", { class: "error", role: "alert" }, R.reviewError));
  parts.push(h("div", { class: "rev-foot" }, saveEl()));
  return h("section", { class: "review" }, ...parts);
}

// -- the moves drawer ------------------------------------------------------------------------
function movesEl(ctx) {
  const handOf = hands();
  const ol = h("ol", { class: "move-list" });
  let hand = 0;
  R.frames.forEach((f, i) => {
    if (i === 0) return;
    if (handOf[i - 1] !== hand) {
      hand = handOf[i - 1];
      ol.appendChild(h("li", { class: "move-hand" }, t("rev.handn", { n: hand })));
    }
    const d = R.decisions.get(i - 1);
    const mine = f.seat === R.seat;
    const li = h("li", { class: "move" + (i === R.i ? " current" : "") + (mine ? " mine" : ""), "data-step": String(i),
                         "aria-current": i === R.i ? "step" : null },
      h("button", { type: "button", class: "move-btn" },
        h("span", { class: "move-no" }, String(i)),
        h("span", { class: "move-who" }, ctx.seatName(f.seat)),
        h("span", { class: "move-what" }, engineText(f.text)),
        d ? markChip(d) : null));
    li.firstChild.addEventListener("click", () => go(i));
    if (d && i === R.i) li.appendChild(decisionEl(d));
    ol.appendChild(li);
  });
  requestAnimationFrame(() => { const v = currentTable(); if (v && v.view.board) scrollToCurrent(v.view.root); });
  return h("div", { class: "moves" }, reviewPart(), ol);
}

export const replayExtension = {
  drawers(ctx) {
    if (!ctx.board || !R) return [];
    const marked = R.review ? R.review.decisions.filter((d) => d.mark && d.mark !== "good").length : 0;
    return [{ id: "moves", title: t("rep.moves"), tab: t("rep.moves.tab"), badge: marked ? String(marked) : null,
              key: `${R.review ? 1 : 0}${R.progress ? "p" : ""}${R.reviewError ? "e" : ""}`, body: () => movesEl(ctx) }];
  },
  panel(ctx) {
    if (!ctx.board || !R) return null;
    return R.controls || controlsEl();
  },
};

/** Arrows step, Home/End jump, PageUp/PageDown go to the previous/next hand. */
export function onKey(ev) {
  if (!R || document.body.dataset.route !== "replay") return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const handOf = hands();
  const startOf = (i) => { let j = i; while (j > 0 && handOf[j - 1] === handOf[i]) j--; return j; };
  const moves = {
    ArrowLeft: () => R.i - 1, ArrowRight: () => R.i + 1, Home: () => 0, End: () => R.frames.length - 1,
    PageUp: () => { const s0 = startOf(R.i); return s0 < R.i || s0 === 0 ? s0 : startOf(s0 - 1); },
    PageDown: () => { let j = R.i; while (j < R.frames.length - 1 && handOf[j] === handOf[R.i]) j++; return j; },
  };
  if (!moves[ev.key]) return;
  ev.preventDefault();
  go(moves[ev.key]());
}

/** The lobby's record box: open a record file (and a link to the statistics). */
export function openFilePanel() {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "record-file", class: "file-input" });
  const err = h("p", { class: "error", role: "alert" });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    err.textContent = "";
    try { await openRecordText(await file.text(), file.name); } catch (e) { err.textContent = errorText(e.code, e.message); }
  });
  return h("section", { class: "panel records-panel", "aria-labelledby": "records-h" },
    h("h2", { id: "records-h" }, t("rep.records")),
    h("p", { class: "muted small" }, t("rep.records.about")),
    h("div", { class: "form-actions" },
      h("label", { class: "btn", for: "record-file" }, t("rep.open")), input,
      h("a", { class: "btn ghost", href: "#/stats", id: "stats-link" }, t("stats.link"))),
    err);
}
