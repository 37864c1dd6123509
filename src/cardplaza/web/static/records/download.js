// The game record as a file: the server's JSON record (the one `cardplaza replay` reads) of
// a finished game, or of a running game as far as this seat has seen it.
import { h } from "../dom.js";
import { t, errorText } from "../i18n.js";

/** Fetch the record of a table for its seat: the parsed JSON and the file name. */
export async function fetchRecord(tableId, token) {
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/download`, {
    headers: { "X-Seat-Token": token }, cache: "no-store",
  });
  const text = await r.text();
  let data = null;
  try { data = JSON.parse(text); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = new Error((data && data.error) || r.statusText);
    err.code = data && data.code;
    throw err;
  }
  const disp = r.headers.get("Content-Disposition") || "";
  const m = /filename="([^"]+)"/.exec(disp);
  return { text, data, name: m ? m[1] : `cardplaza-${tableId}.json` };
}

/** Save text as a file named ``name``. */
export function saveFile(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A button that downloads a table's record (a note under it says what went wrong). */
export function downloadButton(tableId, token, game, cls = "btn small") {
  const note = h("span", { class: "dl-note muted small", role: "status" });
  const btn = h("button", { type: "button", class: `${cls} dl-btn`, "data-game": game }, t("rec.download"));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    note.textContent = "";
    try {
      const rec = await fetchRecord(tableId, token);
      saveFile(rec.text, rec.name);
      note.textContent = rec.data && rec.data.seed === undefined ? t("rec.partial") : "";
    } catch (e) {
      note.textContent = errorText(e.code, e.message);
    }
    btn.disabled = false;
  });
  return h("span", { class: "dl" }, btn, note);
}
