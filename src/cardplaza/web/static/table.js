// The table view: connection, status bar, hand with keyboard play, actions, end screen.
// Game panels come from games/<game>.js (render(ctx) → Element); games/generic.js otherwise.
import { t, lang, onLang, engineText } from "./i18n.js";
import { Connection } from "./net.js";
import { Deck, cardEl, cardText } from "./cards.js";
import { h, loadGames, gameTitle, tableEntry, forgetTable, markFinished, startGame,
         nextDealer, levelFor } from "./app.js";
import * as generic from "./games/generic.js";

let active = null;

export function closeTable() {
  if (active) {
    active.conn.close();
    active.offLang();
    active = null;
  }
}

/** The game's own renderer; the generic one if none, or with ?generic in the address. */
async function loadRenderer(info) {
  if (!info || !info.renderer || new URLSearchParams(location.search).has("generic")) return generic;
  try {
    const mod = await import(`./games/${info.renderer}.js`);
    if (typeof mod.render === "function") return mod;
  } catch { /* no dedicated renderer: generic */ }
  return generic;
}

export async function openTable(main, tableId) {
  closeTable();
  const entry = tableEntry(tableId);
  if (!entry) {
    main.replaceChildren(h("section", { class: "panel" }, h("p", { role: "alert" }, t("table.notfound")),
      h("a", { href: "#/", class: "btn" }, t("end.lobby"))));
    return;
  }
  const games = await loadGames();
  const info = games.find((g) => g.name === entry.game);
  const renderer = await loadRenderer(info);
  const view = {
    tableId, entry, info, renderer, deck: new Deck(info ? info.deck : []),
    msg: null, error: "", status: "connecting", endDismissed: false,
    focusCard: null,
  };
  const root = h("section", { class: `table-view game-${entry.game}`, "aria-label": gameTitle(info) });
  main.replaceChildren(root);
  view.root = root;
  view.conn = new Connection(tableId, entry.token, (msg) => onMessage(view, msg), (st) => {
    view.status = st;
    if (st === "gone") { forgetTable(tableId); }
    draw(view);
  });
  view.offLang = onLang(() => draw(view));
  active = view;
  draw(view);
}

function onMessage(view, msg) {
  if (msg.type === "state") {
    const prev = view.msg;
    view.msg = msg;
    if (!prev || prev.step !== msg.step) view.error = "";
    if (prev && prev.step !== msg.step) {
      const text = playsText(view, prev.obs, msg);
      if (text) view.events = [...(view.events || []), text].slice(-4);
    }
    if (msg.terminal) markFinished(view.tableId);
    draw(view);
  } else if (msg.type === "error") {
    view.error = engineText(msg.message);
    if (msg.code === "stale") view.conn.send({ type: "state" });
    drawStatus(view);
  }
}

/** Cards other seats played since the previous view ("Computer 1: A♠ · …"), if any. */
function playsText(view, before, msg) {
  const obs = msg.obs;
  const seen = (o) => {
    const out = [];
    const tricks = Array.isArray(o.tricks) ? o.tricks : [];
    for (const tr of tricks) out.push(...generic.trickPlays({ current_trick: tr, hand_sizes: o.hand_sizes ?? o.hand_count }));
    out.push(...generic.trickPlays(o));
    return out;
  };
  const old = seen(before);
  const now = seen(obs);
  if (now.length <= old.length) return "";
  const ctx = { seat: msg.seat, players: msg.players };
  return now.slice(old.length).filter(([s]) => s !== msg.seat && s !== null && s !== undefined)
    .map(([s, c]) => t("table.played", { name: seatName(ctx, s), card: cardText(view.deck.text(c)) }))
    .join(" · ");
}

/** Name of a seat as shown to this player. */
export function seatName(ctx, seat) {
  if (seat === ctx.seat) return t("table.you");
  const p = ctx.players[seat];
  if (!p) return `#${seat}`;
  if (p.kind === "computer") {
    const computers = ctx.players.filter((x) => x.kind === "computer").length;
    return computers === 1 ? t("table.computer1") : t("table.computer", { n: seat });
  }
  return p.name;
}

