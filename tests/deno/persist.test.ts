// Deno KV as the store of a user's memory: two handles on one database
// saving at once lose nothing, memories over KV's 64 KiB value limit are
// split and read back whole, and `await using` saves on the way out.
import { denoKvStore, openRegulator, type StoredRegulator } from "reins";

const MANY = { implicitCorrectionWindowMs: null, maxCorrectionsPerTopic: 200 };

function correct(r: StoredRegulator, tag: string, n: number, at: number, pad = "") {
  for (let i = 0; i < n; i++) {
    r.turnStart(`Write the ${tag} report ${i}`, at + i * 1000);
    r.turnComplete("Here it is.", at + i * 1000 + 10);
    r.userCorrection(`No, the ${tag} report ${i} needs a summary ${pad}`, { atMs: at + i * 1000 + 20 });
  }
}

const ids = (r: StoredRegulator) => r.corrections().map((c) => c.id).sort();

function assertEquals(a: unknown, b: unknown, what: string) {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${what}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`);
}

Deno.test("two Deno KV handles saving one user at once lose nothing", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  const [kvA, kvB, kvC] = [await Deno.openKv(path), await Deno.openKv(path), await Deno.openKv(path)];
  try {
    const a = await openRegulator({ userId: "alice", store: denoKvStore(kvA), live: false, ...MANY });
    const b = await openRegulator({ userId: "alice", store: denoKvStore(kvB), live: false, ...MANY });
    for (let round = 0; round < 10; round++) {
      correct(a, `north${round}x`, 5, round * 100_000);
      correct(b, `south${round}x`, 5, round * 100_000 + 50_000);
      await Promise.all([a.flush(), b.flush()]);
    }
    const union = [...new Set([...ids(a), ...ids(b)])].sort();
    await Promise.all([a.close(), b.close()]);
    await using c = await openRegulator({ userId: "alice", store: denoKvStore(kvC), ...MANY });
    assertEquals(c.corrections().length, 100, "count");
    assertEquals(ids(c), union, "ids");
  } finally {
    for (const kv of [kvA, kvB, kvC]) kv.close();
    await Deno.remove(path);
  }
});

Deno.test("a memory larger than one KV value is split and read back whole", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let held: string[] = [];
    {
      await using r = await openRegulator({ userId: "alice", store: denoKvStore(kv), ...MANY });
      correct(r, "long", 200, 0, "x".repeat(600));
      held = ids(r);
      // `await using` saves on the way out.
    }
    const head = await kv.get<{ parts: number }>(["reins", "reins/memory/alice"]);
    if (!head.value || head.value.parts < 2) throw new Error(`expected several parts, got ${JSON.stringify(head.value)}`);
    await using back = await openRegulator({ userId: "alice", store: denoKvStore(kv), ...MANY });
    assertEquals(ids(back), held, "ids");
    // Shrinking drops the parts no longer used.
    await back.forget();
    const left = [];
    for await (const e of kv.list({ prefix: ["reins"] })) left.push(e.key);
    assertEquals(left, [], "keys left after forget");
  } finally {
    kv.close();
  }
});

Deno.test("`using` (sync) starts the save on the way out; it lands", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = denoKvStore(kv);
    let held: string[] = [];
    {
      using r = await openRegulator({ userId: "alice", store, ...MANY });
      correct(r, "short", 2, 0);
      held = ids(r);
    }
    for (let i = 0; i < 100 && (await store.get("reins/memory/alice")) === undefined; i++) {
      await new Promise((ok) => setTimeout(ok, 10));
    }
    await using back = await openRegulator({ userId: "alice", store, ...MANY });
    assertEquals(ids(back), held, "ids");
  } finally {
    kv.close();
  }
});
