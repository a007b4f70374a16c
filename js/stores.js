// Stores for `openRegulator`: a store is any object with async get, set and
// delete of string values; `setIf` (compare-and-set) makes concurrent
// writers lossless, `watch` lets other copies' saves merge in live.
/* @ts-self-types="./index.d.ts" */
import { StoreError } from "./envelope.js";

/** A Map in this process (tests, one-process servers). */
export function memoryStore(map = new Map()) {
  const watchers = new Set();
  const changed = (key, value) => {
    for (const w of watchers) if (w.key === key) w.onChange(value);
  };
  return {
    async get(key) {
      return map.get(key);
    },
    async set(key, value) {
      map.set(key, value);
      changed(key, value);
    },
    async delete(key) {
      map.delete(key);
      changed(key, undefined);
    },
    async setIf(key, expected, value) {
      if (map.get(key) !== expected) return false;
      map.set(key, value);
      changed(key, value);
      return true;
    },
    watch(key, onChange) {
      const w = { key, onChange };
      watchers.add(w);
      return () => watchers.delete(w);
    },
  };
}

/**
 * `localStorage` (or any Web Storage). Read lazily: where storage is
 * disabled, reading `localStorage` throws, and that surfaces per call.
 */
export function localStorageStore(storage) {
  const s = () => storage ?? globalThis.localStorage;
  return {
    async get(key) {
      return s().getItem(key) ?? undefined;
    },
    async set(key, value) {
      s().setItem(key, value);
    },
    async delete(key) {
      s().removeItem(key);
    },
    // Synchronous between read and write: nothing in this tab runs between.
    async setIf(key, expected, value) {
      if ((s().getItem(key) ?? undefined) !== expected) return false;
      s().setItem(key, value);
      return true;
    },
    watch(key, onChange) {
      if (typeof addEventListener !== "function") return () => {};
      const on = (e) => {
        if (e.key === key) onChange(e.newValue ?? undefined);
      };
      addEventListener("storage", on);
      return () => removeEventListener("storage", on);
    },
  };
}

const request = (r) =>
  new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

/**
 * IndexedDB, plain (no dependency): one object store of string values.
 * Survives the database being deleted under it (reopens on next use) and
 * reports an upgrade blocked by another tab as REINS_STORE_BLOCKED.
 */
export function indexedDbStore({ database = "reins", objectStore = "memory" } = {}) {
  let db;
  let opening;
  // A blocked upgrade still waiting: any other open would queue behind it
  // (and hang), so a call waits a moment for it, then fails as blocked.
  let stuck;
  let unstuck;
  const blocked = () =>
    new StoreError("REINS_STORE_BLOCKED", `IndexedDB ${database}: opening is blocked by another tab holding an older version open; working in memory until it closes`);
  // Every connection lets go when another wants to delete or upgrade the
  // database; one that opens after its caller gave up (blocked) is closed.
  const open = (version) =>
    new Promise((resolve, reject) => {
      const idb = globalThis.indexedDB;
      if (idb === undefined) throw new StoreError("REINS_STORE_UNAVAILABLE", "IndexedDB is not available here");
      const r = version === undefined ? idb.open(database) : idb.open(database, version);
      let gaveUp = false;
      r.onupgradeneeded = () => {
        if (!r.result.objectStoreNames.contains(objectStore)) r.result.createObjectStore(objectStore);
      };
      r.onblocked = () => {
        gaveUp = true;
        stuck = r;
        unstuck = new Promise((ok) => {
          r.addEventListener("success", ok);
          r.addEventListener("error", ok);
        });
        reject(blocked());
      };
      r.onsuccess = () => {
        if (stuck === r) stuck = undefined;
        const d = r.result;
        d.onversionchange = () => {
          d.close();
          if (db === d) db = undefined;
        };
        d.onclose = () => {
          if (db === d) db = undefined;
        };
        if (gaveUp) d.close();
        else resolve(d);
      };
      r.onerror = () => {
        if (stuck === r) stuck = undefined;
        reject(r.error);
      };
    });
  async function connect() {
    const d = await open();
    if (d.objectStoreNames.contains(objectStore)) return d;
    // The database exists without our object store: add it in an upgrade.
    d.close();
    return open(d.version + 1);
  }
  async function tx(mode, fn) {
    if (stuck !== undefined) {
      await Promise.race([unstuck, new Promise((ok) => setTimeout(ok, 1000))]);
      if (stuck !== undefined) throw blocked();
    }
    if (db === undefined) {
      opening ??= connect().finally(() => {
        opening = undefined;
      });
      db = await opening;
    }
    const t = db.transaction(objectStore, mode);
    const done = new Promise((resolve, reject) => {
      t.oncomplete = resolve;
      t.onabort = () => reject(t.error ?? new StoreError("REINS_STORE_FAILED", `IndexedDB ${database}: transaction aborted`));
    });
    const result = await fn(t.objectStore(objectStore));
    await done;
    return result;
  }
  return {
    get: (key) => tx("readonly", (s) => request(s.get(key))),
    set: (key, value) => tx("readwrite", (s) => request(s.put(value, key))),
    delete: (key) => tx("readwrite", (s) => request(s.delete(key))),
    // One readwrite transaction: IndexedDB runs them one at a time.
    setIf: (key, expected, value) =>
      tx("readwrite", async (s) => {
        if ((await request(s.get(key))) !== expected) return false;
        await request(s.put(value, key));
        return true;
      }),
  };
}

