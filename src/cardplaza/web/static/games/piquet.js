// Piquet: face to face; elder and younger; the talon and the exchange chosen then confirmed;
// the declarations said aloud in turn, combinations shown with their cards; tricks; a
// summary after each deal and the partie's score sheet.
import { h } from "../dom.js";
import { t, has, engineText } from "../i18n.js";
import { pileEl } from "../cards.js";
import { lineChart } from "../chart.js";
import { signed } from "./common.js";

export function seatInfo(ctx, s) {
  const o = ctx.obs;
  const badges = [];
  if (o.dealer === s) badges.push({ text: t("badge.dealer"), cls: "dealer", title: t("role.dealer") });
  const roles = [t(o.elder === s ? "pq.elder" : "pq.younger")];
  const stat = o.phase === "play" || o.phase === "over" ? t("seat.tricks", { n: o.tricks_won[s] })
    : t("seat.points", { n: o.deal_score[s] });
  return { count: o.hand_count[s], badges, roles, stat };
}

export function chips(ctx) {
  const o = ctx.obs;
  const me = ctx.seat;
  const out = [h("span", { class: "chip" }, o.deals_scheduled ? t("pq.dealof", { n: o.deal, total: o.deals_scheduled }) : t("pq.deal", { n: o.deal }))];
  if (o.multiplier && o.multiplier !== 1) {
    out.push(h("span", { class: "chip mult", title: t("pq.mult.help") }, t("pq.mult", { m: o.multiplier })));
  }
  out.push(h("span", { class: "chip score" }, `${t("pq.totals")} ${o.totals[me]}–${o.totals[1 - me]}`));
  out.push(h("span", { class: "chip" }, `${t("pq.thisdeal")} ${o.deal_score[me]}–${o.deal_score[1 - me]}`));
  return out;
}

function plays(tr) {
  if (!tr) return [];
  return tr.cards.map((c, i) => [i === 0 ? tr.leader : 1 - tr.leader, c]);
}

export function trick(ctx) {
  return plays(ctx.obs.trick);
}

export function showTrick(ctx) {
  return ctx.obs.phase === "play" || ctx.obs.phase === "over";
}

export function completed(ctx) {
  return (ctx.obs.tricks || []).map((tr) => ({ plays: plays(tr), winner: tr.winner }));
}

export function finalTrick(ctx) {
  const sheets = ctx.obs.sheets || [];
  const last = sheets.length ? sheets[sheets.length - 1].last_trick : null;
  return last ? { plays: plays(last), winner: last.winner } : null;
}

export function handKey(obs) {
  return obs.deal;
}

/** A declaration said in the dialogue, in the player's language. */
export function say(text) {
  return engineText(text);
}

function dialogueEl(ctx, limit) {
  const o = ctx.obs;
  const lines = limit ? o.dialogue.slice(-limit) : o.dialogue;
  return h("ol", { class: "dialogue-list" }, lines.map((d) => h("li", { class: d.seat === ctx.seat ? "mine" : "theirs" },
    h("strong", {}, `${ctx.seatName(d.seat)}: `), d.text ? say(d.text) : t("pq.hidden"))));
}

function shownEl(ctx, list, reveal) {
  return h("ul", { class: "meld-list" }, list.map((s, i) => h("li", {},
    h("div", { class: "meld-head" }, h("strong", {}, ctx.seatName(s.seat)), h("span", {}, ` ${engineText(s.label)}`),
      h("span", { class: "pts" }, `+${s.points}`)),
    ctx.cardRow(s.cards, reveal ? { reveal: `pq${ctx.obs.deal}:${i}`, sort: false } : { sort: false }))));
}

export function stage(ctx) {
  const o = ctx.obs;
  const parts = [];
  if (o.phase.startsWith("exchange")) {
    parts.push(h("div", { class: "talon" }, o.talon_count ? pileEl(o.talon_count, t("pq.talon", { n: o.talon_count })) : null,
      h("span", { class: "stock-label" }, t("pq.talon", { n: o.talon_count }))));
    if (!ctx.myTurn) parts.push(h("p", { class: "big" }, t("pq.exchanging", { name: ctx.seatName(o.phase === "exchange_elder" ? o.elder : 1 - o.elder) })));
  }
  for (const [seat, cards] of Object.entries(o.revealed_dealt || {})) {
    if (Number(seat) === ctx.seat) continue;
    parts.push(h("div", { class: "carte-blanche" }, h("h3", {}, t("pq.cb", { who: ctx.seatName(Number(seat)) })), ctx.cardRow(cards)));
  }
  if (o.phase === "declare" || (o.phase === "play" && !o.tricks.length && !(o.trick && o.trick.cards.length))) {
    if (o.dialogue.length) parts.push(h("div", { class: "dialogue", role: "log", "aria-label": t("pq.declarations") }, dialogueEl(ctx, 4)));
    if (o.shown.length) parts.push(shownEl(ctx, o.shown.slice(-3), true));
  }
  return parts.length ? h("div", { class: "stage-panel" }, ...parts) : null;
}

