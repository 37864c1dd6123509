// The daily deal and challenges: the lobby's "Today's deal" panel, the day's board
// (#/daily/<game>[/<day>]), the challenge link at a game's end, and the challenge page
// (#/challenge/<token>: accept, wait, then both games side by side with the review's verdicts,
// drawn with the review's own marks from records/records.css).
import { h } from "../dom.js";
import { registerPage, registerLobbyPart, routeToken } from "../app.js";
import { t, lang, errorText } from "../i18n.js";
import { registerExtension } from "../table.js";
import { loadGames, gameTitle, playerName, rememberTable } from "../site.js";
import { keyHeaders, rememberKey } from "../net.js";

const CHALLENGES = "cardplaza.challenges";

function levelText(game, lv) {
  for (const key of [`level.${game}.${lv}`, `level.${lv}`]) {
    const s = t(key);
    if (s !== key) return s;
  }
  return /^\d+$/.test(lv) ? t("level.n", { n: lv }) : lv;
}

function num(x) {
  if (x === null || x === undefined) return "—";
  return Number(x).toLocaleString(lang(), { maximumFractionDigits: 1 });
}

function signed(x) {
  if (x === null || x === undefined) return "—";
  return (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.abs(x).toLocaleString(lang(), { maximumFractionDigits: 1 });
}

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: await keyHeaders({ "Content-Type": "application/json" }),
                               body: JSON.stringify(body) });
  let data = {};
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = new Error(data.error || r.statusText);
    err.code = data.code;
    err.params = data.params;
    throw err;
  }
  return data;
}

/** Remember a challenge token by table (the challenger's and the friend's). */
function rememberChallenge(table, token) {
  try {
    const all = JSON.parse(localStorage.getItem(CHALLENGES) || "{}");
    all[table] = token;
    localStorage.setItem(CHALLENGES, JSON.stringify(all));
  } catch { /* ignore */ }
}

function challengeOf(table) {
  try { return JSON.parse(localStorage.getItem(CHALLENGES) || "{}")[table] || null; } catch { return null; }
}

function goPlay(game, data) {
  rememberKey(data.key);
  rememberTable({ table: data.table, token: data.token, seat: data.seat, game, created: Date.now(), body: {} });
  location.hash = `#/play/${data.table}`;
}

// -- the lobby's panel -------------------------------------------------------------------
function dailyPanel() {
  const list = h("ul", { class: "daily-list", role: "list" });
  const err = h("p", { class: "error", role: "alert" });
  const date = h("p", { class: "muted daily-date" });
  const panel = h("section", { class: "panel daily", "aria-labelledby": "daily-h", id: "daily-panel" },
    h("h2", { id: "daily-h" }, t("daily.title")), h("p", { class: "muted" }, t("daily.intro")), date, list, err);
  (async () => {
    const [games, r] = await Promise.all([loadGames(), fetch("/api/daily", { headers: await keyHeaders() })]);
    if (!r.ok) return;
    const data = await r.json();
    date.textContent = t("daily.date", { day: data.day });
    for (const g of data.games) {
      const info = games.find((x) => x.name === g.game);
      if (!info) continue;
      let action;
      if (g.finished) {
        action = h("a", { class: "btn", href: `#/daily/${g.game}`, "data-game": g.game }, t("daily.board"));
      } else if (g.played) {
        action = h("a", { class: "btn", href: `#/play/${g.table}`, "data-game": g.game }, t("daily.resume"));
      } else {
        action = h("button", { type: "button", class: "btn primary", "data-game": g.game, onclick: async (ev) => {
          ev.target.disabled = true;
          err.textContent = "";
          try {
            goPlay(g.game, await post(`/api/daily/${g.game}`, { name: playerName() || undefined }));
          } catch (e) {
            err.textContent = errorText(e.code, e.message, e.params);
            ev.target.disabled = false;
          }
        } }, t("daily.play"));
      }
      list.appendChild(h("li", { class: "daily-item" },
        h("span", { class: "daily-text" }, h("strong", {}, gameTitle(info)),
          h("span", { class: "muted" }, `${t("daily.vs", { level: levelText(g.game, g.level) })} · ${t("daily.players", { n: g.players })}`)),
        action));
    }
  })();
  return panel;
}

