// Free mode: the visitor writes the next turn; the decision it would get is
// recomputed as they type, on a copy of the regulator (the real one changes
// only when the turn is sent).
import { Regulator } from "reins";
import { verdict } from "./render.js";

const $ = (id) => document.getElementById(id);

/** `name {json} -> result` lines as tool events; throws naming the bad line. */
export function toolEvents(text, at, turn) {
  const out = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const m = /^\s*([^\s{]+)\s*(.*?)\s*(?:->\s*(.*))?$/.exec(line);
    if (!m) throw new Error(`Tool line ${i + 1}: write it as name {"json":"args"} -> result`);
    const [, name, argText, resultText = ""] = m;
    let args;
    if (argText) {
      try {
        args = JSON.parse(argText);
      } catch {
        throw new Error(`Tool line ${i + 1}: the arguments are not JSON: ${argText}`);
      }
    }
    const callId = `t${turn}-${i}`;
    const failed = resultText.startsWith("!");
    out.push({ type: "toolCall", name, ...(args === undefined ? {} : { args }), callId, atMs: at });
    out.push({ type: "toolResult", name, ok: !failed, callId, durationMs: 100, atMs: at, ...(failed ? { error: resultText.slice(1).trim() } : { result: resultText }) });
  });
  return out;
}

export function freeMode({ session, onChange }) {
  const f = {
    form: $("free"),
    message: $("f-message"),
    tools: $("f-tools"),
    response: $("f-response"),
    tin: $("f-in"),
    tout: $("f-out"),
    grade: $("f-grade"),
    quality: $("f-quality"),
    qualityOut: $("f-quality-out"),
    preview: $("f-preview"),
    error: $("f-error"),
    correction: $("f-correction"),
    correct: $("f-correct"),
  };

  function draft(at) {
    const ev = [];
    const message = f.message.value.trim();
    if (message) ev.push({ type: "turnStart", message, atMs: at });
    ev.push(...toolEvents(f.tools.value, at, session.turns.length + 1));
    const response = f.response.value.trim();
    if (response) ev.push({ type: "turnComplete", response, atMs: at + 1 });
    const tokensIn = Number(f.tin.value) || 0;
    const tokensOut = Number(f.tout.value) || 0;
    if (tokensIn || tokensOut) ev.push({ type: "cost", tokensIn, tokensOut, atMs: at + 1 });
    if (f.grade.checked) ev.push({ type: "qualityFeedback", quality: Number(f.quality.value), atMs: at + 1 });
    return ev;
  }

  let pending;
  function preview() {
    clearTimeout(pending);
    pending = setTimeout(() => {
      f.qualityOut.value = Number(f.quality.value).toFixed(2);
      let copy;
      try {
        const events = draft(Date.now());
        copy = Regulator.import(session.r.export());
        for (const e of events) copy.event(e);
        f.preview.replaceChildren(...verdict(copy.decide()));
        f.error.textContent = "";
      } catch (e) {
        f.error.textContent = e.message;
      } finally {
        copy?.free();
      }
    }, 80);
  }

  f.form.addEventListener("input", preview);
  f.form.addEventListener("submit", (e) => {
    e.preventDefault();
    let events;
    try {
      events = draft(Date.now());
    } catch (err) {
      f.error.textContent = err.message;
      return;
    }
    if (events.length === 0) return;
    try {
      let t;
      for (const ev of events) t = session.apply(ev);
      onChange(t);
    } catch (err) {
      f.error.textContent = err.message;
      return;
    }
    f.message.value = "";
    f.tools.value = "";
    f.response.value = "";
    f.grade.checked = false;
    preview();
    f.message.focus();
  });
  f.correct.addEventListener("click", () => {
    const message = f.correction.value.trim();
    if (!message) return;
    try {
      onChange(session.apply({ type: "userCorrection", message, atMs: Date.now() }));
      f.correction.value = "";
      preview();
    } catch (err) {
      f.error.textContent = err.message;
    }
  });
  preview();
}
