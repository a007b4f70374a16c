// Public types of reins. Decisions and events are discriminated unions:
// `switch (d.kind)` and `switch (e.type)` narrow to the exact shape.

/** Any JSON value (tool arguments). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Which tokens count against `costCapTokens`. */
export type TokenBasis = "output" | "total";

/**
 * A chat-completions message as OpenAI's API (and most providers and
 * gateways) writes it; only the fields reins reads are typed, so the
 * OpenAI SDK's own message types fit.
 */
export interface ChatMessage {
  /** `system`, `developer`, `user`, `assistant`, `tool` or `function`. */
  role: string;
  /** Text, or parts whose `text` is read (images and audio carry no words). */
  content?: string | null | readonly (string | { type?: string; text?: string | null })[];
  name?: string;
  tool_calls?: readonly ChatToolCall[] | null;
  tool_call_id?: string;
  function_call?: { name: string; arguments?: string | null } | null;
}

/** An entry of `tool_calls`: a function call, or a custom tool's free-text call. */
export interface ChatToolCall {
  id?: string;
  type?: string;
  function?: { name: string; arguments?: string | null };
  custom?: { name: string; input?: string | null };
}

/** A chat-completions response body, as far as reins reads it. */
export interface ChatCompletion {
  choices?: readonly { message?: ChatMessage | null }[] | null;
  /** Token counts as numbers (or numeric strings); `input_tokens`/`output_tokens` too. */
  usage?: {
    prompt_tokens?: number | string;
    completion_tokens?: number | string;
    input_tokens?: number | string;
    output_tokens?: number | string;
  } | null;
}

/**
 * Which tool-loop rule runs: `"fingerprint"` (name + canonical arguments,
 * progress judged from results, nudge then halt) or the reference rule
 * `"consecutiveSameTool"` (the same name N times in a row).
 */
export type ToolLoopRule = "fingerprint" | "consecutiveSameTool";

