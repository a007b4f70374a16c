// redisStore against ioredis-mock: an in-process Redis emulation whose EVAL
// runs the store's real Lua compare-and-set in a Lua VM (fengari). No Redis
// server runs here; this checks the client calls and the script itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import Redis from "ioredis-mock";
import { openRegulator, redisStore } from "../../pkg/entry-node.js";

const MANY = { implicitCorrectionWindowMs: null, maxCorrectionsPerTopic: 200, live: false };
const ids = (r) => r.corrections().map((c) => c.id).sort();

function correct(r, tag, n, at) {
  for (let i = 0; i < n; i++) {
    r.turnStart(`Write the ${tag} report ${i}`, at + i * 1000);
    r.turnComplete("Here it is.", at + i * 1000 + 10);
    r.userCorrection(`No, the ${tag} report ${i} needs a summary`, { atMs: at + i * 1000 + 20 });
  }
}

test("the Lua compare-and-set writes only over the value expected", async () => {
  const client = new Redis({ keyPrefix: "cas-test:" });
  const store = redisStore(client);
  assert.equal(await store.setIf("k", undefined, "one"), true, "absent, as expected");
  assert.equal(await store.setIf("k", undefined, "two"), false, "no longer absent");
  assert.equal(await store.setIf("k", "zero", "two"), false);
  assert.equal(await store.setIf("k", "one", "two"), true);
  assert.equal(await store.get("k"), "two");
  await store.delete("k");
  assert.equal(await store.get("k"), undefined);
});

test("two servers, each with its own Redis client, saving one user at once lose nothing", async () => {
  const [ca, cb, cc] = [new Redis({ keyPrefix: "race:" }), new Redis({ keyPrefix: "race:" }), new Redis({ keyPrefix: "race:" })];
  const a = await openRegulator({ userId: "alice", store: redisStore(ca), ...MANY });
  const b = await openRegulator({ userId: "alice", store: redisStore(cb), ...MANY });
  for (let round = 0; round < 10; round++) {
    correct(a, `north${"abcdefghij"[round]}x`, 5, round * 100_000);
    correct(b, `south${"abcdefghij"[round]}x`, 5, round * 100_000 + 50_000);
    await Promise.all([a.flush(), b.flush()]);
  }
  const union = [...new Set([...ids(a), ...ids(b)])].sort();
  await Promise.all([a.close(), b.close()]);
  const c = await openRegulator({ userId: "alice", store: redisStore(cc), ...MANY });
  assert.equal(c.corrections().length, 100);
  assert.deepEqual(ids(c), union);
  await c.close();
});
