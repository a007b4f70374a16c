// In-page helpers for the persistence tests (persist-driver.mjs drives them
// from Node through Playwright, one or more pages at a time). Everything is
// on window.P; each page holds its regulators by name.
import * as reins from "/pkg/entry-browser.js";

const T0 = 1_732_000_000_000;
const regulators = new Map();

// The three corrections of one request that make a pattern (3 = the default
// patternThreshold), and the request that shows it.
const AUTH = "Make my auth module async";
const AUTH_AGAIN = "Add async handling to my auth";
const AUTH_FIXES = ["Don't add logging.", "No tracing, please.", "Stop adding logs."];

function storeOf(kind, database) {
  if (kind === "local") return reins.localStorageStore();
  if (kind === "idb") return reins.indexedDbStore(database === undefined ? undefined : { database });
  throw new Error(`unknown store kind ${kind}`);
}

const describe = (e) => ({
  code: e?.code,
  name: e?.name,
  message: String(e?.message ?? e),
  backupKey: e?.backupKey,
  storeError: e instanceof reins.StoreError,
});

function reg(name) {
  const entry = regulators.get(name);
  if (entry === undefined) throw new Error(`no regulator named ${name} in this page`);
  return entry;
}

window.P = {
  reins,
  T0,
  AUTH_AGAIN,
  AUTH_FIXES,
  /**
   * Opens a StoredRegulator called `name` on a "local" or "idb" store. Every
   * error goes to both lists: `errors` (the onError option) and `events`
   * ("error" listener). With `via: "openRegulator"` the listener is added
   * after loading (so load errors reach `errors` only); otherwise the
   * regulator is constructed, the listener added, then `ready` awaited.
   */
  async open(name, { store = "local", database, via = "new", ...options }) {
    const entry = { errors: [], events: [] };
    const opts = { store: storeOf(store, database), onError: (e) => entry.errors.push(describe(e)), ...options };
    const listen = (r) => r.addEventListener("error", (ev) => entry.events.push(describe(ev.error)));
    let r;
    if (via === "openRegulator") {
      r = await reins.openRegulator(opts);
      listen(r);
    } else {
      r = new reins.StoredRegulator(opts);
      listen(r);
      await r.ready;
    }
    entry.r = r;
    regulators.set(name, entry);
    return r.storeKey;
  },
  reg: (name) => reg(name).r,
  errors: (name) => reg(name).errors,
  events: (name) => reg(name).events,
  codes: (name) => ({ errors: reg(name).errors.map((e) => e.code), events: reg(name).events.map((e) => e.code) }),
  ids: (name) => reg(name).r.corrections().map((c) => c.id).sort(),
  /** One corrected turn; returns the new correction's id. */
  correct(name, request, fix, atMs) {
    const r = reg(name).r;
    const had = new Set(r.corrections().map((c) => c.id));
    r.turnStart(request, atMs);
    r.turnComplete(`Done: ${request}.`, atMs + 900);
    r.userCorrection(fix, { atMs: atMs + 1000 });
    const added = r.corrections().filter((c) => !had.has(c.id));
    if (added.length !== 1 || added[0].text !== fix) {
      throw new Error(`expected one new correction "${fix}", got ${JSON.stringify(added)}`);
    }
    return added[0].id;
  },
  /** Three corrections of one request: a pattern for AUTH_AGAIN. Returns their ids. */
  authPattern(name, t0 = T0) {
    return AUTH_FIXES.map((fix, i) => window.P.correct(name, AUTH, fix, t0 + i * 10_000));
  },
  /** What decide() says on AUTH_AGAIN, and what injectCorrections puts in front. */
  askAgain(name, atMs) {
    const r = reg(name).r;
    r.turnStart(AUTH_AGAIN, atMs);
    return { decision: r.decide(), injected: r.injectCorrections("PROMPT") };
  },
  sleep: (ms) => new Promise((ok) => setTimeout(ok, ms)),
  /** Reads a key straight from IndexedDB (the database must exist). */
  idbGet(database, objectStore, key) {
    return new Promise((ok, fail) => {
      const open = indexedDB.open(database);
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains(objectStore)) {
          db.close();
          ok(undefined);
          return;
        }
        const get = db.transaction(objectStore).objectStore(objectStore).get(key);
        get.onsuccess = () => {
          db.close();
          ok(get.result);
        };
        get.onerror = () => {
          db.close();
          fail(get.error);
        };
      };
    });
  },
  /** The raw stored value of `key` (read without a regulator), or null. */
  async rawGet(kind, database, key) {
    const v = kind === "local" ? localStorage.getItem(key) : await window.P.idbGet(database ?? "reins", "memory", key);
    return v ?? null;
  },
  /**
   * Polls the stored value of `key` for up to `ms` until its snapshot holds
   * every one of `ids`; returns the ids it still lacks (empty: all there).
   */
  async storedLacks(kind, database, key, ids, ms) {
    const t = Date.now();
    for (;;) {
      const v = await window.P.rawGet(kind, database, key);
      const lacks = ids.filter((id) => v === null || !v.includes(`"${id}"`));
      if (lacks.length === 0 || Date.now() - t > ms) return lacks;
      await window.P.sleep(20);
    }
  },
  /** `reins1 <len> <sig|->\n<snapshot>`: the snapshot, or throws. */
  unseal(value) {
    const head = /^reins1 ([0-9]+) (-|[A-Za-z0-9_-]{43})\n/.exec(value ?? "");
    if (head === null) throw new Error(`not a reins1 envelope: ${String(value).slice(0, 80)}`);
    const snapshot = value.slice(head[0].length);
    if (snapshot.length !== Number(head[1])) throw new Error(`envelope length ${head[1]} but ${snapshot.length} characters`);
    JSON.parse(snapshot);
    return snapshot;
  },
};