/** Every threshold, with its default. Unknown names are rejected with a TypeError. */
export interface Config {
  /** Token budget for the session; reached when spent ≥ cap. Default 10000. */
  costCapTokens: number;
  /** Which tokens count against the cap. Default `"output"`. */
  tokenCapBasis: TokenBasis;
  /**
   * How long the budget lasts: `"session"` (default) until `resetSession()`,
   * or `"turn"`: spend starts over with each `turnStart`, as fits a chat app
   * where every request is a task (quality samples are kept).
   */
  costCapScope: "session" | "turn";
  /** Optional money budget, in the unit of `cost({ usd })`. Default `null` (none). */
  costCapUsd: number | null;
  /** Halt over budget even when no quality feedback was ever sent. Default `true`. */
  haltOverCapWithoutQuality: boolean;
  /** Recent quality below this mean is poor. Default 0.5. */
  poorQualityMean: number;
  /** How many of the newest quality samples the cost and decline rules use. Default 3. */
  qualityWindow: number;
  /** Oldest-minus-newest drop across the window that counts as a decline. Default 0.15. */
  qualityDeclineMinDelta: number;
  /** Quality samples kept. Default 20. */
  qualityHistory: number;
  /** Default `"fingerprint"`. */
  toolLoopRule: ToolLoopRule;
  /** Repeats that make a loop (halt). Default 5. */
  toolLoopThreshold: number;
  /** Repeats that earn a `toolNudge` before the halt. Default 3. */
  toolNudgeThreshold: number;
  /** Consecutive failed tool calls that halt (half of it nudges). Default 6. */
  toolFailureStreak: number;
  /** Settled tool steps a `toolNudge` may stand before it becomes a halt (0: never). Default 3. */
  toolNudgePatience: number;
  /** Tools never counted as looping, e.g. `["think", "read_file"]`. Default `[]`. */
  toolLoopExempt: string[];
  /** Per-tool halt thresholds overriding `toolLoopThreshold`. Default `{}`. */
  toolLoopThresholds: { [toolName: string]: number };
  /** Share of an answer's weighted content anchored nowhere at or above which it counts as off topic (0–1, e.g. 0.85). Default `null`: that check is off, since a paraphrase shares no words with its question either; other off-topic evidence still warns. */
  driftWarnThreshold: number | null;
  /** Judge each answer for `scopeDrift`. `false` reads no answer for it: the check is about half of a turn's work, which an app whose answers go to a program rather than a person need not pay. Default `true`. */
  scopeDrift: boolean;
  /** App vocabulary that is always on topic (product and feature names, "term — definition" entries): at most 256 entries of 1–256 UTF-8 bytes. Default `[]`. */
  glossary: string[];
  /** Look for frustration, correction and "from now on" markers in user messages. Default `true`. */
  markers: boolean;
  /** User turns within which repeated pushback makes an `incident`. Default 6. */
  incidentWindowTurns: number;
  /** Pushback turns within that window that make an `incident`. Default 2. */
  incidentMinHits: number;
  /** Consecutive turns failing on the same obstacle (a tool result not ok, or a reply reporting a failure) that halt with `repeatedFailure`. Default 3, 2–16. */
  repeatedFailureTurns: number;
  /** A reworded retry of the last request within this many ms of its answer is an implicit correction (not after thanks, nor when the answer asked a question). Default `120000`; `null` turns it off. */
  implicitCorrectionWindowMs: number | null;
  /** Corrections on one topic that make a pattern. Default 3. */
  patternThreshold: number;
  /** Examples shown per pattern, newest first. Default 3. */
  maxExamples: number;
  /** Correction records kept per topic. Default 20. */
  maxCorrectionsPerTopic: number;
  /** Correction records kept in total, at most 10,000 (so a snapshot stays under 64 MiB). Default 1000. */
  maxCorrectionRecords: number;
  /** Usable logprobs kept for confidence. Default 128. */
  logprobWindow: number;
  /**
   * Longest message, response, tool output, correction, prompt or tool-argument
   * JSON accepted, in UTF-8 bytes, and the most entries of one `tokens` batch;
   * at most 16 MiB. Default 1 MiB. Every event's time is linear in its text:
   * the reply rules read a message's first 8 KB and scope drift a text's first
   * 4,096 words.
   */
  maxTextBytes: number;
}

/** Constructor options: the user this regulator belongs to, plus any thresholds. */
export type RegulatorOptions = { userId: string } & Partial<Config>;

/** Options of a tool call. */
export type ToolCallOptions = {
  /** Pairs the call with its `toolResult`. */
  callId?: string;
  /** The call changes something that repeating it changes again (send, book, pay). */
  sideEffect?: boolean;
  /** The call only reads. */
  readOnly?: boolean;
  atMs?: number;
};

/** How a tool loop showed itself. */
export type LoopPattern =
  | "sameTool"
  | "identicalCall"
  | "pollingNoChange"
  | "noProgress"
  | "cycle"
  | "failureStreak"
  | "crossTurnDuplicate"
  | "repeatedSideEffect";

/** Why a circuit break fired. */
export type BreakReason =
  | {
      kind: "costCap";
      tokensSpent: number;
      tokensCap: number;
      usdSpent: number;
      usdCap: number | null;
      /** Mean of the newest quality samples; `null` when none were ever sent. */
      meanQuality: number | null;
      qualitySamples: number;
    }
  | { kind: "qualityDecline"; window: number; delta: number; meanQuality: number }
  /** A second incident on one topic: the user keeps pushing back. */
  | {
      kind: "repeatedFailure";
      topic: string;
      failureCount: number;
      /** The agent's failing turns, when the same obstacle stopped it turn after turn (absent when the user's pushback made the break). */
      evidenceTurns?: number[];
      /** The obstacle's words ("permiss", "deni"), with `evidenceTurns`. */
      obstacle?: string[];
    }
  | { kind: "toolLoop"; toolName: string; count: number; pattern: LoopPattern };

