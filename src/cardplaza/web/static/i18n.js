// The player's language and its texts. The language comes from localStorage, else
// navigator.language; the texts are the server's message catalog for it
// (GET /api/catalog/<lang>, from cardplaza/texts/catalogs/<lang>.json), keys such as
// "lobby.start" with {placeholders}. Engine texts (English) are translated by pattern below.

const catalogs = {};

async function load(l) {
  if (!catalogs[l]) {
    const r = await fetch(`/api/catalog/${l}`);
    if (!r.ok) throw new Error(`the ${l} texts could not be loaded (HTTP ${r.status})`);
    catalogs[l] = await r.json();
  }
  return catalogs[l];
}

let current = null;
const listeners = new Set();

/** The active language: "en" or "ja". */
export function lang() {
  if (current) return current;
  let stored = null;
  try { stored = localStorage.getItem("cardplaza.lang"); } catch { /* private mode */ }
  if (stored === "en" || stored === "ja") current = stored;
  else current = (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
  return current;
}

// The active language's texts are here before anything is drawn: every module importing
// this one waits for them (top-level await), so a key never shows in place of its text.
try {
  await load(lang());
} catch (err) {
  console.error(err);
  if (lang() !== "en") {
    try { await load("en"); current = "en"; } catch { /* keys are shown */ }
  }
}

let switches = 0;

/** Switch language (its texts are loaded first), remember it, and notify listeners. */
export async function setLang(value) {
  const next = value === "ja" ? "ja" : "en";
  const mine = ++switches;
  try {
    await load(next);
  } catch (err) {
    console.error(err);
    return current;
  }
  if (mine !== switches) return current;  // a later switch wins
  current = next;
  try { localStorage.setItem("cardplaza.lang", current); } catch { /* ignore */ }
  document.documentElement.lang = current;
  for (const fn of listeners) fn(current);
  return current;
}

/** Call fn(lang) whenever the language changes. */
export function onLang(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** Whether a key exists in the active language. */
export function has(key) {
  return key in (catalogs[lang()] || {});
}

/** Translate a key with {placeholders} (the server fills a gap in Japanese with English;
 * an unknown key is shown as itself); with ``n`` 1 the key's singular ``<key>.one`` where
 * there is one. */
export function t(key, vars = {}) {
  const dict = catalogs[lang()] || {};
  if (vars.n === 1 && `${key}.one` in dict) key = `${key}.one`;
  let s = dict[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** Both languages' texts (for tests that compare the page's text with them). */
export async function dictionaries() {
  return { en: await load("en"), ja: await load("ja") };
}

// -- engine texts ------------------------------------------------------------------------
// [pattern, catalog key, named groups → the key's placeholders]; a pattern that is not
// anchored replaces only what it matches.
const NUM = { three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };
const same = (g) => g;

const PATTERNS = [
  [/^play (?<what>.+)$/i, "eng.play", same],
  [/^no meld$/i, "eng.no_meld", same],
  [/^meld (?<what>.+)$/i, "eng.meld", same],
  [/^pass$/i, "eng.pass", same],
  [/^bid (?<n>\d+)$/i, "eng.bid", same],
  [/^trump (?<suit>.+)$/i, "eng.trump", same],
  [/^give (?<cards>.+)$/i, "eng.give", same],
  [/^discard (?<cards>.+)$/i, "eng.discard", same],
  [/^point of (?<w>three|four|five|six|seven|eight)$/i, "eng.point_of", (g) => ({ n: NUM[g.w.toLowerCase()] })],
  [/^You must follow suit: (?<led>\S+) was led and you hold (?<suit>.)$/, "eng.follow_led", same],
  [/^You must follow suit: you hold (?<suit>.) \(play a . or the Joker\)$/, "eng.follow_or_joker", same],
  [/^You must follow suit: you hold (?<suit>.) \(play a .\)$/, "eng.follow_play", same],
  [/^You must follow suit: you hold (?<suit>.)$/, "eng.follow_hold", same],
  [/^You must follow (?<suit>.) and win the trick: play (?<cards>.+)$/, "eng.follow_win", same],
  [/^You must follow (?<suit>.): play (?<cards>.+)$/, "eng.follow", same],
  [/^You have no (?<suit>.), so you must play a trump \((?<trump>.)\): play (?<cards>.+)$/, "eng.must_trump", same],
  [/^You are void in (?<suit>.), so you must trump: you hold (?<trump>.)$/, "eng.void_trump", same],
  [/^You must beat the winning (?<card>\S+) with a higher (?<suit>.): you hold (?<cards>.+)$/, "eng.beat", same],
  [/^You must over-trump the winning (?<card>\S+): you hold (?<cards>.+)$/, "eng.overtrump", same],
  [/^On the first lead of the game you may not lead a spade.*$/, "eng.first_lead_spade", same],
  [/^On the first lead of the game you may not lead a trump.*$/, "eng.first_lead_trump", same],
  [/^The ♠3 has been played and you hold the Joker.*$/, "eng.joker_due", same],
  [/^You hold a trump: the Joker forces you to play one$/, "eng.joker_forces", same],
  [/^You won the trick: make a meld or decline.*$/, "eng.meld_or_decline", same],
  [/you must follow suit/i, "eng.must_follow", same],
  [/not your turn|it is not your turn/i, "eng.not_your_turn", same],
  [/the game is over/i, "eng.game_over", same],
];

// Piquet's words (ポイント, シークエンス, セット, リード, ピック, ルピック, カポ,
// カルト・ブランシュ): whole phrases first, then the combination names inside other texts.
const RANK = { seven: "7", eight: "8", nine: "9", ten: "10", jack: "J", queen: "Q", king: "K",
               ace: "A", sevens: "7", eights: "8", nines: "9", tens: "10", jacks: "J",
               queens: "Q", kings: "K", aces: "A" };
const SEQ_LEN = { Tierce: 3, Quart: 4, Quint: 5, "Sixième": 6, "Septième": 7, "Huitième": 8 };
const SEQ = "(?<q>Tierce|Quart|Quint|Sixième|Septième|Huitième)";
// A minor sequence runs from the seven: a tierce minor to the nine, a quart minor to the ten.
const MINOR_TOP = { Tierce: "9", Quart: "10" };
const seq = (top) => (g) => ({ n: SEQ_LEN[g.q], top: top(g), suit: g.suit });
const PIQUET_PHRASES = [
  [/^Point of (?<w>three|four|five|six|seven|eight) in (?<suit>.) \((?<sum>\d+)\)$/, "eng.pq.point",
    (g) => ({ n: NUM[g.w], suit: g.suit, sum: g.sum })],
  [new RegExp(`^${SEQ} to the (?<r>\\w+) \\((?<suit>.)\\)$`), "eng.pq.sequence", seq((g) => RANK[g.r])],
  [new RegExp(`^${SEQ} major \\((?<suit>.)\\)$`), "eng.pq.sequence", seq(() => "A")],
  [new RegExp(`^${SEQ} minor \\((?<suit>.)\\)$`), "eng.pq.sequence", seq((g) => MINOR_TOP[g.q])],
  [/^Making (?<n>\d+)$/, "eng.pq.making", same],
  [/^Good$/, "eng.pq.good", same], [/^Not good$/, "eng.pq.not_good", same],
  [/^Equal$/, "eng.pq.equal", same], [/^Making\?$/, "eng.pq.making_q", same],
  [/^To what\?$/, "eng.pq.to_what", same], [/^How many\?$/, "eng.pq.how_many", same],
  [/^To the (?<r>\w+)$/, "eng.pq.to_the", (g) => ({ rank: RANK[g.r] ?? g.r })],
  [/^No sequence$/, "eng.pq.no_sequence", same], [/^No set$/, "eng.pq.no_set", same],
  [/^None$/, "eng.pq.none", same], [/^add none$/, "eng.pq.add_none", same],
  [/^add (?<what>.+)$/, "eng.pq.add", same],
  [/^point (?<suit>.)$/, "eng.pq.point_suit", same],
  [/^chooses which combinations to score$/, "eng.pq.choosing", same],
  // The score sheet's events.
  [/^Carte blanche$/, "eng.pq.carte_blanche", same], [/^Carte rouge$/, "eng.pq.carte_rouge", same],
  [/^Point$/, "eng.pq.ev.point", same], [/^Sequences$/, "eng.pq.ev.sequences", same],
  [/^Sets$/, "eng.pq.ev.sets", same], [/^Lead$/, "eng.pq.ev.lead", same],
  [/^Capture$/, "eng.pq.ev.capture", same], [/^Last trick$/, "eng.pq.ev.last_trick", same],
  [/^Cards$/, "eng.pq.ev.cards", same], [/^capot$/i, "eng.pq.ev.capot", same],
  [/^pique$/i, "eng.pq.ev.pique", same], [/^repique$/i, "eng.pq.ev.repique", same],
];
const PIQUET_WORDS = [
  [/\bTierce\b|\bQuart\b|\bQuint\b|Sixième|Septième|Huitième/g, "eng.pq.seqword",
    (g, whole) => ({ n: SEQ_LEN[whole] })],
  [/\bQuatorze of (?<r>aces|kings|queens|jacks|tens)\b/g, "eng.pq.quatorze", (g) => ({ rank: RANK[g.r] })],
  [/\bTrio of (?<r>aces|kings|queens|jacks|tens)\b/g, "eng.pq.trio", (g) => ({ rank: RANK[g.r] })],
];

/** ``text`` with what ``re`` matches replaced by the key's text, filled from its groups. */
function replaceBy(text, re, key, params) {
  return text.replace(re, (whole, ...rest) => {
    const groups = typeof rest[rest.length - 1] === "object" ? rest[rest.length - 1] : {};
    return t(key, params(groups || {}, whole));
  });
}

function piquetWords(text) {
  for (const [re, key, params] of PIQUET_PHRASES) if (re.test(text)) return replaceBy(text, re, key, params);
  let out = text;
  for (const [re, key, params] of PIQUET_WORDS) out = replaceBy(out, re, key, params);
  return out;
}

// Two-hand meld names are the catalog's meld keys with spaces; the longest is tried first.
const meldNames = {};
function meldNamesOf(l) {
  meldNames[l] ??= Object.keys(catalogs[l] || {}).filter((k) => k.startsWith("meld."))
    .map((k) => k.slice(5).replace(/_/g, " ")).sort((a, b) => b.length - a.length);
  return meldNames[l];
}

/** Translate an engine text (action text or reason) where a pattern is known. */
export function engineText(text) {
  if (lang() !== "ja" || typeof text !== "string") return text;
  for (const name of meldNamesOf(lang())) {
    if (text.toLowerCase().startsWith(`meld ${name}`)) {
      return t("eng.meld", { what: t(`meld.${name.replace(/ /g, "_")}`) + text.slice(5 + name.length) });
    }
  }
  for (const [re, key, params] of PATTERNS) {
    if (re.test(text)) return piquetWords(replaceBy(text, re, key, params).split(" or ").join(t("eng.or")));
  }
  return piquetWords(text);
}

/** Name of a meld from its key ("royal_marriage") or two-hand name ("royal marriage"). */
export function meldText(key, suit = null) {
  const k = `meld.${String(key).toLowerCase().replace(/ /g, "_")}`;
  const base = has(k) ? t(k) : String(key);
  return suit && k === "meld.marriage" ? `${base} ${suit}` : base;
}

/** A server error (code, English message, params) in the player's language. A rules reason
 * (``illegal``, ``bad_options``) is the engine's English text, translated by pattern. */
export function errorText(code, message = "", params = {}) {
  const reason = (params && params.reason) || message || "";
  if (code === "illegal_card" || ((code === "illegal" || code === "bad_options") && reason)) {
    const said = engineText(reason);
    if (lang() === "en" || said !== reason) return said;
    return t(`err.${code === "bad_options" ? "bad_options" : "illegal"}`);
  }
  const key = `err.${code}`;
  if (code && has(key)) return t(key, params || {});
  if (lang() === "en" && message) return message;
  return t("err.unknown", { code: code || "?" });
}

/** Label of an option field of a game. */
export function optionLabel(game, name) {
  for (const key of [`opt.${game}.${name}`, `opt.${name}`]) if (has(key)) return t(key);
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** Label of an option value. */
export function valueLabel(name, value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  const key = `val.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}
