// Double-deck partnership Pinochle: the four-hand Pinochle table (seats by compass point,
// bids beside the seats, trump, passing, melds laid out before the first lead, the score
// sheet) with what this game adds: meld bids offered beside the lowest bid, bids in the
// table's steps, the meld each partner has shown by bidding, identical cards, multiple
// melds by name, the throw-in, counters and saved meld in the hand summary.
import { h } from "../dom.js";
import { t, lang, meldText } from "../i18n.js";
import { lineChart } from "../chart.js";
import { SUITS, isRed, signed } from "./common.js";
import * as p4 from "./pinochle4.js";

export { seatName, team, seatInfo, chips, trick, showTrick, completed, handKey, trickEmpty,
         pick, ask, prompt, course } from "./pinochle4.js";

const MIN_BID = 50;
const MELD_BIDS = 60;

// -- bids -------------------------------------------------------------------------------------
/** Whether a bid (plain points) is an amount the table's steps allow. */
function allowed(a, steps) {
  if (a < MIN_BID) return false;
  if (steps === "1") return true;
  if (steps === "5") return a % 5 === 0;
  if (steps === "1-then-5") return a <= 60 || a % 5 === 0;
  return a <= 100 || a % 10 === 0;
}

function nextAllowed(a, steps) {
  let b = a < MIN_BID ? MIN_BID : a + 1;
  while (!allowed(b, steps)) b++;
  return b;
}

function prevAllowed(a, steps, floor) {
  let b = a - 1;
  while (b > floor && !allowed(b, steps)) b--;
  return Math.max(b, floor);
}

/** The meld (shown points) each seat has told its partner by a meld bid: in its first
 * turn, below 60, a raise of 1 to 5 over the bid (an opening over 50) shows 10 a point. */
function meldSignals(o) {
  const k = o.scale || 1;
  const out = new Map();
  const spoke = new Set();
  let high = 0;
  for (const [s, amount] of o.bids || []) {
    const u = amount / k;
    if (u) {
      const step = u - (high || MIN_BID);
      if (!spoke.has(s) && u < MELD_BIDS && step >= 1 && step <= 5) out.set(s, 10 * step * k);
      high = u;
    }
    spoke.add(s);
  }
  return out;
}

function helperRow(ctx) {
  const helper = ctx.msg.extra && ctx.msg.extra.meld_by_suit;
  if (!helper) return null;
  // The four suits keep together on one line (the label may stand above them).
  return h("p", { class: "helper" }, h("span", {}, t("p4.helper")),
    h("span", { class: "helper-suits" },
      ...SUITS.map((sym, i) => h("span", { class: "helper-suit" + (isRed(i) ? " red" : "") }, `${sym} ${helper[i]}`))));
}

