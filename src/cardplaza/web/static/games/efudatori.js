// E-fuda-tori: two to seven seats around an oval; the trump turns with every trick (♣ ♦ ♥);
// cards drawn face up after a trick are known to all; captured picture cards score.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { suitChip } from "./common.js";

function pictures(ctx, cards) {
  return ctx.deck.sort(cards.filter((c) => /^[KQJ]/.test(ctx.deck.text(c) || "")));
}

export function seatInfo(ctx, s) {
  const o = ctx.obs;
  const badges = [];
  if (o.dealer === s) badges.push({ text: t("badge.dealer"), cls: "dealer", title: t("role.dealer") });
  if (o.sets[s]) badges.push({ text: t("ef.setsbadge", { n: o.sets[s] }), cls: "sets", title: t("ef.sets", { n: o.sets[s] }) });
  const known = s !== ctx.seat && o.known_cards[s].length
    ? h("div", { class: "seat-cards" }, ctx.cardRow(o.known_cards[s], { cls: "tight", label: t("ef.known") })) : null;
  return { count: o.hand_sizes[s], badges, stat: t("seat.points", { n: o.scores[s] }), extra: known };
}

export function chips(ctx) {
  const o = ctx.obs;
  return [
    suitChip(o.trump, t("table.trump")),
    h("span", { class: "chip" }, t("table.trick.of", { n: o.trick_number, total: o.tricks_total })),
    h("span", { class: "chip stock-chip" }, t("ef.stock", { n: o.stock_size })),
  ];
}

export function trick(ctx) {
  return ctx.obs.trick || [];
}

export function showTrick() {
  return true;
}

export function completed(ctx) {
  return (ctx.obs.tricks || []).map((tr) => ({ plays: tr.cards, winner: tr.winner,
                                               label: `${t("table.trick.n", { n: tr.number })} (${t("table.trump")} ${"♠♥♦♣"[tr.trump]})` }));
}

export function handKey() {
  return 0;
}

export function prompt(ctx) {
  return { key: "prompt.play" };
}

function capturedBody(ctx) {
  const o = ctx.obs;
  const order = [...Array(ctx.n).keys()].sort((a, b) => o.scores[b] - o.scores[a]);
  return h("ul", { class: "meld-list" }, order.map((s) => h("li", {},
    h("div", { class: "meld-head" }, h("strong", {}, ctx.seatName(s)), h("span", { class: "pts" }, String(o.scores[s])),
      o.sets[s] ? h("span", { class: "muted" }, ` ${t("ef.sets", { n: o.sets[s] })}`) : null),
    pictures(ctx, o.captured[s]).length ? ctx.cardRow(pictures(ctx, o.captured[s])) : h("span", { class: "muted" }, "—"))));
}

export function drawers(ctx) {
  return [{ id: "captured", title: t("ef.capturedtab"), body: () => h("div", {}, capturedBody(ctx),
    h("p", { class: "muted small" }, t(ctx.obs.simple_scoring ? "ef.scoring.simple" : "ef.scoring"))) }];
}

export function endFaces() {
  return false;
}

export function endSummary(ctx) {
  const o = ctx.obs;
  if (!o.ranking) return null;
  const order = o.ranking.map((r, s) => [r, s]).sort((a, b) => a[0] - b[0]);
  return h("div", { class: "summary table-wrap" }, h("table", { class: "result" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col", class: "name" }, t("scores.player")),
      h("th", { scope: "col" }, t("ef.points")), h("th", { scope: "col" }, t("ef.setscol")))),
    h("tbody", {}, order.map(([r, s]) => h("tr", { class: r === 1 ? "winner" : "" }, h("td", {}, String(r)), h("td", { class: "name" }, h("span", { class: "name-face" }, ctx.seatFace(s), ctx.seatName(s))),
      h("td", {}, String(o.scores[s])), h("td", {}, String(o.sets[s])))))));
}

export function course(ctx) {
  const c = ctx.obs.course;
  if (!c || !c.length) return null;
  const order = [ctx.seat, ...[...Array(ctx.n).keys()].filter((s) => s !== ctx.seat)];
  return { title: t("chart.tricks"), labels: c.map((_, i) => String(i + 1)),
           series: order.map((s) => ({ name: ctx.seatName(s), values: c.map((x) => x[s]), mine: s === ctx.seat })) };
}
