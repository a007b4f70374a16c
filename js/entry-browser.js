// Browsers (and Deno): fetch and instantiate the module next to this file.
/* @ts-self-types="./index.d.ts" */
import init from "./reins_core.js";

await init({ module_or_path: new URL("./reins_core_bg.wasm", import.meta.url) });
export * from "./api.js";
