// Playing with friends: the room page (seats, the invite link with copy and share, the room
// code, a QR code of the link, the table's settings, the host's start button, who has
// joined), the join page of an invite link or a room code, a "join with a code" box in the
// lobby — and, at a table with several people, who is here or away, the stand-in countdown,
// the turn timer, undo requests and each seat's share of stand-in moves on the result
// screen. The server's side: cardplaza.web.live.rooms and cardplaza.web.live.together.
import { registerPage, registerLobbyPart, routeToken } from "../app.js";
import { registerExtension, currentTable } from "../table.js";
import { h } from "../dom.js";
import { t, lang, errorText, optionLabel, valueLabel } from "../i18n.js";
import { loadGames, gameTitle, playerName, rememberTable } from "../site.js";
import { keyHeaders, rememberKey } from "../net.js";

const STORE = "cardplaza.rooms";
const POLL_MS = 2000;

// -- what this browser keeps of its rooms: its seat token, and the host's invite ------------
function kept() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}

function keep(id, entry) {
  const all = kept();
  all[id] = { ...(all[id] || {}), ...entry, at: Date.now() };
  const ids = Object.keys(all).sort((a, b) => all[b].at - all[a].at);
  for (const old of ids.slice(20)) delete all[old];
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* ignore */ }
}

async function api(path, body) {
  const opts = body === undefined ? { headers: await keyHeaders() }
    : { method: "POST", headers: await keyHeaders({ "Content-Type": "application/json" }), body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  let data = {};
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const e = new Error(data.error || r.statusText);
    e.code = data.code;
    e.params = data.params;
    throw e;
  }
  if (data.key) rememberKey(data.key);
  return data;
}

function problem(e) {
  return h("p", { class: "error", role: "alert" }, errorText(e.code, e.message, e.params));
}

function lobbyLink() {
  return h("a", { href: "#/", class: "btn" }, t("end.lobby"));
}

/** A room code as shown: two groups that are easy to read out. */
function showCode(code) {
  return code.length > 4 ? `${code.slice(0, 3)}-${code.slice(3)}` : code;
}

function levelText(game, lv) {
  for (const key of [`level.${game}.${lv}`, `level.${lv}`]) {
    const s = t(key);
    if (s !== key) return s;
  }
  return /^\d+$/.test(lv) ? t("level.n", { n: lv }) : lv;
}

function optionsLine(info, options) {
  if (!info) return null;
  const parts = [];
  for (const f of info.options) {
    if (!(f.name in options) || f.name === "names" || f.name === "dealer" || f.name === "level" || f.name === "strength") continue;
    if (JSON.stringify(options[f.name]) === JSON.stringify(f.default)) continue;
    parts.push(`${optionLabel(info.name, f.name)}: ${valueLabel(f.name, options[f.name])}`);
  }
  return parts.length ? h("p", { class: "muted small room-rules" }, `${t("room.options")}: ${parts.join(" · ")}`) : null;
}

function seatLabel(view, i) {
  if (view.game === "pinochle4") return t("room.seat.team", { n: i + 1, team: i % 2 === 0 ? 1 : 2 });
  return t("room.seat.n", { n: i + 1 });
}

function occupant(view, s) {
  if (s.kind === "human") {
    const name = s.you ? t("room.seat.you", { name: s.name }) : s.name;
    return h("span", { class: "occupant" }, h("strong", {}, name),
      s.host ? h("span", { class: "badge host" }, t("room.seat.host")) : null);
  }
  if (s.kind === "computer") return h("span", { class: "occupant" }, t("room.seat.computer", { level: levelText(view.game, s.level) }));
  return h("span", { class: "occupant open" }, t("room.seat.open"));
}

// -- making a room (#/friends/<game>) ----------------------------------------------------------
async function newRoom(main, [game]) {
  const here = routeToken();
  main.replaceChildren(h("section", { class: "panel" }, h("p", { "aria-live": "polite" }, t("room.new"))));
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem("cardplaza.room.new") || "null"); } catch { /* ignore */ }
  const body = saved && saved.game === game ? saved.body : { name: playerName() || undefined };
  const req = { game, options: body.options || {}, name: body.name };
  if (body.level) req.level = body.level;
  try {
    const room = await api("/api/rooms", req);
    try { sessionStorage.removeItem("cardplaza.room.new"); } catch { /* ignore */ }
    keep(room.room, { token: room.token, seat: room.seat, game, invite: room.invite_token, code: room.code });
    location.replace(`#/room/${room.room}`);
  } catch (e) {
    if (here()) main.replaceChildren(h("section", { class: "panel" }, problem(e), lobbyLink()));
  }
}

