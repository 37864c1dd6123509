// The table core, shared by every game: seats around the felt, the trick in the middle, the
// hand (a fan when long), motion and pace, drawers, a panel slot, the hand summary and the
// game-end screen. A thin adapter per game (games/<game>.js) says what only that game has;
// games/generic.js draws any game from its observation alone.
//
// Each drawing is built whole and then merged into the page (dom.js morph): what did not
// change keeps its element, so the browser redraws only what did. What an adapter gives for
// the felt (chips, stage, seat info, the empty trick's text) only shows and is merged; parts
// with their own controls (the dock, extensions' panels, tools and seat additions, drawer
// contents, dialogs) are put in as built, since their handlers refer to elements built with
// them.
//
// Extensions (hints, undo, replay, helpers) plug in with registerExtension({drawers, panel,
// tools, end}) and receive the same ctx as the game adapters. openBoard draws the same table
// from given state messages (the replay viewer): nothing is sent, other hands may lie face up.
import { t, lang, onLang, engineText, errorText } from "./i18n.js";
import { Connection } from "./net.js";
import { Deck, cardEl, cardText, backsEl } from "./cards.js";
import { h, on, whole, same, morph } from "./dom.js";
import { loadGames, gameTitle, tableEntry, forgetTable, markFinished, startGame,
         nextDealer, levelFor } from "./site.js";
import * as settings from "./settings.js";
import * as motion from "./motion.js";
import * as sound from "./sound.js";
import { lineChart } from "./chart.js";
import { computerName, seatFace } from "./faces.js";
import { handLines } from "./handlist.js";
import * as generic from "./games/generic.js";

let active = null;
const extensions = [];

/**
 * Add to every table: ``drawers(ctx) → [{id, title, body(ctx) → Element, badge?}]`` (a
 * drawer with the id of a core drawer, e.g. "tricks", takes its place), ``panel(ctx) →
 * Element | null`` (shown in the dock above the hand), ``tools(ctx) → [Element]`` (buttons
 * in the table bar), ``end(ctx) → [Element]`` (buttons on the game-end screen),
 * ``seat(ctx, seat) → Element | null`` (added to a seat, e.g. whether its person is here),
 * ``message(msg, ctx)`` (every server message other than a state message). ``ctx.board``
 * is set on a table drawn by openBoard. Returns a function that removes the extension.
 */
export function registerExtension(ext) {
  extensions.push(ext);
  if (active) draw(active);
  return () => {
    const i = extensions.indexOf(ext);
    if (i >= 0) extensions.splice(i, 1);
    if (active) draw(active);
  };
}

/** The extensions that take part in a view: for a spectator, only those made for watching
 * (``spectators: true``), so nothing offers hints, undo or the record to someone who
 * cannot have them. */
function extsFor(view) {
  return view && view.spectator ? extensions.filter((x) => x.spectators) : extensions;
}

/** The table on screen (for extensions): {view, ctx, redraw()} or null. */
export function currentTable() {
  if (!active) return null;
  return { view: active, ctx: active.ctx, redraw: () => draw(active) };
}

export function closeTable() {
  if (active) {
    active.closed = true;
    active.conn.close();
    active.offLang();
    active.offSetting();
    window.removeEventListener("resize", active.onResize);
    if (active.hold) active.hold.cancel();
    active = null;
  }
}

/** The game's own adapter; the generic one if none, or with ?generic in the address. */
async function loadAdapter(info) {
  if (!info || !info.renderer || new URLSearchParams(location.search).has("generic")) return generic;
  try {
    const mod = await import(`./games/${info.renderer}.js`);
    if (typeof mod.seatInfo === "function" || typeof mod.stage === "function") return mod;
  } catch (e) { console.error(e); }
  return generic;
}

async function newView(main, tableId, entry) {
  const games = await loadGames();
  const info = games.find((g) => g.name === entry.game);
  const adapter = await loadAdapter(info);
  const view = {
    tableId, entry, info, adapter, deck: new Deck(info ? info.deck : []),
    msg: null, queue: [], pumping: false, error: null, status: "connecting",
    endDismissed: false, event: null, pick: new Set(), pickStep: -1, autoSend: [], sentAt: -1,
    drawer: null, sheetOpen: false, override: null, revealed: new Set(), launch: null,
    closed: false, handIds: [], board: null, faceUp: null,
  };
  const root = h("section", { class: `table-view game-${entry.game}`, "aria-label": gameTitle(info) });
  main.replaceChildren(root);
  view.root = root;
  applyDeckClass();
  return view;
}

export async function openTable(main, tableId) {
  closeTable();
  const entry = tableEntry(tableId);
  if (!entry) {
    main.replaceChildren(h("section", { class: "panel" }, h("p", { role: "alert" }, t("table.notfound")),
      h("a", { href: "#/", class: "btn" }, t("end.lobby"))));
    return;
  }
  const view = await newView(main, tableId, entry);
  view.conn = new Connection(tableId, entry.token, (msg) => onMessage(view, msg), (st) => {
    view.status = st;
    if (st === "gone") forgetTable(tableId);
    drawStatus(view);
  }, { pace: settings.pace(), watch: entry.watch || null });
  watch(view);
}

/**
 * The table drawn from state messages given by the caller (the replay viewer), with the
 * same seats, felt, cards and drawers as a live table; nothing is sent anywhere.
 * ``board.status()`` gives the status line; ``board.id`` names it. Returns ``show(msg,
 * faceUp?, trick?)``: draw a state message, ``faceUp`` = every seat's hand (or null) lies
 * face up, ``trick`` = {plays, winner} shown finished in the middle (or null).
 */
export async function openBoard(main, entry, board) {
  closeTable();
  const view = await newView(main, board.id, entry);
  view.board = board;
  view.endDismissed = true;
  view.status = "open";
  view.conn = { send: () => false, close: () => {} };
  watch(view);
  return (msg, faceUp = null, trick = null) => {
    if (view.closed) return;
    view.msg = msg;
    view.latest = msg;
    view.faceUp = faceUp;
    view.override = trick ? { plays: trick.plays, winner: trick.winner, done: true, marked: true } : null;
    draw(view);
  };
}

function watch(view) {
  view.offLang = onLang(() => draw(view));
  view.offSetting = settings.onSetting((key) => {
    if (key === "fourColour") applyDeckClass();
    if (key === "pace") sendPace(view);
    draw(view);
  });
  view.onResize = () => {
    // Crossing the wide breakpoint moves the drawers between the tabs and the side column.
    if (wideScreen() !== view.wide) draw(view);
    else { layoutHand(view); layoutCenter(view); }
  };
  window.addEventListener("resize", view.onResize);
  active = view;
  draw(view);
}

/** Whether a board (not a live table) is on screen. */
export function boardOpen() {
  return Boolean(active && active.board);
}

function applyDeckClass() {
  document.body.classList.toggle("four-colour", settings.fourColour());
  document.body.classList.toggle("no-motion", !settings.motionOn());
}

/** Tell the server the chosen pace (it sets the computers' pause), when it takes one: its
 * state messages then say the table's "pace". */
function sendPace(view) {
  const msg = view.latest;
  const pace = settings.pace();
  if (!msg || !("pace" in msg) || msg.pace === pace) return;
  if (typeof view.conn.setPace === "function") view.conn.setPace(pace);
  else view.conn.send({ type: "settings", pace });
}

