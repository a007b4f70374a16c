// reins/openai-agents: regulate an OpenAI Agents SDK (`@openai/agents` 0.14) run with a reins Regulator.
//
//   const reins = regulate(r, agent);   // or a Runner: its hooks cover every agent
//   await run(agent, input, { callModelInputFilter: reins.callModelInputFilter });
//
// Feeds reins from the SDK's lifecycle events (the user's message on
// `agent_start`, each tool call and result with its `callId` and run time on
// `agent_tool_start` / `agent_tool_end`, the run's usage, the final output on
// `agent_end`) and, from `callModelInputFilter` — awaited before every model
// call — adds a nudge and the user's corrections to the instructions or, on a
// circuit break, throws a `ReinsHaltError` so the model is not called again.
// No import of reins or of the SDK: it works with any Regulator.

import { ReinsHaltError, clip, toJson, toText } from "./shared.js";

export { ReinsHaltError };

/** The SDK's default tool error text (`defaultToolErrorFunction`): a failed tool, passed on as a string. */
const TOOL_ERROR_PREFIX = "An error occurred while running the tool.";


/** The text of an input item's content: a string, or its text parts. */
function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((part) => (part && typeof part.text === "string" && (part.type === "input_text" || part.type === "output_text" || part.type === "text") ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** The last input item's text when it is the user's (else `null`: a turn resumed after tool output or a handoff). */
function userText(items) {
  if (typeof items === "string") return items;
  const last = Array.isArray(items) ? items[items.length - 1] : undefined;
  if (!last || last.role !== "user") return null;
  return contentText(last.content) || null;
}

/** Tool arguments as reins takes them: the call's JSON string parsed. */
function argsOf(call) {
  const raw = call && call.arguments;
  if (typeof raw !== "string") return toJson(raw ?? {});
  if (raw === "") return {};
  try {
    return toJson(JSON.parse(raw));
  } catch {
    return raw;
  }
}

/**
 * Wire a regulator to an Agent or a Runner. Returns the `callModelInputFilter`
 * to pass to `run()` (or `new Runner({ callModelInputFilter })`).
 */
export function regulate(regulator, target, options = {}) {
  if (!regulator || typeof regulator.decide !== "function") {
    throw new TypeError("regulate: the first argument must be a reins Regulator");
  }
  if (!target || typeof target.on !== "function") {
    throw new TypeError("regulate: the second argument must be an Agent or a Runner (their lifecycle events feed reins)");
  }
  const { onDecision, turnStart: sendTurnStart = true, isToolError, finalOutput = true } = options;

  const tools = new Map(); // callId -> { name, startedAt }
  const usageSeen = new WeakMap(); // RunContext -> { inputTokens, outputTokens } already sent
  let model = null; // the model call in flight: { context, startedAt }
  let lastTurn = null;
  let halt = null;

  const notify = () => {
    const d = regulator.decide({ changedOnly: true });
    if (d && onDecision) onDecision(d);
  };

  /** The model call before this event has answered: send its usage and time. */
  const modelDone = () => {
    if (!model) return;
    const { context, startedAt } = model;
    model = null;
    const cost = { wallclockMs: Math.max(0, Date.now() - startedAt) };
    const usage = context && context.usage;
    if (usage) {
      const seen = usageSeen.get(context) ?? { inputTokens: 0, outputTokens: 0 };
      const tokensIn = usage.inputTokens - seen.inputTokens;
      const tokensOut = usage.outputTokens - seen.outputTokens;
      if (Number.isSafeInteger(tokensIn) && tokensIn >= 0) cost.tokensIn = tokensIn;
      if (Number.isSafeInteger(tokensOut) && tokensOut >= 0) cost.tokensOut = tokensOut;
      usageSeen.set(context, { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
    }
    regulator.cost(cost);
  };

  const failed = (output) => {
    if (typeof isToolError === "function") return Boolean(isToolError(output));
    return typeof output === "string" && output.startsWith(TOOL_ERROR_PREFIX);
  };

  // Runner hooks pass the agent before the tool; an Agent's own hooks do not.
  // Both end with the details, so arguments are read from the end.
  const onAgentStart = (context, _agent, turnInput) => {
    if (!sendTurnStart) return;
    const text = userText(turnInput);
    if (!text) return;
    const key = Array.isArray(turnInput) ? turnInput.length : 1;
    if (lastTurn && lastTurn.context === context && lastTurn.key === key && lastTurn.text === text) return;
    lastTurn = { context, key, text };
    tools.clear();
    halt = null;
    regulator.turnStart(clip(text));
    notify();
  };

  const onToolStart = (...args) => {
    const tool = args[args.length - 2];
    const call = args[args.length - 1] && args[args.length - 1].toolCall;
    modelDone();
    const name = (call && typeof call.name === "string" && call.name) || (tool && tool.name) || "tool";
    const callId = (call && (call.callId || call.id)) || `${name}#${tools.size}`;
    tools.set(callId, { name, startedAt: Date.now() });
    regulator.toolCall(name, call && call.type === "function_call" ? argsOf(call) : {}, { callId });
    notify();
  };

  const onToolEnd = (...args) => {
    const output = args[args.length - 2];
    const call = args[args.length - 1] && args[args.length - 1].toolCall;
    const callId = call && (call.callId || call.id);
    const run = callId !== undefined ? tools.get(callId) : undefined;
    if (!run) return;
    tools.delete(callId);
    const durationMs = Math.max(0, Date.now() - run.startedAt);
    const text = toText(output);
    regulator.toolResult(run.name, failed(output) ? { ok: false, error: text, callId, durationMs } : { ok: true, result: text, callId, durationMs });
    notify();
  };

  const onAgentEnd = (...args) => {
    const output = args[args.length - 1];
    modelDone();
    if (finalOutput && output !== undefined && output !== null && output !== "") regulator.turnComplete(toText(output));
    notify();
  };

  target.on("agent_start", onAgentStart);
  target.on("agent_tool_start", onToolStart);
  target.on("agent_tool_end", onToolEnd);
  target.on("agent_end", onAgentEnd);

  /** Awaited by the SDK before every model call: halt on a break, else add the nudge and corrections. */
  async function callModelInputFilter({ modelData, context }) {
    modelDone(); // a model call with no tool or final output between (a handoff, a retry)
    const d = regulator.decide();
    if (d.kind === "circuitBreak") {
      halt = new ReinsHaltError(d);
      throw halt;
    }
    const system = typeof modelData.instructions === "string" ? modelData.instructions : "";
    let instructions = system ? regulator.injectCorrections(system, { into: "system" }) : regulator.correctionsPrelude() || "";
    if (d.kind === "toolNudge") instructions = instructions ? `${instructions}\n\n${d.suggestion}` : d.suggestion;
    const runContext = findRunContext(context);
    model = { context: runContext, startedAt: Date.now() };
    if (instructions === system) return modelData;
    return { ...modelData, instructions };
  }

  // The filter gets the app's context (`context.context`); usage lives on the RunContext the hooks get.
  let lastRunContext = null;
  const remember = (context) => {
    if (context && typeof context === "object" && "usage" in context) lastRunContext = context;
  };
  target.on("agent_start", remember);
  const findRunContext = () => lastRunContext;

  return {
    callModelInputFilter,
    get halted() {
      return halt;
    },
    detach() {
      target.off("agent_start", onAgentStart);
      target.off("agent_start", remember);
      target.off("agent_tool_start", onToolStart);
      target.off("agent_tool_end", onToolEnd);
      target.off("agent_end", onAgentEnd);
    },
  };
}
