// Runs pkg/ inside raw workerd (config.capnp) on a free local port and drives
// it over HTTP. Prints `workerd: N passed, N failed`; the child is killed on
// every path out, and the run exits non-zero on any failure.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKERD = `${ROOT}node_modules/.bin/workerd`;
const CONFIG = fileURLToPath(new URL("config.capnp", import.meta.url));
const T0 = 1_732_000_000_000;

const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer().once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

const results = [];
async function check(name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
  } catch (e) {
    results.push({ name, ok: false, detail: String(e?.stack ?? e) });
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

if (!existsSync(`${ROOT}pkg/reins_core_bg.wasm`)) {
  console.log("workerd: pkg/ is not built; run `bash scripts/build.sh` first");
  process.exit(1);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(WORKERD, ["serve", CONFIG, "--socket-addr", `http=127.0.0.1:${port}`], {
  stdio: ["ignore", "pipe", "pipe"],
  detached: true, // own process group, so a JS launcher's native child dies with it
});
let log = "";
const tail = () => (log.length > 2000 ? `…${log.slice(-2000)}` : log);
child.stdout.on("data", (d) => (log += d));
child.stderr.on("data", (d) => (log += d));
let exited = null;
child.on("exit", (code, signal) => (exited = signal ?? code));
const kill = () => {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {} // already gone
};
process.on("exit", kill);
const watchdog = setTimeout(() => {
  console.log(`workerd: timed out after 20 s\n${tail()}`);
  process.exit(1); // the exit hook kills the child
}, 20_000);

async function waitUp() {
  for (let i = 0; i < 200; i++) {
    if (exited !== null) throw new Error(`workerd exited (${exited}) before serving:\n${tail()}`);
    try {
      if ((await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`workerd not up after 5 s:\n${tail()}`);
}

const post = async (body) => {
  const res = await fetch(`${base}/turn`, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  return { status: res.status, json: await res.json() };
};
const call = (i) => [
  { type: "toolCall", name: "search_orders", args: { page: i }, callId: `c${i}`, atMs: T0 + i },
  { type: "toolResult", name: "search_orders", ok: true, durationMs: 80, result: "[]", callId: `c${i}`, atMs: T0 + i },
];

try {
  await waitUp();
  await check("GET /scenario: shared scenario passes in workerd", async () => {
    const res = await fetch(`${base}/scenario`, { signal: AbortSignal.timeout(5000) });
    const { failures, seen } = await res.json();
    assert(res.status === 200, `status ${res.status}`);
    assert(failures.length === 0, failures.join("\n"));
    assert(seen.length >= 12, `only ${seen.length} decisions`);
  });
  await check("POST /turn: snapshot carried across 3 requests, loop breaks on call 5", async () => {
    // Calls 1–2, then 3–4, then 5: the second request carries the nudge
    // (calls 3–4 found nothing again), only the third may break.
    const steps = [
      [{ type: "turnStart", message: "Find my late orders", atMs: T0 }, ...call(1), ...call(2)],
      [...call(3), ...call(4)],
      call(5),
    ];
    let snapshot;
    for (const [i, events] of steps.entries()) {
      const { status, json } = await post(snapshot === undefined ? { userId: "alice", events } : { snapshot, events });
      assert(status === 200, `request ${i + 1}: status ${status} ${JSON.stringify(json)}`);
      const { decision: d } = json;
      if (i === 0) assert(d.kind === "continue", `request 1: ${JSON.stringify(d)}`);
      else if (i === 1) assert(d.kind === "toolNudge" && d.count === 4, `request 2: ${JSON.stringify(d)}`);
      else {
        assert(d.kind === "circuitBreak", `request 3: ${JSON.stringify(d)}`);
        assert(d.reason.kind === "toolLoop" && d.reason.toolName === "search_orders" && d.reason.count === 5,
          `request 3 reason: ${JSON.stringify(d.reason)}`);
      }
      assert(JSON.parse(json.snapshot).userId === "alice", "snapshot lost the user");
      snapshot = json.snapshot;
    }
  });
  await check("POST /turn: bad input is a 400 naming qualityFeedback.quality", async () => {
    const { status, json } = await post({ userId: "bob", events: [{ type: "qualityFeedback", quality: 2 }] });
    assert(status === 400, `status ${status} ${JSON.stringify(json)}`);
    assert(json.name === "RangeError" && json.isError, `threw ${json.name}`);
    assert(json.error.startsWith("qualityFeedback.quality"), `message: ${json.error}`);
  });
  await check("POST /turn: unknown event type is a 400 TypeError", async () => {
    const { status, json } = await post({ userId: "bob", events: [{ type: "explode" }] });
    assert(status === 400 && json.name === "TypeError" && json.error.startsWith("event.type"), JSON.stringify(json));
  });
  await check("POST /turn: a 1 MB message repeating Chinese markers is read within the request", async () => {
    // Quadratic before issue 18: minutes. The module makes room first, within
    // the isolate's memory limit.
    const message = "别用pandas以后都用中文错了".repeat(Math.floor((1 << 20) / 39));
    const events = [
      { type: "turnStart", message: "Fix the login bug", atMs: 1 },
      { type: "turnComplete", response: "I changed auth.py. Should I add a test?", atMs: 2 },
      { type: "turnStart", message, atMs: 3 },
    ];
    const { status, json } = await post({ userId: "carol", events });
    assert(status === 200, `status ${status} ${JSON.stringify(json).slice(0, 300)}`);
    const prefs = JSON.parse(json.snapshot).memory.preferences;
    assert(prefs.length === 1, `${prefs.length} preferences from one sentence`);
  });
  await check("POST /turn: a typo in a cost event is a 400 naming it", async () => {
    const { status, json } = await post({ userId: "bob", events: [{ type: "cost", tokens_out: 5 }] });
    assert(status === 400 && json.name === "TypeError" && json.error.startsWith("cost.tokens_out"), JSON.stringify(json));
    assert(json.error.includes("did you mean tokensOut?"), json.error);
  });
} catch (e) {
  results.push({ name: "runner", ok: false, detail: String(e?.stack ?? e) });
} finally {
  clearTimeout(watchdog);
  kill();
}

const failed = results.filter((r) => !r.ok);
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? "" : `\n     ${r.detail.replaceAll("\n", "\n     ")}`}`);
if (failed.length && log) console.log(`workerd output:\n${tail()}`);
console.log(`workerd: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length || results.length === 0 ? 1 : 0);
