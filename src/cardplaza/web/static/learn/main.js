// Learning at the table: a Hint button (the computer's suggestion highlighted in the hand,
// its top choices with their values and the reason), an Undo button, the decision helper
// (bid odds per trump suit during a Pinochle auction, the best discards at a Piquet
// exchange, the melds compared in two-hand Pinochle) and the hints and undos used on the
// game-end screen. Plugged into the table core through its extension hook; the server's
// messages are described in cardplaza.web.learning.handlers.
import { registerExtension } from "../table.js";
import { h } from "../dom.js";
import { t, lang, engineText } from "../i18n.js";

/** What this page knows per table: the last hint and helper answers, what is asked. */
let S = fresh(null);

function fresh(table) {
  return { table, hint: null, hintAsked: -1, helper: null, helperAsked: -1, undoing: false, autoStep: -1 };
}

function stateOf(ctx) {
  if (S.table !== ctx.view.tableId) S = fresh(ctx.view.tableId);
  return S;
}

function redraw(ctx) {
  import("../table.js").then((m) => { const cur = m.currentTable(); if (cur) cur.redraw(); });
  return ctx;
}

function send(ctx, msg) {
  return ctx.view.conn && ctx.view.conn.send(msg);
}

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A streak game (its saved score must stay honest: no hints, helpers or undo). */
export function isStreak(ctx) {
  return Boolean(ctx.msg.streak);
}

/** Hints and the helper turned off by the host of a game with friends. */
export function hintsOff(ctx) {
  return Boolean(ctx.msg.room && ctx.msg.room.hints === false);
}

/** Whether the decision helper has something to say at this point of the game. */
export function helperApplies(ctx) {
  const o = ctx.obs;
  if (ctx.msg.terminal) return false;
  if (ctx.game === "pinochle4" || ctx.game === "pinochle3" || ctx.game === "pinochle_dd") return o.phase === "bidding";
  if (ctx.game === "piquet") return ctx.myTurn && String(o.phase || "").startsWith("exchange");
  if (ctx.game === "pinochle2") return ctx.myTurn && o.step === "meld";
  return false;
}

function pct(x) {
  if (x === null || x === undefined) return "–";
  const v = Math.round(x * 100);
  return v < 1 && x > 0 ? "<1%" : `${v}%`;
}

