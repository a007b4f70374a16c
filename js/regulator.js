// The JS face of reins: a thin wrapper over the wasm core. It checks JS types
// and sizes before anything crosses (the core checks values), fills `atMs`
// from Date.now() where time matters, stringifies tool arguments and options,
// and returns one shared frozen object on the continue path so the hot
// `decide()` builds nothing.
/* @ts-self-types="./index.d.ts" */
import { RegulatorCore } from "./reins_core.js";
import { FORGET, MERGE_BEHIND, REVISION } from "./hidden.js";

const CONTINUE = Object.freeze({ kind: "continue", concerns: Object.freeze([]) });
const FROM_CORE = Symbol("reins.fromCore");
// Stands in for the core after free(): every call says what happened, at no
// cost to live regulators.
const FREED = new Proxy({}, {
  get: () => () => {
    throw Object.assign(new Error("reins: this Regulator was freed; create or import a new one"), { code: "REINS_FREED" });
  },
});
// Nesting the core accepts in tool arguments (event.rs MAX_ARGS_DEPTH).
const MAX_DEPTH = 64;
// Inputs at least this long (UTF-16 units) are preceded by a memory check.
const CHECK_MEMORY_FROM = 64 * 1024;
// Wasm memory a text may need while it is read, per UTF-16 unit of it, at
// most: a user message 26 bytes (normalised copies, offsets, word lists;
// a CJK character is 3 bytes), any other text 8. Measured on the families
// of benches/hostile.mjs; the check grows memory by this much for good.
const MESSAGE_WORK = 32;
const TEXT_WORK = 8;
// Messages, answers, snapshots and chat bodies cross as UTF-8 bytes: one
// block copy, where a string parameter is copied by a loop over its
// characters in JS (1.7 µs for a 1.6 KB answer; 0.1 µs as bytes). They are
// encoded into one reused buffer (`encode` allocates and zeroes a new one
// each time, 5× the cost), up to SCRATCH_MAX bytes; longer texts get their own.
const UTF8 = new TextEncoder();
const SCRATCH_MAX = 512 * 1024;
let scratch = new Uint8Array(0);
let eventTable;
let limits;

function describe(v) {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string": return "a string";
    case "object": return "an object";
    case "function": return "a function";
    case "symbol": return "a symbol";
    case "bigint": return `a BigInt (${v}n)`;
    default: return `${typeof v} ${String(v)}`;
  }
}

// Errors this layer makes, told from whatever a getter or Proxy throws.
// Each carries the `code` the core gives the field it names.
const OURS = new WeakSet();
function ours(e, code) {
  e.code = code ?? RegulatorCore.errorCode(e.message.slice(0, e.message.indexOf(":")), e.message);
  OURS.add(e);
  return e;
}
const typeError = (message) => ours(new TypeError(message));
const rangeError = (message, code) => ours(new RangeError(message), code);

function str(field, v, max, work = TEXT_WORK) {
  if (v === undefined) throw typeError(`${field}: is required (a string)`);
  if (typeof v !== "string") throw typeError(`${field}: must be a string, got ${describe(v)}`);
  // UTF-8 is never shorter than UTF-16, so this rejects without copying a
  // huge string into wasm memory (which never shrinks).
  if (max !== undefined && v.length > max) {
    throw rangeError(`${field}: is at least ${v.length} bytes long; the limit is ${max} bytes`);
  }
  if (!v.isWellFormed()) throw typeError(`${field}: contains a lone surrogate (not well-formed UTF-16)`);
  room(field, v.length, work);
  return v;
}
const optStr = (field, v, max) => (v === undefined || v === null ? undefined : str(field, v, max));

/**
 * Makes sure the module's memory can grow to read `units` of input before
 * they cross: an allocation that fails inside wasm traps the instance for
 * good; one refused here is a RangeError and changes nothing.
 */
