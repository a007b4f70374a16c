// reins/replay as a Node script types it.
import { importTraces, oracleGap, replay, replayMany, sweep, type Trace } from "reins/replay";

const trace: Trace = {
  format: "reins.trace",
  id: "run-1",
  outcome: { success: false, reward: 0 },
  events: [
    { type: "turnStart", message: "Find my late orders", atMs: 0, messageId: "m1" },
    { type: "toolCall", name: "search_orders", args: { q: "late" }, callId: "c1", atMs: 900 },
    { type: "toolResult", name: "search_orders", ok: true, result: "[]", callId: "c1", atMs: 1000 },
  ],
};
const r = replay(trace, { toolLoopThreshold: 4 });
if (r.firstBreak !== null) console.log(r.firstBreak.reason satisfies "toolLoop" | "costCap" | "qualityDecline" | "repeatedFailure", r.savings?.tokensOut);
const { summary } = replayMany(importTraces("[]", { name: "runs.json" }).traces, { estimateTokens: false });
console.log(summary.haltPrecision ?? "no halts", summary.tokensSavedOnFailed);
const points = sweep([trace], { toolLoopThreshold: [3, 5], costCapTokens: [5000] });
console.log(points.filter((p) => p.pareto).map((p) => p.options.toolLoopThreshold));
const gap = oracleGap([{ role: "user", content: "hi" }], (t, candidates) => candidates.slice(-t), { budgetTokens: 8000 });
console.log(gap.gap);
// @ts-expect-error: an option that does not exist
sweep([trace], { toolLoopTreshold: [3] });
// @ts-expect-error: a policy must be recent:N, incremental or a function
oracleGap([], "newest", { budgetTokens: 1 });