// -- the room page (#/room/<id>) ---------------------------------------------------------------
let polling = null;

function stopPolling() {
  if (polling) clearTimeout(polling.timer);
  polling = null;
}

window.addEventListener("hashchange", () => {
  if (polling && !location.hash.startsWith(`#/room/${polling.id}`)
      && !location.hash.startsWith(`#/watch/${polling.id.slice(6)}`)) stopPolling();
});

async function roomPage(main, [id]) {
  stopPolling();
  const poll = { id, view: null, error: null, drawn: "", timer: null, busy: false, note: "" };
  polling = poll;
  const games = await loadGames();
  const refresh = async () => {
    if (polling !== poll) return;
    try {
      poll.view = await api(`/api/rooms/${encodeURIComponent(id)}`);
      poll.error = null;
    } catch (e) {
      poll.error = e;
    }
    if (polling !== poll) return;
    const v = poll.view;
    if (v && v.status === "playing" && v.table) {
      enterTable(v);
      return;
    }
    const key = JSON.stringify([v && v.version, v && v.invite, poll.error && poll.error.code, lang(), poll.note]);
    if (key !== poll.drawn) {
      poll.drawn = key;
      drawRoom(main, poll, games);
    }
    poll.timer = setTimeout(refresh, POLL_MS);
  };
  poll.redraw = () => { poll.drawn = ""; drawRoom(main, poll, games); };
  poll.refresh = () => { clearTimeout(poll.timer); refresh(); };
  await refresh();
}

function enterTable(view) {
  stopPolling();
  const mine = kept()[view.room] || {};
  if (!mine.token) return;
  rememberTable({ table: view.table, token: mine.token, seat: mine.seat, game: view.game,
                  created: Date.now(), body: { room: view.room } });
  location.hash = `#/play/${view.table}`;
}

async function hostAction(poll, path, body) {
  if (poll.busy) return;
  poll.busy = true;
  try {
    const view = await api(`/api/rooms/${encodeURIComponent(poll.id)}/${path}`, body ?? {});
    if (view.invite_token) keep(poll.id, { invite: view.invite_token, code: view.code });
    poll.view = view;
    poll.error = null;
    poll.note = "";
  } catch (e) {
    poll.note = errorText(e.code, e.message, e.params);
  }
  poll.busy = false;
  if (poll.view && poll.view.status === "playing" && poll.view.table) enterTable(poll.view);
  else poll.redraw();
}

function drawRoom(main, poll, games) {
  const v = poll.view;
  if (!v) {
    main.replaceChildren(h("section", { class: "panel" }, poll.error ? problem(poll.error) : t("lobby.loading"), " ", lobbyLink()));
    return;
  }
  const info = games.find((g) => g.name === v.game);
  const title = gameTitle(info) || v.game;
  const parts = [h("h2", { id: "room-h" }, t("room.title", { game: title })), optionsLine(info, v.options)];
  if (v.host) parts.push(inviteBox(poll, v, title));
  if (v.watch) parts.push(watchBox(v));
  parts.push(seatsBox(poll, v, info));
  parts.push(settingsBox(poll, v, info));
  parts.push(startBox(poll, v));
  parts.push(h("p", { class: "error", role: "alert", id: "room-note" }, poll.note || (poll.error ? errorText(poll.error.code, poll.error.message) : "")));
  const focused = document.activeElement && document.activeElement.id;
  main.replaceChildren(h("section", { class: "panel room", "aria-labelledby": "room-h", "data-room": v.room,
                                      "data-version": String(v.version) }, ...parts.filter(Boolean)));
  if (focused) { const el = document.getElementById(focused); if (el) el.focus({ preventScroll: true }); }
}

const qrCache = new Map();

/** The watch link (for spectators: the public view only), with a copy button. */
function watchBox(v) {
  const link = `${location.origin}/#/watch/${v.watch}`;
  const input = h("input", { type: "text", readonly: true, id: "room-watch-link", value: link, "aria-label": t("social.watch.link") });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button", class: "btn", id: "room-watch-copy" }, t("room.copy"));
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); } catch { input.select(); }
    copy.textContent = t("room.copied");
    setTimeout(() => { copy.textContent = t("room.copy"); }, 2000);
  });
  return h("details", { class: "watch-box" }, h("summary", {}, t("social.watch.link")),
    h("p", { class: "muted small" }, t("social.watch.help")), h("div", { class: "link-row" }, input, copy));
}

