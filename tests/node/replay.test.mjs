// reins/replay and `reins replay` (the CLI) in Node: recorded runs read,
// replayed, swept and graded by the oracle. Tests on the real runs in
// ../shared/data skip when it is absent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importTraces, oracleDemand, oracleGap, replay, replayMany, sweep } from "../../pkg/replay-node.js";

const CLI = fileURLToPath(new URL("../../pkg/cli.js", import.meta.url));
const DATA = fileURLToPath(new URL("../../../shared/data/", import.meta.url));
const hasData = existsSync(join(DATA, "tau-bench/gpt-4o-airline.json"));

/** A trace in the trace format: the agent searches `n` times and finds nothing. */
function looping(id, n, success) {
  const events = [{ type: "turnStart", message: "Find my late orders", atMs: 0, messageId: "m0" }];
  for (let i = 1; i <= n; i++) {
    events.push({ type: "toolCall", name: "search_orders", args: { q: "late" }, callId: `c${i}`, atMs: i * 1000 });
    events.push({ type: "toolResult", name: "search_orders", ok: true, result: "[]", callId: `c${i}`, atMs: i * 1000 + 500 });
    events.push({ type: "cost", tokensIn: 500, tokensOut: 40, atMs: i * 1000 + 600 });
  }
  return { format: "reins.trace", version: 1, id, source: "test", outcome: { success }, events };
}

test("replay: the first break, the turn, and what halting there would have saved", () => {
  const r = replay(looping("loop", 8, false));
  assert.equal(r.id, "loop");
  assert.deepEqual(r.outcome, { success: false, reward: null });
  assert.equal(r.firstBreak.reason, "toolLoop");
  assert.equal(r.firstBreak.turn, 1);
  // Five searches break; the three after it (and their spend) are saved.
  assert.equal(r.firstBreak.event, 1 + 4 * 3 + 1);
  assert.deepEqual(r.savings, { tokensIn: 3 * 500 + 500, tokensOut: 3 * 40 + 40, turns: 0, toolCalls: 3, wallclockMs: 0 });
  assert.equal(r.total.toolCalls, 8);
  assert.ok(r.changes.some((c) => c.kind === "toolNudge"), JSON.stringify(r.changes));
  assert.equal(r.perTurn.length, 1);
  assert.equal(r.perTurn[0].decision, "circuitBreak");
  assert.equal(r.estimatedTokens, false);
});

test("replay is byte-identical for the same trace and options", () => {
  const t = looping("loop", 7, false);
  assert.equal(JSON.stringify(replay(t, { toolLoopThreshold: 4 })), JSON.stringify(replay(t, { toolLoopThreshold: 4 })));
  assert.notEqual(replay(t, { toolLoopThreshold: 4 }).firstBreak.event, replay(t).firstBreak.event);
  // Bad options carry the code every error of the package carries for its field.
  assert.throws(() => replay(t, 5), (e) => e instanceof TypeError && e.code === "REINS_INVALID_OPTION" && e.message === "options: must be an object");
  assert.throws(() => replay(t, { estimateTokens: "yes" }), (e) => e.code === "REINS_INVALID_OPTION");
});

test("replayMany: halt rate, precision against outcomes, tokens saved and forgone", () => {
  const { reports, summary } = replayMany([looping("a", 8, false), looping("b", 8, true), looping("c", 2, true), looping("d", 2, false)]);
  assert.equal(reports.length, 4);
  assert.deepEqual(summary.runs, { succeeded: 2, failed: 2, unknown: 0 });
  assert.deepEqual(summary.halted, { succeeded: 1, failed: 1, unknown: 0 });
  assert.equal(summary.haltRate, 0.5);
  assert.equal(summary.haltPrecision, 0.5);
  assert.equal(summary.failureRecall, 0.5);
  // After the fifth search's result: its cost, and three more searches.
  assert.equal(summary.tokensSavedOnFailed, 4 * 540);
  assert.equal(summary.tokensForgoneOnSucceeded, 4 * 540);
  assert.deepEqual(summary.byReason, { toolLoop: 2 });
  assert.deepEqual(reports[2].perTurn, [], "replayMany leaves out per-turn detail");
});

test("sweep: each combination's figures and the Pareto frontier", () => {
  const runs = [looping("a", 6, false), looping("b", 4, true)];
  // No patience: a nudge never turns into a halt by itself here.
  const points = sweep(runs, { toolLoopThreshold: [4, 5, 8] }, { toolNudgePatience: 0 });
  assert.equal(points.length, 3);
  const at = (n) => points.find((p) => p.options.toolLoopThreshold === n);
  // 4 halts both runs (one wrongly), 5 only the failed one, 8 neither.
  assert.deepEqual([at(4).summary.halted.failed, at(4).summary.halted.succeeded], [1, 1]);
  assert.deepEqual([at(5).summary.halted.failed, at(5).summary.halted.succeeded], [1, 0]);
  assert.equal(at(8).summary.halted.failed + at(8).summary.halted.succeeded, 0);
  assert.equal(at(5).pareto, true);
  assert.equal(at(8).pareto, false, "halting nothing is dominated by halting the failed run alone");
  assert.equal(points[0].pareto, true);
  assert.throws(() => sweep(runs, { toolLoopTreshold: [3] }), (e) => e instanceof TypeError && /toolLoopTreshold.*did you mean toolLoopThreshold/.test(e.message));
});