function makeCtx(view) {
  const msg = view.msg;
  const legal = msg.legal || [];
  const cardActions = new Map();
  for (const a of legal) if (a.card !== null && a.card !== undefined) cardActions.set(a.card, a);
  const ctx = {
    view, msg, obs: msg.obs, seat: msg.seat, players: msg.players, deck: view.deck,
    legal, cardActions, illegal: msg.illegal || {}, myTurn: msg.current === msg.seat && !msg.terminal,
    info: view.info, t, lang: lang(),
    act: (a) => act(view, a),
    seatName: (s) => seatName(ctx, s),
    cardEl: (id, opts = {}) => cardEl(view.deck.text(id), opts),
    cardText: (id) => cardText(view.deck.text(id)),
    usedActions: new Set(),
  };
  const multi = legal.filter((a) => Array.isArray(a.cards));
  if (ctx.myTurn && multi.length > 16) {
    ctx.selectActions = multi;
    ctx.selectable = new Set(multi.flatMap((a) => a.cards));
    if (!view.selection || view.selectionStep !== msg.step) {
      view.selection = new Set();
      view.selectionStep = msg.step;
    }
    ctx.selection = view.selection;
  }
  return ctx;
}

function act(view, entry) {
  if (!view.msg) return;
  view.error = "";
  view.events = [];
  view.pending = true;
  if (!view.conn.send({ type: "act", action: entry.json, step: view.msg.step })) {
    view.error = t("table.reconnecting");
  }
  drawStatus(view);
}

function statusText(view) {
  if (view.status === "gone") return t("table.notfound");
  if (view.status === "closed") return t("table.reconnecting");
  if (!view.msg) return t("table.connecting");
  const msg = view.msg;
  if (msg.terminal) return t("end.title");
  if (msg.current === msg.seat) return t("table.turn.you");
  const ctx = { seat: msg.seat, players: msg.players };
  return t("table.turn.other", { name: seatName(ctx, msg.current) });
}

function drawStatus(view) {
  const el = view.root.querySelector(".status");
  if (!el) return;
  el.querySelector(".turn").textContent = statusText(view);
  el.querySelector(".event").textContent = (view.events || []).join(" · ");
  const err = el.querySelector(".err");
  err.textContent = view.error || "";
  el.classList.toggle("my-turn", Boolean(view.msg && view.msg.current === view.msg.seat && !view.msg.terminal));
}

