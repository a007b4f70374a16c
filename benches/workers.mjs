// The latency reins/workers adds per request, in workerd: the same request
// sent to the same mock upstream on 127.0.0.1 directly (/direct) and
// through the regulating proxy (/proxy), interleaved, for three sizes of
// conversation, without a user (nothing stored) and with one (memory in a
// Durable Object, read and saved on every request).
//   node benches/workers.mjs [rounds]      (needs pkg/: bash scripts/build.sh)
import { startUpstream, completion } from "../tests/workerd/upstream.mjs";
import { startWorkerd } from "../tests/workerd/serve.mjs";

const ROUNDS = Number(process.argv[2] ?? 300);
const WARMUP = 30;

const system = { role: "system", content: "You are a support agent for an online shop. Be brief and exact." };
/** A healthy agent run: each step a different call with its result. */
function agent(steps) {
  const m = [system, { role: "user", content: "My order A7 never arrived and I was charged twice; please sort it out." }];
  for (let i = 0; i < steps; i++) {
    m.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: ["get_order", "get_payments", "get_tracking", "refund"][i % 4], arguments: JSON.stringify({ id: `A${i}` }) } }] });
    m.push({ role: "tool", tool_call_id: `c${i}`, content: JSON.stringify({ id: `A${i}`, status: "in transit", items: [{ sku: `S-${i}`, qty: 1, price: 19.99 }], note: "x".repeat(200) }) });
  }
  return m;
}
/** A long friendly chat: `turns` questions and answers of a few hundred bytes. */
function chat(turns) {
  const m = [system];
  for (let i = 0; i < turns; i++) {
    m.push({ role: "user", content: `Question ${i}: how do I change the delivery address of order A${i} after it shipped?` });
    m.push({ role: "assistant", content: `For order A${i}: once an order ships the address is with the carrier. Open the tracking page, choose "change delivery", and pick a pickup point or a neighbour. `.repeat(3) });
  }
  m.push({ role: "user", content: "And can I do that for all of them at once?" });
  return m;
}

const cases = [
  ["first message (2 messages)", [system, { role: "user", content: "Where is my order A7?" }]],
  ["agent, 10 tool steps (22 messages)", agent(10)],
  ["chat, 40 turns (82 messages)", chat(40)],
];

const up = await startUpstream();
up.answer(() => completion({ content: "Here is what I found." }));
const { base, kill } = await startWorkerd();

async function time(path, body, user) {
  const headers = { "content-type": "application/json", "x-test-upstream": up.origin };
  if (user) headers["x-reins-user"] = user;
  const t = performance.now();
  const res = await fetch(`${base}${path}`, { method: "POST", headers, body });
  await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return performance.now() - t;
}

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (v) => v.toFixed(2).padStart(7);

console.log(`reins/workers added latency, workerd ${process.platform}, ${ROUNDS} rounds, interleaved (ms per request)`);
console.log(`${"conversation".padEnd(36)} ${"bytes".padStart(7)}  ${"direct p50".padStart(10)}  ${"proxy p50".padStart(9)}  ${"+memory p50".padStart(11)}  ${"added p50".padStart(9)}  ${"+memory".padStart(7)}  ${"added p95".padStart(9)}`);
try {
  for (const [name, messages] of cases) {
    const body = JSON.stringify({ model: "mock", messages });
    const runs = { direct: [], proxy: [], memory: [] };
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      const d = await time("/direct/v1/chat/completions", body);
      const p = await time("/proxy/v1/chat/completions", body);
      const m = await time("/proxy/v1/chat/completions", body, `bench-${i % 8}`);
      if (i < WARMUP) continue;
      runs.direct.push(d);
      runs.proxy.push(p);
      runs.memory.push(m);
    }
    const added = runs.proxy.map((p, i) => p - runs.direct[i]);
    const addedMem = runs.memory.map((m, i) => m - runs.direct[i]);
    console.log(`${name.padEnd(36)} ${String(body.length).padStart(7)}  ${ms(q(runs.direct, 0.5)).padStart(10)}  ${ms(q(runs.proxy, 0.5)).padStart(9)}  ${ms(q(runs.memory, 0.5)).padStart(11)}  ${ms(q(added, 0.5)).padStart(9)}  ${ms(q(addedMem, 0.5))}  ${ms(q(addedMem, 0.95)).padStart(9)}`);
  }
} finally {
  kill();
  await up.close();
}
