// Ratings: a leaderboard per game (#/ratings/<game>/<page>) and a player's page
// (#/ratings/<game>/p/<id>) with the rating chart and the latest rated games. Players are
// shown by name and short tag; the server never sends a player key.
import { h } from "../dom.js";
import { registerPage, routeToken } from "../app.js";
import { t, lang, onLang, errorText } from "../i18n.js";
import { loadGames, gameTitle } from "../site.js";
import { keyHeaders } from "../net.js";
import { lineChart } from "../chart.js";
import { registerExtension } from "../table.js";

function navText() {
  const a = document.getElementById("nav-ratings");
  if (a) a.textContent = t("ratings.nav");
}
onLang(navText);
navText();

async function getJson(url, opts = {}) {
  const r = await fetch(url, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(errorText(data.code || data.error, data.message || "", data.params || {}));
  return data;
}

function levelText(game, level) {
  for (const key of [`level.${game}.${level}`, `level.${level}`]) {
    const s = t(key);
    if (s !== key) return s;
  }
  return /^\d+$/.test(level) ? t("level.n", { n: level }) : level;
}

function when(ts) {
  return new Date(ts * 1000).toLocaleDateString(lang(), { year: "numeric", month: "numeric", day: "numeric" });
}

function signed(v) {
  return (v > 0 ? "+" : v < 0 ? "−" : "±") + Math.abs(v).toLocaleString(lang());
}

function who(name, tag) {
  return [name, " ", h("span", { class: "tag" }, `#${tag}`)];
}

function gamePicker(games, game, page) {
  const sel = h("select", { id: "ratings-game" }, games.map((g) => h("option", { value: g.name }, gameTitle(g))));
  sel.value = game;
  sel.addEventListener("change", () => { location.hash = `#/ratings/${sel.value}`; });
  return h("div", { class: "opt ratings-pick" }, h("label", { for: "ratings-game" }, t("ratings.game")), sel,
    page ? h("a", { href: "#", class: "btn small", id: "ratings-mine", onclick: async (e) => {
      e.preventDefault();
      const me = await getJson(`/api/ratings/${game}/me`, { headers: await keyHeaders() });
      if (me.id) location.hash = `#/ratings/${game}/p/${me.id}`;
    } }, t("ratings.mine")) : null);
}

function rating(value, provisional) {
  return [String(value), provisional ? h("span", { class: "prov", title: t("ratings.provisional") }, ` ${t("ratings.provisional")}`) : null];
}

async function renderBoard(main, game, page, here) {
  const games = await loadGames();
  const info = games.find((g) => g.name === game) || games[0];
  game = info.name;
  const data = await getJson(`/api/ratings/${game}?page=${page}`);
  const rows = data.rows.length
    ? h("div", { class: "table-wrap" }, h("table", { class: "scores ratings-board" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", class: "num" }, t("ratings.place")), h("th", { scope: "col" }, t("ratings.player")),
          h("th", { scope: "col", class: "num" }, t("ratings.rating")), h("th", { scope: "col", class: "num" }, t("ratings.games")))),
        h("tbody", {}, data.rows.map((r) => h("tr", {},
          h("td", { class: "num" }, String(r.place)),
          h("td", {}, h("a", { href: `#/ratings/${game}/p/${r.id}` }, ...who(r.name, r.tag))),
          h("td", { class: "num" }, ...rating(r.rating, r.provisional)),
          h("td", { class: "num" }, String(r.games)))))))
    : h("p", {}, t("ratings.none"));
  const nav = data.pages > 1 ? h("nav", { class: "pager", "aria-label": t("ratings.pages") },
    data.page > 0 ? h("a", { class: "btn small", href: `#/ratings/${game}/${data.page - 1}`, rel: "prev" }, `← ${t("ratings.prev")}`) : null,
    h("span", {}, t("ratings.page", { page: data.page + 1, pages: data.pages })),
    data.page + 1 < data.pages ? h("a", { class: "btn small", href: `#/ratings/${game}/${data.page + 1}`, rel: "next" }, `${t("ratings.next")} →`) : null) : null;
  if (!here()) return;
  main.replaceChildren(h("section", { class: "panel ratings" },
    h("h2", {}, t("ratings.title", { game: gameTitle(info) })),
    gamePicker(games, game, true),
    h("p", { class: "muted small" }, t("ratings.intro", { n: data.min_games })),
    rows, nav,
    h("p", { class: "muted small" }, t("ratings.provisional.note", { n: data.provisional_games }))));
}

