// The persistence layer over in-process stores: what is saved and loaded,
// what is refused and kept, what happens when the store fails, and that
// racing copies of one user lose nothing. Real stores in real runtimes are
// tested in tests/browser, tests/workerd, tests/deno and files.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  Regulator,
  StoreError,
  forget,
  memoryKey,
  memoryStore,
  workersKvStore,
  openRegulator,
  signSnapshot,
  verifySnapshot,
} from "../../pkg/entry-node.js";

const T0 = 1_732_000_000_000;
const KEY = "0123456789abcdef-signing-key";

/** `n` explicit corrections, one per answer (see MANY for the options that keep them all). */
function correct(r, tag, n, at = T0) {
  for (let i = 0; i < n; i++) {
    r.turnStart(`Write the ${tag} report number ${words(i)}`, at + i * 1000);
    r.turnComplete("Here is the report.", at + i * 1000 + 10);
    r.userCorrection(`No, the ${tag} report ${words(i)} needs a summary`, { atMs: at + i * 1000 + 20 });
  }
}
// Numbers are not keywords: spell a distinct word per request.
const words = (i) => `${"abcdefghijklmnopqrstuvwxyz"[i % 26]}${"qwxzjv"[Math.floor(i / 26) % 6]}ora`;
// One record per correction, none trimmed: no implicit retries, no per-topic cap.
const MANY = { implicitCorrectionWindowMs: null, maxCorrectionsPerTopic: 200 };

/** Resolves once `cond()` holds (polled), or fails after a second. */
async function until(cond, what) {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((ok) => setTimeout(ok, 10));
  assert.ok(cond(), what);
}

/** Three corrections of one request: a pattern forms. */
function pattern(r, at = T0) {
  for (let i = 0; i < 3; i++) {
    r.turnStart("Refactor fetch_user to be async", at + i * 10_000);
    r.turnComplete("Here is fetch_user, still synchronous.", at + i * 10_000 + 100);
    r.cost({ tokensOut: 900 });
    r.userCorrection("No: fetch_user must use async def", { atMs: at + i * 10_000 + 200 });
  }
}

/** Collects reported errors. */
function errors() {
  const seen = [];
  return { seen, onError: (e) => seen.push(e) };
}

const ids = (r) => r.corrections().map((c) => c.id).sort();

test("memory comes back on open, under the options given now and with a fresh session", async () => {
  const store = memoryStore();
  const a = await openRegulator({ userId: "alice", store, costCapTokens: 2000 });
  pattern(a);
  assert.equal(a.decide().kind, "circuitBreak", "2,700 tokens against 2,000");
  const held = ids(a);
  assert.ok(held.length >= 3);
  assert.equal(await a.close(), true);

  const b = await openRegulator({ userId: "alice", store, costCapTokens: 50_000 });
  assert.equal(b.config.costCapTokens, 50_000);
  assert.equal(b.metrics()["reins.total_tokens_out"], 0);
  assert.deepEqual(ids(b), held);
  b.turnStart("Refactor fetch_user to be async", T0 + 100_000);
  assert.equal(b.decide().kind, "procedural");
  assert.match(b.injectCorrections("Go."), /fetch_user must use async def/);
  await b.close();
});

test("saves are debounced after a change and flush() writes at once", async () => {
  const map = new Map();
  const r = await openRegulator({ userId: "alice", store: memoryStore(map), saveDelayMs: 20, ...MANY });
  r.cost({ tokensOut: 5 });
  r.toolCall("search", { q: "x" });
  await new Promise((ok) => setTimeout(ok, 40));
  assert.equal(map.size, 0, "spend and tool calls are the session's: nothing to save");
  correct(r, "sales", 1);
  assert.equal(map.size, 0, "not yet: debounced");
  await new Promise((ok) => setTimeout(ok, 60));
  assert.equal(map.size, 1, "saved after the delay");
  correct(r, "sales", 2, T0 + 50_000);
  assert.equal(await r.flush(), true);
  assert.equal(Regulator.restore(map.get(r.storeKey).replace(/^[^\n]*\n/, ""), { userId: "alice" }).corrections().length, 2 + 1);
  await r.close();
});

test("users and namespaces never share a key", async () => {
  const store = memoryStore();
  const alice = await openRegulator({ userId: "alice", store });
  correct(alice, "sales", 2);
  await alice.close();
  const bob = await openRegulator({ userId: "bob", store });
  assert.equal(bob.corrections().length, 0);
  const other = await openRegulator({ userId: "alice", store, namespace: "other-app" });
  assert.equal(other.corrections().length, 0);
  await Promise.all([bob.close(), other.close()]);
  assert.notEqual(memoryKey("a/b"), memoryKey("a", "b"));
  assert.equal(memoryKey("a:b/c"), "reins/memory/a%3Ab%2Fc");
  assert.throws(() => memoryKey("alice", "bad/namespace"), TypeError);
});