// -- the board -----------------------------------------------------------------------------
async function renderBoard(main, parts) {
  const here = routeToken();
  const game = parts[0];
  const day = parts[1];
  const games = await loadGames();
  const info = games.find((g) => g.name === game);
  const title = gameTitle(info) || game;
  const url = `/api/daily/${encodeURIComponent(game)}/board` + (day ? `?day=${encodeURIComponent(day)}` : "");
  const r = await fetch(url, { headers: await keyHeaders() });
  const data = await r.json();
  const back = h("p", {}, h("a", { href: "#/", class: "btn ghost" }, `← ${t("daily.back")}`));
  if (!r.ok) {
    if (!here()) return;
    main.replaceChildren(h("div", { class: "daily-page" }, back, h("section", { class: "panel" },
      h("h2", {}, t("daily.board.title", { game: title })), h("p", {}, errorText(data.code, data.error, data.params)))));
    return;
  }
  const heading = data.over ? t("daily.board.past", { game: title, day: data.day }) : t("daily.board.title", { game: title });
  const par = data.par === null ? t("daily.par.pending") : t("daily.par", { par: signed(data.par) });
  const rows = data.results.map((row, i) => h("tr", { class: row.me ? "me" : null },
    h("td", {}, String(i + 1)),
    h("td", { class: "name" }, row.name, " ", h("span", { class: "tag" }, `#${row.tag}`),
      row.me ? h("span", { class: "you-mark" }, ` (${t("daily.you")})`) : null),
    h("td", { class: "num" }, signed(row.score)),
    h("td", { class: "num" }, signed(row.vs_par)),
    h("td", { class: "num" }, `${num(row.match_points)}%`)));
  const table = rows.length ? h("div", { class: "table-wrap" }, h("table", { class: "scores daily-board" },
    h("thead", {}, h("tr", {}, ["daily.col.rank", "daily.col.player", "daily.col.score", "daily.col.par", "daily.col.mp"]
      .map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows))) : h("p", {}, t("daily.none"));
  if (!here()) return;
  main.replaceChildren(h("div", { class: "daily-page" }, back, h("section", { class: "panel" },
    h("h2", {}, heading),
    h("p", { class: "daily-par" }, par),
    table,
    h("p", { class: "muted small" }, t("daily.par.note")),
    data.seed ? h("p", { class: "muted small" }, t("daily.seed", { seed: data.seed })) : null)));
  if (data.par === null && location.hash.startsWith("#/daily/")) {
    setTimeout(() => { if (location.hash.startsWith(`#/daily/${game}`)) renderBoard(main, parts); }, 3000);
  }
}

// -- the game's end --------------------------------------------------------------------------
function challengeBox(ctx) {
  const box = h("div", { class: "challenge-box" });
  const err = h("p", { class: "error", role: "alert" });
  const btn = h("button", { type: "button", class: "btn", id: "challenge-btn" }, t("challenge.make"));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      const data = await post("/api/challenges", { table: ctx.view.tableId, token: ctx.view.entry.token });
      rememberChallenge(ctx.view.tableId, data.challenge);
      const link = `${location.origin}/#/challenge/${data.challenge}`;
      const input = h("input", { type: "text", readonly: true, value: link, id: "challenge-link",
                                 "aria-label": t("challenge.made") });
      const copy = h("button", { type: "button", class: "btn small" }, t("challenge.copy"));
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(link); copy.textContent = t("challenge.copied"); } catch { input.select(); }
      });
      box.replaceChildren(h("p", {}, t("challenge.made")), h("div", { class: "link-row" }, input, copy),
        h("a", { class: "btn ghost small", href: `#/challenge/${data.challenge}` }, t("challenge.compare")));
    } catch (e) {
      err.textContent = errorText(e.code, e.message, e.params);
      btn.disabled = false;
    }
  });
  box.append(btn, err);
  return box;
}

registerExtension({
  end(ctx) {
    if (ctx.board || !ctx.view.entry.token) return [];
    const msg = ctx.msg;
    if (msg.daily) {
      return [h("a", { class: "btn primary", href: `#/daily/${ctx.game}`, id: "daily-board-btn" }, t("daily.end.board"))];
    }
    const mine = challengeOf(ctx.view.tableId);
    if (msg.challenge || mine) {
      return mine ? [h("a", { class: "btn", href: `#/challenge/${mine}`, id: "compare-btn" }, t("challenge.compare"))] : [];
    }
    const people = msg.players.filter((p) => p.kind === "human").length;
    if (!msg.fixed || people !== 1) return [];
    return [challengeBox(ctx)];
  },
});