// -- messages and the presentation queue --------------------------------------------------
/** A spectator's state (seat -2, the public view) drawn as if from the first seat's place,
 * with no hand and nothing to do. */
function asSpectator(view, msg) {
  view.spectator = true;
  return { ...msg, seat: 0, watcher: true, legal: [], obs: { hand: [], ...msg.obs, seat: 0 } };
}

function onMessage(view, msg) {
  if (view.closed) return;
  if (msg.type === "state" && msg.seat === -2) msg = asSpectator(view, msg);
  if (msg.type === "state") {
    // A table taken back (undo) or rebuilt forgets any set still being sent.
    if (view.latest && msg.step < view.latest.step) { view.autoSend = []; view.sentAt = -1; }
    view.latest = msg;
    if (msg.terminal) markFinished(view.tableId);
    if (!view.paceSent && "pace" in msg) { view.paceSent = true; sendPace(view); }
    // A chosen set of single-card moves (discard, pass) goes out one card at a time.
    if (view.autoSend.length && msg.current === msg.seat && !msg.terminal) {
      const next = view.autoSend[0];
      const a = (msg.legal || []).find((x) => x.card === next);
      if (a) {
        view.autoSend.shift();
        view.sentAt = msg.step;
        view.conn.send({ type: "act", action: a.json, step: msg.step });
      } else { view.autoSend = []; view.sentAt = -1; }
    }
    view.queue.push(msg);
    pump(view);
  } else if (msg.type === "error") {
    view.error = { code: msg.code, message: msg.message, params: msg.params };
    view.autoSend = [];
    view.sentAt = -1;
    view.pending = false;
    if (msg.code === "stale") view.conn.send({ type: "state" });
    drawStatus(view);
  }
  if (msg.type !== "state") for (const x of extensions) if (x.message) x.message(msg, view.ctx);
}

async function pump(view) {
  if (view.pumping) return;
  view.pumping = true;
  try {
    while (view.queue.length && !view.closed) {
      const msg = view.queue.shift();
      // Far behind (a reconnection, a burst): catch up without motion.
      const hurry = view.queue.length > 6;
      try {
        await present(view, msg, hurry);
      } catch (e) {
        console.error(e);
        view.msg = msg;
        view.override = null;
        draw(view);
      }
    }
  } finally {
    view.pumping = false;
  }
}

const fn = (view, name) => view.adapter[name] ?? generic[name];

/** Show one new state: the cards played since the last one, a finished trick held with its
 * winner marked then gathered, a hand summary between hands, the deal. */
async function present(view, msg, hurry) {
  const prev = view.msg;
  if (!prev || msg.step <= prev.step) {
    // The first view, a refresh of the same step, or a table rebuilt: no motion.
    view.msg = msg;
    view.override = null;
    if (!prev || msg.step !== prev.step) clearPick(view);
    draw(view);
    if (!prev) markRevealed(view);
    return;
  }
  const tm = hurry ? { slide: 0, hold: 0, gather: 0, deal: 0, reveal: 0, gap: 0 } : settings.timing();
  const started = performance.now();
  const prevCtx = makeCtx(view, prev);
  const ctx = makeCtx(view, msg);
  const handKey = fn(view, "handKey");
  const newHand = handKey(msg.obs) !== handKey(prev.obs);
  const before = fn(view, "completed")(prevCtx);
  const after = fn(view, "completed")(ctx);
  let finished = null;
  if (!newHand && after.length > before.length) finished = after[after.length - 1];
  else if (newHand || (msg.terminal && !prev.terminal)) {
    const last = fn(view, "finalTrick")(ctx, prevCtx);
    if (last && last.plays.length) finished = last;
  }
  if (newHand || msg.step !== view.pickStep) clearPick(view);
  const shownPlays = view.shownPlays || [];
  view.error = null;
  view.pending = false;
  if (finished) {
    // The finished trick stays on the table, winner marked; the new state is drawn under it
    // (a new hand waits until the summary is dismissed).
    view.msg = newHand ? prev : msg;
    view.frozen = newHand;
    view.override = { plays: finished.plays, winner: finished.winner, done: true, marked: false };
    draw(view);
    await slideNewPlays(view, shownPlays, finished.plays, tm);
    // The last card has landed: the winning card is marked and the table says who took it.
    view.override.marked = true;
    view.event = { key: finished.winner === msg.seat ? "table.takes.you" : "table.takes", seat: finished.winner };
    markWinner(view);
    drawStatus(view);
    sound.play("trick");
    if (tm.hold) {
      view.hold = motion.pause(tm.hold);
      await view.hold;
      view.hold = null;
    }
    if (view.closed) return;
    await gather(view, finished.winner, tm);
    view.override = null;
    if (!newHand) view.frozen = false;
  }
  if (newHand || (msg.terminal && !prev.terminal)) {
    const hasSummary = newHand && !msg.terminal && fn(view, "summary")(ctx, prevCtx);
    if (hasSummary) {
      view.frozen = true;
      // Drawn again on a language switch, from the adapter, in the new language.
      await showSummary(view, () => fn(view, "summary")(makeCtx(view, msg), makeCtx(view, prev)));
      if (view.closed) return;
    }
    view.frozen = false;
    view.msg = msg;
    if (newHand) view.event = null;  // the last hand's "… takes the trick" ends with it
    draw(view);
    if (newHand) await dealAnimation(view, tm);
  } else {
    view.msg = msg;
    if (!finished && fn(view, "trick")(ctx).length > shownPlays.length) view.event = null;
    draw(view);
    if (!finished) await slideNewPlays(view, shownPlays, fn(view, "trick")(ctx), tm);
    await drawAnimation(view, prev, tm);
  }
  await revealAnimation(view, tm);
  if (ctx.myTurn && !prevCtx.myTurn) sound.play("turn");
  if (view.queue.length && tm.gap) {
    const left = tm.gap - (performance.now() - started);
    if (left > 0) await motion.pause(left);
  }
}

function clearPick(view) {
  view.pick = new Set();
  view.pickStep = view.msg ? view.msg.step : -1;
}

function markRevealed(view) {
  for (const el of view.root.querySelectorAll("[data-reveal]")) view.revealed.add(el.dataset.reveal);
  view.revealedInit = true;
}

function seatRect(view, seat) {
  const ctx = view.ctx;
  if (ctx && seat === ctx.seat) {
    const hand = view.root.querySelector(".hand");
    return hand ? hand.getBoundingClientRect() : null;
  }
  const el = view.root.querySelector(`.seat[data-seat="${seat}"] .backs, .seat[data-seat="${seat}"]`);
  return el ? el.getBoundingClientRect() : null;
}

async function slideNewPlays(view, shown, plays, tm) {
  const key = (p) => `${p[0]}:${p[1]}`;
  const had = new Set(shown.map(key));
  const fresh = plays.filter((p) => !had.has(key(p)));
  if (!fresh.length) return;
  const jobs = [];
  fresh.forEach((p, i) => {
    const el = view.root.querySelector(`.trick .play[data-key="${key(p)}"]`);
    if (!el) return;
    let from = seatRect(view, p[0]);
    if (view.launch && view.launch.card === p[1] && p[0] === view.ctx.seat) from = view.launch.rect;
    jobs.push(new Promise((resolve) => setTimeout(() => {
      sound.play("card");
      motion.slideFrom(el, from, tm.slide).then(resolve);
    }, i * Math.min(tm.slide, 160))));
  });
  view.launch = null;
  await Promise.all(jobs);
}

