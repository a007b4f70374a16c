// Cold start, as a Node process, a browser tab or a fresh Worker isolate
// meets it: each sample is a new Node process that imports the package,
// makes its first Regulator and runs its first realistic turn.
//
//   node benches/cold.mjs [samples]         # default 15, Node on the PATH
//   REINS_PKG=/other/pkg node benches/cold.mjs
//   REINS_OPTIONS='{"scopeDrift":false}' node benches/cold.mjs   # other options
//
// Printed per phase (median, min and max over the samples, in ms):
// - import: `await import("entry-node.js")`, which reads, compiles and
//   instantiates the module;
// - first new Regulator;
// - first turn: turnStart (100 B) + 100 logprobs + turnComplete (2 KB) +
//   cost + decide, the workload of `benches/bench.mjs`;
// - second turn, the same again (what the first turn costs beyond it is
//   compiling the code it runs and building the tables it reads first).
// Build first (`bash scripts/build.sh`). Plain Node ESM, no dependencies.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PKG = process.env.REINS_PKG
  ? new URL(`file://${process.env.REINS_PKG.replace(/\/?$/, "/")}`)
  : new URL("../pkg/", import.meta.url);

if (process.argv[2] === "--child") {
  const now = () => performance.now();
  const workload = (name) =>
    readFileSync(new URL(`./workload/${name}`, import.meta.url), "utf8");
  const task = workload("task.txt");
  const response = workload("response.txt");
  const logprobs = Float64Array.from({ length: 100 }, (_, i) => -0.05 - (i % 7) * 0.3);
  const t0 = now();
  const { Regulator } = await import(new URL("entry-node.js", PKG));
  const t1 = now();
  const r = new Regulator({ userId: "cold", ...JSON.parse(process.env.REINS_OPTIONS ?? "{}") });
  const t2 = now();
  const turn = (at) => {
    r.turnStart(task, at);
    r.tokens(logprobs);
    r.turnComplete(response, at + 900);
    r.cost({ tokensIn: 25, tokensOut: 800, wallclockMs: 900 });
    return r.decide().kind;
  };
  const k1 = turn(1_732_000_000_000);
  const t3 = now();
  const k2 = turn(1_732_000_010_000);
  const t4 = now();
  process.stdout.write(
    JSON.stringify({ import: t1 - t0, ctor: t2 - t1, first: t3 - t2, second: t4 - t3, kinds: [k1, k2] }),
  );
} else {
  const samples = Number(process.argv[2] ?? 15);
  const rows = [];
  const script = fileURLToPath(import.meta.url);
  for (let i = 0; i < samples; i++) {
    // Node flags given to this script (e.g. --no-wasm-lazy-compilation) go to each sample.
    const out = spawnSync(process.execPath, [...process.execArgv, script, "--child"], {
      env: process.env,
      encoding: "utf8",
    });
    if (out.status !== 0) {
      console.error(out.stderr);
      process.exit(1);
    }
    rows.push(JSON.parse(out.stdout));
  }
  const stat = (key) => {
    const v = rows.map((r) => r[key]).sort((a, b) => a - b);
    const f = (x) => x.toFixed(2);
    return `${f(v[v.length >> 1])} | ${f(v[0])} | ${f(v[v.length - 1])}`;
  };
  const options = process.env.REINS_OPTIONS ? `, options ${process.env.REINS_OPTIONS}` : "";
  console.log(`# cold start, Node ${process.version}, ${samples} fresh processes${options}, ms\n`);
  console.log(`| phase | median | min | max |`);
  console.log(`|---|---|---|---|`);
  console.log(`| import (read, compile, instantiate) | ${stat("import")} |`);
  console.log(`| first new Regulator | ${stat("ctor")} |`);
  console.log(`| import to first Regulator | ${(() => {
    for (const r of rows) r.both = r.import + r.ctor;
    return stat("both");
  })()} |`);
  console.log(`| first turn | ${stat("first")} |`);
  console.log(`| second turn | ${stat("second")} |`);
  console.log(`\ndecisions: ${[...new Set(rows.map((r) => r.kinds.join("/")))].join(", ")}`);
}
