// Two-hand Pinochle: face to face; the stock with its turned-up trump card; melded cards on
// the table in front of their owner; the meld step after each trick won; the deal's result.
import { h } from "../dom.js";
import { t, meldText } from "../i18n.js";
import { pileEl } from "../cards.js";
import { suitChip } from "./common.js";

export function seatInfo(ctx, s) {
  const o = ctx.obs;
  const badges = [];
  if (o.dealer === s) badges.push({ text: t("badge.dealer"), cls: "dealer", title: t("role.dealer") });
  const extra = [];
  if (s !== ctx.seat && o.meld_areas[s].length) {
    extra.push(h("div", { class: "seat-cards" }, h("span", { class: "mini-label" }, t("p2.ontable")),
      ctx.cardRow(o.meld_areas[s], { cls: "tight", reveal: `ma${s}:${o.meld_areas[s].join(",")}` })));
  }
  if (s !== ctx.seat && o.known_held[s].length) {
    extra.push(h("div", { class: "seat-cards" }, h("span", { class: "mini-label" }, t("p2.known")), ctx.cardRow(o.known_held[s], { cls: "tight" })));
  }
  return { count: o.concealed_sizes[s], badges, stat: t("seat.meld", { n: o.meld_points[s] }),
           extra: extra.length ? h("div", { class: "seat-extra" }, ...extra) : null };
}

export function chips(ctx) {
  const o = ctx.obs;
  const out = [suitChip(o.trump, t("table.trump"))];
  out.push(h("span", { class: "chip" }, t("table.trick.of", { n: Math.min(o.trick_number, 24), total: 24 })));
  const streak = ctx.msg.streak;
  if (streak) out.push(h("span", { class: "chip" }, `${t("p2.level", { n: streak.level })} · ${t("p2.streak", { s: streak.streak })}`));
  else if (o.level && o.level !== "streak") out.push(h("span", { class: "chip" }, t("p2.level", { n: o.level })));
  return out;
}

function plays(tr) {
  if (!tr) return [];
  return tr.cards.map((c, i) => [i === 0 ? tr.leader : 1 - tr.leader, c]);
}

export function trick(ctx) {
  return plays(ctx.obs.current_trick);
}

export function showTrick() {
  return true;
}

export function completed(ctx) {
  return (ctx.obs.tricks || []).map((tr) => ({ plays: plays(tr), winner: tr.winner }));
}

export function handKey() {
  return 0;
}

export function stage(ctx) {
  const o = ctx.obs;
  if (o.turn_up === null || o.turn_up === undefined) {
    return h("div", { class: "stock playoff" }, h("p", {}, t("p2.playoff")));
  }
  const up = ctx.cardEl(o.turn_up, { small: true, label: `${t("p2.turnup")}: ${ctx.cardText(o.turn_up)}` });
  up.classList.add("turn-up");
  return h("div", { class: "stock", role: "group", "aria-label": t("table.stock") },
    h("div", { class: "stock-pile" }, up, o.stock_count > 1 ? pileEl(o.stock_count - 1, t("p2.stockcount", { n: o.stock_count })) : null),
    h("span", { class: "stock-label" }, t("p2.stockshort", { n: o.stock_count })));
}

export function ask(ctx) {
  return ctx.obs.step === "meld" ? "meld" : "play";
}

export function prompt(ctx) {
  if (ctx.obs.step === "meld") return { key: "p2.meldq" };
  return { key: ctx.obs.phase === "playoff" ? "prompt.playoff" : "prompt.play" };
}

const MELD_POINTS = { run: 150, "royal marriage": 40, marriage: 20, dix: 10, pinochle: 40, "double pinochle": 300,
  "aces around": 100, "kings around": 80, "queens around": 60, "jacks around": 40, "double run": 1500,
  "1000 aces": 1000, "800 kings": 800, "600 queens": 600, "400 jacks": 400 };

/** A meld's name, cards and points; where some of its cards are already on the table
 * (melded before), which ones: two melds of the same faces then read differently. */
