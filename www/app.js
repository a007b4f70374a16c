// The demo page: plays scripted scenarios through reins step by step, or
// lets the visitor be the user (free mode, memory kept in IndexedDB).
import { Regulator, indexedDbStore, openRegulator } from "reins";
import { draw } from "./charts.js";
import { SCENARIOS, T0 } from "./scenarios.js";
import { Session } from "./session.js";
import { freeMode } from "./free.js";
import { h, turnView, verdict } from "./render.js";

const PLAY_MS = 700;
const $ = (id) => document.getElementById(id);

const ui = {
  select: $("scenario"),
  summary: $("summary"),
  stepper: $("stepper"),
  step: $("step"),
  play: $("play"),
  reset: $("reset"),
  progress: $("progress"),
  console: $("console"),
  free: $("free"),
  now: $("now"),
  memory: $("memory"),
  stored: $("stored"),
  forget: $("forget"),
};

let mode; // { kind: "scenario", scenario, session, i } | { kind: "free", session }
let timer;
const views = new Map();

// --- the visitor's own regulator: memory in IndexedDB -------------------

const storageErrors = [];
const visitor = await openRegulator({
  userId: "visitor",
  namespace: "demo",
  store: indexedDbStore({ database: "reins-demo" }),
  saveDelayMs: 50,
  onError: (e) => {
    storageErrors.push(e);
    showStored();
  },
});
const visitorSession = new Session(visitor);

async function showStored() {
  const last = storageErrors.at(-1);
  if (last) {
    ui.stored.textContent = `Not stored: ${last.code} (${last.message}). Your memory lives in this page only.`;
    return;
  }
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  ui.stored.textContent = `Your memory (free mode) is kept in IndexedDB: ${n(visitor.corrections().length, "correction", "corrections")}, ${n(visitor.learnedRules().length, "learned rule", "learned rules")}, ${n(visitor.preferences().length, "standing preference", "standing preferences")}. Reload: it is still there.`;
}

ui.forget.addEventListener("click", async () => {
  await visitor.forget();
  storageErrors.length = 0;
  if (mode.kind === "free") renderPanel();
  showStored();
});

// --- scenarios ------------------------------------------------------------

for (const s of SCENARIOS) ui.select.append(h("option", { value: s.id }, s.title));
ui.select.append(h("option", { value: "free" }, "Free mode: you are the user"));

function start(id) {
  stop();
  views.clear();
  ui.console.replaceChildren();
  if (mode?.kind === "scenario") mode.session.r.free();
  if (id === "free") {
    mode = { kind: "free", session: visitorSession };
    ui.summary.textContent = "Type as the user, edit the agent's answer, tool calls and quality: the decision below the form updates as you type. Send the turn to add it. Correct the same thing three times and reins learns it; reload the page and it remembers.";
    ui.stepper.hidden = true;
    ui.free.hidden = false;
    for (const t of visitorSession.turns) renderTurn(t);
    if (visitorSession.turns.length === 0) ui.console.append(h("p", { class: "empty" }, "No turns yet: write one below, as the user and as the agent."));
  } else {
    const scenario = SCENARIOS.find((s) => s.id === id) ?? SCENARIOS[0];
    mode = { kind: "scenario", scenario, session: new Session(new Regulator({ userId: "demo", ...scenario.options })), i: 0 };
    ui.summary.textContent = scenario.summary;
    ui.stepper.hidden = false;
    ui.free.hidden = true;
  }
  ui.select.value = mode.kind === "free" ? "free" : mode.scenario.id;
  if (location.hash.slice(1) !== ui.select.value) history.replaceState(null, "", `#${ui.select.value}`);
  renderPanel();
  progress();
}

function step() {
  if (mode.kind !== "scenario") return false;
  const { scenario, session } = mode;
  if (mode.i >= scenario.steps.length) return false;
  const { event, note } = scenario.steps[mode.i++];
  const e = event.atMs === undefined ? event : { ...event, atMs: T0 + event.atMs };
  const t = session.apply(e);
  if (note) t.note = note;
  renderTurn(t);
  renderPanel();
  progress();
  return mode.i < scenario.steps.length;
}

