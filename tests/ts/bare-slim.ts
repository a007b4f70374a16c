// reins/slim in the bare consumer of tsconfig.bare.json: the caller
// instantiates the module from bytes (no DOM: no URL, Request or Response).
import { Regulator, init, initSync } from "reins/slim";

declare const bytes: Uint8Array;
initSync({ module: bytes });
await init({ module_or_path: new ArrayBuffer(8) });
await init({ module_or_path: "https://example.com/reins_core_bg.wasm" });
new Regulator({ userId: "a" }).free();
// Without the DOM lib there is no WebAssembly.Module type to pass, so a number is refused
// (the DOM's WebAssembly.Module is an empty interface: with it, and with wasm-bindgen's types, anything goes).
// @ts-expect-error a module is bytes or where to fetch it
initSync({ module: 42 });
export {};
