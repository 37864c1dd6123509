// Four-hand partnership Pinochle and three-hand cut-throat: bidding panel with the
// meld-per-suit helper, trump choice, passing, melds with breakdowns, tricks, hand results.
import { h } from "../app.js";
import { t, engineText } from "../i18n.js";
import { cardRow, trickEl, seatsEl } from "./generic.js";
import { trumpChip } from "./pinochle2.js";

const SUITS = ["♠", "♥", "♦", "♣"];

function sideName(ctx, side) {
  const o = ctx.obs;
  if (o.players === 3) return ctx.seatName(side);
  return side === ctx.seat % 2 ? t("p4.us") : t("p4.them");
}

function bidText(ctx, amount) {
  return amount === 0 ? t("p4.pass") : String(amount);
}

function biddingPanel(ctx) {
  const o = ctx.obs;
  const helper = ctx.msg.extra && ctx.msg.extra.meld_by_suit;
  const box = h("div", { class: "area bidding", role: "group", "aria-label": t("p4.bidding") },
    h("h3", {}, t("p4.bidding")));
  if (helper) {
    box.appendChild(h("p", { class: "helper" }, `${t("p4.helper")}: `,
      ...SUITS.map((s, i) => h("span", { class: "helper-suit" + (i === 1 || i === 2 ? " red" : "") }, `${s} ${helper[i]}`))));
  }
  box.appendChild(h("p", {}, `${t("p4.highbid")}: ${o.high_bid === null ? "—" : `${o.high_bid} (${ctx.seatName(o.high_bidder)})`} · ${t("p4.minbid")} ${o.min_bid}`));
  if (o.bids.length) {
    box.appendChild(h("ol", { class: "bid-list" }, o.bids.map(([s, a]) => h("li", {}, `${ctx.seatName(s)}: ${bidText(ctx, a)}`))));
  }
  if (ctx.myTurn) {
    // The engine lists only the lowest bid; jump bids are any higher multiple of the step.
    const lowest = ctx.legal.find((a) => a.json && a.json.kind === "bid");
    const bids = [];
    if (lowest) {
      for (let k = 0; k <= 40; k++) {
        const amount = lowest.json.amount + k * o.bid_step;
        bids.push(k === 0 ? lowest : { json: { kind: "bid", amount }, text: `bid ${amount}` });
      }
    }
    const pass = ctx.legal.find((a) => a.json && a.json.kind === "pass");
    const row = h("div", { class: "form-actions" });
    if (bids.length) {
      const sel = h("select", { id: "bid-amount", class: "action-select", "aria-label": t("p4.amount") },
        bids.map((a, i) => h("option", { value: String(i) }, String(a.json.amount))));
      const bidBtn = h("button", { type: "button", class: "btn primary", id: "bid-btn" }, t("p4.bid"));
      bidBtn.addEventListener("click", () => ctx.act(bids[Number(sel.value)]));
      row.append(h("label", { for: "bid-amount" }, t("p4.amount")), sel, bidBtn);
    }
    if (pass) {
      const b = h("button", { type: "button", class: "btn action", id: "pass-btn" }, t("p4.pass"));
      b.addEventListener("click", () => ctx.act(pass));
      row.appendChild(b);
    }
    box.appendChild(row);
  }
  return box;
}

function trumpPanel(ctx) {
  const helper = ctx.msg.extra && ctx.msg.extra.meld_by_suit;
  const box = h("div", { class: "area bidding", role: "group", "aria-label": t("p4.choosetrump") },
    h("h3", {}, t("p4.choosetrump")));
  if (ctx.obs.stuck_dealer) box.appendChild(h("p", {}, t("p4.stuck", { bid: ctx.obs.contract })));
  const row = h("div", { class: "form-actions" });
  for (const a of ctx.legal.filter((x) => x.json && x.json.kind === "trump")) {
    const s = a.json.suit;
    const label = `${SUITS[s]}${helper ? ` (${t("p4.meld")} ${helper[s]})` : ""}`;
    const b = h("button", { type: "button", class: "btn action trump-btn" + (s === 1 || s === 2 ? " red" : "") }, label);
    b.addEventListener("click", () => ctx.act(a));
    row.appendChild(b);
  }
  box.appendChild(row);
  return box;
}

function meldsPanel(ctx, melds, title) {
  const box = h("details", { class: "area melds", open: true }, h("summary", {}, title));
  const list = h("ul", { class: "meld-list" });
  melds.forEach((m, seat) => {
    if (!m) return;
    list.appendChild(h("li", {}, h("strong", {}, ctx.seatName(seat)), h("span", { class: "pts" }, String(m.value)),
      m.melds.length ? m.melds.map((x) => h("span", { class: "meld-item" }, `${x.name} ${x.value}`))
        : h("span", { class: "muted" }, "—"),
      m.cards.length ? cardRow(ctx, m.cards) : null));
  });
  box.appendChild(list);
  return box;
}

