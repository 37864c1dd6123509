// Fair deals in the browser: the fairness page (#/fairness, linked from the header and the
// lobby's foot), the current deal's commitment at the foot of the table's history, and a
// note of the commitments and digests each table showed (the replay viewer compares the
// record with it).
import { h } from "../dom.js";
import { registerPage, registerLobbyPart, routeToken } from "../app.js";
import { t, lang, onLang } from "../i18n.js";
import { registerExtension } from "../table.js";
import { addHistoryFoot } from "../records/history.js";
import { rememberSeen } from "./check.js";
import { commitmentEl } from "./view.js";

async function renderFairness(main) {
  const here = routeToken();
  const r = await fetch(`/api/pages/fairness?lang=${lang()}`);
  const data = await r.json();
  const article = h("article", { class: "panel rules fairness-page", lang: data.lang || lang() });
  article.innerHTML = data.html || "";
  if (!here()) return;
  main.replaceChildren(article);
  window.scrollTo(0, 0);
}

function navLink() {
  let a = document.getElementById("nav-fair");
  if (!a) {
    const nav = document.querySelector("header.top nav");
    if (!nav) return;
    a = h("a", { href: "#/fairness", id: "nav-fair" });
    nav.insertBefore(a, document.getElementById("lang-btn"));
  }
  a.textContent = t("fair.nav");
}

registerPage("fairness", renderFairness);
// The lobby's foot links the page too (a phone's header has no room for it).
registerLobbyPart(() => h("p", { class: "fair-foot small" },
  h("a", { href: "#/fairness", id: "fair-foot-link" }, t("fair.page.link"))));
addHistoryFoot((ctx) => (ctx.board ? null : commitmentEl(ctx.msg.fair)));
registerExtension({
  // Drawn with every state of a live table: the note of what it showed (nothing on screen).
  panel(ctx) {
    if (!ctx.board && ctx.msg && ctx.msg.fair) rememberSeen(ctx.view.tableId, ctx.msg.fair, ctx.msg.step);
    return null;
  },
});
navLink();
onLang(navLink);