function progress() {
  if (mode.kind !== "scenario") return;
  const n = mode.scenario.steps.length;
  ui.progress.textContent = `step ${mode.i} of ${n}`;
  ui.step.disabled = mode.i >= n;
  ui.play.disabled = mode.i >= n;
}

function stop() {
  clearInterval(timer);
  timer = undefined;
  ui.play.textContent = "Play";
  ui.play.setAttribute("aria-pressed", "false");
}

ui.step.addEventListener("click", () => {
  stop();
  step();
});
ui.play.addEventListener("click", () => {
  if (timer !== undefined) return stop();
  ui.play.textContent = "Pause";
  ui.play.setAttribute("aria-pressed", "true");
  if (!step()) return stop();
  timer = setInterval(() => {
    if (!step()) stop();
  }, PLAY_MS);
});
ui.reset.addEventListener("click", () => start(mode.kind === "free" ? "free" : mode.scenario.id));
ui.select.addEventListener("change", () => start(ui.select.value));
addEventListener("hashchange", () => {
  if (location.hash.slice(1) !== ui.select.value) start(location.hash.slice(1));
});

// --- rendering ------------------------------------------------------------

function renderTurn(t) {
  const n = mode.session.turns.indexOf(t) + 1;
  const view = turnView(t, n);
  if (t.note) view.querySelector(".turn-body").append(h("p", { class: "note" }, t.note));
  ui.console.querySelector(".empty")?.remove();
  const old = views.get(t);
  if (old) old.replaceWith(view);
  else ui.console.append(view);
  views.set(t, view);
  view.scrollIntoView?.({ block: "nearest" });
}

export function renderPanel() {
  const { session } = mode;
  const turns = session.turns;
  ui.now.replaceChildren(...verdict(turns.at(-1)?.decision ?? session.r.decide()));
  const cap = session.r.config.costCapTokens;
  const used = turns.map((t) => t.budget?.used ?? null);
  draw($("chart-budget"), used, { max: cap, line: cap, label: "tokens used" });
  const now = used.filter((v) => v !== null).at(-1) ?? 0;
  $("budget-text").textContent = `${now.toLocaleString("en-US")} of ${cap.toLocaleString("en-US")} tokens (${Math.round((100 * now) / cap)} %)`;
  draw($("chart-quality"), turns.map((t) => t.quality), { max: 1, label: "quality" });
  // A turn's drift is its score when reins warned, else 0: the raw score
  // alone is not the verdict (a good paraphrase shares no words either).
  const flagged = (t) => t.decision?.concerns.find((c) => c.kind === "scopeDrift")?.driftScore ?? (t.response === null ? null : 0);
  draw($("chart-drift"), turns.map(flagged), { max: 1, label: "drift warned (score), per turn" });
  renderMemory(session.r);
}

function renderMemory(r) {
  const rules = r.learnedRules();
  const prefs = r.preferences();
  const injected = r.correctionsPrelude();
  const list = (title, items) => (items.length ? [h("h3", {}, title), h("ul", {}, items.map((i) => h("li", {}, i)))] : []);
  ui.memory.replaceChildren(
    h("p", {}, `${r.corrections().length} ${r.corrections().length === 1 ? "correction" : "corrections"} remembered.`),
    ...list("Learned rules", rules.map((x) => `${x.about.join(", ")}: corrected ${x.count} times across ${x.topics} requests (“${x.examples[0] ?? ""}”)`)),
    ...list("Standing preferences", prefs),
    ...(injected ? [h("h3", {}, "Injected into the next prompt"), h("pre", { class: "injected" }, injected)] : []),
  );
}

freeMode({ session: visitorSession, onChange: (t) => {
  if (t) renderTurn(t);
  renderPanel();
  visitor.flush().then(showStored);
} });

showStored();
start(location.hash.slice(1) || SCENARIOS[0].id);
document.documentElement.dataset.ready = "true";