function value(unit, v) {
  if (v === null || v === undefined) return "–";
  if (unit === "chance") return pct(v);
  const s = (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(1);
  return t("learn.points", { v: s });
}

/** A choice against the best one: "0" for the best, "−3.5" for 3.5 points less (points of
 * chance for a bid). */
export function gap(unit, v, best) {
  if (v === null || v === undefined || best === null || best === undefined) return "–";
  const d = v - best;
  const size = unit === "chance" ? Math.round(Math.abs(d) * 100) : Math.round(Math.abs(d) * 10) / 10;
  if (size === 0) return "0";
  return `${d < 0 ? "−" : "+"}${size}`;
}

/** The catalog key of the sentence that says what a hint's numbers measure. */
function meaningKey(unit, exact) {
  if (unit === "chance") return "analysis.chance.meaning";
  return exact ? "analysis.points.meaning.exact" : "analysis.points.meaning";
}

// -- the buttons ----------------------------------------------------------------------------
function buttons(ctx, st) {
  const streak = isStreak(ctx);
  const noHints = streak || hintsOff(ctx);
  const off = streak ? t("learn.off.streak") : (noHints ? t("room.hints.off") : null);
  const hintBusy = st.hintAsked === ctx.msg.step && !st.hint;
  const hint = h("button", {
    type: "button", class: "btn small learn-btn", id: "hint-btn",
    disabled: noHints || !ctx.myTurn || hintBusy,
    title: off || (ctx.myTurn ? t("learn.hint.aria") : t("learn.hint.wait")),
    "aria-label": off ? `${t("learn.hint")}: ${off}` : t("learn.hint.aria"),
    onclick: () => {
      st.hint = null;
      st.hintAsked = ctx.msg.step;
      send(ctx, { type: "hint" });
      redraw(ctx);
    },
  }, hintBusy ? t("learn.hint.busy") : t("learn.hint"));
  const undo = h("button", {
    type: "button", class: "btn small learn-btn", id: "undo-btn",
    disabled: streak || st.undoing || ctx.msg.step === 0,
    title: off || t("learn.undo.aria"),
    "aria-label": off ? `${t("learn.undo")}: ${off}` : t("learn.undo.aria"),
    onclick: () => {
      st.undoing = true;
      st.hint = null;
      send(ctx, { type: "undo" });
      redraw(ctx);
    },
  }, `↶ ${t("learn.undo")}`);
  const row = [hint, undo];
  if (helperApplies(ctx)) {
    row.push(h("button", {
      type: "button", class: "btn small learn-btn", id: "helper-btn", disabled: noHints,
      title: off || t("learn.helper.aria"),
      "aria-label": off ? `${t("learn.helper")}: ${off}` : t("learn.helper.aria"),
      onclick: () => openDrawer(ctx, true),
    }, `% ${t("learn.helper")}`));
  }
  const box = h("div", { class: "learn-row", role: "group", "aria-label": t("learn.hint") }, ...row);
  if (off) box.appendChild(h("span", { class: "learn-off" }, off));
  return box;
}

// -- the hint -------------------------------------------------------------------------------
/** The legal entry the hint names (its card or cards are highlighted in the hand). */
function hintEntry(ctx, hint) {
  return (ctx.legal || []).find((a) => sameJson(a.json, hint.best)) || null;
}

function currentHint(ctx, st) {
  const hint = st.hint;
  return hint && hint.step === ctx.msg.step && ctx.myTurn ? hint : null;
}

/** In the dock: the suggestion, its figure and reason (the choices are in the drawer). */
function hintSummary(ctx, st) {
  const hint = currentHint(ctx, st);
  if (!hint) return null;
  const entry = hintEntry(ctx, hint);
  const cards = entry ? (entry.cards || (entry.card !== null && entry.card !== undefined ? [entry.card] : [])) : [];
  const best = (hint.choices || [])[0];
  const reason = hint.reason ? (hint.reason[lang()] || hint.reason.en) : "";
  // The hand is drawn after the dock: mark the suggested cards once it is on screen.
  queueMicrotask(() => markHand(ctx, cards));
  return h("section", { class: "learn-hint", "aria-label": t("learn.hint.title"), "data-step": String(hint.step) },
    h("div", { class: "lh-head" },
      h("span", { class: "lh-title" }, t("learn.hint.short")),
      h("strong", { class: "lh-best" }, engineText(hint.best_text || "")),
      best ? h("span", { class: "lh-value" }, value(hint.unit, best.value)) : null,
      h("button", { type: "button", class: "btn ghost small lh-more", onclick: () => openDrawer(ctx, true) },
        t("learn.hint.more")),
      h("button", { type: "button", class: "btn ghost small lh-close", "aria-label": t("learn.hint.close"),
                    onclick: () => { st.hint = null; redraw(ctx); } }, "×")),
    reason ? h("p", { class: "lh-reason" }, reason) : null);
}

/** In the drawer: the reason and every choice the computer weighed. */
function hintDetail(ctx, st) {
  const hint = currentHint(ctx, st);
  if (!hint) return null;
  const reason = hint.reason ? (hint.reason[lang()] || hint.reason.en) : "";
  const anyShare = (hint.choices || []).some((c) => c.share !== undefined && c.share !== null);
  const unit = hint.unit === "chance" ? "chance" : "points";
  const top = (hint.choices || [])[0];
  const rows = (hint.choices || []).map((c, i) => h("tr", { class: i === 0 ? "best" : null },
    h("td", { class: "lh-text" }, engineText(c.text)),
    h("td", { class: "num" }, value(hint.unit, c.value)),
    h("td", { class: "num lh-gap" }, gap(hint.unit, c.value, top ? top.value : null)),
    anyShare ? h("td", { class: "num" }, c.share === undefined || c.share === null ? "–" : pct(c.share)) : null));
  return h("section", { class: "learn-detail lh-detail" },
    h("h4", {}, `${t("learn.hint.title")}: ${engineText(hint.best_text || "")}`),
    reason ? h("p", { class: "lh-reason" }, reason) : null,
    h("table", { class: "lh-choices" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("learn.hint.choice")),
        h("th", { scope: "col", class: "num" }, t(`learn.hint.value.${unit}`)),
        h("th", { scope: "col", class: "num" }, t("analysis.col.gap.head")),
        anyShare ? h("th", { scope: "col", class: "num" }, t("learn.hint.share")) : null)),
      h("tbody", {}, ...rows)),
    h("p", { class: "lh-note lh-meaning" }, t(meaningKey(hint.unit, hint.exact), { n: hint.worlds })));
}

/** Show the advice drawer (on a phone only when asked: it covers part of the table). */
function openDrawer(ctx, asked) {
  const view = ctx.view;
  const wide = window.matchMedia("(min-width: 1000px)").matches;
  if (!wide && !asked) return;
  view.drawer = "advice";
  if (asked) view.sheetOpen = true;
  redraw(ctx);
}

