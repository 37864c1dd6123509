// Card Plaza front end: router, lobby, high scores and rules pages.
import { t, lang, setLang, onLang, optionLabel, valueLabel, errorText } from "./i18n.js";
import { openTable, closeTable } from "./table.js";
import { h } from "./dom.js";
import { gameTitle, loadGames, playerName, startGame, levelFor, nextDealer, savedTables,
         forgetTable } from "./site.js";
import { fillCardTokens } from "./cards.js";
import { gameEmblem } from "./emblems.js";
import { facePicker } from "./faces.js";
import * as settings from "./settings.js";
import { playerKey, keyHeaders } from "./net.js";

const main = document.getElementById("main");
let currentRoute = null;
let lobbyPicked = false;
const pages = new Map();
const lobbyParts = [];
let started = false;
let routeSeq = 0;

/** Called at the start of a page's drawing (before its first await): a function that says
 * whether that drawing is still wanted. A page whose data comes late checks it before it
 * replaces the screen, so a slow answer never covers the page the person has moved on to
 * (or the same page drawn again in the other language). */
export function routeToken() {
  const mine = routeSeq;
  return () => mine === routeSeq;
}

/** Add a page at #/<name>/…: ``render(main, parts)`` draws it; a language switch draws it
 * again unless ``opts.ownLang`` (the page follows the language itself). */
export function registerPage(name, render, opts = {}) {
  pages.set(name, { render, ...opts });
  if (started && (location.hash || "#/").slice(2).split("/")[0] === name) route();
}

/** Add a section to the lobby, after the games and the chosen game's options: ``part() → Element | null``. */
export function registerLobbyPart(part) {
  lobbyParts.push(part);
  if (started && (document.body.dataset.route === "lobby" || document.body.dataset.route === "game")) route();
}

// -- header -----------------------------------------------------------------------------
function renderHeader() {
  document.title = t("app.title");
  document.getElementById("brand").textContent = t("app.title");
  document.getElementById("nav-lobby").textContent = t("nav.lobby");
  document.getElementById("nav-scores").textContent = t("nav.scores");
  const stats = document.getElementById("nav-stats");
  if (stats) stats.textContent = t("nav.stats");
  const btn = document.getElementById("lang-btn");
  btn.textContent = t("nav.lang");
  btn.setAttribute("aria-label", t("nav.lang.aria"));
  btn.setAttribute("lang", lang() === "ja" ? "en" : "ja");
}

// -- lobby ------------------------------------------------------------------------------
const HIDDEN_OPTIONS = { pinochle2: new Set(["dealer", "level"]), efudatori: new Set(["names"]) };
const MORE_OPTIONS = new Set(["counters", "min_bid"]);

function optionControl(game, f, value) {
  const id = `opt-${f.name}`;
  const label = optionLabel(game, f.name);
  let control;
  if (f.kind === "bool") {
    control = h("input", { type: "checkbox", id, name: f.name });
    control.checked = Boolean(value);
    return h("div", { class: "opt opt-bool" }, control, h("label", { for: id }, label));
  }
  if (game === "efudatori" && f.name === "players") {
    control = h("select", { id, name: f.name },
      [4, 5].map((n) => h("option", { value: String(n) }, String(n))),
      h("optgroup", { label: t("opt.more_players") }, [2, 3, 6, 7].map((n) => h("option", { value: String(n) }, String(n)))));
    control.value = String(value);
  } else if (f.kind === "choice") {
    control = h("select", { id, name: f.name });
    for (const c of f.choices) {
      const o = h("option", { value: String(c) }, valueLabel(f.name, c));
      if (String(c) === String(value)) o.selected = true;
      control.appendChild(o);
    }
  } else if (f.kind === "int" || f.kind === "float") {
    control = h("input", { type: "number", id, name: f.name, value: String(value),
                           step: f.step ?? (f.kind === "int" ? "1" : "any"), inputmode: "numeric" });
    if (f.min !== undefined) control.min = f.min;
    if (f.max !== undefined) control.max = f.max;
  } else {
    control = h("input", { type: "text", id, name: f.name,
                           value: Array.isArray(value) ? value.join("/") : String(value ?? "") });
  }
  return h("div", { class: "opt" }, h("label", { for: id }, label), control);
}

function readValue(form, f) {
  const el = form.querySelector(`[name="${f.name}"]`);
  if (!el) return undefined;
  if (f.kind === "bool") return el.checked;
  if (f.kind === "int") return parseInt(el.value, 10);
  if (f.kind === "float") return parseFloat(el.value);
  if (f.kind === "choice") return f.choices.find((c) => String(c) === el.value) ?? el.value;
  return el.value;
}

