// Four-hand partnership Pinochle and three-hand cut-throat: seats by compass point (your
// partner opposite), bids kept beside each seat, the bidding panel with the meld-per-suit
// helper, trump, passing and the cut-throat discard chosen then confirmed, the widow, melds
// shown before the first trick, hand summaries and the score sheet.
import { h } from "../dom.js";
import { t, meldText } from "../i18n.js";
import { lineChart } from "../chart.js";
import { suitChip, SUITS, isRed } from "./common.js";

const DIRS4 = ["", "dir.w", "dir.n", "dir.e"];
const DIRS3 = ["", "dir.w", "dir.e"];

export function seatName(ctx, s) {
  const dirs = ctx.n === 4 ? DIRS4 : DIRS3;
  const k = ctx.rel(s);
  return k ? t(dirs[k]) : null;
}

function sideName(ctx, side) {
  if (ctx.n === 3) return ctx.seatName(side);
  return side === ctx.seat % 2 ? t("p4.us") : t("p4.them");
}

export function team(ctx, s) {
  return ctx.n === 4 ? s % 2 : s;
}

function lastBid(o, s) {
  let out = null;
  for (const [seat, amount] of o.bids || []) if (seat === s) out = amount;
  return out;
}

/** Melds lie on the table from the end of the bidding until the first card is led. */
function meldShow(o) {
  return o.phase === "play" && o.melds && !(o.tricks || []).length && !(o.trick || []).length;
}

export function seatInfo(ctx, s) {
  const o = ctx.obs;
  const badges = [];
  const roles = [];
  if (o.dealer === s) badges.push({ text: t("badge.dealer"), cls: "dealer", title: t("role.dealer") });
  if (ctx.n === 4 && s === (ctx.seat + 2) % 4) badges.push({ text: t("role.partner"), cls: "partner" });
  if (o.bidder === s && o.contract) badges.push({ text: t("badge.bidder", { n: o.contract }), cls: "bidder", title: t("role.bidder") });
  const playing = o.phase === "play" || o.phase === "over";
  if (o.melds && o.melds[s] && playing) roles.push(t("seat.meld", { n: o.melds[s].value }));
  const stat = playing ? t("seat.tricks", { n: o.tricks_won[s] }) : null;
  // Each seat's bid shows beside it while the bidding lasts, then in its line.
  const b = lastBid(o, s);
  let bid = null;
  let bidCls = "";
  if (b !== null && o.phase === "bidding") {
    bid = b === 0 ? t("p4.pass") : String(b);
    bidCls = b === 0 ? "passed" : (o.high_bidder === s ? "high" : "");
  } else if (o.bidder !== s && highestBid(o, s)) roles.push(t("p4.bidword", { n: highestBid(o, s) }));
  let extra = null;
  if (meldShow(o) && s !== ctx.seat && o.melds[s].cards.length) {
    extra = ctx.cardRow(o.melds[s].cards, { cls: "tight", reveal: `m${o.hand_number}:${s}` });
  }
  return { count: o.hand_sizes[s], badges, roles, stat, bid, bidCls, extra };
}

function highestBid(o, s) {
  let best = 0;
  for (const [seat, amount] of o.bids || []) if (seat === s && amount > best) best = amount;
  return best;
}

export function chips(ctx) {
  const o = ctx.obs;
  const out = [];
  if (o.trump !== null && o.trump !== undefined) out.push(suitChip(o.trump, t("table.trump")));
  if (o.contract) {
    out.push(h("span", { class: "chip contract", title: t("role.bidder") },
      t("p4.contractchip", { name: ctx.seatName(o.bidder), n: o.contract })));
  }
  const sides = ctx.n === 3 ? [0, 1, 2] : [0, 1];
  out.push(h("span", { class: "chip score", title: t("p4.target", { n: o.target }) },
    sides.map((s) => `${sideName(ctx, s)} ${o.scores[s]}`).join(" · ")));
  return out;
}

export function trick(ctx) {
  return ctx.obs.trick || [];
}

