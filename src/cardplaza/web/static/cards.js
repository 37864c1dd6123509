// Cards drawn as the project's own SVG: two corner indices, pips laid out as on real cards,
// court figures for J, Q, K, a Joker, and a patterned back. Optional four-colour deck.
//
// Each face is a small standalone SVG document shown as an image: the browser draws it once
// per size and reuses the picture, and a hand or a rules page holds one element per card
// instead of the dozens its shapes would add to the page. A card's state in the hand
// (playable, chosen, hinted) is drawn over the image by the style sheet.
import { t } from "./i18n.js";

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const W = 200;
const H = 280;

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
  constructor(texts) { this.texts = texts || []; this.faceCount = new Set(this.texts).size || 1; }
  text(id) { return typeof id === "number" ? this.texts[id] : id; }
  isCard(v) {
    return (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < this.texts.length)
      || (typeof v === "string" && parseCard(v) !== null);
  }
  /** Sorting key: suit (♠ ♥ ♣ ♦ alternate colours), then strength high to low. */
  key(id) {
    const c = parseCard(this.text(id));
    const face = typeof id === "number" ? id % this.faceCount : 0;
    return [c && c.suit ? SUIT_ORDER[c.suit] : 9, -face, id];
  }
  sort(ids) {
    return [...ids].sort((a, b) => {
      const ka = this.key(a), kb = this.key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
      return 0;
    });
  }
}

// -- the SVG sprite: suit shapes defined once, used by every card --------------------------
const SUIT_PATHS = {
  H: "M50 92C22 70 2 52 2 30 2 14 14 3 28 3c10 0 18 6 22 15C54 9 62 3 72 3c14 0 26 11 26 27 0 22-20 40-48 62z",
  D: "M50 2 88 50 50 98 12 50z",
  S: "M50 2C62 22 98 40 98 62c0 14-11 24-24 24-9 0-16-4-20-11 1 10 5 17 13 23H33c8-6 12-13 13-23-4 7-11 11-20 11C13 86 2 76 2 62 2 40 38 22 50 2z",
  C: "M50 4c12 0 21 9 21 21 0 6-2 11-6 15 3-1 5-2 9-2 12 0 22 10 22 22S86 82 74 82c-9 0-16-5-20-13 1 12 5 21 13 29H33c8-8 12-17 13-29-4 8-11 13-20 13C14 82 4 72 4 60s10-22 22-22c4 0 6 1 9 2-4-4-6-9-6-15C29 13 38 4 50 4z",
};

const CLIP = `<clipPath id="cp-court-clip"><rect x="46" y="34" width="108" height="212" rx="6"/></clipPath>`;
const BACK_PATTERN = `<pattern id="cp-back-pat" width="20" height="20" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <rect width="20" height="20" fill="#23479a"/><rect width="10" height="10" fill="#2d58b8"/>
  <rect x="10" y="10" width="10" height="10" fill="#2d58b8"/></pattern>`;

/** The definitions a face's markup refers to (its suit shapes, the court clip, the back's
 * pattern): an image cannot look outside its own document. */