/** The options that differ from the defaults (what the server is sent). */
function readOptions(form, info) {
  const out = {};
  for (const f of info.options) {
    const v = readValue(form, f);
    if (v === undefined) continue;
    if (JSON.stringify(v) !== JSON.stringify(f.default)) out[f.name] = v;
  }
  return out;
}

/** Every visible control's value (what the lobby remembers for next time). */
function readAll(form, info) {
  const out = {};
  for (const f of info.options) {
    const v = readValue(form, f);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

async function streakInfo() {
  const r = await fetch("/api/streak", { headers: await keyHeaders() });
  return r.ok ? r.json() : null;
}

function levelLabel(lv, game = "") {
  for (const key of [`level.${game}.${lv}`, `level.${lv}`]) {
    const s = t(key);
    if (s !== key) return s;
  }
  return /^\d+$/.test(lv) ? t("level.n", { n: lv }) : lv;
}

/** "4 players", or "2–7 players" for a game whose options set the number. */
function playersText(g) {
  const f = g.options.find((x) => x.name === "players");
  if (f && g.name === "efudatori") return t("lobby.players.range", { lo: 2, hi: 7 });
  return t("lobby.players", { n: g.players });
}

function resumeLabel(e, games) {
  const g = games.find((x) => x.name === e.game);
  const when = new Date(e.created);
  const today = new Date().toDateString() === when.toDateString();
  const time = today ? when.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" })
    : when.toLocaleString(lang(), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  return [gameTitle(g) || e.game, t("lobby.resume.started", { time })];
}

/** A note while the server's computer players are still being prepared (their search
 *  compiled once, in the background): they play, a little more simply, meanwhile. The lobby
 *  does not wait for it; the note is put at its top when the server has answered. */
function addPreparingNote(lobby) {
  fetch("/healthz").then((r) => (r.ok ? r.json() : null)).then((health) => {
    if (!health || !health.computers || !health.computers.preparing || !lobby.isConnected) return;
    lobby.prepend(h("p", { class: "panel notice preparing", role: "status" }, t("lobby.preparing")));
  }).catch(() => { /* no note */ });
}

async function renderLobby(selected) {
  const here = routeToken();
  const games = await loadGames();
  const info = games.find((g) => g.name === selected) || null;
  const list = h("ul", { class: "game-list", role: "list" });
  const order = ["pinochle2", "pinochle4", "pinochle3", "pinochle_dd", "piquet", "efudatori"];
  const rank = (g) => (order.includes(g.name) ? order.indexOf(g.name) : order.length);
  for (const g of [...games].sort((a, b) => rank(a) - rank(b))) {
    const on = info && info.name === g.name;
    const a = h("a", { href: `#/game/${g.name}`, onclick: () => { lobbyPicked = true; },
                       class: "game-tile" + (on ? " active" : ""), "aria-current": on ? "true" : null },
      h("span", { class: "game-suits", "aria-hidden": "true" }, gameEmblem(g.name)),
      h("span", { class: "game-text" },
        h("span", { class: "game-name" }, gameTitle(g)),
        h("span", { class: "game-desc" }, t(`desc.${g.name}`)),
        h("span", { class: "game-players" }, playersText(g))));
    list.appendChild(h("li", {}, a));
  }
  const resume = savedTables().filter((e) => !e.finished);
  const resumeBox = resume.length ? h("section", { class: "panel resume", "aria-labelledby": "resume-h" },
    h("h2", { id: "resume-h" }, t("lobby.resume")),
    h("ul", { class: "resume-list" }, resume.map((e) => {
      const [title, started] = resumeLabel(e, games);
      return h("li", {},
        h("span", { class: "game-suits small", "aria-hidden": "true" }, gameEmblem(e.game)),
        h("span", { class: "resume-text" }, h("strong", {}, title), h("span", { class: "muted" }, started)),
        h("a", { class: "btn primary", href: `#/play/${e.table}` }, t("lobby.resume.btn")),
        h("button", { class: "btn ghost", type: "button", onclick: () => { forgetTable(e.table); renderLobby(selected); } },
          t("lobby.forget")));
    }))) : null;

  const children = [resumeBox,
    h("section", { class: "panel", "aria-labelledby": "choose-h" },
      h("h2", { id: "choose-h" }, t("lobby.choose")), list)];
  const panel = info ? await optionsPanel(info) : null;
  if (panel) children.push(panel);
  for (const part of lobbyParts) children.push(part());
  if (!here()) return;
  const lobby = h("div", { class: "lobby" + (panel ? " with-options" : "") }, ...children.filter(Boolean));
  main.replaceChildren(lobby);
  addPreparingNote(lobby);
  if (panel && window.innerWidth < 860 && lobbyPicked) panel.scrollIntoView({ block: "start" });
  lobbyPicked = false;
}

async function optionsPanel(info) {
  const game = info.name;
  const remembered = settings.lobbyOptions(game);
  const hidden = HIDDEN_OPTIONS[game] || new Set();
  const form = h("form", { class: "options", "aria-labelledby": "opt-h" });
  const nameInput = h("input", { type: "text", id: "opt-player", maxlength: "20", value: playerName(),
                                 autocomplete: "nickname" });
  form.appendChild(h("div", { class: "opt" }, h("label", { for: "opt-player" }, t("lobby.name")), nameInput));
  form.appendChild(facePicker(settings.load("avatar"), nameInput, (choice) => settings.save("avatar", choice)));
  let streakBox = null;
  const isStreak = game === "pinochle2";
  if (isStreak) {
    const practice = remembered.__mode === "practice";
    const modeStreak = h("input", { type: "radio", name: "mode", id: "mode-streak", value: "streak", checked: !practice });
    const modePractice = h("input", { type: "radio", name: "mode", id: "mode-practice", value: "practice", checked: practice });
    const lv = h("select", { id: "opt-practice-level", name: "practice_level", "aria-label": t("lobby.level") },
      ["1", "2", "3", "4"].map((n) => h("option", { value: n }, levelLabel(n, "pinochle2"))));
    if (remembered.__practice_level) lv.value = remembered.__practice_level;
    lv.disabled = !practice;
    modeStreak.addEventListener("change", () => { lv.disabled = true; });
    modePractice.addEventListener("change", () => { lv.disabled = false; });
    streakBox = h("p", { class: "streak-info", "aria-live": "polite" });
    form.appendChild(h("fieldset", { class: "opt mode" }, h("legend", {}, t("lobby.mode")),
      h("div", { class: "radio" }, modeStreak, h("label", { for: "mode-streak" }, t("lobby.mode.streak"))),
      h("div", { class: "radio" }, modePractice, h("label", { for: "mode-practice" }, t("lobby.mode.practice")), lv),
      streakBox, h("p", { class: "streak-note muted", id: "streak-nohelp" }, t("lobby.streak.nohelp"))));
    const refresh = async () => {
      const s = await streakInfo();
      if (!s) return;
      streakBox.textContent = t("lobby.streak.info", { s: s.streak, saved: s.saved, best: s.best, lv: s.next_level });
      if (s.streak > 0) streakBox.textContent += " " + t("lobby.streak.warn", { s: s.streak });
    };
    nameInput.addEventListener("change", refresh);
    refresh();
  }
  const levels = info.levels.filter((l) => l !== "random" || info.levels.length === 1);
  const hasStrength = info.options.some((f) => f.name === "strength");
  if (!isStreak && !hasStrength && info.levels.length > 1) {
    const sel = h("select", { id: "opt-level", name: "__level" },
      info.levels.map((lv) => h("option", { value: lv }, levelLabel(lv, game))));
    sel.value = remembered.__level && info.levels.includes(remembered.__level) ? remembered.__level
      : (levels[Math.floor(levels.length / 2)] ?? info.levels[0]);
    form.appendChild(h("div", { class: "opt" }, h("label", { for: "opt-level" }, t("lobby.level")), sel));
  }
  const more = h("details", { class: "more" }, h("summary", {}, t("lobby.more")));
  let moreCount = 0;
  for (const f of info.options) {
    if (hidden.has(f.name)) continue;
    const value = f.name in remembered ? remembered[f.name] : f.default;
    const ctl = optionControl(game, f, value);
    if (f.more || MORE_OPTIONS.has(f.name)) { more.appendChild(ctl); moreCount++; }
    else form.appendChild(ctl);
  }
  const paceSel = h("select", { id: "opt-pace", name: "__pace" },
    settings.PACES.map((p) => h("option", { value: p }, t(`pace.${p}`))));
  paceSel.value = settings.pace();
  form.appendChild(h("div", { class: "opt" }, h("label", { for: "opt-pace" }, t("set.pace")), paceSel));
  if (moreCount) form.appendChild(more);
  const err = h("p", { class: "error", role: "alert" });
  const start = h("button", { type: "submit", class: "btn primary big", id: "start-btn" }, t("lobby.start"));
  // Playing with friends: the same choices go to the room page (static/rooms/), which makes
  // the room and its invite.
  const friends = h("button", { type: "button", class: "btn big", id: "friends-btn" }, t("lobby.friends"));
  form.appendChild(h("div", { class: "form-actions" }, start, friends,
    h("a", { href: `#/rules/${game}`, class: "btn ghost" }, t("lobby.rules", { game: gameTitle(info) }))));
  form.appendChild(err);
  friends.addEventListener("click", () => {
    const { body } = collect();
    try { sessionStorage.setItem("cardplaza.room.new", JSON.stringify({ game, body })); } catch { /* ignore */ }
    location.hash = `#/friends/${game}`;
  });
  /** The table request the form describes (and what the lobby remembers of it). */
  function collect() {
    const name = nameInput.value.trim();
    try { localStorage.setItem("cardplaza.name", name); } catch { /* ignore */ }
    const options = readOptions(form, info);
    const keep = readAll(form, info);
    const body = { options, name: name || undefined };
    settings.save("pace", paceSel.value);
    if (isStreak) {
      const mode = form.querySelector('input[name="mode"]:checked').value;
      keep.__mode = mode;
      keep.__practice_level = form.querySelector("#opt-practice-level").value;
      options.dealer = nextDealer();
      if (mode === "streak") body.streak = "new";
      else { options.level = form.querySelector("#opt-practice-level").value; body.level = levelFor(info, options.level); }
    } else {
      const sel = form.querySelector("#opt-level");
      if (sel) { body.level = sel.value; keep.__level = sel.value; }
    }
    settings.saveLobbyOptions(game, keep);
    return { body };
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const { body } = collect();
    start.disabled = true;
    try { await startGame(game, body); } catch (e) { err.textContent = t("lobby.error", { msg: errorText(e.code, e.message, e.params) }); }
    start.disabled = false;
  });
  return h("section", { class: "panel options-panel", "aria-labelledby": "opt-h" },
    h("h2", { id: "opt-h" }, `${gameTitle(info)} — ${t("lobby.options")}`),
    h("p", { class: "muted" }, t(`desc.${game}`)), form);
}

// -- high scores ------------------------------------------------------------------------
async function renderScores() {
  const here = routeToken();
  const r = await fetch("/api/highscores");
  const data = await r.json();
  const rows = data.scores;
  const body = rows.length
    ? h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("scores.player")),
          h("th", { scope: "col" }, t("scores.best")), h("th", { scope: "col" }, t("scores.streak")))),
        h("tbody", {}, rows.map((s, i) => h("tr", {}, h("td", {}, String(i + 1)),
          h("td", {}, s.player, " ", h("span", { class: "tag" }, `#${s.tag}`)),
          h("td", {}, s.best.toLocaleString(lang())), h("td", {}, String(s.streak)))))))
    : h("p", {}, t("scores.none"));
  if (!here()) return;
  main.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("scores.title")), body));
}

