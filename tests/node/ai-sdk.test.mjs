// reins/ai-sdk against the real `ai` package and its mock model: no network, no keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, streamText, tool, jsonSchema, stepCountIs } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { Regulator } from "../../pkg/entry-node.js";
import { regulate } from "../../pkg/adapters/ai-sdk.js";
import { usage, stop, toolCalls, call } from "./helpers/ai-mock.mjs";


const tools = {
  get_tracking: tool({
    description: "Tracking status of an order",
    inputSchema: jsonSchema({ type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] }),
    execute: async () => ({ status: "in_transit" }),
  }),
  get_weather: tool({
    description: "Weather in a city",
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" }, unit: { type: "string" } } }),
    execute: async ({ city }) => ({ city, tempC: city.length + 10 }),
  }),
  get_time: tool({
    description: "Local time in a city",
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } } }),
    execute: async ({ city }) => `${city}: ${10 + city.length}:00`,
  }),
};

/** A model stuck on one identical call until tools are taken away. */
function loopingModel() {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      if (options.toolChoice?.type === "none") {
        return { content: [{ type: "text", text: "Your parcel 4821 is in transit." }], finishReason: stop, usage: usage(50, 9), warnings: [] };
      }
      return { content: [call("get_tracking", { order_id: "4821" })], finishReason: toolCalls, usage: usage(40, 12), warnings: [] };
    },
  });
}

