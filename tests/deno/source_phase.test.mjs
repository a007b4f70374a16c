// Deno-only loading path: a source-phase import gives a WebAssembly.Module
// (as workerd's .wasm import does), handed to slim.js's initSync. Plain JS
// because TypeScript can't parse `import source` yet.
import source wasm from "../../pkg/reins_core_bg.wasm";
import { initSync, Regulator } from "../../pkg/slim.js";
import { runScenario } from "../shared/scenario.mjs";

Deno.test("slim.js + `import source` wasm: the shared scenario passes", () => {
  if (!(wasm instanceof WebAssembly.Module)) throw new Error("not a WebAssembly.Module");
  initSync({ module: wasm });
  const { failures } = runScenario(Regulator);
  if (failures.length) throw new Error(failures.join("\n"));
});