function room(field, units, perUnit) {
  if (perUnit > 0 && units >= CHECK_MEMORY_FROM && !RegulatorCore.reserve(units * perUnit)) {
    throw rangeError(`${field}: the module cannot grow its memory to read ${units} more bytes; nothing was changed`, "REINS_OUT_OF_MEMORY");
  }
}

function num(field, v) {
  if (typeof v !== "number") throw typeError(`${field}: must be a number, got ${describe(v)}`);
  return v;
}
const optNum = (field, v) => (v === undefined || v === null ? undefined : num(field, v));

function bool(field, v) {
  if (typeof v !== "boolean") throw typeError(`${field}: must be true or false, got ${describe(v)}`);
  return v;
}

function opts(field, v) {
  if (v === undefined) return {};
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw typeError(`${field}: must be an object, got ${describe(v)}`);
  }
  return v;
}

/** The options object of `method`, whose only option is `name`. */
function oneOption(method, options, name) {
  const o = opts(`${method} options`, options);
  for (const key in o) {
    if (key !== name) throw typeError(`${method}.${key}: is not an option; expected ${name}`);
  }
  return o;
}

/** The decision the core's JSON says (`undefined`: continue). */
function decision(json) {
  if (json === undefined) return CONTINUE;
  const concerns = JSON.parse(json);
  return { ...concerns[0], concerns };
}

/** What a concern is about, without the counts that grow while it stands. */
function identity(c) {
  switch (c.kind) {
    case "circuitBreak":
      return `${c.kind}:${c.reason.kind}:${c.reason.toolName ?? c.reason.topic ?? ""}`;
    case "toolNudge":
      return `${c.kind}:${c.toolName}:${c.pattern}`;
    case "scopeDrift":
      return `${c.kind}:${c.cause}`;
    case "incident":
      return `${c.kind}:${c.topic}`;
    case "procedural":
      return `${c.kind}:${c.patterns.map((p) => p.topic).join(",")}`;
    default:
      return c.kind;
  }
}

const at = (field, v) => (v === undefined ? Date.now() : num(field, v));

/** `text` as UTF-8, valid until the next call (the core copies it at once). */
function utf8(text) {
  const need = 3 * text.length;
  if (need > SCRATCH_MAX) return UTF8.encode(text);
  if (scratch.length < need) scratch = new Uint8Array(Math.min(SCRATCH_MAX, Math.max(need, 2 * scratch.length)));
  return scratch.subarray(0, UTF8.encodeInto(text, scratch).written);
}

/** The core's event table: type → field names. */
function fields() {
  eventTable ??= new Map(JSON.parse(RegulatorCore.eventFields()).map(([t, fs]) => [t, new Set(fs.map((f) => f[0]))]));
  return eventTable;
}

function sizes() {
  limits ??= { snapshot: RegulatorCore.maxSnapshotBytes(), config: RegulatorCore.maxConfigBytes(), chat: RegulatorCore.maxChatBytes() };
  return limits;
}

/** `tokens_out`, `duration`, `correctLast`: the field meant, if one is spelled alike. */
function meant(key, known) {
  const plain = (k) => k.replaceAll("_", "").toLowerCase();
  const p = plain(key);
  for (const k of known) {
    const q = plain(k);
    if (q === p || (p.length >= 4 && q.startsWith(p)) || edits(p, q) <= 1) return `; did you mean ${k}?`;
  }
  return "";
}

/** Edit distance of two short strings, capped at 2 (longer ones: 2). */
function edits(a, b) {
  if (Math.abs(a.length - b.length) > 1 || a.length > 40) return 2;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return Math.min(prev[b.length], 2);
}

/**
 * Rejects a key of `o` that is not a field of event `type`, or is one of
 * `taken` (fields a direct method takes as arguments, or `"type"` for
 * `event()`, which is allowed there and not a field).
 */
function onlyFields(type, o, taken, allowType = false) {
  const known = fields().get(type);
  // for-in, not Object.keys: no array per call on the hot path; it also
  // sees inherited keys, which destructuring reads too.
  for (const key in o) {
    if (allowType && key === "type") continue;
    if (!known.has(key) || (taken !== undefined && taken.includes(key))) {
      throw typeError(`${type}.${key}: is not a field of this event${meant(key, known)}`);
    }
  }
}