function markWinner(view) {
  const o = view.override;
  const box = view.root.querySelector(".trick");
  if (!o || !box) return;
  box.classList.add("done");
  const fig = [...box.querySelectorAll(".play")].find((el) => Number(el.dataset.seat) === o.winner);
  if (fig && !fig.classList.contains("winner")) {
    fig.classList.add("winner");
    fig.appendChild(h("span", { class: "win-tag" }, t("table.wins")));
  }
}

async function gather(view, winner, tm) {
  if (!tm.gather) return;
  const to = seatRect(view, winner);
  const els = [...view.root.querySelectorAll(".trick .play")];
  await Promise.all(els.map((el, i) => motion.flyTo(el, to, tm.gather, i * 25)));
}

async function dealAnimation(view, tm) {
  if (!tm.deal) return;
  const felt = view.root.querySelector(".felt .center") || view.root.querySelector(".felt");
  const cards = [...view.root.querySelectorAll(".hand .card")];
  await motion.dealIn(cards, felt && felt.getBoundingClientRect(), tm.deal);
}

/** New cards in the hand within the same hand (drawn from a stock or talon) slide in. */
async function drawAnimation(view, prev, tm) {
  if (!tm.slide) return;
  const old = new Set(prev.obs.hand || []);
  const fresh = [...view.root.querySelectorAll(".hand .card")].filter((el) => !old.has(Number(el.dataset.id)));
  if (!fresh.length || fresh.length > 8) return;
  const src = view.root.querySelector(".felt .pile, .felt .center");
  const from = src && src.getBoundingClientRect();
  await Promise.all(fresh.map((el) => motion.slideFrom(el, from, tm.slide)));
}

async function revealAnimation(view, tm) {
  const fresh = [...view.root.querySelectorAll("[data-reveal]")].filter((el) => !view.revealed.has(el.dataset.reveal));
  for (const el of fresh) view.revealed.add(el.dataset.reveal);
  if (!fresh.length || !tm.reveal) return;
  const cards = fresh.flatMap((el) => (el.classList.contains("card") ? [el] : [...el.querySelectorAll(".card")]));
  await motion.revealCards(cards, tm.reveal);
}

// -- the context handed to adapters ---------------------------------------------------------
/** Name of a seat as shown to this player. */
export function seatName(ctx, seat) {
  if (seat === ctx.seat && !(ctx.view && ctx.view.spectator)) return t("table.you");
  // With friends at the table, a person is called by their name.
  const person = ctx.msg && ctx.msg.room ? ctx.players[seat] : null;
  if (person && person.kind === "human") return person.name;
  const own = ctx.view && ctx.view.adapter.seatName ? ctx.view.adapter.seatName(ctx, seat) : null;
  if (own) return own;
  const p = ctx.players[seat];
  if (!p) return `#${seat}`;
  if (p.kind === "computer") return computerName(seat);
  return p.name;
}

/** Whether the cards of a chosen set are still going out one by one as of this state: then
 * nothing is asked of the player (the set was chosen once). */
function sending(view, msg) {
  return view.autoSend.length > 0 || msg.step <= view.sentAt;
}

function makeCtx(view, msg) {
  const frozen = view.frozen && msg === view.msg;
  const legal = frozen ? [] : (msg.legal || []);
  const cardActions = new Map();
  for (const a of legal) if (a.card !== null && a.card !== undefined) cardActions.set(a.card, a);
  const n = msg.players.length;
  const ctx = {
    view, msg, obs: msg.obs, seat: msg.seat, players: msg.players, n, deck: view.deck,
    legal, cardActions, illegal: frozen ? {} : (msg.illegal || {}),
    myTurn: !frozen && !view.board && !view.spectator && msg.current === msg.seat && !msg.terminal && !sending(view, msg),
    info: view.info, t, lang: lang(), game: view.entry.game, board: view.board,
    act: (a) => act(view, a),
    seatName: (s) => seatName(ctx, s),
    seatFace: (s) => seatFace(ctx, s, settings.load("avatar")),
    cardEl: (id, opts = {}) => {
      const el = cardEl(view.deck.text(id), opts);
      if (opts.reveal) el.dataset.reveal = opts.reveal;
      el.dataset.id = String(id);
      return el;
    },
    cardText: (id) => cardText(view.deck.text(id)),
    cardRow: (ids, opts = {}) => cardRow(ctx, ids, opts),
    rel: (s) => (s - msg.seat + n) % n,
  };
  return ctx;
}

/** A row of small cards (overlapping when many). */
export function cardRow(ctx, ids, opts = {}) {
  const row = h("div", { class: "card-row" + (opts.cls ? ` ${opts.cls}` : ""), role: "group" });
  if (opts.label) row.setAttribute("aria-label", opts.label);
  if (opts.reveal) row.dataset.reveal = opts.reveal;
  for (const id of opts.sort === false ? ids : ctx.deck.sort(ids)) row.appendChild(ctx.cardEl(id, { small: true }));
  return row;
}

function act(view, entry) {
  if (!view.msg || !view.latest) return;
  view.error = null;
  view.pending = true;
  if (view.hold) view.hold.cancel();
  if (!view.conn.send({ type: "act", action: entry.json, step: view.latest.step })) {
    view.error = { code: "reconnecting" };
  }
  drawStatus(view);
}

// -- drawing --------------------------------------------------------------------------------
function statusTurn(view) {
  if (view.board) return view.board.status();
  if (view.status === "gone") return t("table.notfound");
  if (view.status === "closed") return t("table.reconnecting");
  if (!view.msg) return t("table.connecting");
  const msg = view.msg;
  const ctx = view.ctx;
  if (msg.terminal) return t("end.title");
  if (sending(view, msg)) return "";
  if (ctx && ctx.myTurn) {
    const p = fn(view, "prompt")(ctx);
    return p ? t(p.key, p.vars) : t("table.turn.you");
  }
  if (view.frozen) return "";
  const who = msg.players[msg.current];
  const name = ctx ? ctx.seatName(msg.current) : "";
  if (who && who.kind === "computer") return t("table.turn.other", { name });
  return t("table.turn.waiting", { name });
}

function eventText(view) {
  const ev = view.event;
  if (!ev || !view.ctx) return "";
  return t(ev.key, { name: view.ctx.seatName(ev.seat), ...(ev.vars || {}) });
}

/** Sets el's text when it differs (an unchanged text is not drawn again). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Sets ``el.dataset[key]`` when it differs. */
function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** The status line: whose turn and what is asked, the last event, the error (if any), and
 * whether the player is to act. */
function statusLine(view) {
  return {
    turn: statusTurn(view),
    event: eventText(view),
    err: view.error ? errorText(view.error.code, view.error.message, view.error.params) : "",
    mine: Boolean(view.ctx && view.ctx.myTurn),
  };
}

