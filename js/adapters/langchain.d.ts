// reins/langchain: a Regulator driving a LangChain.js (`@langchain/core` 1) run.
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { Decision, Regulator } from "../index.js";

export interface ReinsCallbackOptions {
  /** Called with each decision once, when it changes (`decide({ changedOnly: true })`), including the `continue` after one. */
  onDecision?: (decision: Decision) => void;
  /** Send the user's last message as `turnStart` when a model is called with it. `false` when the app sends it. Default `true`. */
  turnStart?: boolean;
  /** Your own abort signal: `reins.signal` follows it. */
  signal?: AbortSignal;
}

import { ReinsHaltError } from "./shared.js";
export { ReinsHaltError };

/**
 * A LangChain callback handler feeding a reins Regulator: the user's last
 * message as `turnStart` when a model is called with it, every tool call of
 * a model message (its `tool_calls`, with their ids as `callId`), each
 * tool's result, error (`ok: false`, also a `ToolMessage` with
 * `status: "error"`) and run time, usage as `cost`, and the final text as
 * `turnComplete`.
 *
 * On a circuit break the run stops with a `ReinsHaltError`: tools about to
 * run and the next model call throw it (LangChain's "Error in handler" line
 * is not printed), and `signal` is aborted with it at once. A break on a
 * final answer lets that answer through; the next run halts before its model
 * call if the regulator is still broken.
 *
 * @example
 * const reins = new ReinsCallbackHandler(r, { onDecision: console.log });
 * try {
 *   await agent.invoke({ messages }, { callbacks: [reins], signal: reins.signal });
 * } catch (e) {
 *   if (e instanceof ReinsHaltError) reply(e.decision.suggestion); else throw e;
 * }
 */
export declare class ReinsCallbackHandler extends BaseCallbackHandler {
  constructor(regulator: Regulator, options?: ReinsCallbackOptions);
  name: string;
  /**
   * Aborted with the `ReinsHaltError` on a circuit break: give it as the
   * run's `signal` so a tool still running rejects with it at once. Read it
   * per run: after a break a fresh one is made.
   */
  readonly signal: AbortSignal;
  /** The current run's break, or `null`. */
  readonly halted: ReinsHaltError | null;
  handleChatModelStart(llm: Serialized, messages: BaseMessage[][], runId: string): void;
  handleLLMStart(llm: Serialized, prompts: string[], runId: string): void;
  handleLLMEnd(output: LLMResult, runId: string): void;
  handleToolStart(tool: Serialized, input: string, runId: string, parentRunId?: string, tags?: string[], metadata?: Record<string, unknown>, runName?: string, toolCallId?: string): void;
  handleToolEnd(output: unknown, runId: string): void;
  handleToolError(err: unknown, runId: string): void;
}
