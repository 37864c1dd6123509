// E-fuda-tori: the rotating trump of the trick, the stock, captured picture cards, scores.
import { h } from "../app.js";
import { t } from "../i18n.js";
import { backsEl } from "../cards.js";
import { cardRow, trickEl, seatsEl } from "./generic.js";
import { trumpChip } from "./pinochle2.js";

const SUITS = ["♠", "♥", "♦", "♣"];

export function render(ctx) {
  const o = ctx.obs;
  const chips = h("div", { class: "chips" }, trumpChip(SUITS[o.trump]),
    h("span", { class: "chip" }, `${t("table.trick.n", { n: o.trick_number })} / ${o.tricks_total}`),
    h("span", { class: "chip stock-chip" }, t("ef.stock", { n: o.stock_size })));
  const extra = (s) => h("div", {},
    h("span", { class: "sub" }, `${t("ef.points")}: ${o.scores[s]}${o.sets[s] ? ` · ${t("ef.sets", { n: o.sets[s] })}` : ""}`),
    o.known_cards[s].length ? h("div", {}, h("span", { class: "sub" }, t("ef.known")), cardRow(ctx, o.known_cards[s])) : null,
    o.captured[s].length ? h("div", {}, h("span", { class: "sub" }, t("ef.captured")), cardRow(ctx, pictures(o.captured[s], ctx))) : null);
  const stock = h("div", { class: "area" }, h("h3", {}, t("ef.stock", { n: o.stock_size })),
    o.stock_size ? backsEl(o.stock_size, 6) : h("p", { class: "muted" }, "—"));
  const center = h("div", { class: "center" }, stock, trickEl(ctx, o.trick, { label: t("table.trick") }));
  const last = o.tricks.length ? o.tricks[o.tricks.length - 1] : null;
  if (last) {
    center.appendChild(h("div", { class: "last" }, h("h3", {}, `${t("table.last")} (${SUITS[last.trump]})`),
      trickEl(ctx, last.cards, { small: true, winner: last.winner, label: t("table.last") })));
  }
  const mine = h("div", { class: "area" }, h("h3", {}, `${t("table.you")} — ${t("ef.points")}: ${o.scores[ctx.seat]}`),
    o.captured[ctx.seat].length ? cardRow(ctx, pictures(o.captured[ctx.seat], ctx)) : null);
  return h("div", { class: "board" }, chips, seatsEl(ctx, o.hand_sizes, extra), center, mine);
}

/** Only the scoring picture cards (K, Q, J) of a captured pile, sorted. */
function pictures(cards, ctx) {
  return ctx.deck.sort(cards.filter((c) => /^[KQJ]/.test(ctx.deck.text(c) || "")));
}

export function summary(ctx) {
  const o = ctx.obs;
  if (!o.ranking) return null;
  const order = o.ranking.map((r, s) => [r, s]).sort((a, b) => a[0] - b[0]);
  return h("div", { class: "summary table-wrap" }, h("table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("scores.player")),
      h("th", { scope: "col" }, t("ef.points")), h("th", { scope: "col" }, t("ef.setscol")))),
    h("tbody", {}, order.map(([r, s]) => h("tr", {}, h("td", {}, String(r)), h("td", {}, ctx.seatName(s)),
      h("td", {}, String(o.scores[s])), h("td", {}, String(o.sets[s])))))));
}
