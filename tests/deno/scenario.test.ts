// Deno through the Node/Deno entry (readFileSync + initSync). Deno runs each
// test file in its own isolate, so each entry file here loads the wasm itself
// rather than reusing an instance another file already initialised.
// Types from the package's index.d.ts: the sibling entry .d.ts re-exports
// "./index.js", which Deno (no .js→.d.ts mapping) can't resolve by path.
// @ts-types="reins"
import { Regulator } from "../../pkg/entry-node.js";
import { runScenario } from "../shared/scenario.mjs";

Deno.test("entry-node.js: the shared scenario gets the expected decisions", () => {
  const { failures, seen } = runScenario(Regulator);
  if (failures.length) throw new Error(failures.join("\n"));
  if (seen.length < 12) throw new Error(`only ${seen.length} decisions seen`);
});

Deno.test("`using` frees the regulator (Deno has explicit resource management)", () => {
  let kept: Regulator;
  {
    using r = new Regulator({ userId: "u" });
    r.turnStart("hello", 1);
    kept = r;
  }
  let threw = false;
  try {
    kept.decide();
  } catch {
    threw = true;
  }
  if (!threw) throw new Error("a disposed regulator still answered");
});