// -- watching (#/watch/<token>) ------------------------------------------------------------------
async function watchPage(main, [token]) {
  stopPolling();
  const poll = { id: `watch:${token}`, timer: null };
  polling = poll;
  const games = await loadGames();
  const refresh = async () => {
    if (polling !== poll) return;
    let v = null;
    try { v = await api("/api/rooms/watch", { watch: token }); } catch (e) {
      main.replaceChildren(h("section", { class: "panel" }, problem(e), lobbyLink()));
      return;
    }
    if (polling !== poll) return;
    if (v.table) {
      stopPolling();
      rememberTable({ table: v.table, watch: token, seat: -2, game: v.game, created: Date.now(),
                      body: { room: v.room, watch: true } });
      location.hash = `#/play/${v.table}`;
      return;
    }
    const info = games.find((g) => g.name === v.game);
    main.replaceChildren(h("section", { class: "panel room", "aria-labelledby": "watch-h" },
      h("h2", { id: "watch-h" }, t("social.watch.title", { game: gameTitle(info) || v.game })),
      h("p", { "aria-live": "polite" }, t("social.watch.wait")), lobbyLink()));
    poll.timer = setTimeout(refresh, POLL_MS);
  };
  await refresh();
}

function inviteBox(poll, v, title) {
  const mine = kept()[v.room] || {};
  const box = h("section", { class: "invite", "aria-labelledby": "invite-h" }, h("h3", { id: "invite-h" }, t("room.invite")));
  if (!v.invite.valid || !mine.invite) {
    box.append(h("p", {}, v.invite.valid ? t("room.nolink") : t("room.revoked")),
      h("button", { type: "button", class: "btn", id: "room-newlink", onclick: () => hostAction(poll, "invite") }, t("room.newlink")));
    return box;
  }
  const link = `${location.origin}/#/join/${mine.invite}`;
  const input = h("input", { type: "text", readonly: true, id: "room-link", value: link, "aria-label": t("room.link") });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button", class: "btn", id: "room-copy" }, t("room.copy"));
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); } catch { input.select(); document.execCommand && document.execCommand("copy"); }
    copy.textContent = t("room.copied");
    setTimeout(() => { copy.textContent = t("room.copy"); }, 2000);
  });
  const row = h("div", { class: "link-row" }, input, copy);
  if (navigator.share) {
    row.appendChild(h("button", { type: "button", class: "btn", id: "room-share", onclick: () => {
      navigator.share({ title: t("room.title", { game: title }), text: t("room.share.text", { game: title }), url: link }).catch(() => {});
    } }, t("room.share")));
  }
  const qr = h("img", { class: "qr", alt: t("room.qr"), width: "148", height: "148", id: "room-qr" });
  const cached = qrCache.get(mine.invite);
  if (cached) qr.src = cached;
  else {
    (async () => {
      try {
        const r = await fetch("/api/rooms/qr", { method: "POST", headers: { "Content-Type": "application/json" },
                                                 body: JSON.stringify({ secret: mine.invite, origin: location.origin }) });
        if (!r.ok) return;
        const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await r.text())}`;
        qrCache.set(mine.invite, url);
        qr.src = url;
      } catch { /* no QR code: the link and the code still work */ }
    })();
  }
  const secs = v.invite.seconds;
  const lasts = secs === null ? t("room.playing.link")
    : t("room.expires", { h: Math.floor(secs / 3600), m: Math.floor((secs % 3600) / 60) });
  box.append(
    h("p", { class: "muted small" }, t("room.invite.help")),
    h("div", { class: "invite-body" },
      h("div", { class: "invite-text" },
        h("div", { class: "code-box" }, h("span", { class: "code-label" }, t("room.code")),
          h("strong", { class: "room-code", id: "room-code", lang: "en" }, showCode(mine.code || ""))),
        row,
        h("p", { class: "muted small" }, lasts),
        h("button", { type: "button", class: "btn ghost small", id: "room-revoke", onclick: () => hostAction(poll, "revoke") }, t("room.revoke"))),
      qr));
  return box;
}

function seatsBox(poll, v, info) {
  const list = h("ol", { class: "room-seats" });
  v.seats.forEach((s, i) => {
    const li = h("li", { class: `room-seat kind-${s.kind}` + (s.you ? " you" : ""), "data-seat": String(i) },
      h("span", { class: "seat-label" }, seatLabel(v, i)), occupant(v, s));
    if (v.host && v.status === "open" && s.kind !== "human" && info) {
      li.querySelector(".occupant").remove();  // the choice below says who sits there
      const sel = h("select", { id: `seat-kind-${i}`, "aria-label": `${seatLabel(v, i)}` },
        h("option", { value: "open" }, t("room.kind.open")),
        info.levels.map((lv) => h("option", { value: `computer:${lv}` }, `${t("room.kind.computer")} · ${levelText(v.game, lv)}`)));
      sel.value = s.kind === "open" ? "open" : `computer:${s.level}`;
      sel.addEventListener("change", () => {
        const [kind, level] = sel.value.split(":");
        hostAction(poll, "seat", level ? { seat: i, kind, level } : { seat: i, kind });
      });
      li.appendChild(sel);
    }
    list.appendChild(li);
  });
  return h("section", { class: "seats-box", "aria-labelledby": "seats-h" }, h("h3", { id: "seats-h" }, t("room.seats")), list);
}

function settingsBox(poll, v, info) {
  const c = v.config;
  const [lo, hi] = v.limits.standin;
  const standins = [30, 60, 90, 120, 180].filter((x) => x >= lo && x <= hi);
  if (!standins.includes(c.standin_seconds)) standins.push(c.standin_seconds);
  standins.sort((a, b) => a - b);
  const turns = [0, ...v.limits.turn];
  if (!v.host || v.status !== "open" || !info) {
    const lines = [
      `${t("room.level")}: ${levelText(v.game, c.level)}`,
      `${t("room.hints")}: ${valueLabel("hints", c.hints)}`,
      ...(c.rated ? [t("ratings.room.rated")] : []),
      `${t("social.spectators")}: ${valueLabel("hints", c.spectators !== false)}`,
      `${t("room.standin")}: ${t("room.secs", { n: c.standin_seconds })}`,
      `${t("room.turn")}: ${c.turn_seconds ? t("room.secs", { n: c.turn_seconds }) : t("room.turn.off")}`,
    ];
    return h("section", { class: "settings-box" }, h("h3", {}, t("room.settings")),
      h("ul", { class: "muted small plain" }, lines.map((x) => h("li", {}, x))));
  }
  const change = (data) => hostAction(poll, "config", data);
  const level = h("select", { id: "room-level" }, info.levels.map((lv) => h("option", { value: lv }, levelText(v.game, lv))));
  level.value = c.level;
  level.addEventListener("change", () => change({ level: level.value }));
  const hints = h("input", { type: "checkbox", id: "room-hints" });
  hints.checked = c.hints;
  hints.addEventListener("change", () => change({ hints: hints.checked }));
  hints.disabled = Boolean(c.rated);
  const rated = h("input", { type: "checkbox", id: "room-rated" });
  rated.checked = Boolean(c.rated);
  rated.addEventListener("change", () => change({ rated: rated.checked }));
  const watchers = h("input", { type: "checkbox", id: "room-spectators" });
  watchers.checked = c.spectators !== false;
  watchers.addEventListener("change", () => change({ spectators: watchers.checked }));
  const standin = h("select", { id: "room-standin" }, standins.map((x) => h("option", { value: String(x) }, t("room.secs", { n: x }))));
  standin.value = String(c.standin_seconds);
  standin.addEventListener("change", () => change({ standin_seconds: Number(standin.value) }));
  const turn = h("select", { id: "room-turn" }, turns.map((x) => h("option", { value: String(x) }, x ? t("room.secs", { n: x }) : t("room.turn.off"))));
  turn.value = String(c.turn_seconds);
  turn.addEventListener("change", () => change({ turn_seconds: Number(turn.value) }));
  // Open or folded as the host left it: the room is drawn again on every change.
  const opened = poll.settingsOpen ?? window.innerWidth >= 700;
  const box = h("details", { class: "settings-box", open: opened ? true : null },
    h("summary", {}, t("room.settings")),
    h("div", { class: "options" },
      h("div", { class: "opt" }, h("label", { for: "room-level" }, t("room.level")), level),
      h("div", { class: "opt opt-bool" }, hints, h("label", { for: "room-hints" }, t("room.hints"))),
      h("div", { class: "opt opt-bool" }, rated, h("label", { for: "room-rated" }, t("ratings.room.rated"))),
      h("div", { class: "opt opt-bool" }, watchers, h("label", { for: "room-spectators" }, t("social.spectators"))),
      h("div", { class: "opt" }, h("label", { for: "room-standin" }, t("room.standin")), standin),
      h("div", { class: "opt" }, h("label", { for: "room-turn" }, t("room.turn")), turn)));
  box.addEventListener("toggle", () => { poll.settingsOpen = box.open; });
  return box;
}

function startBox(poll, v) {
  const open = v.seats.filter((s) => s.kind === "open").length;
  if (!v.host) {
    const host = v.seats.find((s) => s.host);
    return h("p", { class: "room-wait", "aria-live": "polite" }, t("room.wait.host", { name: host ? host.name : "" }));
  }
  const start = h("button", { type: "button", class: "btn primary big", id: "room-start", disabled: open > 0 || poll.busy,
                              onclick: () => hostAction(poll, "start", {}) }, t("room.start"));
  const box = h("div", { class: "form-actions room-start" }, start);
  if (open) {
    box.appendChild(h("button", { type: "button", class: "btn", id: "room-fill", disabled: poll.busy,
                                  onclick: () => hostAction(poll, "start", { fill: true }) }, t("room.start.fill")));
  }
  return h("div", {},
    h("p", { class: "room-wait", "aria-live": "polite" }, open ? t("room.wait.friends") : t("room.ready")), box);
}

// -- joining (#/join/<invite token or room code>) -------------------------------------------
async function joinPage(main, [secret]) {
  const here = routeToken();
  stopPolling();
  secret = decodeURIComponent(secret || "");
  // The room and the games' list are asked for together (one wait for the server, not two).
  const gamesLoaded = loadGames();
  gamesLoaded.catch(() => { /* reported below, if the room was found */ });
  let view;
  try {
    view = await api("/api/rooms/find", { secret });
  } catch (e) {
    if (here()) main.replaceChildren(h("section", { class: "panel" }, problem(e), lobbyLink()));
    return;
  }
  const games = await gamesLoaded;
  // A late answer never covers the page the person has moved on to (or a newer drawing).
  if (!here()) return;
  const info = games.find((g) => g.name === view.game);
  const title = gameTitle(info) || view.game;
  const mine = view.seats.find((s) => s.you);
  if (mine && (kept()[view.room] || {}).token) {
    location.replace(`#/room/${view.room}`);
    return;
  }
  const host = view.seats.find((s) => s.host);
  const name = h("input", { type: "text", id: "join-name", maxlength: "20", value: playerName(), autocomplete: "nickname" });
  const err = h("p", { class: "error", role: "alert" });
  const sit = async (seat) => {
    err.textContent = "";
    const n = name.value.trim();
    try { localStorage.setItem("cardplaza.name", n); } catch { /* ignore */ }
    try {
      const got = await api("/api/rooms/join", { secret, seat, name: n || undefined });
      keep(got.room, { token: got.token, seat: got.seat, game: got.game });
      location.replace(`#/room/${got.room}`);
    } catch (e) {
      err.textContent = errorText(e.code, e.message, e.params);
    }
  };
  const list = h("ol", { class: "room-seats" });
  view.seats.forEach((s, i) => {
    const li = h("li", { class: `room-seat kind-${s.kind}`, "data-seat": String(i) },
      h("span", { class: "seat-label" }, seatLabel(view, i)), occupant(view, s));
    if (s.kind === "open" || s.you) {
      li.appendChild(h("button", { type: "button", class: "btn primary", id: `sit-${i}`, onclick: () => sit(i) }, t("room.join.sit")));
    }
    list.appendChild(li);
  });
  const free = view.seats.some((s) => s.kind === "open" || s.you) && view.status === "open";
  main.replaceChildren(h("section", { class: "panel room join", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h" }, t("room.join.title", { game: title })),
    host ? h("p", {}, t("room.join.by", { name: host.name })) : null,
    optionsLine(info, view.options),
    h("div", { class: "opt" }, h("label", { for: "join-name" }, t("room.join.name")), name),
    h("h3", {}, t("room.seats")),
    list,
    free ? null : h("p", {}, view.status === "open" ? t("room.join.full") : errorText("room_started")),
    err));
  // A newcomer's first step is the name: the field is ready for typing without a tap.
  if (free && !name.value) name.focus();
}

// -- the lobby: join with a code ---------------------------------------------------------------
function codeBox() {
  const input = h("input", { type: "text", id: "room-code-input", maxlength: "12", autocomplete: "off",
                             autocapitalize: "characters", spellcheck: "false", inputmode: "text",
                             placeholder: "ABC-DEFG" });
  const form = h("form", { class: "code-form" },
    h("label", { for: "room-code-input" }, t("room.join.code.label")),
    h("div", { class: "link-row" }, input, h("button", { type: "submit", class: "btn primary", id: "room-code-btn" }, t("room.join.code.btn"))));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = input.value.toUpperCase().replace(/[\s\-_]/g, "");
    if (code) location.hash = `#/join/${encodeURIComponent(code)}`;
  });
  return h("section", { class: "panel join-code", "aria-labelledby": "join-code-h" },
    h("h2", { id: "join-code-h" }, t("room.join.code")),
    h("p", { class: "muted small" }, t("room.join.code.help")), form);
}

