// The hand's history at the table, in every game: the auction (every bid and pass), the
// cards passed, the widow and the exchange where the game has them, the declarations, and
// every trick with its leader and winner. Drawn from the observation the seat already has.
import { h } from "../dom.js";
import { t, meldText } from "../i18n.js";
import { trickHistory } from "../table.js";
import { say } from "../games/piquet.js";
import { SUITS } from "../games/common.js";
import * as generic from "../games/generic.js";

function section(title, ...body) {
  const items = body.filter(Boolean);
  return items.length ? h("section", { class: "hist-part" }, h("h4", {}, title), ...items) : null;
}

function line(who, what, cls = "") {
  return h("li", { class: cls }, h("span", { class: "who" }, who), h("span", { class: "what" }, what));
}

/** Four-hand and cut-throat: the bids in order, the contract, passes and the widow. */
function auction(ctx) {
  const o = ctx.obs;
  const out = [];
  if (o.bids && o.bids.length) {
    out.push(section(t("hist.auction"),
      h("ol", { class: "bid-history hist-bids" }, o.bids.map(([s, a]) => line(ctx.seatName(s),
        a === 0 ? t("p4.pass") : String(a), a === 0 ? "passed" : ""))),
      o.contract ? h("p", { class: "hist-contract" }, t("hist.contract", { name: ctx.seatName(o.bidder), n: o.contract,
        trump: o.trump !== null && o.trump !== undefined ? SUITS[o.trump] : "…" })) : null));
  }
  const p = o.passing;
  if (p && ((p.gave && p.gave.length) || (p.received && p.received.length))) {
    out.push(section(t("hist.passing"),
      p.gave && p.gave.length ? h("div", { class: "hist-cards" }, h("span", {}, t("hist.gave")), ctx.cardRow(p.gave)) : null,
      p.received && p.received.length ? h("div", { class: "hist-cards" }, h("span", {}, t("hist.received")), ctx.cardRow(p.received)) : null));
  }
  if (o.widow && o.widow.length) {
    out.push(section(t("p4.widow"), ctx.cardRow(o.widow),
      o.discards && o.discards.length ? h("div", { class: "hist-cards" }, h("span", {}, t("hist.buried")), ctx.cardRow(o.discards)) : null));
  }
  return out;
}

/** Piquet: how many cards each took from the talon, your own exchange, what was declared. */
function piquetPart(ctx) {
  const o = ctx.obs;
  const out = [];
  const ex = o.exchanged || {};
  if (ex.elder !== undefined || ex.younger !== undefined) {
    out.push(section(t("hist.exchange"),
      h("ul", { class: "hist-lines" },
        ex.elder !== undefined && ex.elder !== null ? line(ctx.seatName(o.elder), t("hist.took", { n: ex.elder })) : null,
        ex.younger !== undefined && ex.younger !== null ? line(ctx.seatName(1 - o.elder), t("hist.took", { n: ex.younger })) : null),
      o.discards && o.discards.length ? h("div", { class: "hist-cards" }, h("span", {}, t("hist.discarded")), ctx.cardRow(o.discards)) : null,
      o.drawn && o.drawn.length ? h("div", { class: "hist-cards" }, h("span", {}, t("hist.drew")), ctx.cardRow(o.drawn)) : null));
  }
  if (o.dialogue && o.dialogue.length) {
    out.push(section(t("hist.declared"),
      h("ol", { class: "hist-lines" }, o.dialogue.map((d) => line(ctx.seatName(d.seat), say(d.text))))));
  }
  return out;
}

/** Two-hand Pinochle: the melds made after the tricks, in order. */
function meldsPart(ctx) {
  const melds = ctx.obs.melds || [];
  if (!melds.length) return [];
  return [section(t("table.melds"), h("ol", { class: "hist-lines" }, melds.map((m) => h("li", {},
    h("span", { class: "who" }, ctx.seatName(m.seat)),
    h("span", { class: "what" }, `${meldText(m.meld)} +${m.points}`),
    h("span", { class: "muted small" }, t("hist.aftertrick", { n: m.trick })),
    ctx.cardRow(m.cards)))))];
}

function completedOf(ctx) {
  return (ctx.view.adapter.completed ?? generic.completed)(ctx);
}

const PARTS = { pinochle4: auction, pinochle3: auction, pinochle_dd: auction, piquet: piquetPart, pinochle2: meldsPart };

const foot = [];

/** Add something under the history (``extra(ctx) → Element | null``). */
export function addHistoryFoot(extra) {
  foot.push(extra);
}

/** The history drawer's content. */
export function historyEl(ctx) {
  const tricks = completedOf(ctx);
  const own = PARTS[ctx.game] ? PARTS[ctx.game](ctx) : [];
  const box = h("div", { class: "history" }, ...own.filter(Boolean));
  box.appendChild(section(t("hist.tricks"),
    tricks.length ? trickHistory(ctx, tricks) : h("p", { class: "muted" }, t("hist.notricks"))));
  for (const extra of foot) {
    const el = extra(ctx);
    if (el) box.appendChild(h("div", { class: "hist-foot" }, el));
  }
  return box;
}

/** The drawer, in place of the table's list of tricks. */
export const historyExtension = {
  drawers(ctx) {
    return [{ id: "tricks", title: t("hist.title"), tab: t("hist.tab"),
              body: () => historyEl(ctx) }];
  },
};
