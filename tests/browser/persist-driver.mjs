// Persistence tests of openRegulator in real Chromium, driven from Node:
// several pages of one browser context share localStorage, IndexedDB,
// BroadcastChannel and Web Locks, and page.reload() keeps them. The in-page
// helpers are window.P from persist.mjs. Each test pushes one result
// { name, ok, detail? } and closes the pages it opened.

const PAGE = "/tests/browser/persist.html";
const TEST_TIMEOUT_MS = 20_000;

class Failure extends Error {}
function assert(cond, msg) {
  if (!cond) throw new Failure(msg);
}
const show = (v) => JSON.stringify(v);
const sameSet = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Failure(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const ready = (page) => page.waitForFunction(() => window.P, null, { timeout: 5_000 });

/** Polls `fn(arg)` in the page until it is truthy; fails with `msg` after `ms`. */
async function until(page, fn, arg, ms, msg) {
  try {
    await page.waitForFunction(fn, arg, { timeout: ms, polling: 20 });
  } catch {
    throw new Failure(msg);
  }
}

/** No errors or events reported to regulator `name` in `page`. */
async function quiet(page, name, label) {
  const codes = await page.evaluate((n) => ({ errors: P.errors(n), events: P.events(n) }), name);
  assert(codes.errors.length === 0 && codes.events.length === 0, `${label}: unexpected store errors ${show(codes)}`);
}

const KINDS = [["local", "localStorage"], ["idb", "IndexedDB"]];

// --- 1, 2: memory survives a reload; the session does not -----------------

function reloadTest(kind) {
  return async ({ newPage }) => {
    // A '/' in the user id is escaped in the key. IndexedDB: the default
    // database name ("reins").
    const user = `reload user/${kind}`;
    const page = await newPage();
    const before = await page.evaluate(async ({ kind, user }) => {
      const key = await P.open("r", { store: kind, userId: user, via: "openRegulator", saveDelayMs: 10 });
      const r = P.reg("r");
      const ids = P.authPattern("r");
      r.cost({ tokensIn: 100, tokensOut: 700 });
      const { decision } = P.askAgain("r", P.T0 + 99_000);
      const flushed = await r.flush();
      return { key, ids, kind: decision.kind, flushed, out: r.metrics()["reins.total_tokens_out"], cap: r.config.costCapTokens };
    }, { kind, user });
    assert(before.key === `reins/memory/${encodeURIComponent(user)}`, `storeKey ${before.key}`);
    assert(before.kind === "procedural", `before the reload: expected procedural, got ${before.kind}`);
    assert(before.flushed === true, `flush() resolved to ${before.flushed}`);
    assert(before.out === 700 && before.cap === 10_000, `before the reload: tokens out ${before.out}, cap ${before.cap}`);
    await quiet(page, "r", "before the reload");

    await page.reload();
    await ready(page);
    const after = await page.evaluate(async ({ kind, user, key }) => {
      await P.open("r", { store: kind, userId: user, via: "openRegulator", costCapTokens: 4321 });
      const r = P.reg("r");
      const fresh = { ids: P.ids("r"), cap: r.config.costCapTokens, metrics: r.metrics() };
      const asked = P.askAgain("r", P.T0 + 500_000);
      const raw = kind === "local" ? localStorage.getItem(key) : await P.idbGet("reins", "memory", key);
      const elsewhere = kind === "local" ? null : localStorage.getItem(key);
      let sealed;
      try {
        sealed = P.unseal(raw).length;
      } catch (e) {
        sealed = e.message;
      }
      return { ...fresh, ...asked, sealed, elsewhere, fixes: P.AUTH_FIXES };
    }, { kind, user, key: before.key });
    assert(sameSet(after.ids, before.ids), `corrections after the reload ${show(after.ids)}, before ${show(before.ids)}`);
    assert(after.decision.kind === "procedural", `after the reload: expected procedural, got ${show(after.decision)}`);
    assert(after.fixes.every((f) => after.injected.includes(f)) && after.injected.endsWith("PROMPT"),
      `injectCorrections after the reload: ${show(after.injected)}`);
    assert(after.cap === 4321, `config.costCapTokens after reopening with 4321: ${after.cap}`);
    assert(after.metrics["reins.total_tokens_out"] === 0 && after.metrics["reins.turns"] === 0,
      `not a fresh session: ${show(after.metrics)}`);
    assert(typeof after.sealed === "number", `stored value: ${after.sealed}`);
    assert(after.elsewhere === null, "the IndexedDB store wrote to localStorage");
    await quiet(page, "r", "after the reload");
  };
}

// --- 3: two pages write 50 corrections each, interleaved ------------------

function interleaveTest(kind) {
  return async ({ newPage }) => {
    const user = `interleave-${kind}`;
    const database = "reins-interleave";
    const pages = { A: await newPage(), B: await newPage() };
    let key;
    for (const page of Object.values(pages)) {
      // Saves come from the flush() calls below, both at once every round
      // (before the 150 ms delay runs out), so the two pages'
      // read-merge-write cycles overlap 50 times.
      key = await page.evaluate((o) => P.open("r", o), { store: kind, database, userId: user, saveDelayMs: 150 });
    }
    const own = { A: [], B: [] };
    for (let i = 0; i < 50; i++) {
      // One correction per page per round, alternating pages, each under its
      // own request (so no per-topic cap trims anything).
      for (const tag of ["A", "B"]) {
        own[tag].push(await pages[tag].evaluate(({ tag, i }) => {
          const t = tag.toLowerCase();
          return P.correct("r", `Rename the function ${t}q${i} in module ${t}m${i}`, `No, keep the old name ${tag}q${i}.`, P.T0 + i * 200_000);
        }, { tag, i }));
      }
      // Then both save at once. Once both flush() calls resolve true the store
      // holds both memories (allowing 1.5 s for a copy that finds its records
      // overwritten to save them back): a read-merge-write that is not atomic
      // across pages loses one.
      const flushed = await Promise.all(Object.values(pages).map((p) => p.evaluate(() => P.reg("r").flush())));
      assert(flushed.every((f) => f === true), `round ${i}: flush() resolved to ${show(flushed)}`);
      const lacks = await pages.A.evaluate(({ kind, database, key, ids }) => P.storedLacks(kind, database, key, ids, 1_500),
        { kind, database, key, ids: [...own.A, ...own.B] });
      const whose = lacks.map((id) => `${own.A.includes(id) ? "A" : "B"}'s ${id}`).join(", ");
      assert(lacks.length === 0, `round ${i}: both pages' flush() resolved true, yet 1.5 s later the store lacks ${whose} (of ${own.A.length + own.B.length} corrections): a lost update`);
    }
    await quiet(pages.A, "r", "page A");
    await quiet(pages.B, "r", "page B");
    const union = [...own.A, ...own.B];
    assert(new Set(union).size === 100, `expected 100 distinct ids recorded, got ${new Set(union).size}`);
    const third = await newPage();
    const loaded = await third.evaluate(async (o) => {
      await P.open("r", o);
      return P.ids("r");
    }, { store: kind, database, userId: user });
    assert(loaded.length === 100, `a third page loaded ${loaded.length} corrections, expected 100`);
    const missing = union.filter((id) => !loaded.includes(id));
    const extra = loaded.filter((id) => !union.includes(id));
    assert(missing.length === 0 && extra.length === 0, `ids differ from the union: missing ${show(missing)}, extra ${show(extra)}`);
    await quiet(third, "r", "third page");
  };
}

// --- 4: an open, idle page merges another page's save live ---------------

function liveTest(kind) {
  return async ({ newPage }) => {
    const o = { store: kind, database: "reins-live", userId: `live-${kind}`, saveDelayMs: 10 };
    const a = await newPage();
    const b = await newPage();
    await a.evaluate((o) => P.open("r", o), o);
    await b.evaluate((o) => P.open("r", o), o);
    const id = await a.evaluate(async () => {
      const id = P.correct("r", "Translate the release notes to German", "Use the formal Sie, not du.", P.T0);
      if ((await P.reg("r").flush()) !== true) throw new Error("flush() did not resolve to true");
      return id;
    });
    const t = Date.now();
    await until(b, (id) => P.reg("r").corrections().some((c) => c.id === id), id, 3_000,
      "page B did not see page A's saved correction within 3 s (no live merge)");
    const heard = await b.evaluate(() => P.reg("r").corrections().length);
    assert(heard === 1, `page B holds ${heard} corrections, expected 1`);
    await quiet(a, "r", "page A");
    await quiet(b, "r", "page B");
    return `seen after ${Date.now() - t} ms`;
  };
}

// --- 5: localStorage full ----------------------------------------------------

async function quotaTest({ newPage }) {
  const page = await newPage();
  try {
    const out = await page.evaluate(async () => {
      const key = await P.open("r", { store: "local", userId: "quota", saveDelayMs: 10 });
      // Fill the origin's quota, big pieces first, then free about 2,000
      // characters: a small write fits, the memory (about 4,500) does not.
      const sizes = [];
      for (let size = 1 << 20; size >= 16; ) {
        try {
          localStorage.setItem(`junk/${sizes.length}`, "x".repeat(size));
          sizes.push(size);
        } catch (e) {
          if (e.name !== "QuotaExceededError") throw e;
          size >>= 2;
        }
      }
      let freed = 0;
      while (freed < 2048) {
        freed += sizes.at(-1);
        localStorage.removeItem(`junk/${sizes.length - 1}`);
        sizes.pop();
      }
      if (freed > 4096) {
        localStorage.setItem(`junk/${sizes.length}`, "x".repeat(freed - 2048));
        sizes.push(freed - 2048);
      }
      const n = sizes.length - 1;
      localStorage.setItem("probe", "y".repeat(64)); // there is room, a little
      localStorage.removeItem("probe");
      // A memory of several KB: corrections with long texts.
      const r = P.reg("r");
      // Stored texts are cut at 1,000 characters: about 1.5 KB per correction.
      const long = " It must stay exactly as it was before, with every line in the same order.".repeat(13);
      const ids = P.AUTH_FIXES.map((fix, i) => P.correct("r", "Make my auth module async", fix + long, P.T0 + i * 10_000));
      const memoryChars = r.exportMemory().length;
      const t = Date.now();
      while (P.events("r").length === 0 && Date.now() - t < 3_000) await P.sleep(10);
      const reported = P.codes("r");
      const errorEvent = P.events("r")[0];
      // Still working, in memory.
      const kept = P.ids("r");
      const { decision } = P.askAgain("r", P.T0 + 99_000);
      const whileFull = await r.flush();
      for (let i = 0; i <= n; i++) localStorage.removeItem(`junk/${i}`);
      const afterClearing = await r.flush();
      let stored;
      try {
        const snapshot = P.unseal(localStorage.getItem(key));
        stored = ids.every((id) => snapshot.includes(id));
      } catch (e) {
        stored = e.message;
      }
      return { junkKeys: sizes.length, memoryChars, reported, errorEvent, ids, kept, kind: decision.kind, whileFull, afterClearing, stored };
    });
    assert(out.junkKeys > 3, `filled with only ${out.junkKeys} keys`);
    assert(out.reported.events[0] === "REINS_STORE_QUOTA" && out.errorEvent.storeError,
      `expected an "error" event with code REINS_STORE_QUOTA (memory ${out.memoryChars} chars), got ${show(out.reported)} ${show(out.errorEvent)}`);
    assert(out.reported.errors[0] === "REINS_STORE_QUOTA", `onError got ${show(out.reported.errors)}`);
    assert(sameSet(out.kept, out.ids), `corrections in memory after the failed save: ${show(out.kept)}`);
    assert(out.kind === "procedural", `decide() after the failed save: ${out.kind}`);
    assert(out.whileFull === false, `flush() while full resolved to ${out.whileFull}, expected false`);
    assert(out.afterClearing === true, `flush() after clearing the junk resolved to ${out.afterClearing}`);
    assert(out.stored === true, `stored memory after clearing: ${out.stored}`);
  } finally {
    // Never leave the origin full for the tests that follow.
    await page.evaluate(() => {
      for (const k of Object.keys(localStorage)) if (k.startsWith("junk/")) localStorage.removeItem(k);
    }).catch(() => {});
  }
}

// --- 6: storage disabled (opaque origin) -----------------------------------

async function unavailableTest({ newPage }) {
  const page = await newPage();
  await page.evaluate(() => new Promise((ok, fail) => {
    const f = document.createElement("iframe");
    f.setAttribute("sandbox", "allow-scripts"); // no allow-same-origin: an opaque origin
    f.src = "/tests/browser/persist.html?sandboxed";
    f.onload = ok;
    f.onerror = fail;
    document.body.append(f);
  }));
  const frame = page.frames().find((f) => f.url().includes("?sandboxed"));
  assert(frame !== undefined, "no sandboxed frame");
  await frame.waitForFunction(() => window.P, null, { timeout: 5_000 });
  const out = await frame.evaluate(async () => {
    const probe = (fn) => {
      try {
        fn();
        return "no error";
      } catch (e) {
        return e.name;
      }
    };
    const pre = {
      origin: self.origin,
      localStorage: probe(() => localStorage.length),
      indexedDB: probe(() => indexedDB.open("probe")),
    };
    const per = {};
    for (const kind of ["local", "idb"]) {
      await P.open(kind, { store: kind, userId: "sandboxed", saveDelayMs: 10 });
      const loaded = P.codes(kind);
      const r = P.reg(kind);
      P.authPattern(kind);
      const { decision, injected } = P.askAgain(kind, P.T0 + 99_000);
      const flushed = await r.flush();
      per[kind] = { loaded, kind: decision.kind, injected: injected.includes("Stop adding logs."), flushed, after: P.codes(kind), messages: P.errors(kind).map((e) => e.message) };
    }
    return { pre, per };
  });
  assert(out.pre.origin === "null" && out.pre.localStorage === "SecurityError" && out.pre.indexedDB === "SecurityError",
    `the frame is not storage-less as expected: ${show(out.pre)}`);
  for (const kind of ["local", "idb"]) {
    const r = out.per[kind];
    assert(r.loaded.errors[0] === "REINS_STORE_UNAVAILABLE" && r.loaded.events[0] === "REINS_STORE_UNAVAILABLE",
      `${kind}: loading reported ${show(r.loaded)}, expected REINS_STORE_UNAVAILABLE on onError and "error"`);
    assert(r.kind === "procedural" && r.injected, `${kind}: in-memory decisions ${r.kind}, injected ${r.injected}`);
    assert(r.flushed === false, `${kind}: flush() resolved to ${r.flushed} with no storage`);
    assert(r.after.events.length > 1 && r.after.events.every((c) => c === "REINS_STORE_UNAVAILABLE"),
      `${kind}: the failed save reported ${show(r.after)} (${show(r.messages)})`);
  }
}

// --- 7: IndexedDB upgrade blocked by another page ------------------------------

/**
 * A page holds `database` open at version 1 without an object store and
 * ignores versionchange; a regulator opened in another page must upgrade it,
 * is blocked, and goes on in memory. Then the holder closes its connection
 * and the regulator's flush() goes through.
 */
async function blockedThenSaved(newPage, database) {
  const holder = await newPage();
  await holder.evaluate((database) => new Promise((ok, fail) => {
    const open = indexedDB.open(database, 1); // no object store
    open.onsuccess = () => {
      window.held = open.result;
      window.held.onversionchange = () => {}; // ignored: keeps it open
      ok();
    };
    open.onerror = () => fail(open.error);
  }), database);
  const page = await newPage();
  const o = { store: "idb", database, userId: "blocked", saveDelayMs: 10 };
  const during = await page.evaluate(async (o) => {
    await P.open("r", o);
    const loaded = P.codes("r");
    const ids = P.authPattern("r");
    const { decision } = P.askAgain("r", P.T0 + 99_000);
    return { loaded, ids, kind: decision.kind, messages: P.errors("r").map((e) => e.message) };
  }, o);
  assert(during.loaded.errors[0] === "REINS_STORE_BLOCKED" && during.loaded.events[0] === "REINS_STORE_BLOCKED",
    `expected REINS_STORE_BLOCKED on onError and "error", got ${show(during.loaded)} ${show(during.messages)}`);
  assert(during.kind === "procedural", `decide() while blocked: ${during.kind}`);
  await sleep(50); // the debounced save starts while still blocked
  await holder.evaluate(() => window.held.close());
  const flushed = await within(4_000, page.evaluate(() => P.reg("r").flush()), "flush() after the other page closed");
  assert(flushed === true, `flush() after the other page closed resolved to ${flushed}`);
  return { holder, page, o, ids: during.ids };
}

async function blockedTest({ newPage }) {
  const { page, o, ids } = await blockedThenSaved(newPage, "reins-blocked");
  await page.reload();
  await ready(page);
  const reloaded = await page.evaluate(async (o) => {
    await P.open("r", o);
    return { ids: P.ids("r"), codes: P.codes("r") };
  }, o);
  assert(sameSet(reloaded.ids, ids), `after the reload: ${show(reloaded.ids)}, saved ${show(ids)}`);
  assert(reloaded.codes.errors.length === 0, `errors after the reload: ${show(reloaded.codes)}`);
}

// After the block, the regulator's page must not hold a connection that
// ignores versionchange: the next upgrade by another page has to go through
// (the regulator lets go and reopens on its next save).
async function blockedLeavesNoConnection({ newPage }) {
  const { holder, page, ids } = await blockedThenSaved(newPage, "reins-blocked-2");
  const upgrade = await holder.evaluate((database) => new Promise((ok, fail) => {
    const open = indexedDB.open(database, 1000);
    let blocked = false;
    open.onblocked = () => {
      blocked = true;
      setTimeout(() => ok("still blocked after 2 s"), 2_000);
    };
    open.onsuccess = () => {
      open.result.close();
      ok(blocked ? "upgraded after a transient block" : "upgraded");
    };
    open.onerror = () => fail(open.error);
  }), "reins-blocked-2");
  assert(upgrade.startsWith("upgraded"),
    `another page's upgrade of the database is ${upgrade}: the regulator's page holds a connection that ignores versionchange`);
  const after = await page.evaluate(async () => {
    const id = P.correct("r", "Write the changelog for 2.0", "Group the entries by component.", P.T0 + 200_000);
    return { id, flushed: await P.reg("r").flush(), codes: P.codes("r") };
  });
  assert(after.flushed === true, `flush() after the other page's upgrade resolved to ${after.flushed} ${show(after.codes)}`);
  const lacks = await holder.evaluate(({ key, ids }) => P.storedLacks("idb", "reins-blocked-2", key, ids, 0),
    { key: "reins/memory/blocked", ids: [...ids, after.id] });
  assert(lacks.length === 0, `after the upgrade the store lacks ${show(lacks)}`);
}

// --- 8: IndexedDB deleted under an open regulator -------------------------

async function deletedTest({ newPage }) {
  const database = "reins-deleted";
  const o = { store: "idb", database, userId: "deleted", saveDelayMs: 10 };
  const a = await newPage();
  const first = await a.evaluate(async (o) => {
    await P.open("r", o);
    const ids = P.authPattern("r");
    return { ids, flushed: await P.reg("r").flush() };
  }, o);
  assert(first.flushed === true, `first flush() resolved to ${first.flushed}`);
  const b = await newPage();
  const deletion = await within(4_000, b.evaluate((database) => new Promise((ok, fail) => {
    let blocked = false;
    const del = indexedDB.deleteDatabase(database);
    del.onblocked = () => {
      blocked = true;
    };
    del.onsuccess = async () => ok({ blocked, left: (await indexedDB.databases()).map((d) => d.name) });
    del.onerror = () => fail(del.error);
  }), database), "deleteDatabase while page A holds it open");
  assert(!deletion.left.includes(database), `the database is still there: ${show(deletion.left)}`);
  const second = await a.evaluate(async () => {
    const id = P.correct("r", "Write the changelog for 2.0", "Group the entries by component.", P.T0 + 200_000);
    return { id, flushed: await P.reg("r").flush() };
  });
  assert(second.flushed === true, `flush() after the deletion resolved to ${second.flushed}`);
  await quiet(a, "r", "page A");
  await a.reload();
  await ready(a);
  const ids = await a.evaluate(async (o) => {
    await P.open("r", o);
    return P.ids("r");
  }, o);
  const all = [...first.ids, second.id];
  assert(sameSet(ids, all), `after the reload: ${show(ids)}, expected all of ${show(all)}`);
  return deletion.blocked ? "(deleteDatabase saw a transient blocked event)" : undefined;
}

// --- 9: a corrupt blob is kept aside, then replaced -------------------------

async function corruptTest({ newPage }) {
  const garbage = 'reins1 999 -\n{"trunc';
  const page = await newPage();
  const out = await page.evaluate(async (garbage) => {
    const key = P.reins.memoryKey("corrupt");
    localStorage.setItem(key, garbage);
    await P.open("r", { store: "local", userId: "corrupt", saveDelayMs: 10 });
    const loaded = { codes: P.codes("r"), error: P.errors("r")[0], ids: P.ids("r") };
    const aside = localStorage.getItem(`${key}#refused`);
    const ids = P.authPattern("r");
    const flushed = await P.reg("r").flush();
    let saved;
    try {
      const snapshot = P.unseal(localStorage.getItem(key));
      saved = ids.every((id) => snapshot.includes(id));
    } catch (e) {
      saved = e.message;
    }
    return { key, loaded, aside, asideLater: localStorage.getItem(`${key}#refused`), ids, flushed, saved };
  }, garbage);
  assert(out.loaded.codes.errors[0] === "REINS_STORE_CORRUPT" && out.loaded.codes.events[0] === "REINS_STORE_CORRUPT",
    `loading the garbage reported ${show(out.loaded.codes)}`);
  assert(out.loaded.error.backupKey === `${out.key}#refused`, `backupKey ${out.loaded.error.backupKey}`);
  assert(out.aside === garbage && out.asideLater === garbage, `kept aside: ${show(out.aside)}, later ${show(out.asideLater)}`);
  assert(out.loaded.ids.length === 0, `corrections read from garbage: ${show(out.loaded.ids)}`);
  assert(out.flushed === true && out.saved === true, `saving over the garbage: flush ${out.flushed}, stored ${out.saved}`);
  const other = await newPage();
  const loaded = await other.evaluate(async () => {
    await P.open("r", { store: "local", userId: "corrupt" });
    return { ids: P.ids("r"), codes: P.codes("r") };
  });
  assert(sameSet(loaded.ids, out.ids) && loaded.codes.errors.length === 0, `another page loaded ${show(loaded)}`);
}

// --- 10: forget ------------------------------------------------------------------

function forgetTest(kind) {
  return async ({ newPage }) => {
    const o = { store: kind, database: "reins-forget", userId: `forget-${kind}`, saveDelayMs: 10 };
    const garbage = "not a snapshot";
    const a = await newPage();
    const first = await a.evaluate(async ({ o, garbage }) => {
      const key = P.reins.memoryKey(o.userId);
      // Garbage first, so that there is a kept-aside copy to forget too.
      await (o.store === "local" ? P.reins.localStorageStore() : P.reins.indexedDbStore({ database: o.database })).set(key, garbage);
      await P.open("r", o);
      const ids = P.authPattern("r");
      return { key, codes: P.codes("r"), ids, flushed: await P.reg("r").flush() };
    }, { o, garbage });
    assert(first.codes.errors[0] === "REINS_STORE_CORRUPT", `set-up: ${show(first.codes)}`);
    assert(first.flushed === true, `set-up flush() resolved to ${first.flushed}`);
    const b = await newPage();
    const bIds = await b.evaluate(async (o) => {
      await P.open("r", o);
      return P.ids("r");
    }, o);
    assert(sameSet(bIds, first.ids), `page B loaded ${show(bIds)}`);
    const read = (page) => page.evaluate(async ({ o, key }) => {
      const s = o.store === "local" ? P.reins.localStorageStore() : P.reins.indexedDbStore({ database: o.database });
      return { value: (await s.get(key)) ?? null, aside: (await s.get(`${key}#refused`)) ?? null };
    }, { o, key: first.key });
    const before = await read(a);
    assert(before.value !== null && before.aside === garbage, `set-up: store holds ${show(before)}`);

    // localStorage: the regulator's forget(); IndexedDB: the module's forget(), from page A.
    const mine = await a.evaluate(async (o) => {
      if (o.store === "local") await P.reg("r").forget();
      else await P.reins.forget({ store: P.reins.indexedDbStore({ database: o.database }), userId: o.userId });
      return P.ids("r");
    }, o);
    const stored = await read(a);
    assert(stored.value === null && stored.aside === null, `after forget() the store holds ${show(stored)}`);
    if (o.store === "local") assert(mine.length === 0, `page A still holds ${show(mine)}`);
    await until(a, () => P.reg("r").corrections().length === 0, undefined, 3_000,
      "page A still holds the corrections 3 s after forget()");
    await until(b, () => P.reg("r").corrections().length === 0, undefined, 3_000,
      "page B still holds the corrections 3 s after forget()");
    // Nobody writes the forgotten memory back, as either page sees the store...
    await sleep(100);
    for (const [label, page] of [["A", a], ["B", b]]) {
      const later = await read(page);
      assert(later.value === null && later.aside === null,
        `the memory came back after forget() (read in page ${label}): ${String(later.value).slice(0, 120)}`);
    }
    // ...and B's next save holds only what came after (read in page A once it
    // arrives there: localStorage reaches other pages asynchronously).
    const after = await b.evaluate(async () => {
      const id = P.correct("r", "Summarise the meeting notes", "Shorter, three bullets at most.", P.T0 + 300_000);
      return { id, flushed: await P.reg("r").flush() };
    });
    assert(after.flushed === true, `page B's flush() after forget() resolved to ${after.flushed}`);
    const fresh = await a.evaluate(async ({ o, key, id }) => {
      for (const t = Date.now(); ; await P.sleep(20)) {
        const v = await P.rawGet(o.store, o.database, key);
        if ((v !== null && v.includes(`"${id}"`)) || Date.now() - t > 1_500) return v === null ? null : P.unseal(v);
      }
    }, { o, key: first.key, id: after.id });
    assert(fresh !== null && fresh.includes(after.id) && first.ids.every((id) => !fresh.includes(id)),
      `page B's next save after forget(): stored ${String(fresh).slice(0, 200)}`);
    await quiet(b, "r", "page B");
  };
}

export const PERSIST_TESTS = [
  ["1. localStorage: memory survives a reload, the session starts fresh under the new options", reloadTest("local")],
  ["2. IndexedDB: memory survives a reload, the session starts fresh under the new options", reloadTest("idb")],
  ...KINDS.map(([k, label]) => [`3. ${label}: two pages write 50 corrections each, interleaved; a third loads all 100`, interleaveTest(k)]),
  ...KINDS.map(([k, label]) => [`4. ${label}: an idle open page merges another page's save live`, liveTest(k)]),
  ["5. localStorage full: REINS_STORE_QUOTA, the regulator goes on, flush() succeeds once there is room", quotaTest],
  ["6. storage disabled (sandboxed frame): REINS_STORE_UNAVAILABLE, decisions in memory", unavailableTest],
  ["7. IndexedDB upgrade blocked by another page: REINS_STORE_BLOCKED, then saved once it closes", blockedTest],
  ["7. IndexedDB, after the block: no connection left open that blocks another page's upgrade", blockedLeavesNoConnection],
  ["8. IndexedDB deleted under an open regulator: the next save writes its whole memory", deletedTest],
  ["9. corrupt blob: REINS_STORE_CORRUPT, kept under #refused, replaced by the next save", corruptTest],
  ["10. localStorage: forget() clears key and backup here and in another open page", forgetTest("local")],
  ["10. IndexedDB: forget({store, userId}) clears key and backup and open pages", forgetTest("idb")],
].map(([name, fn]) => [`[persist] ${name}`, fn]);

/** Runs every test in order (they share one origin), each with its own pages. */
export async function runPersistTests({ context, base, watch, results }) {
  for (const [name, fn] of PERSIST_TESTS) {
    const pages = [];
    let over = false;
    const newPage = async () => {
      if (over) throw new Failure("the test is over (timed out)");
      const page = await context.newPage();
      pages.push(page);
      watch(page, name);
      await page.goto(`${base}${PAGE}`);
      await ready(page);
      return page;
    };
    const started = Date.now();
    try {
      const note = await within(TEST_TIMEOUT_MS, fn({ newPage }), name);
      results.push({ name, ok: true, ms: Date.now() - started, note });
    } catch (e) {
      results.push({ name, ok: false, detail: e instanceof Failure ? e.message : String(e?.stack ?? e) });
    } finally {
      over = true;
      await Promise.all(pages.map((p) => p.close().catch(() => {})));
    }
  }
}
