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

export function clip(text) {
  return text.length > MAX_RESULT_CHARS ? text.slice(0, MAX_RESULT_CHARS) : text;
}