// -- at the table ---------------------------------------------------------------------------------
const received = new WeakMap();
let notice = null;
let ticker = null;

/** When a state message was first drawn (its countdowns run from then). */
function since(msg) {
  if (!received.has(msg)) received.set(msg, performance.now());
  return received.get(msg);
}

function tick() {
  const els = document.querySelectorAll(".countdown[data-end]");
  if (!els.length) { clearInterval(ticker); ticker = null; return; }
  const now = performance.now();
  for (const el of els) {
    const s = Math.max(0, Math.ceil((Number(el.dataset.end) - now) / 1000));
    el.textContent = t(el.dataset.key, { s });
  }
}

function countdown(msg, left, key) {
  const end = since(msg) + left * 1000;
  const s = Math.max(0, Math.ceil((end - performance.now()) / 1000));
  if (!ticker) ticker = setInterval(tick, 500);
  return h("span", { class: "countdown", "data-end": String(end), "data-key": key }, t(key, { s }));
}

function redraw() {
  const cur = currentTable();
  if (cur) cur.redraw();
}

/** Show a notice for a few seconds (written out when drawn, so a language switch meanwhile
 * shows it in the new language). */
function say(key, vars) {
  notice = { key, vars, until: Date.now() + 7000 };
  redraw();
  setTimeout(() => { if (notice && notice.until <= Date.now()) { notice = null; redraw(); } }, 7100);
}