test("two copies of one user saving at once lose nothing (compare-and-set)", async () => {
  const store = memoryStore();
  const a = await openRegulator({ userId: "alice", store, live: false, ...MANY });
  const b = await openRegulator({ userId: "alice", store, live: false, ...MANY });
  for (let round = 0; round < 10; round++) {
    correct(a, `north${words(round)}`, 5, T0 + round * 100_000);
    correct(b, `south${words(round)}`, 5, T0 + round * 100_000 + 50_000);
    // Both read the same stored value, then both write: one must redo.
    await Promise.all([a.flush(), b.flush()]);
  }
  const union = [...new Set([...ids(a), ...ids(b)])].sort();
  await Promise.all([a.close(), b.close()]);
  const c = await openRegulator({ userId: "alice", store, ...MANY });
  assert.equal(c.corrections().length, 100);
  assert.deepEqual(ids(c), union);
  await c.close();
});

test("ten copies closing at once all land (compare-and-set with backoff)", async () => {
  const store = memoryStore();
  const errors = [];
  const rs = await Promise.all(
    Array.from({ length: 10 }, () => openRegulator({ userId: "alice", store, saveDelayMs: 0, live: false, onError: (e) => errors.push(e.code) })),
  );
  rs.forEach((r, i) => correct(r, `team${words(i)}`, 1, T0 + i * 1000));
  const union = rs.flatMap(ids).sort();
  const saved = await Promise.all(rs.map((r) => r.close()));
  assert.deepEqual(errors, []);
  assert.ok(saved.every(Boolean));
  const check = await openRegulator({ userId: "alice", store });
  assert.deepEqual(ids(check), union);
  check.free();
});

test("a copy merges another's save live, without saving it back", async () => {
  const map = new Map();
  const store = memoryStore(map);
  let writes = 0;
  const counting = { ...store, set: (k, v) => (writes++, store.set(k, v)), setIf: (k, e, v) => (writes++, store.setIf(k, e, v)) };
  const a = await openRegulator({ userId: "alice", store: counting });
  const b = await openRegulator({ userId: "alice", store: counting });
  correct(a, "sales", 2);
  await a.flush();
  const before = writes;
  await until(() => ids(b).join() === ids(a).join(), "b merged a's save");
  await b.flush();
  assert.equal(writes, before, "b had nothing of its own to save");
  await Promise.all([a.close(), b.close()]);
});

test("a copy that hears a save lacking its own corrections saves them again", async () => {
  // Stores whose reads can be stale (localStorage across tabs) let a copy
  // write over another's save; the one written over hears it and repairs.
  const map = new Map();
  const store = memoryStore(map);
  const a = await openRegulator({ userId: "alice", store, saveDelayMs: 0, ...MANY });
  correct(a, "north", 2);
  await a.flush();
  const stale = { ...store, get: async () => undefined, setIf: undefined, watch: undefined };
  const b = await openRegulator({ userId: "alice", store: stale, saveDelayMs: 0, live: false, ...MANY });
  correct(b, "south", 1, T0 + 50_000);
  await b.flush();
  const stored = () => Regulator.restore(map.get(a.storeKey).replace(/^[^\n]*\n/, ""), { userId: "alice", ...MANY });
  await until(() => stored().corrections().length === 3, "a saved its corrections back beside b's");
  assert.deepEqual(ids(stored()), [...ids(a)].sort());
  await Promise.all([a.close(), b.close()]);
});

test("a corrupt or foreign value is kept aside, reported, then replaced", async () => {
  for (const bad of ["not json", "reins1 999 -\n{\"format\":\"reins.state\"", "{\"hello\":1}", "reins1 5 -\nhello"]) {
    const map = new Map();
    const key = memoryKey("alice");
    map.set(key, bad);
    const { seen, onError } = errors();
    const r = await openRegulator({ userId: "alice", store: memoryStore(map), onError });
    assert.equal(seen.length, 1, bad);
    assert.ok(seen[0] instanceof StoreError);
    assert.equal(seen[0].code, "REINS_STORE_CORRUPT");
    assert.equal(seen[0].backupKey, `${key}#refused`);
    assert.equal(map.get(`${key}#refused`), bad, "kept aside as it was");
    correct(r, "sales", 1);
    assert.equal(await r.flush(), true);
    assert.match(map.get(key), /^reins1 /);
    await r.close();
  }
});

