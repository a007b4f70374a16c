// Cloudflare Workers: a .wasm import is a precompiled WebAssembly.Module
// (compiling from bytes is not allowed there).
/* @ts-self-types="./index.d.ts" */
import wasmModule from "./reins_core_bg.wasm";
import { initSync } from "./reins_core.js";

initSync({ module: wasmModule });
export * from "./api.js";
