// reins/ai-sdk: a Regulator driving a Vercel AI SDK (`ai` 6) run.
import type { PrepareStepFunction, StepResult, StopCondition, SystemModelMessage, ToolSet } from "ai";
import type { CircuitBreakConcern, Decision, Regulator } from "../index.js";

export interface RegulateOptions<TOOLS extends ToolSet = ToolSet> {
  /** Called with each decision once, when it changes (`decide({ changedOnly: true })`), including the `continue` after one. */
  onDecision?: (decision: Decision) => void;
  /**
   * On a circuit break after a tool step, run one more step with
   * `toolChoice: "none"` and the break's suggestion in the system prompt, so
   * the run ends with an answer instead of empty text. `false`: stop at once.
   * Default `true`.
   */
  finalAnswer?: boolean;
  /** Send the user's last message as `turnStart` before the first step. `false` when the app sends it. Default `true`. */
  turnStart?: boolean;
  /**
   * The run's answer when the regulator is broken before the first step (no
   * model is called). Default: the decision's suggestion.
   */
  haltText?: string | ((decision: CircuitBreakConcern & { readonly concerns: Decision["concerns"] }) => string);
  /** The system prompt to add corrections and notes to, where `experimental_onStart` is not called (e.g. some agents). */
  system?: string | SystemModelMessage | SystemModelMessage[];
  /** Your own stop conditions, or'ed with the regulator's (give `stepCountIs(n)` to cap steps too). */
  stopWhen?: StopCondition<NoInfer<TOOLS>> | StopCondition<NoInfer<TOOLS>>[];
  /** Your own `prepareStep`: its result is kept, with `toolChoice` and `system` set by reins where it needs to. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  prepareStep?: PrepareStepFunction<any>;
  /** Your own `onStepFinish`, called after reins has read the step. */
  onStepFinish?: (step: StepResult<NoInfer<TOOLS>>) => void | PromiseLike<void>;
}

/**
 * What to spread into `generateText({ … })`, `streamText({ … })`. The hooks
 * take any tool set (`StopCondition<any>`, as the SDK's `stepCountIs` does),
 * so the call's own `tools` decide its types.
 */
export interface Regulated {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  stopWhen: StopCondition<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  prepareStep: PrepareStepFunction<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onStepFinish: (step: StepResult<any>) => Promise<void>;
  /** Reads the run's system prompt. */
  experimental_onStart: (event: { readonly system: string | SystemModelMessage | SystemModelMessage[] | undefined }) => void;
  /** Notes when each tool call starts. */
  experimental_onToolCallStart: (event: { readonly toolCall: { readonly toolCallId: string } }) => void;
  /** Takes each tool's run time. */
  experimental_onToolCallFinish: (event: { readonly toolCall: { readonly toolCallId: string }; readonly durationMs: number }) => void;
}

/**
 * Options for one `generateText` / `streamText` run (call it per run: it
 * holds the run's state), fed from the SDK's step results: the user's last
 * message as `turnStart`, every tool call and result (with `toolCallId` as
 * `callId`, arguments as JSON would send them, the tool's run time), usage
 * as `cost`, the final text as `turnComplete`.
 *
 * - `stopWhen` stops on a circuit break, after one last step with
 *   `toolChoice: "none"` for a final answer (see `finalAnswer`). It replaces
 *   the SDK's default `stepCountIs(1)`: pass `stopWhen: stepCountIs(n)` in
 *   the options to cap steps as well.
 * - `prepareStep` halts before the first model call when the regulator is
 *   already broken (the run answers `haltText`, no model is called: its
 *   step's `model.provider` is `"reins"`), adds a `toolNudge`'s suggestion
 *   and the user's corrections to the system prompt, and forces
 *   `toolChoice: "none"` on a break.
 *
 * Give the tool set as `regulate<typeof tools>(r, …)` to type your own
 * `onStepFinish` / `prepareStep` / `stopWhen` options.
 *
 * @example
 * const r = new Regulator({ userId: "alice" });
 * const { text } = await generateText({ model, tools, prompt, ...regulate(r, { onDecision: console.log }) });
 */
export declare function regulate<TOOLS extends ToolSet = ToolSet>(regulator: Regulator, options?: RegulateOptions<TOOLS>): Regulated;