function names(ctx, seats) {
  return seats.map((s) => ctx.seatName(s)).join(lang() === "ja" ? "、" : ", ");
}

function undoPanel(ctx, room) {
  const u = room.undo;
  const send = (accept) => ctx.view.conn.send({ type: "undo_answer", accept });
  if (u.by === ctx.seat) {
    return h("div", { class: "room-undo", role: "group" },
      h("p", {}, countdownText(ctx, "room.undo.waiting", { names: names(ctx, u.waiting) }, u.left)),
      h("button", { type: "button", class: "btn small", id: "undo-withdraw", onclick: () => send(false) }, t("room.undo.withdraw")));
  }
  if (u.waiting.includes(ctx.seat)) {
    return h("div", { class: "room-undo ask", role: "alertdialog", "aria-labelledby": "undo-ask" },
      h("p", { id: "undo-ask" }, t("room.undo.asked", { name: ctx.seatName(u.by) })),
      h("div", { class: "dock-row" },
        h("button", { type: "button", class: "btn primary small", id: "undo-accept", onclick: () => send(true) }, t("room.undo.accept")),
        h("button", { type: "button", class: "btn small", id: "undo-refuse", onclick: () => send(false) }, t("room.undo.refuse"))));
  }
  return h("div", { class: "room-undo" },
    h("p", {}, countdownText(ctx, "room.undo.others", { names: names(ctx, u.waiting) }, u.left)));
}

