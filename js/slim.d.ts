export * from "./index.js";

// The init types of wasm-bindgen's `reins_core.d.ts`, written without DOM
// names (`Response`, `URL`, `RequestInfo`, `BufferSource`,
// `WebAssembly.Module`) so a project with only the ES2022 lib checks them;
// where the project's lib has those globals, the types below are theirs.
// tests/ts/slim.ts checks they accept what the generated ones accept.

type WasmModuleOf = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M : never;
type WasmMemoryOf = typeof globalThis extends { WebAssembly: { Memory: { prototype: infer M } } } ? M : never;
type RequestOf = typeof globalThis extends { Request: { prototype: infer R } } ? R : never;
type ResponseOf = typeof globalThis extends { Response: { prototype: infer R } } ? R : never;
type URLOf = typeof globalThis extends { URL: { prototype: infer U } } ? U : never;

/** The module's bytes, or a compiled `WebAssembly.Module`. */
export type SyncInitInput = ArrayBuffer | ArrayBufferView | WasmModuleOf;
/** `SyncInitInput`, or where to fetch the module: a URL (string or `URL`), a `Request` or a `Response`. */
export type InitInput = SyncInitInput | string | URLOf | RequestOf | ResponseOf;
/** The instantiated module's exports; only `memory` is meant for use outside reins. */
export interface InitOutput {
  readonly memory: WasmMemoryOf;
}

/** Instantiates the module synchronously from its bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;
/** Instantiates the module: fetched when given a URL, `Request` or `Response`, compiled when given bytes. */
export declare function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;

export {};
