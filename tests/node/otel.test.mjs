// reins/otel against the real OpenTelemetry SDK and the real `ai` package with its mock model: no network, no keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, streamText, tool, jsonSchema, stepCountIs } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { Regulator } from "../../pkg/entry-node.js";
import { ReinsSpanProcessor } from "../../pkg/adapters/otel.js";
import { usage, stop, toolCalls, call } from "./helpers/ai-mock.mjs";

const ERROR = 2; // SpanStatusCode.ERROR

/** A Regulator that also logs the events it is given, in order. */
class Spy extends Regulator {
  log = [];
  turnStart(message, atMs) { this.log.push(["turnStart", message]); return super.turnStart(message, atMs); }
  turnComplete(text, atMs) { this.log.push(["turnComplete", text]); return super.turnComplete(text, atMs); }
  cost(usage) { this.log.push(["cost", usage]); return super.cost(usage); }
  toolCall(name, args, options) { this.log.push(["toolCall", name, args, options?.callId]); return super.toolCall(name, args, options); }
  toolResult(name, outcome) { this.log.push(["toolResult", name, outcome]); return super.toolResult(name, outcome); }
  events(type) { return this.log.filter((e) => e[0] === type); }
}

const tracerWith = (...processors) => new BasicTracerProvider({ spanProcessors: processors }).getTracer("reins-test");
const telemetry = (tracer, metadata) => ({ isEnabled: true, tracer, ...(metadata ? { metadata } : {}) });


const tools = {
  search_orders: tool({
    inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }),
    execute: async () => [],
  }),
  get_weather: tool({
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } } }),
    execute: async ({ city }) => ({ city, tempC: city.length + 10 }),
  }),
  get_time: tool({
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } } }),
    execute: async ({ city }) => `${city}: ${10 + city.length}:00`,
  }),
  flaky: tool({
    inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }),
    execute: async () => { throw new Error("upstream 503"); },
  }),
};

/** The same call, the same arguments, the same empty result, step after step. */
const loopingModel = () => new MockLanguageModelV3({
  doGenerate: async () => ({ content: [call("search_orders", { q: "late" })], finishReason: toolCalls, usage: usage(40, 12), warnings: [] }),
});

