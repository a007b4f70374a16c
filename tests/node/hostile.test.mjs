// Issue 18: sizes are checked before anything crosses into wasm, an
// allocation the module cannot make is a RangeError (not a trap), options and
// fields are validated the same way everywhere, and merging two copies keeps
// one of each preference. (Time is measured by benches/hostile.mjs, not here.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { Regulator } from "../../pkg/entry-node.js";
import { initSync } from "../../pkg/slim.js";

const T0 = 1_732_000_000_000;
// entry-node.js already instantiated the module (slim.js shares it);
// initSync() hands back its exports.
const memory = () => initSync().memory.buffer.byteLength;

/** `call` throws `cls` whose message starts with `field`, and names no parser position. */
function rejects(call, cls, field) {
  assert.throws(call, (e) => {
    assert.ok(e instanceof cls, `${field}: got ${e?.constructor?.name}: ${e?.message}`);
    assert.ok(e.message.startsWith(field), `${field}: message was ${e.message}`);
    assert.doesNotMatch(e.message, /line \d+ column \d+|null pointer|Do not know how/);
    return true;
  });
}

test("sizes are refused before anything is copied into the module", () => {
  const r = new Regulator({ userId: "alice" });
  r.turnStart("Refactor fetch_user to be async", T0);
  const before = r.export();
  const grown = memory();
  const huge = "x".repeat(64 * 1024 * 1024 + 1);
  rejects(() => r.tokens(new Float64Array(2 ** 28 + 1)), RangeError, "tokens.logprobs");
  rejects(() => r.tokens(new Float64Array(1e8)), RangeError, "tokens.logprobs");
  rejects(() => r.event({ type: "tokens", logprobs: new Float64Array(1e8) }), RangeError, "tokens.logprobs");
  rejects(() => r.merge(huge), RangeError, "snapshot");
  rejects(() => Regulator.import(huge), RangeError, "snapshot");
  rejects(() => r.setConfig({ glossary: [huge] }), RangeError, "options");
  rejects(() => new Regulator({ userId: "x".repeat(1e6) }), RangeError, "options.userId");
  rejects(() => r.turnStart(huge), RangeError, "turnStart.message");
  rejects(() => r.toolCall("t", { q: huge }), RangeError, "toolCall.args");
  assert.equal(memory(), grown, "a refused input must not grow the module's memory");
  assert.equal(r.export(), before);
  r.turnComplete("fetch_user is now async.", T0 + 1);
  assert.equal(r.topic, "async+fetch_user");
});

test("an allocation the module cannot make is a RangeError and changes nothing", async () => {
  // In a worker: its own instance, whose memory is grown to 16 pages short
  // of the 4 GiB a wasm32 module can address (address space, not RAM).
  const code = `
    const { parentPort } = require("node:worker_threads");
    (async () => {
      const { Regulator } = await import(${JSON.stringify(new URL("../../pkg/entry-node.js", import.meta.url).href)});
      const { initSync } = await import(${JSON.stringify(new URL("../../pkg/slim.js", import.meta.url).href)});
      const mem = initSync().memory;
      const r = new Regulator({ userId: "alice", maxTextBytes: 4 << 20 });
      r.turnStart("Refactor fetch_user to be async", 1);
      r.turnComplete("fetch_user is now async.", 2);
      const before = r.export();
      mem.grow(65536 - mem.buffer.byteLength / 65536 - 16);
      const out = [];
      for (const call of [
        () => r.turnStart("x".repeat(2 << 20), 3),
        () => r.turnComplete("é".repeat(1 << 20), 3),
        () => r.toolResult("search", { ok: true, result: "y".repeat(3 << 20) }),
        () => r.merge(" ".repeat(8 << 20) + before),
      ]) {
        try { call(); out.push("no error"); } catch (e) { out.push(e.constructor.name + ": " + e.message); }
      }
      const same = r.export() === before;
      r.turnStart("Explain docker containers", 4);
      parentPort.postMessage({ out, same, topic: r.topic });
    })().catch((e) => parentPort.postMessage({ crash: e.constructor.name + ": " + e.message }));
  `;
  const result = await new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once("message", resolve);
    w.once("error", reject);
  });
  assert.equal(result.crash, undefined, result.crash);
  for (const line of result.out) assert.match(line, /^RangeError: \S+: the module cannot grow its memory/);
  assert.ok(result.same, "a refused call changed the regulator");
  assert.equal(result.topic, "contain+docker", "the instance must still work");
});

