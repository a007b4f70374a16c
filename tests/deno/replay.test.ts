// reins/replay in Deno: the `deno` condition loads the replay module from disk.
import { replay, replayMany, type TraceEvent } from "reins/replay";

function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

const events: TraceEvent[] = [{ type: "turnStart", message: "Find my late orders", atMs: 0 }];
for (let i = 1; i <= 6; i++) {
  events.push({ type: "toolCall", name: "search_orders", args: { q: "late" }, atMs: i * 1000 });
  events.push({ type: "toolResult", name: "search_orders", ok: true, result: "[]", atMs: i * 1000 + 1 });
}
const trace = { format: "reins.trace" as const, id: "loop", outcome: { success: false }, events };

Deno.test("reins/replay: a recorded loop is halted, and the figures add up", () => {
  const r = replay(trace);
  assert(r.firstBreak?.reason === "toolLoop", JSON.stringify(r.firstBreak));
  const { summary } = replayMany([trace, { ...trace, id: "ok", outcome: { success: true }, events: events.slice(0, 3) }]);
  assert(summary.halted.failed === 1 && summary.halted.succeeded === 0, JSON.stringify(summary.halted));
  assert(summary.haltPrecision === 1, String(summary.haltPrecision));
});