/**
 * Where `v` holds something JSON would silently change or drop: a number
 * that is not finite (written as null), a function or symbol (dropped), a
 * BigInt (JSON.stringify throws a message naming no field), or more nesting
 * than the core reads (a cycle, too). Returns [error class, what, keys
 * from `v` to the spot, too deep?] or undefined.
 */
function unwritable(v, depth) {
  switch (typeof v) {
    case "string":
    case "boolean":
    case "undefined":
      return undefined;
    case "number":
      return Number.isFinite(v) ? undefined : [RangeError, `must be a finite number, got ${v}`, []];
    case "object": {
      if (v === null || typeof v.toJSON === "function") return undefined;
      if (depth >= MAX_DEPTH) return [RangeError, `nests deeper than ${MAX_DEPTH} levels`, [], true];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const bad = unwritable(v[i], depth + 1);
          if (bad) return (bad[2].unshift(i), bad);
        }
        return undefined;
      }
      for (const key in v) {
        // Own keys only, as JSON.stringify writes them.
        if (!Object.hasOwn(v, key)) continue;
        const bad = unwritable(v[key], depth + 1);
        if (bad) return (bad[2].unshift(key), bad);
      }
      return undefined;
    }
    default:
      return [TypeError, `cannot be written as JSON (${describe(v)})`, []];
  }
}

/**
 * Where nesting too deep is a cycle: the keys, along the too-deep path
 * `keys`, to the first object that contains itself (undefined when none
 * repeats). Reads only that path.
 */
function cycle(v, keys) {
  const seen = [];
  for (let i = 0; i < keys.length; i++) {
    if (seen.includes(v)) return keys.slice(0, i);
    seen.push(v);
    v = v[keys[i]];
  }
  return seen.includes(v) ? keys : undefined;
}

const pathText = (keys) => keys.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("");

/** `v` as JSON text of at most `max` units, or a TypeError/RangeError naming the field. */
function json(field, v, max) {
  let text;
  try {
    const bad = unwritable(v, 0);
    if (bad) {
      const loop = bad[3] ? cycle(v, bad[2]) : undefined;
      const [Kind, what, keys] = loop ? [TypeError, "contains itself (a cycle)", loop] : bad;
      const where = keys.length > 8 ? `${pathText(keys.slice(0, 4))}…${pathText(keys.slice(-2))}` : pathText(keys);
      throw ours(new Kind(`${field}${where}: ${what}`));
    }
    text = JSON.stringify(v);
  } catch (e) {
    // A getter, Proxy trap or toJSON that threw: say where, as a TypeError.
    if (OURS.has(e)) throw e;
    throw typeError(`${field}: cannot be written as JSON (${e?.message ?? String(e)})`);
  }
  if (text === undefined) throw typeError(`${field}: cannot be written as JSON (${describe(v)})`);
  // JSON.stringify escapes lone surrogates, so only the length needs checking.
  if (text.length > max) {
    throw rangeError(`${field}: is at least ${text.length} bytes as JSON; the limit is ${max} bytes`);
  }
  room(field, text.length, TEXT_WORK);
  return text;
}

/** A chat request's messages or a response body as JSON text. */
const chatText = (field, v) => (typeof v === "string" ? str(field, v, sizes().chat) : json(field, v, sizes().chat));

/** Options as the core's JSON: `undefined` means not given. */
function optionsJson(options) {
  const given = {};
  for (const key of Object.keys(options)) if (options[key] !== undefined) given[key] = options[key];
  return json("options", given, sizes().config);
}

export class Regulator {
  #core;
  #max;

  constructor(options, core) {
    if (options === FROM_CORE) {
      this.#core = core;
    } else {
      const { userId, ...config } = opts("options", options);
      const id = str("options.userId", userId, 256);
      this.#core = new RegulatorCore(id, optionsJson(config));
    }
    this.#max = this.#core.maxTextBytes();
  }

