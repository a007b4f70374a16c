// The app each bundler builds: the plain import of the package, a tool loop,
// and the decision written into the page (test/bundlers/run.mjs reads it).
import { Regulator } from "reins";

const r = new Regulator({ userId: "b", toolLoopThreshold: 3 });
r.turnStart("find the config file", 1_000);
for (let i = 0; i < 4; i++) {
  r.toolCall("search", { q: "config" }, { atMs: 2_000 + i });
  r.toolResult("search", { ok: true, durationMs: 1, atMs: 2_000 + i });
}
const d = r.decide();
document.getElementById("out").textContent = `${d.kind}:${d.reason?.kind ?? ""}`;
document.title = "done";