// -- the challenge page ----------------------------------------------------------------------
function markBadge(step) {
  if (!step.mark) return null;
  return h("span", { class: `mark mark-${step.mark}` }, t(`mark.${step.mark}`));
}

function stepCell(step) {
  if (!step) return h("td", { class: "empty" }, "");
  return h("td", {},
    h("span", { class: "move" }, step.text),
    markBadge(step),
    step.best && step.mark && step.mark !== "good" ? h("span", { class: "best muted" }, t("challenge.best", { best: step.best })) : null);
}

function comparisonView(title, data) {
  const [a, b] = data.sides;
  const n = Math.max(a.steps.length, b.steps.length);
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(h("tr", {}, h("th", { scope: "row" }, String(i + 1)), stepCell(a.steps[i]), stepCell(b.steps[i])));
  }
  const head = (side) => h("th", { scope: "col" }, h("span", { class: "side-name" }, side.name),
    h("span", { class: "side-score" }, t("challenge.result", { score: signed(side.margin) })));
  return h("section", { class: "panel compare" },
    h("h2", {}, t("challenge.compare.title", { game: title })),
    h("div", { class: "table-wrap" }, h("table", { class: "scores compare-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("challenge.col.n")), head(a), head(b))),
      h("tbody", {}, rows))),
    h("p", { class: "muted small" }, t("challenge.note", { n: data.reviewed || 40 })));
}

async function renderChallenge(main, parts) {
  const here = routeToken();
  const token = parts[0] || "";
  const back = h("p", {}, h("a", { href: "#/", class: "btn ghost" }, `← ${t("daily.back")}`));
  const games = await loadGames();
  let info;
  try { info = await post("/api/challenges/find", { challenge: token }); } catch (e) {
    if (!here()) return;
    main.replaceChildren(h("div", { class: "daily-page" }, back, h("section", { class: "panel" },
      h("h2", {}, t("challenge.title")), h("p", {}, errorText(e.code, e.message, e.params)))));
    return;
  }
  const title = gameTitle(games.find((g) => g.name === info.game)) || info.game;
  const err = h("p", { class: "error", role: "alert" });
  const body = [];
  if (info.me === "challenger" || info.me === "friend") {
    let cmp = { status: "waiting" };
    try { cmp = await post("/api/challenges/compare", { challenge: token }); } catch (e) { err.textContent = errorText(e.code, e.message, e.params); }
    if (cmp.status === "ready") {
      if (!here()) return;
      main.replaceChildren(h("div", { class: "daily-page wide" }, back, comparisonView(title, cmp)));
      return;
    }
    if (info.me === "friend" && !info.done && info.friend_table) {
      body.push(h("a", { class: "btn primary", href: `#/play/${info.friend_table}` }, t("challenge.resume")));
    } else {
      body.push(h("p", { "aria-live": "polite" }, t(cmp.status === "pending" ? "challenge.pending" : "challenge.wait")));
      setTimeout(() => { if (location.hash === `#/challenge/${token}`) renderChallenge(main, parts); }, 2500);
    }
  } else if (!info.started) {
    const btn = h("button", { type: "button", class: "btn primary big", id: "accept-btn" }, t("challenge.play"));
    btn.addEventListener("click", async () => {
      btn.disabled = true;
      try {
        const data = await post("/api/challenges/play", { challenge: token, name: playerName() || undefined });
        rememberChallenge(data.table, token);
        goPlay(info.game, data);
      } catch (e) {
        err.textContent = errorText(e.code, e.message, e.params);
        btn.disabled = false;
      }
    });
    body.push(btn);
  } else {
    body.push(h("p", {}, t("err.challenge_taken")));
  }
  if (!here()) return;
  main.replaceChildren(h("div", { class: "daily-page" }, back, h("section", { class: "panel" },
    h("h2", {}, t("challenge.title")),
    h("p", {}, t("challenge.intro", { name: info.challenger, game: title, level: levelText(info.game, info.level) })),
    ...body, err)));
}

registerPage("daily", renderBoard);
registerPage("challenge", renderChallenge);
registerLobbyPart(dailyPanel);
