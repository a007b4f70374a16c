// A regulator whose user memory lives in a key-value store: loaded when it
// opens, saved (debounced) after every change to it, merged with what other
// tabs, Worker instances or processes saved meanwhile. What is stored is the
// memory only; every open starts a fresh session under the app's options.
/* @ts-self-types="./index.d.ts" */
import { Regulator } from "./regulator.js";
import { FORGET, MERGE_BEHIND, REVISION } from "./hidden.js";
import { StoreError, checkSecret, invalid, seal, unseal } from "./envelope.js";

const SAVE_DELAY_MS = 250;
const FAILED = Symbol("failed");
// Rounds of read-merge-write before a save gives up on a store that keeps
// changing under it. Of writers that race, one wins each round; the others
// wait a random while (up to BACKOFF_MS, doubling) so they stop colliding:
// 10 Workers saving one user at once all land within a few rounds.
const ATTEMPTS = 24;
const BACKOFF_MS = 100;

/** The store key of a user's memory: users never share one. */
export function memoryKey(userId, namespace = "reins") {
  if (typeof userId !== "string" || userId === "") throw invalid(TypeError, "userId: must be a non-empty string");
  if (typeof namespace !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(namespace)) {
    throw invalid(TypeError, "namespace: must be 1 to 64 letters, digits, '_', '.' or '-'");
  }
  return `${namespace}/memory/${encodeURIComponent(userId)}`;
}

/** Where a refused value is kept aside. */
const backupKey = (key) => `${key}#refused`;

function checkStore(store) {
  if (typeof store !== "object" || store === null) throw invalid(TypeError, "store: must be an object with get, set and delete");
  for (const m of ["get", "set", "delete"]) {
    if (typeof store[m] !== "function") throw invalid(TypeError, `store.${m}: must be a function`);
  }
}

/** A store's failure as a StoreError with a code the app can act on. */
function failure(e, action, key) {
  if (e instanceof StoreError) return e;
  const name = e?.name ?? "";
  const why = e?.message ?? String(e);
  if (name === "QuotaExceededError" || /quota|too large|exceed/i.test(why)) {
    return new StoreError("REINS_STORE_QUOTA", `${action} ${key}: the store is full (${why})`, { cause: e, key });
  }
  if (name === "SecurityError" || name === "NotAllowedError") {
    return new StoreError("REINS_STORE_UNAVAILABLE", `${action} ${key}: storage is not available here (${why})`, { cause: e, key });
  }
  return new StoreError("REINS_STORE_FAILED", `${action} ${key}: ${why}`, { cause: e, key });
}

/** Deletes a user's memory and what was kept aside of it; a failure rejects as a StoreError. */
async function deleteAll(store, key) {
  for (const k of [key, backupKey(key)]) {
    try {
      await store.delete(k);
    } catch (e) {
      throw failure(e, "delete", k);
    }
  }
}

/** Runs `fn` holding the origin-wide lock on `key` where there is one (browsers). */
function locked(key, fn) {
  const locks = globalThis.navigator?.locks;
  return locks?.request ? locks.request(`reins:${key}`, fn) : fn();
}

const OWN = new Set(["store", "namespace", "saveDelayMs", "storeTexts", "signingKey", "onError", "live"]);

export class StoredRegulator extends Regulator {
  #store;
  #key;
  #delay;
  #texts;
  #secret;
  #onError;
  #events = new EventTarget();
  /** The memory revision the store holds (as far as this copy knows). */
  #saved;
  /** The store's value this copy has merged or written. */
  #seen;
  #timer;
  /** The save running now, if any; saves never overlap. */
  #saving;
  /** Set when the store holds a newer reins's memory: never overwrite it. */
  #frozen = false;
  #closed;
  #unwatch = [];
  #channel;
  /** Resolves when the stored memory has been read (or found unreadable). */
  ready;