/** The status line brought up to date in place (between drawings). */
function drawStatus(view) {
  const el = view.root.querySelector(".status");
  if (!el) return;
  const line = statusLine(view);
  setText(el.querySelector(".turn"), line.turn);
  setText(el.querySelector(".event"), line.event);
  setText(el.querySelector(".err"), line.err);
  if (el.classList.contains("my-turn") !== line.mine) el.classList.toggle("my-turn", line.mine);
  setData(view.root, "myTurn", line.mine ? "1" : "0");
}

/** The status line as drawn (the table's ``data-my-turn`` set with it). */
function statusEl(view) {
  const line = statusLine(view);
  setData(view.root, "myTurn", line.mine ? "1" : "0");
  return h("div", { class: "status" + (line.mine ? " my-turn" : ""), role: "status", "aria-live": "polite" },
    h("span", { class: "turn" }, line.turn), h("span", { class: "event" }, line.event),
    h("span", { class: "err", role: "alert" }, line.err));
}

/** Elements whose inline position is set after drawing (the hand's cards, the middle): a new
 * drawing keeps it until the layout sets it again, so an unmoved card is not drawn again. */
const laid = new WeakSet();
const keepLaid = (el, name) => laid.has(el) && (name === "style" || name === "data-rows");

function draw(view) {
  if (view.closed) return;
  const root = view.root;
  const hadFocusInHand = document.activeElement && document.activeElement.closest && document.activeElement.closest(".hand");
  const focusedCard = hadFocusInHand ? document.activeElement.dataset.id : null;
  const ctx = view.msg ? makeCtx(view, view.msg) : null;
  view.ctx = ctx;
  const bar = h("div", { class: "table-bar" },
    h("a", { href: "#/", class: "btn ghost small back", "aria-label": t("table.leave") }, `‹ ${t("nav.lobby")}`),
    h("h2", { class: "table-title" }, gameTitle(view.info)),
    h("div", { class: "bar-tools" },
      ...(ctx ? extsFor(view).flatMap((x) => (x.tools ? x.tools(ctx) || [] : [])).map(whole) : []),
      view.board && view.board.tools ? whole(view.board.tools()) : null,
      h("a", { href: `#/rules/${view.entry.game}`, class: "btn ghost small", target: "_blank", rel: "noopener" }, t("nav.rules")),
      h("button", { type: "button", class: "btn small lang-toggle", lang: lang() === "ja" ? "en" : "ja",
                    "aria-label": t("nav.lang.aria"), onclick: () => switchLang() }, t("nav.lang"))));
  // The table is brought up to date, not rebuilt: what did not change is not drawn again.
  motion.release();
  if (!ctx) {
    morph(root, [bar, statusEl(view)], keepLaid);
    return;
  }
  let body;
  try {
    body = tableBody(view, ctx);
  } catch (e) {
    console.error(e);
    view.adapter = generic;
    body = tableBody(view, makeCtx(view, view.msg));
  }
  const parts = [bar, statusEl(view), body];
  if (view.msg.terminal && !view.endDismissed && !view.frozen) parts.push(whole(endDialog(view, ctx)));
  if (view.summary) parts.push(whole(summaryDialog(view)));
  morph(root, parts, keepLaid);
  setData(root, "step", String(view.msg.step));
  setData(root, "terminal", view.msg.terminal ? "1" : "0");
  setData(root, "phase", String(ctx.obs.phase ?? ctx.obs.step ?? ""));
  setData(root, "players", String(ctx.n));
  setData(root, "ask", ctx.myTurn ? String(fn(view, "ask")(ctx)) : "");
  layoutHand(view);
  layoutCenter(view);
  // Keyboard players keep their place: focus stays in the hand between turns.
  const keepFocus = Boolean(hadFocusInHand || (view.focusHand && document.activeElement === document.body));
  const hand = root.querySelector(".hand");
  if (hand && keepFocus) {
    const want = focusedCard && hand.querySelector(`[data-id="${focusedCard}"].legal`);
    const first = hand.querySelector(".card.legal");
    if (ctx.myTurn && (want || first)) {
      (want || first).focus();
      view.focusHand = false;
    } else {
      hand.focus();
      view.focusHand = true;
    }
  }
}

function switchLang() {
  import("./i18n.js").then((m) => m.setLang(lang() === "ja" ? "en" : "ja"));
}

function tableBody(view, ctx) {
  const A = (name) => fn(view, name);
  const felt = h("div", { class: `felt seats-${ctx.n}` });
  on(felt, "click", (ev) => {
    if (view.hold && !ev.target.closest("button, a, select, input")) view.hold.cancel();
  });
  const chips = A("chips")(ctx) || [];
  felt.appendChild(h("div", { class: "chips" }, ...chips));
  const ring = h("div", { class: "ring" });
  felt.appendChild(ring);
  for (let s = 0; s < ctx.n; s++) {
    if (s === ctx.seat) continue;
    ring.appendChild(seatEl(view, ctx, s));
  }
  const center = h("div", { class: "center" });
  const stage = A("stage")(ctx);
  let plays = view.override ? view.override.plays : A("trick")(ctx);
  const showTrick = view.override || A("showTrick")(ctx);
  let shown = view.override;
  // At instant pace nothing is held: the last trick stays in view until the next card.
  if (!shown && showTrick && !plays.length && (settings.pace() === "instant" || view.board)) {
    const done = A("completed")(ctx);
    const last = done[done.length - 1];
    if (last && last.plays.length) {
      plays = last.plays;
      shown = { plays, winner: last.winner, marked: true, done: true };
    }
  }
  if (stage) center.appendChild(stage);
  center.appendChild(trickEl(view, ctx, showTrick ? plays : [], shown));
  center.classList.toggle("has-stage", Boolean(stage));
  center.classList.toggle("no-trick", !showTrick);
  ring.appendChild(center);
  view.shownPlays = showTrick && (view.override || !shown) ? plays : [];

  const dock = h("div", { class: "dock" });
  const pick = ctx.myTurn ? A("pick")(ctx) : null;
  ctx.pickSpec = pick;
  const own = A("dock")(ctx);
  // The dock's parts are taken whole: their buttons' handlers refer to the controls built
  // beside them.
  if (pick) dock.appendChild(whole(pickBar(view, ctx, pick)));
  else if (own) dock.appendChild(whole(own));
  else {
    const acts = actionsEl(ctx);
    if (acts) dock.appendChild(whole(acts));
  }
  for (const x of extsFor(view)) {
    const p = x.panel ? x.panel(ctx) : null;
    if (p) dock.appendChild(whole(h("div", { class: "panel-slot" }, p)));
  }
  const me = seatEl(view, ctx, ctx.seat, true);
  const hand = handEl(view, ctx, pick);
  const play = h("div", { class: "play-area" }, felt, dock, me, hand);
  const side = sideEl(view, ctx);
  return h("div", { class: "table-body" + (view.sheetOpen ? " sheet-open" : "") }, play, side);
}

