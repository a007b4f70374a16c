// reins/otel: feed a reins Regulator from OpenTelemetry spans.
//
//   const provider = new BasicTracerProvider({ spanProcessors: [new ReinsSpanProcessor(r)] });
//
// Reads the GenAI semantic conventions (`gen_ai.*` model and `execute_tool`
// spans) and the Vercel AI SDK's own spans (`ai.generateText`, its steps,
// `ai.toolCall`), so any instrumented framework feeds reins without an adapter
// of its own; records the GenAI client metrics and reins' decisions on a
// Meter when given one. No runtime import of OpenTelemetry: it is structurally
// a SpanProcessor. Nothing here throws into the host's tracing.

import { clip, toJson, toText } from "./shared.js";

const ERROR = 2; // SpanStatusCode.ERROR
const MODEL_OPS = new Set(["chat", "text_completion", "generate_content"]);
const AI_RUNS = new Set(["ai.generateText", "ai.streamText"]);
const AI_STEPS = new Set(["ai.generateText.doGenerate", "ai.streamText.doStream"]);
const MAX_OPEN = 1024; // tool spans whose call went out at start, awaiting their end
// The GenAI conventions' advised buckets.
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const SECOND_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** A token count: a finite number ≥ 0, numeric strings too, rounded (reins takes whole counts); anything else is `undefined`. */
function count(value) {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

function parse(value) {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const str = (value) => (typeof value === "string" && value !== "" ? value : undefined);

/** A messages attribute as a list: JSON (array or one message), or plain text as one `role` message. */
function messages(raw, role) {
  const v = parse(raw);
  if (Array.isArray(v)) return v;
  if (v && typeof v === "object") return [v];
  return str(raw) ? [{ role, content: raw }] : [];
}

/** A message's text: `content` as a string, or its text parts (GenAI `parts[].content`, AI SDK `content[].text`). */
function textOf(message) {
  const content = message.parts ?? message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts = [];
  for (const part of content) {
    const text = part && part.type === "text" ? part.content ?? part.text : undefined;
    if (typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}

/** The last user message with its position, or `null` (also when it has no text). */
function lastUser(list) {
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (m && m.role === "user") {
      const text = textOf(m);
      return text ? { index: i, text } : null;
    }
  }
  return null;
}

/** The response: the last assistant message's text, and whether it asks for tools (then it is not the turn's answer). */
function response(raw) {
  const list = messages(raw, "assistant");
  const m = list.findLast((x) => x && typeof x === "object" && (x.role === "assistant" || x.role === undefined));
  if (!m) return { text: "", tools: false };
  const parts = Array.isArray(m.parts) ? m.parts : Array.isArray(m.content) ? m.content : [];
  const tools = parts.some((p) => p && (p.type === "tool_call" || p.type === "tool-call")) ||
    (Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
  return { text: textOf(m), tools };
}

/** Which reader a span gets. An AI SDK span is read as such only, though its steps carry `gen_ai.*` too. */
function kindOf(span, a) {
  const ai = a["ai.operationId"] ?? (typeof span.name === "string" && span.name.startsWith("ai.") ? span.name : undefined);
  if (typeof ai === "string") return AI_RUNS.has(ai) ? "run" : AI_STEPS.has(ai) ? "step" : ai === "ai.toolCall" ? "aiTool" : null;
  const op = a["gen_ai.operation.name"];
  return MODEL_OPS.has(op) ? "model" : op === "execute_tool" ? "tool" : null;
}

function toolOf(kind, a) {
  const t = kind === "aiTool"
    ? { name: a["ai.toolCall.name"], id: a["ai.toolCall.id"], args: a["ai.toolCall.args"], result: a["ai.toolCall.result"] }
    : { name: a["gen_ai.tool.name"], id: a["gen_ai.tool.call.id"], args: a["gen_ai.tool.call.arguments"], result: a["gen_ai.tool.call.result"] };
  t.name = str(t.name);
  t.id = typeof t.id === "number" ? String(t.id) : str(t.id);
  return t;
}

/** A span's duration in ms, or `undefined`. */
function ms(span) {
  const d = span.duration;
  const v = Array.isArray(d) ? d[0] * 1e3 + d[1] / 1e6 : NaN;
  return Number.isFinite(v) && v >= 0 ? v : undefined;
}

const spanId = (span) => (typeof span.spanContext === "function" ? span.spanContext()?.spanId : undefined);

function instruments(meter) {
  return {
    tokens: meter.createHistogram("gen_ai.client.token.usage", {
      unit: "{token}", description: "Number of input and output tokens used.", advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    duration: meter.createHistogram("gen_ai.client.operation.duration", {
      unit: "s", description: "GenAI operation duration.", advice: { explicitBucketBoundaries: SECOND_BUCKETS },
    }),
    decisions: meter.createCounter("reins.decisions", { unit: "{decision}", description: "reins decisions, counted when the decision changes." }),
    breaks: meter.createCounter("reins.circuit_breaks", { unit: "{break}", description: "reins circuit breaks, by reason." }),
  };
}

/** A SpanProcessor that feeds a reins Regulator (or one per span, by `route`). */
export class ReinsSpanProcessor {
  #route;
  #onDecision;
  #onError;
  #metrics;
  #open = new Map(); // spanId -> the regulator its tool call went to at start
  #lastUser = new WeakMap(); // regulator -> the last user message it heard from GenAI spans

  constructor(target, options = {}) {
    if (typeof target === "function") this.#route = target;
    else if (target && typeof target.decide === "function") this.#route = () => target;
    else throw new TypeError("ReinsSpanProcessor: the first argument must be a reins Regulator or a function from a span to one");
    const { onDecision, onError, meter } = options ?? {};
    this.#onDecision = onDecision;
    this.#onError = onError;
    this.#metrics = meter ? instruments(meter) : null;
  }

  onStart(span) {
    this.#guard(span, () => this.#start(span));
  }

  onEnd(span) {
    this.#guard(span, () => this.#end(span));
  }

  forceFlush() {
    return Promise.resolve();
  }

  shutdown() {
    this.#open.clear();
    return Promise.resolve();
  }

  /** Runs `fn`, reporting what it throws: a span processor that throws breaks the host's tracing. */
  #guard(span, fn) {
    try {
      fn();
    } catch (error) {
      try {
        if (this.#onError) this.#onError(error, span);
        else console.warn("reins/otel:", error);
      } catch {
        // the error handler itself failed: nothing is left to tell
      }
    }
  }

  #regulator(span) {
    const r = this.#route(span);
    return r && typeof r.decide === "function" ? r : undefined;
  }

  #start(span) {
    const a = span.attributes ?? {};
    const kind = kindOf(span, a);
    if (kind === "run") {
      // At start, so the turn opens before the run's tool spans end.
      const p = parse(a["ai.prompt"]);
      const list = !p || typeof p !== "object" ? [] : Array.isArray(p.messages) ? p.messages
        : Array.isArray(p.prompt) ? p.prompt : messages(p.prompt, "user");
      const user = lastUser(list);
      const r = user && user.index === list.length - 1 ? this.#regulator(span) : undefined; // else a run resumed after tool results
      if (!r) return;
      this.#guard(span, () => r.turnStart(user.text));
      this.#notify(r, span);
    } else if (kind === "model") {
      const r = this.#regulator(span);
      if (r && this.#userTurn(r, a, span)) this.#notify(r, span);
    } else if (kind === "aiTool" || kind === "tool") {
      // The call goes out at start, so a parallel batch reads as one step.
      const t = toolOf(kind, a);
      const id = spanId(span);
      const r = t.name && id ? this.#regulator(span) : undefined;
      if (!r) return;
      r.toolCall(t.name, toJson(parse(t.args)), { callId: t.id });
      if (this.#open.size >= MAX_OPEN) this.#open.delete(this.#open.keys().next().value);
      this.#open.set(id, r);
    }
  }

  /** `turnStart` for the prompt's last user message, unless this regulator heard that one (each step re-sends the history). */
  #userTurn(r, a, span) {
    const user = lastUser(messages(a["gen_ai.input.messages"] ?? a["gen_ai.prompt"], "user"));
    if (!user) return false;
    const key = `${user.index}:${user.text}`;
    if (this.#lastUser.get(r) === key) return false;
    this.#lastUser.set(r, key);
    this.#guard(span, () => r.turnStart(user.text));
    return true;
  }

  #end(span) {
    const a = span.attributes ?? {};
    const kind = kindOf(span, a);
    if (kind === "step" || kind === "model") this.#model(span, a, kind);
    else if (kind === "aiTool" || kind === "tool") this.#tool(span, a, kind);
  }

  #model(span, a, kind) {
    const step = kind === "step";
    const tokensIn = count(step ? a["ai.usage.inputTokens"] ?? a["gen_ai.usage.input_tokens"] : a["gen_ai.usage.input_tokens"] ?? a["gen_ai.usage.prompt_tokens"]);
    const tokensOut = count(step ? a["ai.usage.outputTokens"] ?? a["gen_ai.usage.output_tokens"] : a["gen_ai.usage.output_tokens"] ?? a["gen_ai.usage.completion_tokens"]);
    const wallclockMs = ms(span);
    const provider = str(a["gen_ai.provider.name"]) ?? str(a["gen_ai.system"]) ?? str(a["ai.model.provider"]);
    if (this.#metrics) this.#measure(span, a, step ? "chat" : a["gen_ai.operation.name"], provider, tokensIn, tokensOut, wallclockMs);
    const r = this.#regulator(span);
    if (!r) return;
    if (!step) this.#userTurn(r, a, span);
    const cost = {};
    if (tokensIn !== undefined) cost.tokensIn = tokensIn;
    if (tokensOut !== undefined) cost.tokensOut = tokensOut;
    if (wallclockMs !== undefined) cost.wallclockMs = Math.round(wallclockMs);
    if (provider) cost.provider = provider.slice(0, 256);
    this.#guard(span, () => r.cost(cost));
    const out = step
      ? { text: str(a["ai.response.text"]) ?? "", tools: a["ai.response.toolCalls"] !== undefined }
      : response(a["gen_ai.output.messages"] ?? a["gen_ai.completion"]);
    if (out.text && !out.tools) this.#guard(span, () => r.turnComplete(out.text));
    this.#notify(r, span);
  }

  #tool(span, a, kind) {
    const t = toolOf(kind, a);
    const id = spanId(span);
    let r = id === undefined ? undefined : this.#open.get(id);
    if (r) this.#open.delete(id);
    else {
      r = t.name ? this.#regulator(span) : undefined; // named only at its end: the call goes out now
      if (!r) return;
      this.#guard(span, () => r.toolCall(t.name, toJson(parse(t.args)), { callId: t.id }));
    }
    if (!t.name) return;
    const status = span.status ?? {};
    const failed = status.code === ERROR || a["error.type"] !== undefined;
    const outcome = failed
      ? { ok: false, error: clip(str(status.message) ?? String(a["error.type"] ?? "error")), callId: t.id }
      : { ok: true, callId: t.id };
    if (!failed && t.result !== undefined) outcome.result = toText(t.result);
    const d = ms(span);
    if (d !== undefined) outcome.durationMs = Math.round(d);
    this.#guard(span, () => r.toolResult(t.name, outcome));
    this.#notify(r, span);
  }

  #measure(span, a, operation, provider, tokensIn, tokensOut, wallclockMs) {
    const { tokens, duration } = this.#metrics;
    const attrs = { "gen_ai.operation.name": operation };
    if (provider) attrs["gen_ai.provider.name"] = provider;
    for (const key of ["gen_ai.request.model", "gen_ai.response.model"]) if (str(a[key])) attrs[key] = a[key];
    if (tokensIn !== undefined) tokens.record(tokensIn, { ...attrs, "gen_ai.token.type": "input" });
    if (tokensOut !== undefined) tokens.record(tokensOut, { ...attrs, "gen_ai.token.type": "output" });
    const error = str(a["error.type"]) ?? (span.status?.code === ERROR ? "_OTHER" : undefined);
    if (wallclockMs !== undefined) duration.record(wallclockMs / 1e3, error ? { ...attrs, "error.type": error } : attrs);
  }

  #notify(r, span) {
    const d = r.decide({ changedOnly: true });
    if (!d) return;
    if (this.#metrics) {
      this.#metrics.decisions.add(1, { "reins.decision.kind": d.kind });
      if (d.kind === "circuitBreak") this.#metrics.breaks.add(1, { "reins.circuit_break.reason": d.reason.kind });
    }
    if (this.#onDecision) this.#onDecision(d, span);
  }
}
