// reins/workers under test: a regulating proxy in front of a mock upstream
// on 127.0.0.1 (run.mjs starts it and names it in `x-test-upstream`).
//   /direct/…  the same upstream, unregulated (the latency baseline)
//   /proxy/…   withReins, memory in a ReinsMemory Durable Object per user
import { openRegulator } from "./pkg/entry-workerd.js";
import { withReins, durableObjectMemory } from "./pkg/adapters/workers.js";

export { ReinsMemory } from "./pkg/adapters/workers.js";

/** Decisions seen (newest last, at most 100): what the tests read back. */
const heard = [];

/** The app's own handler: forwards to the upstream the test named. */
function upstream(request) {
  const url = new URL(request.url);
  const base = request.headers.get("x-test-upstream");
  const path = url.pathname.replace(/^\/(direct|proxy)/, "");
  return fetch(new Request(`${base}${path}${url.search}`, request));
}

const regulated = withReins(upstream, {
  store: (env, user) => durableObjectMemory(env.REINS_MEMORY, user),
  onDecision(decision, { phase, userId, metrics }) {
    heard.push({ phase, userId, kind: decision.kind, metrics });
    if (heard.length > 100) heard.shift();
  },
  onError(e) {
    heard.push({ phase: "error", message: e.message });
  },
});

/** What the user's memory holds, as a fresh regulator loads it. */
async function stored(url, env) {
  const userId = url.searchParams.get("user");
  const r = await openRegulator({ userId, store: durableObjectMemory(env.REINS_MEMORY, userId), live: false });
  const texts = r.corrections().map((c) => c.text);
  await r.close();
  return Response.json({ texts });
}

/** Routes under /direct, /proxy and /proxy-log; `undefined` for any other path. */
export function proxyRoute(request, env, ctx) {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/direct/")) return upstream(request);
  if (url.pathname.startsWith("/proxy/")) return regulated.fetch(request, env, ctx);
  if (url.pathname === "/proxy-log") return Response.json(heard.splice(0));
  if (url.pathname === "/proxy-memory") return stored(url, env);
  return undefined;
}