export function showTrick(ctx) {
  return ctx.obs.phase === "play" || ctx.obs.phase === "over";
}

export function completed(ctx) {
  return (ctx.obs.tricks || []).map((tr) => ({ plays: tr.cards, winner: tr.winner }));
}

export function finalTrick(ctx) {
  const lh = ctx.obs.last_hand;
  if (!lh || !lh.last_trick) return null;
  return { plays: lh.last_trick, winner: lh.last_trick_winner ?? null };
}

export function handKey(obs) {
  return obs.hand_number;
}

function meldBoard(ctx) {
  const o = ctx.obs;
  const sides = ctx.n === 3 ? [0, 1, 2] : [0, 1];
  const total = (side) => o.melds.reduce((sum, m, s) => sum + (team(ctx, s) === side ? m.value : 0), 0);
  return h("div", { class: "stage-panel meld-board" }, h("h3", {}, t("p4.meldshown")),
    h("p", { class: "big" }, sides.map((side) => `${sideName(ctx, side)} ${total(side)}`).join(" · ")));
}

export function stage(ctx) {
  const o = ctx.obs;
  if (o.phase === "bidding") {
    return h("div", { class: "stage-panel bidding-info" },
      h("p", { class: "big" }, o.high_bid === null ? t("p4.nobid", { n: o.min_bid })
        : t("p4.highbidby", { n: o.high_bid, name: ctx.seatName(o.high_bidder) })));
  }
  const parts = [];
  if (o.widow && o.widow.length && o.phase !== "play" && o.phase !== "over") {
    parts.push(h("div", { class: "widow" }, h("h3", {}, t("p4.widow")),
      ctx.cardRow(o.widow, { reveal: `w${o.hand_number}`, label: t("p4.widow") })));
  }
  if (o.phase === "trump" && !ctx.myTurn) parts.push(h("p", { class: "big" }, t("p4.naming", { name: ctx.seatName(o.bidder) })));
  if (o.phase === "trump" && o.stuck_dealer) parts.push(h("p", {}, ctx.myTurn ? t("p4.stuck", { bid: o.contract }) : t("p4.stuckother", { name: ctx.seatName(o.bidder), bid: o.contract })));
  if (o.phase === "passing" && o.passing) {
    const p = o.passing;
    if (p.giver !== null && p.giver !== ctx.seat) parts.push(h("p", { class: "big" }, t("p4.giver", { name: ctx.seatName(p.giver), n: p.count })));
    if (p.received && p.received.length) parts.push(h("div", {}, h("h3", {}, t("p4.received")), ctx.cardRow(p.received)));
  }
  if (o.phase === "discard" && !ctx.myTurn) parts.push(h("p", { class: "big" }, t("p4.burying", { name: ctx.seatName(o.bidder), n: 3 })));
  if (o.phase === "discard" && ctx.myTurn) parts.push(h("p", { class: "small" }, t("p4.burynote")));
  if (meldShow(o)) parts.push(meldBoard(ctx));
  return parts.length ? h("div", { class: "stage-panel" }, ...parts) : null;
}

export function trickEmpty(ctx) {
  return "";
}

function helperRow(ctx) {
  const helper = ctx.msg.extra && ctx.msg.extra.meld_by_suit;
  if (!helper) return null;
  return h("p", { class: "helper" }, h("span", {}, t("p4.helper")),
    ...SUITS.map((sym, i) => h("span", { class: "helper-suit" + (isRed(i) ? " red" : "") }, `${sym} ${helper[i]}`)));
}

