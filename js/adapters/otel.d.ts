// reins/otel: an OpenTelemetry span processor (and metrics) feeding a reins Regulator.
import type { Attributes, Context, HrTime, Meter, SpanContext, SpanStatus } from "@opentelemetry/api";
import type { Decision, Regulator } from "../index.js";

/**
 * What the processor reads of a span: a subset of `@opentelemetry/sdk-trace-base`'s
 * `Span` (in `onStart`) and `ReadableSpan` (in `onEnd`), so either passes as is.
 */
export interface ObservedSpan {
  readonly name: string;
  readonly attributes: Attributes;
  readonly status: SpanStatus;
  /** Zero until the span ends. */
  readonly duration: HrTime;
  spanContext(): SpanContext;
}

export interface ReinsSpanProcessorOptions {
  /**
   * Called with each decision once, when it changes (`decide({ changedOnly: true })`,
   * including the `continue` after one), with the span that led to it.
   */
  onDecision?: (decision: Decision, span: ObservedSpan) => void;
  /**
   * Called with what went wrong while reading a span: an event the regulator
   * refused (e.g. a text over its length limit), or a throwing `route` or
   * `onDecision`. Default: `console.warn`. Nothing is thrown into the tracer.
   */
  onError?: (error: unknown, span: ObservedSpan) => void;
  /**
   * Records `gen_ai.client.token.usage` (`{token}`, by `gen_ai.token.type`
   * input/output) and `gen_ai.client.operation.duration` (`s`) for every model
   * span, as the GenAI semantic conventions define them, and counters
   * `reins.decisions` (by `reins.decision.kind`) and `reins.circuit_breaks`
   * (by `reins.circuit_break.reason`).
   */
  meter?: Meter;
}

/** Routes a span to its user's Regulator, or `undefined` to skip it. Called at the span's start and end. */
export type RouteSpan = (span: ObservedSpan) => Regulator | undefined;

/**
 * A span processor feeding a reins Regulator from the spans an instrumented
 * framework already records. Add it to your tracer provider next to your
 * exporter's processor.
 *
 * | span | read when | reins event |
 * |---|---|---|
 * | `ai.generateText` / `ai.streamText` (AI SDK run) | start | `turnStart(` last message of `ai.prompt` `)`, when it is the user's (not a run resumed after tool results) |
 * | `ai.generateText.doGenerate` / `ai.streamText.doStream` (AI SDK step) | end | `cost({ tokensIn: ai.usage.inputTokens, tokensOut: ai.usage.outputTokens, wallclockMs: duration, provider: gen_ai.system })`; `turnComplete(ai.response.text)` when the step has no `ai.response.toolCalls` |
 * | `ai.toolCall` (AI SDK tool) | start, end | `toolCall(ai.toolCall.name, ai.toolCall.args, { callId: ai.toolCall.id })` at start; `toolResult` at end: `ok: true, result: ai.toolCall.result`, or `ok: false, error: status.message` on status ERROR; `durationMs` from the span |
 * | `gen_ai.operation.name` = `chat` / `text_completion` / `generate_content` | start, end | `turnStart(` last user message of `gen_ai.input.messages` (or `gen_ai.prompt`) `)` when this regulator has not heard that message at that position; `cost({ tokensIn: gen_ai.usage.input_tokens, tokensOut: gen_ai.usage.output_tokens, wallclockMs: duration, provider: gen_ai.provider.name ?? gen_ai.system })`; `turnComplete(` text of the last assistant message in `gen_ai.output.messages` (or `gen_ai.completion`) `)` when it asks for no tool |
 * | `gen_ai.operation.name` = `execute_tool` | start (if named), end | `toolCall(gen_ai.tool.name, gen_ai.tool.call.arguments, { callId: gen_ai.tool.call.id })`; `toolResult`: `ok: true, result: gen_ai.tool.call.result`, or `ok: false` on status ERROR or `error.type`; `durationMs` from the span |
 *
 * - An AI SDK span is read as such only (its steps carry `gen_ai.*` too), and
 *   usage comes from step spans only, never from the run span: nothing is
 *   counted twice.
 * - Token counts may be numbers or numeric strings; negative, NaN or missing
 *   ones are left out. Arguments and messages may be JSON strings or plain
 *   text. Bad attributes never throw.
 * - The AI SDK records prompts, arguments, results and texts only while
 *   `experimental_telemetry.recordInputs` / `recordOutputs` are on (the
 *   default); without them reins sees calls and usage without text.
 *
 * @example
 * import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
 * import { ReinsSpanProcessor } from "reins/otel";
 * const regulators = new Map<string, Regulator>();
 * const reins = new ReinsSpanProcessor(
 *   (span) => regulators.get(String(span.attributes["ai.telemetry.metadata.userId"])),
 *   { onDecision: (d, span) => console.log("reins:", d.kind) },
 * );
 * const provider = new BasicTracerProvider({ spanProcessors: [reins] });
 */
export declare class ReinsSpanProcessor {
  constructor(regulator: Regulator | RouteSpan, options?: ReinsSpanProcessorOptions);
  onStart(span: ObservedSpan, parentContext: Context): void;
  onEnd(span: ObservedSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}