/** What this user corrected before on the current topic. */
export interface CorrectionPattern {
  topic: string;
  count: number;
  /** `count / maxCorrectionsPerTopic`, at most 1. */
  confidence: number;
  /** Newest first. */
  examples: string[];
}

export interface CircuitBreakConcern {
  kind: "circuitBreak";
  reason: BreakReason;
  /** One line of advice for the operator. */
  suggestion: string;
}

/** The user is repeatedly unhappy: pushback markers on several recent turns. */
export interface IncidentConcern {
  kind: "incident";
  /** The user turns (1-based) whose messages pushed back. */
  evidenceTurns: number[];
  /**
   * The phrases found, e.g. `"still doesn't work"`, `"错了"`; a message caught
   * by reading it against the previous answer names the rule in parentheses:
   * `"(rejects a word of the previous answer)"`, `"(opens by rejecting the
   * previous answer)"`, `"(reports the previous answer failing)"`,
   * `"(praises the previous answer sarcastically)"`.
   */
  markers: string[];
  /** The latest such message, shortened. */
  summary: string;
  topic: string;
  lexiconVersion: string;
}

/** The agent's tool use looks like the start of a loop: a warning before the circuit break. */
export interface ToolNudgeConcern {
  kind: "toolNudge";
  toolName: string;
  count: number;
  pattern: LoopPattern;
  /** One line the app can pass to the agent. */
  suggestion: string;
}

/** What made an answer drift. */
export type DriftCause = "offTopic" | "forbidden" | "additions" | "language" | "framework";

export interface ScopeDriftConcern {
  kind: "scopeDrift";
  /**
   * `offTopic`: hardly anything anchored in the request; `forbidden`: does what
   * the user ruled out ("don't add logging"); `additions`: announces
   * unrequested additions; `language`: answered in another human language;
   * `framework`: answered with a sibling technology (Java for Python).
   */
  cause: DriftCause;
  /** Weighted share of the answer's content anchored nowhere, 0–1. */
  driftScore: number;
  /**
   * What to point at, most telling first: the words the response added or
   * the rule it broke; a count, a language or an amount comes first as a
   * verdict ("5 items, asked for 3", "answered in fr, asked in en").
   */
  driftTokens: string[];
  taskTokens: string[];
}

export interface ProceduralConcern {
  kind: "procedural";
  patterns: CorrectionPattern[];
}

/** One predicate that fired. */
export type Concern = CircuitBreakConcern | IncidentConcern | ToolNudgeConcern | ScopeDriftConcern | ProceduralConcern;

interface WithConcerns {
  /** Every concern that fired, the winner first; empty on `continue`. */
  readonly concerns: readonly Concern[];
}

/**
 * The answer of `decide()`: the highest-priority concern (circuit break >
 * incident > tool nudge > scope drift > procedural), or `continue`.
 *
 * @example
 * const d = r.decide();
 * switch (d.kind) {
 *   case "continue": break;
 *   case "circuitBreak": halt(d.reason.kind, d.suggestion); break;
 *   case "incident": escalate(d.summary); break;
 *   case "toolNudge": tellAgent(d.suggestion); break;
 *   case "scopeDrift": annotate(d.driftTokens); break;
 *   case "procedural": prompt = r.injectCorrections(prompt); break;
 * }
 */
export type Decision =
  | ({ readonly kind: "continue" } & WithConcerns)
  | (CircuitBreakConcern & WithConcerns)
  | (IncidentConcern & WithConcerns)
  | (ToolNudgeConcern & WithConcerns)
  | (ScopeDriftConcern & WithConcerns)
  | (ProceduralConcern & WithConcerns);

export type DecisionKind = Decision["kind"];

/** Every event may carry `atMs` (milliseconds since the epoch). */
interface Timed {
  atMs?: number;
}

