// Piquet: exchange with the talon, the declaration dialogue step by step, tricks, sheets.
import { h } from "../app.js";
import { t, engineText } from "../i18n.js";
import { backsEl } from "../cards.js";
import { cardRow, trickEl } from "./generic.js";

const DIALOGUE_JA = {
  "Good": "グッド", "Not good": "ノット・グッド", "Equal": "イコール", "Making?": "何点？",
  "To what?": "どこまで？",
};

function say(text) {
  if (document.documentElement.lang !== "ja") return text;
  return DIALOGUE_JA[text] ?? engineText(text);
}

export function render(ctx) {
  const o = ctx.obs;
  const me = ctx.seat;
  const opp = 1 - me;
  const chips = h("div", { class: "chips" },
    h("span", { class: "chip" }, `${t("pq.deal", { n: o.deal })}${o.deals_scheduled ? ` / ${o.deals_scheduled}` : ""}`),
    h("span", { class: "chip" }, t(o.role === "elder" ? "pq.elder" : "pq.younger")),
    h("span", { class: "chip" }, `${t("pq.totals")}: ${t("table.you")} ${o.totals[me]} · ${ctx.seatName(opp)} ${o.totals[opp]}`),
    h("span", { class: "chip" }, `${t("pq.thisdeal")}: ${o.deal_score[me]} – ${o.deal_score[opp]}`));
  if (o.multiplier && o.multiplier !== 1) chips.appendChild(h("span", { class: "chip" }, `×${o.multiplier}`));
  const oppBox = h("div", { class: "seat" + (ctx.msg.current === opp ? " turn" : "") },
    h("div", { class: "seat-name" }, ctx.seatName(opp)), backsEl(o.hand_count[opp], 8),
    h("span", { class: "sub" }, t(o.role === "elder" ? "pq.younger" : "pq.elder")));
  const board = h("div", { class: "board" }, chips, h("div", { class: "seats" }, oppBox));

  const talon = h("div", { class: "area" }, h("h3", {}, t("pq.talon", { n: o.talon_count })));
  if (o.talon_count) talon.appendChild(backsEl(o.talon_count, 8));
  if (o.talon_seen && o.talon_seen.length) talon.append(h("p", {}, t("pq.seen")), cardRow(ctx, o.talon_seen.map((x) => x.card)));
  if (o.untaken && o.untaken.length) talon.append(h("p", {}, t("pq.untaken")), cardRow(ctx, o.untaken));
  if (o.discards) talon.append(h("p", {}, t("pq.mydiscards")), cardRow(ctx, o.discards));
  if (o.drawn && o.drawn.length) talon.append(h("p", {}, t("pq.drawn")), cardRow(ctx, o.drawn));
  const ex = o.exchanged || {};
  talon.appendChild(h("p", { class: "sub" }, t("pq.exchanged", {
    e: ex.elder ?? "—", y: ex.younger ?? "—" })));
  board.appendChild(talon);
  // Carte blanche: the holder's twelve dealt cards are shown to the other player.
  for (const [seat, cards] of Object.entries(o.revealed_dealt || {})) {
    if (Number(seat) === me) continue;
    board.appendChild(h("div", { class: "area carte-blanche" },
      h("h3", {}, t("pq.cb", { who: ctx.seatName(Number(seat)) })), cardRow(ctx, cards)));
  }

  if (o.dialogue.length || o.declaring) {
    const dlg = h("div", { class: "area dialogue", role: "log", "aria-label": t("pq.declarations") },
      h("h3", {}, t("pq.declarations")));
    const list = h("ol", { class: "dialogue-list" });
    for (const d of o.dialogue) {
      list.appendChild(h("li", { class: d.seat === me ? "mine" : "theirs" },
        h("strong", {}, `${ctx.seatName(d.seat)}: `), d.text ? say(d.text) : t("pq.hidden")));
    }
    dlg.appendChild(list);
    if (o.shown.length) {
      dlg.appendChild(h("ul", { class: "meld-list" }, o.shown.map((s) => h("li", {},
        h("strong", {}, ctx.seatName(s.seat)), ` ${engineText(s.label)}`, h("span", { class: "pts" }, `+${s.points}`), cardRow(ctx, s.cards)))));
    }
    board.appendChild(dlg);
  }
  if (o.phase === "play" || o.phase === "over") {
    const tr = o.trick || { leader: 0, cards: [] };
    const plays = tr.cards.map((c, i) => [i === 0 ? tr.leader : 1 - tr.leader, c]);
    const center = h("div", { class: "center" }, trickEl(ctx, plays, { label: t("table.trick") }));
    const last = o.tricks.length ? o.tricks[o.tricks.length - 1] : null;
    if (last) {
      const lp = last.cards.map((c, i) => [i === 0 ? last.leader : 1 - last.leader, c]);
      center.appendChild(h("div", { class: "last" }, h("h3", {}, t("table.last")),
        trickEl(ctx, lp, { small: true, winner: last.winner, label: t("table.last") })));
    }
    center.appendChild(h("p", { class: "chip" }, `${t("pq.tricks")}: ${o.tricks_won[me]} – ${o.tricks_won[opp]}`));
    board.appendChild(center);
  }
  if (o.events.length) {
    board.appendChild(h("details", { class: "area last-hand" }, h("summary", {}, t("pq.events")),
      h("ul", { class: "meld-list" }, o.events.map((e) => h("li", {}, `${ctx.seatName(e.seat)}: ${engineText(e.label)} +${e.points}`)))));
  }
  const done = (o.sheets || []).filter((x) => x.deal < o.deal || o.phase === "over");
  if (done.length) {
    board.appendChild(h("details", { class: "area last-hand" }, h("summary", {}, t("pq.sheets")), sheetTable(ctx, done)));
  }
  if (o.phase.startsWith("exchange") && ctx.myTurn) {
    ctx.selectTitle = t(o.phase === "exchange_elder" ? "pq.exchange.elder" : "pq.exchange.younger");
  }
  ctx.actionLabel = (a) => say(a.text);
  if (o.phase === "declare" && ctx.myTurn) ctx.actionsTitle = t("pq.yoursay");
  return board;
}

function sheetTable(ctx, sheets) {
  const me = ctx.seat;
  const rows = sheets.map((s) => h("tr", {}, h("td", {}, String(s.deal)),
    h("td", {}, String(s.counted[me])), h("td", {}, String(s.counted[1 - me])), h("td", {}, s.bonus || "")));
  const o = ctx.obs;
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t("pq.totals")),
    h("td", {}, String(o.totals[me])), h("td", {}, String(o.totals[1 - me])), h("td", {}, "")));
  return h("div", { class: "table-wrap" }, h("table", { class: "result" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("pq.dealcol")), h("th", { scope: "col" }, ctx.seatName(me)),
      h("th", { scope: "col" }, ctx.seatName(1 - me)), h("th", { scope: "col" }, ""))),
    h("tbody", {}, rows)));
}

export function summary(ctx) {
  const o = ctx.obs;
  const r = o.result;
  return h("div", { class: "summary" },
    r ? h("p", {}, t("pq.result", { name: r.winner === null || r.winner === undefined ? "—" : ctx.seatName(r.winner), value: r.value })
      + (r.rubicon ? ` ${t("pq.rubicon")}` : "")) : null,
    sheetTable(ctx, o.sheets || []));
}
