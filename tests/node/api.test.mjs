import { test } from "node:test";
import assert from "node:assert/strict";
import { Regulator } from "../../pkg/entry-node.js";

const T0 = 1_732_000_000_000;
const fresh = (opts = {}) => new Regulator({ userId: "alice", ...opts });

test("continue is one shared frozen object; other decisions are plain data", () => {
  const r = fresh();
  const a = r.decide();
  assert.equal(a, r.decide());
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.concerns));
  assert.deepEqual(a, { kind: "continue", concerns: [] });
  r.turnStart("refactor this function to be async", T0);
  r.turnComplete("add logging and error handling", T0 + 1);
  // An answer sharing no word with its request warns only with the
  // unanchored-share check on; it is off by default.
  assert.equal(r.decide(), a);
  const on = fresh({ driftWarnThreshold: 0.85 });
  on.turnStart("refactor this function to be async", T0);
  on.turnComplete("add logging and error handling", T0 + 1);
  const d = on.decide();
  assert.equal(d.kind, "scopeDrift");
  assert.equal(d.concerns[0].kind, "scopeDrift");
  assert.deepEqual(d.driftTokens.sort(), ["error", "handling", "logging"]);
});

test("scopeDrift: false judges no answer; setConfig switches it both ways", () => {
  // Warns by default: the answer uses what the request ruled out.
  const task = "Rewrite this loop in Python. Don't use numpy.";
  const answer = "import numpy as np\nx = np.arange(10)\nprint(x.sum())";
  const turn = (r) => {
    r.turnStart(task, T0);
    r.turnComplete(answer, T0 + 1);
    return r.decide().kind;
  };
  const on = fresh();
  assert.equal(on.config.scopeDrift, true);
  assert.equal(turn(on), "scopeDrift");
  on.setConfig({ scopeDrift: false });
  assert.equal(on.decide().kind, "continue", "the pending warning goes");
  assert.equal(on.config.scopeDrift, false);
  const off = fresh({ scopeDrift: false });
  assert.equal(turn(off), "continue");
  assert.equal(off.driftScore(), null);
  off.setConfig({ scopeDrift: true });
  assert.equal(turn(off), "scopeDrift", "judged again from the next request");
  assert.throws(() => fresh({ scopeDrift: "no" }), (e) => e instanceof TypeError && /scopeDrift/.test(e.message));
  assert.throws(() => fresh({ scopedrift: false }), /did you mean scopeDrift\?/);
});

test("every event type through event(), with the same effect as the direct calls", () => {
  const a = fresh({ costCapTokens: 100 });
  const b = fresh({ costCapTokens: 100 });
  const events = [
    { type: "turnStart", message: "Find my late orders", atMs: T0 },
    { type: "token", logprob: -0.2 },
    { type: "token", logprob: null },
    { type: "tokens", logprobs: [-0.1, -0.3], unavailable: 1 },
    { type: "turnComplete", response: "Here are your late orders.", atMs: T0 + 5 },
    { type: "cost", tokensIn: 10, tokensOut: 120, wallclockMs: 900, usd: 0.002, provider: "openai" },
    { type: "qualityFeedback", quality: 0.2 },
    { type: "userCorrection", message: "Only this month's orders", correctsLast: true, atMs: T0 + 9 },
    { type: "toolCall", name: "search_orders", args: { days: 7 }, callId: "c1" },
    { type: "toolResult", name: "search_orders", ok: false, durationMs: 95, error: "timeout", callId: "c1" },
  ];
  for (const e of events) a.event(e);
  b.turnStart("Find my late orders", T0);
  b.token(-0.2);
  b.token(null);
  b.tokens(new Float64Array([-0.1, -0.3]), { unavailable: 1 });
  b.turnComplete("Here are your late orders.", T0 + 5);
  b.cost({ tokensIn: 10, tokensOut: 120, wallclockMs: 900, usd: 0.002, provider: "openai" });
  b.qualityFeedback(0.2);
  b.userCorrection("Only this month's orders", { correctsLast: true, atMs: T0 + 9 });
  b.toolCall("search_orders", { days: 7 }, { callId: "c1" });
  b.toolResult("search_orders", { ok: false, durationMs: 95, error: "timeout", callId: "c1" });
  // Record ids come from each regulator's own random seed; all else is equal.
  const noIds = (s) => s.replace(/"[0-9a-f]{16}"/g, '"id"');
  assert.equal(noIds(a.export()), noIds(b.export()));
  assert.equal(a.decide().kind, "circuitBreak");
  assert.equal(a.logprobCoverage(), 0.6, "3 of 5 tokens had a logprob");
  assert.deepEqual(a.toolCounts(), { search_orders: 1 });
  assert.equal(a.metrics()["reins.tool_failure_count"], 1);
  assert.equal(a.corrections()[0].text, "Only this month's orders");
});

