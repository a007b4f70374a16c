// Runs in Chromium. Each entry gets its own page: two entries in one document
// would share pkg/reins.js, and the second init would be a no-op.
// Results go to window.__results as { name, ok, detail? }.
import { runScenario } from "/tests/shared/scenario.mjs";

const results = [];
const KEY = "reins.test.persist";
const T0 = 1_732_000_000_000;

function check(name, fn) {
  try {
    fn();
    results.push({ name, ok: true });
  } catch (e) {
    results.push({ name, ok: false, detail: String(e?.stack ?? e) });
  }
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

// Same events on both sides of the reload: the follow-up must decide the same.
function followUp(r) {
  for (let i = 0; i < 5; i++) {
    r.toolCall("grep", { q: `auth ${i}` }, { callId: `g${i}`, atMs: T0 + 100_000 + i });
    r.toolResult("grep", { ok: true, durationMs: 3, callId: `g${i}`, atMs: T0 + 100_000 + i });
  }
  return JSON.stringify(r.decide());
}

function persistBeforeReload(Regulator) {
  check("persist: export() stored in localStorage", () => {
    const r = new Regulator({ userId: "browser" });
    ["Don't add logging.", "No tracing, please.", "Stop adding logs."].forEach((fix, i) => {
      r.turnStart("Make my auth module async", T0 + i * 10_000);
      r.turnComplete("The auth module is async now.", T0 + i * 10_000 + 900);
      r.userCorrection(fix, { atMs: T0 + i * 10_000 + 1000 });
    });
    r.turnStart("Add async handling to my auth", T0 + 99_000);
    const snapshot = r.export();
    const now = JSON.stringify(r.decide());
    assert(JSON.parse(now).kind === "procedural", `expected procedural, got ${now}`);
    const later = followUp(Regulator.import(snapshot));
    localStorage.setItem(KEY, JSON.stringify({ snapshot, now, later }));
    r.free();
  });
}

function persistAfterReload(Regulator, stored) {
  check("persist: import after reload gives the same decisions", () => {
    const { snapshot, now, later } = JSON.parse(stored);
    const r = Regulator.import(snapshot);
    assert(r.export() === snapshot, "re-export differs from the stored snapshot");
    assert(JSON.stringify(r.decide()) === now, `decision differs: ${JSON.stringify(r.decide())} vs ${now}`);
    const after = followUp(r);
    assert(after === later, `follow-up differs: ${after} vs ${later}`);
    assert(JSON.parse(after).kind === "circuitBreak", `follow-up should break: ${after}`);
    r.free();
  });
  localStorage.removeItem(KEY);
}

async function load(entry) {
  if (entry === "slim") {
    const slim = await import("/pkg/slim.js");
    // A Response promise: exercises instantiateStreaming (needs application/wasm).
    await slim.init({ module_or_path: fetch("/pkg/reins_core_bg.wasm") });
    return slim.Regulator;
  }
  return (await import("/pkg/entry-browser.js")).Regulator;
}

const entry = new URLSearchParams(location.search).get("entry") ?? "browser";
try {
  const Regulator = await load(entry);
  // A fresh profile has no stored snapshot, so one means this is the reload.
  const stored = entry === "browser" ? localStorage.getItem(KEY) : null;
  if (stored !== null) {
    persistAfterReload(Regulator, stored);
  } else {
    check(`${entry}: shared scenario`, () => {
      const { failures, seen } = runScenario(Regulator);
      assert(failures.length === 0, failures.join("\n"));
      assert(seen.length >= 12, `only ${seen.length} decisions`);
    });
    if (entry === "browser") persistBeforeReload(Regulator);
    check(`${entry}: hostile input is read in linear time and oversized input refused before it crosses`, () => {
      const r = new Regulator({ userId: "browser" });
      r.turnStart("Fix the login bug", T0);
      r.turnComplete("I changed auth.py. Should I add a test?", T0 + 1);
      // Quadratic before issue 18 (minutes); one sentence, one preference.
      r.turnStart("以后都".repeat(110_000), T0 + 2);
      assert(r.preferences().length === 1, `preferences: ${JSON.stringify(r.preferences()).slice(0, 200)}`);
      let threw;
      try { r.merge(" ".repeat(64 * 1024 * 1024 + 1)); } catch (e) { threw = e; }
      assert(threw instanceof RangeError && threw.message.startsWith("snapshot"), `merge: ${threw}`);
      try { r.setConfig({ costCapUsd: Number.NaN }); threw = undefined; } catch (e) { threw = e; }
      assert(threw instanceof RangeError && threw.message.startsWith("options.costCapUsd"), `setConfig: ${threw}`);
      r.free();
    });
  }
} catch (e) {
  results.push({ name: `${entry}: load`, ok: false, detail: String(e?.stack ?? e) });
}
window.__results = results;