  /** A regulator restored from `export()` output (or a noos 0.4.1 state). */
  static import(snapshot) {
    const text = str("snapshot", snapshot, sizes().snapshot);
    return new Regulator(FROM_CORE, RegulatorCore.import(utf8(text)));
  }

  /**
   * A regulator under `options` (the app's current ones) with a fresh
   * session, holding the user's memory from `exportMemory()` (or `export()`)
   * output. The snapshot must be `options.userId`'s.
   */
  static restore(snapshot, options) {
    const text = str("snapshot", snapshot, sizes().snapshot);
    const { userId, ...config } = opts("options", options);
    const id = str("options.userId", userId, 256);
    return new Regulator(FROM_CORE, RegulatorCore.restore(id, optionsJson(config), utf8(text)));
  }

  // Every method computes its arguments before it reads `this.#core`: a
  // getter or toJSON may call free(), and the call must then fail as "freed".

  turnStart(message, atMs) {
    const m = str("turnStart.message", message, this.#max, MESSAGE_WORK);
    const t = at("turnStart.atMs", atMs);
    this.#core.turnStart(utf8(m), t);
  }

  token(logprob, atMs) {
    const lp = logprob === null ? undefined : num("token.logprob", logprob);
    const t = optNum("token.atMs", atMs);
    this.#core.token(lp, t);
  }

  tokens(logprobs, options) {
    const o = opts("tokens options", options);
    onlyFields("tokens", o, ["logprobs"]);
    this.#tokens(logprobs, o.unavailable, o.atMs);
  }

  #tokens(logprobs, unavailable = 0, atMs) {
    let batch = logprobs;
    const isTyped = batch instanceof Float64Array;
    if (!isTyped && !Array.isArray(batch)) {
      throw typeError(`tokens.logprobs: must be an array of numbers, got ${describe(batch)}`);
    }
    // Checked before anything is copied: a typed array of 2^28 entries
    // would not fit in the module's memory at all.
    if (batch.length > this.#max) {
      throw rangeError(`tokens.logprobs: has ${batch.length} entries; the limit is ${this.#max}`);
    }
    if (!isTyped) {
      for (let i = 0; i < batch.length; i++) num(`tokens.logprobs[${i}]`, batch[i]);
      batch = Float64Array.from(batch);
    }
    room("tokens.logprobs", batch.length, 16);
    const u = num("tokens.unavailable", unavailable);
    const t = optNum("tokens.atMs", atMs);
    this.#core.tokens(batch, u, t);
  }

  turnComplete(response, atMs) {
    const r = str("turnComplete.response", response, this.#max);
    const t = at("turnComplete.atMs", atMs);
    this.#core.turnComplete(utf8(r), t);
  }

  cost(usage) {
    const o = opts("cost", usage);
    onlyFields("cost", o);
    this.#cost(o);
  }

  #cost({ tokensIn = 0, tokensOut = 0, wallclockMs = 0, usd, provider, atMs }) {
    const a = num("cost.tokensIn", tokensIn);
    const b = num("cost.tokensOut", tokensOut);
    const c = num("cost.wallclockMs", wallclockMs);
    const d = optNum("cost.usd", usd);
    const p = optStr("cost.provider", provider, 256);
    const t = optNum("cost.atMs", atMs);
    this.#core.cost(a, b, c, d, p, t);
  }

  qualityFeedback(quality, atMs) {
    const q = num("qualityFeedback.quality", quality);
    const t = optNum("qualityFeedback.atMs", atMs);
    this.#core.qualityFeedback(q, t);
  }

  userCorrection(message, options) {
    const o = opts("userCorrection options", options);
    onlyFields("userCorrection", o, ["message"]);
    this.#userCorrection(message, o.correctsLast, o.atMs);
  }