// -- rules ------------------------------------------------------------------------------
async function renderRules(game) {
  const here = routeToken();
  const games = await loadGames();
  const info = games.find((g) => g.name === game);
  const r = await fetch(`/api/rules/${encodeURIComponent(game)}?lang=${lang()}`);
  const data = await r.json();
  const article = h("article", { class: "panel rules", lang: data.lang || lang() });
  article.innerHTML = data.html || "";
  fillCardTokens(article);
  if (!here()) return;
  main.replaceChildren(h("div", {},
    h("p", {}, h("a", { href: `#/game/${game}`, class: "btn ghost" }, `← ${t("rules.back")}`),
      " ", info ? gameTitle(info) : ""),
    article));
}

// -- router -----------------------------------------------------------------------------
async function route() {
  const hash = location.hash || "#/";
  const parts = hash.slice(2).split("/");
  if (parts[0] !== "play") closeTable();
  currentRoute = parts[0];
  routeSeq += 1;
  const here = routeToken();
  document.body.dataset.route = parts[0] || "lobby";
  try {
    if (parts[0] === "play" && parts[1]) await openTable(main, parts[1]);
    else if (parts[0] === "scores") await renderScores();
    else if (parts[0] === "rules" && parts[1]) await renderRules(parts[1]);
    else if (pages.has(parts[0])) await pages.get(parts[0]).render(main, parts.slice(1));
    else if (parts[0] === "game" && parts[1]) await renderLobby(parts[1]);
    else await renderLobby(null);
  } catch (e) {
    if (here()) main.replaceChildren(h("p", { class: "error", role: "alert" }, t("err.generic", { msg: e.message })));
  }
  if (parts[0] !== "play") {
    const heading = main.querySelector("h2");
    if (heading && document.activeElement === document.body) heading.setAttribute("tabindex", "-1");
  }
}

document.getElementById("lang-btn").addEventListener("click", () => {
  setLang(lang() === "ja" ? "en" : "ja");
});
onLang(() => {
  renderHeader();
  if (currentRoute !== "play" && !(pages.get(currentRoute) || {}).ownLang) route();
});
document.documentElement.lang = lang();
renderHeader();
playerKey();
window.addEventListener("hashchange", route);
// The first page is drawn once every module script has run (they add pages and lobby
// sections), so no earlier drawing can finish after it and overwrite it: after the document
// is parsed (every module script has started by then) and in a later task (the modules that
// waited with this one for the texts of i18n.js have run by then, in the same task as this).
function start() {
  started = true;
  route();
}
const parsed = document.readyState === "loading"
  ? new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
  : Promise.resolve();
parsed.then(() => setTimeout(start));
