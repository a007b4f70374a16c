// reins/ai-sdk: regulate a Vercel AI SDK (`ai` 6) run with a reins Regulator.
//
//   const result = await generateText({ model, tools, prompt, ...regulate(r) });
//
// Feeds reins from the SDK's own step results (the user's message, every tool
// call and result with its `toolCallId`, usage, the final text), stops the
// loop on a circuit break after one last step without tools (a final answer,
// not empty text), passes a nudge and the user's corrections on through the
// system prompt, and halts before the first model call when the regulator is
// already broken. No import of reins itself: it works with any Regulator.

import { toJson, toText } from "./shared.js";


/** The text of the last message when it is the user's (else `null`: a run resumed after tool results). */
function userText(messages) {
  const last = messages && messages[messages.length - 1];
  if (!last || last.role !== "user") return null;
  if (typeof last.content === "string") return last.content;
  if (!Array.isArray(last.content)) return null;
  const text = last.content
    .filter((part) => part && part.type === "text")
    .map((part) => part.text)
    .join("\n");
  return text || null;
}

/** A model that answers `text` without calling anyone: the run's answer when reins halts before the first step. */
function haltModel(text) {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  const finishReason = { unified: "stop", raw: "reins-halt" };
  return {
    specificationVersion: "v3",
    provider: "reins",
    modelId: "circuit-break",
    supportedUrls: {},
    async doGenerate() {
      return { content: [{ type: "text", text }], finishReason, usage, warnings: [] };
    },
    async doStream() {
      const parts = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "0" },
        { type: "text-delta", id: "0", delta: text },
        { type: "text-end", id: "0" },
        { type: "finish", finishReason, usage },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

function wrapUpNote(decision) {
  return `${decision.suggestion}\nDo not call any tool now: answer the user from what you already have, and say what is left unfinished.`;
}

/**
 * The options to spread into `generateText` or `streamText` (one call per
 * run: it holds that run's state).
 */
export function regulate(regulator, options = {}) {
  if (!regulator || typeof regulator.decide !== "function") {
    throw new TypeError("regulate: the first argument must be a reins Regulator");
  }
  const {
    onDecision,
    finalAnswer = true,
    turnStart = true,
    haltText,
    stopWhen: userStop,
    prepareStep: userPrepare,
    onStepFinish: userStepFinish,
  } = options;
  const userStops = userStop === undefined ? [] : Array.isArray(userStop) ? userStop : [userStop];

  let system = options.system; // the run's system prompt, as `experimental_onStart` reports it
  let fed = new Set(); // stepNumbers already fed
  let seenAt = new Map(); // toolCallId -> ms when the call was seen
  let durations = new Map(); // toolCallId -> ms the tool ran
  let stepStartedAt = 0;
  let wrapUp = false; // the break's last step (toolChoice "none") was asked for
  let halted = false;

  const notify = () => {
    const d = regulator.decide({ changedOnly: true });
    if (d && onDecision) onDecision(d);
  };

  const seen = (id) => {
    if (id !== undefined && !seenAt.has(id)) seenAt.set(id, Date.now());
  };

  const feed = (step) => {
    if (!step || fed.has(step.stepNumber)) return;
    fed.add(step.stepNumber);
    if (halted) return;
    const now = Date.now();
    for (const part of step.content) {
      if (part.type === "tool-call") {
        seen(part.toolCallId);
        const args = toJson(part.input);
        regulator.toolCall(part.toolName, args, { callId: part.toolCallId });
      }
    }
    for (const part of step.content) {
      if ((part.type !== "tool-result" || part.preliminary) && part.type !== "tool-error") continue;
      const outcome = part.type === "tool-result"
        ? { ok: true, result: toText(part.output), callId: part.toolCallId }
        : { ok: false, error: toText(part.error), callId: part.toolCallId };
      const ran = durations.get(part.toolCallId) ??
        (seenAt.has(part.toolCallId) ? now - seenAt.get(part.toolCallId) : undefined);
      if (ran !== undefined) outcome.durationMs = Math.max(0, Math.round(ran));
      regulator.toolResult(part.toolName, outcome);
    }
    const usage = step.usage || {};
    const cost = {};
    if (Number.isFinite(usage.inputTokens)) cost.tokensIn = usage.inputTokens;
    if (Number.isFinite(usage.outputTokens)) cost.tokensOut = usage.outputTokens;
    if (stepStartedAt) cost.wallclockMs = Math.max(0, now - stepStartedAt);
    if (step.model && step.model.provider) cost.provider = step.model.provider;
    regulator.cost(cost);
    if (step.toolCalls.length === 0 && step.text) regulator.turnComplete(step.text);
    notify();
  };

  const composeSystem = (notes) => {
    const extra = notes.filter(Boolean).join("\n\n");
    if (system === undefined || typeof system === "string") {
      let text = system || "";
      text = text ? regulator.injectCorrections(text, { into: "system" }) : regulator.correctionsPrelude() || "";
      if (extra) text = text ? `${text}\n\n${extra}` : extra;
      return text === (system || "") ? undefined : text;
    }
    const prelude = regulator.correctionsPrelude();
    const added = [prelude, extra].filter(Boolean).join("\n\n");
    if (!added) return undefined;
    const messages = Array.isArray(system) ? system : [system];
    return [...messages, { role: "system", content: added }];
  };

  const stopWhen = async ({ steps }) => {
    feed(steps[steps.length - 1]);
    if (halted) return true;
    if (regulator.decide().kind === "circuitBreak") {
      if (!finalAnswer || wrapUp) return true;
      return false; // one more step, under toolChoice "none", for the final answer
    }
    for (const condition of userStops) if (await condition({ steps })) return true;
    return false;
  };

  const prepareStep = async (input) => {
    const { stepNumber, steps } = input;
    const base = userPrepare ? (await userPrepare(input)) || {} : {};
    const out = { ...base };
    if (stepNumber === 0) {
      fed = new Set();
      seenAt = new Map();
      durations = new Map();
      wrapUp = false;
      halted = false;
      const message = turnStart ? userText(input.messages) : null;
      if (message !== null) regulator.turnStart(message);
      notify();
    } else {
      feed(steps[steps.length - 1]);
    }
    stepStartedAt = Date.now();
    const d = regulator.decide();
    const notes = [];
    if (d.kind === "circuitBreak") {
      if (stepNumber === 0) {
        halted = true;
        const text = typeof haltText === "function" ? haltText(d) : haltText ?? d.suggestion;
        return { model: haltModel(text), toolChoice: "none" };
      }
      wrapUp = true;
      out.toolChoice = "none";
      notes.push(wrapUpNote(d));
    } else if (d.kind === "toolNudge") {
      notes.push(d.suggestion);
    }
    const composed = composeSystem(notes) ?? options.system;
    if (composed !== undefined && base.system === undefined) out.system = composed;
    return out;
  };

  const onStepFinish = async (step) => {
    feed(step);
    if (userStepFinish) await userStepFinish(step);
  };

  return {
    stopWhen,
    prepareStep,
    onStepFinish,
    experimental_onStart(event) {
      if (options.system === undefined) system = event.system;
    },
    experimental_onToolCallStart(event) {
      seen(event.toolCall.toolCallId);
    },
    experimental_onToolCallFinish(event) {
      if (Number.isFinite(event.durationMs)) durations.set(event.toolCall.toolCallId, event.durationMs);
    },
  };
}