function seatEl(view, ctx, s, mine = false) {
  const info = fn(view, "seatInfo")(ctx, s) || {};
  const n = ctx.n;
  const k = ctx.rel(s);
  const angle = (90 + (k * 360) / n) * (Math.PI / 180);
  const acting = !ctx.msg.terminal && ctx.msg.current === s && !view.frozen;
  const computer = ctx.players[s] && ctx.players[s].kind === "computer";
  const cls = ["seat", mine ? "me" : "", acting ? "acting" : "", info.cls || ""].filter(Boolean).join(" ");
  const el = h("div", { class: cls, "data-seat": String(s), "data-rel": String(k),
                        "aria-current": acting ? "true" : null,
                        role: "group", "aria-label": ctx.seatName(s) });
  if (!mine) {
    el.style.setProperty("--cos", Math.cos(angle).toFixed(3));
    el.style.setProperty("--sin", Math.sin(angle).toFixed(3));
  }
  const head = h("div", { class: "seat-head" }, ctx.seatFace(s),
    h("span", { class: "seat-name" }, ctx.seatName(s)),
    ...(info.badges || []).map((b) => h("span", { class: `badge ${b.cls || ""}`, title: b.title || null }, b.text)));
  el.appendChild(head);
  const faceUp = !mine && view.faceUp ? view.faceUp[s] : null;
  // A face-up hand is written out by suit: a seat has no room for a dozen readable faces.
  if (faceUp) el.appendChild(handLines(ctx.deck, faceUp, t("table.hand")));
  else if (!mine && info.count !== undefined && info.count !== null) el.appendChild(backsEl(info.count, 8));
  const line = [...(info.roles || [])];
  if (info.stat) line.push(info.stat);
  if (line.length) el.appendChild(h("div", { class: "seat-sub" }, ...line.map((x) => h("span", {}, x))));
  if (info.extra) el.appendChild(info.extra);
  if (info.bid !== undefined && info.bid !== null) {
    el.appendChild(h("div", { class: "bubble" + (info.bidCls ? ` ${info.bidCls}` : "") }, info.bid));
  }
  if (acting && computer && !view.board) el.appendChild(h("div", { class: "thinking" }, t("table.thinking")));
  for (const x of extsFor(view)) {
    const more = x.seat && !view.board ? x.seat(ctx, s) : null;
    if (more) el.appendChild(whole(more));
  }
  return el;
}

function trickEl(view, ctx, plays, override) {
  const box = h("div", { class: "trick" + (override && override.marked ? " done" : "") + (plays.length ? "" : " empty"), role: "group",
                         "aria-label": t("table.trick") });
  const n = ctx.n;
  plays.forEach(([seat, card], i) => {
    const k = ctx.rel(seat);
    const angle = (90 + (k * 360) / n) * (Math.PI / 180);
    const c = ctx.cardEl(card, { label: `${ctx.seatName(seat)}: ${cardText(ctx.deck.text(card))}` });
    const won = override && override.marked && override.winner === seat;
    const fig = h("div", { class: "play" + (won ? " winner" : ""), "data-seat": String(seat),
                           "data-key": `${seat}:${card}`, "data-rel": String(k) }, c);
    fig.style.setProperty("--cos", Math.cos(angle).toFixed(3));
    fig.style.setProperty("--sin", Math.sin(angle).toFixed(3));
    fig.style.zIndex = String(i + 1);
    if (won) fig.appendChild(h("span", { class: "win-tag" }, t("table.wins")));
    box.appendChild(fig);
  });
  if (!plays.length) {
    const empty = fn(view, "trickEmpty")(ctx);
    if (empty) box.appendChild(h("div", { class: "trick-empty" }, empty));
  }
  return box;
}

// -- the hand -------------------------------------------------------------------------------
function handEl(view, ctx, pick) {
  const A = (name) => fn(view, name);
  const spec = A("hand")(ctx) || {};
  const ids = spec.cards ?? ctx.obs.hand ?? [];
  const label = spec.label ?? t("table.hand");
  const wrap = h("div", { class: "hand-wrap" });
  const hand = h("div", { class: "hand", role: "group", "aria-label": label, tabindex: "-1" });
  const sorted = spec.sort === false ? ids : ctx.deck.sort(ids);
  const pickable = pick ? new Set(pick.cards) : null;
  view.handIds = sorted;
  const copies = new Map();
  for (const id of sorted) {
    // Identical cards (a double deck) are told apart by their order in the hand.
    const copy = copies.get(id) ?? 0;
    copies.set(id, copy + 1);
    const key = pickKey(id, copy);
    const action = ctx.myTurn && !pick ? ctx.cardActions.get(id) : null;
    const reason = ctx.illegal[String(id)];
    let el = ctx.cardEl(id, { button: true });
    if (pickable && pickable.has(id)) {
      el.classList.add("legal", "selectable");
      const chosen = view.pick.has(key);
      el.setAttribute("aria-pressed", chosen ? "true" : "false");
      if (chosen) el.classList.add("selected");
      on(el, "click", () => {
        if (view.pick.has(key)) view.pick.delete(key);
        else if (!pick.max || view.pick.size < pick.max) view.pick.add(key);
        view.pickStep = ctx.msg.step;
        draw(view);
      });
    } else if (action) {
      el.classList.add("legal");
      el.title = A("actionLabel")(ctx, action);
      on(el, "click", (ev) => {
        const card = ev.currentTarget;
        view.launch = { card: id, rect: card.getBoundingClientRect() };
        ctx.act(action);
        card.classList.add("launched");
      });
    } else {
      el.setAttribute("aria-disabled", "true");
      el.tabIndex = -1;
      if (ctx.myTurn && (ctx.cardActions.size || pick)) el.classList.add("illegal");
      if (reason) {
        const r = engineText(reason);
        el.title = r;
        el.setAttribute("aria-label", t("card.aria.illegal", { card: el.getAttribute("aria-label"), reason: r }));
        on(el, "click", () => { view.error = { code: "illegal_card", message: reason }; drawStatus(view); });
      }
    }
    // highlight: a Set of cards (every copy), or a Map card → how many of its copies.
    const counted = spec.highlight instanceof Map;
    const mark = spec.highlight && (counted ? copy < (spec.highlight.get(id) || 0) : spec.highlight.has(id));
    if (mark) el.classList.add("marked");
    if (spec.tags && spec.tags.get(id) && (mark || !counted)) el.appendChild(h("span", { class: "card-tag" }, spec.tags.get(id)));
    hand.appendChild(el);
  }
  on(hand, "keydown", (ev) => {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(ev.key)) return;
    const cards = [...ev.currentTarget.querySelectorAll(".card.legal")];
    if (!cards.length) return;
    ev.preventDefault();
    let i = cards.indexOf(document.activeElement);
    if (ev.key === "Home") i = 0;
    else if (ev.key === "End") i = cards.length - 1;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") i = i <= 0 ? cards.length - 1 : i - 1;
    else i = i < 0 || i >= cards.length - 1 ? 0 : i + 1;
    cards[i].focus();
  });
  wrap.appendChild(h("h3", { class: "sr-only" }, label));
  wrap.appendChild(hand);
  return wrap;
}

/** A seat's box with what hangs out of it (its bid bubble). */
function outline(seat) {
  const r = seat.getBoundingClientRect();
  const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  for (const b of seat.querySelectorAll(".bubble")) {
    const q = b.getBoundingClientRect();
    if (!q.width || !q.height) continue;
    box.left = Math.min(box.left, q.left);
    box.top = Math.min(box.top, q.top);
    box.right = Math.max(box.right, q.right);
    box.bottom = Math.max(box.bottom, q.bottom);
  }
  return box;
}

/** Fit the middle of the table between the seats as they are actually drawn: seats at the
 * sides bound it left and right, the others above or below (or, with seats high on the
 * sides, the middle may take the whole width under them when that leaves more room). */
