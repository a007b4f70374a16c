// The Worker under test. Regulators are created inside fetch(): workerd
// forbids randomness at global scope, and the constructor draws a random id.
import { Regulator } from "./pkg/entry-workerd.js";
import { runScenario } from "./shared/scenario.mjs";

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

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === "/health") return new Response("ok");
      if (pathname === "/scenario") return Response.json(runScenario(Regulator));
      if (pathname === "/turn" && request.method === "POST") return await turn(request);
      return new Response("not found", { status: 404 });
    } catch (e) {
      // The package throws TypeError/RangeError for bad input; JSON.parse a SyntaxError.
      const bad = e instanceof TypeError || e instanceof RangeError || e instanceof SyntaxError;
      return Response.json({ error: e.message, name: e.name, isError: e instanceof Error }, { status: bad ? 400 : 500 });
    }
  },
};