test("importTraces: formats told apart, spend estimated and flagged, bad records named", () => {
  const chat = [{ role: "user", content: "Where is order 4821?" }, { role: "assistant", content: "It shipped yesterday." }];
  const got = importTraces(chat, { name: "chat" });
  assert.equal(got.traces.length, 1);
  assert.equal(got.traces[0].source, "openai");
  assert.equal(got.traces[0].estimatedTokens, true);
  assert.ok(got.traces[0].events.some((e) => e.type === "cost"));
  const lines = `${JSON.stringify({ instanceId: "a-1", resolved: true, task: "Fix", steps: [{ command: "ls", returncode: 0, output: "" }] })}\n{oops\n`;
  const mixed = importTraces(lines, { name: "runs.jsonl", estimateTokens: false });
  assert.deepEqual(mixed.traces.map((t) => t.id), ["mini-swe/a-1"]);
  assert.deepEqual(mixed.problems.map((p) => p.at), ["runs.jsonl: line 2"]);
  // A trace goes back in as it came out.
  const { id, ...fromTrace } = replay(got.traces[0]);
  const { id: _, ...fromChat } = replay(chat);
  assert.equal(id, "chat");
  assert.equal(JSON.stringify(fromTrace), JSON.stringify(fromChat));
});

test("the oracle: demand by call id and file path, and the gap of a policy", () => {
  const m = [
    { role: "user", content: "Fix the bug in src/app.py" },
    { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "read", arguments: "{\"path\":\"src/app.py\"}" } }] },
    { role: "tool", tool_call_id: "a", content: "def main(): ..." },
    { role: "assistant", content: "Fixed ./src/app.py:3" },
  ];
  const d = oracleDemand(m, { horizon: 0 });
  assert.deepEqual(d.demand, [[], [0], [1], [0]]);
  const fits = oracleGap(m, "recent:8", { budgetTokens: 10_000 });
  assert.equal(fits.onlineFaults, 0);
  const forgetful = oracleGap(m, () => [], { budgetTokens: 10_000, horizon: 1 });
  assert.ok(forgetful.onlineFaults > forgetful.oracleFaults, JSON.stringify(forgetful));
  assert.throws(() => oracleGap(m, "newest:3", { budgetTokens: 1 }), (e) => e instanceof TypeError && /policy/.test(e.message));
  assert.throws(() => oracleGap(m, "recent:2", {}), RangeError);
});

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("reins replay: a table per run and a summary; --json; a clear message and exit 1 on unreadable input", () => {
  const dir = mkdtempSync(join(tmpdir(), "reins-cli-"));
  writeFileSync(join(dir, "runs.jsonl"), `${JSON.stringify(looping("looper", 8, false))}\n${JSON.stringify(looping("fine", 2, true))}\n`);
  const ok = cli("replay", dir);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /looper\s+failed\s+1\s+25\s+turn 1: toolLoop/);
  assert.match(ok.out, /2 runs from 1 file \(1 succeeded, 1 failed\)/);
  assert.match(ok.out, /halted 1 runs \(50\.0 %\): 0 succeeded, 1 failed; halt precision 100\.0 %/);
  const json = cli("replay", join(dir, "runs.jsonl"), "--json");
  assert.equal(json.code, 0);
  const parsed = JSON.parse(json.out);
  assert.equal(parsed.summary.halted.failed, 1);
  assert.equal(json.out, cli("replay", join(dir, "runs.jsonl"), "--json").out, "the same input gives the same output");
  writeFileSync(join(dir, "broken.json"), "{ not json");
  const bad = cli("replay", dir);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /broken\.json: is not JSON/);
  assert.match(bad.out, /2 runs from 2 files/, "the readable file is still replayed");
  const missing = cli("replay", join(dir, "nope.json"));
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read .*nope\.json: no such file or directory/);
  assert.equal(cli("replay", dir, "--frobnicate").code, 2);
});

test("reins replay --sweep and --oracle print their tables", () => {
  const dir = mkdtempSync(join(tmpdir(), "reins-cli-"));
  writeFileSync(join(dir, "runs.jsonl"), `${JSON.stringify(looping("looper", 8, false))}\n${JSON.stringify(looping("fine", 4, true))}\n`);
  const s = cli("replay", dir, "--sweep", "toolLoopThreshold=4,5,9", "--option", "toolNudgePatience=0");
  assert.equal(s.code, 0, s.err);
  assert.match(s.out, /\*\s+toolLoopThreshold=5\s+0\/1/);
  writeFileSync(join(dir, "more.jsonl"), `${JSON.stringify(looping("more", 3, true))}\n`);
  const p = cli("replay", dir, "--progress");
  assert.equal(p.code, 0, p.err);
  assert.match(p.err, /\[#{15} {15}\] 1\/2 .*more\.jsonl/);
  assert.match(p.err, /\[#{30}\] 2\/2 /);
  const o = cli("replay", dir, "--oracle", "recent:2", "--budget", "100");
  assert.equal(o.code, 0, o.err);
  assert.match(o.out, /recent:2\s+100\s+\d+/);
});

test("real runs (../shared/data): tau-bench's 200 runs read and replayed", { skip: !hasData && "../shared/data is absent" }, () => {
  const r = cli("replay", join(DATA, "tau-bench"), "--json");
  assert.equal(r.code, 0, r.err);
  const { summary, problems } = JSON.parse(r.out);
  assert.deepEqual(problems, []);
  assert.deepEqual(summary.runs, { succeeded: 84, failed: 116, unknown: 0 });
  assert.equal(summary.estimatedRuns, 200);
  assert.ok(summary.halted.succeeded === 0, `halted ${summary.halted.succeeded} successful tau-bench runs`);
});