function meldLabel(ctx, a) {
  const j = a.json;
  const sorted = ctx.deck.sort(j.cards || []);
  const cards = sorted.map((c) => ctx.cardText(c)).join(" ");
  const pts = MELD_POINTS[j.meld];
  const onTable = new Set(ctx.obs.meld_areas ? ctx.obs.meld_areas[ctx.seat] : []);
  const reused = sorted.filter((c) => onTable.has(c)).map((c) => ctx.cardText(c));
  const from = reused.length ? ` · ${t("p2.fromtable", { cards: reused.join(" ") })}` : "";
  return `${meldText(j.meld)} ${cards}${pts ? ` (+${pts})` : ""}${from}`;
}

export function actionLabel(ctx, a) {
  const j = a.json || {};
  if (j.type === "meld") return meldLabel(ctx, a);
  if (j.type === "no_meld") return t("p2.nomeld");
  if (j.type === "play") return ctx.cardText(j.card);
  return a.text;
}

export function dock(ctx) {
  if (!ctx.myTurn || ctx.obs.step !== "meld") return null;
  const row = h("div", { class: "dock-row wrap" });
  const said = new Set();
  for (const a of ctx.legal) {
    const melding = a.json && a.json.type === "meld";
    const label = actionLabel(ctx, a);
    // Two copies of a card in the hand are the same to the player: one button for both.
    if (said.has(label)) continue;
    said.add(label);
    const b = h("button", { type: "button", class: "btn action" + (melding ? " meld-btn" : " no-meld") }, label);
    b.addEventListener("click", () => ctx.act(a));
    row.appendChild(b);
  }
  return h("div", { class: "meld-choice", role: "group", "aria-label": t("p2.meldq") }, row);
}

export function pick() {
  return null;
}

export function hand(ctx) {
  const o = ctx.obs;
  const mine = new Set(o.meld_areas[ctx.seat]);
  const tags = new Map();
  for (const c of mine) tags.set(c, t("p2.tag.melded"));
  return { highlight: mine, tags };
}

function meldList(ctx) {
  const o = ctx.obs;
  if (!o.melds.length && !o.nine_turned_up) return h("p", { class: "muted" }, t("p2.nomelds"));
  return h("div", {},
    h("ul", { class: "meld-list" }, o.melds.map((m) => h("li", {},
      h("div", { class: "meld-head" }, h("strong", {}, ctx.seatName(m.seat)),
        h("span", {}, ` ${meldText(m.meld)} · ${t("table.trick.n", { n: m.trick })}`), h("span", { class: "pts" }, `+${m.points}`)),
      ctx.cardRow(m.cards)))),
    o.nine_turned_up ? h("p", {}, `${ctx.seatName(o.nine_turned_up.seat)}: ${t("p2.nine")}`) : null,
    h("p", { class: "muted small" }, `${t("p2.meldpts")}: ${t("table.you")} ${o.meld_points[ctx.seat]} · ${ctx.seatName(1 - ctx.seat)} ${o.meld_points[1 - ctx.seat]}`));
}

export function drawers(ctx) {
  return [{ id: "melds", title: t("table.melds"), badge: ctx.obs.melds.length ? String(ctx.obs.melds.length) : null, body: () => meldList(ctx) }];
}

export function endSummary(ctx) {
  const r = ctx.obs.result;
  if (!r) return null;
  const me = ctx.seat;
  const opp = 1 - me;
  const row = (label, vals, cls = "") => h("tr", { class: cls }, h("th", { scope: "row" }, label), ...vals.map((v) => h("td", {}, String(v))));
  return h("div", { class: "summary" }, h("table", { class: "result" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, ctx.seatName(me)), h("th", { scope: "col" }, ctx.seatName(opp)))),
    h("tbody", {},
      row(t("p2.counters"), [r.counters[me], r.counters[opp]]),
      row(t("p2.meldpts"), [r.meld_points[me], r.meld_points[opp]]),
      row(t("p2.lasttrick"), [r.last_trick === me ? "✓" : "", r.last_trick === opp ? "✓" : ""]),
      row(t("p2.total"), [r.totals[me], r.totals[opp]], "total"))));
}

export function course(ctx) {
  const r = ctx.obs.result;
  if (!r || !r.course) return null;
  const me = ctx.seat;
  return {
    title: t("chart.tricks"),
    series: [me, 1 - me].map((s) => ({ name: ctx.seatName(s), values: r.course.map((x) => x[s]), mine: s === me })),
    labels: r.course.map((_, i) => String(i + 1)),
  };
}
