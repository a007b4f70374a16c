// Every error reins throws carries a `code` an app can branch on, and its
// message names the field in plain words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Regulator, memoryStore, openRegulator } from "../../pkg/entry-node.js";

const T0 = 1_732_000_000_000;
const throws = (f, code, message) =>
  assert.throws(f, (e) => {
    assert.equal(e.code, code, `${e.message}`);
    if (message) assert.match(e.message, message);
    return true;
  });

test("errors carry a code by what was refused", async () => {
  const r = new Regulator({ userId: "alice" });
  throws(() => new Regulator({}), "REINS_INVALID_OPTION", /^options\.userId: is required \(a string\)$/);
  throws(() => new Regulator({ userId: "a", costCapTokens: "5" }), "REINS_INVALID_OPTION", /options\.costCapTokens/);
  throws(() => new Regulator({ userId: "a", costCapTokens: -1 }), "REINS_INVALID_OPTION");
  throws(() => r.setConfig({ qualityWindow: 0 }), "REINS_INVALID_OPTION");
  throws(() => r.cost({ tokensOut: -1 }), "REINS_INVALID_EVENT", /^cost\.tokensOut:/);
  throws(() => r.event({ type: "bogus" }), "REINS_INVALID_EVENT");
  throws(() => r.turnStart(42), "REINS_INVALID_EVENT", /^turnStart\.message: must be a string, got number 42$/);
  throws(() => r.toolCall("t", { n: NaN }), "REINS_INVALID_EVENT", /toolCall\.args\.n: must be a finite number/);
  throws(() => Regulator.import("{}"), "REINS_INVALID_SNAPSHOT");
  throws(() => Regulator.import("not json"), "REINS_INVALID_SNAPSHOT");
  const newer = r.export().replace('"version":1', '"version":7');
  throws(() => Regulator.import(newer), "REINS_SNAPSHOT_VERSION", /newer than this reins reads/);
  throws(() => new Regulator({ userId: "bob" }).merge(r.export()), "REINS_SNAPSHOT_USER", /users never mix/);
  throws(() => Regulator.restore(r.exportMemory(), { userId: "bob" }), "REINS_SNAPSHOT_USER");
  await assert.rejects(openRegulator({ userId: "alice", store: memoryStore(), saveDelayMs: -1 }), (e) => e.code === "REINS_INVALID_OPTION");
  r.free();
  throws(() => r.decide(), "REINS_FREED", /was freed/);
});

test("a misspelt option names the one meant", () => {
  throws(() => new Regulator({ userId: "a", costCapTokenz: 5 }), "REINS_INVALID_OPTION", /costCapTokenz: is not an option; did you mean costCapTokens\?/);
  throws(() => new Regulator({ userId: "a", cost_cap_tokens: 5 }), "REINS_INVALID_OPTION", /did you mean costCapTokens\?/);
  throws(() => new Regulator({ userId: "a", paternThreshold: 2 }), "REINS_INVALID_OPTION", /did you mean patternThreshold\?/);
  throws(() => new Regulator({ userId: "a", zzz: 1 }), "REINS_INVALID_OPTION", /^options\.zzz: is not an option$/);
});

test("injectCorrections into a system prompt keeps it first and does not call it the request", () => {
  const r = new Regulator({ userId: "alice" });
  for (let i = 0; i < 3; i++) {
    r.turnStart("Refactor fetch_user to be async", T0 + i * 600_000);
    r.turnComplete("Here it is, still sync.", T0 + i * 600_000 + 10);
    r.userCorrection("No, use async def", { atMs: T0 + i * 600_000 + 20 });
  }
  r.turnStart("Refactor fetch_user to be async", T0 + 3_000_000);
  const system = "You are a helpful assistant.";
  const into = r.injectCorrections(system, { into: "system" });
  assert.ok(into.startsWith(`${system}\n\n`), into);
  assert.match(into, /No, use async def/);
  assert.doesNotMatch(into, /Current request/);
  assert.match(r.injectCorrections("Do it", { into: "request" }), /\n\nCurrent request: Do it$/);
  assert.equal(r.injectCorrections("Do it"), r.injectCorrections("Do it", { into: "request" }));
  throws(() => r.injectCorrections(system, { into: "user" }), "REINS_INVALID_EVENT", /into: must be "request" or "system"/);
  throws(() => r.injectCorrections(system, { role: "system" }), "REINS_INVALID_EVENT", /is not an option/);
  const fresh = new Regulator({ userId: "bob" });
  assert.equal(fresh.injectCorrections(system, { into: "system" }), system, "nothing to add: unchanged");
  r.free();
  fresh.free();
});

test("decide({ changedOnly: true }) tells each decision once", async () => {
  const { Regulator } = await import("../../pkg/entry-node.js");
  const r = new Regulator({ userId: "alice", costCapTokens: 1000 });
  const heard = () => r.decide({ changedOnly: true });
  r.turnStart("Summarise the report", T0);
  assert.equal(heard(), null, "continue from the start is nothing new");
  r.cost({ tokensOut: 1500 });
  const first = heard();
  assert.equal(first?.kind, "circuitBreak");
  assert.equal(first.reason.kind, "costCap");
  r.cost({ tokensOut: 100 });
  assert.equal(heard(), null, "the same halt with a larger count is not news");
  assert.equal(r.decide().reason.tokensSpent, 1600, "decide() itself still tells all");
  r.resetSession();
  assert.equal(heard()?.kind, "continue", "back to continue is news");
  assert.equal(heard(), null);
  assert.equal(r.decide({ changedOnly: false }).kind, "continue");
  assert.throws(() => r.decide({ changed: true }), /decide.changed: is not an option/);
  r.free();
});
