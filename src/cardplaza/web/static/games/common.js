// Small pieces several game adapters share.
import { h } from "../dom.js";
import { t } from "../i18n.js";

export const SUITS = ["♠", "♥", "♦", "♣"];
const LETTERS = "SHDC";

/** Whether a suit index (♠ ♥ ♦ ♣) is red. */
export function isRed(i) { return i === 1 || i === 2; }

/** A chip naming a suit, e.g. the trump: "Trump ♥". */
export function suitChip(i, label, cls = "trump") {
  const sym = typeof i === "number" ? SUITS[i] : i;
  const idx = typeof i === "number" ? i : SUITS.indexOf(i);
  return h("span", { class: `chip ${cls} suit-${LETTERS[idx]}` + (isRed(idx) ? " red" : ""),
                     "aria-label": `${label} ${t(`suit.${LETTERS[idx]}`)}` },
    h("span", { class: "chip-label" }, label), h("span", { class: "chip-suit" }, sym));
}

/** "+5" / "-3" / "0". */
export function signed(v) { return v > 0 ? `+${v}` : String(v); }
