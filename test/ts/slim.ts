// The /slim entry: the caller instantiates the module.
import { initSync, init, Regulator } from "reins/slim";

declare const bytes: Uint8Array;
declare const module: WebAssembly.Module;
initSync({ module });
await init({ module_or_path: bytes });
new Regulator({ userId: "a" }).decide().kind satisfies "continue" | "circuitBreak" | "incident" | "toolNudge" | "scopeDrift" | "procedural";
export {};
