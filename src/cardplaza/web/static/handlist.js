// A hand written out by suit ("♠ A 10 K Q"), one line a suit: readable where card faces
// would shrink to thumbnails (a face-up hand at a seat: the replay viewer).
import { h } from "./dom.js";
import { parseCard } from "./cards.js";

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The cards ``ids`` (sorted by ``deck``) as lines by suit; each rank carries its card id. */
export function handLines(deck, ids, label) {
  const lines = [];
  let last = null;
  for (const id of deck.sort(ids)) {
    const c = parseCard(deck.text(id));
    const suit = c && c.suit ? c.suit : "";
    if (!lines.length || suit !== last) {
      last = suit;
      lines.push(h("span", { class: `hl-line suit-${suit || "X"}` },
        h("span", { class: "hl-suit" }, SYMBOL[suit] || "")));
    }
    lines[lines.length - 1].appendChild(h("span", { class: "hl-rank", "data-id": String(id) },
      c ? (c.suit ? c.rank : "🃏") : String(deck.text(id))));
  }
  return h("div", { class: "hand-lines", role: "group", "aria-label": label }, lines);
}
