// The demo page's scripted scenarios (www/scenarios.js) get the decisions
// they promise: each step's event goes to a fresh regulator, exactly as the
// page plays it (atMs shifted by T0 when present), and every `expect`,
// `expectReason` and `expectInjected` is checked right after its step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Regulator } from "../../pkg/entry-node.js";
import { SCENARIOS, T0 as PAGE_T0 } from "../../www/scenarios.js";

const T0 = 1_732_000_000_000;
const KINDS = new Set(["continue", "circuitBreak", "incident", "toolNudge", "scopeDrift", "procedural"]);
const REASONS = new Set(["toolLoop", "costCap", "qualityDecline", "repeatedFailure"]);
const STEP_KEYS = new Set(["event", "expect", "expectReason", "expectInjected", "note"]);
const SCENARIO_KEYS = new Set(["id", "title", "summary", "options", "steps"]);
const REQUIRED_IDS = [
  "runaway-loop",
  "tweaked-retries",
  "healthy-fan-out",
  "scope-drift",
  "cost-spiral",
  "repeated-corrections",
  "frustrated-user-zh",
  "airline-change",
];
const TIMED = new Set(["turnStart", "turnComplete", "userCorrection", "toolCall", "toolResult"]);

/** Plays one scenario; returns the decision after every step. */
function play(scenario, onStep) {
  const r = new Regulator({ userId: "demo", ...scenario.options });
  try {
    return scenario.steps.map((step, i) => {
      const e = step.event.atMs === undefined ? step.event : { ...step.event, atMs: T0 + step.event.atMs };
      r.event(e);
      const d = r.decide();
      onStep?.(r, d, step, i);
      return d.kind;
    });
  } finally {
    r.free();
  }
}

test("the scenarios are well formed", () => {
  assert.equal(PAGE_T0, T0);
  assert.ok(Array.isArray(SCENARIOS));
  const ids = SCENARIOS.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids}`);
  for (const id of REQUIRED_IDS) assert.ok(ids.includes(id), `missing scenario ${id}`);
  for (const s of SCENARIOS) {
    for (const k of Object.keys(s)) assert.ok(SCENARIO_KEYS.has(k), `${s.id}: unknown key ${k}`);
    assert.match(s.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${s.id}: not kebab-case`);
    assert.ok(typeof s.title === "string" && s.title.length > 0 && s.title.length <= 60, `${s.id}: title`);
    assert.ok(typeof s.summary === "string" && s.summary.length > 0 && s.summary.length <= 400, `${s.id}: summary`);
    assert.ok(s.options && typeof s.options === "object" && !("userId" in s.options), `${s.id}: options without userId`);
    assert.ok(Array.isArray(s.steps) && s.steps.length > 0 && s.steps.length <= 30, `${s.id}: ${s.steps.length} steps`);
    const expects = s.steps.filter((st) => st.expect !== undefined);
    assert.ok(expects.length >= 2, `${s.id}: only ${expects.length} expects`);
    let last = -Infinity;
    for (const [i, st] of s.steps.entries()) {
      const where = `${s.id} step ${i + 1}`;
      for (const k of Object.keys(st)) assert.ok(STEP_KEYS.has(k), `${where}: unknown key ${k}`);
      assert.ok(st.event && typeof st.event.type === "string", `${where}: event`);
      if (TIMED.has(st.event.type)) assert.equal(typeof st.event.atMs, "number", `${where}: ${st.event.type} without atMs`);
      if (st.event.atMs !== undefined) {
        assert.ok(Number.isInteger(st.event.atMs) && st.event.atMs >= 0, `${where}: atMs`);
        assert.ok(st.event.atMs >= last, `${where}: atMs goes back in time`);
        last = st.event.atMs;
      }
      if (st.expect !== undefined) assert.ok(KINDS.has(st.expect), `${where}: expect ${st.expect}`);
      if (st.expectReason !== undefined) {
        assert.equal(st.expect, "circuitBreak", `${where}: expectReason without expect circuitBreak`);
        assert.ok(REASONS.has(st.expectReason), `${where}: expectReason ${st.expectReason}`);
      }
      if (st.expectInjected !== undefined) assert.equal(typeof st.expectInjected, "string", `${where}: expectInjected`);
      if (st.note !== undefined) assert.equal(typeof st.note, "string", `${where}: note`);
    }
  }
});

for (const s of SCENARIOS) {
  test(`scenario ${s.id} gets the decisions it expects`, () => {
    play(s, (r, d, step, i) => {
      const where = `${s.id} step ${i + 1} (${step.event.type})`;
      if (step.expect !== undefined) {
        assert.equal(d.kind, step.expect, `${where}: ${JSON.stringify(d)}`);
      }
      if (step.expectReason !== undefined) {
        assert.equal(d.reason?.kind, step.expectReason, `${where}: ${JSON.stringify(d.reason)}`);
      }
      if (step.expectInjected !== undefined) {
        const prompt = r.injectCorrections("PROMPT");
        assert.ok(prompt.includes(step.expectInjected), `${where}: injected prompt lacks ${JSON.stringify(step.expectInjected)}: ${prompt}`);
      }
    });
  });
}

test("each scenario makes the decisions its story is about", () => {
  const kinds = Object.fromEntries(SCENARIOS.map((s) => [s.id, new Set(play(s))]));
  const breaks = (id) => {
    const out = [];
    play(SCENARIOS.find((s) => s.id === id), (_r, d) => d.kind === "circuitBreak" && out.push(d.reason.kind));
    return out;
  };
  assert.ok(kinds["runaway-loop"].has("toolNudge"));
  assert.deepEqual([...new Set(breaks("runaway-loop"))], ["toolLoop"]);
  assert.ok(kinds["tweaked-retries"].has("toolNudge"));
  assert.deepEqual([...new Set(breaks("tweaked-retries"))], ["toolLoop"]);
  assert.deepEqual([...kinds["healthy-fan-out"]], ["continue"]);
  assert.ok(kinds["scope-drift"].has("scopeDrift") && kinds["scope-drift"].has("continue"));
  assert.ok(breaks("cost-spiral").every((k) => k === "costCap" || k === "qualityDecline") && breaks("cost-spiral").length > 0);
  assert.ok(kinds["frustrated-user-zh"].has("incident"));
  assert.deepEqual([...kinds["airline-change"]], ["continue"]);

  // The corrections scenario ends with a learned rule about pnpm.
  const s = SCENARIOS.find((x) => x.id === "repeated-corrections");
  let rules = [];
  play(s, (r, _d, _step, i) => {
    if (i === s.steps.length - 1) rules = r.learnedRules();
  });
  assert.ok(rules.some((rule) => rule.about.includes("pnpm") && rule.count >= 3 && rule.topics >= 2), JSON.stringify(rules));
});

test("a scenario plays the same twice (deterministic)", () => {
  for (const s of SCENARIOS) assert.deepEqual(play(s), play(s), s.id);
});
