// Motion with the Web Animations API: cards slide from a seat to the trick, a finished trick
// gathers toward its winner, deals and meld reveals. Nothing moves at instant pace or when the
// system asks for reduced motion.
import { motionOn } from "./settings.js";

function centre(r) { return [r.left + r.width / 2, r.top + r.height / 2]; }

/** Animations that hold their last frame (a gathered trick stays out of sight). */
const held = new Set();

/** Run keyframes on el; resolves when done (at once when motion is off). */
export function animate(el, keyframes, options) {
  if (!el || !motionOn() || !options || !options.duration) return Promise.resolve();
  try {
    const a = el.animate(keyframes, options);
    if (options.fill === "forwards" || options.fill === "both") held.add(a);
    return a.finished.then(() => undefined, () => undefined);
  } catch { return Promise.resolve(); }
}

/** Ends the finished animations that still hold their last frame: the table is drawn anew,
 * and an element it keeps shows as drawn. */
export function release() {
  for (const a of held) {
    if (a.playState === "finished" || a.playState === "idle") {
      a.cancel();
      held.delete(a);
    }
  }
}

/** el slides into its place from the rectangle ``from`` (a seat, or the card's old place). */
export function slideFrom(el, from, duration) {
  if (!from || !motionOn()) return Promise.resolve();
  const to = el.getBoundingClientRect();
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const s = from.width && to.width ? Math.max(0.35, Math.min(1.4, from.width / to.width)) : 0.6;
  return animate(el, [
    { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${s})`, opacity: 0.4 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ], { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** el flies toward the rectangle ``to`` and fades (a trick gathered by its winner). */
export function flyTo(el, to, duration, delay = 0) {
  if (!to || !motionOn()) return Promise.resolve();
  const from = el.getBoundingClientRect();
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  return animate(el, [
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
    { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(0.35)`, opacity: 0 },
  ], { duration, delay, easing: "cubic-bezier(.5,0,.8,.4)", fill: "forwards" });
}

/** Cards dealt one after another from the rectangle ``from`` (the middle of the table). */
export function dealIn(els, from, step) {
  if (!from || !motionOn()) return Promise.resolve();
  const [fx, fy] = centre(from);
  return Promise.all(els.map((el, i) => {
    const to = el.getBoundingClientRect();
    const [tx, ty] = centre(to);
    return animate(el, [
      { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(0.5) rotate(-20deg)`, opacity: 0 },
      { transform: "translate(0, 0) scale(1) rotate(0deg)", opacity: 1 },
    ], { duration: 260, delay: i * step, easing: "ease-out", fill: "backwards" });
  }));
}

/** Cards turned face up one after another (melds shown, a widow exposed). */
export function revealCards(els, duration) {
  if (!motionOn()) return Promise.resolve();
  return Promise.all(els.map((el, i) => animate(el, [
    { transform: "perspective(400px) rotateY(90deg)", opacity: 0.3 },
    { transform: "perspective(400px) rotateY(0deg)", opacity: 1 },
  ], { duration, delay: i * 60, easing: "ease-out", fill: "backwards" })));
}

/** A dialog or panel appearing. */
export function popIn(el, duration = 220) {
  return animate(el, [{ transform: "scale(.94)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }],
    { duration, easing: "ease-out" });
}

/** A pause that ``cancel()`` ends early; resolves true when it ran its full length. */
export function pause(ms) {
  let done;
  let timer = null;
  const p = new Promise((resolve) => {
    done = resolve;
    timer = ms > 0 ? setTimeout(() => resolve(true), ms) : null;
    if (!timer) resolve(true);
  });
  p.cancel = () => { if (timer) clearTimeout(timer); done(false); };
  return p;
}