const answer = "Paris 15 °C, Oslo 14 °C, and it is 14:00 in Oslo.";
/** Step 1: two parallel calls; step 2: one more; step 3: the answer. */
function healthyScript() {
  let n = 0;
  return () => {
    n += 1;
    if (n === 1) return [call("get_weather", { city: "Paris" }), call("get_weather", { city: "Oslo" })];
    if (n === 2) return [call("get_time", { city: "Oslo" })];
    return null;
  };
}
const healthyModel = () => {
  const script = healthyScript();
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const calls = script();
      return calls
        ? { content: calls, finishReason: toolCalls, usage: usage(30, 10), warnings: [] }
        : { content: [{ type: "text", text: answer }], finishReason: stop, usage: usage(60, 20), warnings: [] };
    },
  });
};
const healthyStreamModel = () => {
  const script = healthyScript();
  return new MockLanguageModelV3({
    doStream: async () => {
      const calls = script();
      const chunks = [{ type: "stream-start", warnings: [] }];
      if (calls) chunks.push(...calls, { type: "finish", finishReason: toolCalls, usage: usage(30, 10) });
      else chunks.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: answer }, { type: "text-end", id: "t" }, { type: "finish", finishReason: stop, usage: usage(60, 20) });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
};

const sum = (steps, key) => steps.reduce((n, s) => n + s.usage[key], 0);

test("AI SDK: a looping tool-calling run reaches a toolLoop circuit break; usage is counted once", async () => {
  const r = new Spy({ userId: "u1" });
  const decisions = [];
  const tracer = tracerWith(new ReinsSpanProcessor(r, { onDecision: (d, span) => decisions.push([d, span.name]) }));
  const result = await generateText({
    model: loopingModel(), tools, prompt: "Which orders are late?",
    stopWhen: stepCountIs(8), experimental_telemetry: telemetry(tracer),
  });
  const breaks = decisions.filter(([d]) => d.kind === "circuitBreak");
  assert.equal(breaks.length, 1);
  assert.equal(breaks[0][0].reason.kind, "toolLoop");
  assert.equal(breaks[0][1], "ai.toolCall");
  assert.equal(r.decide().kind, "circuitBreak");
  // The prompt opens the turn once, before the first call, though the run span ends last.
  assert.deepEqual(r.events("turnStart"), [["turnStart", "Which orders are late?"]]);
  assert.equal(r.log[0][0], "turnStart");
  assert.deepEqual(r.events("toolCall")[0].slice(1, 3), ["search_orders", { q: "late" }]);
  assert.equal(r.events("toolResult")[0][2].result, "[]");
  const m = r.metrics();
  assert.equal(result.steps.length, 8);
  assert.equal(m["reins.cost_events"], 8); // one per step, none from the run span
  assert.equal(m["reins.total_tokens_in"], sum(result.steps, "inputTokens"));
  assert.equal(m["reins.total_tokens_out"], sum(result.steps, "outputTokens"));
  assert.equal(m["reins.tool_total_calls"], 8);
  r.free();
});

test("AI SDK: a healthy run with different calls stays continue, and its answer completes the turn", async () => {
  for (const streaming of [false, true]) {
    const r = new Spy({ userId: "u2" });
    const decisions = [];
    const tracer = tracerWith(new ReinsSpanProcessor(r, { onDecision: (d) => decisions.push(d.kind) }));
    const options = { tools, prompt: "Weather in Paris and Oslo, and the time in Oslo?", stopWhen: stepCountIs(10), experimental_telemetry: telemetry(tracer) };
    const steps = streaming
      ? await streamText({ model: healthyStreamModel(), ...options }).steps
      : (await generateText({ model: healthyModel(), ...options })).steps;
    assert.equal(steps.length, 3);
    assert.deepEqual(decisions, []);
    assert.equal(r.decide().kind, "continue");
    assert.deepEqual(r.events("turnComplete"), [["turnComplete", answer]]);
    assert.deepEqual(r.events("toolCall").map((e) => e[2]), [{ city: "Paris" }, { city: "Oslo" }, { city: "Oslo" }]);
    const m = r.metrics();
    assert.equal(m["reins.turns"], 1);
    assert.equal(m["reins.tool_total_calls"], 3);
    assert.equal(m["reins.total_tokens_in"], 120);
    assert.equal(m["reins.total_tokens_out"], 40);
    r.free();
  }
});

test("AI SDK: a tool that throws is a failed result, with the error's message", async () => {
  const r = new Spy({ userId: "u3" });
  let n = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => (++n === 1
      ? { content: [call("flaky", { q: "x" })], finishReason: toolCalls, usage: usage(5, 5), warnings: [] }
      : { content: [{ type: "text", text: "It failed, sorry." }], finishReason: stop, usage: usage(5, 5), warnings: [] }),
  });
  await generateText({ model, tools, prompt: "Try it", stopWhen: stepCountIs(5), experimental_telemetry: telemetry(tracerWith(new ReinsSpanProcessor(r))) });
  const [[, name, outcome]] = r.events("toolResult");
  assert.equal(name, "flaky");
  assert.equal(outcome.ok, false);
  assert.equal(outcome.error, "upstream 503");
  assert.equal(r.metrics()["reins.tool_failure_count"], 1);
  r.free();
});

