// Cards drawn with CSS: rank and suit symbol on a white face; backs with a CSS pattern.
import { t } from "./i18n.js";

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

/** Parse a card text ("AS", "10H", "A♠", "Jo") into {rank, suit}. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  if (/^jo/i.test(text)) return { rank: "Jo", suit: null };
  const m = /^(10|[2-9TJQKA])([SHDC♠♥♦♣])$/i.exec(text.trim());
  if (!m) return null;
  const suitMap = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  const rank = m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase();
  const suit = suitMap[m[2]] ?? m[2].toUpperCase();
  return { rank, suit };
}

/** Display text of a card, e.g. "A♠". */
export function cardText(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  return c.suit ? `${c.rank}${SYMBOL[c.suit]}` : t("joker");
}

/** Spoken label of a card, e.g. "ace of spades" / "スペードのA". */
export function cardSpoken(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (!c.suit) return t("joker");
  const rank = t(`rank.${c.rank}`);
  const suit = t(`suit.${c.suit}`);
  return document.documentElement.lang === "ja" ? `${suit}の${rank}` : `${rank} of ${suit}`;
}

/** A deck helper for one game: card id → text, sorting key. */
export class Deck {
  constructor(texts) { this.texts = texts || []; }
  text(id) { return typeof id === "number" ? this.texts[id] : id; }
  isCard(v) {
    return (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < this.texts.length)
      || (typeof v === "string" && parseCard(v) !== null);
  }
  /** Sorting key: suit (♠ ♥ ♣ ♦ alternate colours), then strength high to low. */
  key(id) {
    const c = parseCard(this.text(id));
    const faces = this.faces();
    const face = typeof id === "number" ? id % faces : 0;
    return [c && c.suit ? SUIT_ORDER[c.suit] : 9, -face, id];
  }
  faces() {
    const seen = new Set(this.texts);
    return seen.size || 1;
  }
  sort(ids) {
    return [...ids].sort((a, b) => {
      const ka = this.key(a), kb = this.key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
      return 0;
    });
  }
}

/** A card element. opts: {small, button, back, label} */
export function cardEl(text, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card" + (opts.small ? " small" : "");
  if (opts.button) el.type = "button";
  if (opts.back) {
    el.classList.add("back");
    el.setAttribute("aria-label", t("card.back"));
    if (!opts.button) el.setAttribute("role", "img");
    return el;
  }
  const c = parseCard(text);
  if (!c) {
    el.textContent = String(text);
    return el;
  }
  const red = c.suit === "H" || c.suit === "D";
  el.classList.add(red ? "red" : "black");
  if (!c.suit) el.classList.add("joker");
  const sym = c.suit ? SYMBOL[c.suit] : "★";
  const rank = c.suit ? c.rank : "Jo";
  el.innerHTML = `<span class="corner"><span class="r">${rank}</span><span class="s">${sym}</span></span>`
    + `<span class="pip" aria-hidden="true">${sym}</span>`;
  el.querySelector(".corner").setAttribute("aria-hidden", "true");
  el.setAttribute("aria-label", opts.label || cardSpoken(text));
  if (!opts.button) el.setAttribute("role", "img");
  el.dataset.card = text;
  return el;
}

/** A row of face-down cards with a count. */
export function backsEl(n, max = 12) {
  const wrap = document.createElement("div");
  wrap.className = "backs";
  wrap.setAttribute("role", "img");
  wrap.setAttribute("aria-label", t("table.cards", { n }));
  for (let i = 0; i < Math.min(n, max); i++) {
    const b = document.createElement("div");
    b.className = "card small back";
    wrap.appendChild(b);
  }
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = t("table.cards", { n });
  wrap.appendChild(count);
  return wrap;
}