function exchangePrompt(ctx) {
  const sizes = ctx.legal.filter((a) => Array.isArray(a.cards)).map((a) => a.cards.length);
  if (!sizes.length) return { key: "pq.prompt.exchange" };
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  return { key: lo === hi ? "pq.exchange.exact" : "pq.exchange.range", vars: { lo, hi } };
}

function exchangeTitle(ctx) {
  const p = exchangePrompt(ctx);
  return t(p.key, p.vars);
}

export function pick(ctx) {
  const o = ctx.obs;
  if (!o.phase.startsWith("exchange")) return null;
  const sets = ctx.legal.filter((a) => Array.isArray(a.cards));
  if (!sets.length) return null;
  const max = Math.max(...sets.map((a) => a.cards.length));
  return {
    cards: [...new Set(sets.flatMap((a) => a.cards))], actions: sets, max, title: exchangeTitle(ctx),
    confirm: (chosen, ready) => (chosen.length ? t("pq.exchangek", { k: chosen.length })
      : ready ? t("pq.exchangenone") : t("pq.exchangeask")),
  };
}

export function dock(ctx) {
  const o = ctx.obs;
  if (!ctx.myTurn || o.phase !== "declare") return null;
  const row = h("div", { class: "dock-row wrap" });
  for (const a of ctx.legal) {
    const b = h("button", { type: "button", class: "btn action" }, actionLabel(ctx, a));
    b.addEventListener("click", () => ctx.act(a));
    row.appendChild(b);
  }
  return h("div", { class: "declare", role: "group", "aria-label": t("pq.yoursay") }, row);
}

export function actionLabel(ctx, a) {
  if (a.card !== null && a.card !== undefined) return ctx.cardText(a.card);
  return say(a.text);
}

export function ask(ctx) {
  const ph = ctx.obs.phase;
  return ph.startsWith("exchange") ? "exchange" : ph === "declare" ? "declare" : "play";
}

export function prompt(ctx) {
  const o = ctx.obs;
  if (o.phase.startsWith("exchange")) return exchangePrompt(ctx);
  if (o.phase === "declare") return { key: "pq.yoursay" };
  return { key: "prompt.play" };
}

export function hand(ctx) {
  const o = ctx.obs;
  const drawn = new Set(o.drawn || []);
  const tags = new Map();
  for (const c of drawn) tags.set(c, t("pq.tag.drawn"));
  return { highlight: o.phase === "play" ? new Set() : drawn, tags: o.phase === "play" ? new Map() : tags };
}

function talonBody(ctx) {
  const o = ctx.obs;
  const box = h("div", { class: "talon-body" }, h("p", {}, t("pq.talon", { n: o.talon_count })));
  if (o.talon_seen && o.talon_seen.length) box.append(h("h4", {}, t("pq.seen")), ctx.cardRow(o.talon_seen.map((x) => x.card)));
  if (o.untaken && o.untaken.length) box.append(h("h4", {}, t("pq.untaken")), ctx.cardRow(o.untaken));
  if (o.discards) box.append(h("h4", {}, t("pq.mydiscards")), ctx.cardRow(o.discards));
  if (o.drawn && o.drawn.length) box.append(h("h4", {}, t("pq.drawn")), ctx.cardRow(o.drawn));
  const ex = o.exchanged || {};
  box.appendChild(h("p", { class: "muted small" }, t("pq.exchanged", { e: ex.elder ?? "—", y: ex.younger ?? "—" })));
  return box;
}

function declarationsBody(ctx) {
  const o = ctx.obs;
  return h("div", {},
    o.dialogue.length ? dialogueEl(ctx) : h("p", { class: "muted" }, t("pq.nodecl")),
    o.shown.length ? shownEl(ctx, o.shown, false) : null,
    o.events.length ? h("div", {}, h("h4", {}, t("pq.events")),
      h("ul", { class: "event-list" }, o.events.map((e) => h("li", {}, `${ctx.seatName(e.seat)}: ${engineText(e.label)} +${e.points}`)))) : null);
}

function sheetTable(ctx, sheets) {
  const me = ctx.seat;
  const o = ctx.obs;
  const rows = sheets.map((s) => h("tr", {}, h("td", {}, s.multiplier > 1 ? `${s.deal} (×${s.multiplier})` : String(s.deal)),
    h("td", {}, String(s.counted[me])), h("td", {}, String(s.counted[1 - me])), h("td", {}, s.bonus ? bonusText(s.bonus) : "")));
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t("pq.totals")),
    h("td", {}, String(o.totals[me])), h("td", {}, String(o.totals[1 - me])), h("td", {}, "")));
  return h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result sheet" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("pq.dealcol")), h("th", { scope: "col" }, ctx.seatName(me)),
      h("th", { scope: "col" }, ctx.seatName(1 - me)), h("th", { scope: "col" }, ""))),
    h("tbody", {}, rows)));
}

