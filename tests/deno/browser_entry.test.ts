// Deno through the browser entry: top-level `await init()` fetches the wasm
// from a file: URL, which Deno allows under --allow-read.
// Types from the package's index.d.ts: the sibling entry .d.ts re-exports
// "./index.js", which Deno (no .js→.d.ts mapping) can't resolve by path.
// @ts-types="reins"
import { Regulator } from "../../pkg/entry-browser.js";
import { runScenario } from "../shared/scenario.mjs";

Deno.test("entry-browser.js: the shared scenario gets the expected decisions", () => {
  const { failures } = runScenario(Regulator);
  if (failures.length) throw new Error(failures.join("\n"));
});
