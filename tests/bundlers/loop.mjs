// What both apps do with the package: a tool loop, and its decision written
// into the page (tests/bundlers/run.mjs reads it).
export function showLoopDecision(Regulator) {
  const r = new Regulator({ userId: "b", toolLoopThreshold: 3 });
  r.turnStart("find the config file", 1_000);
  for (let i = 0; i < 4; i++) {
    r.toolCall("search", { q: "config" }, { atMs: 2_000 + i });
    r.toolResult("search", { ok: true, durationMs: 1, atMs: 2_000 + i });
  }
  const d = r.decide();
  document.getElementById("out").textContent = `${d.kind}:${d.reason?.kind ?? ""}`;
  document.title = "done";
}
