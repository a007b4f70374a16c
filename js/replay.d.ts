// reins/replay: what reins would have decided on recorded agent runs.
import type { BreakReason, ChatMessage, Config, Decision, ReinsEvent } from "./index.js";

/** An event of a recorded run: what `Regulator.event()` takes, plus the id of the message it came from. */
export type TraceEvent = ReinsEvent & { messageId?: string };

/** A recorded run in reins' trace format (see docs/replay.md). */
export interface Trace {
  format: "reins.trace";
  version?: 1;
  id?: string;
  /** Where it came from: `tau-bench`, `tau2-bench`, `mini-swe-agent`, `swe-agent`, `otlp`, `ai-sdk`, `openai`, or yours. */
  source?: string;
  outcome?: { success?: boolean; reward?: number };
  /** Some `cost` events were estimated from text. */
  estimatedTokens?: boolean;
  events: TraceEvent[];
}

/** What could not be read, and where (`runs.jsonl: line 5`). */
export interface ImportProblem {
  at: string;
  message: string;
}

/** A run to replay: a trace, the file text or parsed value of a run of any supported kind. */
export type ReplayInput = Trace | string | object;

export interface ReplayOptions extends Partial<Config> {
  /** Estimate each model call's tokens from text when a run recorded no spend. Default `true`. */
  estimateTokens?: boolean;
}

/** Spend, turns, tool calls and recorded time over a stretch of a run. */
export interface Spend {
  tokensIn: number;
  tokensOut: number;
  turns: number;
  toolCalls: number;
  /** Recorded model and tool time (`cost.wallclockMs`, `toolResult.durationMs`). */
  wallclockMs: number;
}

/** What replaying one run showed. */
export interface ReplayReport {
  id: string;
  source: string | null;
  outcome: { success: boolean | null; reward: number | null } | null;
  estimatedTokens: boolean;
  events: number;
  turns: number;
  /** The first circuit break: the turn, the event index after which it fired, its reason's kind. */
  firstBreak: { turn: number; event: number; reason: BreakReason["kind"]; suggestion: string } | null;
  /** Everything recorded after that event: what halting there would have saved. */
  savings: Spend | null;
  total: Spend;
  /** Per concern (`toolNudge`, `scopeDrift`, `circuitBreak:toolLoop`, …), the turns it fired in. */
  concerns: { [concern: string]: number };
  /** Per turn: its first event, the concerns that fired, the decision at its end (empty in `replayMany`). */
  perTurn: { turn: number; firstEvent: number; decision: Decision["kind"]; fired: string[]; spend: Spend }[];
  /** Each change of decision (at most 1000; empty in `replayMany`). */
  changes: { event: number; turn: number; kind: Decision["kind"]; concerns: string[]; suggestion?: string }[];
  refusedCount: number;
  /** Events the regulator refused, with why (at most 1000). */
  refused: { event: number; message: string }[];
}

/** Runs counted by outcome. */
export interface ByOutcome {
  succeeded: number;
  failed: number;
  unknown: number;
}

/** The figures over many runs. */
export interface ReplaySummary {
  runs: ByOutcome;
  halted: ByOutcome;
  haltRate: number;
  /** Of the halted runs with an outcome, the share that failed (`null` when none). */
  haltPrecision: number | null;
  /** Of the failed runs, the share halted. */
  failureRecall: number | null;
  /** Tokens recorded after the break on failed runs: what halting saved. */
  tokensSavedOnFailed: number;
  /** The same on successful runs: spend on work that would have succeeded. */
  tokensForgoneOnSucceeded: number;
  tokensTotal: number;
  /** Runs whose spend was (partly) estimated from text. */
  estimatedRuns: number;
  byReason: { [reason: string]: number };
  concerns: { [concern: string]: ByOutcome };
  events: number;
  refused: number;
  turns: number;
}

/** One combination of a sweep, with its figures; `pareto` when no other is as good on every figure and better on one. */
export interface SweepPoint {
  options: Partial<Config>;
  summary: ReplaySummary;
  pareto: boolean;
}

/** Reads recorded runs of any supported kind (file text or parsed value) into traces. */
export declare function importTraces(input: string | object, options?: { name?: string; estimateTokens?: boolean }): { traces: Trace[]; problems: ImportProblem[] };
/** What reins would have decided on one recorded run, and what halting at its first break would have saved. */
export declare function replay(trace: ReplayInput, options?: ReplayOptions): ReplayReport;
/** Many recorded runs (traces, or a file's text or value): each one's report and the figures over all. */
export declare function replayMany(traces: readonly Trace[] | string | object, options?: ReplayOptions): { reports: ReplayReport[]; summary: ReplaySummary; problems: ImportProblem[] };
/** The runs replayed under each combination of `grid` over `options`: the Pareto frontier first (at most 256 combinations). */
export declare function sweep(traces: readonly Trace[] | string | object, grid: { [K in keyof Config]?: readonly Config[K][] }, options?: ReplayOptions): SweepPoint[];

/** Which earlier messages each message needs within the next `horizon` ones. */
export interface OracleDemand {
  horizon: number;
  /** Per message, the sorted indices of the earlier messages it (or the next `horizon`) refers to. */
  demand: number[][];
  referenceCount: number;
}

/** A policy's faults against the look-ahead oracle under one budget. */
export interface OracleGap {
  onlineFaults: number;
  oracleFaults: number;
  /** online − oracle: large → a better policy would help; ≈ 0 with faults → the budget is too small. */
  gap: number;
  unavoidableFaults: number;
  perTurn: { t: number; refs: number[]; kept: number; missed: number[]; oracleMissed: number[]; unavoidable: number }[];
  budgetTokens: number;
  horizon: number;
}

/** A chat as the oracle reads it: OpenAI messages, or a trace (its events as messages). */
export type OracleInput = readonly ChatMessage[] | Trace | string;

/** See docs/oracle.md. Default horizon 3. */
export declare function oracleDemand(messages: OracleInput, options?: { horizon?: number }): OracleDemand;
/** See docs/oracle.md. `choose(t, candidates)` returns the candidates to keep before message `t`. */
export declare function oracleGap(
  messages: OracleInput,
  policy: `recent:${number}` | "incremental" | ((t: number, candidates: number[]) => readonly number[]),
  options: { horizon?: number; budgetTokens: number },
): OracleGap;

export {};