test("a tool result may be the object or array the tool returned", () => {
  const [a, b] = [fresh(), fresh()];
  a.turnStart("Where is order 55120?", T0);
  b.turnStart("Where is order 55120?", T0);
  for (let i = 0; i < 5; i++) {
    a.toolCall("get_order", { id: 55120 }, { callId: `c${i}` });
    a.toolResult("get_order", { ok: true, result: { status: "shipped", eta: "2024-06-14" }, callId: `c${i}` });
    b.event({ type: "toolCall", name: "get_order", args: { id: 55120 }, callId: `c${i}` });
    b.event({ type: "toolResult", name: "get_order", ok: true, result: '{"status":"shipped","eta":"2024-06-14"}', callId: `c${i}` });
  }
  // The same call, the same answer five times: both see one loop.
  assert.equal(a.decide().kind, "circuitBreak");
  assert.deepEqual(a.decide(), b.decide());
});

test("atMs defaults to Date.now() where time matters, so implicit corrections work", () => {
  const r = fresh({ implicitCorrectionWindowMs: 60_000 });
  r.turnStart("Refactor fetch_user to be async");
  r.turnComplete("done");
  r.turnStart("Refactor fetch_user to be async, please");
  assert.equal(r.metrics()["reins.implicit_corrections_count"], 1);
  assert.ok(Math.abs(r.corrections()[0].atMs - Date.now()) < 60_000);
});

test("options, config, setConfig, import of a noos snapshot, dispose", () => {
  const r = fresh({ costCapTokens: 2000, tokenCapBasis: "total" });
  assert.equal(r.userId, "alice");
  assert.equal(r.config.costCapTokens, 2000);
  assert.equal(r.config.tokenCapBasis, "total");
  r.setConfig({ costCapTokens: 50 });
  assert.equal(r.config.costCapTokens, 50);
  assert.equal(r.config.tokenCapBasis, "total", "other settings stay");
  assert.throws(() => r.setConfig({ userId: "bob" }), RangeError);
  assert.equal(r.correctionsPrelude(), null);
  assert.equal(r.driftScore(), null);
  assert.equal(r.topic, "");
  const noos = JSON.stringify({
    user_id: "user_42",
    learned: { gain_mode: "neutral", tick: 0, response_success: {}, response_strategies: {} },
    correction_patterns: { "async+function": { example_corrections: ["c3", "c2", "c1"] } },
  });
  const n = Regulator.import(noos);
  n.turnStart("refactor this function to be async", T0);
  assert.equal(n.decide().kind, "procedural");
  assert.match(n.correctionsPrelude(), /- c3\n- c2\n- c1$/);
  assert.equal(typeof n[Symbol.dispose], "function");
  n[Symbol.dispose]();
  n.free();
});

