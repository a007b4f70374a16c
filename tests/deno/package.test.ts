// Imports the package by name, as a Deno app with a node_modules dir would:
// node_modules/reins here is a committed symlink to pkg/ (no network). This
// exercises pkg/package.json's `exports` (Deno picks the `deno` condition)
// and `types` (this file is type-checked against index.d.ts).
import { type Decision, Regulator } from "reins";
import { runScenario } from "../shared/scenario.mjs";

Deno.test("bare 'reins' resolves via the deno condition to entry-node.js", () => {
  const resolved = import.meta.resolve("reins");
  if (!resolved.endsWith("/entry-node.js")) throw new Error(`resolved to ${resolved}`);
  const { failures } = runScenario(Regulator);
  if (failures.length) throw new Error(failures.join("\n"));
});

Deno.test("typed event flow narrows on the decision kind", () => {
  const r = new Regulator({ userId: "deno", toolLoopThreshold: 2 });
  r.event({ type: "turnStart", message: "list files", atMs: 1 });
  for (const callId of ["a", "b"]) {
    r.event({ type: "toolCall", name: "ls", args: { dir: "/" }, callId });
    r.event({ type: "toolResult", name: "ls", ok: true, callId });
  }
  const d: Decision = r.decide();
  if (d.kind !== "circuitBreak" || d.reason.kind !== "toolLoop" || d.reason.count !== 2) {
    throw new Error(JSON.stringify(d));
  }
  r.free();
});
