// reins/replay in Node and Deno: the replay module read from disk and
// instantiated synchronously (it is separate from the regulator's module,
// which stays small for browsers and Workers).
/* @ts-self-types="./replay.d.ts" */
import { readFileSync } from "node:fs";
import { initSync } from "./reins_replay.js";

initSync({ module: readFileSync(new URL("./reins_replay_bg.wasm", import.meta.url)) });
export * from "./replay.js";