/** The events `event()` accepts. */
export type ReinsEvent =
  | ({ type: "turnStart"; message: string } & Timed)
  | ({ type: "token"; logprob: number | null } & Timed)
  | ({ type: "tokens"; logprobs: readonly number[] | Float64Array; unavailable?: number } & Timed)
  | ({ type: "turnComplete"; response: string } & Timed)
  | ({ type: "cost" } & CostEvent)
  | ({ type: "qualityFeedback"; quality: number } & Timed)
  | ({ type: "userCorrection"; message: string; correctsLast?: boolean } & Timed)
  | ({ type: "toolCall"; name: string; args?: JsonValue } & ToolCallOptions)
  | ({ type: "toolResult"; name: string } & ToolOutcome);

export type EventType = ReinsEvent["type"];

export interface CostEvent extends Timed {
  tokensIn?: number;
  tokensOut?: number;
  wallclockMs?: number;
  /** Money spent, in the unit of `costCapUsd`. */
  usd?: number;
  provider?: string;
}

export interface ToolOutcome extends Timed {
  ok: boolean;
  durationMs?: number;
  error?: string;
  /** The tool's output: text, or the object or array it returned (read as its JSON). */
  result?: string | JsonValue[] | { [key: string]: JsonValue };
  callId?: string;
}

/** A stored correction. */
export interface CorrectionRecord {
  id: string;
  topic: string;
  atMs: number;
  seq: number;
  source: "explicit" | "implicit";
  text: string;
}

export type MetricName =
  | "reins.confidence"
  | "reins.logprob_coverage"
  | "reins.total_tokens_in"
  | "reins.total_tokens_out"
  | "reins.total_wallclock_ms"
  | "reins.total_usd"
  | "reins.cost_events"
  | "reins.cost_cap_tokens"
  | "reins.quality_samples"
  | "reins.turns"
  | "reins.tool_total_calls"
  | "reins.tool_total_duration_ms"
  | "reins.tool_failure_count"
  | "reins.tool_calls_all_turns"
  | "reins.implicit_corrections_count"
  | "reins.correction_records"
  | "reins.preferences";

export type Metrics = { readonly [K in MetricName]: number };

/** The parsed form of `export()`: versioned, lossless, mergeable. */
/** A standing rule learned from corrections across requests. */
export interface LearnedRule {
  /** 16 hex digits, stable for the word: pass it to `dismissRule`. */
  id: string;
  /** The word the corrections share, as the user wrote it, then any others they all hold. */
  about: string[];
  /** Corrections behind it. */
  count: number;
  /** Distinct requests (topics) they corrected. */
  topics: number;
  /** The newest corrections, newest first. */
  examples: string[];
}

export interface Snapshot {
  format: "reins.state";
  version: 1;
  userId: string;
  config: Config;
  memory: {
    seq: number;
    implicitCorrections: number;
    /** Records by topic: `[id, atMs, seq, "e" | "i", text]`. */
    corrections: { [topic: string]: [string, number, number, "e" | "i", string][] };
    topics: { [topic: string]: { turns: number; feedback: number; qualitySum: number; lastAtMs: number } };
  };
  /**
   * The running task (spend, quality, current turn); its layout may change
   * between versions. Absent from `exportMemory()` output.
   */
  session?: { [field: string]: unknown };
}

// These declarations name nothing from the DOM, Node or esnext.disposable
// libs, so a project with only the ES2022 lib (and skipLibCheck off) checks
// them; where the project has those libs, the types below become theirs.

/** `Symbol.dispose` where the project's lib has it (esnext.disposable, @types/node); else a symbol of ours no one can name. */
type DisposeSymbol = SymbolConstructor extends { readonly dispose: infer S extends symbol } ? S : typeof noDispose;
/** `Symbol.asyncDispose` likewise. */
type AsyncDisposeSymbol = SymbolConstructor extends { readonly asyncDispose: infer S extends symbol } ? S : typeof noAsyncDispose;
declare const noDispose: unique symbol;
declare const noAsyncDispose: unique symbol;
/** Keys of the `[Symbol.dispose]()` and `[Symbol.asyncDispose]()` methods: types only (nothing by these names is exported). */
declare const symbolDispose: DisposeSymbol;
declare const symbolAsyncDispose: AsyncDisposeSymbol;