function biddingDock(ctx) {
  const o = ctx.obs;
  const view = ctx.view;
  const k = o.scale || 1;
  const steps = o.options.bid_steps;
  // The engine lists the lowest bid first, then the meld bids (raises of up to 5 below 60).
  const bids = ctx.legal.filter((a) => a.json && a.json.kind === "bid");
  const pass = ctx.legal.find((a) => a.json && a.json.kind === "pass");
  const lowest = bids[0] || null;
  const rows = [];
  const firstTurn = !(o.bids || []).some(([s]) => s === ctx.seat);
  const base = (o.high_bid || MIN_BID * k) / k;
  const signals = firstTurn ? bids.filter((a) => {
    const u = a.json.amount / k;
    return u < MELD_BIDS && u - base >= 1 && u - base <= 5;
  }) : [];
  if (signals.length) {
    const row = h("div", { class: "dock-row meld-bids" }, h("span", { class: "dock-label" }, t("pd.meldbids")));
    for (const a of signals) {
      const m = 10 * (a.json.amount / k - base) * k;
      const b = h("button", { type: "button", class: "btn action meld-bid", "data-amount": String(a.json.amount),
                              "aria-label": t("pd.meldbid.aria", { n: a.json.amount, m }) },
        h("span", { class: "mb-amount" }, String(a.json.amount)), h("span", { class: "mb-meld" }, t("pd.meldbid", { m })));
      b.addEventListener("click", () => ctx.act(a));
      row.appendChild(b);
    }
    rows.push(row);
  }
  const row = h("div", { class: "dock-row bid-row" });
  if (lowest) {
    const min = lowest.json.amount;
    const max = o.max_bid;
    if (!view.bidAmount || view.bidAmountStep !== ctx.msg.step || view.bidAmount < min) {
      view.bidAmount = min;
      view.bidAmountStep = ctx.msg.step;
    }
    const amount = h("output", { class: "bid-amount", id: "bid-amount", "aria-live": "polite" }, String(view.bidAmount));
    const bidBtn = h("button", { type: "button", class: "btn primary", id: "bid-btn" }, t("p4.bidn", { n: view.bidAmount }));
    const down = h("button", { type: "button", class: "btn step", "aria-label": t("p4.lower") }, "−");
    const up = h("button", { type: "button", class: "btn step", "aria-label": t("p4.higher") }, "+");
    const set = (v) => {
      view.bidAmount = Math.min(max, Math.max(min, v));
      amount.textContent = String(view.bidAmount);
      bidBtn.textContent = t("p4.bidn", { n: view.bidAmount });
      down.disabled = view.bidAmount <= min;
      up.disabled = nextAllowed(view.bidAmount / k, steps) * k > max;
    };
    set(view.bidAmount);
    down.addEventListener("click", () => set(prevAllowed(view.bidAmount / k, steps, min / k) * k));
    up.addEventListener("click", () => set(nextAllowed(view.bidAmount / k, steps) * k));
    bidBtn.addEventListener("click", () => {
      const listed = bids.find((a) => a.json.amount === view.bidAmount);
      ctx.act(listed || { json: { kind: "bid", amount: view.bidAmount }, text: `bid ${view.bidAmount}` });
    });
    row.append(down, amount, up, bidBtn);
  }
  if (pass) {
    const b = h("button", { type: "button", class: "btn action", id: "pass-btn" }, t("p4.pass"));
    b.addEventListener("click", () => ctx.act(pass));
    row.appendChild(b);
  }
  rows.push(row);
  // The meld for each trump stands over the bids in the dock's full width: in the middle of
  // the felt, between the seats of a phone, it wrapped and was cut off.
  return h("div", { class: "bidding", role: "group", "aria-label": t("p4.bidding") }, helperRow(ctx), ...rows);
}

/** At the first lead the declarer may concede: asked once more before it is sent. */
function throwInDock(ctx) {
  const a = ctx.legal.find((x) => x.json && x.json.kind === "throw-in");
  if (!a) return null;
  const o = ctx.obs;
  const side = ctx.seat % 2;
  const meld = o.melds ? o.melds[side].value + o.melds[side + 2].value : 0;
  const note = h("p", { class: "small throw-note" }, t("pd.throwin.note",
    { m: meld, c: o.counters_total, s: meld + o.counters_total, n: o.contract }));
  const row = h("div", { class: "dock-row" });
  const ask = h("button", { type: "button", class: "btn ghost", id: "throw-btn" }, t("pd.throwin"));
  ask.addEventListener("click", () => {
    const yes = h("button", { type: "button", class: "btn danger", id: "throw-yes" }, t("pd.throwin.yes"));
    const no = h("button", { type: "button", class: "btn", id: "throw-no" }, t("pd.throwin.no"));
    yes.addEventListener("click", () => ctx.act(a));
    no.addEventListener("click", () => row.replaceChildren(ask));
    row.replaceChildren(h("span", { class: "dock-label" }, t("pd.throwin.ask", { n: o.contract })), yes, no);
    no.focus();
  });
  row.appendChild(ask);
  return h("div", { class: "throw-in", role: "group", "aria-label": t("pd.throwin") }, note, row);
}

export function dock(ctx) {
  if (!ctx.myTurn) return null;
  const o = ctx.obs;
  if (o.phase === "bidding") return biddingDock(ctx);
  if (o.phase === "trump") return p4.dock(ctx);
  if (o.phase === "play") return throwInDock(ctx);
  return null;
}

// -- the table's middle ------------------------------------------------------------------------
function signalLine(ctx) {
  const sig = meldSignals(ctx.obs);
  if (!sig.size) return null;
  // Each seat's signal keeps together on its line ("East ≈10", not "East" / "≈10").
  const list = [...sig].map(([s, m]) => t("pd.signal", { name: ctx.seatName(s), m }).replace(/ /g, "\u00a0")).join(" · ");
  return h("p", { class: "signals" }, t("pd.signals", { list }));
}