function markHand(ctx, cards) {
  const root = ctx.view.root;
  if (!root) return;
  for (const id of cards) {
    const el = root.querySelector(`.hand .card[data-id="${id}"]`);
    if (!el || el.classList.contains("hinted")) continue;
    el.classList.add("hinted");
    el.appendChild(h("span", { class: "hint-tag" }, t("learn.hint.tag")));
  }
  for (const btn of root.querySelectorAll(".dock .btn.action")) btn.classList.remove("hinted");
}

// -- the helper -----------------------------------------------------------------------------
function helperPanel(ctx, st) {
  if (isStreak(ctx) || hintsOff(ctx) || !helperApplies(ctx)) return null;
  const step = ctx.msg.step;
  // Asked at the seat's own turn (between turns the last answer stays, dimmed).
  if (ctx.myTurn && st.helperAsked !== step) {
    st.helperAsked = step;
    send(ctx, { type: "helper" });
  }
  const old = st.helper && st.helper.step !== step && !ctx.myTurn ? st.helper : null;
  const got = st.helper && st.helper.step === step ? st.helper : old;
  if (!got && !ctx.myTurn) return null;
  const box = h("section", { class: "learn-detail learn-helper" + (old ? " stale" : ""), "aria-label": t("learn.helper.aria"),
                             "aria-busy": got ? "false" : "true" });
  if (!got) {
    box.appendChild(h("p", { class: "lh-note" }, t("learn.helper.busy")));
    return box;
  }
  const tab = got.table;
  if (!tab) box.appendChild(h("p", { class: "lh-note" }, t("learn.helper.none")));
  else if (tab.kind === "bids") box.appendChild(bidTable(ctx, tab));
  else if (tab.kind === "exchange") box.appendChild(rowsTable(tab, "exchange"));
  else if (tab.kind === "meld") box.appendChild(rowsTable(tab, "melds"));
  return box;
}

function heat(x) {
  // Green for a likely make, through amber, to red.
  const hue = Math.round(Math.max(0, Math.min(1, x)) * 120);
  return `hsl(${hue} 55% 36%)`;
}

function bidTable(ctx, tab) {
  const suits = tab.suits || [];
  const three = tab.players === 3;
  const head = h("tr", {}, h("th", { scope: "col" }, t("learn.helper.bid")),
    ...suits.map((s) => h("th", { scope: "col", class: `num suit-${s.suit}` + (s.suit === tab.best_suit ? " best" : "") }, s.symbol)));
  const line = (key, pick) => h("tr", { class: "lb-sum" }, h("th", { scope: "row" }, t(key)),
    ...suits.map((s) => h("td", { class: "num" }, pick(s) === undefined ? "–" : String(Math.round(pick(s))))));
  const rows = (tab.amounts || []).map((amount, i) => h("tr", { "data-amount": String(amount) },
    h("th", { scope: "row" }, String(amount)),
    ...suits.map((s) => {
      const x = s.chances[i];
      const td = h("td", { class: "num chance", "data-suit": String(s.suit), "data-chance": String(x) }, pct(x));
      td.style.background = heat(x);  // through the CSSOM: the page allows no style attributes
      return td;
    })));
  const limitLine = tab.limit >= tab.min_bid
    ? t("learn.helper.limit", { v: tab.limit, suit: (suits.find((s) => s.suit === tab.best_suit) || {}).symbol || "" })
    : t("learn.helper.pass");
  // Double-deck: what partner's meld bid showed (the deals fit it), and its own note.
  const partnerLine = tab.partner_signal === undefined ? null
    : h("p", { class: "lh-note lh-partner" }, tab.partner_signal
      ? t("dd.partner_shown", { meld: tab.partner_signal }) : t("dd.partner_none"));
  const note = tab.note_key ? t(tab.note_key, { n: tab.worlds })
    : t(three ? "learn.helper.bids.note3" : "learn.helper.bids.note", { n: tab.worlds });
  return h("div", { class: "lb" },
    h("h3", { class: "lh-title" }, t("learn.helper.bids")),
    partnerLine,
    h("div", { class: "lb-scroll" },
      h("table", { class: "lb-table" },
        h("thead", {}, head,
          // In four-hand the simulation passes cards: the row is the meld after the pass,
          // which is not the meld held now (the felt's "meld if trump is" line).
          line(ctx.game === "pinochle4" && (ctx.obs.options || {}).passing > 0
            ? "learn.helper.meld_passed" : "learn.helper.meld", (s) => s.meld),
          three ? line("learn.helper.widow", (s) => s.widow_meld) : line("learn.helper.partner", (s) => s.partner_meld),
          line("learn.helper.tricks", (s) => s.tricks)),
        h("tbody", {}, ...rows))),
    h("p", { class: "lh-note" }, limitLine + " " + note));
}

