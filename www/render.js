// DOM for turns and decisions. Every text a user or agent wrote goes in as
// text (textContent, text nodes), never as HTML.
import { KIND_LABEL, describe } from "./describe.js";

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

const short = (v, max = 160) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s === undefined ? "" : s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/**
 * `text` as nodes, with words that begin with one of `tokens` marked
 * (drift tokens may be stems: "telemetri" marks "telemetry").
 */
export function highlighted(text, tokens) {
  const words = tokens.filter((t) => /^[\p{L}\p{N}_-]+$/u.test(t)).map((t) => t.toLowerCase());
  if (words.length === 0) return [document.createTextNode(text)];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}_-]+/gu)) {
    const w = m[0].toLowerCase();
    if (!words.some((t) => w.startsWith(t))) continue;
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    out.push(h("mark", {}, m[0]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/** The decision box: a badge and every concern in words. */
export function verdict(d) {
  if (!d) return [h("span", { class: "badge badge-none" }, "—")];
  const out = [h("span", { class: `badge badge-${d.kind}`, "data-kind": d.kind }, KIND_LABEL[d.kind] ?? d.kind)];
  if (d.kind === "continue") out.push(h("p", { class: "concern quiet" }, "No concern."));
  for (const c of d.concerns) {
    const { headline, detail } = describe(c);
    out.push(h("div", { class: `concern concern-${c.kind}` }, h("p", { class: "headline" }, headline), detail ? h("p", { class: "detail" }, detail) : null));
  }
  return out;
}

/** One turn: what was said and done on the left, the decision on the right. */
export function turnView(t, n) {
  const drift = t.decision?.concerns.find((c) => c.kind === "scopeDrift");
  const body = h(
    "div",
    { class: "turn-body" },
    t.user === null ? null : h("p", { class: "msg msg-user" }, h("span", { class: "who" }, "User"), t.user),
    t.items.filter((it) => it.kind === "call").map(toolView),
    t.response === null ? null : h("p", { class: "msg msg-agent" }, h("span", { class: "who" }, "Agent"), ...highlighted(t.response, drift?.driftTokens ?? [])),
    // A correction answers the agent's answer: it shows after it.
    t.items.filter((it) => it.kind === "correction").map((it) => h("p", { class: "msg msg-correction" }, h("span", { class: "who" }, "Correction"), it.message)),
    meta(t),
  );
  return h(
    "article",
    { class: "turn", "aria-label": `Turn ${n}` },
    h("h3", { class: "turn-n" }, `Turn ${n}`),
    body,
    h("div", { class: "turn-verdict" }, verdict(t.decision), trail(t.trail)),
  );
}

/** The decisions this turn went through, when it went through more than one. */
function trail(steps) {
  if (steps.length < 2) return null;
  const parts = steps.map((s) => `${KIND_LABEL[s.kind] ?? s.kind} (after ${s.type}, event ${s.event})`);
  return h("p", { class: "trail" }, `This turn: ${parts.join(" → ")}`);
}

function toolView(it) {
  const result = it.done ? `${it.ok ? "" : "failed: "}${short(it.result || (it.ok ? "ok" : "error"))}` : "…waiting";
  return h(
    "p",
    { class: `tool ${it.done ? (it.ok ? "tool-ok" : "tool-fail") : "tool-pending"}` },
    h("code", {}, `${it.name}(${short(it.args ?? "", 80)})`),
    h("span", { class: "arrow", "aria-hidden": "true" }, " → "),
    h("span", { class: "result" }, result),
  );
}

function meta(t) {
  const parts = [];
  if (t.tokensIn || t.tokensOut) parts.push(`${t.tokensIn.toLocaleString("en-US")} in / ${t.tokensOut.toLocaleString("en-US")} out tokens`);
  if (t.budget) parts.push(`budget ${t.budget.used.toLocaleString("en-US")} of ${t.budget.cap.toLocaleString("en-US")}`);
  if (t.quality !== null) parts.push(`quality ${t.quality.toFixed(2)}`);
  const drift = t.decision?.concerns.find((c) => c.kind === "scopeDrift");
  if (t.response !== null) parts.push(drift ? `drift: ${drift.cause}` : "on topic");
  return parts.length ? h("p", { class: "meta" }, parts.join(" · ")) : null;
}
