// Short sounds made with the Web Audio API (no files): a card played, a trick won, your turn.
import { soundOn } from "./settings.js";

let ctx = null;

function audio() {
  if (!soundOn()) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) {
    try { ctx = new AC(); } catch { return null; }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// Browsers start audio only after a gesture: the first tap or key unlocks it.
for (const ev of ["pointerdown", "keydown"]) {
  window.addEventListener(ev, () => { if (soundOn()) audio(); }, { once: true, capture: true });
}

function tone(ac, freq, start, dur, gain = 0.12, type = "sine") {
  const o = ac.createOscillator();
  const g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, start);
  g.gain.setValueAtTime(0.0001, start);
  g.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  o.connect(g).connect(ac.destination);
  o.start(start);
  o.stop(start + dur + 0.02);
}

function snap(ac, start) {
  // A card put down: a short band-passed noise burst.
  const len = Math.floor(ac.sampleRate * 0.06);
  const buf = ac.createBuffer(1, len, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buf;
  const f = ac.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = 1800;
  f.Q.value = 0.8;
  const g = ac.createGain();
  g.gain.value = 0.5;
  src.connect(f).connect(g).connect(ac.destination);
  src.start(start);
}

/** Play one of "card", "trick", "turn" (nothing when sound is off or unavailable). */
export function play(kind) {
  const ac = audio();
  if (!ac || ac.state !== "running") return;
  const now = ac.currentTime + 0.005;
  if (kind === "card") snap(ac, now);
  else if (kind === "trick") { tone(ac, 660, now, 0.16, 0.08, "triangle"); tone(ac, 880, now + 0.09, 0.22, 0.08, "triangle"); }
  else if (kind === "turn") tone(ac, 523, now, 0.25, 0.07, "sine");
}