test("bad input throws the right class naming the field, and changes nothing", () => {
  const r = fresh({ maxTextBytes: 1000 });
  r.turnStart("Refactor fetch_user to be async", T0);
  r.turnComplete("Refactored.", T0 + 1);
  r.toolCall("search", { q: 1 });
  const cyclic = {};
  cyclic.self = cyclic;
  const cases = [
    [() => r.turnStart(42), TypeError, "turnStart.message"],
    [() => r.turnStart(undefined), TypeError, "turnStart.message"],
    [() => r.turnStart("x".repeat(10 * 1024 * 1024)), RangeError, "turnStart.message"],
    [() => r.turnStart("é".repeat(600)), RangeError, "turnStart.message"],
    [() => r.turnStart("bad \ud800 surrogate"), TypeError, "turnStart.message"],
    [() => r.turnStart("ok", -5), RangeError, "turnStart.atMs"],
    [() => r.turnStart("ok", "now"), TypeError, "turnStart.atMs"],
    [() => r.turnComplete(null), TypeError, "turnComplete.response"],
    [() => r.token(0.5), RangeError, "token.logprob"],
    [() => r.token(Number.NaN), RangeError, "token.logprob"],
    [() => r.token("x"), TypeError, "token.logprob"],
    [() => r.tokens([-1, "a"]), TypeError, "tokens.logprobs[1]"],
    [() => r.tokens([-1, Number.POSITIVE_INFINITY]), RangeError, "tokens.logprobs[1]"],
    [() => r.tokens("nope"), TypeError, "tokens.logprobs"],
    [() => r.tokens([], { unavailable: -1 }), RangeError, "tokens.unavailable"],
    [() => r.cost({ tokensOut: -1 }), RangeError, "cost.tokensOut"],
    [() => r.cost({ tokensOut: 1.5 }), RangeError, "cost.tokensOut"],
    [() => r.cost({ tokensOut: 2 ** 60 }), RangeError, "cost.tokensOut"],
    [() => r.cost({ tokensIn: "5" }), TypeError, "cost.tokensIn"],
    [() => r.cost({ usd: Number.NaN }), RangeError, "cost.usd"],
    [() => r.cost(7), TypeError, "cost"],
    [() => r.qualityFeedback(Number.NaN), RangeError, "qualityFeedback.quality"],
    [() => r.qualityFeedback(1.01), RangeError, "qualityFeedback.quality"],
    [() => r.qualityFeedback(Number.NEGATIVE_INFINITY), RangeError, "qualityFeedback.quality"],
    [() => r.userCorrection("no", { correctsLast: "yes" }), TypeError, "userCorrection.correctsLast"],
    [() => r.toolCall("", {}), RangeError, "toolCall.name"],
    [() => r.toolCall("t".repeat(300)), RangeError, "toolCall.name"],
    [() => r.toolCall("t", cyclic), TypeError, "toolCall.args"],
    [() => r.toolCall("t", 10n), TypeError, "toolCall.args"],
    [() => r.toolCall("t", () => 1), TypeError, "toolCall.args"],
    [() => r.toolResult("t", { ok: "yes" }), TypeError, "toolResult.ok"],
    [() => r.toolResult("t", { ok: true, durationMs: -3 }), RangeError, "toolResult.durationMs"],
    [() => r.toolResult("t", { ok: true, result: cyclic }), TypeError, "toolResult.result"],
    [() => r.toolResult("t", { ok: true, result: 5 }), TypeError, "toolResult.result"],
    [() => r.event(null), TypeError, "event"],
    [() => r.event({ type: "explode" }), TypeError, "event.type"],
    [() => r.event({ type: "turnStart", message: "x", extra: 1 }), TypeError, "turnStart.extra"],
    [() => r.event({ type: "qualityFeedback", quality: 2 }), RangeError, "qualityFeedback.quality"],
    [() => r.merge("{}"), TypeError, "snapshot"],
    [() => r.merge(fresh({ userId: "bob" }).export()), RangeError, "snapshot.userId"],
    [() => r.setConfig({ qualityWindow: 0 }), RangeError, "config.qualityWindow"],
    [() => r.setConfig({ costCap: 5 }), TypeError, "options"],
    [() => r.injectCorrections(5), TypeError, "prompt"],
    [() => new Regulator(), TypeError, "options.userId"],
    [() => new Regulator({ userId: "" }), RangeError, "userId"],
    [() => new Regulator({ userId: "a", driftWarnThreshold: 5 }), RangeError, "config.driftWarnThreshold"],
    [() => Regulator.import("not json"), TypeError, "snapshot"],
    [() => Regulator.import('{"format":"reins.state","version":2}'), RangeError, "snapshot.version"],
    [() => Regulator.import('{"format":"other"}'), TypeError, "snapshot.format"],
    [() => Regulator.import(r.export().replace('"costCapTokens":10000', '"costCapTokens":-1')), TypeError, "snapshot"],
  ];
  const before = r.export();
  for (const [call, cls, field] of cases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof cls, `${field}: got ${e?.constructor?.name}: ${e?.message}`);
      assert.ok(e.message.startsWith(field), `${field}: message was ${e.message}`);
      return true;
    });
    assert.equal(r.export(), before, `${field} changed the regulator`);
  }
  r.turnStart("Explain docker containers", T0 + 10);
  assert.equal(r.topic, "contain+docker");
});