test("a partial write is never read back as valid", async () => {
  const store = memoryStore();
  const a = await openRegulator({ userId: "alice", store });
  correct(a, "sales", 3);
  await a.close();
  const full = await store.get(memoryKey("alice"));
  // Every prefix of the stored value that a crash could leave behind.
  for (const cut of [full.length - 1, full.length - 2, Math.floor(full.length / 2), 10]) {
    await store.set(memoryKey("alice"), full.slice(0, cut));
    const { seen, onError } = errors();
    const r = await openRegulator({ userId: "alice", store, onError });
    assert.equal(r.corrections().length, 0, `cut at ${cut}`);
    assert.equal(seen[0]?.code, "REINS_STORE_CORRUPT");
    r.free();
  }
});

test("a newer reins's memory is refused and never overwritten", async () => {
  const map = new Map();
  const key = memoryKey("alice");
  for (const newer of ["reins2 2 -\n{}", (() => {
    const r = new Regulator({ userId: "alice" });
    const text = r.exportMemory().replace('"version":1', '"version":9');
    r.free();
    return `reins1 ${text.length} -\n${text}`;
  })()]) {
    map.set(key, newer);
    const { seen, onError } = errors();
    const r = await openRegulator({ userId: "alice", store: memoryStore(map), onError, saveDelayMs: 0 });
    assert.equal(seen[0]?.code, "REINS_STORE_NEWER");
    correct(r, "sales", 2);
    assert.equal(r.corrections().length, 2, "works on in memory");
    assert.equal(await r.flush(), false);
    await r.close();
    assert.equal(map.get(key), newer, "left exactly as it was");
    assert.equal(map.has(`${key}#refused`), false);
  }
});

test("store failures are reported, and the regulator goes on in memory", async () => {
  const quota = () => Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
  const denied = () => Object.assign(new Error("Access is denied for this document."), { name: "SecurityError" });
  const cases = [
    [{ get: async () => { throw denied(); }, set: async () => { throw denied(); }, delete: async () => {} }, "REINS_STORE_UNAVAILABLE"],
    [{ ...memoryStore(), setIf: async () => { throw quota(); } }, "REINS_STORE_QUOTA"],
    [{ ...memoryStore(), setIf: undefined, set: async () => { throw new Error("disk on fire"); } }, "REINS_STORE_FAILED"],
  ];
  for (const [store, code] of cases) {
    const r = new (await import("../../pkg/entry-node.js")).StoredRegulator({ userId: "alice", store });
    const heard = [];
    r.addEventListener("error", (e) => heard.push(e.error));
    await r.ready;
    pattern(r);
    assert.equal(await r.flush(), false, code);
    assert.ok(heard.some((e) => e.code === code), `${code}: got ${heard.map((e) => e.code)}`);
    assert.ok(heard.every((e) => e instanceof StoreError && e.message.includes(r.storeKey)));
    r.turnStart("Refactor fetch_user to be async", T0 + 100_000);
    assert.equal(r.decide().kind, "procedural", "memory kept in memory");
    r.free();
  }
});

test("with nobody listening, a failure still reaches the console", async () => {
  const warn = console.warn;
  const said = [];
  console.warn = (m) => said.push(m);
  try {
    const r = await openRegulator({ userId: "alice", store: { get: async () => { throw new Error("offline"); }, set: async () => {}, delete: async () => {} } });
    assert.match(said.join("\n"), /reins: get reins\/memory\/alice: offline/);
    r.free();
  } finally {
    console.warn = warn;
  }
});

test("signed memory: unsigned or tampered values are refused and kept aside", async () => {
  const map = new Map();
  const store = memoryStore(map);
  const key = memoryKey("alice");
  const a = await openRegulator({ userId: "alice", store, signingKey: KEY });
  pattern(a);
  const held = ids(a);
  await a.close();
  const signed = map.get(key);
  assert.match(signed, /^reins1 \d+ [A-Za-z0-9_-]{43}\n/);

  const b = await openRegulator({ userId: "alice", store, signingKey: KEY });
  assert.deepEqual(ids(b), held, "its own signature reads back");
  b.free();

  for (const [value, code] of [
    [signed.replace("must use async def", "must use sync defs"), "REINS_STORE_TAMPERED"],
    [signed.replace(/^reins1 (\d+) \S+/, "reins1 $1 -"), "REINS_STORE_UNSIGNED"],
    [signed.replace(/^[^\n]*\n/, ""), "REINS_STORE_UNSIGNED"],
  ]) {
    map.set(key, value);
    const { seen, onError } = errors();
    const c = await openRegulator({ userId: "alice", store, signingKey: KEY, onError });
    assert.equal(c.corrections().length, 0);
    assert.equal(seen[0]?.code, code);
    assert.equal(map.get(`${key}#refused`), value);
    c.free();
  }
  // Signed with another key: tampered.
  map.set(key, signed);
  const { seen, onError } = errors();
  const d = await openRegulator({ userId: "alice", store, signingKey: "another-key-of-16-bytes", onError });
  assert.equal(seen[0]?.code, "REINS_STORE_TAMPERED");
  d.free();
});

