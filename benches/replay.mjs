// Replay speed in Node on the recorded runs of ../shared/data: each data
// set read and replayed by the replay module (what `reins replay` does),
// best of 5 after a warm-up. Skips when the data is absent.
//   node benches/replay.mjs          (needs pkg/: bash scripts/build.sh)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import "../pkg/replay-node.js";
import { Replayer } from "../pkg/reins_replay.js";

const DATA = fileURLToPath(new URL("../../shared/data/", import.meta.url));
if (!existsSync(DATA)) {
  console.log("../shared/data is absent: skipped");
  process.exit(0);
}
const sets = ["tau-bench", "tau2-bench", "mini-swe-agent", "swe-agent"].map((dir) => {
  const files = readdirSync(join(DATA, dir)).filter((f) => f !== "LICENSE").sort();
  return { dir, files: files.map((f) => ({ name: f, text: readFileSync(join(DATA, dir, f), "utf8") })) };
});

function once(files) {
  const r = new Replayer("{}", true);
  const t = performance.now();
  for (const f of files) r.addFile(f.text, f.name, false);
  const ms = performance.now() - t;
  const s = JSON.parse(r.summary());
  r.free();
  return { ms, runs: s.runs.succeeded + s.runs.failed + s.runs.unknown, events: s.events };
}

console.log(`replay in Node ${process.version} (read + replay, best of 5)`);
console.log(`${"data set".padEnd(16)} ${"MB".padStart(6)} ${"runs".padStart(5)} ${"events".padStart(7)} ${"ms".padStart(8)} ${"runs/s".padStart(8)} ${"events/s".padStart(9)}`);
for (const { dir, files } of sets) {
  once(files);
  const best = Array.from({ length: 5 }, () => once(files)).sort((a, b) => a.ms - b.ms)[0];
  const mb = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0) / 1e6;
  console.log(`${dir.padEnd(16)} ${mb.toFixed(1).padStart(6)} ${String(best.runs).padStart(5)} ${String(best.events).padStart(7)} ${best.ms.toFixed(0).padStart(8)} ${(best.runs / (best.ms / 1000)).toFixed(0).padStart(8)} ${(best.events / (best.ms / 1000)).toFixed(0).padStart(9)}`);
}
