// The Node file store with real processes: several saving one user at once
// lose nothing, and a process killed in the middle of saving leaves a
// memory that loads whole.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRegulator } from "../../pkg/entry-node.js";
import { fileStore } from "../../pkg/file-store.js";

const WRITER = new URL("./helpers/file-writer.mjs", import.meta.url).pathname;

function writer(dir, tag, count) {
  const child = spawn(process.execPath, [WRITER, dir, tag, String(count)], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const done = new Promise((ok) => child.on("exit", (code, signal) => ok({ code, signal, out })));
  return { child, done, out: () => out };
}

const open = (dir, onError) =>
  openRegulator({ userId: "alice", store: fileStore(dir), implicitCorrectionWindowMs: null, maxCorrectionsPerTopic: 200, onError });

test("two processes saving one user's corrections at once lose none", async () => {
  const dir = await mkdtemp(join(tmpdir(), "reins-files-"));
  try {
    const runs = await Promise.all([writer(dir, "north", 50).done, writer(dir, "south", 50).done]);
    const recorded = [];
    for (const { code, out } of runs) {
      assert.equal(code, 0, out);
      recorded.push(...JSON.parse(out.trim().split("\n").at(-1)));
    }
    assert.equal(recorded.length, 100);
    const errors = [];
    const r = await open(dir, (e) => errors.push(e));
    assert.deepEqual(errors, []);
    assert.deepEqual(r.corrections().map((c) => c.id).sort(), recorded.sort());
    await r.close();
    assert.deepEqual((await readdir(dir)).filter((f) => !f.endsWith("alice")), [], "no lock or temporary file left");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a process killed while saving leaves a memory that loads whole", async () => {
  const dir = await mkdtemp(join(tmpdir(), "reins-files-"));
  try {
    const w = writer(dir, "north", "forever");
    // Let it save a few times, then kill it without warning.
    while (!/saved 5\n/.test(w.out())) await new Promise((ok) => setTimeout(ok, 5));
    w.child.kill("SIGKILL");
    const { signal, out } = await w.done;
    assert.equal(signal, "SIGKILL");
    const saves = Number(out.match(/saved (\d+)\n(?![\s\S]*saved)/)[1]);
    const errors = [];
    const r = await open(dir, (e) => errors.push(e));
    assert.deepEqual(errors, [], "nothing corrupt was read");
    // The last save it reported is in; one more may have landed.
    const n = r.corrections().length;
    assert.ok(n === saves || n === saves + 1, `${n} corrections after ${saves} saves`);
    // A lock the killed process held is taken over, and saving goes on.
    r.turnStart("Write the east report", Date.now());
    r.turnComplete("Here.", Date.now());
    r.userCorrection("No, shorter");
    assert.equal(await r.flush(), true);
    await r.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