/** A sentence with a countdown in it: the seconds tick, the words stay. */
function countdownText(ctx, key, vars, left) {
  const mark = "\u0000";
  const [before, after] = t(key, { ...vars, s: mark }).split(mark);
  return h("span", {}, before, countdown(ctx.msg, left, "room.turn.left.bare"), after ?? "");
}

// -- table talk: preset phrases as a bubble at the seat; each person may mute a seat ------------
const MUTE_STORE = "cardplaza.mute";
const BUBBLE_MS = 4500;
const WORDS = ["hello", "good_luck", "good_game", "well_played", "nice_play", "thanks_partner",
               "thanks", "please_hurry", "sorry", "oops", "one_moment", "bye"];
const EMOTES = ["smile", "laugh", "wow", "sad", "heart", "star"];
const bubbles = new Map();  // seat -> {say, until}
let talkOpen = false;
let nextSeen = null;

function muted(roomId) {
  try { return new Set((JSON.parse(localStorage.getItem(MUTE_STORE) || "{}")[roomId]) || []); } catch { return new Set(); }
}

function setMuted(roomId, seat, on) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(MUTE_STORE) || "{}"); } catch { /* ignore */ }
  const set = new Set(all[roomId] || []);
  if (on) set.add(seat); else set.delete(seat);
  all[roomId] = [...set];
  try { localStorage.setItem(MUTE_STORE, JSON.stringify(all)); } catch { /* ignore */ }
}

