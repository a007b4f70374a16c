// Everything the package exports, whichever entry loaded the module.
/* @ts-self-types="./index.d.ts" */
export * from "./regulator.js";
export { StoredRegulator, openRegulator, forget, memoryKey } from "./stored.js";
export * from "./stores.js";
export { StoreError, signSnapshot, verifySnapshot } from "./envelope.js";
