// The /slim entry: the caller instantiates the module.
import { initSync, init, Regulator, type InitInput, type InitOutput, type SyncInitInput } from "reins/slim";
import type * as generated from "../../pkg/reins_core.js";

declare const bytes: Uint8Array;
declare const module: WebAssembly.Module;
initSync({ module });
await init({ module_or_path: bytes });
await init({ module_or_path: new URL("https://example.com/reins_core_bg.wasm") });
await init({ module_or_path: fetch("/reins_core_bg.wasm") });
const memory: WebAssembly.Memory = initSync({ module: bytes }).memory;
const same: InitOutput["memory"] = memory;
same;
new Regulator({ userId: "a" }).decide().kind satisfies "continue" | "circuitBreak" | "incident" | "toolNudge" | "scopeDrift" | "procedural";

// slim.d.ts spells out the init types without DOM names: with the DOM lib
// they must accept whatever wasm-bindgen's generated ones accept.
const syncInput = (x: generated.SyncInitInput): SyncInitInput => x;
const input = (x: generated.InitInput): InitInput => x;
const output = (x: generated.InitOutput): InitOutput => x;
const initSyncArg = (x: Parameters<typeof generated.initSync>[0]): Parameters<typeof initSync>[0] => x;
const initArg = (x: Parameters<typeof generated.default>[0]): Parameters<typeof init>[0] => x;
syncInput;
input;
output;
initSyncArg;
initArg;
export {};
