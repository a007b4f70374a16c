// reins/langchain against the real `@langchain/core`: a scripted chat model, a hand-written tool loop; no network, no keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Regulator } from "../../pkg/entry-node.js";
import { ReinsCallbackHandler, ReinsHaltError } from "../../pkg/adapters/langchain.js";

/** A chat model answering from a script: `script(n, messages)` returns the n-th AIMessage. */
class ScriptedChatModel extends BaseChatModel {
  constructor(script) {
    super({});
    this.script = script;
    this.calls = 0;
  }
  _llmType() {
    return "scripted";
  }
  bindTools() {
    return this;
  }
  async _generate(messages) {
    const message = this.script(this.calls++, messages);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

let ids = 0;
const usage = (input, output) => ({ input_tokens: input, output_tokens: output, total_tokens: input + output });
const ask = (...calls) =>
  new AIMessage({ content: "", tool_calls: calls.map(([name, args]) => ({ id: `call_${++ids}`, name, args, type: "tool_call" })), usage_metadata: usage(40, 12) });
const answer = (text) => new AIMessage({ content: text, usage_metadata: usage(60, 20) });

const schema = (props) => ({ type: "object", properties: Object.fromEntries(props.map((p) => [p, { type: "string" }])), required: props });
const tools = {
  get_tracking: tool(async () => JSON.stringify({ status: "in_transit" }), { name: "get_tracking", description: "Tracking status", schema: schema(["order_id"]) }),
  get_weather: tool(async ({ city }) => JSON.stringify({ city, tempC: city.length + 10 }), { name: "get_weather", description: "Weather", schema: schema(["city"]) }),
  get_time: tool(async ({ city }) => `${city}: ${10 + city.length}:00`, { name: "get_time", description: "Time", schema: schema(["city"]) }),
  book_room: tool(async () => { throw new Error("permission denied: booking API"); }, { name: "book_room", description: "Book", schema: schema(["hotel"]) }),
};

/** The loop an app writes over `@langchain/core`: model → tools → ToolMessages, until an answer. */
async function runAgent(model, question, config, maxSteps = 20) {
  const bound = model.bindTools(Object.values(tools));
  const messages = [new HumanMessage(question)];
  for (let step = 0; step < maxSteps; step++) {
    const ai = await bound.invoke(messages, config);
    messages.push(ai);
    if (!ai.tool_calls?.length) return { text: ai.content, messages };
    for (const call of ai.tool_calls) {
      try {
        messages.push(await tools[call.name].invoke(call, config));
      } catch (e) {
        if (e instanceof ReinsHaltError) throw e;
        messages.push(new ToolMessage({ content: String(e.message), tool_call_id: call.id, status: "error" }));
      }
    }
  }
  throw new Error("step limit");
}

/** Runs `fn` with console.error / console.warn captured. */
async function captureConsole(fn) {
  const lines = [];
  const { error, warn } = console;
  console.error = (...a) => lines.push(a.join(" "));
  console.warn = (...a) => lines.push(a.join(" "));
  try {
    return { result: await fn(), lines };
  } catch (e) {
    return { error: e, lines };
  } finally {
    console.error = error;
    console.warn = warn;
  }
}

test("a model stuck on one identical call is halted with ReinsHaltError (toolLoop), nothing logged", async () => {
  const r = new Regulator({ userId: "loop" });
  const model = new ScriptedChatModel(() => ask(["get_tracking", { order_id: "4821" }]));
  const reins = new ReinsCallbackHandler(r);
  const { error, lines } = await captureConsole(() => runAgent(model, "Where is my parcel 4821?", { callbacks: [reins] }));
  assert.ok(error instanceof ReinsHaltError, String(error && error.stack));
  assert.equal(error.reason.kind, "toolLoop");
  assert.equal(error.reason.toolName, "get_tracking");
  assert.equal(error.decision.kind, "circuitBreak");
  assert.equal(error.code, "REINS_HALT");
  assert.ok(model.calls <= 6, `model called ${model.calls} times`);
  assert.deepEqual(lines.filter((l) => /Error in handler/.test(l)), []);
  assert.deepEqual(lines, []);
  assert.match(String(error), /circuit break \(toolLoop\)/, "converts to a string as usual afterwards");
  assert.equal(r.metrics()["reins.tool_total_calls"] > 0, true);
});

test("with reins.signal in the config the break rejects the run just the same, unlogged", async () => {
  const r = new Regulator({ userId: "loop-signal" });
  const model = new ScriptedChatModel(() => ask(["get_tracking", { order_id: "4821" }]));
  const reins = new ReinsCallbackHandler(r);
  const { error, lines } = await captureConsole(() => runAgent(model, "Where is my parcel 4821?", { callbacks: [reins], signal: reins.signal }));
  assert.ok(error instanceof ReinsHaltError);
  assert.equal(error.reason.kind, "toolLoop");
  assert.ok(reins.signal.aborted === false, "a fresh signal for the next run");
  assert.deepEqual(lines, []);
  // the next turn on the still-looping model halts again, before running away
  const again = await captureConsole(() => runAgent(model, "And parcel 4821 now?", { callbacks: [reins], signal: reins.signal }));
  assert.ok(again.error instanceof ReinsHaltError);
  assert.deepEqual(again.lines, []);
});

test("a healthy run with several tool calls passes untouched", async () => {
  const r = new Regulator({ userId: "healthy" });
  const model = new ScriptedChatModel((n) =>
    n === 0 ? ask(["get_weather", { city: "Paris" }], ["get_weather", { city: "Oslo" }]) : n === 1 ? ask(["get_time", { city: "Oslo" }]) : answer("Paris 15 °C, Oslo 14 °C, and it is 14:00 in Oslo."),
  );
  const decisions = [];
  const reins = new ReinsCallbackHandler(r, { onDecision: (d) => decisions.push(d.kind) });
  const { result, error, lines } = await captureConsole(() => runAgent(model, "Weather in Paris and Oslo, and the time in Oslo?", { callbacks: [reins], signal: reins.signal }));
  assert.equal(error, undefined);
  assert.equal(result.text, "Paris 15 °C, Oslo 14 °C, and it is 14:00 in Oslo.");
  assert.equal(model.calls, 3);
  assert.deepEqual(lines, []);
  assert.equal(r.decide().kind, "continue");
  assert.deepEqual(decisions.filter((k) => k !== "continue"), []);
  const m = r.metrics();
  assert.equal(m["reins.turns"], 1);
  assert.equal(m["reins.tool_total_calls"], 3);
  assert.equal(m["reins.tool_failure_count"], 0);
  assert.equal(m["reins.total_tokens_in"], 40 + 40 + 60);
  assert.equal(m["reins.total_tokens_out"], 12 + 12 + 20);
  assert.equal(reins.halted, null);
});

test("onDecision fires once per change", async () => {
  const r = new Regulator({ userId: "changes" });
  const model = new ScriptedChatModel(() => ask(["get_tracking", { order_id: "4821" }]));
  const decisions = [];
  const reins = new ReinsCallbackHandler(r, { onDecision: (d) => decisions.push(d.kind) });
  await assert.rejects(runAgent(model, "Where is my parcel 4821?", { callbacks: [reins] }), ReinsHaltError);
  assert.deepEqual(decisions, ["toolNudge", "circuitBreak"]);
  for (let i = 1; i < decisions.length; i++) assert.notEqual(decisions[i], decisions[i - 1]);
});

test("tool errors are fed as ok:false, thrown or as a ToolMessage with status error", async () => {
  const r = new Regulator({ userId: "errors" });
  const fed = [];
  const spy = new Proxy(r, {
    get(target, key) {
      const v = target[key];
      if (key === "toolResult" || key === "toolCall") return (...a) => (fed.push([key, ...a]), v.apply(target, a));
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const model = new ScriptedChatModel((n) => (n === 0 ? ask(["book_room", { hotel: "Ritz" }]) : answer("I could not book the Ritz: the booking service refused.")));
  const reins = new ReinsCallbackHandler(spy);
  const { result } = await captureConsole(() => runAgent(model, "Book me the Ritz", { callbacks: [reins] }));
  assert.equal(result.text, "I could not book the Ritz: the booking service refused.");
  const calls = fed.filter(([k]) => k === "toolCall");
  const results = fed.filter(([k]) => k === "toolResult");
  assert.equal(calls.length, 1);
  assert.equal(calls[0][1], "book_room");
  assert.deepEqual(calls[0][2], { hotel: "Ritz" });
  assert.equal(results.length, 1);
  const [, name, outcome] = results[0];
  assert.equal(name, "book_room");
  assert.equal(outcome.ok, false);
  assert.match(outcome.error, /permission denied/);
  assert.equal(outcome.callId, calls[0][3].callId);
  assert.ok(Number.isInteger(outcome.durationMs) && outcome.durationMs >= 0);
  assert.equal(r.metrics()["reins.tool_failure_count"], 1);

  // a tool returning a ToolMessage with status "error"
  const soft = tool(async () => new ToolMessage({ content: "rate limited", tool_call_id: "x", status: "error" }), { name: "soft", description: "s", schema: schema(["q"]) });
  await soft.invoke({ id: "call_soft", name: "soft", args: { q: "a" }, type: "tool_call" }, { callbacks: [reins] });
  const last = fed.filter(([k]) => k === "toolResult").at(-1);
  assert.equal(last[2].ok, false);
  assert.equal(last[2].error, "rate limited");
  assert.equal(last[2].callId, "call_soft");
});

test("a regulator already broken halts before the model is called", async () => {
  const r = new Regulator({ userId: "broke", costCapTokens: 10 });
  r.cost({ tokensOut: 50 });
  assert.equal(r.decide().kind, "circuitBreak");
  const model = new ScriptedChatModel(() => answer("hi"));
  const reins = new ReinsCallbackHandler(r);
  const { error, lines } = await captureConsole(() => runAgent(model, "hello", { callbacks: [reins] }));
  assert.ok(error instanceof ReinsHaltError);
  assert.equal(error.reason.kind, "costCap");
  assert.equal(model.calls, 0);
  assert.deepEqual(lines, []);
});
