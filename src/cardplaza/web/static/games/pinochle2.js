// Two-hand Pinochle: turn-up and stock, meld areas with breakdowns, meld step, result.
import { h } from "../app.js";
import { t, meldName, engineText } from "../i18n.js";
import { backsEl } from "../cards.js";
import { cardRow, trickEl, trickPlays } from "./generic.js";

const SUITS = ["♠", "♥", "♦", "♣"];

export function trumpChip(symbol) {
  const red = symbol === "♥" || symbol === "♦";
  return h("span", { class: "chip trump" + (red ? " red" : "") }, `${t("table.trump")} ${symbol}`);
}

export function meldList(ctx, melds) {
  if (!melds.length) return h("p", { class: "muted" }, "—");
  return h("ul", { class: "meld-list" }, melds.map((m) => h("li", {},
    h("strong", {}, ctx.seatName(m.seat)), " ", meldName(m.meld),
    h("span", { class: "pts" }, `+${m.points}`),
    cardRow(ctx, m.cards))));
}

export function render(ctx) {
  const o = ctx.obs;
  const me = ctx.seat;
  const opp = 1 - me;
  const chips = h("div", { class: "chips" }, trumpChip(o.trump_symbol),
    h("span", { class: "chip" }, o.phase === "playoff" ? t("p2.playoff") : t("p2.stockcount", { n: o.stock_count })),
    h("span", { class: "chip" }, t("table.trick.n", { n: o.trick_number })),
    h("span", { class: "chip" }, `${t("p2.meldpts")}: ${t("table.you")} ${o.meld_points[me]} · ${ctx.seatName(opp)} ${o.meld_points[opp]}`));
  const streak = ctx.msg.streak;
  if (streak) chips.appendChild(h("span", { class: "chip" }, `${t("p2.level", { n: streak.level })} · ${t("p2.streak", { s: streak.streak })}`));
  else if (o.level && o.level !== "streak") chips.appendChild(h("span", { class: "chip" }, t("p2.level", { n: o.level })));

  const oppBox = h("div", { class: "seat" + (ctx.msg.current === opp ? " turn" : "") },
    h("div", { class: "seat-name" }, ctx.seatName(opp)),
    backsEl(o.concealed_sizes[opp], 8),
    o.meld_areas[opp].length ? h("div", { class: "area" }, h("h3", {}, t("table.meldarea")), cardRow(ctx, o.meld_areas[opp])) : null,
    o.known_held[opp].length ? h("div", { class: "area" }, h("h3", {}, t("p2.known")), cardRow(ctx, o.known_held[opp])) : null);

  const stock = h("div", { class: "stock area", "aria-label": t("table.stock") },
    h("h3", {}, t("p2.turnup")),
    o.turn_up !== null ? h("div", { class: "stockpile" },
      o.stock_count > 1 ? backsEl(o.stock_count - 1, 3) : null, ctx.cardEl(o.turn_up, { small: true }))
      : h("p", { class: "muted" }, t("p2.playoff")));

  const plays = trickPlays({ current_trick: o.current_trick, hand_sizes: [0, 0] });
  const center = h("div", { class: "center" }, stock,
    h("div", {}, h("h3", { class: "sr-only" }, t("table.trick")), trickEl(ctx, plays, { empty: t("table.trick.n", { n: o.trick_number }) })));
  const last = o.tricks.length ? o.tricks[o.tricks.length - 1] : null;
  if (last) {
    const lp = last.cards.map((c, i) => [i === 0 ? last.leader : 1 - last.leader, c]);
    center.appendChild(h("div", { class: "last" }, h("h3", {}, `${t("table.last")} (${last.number})`),
      trickEl(ctx, lp, { small: true, winner: last.winner, label: t("table.last") })));
  }
  const melds = h("details", { class: "area melds", open: o.melds.length > 0 }, h("summary", {}, `${t("table.melds")} (${o.melds.length})`),
    meldList(ctx, o.melds),
    o.nine_turned_up ? h("p", {}, `${ctx.seatName(o.nine_turned_up.seat)}: ${t("p2.nine")}`) : null);

  ctx.highlight = new Set(o.meld_areas[me]);
  ctx.handLabel = t("table.hand");
  if (o.step === "meld" && ctx.myTurn) ctx.actionsTitle = t("p2.meldq");
  ctx.actionLabel = (a) => engineText(a.text);
  return h("div", { class: "board" }, chips, h("div", { class: "seats" }, oppBox), center, melds);
}

/** Deal summary for the end screen. */
export function summary(ctx) {
  const r = ctx.obs.result;
  if (!r) return null;
  const row = (label, vals) => h("tr", {}, h("th", { scope: "row" }, label), ...vals.map((v) => h("td", {}, String(v))));
  return h("div", { class: "summary" }, h("table", {},
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, ctx.seatName(0)), h("th", { scope: "col" }, ctx.seatName(1)))),
    h("tbody", {},
      row(t("p2.counters"), r.counters),
      row(t("p2.meldpts"), r.meld_points),
      row(t("p2.lasttrick"), [r.last_trick === 0 ? "✓" : "", r.last_trick === 1 ? "✓" : ""]),
      row(t("p2.total"), r.totals))));
}

export { SUITS };
