// The statistics page: for this browser's player key, per game: games played, won, lost,
// drawn, the average margin and the best result against each computer level.
import { h } from "../dom.js";
import { loadGames, gameTitle } from "../site.js";
import { t, lang, errorText } from "../i18n.js";
import { keyHeaders } from "../net.js";
import { routeToken } from "../app.js";

function levelText(game, level) {
  if (!level) return t("stats.level.none");
  return level.split("/").map((lv) => {
    for (const key of [`level.${game}.${lv}`, `level.${lv}`]) {
      const s = t(key);
      if (s !== key) return s;
    }
    return /^\d+$/.test(lv) ? t("level.n", { n: lv }) : lv;
  }).join(" / ");
}

function signed(v) {
  const r = Math.round(v * 10) / 10;
  return (r > 0 ? "+" : "") + r.toLocaleString(lang());
}

function when(ts) {
  if (!ts) return "";
  return new Date(ts * 1000).toLocaleDateString(lang(), { year: "numeric", month: "numeric", day: "numeric" });
}

function gameCard(row, info) {
  const rate = row.played ? Math.round((100 * row.won) / row.played) : 0;
  const fact = (label, value, cls = "") => h("div", { class: `stat ${cls}` }, h("dt", {}, label), h("dd", {}, value));
  const best = Object.entries(row.best || {});
  return h("section", { class: "panel stats-game", "data-game": row.game },
    h("h3", {}, gameTitle(info) || row.game),
    h("dl", { class: "stat-grid" },
      fact(t("stats.played"), String(row.played)),
      fact(t("stats.won"), String(row.won), "won"),
      fact(t("stats.lost"), String(row.lost), "lost"),
      row.drawn ? fact(t("stats.drawn"), String(row.drawn)) : null,
      fact(t("stats.rate"), `${rate} %`),
      fact(t("stats.margin"), signed(row.average_margin), row.average_margin >= 0 ? "won" : "lost")),
    best.length ? h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "result stats-best" },
      h("caption", {}, t("stats.best")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, t("stats.level")), h("th", { scope: "col" }, t("stats.margin.col")),
        h("th", { scope: "col" }, t("stats.score")))),
      h("tbody", {}, best.map(([lv, b]) => h("tr", { "data-level": lv },
        h("th", { scope: "row" }, levelText(row.game, lv), h("span", { class: "stats-when" }, when(b.finished))),
        h("td", { class: b.margin >= 0 ? "pos" : "neg" }, `${signed(b.margin)} · ${t(`stats.outcome.${b.outcome}`)}`),
        h("td", {}, String(b.score))))))) : null);
}

export async function renderStats(main) {
  const here = routeToken();
  const [games, r] = await Promise.all([loadGames(), fetch("/api/stats", { headers: await keyHeaders(), cache: "no-store" })]);
  let data = null;
  try { data = await r.json(); } catch { /* not JSON */ }
  const head = h("div", { class: "stats-head" }, h("h2", { id: "stats-h" }, t("stats.title")),
    h("a", { href: "#/", class: "btn ghost small" }, `← ${t("nav.lobby")}`));
  if (!here()) return;
  if (!r.ok || !data) {
    main.replaceChildren(h("section", { class: "panel stats" }, head,
      h("p", { class: data && data.code === "bad_key" ? "muted" : "error", role: "alert" },
        data && data.code === "bad_key" ? t("stats.none") : errorText(data && data.code, data && data.error))));
    return;
  }
  const rows = data.stats || [];
  const byName = new Map(games.map((g) => [g.name, g]));
  main.replaceChildren(h("div", { class: "stats", "aria-labelledby": "stats-h" },
    h("section", { class: "panel" }, head,
      h("p", { class: "muted" }, data.name ? t("stats.of", { name: data.name }) : t("stats.ofyou")),
      rows.length ? null : h("p", {}, t("stats.none"))),
    h("div", { class: "stats-list" }, rows.map((row) => gameCard(row, byName.get(row.game))))));
}