/** The global `Event` where the project's lib has one (DOM, @types/node), else what every event has. */
type EventOf = typeof globalThis extends { Event: { prototype: infer E } } ? E : { readonly type: string };
/** The global `AbortSignal` where the project's lib has one; else none can be passed. */
type AbortSignalOf = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : never;

/**
 * The `code` on every error reins throws for bad input (the error is a
 * `TypeError` or `RangeError` whose message starts with the field). Storage
 * failures are `StoreError`s with `StoreErrorCode`s.
 */
export type ReinsErrorCode =
  /** An option: unknown or misspelt (the message names the one meant), wrong type, out of range. */
  | "REINS_INVALID_OPTION"
  /** An event's field or a method's argument. */
  | "REINS_INVALID_EVENT"
  /** A snapshot that is not one, or not a valid one. */
  | "REINS_INVALID_SNAPSHOT"
  /** A snapshot written by a newer reins. */
  | "REINS_SNAPSHOT_VERSION"
  /** Another user's snapshot: users never mix. */
  | "REINS_SNAPSHOT_USER"
  /** An input the module cannot grow its memory to read; nothing changed. */
  | "REINS_OUT_OF_MEMORY"
  /** A call after `free()` or `close()`. */
  | "REINS_FREED";

/**
 * A regulator for one user. Feed it events; ask it `decide()`.
 * Bad input throws a `TypeError` or `RangeError` naming the field and leaves
 * the regulator unchanged: unknown option or field names (with the name
 * meant, when one is spelled alike), values JSON would change (NaN, ±∞,
 * functions, symbols, BigInt, cycles, in options and tool arguments), texts
 * over `maxTextBytes`, snapshots over 64 MiB, options over 1 MiB. Texts of
 * 64 KB or more make room in the module's memory first, so an allocation
 * it cannot make is a `RangeError`, never a trapped instance.
 */
export declare class Regulator {
  constructor(options: RegulatorOptions);
  /**
   * The whole state restored from `export()` output (or a noos 0.4.1
   * state): its options, and its running task with its spend. For replay
   * and tests; to bring a user back, use `restore`.
   */
  static import(snapshot: string): Regulator;
  /**
   * A regulator under `options` (the app's current ones) with a fresh
   * session, holding the user's memory from `exportMemory()` (or `export()`)
   * output, trimmed to the current caps. The snapshot must be
   * `options.userId`'s (else a `RangeError` naming `snapshot.userId`).
   */
  static restore(snapshot: string, options: RegulatorOptions): Regulator;

  /** The user's message opens a turn. `atMs` defaults to `Date.now()`. */
  turnStart(message: string, atMs?: number): void;
  /** One token's log-probability (≤ 0), or `null` when the provider gave none. */
  token(logprob: number | null, atMs?: number): void;
  /** A batch of log-probabilities, plus how many tokens had none. */
  tokens(logprobs: readonly number[] | Float64Array, options?: { unavailable?: number; atMs?: number }): void;
  /** The agent's full response. `atMs` defaults to `Date.now()`. */
  turnComplete(response: string, atMs?: number): void;
  cost(usage: CostEvent): void;
  /** A grade for this turn's response, in [0, 1]. */
  qualityFeedback(quality: number, atMs?: number): void;
  /** The user corrected the agent; by default filed under the topic of the answer it corrects. */
  userCorrection(message: string, options?: { correctsLast?: boolean; atMs?: number }): void;
  /**
   * The agent called a tool. Calls issued together (a parallel batch) are one
   * step, judged once all their results are in; pass `callId` so results pair
   * with their calls (else they pair in the order issued). `sideEffect: true`
   * marks an action whose repeat repeats its effect (send, book, pay);
   * `readOnly: true` a read. Without them the tool's name and, for a shell
   * tool, its command decide.
   */
  toolCall(name: string, args?: JsonValue, options?: ToolCallOptions): void;
  toolResult(name: string, outcome: ToolOutcome): void;
  /** Any event as an object. */
  event(event: ReinsEvent): void;

