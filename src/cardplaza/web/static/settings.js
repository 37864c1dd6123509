// Settings remembered in localStorage: pace of play, sound, four-colour deck, lobby options.

const PREFIX = "cardplaza.";

/** A remembered value (JSON), or ``fallback``. */
export function load(key, fallback = null) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch { return fallback; }
}

/** Remember a value (JSON). */
export function save(key, value) {
  try { localStorage.setItem(PREFIX + key, JSON.stringify(value)); } catch { /* private mode */ }
  for (const fn of listeners) fn(key, value);
}

const listeners = new Set();
/** Call fn(key, value) whenever a setting is saved. */
export function onSetting(fn) { listeners.add(fn); return () => listeners.delete(fn); }

export const PACES = ["slow", "normal", "fast", "instant"];

// Milliseconds of each motion at each pace: a card sliding in, a finished trick held on the
// table with its winner marked, the trick gathered to the winner, the deal, a meld shown.
const TIMING = {
  slow: { slide: 520, hold: 2000, gather: 520, deal: 45, reveal: 420, gap: 700 },
  normal: { slide: 320, hold: 1000, gather: 360, deal: 30, reveal: 300, gap: 380 },
  fast: { slide: 170, hold: 450, gather: 200, deal: 14, reveal: 160, gap: 150 },
  instant: { slide: 0, hold: 0, gather: 0, deal: 0, reveal: 0, gap: 0 },
};

/** The chosen pace (default normal). */
export function pace() {
  const p = load("pace", "normal");
  return PACES.includes(p) ? p : "normal";
}

/** Whether the player asked the system for reduced motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Whether anything may move: not at instant pace, not with reduced motion. */
export function motionOn() {
  return pace() !== "instant" && !reducedMotion();
}

/** Timings (ms) of the current pace; motion durations are 0 when motion is off. */
export function timing() {
  const tm = { ...TIMING[pace()] };
  if (reducedMotion()) { tm.slide = 0; tm.gather = 0; tm.deal = 0; tm.reveal = 0; }
  return tm;
}

export function soundOn() { return load("sound", true) !== false; }
export function fourColour() { return load("fourColour", false) === true; }

/** Last options chosen in the lobby for a game ({} if none). */
export function lobbyOptions(game) {
  const all = load("lobby", {});
  return (all && typeof all === "object" && all[game]) || {};
}

export function saveLobbyOptions(game, values) {
  const all = load("lobby", {}) || {};
  all[game] = values;
  save("lobby", all);
}