/** Cloudflare Workers KV. It has no compare-and-set: for writers that race, use a Durable Object. */
export function workersKvStore(kv) {
  return {
    get: async (key) => (await kv.get(key)) ?? undefined,
    set: (key, value) => kv.put(key, value),
    delete: (key) => kv.delete(key),
  };
}

/**
 * Durable Object storage (`ctx.storage`). A Durable Object runs one event
 * at a time, and no other event is delivered while storage is read, so the
 * read and write of `setIf` are one step.
 */
export function durableObjectStore(storage) {
  return {
    get: (key) => storage.get(key),
    set: (key, value) => storage.put(key, value),
    delete: (key) => storage.delete(key),
    async setIf(key, expected, value) {
      if ((await storage.get(key)) !== expected) return false;
      await storage.put(key, value);
      return true;
    },
  };
}

// Deno KV values are at most 64 KiB; a memory is split in parts written in
// one atomic operation.
const PART = 60 * 1024;

/** Deno KV (`await Deno.openKv()`): atomic compare-and-set on a versionstamp. */
export function denoKvStore(kv, prefix = ["reins"]) {
  const head = (key) => [...prefix, key];
  const part = (key, i) => [...prefix, key, i];
  // Read in batches of nine parts beside the head (getMany reads at most
  // ten keys, consistently): a head that moved meanwhile means a new write.
  async function read(key) {
    for (;;) {
      const h = await kv.get(head(key));
      if (h.value === null) return { h, value: undefined };
      const parts = [];
      for (let i = 0; i < h.value.parts; i += 9) {
        const keys = Array.from({ length: Math.min(9, h.value.parts - i) }, (_, j) => part(key, i + j));
        const got = await kv.getMany([head(key), ...keys]);
        if (got[0].versionstamp !== h.versionstamp) break;
        parts.push(...got.slice(1).map((p) => p.value ?? ""));
      }
      if (parts.length === h.value.parts) return { h, value: parts.join("") };
    }
  }
  async function write(key, value, check) {
    const op = kv.atomic();
    if (check !== undefined) op.check(check);
    const old = check?.value?.parts ?? 0;
    const n = Math.ceil(value.length / PART);
    for (let i = 0; i < n; i++) op.set(part(key, i), value.slice(i * PART, (i + 1) * PART));
    for (let i = n; i < old; i++) op.delete(part(key, i));
    op.set(head(key), { parts: n });
    return (await op.commit()).ok;
  }
  return {
    get: async (key) => (await read(key)).value,
    async set(key, value) {
      const { h } = await read(key);
      if (!(await write(key, value, h))) await this.set(key, value);
    },
    async delete(key) {
      const { h } = await read(key);
      const op = kv.atomic().delete(head(key));
      for (let i = 0; i < (h.value?.parts ?? 0); i++) op.delete(part(key, i));
      await op.commit();
    },
    async setIf(key, expected, value) {
      const { h, value: current } = await read(key);
      return current === expected && write(key, value, h);
    },
  };
}

/**
 * A Redis-style client with `get`, `set`, `del` and `eval(script, numKeys,
 * ...keysAndArgs)` (ioredis; for node-redis pass a small shim). Compare-and-
 * set runs as one Lua script, atomic in Redis.
 */
export function redisStore(client) {
  const CAS = `local v = redis.call('GET', KEYS[1])
if (ARGV[1] == '0' and v == false) or (ARGV[1] == '1' and v == ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[3]) return 1 end
return 0`;
  return {
    get: async (key) => (await client.get(key)) ?? undefined,
    set: (key, value) => client.set(key, value),
    delete: (key) => client.del(key),
    setIf: async (key, expected, value) =>
      Number(await client.eval(CAS, 1, key, expected === undefined ? "0" : "1", expected ?? "", value)) === 1,
  };
}
