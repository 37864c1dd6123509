// Building page elements: h(tag, attrs, ...children); bringing a drawn part of the page up to
// date with a freshly built copy of it while keeping the nodes that did not change (morph).

/** The listeners given through ``h`` or ``on``, per element, so that a kept node can take
 * over those of the copy built in its place. */
const listeners = new WeakMap();
/** Elements taken whole: never merged into an older node (see ``whole``). */
const wholes = new WeakSet();

/** ``el.addEventListener(type, fn)``, remembered for ``morph``; returns el. */
export function on(el, type, fn) {
  el.addEventListener(type, fn);
  const list = listeners.get(el);
  if (list) list.push([type, fn]);
  else listeners.set(el, [[type, fn]]);
  return el;
}

/** Marks el (and all it holds) to be put in as built by ``morph``, not merged: for parts whose
 * listeners keep references to the elements built with them. Returns el. */
export function whole(el) {
  if (el && typeof el === "object") wholes.add(el);
  return el;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) on(el, k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

/** Stand-ins for live elements a drawing shows again as they are (see ``same``). */
const stands = new WeakMap();
/** Stand-ins not yet put in place by a merge. */
let waiting = [];

/** A stand-in for ``el``, an element already on the page that a new drawing shows unchanged
 * (a cached drawer's content): ``morph`` puts el itself where the stand-in is, without taking
 * it out of the page first when it already is in place. */
export function same(el) {
  const mark = document.createComment("");
  stands.set(mark, el);
  waiting.push(mark);
  return mark;
}

/** What pairs an old child with a new one: the kind of node, its first class (what part it
 * is: a seat, a card, the trick) and its name or data key. */
function keyOf(node) {
  if (node.nodeType !== 1) return `#${node.nodeType}`;
  const d = node.dataset;
  const id = node.id || (d && (d.key ?? d.id ?? d.seat ?? d.drawer)) || "";
  const cls = node.classList.length ? node.classList[0] : "";
  return `${node.namespaceURI}|${node.localName}|${cls}|${id}`;
}

/**
 * Make ``parent``'s children the nodes ``fresh`` (built anew, not yet in the page), keeping
 * each old child that pairs with a new one (same tag and key, in order) and bringing it up to
 * date: attributes, text, form state, listeners given through ``h``/``on``, children, all the
 * way down. What did not change is not touched, so the browser restyles, lays out and paints
 * only what did. ``keep(el, name)`` says which attributes an old element keeps although the
 * new copy lacks them (positions set after drawing, say).
 */
export function morph(parent, fresh, keep = null) {
  merge(parent, fresh, keep);
  // A stand-in inside a part put in as built (not merged) gives way to its element there.
  for (const mark of waiting) if (mark.isConnected) mark.replaceWith(stands.get(mark));
  waiting = [];
}

function merge(parent, fresh, keep) {
  const pool = new Map();
  for (const old of parent.childNodes) {
    const k = keyOf(old);
    const q = pool.get(k);
    if (q) q.push(old);
    else pool.set(k, [old]);
  }
  // Pair first, so that an old child left out is dropped where it is and the ones after it
  // stay in place (a card gone from the middle of the hand moves no other).
  const pairs = fresh.map((node) => {
    const live = stands.get(node);
    if (live) {
      const q = live.parentNode === parent ? pool.get(keyOf(live)) : null;
      if (q && q.includes(live)) q.splice(q.indexOf(live), 1);
      return live;
    }
    if (wholes.has(node)) return null;
    const q = pool.get(keyOf(node));
    return q && q.length ? q.shift() : null;
  });
  const used = new Set(pairs);
  let at = parent.firstChild;
  fresh.forEach((node, i) => {
    while (at && !used.has(at)) {
      const next = at.nextSibling;
      parent.removeChild(at);
      at = next;
    }
    let put = pairs[i];
    if (!put) put = node;
    else if (put !== stands.get(node)) update(put, node, keep);
    if (put === at) at = at.nextSibling;
    else parent.insertBefore(put, at);
  });
  while (at) {
    const next = at.nextSibling;
    parent.removeChild(at);
    at = next;
  }
}

const FORM = new Set(["INPUT", "TEXTAREA", "SELECT"]);

function update(old, node, keep) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  for (const a of [...old.attributes]) {
    if (!node.hasAttributeNS(a.namespaceURI, a.localName) && !(keep && keep(old, a.name))) {
      old.removeAttributeNS(a.namespaceURI, a.localName);
    }
  }
  for (const a of node.attributes) {
    // Inline style goes through the style object: the page's policy refuses style attributes.
    if (a.name === "style") {
      if (old.style.cssText !== node.style.cssText) old.style.cssText = node.style.cssText;
    } else if (old.getAttributeNS(a.namespaceURI, a.localName) !== a.value) {
      old.setAttributeNS(a.namespaceURI, a.name, a.value);
    }
  }
  const had = listeners.get(old);
  const got = listeners.get(node);
  if (had !== got) {
    if (had) for (const [type, fn] of had) old.removeEventListener(type, fn);
    if (got) {
      for (const [type, fn] of got) old.addEventListener(type, fn);
      listeners.set(old, got);
    } else listeners.delete(old);
  }
  merge(old, [...node.childNodes], keep);
  if (FORM.has(old.tagName)) {
    if (old.tagName === "SELECT") {
      if (old.selectedIndex !== node.selectedIndex) old.selectedIndex = node.selectedIndex;
    } else {
      if (old.value !== node.value) old.value = node.value;
      if (old.checked !== node.checked) old.checked = node.checked;
    }
  }
}
