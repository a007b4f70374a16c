// reins/workers: a Cloudflare Worker's fetch handler as a regulating proxy
// for OpenAI-compatible chat-completions requests.
import type { CircuitBreakConcern, Config, Decision, Metrics, SigningKey, Store, StoreError } from "../index.js";

/** A Worker's `fetch` handler: the function, or the handler object that has it. */
export type FetchHandler<Env = unknown, Ctx = unknown> = (request: Request, env: Env, ctx: Ctx) => Response | Promise<Response>;

/** What `onDecision` is told besides the decision. */
export interface DecisionInfo {
  /** `"request"`: before the upstream call; `"response"`: after the answer was read. */
  phase: "request" | "response";
  /** The user the request was regulated for, if one was named. */
  userId: string | undefined;
  request: Request;
  /** The regulator's figures at that point (`Regulator.metrics()`): spend this turn, tool calls… */
  metrics: Metrics;
}

export interface WithReinsOptions<Env = unknown> {
  /**
   * Where each user's memory lives: a store, or a function of the Worker's
   * `env` and the user id (e.g. a `durableObjectStore` over the user's
   * Durable Object, or `kvStore(env.MEMORY)`). Without it, or without a
   * user, only the conversation in the request is judged and nothing is
   * remembered.
   */
  store?: Store | ((env: Env, userId: string) => Store);
  /**
   * The user a request is for. Default: the `x-reins-user` header, else the
   * body's `user` field. Memories are never shared between users; a
   * request with no user is judged without one.
   */
  userId?: (request: Request, body: { messages: unknown[]; user?: unknown }, env: Env) => string | null | undefined;
  /** Regulator options. The proxy's default differs in one: `costCapScope: "turn"` (each user turn is a task). */
  regulator?: Partial<Config>;
  /** Which requests are chat completions. Default: a POST whose path ends in `/chat/completions`. */
  match?: (url: URL, request: Request) => boolean;
  /** Add the user's corrections to the system message. Default `true`. */
  injectCorrections?: boolean;
  /** Add a `toolNudge`'s suggestion to the system message. Default `true`. */
  nudge?: boolean;
  /** Every decision: before the upstream call, and after a successful answer was read. */
  onDecision?: (decision: Decision, info: DecisionInfo) => void;
  /** Storage failures, and conversations reins could not read (those are passed on unregulated). Default: `console.warn`. */
  onError?: (error: StoreError | Error) => void;
  /** Keeps apps sharing one store apart (see `StoredRegulatorOptions`). */
  namespace?: string;
  /** Signs the stored memory, and refuses what is unsigned or tampered. */
  signingKey?: SigningKey;
}

/** The body of the `429` a circuit break answers with (OpenAI's error shape, plus the reason and suggestion). */
export interface HaltedBody {
  error: { message: string; type: "reins_circuit_break"; code: CircuitBreakConcern["reason"]["kind"] };
  reason: CircuitBreakConcern["reason"];
  suggestion: string;
}

/** The part of a Durable Object namespace binding `durableObjectMemory` uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): {
    get(key: string): Promise<string | undefined | null>;
    set(key: string, value: string): Promise<unknown>;
    delete(key: string): Promise<unknown>;
    setIf(key: string, expected: string | undefined, value: string): Promise<boolean>;
  };
}

/**
 * A Durable Object class holding users' memories, one object per user:
 * `export { ReinsMemory } from "reins/workers"` from the Worker and bind
 * it (`[[durable_objects.bindings]] name = "REINS_MEMORY", class_name =
 * "ReinsMemory"`, with a migration adding the class).
 */
export declare class ReinsMemory {
  constructor(ctx: { storage: unknown }, env: unknown);
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  setIf(key: string, expected: string | undefined, value: string): Promise<boolean>;
}

/** The store of `userId`'s memory in its own `ReinsMemory` object of `namespace` (the binding). */
export declare function durableObjectMemory(namespace: DurableObjectNamespaceLike, userId: string): Store;

/**
 * Wraps a Worker's handler: a POST to `…/chat/completions` is read (the
 * whole conversation it re-sends, with the user's memory from `store`) and
 * decided before the upstream is called. A circuit break answers `429`
 * with a `HaltedBody` and `x-should-retry: false`, and the upstream is not
 * called; otherwise the request goes on, with the user's corrections (and
 * a nudge's suggestion) added to its system message when there are any,
 * else byte for byte. The answer, streamed or not, comes back unchanged,
 * with an `x-reins-decision` header; it is read as it passes, and what the
 * request taught the memory is saved once the upstream has answered
 * successfully. Any other request goes to `handler` untouched.
 *
 * ```js
 * import { withReins, durableObjectMemory } from "reins/workers";
 * export { ReinsMemory } from "reins/workers";
 * export default withReins(
 *   { fetch: (req) => fetch(new Request(`https://api.openai.com${new URL(req.url).pathname}`, req)) },
 *   { store: (env, user) => durableObjectMemory(env.REINS_MEMORY, user) },
 * );
 * ```
 */
export declare function withReins<Env = unknown, Ctx = unknown>(
  handler: FetchHandler<Env, Ctx> | { fetch: FetchHandler<Env, Ctx> },
  options?: WithReinsOptions<Env>,
): { fetch: FetchHandler<Env, Ctx> };
