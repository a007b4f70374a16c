// reins/workers: a Worker's fetch handler as a regulating proxy for
// OpenAI-compatible chat-completions requests. Each request is read whole
// (the conversation is re-sent every time), so no running state is kept
// between requests and any isolate can serve any of them; only the user's
// memory lives in a store, merged on every save.
import { DurableObject } from "cloudflare:workers";
import { Regulator, durableObjectStore, openRegulator } from "../entry-workerd.js";

const CHAT_PATH = /\/chat\/completions\/?$/;
// The proxy's own defaults: each user turn is a task with its own budget.
const DEFAULTS = { costCapScope: "turn" };
// A streamed answer is read up to this much text and this many tool calls.
const MAX_STREAM_CHARS = 1 << 20;
const MAX_STREAM_CALLS = 128;

/** What the 429 says: OpenAI's error shape, plus the decision's reason and suggestion. */
function halted(d) {
  const body = {
    error: { message: `reins: ${d.suggestion}`, type: "reins_circuit_break", code: d.reason.kind },
    reason: d.reason,
    suggestion: d.suggestion,
  };
  // x-should-retry: the OpenAI SDKs retry a 429 unless told not to.
  return Response.json(body, { status: 429, headers: { "x-reins-decision": "circuitBreak", "x-should-retry": "false" } });
}

/** `messages` with `notes` added to the system message (a new one when there is none). */
function withNotes(messages, notes) {
  const text = notes.join("\n\n");
  const first = messages[0];
  if (first?.role === "system" || first?.role === "developer") {
    const content = typeof first.content === "string" ? `${first.content}\n\n${text}`
      : Array.isArray(first.content) ? [...first.content, { type: "text", text }]
      : text;
    return [{ ...first, content }, ...messages.slice(1)];
  }
  return [{ role: "system", content: text }, ...messages];
}

/**
 * A pass-through copy of an SSE chat-completions stream, and a promise of
 * the response it spelled out (text, tool calls, usage) once it ends.
 */