test("a freed regulator says so", () => {
  const r = fresh();
  r.free();
  r.free();
  assert.throws(() => r.decide(), /this Regulator was freed/);
  assert.throws(() => r.turnStart("x"), /this Regulator was freed/);
});

test("a thing corrected under three requests becomes a learned rule the app can dismiss", () => {
  const r = new Regulator({ userId: "ana" });
  let t = 0;
  const turn = (msg, reply) => {
    r.turnStart(msg, (t += 20_000));
    r.turnComplete(reply, (t += 5_000));
  };
  turn("add zod to the project", "Installed zod with npm install zod.");
  turn("we use pnpm here, not npm. redo it", "Done: ran pnpm add zod.");
  turn("now add vitest", "Installed vitest with npm install -D vitest.");
  turn("pnpm again please, not npm", "Reinstalled vitest with pnpm add -D vitest.");
  turn("write a test for slugify and run it", "Added slugify.test.ts; npx vitest run passes.");
  turn("it's pnpm exec vitest in this repo, not npx", "Ran pnpm exec vitest: 1 passed.");
  const rules = r.learnedRules();
  assert.equal(rules.length, 1, JSON.stringify(rules));
  assert.equal(rules[0].about[0], "pnpm");
  assert.ok(rules[0].topics >= 2 && rules[0].count >= 3);
  assert.match(r.injectCorrections("Add eslint"), /keeps correcting[\s\S]*pnpm/);
  // The rule survives a reload and, once dismissed, stays dismissed.
  const again = Regulator.import(r.export());
  assert.deepEqual(again.learnedRules(), rules);
  assert.equal(again.dismissRule(rules[0].id), true);
  assert.deepEqual(again.learnedRules(), []);
  assert.doesNotMatch(again.injectCorrections("Add eslint"), /pnpm/);
  assert.deepEqual(Regulator.import(again.export()).learnedRules(), []);
  assert.throws(() => again.dismissRule("pnpm"), (e) => e instanceof TypeError && /id/.test(e.message));
});

test("text in any script crosses into the module intact, long or short, one call after another", () => {
  // Texts cross as UTF-8 bytes through one reused buffer: a short text after
  // a long one must not keep the long one's tail, and a text too long for
  // the buffer takes its own.
  const texts = ["use pnpm, not npm 👍", "请用中文回答", "Ünïcödé “quotes” ΣΟΦΟΣ", "é".repeat(900), "ok", "🙂".repeat(400)];
  const r = fresh();
  r.turnStart("set up the project 🚀 für mich", T0);
  assert.equal(r.topic.length > 0, true);
  r.turnComplete("Done: ran npm install ✅", T0 + 1);
  texts.forEach((t, i) => r.userCorrection(t, { correctsLast: false, atMs: T0 + 10 + i }));
  const mine = (x) => x.corrections().map((c) => c.text);
  assert.deepEqual(mine(r), texts);

  const copy = Regulator.import(r.export());
  assert.deepEqual(mine(copy), texts);
  assert.equal(copy.export(), r.export());

  const other = fresh();
  other.turnStart("réponds en français", T0 + 40);
  other.userCorrection("non, en français s'il vous plaît", { correctsLast: false, atMs: T0 + 50 });
  copy.merge(other.export());
  assert.deepEqual(mine(copy).sort(), [...texts, "non, en français s'il vous plaît"].sort());

  // Past the shared buffer (512 KB, three bytes a character at most).
  const long = fresh({ maxTextBytes: 1 << 22 });
  long.turnStart("prüfe die Größe der Datei ".repeat(8000), T0);
  long.userCorrection("Grüße", { correctsLast: false, atMs: T0 + 1 });
  assert.deepEqual(mine(long), ["Grüße"]);
  assert.deepEqual(mine(Regulator.import(long.export())), ["Grüße"]);
});
