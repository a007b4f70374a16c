// reins beside the reference design (noos 0.4.1) on the same realistic
// turns: instructions per turn (callgrind, which load on the machine cannot
// distort), then native and Node 20 time per turn, run interleaved, and the
// ratios. Run by scripts/bench-vs-reference.sh. Each text is also run with
// `scopeDrift: false` ("no drift"), for apps that do not judge answers.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Regulator } from "../../pkg/entry-node.js";

const BIN = process.argv[2];
const ROUNDS = Number(process.argv[3] ?? 5);
const work = (f) => readFileSync(fileURLToPath(new URL(`../workload/${f}`, import.meta.url)), "utf8");
const TEXTS = { ours: [work("task.txt"), work("response.txt")], reference: [work("reference-task.txt"), work("reference-response.txt")] };

/** Instructions of `turns` turns, by callgrind. */
function instructions(who, text, turns) {
  const r = spawnSync("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", BIN, "count", who, text, String(turns)], { encoding: "utf8" });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`callgrind: ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}
const perTurn = (who, text) => (instructions(who, text, 200) - instructions(who, text, 0)) / 200;

/** Median µs per turn through the JS API, one live regulator. */
function nodeTurn([task, response], scopeDrift) {
  const r = new Regulator({ userId: "bench", costCapTokens: 2 ** 40, scopeDrift });
  const lp = Float64Array.from({ length: 100 }, (_, i) => -0.05 - (i % 7) * 0.3);
  let at = 0;
  const turn = () => {
    at += 1000;
    r.turnStart(task, at);
    r.tokens(lp);
    r.turnComplete(response, at + 900);
    r.cost({ tokensIn: 25, tokensOut: 100, wallclockMs: 500 });
    r.decide();
  };
  for (let i = 0; i < 600; i++) turn();
  const batches = Array.from({ length: 5 }, () => {
    const t = performance.now();
    for (let i = 0; i < 400; i++) turn();
    return ((performance.now() - t) * 1000) / 400;
  }).sort((a, b) => a - b);
  r.free();
  return batches[2];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
let haveValgrind = spawnSync("valgrind", ["--version"]).status === 0;
const counts = {};
if (haveValgrind) {
  for (const t of Object.keys(TEXTS)) {
    counts[t] = { reins: perTurn("reins", t), quiet: perTurn("reins-nodrift", t), noos: perTurn("noos", t) };
  }
}
const lanes = () => ({ reins: [], quiet: [], noos: [], node: [], nodeQuiet: [] });
const times = { ours: lanes(), reference: lanes() };
for (let round = 0; round < ROUNDS; round++) {
  const out = execFileSync(BIN, ["time", "3"], { encoding: "utf8" });
  for (const line of out.trim().split("\n")) {
    const [t, , a, , b, , , , q] = line.split(" ");
    times[t].reins.push(Number(a));
    times[t].noos.push(Number(b));
    times[t].quiet.push(Number(q));
  }
  for (const t of Object.keys(TEXTS)) {
    times[t].node.push(nodeTurn(TEXTS[t], true));
    times[t].nodeQuiet.push(nodeTurn(TEXTS[t], false));
  }
}
console.log(`reins beside noos 0.4.1, same turn (start, 100 logprobs, complete, cost, decide), ${ROUNDS} interleaved rounds, Node ${process.version}`);
console.log("| text | instructions reins / noos | ratio | native µs reins / noos | ratio | Node µs reins | Node / noos native |");
console.log("|---|---|---|---|---|---|---|");
for (const t of Object.keys(TEXTS)) {
  const c = counts[t];
  const b = median(times[t].noos);
  for (const [label, who, native, node] of [[t, "reins", "reins", "node"], [`${t}, no drift`, "quiet", "quiet", "nodeQuiet"]]) {
    const [a, n] = [median(times[t][native]), median(times[t][node])];
    const ins = c ? `${Math.round(c[who]).toLocaleString("en")} / ${Math.round(c.noos).toLocaleString("en")} | ${(c[who] / c.noos).toFixed(2)}×` : "– | –";
    console.log(`| ${label} | ${ins} | ${a.toFixed(1)} / ${b.toFixed(1)} | ${(a / b).toFixed(2)}× | ${n.toFixed(1)} | ${(n / b).toFixed(2)}× |`);
  }
}
