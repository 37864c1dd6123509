// What the fair-deal check and the commitments look like: the table's short commitment
// (opened for the whole value and the digest of the moves) and the replay viewer's line.
import { h } from "../dom.js";
import { t } from "../i18n.js";

export const PAGE = "#/fairness";

/** The current deal's commitment at the table: short, opened for the whole value. */
export function commitmentEl(fair) {
  if (!fair || !fair.commitment) return null;
  return h("details", { class: "fair-commit", "data-deal": String(fair.deal) },
    h("summary", {}, t("fair.commit.summary", { deal: fair.deal, short: fair.commitment.slice(0, 8) })),
    h("p", { class: "muted small" }, t("fair.commit.about")),
    h("dl", { class: "fair-values" },
      h("dt", {}, t("fair.commit.label", { deal: fair.deal })), h("dd", {}, h("code", { class: "fair-hex" }, fair.commitment)),
      h("dt", {}, t("fair.log.label")), h("dd", {}, h("code", { class: "fair-hex" }, fair.log || ""))),
    h("p", { class: "small" }, h("a", { href: PAGE, class: "fair-link" }, t("fair.page.link"))));
}

function reason(res) {
  const params = { step: "", deal: "", seat: "", turn: "", told: "", reason: "", ...(res.params || {}) };
  return t(`fair.fail.${res.code || "not_record"}`, params);
}

/** The replay viewer's line: running, fair (how it was checked), failed (why), or later;
 * a short summary that opens for the details (a failure is shown open). */
export function checkLine(res) {
  const state = res ? res.state : "running";
  const mode = res && res.mode ? res.mode : "";
  let summary;
  const more = [];
  if (state === "running") summary = h("span", {}, t("fair.check.running"));
  else if (state === "later") summary = h("span", {}, t("fair.check.later"));
  else if (state === "error") summary = h("span", { class: "error" }, t("fair.check.error", { msg: res.msg || "" }));
  else if (state === "ok") {
    summary = h("strong", { class: "fair-ok" }, `✓ ${t("fair.check.ok")}`);
    more.push(h("p", {}, t("fair.check.okdetail", { deals: res.deals, steps: res.steps })));
    if (res.seen) more.push(h("p", {}, t("fair.check.seen")));
  } else {
    summary = h("strong", { class: "fair-bad" }, `✗ ${t("fair.check.failed")}`);
    more.push(h("p", { class: "fair-reason" }, t("fair.check.bad", { reason: reason(res) })));
  }
  if (state === "ok" || state === "bad") more.push(h("p", { class: "muted fair-mode", "data-mode": mode }, t(`fair.check.${mode}`)));
  more.push(h("p", {}, h("a", { href: PAGE, class: "fair-link" }, t("fair.page.link"))));
  return h("details", { class: "rep-fair small", role: "status", "data-fair": state, "data-mode": mode, open: state === "bad" },
    h("summary", {}, summary), ...more);
}
