// reins/openai-agents: a Regulator driving an OpenAI Agents SDK (`@openai/agents` 0.14) run.
import type { CallModelInputFilterArgs, ModelInputData } from "@openai/agents-core";
import type { Decision, Regulator } from "../index.js";

/** What `regulate` subscribes to: an `Agent` (its own hooks) or a `Runner` (every agent it runs). */
export interface LifecycleEmitter {
  on(type: "agent_start" | "agent_end" | "agent_tool_start" | "agent_tool_end", listener: (...args: any[]) => void): unknown;
  off(type: "agent_start" | "agent_end" | "agent_tool_start" | "agent_tool_end", listener: (...args: any[]) => void): unknown;
}

export interface RegulateOptions {
  /** Called with each decision once, when it changes (`decide({ changedOnly: true })`), including the `continue` after one. */
  onDecision?: (decision: Decision) => void;
  /** Send the user's message as `turnStart` when an agent starts with it. `false` when the app sends it. Default `true`. */
  turnStart?: boolean;
  /** Send the final output as `turnComplete`. Default `true`. */
  finalOutput?: boolean;
  /**
   * Whether a tool's output (the string the SDK passes on) is a failure. Default: it starts with the
   * SDK's default error text, "An error occurred while running the tool." — set this with a custom `errorFunction`.
   */
  isToolError?: (output: unknown) => boolean;
}

import { ReinsHaltError } from "./shared.js";
export { ReinsHaltError };

export interface Regulated {
  /**
   * Pass to `run(agent, input, { callModelInputFilter })` or `new Runner({ callModelInputFilter })`.
   * Awaited before every model call: throws `ReinsHaltError` on a circuit break (the model is not
   * called), else adds a nudge's suggestion and the user's corrections to the instructions.
   */
  callModelInputFilter(args: CallModelInputFilterArgs<any>): Promise<ModelInputData>;
  /** The last break thrown, or `null` (reset when a new user turn starts). */
  readonly halted: ReinsHaltError | null;
  /** Stop listening to the agent's or runner's events. */
  detach(): void;
}

/**
 * Feed a reins Regulator from an Agent's or a Runner's lifecycle events: the user's message
 * (`agent_start`) as `turnStart`, each tool call and result with its `callId` and run time
 * (`agent_tool_start` / `agent_tool_end`; a tool error passed as a string counts as `ok: false`),
 * each model call's usage and time as `cost`, the final output (`agent_end`) as `turnComplete`.
 *
 * @example
 * const reins = regulate(r, agent, { onDecision: (d) => console.log("reins:", d.kind) });
 * try {
 *   const result = await run(agent, question, { callModelInputFilter: reins.callModelInputFilter });
 * } catch (e) {
 *   if (e instanceof ReinsHaltError) reply(e.decision.suggestion); else throw e;
 * }
 */
export declare function regulate(regulator: Regulator, target: LifecycleEmitter, options?: RegulateOptions): Regulated;