  /** Pure and idempotent; on `continue` returns one shared frozen object. */
  decide(): Decision;
  /**
   * With `changedOnly: true`: the decision only when what is decided changed
   * since the last such call (another kind, reason, tool, cause or topic; a
   * count that grew is not a change), else `null`. Each one is heard once.
   */
  decide(options: { changedOnly: true }): Decision | null;
  decide(options: { changedOnly?: boolean }): Decision | null;

  /** The versioned JSON snapshot (see `Snapshot`). */
  export(): string;
  /**
   * The user's memory alone (corrections, standing preferences, topic
   * statistics, dismissed rules), without the running task: what an app
   * persists. `texts: false` stores none of the user's words: corrections
   * keep their topic, time and kind, and standing preferences are left out.
   */
  exportMemory(options?: { texts?: boolean }): string;
  /** Unions another copy of this user's memory (another tab, another Worker) into this one. */
  merge(snapshot: string): void;
  /**
   * `prompt` with this user's standing preferences and past corrections on
   * the topic, or unchanged when there are none. By default `prompt` is the
   * user's request: the corrections come first, then `Current request:` and
   * the prompt. With `{ into: "system" }` it is a system prompt: it stays
   * first, and the corrections follow it, labelled as such.
   */
  injectCorrections(prompt: string, options?: { into?: "request" | "system" }): string;
  /** Standing preferences ("from now on …"), oldest first. */
  preferences(): string[];
  /**
   * Standing rules learned from corrections of one thing under different
   * requests ("we use pnpm, not npm" while adding zod, then vitest, then at
   * `npx vitest`), most backed first. Injected on every request until
   * dismissed.
   */
  learnedRules(): LearnedRule[];
  /** Stops injecting a learned rule, now and when its word is corrected again; `true` if it was shown. Kept in the snapshot. */
  dismissRule(id: string, atMs?: number): boolean;
  correctionsPrelude(): string | null;

  metrics(): Metrics;
  /** Calls per tool name this turn. */
  toolCounts(): { [toolName: string]: number };
  corrections(): CorrectionRecord[];
  confidence(): number;
  logprobCoverage(): number;
  driftScore(): number | null;
  /** The current turn's topic key ("" when it has none). */
  readonly topic: string;
  readonly userId: string;
  readonly config: Config;
  /**
   * Changes thresholds; counters and memory stay. An option left
   * `undefined` keeps its value; `null` turns an optional cap off.
   */
  setConfig(options: Partial<Config>): void;
  /** Starts a new task: spend, quality and the current turn reset; memory stays. */
  resetSession(): void;

  /**
   * Reads one OpenAI-style chat-completions request's `messages` (an array
   * or its JSON text), for an app that sees requests rather than its agent's
   * loop (a gateway, a proxy). The messages up to the last assistant message
   * are the conversation so far: a regulator that has seen nothing of this
   * session (new, restored, or after `resetSession()`) catches up on them
   * without learning from them again (the memory did when they were new),
   * with each answer's spend estimated from its text; one that followed the
   * conversation skips them. The messages after the last answer (the user's
   * new message, tool results) are fed as events. `atMs` is the last
   * message's time (earlier ones are spaced a second apart). Long texts are
   * clipped to `maxTextBytes`. Throws naming the field (`messages[3].role`)
   * and changes nothing on bad input.
   */
  chatRequest(messages: readonly ChatMessage[] | string, options?: { atMs?: number }): void;
  /**
   * Reads one chat-completions response body (an object or its JSON text):
   * its first choice's text and tool calls, and its `usage` (output
   * estimated from the text when absent). `durationMs` is the call's
   * wall-clock time.
   */
  chatResponse(body: ChatCompletion | string, options?: { atMs?: number; durationMs?: number }): void;

