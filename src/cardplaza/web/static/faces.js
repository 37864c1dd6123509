// Faces at the table: the computer players' names and their drawn portraits (SVG made here,
// one look per seat, a sign of the level worn on top), a person's initial in a disc.
import { t } from "./i18n.js";
import { h } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
/** How many computer names the catalog has (look.cpu.0 … look.cpu.7). */
export const ROSTER = 8;

// One look per seat: background, shirt, skin, hair colour and hair style.
const LOOKS = [
  { bg: "#3f6fb5", shirt: "#1d3f73", skin: "#f2c9a0", hair: "#2b1d14", style: 0 },
  { bg: "#c0504d", shirt: "#7a2423", skin: "#e8b48a", hair: "#111111", style: 1 },
  { bg: "#6b8e23", shirt: "#3d5412", skin: "#f5d2b3", hair: "#8a4b1f", style: 2 },
  { bg: "#8064a2", shirt: "#4a3566", skin: "#c98e63", hair: "#1b1b1b", style: 3 },
  { bg: "#d08a1e", shirt: "#80510c", skin: "#f0c7a8", hair: "#5a3a22", style: 4 },
  { bg: "#2f8f8a", shirt: "#165653", skin: "#deb08a", hair: "#c9c3b8", style: 5 },
  { bg: "#b0487c", shirt: "#6b2149", skin: "#f6d5bd", hair: "#3a2a1a", style: 1 },
  { bg: "#4b6f87", shirt: "#263e4f", skin: "#b57a52", hair: "#231a12", style: 2 },
];

// The portraits a person may choose stand on backgrounds no computer has.
const PERSON_BG = ["#e0b341", "#5aa9e6", "#ef7d57", "#7bc47f", "#b388eb", "#f28cb1", "#4fc3c9", "#a1887f"];
/** How many portraits a person may choose from. */
export const CHOICES = PERSON_BG.length;

const HAIR = [
  // short, parted
  "M11 19 C10 9 30 9 29 19 C27 14 22 12 17 14 C15 15 13 16 11 19 Z",
  // long, to the shoulders
  "M10 30 C7 16 11 8 20 8 C29 8 33 16 30 30 L27 30 C28 22 28 17 26 14 C22 16 17 16 14 14 C12 17 12 22 13 30 Z",
  // bun on top
  "M11 18 C11 10 29 10 29 18 C25 14 15 14 11 18 Z M20 4.5 a3.6 3.6 0 1 0 0.01 0 Z",
  // spiky
  "M11 18 L10 12 L14 13 L15 8 L18 11 L20 6.5 L22 11 L25 8 L26 13 L30 12 L29 18 C25 14 15 14 11 18 Z",
  // bob with a fringe
  "M10 24 C8 12 13 8 20 8 C27 8 32 12 30 24 L27 24 L27 16 C22 15 16 15 13 16 L13 24 Z",
  // short, grey at the sides
  "M11 20 C10 15 12 12 14 12 L14 19 Z M29 20 C30 15 28 12 26 12 L26 19 Z M14 12 C17 10 23 10 26 12 C23 11.5 17 11.5 14 12 Z",
];