  constructor(options) {
    if (typeof options !== "object" || options === null) throw invalid(TypeError, "options: must be an object");
    // Checked before the core is made: a refused option leaves nothing behind.
    const { store, namespace, saveDelayMs = SAVE_DELAY_MS, storeTexts = true, signingKey, onError, live = true } = options;
    checkStore(store);
    if (typeof saveDelayMs !== "number" || !(saveDelayMs >= 0)) throw invalid(RangeError, "saveDelayMs: must be a number of at least 0");
    if (typeof storeTexts !== "boolean") throw invalid(TypeError, "storeTexts: must be true or false");
    if (typeof live !== "boolean") throw invalid(TypeError, "live: must be true or false");
    if (onError !== undefined && typeof onError !== "function") throw invalid(TypeError, "onError: must be a function");
    if (signingKey !== undefined) checkSecret(signingKey);
    memoryKey("-", namespace);
    const config = {};
    for (const k of Object.keys(options)) if (!OWN.has(k)) config[k] = options[k];
    super(config);
    this.#store = store;
    this.#key = memoryKey(this.userId, namespace);
    this.#delay = saveDelayMs;
    this.#texts = storeTexts;
    this.#secret = signingKey;
    this.#onError = onError;
    this.#saved = this[REVISION]();
    this.ready = this.#load();
    if (live) this.#listen();
  }

  /** The store key this user's memory is saved under. */
  get storeKey() {
    return this.#key;
  }

  /** `"error"` events carry `.error`, a StoreError with a `code`. */
  addEventListener(type, listener, options) {
    if (type === "error" && listener) this.#listening.add(listener);
    this.#events.addEventListener(type, listener, options);
  }

  removeEventListener(type, listener, options) {
    if (type === "error") this.#listening.delete(listener);
    this.#events.removeEventListener(type, listener, options);
  }

  #listening = new Set();