function layoutCenter(view) {
  const ring = view.root && view.root.querySelector(".ring");
  const center = ring && ring.querySelector(".center");
  if (!center) return;
  const R = ring.getBoundingClientRect();
  if (!R.width || !R.height) return;
  const gap = 6;
  const side = { top: 4, bottom: 4, left: gap, right: gap };
  const under = { ...side };
  for (const seat of ring.querySelectorAll(".seat")) {
    // A seat's bid bubble hangs below it: the middle keeps clear of it too.
    const r = outline(seat);
    const cx = (r.left + r.right) / 2 - R.left;
    const cy = (r.top + r.bottom) / 2 - R.top;
    const above = cy < R.height / 2;
    const vert = (box) => {
      if (above) box.top = Math.max(box.top, r.bottom - R.top + gap);
      else box.bottom = Math.max(box.bottom, R.bottom - r.top + gap);
    };
    if (cx < R.width * 0.3 || cx > R.width * 0.7) {
      if (cx < R.width / 2) side.left = Math.max(side.left, r.right - R.left + gap);
      else side.right = Math.max(side.right, R.right - r.left + gap);
      vert(under);
    } else {
      vert(side);
      vert(under);
    }
  }
  const area = (b) => Math.max(0, R.width - b.left - b.right) * Math.max(0, R.height - b.top - b.bottom);
  const narrow = (b) => Math.min(R.width - b.left - b.right, (R.height - b.top - b.bottom) * 1.2);
  const best = narrow(under) > narrow(side) && area(under) > area(side) * 0.8 ? under : side;
  laid.add(center);
  setStyle(center, "inset", `${best.top}px ${best.right}px ${best.bottom}px ${best.left}px`);
  fitTrick(center);
  fitStage(center);
}

const STAGE_LEAST = 0.75;

/** The middle's panel (the auction's high bid, partner's meld bids…) when the middle is too
 * low for it (a phone with the hint's card open): it writes smaller, down to
 * ``STAGE_LEAST`` of its size, and if it still does not fit keeps only its main line (the
 * rest is also in the seats' bubbles and the helpers): read whole, never cut off. */
function fitStage(center) {
  const panel = center.querySelector(":scope > .stage-panel");
  if (!panel) return;
  if (panel.classList.contains("brief")) panel.classList.remove("brief");
  if (panel.style.fontSize) panel.style.removeProperty("font-size");
  const over = () => panel.scrollHeight > panel.clientHeight + 1 || panel.scrollWidth > panel.clientWidth + 1;
  if (!over()) return;
  const base = parseFloat(getComputedStyle(panel).fontSize);
  const shrink = () => {
    for (let k = 0.95; over() && k >= STAGE_LEAST - 1e-9; k -= 0.05) {
      panel.style.fontSize = `${(base * k).toFixed(1)}px`;
    }
  };
  shrink();
  if (over() && panel.querySelector(":scope > .big")) {
    panel.classList.add("brief");
    panel.style.removeProperty("font-size");
    shrink();
  }
}

const TRICK_MIN = 26;

/** The trick's cards grow smaller when the middle is too small for them (tall seats, as in
 * the replay's face-up hands): the played cards lie between the seats, not over them. */
function fitTrick(center) {
  if (center.style.getPropertyValue("--tcw")) center.style.removeProperty("--tcw");
  const trick = center.querySelector(".trick");
  if (!trick || !trick.offsetHeight || !center.clientHeight) return;
  const cs = getComputedStyle(center);
  const row = cs.flexDirection === "row";
  const gap = parseFloat(row ? cs.columnGap : cs.rowGap) || 0;
  let height = center.clientHeight;
  let width = center.clientWidth;
  for (const other of center.children) {
    if (other === trick || !other.offsetHeight) continue;
    if (row) width -= other.offsetWidth + gap;
    else height -= other.offsetHeight + gap;
  }
  const scale = Math.min(height / trick.offsetHeight, width / trick.offsetWidth) * 0.97;
  if (scale >= 1) return;
  const tcw = parseFloat(getComputedStyle(trick).getPropertyValue("--tcw")) || 46;
  center.style.setProperty("--tcw", `${Math.max(TRICK_MIN, Math.floor(tcw * scale))}px`);
}

const TOUCH = 28;

/** Sets an inline style property when it differs. */
function setStyle(el, name, value) {
  if (el.style.getPropertyValue(name) !== value) el.style.setProperty(name, value);
}

/** Lay the hand out: one row when it fits, else overlapping, else two overlapping rows, or
 * three when two would leave a card less than a fingertip (TOUCH px) of its face. */
function layoutHand(view) {
  const hand = view.root && view.root.querySelector(".hand");
  if (!hand) return;
  const cards = [...hand.children];
  const n = cards.length;
  const full = hand.clientWidth;
  laid.add(hand);
  if (!n || !full) { hand.style.height = ""; return; }
  const cs = getComputedStyle(hand);
  const cw = parseFloat(cs.getPropertyValue("--cw")) || 56;
  const margin = Math.min(cw * 0.18, full * 0.03);
  const width = full - 2 * margin;
  const ch = cw * 1.4;
  const gap = cw * 0.08;
  const minStep = cw * 0.42;
  let rows = 1;
  let perRow = n;
  // A long hand overlaps like a held fan; a short one lies side by side.
  const widest = (m) => (m > 6 ? cw * 0.74 : cw + gap);
  let step = Math.min(widest(n), (width - cw) / Math.max(n - 1, 1));
  for (const more of [2, 3]) {
    if (n < more || step >= (more === 2 ? minStep : TOUCH)) break;
    rows = more;
    perRow = Math.ceil(n / rows);
    step = Math.min(widest(perRow), (width - cw) / Math.max(perRow - 1, 1));
  }
  const lift = cw * 0.22; // room above for raised cards
  const rowGap = rows > 1 ? ch * 0.56 : 0;
  cards.forEach((el, i) => {
    const r = Math.floor(i / perRow);
    const j = i - r * perRow;
    const m = Math.min(perRow, n - r * perRow);
    const rowWidth = cw + step * (m - 1);
    const x = margin + (width - rowWidth) / 2 + j * step;
    // A gentle fan: cards tilt and dip toward the ends of a long row.
    const mid = (m - 1) / 2;
    const d = m > 1 ? (j - mid) / Math.max(mid, 1) : 0;
    const tilt = m > 5 && step < cw ? d * 5 : 0;
    const dip = m > 5 && step < cw ? d * d * cw * 0.12 : 0;
    laid.add(el);
    setStyle(el, "left", `${x.toFixed(1)}px`);
    setStyle(el, "top", `${(lift + r * rowGap + dip).toFixed(1)}px`);
    setStyle(el, "rotate", `${tilt.toFixed(2)}deg`);
    setStyle(el, "z-index", String(i + 1));
  });
  setStyle(hand, "height", `${(lift + (rows - 1) * rowGap + ch + cw * 0.2).toFixed(0)}px`);
  setData(hand, "rows", String(rows));
}