function defsFor(markup) {
  const suits = new Set([...markup.matchAll(/#cp-suit-([SHDC])/g)].map((m) => m[1]));
  return `<defs>${[...suits].map((x) => `<symbol id="cp-suit-${x}" viewBox="0 0 100 100"><path d="${SUIT_PATHS[x]}"/></symbol>`).join("")}`
    + `${markup.includes("cp-court-clip") ? CLIP : ""}${markup.includes("cp-back-pat") ? BACK_PATTERN : ""}</defs>`;
}

const use = (s, x, y, size, flip = false) => {
  const tr = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#cp-suit-${s}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}"${tr}/>`;
};

// Pip centres for the number cards, as on a real deck (lower-half pips are turned round).
const L = 62, C = 100, R = 138;
const PIPS = {
  2: [[C, 62], [C, 218]],
  3: [[C, 62], [C, 140], [C, 218]],
  4: [[L, 62], [R, 62], [L, 218], [R, 218]],
  5: [[L, 62], [R, 62], [C, 140], [L, 218], [R, 218]],
  6: [[L, 62], [R, 62], [L, 140], [R, 140], [L, 218], [R, 218]],
  7: [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [L, 218], [R, 218]],
  8: [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [C, 179], [L, 218], [R, 218]],
  9: [[L, 62], [R, 62], [L, 114], [R, 114], [C, 140], [L, 166], [R, 166], [L, 218], [R, 218]],
  10: [[L, 62], [R, 62], [C, 88], [L, 114], [R, 114], [L, 166], [R, 166], [C, 192], [L, 218], [R, 218]],
};

const IX = `font-family='Georgia, "DejaVu Serif", "Times New Roman", serif' font-weight="700"`;

function corners(rank, suit) {
  const label = rank === "Jo" ? "" : rank;
  const fs = rank === "10" ? 44 : 50;
  const idx = (rank === "Jo")
    ? `<text x="26" y="40" ${IX} font-size="30" text-anchor="middle">J</text>
       <text x="26" y="70" ${IX} font-size="30" text-anchor="middle">O</text>
       <text x="26" y="100" ${IX} font-size="30" text-anchor="middle">K</text>`
    : `<text x="27" y="50" ${IX} font-size="${fs}" text-anchor="middle"${rank === "10" ? ' textLength="46" lengthAdjust="spacingAndGlyphs"' : ""}>${label}</text>${use(suit, 27, 76, 32)}`;
  return `<g>${idx}</g><g transform="rotate(180 ${W / 2} ${H / 2})">${idx}</g>`;
}

// A court figure: the upper half drawn once and turned round for the lower half.
function courtHalf(rank, suit) {
  const ink = "currentColor";
  const gold = "#e3b23c";
  const blue = "#2f55a4";
  const skin = "#f6dcc0";
  let hat;
  if (rank === "K") {
    hat = `<path d="M70 62 L74 34 L86 50 L100 28 L114 50 L126 34 L130 62 Z" fill="${gold}" stroke="#7a5a12" stroke-width="2"/>
           <circle cx="100" cy="30" r="4" fill="${ink}"/><rect x="70" y="58" width="60" height="8" fill="${ink}"/>`;
  } else if (rank === "Q") {
    hat = `<path d="M72 64 Q76 40 100 38 Q124 40 128 64 Z" fill="${ink}"/>
           <path d="M78 50 L86 40 L94 50 L100 36 L106 50 L114 40 L122 50" fill="none" stroke="${gold}" stroke-width="4"/>
           <circle cx="100" cy="34" r="5" fill="${gold}"/>`;
  } else {
    hat = `<path d="M68 64 Q70 44 100 42 Q126 44 132 62 Z" fill="${blue}"/>
           <path d="M118 46 Q140 20 150 30 Q136 34 124 52 Z" fill="${ink}"/>
           <rect x="68" y="58" width="64" height="7" fill="${gold}"/>`;
  }
  const beard = rank === "K" ? `<path d="M84 92 Q100 112 116 92 Q110 100 100 100 Q90 100 84 92Z" fill="#8b5a2b"/>` : "";
  const hair = rank === "Q" ? `<path d="M76 66 Q70 92 80 106 L84 70Z M124 66 Q130 92 120 106 L116 70Z" fill="${gold}"/>` : "";
  return `${hair}<ellipse cx="100" cy="82" rx="20" ry="22" fill="${skin}" stroke="#5a4030" stroke-width="1.5"/>
    <circle cx="92" cy="80" r="2.4" fill="#222"/><circle cx="108" cy="80" r="2.4" fill="#222"/>
    <path d="M94 92 Q100 96 106 92" fill="none" stroke="#a33" stroke-width="2"/>${beard}
    ${hat}
    <path d="M52 140 Q54 112 78 106 L100 118 L122 106 Q146 112 148 140 Z" fill="${ink}"/>
    <path d="M78 106 L100 140 L122 106 L100 118 Z" fill="${gold}"/>
    <path d="M60 140 Q62 122 74 116 L82 140Z M140 140 Q138 122 126 116 L118 140Z" fill="${blue}"/>
    ${use(suit, 132, 124, 18)}`;
}

function courtFace(rank, suit) {
  return `<rect x="46" y="34" width="108" height="212" rx="6" fill="#fff8e6" stroke="currentColor" stroke-width="2.5"/>
    <g clip-path="url(#cp-court-clip)">${courtHalf(rank, suit)}<g transform="rotate(180 100 140)">${courtHalf(rank, suit)}</g></g>
    <line x1="48" y1="140" x2="152" y2="140" stroke="currentColor" stroke-width="1.5"/>`;
}

function jokerFace() {
  return `<g transform="translate(0 6)">
    <path d="M60 150 Q70 96 100 90 Q130 96 140 150 Z" fill="#7b2a8e"/>
    <path d="M58 104 Q66 60 100 86 Q134 60 142 104 Q120 84 100 96 Q80 84 58 104Z" fill="#c8102e"/>
    <path d="M100 86 Q96 52 112 40 Q104 62 100 86Z" fill="#e3b23c"/>
    <circle cx="56" cy="104" r="7" fill="#e3b23c"/><circle cx="144" cy="104" r="7" fill="#e3b23c"/><circle cx="113" cy="38" r="6" fill="#e3b23c"/>
    <ellipse cx="100" cy="118" rx="17" ry="19" fill="#f6dcc0" stroke="#5a4030" stroke-width="1.5"/>
    <circle cx="93" cy="115" r="2.4" fill="#222"/><circle cx="107" cy="115" r="2.4" fill="#222"/>
    <path d="M91 125 Q100 133 109 125" fill="none" stroke="#a33" stroke-width="2.5"/>
    <path d="M70 150 L84 138 L100 152 L116 138 L130 150 L130 160 L70 160Z" fill="#e3b23c"/>
    <path d="M100 176 l8 18 20 2-15 13 5 20-18-11-18 11 5-20-15-13 20-2z" fill="#e3b23c" stroke="#7a5a12" stroke-width="1.5"/></g>`;
}

// Ink of each suit: the usual two colours, or four (diamonds blue, clubs green) when the
// player asks for a four-colour deck.
const RED = "#c8102e";
const BLACK = "#161616";
const INKS = {
  two: { S: BLACK, H: RED, D: RED, C: BLACK, joker: "#6a1b9a" },
  four: { S: BLACK, H: RED, D: "#1758c6", C: "#137a33", joker: "#6a1b9a" },
};

/** A standalone SVG document: the face's markup with the definitions it uses. */
function svgDoc(inner, attrs) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" ${attrs}>`
    + `${defsFor(inner)}${inner}</svg>`;
}

function faceSvg(c, inks) {
  const suit = c.suit;
  let body;
  if (!suit) body = jokerFace();
  else if (c.rank === "A") body = use(suit, W / 2, H / 2, suit === "S" ? 96 : 76);
  else if (PIPS[c.rank]) body = PIPS[c.rank].map(([x, y]) => use(suit, x, y, 38, y > 150)).join("");
  else body = courtFace(c.rank, suit);
  const ink = inks[suit || "joker"];
  return svgDoc(`<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#8e8c82" stroke-width="2"/>`
    + `${body}${corners(c.rank, suit || "S")}`, `color="${ink}" fill="currentColor"`);
}

const BACK_SVG = svgDoc(`<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fff"/>
  <rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="8" fill="url(#cp-back-pat)"/>
  <rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="8" fill="none" stroke="#e3b23c" stroke-width="3"/>
  <circle cx="100" cy="140" r="34" fill="#1b3a80" stroke="#e3b23c" stroke-width="3"/>
  <use href="#cp-suit-S" x="78" y="118" width="22" height="22" fill="#fff"/><use href="#cp-suit-H" x="100" y="118" width="22" height="22" fill="#f2c14e"/>
  <use href="#cp-suit-D" x="78" y="140" width="22" height="22" fill="#f2c14e"/><use href="#cp-suit-C" x="100" y="140" width="22" height="22" fill="#fff"/>`, "");

/** The SVG document of a card face (``null``: the back) in the two- or four-colour deck. */
export function cardSvg(text, four = false) {
  if (text === null) return BACK_SVG;
  const c = parseCard(text);
  return c ? faceSvg(c, four ? INKS.four : INKS.two) : "";
}

const urlCache = new Map();

/** An image of a card face (or the back), in the deck the page shows now (its address made
 * once per card and deck). */
function faceImg(text) {
  const four = document.body.classList.contains("four-colour");
  const key = `${four ? 4 : 2}${text}`;
  let url = urlCache.get(key);
  if (url === undefined) {
    url = `data:image/svg+xml,${encodeURIComponent(cardSvg(text, four))}`;
    urlCache.set(key, url);
  }
  const img = document.createElement("img");
  img.alt = "";
  img.draggable = false;
  img.src = url;
  return img;
}

/** A card element. opts: {small, button, back, label} */
export function cardEl(text, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card" + (opts.small ? " small" : "");
  if (opts.button) el.type = "button";
  if (opts.back) {
    el.classList.add("back");
    el.appendChild(faceImg(null));
    el.setAttribute("aria-label", t("card.back"));
    if (!opts.button) el.setAttribute("role", "img");
    return el;
  }
  const c = parseCard(text);
  if (!c) {
    el.textContent = String(text);
    return el;
  }
  el.classList.add(c.suit === "H" || c.suit === "D" ? "red" : "black");
  if (!c.suit) el.classList.add("joker");
  el.appendChild(faceImg(text));
  el.setAttribute("aria-label", opts.label || cardSpoken(text));
  if (!opts.button) el.setAttribute("role", "img");
  el.dataset.card = text;
  return el;
}

/** A small fan of face-down cards for a seat (at most ``max`` drawn) with the count. */
export function backsEl(n, max = 8) {
  const wrap = document.createElement("div");
  wrap.className = "backs";
  wrap.setAttribute("role", "img");
  wrap.setAttribute("aria-label", t("table.cards", { n }));
  const fan = document.createElement("div");
  fan.className = "fan";
  const k = Math.min(n, max);
  for (let i = 0; i < k; i++) {
    const b = document.createElement("div");
    b.className = "mini-back";
    const a = k > 1 ? (i - (k - 1) / 2) * (36 / Math.max(k - 1, 4)) : 0;
    b.style.transform = `rotate(${a.toFixed(1)}deg)`;
    fan.appendChild(b);
  }
  wrap.appendChild(fan);
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = String(n);
  wrap.appendChild(count);
  return wrap;
}

/** A pile of face-down cards (stock, talon) with its count. */
export function pileEl(n, label) {
  const wrap = document.createElement("div");
  wrap.className = "pile";
  wrap.setAttribute("role", "img");
  wrap.setAttribute("aria-label", label || t("table.cards", { n }));
  for (let i = 0; i < Math.min(n, 4); i++) {
    const b = cardEl(null, { back: true, small: true });
    b.removeAttribute("role");
    b.removeAttribute("aria-label");
    b.style.transform = `translate(${i * 2}px, ${-i * 2}px)`;
    wrap.appendChild(b);
  }
  const count = document.createElement("span");
  count.className = "pile-count";
  count.textContent = String(n);
  wrap.appendChild(count);
  return wrap;
}

/** Fill every ``<span class="cards" data-cards="AS 10S KH">`` under root with card faces. */
export function fillCardTokens(root) {
  for (const span of root.querySelectorAll(".cards[data-cards]")) {
    if (span.dataset.filled) continue;
    span.dataset.filled = "1";
    const texts = span.dataset.cards.split(/\s+/).filter(Boolean);
    span.replaceChildren(...texts.map((x) => cardEl(x, { small: true })));
    span.setAttribute("role", "group");
    span.setAttribute("aria-label", texts.map((x) => cardSpoken(x)).join(", "));
  }
}