function doneSheets(o) {
  return (o.sheets || []).filter((x) => x.deal < o.deal || o.phase === "over");
}

export function drawers(ctx) {
  const o = ctx.obs;
  const done = doneSheets(o);
  return [
    { id: "declarations", title: t("pq.declarations"), tab: t("tab.declared"), body: () => declarationsBody(ctx) },
    { id: "talon", title: t("pq.talonshort"), body: () => talonBody(ctx) },
    { id: "sheet", title: t("pq.sheets"), tab: t("tab.score"), body: () => h("div", {},
      done.length ? sheetTable(ctx, done) : h("p", { class: "muted" }, t("pq.nosheet")),
      done.length > 1 ? lineChart(courseOf(ctx).series, { labels: done.map((x) => String(x.deal)), title: t("chart.title") }) : null,
      h("p", { class: "muted small" }, t("pq.mult.help"))) },
  ];
}

/** A deal's bonus ("pique", "repique") as the score sheet names it. */
function bonusText(bonus) {
  return has(`eng.pq.ev.${bonus}`) ? t(`eng.pq.ev.${bonus}`) : engineText(bonus);
}

/** Points of a deal by heading (Point, Sequences …) for each seat. */
function dealBlock(ctx, sh) {
  const me = ctx.seat;
  const opp = 1 - me;
  const labels = [];
  const pts = new Map();
  for (const [s, p, lab] of sh.events) {
    if (!pts.has(lab)) { pts.set(lab, [0, 0]); labels.push(lab); }
    pts.get(lab)[s] += p;
  }
  const row = (label, a, b, cls = "") => h("tr", { class: cls }, h("th", { scope: "row" }, label), h("td", {}, String(a)), h("td", {}, String(b)));
  return h("div", { class: "hand-summary" },
    h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, ctx.seatName(me)), h("th", { scope: "col" }, ctx.seatName(opp)))),
      h("tbody", {},
        ...labels.map((lab) => row(engineText(lab), pts.get(lab)[me], pts.get(lab)[opp])),
        row(t("pq.tricks"), sh.tricks[me], sh.tricks[opp]),
        sh.multiplier > 1 ? row(t("pq.mult", { m: sh.multiplier }), sh.raw[me], sh.raw[opp]) : null,
        row(t("pq.dealpts"), signed(sh.counted[me]), signed(sh.counted[opp]), "change"),
        row(t("pq.totals"), ctx.obs.totals[me], ctx.obs.totals[opp], "total")))),
    sh.bonus ? h("p", { class: "verdict-line" }, bonusText(sh.bonus)) : null,
    sh.shown && sh.shown.length ? h("details", { class: "meld-details", open: true }, h("summary", {}, t("pq.combos")), shownEl(ctx, sh.shown, false)) : null);
}

export function summary(ctx) {
  const o = ctx.obs;
  const done = doneSheets(o);
  const sh = done[done.length - 1];
  if (!sh) return null;
  return { title: t("pq.summarytitle", { n: sh.deal }), body: dealBlock(ctx, sh) };
}

function courseOf(ctx) {
  const o = ctx.obs;
  const done = doneSheets(o);
  const me = ctx.seat;
  const sum = [0, 0];
  const values = [[], []];
  for (const sh of done) {
    sum[0] += sh.counted[0];
    sum[1] += sh.counted[1];
    values[0].push(sum[0]);
    values[1].push(sum[1]);
  }
  return { title: t("chart.title"), labels: done.map((x) => String(x.deal)),
           series: [me, 1 - me].map((s) => ({ name: ctx.seatName(s), values: values[s], mine: s === me })) };
}

export function course(ctx) {
  return doneSheets(ctx.obs).length ? courseOf(ctx) : null;
}

export function endSummary(ctx) {
  const o = ctx.obs;
  const r = o.result;
  const done = doneSheets(o);
  return h("div", { class: "summary" },
    r ? h("p", {}, t("pq.result", { name: r.winner === null || r.winner === undefined ? "—" : ctx.seatName(r.winner), value: r.value })
      + (r.rubicon ? ` ${t("pq.rubicon")}` : "")) : null,
    sheetTable(ctx, done),
    done.length ? h("details", { class: "last-hand" }, h("summary", {}, t("pq.summarytitle", { n: done[done.length - 1].deal })),
      dealBlock(ctx, done[done.length - 1])) : null);
}
