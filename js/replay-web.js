// reins/replay in browsers and bundlers: the replay module fetched beside
// this file (top-level await).
/* @ts-self-types="./replay.d.ts" */
import init from "./reins_replay.js";

await init({ module_or_path: new URL("./reins_replay_bg.wasm", import.meta.url) });
export * from "./replay.js";