export function stage(ctx) {
  const o = ctx.obs;
  if (o.phase === "bidding") {
    return h("div", { class: "stage-panel bidding-info" },
      h("p", { class: "big" }, o.high_bid === null ? t("p4.nobid", { n: o.min_bid })
        : t("p4.highbidby", { n: o.high_bid, name: ctx.seatName(o.high_bidder) })),
      signalLine(ctx), ctx.myTurn ? null : helperRow(ctx));
  }
  return p4.stage(ctx);
}

function meldShow(o) {
  return o.phase === "play" && o.melds && !(o.tricks || []).length && !(o.trick || []).length;
}

function tally(cards, into = new Map()) {
  for (const c of cards || []) into.set(c, (into.get(c) || 0) + 1);
  return into;
}

export function hand(ctx) {
  const o = ctx.obs;
  const tags = new Map();
  let count = new Map();
  if (o.phase === "passing" && o.passing && o.passing.received && o.passing.received.length) {
    count = tally(o.passing.received);
    for (const c of count.keys()) tags.set(c, t("p4.tag.received"));
  } else if (meldShow(o) && o.melds[ctx.seat]) {
    count = tally(o.melds[ctx.seat].cards);
    for (const c of count.keys()) tags.set(c, t("p4.tag.meld"));
  }
  return { highlight: count, tags };
}

export function actionLabel(ctx, a) {
  const j = a.json || {};
  if (j.kind === "throw-in") return t("pd.throwin");
  return p4.actionLabel(ctx, a);
}

// -- melds, bids, score sheet ------------------------------------------------------------------
const MULTIPLES = ["double", "triple", "quadruple"];

/** A meld's name in the player's language: "Double run ♥", "Triple aces around". */
export function meldName(x) {
  const [first, ...rest] = String(x.key).split("_");
  const mult = MULTIPLES.includes(first) ? first : null;
  let name = meldText(mult ? rest.join("_") : x.key);
  if (mult) name = t(`pd.mult.${mult}`, { m: lang() === "en" ? name.charAt(0).toLowerCase() + name.slice(1) : name });
  return x.suit !== null && x.suit !== undefined ? `${name} ${SUITS[x.suit]}` : name;
}

function meldList(ctx, melds) {
  const ul = h("ul", { class: "meld-list" });
  melds.forEach((m, s) => {
    if (!m) return;
    ul.appendChild(h("li", {},
      h("div", { class: "meld-head" }, h("strong", {}, ctx.seatName(s)), h("span", { class: "pts" }, String(m.value))),
      m.melds.length ? h("div", { class: "meld-items" }, m.melds.map((x) => h("span", { class: "meld-item" },
        `${meldName(x)} ${x.value}`))) : h("span", { class: "muted" }, t("p4.nomeld")),
      m.cards.length ? ctx.cardRow(m.cards) : null));
  });
  return ul;
}

function bidsBody(ctx) {
  const o = ctx.obs;
  if (!o.bids.length) return h("p", { class: "muted" }, t("p4.nobids"));
  const k = o.scale || 1;
  const shown = new Map();
  let high = 0;
  const spoke = new Set();
  o.bids.forEach(([s, amount], i) => {
    const u = amount / k;
    if (u) {
      const step = u - (high || MIN_BID);
      if (!spoke.has(s) && u < MELD_BIDS && step >= 1 && step <= 5) shown.set(i, 10 * step * k);
      high = u;
    }
    spoke.add(s);
  });
  return h("div", {},
    h("ol", { class: "bid-history" }, o.bids.map(([s, a], i) => h("li", { class: a === 0 ? "passed" : "" },
      h("span", { class: "who" }, ctx.seatName(s)),
      h("span", { class: "what" }, a === 0 ? t("p4.pass") : String(a)),
      shown.has(i) ? h("span", { class: "muted small" }, t("pd.meldbid", { m: shown.get(i) })) : null))),
    o.contract ? h("p", {}, t(o.bidder === ctx.seat ? "p4.contractline.you" : "p4.contractline", { name: ctx.seatName(o.bidder), n: o.contract,
      trump: o.trump !== null && o.trump !== undefined ? SUITS[o.trump] : "…" })) : null);
}

function resultWord(x) {
  if (x.redeal) return t("p4.redeal");
  if (x.how === "throw_in") return t("p4.throwin");
  if (x.how === "no_marriage") return `${t("p4.set")} (${t("pd.how.no_marriage")})`;
  if (x.how === "min_meld") return `${t("p4.set")} (${t("pd.how.min_meld")})`;
  return x.made ? t("p4.made") : t("p4.set");
}

function sideName(ctx, side) {
  return side === ctx.seat % 2 ? t("p4.us") : t("p4.them");
}