function biddingDock(ctx) {
  const o = ctx.obs;
  const lowest = ctx.legal.find((a) => a.json && a.json.kind === "bid");
  const pass = ctx.legal.find((a) => a.json && a.json.kind === "pass");
  const view = ctx.view;
  const row = h("div", { class: "dock-row bid-row" });
  if (lowest) {
    // The engine lists the lowest bid; any higher multiple of the step is a jump bid.
    const min = lowest.json.amount;
    if (!view.bidAmount || view.bidAmountStep !== ctx.msg.step || view.bidAmount < min) {
      view.bidAmount = min;
      view.bidAmountStep = ctx.msg.step;
    }
    const amount = h("output", { class: "bid-amount", id: "bid-amount", "aria-live": "polite" }, String(view.bidAmount));
    const set = (v) => {
      view.bidAmount = Math.max(min, v);
      amount.textContent = String(view.bidAmount);
      bidBtn.textContent = t("p4.bidn", { n: view.bidAmount });
      down.disabled = view.bidAmount <= min;
    };
    const down = h("button", { type: "button", class: "btn step", "aria-label": t("p4.lower") }, "−");
    const up = h("button", { type: "button", class: "btn step", "aria-label": t("p4.higher") }, "+");
    const bidBtn = h("button", { type: "button", class: "btn primary", id: "bid-btn" }, t("p4.bidn", { n: view.bidAmount }));
    down.disabled = view.bidAmount <= min;
    down.addEventListener("click", () => set(view.bidAmount - o.bid_step));
    up.addEventListener("click", () => set(view.bidAmount + o.bid_step));
    bidBtn.addEventListener("click", () => {
      const a = view.bidAmount === min ? lowest : { json: { kind: "bid", amount: view.bidAmount }, text: `bid ${view.bidAmount}` };
      ctx.act(a);
    });
    row.append(down, amount, up, bidBtn);
  }
  if (pass) {
    const b = h("button", { type: "button", class: "btn action", id: "pass-btn" }, t("p4.pass"));
    b.addEventListener("click", () => ctx.act(pass));
    row.appendChild(b);
  }
  return h("div", { class: "bidding", role: "group", "aria-label": t("p4.bidding") }, helperRow(ctx), row);
}

function trumpDock(ctx) {
  const helper = ctx.msg.extra && ctx.msg.extra.meld_by_suit;
  const row = h("div", { class: "dock-row" });
  for (const a of ctx.legal.filter((x) => x.json && x.json.kind === "trump")) {
    const s = a.json.suit;
    const b = h("button", { type: "button", class: "btn action trump-btn" + (isRed(s) ? " red" : ""),
                            "aria-label": `${t("table.trump")} ${t(`suit.${"SHDC"[s]}`)}` },
      h("span", { class: "trump-sym" }, SUITS[s]), helper ? h("span", { class: "trump-meld" }, t("p4.meldn", { n: helper[s] })) : null);
    b.addEventListener("click", () => ctx.act(a));
    row.appendChild(b);
  }
  return h("div", { class: "bidding", role: "group", "aria-label": t("p4.choosetrump") }, row);
}

export function dock(ctx) {
  if (!ctx.myTurn) return null;
  const o = ctx.obs;
  if (o.phase === "bidding") return biddingDock(ctx);
  if (o.phase === "trump") return trumpDock(ctx);
  return null;
}

export function pick(ctx) {
  const o = ctx.obs;
  const verb = o.phase === "discard" ? "discard" : o.phase === "passing" ? "give" : null;
  if (!verb) return null;
  const cards = ctx.legal.filter((a) => a.json && a.json.kind === verb).map((a) => a.card);
  if (!cards.length) return null;
  let count;
  if (verb === "discard") count = (o.widow ? o.widow.length : 3) - (o.discard_count || 0);
  else count = o.passing.count - (o.passing.selected || []).length;
  const title = verb === "discard" ? t("p4.discardn", { n: count }) : t("p4.passn", { n: count });
  return {
    cards, count, max: count, title,
    confirm: (chosen, ready) => (verb === "discard" ? t("p4.discardok", { n: count }) : t("p4.passok", { n: count })),
  };
}

const ASK = { bidding: "bid", trump: "trump", passing: "pass", discard: "discard", play: "play" };

export function ask(ctx) {
  return ASK[ctx.obs.phase] ?? "act";
}

