// reins/openai-agents against the real `@openai/agents`: a scripted Model (the SDK's own Model /
// ModelProvider interfaces) returning function calls; no network, no keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Agent, Runner, Usage, run, setTracingDisabled, tool } from "@openai/agents";
import { Regulator } from "../../pkg/entry-node.js";
import { regulate, ReinsHaltError } from "../../pkg/adapters/openai-agents.js";

setTracingDisabled(true);

/** A Model answering from a script: `script(n, request)` returns the n-th response's output items. */
class ScriptedModel {
  constructor(script) {
    this.script = script;
    this.requests = [];
  }
  async getResponse(request) {
    this.requests.push(request);
    const { output, usage } = this.script(this.requests.length - 1, request);
    return { output, usage: new Usage({ requests: 1, ...usage }), responseId: `resp_${this.requests.length}` };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error("not scripted");
  }
}

let ids = 0;
const ask = (...calls) => ({
  output: calls.map(([name, args]) => ({ type: "function_call", callId: `call_${++ids}`, name, arguments: JSON.stringify(args), status: "completed" })),
  usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
});
const answer = (text) => ({
  output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }],
  usage: { inputTokens: 60, outputTokens: 20, totalTokens: 80 },
});

const params = (props) => ({ type: "object", properties: Object.fromEntries(props.map((p) => [p, { type: "string" }])), required: props, additionalProperties: false });
const getTracking = tool({ name: "get_tracking", description: "Tracking status", parameters: params(["order_id"]), strict: true, execute: async () => JSON.stringify({ status: "in_transit" }) });
const getWeather = tool({ name: "get_weather", description: "Weather", parameters: params(["city"]), strict: true, execute: async ({ city }) => JSON.stringify({ city, tempC: city.length + 10 }) });
const bookRoom = tool({ name: "book_room", description: "Book", parameters: params(["hotel"]), strict: true, execute: async () => { throw new Error("permission denied: booking API"); } });

const agentWith = (model, tools) => new Agent({ name: "support", instructions: "You are a support agent.", model, tools });

test("a model repeating the same tool call is halted before the next model call", async () => {
  const model = new ScriptedModel(() => ask(["get_tracking", { order_id: "4821" }]));
  let trackingRuns = 0;
  const counted = tool({ name: "get_tracking", description: "Tracking status", parameters: params(["order_id"]), strict: true, execute: async () => (trackingRuns++, JSON.stringify({ status: "in_transit" })) });
  const agent = agentWith(model, [counted]);
  const r = new Regulator({ userId: "alice" });
  const reins = regulate(r, agent);
  const err = await run(agent, "Where is my parcel? Order 4821.", { callModelInputFilter: reins.callModelInputFilter, maxTurns: 50 }).then(
    () => assert.fail("the run was not halted"),
    (e) => e,
  );
  assert.ok(err instanceof ReinsHaltError, `expected ReinsHaltError, got ${err}`);
  assert.equal(err.code, "REINS_HALT");
  assert.equal(err.reason.kind, "toolLoop");
  assert.equal(err.decision.kind, "circuitBreak");
  assert.equal(reins.halted, err);
  // Halted before the next model call: the model answered exactly as many times as the tool ran.
  const d = r.decide();
  assert.equal(d.kind, "circuitBreak");
  assert.ok(model.requests.length <= 6, `model called ${model.requests.length} times`);
  // The nudge reached the instructions before the break.
  assert.ok(model.requests.some((req) => req.systemInstructions.startsWith("You are a support agent.") && req.systemInstructions.length > "You are a support agent.".length));
  // Halted before the next model call: every model response's tool call ran, and no model call followed the last.
  assert.equal(trackingRuns, model.requests.length);
  reins.detach();
});

test("a healthy run passes, with results, errors, durations and usage fed", async () => {
  const model = new ScriptedModel((n) =>
    [ask(["get_tracking", { order_id: "4821" }], ["get_weather", { city: "Paris" }]), ask(["book_room", { hotel: "Ritz" }]), answer("Your parcel is in transit; it is 18°C in Paris.")][n],
  );
  const runner = new Runner();
  const agent = agentWith(model, [getTracking, getWeather, bookRoom]);
  const r = new Regulator({ userId: "bob" });
  const events = [];
  for (const m of ["turnStart", "toolCall", "toolResult", "cost", "turnComplete"]) {
    const orig = r[m].bind(r);
    r[m] = (...a) => (events.push([m, ...a]), orig(...a));
  }
  const reins = regulate(r, runner);
  const result = await runner.run(agent, "Where is my parcel? Order 4821.", { callModelInputFilter: reins.callModelInputFilter });
  assert.equal(result.finalOutput, "Your parcel is in transit; it is 18°C in Paris.");
  assert.equal(r.decide().kind, "continue");
  assert.equal(reins.halted, null);
  assert.deepEqual(events[0], ["turnStart", "Where is my parcel? Order 4821."]);
  const calls = events.filter((e) => e[0] === "toolCall");
  assert.deepEqual(calls.map((e) => [e[1], e[2]]), [["get_tracking", { order_id: "4821" }], ["get_weather", { city: "Paris" }], ["book_room", { hotel: "Ritz" }]]);
  assert.ok(calls.every((e) => /^call_\d+$/.test(e[3].callId)));
  const results = events.filter((e) => e[0] === "toolResult");
  assert.equal(results.length, 3);
  assert.deepEqual(results.map((e) => e[2].callId), calls.map((e) => e[3].callId));
  assert.ok(results.every((e) => Number.isFinite(e[2].durationMs) && e[2].durationMs >= 0));
  assert.deepEqual(results.map((e) => e[2].ok), [true, true, false]);
  assert.match(results[2][2].error, /permission denied/);
  const costs = events.filter((e) => e[0] === "cost");
  assert.equal(costs.length, 3);
  assert.deepEqual(costs.map((e) => [e[1].tokensIn, e[1].tokensOut]), [[40, 12], [40, 12], [60, 20]]);
  assert.deepEqual(events.at(-1), ["turnComplete", "Your parcel is in transit; it is 18°C in Paris."]);
  reins.detach();
});

test("the user's corrections reach the instructions", async () => {
  const model = new ScriptedModel(() => answer("Done."));
  const agent = agentWith(model, []);
  const r = new Regulator({ userId: "carol" });
  const reins = regulate(r, agent);
  await run(agent, "From now on, always answer in French.", { callModelInputFilter: reins.callModelInputFilter });
  await run(agent, "What is the weather?", { callModelInputFilter: reins.callModelInputFilter });
  const last = model.requests.at(-1).systemInstructions;
  assert.ok(last.startsWith("You are a support agent."), last);
  assert.match(last, /French/);
  reins.detach();
});

test("onDecision fires once per change", async () => {
  const model = new ScriptedModel(() => ask(["get_tracking", { order_id: "4821" }]));
  const agent = agentWith(model, [getTracking]);
  const r = new Regulator({ userId: "dave" });
  const decisions = [];
  const reins = regulate(r, agent, { onDecision: (d) => decisions.push(d.kind) });
  await assert.rejects(run(agent, "Where is my parcel? Order 4821.", { callModelInputFilter: reins.callModelInputFilter, maxTurns: 50 }), ReinsHaltError);
  assert.ok(decisions.length >= 2, decisions.join());
  for (let i = 1; i < decisions.length; i++) assert.notEqual(decisions[i], decisions[i - 1], decisions.join());
  assert.equal(decisions.at(-1), "circuitBreak");
  assert.ok(decisions.includes("toolNudge"), decisions.join());
  reins.detach();
});
