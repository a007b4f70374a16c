// For callers who instantiate the module themselves: call `init()` (async,
// from a URL, Response or bytes) or `initSync({ module })` before use.
/* @ts-self-types="./slim.d.ts" */
export { default as init, initSync } from "./reins_core.js";
export * from "./api.js";