export function prompt(ctx) {
  const o = ctx.obs;
  if (o.phase === "bidding") return { key: "prompt.bid" };
  if (o.phase === "trump") return { key: "p4.choosetrump" };
  if (o.phase === "discard") return { key: "p4.discardn", vars: { n: (o.widow ? o.widow.length : 3) - (o.discard_count || 0) } };
  if (o.phase === "passing") return { key: "p4.passn", vars: { n: o.passing.count - (o.passing.selected || []).length } };
  return { key: "prompt.play" };
}

export function hand(ctx) {
  const o = ctx.obs;
  const tags = new Map();
  const got = new Set();
  if (o.widow && o.seat === o.bidder && o.phase === "discard") for (const c of o.widow) { got.add(c); tags.set(c, t("p4.tag.widow")); }
  if (o.passing && o.passing.received && o.phase === "passing") for (const c of o.passing.received) { got.add(c); tags.set(c, t("p4.tag.received")); }
  if (meldShow(o)) for (const c of o.melds[ctx.seat].cards) { got.add(c); tags.set(c, t("p4.tag.meld")); }
  return { highlight: got, tags };
}

export function actionLabel(ctx, a) {
  const j = a.json || {};
  if (j.kind === "pass") return t("p4.pass");
  if (j.kind === "bid") return t("p4.bidn", { n: j.amount });
  if (j.kind === "trump") return `${t("table.trump")} ${SUITS[j.suit]}`;
  if (j.kind === "play" || j.kind === "give" || j.kind === "discard") return ctx.cardText(j.card);
  return a.text;
}

// -- drawers, summaries, score sheet --------------------------------------------------------
function bidsBody(ctx) {
  const o = ctx.obs;
  if (!o.bids.length) return h("p", { class: "muted" }, t("p4.nobids"));
  return h("div", {},
    h("ol", { class: "bid-history" }, o.bids.map(([s, a]) => h("li", { class: a === 0 ? "passed" : "" },
      h("span", { class: "who" }, ctx.seatName(s)), h("span", { class: "what" }, a === 0 ? t("p4.pass") : String(a))))),
    o.contract ? h("p", {}, t(o.bidder === ctx.seat ? "p4.contractline.you" : "p4.contractline", { name: ctx.seatName(o.bidder), n: o.contract,
      trump: o.trump !== null && o.trump !== undefined ? SUITS[o.trump] : "…" })) : null);
}

function meldList(ctx, melds, keyPrefix) {
  const ul = h("ul", { class: "meld-list" });
  melds.forEach((m, s) => {
    if (!m) return;
    ul.appendChild(h("li", {},
      h("div", { class: "meld-head" }, h("strong", {}, ctx.seatName(s)), h("span", { class: "pts" }, String(m.value))),
      m.melds.length ? h("div", { class: "meld-items" }, m.melds.map((x) => h("span", { class: "meld-item" },
        `${meldText(x.key, x.suit)} ${x.value}`))) : h("span", { class: "muted" }, t("p4.nomeld")),
      m.cards.length ? ctx.cardRow(m.cards, keyPrefix ? { reveal: `${keyPrefix}:${s}` } : {}) : null));
  });
  return ul;
}

function sheetTable(ctx) {
  const o = ctx.obs;
  const sides = ctx.n === 3 ? [0, 1, 2] : [0, 1];
  return h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result sheet" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col", class: "name" }, t("p4.contract")),
      ...sides.map((s) => h("th", { scope: "col" }, sideName(ctx, s))))),
    h("tbody", {}, o.history.map((x) => h("tr", {}, h("td", {}, String(x.hand)),
      h("td", { class: "name" }, x.bidder === null || x.bidder === undefined ? "—"
        : `${ctx.seatName(x.bidder)} ${x.bid}${x.trump !== null && x.trump !== undefined ? SUITS[x.trump] : ""} ${resultWord(x)}`),
      ...sides.map((s) => h("td", {}, h("span", { class: "delta" }, signed(x.score_change[s])), " ", String(x.scores[s]))))))));
}

function resultWord(x) {
  if (x.redeal) return t("p4.redeal");
  return x.throw_in ? t("p4.throwin") : x.made ? t("p4.made") : t("p4.set");
}

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