function versusLine(game, vs) {
  if (!vs) return h("p", {}, t("ratings.versus.none"));
  const level = vs.level ? levelText(game, vs.level) : null;
  const key = vs.where < 0 ? "ratings.versus.below" : vs.where > 0 ? "ratings.versus.above" : "ratings.versus.about";
  return h("div", {},
    h("p", { class: "big-rating" }, ...rating(vs.rating, vs.provisional), h("span", { class: "muted small" }, ` · ${t("ratings.games")} ${vs.games}`)),
    level ? h("p", { class: "versus-line" }, t(key, { level })) : null);
}

async function renderPlayer(main, game, id, here) {
  const games = await loadGames();
  const info = games.find((g) => g.name === game) || games[0];
  game = info.name;
  const d = await getJson(`/api/ratings/${game}/players/${encodeURIComponent(id)}`);
  const rated = d.rated
    ? h("div", {},
        h("p", { class: "big-rating" }, ...rating(d.rated.rating, d.rated.provisional),
          h("span", { class: "muted small" }, ` · ${t("ratings.games")} ${d.rated.games}`)),
        h("p", {}, d.place ? t("ratings.place.of", { place: d.place }) : t("ratings.unlisted", { n: d.min_games })))
    : h("p", {}, t("ratings.rated.none"));
  const chart = d.chart.length ? lineChart([{ name: t("ratings.rating"), values: d.chart, mine: true }],
    { title: t("ratings.chart"), start: d.chart_start ?? d.chart[0] }) : null;
  if (chart) chart.classList.add("ratings-chart");
  const recent = d.recent.length ? h("div", { class: "table-wrap" }, h("table", { class: "scores" },
    h("caption", { class: "muted small" }, t("ratings.recent")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ratings.when")), h("th", { scope: "col", class: "num" }, t("ratings.finish")),
      h("th", { scope: "col", class: "num" }, t("ratings.rating")), h("th", { scope: "col", class: "num" }, t("ratings.change")),
      h("th", { scope: "col", class: "num" }, t("ratings.weight")))),
    h("tbody", {}, d.recent.map((g) => h("tr", {}, h("td", {}, when(g.at)), h("td", { class: "num" }, String(g.place)),
      h("td", { class: "num" }, String(g.rating)), h("td", { class: "num" }, signed(g.change)),
      h("td", { class: "num" }, `${Math.round(g.weight * 100)}%`)))))) : null;
  if (!here()) return;
  main.replaceChildren(h("section", { class: "panel ratings" },
    h("p", {}, h("a", { href: `#/ratings/${game}`, class: "btn ghost small" }, `← ${t("ratings.back")}`)),
    h("h2", {}, t("ratings.player.title", { name: d.name, game: gameTitle(info) }), " ", h("span", { class: "tag" }, `#${d.tag}`)),
    h("h3", {}, t("ratings.rated")), rated, chart, recent,
    recent ? h("p", { class: "muted small" }, t("ratings.weight.note")) : null,
    h("h3", {}, t("ratings.versus")), versusLine(game, d.versus)));
}

registerPage("ratings", async (main, parts) => {
  const here = routeToken();
  const games = await loadGames();
  const game = parts[0] || games[0].name;
  if (parts[1] === "p" && parts[2]) await renderPlayer(main, game, parts[2], here);
  else await renderBoard(main, game, Math.max(0, Number(parts[1]) || 0), here);
});

// The game-end screen of a rated game (or one against the computer): your rating before and
// after, and a link to your page.
registerExtension({
  end(ctx) {
    const r = ctx.msg.rating;
    const mine = r && r.seats && r.seats[String(ctx.seat)];
    if (!mine) return [];
    const change = mine.after - mine.before;
    const key = r.kind === "rated" ? "ratings.end.rated" : "ratings.end.versus";
    return [h("p", { class: "rating-change", id: "rating-change" },
      t(key, { before: mine.before, after: mine.after, change: signed(change) }),
      " ", h("a", { href: `#/ratings/${ctx.game}` }, t("ratings.nav")))];
  },
});