/** Hand-made GenAI-convention spans, as an instrumented framework records them. */
function chatSpan(tracer, input, output, usageAttrs, extra = {}) {
  const span = tracer.startSpan("chat gpt-4o", { attributes: { "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o", ...extra } });
  if (input !== undefined) span.setAttribute("gen_ai.input.messages", JSON.stringify(input));
  if (output !== undefined) span.setAttribute("gen_ai.output.messages", JSON.stringify(output));
  span.setAttributes(usageAttrs);
  return span;
}
function toolSpan(tracer, name, id, args, result, error) {
  const span = tracer.startSpan(`execute_tool ${name}`, { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": id, "gen_ai.tool.call.arguments": JSON.stringify(args) } });
  if (error) span.setStatus({ code: ERROR, message: error });
  else span.setAttribute("gen_ai.tool.call.result", result);
  span.end();
}
const user = (text) => ({ role: "user", parts: [{ type: "text", content: text }] });
const asks = (id, name, args) => ({ role: "assistant", parts: [{ type: "tool_call", id, name, arguments: args }] });
const says = (text) => ({ role: "assistant", parts: [{ type: "text", content: text }], finish_reason: "stop" });
const answers = (id, result) => ({ role: "tool", parts: [{ type: "tool_call_response", id, result }] });

test("GenAI conventions: chat and execute_tool spans feed the regulator, string numbers and ERROR status included", () => {
  const r = new Spy({ userId: "u4" });
  const tracer = tracerWith(new ReinsSpanProcessor(r));
  const history = [user("Where is order 4821?")];
  chatSpan(tracer, history, [asks("c1", "get_tracking", { id: "4821" })], { "gen_ai.usage.input_tokens": "25", "gen_ai.usage.output_tokens": 7 }).end();
  toolSpan(tracer, "get_tracking", "c1", { id: "4821" }, "in transit");
  toolSpan(tracer, "notify", "c2", { id: "4821" }, undefined, "SMTP down");
  history.push(asks("c1", "get_tracking", { id: "4821" }), answers("c1", "in transit"));
  chatSpan(tracer, history, [says("It is in transit.")], { "gen_ai.usage.input_tokens": 40, "gen_ai.usage.output_tokens": "9" }).end();
  assert.equal(r.metrics()["reins.tool_failure_count"], 1); // counted in this turn
  // The next turn, recorded with the older attributes.
  const older = [{ role: "user", content: "Where is order 4821?" }, { role: "assistant", content: "It is in transit." }, { role: "user", content: "And 4822?" }];
  chatSpan(tracer, undefined, undefined, { "gen_ai.prompt": JSON.stringify(older), "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "Delivered." }]), "gen_ai.usage.input_tokens": 50, "gen_ai.usage.output_tokens": 3 }).end();

  const plain = r.log.map((e) => (e[0] === "cost" ? ["cost", e[1].tokensIn, e[1].tokensOut, e[1].provider] : e[0] === "toolResult" ? ["toolResult", e[1], e[2].ok, e[2].result ?? e[2].error, e[2].callId] : e));
  assert.deepEqual(plain, [
    ["turnStart", "Where is order 4821?"],
    ["cost", 25, 7, "openai"],
    ["toolCall", "get_tracking", { id: "4821" }, "c1"],
    ["toolResult", "get_tracking", true, "in transit", "c1"],
    ["toolCall", "notify", { id: "4821" }, "c2"],
    ["toolResult", "notify", false, "SMTP down", "c2"],
    ["cost", 40, 9, "openai"],
    ["turnComplete", "It is in transit."],
    ["turnStart", "And 4822?"],
    ["cost", 50, 3, "openai"],
    ["turnComplete", "Delivered."],
  ]);
  assert.ok(r.log.filter((e) => e[0] === "toolResult").every((e) => Number.isFinite(e[2].durationMs)));
  assert.ok(r.log.filter((e) => e[0] === "cost").every((e) => Number.isFinite(e[1].wallclockMs)));
  const m = r.metrics();
  assert.equal(m["reins.turns"], 2);
  assert.equal(m["reins.total_tokens_in"], 115);
  // A span that is both AI SDK and GenAI is read once, as the AI SDK's.
  const both = tracer.startSpan("ai.generateText.doGenerate", { attributes: { "ai.operationId": "ai.generateText.doGenerate", "gen_ai.operation.name": "chat", "gen_ai.input.messages": JSON.stringify([user("Other question")]) } });
  both.setAttributes({ "ai.usage.inputTokens": 5, "gen_ai.usage.input_tokens": 5, "ai.response.text": "Answer." });
  both.end();
  assert.deepEqual(r.log.slice(11).map((e) => e[0]), ["cost", "turnComplete"]);
  assert.equal(r.metrics()["reins.total_tokens_in"], 120);
  r.free();
});

/** A reader to collect from on demand. */
class Reader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}
async function collect(reader) {
  const { resourceMetrics } = await reader.collect();
  const out = new Map();
  for (const scope of resourceMetrics.scopeMetrics) for (const metric of scope.metrics) out.set(metric.descriptor.name, metric);
  return out;
}
const point = (metric, key, value) => metric.dataPoints.find((p) => p.attributes[key] === value);

test("metrics: GenAI token usage and duration, reins decisions and circuit breaks", async () => {
  const reader = new Reader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter("reins-test");
  const r = new Regulator({ userId: "u5" });
  const heard = [];
  const tracer = tracerWith(new ReinsSpanProcessor(r, { meter, onDecision: (d) => heard.push(d) }));
  const span = chatSpan(tracer, [user("Which orders are late?")], [asks("c0", "search_orders", { q: "late" })], { "gen_ai.usage.input_tokens": 25, "gen_ai.usage.output_tokens": "7" }, { "gen_ai.response.model": "gpt-4o-2024" });
  span.end();
  const timed = tracer.startSpan("chat", { startTime: [2000, 0], attributes: { "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 10 } });
  timed.setStatus({ code: ERROR });
  timed.end([2001, 500_000_000]);
  for (let i = 0; i < 8; i++) toolSpan(tracer, "search_orders", `c${i}`, { q: "late" }, "[]");

  const metrics = await collect(reader);
  const tokens = metrics.get("gen_ai.client.token.usage");
  assert.equal(tokens.descriptor.unit, "{token}");
  const input = tokens.dataPoints.filter((p) => p.attributes["gen_ai.token.type"] === "input");
  assert.deepEqual(input.map((p) => p.value.sum).sort((a, b) => a - b), [25, 100]);
  const out = point(tokens, "gen_ai.response.model", "gpt-4o-2024");
  assert.ok(out);
  const outputs = tokens.dataPoints.filter((p) => p.attributes["gen_ai.token.type"] === "output");
  assert.deepEqual(outputs.map((p) => p.value.sum).sort((a, b) => a - b), [7, 10]);
  assert.ok(tokens.dataPoints.every((p) => p.attributes["gen_ai.operation.name"] === "chat" && p.attributes["gen_ai.provider.name"] === "openai"));

  const duration = metrics.get("gen_ai.client.operation.duration");
  assert.equal(duration.descriptor.unit, "s");
  const failed = point(duration, "error.type", "_OTHER");
  assert.equal(failed.value.sum, 1.5);
  assert.equal(failed.value.count, 1);

  const decisions = metrics.get("reins.decisions");
  const kinds = [...new Set(heard.map((d) => d.kind))];
  assert.ok(kinds.includes("circuitBreak"));
  for (const kind of kinds) {
    assert.equal(point(decisions, "reins.decision.kind", kind).value, heard.filter((d) => d.kind === kind).length);
  }
  const breaks = metrics.get("reins.circuit_breaks");
  assert.equal(breaks.dataPoints.length, 1);
  assert.equal(breaks.dataPoints[0].attributes["reins.circuit_break.reason"], "toolLoop");
  assert.equal(breaks.dataPoints[0].value, 1);
  r.free();
});

test("malformed attributes and a throwing regulator never throw out of the processor", (t) => {
  const r = new Spy({ userId: "u6", maxTextBytes: 64 });
  const errors = [];
  const tracer = tracerWith(new ReinsSpanProcessor(r, { onError: (e) => errors.push(e) }));
  chatSpan(tracer, undefined, undefined, {
    "gen_ai.input.messages": "{not json", "gen_ai.output.messages": "[{\"role\":\"assistant\",\"parts\":7}]",
    "gen_ai.usage.input_tokens": "abc", "gen_ai.usage.output_tokens": -5, "gen_ai.provider.name": 42,
  }).end();
  chatSpan(tracer, [null, 3, { role: "user", parts: "x" }], [{ parts: [null, { type: "text", content: 5 }] }], { "gen_ai.usage.input_tokens": NaN, "gen_ai.usage.output_tokens": "12" }).end();
  tracer.startSpan("execute_tool", { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": 7 } }).end();
  tracer.startSpan("execute_tool x", { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "x", "gen_ai.tool.call.arguments": "not json", "error.type": "timeout" } }).end();
  // Refused by the regulator: a response over its text limit.
  chatSpan(tracer, [user("hi")], [says("y".repeat(100))], { "gen_ai.usage.input_tokens": 1 }).end();

  const costs = r.events("cost").map((e) => e[1]);
  assert.equal(costs.length, 3);
  assert.equal(costs[0].tokensIn, undefined);
  assert.equal(costs[0].tokensOut, undefined);
  assert.equal(costs[0].provider, undefined);
  assert.equal(costs[1].tokensOut, 12);
  assert.equal(costs[2].tokensIn, 1);
  const [[, name, args]] = r.events("toolCall");
  assert.deepEqual([name, args], ["x", "not json"]);
  assert.equal(r.events("toolResult")[0][2].ok, false);
  assert.equal(r.events("toolResult")[0][2].error, "timeout");
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /turnComplete\.response/);

  // Throwing regulator, route, onDecision and onError: all swallowed; without onError, a console.warn.
  const warn = t.mock.method(console, "warn", () => {});
  const broken = { decide() { throw new Error("decide broke"); }, turnStart() { throw new Error("turnStart broke"); }, cost() { throw new Error("cost broke"); }, toolCall() { throw new Error("toolCall broke"); }, toolResult() {}, turnComplete() {} };
  const hostile = tracerWith(
    new ReinsSpanProcessor(broken),
    new ReinsSpanProcessor(() => { throw new Error("route broke"); }),
    new ReinsSpanProcessor(r, { onDecision: () => { throw new Error("onDecision broke"); }, onError: () => { throw new Error("onError broke"); } }),
  );
  chatSpan(hostile, [user("loop")], [says("ok")], { "gen_ai.usage.input_tokens": 1 }).end();
  for (let i = 0; i < 8; i++) toolSpan(hostile, "search_orders", `h${i}`, { q: "late" }, "[]");
  assert.ok(warn.mock.callCount() >= 3);
  const warned = warn.mock.calls.map((c) => String(c.arguments[1]?.message));
  assert.ok(warned.includes("turnStart broke") && warned.includes("route broke") && warned.includes("decide broke"));
  assert.equal(r.decide().kind, "circuitBreak"); // the loop still reached the working regulator
  r.free();
});

test("routing: two users' runs reach two regulators", async () => {
  const alice = new Regulator({ userId: "alice" });
  const bob = new Regulator({ userId: "bob" });
  const users = new Map([["alice", alice], ["bob", bob]]);
  const tracer = tracerWith(new ReinsSpanProcessor((span) => users.get(span.attributes["ai.telemetry.metadata.userId"])));
  const [looped, healthy] = await Promise.all([
    generateText({ model: loopingModel(), tools, prompt: "Which orders are late?", stopWhen: stepCountIs(8), experimental_telemetry: telemetry(tracer, { userId: "alice" }) }),
    generateText({ model: healthyModel(), tools, prompt: "Weather in Paris and Oslo, and the time in Oslo?", stopWhen: stepCountIs(8), experimental_telemetry: telemetry(tracer, { userId: "bob" }) }),
    generateText({ model: healthyModel(), tools, prompt: "Nobody's", stopWhen: stepCountIs(8), experimental_telemetry: telemetry(tracer, { userId: "carol" }) }),
  ]);
  assert.equal(alice.decide().kind, "circuitBreak");
  assert.equal(bob.decide().kind, "continue");
  assert.equal(alice.metrics()["reins.total_tokens_in"], sum(looped.steps, "inputTokens"));
  assert.equal(bob.metrics()["reins.total_tokens_in"], sum(healthy.steps, "inputTokens"));
  assert.equal(alice.metrics()["reins.tool_total_calls"], 8);
  assert.equal(bob.metrics()["reins.tool_total_calls"], 3);
  alice.free();
  bob.free();
});

test("the processor loads and is inert without any OpenTelemetry package: it imports none", async () => {
  const { readFile } = await import("node:fs/promises");
  const source = await readFile(new URL("../../pkg/adapters/otel.js", import.meta.url), "utf8");
  assert.deepEqual([...source.matchAll(/^import .* from "([^"]+)"/gm)].map((m) => m[1]), ["./shared.js"]);
  assert.throws(() => new ReinsSpanProcessor({}), TypeError);
  const p = new ReinsSpanProcessor(new Regulator({ userId: "u7" }));
  await p.forceFlush();
  await p.shutdown();
});