test("signSnapshot / verifySnapshot carry a memory through untrusted hands", async () => {
  const r = new Regulator({ userId: "alice" });
  pattern(r);
  const sealed = await signSnapshot(r.exportMemory(), KEY);
  const back = Regulator.restore(await verifySnapshot(sealed, KEY), { userId: "alice" });
  assert.deepEqual(ids(back), ids(r));
  // The same user edited in: refused.
  const edited = sealed.replace('"userId":"alice"', '"userId":"mally"');
  await assert.rejects(verifySnapshot(edited, KEY), (e) => e.code === "REINS_STORE_TAMPERED");
  await assert.rejects(verifySnapshot(r.exportMemory(), KEY), (e) => e.code === "REINS_STORE_UNSIGNED");
  await assert.rejects(signSnapshot(r.exportMemory(), "short"), RangeError);
  r.free();
});

test("storeTexts: false stores none of the user's words", async () => {
  const map = new Map();
  const r = await openRegulator({ userId: "alice", store: memoryStore(map), storeTexts: false });
  r.turnStart("From now on, answer in metric units", T0);
  pattern(r, T0 + 1000);
  assert.ok(r.preferences().length > 0);
  await r.flush();
  const stored = map.get(r.storeKey);
  assert.doesNotMatch(stored, /async def|units/);
  assert.match(r.injectCorrections(""), /async def/, "still held in memory");
  await r.close();
});

test("secrets in corrections are redacted before they are stored", async () => {
  const map = new Map();
  const r = await openRegulator({ userId: "alice", store: memoryStore(map) });
  r.turnStart("Call the API", T0);
  r.turnComplete("Done", T0 + 1);
  const secrets = ["sk-proj-abcdefghijklmnopqrstuv123456", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "AKIAIOSFODNN7EXAMPLE"];
  r.userCorrection(`Use my keys ${secrets.join(" ")} and Bearer abcdefghijklmnopqrstuvwxyz012345`, { atMs: T0 + 2 });
  await r.flush();
  const stored = map.get(r.storeKey);
  for (const s of [...secrets, "abcdefghijklmnopqrstuvwxyz012345"]) assert.ok(!stored.includes(s), s);
  assert.match(stored, /\[redacted\]/);
  await r.close();
});

test("forget() deletes everything held for the user, here and in open copies", async () => {
  const map = new Map();
  const store = memoryStore(map);
  const key = memoryKey("alice");
  map.set(key, "garbage");
  const a = await openRegulator({ userId: "alice", store, onError: () => {} });
  const b = await openRegulator({ userId: "alice", store, onError: () => {} });
  correct(a, "sales", 2);
  await a.flush();
  assert.equal(map.has(`${key}#refused`), true);
  await a.forget();
  assert.equal(map.has(key), false);
  assert.equal(map.has(`${key}#refused`), false);
  assert.equal(a.corrections().length, 0);
  await until(() => b.corrections().length === 0, "the other copy heard it");
  await Promise.all([a.close(), b.close()]);
  assert.equal(map.size, 0, "closing saved nothing back");

  map.set(key, "x");
  await forget({ store, userId: "alice" });
  assert.equal(map.size, 0);
});

test("Regulator.restore and exportMemory check their inputs", () => {
  const r = new Regulator({ userId: "alice" });
  assert.throws(() => Regulator.restore(r.exportMemory(), { userId: "bob" }), /snapshot.userId/);
  assert.throws(() => Regulator.restore(42, { userId: "alice" }), TypeError);
  assert.throws(() => r.exportMemory({ text: false }), /exportMemory.text: is not an option/);
  assert.throws(() => r.exportMemory({ texts: "no" }), TypeError);
  assert.doesNotMatch(r.exportMemory(), /"session":/);
  r.free();
});

test("options are checked before anything is opened", async () => {
  const store = memoryStore();
  await assert.rejects(openRegulator({ userId: "alice" }), /store: must be an object/);
  await assert.rejects(openRegulator({ userId: "alice", store: { get() {} } }), /store.set: must be a function/);
  await assert.rejects(openRegulator({ userId: "alice", store, saveDelayMs: -1 }), RangeError);
  await assert.rejects(openRegulator({ userId: "alice", store, costCapTokenz: 5 }), /options.costCapTokenz: is not an option/);
});

test("workersKvStore reads KV's null as absent (a fake KV: none runs here)", async () => {
  const map = new Map();
  const kv = { get: async (k) => map.get(k) ?? null, put: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
  const store = workersKvStore(kv);
  const a = await openRegulator({ userId: "alice", store });
  correct(a, "sales", 2);
  await a.close();
  const b = await openRegulator({ userId: "alice", store });
  assert.equal(b.corrections().length, 2);
  await b.forget();
  assert.equal(map.size, 0);
  await b.close();
});
