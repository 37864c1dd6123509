// Each game's look in the lobby: a small fan of the cards that make the game (SVG drawn here).

const NS = "http://www.w3.org/2000/svg";

// The cards of each fan, left to right: [rank, suit].
const FANS = {
  pinochle2: [["J", "♦"], ["Q", "♠"]],
  pinochle4: [["A", "♣"], ["10", "♦"], ["K", "♥"], ["Q", "♠"]],
  pinochle3: [["A", "♠"], ["10", "♠"], ["K", "♦"]],
  pinochle_dd: [["A", "♥"], ["A", "♥"], ["A", "♠"], ["A", "♠"]],
  piquet: [["7", "♣"], ["8", "♥"], ["A", "♣"]],
  efudatori: [["J", "♣"], ["Q", "♦"], ["K", "♥"]],
};
const RED = new Set(["♥", "♦"]);

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function card(rank, suit) {
  const colour = RED.has(suit) ? "#c62828" : "#1b1b1b";
  const g = el("g", {});
  g.appendChild(el("rect", { x: -9, y: -26, width: 18, height: 26, rx: 2.2, fill: "#fff", stroke: "#9aa39d", "stroke-width": 0.6 }));
  g.appendChild(el("text", { x: -7.2, y: -19.6, "font-size": 6.2, "font-weight": 700, fill: colour,
                             "font-family": "system-ui, sans-serif" }, rank));
  g.appendChild(el("text", { x: -7.2, y: -13.8, "font-size": 5.4, fill: colour, "font-family": "system-ui, sans-serif" }, suit));
  if (/^[JQK]$/.test(rank)) {
    // a picture card: a small figure with a crown
    g.appendChild(el("rect", { x: -3.6, y: -16, width: 9, height: 12, rx: 1.2, fill: RED.has(suit) ? "#fbe3e3" : "#e4e9f5",
                               stroke: colour, "stroke-width": 0.5 }));
    g.appendChild(el("circle", { cx: 0.9, cy: -11.3, r: 2.1, fill: "#f2c9a0" }));
    g.appendChild(el("path", { d: "M-1.6 -13.6 L-1.2 -15.6 L0 -14.4 L0.9 -16.2 L1.8 -14.4 L3 -15.6 L3.4 -13.6 Z", fill: "#f2c14e" }));
    g.appendChild(el("path", { d: "M-2.1 -4.4 C-1.8 -7.6 3.6 -7.6 3.9 -4.4 Z", fill: colour }));
  } else {
    g.appendChild(el("text", { x: 1.2, y: -5.4, "font-size": 12, "text-anchor": "middle", fill: colour,
                               "font-family": "system-ui, sans-serif" }, suit));
  }
  return g;
}

/** The emblem of ``game``: its cards fanned from one point (decorative). */
export function gameEmblem(game) {
  const cards = FANS[game] || [["A", "♠"], ["A", "♥"]];
  const svg = el("svg", { viewBox: "0 0 48 40", class: "emblem", "aria-hidden": "true", focusable: "false" });
  const n = cards.length;
  const spread = n <= 2 ? 22 : n === 3 ? 20 : 16;
  cards.forEach(([rank, suit], i) => {
    const angle = (i - (n - 1) / 2) * spread;
    const g = card(rank, suit);
    g.setAttribute("transform", `translate(24 37) rotate(${angle}) translate(0 -3)`);
    svg.appendChild(g);
  });
  return svg;
}
