// The Worker under test. Regulators are created inside fetch(): workerd
// forbids randomness at global scope, and the constructor draws a random id.
import { Regulator, openRegulator, memoryKey } from "./pkg/entry-workerd.js";
import { ReinsMemory, durableObjectMemory } from "./pkg/adapters/workers.js";
import { runScenario } from "./shared/scenario.mjs";
import { proxyRoute } from "./proxy.mjs";

export { ReinsMemory };

// One request = one step of an agent loop: restore the user's regulator from
// the snapshot the caller kept (KV, a Durable Object, a cookie…), apply the
// step's events, and hand back the decision plus the new snapshot.
async function turn(request) {
  const { snapshot, userId = "anonymous", events } = await request.json();
  if (!Array.isArray(events)) throw new TypeError("events: must be an array");
  const r = snapshot === undefined ? new Regulator({ userId }) : Regulator.import(snapshot);
  try {
    for (const e of events) r.event(e);
    return Response.json({ decision: r.decide(), snapshot: r.export() });
  } finally {
    r.free();
  }
}

// One Durable Object per user (idFromName(userId)) holds that user's memory
// in its storage and serves it as a store over JS RPC: reins/workers'
// ReinsMemory, counting the compare-and-sets that found the value changed.
export class UserMemory extends ReinsMemory {
  /** setIf calls that found the value changed (test instrumentation). */
  #conflicts = 0;

  async setIf(key, expected, value) {
    const ok = await super.setIf(key, expected, value);
    if (!ok) this.#conflicts++;
    return ok;
  }

  // --- test hooks, not part of the store --------------------------------
  async inspect() {
    const all = await this.ctx.storage.list();
    return { keys: [...all.keys()], conflicts: this.#conflicts };
  }
  /** Edits one correction text in the stored value, keeping its length. */
  async tamper(key, from, to) {
    const value = await this.ctx.storage.get(key);
    if (typeof value !== "string" || !value.includes(from)) return false;
    await this.ctx.storage.put(key, value.replace(from, to));
    return true;
  }
}

/** The store the regulator sees: each call goes to the user's Durable Object. */
function userStore(env, userId) {
  return { stub: env.USER_MEMORY.get(env.USER_MEMORY.idFromName(userId)), store: durableObjectMemory(env.USER_MEMORY, userId) };
}

/** Opens the user's stored regulator, collecting what onError reports. */
async function open(env, userId, signed) {
  if (typeof userId !== "string") throw new TypeError("userId: must be a string");
  const { stub, store } = userStore(env, userId);
  const errors = [];
  const r = await openRegulator({
    userId,
    store,
    saveDelayMs: 0,
    signingKey: signed ? env.SIGNING_KEY : undefined,
    onError: (e) => errors.push({ code: e.code, key: e.key, backupKey: e.backupKey, message: e.message }),
  });
  return { r, stub, errors };
}

// One request = one turn the user corrected: ask, answer, correction.
async function remember(request, env) {
  const { userId, ask, answer, fix, atMs, signed = false } = await request.json();
  const { r, errors } = await open(env, userId, signed);
  let decision;
  try {
    r.turnStart(ask, atMs);
    decision = r.decide();
    r.turnComplete(answer, atMs + 900);
    r.userCorrection(fix, { atMs: atMs + 1000 });
  } catch (e) {
    await r.close();
    throw e;
  }
  // close() flushes: the correction is stored before the response goes out.
  const saved = await r.close();
  return Response.json({ decision, saved, errors });
}

// What is stored for a user: the corrections a fresh regulator loads.
async function memory(url, env) {
  const userId = url.searchParams.get("user");
  const { r, stub, errors } = await open(env, userId, url.searchParams.get("signed") === "1");
  const corrections = r.corrections();
  const saved = await r.close();
  const { keys, conflicts } = await stub.inspect();
  return Response.json({
    count: corrections.length,
    ids: corrections.map((c) => c.id),
    texts: corrections.map((c) => c.text),
    saved,
    errors,
    storeKey: memoryKey(userId),
    keys,
    conflicts,
  });
}

async function tamper(request, env) {
  const { userId, from, to } = await request.json();
  const { stub } = userStore(env, userId);
  const key = memoryKey(userId);
  const done = await stub.tamper(key, from, to);
  return Response.json({ done, key, value: await stub.get(key) });
}

async function raw(url, env) {
  const { stub } = userStore(env, url.searchParams.get("user"));
  const value = await stub.get(url.searchParams.get("key"));
  return Response.json({ value: value ?? null });
}

// What the persistence layer meets in workerd.
function runtime() {
  return {
    setTimeout: typeof setTimeout,
    subtle: typeof crypto?.subtle?.sign,
    BroadcastChannel: typeof globalThis.BroadcastChannel,
    locks: typeof globalThis.navigator?.locks,
  };
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const { pathname } = url;
    try {
      const proxied = proxyRoute(request, env, ctx);
      if (proxied !== undefined) return await proxied;
      if (pathname === "/health") return new Response("ok");
      if (pathname === "/scenario") return Response.json(runScenario(Regulator));
      if (pathname === "/turn" && request.method === "POST") return await turn(request);
      if (pathname === "/remember" && request.method === "POST") return await remember(request, env);
      if (pathname === "/memory") return await memory(url, env);
      if (pathname === "/tamper" && request.method === "POST") return await tamper(request, env);
      if (pathname === "/raw") return await raw(url, env);
      if (pathname === "/runtime") return Response.json(runtime());
      return new Response("not found", { status: 404 });
    } catch (e) {
      // The package throws TypeError/RangeError for bad input; JSON.parse a SyntaxError.
      const bad = e instanceof TypeError || e instanceof RangeError || e instanceof SyntaxError;
      return Response.json({ error: e.message, name: e.name, isError: e instanceof Error, stack: e.stack }, { status: bad ? 400 : 500 });
    }
  },
};