function readStream(stream) {
  const decoder = new TextDecoder();
  let line = "";
  let content = "";
  const calls = [];
  let usage;
  const take = (data) => {
    let chunk;
    try {
      chunk = JSON.parse(data);
    } catch {
      return; // [DONE], or a provider's own line
    }
    if (chunk?.usage) usage = chunk.usage;
    const delta = chunk?.choices?.[0]?.delta;
    if (typeof delta?.content === "string" && content.length < MAX_STREAM_CHARS) content += delta.content;
    for (const c of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
      const i = Number.isInteger(c?.index) ? c.index : calls.length;
      if (i < 0 || i >= MAX_STREAM_CALLS) continue;
      const call = (calls[i] ??= { id: undefined, type: "function", function: { name: "", arguments: "" } });
      if (typeof c.id === "string") call.id = c.id;
      if (typeof c.function?.name === "string") call.function.name += c.function.name;
      const args = c.function?.arguments;
      if (typeof args === "string" && call.function.arguments.length < MAX_STREAM_CHARS) call.function.arguments += args;
    }
  };
  const lines = (text) => {
    line += text;
    let at;
    while ((at = line.indexOf("\n")) >= 0) {
      const one = line.slice(0, at).trimEnd();
      line = line.slice(at + 1);
      if (one.startsWith("data:")) take(one.slice(5).trim());
    }
    // A line with no end in sight is no SSE line we read.
    if (line.length > MAX_STREAM_CHARS) line = "";
  };
  let done;
  const ended = new Promise((ok) => (done = ok));
  let settled = false;
  // Also when the client hangs up or the upstream fails: what came so far.
  const finish = () => {
    if (settled) return;
    settled = true;
    lines(`${decoder.decode()}\n`);
    const toolCalls = calls.filter((c) => c && c.function.name);
    done({ choices: [{ message: { role: "assistant", content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) } }], usage });
  };
  const reader = stream.getReader();
  const copy = new ReadableStream({
    async pull(out) {
      let next;
      try {
        next = await reader.read();
      } catch (e) {
        finish();
        throw e;
      }
      if (next.done) {
        finish();
        out.close();
        return;
      }
      out.enqueue(next.value);
      lines(decoder.decode(next.value, { stream: true }));
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return { copy, ended };
}

/**
 * Wraps a Worker's handler (an object with `fetch`, or the fetch function)
 * so that POSTs to `…/chat/completions` are regulated: see adapters/workers.d.ts.
 */
export function withReins(handler, options = {}) {
  const inner = typeof handler === "function" ? handler : handler?.fetch?.bind(handler);
  if (typeof inner !== "function") throw new TypeError("withReins: handler must be a fetch function or an object with fetch()");
  const {
    store, userId: pickUser = defaultUser, regulator: config = {}, match = (url) => CHAT_PATH.test(url.pathname),
    injectCorrections = true, nudge = true, onDecision, onError, namespace, signingKey,
  } = options;
  // The regulator's options: the proxy's defaults, then the app's.
  const settings = { ...DEFAULTS, ...config };
  const report = (e) => (onError ? onError(e) : console.warn(`reins: ${e?.message ?? e}`));
  const heard = (decision, info) => {
    try {
      onDecision?.(decision, info);
    } catch (e) {
      report(e);
    }
  };

  async function regulated(request, env, ctx) {
    const text = await request.text();
    const forward = (body) => {
      // The body may have grown (notes added): its old length must not go along.
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      return inner(new Request(request, { body, headers }), env, ctx);
    };
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return forward(text); // not ours to judge: the upstream answers it
    }
    if (!Array.isArray(body?.messages)) return forward(text);
    const user = pickUser(request, body, env) || undefined;
    let memory;
    let r;
    try {
      // The memory is read from the store; this request's regulator starts
      // from a copy, so that what it learns is saved only when the request
      // went through (a retried request would otherwise teach it twice).
      const kv = user !== undefined && store !== undefined ? (typeof store === "function" ? store(env, user) : store) : undefined;
      if (kv !== undefined) {
        memory = await openRegulator({ ...settings, userId: user, store: kv, namespace, signingKey, live: false, onError: report });
        r = Regulator.restore(memory.exportMemory(), { ...settings, userId: user });
      } else {
        r = new Regulator({ ...settings, userId: user ?? "anonymous" });
      }
      r.chatRequest(body.messages, { atMs: Date.now() });
    } catch (e) {
      // A conversation reins cannot read is passed on unregulated, and said.
      report(e);
      r?.free();
      void memory?.close();
      return forward(text);
    }
    const info = { userId: user, request };
    const keep = () => {
      if (memory === undefined) return Promise.resolve(true);
      memory.merge(r.exportMemory());
      return memory.close();
    };
    const finish = (learned) => {
      const saved = learned ? keep() : memory?.close() ?? Promise.resolve(true);
      r.free();
      return saved;
    };
    const d = r.decide();
    heard(d, { ...info, phase: "request", metrics: r.metrics() });
    if (d.kind === "circuitBreak") {
      await finish(true);
      return halted(d);
    }
    const notes = [];
    if (injectCorrections) {
      const prelude = r.correctionsPrelude();
      if (prelude) notes.push(prelude);
    }
    if (nudge && d.kind === "toolNudge") notes.push(d.suggestion);
    const sent = notes.length ? JSON.stringify({ ...body, messages: withNotes(body.messages, notes) }) : text;
    const started = Date.now();
    let res;
    try {
      res = await forward(sent);
    } catch (e) {
      await finish(false);
      throw e;
    }
    const headers = new Headers(res.headers);
    headers.set("x-reins-decision", d.kind);
    // The body is passed on decoded (fetch decompressed it): the runtime sets its length.
    headers.delete("content-length");
    if (!res.ok || res.body === null) {
      ctx?.waitUntil?.(finish(false));
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
    // The answer: read as it passes (streamed or whole), then the memory is saved.
    const answered = async (completion) => {
      try {
        r.chatResponse(completion, { durationMs: Date.now() - started });
        heard(r.decide(), { ...info, phase: "response", metrics: r.metrics() });
      } catch (e) {
        report(e);
      }
      return finish(true);
    };
    if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
      const { copy, ended } = readStream(res.body);
      const work = ended.then(answered);
      ctx?.waitUntil?.(work);
      return new Response(copy, { status: res.status, statusText: res.statusText, headers });
    }
    const out = await res.text();
    let completion;
    try {
      completion = JSON.parse(out);
    } catch {
      completion = undefined;
    }
    const work = completion === undefined ? finish(true) : answered(completion);
    ctx?.waitUntil?.(work);
    return new Response(out, { status: res.status, statusText: res.statusText, headers });
  }

  const fetch = (request, env, ctx) => {
    if (request.method !== "POST" || !match(new URL(request.url), request)) return inner(request, env, ctx);
    return regulated(request, env, ctx);
  };
  return typeof handler === "function" ? { fetch } : { ...handler, fetch };
}

/** The `x-reins-user` header, else the request's `user` field (OpenAI's end-user id). */
function defaultUser(request, body) {
  const h = request.headers.get("x-reins-user");
  if (h) return h;
  return typeof body.user === "string" && body.user ? body.user : undefined;
}

/**
 * A Durable Object class holding users' memories: export it from the
 * Worker, bind it, and pass `durableObjectMemory(env.BINDING, userId)` as
 * the store. One object per user; it runs one call at a time, so its
 * compare-and-set is atomic and concurrent requests lose nothing.
 */
export class ReinsMemory extends DurableObject {
  #store = durableObjectStore(this.ctx.storage);
  get(key) {
    return this.#store.get(key);
  }
  set(key, value) {
    return this.#store.set(key, value);
  }
  delete(key) {
    return this.#store.delete(key);
  }
  setIf(key, expected, value) {
    return this.#store.setIf(key, expected, value);
  }
}

/** The store of `userId`'s memory in its own `ReinsMemory` object of `namespace`. */
export function durableObjectMemory(namespace, userId) {
  const stub = namespace.get(namespace.idFromName(userId));
  return {
    get: (key) => stub.get(key),
    set: (key, value) => stub.set(key, value),
    delete: (key) => stub.delete(key),
    setIf: (key, expected, value) => stub.setIf(key, expected, value),
  };
}
