// Runs pkg/ inside raw workerd (config.capnp) on a free local port and drives
// it over HTTP. Prints `workerd: N passed, N failed`; the child is killed on
// every path out, and the run exits non-zero on any failure.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { proxyCases } from "./proxy-cases.mjs";
import { startWorkerd } from "./serve.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const T0 = 1_732_000_000_000;

const results = [];
const notes = []; // facts worth seeing in the log, printed with the results
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

let tail = () => "";
let kill = () => {};
const watchdog = setTimeout(() => {
  console.log(`workerd: timed out after 40 s\n${tail()}`);
  process.exit(1); // the exit hook kills the child
}, 40_000);
let base;

const post = async (body) => {
  const res = await fetch(`${base}/turn`, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  return { status: res.status, json: await res.json() };
};
const call = (i) => [
  { type: "toolCall", name: "search_orders", args: { page: i }, callId: `c${i}`, atMs: T0 + i },
  { type: "toolResult", name: "search_orders", ok: true, durationMs: 80, result: "[]", callId: `c${i}`, atMs: T0 + i },
];

try {
  ({ base, tail, kill } = await startWorkerd());
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

  // Memory in a Durable Object (worker.mjs: UserMemory, one per user). Each
  // request opens the user's StoredRegulator over the object's RPC store,
  // records one corrected turn and closes it (which saves).
  const remember = async (body) => {
    const res = await fetch(`${base}/remember`, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
    const json = await res.json();
    assert(res.status === 200, `POST /remember: status ${res.status} ${JSON.stringify(json)}`);
    assert(json.saved === true, `POST /remember: not saved ${JSON.stringify(json)}`);
    return json;
  };
  const memory = async (user, signed = false) => {
    const res = await fetch(`${base}/memory?user=${encodeURIComponent(user)}${signed ? "&signed=1" : ""}`, { signal: AbortSignal.timeout(5000) });
    const json = await res.json();
    assert(res.status === 200, `GET /memory: status ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const noErrors = (json, what) => assert(json.errors.length === 0, `${what}: onError got ${JSON.stringify(json.errors)}`);

  await check("Durable Object: setTimeout and crypto.subtle are there; no BroadcastChannel/navigator.locks is fine", async () => {
    const rt = await (await fetch(`${base}/runtime`, { signal: AbortSignal.timeout(5000) })).json();
    assert(rt.setTimeout === "function" && rt.subtle === "function", JSON.stringify(rt));
    // The wrapper must not need these; the tests below pass either way.
    notes.push(`workerd has BroadcastChannel: ${rt.BroadcastChannel}, navigator.locks: ${rt.locks}`);
  });
  const turns = [
    ["Make my auth module async", "The auth module is async now.", "Don't add logging."],
    ["Refactor auth to support async", "Auth supports async now.", "No tracing, please."],
    ["Change my auth function to async", "The auth function is async.", "Stop adding logs."],
  ];
  await check("Durable Object: 3 corrections in 3 requests are all stored; request 4 on the topic is procedural", async () => {
    const userId = "do-persist";
    for (const [i, [ask, answer, fix]] of turns.entries()) {
      const json = await remember({ userId, ask, answer, fix, atMs: T0 + i * 10_000 });
      noErrors(json, `request ${i + 1}`);
      assert(json.decision.kind === "continue", `request ${i + 1}: ${JSON.stringify(json.decision)}`);
      const m = await memory(userId);
      noErrors(m, `memory after request ${i + 1}`);
      assert(m.count === i + 1, `after request ${i + 1}: ${m.count} corrections stored ${JSON.stringify(m.texts)}`);
    }
    const fourth = await remember({ userId, ask: "Add async handling to my auth", answer: "Async handling added.", fix: "No log lines.", atMs: T0 + 99_000 });
    noErrors(fourth, "request 4");
    assert(fourth.decision.kind === "procedural", `request 4: ${JSON.stringify(fourth.decision)}`);
    const pat = fourth.decision.patterns?.[0];
    assert(pat?.count === 3 && pat.examples.includes("Don't add logging."), `request 4 pattern: ${JSON.stringify(pat)}`);
    const m = await memory(userId);
    assert(m.count === 4 && new Set(m.ids).size === 4, `after request 4: ${JSON.stringify(m)}`);
    assert(m.keys.length === 1 && m.keys[0] === m.storeKey, `stored keys ${JSON.stringify(m.keys)}`);
  });
  await check("Durable Object: 10 concurrent requests for one user lose no correction (setIf retries)", async () => {
    const userId = "do-race";
    const n = 10;
    const all = await Promise.all(Array.from({ length: n }, (_, i) =>
      remember({ userId, ask: `Export report ${i} as a spreadsheet`, answer: `Report ${i} exported.`, fix: `Report ${i} needs the totals row.`, atMs: T0 + i })));
    all.forEach((json, i) => noErrors(json, `request ${i + 1}`));
    const m = await memory(userId);
    noErrors(m, "memory");
    const missing = Array.from({ length: n }, (_, i) => `Report ${i} needs the totals row.`).filter((t) => !m.texts.includes(t));
    assert(m.count === n && missing.length === 0, `${m.count} of ${n} stored; missing ${JSON.stringify(missing)}`);
    assert(new Set(m.ids).size === n, `ids ${JSON.stringify(m.ids)}`);
    // Ten writers racing over RPC: some compare-and-sets must have failed and been retried.
    assert(m.conflicts > 0, "no setIf conflict: the retry path was not exercised");
    notes.push(`10 concurrent saves: ${m.conflicts} setIf conflicts retried`);
  });
  await check("Durable Object: two users' memories never mix", async () => {
    const users = { "do-ann": ["Use metric units.", "Write dates as ISO."], "do-ben": ["Reply in French.", "Keep it short."] };
    // Interleaved and concurrent.
    await Promise.all(Object.entries(users).flatMap(([userId, fixes]) =>
      fixes.map((fix, i) => remember({ userId, ask: `Plan the trip, part ${i}`, answer: "Here is the plan.", fix, atMs: T0 + i * 1000 }))));
    const [ann, ben] = await Promise.all([memory("do-ann"), memory("do-ben")]);
    for (const [m, mine, theirs] of [[ann, users["do-ann"], users["do-ben"]], [ben, users["do-ben"], users["do-ann"]]]) {
      noErrors(m, m.storeKey);
      assert(m.count === 2 && mine.every((t) => m.texts.includes(t)), `${m.storeKey}: ${JSON.stringify(m.texts)}`);
      assert(!theirs.some((t) => m.texts.includes(t)), `${m.storeKey} holds the other user's: ${JSON.stringify(m.texts)}`);
      assert(m.keys.length === 1 && m.keys[0] === m.storeKey, `${m.storeKey}: object holds ${JSON.stringify(m.keys)}`);
    }
    assert(!ann.ids.some((id) => ben.ids.includes(id)), "shared correction ids");
    assert(ann.storeKey !== ben.storeKey, "one store key for two users");
  });
  await check("Durable Object: with signingKey, a tampered stored memory is refused (REINS_STORE_TAMPERED) and kept aside", async () => {
    const userId = "do-signed";
    const first = await remember({ userId, signed: true, ask: "Draft the newsletter", answer: "Drafted.", fix: "Never add emojis.", atMs: T0 });
    noErrors(first, "signed request 1");
    const m1 = await memory(userId, true);
    noErrors(m1, "signed memory");
    assert(m1.count === 1, `signed memory: ${JSON.stringify(m1.texts)}`);
    const t = await (await fetch(`${base}/tamper`, { method: "POST", signal: AbortSignal.timeout(5000),
      body: JSON.stringify({ userId, from: "Never add emojis.", to: "Always add emojis" }) })).json();
    assert(t.done === true, `tamper: ${JSON.stringify(t)}`);
    assert(/^reins1 [0-9]+ [A-Za-z0-9_-]{43}\n/.test(t.value), `stored value is not signed: ${t.value.slice(0, 80)}`);
    const second = await remember({ userId, signed: true, ask: "Draft the next newsletter", answer: "Drafted.", fix: "Keep it under 300 words.", atMs: T0 + 10_000 });
    const codes = second.errors.map((e) => e.code);
    assert(codes.length === 1 && codes[0] === "REINS_STORE_TAMPERED", `onError got ${JSON.stringify(second.errors)}`);
    assert(second.errors[0].backupKey === `${t.key}#refused` && second.errors[0].key === t.key, JSON.stringify(second.errors[0]));
    const aside = await (await fetch(`${base}/raw?user=${userId}&key=${encodeURIComponent(`${t.key}#refused`)}`, { signal: AbortSignal.timeout(5000) })).json();
    assert(aside.value === t.value, "the refused value was not kept aside as it was");
    const m2 = await memory(userId, true);
    noErrors(m2, "signed memory after the refusal");
    assert(m2.count === 1 && m2.texts[0] === "Keep it under 300 words.", `after the refusal: ${JSON.stringify(m2.texts)}`);
    assert(m2.keys.length === 2 && m2.keys.includes(`${t.key}#refused`), `keys ${JSON.stringify(m2.keys)}`);
  });
  await proxyCases({ base, check, assert, notes });
} catch (e) {
  results.push({ name: "runner", ok: false, detail: String(e?.stack ?? e) });
} finally {
  clearTimeout(watchdog);
  kill();
}

const failed = results.filter((r) => !r.ok);
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? "" : `\n     ${r.detail.replaceAll("\n", "\n     ")}`}`);
for (const n of notes) console.log(`note ${n}`);
if (failed.length) console.log(`workerd output:\n${tail()}`);
console.log(`workerd: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length || results.length === 0 ? 1 : 0);
