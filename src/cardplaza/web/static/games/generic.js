// The generic adapter: draws any game from its observation and legal actions alone. Every
// game adapter falls back to these functions for what it does not define itself.
import { h } from "../dom.js";
import { t, engineText } from "../i18n.js";

const CARD_KEY = /(hand|cards|trick|meld|turn_?up|top|played|won|discard|talon|widow|captured|card|stock_top|known|exchange)/i;
const SKIP = new Set(["game", "seat", "options", "unseen"]);

/** Is v a list of card ids / texts? */
function isCardList(ctx, v) {
  return Array.isArray(v) && v.length > 0 && v.every((x) => ctx.deck.isCard(x));
}

/** Render any JSON value, drawing cards under card-like keys. */
export function valueEl(ctx, key, v) {
  if (v === null || v === undefined) return h("span", { class: "muted" }, "—");
  if (CARD_KEY.test(key) && ctx.deck.isCard(v) && typeof v !== "boolean") return ctx.cardRow([v]);
  if (CARD_KEY.test(key) && isCardList(ctx, v)) return ctx.cardRow(v, { sort: false });
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) return h("span", {}, v.map((x) => String(x)).join(", "));
    return h("ol", { class: "obj-list" }, v.map((x) => h("li", {}, valueEl(ctx, key, x))));
  }
  if (typeof v === "object") return objectEl(ctx, v, new Set());
  if (typeof v === "boolean") return h("span", {}, v ? t("yes") : t("no"));
  return h("span", {}, String(v));
}

/** A definition list of an object's keys (except skipped ones). */
export function objectEl(ctx, obj, skip) {
  const dl = h("dl", { class: "obj" });
  for (const [k, v] of Object.entries(obj)) {
    if (skip.has(k) || SKIP.has(k)) continue;
    dl.appendChild(h("dt", {}, k.replace(/_/g, " ")));
    dl.appendChild(h("dd", {}, valueEl(ctx, k, v)));
  }
  return dl;
}

/** Cards of a trick as [[seat, card]] from common observation shapes. */
export function trickPlays(tr, n = 2) {
  if (!tr) return [];
  if (Array.isArray(tr)) {
    return tr.map((x) => (Array.isArray(x) ? [x[0], x[1]]
      : (x && typeof x === "object" ? [x.seat, x.card] : [null, x]))).filter((p) => p[1] !== undefined);
  }
  if (Array.isArray(tr.cards)) {
    const leader = tr.leader ?? 0;
    return tr.cards.map((c, i) => (Array.isArray(c) ? [c[0], c[1]] : [(leader + i) % n, c]));
  }
  if (Array.isArray(tr.plays)) return tr.plays.map((p) => (Array.isArray(p) ? p : [p.seat, p.card]));
  return [];
}

function sizes(obs) {
  return obs.hand_sizes ?? obs.hand_count ?? obs.concealed_sizes ?? null;
}

// -- the adapter --------------------------------------------------------------------------

/** Facts shown in a seat's box: {count, roles, stat, badges, bid, extra, cls}. */
export function seatInfo(ctx, s) {
  const o = ctx.obs;
  const sz = sizes(o);
  const badges = [];
  if (o.dealer === s) badges.push({ text: t("badge.dealer"), cls: "dealer", title: t("role.dealer") });
  const score = Array.isArray(o.scores) && o.scores.length === ctx.n ? o.scores[s] : null;
  return { count: sz ? sz[s] : null, badges, stat: score !== null ? t("seat.points", { n: score }) : null };
}

/** Small labelled facts in the felt's corner (trump, scores …). */
export function chips(ctx) {
  const o = ctx.obs;
  const out = [];
  if (o.trump_symbol !== undefined) out.push(h("span", { class: "chip" }, `${t("table.trump")} ${o.trump_symbol}`));
  return out;
}

/** The trick in progress as [[seat, card]]. */
export function trick(ctx) {
  const o = ctx.obs;
  return trickPlays(o.current_trick ?? o.trick ?? null, ctx.n);
}

/** Whether the trick area is part of the table in this phase. */
export function showTrick(ctx) {
  return true;
}

/** The tricks finished in the current hand: [{plays, winner}]. */
export function completed(ctx) {
  const o = ctx.obs;
  if (!Array.isArray(o.tricks)) return [];
  return o.tricks.map((tr) => ({ plays: trickPlays(tr, ctx.n), winner: tr.winner ?? null }));
}

/** The last trick of the hand that has just ended (shown before the next hand): or null. */
export function finalTrick(ctx, prevCtx) {
  return null;
}

/** Changes whenever a new hand (deal) begins. */
export function handKey(obs) {
  return obs.hand_number ?? obs.deal ?? 0;
}

/** Centre content besides the trick (a bidding summary, the talon, the stock …). */
export function stage(ctx) {
  return null;
}

/** Text in an empty trick area. */
export function trickEmpty(ctx) {
  return "";
}

/** The phase's own controls in the dock above the hand; null for the default buttons. */
export function dock(ctx) {
  return null;
}

/** A choice of several cards (see table.js pickBar); null if none. */
export function pick(ctx) {
  const sets = ctx.legal.filter((a) => Array.isArray(a.cards));
  if (sets.length <= 16) return null;
  return { cards: [...new Set(sets.flatMap((a) => a.cards))], actions: sets, title: t("pick.title") };
}

/** What the player is asked for, in one word (bid, trump, pass, discard, exchange, declare,
 * meld, play …): for styling and tests. */
export function ask(ctx) {
  return ctx.cardActions.size ? "play" : "act";
}

/** What the status line asks of the player: {key, vars} or null for "Your turn". */
export function prompt(ctx) {
  if (ctx.cardActions.size) return { key: "prompt.play" };
  return null;
}

/** The hand: {cards?, highlight? (a Set of cards, or a Map card → how many copies), tags?,
 * label?, sort?}. */
export function hand(ctx) {
  return null;
}

/** Label of a legal action. */
export function actionLabel(ctx, a) {
  return engineText(a.text);
}

/** Drawers of this game: [{id, title, body(ctx)}]. */
export function drawers(ctx) {
  const shown = new Set(["hand", "current_trick", "trick", "hand_sizes", "tricks"]);
  return [{ id: "details", title: t("table.info"), long: true, body: () => objectEl(ctx, ctx.obs, shown) }];
}

/** The hand summary shown between hands ({title, body}) or null. */
export function summary(ctx, prevCtx) {
  return null;
}

/** The side a seat plays for (partnerships share one). */
export function team(ctx, s) {
  return s;
}

/** The result table of the game-end screen. */
/** Whether the end screen shows every seat's face above the game's own summary (false when
 * the summary names each seat with its face itself). */
export function endFaces() {
  return true;
}

export function endSummary(ctx) {
  const returns = ctx.msg.returns || [];
  const winners = ctx.msg.winners || [];
  return h("table", { class: "result" }, h("caption", {}, t("end.points")),
    h("tbody", {}, returns.map((r, i) => h("tr", { class: winners.includes(i) ? "winner" : "" },
      h("th", { scope: "row" }, ctx.seatName(i)), h("td", {}, String(r))))));
}

/** The score's course for the end screen: {title, series, labels, target?} or null. */
export function course(ctx) {
  return null;
}