function bubble(ctx, s) {
  const b = bubbles.get(s);
  if (!b || b.until <= Date.now() || muted(ctx.msg.room.id).has(s)) return null;
  return h("div", { class: "talk-bubble" + (EMOTES.includes(b.say) ? " emote" : ""), "data-say": b.say, role: "status" },
    t(`talk.say.${b.say}`));
}

function talkPanel(ctx) {
  const room = ctx.msg.room;
  const send = (say) => { ctx.view.conn.send({ type: "talk", say }); talkOpen = false; redraw(); };
  const mutes = muted(room.id);
  const people = ctx.players.map((p, s) => ({ p, s })).filter(({ p, s }) => p.kind === "human" && s !== ctx.seat);
  return h("div", { class: "talk-panel", role: "group", "aria-label": t("social.talk.title") },
    h("div", { class: "talk-words" }, WORDS.map((w) => h("button", { type: "button", class: "btn small talk-say", "data-say": w, onclick: () => send(w) }, t(`talk.say.${w}`)))),
    h("div", { class: "talk-emotes" }, EMOTES.map((w) => h("button", { type: "button", class: "btn small talk-say emote", "data-say": w, "aria-label": w, onclick: () => send(w) }, t(`talk.say.${w}`)))),
    people.length ? h("div", { class: "talk-mutes" }, people.map(({ s }) => {
      const on = mutes.has(s);
      return h("button", { type: "button", class: "btn ghost small talk-mute" + (on ? " on" : ""), "data-seat": String(s), "aria-pressed": on ? "true" : "false",
                           onclick: () => { setMuted(room.id, s, !on); redraw(); } },
        t(on ? "social.talk.unmute" : "social.talk.mute", { name: ctx.seatName(s) }));
    })) : null,
    h("button", { type: "button", class: "btn ghost small talk-close", onclick: () => { talkOpen = false; redraw(); } }, t("social.talk.close")));
}

/** Go to the room's next game (same seat token; a spectator keeps watching). */
function goNext(ctx, table) {
  if (nextSeen === table || !ctx.view || !ctx.view.entry) return;
  nextSeen = table;
  const entry = ctx.view.entry;
  rememberTable({ ...entry, table, created: Date.now(), finished: false });
  say(t("social.again.next"));
  setTimeout(() => { location.hash = `#/play/${table}`; }, 0);
}

async function playAgain(ctx, fill) {
  const room = ctx.msg.room;
  try {
    const v = await api(`/api/rooms/${encodeURIComponent(room.id)}/again`, fill ? { fill: true } : {});
    if (v.table) goNext(ctx, v.table);
  } catch (e) {
    againNote = { code: e.code, text: errorText(e.code, e.message, e.params) };
    redraw();
  }
}

let againNote = null;
let nextPoll = null;

/** After the end, look for the room's next game now and then: started by someone whose
 * connection is held by another server process, it is not told to this table. */
function watchForNext(ctx) {
  const view = ctx.view;
  if (nextPoll === view || !view || !view.entry) return;
  nextPoll = view;
  const roomId = ctx.msg.room.id;
  const look = async () => {
    if (view.closed || nextPoll !== view) return;
    try {
      const v = view.entry.watch ? await api("/api/rooms/watch", { watch: view.entry.watch })
        : await api(`/api/rooms/${encodeURIComponent(roomId)}`);
      if (v.table && v.table !== view.tableId) { goNext(ctx, v.table); return; }
    } catch { /* the room is gone or closed: nothing to follow */ return; }
    setTimeout(look, 3000);
  };
  setTimeout(look, 3000);
}

async function leaveRoom(ctx) {
  try {
    await api(`/api/rooms/${encodeURIComponent(ctx.msg.room.id)}/leave`, {});
    say(t("social.again.left"));
    location.hash = "#/";
  } catch (e) {
    againNote = { code: e.code, text: errorText(e.code, e.message, e.params) };
    redraw();
  }
}