// -- the dock: actions, multi-card choices --------------------------------------------------
/** Buttons for the legal actions not shown as cards (a list when there are many). */
export function actionsEl(ctx) {
  const inHand = new Set(ctx.obs.hand ?? []);
  const rest = ctx.legal.filter((a) => !(a.card !== null && a.card !== undefined && inHand.has(a.card)));
  if (!ctx.myTurn || !rest.length) return null;
  const label = (a) => fn(ctx.view, "actionLabel")(ctx, a);
  const box = h("div", { class: "actions", role: "group", "aria-label": t("table.actions") });
  if (rest.length > 16) {
    const sel = h("select", { class: "action-select", "aria-label": t("table.actions") },
      rest.map((a, i) => h("option", { value: String(i) }, label(a))));
    const ok = h("button", { type: "button", class: "btn primary" }, t("table.ok"));
    ok.addEventListener("click", () => ctx.act(rest[Number(sel.value)]));
    box.append(sel, ok);
    return box;
  }
  for (const a of rest) {
    const b = h("button", { type: "button", class: "btn action" }, label(a));
    b.addEventListener("click", () => ctx.act(a));
    box.appendChild(b);
  }
  return box;
}

/** Whether two lists hold the same cards as often (a hand may hold identical cards). */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/** The key of a card in view.pick: its id, or "id#k" for the k-th further copy of a card
 * the hand holds more than once (each copy is chosen on its own). */
function pickKey(id, copy) {
  return copy ? `${id}#${copy}` : id;
}

function pickCard(key) {
  if (typeof key !== "string" || !/#\d+$/.test(key)) return key;
  const base = key.slice(0, key.lastIndexOf("#"));
  return /^\d+$/.test(base) ? Number(base) : base;
}

/**
 * A choice of several cards with pick / un-pick and a confirmation. spec: {cards, title,
 * count? (exactly this many, sent one card at a time), actions? (legal actions naming card
 * sets), confirm(cards) → label, max?}.
 */
function pickBar(view, ctx, spec) {
  const chosen = view.pick;
  const chosenCards = [...chosen].map(pickCard);
  let ready = false;
  let action = null;
  if (spec.actions) {
    action = spec.actions.find((a) => sameCards(a.cards, chosenCards)) || null;
    ready = Boolean(action);
  } else ready = chosen.size === spec.count;
  const need = spec.count ?? null;
  const countText = need ? t("pick.count", { k: chosen.size, n: need }) : t("pick.chosen", { k: chosen.size });
  const confirm = h("button", { type: "button", class: "btn primary action-confirm", id: "pick-confirm" },
    spec.confirm ? spec.confirm(chosenCards, ready) : t("pick.confirm"));
  confirm.disabled = !ready;
  confirm.addEventListener("click", () => {
    if (!ready) return;
    const cards = ctx.deck.sort(chosenCards);
    if (action) ctx.act(action);
    else {
      const first = ctx.cardActions.get(cards[0]);
      if (!first) return;
      view.autoSend = cards.slice(1);
      view.sentAt = view.latest.step;
      ctx.act(first);
    }
    view.pick = new Set();
    view.pickDone = true;
  });
  const clear = h("button", { type: "button", class: "btn ghost small", id: "pick-clear" }, t("pick.clear"));
  clear.disabled = !chosen.size;
  clear.addEventListener("click", () => { view.pick = new Set(); draw(view); });
  return h("div", { class: "pick-bar", role: "group", "aria-label": spec.title },
    h("div", { class: "dock-row" }, h("span", { class: "pick-count", "aria-live": "polite" }, countText), clear, confirm));
}

// -- drawers (phone: tabs under the hand opening a sheet; desktop: a side column) -----------
function drawersOf(view, ctx) {
  const list = [...(fn(view, "drawers")(ctx) || [])];
  const more = extsFor(view).flatMap((x) => (x.drawers ? x.drawers(ctx) || [] : []));
  const trickList = fn(view, "completed")(ctx);
  if (trickList.length && !list.some((d) => d.id === "tricks") && !more.some((d) => d.id === "tricks")) {
    list.push({ id: "tricks", title: t("drawer.tricks"), badge: String(trickList.length),
                body: () => trickHistory(ctx, trickList) });
  }
  list.push(...more);
  list.push({ id: "settings", title: t("drawer.settings"), icon: "⚙", body: () => settingsEl() });
  return list;
}

function wideScreen() {
  return window.matchMedia("(min-width: 1000px)").matches;
}

function sideEl(view, ctx) {
  const list = drawersOf(view, ctx);
  const wide = wideScreen();
  view.wide = wide;
  let openId = view.drawer;
  if (!list.some((d) => d.id === openId)) openId = null;
  // The side column opens the first drawer unless it is a long raw listing.
  if (wide && !openId) openId = (list.find((d) => !d.long) || list[0]).id;
  const current = list.find((d) => d.id === openId) || null;
  const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": t("drawer.label") });
  for (const d of list) {
    const shown = current && d.id === current.id && (wide || view.sheetOpen);
    const b = h("button", { type: "button", role: "tab", class: "tab" + (shown ? " on" : ""), "data-drawer": d.id,
                            "aria-selected": shown ? "true" : "false", "aria-controls": "drawer-body" },
      d.icon ? h("span", { class: "tab-icon", "aria-hidden": "true" }, d.icon) : null,
      h("span", { class: "tab-title" }, d.tab ?? d.title),
      d.badge ? h("span", { class: "tab-badge" }, d.badge) : null);
    if (d.icon) b.setAttribute("aria-label", d.title);
    on(b, "click", () => {
      if (!wide && view.sheetOpen && view.drawer === d.id) view.sheetOpen = false;
      else { view.drawer = d.id; view.sheetOpen = true; }
      draw(view);
    });
    tabs.appendChild(b);
  }
  const open = current && (wide || view.sheetOpen);
  const body = h("div", { class: "drawer-body", id: "drawer-body", role: "tabpanel", hidden: open ? null : true });
  if (open) {
    const close = h("button", { type: "button", class: "btn ghost small drawer-close", "aria-label": t("drawer.close") }, "✕");
    on(close, "click", () => { view.sheetOpen = false; draw(view); });
    body.append(h("div", { class: "drawer-head" }, h("h3", {}, current.title), close), drawerContent(view, ctx, current));
  }
  return h("aside", { class: "side", "aria-label": t("drawer.label") }, body, tabs);
}

/** A drawer's content, drawn again only when the table or the language changed (else the
 * one on the page stays as it is). */
function drawerContent(view, ctx, d) {
  if (d.id === "settings") return whole(d.body(ctx));
  const key = `${d.id}|${ctx.msg.step}|${lang()}|${view.frozen ? 1 : 0}|${settings.fourColour()}|${d.key ?? ""}`;
  const cache = view.drawerCache;
  if (cache && cache.key === key) return same(cache.el);
  const el = whole(d.body(ctx));
  view.drawerCache = { key, el };
  return el;
}

/** The tricks of a hand ([{plays, winner, label?}]): each card under its player's name, the
 * leader's marked "led", the winner's outlined, and who took the trick. */
export function trickHistory(ctx, list) {
  const ol = h("ol", { class: "trick-history" });
  list.forEach((tr, i) => {
    const leader = tr.plays.length ? tr.plays[0][0] : null;
    ol.appendChild(h("li", { "data-leader": leader === null ? null : String(leader),
                             "data-winner": tr.winner === null ? null : String(tr.winner) },
      h("span", { class: "th-no" }, tr.label ?? t("table.trick.n", { n: i + 1 })),
      h("span", { class: "th-cards" }, ...tr.plays.map(([s, c], k) => h("span", {
        class: "th-play" + (s === tr.winner ? " won" : "") + (k === 0 ? " led" : "") },
        h("span", { class: "th-who" }, ctx.seatName(s)), ctx.cardEl(c, { small: true }),
        k === 0 ? h("span", { class: "th-led" }, t("table.led")) : null))),
      h("span", { class: "th-win" }, t("table.takes.short", { name: ctx.seatName(tr.winner) }))));
  });
  return ol;
}

function settingsEl() {
  const box = h("div", { class: "settings" });
  const paceBox = h("fieldset", { class: "opt" }, h("legend", {}, t("set.pace")));
  for (const p of settings.PACES) {
    const id = `pace-${p}`;
    const r = h("input", { type: "radio", name: "pace", id, value: p });
    r.checked = settings.pace() === p;
    r.addEventListener("change", () => settings.save("pace", p));
    paceBox.appendChild(h("div", { class: "radio" }, r, h("label", { for: id }, t(`pace.${p}`))));
  }
  if (settings.reducedMotion()) paceBox.appendChild(h("p", { class: "muted small" }, t("set.reduced")));
  const check = (key, label, value) => {
    const id = `set-${key}`;
    const c = h("input", { type: "checkbox", id });
    c.checked = value;
    c.addEventListener("change", () => settings.save(key, c.checked));
    return h("div", { class: "opt opt-bool" }, c, h("label", { for: id }, label));
  };
  box.append(paceBox, check("sound", t("set.sound"), settings.soundOn()),
    check("fourColour", t("set.fourcolour"), settings.fourColour()));
  return box;
}

// -- between hands and at the end ------------------------------------------------------------
function showSummary(view, make) {
  return new Promise((resolve) => {
    view.summary = { make, resolve };
    view.summaryFresh = true;
    draw(view);
  });
}

function summaryDialog(view) {
  const { make, resolve } = view.summary;
  const summary = make();
  const btn = h("button", { type: "button", class: "btn primary", id: "continue-btn" }, t("summary.continue"));
  const dlg = h("div", { class: "overlay summary-overlay" },
    h("div", { class: "dialog summary", role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-h" },
      h("h2", { id: "summary-h" }, summary.title),
      summary.body,
      h("div", { class: "form-actions sticky" }, btn)));
  const done = () => {
    if (view.summary === null) return;
    view.summary = null;
    dlg.remove();
    resolve();
  };
  btn.addEventListener("click", done);
  dlg.addEventListener("keydown", (ev) => { if (ev.key === "Escape") done(); });
  if (view.summaryFresh) {
    view.summaryFresh = false;
    motion.popIn(dlg.firstChild);
    setTimeout(() => btn.focus({ preventScroll: true }), 0);
  }
  return dlg;
}

function endDialog(view, ctx) {
  const msg = view.msg;
  const returns = msg.returns || [];
  const me = msg.seat;
  const best = Math.max(...returns);
  const winners = msg.winners || returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
  const team = fn(view, "team");
  const winningTeams = new Set(winners.map((s) => team(ctx, s)));
  let verdict;
  if (view.spectator) verdict = t("social.watch.over");
  else if (winningTeams.size > 1 && winningTeams.has(team(ctx, me))) verdict = t("end.draw");
  else if (winningTeams.has(team(ctx, me))) verdict = t("end.win");
  else verdict = t("end.loss");
  const custom = fn(view, "endSummary")(ctx);
  const course = fn(view, "course")(ctx);
  const btns = h("div", { class: "form-actions" });
  const streak = msg.streak && msg.streak.after;
  const body = view.entry.body || {};
  if (view.entry.game === "pinochle2" && body.streak && streak && streak.streak > 0) {
    btns.appendChild(h("button", { type: "button", class: "btn primary", id: "again-btn", onclick: () => again(view, "next") }, t("end.next")));
    btns.appendChild(h("button", { type: "button", class: "btn", onclick: () => again(view, "new") }, t("end.new")));
  } else if (!msg.room) {  // a game with friends goes on from its room (an extension's end button)
    btns.appendChild(h("button", { type: "button", class: "btn primary", id: "again-btn", onclick: () => again(view, "again") }, t("end.again")));
  }
  btns.appendChild(h("a", { href: "#/", class: "btn" }, t("end.lobby")));
  btns.appendChild(h("button", { type: "button", class: "btn ghost", onclick: () => { view.endDismissed = true; draw(view); } }, t("end.close")));
  const more = extsFor(view).flatMap((x) => (x.end ? x.end(ctx) || [] : []));
  const err = h("p", { class: "error", role: "alert" }, view.againError || "");
  const dlg = h("div", { class: "overlay" }, h("div", { class: "dialog end" + (winningTeams.has(team(ctx, me)) ? " won" : ""),
    role: "dialog", "aria-modal": "true", "aria-labelledby": "end-h" },
    h("h2", { id: "end-h" }, t("end.title")),
    h("p", { class: "verdict" }, verdict),
    fn(view, "endFaces")(ctx) === false ? null : facesStrip(ctx, winners),
    custom,
    course && course.series.length ? h("div", { class: "course-wrap" }, h("h3", {}, course.title), lineChart(course.series, course)) : null,
    streak ? h("p", { class: "streak-info" }, t("lobby.streak.info", { s: streak.streak, saved: streak.saved, best: streak.best, lv: streak.next_level })) : null,
    more.length ? h("div", { class: "form-actions end-more" }, ...more) : null,
    h("div", { class: "end-bar" }, btns, err)));
  dlg.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { view.endDismissed = true; draw(view); }
  });
  if (!view.endShown) {
    view.endShown = true;
    motion.popIn(dlg.firstChild);
    setTimeout(() => { const b = dlg.querySelector(".btn.primary"); if (b) b.focus({ preventScroll: true }); }, 0);
  }
  return dlg;
}