  /** Releases the wasm memory now (it is also released when garbage-collected). */
  free(): void;
  /** `free()`, for `using r = new Regulator(…)` (where the lib has `Symbol.dispose`). */
  [symbolDispose](): void;
}

/**
 * Where a user's memory is kept: a key-value store of any kind, in a few lines.
 * Values are strings. `get` resolves to `undefined` (or `null`) when the
 * key is absent.
 */
export interface Store {
  get(key: string): Promise<string | undefined | null>;
  set(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  /**
   * Writes `value` only if the key holds `expected` now (`undefined`:
   * absent), in one atomic step; resolves to whether it wrote. With it,
   * writers that race lose nothing; without it the last write wins.
   */
  setIf?(key: string, expected: string | undefined, value: string): Promise<boolean>;
  /** Calls `onChange` when another copy changes `key`; returns a function that stops it. */
  watch?(key: string, onChange: (value: string | undefined) => void): () => void;
}

/** Codes of `StoreError`. */
export type StoreErrorCode =
  /** The store is full (`QuotaExceededError`, a value over its size limit). */
  | "REINS_STORE_QUOTA"
  /** Storage is disabled here (private mode, `SecurityError`, no IndexedDB). */
  | "REINS_STORE_UNAVAILABLE"
  /** Opening IndexedDB is blocked by another tab holding an older version open. */
  | "REINS_STORE_BLOCKED"
  /** Any other failure of the store; `cause` holds it. */
  | "REINS_STORE_FAILED"
  /** The stored value is not a readable snapshot (partial write, foreign data): kept aside under `backupKey`. */
  | "REINS_STORE_CORRUPT"
  /** A signing key is set and the stored value is unsigned: kept aside under `backupKey`. */
  | "REINS_STORE_UNSIGNED"
  /** A signing key is set and the signature does not match: kept aside under `backupKey`. */
  | "REINS_STORE_TAMPERED"
  /** A newer reins wrote it: left as it is, and this regulator does not save over it. */
  | "REINS_STORE_NEWER"
  /** The store changed under every attempt to save; tried again on the next change. */
  | "REINS_STORE_CONFLICT"
  /** Signing needs Web Crypto (`crypto.subtle`), which is missing here. */
  | "REINS_SIGNING_UNAVAILABLE";

export declare class StoreError extends Error {
  readonly name: "StoreError";
  readonly code: StoreErrorCode;
  /** The store key concerned. */
  readonly key?: string;
  /** Where a refused value was kept aside. */
  readonly backupKey?: string;
}

/** An HMAC-SHA256 key: a secret of at least 16 bytes, or a `CryptoKey`. */
export type SigningKey = string | Uint8Array | ArrayBuffer | CryptoKeyLike;

/**
 * What a Web Crypto `CryptoKey` has (the DOM's, or Node's
 * `webcrypto.CryptoKey`), so one is accepted without the DOM lib. Only a
 * real `CryptoKey` works at run time.
 */
export interface CryptoKeyLike {
  readonly type: string;
  readonly algorithm: { readonly name: string };
  readonly extractable: boolean;
  readonly usages: readonly string[];
}

/** The part of Web Storage (`localStorage`, `sessionStorage`) that `localStorageStore` uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface StoredRegulatorOptions extends RegulatorOptions {
  store: Store;
  /** Keeps apps sharing one store apart: letters, digits, `_.-`. Default `"reins"`. */
  namespace?: string;
  /** Saves wait this long after the first unsaved change. Default 250. */
  saveDelayMs?: number;
  /** `false` stores none of the user's words (see `exportMemory`). Default `true`. */
  storeTexts?: boolean;
  /** Signs what is stored, and refuses what is unsigned or tampered. */
  signingKey?: SigningKey;
  /** Called with every storage failure (as are `"error"` listeners). */
  onError?: (error: StoreError) => void;
  /** Merge other tabs' saves as they happen (`watch`, `BroadcastChannel`). Default `true`. */
  live?: boolean;
}

