// The JS face of reins: a thin wrapper over the wasm core. It checks JS types
// (the core checks values), fills `atMs` from Date.now() where time matters,
// stringifies tool arguments, and returns one shared frozen object on the
// continue path so the hot `decide()` builds nothing.
/* @ts-self-types="./index.d.ts" */
import { RegulatorCore } from "./reins_core.js";

const CONTINUE = Object.freeze({ kind: "continue", concerns: Object.freeze([]) });
const FROM_CORE = Symbol("reins.fromCore");
// Stands in for the core after free(): every call says what happened, at no
// cost to live regulators.
const FREED = new Proxy({}, {
  get: () => () => {
    throw new Error("reins: this Regulator was freed; create or import a new one");
  },
});
let eventTable;

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return "a string";
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}

function str(field, v, max) {
  if (typeof v !== "string") throw new TypeError(`${field}: must be a string, got ${describe(v)}`);
  // UTF-8 is never shorter than UTF-16, so this rejects without copying a
  // huge string into wasm memory (which never shrinks).
  if (max !== undefined && v.length > max) {
    throw new RangeError(`${field}: is at least ${v.length} bytes long; the limit is ${max} bytes`);
  }
  if (!v.isWellFormed()) throw new TypeError(`${field}: contains a lone surrogate (not well-formed UTF-16)`);
  return v;
}
const optStr = (field, v, max) => (v === undefined || v === null ? undefined : str(field, v, max));

function num(field, v) {
  if (typeof v !== "number") throw new TypeError(`${field}: must be a number, got ${describe(v)}`);
  return v;
}
const optNum = (field, v) => (v === undefined || v === null ? undefined : num(field, v));

function bool(field, v) {
  if (typeof v !== "boolean") throw new TypeError(`${field}: must be true or false, got ${describe(v)}`);
  return v;
}

function opts(field, v) {
  if (v === undefined) return {};
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new TypeError(`${field}: must be an object, got ${describe(v)}`);
  }
  return v;
}

const at = (field, v) => (v === undefined ? Date.now() : num(field, v));

function fields() {
  eventTable ??= new Map(JSON.parse(RegulatorCore.eventFields()).map(([t, fs]) => [t, new Set(fs.map((f) => f[0]))]));
  return eventTable;
}

export class Regulator {
  #core;
  #max;

  constructor(options, core) {
    if (options === FROM_CORE) {
      this.#core = core;
    } else {
      const { userId, ...config } = opts("options", options);
      this.#core = new RegulatorCore(str("options.userId", userId), JSON.stringify(config));
    }
    this.#max = this.#core.maxTextBytes();
  }

  /** A regulator restored from `export()` output (or a noos 0.4.1 state). */
  static import(snapshot) {
    return new Regulator(FROM_CORE, RegulatorCore.import(str("snapshot", snapshot)));
  }

  turnStart(message, atMs) {
    this.#core.turnStart(str("turnStart.message", message, this.#max), at("turnStart.atMs", atMs));
  }

  token(logprob, atMs) {
    this.#core.token(logprob === null ? undefined : num("token.logprob", logprob), optNum("token.atMs", atMs));
  }

  tokens(logprobs, options) {
    const { unavailable = 0, atMs } = opts("tokens options", options);
    let batch = logprobs;
    if (!(batch instanceof Float64Array)) {
      if (!Array.isArray(batch)) throw new TypeError(`tokens.logprobs: must be an array of numbers, got ${describe(batch)}`);
      for (let i = 0; i < batch.length; i++) num(`tokens.logprobs[${i}]`, batch[i]);
      batch = Float64Array.from(batch);
    }
    this.#core.tokens(batch, num("tokens.unavailable", unavailable), optNum("tokens.atMs", atMs));
  }

  turnComplete(response, atMs) {
    this.#core.turnComplete(str("turnComplete.response", response, this.#max), at("turnComplete.atMs", atMs));
  }