function sheetTable(ctx) {
  const o = ctx.obs;
  return h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result sheet" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col", class: "name" }, t("p4.contract")),
      ...[0, 1].map((s) => h("th", { scope: "col" }, sideName(ctx, s))))),
    h("tbody", {}, o.history.map((x) => h("tr", {}, h("td", {}, String(x.hand)),
      h("td", { class: "name" }, x.redeal ? t("p4.redeal")
        : `${ctx.seatName(x.bidder)} ${x.contract}${x.trump !== null && x.trump !== undefined ? SUITS[x.trump] : ""} ${resultWord(x)}`),
      ...[0, 1].map((s) => h("td", {}, x.redeal ? String(x.scores[s])
        : [h("span", { class: "delta" }, signed(x.score_change[s])), " ", String(x.scores[s])])))))));
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

function courseSeries(ctx) {
  return [0, 1].map((s) => ({ name: sideName(ctx, s), values: ctx.obs.history.map((x) => x.scores[s]),
                              mine: s === ctx.seat % 2 }));
}

// -- between hands and at the end --------------------------------------------------------------
function lastHand(o) {
  const hist = o.history || [];
  return hist.length ? hist[hist.length - 1] : null;
}

export function finalTrick(ctx) {
  const lh = lastHand(ctx.obs);
  if (!lh || !lh.last_trick) return null;
  return { plays: lh.last_trick, winner: lh.last_trick_winner ?? null };
}

function handBlock(ctx, lh) {
  if (lh.redeal) return h("div", { class: "hand-summary" }, h("p", { class: "verdict-line" }, t("p4.redealline")));
  const head = t("p4.summaryline", { name: ctx.seatName(lh.bidder), n: lh.contract,
                                     trump: lh.trump !== null && lh.trump !== undefined ? SUITS[lh.trump] : "", res: resultWord(lh) });
  const row = (label, vals, cls = "") => h("tr", { class: cls }, h("th", { scope: "row" }, label), ...vals.map((v) => h("td", {}, v)));
  const sides = [0, 1];
  const played = lh.counters !== null && lh.counters !== undefined;
  const passes = lh.passes;
  return h("div", { class: "hand-summary" },
    h("p", { class: "verdict-line " + (lh.how === "throw_in" ? "" : lh.made ? "made" : "set") }, head),
    lh.no_trump_meld ? h("p", { class: "small" }, t("pd.notrump")) : null,
    h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), ...sides.map((s) => h("th", { scope: "col" }, sideName(ctx, s))))),
      h("tbody", {},
        row(t("table.melds"), sides.map((s) => String(lh.side_melds[s]))),
        played && lh.meld_saved ? row(t("pd.saved"), sides.map((s) => (lh.meld_saved[s] ? t("pd.kept") : t("pd.lost")))) : null,
        played ? row(t("pd.counters"), sides.map((s) => String(lh.counters[s]))) : null,
        row(t("p4.change"), sides.map((s) => signed(lh.score_change[s])), "change"),
        row(t("p4.running"), sides.map((s) => String(lh.scores[s])), "total")))),
    passes && passes.gave && passes.gave.length ? h("div", { class: "pass-line" },
      h("span", {}, t("pd.gave")), ctx.cardRow(passes.gave),
      h("span", {}, t("pd.got")), ctx.cardRow(passes.received)) : null,
    lh.melds ? h("details", { class: "meld-details" }, h("summary", {}, t("p4.whomelded")),
      meldList(ctx, lh.melds)) : null);
}

export function summary(ctx) {
  const lh = lastHand(ctx.obs);
  if (!lh) return null;
  return { title: t("p4.summarytitle", { n: lh.hand }), body: handBlock(ctx, lh) };
}

export function endSummary(ctx) {
  const o = ctx.obs;
  const winners = new Set((ctx.msg.winners || []).map((s) => s % 2));
  const lh = lastHand(o);
  return h("div", { class: "summary" },
    h("table", { class: "result" }, h("caption", {}, t("end.points")),
      h("tbody", {}, [0, 1].map((s) => h("tr", { class: winners.has(s) ? "winner" : "" },
        h("th", { scope: "row" }, sideName(ctx, s)), h("td", {}, String(o.scores[s])))))),
    lh ? h("details", { class: "last-hand" }, h("summary", {}, t("p4.summarytitle", { n: lh.hand })), handBlock(ctx, lh)) : null);
}