export const roomsExtension = {
  spectators: true,
  seat(ctx, s) {
    const room = ctx.msg.room;
    if (!room) return null;
    const said = ctx.board ? null : bubble(ctx, s);
    if (ctx.msg.terminal) return said;
    const info = room.seats[s];
    const mine = s === ctx.seat && !ctx.view.spectator;
    const timer = room.turn && room.turn.seat === s ? countdown(ctx.msg, room.turn.left, "room.turn.left") : null;
    if (!info || mine) {
      const parts = [said, timer ? h("div", { class: "presence timer" }, "⏱ ", timer) : null].filter(Boolean);
      return parts.length ? h("div", { class: "seat-extra" }, ...parts) : null;
    }
    let cls = "here";
    let text = t("room.presence.here");
    if (info.standin) { cls = "standin"; text = t("room.presence.standin"); }
    else if (info.left !== undefined) { cls = "away"; text = countdown(ctx.msg, info.left, "room.presence.away.left"); }
    else if (!info.here) { cls = "away"; text = t("room.presence.away"); }
    const presence = h("div", { class: `presence ${cls}`, "data-presence": cls },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("span", { class: "presence-text" }, text, timer ? " · ⏱ " : null, timer));
    return said ? h("div", { class: "seat-extra" }, said, presence) : presence;
  },
  panel(ctx) {
    const room = ctx.msg.room;
    if (!room || ctx.board) return null;
    if (room.next) goNext(ctx, room.next);
    else if (ctx.msg.terminal) watchForNext(ctx);
    const parts = [];
    if (ctx.view.spectator || room.watching) {
      parts.push(h("p", { class: "watch-line muted small", id: "watch-line" },
        ctx.view.spectator ? h("span", { class: "badge watching" }, t("social.watch.badge")) : null,
        room.watching ? h("span", { class: "watch-count" }, t("social.watch.count", { n: room.watching })) : null));
    }
    if (!ctx.view.spectator) {
      if (talkOpen) parts.push(talkPanel(ctx));
      else {
        parts.push(h("button", { type: "button", class: "btn ghost small talk-open", id: "talk-btn", "aria-expanded": "false",
                                 onclick: () => { talkOpen = true; redraw(); } }, t("social.talk.button")));
      }
    }
    if (room.undo && !ctx.msg.terminal) parts.push(undoPanel(ctx, room));
    if (notice && notice.until > Date.now()) parts.push(h("p", { class: "room-notice", role: "status" }, t(notice.key, notice.vars)));
    return parts.length ? h("div", { class: "room-panel" }, ...parts) : null;
  },
  end(ctx) {
    const room = ctx.msg.room;
    if (!room || ctx.board) return [];
    const out = [];
    if (!ctx.view.spectator) {
      out.push(h("button", { type: "button", class: "btn primary", id: "room-again", onclick: () => playAgain(ctx, false) }, t("social.again")));
      if (againNote && againNote.code === "seats_open") {
        out.push(h("button", { type: "button", class: "btn", id: "room-again-fill", onclick: () => playAgain(ctx, true) }, t("social.again.fill")));
      }
      out.push(h("button", { type: "button", class: "btn ghost", id: "room-leave", onclick: () => leaveRoom(ctx) }, t("social.again.leave")));
      if (againNote) out.push(h("p", { class: "error", role: "alert" }, againNote.text));
    }
    const lines = [];
    ctx.players.forEach((p, s) => {
      if (p.kind !== "human") return;
      const n = room.actions[s] || 0;
      const k = room.standins[s] || 0;
      lines.push(h("li", { "data-seat": String(s) },
        t("room.standins.line", { name: ctx.seatName(s), k, n, p: n ? Math.round((100 * k) / n) : 0 })));
    });
    return [...out, h("div", { class: "standin-shares", id: "standin-shares" }, h("h3", {}, t("room.standins.title")),
      h("ul", { class: "plain" }, ...lines))];
  },
  message(msg, ctx) {
    if (!ctx || !ctx.msg.room) return;
    if (msg.type === "talk") {
      bubbles.set(msg.seat, { say: msg.say, until: Date.now() + BUBBLE_MS });
      redraw();
      setTimeout(redraw, BUBBLE_MS + 50);
      return;
    }
    if (msg.type === "next_game") { goNext(ctx, msg.table); return; }
    if (msg.type === "notice") say(`room.notice.${msg.kind}`, { name: ctx.seatName(msg.seat) });
    else if (msg.type === "undo_ended" && msg.reason !== "accepted") {
      say(`room.undo.ended.${msg.reason}`, { name: msg.seat === null || msg.seat === undefined ? "" : ctx.seatName(msg.seat) });
    } else if (msg.type === "undo_ended") say("room.undo.ended.accepted");
  },
};

registerExtension(roomsExtension);
registerPage("friends", newRoom);
registerPage("room", roomPage);
registerPage("join", joinPage);
registerPage("watch", watchPage);
registerLobbyPart(codeBox);