function draw(view) {
  const root = view.root;
  const hadFocusInHand = document.activeElement && document.activeElement.closest && document.activeElement.closest(".hand");
  const focusedCard = hadFocusInHand ? document.activeElement.dataset.id : null;
  const bar = h("div", { class: "table-bar" },
    h("h2", { class: "table-title" }, gameTitle(view.info)),
    h("div", { class: "bar-links" },
      h("a", { href: `#/rules/${view.entry.game}`, class: "btn ghost small", target: "_blank" }, t("nav.rules")),
      h("a", { href: "#/", class: "btn ghost small" }, t("table.leave"))));
  const status = h("div", { class: "status", role: "status", "aria-live": "polite" },
    h("span", { class: "turn" }), h("span", { class: "event" }), h("span", { class: "err", role: "alert" }));
  const parts = [bar, status];
  let ctx = null;
  if (view.msg) {
    ctx = makeCtx(view);
    let board;
    ctx.generic = view.renderer === generic;
    try {
      board = view.renderer.render(ctx);
    } catch (e) {
      console.error(e);
      ctx.generic = true;
      board = generic.render(ctx);
    }
    parts.push(board);
    parts.push(actionsEl(ctx));
    parts.push(handEl(ctx));
    parts.push(detailsEl(view, ctx));
  }
  root.replaceChildren(...parts.filter((p) => p));
  if (view.msg) {
    root.dataset.step = String(view.msg.step);
    root.dataset.myTurn = ctx && ctx.myTurn ? "1" : "0";
    root.dataset.terminal = view.msg.terminal ? "1" : "0";
  }
  drawStatus(view);
  if (view.msg && view.msg.terminal && !view.endDismissed) root.appendChild(endDialog(view, ctx));
  // Keyboard players keep their place: focus stays in the hand between turns.
  const keepFocus = Boolean(hadFocusInHand || (view.focusHand && document.activeElement === document.body));
  const hand = root.querySelector(".hand");
  if (ctx && hand && keepFocus) {
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

/** The acting player's hand: legal cards are buttons; others disabled with the reason. */
export function handEl(ctx) {
  const ids = ctx.handCards ?? ctx.obs.hand ?? [];
  const wrap = h("div", { class: "hand-wrap" });
  const label = ctx.handLabel ?? t("table.hand");
  const hand = h("div", { class: "hand", role: "group", "aria-label": label, tabindex: "-1" });
  const sorted = ctx.sortHand === false ? ids : ctx.deck.sort(ids);
  for (const id of sorted) {
    const action = ctx.myTurn ? ctx.cardActions.get(id) : null;
    const reason = ctx.illegal[String(id)];
    const text = ctx.deck.text(id);
    let el;
    if (ctx.selectable && ctx.selectable.has(id)) {
      el = cardEl(text, { button: true });
      el.classList.add("legal", "selectable");
      const on = ctx.selection.has(id);
      el.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) el.classList.add("selected");
      el.addEventListener("click", () => {
        if (ctx.selection.has(id)) ctx.selection.delete(id); else ctx.selection.add(id);
        draw(ctx.view);
      });
    } else if (action) {
      el = cardEl(text, { button: true });
      el.classList.add("legal");
      el.title = engineText(action.text);
      el.addEventListener("click", () => ctx.act(action));
      ctx.usedActions.add(action);
    } else {
      el = cardEl(text, { button: true });
      el.setAttribute("aria-disabled", "true");
      el.tabIndex = -1;
      if (ctx.myTurn && ctx.cardActions.size) el.classList.add("illegal");
      if (reason) {
        const r = engineText(reason);
        el.title = r;
        el.setAttribute("aria-label", t("card.aria.illegal", { card: el.getAttribute("aria-label"), reason: r }));
        el.addEventListener("click", () => { ctx.view.error = r; drawStatus(ctx.view); });
      }
    }
    if (ctx.highlight && ctx.highlight.has(id)) el.classList.add("marked");
    el.dataset.id = String(id);
    hand.appendChild(el);
  }
  hand.addEventListener("keydown", (ev) => {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(ev.key)) return;
    const cards = [...hand.querySelectorAll(".card.legal")];
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
  if (ctx.myTurn && ctx.cardActions.size) wrap.appendChild(h("p", { class: "hint" }, t("table.hint.play")));
  return wrap;
}

function sameSet(list, set) {
  return list.length === set.size && list.every((c) => set.has(c));
}

/** Buttons for every legal action not shown as a card (a list when there are many). */
function actionsEl(ctx) {
  const inHand = new Set(ctx.handCards ?? ctx.obs.hand ?? []);
  let rest = ctx.legal.filter((a) => !ctx.usedActions.has(a)
    && !(a.card !== null && a.card !== undefined && inHand.has(a.card)));
  if (ctx.skipActions) rest = rest.filter((a) => !ctx.skipActions(a));
  const box = h("div", { class: "actions", role: "group", "aria-label": t("table.actions") });
  if (!ctx.myTurn || !rest.length) return box;
  if (ctx.actionsTitle) box.appendChild(h("p", { class: "actions-title" }, ctx.actionsTitle));
  if (ctx.selectActions) {
    const chosen = ctx.selectActions.find((a) => sameSet(a.cards, ctx.selection));
    rest = rest.filter((a) => !ctx.selectActions.includes(a));
    const label = chosen ? (ctx.actionLabel ? ctx.actionLabel(chosen) : engineText(chosen.text))
      : t("table.select", { n: ctx.selection.size });
    const b = h("button", { type: "button", class: "btn primary action-confirm" }, label);
    b.disabled = !chosen;
    if (chosen) b.addEventListener("click", () => ctx.act(chosen));
    box.appendChild(h("p", { class: "actions-title" }, ctx.selectTitle ?? t("table.select.title")));
    box.appendChild(b);
  }
  if (rest.length > 16) {
    const sel = h("select", { class: "action-select", "aria-label": t("table.actions") },
      rest.map((a, i) => h("option", { value: String(i) }, ctx.actionLabel ? ctx.actionLabel(a) : engineText(a.text))));
    const ok = h("button", { type: "button", class: "btn primary" }, "OK");
    ok.addEventListener("click", () => ctx.act(rest[Number(sel.value)]));
    box.appendChild(sel);
    box.appendChild(ok);
    return box;
  }
  for (const a of rest) {
    const label = ctx.actionLabel ? ctx.actionLabel(a) : engineText(a.text);
    const b = h("button", { type: "button", class: "btn action" }, label);
    b.addEventListener("click", () => ctx.act(a));
    box.appendChild(b);
  }
  return box;
}

/** A folded panel under the table: the generic view lists every observed field it did not
 * draw; a game's own view draws everything on the table and may add a record here. */
function detailsEl(view, ctx) {
  if (ctx.generic) {
    return h("details", { class: "info" }, h("summary", {}, t("table.info")),
      generic.objectEl(ctx, ctx.obs, ctx.shownKeys || new Set()));
  }
  const extra = view.renderer.details ? view.renderer.details(ctx) : null;
  if (!extra) return null;
  return h("details", { class: "info" }, h("summary", {}, extra.title), extra.body);
}

function endDialog(view, ctx) {
  const msg = view.msg;
  const returns = msg.returns || [];
  const me = msg.seat;
  const best = Math.max(...returns);
  // The server names the winners: in Pinochle a bidder over the target beats a higher score.
  const winners = msg.winners || returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
  const team = (s) => (view.entry.game === "pinochle4" ? s % 2 : s);
  const winningTeams = new Set(winners.map(team));
  let verdict;
  if (winningTeams.size > 1 && winningTeams.has(team(me))) verdict = t("end.draw");
  else if (winningTeams.has(team(me))) verdict = t("end.win");
  else verdict = t("end.loss");
  const custom = view.renderer.summary ? view.renderer.summary(ctx) : null;
  const rows = returns.map((r, i) => h("tr", { class: winners.includes(i) ? "winner" : "" },
    h("th", { scope: "row" }, seatName(ctx, i)), h("td", {}, String(r))));
  const btns = h("div", { class: "form-actions" });
  const streak = msg.streak && msg.streak.after;
  const body = view.entry.body || {};
  if (view.entry.game === "pinochle2" && body.streak && streak && streak.streak > 0) {
    btns.appendChild(h("button", { type: "button", class: "btn primary", onclick: () => again(view, "next") }, t("end.next")));
    btns.appendChild(h("button", { type: "button", class: "btn", onclick: () => again(view, "new") }, t("end.new")));
  } else {
    btns.appendChild(h("button", { type: "button", class: "btn primary", onclick: () => again(view, "new") }, t("end.again")));
  }
  btns.appendChild(h("a", { href: "#/", class: "btn" }, t("end.lobby")));
  btns.appendChild(h("button", { type: "button", class: "btn ghost", onclick: () => { view.endDismissed = true; draw(view); } }, t("end.close")));
  const dlg = h("div", { class: "overlay" }, h("div", { class: "dialog end", role: "dialog", "aria-modal": "true", "aria-labelledby": "end-h" },
    h("h2", { id: "end-h" }, t("end.title")),
    h("p", { class: "verdict" }, verdict),
    custom,
    custom ? null : h("table", { class: "result" }, h("caption", {}, t("end.points")), h("tbody", {}, rows)),
    streak ? h("p", { class: "streak-info" }, t("lobby.streak.info", { s: streak.streak, saved: streak.saved, best: streak.best, lv: streak.next_level })) : null,
    btns));
  dlg.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { view.endDismissed = true; draw(view); }
  });
  setTimeout(() => { const b = dlg.querySelector(".btn.primary"); if (b) b.focus(); }, 0);
  return dlg;
}

async function again(view, mode) {
  const body = JSON.parse(JSON.stringify(view.entry.body || {}));
  if (view.entry.game === "pinochle2") {
    body.options = body.options || {};
    body.options.dealer = nextDealer();
    if (body.streak) body.streak = mode;
    else if (body.options.level) body.level = levelFor(view.info, body.options.level);
  }
  try { await startGame(view.entry.game, body); } catch (e) { view.error = e.message; drawStatus(view); }
}