  #userCorrection(message, correctsLast = true, atMs) {
    const m = str("userCorrection.message", message, this.#max);
    const c = bool("userCorrection.correctsLast", correctsLast);
    const t = at("userCorrection.atMs", atMs);
    this.#core.userCorrection(utf8(m), c, t);
  }

  toolCall(name, args, options) {
    const o = opts("toolCall options", options);
    onlyFields("toolCall", o, ["name", "args"]);
    this.#toolCall(name, args, o);
  }

  #toolCall(name, args, o) {
    const a = args === undefined ? undefined : json("toolCall.args", args, this.#max);
    const n = str("toolCall.name", name, 256);
    const id = optStr("toolCall.callId", o.callId, 256);
    const se = o.sideEffect === undefined ? undefined : bool("toolCall.sideEffect", o.sideEffect);
    const ro = o.readOnly === undefined ? undefined : bool("toolCall.readOnly", o.readOnly);
    const t = optNum("toolCall.atMs", o.atMs);
    this.#core.toolCall(n, a, id, se, ro, t);
  }

  toolResult(name, outcome) {
    const o = opts("toolResult", outcome);
    onlyFields("toolResult", o, ["name"]);
    this.#toolResult(name, o);
  }

  #toolResult(name, { ok, durationMs = 0, error, result, callId, atMs }) {
    const n = str("toolResult.name", name, 256);
    const k = bool("toolResult.ok", ok);
    const d = num("toolResult.durationMs", durationMs);
    const e = optStr("toolResult.error", error, this.#max);
    // Tools return objects as often as text: the JSON of one is its text.
    const r =
      typeof result === "object" && result !== null
        ? json("toolResult.result", result, this.#max)
        : optStr("toolResult.result", result, this.#max);
    const id = optStr("toolResult.callId", callId, 256);
    const t = optNum("toolResult.atMs", atMs);
    this.#core.toolResult(n, k, d, e, r, id, t);
  }

  /** Any event as an object: `{ type: "qualityFeedback", quality: 0.3 }`. */
  event(e) {
    if (typeof e !== "object" || e === null || Array.isArray(e)) {
      throw typeError(`event: must be an object, got ${describe(e)}`);
    }
    const table = fields();
    const known = table.get(e.type);
    if (known === undefined) {
      throw typeError(`event.type: ${JSON.stringify(e.type) ?? describe(e.type)} is not an event type; expected one of ${[...table.keys()].join(", ")}`);
    }
    onlyFields(e.type, e, undefined, true);
    switch (e.type) {
      case "turnStart": return this.turnStart(e.message, e.atMs);
      case "token": return this.token(e.logprob, e.atMs);
      case "tokens": return this.#tokens(e.logprobs, e.unavailable, e.atMs);
      case "turnComplete": return this.turnComplete(e.response, e.atMs);
      case "cost": return this.#cost(e);
      case "qualityFeedback": return this.qualityFeedback(e.quality, e.atMs);
      case "userCorrection": return this.#userCorrection(e.message, e.correctsLast, e.atMs);
      case "toolCall": return this.#toolCall(e.name, e.args, e);
      case "toolResult": return this.#toolResult(e.name, e);
    }
  }

  /**
   * Pure: the same state gives the same decision. With `{ changedOnly:
   * true }`, the decision only when what is decided changed since the last
   * such call (another kind, reason, tool, cause or topic; not a count that
   * grew), else `null`: an app or adapter hears each one once.
   */
  decide(options) {
    const json = this.#core.decideJson();
    return options === undefined ? decision(json) : this.#changed(json, options);
  }

  #heard = "";
  #heardJson;

  #changed(json, options) {
    const o = oneOption("decide", options, "changedOnly");
    if (o.changedOnly === undefined || !bool("decide.changedOnly", o.changedOnly)) return decision(json);
    if (json === this.#heardJson) return null;
    this.#heardJson = json;
    const d = decision(json);
    const key = d.concerns.map(identity).join("|");
    if (key === this.#heard) return null;
    this.#heard = key;
    return d;
  }

  export() {
    return this.#core.export();
  }

  /** The user's memory alone, without the running task: what an app persists. */
  exportMemory(options) {
    const o = oneOption("exportMemory", options, "texts");
    const texts = o.texts === undefined ? true : bool("exportMemory.texts", o.texts);
    return this.#core.exportMemory(texts);
  }

  [REVISION]() {
    return this.#core.memoryRevision();
  }

  /** Merges `snapshot`; whether it lacks part of the merged memory. */
  [MERGE_BEHIND](snapshot, texts) {
    return this.#core.mergeBehind(utf8(str("snapshot", snapshot, sizes().snapshot)), texts);
  }

  [FORGET]() {
    this.#core.forgetMemory();
  }

  merge(snapshot) {
    const text = str("snapshot", snapshot, sizes().snapshot);
    this.#core.merge(utf8(text));
  }

  injectCorrections(prompt, options) {
    // Checked as every text is, but never copied into the module (no work
    // there, so no room to make): the core gives what goes in front, and a
    // 1 MB prompt is joined to it, not copied in and out.
    const p = str("prompt", prompt, this.#max, 0);
    const o = oneOption("injectCorrections", options, "into");
    const into = o.into ?? "request";
    if (into !== "request" && into !== "system") {
      throw typeError(`injectCorrections.into: must be "request" or "system", got ${describe(into)}`);
    }
    if (into === "system") {
      // A system prompt is the app's instructions, not the user's request:
      // it stays first, and the corrections follow it as context.
      const prelude = this.#core.correctionsPrelude();
      return prelude === undefined ? p : `${p}\n\n${prelude}`;
    }
    const head = this.#core.injectionHead();
    return head === undefined ? p : head + p;
  }

  correctionsPrelude() {
    return this.#core.correctionsPrelude() ?? null;
  }

  preferences() {
    return JSON.parse(this.#core.preferencesJson());
  }

  learnedRules() {
    return JSON.parse(this.#core.learnedRulesJson());
  }

  dismissRule(id, atMs) {
    const text = str("id", id, 64);
    return this.#core.dismissRule(text, at("atMs", atMs));
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

  /** New thresholds over the current ones; an option left `undefined` stays as it is. */
  setConfig(options) {
    const { userId, ...config } = opts("options", options);
    const text = optionsJson(config);
    if (userId !== undefined && userId !== this.userId) {
      throw rangeError("options.userId: a regulator's user cannot change");
    }
    const merged = JSON.stringify({ ...this.config, ...JSON.parse(text) });
    this.#core.setConfig(merged);
    this.#max = this.#core.maxTextBytes();
  }

  resetSession() {
    this.#core.resetSession();
  }

  /**
   * One chat-completions request's `messages` (an array, or its JSON text):
   * a regulator that has seen nothing of this session catches up on the
   * conversation so far without learning from it again; then the messages
   * after the last answer are fed.
   */
  chatRequest(messages, options) {
    const text = chatText("chatRequest.messages", messages);
    const t = at("chatRequest.atMs", oneOption("chatRequest", options, "atMs").atMs);
    this.#core.chatRequest(utf8(text), t);
  }

  /** One chat-completions response body (an object, or its JSON text): the answer, its tool calls, its usage. */
  chatResponse(body, options) {
    const text = chatText("chatResponse.body", body);
    const o = opts("chatResponse options", options);
    for (const key in o) {
      if (key !== "atMs" && key !== "durationMs") throw typeError(`chatResponse.${key}: is not an option; expected atMs or durationMs`);
    }
    const t = at("chatResponse.atMs", o.atMs);
    const d = o.durationMs === undefined ? 0 : num("chatResponse.durationMs", o.durationMs);
    this.#core.chatResponse(utf8(text), t, d);
  }

  free() {
    if (this.#core !== FREED) this.#core.free();
    this.#core = FREED;
  }

  [Symbol.dispose]() {
    this.free();
  }
}