/** An `Event` (the DOM's, or Node's) of type `"error"`, carrying the `StoreError`. */
export interface StoreErrorEvent extends EventOf {
  readonly error: StoreError;
}

/**
 * A regulator whose memory of the user lives in a store: loaded on open,
 * saved after every change to it (debounced), merged with what other tabs,
 * instances or processes saved. Every open starts a fresh session under the
 * options given. Storage failures never throw from events: they go to
 * `onError` and `"error"` listeners (or the console when there are none),
 * and the regulator goes on in memory.
 */
export declare class StoredRegulator extends Regulator {
  constructor(options: StoredRegulatorOptions);
  /** Resolves once the stored memory is loaded (or found unreadable, which is reported). */
  readonly ready: Promise<void>;
  /** The key the memory is stored under. */
  readonly storeKey: string;
  /** Saves what is waiting now; resolves to whether the store holds this memory. */
  flush(): Promise<boolean>;
  /** Deletes everything stored for this user, here and in other open tabs. */
  forget(): Promise<void>;
  /** Saves what is waiting, stops listening, frees the regulator. */
  close(): Promise<boolean>;
  addEventListener(
    type: "error",
    listener: (event: StoreErrorEvent) => void,
    options?: boolean | { capture?: boolean; once?: boolean; passive?: boolean; signal?: AbortSignalOf },
  ): void;
  removeEventListener(type: "error", listener: (event: StoreErrorEvent) => void, options?: boolean | { capture?: boolean }): void;
  /** `close()`, for `await using r = await openRegulator(…)` (where the lib has `Symbol.asyncDispose`). */
  [symbolAsyncDispose](): Promise<void>;
}

/** A `StoredRegulator`, resolved once the user's memory is loaded. */
export declare function openRegulator(options: StoredRegulatorOptions): Promise<StoredRegulator>;
/** Deletes everything stored for `userId` without opening a regulator. */
export declare function forget(options: { store: Store; userId: string; namespace?: string }): Promise<void>;
/** The store key of a user's memory. */
export declare function memoryKey(userId: string, namespace?: string): string;

/** A `Map` in this process. */
export declare function memoryStore(map?: Map<string, string>): Store;
/** `localStorage`, or the Web Storage given. */
export declare function localStorageStore(storage?: StorageLike): Store;
/** IndexedDB, no dependency. */
export declare function indexedDbStore(options?: { database?: string; objectStore?: string }): Store;
/** Workers KV (`env.MY_KV`): no compare-and-set, so racing writers can lose; prefer a Durable Object. */
export declare function workersKvStore(kv: {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}): Store;
/** Durable Object storage (`this.ctx.storage`). */
export declare function durableObjectStore(storage: {
  get(key: string): Promise<unknown>;
  put(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}): Store;
/** Deno KV (`await Deno.openKv()`); memories over 64 KiB are split in parts written atomically. */
export declare function denoKvStore(kv: unknown, prefix?: unknown[]): Store;
/** A Redis client with `get`, `set`, `del` and ioredis-style `eval`. */
export declare function redisStore(client: {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
}): Store;

/** Signs a snapshot for a trip through untrusted hands; `verifySnapshot` with the same key reads it back. */
export declare function signSnapshot(snapshot: string, key: SigningKey): Promise<string>;
/** The snapshot inside `signSnapshot` output; rejects with a `StoreError` (`REINS_STORE_UNSIGNED`, `REINS_STORE_TAMPERED`, `REINS_STORE_CORRUPT`) otherwise. */
export declare function verifySnapshot(sealed: string, key: SigningKey): Promise<string>;

// Only what is marked `export` above is exported.
export {};