  /** Tells the app; with nobody listening, the console does: never silent. */
  #report(error) {
    if (this.#onError !== undefined) {
      try {
        this.#onError(error);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
    const event = new Event("error");
    event.error = error;
    this.#events.dispatchEvent(event);
    if (this.#onError === undefined && this.#listening.size === 0) console.warn(`reins: ${error.message}`);
  }

  // --- memory changes ------------------------------------------------------

  #touch() {
    if (this[REVISION]() === this.#saved || this.#closed !== undefined) return;
    // Not pushed back by further changes: a busy session still saves
    // within one delay of its first unsaved change.
    if (this.#frozen || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#save();
    }, this.#delay);
  }

  // Every method that can change the memory is the base one, then a check
  // of the memory's revision (one number from the module). The others
  // (tool calls, spend, decide) are inherited as they are.
  static {
    for (const name of ["turnStart", "turnComplete", "qualityFeedback", "userCorrection", "event", "dismissRule", "merge", "setConfig", "chatRequest", "chatResponse"]) {
      const base = Regulator.prototype[name];
      Object.defineProperty(this.prototype, name, {
        value: {
          [name](...args) {
            const out = base.apply(this, args);
            this.#touch();
            return out;
          },
        }[name],
        writable: true,
        configurable: true,
      });
    }
  }

  // --- loading and saving --------------------------------------------------

  /**
   * Reads a stored value into this memory. Returns `"read"`, `"behind"`
   * (read, and it lacks part of this memory: the store needs a save), or
   * `"refused"` (reported, and kept aside unless it is a newer reins's).
   */
  async #absorb(value) {
    const r = await unseal(value, this.#secret);
    let refused = r.refused;
    let why = r.why;
    if (refused === undefined) {
      try {
        return this[MERGE_BEHIND](r.snapshot, this.#texts) ? "behind" : "read";
      } catch (e) {
        const newer = e instanceof RangeError && /^snapshot\.version: .*newer/.test(e.message);
        refused = newer ? "REINS_STORE_NEWER" : "REINS_STORE_CORRUPT";
        why = `is not a snapshot this regulator can read (${e.message})`;
      }
    }
    if (refused === "REINS_STORE_NEWER") {
      // Ours would lose what the newer reins wrote: stop saving here.
      this.#frozen = true;
      clearTimeout(this.#timer);
      this.#report(new StoreError(refused, `${this.#key} ${why}; it is left as it is and this regulator will not save over it (upgrade reins)`, { key: this.#key }));
      return "refused";
    }
    const spare = backupKey(this.#key);
    try {
      await this.#store.set(spare, value);
    } catch (e) {
      // Not kept aside, so not overwritten either.
      this.#frozen = true;
      this.#report(new StoreError(refused, `${this.#key} ${why}; keeping it aside under ${spare} failed (${failure(e, "set", spare).message}), so it is left in place and this regulator will not save over it`, { key: this.#key, cause: e }));
      return "refused";
    }
    this.#report(new StoreError(refused, `${this.#key} ${why}; it was kept aside under ${spare} and will be replaced by this regulator's memory`, { key: this.#key, backupKey: spare }));
    return "refused";
  }

  async #load() {
    try {
      await this.#loadNow();
    } catch (e) {
      this.#report(failure(e, "load", this.#key));
    }
  }

  /** The stored value (`undefined` when absent), or FAILED, reported. */
  async #get() {
    try {
      return (await this.#store.get(this.#key)) ?? undefined;
    } catch (e) {
      this.#report(failure(e, "get", this.#key));
      return FAILED;
    }
  }

  async #loadNow() {
    const value = await this.#get();
    if (value === undefined || value === FAILED) return;
    const read = await this.#absorb(value);
    this.#seen = value;
    // What was loaded is saved; changes made before it arrived are not.
    if (read === "read") this.#saved = this[REVISION]();
    this.#touch();
  }

  /** Whether changes since the last save are waiting (set before loading ends too). */
  get #dirty() {
    return this[REVISION]() !== this.#saved;
  }

  /** Read the store, merge what others wrote, write the union; no two at once. */
  #save() {
    const run = (this.#saving ?? Promise.resolve()).then(() => this.#saveNow());
    this.#saving = run;
    void run.then(() => {
      if (this.#saving === run) this.#saving = undefined;
    });
    return run;
  }

  async #saveNow() {
    await this.ready;
    if (this.#frozen || !this.#dirty) return !this.#frozen;
    try {
      return await locked(this.#key, () => this.#writeRounds());
    } catch (e) {
      this.#report(failure(e, "save", this.#key));
      return false;
    }
  }

  async #writeRounds() {
    const store = this.#store;
    for (let round = 0; round < ATTEMPTS; round++) {
      const current = await this.#get();
      if (current === FAILED) return false;
      if (current !== undefined && current !== this.#seen) {
        await this.#absorb(current);
        if (this.#frozen) return false;
      }
      const revision = this[REVISION]();
      const value = await seal(this.exportMemory({ texts: this.#texts }), this.#secret);
      let written = true;
      try {
        if (typeof store.setIf === "function") written = await store.setIf(this.#key, current, value);
        else await store.set(this.#key, value);
      } catch (e) {
        this.#report(failure(e, "set", this.#key));
        return false;
      }
      if (!written) {
        await new Promise((ok) => setTimeout(ok, Math.random() * Math.min(BACKOFF_MS, 2 ** round)));
        continue;
      }
      this.#seen = value;
      this.#saved = revision;
      this.#announce();
      // Changes made while this save ran are saved by the next one.
      if (this.#dirty) this.#touch();
      return true;
    }
    this.#report(new StoreError("REINS_STORE_CONFLICT", `save ${this.#key}: the store changed under each of ${ATTEMPTS} attempts, so this memory is not saved; the next change or flush() tries again`, { key: this.#key }));
    return false;
  }

  /** Saves now whatever is waiting; resolves to whether the store holds this memory. */
  async flush() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.ready;
    if (this.#saving !== undefined) await this.#saving;
    if (this.#frozen) return false;
    if (!this.#dirty) return true;
    return this.#save();
  }

  // --- other copies --------------------------------------------------------

  #listen() {
    const store = this.#store;
    if (typeof store.watch === "function") {
      // An RPC stub answers every name with a function that returns a
      // promise: only a function back is a way to stop watching.
      try {
        const stop = store.watch(this.#key, (value) => void this.#heard(value));
        if (typeof stop === "function") this.#unwatch.push(stop);
        else stop?.then?.(undefined, () => {});
      } catch {
        // No watching: other copies' saves merge at the next save.
      }
    }
    if (typeof BroadcastChannel === "function") {
      try {
        const channel = new BroadcastChannel(`reins:${this.#key}`);
        channel.onmessage = (m) => {
          const data = m.data;
          if (data?.forget === true) this.#forgotten();
          else if (data?.saved === true) void this.#recheck();
        };
        // A channel must not keep a Node or Deno process alive.
        channel.unref?.();
        this.#channel = channel;
      } catch {
        // No channel in this runtime (or realm): merging waits for the next save.
      }
    }
  }

  /**
   * Tells other copies in this origin (tabs, workers) that the store
   * changed. They read their own store: a message carries no memory, so
   * nothing that did not come from the store is ever merged.
   */
  #announce() {
    try {
      this.#channel?.postMessage({ saved: true });
    } catch {
      // A closed channel: the others read it on their next save.
    }
  }

  async #recheck() {
    const value = await this.#get();
    if (value !== FAILED) await this.#heard(value);
  }

  /**
   * Another copy saved `value`: merge it now. Saved back only if it lacks
   * part of this memory: a store whose reads can be stale (localStorage
   * across tabs, whose other tabs' caches catch up later) may have let that
   * copy write over this one's save; this repairs it.
   */
  async #heard(value) {
    if (value === undefined || value === null || value === this.#seen || this.#closed !== undefined) return;
    await this.ready;
    const wasDirty = this.#dirty;
    const read = await this.#absorb(value);
    if (read === "refused") return;
    this.#seen = value;
    if (read === "behind") {
      this.#saved = undefined;
      this.#touch();
    } else if (!wasDirty) {
      this.#saved = this[REVISION]();
    }
  }

  #forgotten() {
    // Closed: freed, or about to be; the store is what others read.
    if (this.#closed !== undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this[FORGET]();
    this.#seen = undefined;
    this.#saved = this[REVISION]();
  }

  /** Deletes everything stored for this user and forgets it here and in other tabs. */
  async forget() {
    // Forgotten before and after a save already under way: that save may
    // write the old memory back, and the deletes below come after it.
    this.#forgotten();
    await (this.#saving ?? Promise.resolve()).catch(() => {});
    this.#forgotten();
    await deleteAll(this.#store, this.#key);
    try {
      this.#channel?.postMessage({ forget: true });
    } catch {
      // Closed: nothing else was listening through it.
    }
  }

  /** Saves what is waiting, stops listening, and frees the regulator. */
  close() {
    this.#closed ??= (async () => {
      let saved = false;
      try {
        saved = await this.flush();
      } finally {
        for (const stop of this.#unwatch) stop?.();
        this.#channel?.close();
        super.free();
      }
      return saved;
    })();
    return this.#closed;
  }

  free() {
    void this.close();
  }

  [Symbol.dispose]() {
    void this.close();
  }

  [Symbol.asyncDispose]() {
    return this.close().then(() => undefined);
  }
}

/**
 * Opens a regulator whose memory of `userId` lives in `store`: resolves
 * once the stored memory is loaded (a failure to read is reported through
 * `onError`/`"error"` and the regulator starts empty, in memory).
 */
export async function openRegulator(options) {
  const r = new StoredRegulator(options);
  await r.ready;
  return r;
}

/** Deletes everything stored for `userId` under `namespace`, without opening it. */
export async function forget({ store, userId, namespace } = {}) {
  checkStore(store);
  const key = memoryKey(userId, namespace);
  await deleteAll(store, key);
  try {
    const channel = new BroadcastChannel(`reins:${key}`);
    channel.postMessage({ forget: true });
    channel.close();
  } catch {
    // No channel here: open regulators learn of it on their next read.
  }
}
