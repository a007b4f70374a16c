// reins/langchain: regulate a LangChain.js (`@langchain/core` 1) run with a reins Regulator.
//
//   const reins = new ReinsCallbackHandler(r);
//   await agent.invoke(input, { callbacks: [reins] });
//
// Feeds reins from LangChain's callbacks (the user's last message, every tool
// call of a model message with its tool-call id, each tool's result or error
// and run time, usage, the final text) and stops the run on a circuit break
// with a `ReinsHaltError`: the next model or tool callback throws it (past
// LangChain's "Error in handler" log line), and `reins.signal`, when the run
// has it, is aborted with it at once (a tool still running rejects with it).
// No import of reins itself: it works with any Regulator.

import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { ReinsHaltError, clip, throwQuiet, toJson, toText as baseText } from "./shared.js";

export { ReinsHaltError };



/** The text of message content: a string, or the text parts of a content array. */
function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const text = content
    .map((part) => (typeof part === "string" ? part : part && part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
  return text;
}

/** A tool's output as text: a message's text content, else as the other adapters do. */
function toText(value) {
  const content = value && typeof value === "object" && "content" in value ? contentText(value.content) : null;
  return content !== null ? clip(content) : baseText(value);
}

/** The message's role as LangChain names it: `human`, `ai`, `tool`, `system`. */
function roleOf(message) {
  if (!message) return undefined;
  if (typeof message._getType === "function") return message._getType();
  return message.type ?? message.role;
}

/** Tool arguments as reins takes them: a JSON string parsed, an object as JSON would send it. */
function argsOf(input) {
  if (typeof input !== "string") return toJson(input);
  try {
    return toJson(JSON.parse(input));
  } catch {
    return input; // a plain string input (a `DynamicTool`)
  }
}

/** The tool's name from its serialized form (`toJSON()`), or the run name. */
function toolName(tool, runName) {
  if (typeof runName === "string" && runName) return runName;
  if (tool && typeof tool.name === "string" && tool.name) return tool.name;
  const id = tool && Array.isArray(tool.id) ? tool.id[tool.id.length - 1] : undefined;
  return typeof id === "string" ? id : "tool";
}


/** A LangChain callback handler that feeds a reins Regulator and stops the run on a circuit break. */
export class ReinsCallbackHandler extends BaseCallbackHandler {
  name = "reins";
  /** A break thrown from a callback must reach the caller. */
  raiseError = true;
  /** Events are fed in order, before LangChain goes on. */
  awaitHandlers = true;

  #regulator;
  #onDecision;
  #turnStart;
  #controller = new AbortController();
  #userSignal;
  #lastTurn = null; // the conversation length and text of the last message sent as turnStart
  #called = new Set(); // callIds sent as toolCall and not yet answered
  #tools = new Map(); // tool runId -> { name, callId, startedAt }
  #llmStartedAt = new Map(); // llm runId -> ms
  #halt = null; // the ReinsHaltError of this run's break
  #answered = true; // the last turn ended with a final answer (a text LLM's next prompt is a new turn)

  constructor(regulator, options = {}) {
    super();
    if (!regulator || typeof regulator.decide !== "function") {
      throw new TypeError("ReinsCallbackHandler: the first argument must be a reins Regulator");
    }
    this.#regulator = regulator;
    this.#onDecision = options.onDecision;
    this.#turnStart = options.turnStart ?? true;
    this.#userSignal = options.signal;
    this.#link();
  }

  /**
   * The signal to give the run (`{ callbacks: [reins], signal: reins.signal }`):
   * aborted with a `ReinsHaltError` on a circuit break. Read it per run: after
   * a break a fresh one is made.
   */
  get signal() {
    if (this.#controller.signal.aborted && !(this.#userSignal && this.#userSignal.aborted)) {
      this.#controller = new AbortController();
      this.#halt = null;
      this.#link();
    }
    return this.#controller.signal;
  }

  /** The run's break, once there is one (else `null`). */
  get halted() {
    return this.#halt;
  }

  #link() {
    const user = this.#userSignal;
    if (!user) return;
    const controller = this.#controller;
    if (user.aborted) controller.abort(user.reason);
    else user.addEventListener("abort", () => controller.abort(user.reason), { once: true });
  }

  #notify() {
    const d = this.#regulator.decide({ changedOnly: true });
    if (d && this.#onDecision) this.#onDecision(d);
  }

  /** On a circuit break: abort the run's signal with a ReinsHaltError (once). */
  #check() {
    if (this.#halt) return this.#halt;
    const d = this.#regulator.decide();
    if (d.kind !== "circuitBreak") return null;
    this.#halt = new ReinsHaltError(d);
    if (!this.#controller.signal.aborted) this.#controller.abort(this.#halt);
    return this.#halt;
  }

  /** A callback after the break (the run did not stop on the signal): throw. */
  #throwIfHalted() {
    if (this.#halt) throwQuiet(this.#halt);
  }

  #startTurn(key, text) {
    if (!this.#turnStart || text === null || text === "") return;
    if (this.#lastTurn && this.#lastTurn.key === key && this.#lastTurn.text === text) return;
    this.#lastTurn = { key, text };
    this.#called.clear();
    this.#halt = null; // a new turn: decided afresh (read `signal` again for this run)
    this.#answered = false;
    this.#regulator.turnStart(text);
    this.#notify();
  }

  handleChatModelStart(_llm, messages, runId) {
    const group = messages && messages[0];
    const last = group && group[group.length - 1];
    if (roleOf(last) === "human") this.#startTurn(group.length, contentText(last.content));
    this.#throwIfHalted();
    this.#llmStartedAt.set(runId, Date.now());
    if (this.#check()) throwQuiet(this.#halt); // already broken: no model call
  }

  handleLLMStart(_llm, prompts, runId) {
    const prompt = prompts && prompts[0];
    // A text LLM's prompt holds the whole transcript: a turn starts only after an answer.
    if (typeof prompt === "string" && this.#answered) this.#startTurn(-1, prompt);
    this.#throwIfHalted();
    this.#llmStartedAt.set(runId, Date.now());
    if (this.#check()) throwQuiet(this.#halt);
  }

  handleLLMEnd(output, runId) {
    const now = Date.now();
    const started = this.#llmStartedAt.get(runId);
    this.#llmStartedAt.delete(runId);
    const generation = output && output.generations && output.generations[0] && output.generations[0][0];
    const message = generation && generation.message;
    const cost = {};
    const usage = message && message.usage_metadata;
    const tokenUsage = output && output.llmOutput && (output.llmOutput.tokenUsage || output.llmOutput.usage);
    if (usage && Number.isFinite(usage.input_tokens)) cost.tokensIn = usage.input_tokens;
    else if (tokenUsage && Number.isFinite(tokenUsage.promptTokens)) cost.tokensIn = tokenUsage.promptTokens;
    if (usage && Number.isFinite(usage.output_tokens)) cost.tokensOut = usage.output_tokens;
    else if (tokenUsage && Number.isFinite(tokenUsage.completionTokens)) cost.tokensOut = tokenUsage.completionTokens;
    if (started !== undefined) cost.wallclockMs = Math.max(0, now - started);
    const provider = message && message.response_metadata && message.response_metadata.model_provider;
    if (typeof provider === "string" && provider) cost.provider = provider;
    this.#regulator.cost(cost);

    const calls = (message && Array.isArray(message.tool_calls) && message.tool_calls) || [];
    for (const call of calls) {
      const callId = typeof call.id === "string" && call.id ? call.id : undefined;
      if (callId) this.#called.add(callId);
      this.#regulator.toolCall(String(call.name), toJson(call.args ?? {}), callId ? { callId } : undefined);
    }
    if (calls.length === 0) {
      const text = message ? contentText(message.content) : generation && generation.text;
      if (text) {
        this.#regulator.turnComplete(clip(text));
        this.#answered = true;
      }
    }
    this.#notify();
    // A break now stops the tools about to run; a final answer is let through (the next run halts).
    if (calls.length > 0) this.#check();
  }

  handleToolStart(tool, input, runId, _parentRunId, _tags, _metadata, runName, toolCallId) {
    this.#throwIfHalted();
    const name = toolName(tool, runName);
    let callId = typeof toolCallId === "string" && toolCallId ? toolCallId : undefined;
    if (!callId || !this.#called.has(callId)) {
      // Not announced by a model message we saw (a tool run by hand): the call starts here.
      callId = callId ?? runId;
      this.#called.add(callId);
      this.#regulator.toolCall(name, argsOf(input), { callId });
    }
    this.#tools.set(runId, { name, callId, startedAt: Date.now() });
  }

  #toolDone(runId, outcome) {
    const run = this.#tools.get(runId);
    if (!run) return;
    this.#tools.delete(runId);
    this.#called.delete(run.callId);
    outcome.callId = run.callId;
    outcome.durationMs = Math.max(0, Date.now() - run.startedAt);
    this.#regulator.toolResult(run.name, outcome);
    this.#notify();
    this.#check();
  }

  handleToolEnd(output, runId) {
    const failed = output && typeof output === "object" && output.status === "error";
    this.#toolDone(runId, failed ? { ok: false, error: toText(output) } : { ok: true, result: toText(output) });
  }

  handleToolError(err, runId) {
    if (err === this.#halt) return; // our own abort, passing through the tool
    this.#toolDone(runId, { ok: false, error: toText(err) });
  }
}
