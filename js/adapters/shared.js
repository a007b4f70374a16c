// What the framework adapters share: tool arguments as JSON would make them,
// and tool output kept to the size reins reads.

/** Longest tool output passed on, in characters. */
export const MAX_RESULT_CHARS = 65536;

/** `value` as JSON would make it (`undefined` members dropped), or `undefined`. */
export function toJson(value) {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined; // BigInt, a cycle: the call is still counted, without arguments
  }
}

/** A tool's output or error as text, clipped. */
export function toText(value) {
  let text;
  if (typeof value === "string") text = value;
  else if (value instanceof Error) text = value.message;
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      text = String(value);
    }
  }
  return clip(text ?? "");
}

export function clip(text) {
  return text.length > MAX_RESULT_CHARS ? text.slice(0, MAX_RESULT_CHARS) : text;
}

const armed = new WeakSet();

/**
 * Throw `error` from a handler past LangChain's log line. The callback manager
 * catches what a handler throws and logs `Error in handler …: ${err}` before
 * rethrowing it (`raiseError`); armed for this one tick, the error's string
 * conversion in that line rethrows it, so it reaches the caller unlogged.
 */
export function throwQuiet(error) {
  armed.add(error);
  queueMicrotask(() => armed.delete(error));
  throw error;
}

/** A circuit break, as an error: thrown (or the signal's reason) to stop the run. */
export class ReinsHaltError extends Error {
  constructor(decision) {
    super(`reins: circuit break (${decision.reason.kind}): ${decision.suggestion}`);
    this.name = "ReinsHaltError";
    this.code = "REINS_HALT";
    this.decision = decision;
    this.reason = decision.reason;
  }

  [Symbol.toPrimitive](hint) {
    if (armed.delete(this)) throw this;
    return hint === "number" ? NaN : this.toString();
  }
}