function rowsTable(tab, kind) {
  const ja = lang() === "ja";
  const anyShare = (tab.rows || []).some((r) => r.share !== null && r.share !== undefined);
  const text = (r) => {
    if (kind === "melds") return r.meld === null ? t("learn.helper.nomeld") : (ja && r.text_ja) || r.text;
    return r.text;
  };
  const rows = (tab.rows || []).slice(0, 6).map((r, i) => h("tr", { class: i === 0 ? "best" : null },
    h("td", { class: "lh-text" }, text(r) + (kind === "melds" && r.points ? ` (${r.points})` : "")),
    h("td", { class: "num" }, value("points", r.value)),
    anyShare ? h("td", { class: "num" }, r.share === null || r.share === undefined ? "–" : pct(r.share)) : null));
  return h("div", { class: "lb" },
    h("h3", { class: "lh-title" }, t(`learn.helper.${kind}`)),
    h("table", { class: "lh-choices" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, kind === "melds" ? t("learn.hint.choice") : t("learn.helper.discard")),
        h("th", { scope: "col", class: "num" }, t("learn.hint.value.points")),
        anyShare ? h("th", { scope: "col", class: "num" }, t("learn.hint.share")) : null)),
      h("tbody", {}, ...rows)),
    h("p", { class: "lh-note" }, t(`learn.helper.${kind}.note`, { n: tab.worlds })),
    h("p", { class: "lh-note lh-meaning" }, t("analysis.helper.points.meaning", { n: tab.worlds })));
}

// -- the extension --------------------------------------------------------------------------
export const learnExtension = {
  panel(ctx) {
    if (ctx.board || ctx.msg.terminal) return null;
    const st = stateOf(ctx);
    // On a wide screen the odds show by themselves at the first turn of an auction (the
    // other helpers, and any on a phone, when asked: they keep the computers' workers busy).
    if (helperApplies(ctx) && ctx.myTurn && !isStreak(ctx) && !hintsOff(ctx) && ctx.obs.phase === "bidding" && st.autoStep < 0) {
      queueMicrotask(() => openDrawer(ctx, false));
      st.autoStep = ctx.msg.step;
    }
    return h("div", { class: "learn" }, buttons(ctx, st), hintSummary(ctx, st));
  },
  drawers(ctx) {
    if (ctx.board || ctx.msg.terminal || isStreak(ctx)) return [];
    const st = stateOf(ctx);
    const hint = currentHint(ctx, st);
    const helper = helperApplies(ctx) && !isStreak(ctx);
    const key = `${hint ? hint.step : -1}|${st.helper ? st.helper.step : -1}|${helper}|${st.helperAsked}`;
    return [{
      id: "advice", title: t("learn.advice"), key,
      body: () => {
        const parts = [helperPanel(ctx, st), hintDetail(ctx, st)].filter(Boolean);
        if (!parts.length) parts.push(h("p", { class: "lh-note learn-empty" }, t("learn.advice.empty")));
        return h("div", { class: "learn-drawer" }, ...parts);
      },
    }];
  },
  end(ctx) {
    if (ctx.board || isStreak(ctx)) return [];
    const used = ctx.msg.helps || {};
    const out = [h("p", { class: "learn-used", id: "learn-used" },
      t("learn.used", { h: used.hint || 0, u: used.undo || 0 }))];
    if (used.helper) out.push(h("p", { class: "learn-used" }, t("learn.used.helper", { n: used.helper })));
    return out;
  },
  message(msg, ctx) {
    if (!ctx) return;
    const st = stateOf(ctx);
    if (msg.type === "hint") {
      st.hint = msg;
      openDrawer(ctx, false);
      redraw(ctx);
    } else if (msg.type === "helper") {
      st.helper = msg;
      redraw(ctx);
    } else if (msg.type === "undone" || msg.type === "undo_ended") {
      st.undoing = false;
      st.hint = null;
      redraw(ctx);
    } else if (msg.type === "error") {
      // A refused request frees its button again (the table shows the error).
      st.undoing = false;
      if (st.hintAsked === ctx.msg.step && !st.hint) st.hintAsked = -1;
      redraw(ctx);
    }
  },
};

registerExtension(learnExtension);
