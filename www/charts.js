// Small line charts drawn into a fixed-size <svg> (its box never changes,
// so nothing moves as points arrive).
const NS = "http://www.w3.org/2000/svg";
const W = 240;
const H = 64;
const PAD = 4;

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * Draws `values` (numbers, or null for a turn without one) from 0 to `max`,
 * with an optional dashed `line` (a cap), and says it in words for screen
 * readers through the svg's <title>.
 */
export function draw(svg, values, { max = 1, line, label }) {
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren(el("rect", { x: 0, y: 0, width: W, height: H, class: "chart-bg" }));
  const title = el("title", {});
  const known = values.filter((v) => v !== null && v !== undefined);
  title.textContent = known.length ? `${label}: ${known.map((v) => +v.toFixed(2)).join(", ")}` : `${label}: nothing yet`;
  svg.append(title);
  const top = Math.max(max, line ?? 0, ...known, 1e-9);
  const x = (i) => PAD + (values.length <= 1 ? 0 : (i * (W - 2 * PAD)) / (values.length - 1));
  const y = (v) => H - PAD - (Math.min(v, top) / top) * (H - 2 * PAD);
  if (line !== undefined) svg.append(el("line", { x1: 0, x2: W, y1: y(line), y2: y(line), class: "chart-cap" }));
  const points = [];
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    points.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    svg.append(el("circle", { cx: x(i), cy: y(v), r: 2.5, class: "chart-dot" }));
  });
  if (points.length > 1) svg.prepend(el("polyline", { points: points.join(" "), class: "chart-line" }));
  svg.prepend(svg.querySelector("rect"));
}
