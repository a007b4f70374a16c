// Replay from JS: recorded runs read, replayed and swept by the core (see
// src/replay/); this layer only turns values into JSON text and back.
import { RegulatorCore, Replayer, importTraces as coreImport, oracleDemand as coreDemand, oracleGap as coreGap } from "./reins_replay.js";

const OWN = new Set(["estimateTokens"]);

/** An error naming its field, with the `code` the core gives that field (as every error of the package has). */
function fail(Kind, message) {
  return Object.assign(new Kind(message), { code: RegulatorCore.errorCode(message.slice(0, message.indexOf(":")), message) });
}

/** Regulator options as the core's JSON (without ours), and whether to estimate spend. */
function settings(options) {
  if (options === undefined) return ["{}", true];
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw fail(TypeError, "options: must be an object");
  const config = {};
  for (const [k, v] of Object.entries(options)) if (!OWN.has(k) && v !== undefined) config[k] = v;
  const estimate = options.estimateTokens ?? true;
  if (typeof estimate !== "boolean") throw fail(TypeError, "options.estimateTokens: must be true or false");
  return [text("options", config), estimate];
}

function text(field, value) {
  if (typeof value === "string") return value;
  try {
    const t = JSON.stringify(value);
    if (t !== undefined) return t;
  } catch (e) {
    throw fail(TypeError, `${field}: cannot be written as JSON (${e.message})`);
  }
  throw fail(TypeError, `${field}: must be JSON data`);
}

/** Whether `v` is in the trace format already. */
const isTrace = (v) => typeof v === "object" && v !== null && v.format === "reins.trace";

/**
 * Recorded runs of any supported kind (file text, or the parsed value) in
 * the trace format: `{ traces, problems }`.
 */
export function importTraces(input, { name = "run", estimateTokens = true } = {}) {
  if (typeof name !== "string" || name === "") throw fail(TypeError, "importTraces.name: must be a non-empty string");
  return JSON.parse(coreImport(text("input", input), name, estimateTokens === true));
}

/** Adds `input` (traces, or a run of any kind) to `r`; the reports and problems. */
function add(r, input, detail) {
  const list = Array.isArray(input) && input.every(isTrace) ? input : isTrace(input) ? [input] : undefined;
  if (list !== undefined) return { reports: JSON.parse(r.addTraces(text("traces", list), detail)), problems: [] };
  return JSON.parse(r.addFile(text("input", input), "run", detail));
}

/**
 * What reins would have decided on one recorded run: per-turn decisions,
 * the first circuit break, what halting there would have saved.
 */
export function replay(trace, options) {
  const r = new Replayer(...settings(options));
  try {
    const { reports, problems } = add(r, trace, true);
    if (problems.length) throw fail(TypeError, `trace: ${problems[0].at} ${problems[0].message}`);
    if (reports.length !== 1) throw fail(TypeError, `trace: holds ${reports.length} runs; replayMany replays several`);
    return reports[0];
  } finally {
    r.free();
  }
}

/** Many recorded runs: each one's report, and the figures over all of them. */
export function replayMany(traces, options) {
  const r = new Replayer(...settings(options));
  try {
    const { reports, problems } = add(r, traces, false);
    return { reports, summary: JSON.parse(r.summary()), problems };
  } finally {
    r.free();
  }
}

/**
 * The runs replayed under each combination of `grid` (option → values to
 * try) over `options`: the points with their figures, the Pareto frontier first.
 */
export function sweep(traces, grid, options) {
  const [base, estimate] = settings(options);
  const r = new Replayer("{}", estimate);
  try {
    const { problems } = add(r, traces, false);
    if (problems.length) throw fail(TypeError, `traces: ${problems[0].at} ${problems[0].message}`);
    return JSON.parse(r.sweep(base, text("grid", grid)));
  } finally {
    r.free();
  }
}


function whole(field, v, fallback) {
  if (v === undefined && fallback !== undefined) return fallback;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw fail(RangeError, `${field}: must be a whole number of at least 0, got ${String(v)}`);
  return v;
}

/**
 * For each message of a chat (an OpenAI message array, or a trace), the
 * earlier messages referenced within the next `horizon` messages.
 */
export function oracleDemand(messages, { horizon } = {}) {
  return JSON.parse(coreDemand(text("messages", messages), whole("oracleDemand.horizon", horizon, 3)));
}

/**
 * Faults of a context keep-policy (`"recent:N"`, `"incremental"`, or
 * `(t, candidates) => kept`) against the look-ahead oracle under the same
 * token budget, and the faults no policy could avoid.
 */
export function oracleGap(messages, policy, { horizon, budgetTokens } = {}) {
  const h = whole("oracleGap.horizon", horizon, 3);
  const budget = whole("oracleGap.budgetTokens", budgetTokens);
  if (typeof policy === "function") return JSON.parse(coreGap(text("messages", messages), "", h, budget, (t, pool) => policy(t, [...pool])));
  if (typeof policy !== "string") throw fail(TypeError, "oracleGap.policy: must be \"recent:N\", \"incremental\" or a function");
  return JSON.parse(coreGap(text("messages", messages), policy, h, budget));
}
