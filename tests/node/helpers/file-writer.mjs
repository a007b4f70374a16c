// A process that records corrections for one user into a file store, saving
// after each one: `node file-writer.mjs <dir> <tag> <count|forever>`. Prints
// one line per save (`saved <n>`) and finally the ids it recorded as JSON.
import { openRegulator } from "../../../pkg/entry-node.js";
import { fileStore } from "../../../pkg/file-store.js";

const [dir, tag, count] = process.argv.slice(2);
const n = count === "forever" ? Infinity : Number(count);
const r = await openRegulator({
  userId: "alice",
  store: fileStore(dir),
  implicitCorrectionWindowMs: null,
  maxCorrectionsPerTopic: 200,
  onError: (e) => console.log(`error ${e.code} ${e.message}`),
});
const mine = [];
const t0 = Date.now();
for (let i = 0; i < n; i++) {
  const at = t0 + i * 1000;
  r.turnStart(`Write the ${tag} report ${i}`, at);
  r.turnComplete("Here it is.", at + 10);
  const before = new Set(r.corrections().map((c) => c.id));
  r.userCorrection(`No, the ${tag} report ${i} needs a summary`, { atMs: at + 20 });
  mine.push(...r.corrections().map((c) => c.id).filter((id) => !before.has(id)));
  if (!(await r.flush())) process.exit(1);
  console.log(`saved ${i + 1}`);
}
await r.close();
console.log(JSON.stringify(mine));
