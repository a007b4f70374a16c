// Node (≥ 18) and Deno: read the module from disk and instantiate synchronously.
/* @ts-self-types="./index.d.ts" */
import { readFileSync } from "node:fs";
import { initSync } from "./reins_core.js";

initSync({ module: readFileSync(new URL("./reins_core_bg.wasm", import.meta.url)) });
export * from "./api.js";
