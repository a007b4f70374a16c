export * from "./index.js";
export { default as init, initSync } from "./reins_core.js";
export type { InitInput, InitOutput, SyncInitInput } from "./reins_core.js";
