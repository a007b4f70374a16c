// chatRequest / chatResponse through the JS API: a regulator fed whole
// chat-completions requests and responses (the Rust rules are in
// tests/chat.rs; the Workers proxy built on them in tests/workerd).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Regulator, memoryStore, openRegulator } from "../../pkg/entry-node.js";

const T0 = 1_732_000_000_000;
const call = (i) => ({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "search_orders", arguments: "{\"q\":\"late\"}" } }] });
const result = (i) => ({ role: "tool", tool_call_id: `c${i}`, content: "[]" });
function looping(n) {
  const m = [{ role: "system", content: "You are a support agent." }, { role: "user", content: "Find my late orders" }];
  for (let i = 1; i <= n; i++) m.push(call(i), result(i));
  return m;
}

test("a fresh regulator reading the request halts the loop the request shows; its JSON text works the same", () => {
  for (const input of [looping(5), JSON.stringify(looping(5))]) {
    const r = new Regulator({ userId: "a" });
    r.chatRequest(input, { atMs: T0 });
    const d = r.decide();
    assert.equal(d.kind, "circuitBreak");
    assert.equal(d.reason.kind, "toolLoop");
    r.free();
  }
});

test("chatResponse reads the answer's tool calls and usage", () => {
  const r = new Regulator({ userId: "a" });
  r.chatRequest([{ role: "user", content: "Find my late orders" }], { atMs: T0 });
  r.chatResponse({ choices: [{ message: call(1) }], usage: { prompt_tokens: 40, completion_tokens: 9 } }, { atMs: T0 + 800, durationMs: 750 });
  const m = r.metrics();
  assert.deepEqual([m["reins.total_tokens_in"], m["reins.total_tokens_out"], m["reins.total_wallclock_ms"], m["reins.tool_total_calls"]], [40, 9, 750, 1]);
});

test("bad input names the field, carries a code, and changes nothing", () => {
  const r = new Regulator({ userId: "a" });
  r.chatRequest(looping(1), { atMs: T0 });
  const before = r.export();
  const cases = [
    [() => r.chatRequest([...looping(2), { role: "robot" }]), TypeError, /^messages\[6\]\.role: "robot" is not a role/],
    [() => r.chatRequest("[oops"), TypeError, /^messages: must be JSON/],
    [() => r.chatRequest([{ role: "user", content: 5n }]), TypeError, /^chatRequest\.messages\[0\]\.content: cannot be written as JSON/],
    [() => r.chatRequest(looping(2), { at: 1 }), TypeError, /^chatRequest\.at: is not an option; expected atMs/],
    [() => r.chatResponse({ choices: "none" }), TypeError, /^response\.choices: must be an array/],
    [() => r.chatResponse({}, { durationMs: -1 }), RangeError, /^chatResponse\.durationMs/],
  ];
  for (const [fn, Kind, message] of cases) {
    assert.throws(fn, (e) => e instanceof Kind && message.test(e.message) && typeof e.code === "string" && e.code.startsWith("REINS_"), String(message));
  }
  assert.equal(r.export(), before);
});

test("a stored regulator saves what the request's news taught, and not the history again", async () => {
  const store = memoryStore();
  const convo = [
    { role: "user", content: "Draft the newsletter" },
    { role: "assistant", content: "Drafted, with emojis." },
    { role: "user", content: "Wrong: I said no emojis." },
  ];
  const first = await openRegulator({ userId: "n", store, saveDelayMs: 0, live: false });
  first.chatRequest(convo, { atMs: T0 });
  assert.ok(await first.close());
  // The next request re-sends that correction in its history, with a new one.
  convo.push({ role: "assistant", content: "Redrafted without emojis." }, { role: "user", content: "Wrong: keep it under 200 words." });
  const second = await openRegulator({ userId: "n", store, saveDelayMs: 0, live: false });
  second.chatRequest(convo, { atMs: T0 + 60_000 });
  assert.ok(await second.close());
  const third = await openRegulator({ userId: "n", store, live: false });
  assert.deepEqual(third.corrections().map((c) => c.text).sort(), ["Wrong: I said no emojis.", "Wrong: keep it under 200 words."]);
  await third.close();
});

test("costCapScope: \"turn\" gives each user turn its own budget", () => {
  const spend = (scope) => {
    const r = new Regulator({ userId: "a", costCapTokens: 1000, costCapScope: scope });
    const kinds = [];
    for (let i = 0; i < 4; i++) {
      r.turnStart(`Tell me about planet number ${["one", "two", "three", "four"][i]}`, T0 + i * 60_000);
      r.cost({ tokensOut: 400, atMs: T0 + i * 60_000 + 1 });
      kinds.push(r.decide().kind);
    }
    return kinds;
  };
  assert.deepEqual(spend("session"), ["continue", "continue", "circuitBreak", "circuitBreak"]);
  assert.deepEqual(spend("turn"), ["continue", "continue", "continue", "continue"]);
  assert.throws(() => new Regulator({ userId: "a", costCapScope: "task" }), (e) => e instanceof TypeError && /^options\.costCapScope/.test(e.message));
});