function lastHandPanel(ctx, lh) {
  const o = ctx.obs;
  const sides = o.players === 3 ? [0, 1, 2] : [0, 1];
  const res = lh.throw_in ? t("p4.throwin") : lh.made ? t("p4.made") : t("p4.set");
  return h("details", { class: "area last-hand" },
    h("summary", {}, `${t("p4.lasthand")} — ${ctx.seatName(lh.bidder)} ${lh.bid} ${lh.trump !== null && lh.trump !== undefined ? SUITS[lh.trump] : ""} · ${res}`),
    h("div", { class: "table-wrap" }, h("table", { class: "result" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), ...sides.map((s) => h("th", { scope: "col" }, sideName(ctx, s))))),
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, t("table.melds")), ...sides.map((s) => h("td", {}, String((lh.side_melds || lh.melds)[s] ?? "")))),
        lh.trick_points ? h("tr", {}, h("th", { scope: "row" }, t("p4.trickpts")), ...sides.map((s) => h("td", {}, String(lh.trick_points[s])))) : null,
        h("tr", {}, h("th", { scope: "row" }, t("p4.change")), ...sides.map((s) => h("td", {}, String(lh.score_change[s])))),
        h("tr", {}, h("th", { scope: "row" }, t("table.scores")), ...sides.map((s) => h("td", {}, String(lh.scores[s]))))))),
    lh.meld_details ? meldsPanel(ctx, lh.meld_details, t("table.melds")) : null);
}

export function render(ctx) {
  const o = ctx.obs;
  const chips = h("div", { class: "chips" });
  if (o.trump !== null && o.trump !== undefined) chips.appendChild(trumpChip(SUITS[o.trump]));
  chips.appendChild(h("span", { class: "chip" }, `${t("table.scores")}: ` +
    o.scores.map((v, i) => `${sideName(ctx, i)} ${v}`).join(" · ") + ` / ${o.target}`));
  if (o.contract !== null && o.contract !== undefined) {
    chips.appendChild(h("span", { class: "chip" }, `${t("p4.contract")}: ${ctx.seatName(o.bidder)} ${o.contract}`));
  }
  chips.appendChild(h("span", { class: "chip" }, `${t("p4.handno", { n: o.hand_number })} · ${t("p4.phase." + o.phase)}`));
  const extra = (s) => {
    const parts = [];
    if (o.phase === "bidding" && o.passed[s]) parts.push(h("span", { class: "sub" }, t("p4.passed")));
    if (o.players === 4 && s === (ctx.seat + 2) % 4) parts.push(h("span", { class: "sub" }, t("p4.partner")));
    if (o.dealer === s) parts.push(h("span", { class: "sub" }, t("p4.dealer")));
    if (o.phase === "play") parts.push(h("span", { class: "sub" }, t("p4.tricks", { n: o.tricks_won[s] })));
    return h("div", { class: "subs" }, ...parts);
  };
  const board = h("div", { class: "board" }, chips, seatsEl(ctx, o.hand_sizes, extra));
  if (o.phase === "bidding") board.appendChild(biddingPanel(ctx));
  if (o.phase === "trump" && ctx.myTurn) board.appendChild(trumpPanel(ctx));
  if (o.phase === "passing" && o.passing) {
    const p = o.passing;
    board.appendChild(h("div", { class: "area" }, h("h3", {}, t("p4.passing", { n: p.count })),
      p.giver !== null ? h("p", {}, t("p4.giver", { name: ctx.seatName(p.giver) })) : null,
      p.selected && p.selected.length ? h("div", {}, h("p", {}, t("p4.selected")), cardRow(ctx, p.selected)) : null,
      p.received && p.received.length ? h("div", {}, h("p", {}, t("p4.received")), cardRow(ctx, p.received)) : null));
    if (ctx.myTurn) ctx.actionsTitle = t("p4.give");
  }
  if (o.widow && o.widow.length) board.appendChild(h("div", { class: "area" }, h("h3", {}, t("p4.widow")), cardRow(ctx, o.widow)));
  if (o.discards && o.discards.length) board.appendChild(h("div", { class: "area" }, h("h3", {}, t("p4.discards")), cardRow(ctx, o.discards)));
  if (o.phase === "discard" && ctx.myTurn) ctx.actionsTitle = t("p4.discard");
  if (o.phase === "play" || o.phase === "over") {
    const center = h("div", { class: "center" }, trickEl(ctx, o.trick, { label: t("table.trick") }));
    const last = o.tricks.length ? o.tricks[o.tricks.length - 1] : null;
    if (last) {
      const n = o.players;
      const plays = last.cards.map((c, i) => (Array.isArray(c) ? c : [(last.leader + i) % n, c]));
      center.appendChild(h("div", { class: "last" }, h("h3", {}, t("table.last")),
        trickEl(ctx, plays, { small: true, winner: last.winner, label: t("table.last") })));
    }
    board.appendChild(center);
  }
  if (o.melds) board.appendChild(meldsPanel(ctx, o.melds, t("table.melds")));
  if (o.last_hand) board.appendChild(lastHandPanel(ctx, o.last_hand));
  ctx.skipActions = (a) => a.json && ["bid", "pass", "trump"].includes(a.json.kind) && (o.phase === "bidding" || o.phase === "trump");
  ctx.actionLabel = (a) => engineText(a.text);
  return board;
}

/** The score sheet so far, folded under the table. */
export function details(ctx) {
  const sheet = summary(ctx);
  return sheet && { title: t("p4.sheet"), body: sheet };
}

export function summary(ctx) {
  const o = ctx.obs;
  if (!o.history || !o.history.length) return null;
  const sides = o.players === 3 ? [0, 1, 2] : [0, 1];
  return h("div", { class: "summary table-wrap" }, h("table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("p4.contract")),
      ...sides.map((s) => h("th", { scope: "col" }, sideName(ctx, s))))),
    h("tbody", {}, o.history.map((x) => h("tr", {}, h("td", {}, String(x.hand)),
      h("td", {}, x.bidder === null || x.bidder === undefined ? "—" : `${ctx.seatName(x.bidder)} ${x.bid}`),
      ...sides.map((s) => h("td", {}, String(x.scores[s]))))))));
}