  cost(usage) {
    const { tokensIn = 0, tokensOut = 0, wallclockMs = 0, usd, provider, atMs } = opts("cost", usage);
    this.#core.cost(
      num("cost.tokensIn", tokensIn),
      num("cost.tokensOut", tokensOut),
      num("cost.wallclockMs", wallclockMs),
      optNum("cost.usd", usd),
      optStr("cost.provider", provider, 256),
      optNum("cost.atMs", atMs),
    );
  }

  qualityFeedback(quality, atMs) {
    this.#core.qualityFeedback(num("qualityFeedback.quality", quality), optNum("qualityFeedback.atMs", atMs));
  }

  userCorrection(message, options) {
    const { correctsLast = true, atMs } = opts("userCorrection options", options);
    this.#core.userCorrection(
      str("userCorrection.message", message, this.#max),
      bool("userCorrection.correctsLast", correctsLast),
      at("userCorrection.atMs", atMs),
    );
  }

  toolCall(name, args, options) {
    const { callId, atMs } = opts("toolCall options", options);
    let json;
    if (args !== undefined) {
      try {
        json = JSON.stringify(args);
      } catch (e) {
        throw new TypeError(`toolCall.args: cannot be written as JSON (${e.message})`);
      }
      if (json === undefined) throw new TypeError(`toolCall.args: cannot be written as JSON (${describe(args)})`);
      // JSON.stringify escapes lone surrogates, so only the length needs checking.
      if (json.length > this.#max) {
        throw new RangeError(`toolCall.args: is at least ${json.length} bytes as JSON; the limit is ${this.#max} bytes`);
      }
    }
    this.#core.toolCall(str("toolCall.name", name, 256), json, optStr("toolCall.callId", callId, 256), optNum("toolCall.atMs", atMs));
  }

  toolResult(name, outcome) {
    const { ok, durationMs = 0, error, result, callId, atMs } = opts("toolResult", outcome);
    this.#core.toolResult(
      str("toolResult.name", name, 256),
      bool("toolResult.ok", ok),
      num("toolResult.durationMs", durationMs),
      optStr("toolResult.error", error, this.#max),
      optStr("toolResult.result", result, this.#max),
      optStr("toolResult.callId", callId, 256),
      optNum("toolResult.atMs", atMs),
    );
  }

  /** Any event as an object: `{ type: "qualityFeedback", quality: 0.3 }`. */
  event(e) {
    if (typeof e !== "object" || e === null || Array.isArray(e)) {
      throw new TypeError(`event: must be an object, got ${describe(e)}`);
    }
    const table = fields();
    const known = table.get(e.type);
    if (known === undefined) {
      throw new TypeError(`event.type: ${JSON.stringify(e.type) ?? describe(e.type)} is not an event type; expected one of ${[...table.keys()].join(", ")}`);
    }
    for (const key of Object.keys(e)) {
      if (key !== "type" && !known.has(key)) throw new TypeError(`${e.type}.${key}: is not a field of this event`);
    }
    switch (e.type) {
      case "turnStart": return this.turnStart(e.message, e.atMs);
      case "token": return this.token(e.logprob, e.atMs);
      case "tokens": return this.tokens(e.logprobs, { unavailable: e.unavailable, atMs: e.atMs });
      case "turnComplete": return this.turnComplete(e.response, e.atMs);
      case "cost": return this.cost(e);
      case "qualityFeedback": return this.qualityFeedback(e.quality, e.atMs);
      case "userCorrection": return this.userCorrection(e.message, { correctsLast: e.correctsLast, atMs: e.atMs });
      case "toolCall": return this.toolCall(e.name, e.args, { callId: e.callId, atMs: e.atMs });
      case "toolResult": return this.toolResult(e.name, e);
    }
  }

  /** Pure: the same state gives the same decision. */
  decide() {
    const json = this.#core.decideJson();
    if (json === undefined) return CONTINUE;
    const concerns = JSON.parse(json);
    return { ...concerns[0], concerns };
  }

  export() {
    return this.#core.export();
  }

  merge(snapshot) {
    this.#core.merge(str("snapshot", snapshot));
  }

  injectCorrections(prompt) {
    return this.#core.injectCorrections(str("prompt", prompt, this.#max));
  }

  correctionsPrelude() {
    return this.#core.correctionsPrelude() ?? null;
  }

  preferences() {
    return JSON.parse(this.#core.preferencesJson());
  }

  metrics() {
    return JSON.parse(this.#core.metricsJson());
  }

  toolCounts() {
    return JSON.parse(this.#core.toolCountsJson());
  }

  corrections() {
    return JSON.parse(this.#core.correctionsJson());
  }

  confidence() {
    return this.#core.confidence();
  }

  logprobCoverage() {
    return this.#core.logprobCoverage();
  }

  driftScore() {
    return this.#core.driftScore() ?? null;
  }

  get topic() {
    return this.#core.topic();
  }

  get userId() {
    return this.#core.userId();
  }

  get config() {
    return JSON.parse(this.#core.configJson());
  }

  setConfig(options) {
    const { userId, ...config } = opts("options", options);
    if (userId !== undefined && userId !== this.userId) {
      throw new RangeError("options.userId: a regulator's user cannot change");
    }
    this.#core.setConfig(JSON.stringify({ ...this.config, ...config }));
    this.#max = this.#core.maxTextBytes();
  }

  resetSession() {
    this.#core.resetSession();
  }

  free() {
    if (this.#core !== FREED) this.#core.free();
    this.#core = FREED;
  }

  [Symbol.dispose]() {
    this.free();
  }
}
