// The same app through `reins/slim`, which has no top-level await: the app
// imports the .wasm as a URL (esbuild: --loader:.wasm=file) and calls init().
import { init, Regulator } from "reins/slim";
import wasmUrl from "reins/reins_core_bg.wasm";
import { showLoopDecision } from "./loop.mjs";

init({ module_or_path: wasmUrl }).then(() => showLoopDecision(Regulator));