test("options and direct-method fields are checked as event() checks them", () => {
  const r = new Regulator({ userId: "alice", costCapUsd: 5 });
  r.turnStart("Refactor fetch_user to be async", T0);
  const before = r.export();
  const loop = { x: [{}] };
  loop.x[0].y = loop;
  let deep = 1;
  for (let i = 0; i < 70; i++) deep = { n: deep };
  const cases = [
    // Values JSON would turn into null or drop without a word.
    [() => r.setConfig({ costCapUsd: Number.NaN }), RangeError, "options.costCapUsd"],
    [() => r.setConfig({ costCapUsd: Infinity }), RangeError, "options.costCapUsd"],
    [() => r.setConfig({ implicitCorrectionWindowMs: Number.NaN }), RangeError, "options.implicitCorrectionWindowMs"],
    [() => r.setConfig({ costCapTokens: () => 5 }), TypeError, "options.costCapTokens"],
    [() => r.setConfig({ costCapTokens: 5n }), TypeError, "options.costCapTokens"],
    [() => r.setConfig({ glossary: ["ok", Symbol("x")] }), TypeError, "options.glossary[1]"],
    [() => r.setConfig({ toolLoopThresholds: { search: Number.NaN } }), RangeError, "options.toolLoopThresholds.search"],
    [() => new Regulator({ userId: "a", costCapUsd: Number.NaN }), RangeError, "options.costCapUsd"],
    [() => new Regulator({ userId: "a", poorQualityMean: () => 0.5 }), TypeError, "options.poorQualityMean"],
    // Unknown names and wrong types, named.
    [() => r.setConfig({ cost_cap_tokens: 5 }), TypeError, "options.cost_cap_tokens"],
    [() => new Regulator({ userId: "a", costCap: 5 }), TypeError, "options.costCap"],
    [() => r.setConfig({ costCapTokens: "5" }), TypeError, "options.costCapTokens"],
    [() => r.setConfig({ qualityWindow: null }), TypeError, "options.qualityWindow"],
    [() => r.setConfig({ tokenCapBasis: "words" }), TypeError, "options.tokenCapBasis"],
    // Typos in the options of the direct methods.
    [() => r.cost({ tokens_out: 5 }), TypeError, "cost.tokens_out"],
    [() => r.cost({ tokensOut: 5, type: "cost" }), TypeError, "cost.type"],
    [() => r.toolResult("t", { ok: true, duration: 5 }), TypeError, "toolResult.duration"],
    [() => r.toolResult("t", { ok: true, name: "u" }), TypeError, "toolResult.name"],
    [() => r.userCorrection("no", { correctLast: false }), TypeError, "userCorrection.correctLast"],
    [() => r.tokens([-1], { unavailble: 2 }), TypeError, "tokens.unavailble"],
    [() => r.toolCall("t", {}, { callID: "c1" }), TypeError, "toolCall.callID"],
    // Tool arguments JSON would change.
    [() => r.toolCall("t", { days: Number.NaN }), RangeError, "toolCall.args.days"],
    [() => r.toolCall("t", { ids: [1, Infinity] }), RangeError, "toolCall.args.ids[1]"],
    [() => r.toolCall("t", { cb() {} }), TypeError, "toolCall.args.cb"],
    [() => r.toolCall("t", { n: 1n }), TypeError, "toolCall.args.n"],
    [() => r.toolCall("t", { get g() { throw new Error("boom"); } }), TypeError, "toolCall.args"],
    [() => r.toolCall("t", loop), TypeError, "toolCall.args.x[0].y: contains itself"],
    [() => r.toolCall("t", deep), RangeError, "toolCall.args.n.n.n.n…"],
  ];
  for (const [call, cls, field] of cases) {
    rejects(call, cls, field);
    assert.equal(r.export(), before, `${field} changed the regulator`);
  }
  // The hints name the field meant.
  assert.throws(() => r.cost({ tokens_out: 5 }), /did you mean tokensOut\?/);
  assert.throws(() => r.userCorrection("no", { correctLast: false }), /did you mean correctsLast\?/);
  assert.throws(() => r.setConfig({ cost_cap_tokens: 5 }), /did you mean costCapTokens\?/);
  // Not given is not "off": an undefined option leaves the current value.
  r.setConfig({ costCapUsd: undefined, costCapTokens: 3000 });
  assert.equal(r.config.costCapUsd, 5);
  assert.equal(r.config.costCapTokens, 3000);
  r.setConfig({ costCapUsd: null });
  assert.equal(r.config.costCapUsd, null, "null turns an optional cap off");
  // Everything accepted through event() is accepted directly, and the reverse.
  r.cost({ tokensIn: 1, tokensOut: 2, wallclockMs: 3, usd: 0.01, provider: "p", atMs: T0 + 1 });
  r.event({ type: "cost", tokensIn: 1, tokensOut: 2, wallclockMs: 3, usd: 0.01, provider: "p", atMs: T0 + 1 });
});

test("free() from inside an argument fails as freed, not as a null pointer", () => {
  for (const call of [
    (r) => r.setConfig({ glossary: [{ toJSON: () => (r.free(), "x") }] }),
    (r) => r.toolCall("t", { q: { toJSON: () => (r.free(), "x") } }),
    (r) => r.cost({ get tokensOut() { r.free(); return 5; } }),
    (r) => r.toolResult("t", { ok: true, get result() { r.free(); return "x"; } }),
    (r) => r.userCorrection("no", { get atMs() { r.free(); return 5; } }),
  ]) {
    const r = new Regulator({ userId: "alice" });
    assert.throws(() => call(r), /this Regulator was freed/);
    assert.throws(() => r.decide(), /this Regulator was freed/);
  }
});

test("two tabs that each learned the same rule, merged, hold it once", () => {
  const tabs = [1, 2].map((k) => {
    const r = new Regulator({ userId: "alice" });
    r.turnStart("From now on, use tabs.", T0 + k);
    return r;
  });
  tabs[0].merge(tabs[1].export());
  assert.deepEqual(tabs[0].preferences(), ["From now on, use tabs."]);
});
