// The same app through `reins/slim`, which has no top-level await: the app
// imports the .wasm as a URL (esbuild: --loader:.wasm=file) and calls init().
import { init, Regulator } from "reins/slim";
import wasmUrl from "reins/reins_core_bg.wasm";

init({ module_or_path: wasmUrl }).then(() => {
  const r = new Regulator({ userId: "b", toolLoopThreshold: 3 });
  r.turnStart("find the config file", 1_000);
  for (let i = 0; i < 4; i++) {
    r.toolCall("search", { q: "config" }, { atMs: 2_000 + i });
    r.toolResult("search", { ok: true, durationMs: 1, atMs: 2_000 + i });
  }
  const d = r.decide();
  document.getElementById("out").textContent = `${d.kind}:${d.reason?.kind ?? ""}`;
  document.title = "done";
});
