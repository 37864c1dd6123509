// The score's course as a small SVG line chart (no library).

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#f2c14e", "#6fc3ff", "#ff8a80", "#b9f6ca", "#ce93d8", "#ffcc80", "#80deea"];

function el(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

/**
 * series: [{name, values: [number]}] — one value per step (after hand 1, 2 …);
 * opts: {labels: [string] (x labels), target?: number, title: string, start?: number}.
 */
export function lineChart(series, opts = {}) {
  const w = 340, h = 180, padL = 40, padR = 12, padT = 14, padB = 24;
  const steps = Math.max(...series.map((s) => s.values.length), 1);
  const start = opts.start ?? 0;
  const all = series.flatMap((s) => s.values).concat([start]);
  if (opts.target !== undefined && opts.target !== null) all.push(opts.target);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (lo === hi) { lo -= 1; hi += 1; }
  const x = (i) => padL + (steps <= 0 ? 0 : (i / steps) * (w - padL - padR));
  const y = (v) => padT + (1 - (v - lo) / (hi - lo)) * (h - padT - padB);
  const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: "chart", role: "img",
                          "aria-label": opts.title || "" });
  if (opts.title) svg.appendChild(el("title", {}, opts.title));
  svg.appendChild(el("rect", { x: padL, y: padT, width: w - padL - padR, height: h - padT - padB,
                               class: "chart-bg" }));
  const ticks = niceTicks(lo, hi, 4);
  for (const v of ticks) {
    svg.appendChild(el("line", { x1: padL, x2: w - padR, y1: y(v), y2: y(v), class: v === 0 ? "chart-zero" : "chart-grid" }));
    svg.appendChild(el("text", { x: padL - 4, y: y(v) + 4, class: "chart-tick", "text-anchor": "end" }, String(v)));
  }
  if (opts.target !== undefined && opts.target !== null) {
    svg.appendChild(el("line", { x1: padL, x2: w - padR, y1: y(opts.target), y2: y(opts.target), class: "chart-target" }));
    svg.appendChild(el("text", { x: w - padR - 2, y: y(opts.target) - 3, class: "chart-tick chart-target-label", "text-anchor": "end" }, String(opts.target)));
  }
  const labels = opts.labels || [];
  const every = Math.max(1, Math.ceil(steps / 8));
  for (let i = 1; i <= steps; i++) {
    if (i % every && i !== steps) continue;
    svg.appendChild(el("text", { x: x(i), y: h - 8, class: "chart-tick", "text-anchor": "middle" }, labels[i - 1] ?? String(i)));
  }
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const pts = [[x(0), y(start)], ...s.values.map((v, i) => [x(i + 1), y(v)])];
    svg.appendChild(el("polyline", { points: pts.map((p) => p.map((q) => q.toFixed(1)).join(",")).join(" "),
                                     fill: "none", stroke: colour, "stroke-width": s.mine ? 3.5 : 2.2,
                                     "stroke-linejoin": "round", class: "chart-line" }));
    s.values.forEach((v, i) => {
      const dot = el("circle", { cx: x(i + 1), cy: y(v), r: s.mine ? 3.5 : 2.6, fill: colour });
      dot.appendChild(el("title", {}, `${s.name}: ${v}`));
      svg.appendChild(dot);
    });
  });
  const legend = document.createElement("ul");
  legend.className = "chart-legend";
  series.forEach((s, k) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = COLOURS[k % COLOURS.length];
    li.append(sw, `${s.name} ${s.values.length ? s.values[s.values.length - 1] : start}`);
    legend.appendChild(li);
  });
  const fig = document.createElement("figure");
  fig.className = "course";
  fig.append(svg, legend);
  return fig;
}

function niceTicks(lo, hi, n) {
  const span = hi - lo;
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v));
  return out;
}