export function drawers(ctx) {
  const o = ctx.obs;
  const list = [{ id: "bids", title: t("drawer.bids"), badge: o.contract ? String(o.contract) : null, body: () => bidsBody(ctx) }];
  if (o.melds) list.push({ id: "melds", title: t("table.melds"), body: () => meldList(ctx, o.melds) });
  list.push({ id: "sheet", title: t("p4.sheet"), tab: t("tab.score"), body: () => h("div", {},
    o.history.length ? sheetTable(ctx) : h("p", { class: "muted" }, t("p4.nosheet")),
    o.history.length > 1 ? lineChart(courseSeries(ctx), { labels: o.history.map((x) => String(x.hand)), target: o.target, title: t("chart.title") }) : null,
    h("p", { class: "muted small" }, t("p4.target", { n: o.target }))) });
  return list;
}

function handBlock(ctx, lh) {
  const sides = ctx.n === 3 ? [0, 1, 2] : [0, 1];
  const head = lh.redeal ? t("p4.redealline")
    : t("p4.summaryline", { name: ctx.seatName(lh.bidder), n: lh.bid,
                            trump: lh.trump !== null && lh.trump !== undefined ? SUITS[lh.trump] : "", res: resultWord(lh) });
  const row = (label, vals, cls = "") => h("tr", { class: cls }, h("th", { scope: "row" }, label), ...vals.map((v) => h("td", {}, v)));
  return h("div", { class: "hand-summary" },
    h("p", { class: "verdict-line " + (lh.throw_in ? "" : lh.made ? "made" : "set") }, head),
    h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), ...sides.map((s) => h("th", { scope: "col" }, sideName(ctx, s))))),
      h("tbody", {},
        row(t("table.melds"), sides.map((s) => String((lh.side_melds || lh.melds)[s] ?? ""))),
        lh.trick_points ? row(t("p4.trickpts"), sides.map((s) => String(lh.trick_points[s]))) : null,
        row(t("p4.change"), sides.map((s) => signed(lh.score_change[s])), "change"),
        row(t("p4.running"), sides.map((s) => String(lh.scores[s])), "total")))),
    lh.meld_details ? h("details", { class: "meld-details", open: true }, h("summary", {}, t("p4.whomelded")),
      meldList(ctx, lh.meld_details)) : null,
    lh.widow && lh.widow.length ? h("div", { class: "widow-line" }, h("span", {}, t("p4.widow")), ctx.cardRow(lh.widow)) : null);
}

export function summary(ctx) {
  const lh = ctx.obs.last_hand;
  if (!lh) return null;
  return { title: t("p4.summarytitle", { n: lh.hand }), body: handBlock(ctx, lh) };
}

function courseSeries(ctx) {
  const o = ctx.obs;
  const sides = ctx.n === 3 ? [0, 1, 2] : [0, 1];
  return sides.map((s) => ({ name: sideName(ctx, s), values: o.history.map((x) => x.scores[s]),
                             mine: s === team(ctx, ctx.seat) }));
}

export function course(ctx) {
  const o = ctx.obs;
  if (!o.history.length) return null;
  return { title: t("chart.title"), series: courseSeries(ctx), labels: o.history.map((x) => String(x.hand)), target: o.target };
}

export function endSummary(ctx) {
  const o = ctx.obs;
  const sides = ctx.n === 3 ? [0, 1, 2] : [0, 1];
  const winners = new Set((ctx.msg.winners || []).map((s) => team(ctx, s)));
  return h("div", { class: "summary" },
    h("table", { class: "result" }, h("caption", {}, t("end.points")),
      h("tbody", {}, sides.map((s) => h("tr", { class: winners.has(s) ? "winner" : "" },
        h("th", { scope: "row" }, sideName(ctx, s)), h("td", {}, String(o.scores[s])))))),
    o.last_hand ? h("details", { class: "last-hand" }, h("summary", {}, t("p4.summarytitle", { n: o.last_hand.hand })), handBlock(ctx, o.last_hand)) : null);
}