/** Step 1: two parallel calls; step 2: one more; step 3: the answer. */
function healthyModel(streaming = false) {
  let n = 0;
  const script = () => {
    n += 1;
    if (n === 1) return [call("get_weather", { city: "Paris", unit: undefined }), call("get_weather", { city: "Oslo" })];
    if (n === 2) return [call("get_time", { city: "Oslo" })];
    return null;
  };
  const answer = "Paris 15 °C, Oslo 14 °C, and it is 14:00 in Oslo.";
  if (!streaming) {
    return new MockLanguageModelV3({
      doGenerate: async () => {
        const calls = script();
        return calls
          ? { content: calls, finishReason: toolCalls, usage: usage(30, 10), warnings: [] }
          : { content: [{ type: "text", text: answer }], finishReason: stop, usage: usage(60, 20), warnings: [] };
      },
    });
  }
  return new MockLanguageModelV3({
    doStream: async () => {
      const calls = script();
      const chunks = [{ type: "stream-start", warnings: [] }];
      if (calls) chunks.push(...calls, { type: "finish", finishReason: toolCalls, usage: usage(30, 10) });
      else chunks.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: answer }, { type: "text-end", id: "t" }, { type: "finish", finishReason: stop, usage: usage(60, 20) });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

function loopingStreamModel() {
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const chunks = [{ type: "stream-start", warnings: [] }];
      if (options.toolChoice?.type === "none") {
        chunks.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Your parcel 4821 is in transit." }, { type: "text-end", id: "t" }, { type: "finish", finishReason: stop, usage: usage(50, 9) });
      } else {
        chunks.push(call("get_tracking", { order_id: "4821" }), { type: "finish", finishReason: toolCalls, usage: usage(40, 12) });
      }
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

test("a model repeating one call is stopped, and answers under toolChoice none", async () => {
  const r = new Regulator({ userId: "u1" });
  const model = loopingModel();
  const seen = [];
  const result = await generateText({
    model, tools, prompt: "Where is my parcel? Order 4821.",
    ...regulate(r, { onDecision: (d) => seen.push(d.kind) }),
  });
  const calls = model.doGenerateCalls;
  assert.ok(calls.length <= 7, `stopped after ${calls.length} model calls`);
  assert.equal(calls.at(-1).toolChoice?.type, "none");
  assert.ok(calls.slice(0, -1).every((c) => c.toolChoice?.type !== "none"));
  assert.equal(result.text, "Your parcel 4821 is in transit.");
  assert.equal(result.finishReason, "stop");
  const system = calls.at(-1).prompt.find((m) => m.role === "system");
  assert.match(system.content, /Do not call any tool now/);
  const d = r.decide();
  assert.equal(d.kind, "circuitBreak");
  assert.equal(d.reason.kind, "toolLoop");
  assert.deepEqual(seen, ["toolNudge", "circuitBreak"]);
  assert.ok(r.metrics()["reins.tool_total_calls"] >= 4);
  assert.ok(r.metrics()["reins.total_tokens_out"] > 0);
  r.free();
});

test("a healthy run with parallel calls is not stopped and its text is unchanged", async () => {
  const r = new Regulator({ userId: "u2" });
  const model = healthyModel();
  const plain = await generateText({ model: healthyModel(), tools, prompt: "Weather in Paris and Oslo, and the time in Oslo?", stopWhen: stepCountIs(20) });
  const result = await generateText({ model, tools, prompt: "Weather in Paris and Oslo, and the time in Oslo?", ...regulate(r) });
  assert.equal(result.text, plain.text);
  assert.equal(result.steps.length, 3);
  assert.ok(model.doGenerateCalls.every((c) => c.toolChoice?.type !== "none"));
  assert.ok(model.doGenerateCalls.every((c) => !c.prompt.some((m) => m.role === "system")));
  assert.equal(r.decide().kind, "continue");
  const m = r.metrics();
  assert.equal(m["reins.tool_total_calls"], 3);
  assert.equal(m["reins.total_tokens_in"], 120);
  assert.equal(m["reins.total_tokens_out"], 40);
  assert.equal(m["reins.turns"], 1);
  r.free();
});

test("an over-budget regulator halts before the first model call", async () => {
  const r = new Regulator({ userId: "u3", costCapTokens: 100 });
  r.turnStart("earlier task");
  r.cost({ tokensIn: 10, tokensOut: 500 });
  assert.equal(r.decide().kind, "circuitBreak");
  const model = loopingModel();
  const decisions = [];
  const result = await generateText({ model, tools, prompt: "Where is my parcel?", ...regulate(r, { onDecision: (d) => decisions.push(d) }) });
  assert.equal(model.doGenerateCalls.length, 0);
  assert.equal(result.steps.length, 1);
  assert.equal(result.steps[0].model.provider, "reins");
  assert.equal(result.text, r.decide().suggestion);
  assert.equal(decisions.length, 1);
  assert.equal(decisions[0].kind, "circuitBreak");
  assert.equal(decisions[0].reason.kind, "costCap");

  const custom = await generateText({ model, tools, prompt: "And now?", ...regulate(r, { haltText: (d) => `Stopped (${d.reason.kind}).` }) });
  assert.equal(custom.text, "Stopped (costCap).");
  assert.equal(model.doGenerateCalls.length, 0);
  r.free();
});

test("streamText: the loop is stopped, a healthy run passes, a broken regulator halts first", async () => {
  const r = new Regulator({ userId: "u4" });
  const model = loopingStreamModel();
  const result = streamText({ model, tools, prompt: "Where is my parcel? Order 4821.", ...regulate(r) });
  assert.equal(await result.text, "Your parcel 4821 is in transit.");
  assert.equal(model.doStreamCalls.at(-1).toolChoice?.type, "none");
  assert.ok(model.doStreamCalls.length <= 7);
  assert.equal(r.decide().kind, "circuitBreak");
  r.free();

  const h = new Regulator({ userId: "u5" });
  const healthy = healthyModel(true);
  const ok = streamText({ model: healthy, tools, prompt: "Weather in Paris and Oslo, and the time in Oslo?", ...regulate(h) });
  assert.equal(await ok.text, "Paris 15 °C, Oslo 14 °C, and it is 14:00 in Oslo.");
  assert.equal((await ok.steps).length, 3);
  assert.equal(h.decide().kind, "continue");
  assert.equal(h.metrics()["reins.tool_total_calls"], 3);
  h.free();

  const b = new Regulator({ userId: "u6", costCapTokens: 10 });
  b.cost({ tokensOut: 50 });
  const never = loopingStreamModel();
  const halted = streamText({ model: never, tools, prompt: "Hi", ...regulate(b) });
  let streamed = "";
  for await (const chunk of halted.textStream) streamed += chunk;
  assert.equal(never.doStreamCalls.length, 0);
  assert.equal(streamed, b.decide().suggestion);
  b.free();
});

test("onDecision fires once per change, across runs", async () => {
  const r = new Regulator({ userId: "u7" });
  const kinds = [];
  const onDecision = (d) => kinds.push(d.kind);
  await generateText({ model: healthyModel(), tools, prompt: "Weather in Paris and Oslo?", ...regulate(r, { onDecision }) });
  assert.deepEqual(kinds, []); // continue all along: nothing changed
  await generateText({ model: loopingModel(), tools, prompt: "Where is my parcel? Order 4821.", ...regulate(r, { onDecision }) });
  assert.deepEqual(kinds, ["toolNudge", "circuitBreak"]);
  await generateText({ model: healthyModel(), tools, prompt: "Weather in Paris and Oslo?", ...regulate(r, { onDecision }) });
  assert.equal(kinds.filter((k) => k === "circuitBreak").length, 1);
  assert.equal(kinds.at(-1), r.decide().kind);
  r.free();
});

test("tool arguments with undefined members and tool errors are accepted", async () => {
  const r = new Regulator({ userId: "u8" });
  let n = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      n += 1;
      if (n === 1) return { content: [call("flaky", { q: "x" })], finishReason: toolCalls, usage: usage(5, 5), warnings: [] };
      return { content: [{ type: "text", text: "It failed, sorry." }], finishReason: stop, usage: usage(5, 5), warnings: [] };
    },
  });
  const flaky = tool({
    inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }),
    execute: async () => { throw new Error("upstream 503"); },
  });
  const result = await generateText({ model, tools: { flaky }, prompt: "Try it", ...regulate(r) });
  assert.equal(result.text, "It failed, sorry.");
  assert.equal(r.metrics()["reins.tool_failure_count"], 1);
  r.free();
});
