// Game records in the browser: the hand's history at the table, the record's download (from
// the table and the game-end screen), the replay viewer with the post-game review, the
// statistics page, and the lobby's box to open a record file.
import { h } from "../dom.js";
import { registerPage, registerLobbyPart } from "../app.js";
import { t } from "../i18n.js";
import { registerExtension } from "../table.js";
import { historyExtension, addHistoryFoot } from "./history.js";
import { downloadButton } from "./download.js";
import { renderReplay, replayExtension, onKey, openFilePanel } from "./replay.js";
import { renderStats } from "./stats.js";

registerExtension(historyExtension);
registerExtension(replayExtension);
addHistoryFoot((ctx) => (ctx.board || !ctx.view.entry.token ? null
  : downloadButton(ctx.view.tableId, ctx.view.entry.token, ctx.game)));
registerExtension({
  end(ctx) {
    if (ctx.board || !ctx.view.entry.token) return [];
    return [h("a", { href: `#/replay/${ctx.view.tableId}`, class: "btn", id: "replay-btn" }, t("rep.open.game")),
            downloadButton(ctx.view.tableId, ctx.view.entry.token, ctx.game, "btn")];
  },
});
registerPage("replay", renderReplay, { ownLang: true });
registerPage("stats", renderStats);
registerLobbyPart(() => openFilePanel());
document.addEventListener("keydown", onKey);