/** Every seat's face and name at the end, the winners marked. */
function facesStrip(ctx, winners) {
  const order = [ctx.seat, ...[...Array(ctx.n).keys()].filter((s) => s !== ctx.seat)];
  return h("ul", { class: "end-faces", "aria-label": t("look.end.seats") }, order.map((s) => {
    const won = winners.includes(s);
    return h("li", { class: won ? "won" : "" }, ctx.seatFace(s), h("span", { class: "end-face-name" }, ctx.seatName(s)),
      won ? h("span", { class: "badge won" }, t("look.end.winner")) : null);
  }));
}

async function again(view, mode) {
  const body = JSON.parse(JSON.stringify(view.entry.body || {}));
  view.againError = "";
  try {
    if (view.entry.game === "pinochle2" && body.streak) {
      body.options = body.options || {};
      body.options.dealer = nextDealer();
      body.streak = mode === "next" ? "next" : "new";
      await startGame(view.entry.game, body);
      return;
    }
    if (view.entry.game === "pinochle2" && body.options && body.options.level) {
      body.level = levelFor(view.info, body.options.level);
    }
    await startGame(view.entry.game, { ...body, again: { table: view.tableId, token: view.entry.token } });
  } catch (e) {
    view.againError = errorText(e.code, e.message);
    draw(view);
  }
}
