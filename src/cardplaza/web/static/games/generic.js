// Generic renderer: draws any game from its observation and legal actions.
import { h } from "../app.js";
import { t } from "../i18n.js";
import { backsEl } from "../cards.js";

const CARD_KEY = /(hand|cards|trick|meld|turn_?up|top|played|won|discard|talon|widow|captured|card|stock_top|known|exchange)/i;
const SKIP = new Set(["game", "seat", "options", "unseen"]);

/** Is v a list of card ids / texts? */
function isCardList(ctx, v) {
  return Array.isArray(v) && v.length > 0 && v.every((x) => ctx.deck.isCard(x));
}

/** A small row of cards. */
export function cardRow(ctx, ids, opts = {}) {
  const row = h("div", { class: "card-row" + (opts.cls ? ` ${opts.cls}` : "") });
  if (opts.label) row.setAttribute("aria-label", opts.label);
  row.setAttribute("role", "group");
  for (const id of ids) row.appendChild(ctx.cardEl(id, { small: opts.small !== false }));
  return row;
}

/** Render any JSON value, drawing cards under card-like keys. */
export function valueEl(ctx, key, v) {
  if (v === null || v === undefined) return h("span", { class: "muted" }, "—");
  if (CARD_KEY.test(key) && ctx.deck.isCard(v) && typeof v !== "boolean") return cardRow(ctx, [v]);
  if (CARD_KEY.test(key) && isCardList(ctx, v)) return cardRow(ctx, v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) return h("span", {}, v.map((x) => String(x)).join(", "));
    return h("ol", { class: "obj-list" }, v.map((x, i) => h("li", {}, valueEl(ctx, key, x))));
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

/** Cards of the trick in progress as [[seat, card]] from common observation shapes. */
export function trickPlays(obs) {
  const tr = obs.current_trick ?? obs.trick ?? null;
  if (!tr) return [];
  if (Array.isArray(tr)) {
    return tr.map((x, i) => (Array.isArray(x) ? [x[0], x[1]]
      : (x && typeof x === "object" ? [x.seat, x.card] : [null, x]))).filter((p) => p[1] !== undefined);
  }
  if (Array.isArray(tr.cards)) {
    const n = obs.hand_sizes ? obs.hand_sizes.length : 2;
    const leader = tr.leader ?? 0;
    return tr.cards.map((c, i) => (Array.isArray(c) ? [c[0], c[1]] : [(leader + i) % n, c]));
  }
  if (Array.isArray(tr.plays)) return tr.plays.map((p) => (Array.isArray(p) ? p : [p.seat, p.card]));
  return [];
}

/** A trick drawn as labelled cards. */
export function trickEl(ctx, plays, opts = {}) {
  const box = h("div", { class: "trick" + (opts.small ? " small" : ""), role: "group",
                         "aria-label": opts.label || t("table.trick") });
  if (!plays.length) box.appendChild(h("div", { class: "trick-empty" }, opts.empty ?? ""));
  for (const [seat, card] of plays) {
    const who = seat === null || seat === undefined ? "" : ctx.seatName(seat);
    const el = ctx.cardEl(card, { small: opts.small });
    el.setAttribute("aria-label", `${who}: ${el.getAttribute("aria-label")}`);
    box.appendChild(h("figure", { class: "play" + (opts.winner === seat ? " winner" : "") }, el, h("figcaption", {}, who)));
  }
  return box;
}

/** Opponents strip: name and number of cards of every other seat. */
export function seatsEl(ctx, sizes, extra = () => null) {
  const n = ctx.players.length;
  const strip = h("div", { class: "seats" });
  for (let k = 1; k < n; k++) {
    const s = (ctx.seat + k) % n;
    const turn = ctx.msg.current === s;
    strip.appendChild(h("div", { class: "seat" + (turn ? " turn" : ""), "aria-current": turn ? "true" : null },
      h("div", { class: "seat-name" }, ctx.seatName(s)),
      sizes && sizes[s] !== undefined ? backsEl(sizes[s], 8) : null,
      extra(s)));
  }
  return strip;
}

/** The board of any game: seats, trick, last trick, trump and the remaining facts. */
export function render(ctx) {
  const obs = ctx.obs;
  const board = h("div", { class: "board" });
  const shown = new Set(["hand", "current_trick", "trick", "hand_sizes"]);
  const chips = h("div", { class: "chips" });
  if (obs.trump_symbol !== undefined || obs.trump !== undefined) {
    chips.appendChild(h("span", { class: "chip" }, `${t("table.trump")}: ${obs.trump_symbol ?? obs.trump ?? "—"}`));
    shown.add("trump"); shown.add("trump_symbol");
  }
  for (const key of ["scores", "points", "score"]) {
    if (Array.isArray(obs[key])) {
      chips.appendChild(h("span", { class: "chip" }, `${t("table.scores")}: ` +
        obs[key].map((v, i) => `${ctx.seatName(i)} ${v}`).join(" · ")));
      shown.add(key);
    }
  }
  board.appendChild(chips);
  board.appendChild(seatsEl(ctx, obs.hand_sizes ?? obs.hand_count));
  board.appendChild(trickEl(ctx, trickPlays(obs), { label: t("table.trick") }));
  const last = obs.last_trick ?? (Array.isArray(obs.tricks) && obs.tricks.length ? obs.tricks[obs.tricks.length - 1] : null);
  if (last) {
    const plays = trickPlays({ current_trick: last, hand_sizes: obs.hand_sizes });
    if (plays.length) {
      board.appendChild(h("div", { class: "last" }, h("h3", {}, t("table.last")),
        trickEl(ctx, plays, { small: true, label: t("table.last"), winner: last.winner })));
    }
    shown.add("last_trick");
  }
  ctx.shownKeys = shown;
  return board;
}