function el(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The name of the computer at ``seat`` (one name per seat, in the page's language). */
export function computerName(seat) {
  return t(`look.cpu.${seat % ROSTER}`);
}

/** 0 (the weakest level) … 3 (the strongest) of ``level`` among the game's ``levels``. */
export function tier(level, levels) {
  const list = (levels || []).filter((l) => l !== "random");
  const i = list.indexOf(String(level));
  if (level === "random") return 0;
  if (i < 0 || list.length < 2) return 1;
  return Math.round((i * 3) / (list.length - 1));
}

/** A drawn portrait: look ``k`` (a seat), wearing the sign of level tier ``lv`` (0–3). */
export function portrait(k, lv = 1, person = false) {
  const L = person ? { ...LOOKS[k % LOOKS.length], bg: PERSON_BG[k % CHOICES] } : LOOKS[k % LOOKS.length];
  const svg = el("svg", { viewBox: "0 0 40 40", class: "portrait", "aria-hidden": "true", focusable: "false" });
  svg.appendChild(el("circle", { cx: 20, cy: 20, r: 20, fill: L.bg }));
  svg.appendChild(el("path", { d: "M6 40 C7 31 13 28 20 28 C27 28 33 31 34 40 Z", fill: L.shirt }));
  svg.appendChild(el("rect", { x: 17.5, y: 24, width: 5, height: 5, rx: 1.5, fill: L.skin }));
  svg.appendChild(el("circle", { cx: 20, cy: 19, r: 8.5, fill: L.skin }));
  svg.appendChild(el("path", { d: HAIR[L.style], fill: L.hair }));
  svg.appendChild(el("circle", { cx: 16.8, cy: 19.4, r: 1.1, fill: "#1a1a1a" }));
  svg.appendChild(el("circle", { cx: 23.2, cy: 19.4, r: 1.1, fill: "#1a1a1a" }));
  svg.appendChild(el("circle", { cx: 14.8, cy: 22.4, r: 1.4, fill: "#e8837a", opacity: 0.45 }));
  svg.appendChild(el("circle", { cx: 25.2, cy: 22.4, r: 1.4, fill: "#e8837a", opacity: 0.45 }));
  svg.appendChild(el("path", { d: "M17.2 23 Q20 25.6 22.8 23", fill: "none", stroke: "#6b2a1a",
                               "stroke-width": 1.1, "stroke-linecap": "round" }));
  if (lv === 0) {  // a beginner's leaf
    svg.appendChild(el("path", { d: "M30 3 L35 6 L35 13 L30 10 Z", fill: "#f4d03f" }));
    svg.appendChild(el("path", { d: "M30 3 L25 6 L25 13 L30 10 Z", fill: "#2e9e4f" }));
  } else if (lv === 2) {  // round glasses
    const g = { fill: "none", stroke: "#1a1a1a", "stroke-width": 0.9 };
    svg.appendChild(el("circle", { cx: 16.8, cy: 19.4, r: 2.6, ...g }));
    svg.appendChild(el("circle", { cx: 23.2, cy: 19.4, r: 2.6, ...g }));
    svg.appendChild(el("path", { d: "M19.4 19.2 L20.6 19.2", ...g }));
  } else if (lv === 3) {  // a crown
    svg.appendChild(el("path", { d: "M13 10 L14 3.5 L17 7 L20 2 L23 7 L26 3.5 L27 10 Z", fill: "#f2c14e",
                                 stroke: "#8a6400", "stroke-width": 0.7, "stroke-linejoin": "round" }));
  }
  return svg;
}

/** A person's disc: the first letter of the name. */
export function initialDisc(name, k = 0) {
  const L = LOOKS[k % LOOKS.length];
  const letter = [...String(name || "?").trim()][0] || "?";
  const svg = el("svg", { viewBox: "0 0 40 40", class: "portrait initial", "aria-hidden": "true", focusable: "false" });
  svg.appendChild(el("circle", { cx: 20, cy: 20, r: 20, fill: L.bg }));
  svg.appendChild(el("circle", { cx: 20, cy: 20, r: 17, fill: "none", stroke: "#fff", "stroke-width": 1.4, opacity: 0.7 }));
  const text = el("text", { x: 20, y: 21, "text-anchor": "middle", "dominant-baseline": "central",
                            "font-size": 19, "font-weight": 700, fill: "#fff" });
  text.textContent = letter.toUpperCase();
  svg.appendChild(text);
  return svg;
}

/** The face of ``seat`` at a table (``ctx``: players, seat, info): a computer's portrait with
 * its level's sign; a person's chosen portrait (``chosen``: 0–7) or initial. */
export function seatFace(ctx, seat, chosen = null) {
  const p = ctx.players[seat] || {};
  const wrap = document.createElement("span");
  wrap.className = "avatar";
  wrap.dataset.seat = String(seat);
  if (p.kind === "computer") {
    const levels = ctx.info && ctx.info.levels;
    const lv = tier(p.level, levels);
    wrap.dataset.kind = "computer";
    wrap.dataset.tier = String(lv);
    wrap.appendChild(portrait(seat, lv));
  } else if (chosen !== null && chosen !== undefined && seat === ctx.seat) {
    wrap.dataset.kind = "person";
    wrap.appendChild(portrait(Number(chosen), 1, true));
  } else {
    wrap.dataset.kind = "person";
    wrap.appendChild(initialDisc(p.name || t("table.you"), seat));
  }
  return wrap;
}

/** The lobby's choice of the player's face: the initial of ``nameInput``'s name or one of the
 * portraits; ``chosen`` (null or 0…CHOICES-1) is checked, ``onPick(choice)`` is told. */
export function facePicker(chosen, nameInput, onPick) {
  const box = h("fieldset", { class: "opt face-pick" }, h("legend", {}, t("look.avatar")));
  const row = h("div", { class: "face-row" });
  const initial = h("span", { class: "avatar" }, initialDisc(nameInput.value || "?"));
  nameInput.addEventListener("input", () => initial.replaceChildren(initialDisc(nameInput.value || "?")));
  const options = [["", initial, t("look.avatar.initial")]];
  for (let k = 0; k < CHOICES; k++) {
    options.push([String(k), h("span", { class: "avatar" }, portrait(k, 1, true)), t("look.avatar.n", { n: k + 1 })]);
  }
  const current = chosen === null || chosen === undefined ? "" : String(chosen);
  for (const [value, face, label] of options) {
    const id = `face-${value === "" ? "initial" : value}`;
    const input = h("input", { type: "radio", name: "__face", id, value, "aria-label": label });
    input.checked = value === current;
    input.addEventListener("change", () => { if (input.checked) onPick(value === "" ? null : Number(value)); });
    // The radio (named by its aria-label) lies over its picture and takes the taps.
    row.appendChild(h("span", { class: "face-choice", title: label }, input, h("span", { class: "face-tile" }, face)));
  }
  box.appendChild(row);
  return box;
}
