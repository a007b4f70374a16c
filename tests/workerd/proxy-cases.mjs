// The proxy's tests (reins/workers in workerd, in front of a mock upstream
// on 127.0.0.1), run by run.mjs with its check/assert.
import { completion, startUpstream, streamed } from "./upstream.mjs";

const SYSTEM = { role: "system", content: "You are a support agent." };
const call = (i) => ({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "search_orders", arguments: "{\"q\":\"late\"}" } }] });
const result = (i) => ({ role: "tool", tool_call_id: `c${i}`, content: "[]" });

export async function proxyCases({ base, check, assert, notes }) {
  const up = await startUpstream();
  const post = async (path, body, { user, raw } = {}) => {
    const headers = { "content-type": "application/json", "x-test-upstream": up.origin };
    if (user) headers["x-reins-user"] = user;
    const res = await fetch(`${base}${path}`, { method: "POST", headers, body: raw ?? JSON.stringify(body), signal: AbortSignal.timeout(5000) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const log = async () => (await fetch(`${base}/proxy-log`, { signal: AbortSignal.timeout(5000) })).json();
  const stored = async (user) => (await (await fetch(`${base}/proxy-memory?user=${user}`, { signal: AbortSignal.timeout(5000) })).json()).texts;
  // Saves run in waitUntil, after the response: wait until `want` holds.
  const eventually = async (fn, want, what) => {
    let last;
    for (let i = 0; i < 100; i++) {
      last = await fn();
      if (want(last)) return last;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    throw new Error(`${what}: ${JSON.stringify(last)}`);
  };

  try {
    await check("proxy: a healthy client passes through byte for byte, both ways", async () => {
      // Spacing JSON.stringify would not keep: any re-encoding shows.
      const raw = `{ "model": "mock",  "messages": [ {"role":"system","content":"Be brief."}, {"role":"user","content":"What is the capital of France?"} ] }`;
      const answer = completion({ content: "Paris." });
      up.answer(() => answer);
      const before = up.seen.length;
      const res = await post("/proxy/v1/chat/completions", undefined, { user: "p-healthy", raw });
      assert(res.status === 200, `status ${res.status} ${res.text}`);
      assert(up.seen.length === before + 1 && up.seen.at(-1).body === raw, `the upstream got ${up.seen.at(-1)?.body}`);
      assert(up.seen.at(-1).path === "/v1/chat/completions", up.seen.at(-1).path);
      assert(res.text === answer.body, `the client got ${res.text}`);
      assert(res.headers.get("x-reins-decision") === "continue", res.headers.get("x-reins-decision"));
    });

    await check("proxy: a looping agent is nudged, then stopped with a 429 before the upstream is called", async () => {
      up.answer(() => completion({ content: null, tool_calls: call(9).tool_calls }));
      const messages = [SYSTEM, { role: "user", content: "Find my late orders" }];
      const sent = [];
      for (let n = 1; n <= 5; n++) {
        messages.push(call(n), result(n));
        const before = up.seen.length;
        const res = await post("/proxy/v1/chat/completions", { model: "mock", messages }, { user: "p-loop" });
        sent.push(up.seen.length - before);
        if (n < 5) {
          assert(res.status === 200, `search ${n}: ${res.status} ${res.text}`);
          const system = JSON.parse(up.seen.at(-1).body).messages[0].content;
          const nudged = res.headers.get("x-reins-decision") === "toolNudge";
          assert(nudged === n >= 3, `search ${n}: decision ${res.headers.get("x-reins-decision")}`);
          assert(system.includes("search_orders") === nudged, `search ${n}: system message ${system}`);
          continue;
        }
        assert(res.status === 429, `search 5: ${res.status} ${res.text}`);
        const body = JSON.parse(res.text);
        assert(body.reason.kind === "toolLoop" && body.reason.toolName === "search_orders", JSON.stringify(body));
        assert(typeof body.suggestion === "string" && body.error.message.includes(body.suggestion), JSON.stringify(body));
        assert(body.error.type === "reins_circuit_break" && body.error.code === "toolLoop", JSON.stringify(body.error));
        assert(res.headers.get("x-should-retry") === "false", "the OpenAI SDKs would retry the 429");
      }
      assert(sent.join() === "1,1,1,1,0", `upstream calls per request: ${sent}`);
    });

    await check("proxy: a streamed answer passes through unchanged and is read (text, tool call, usage)", async () => {
      const chunks = [
        { choices: [{ index: 0, delta: { role: "assistant", content: "Let me " } }] },
        { choices: [{ index: 0, delta: { content: "check." } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "s1", type: "function", function: { name: "get_order", arguments: "{\"id\":" } }] } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "\"A7\"}" } }] } }] },
        { choices: [], usage: { prompt_tokens: 31, completion_tokens: 17, total_tokens: 48 } },
      ];
      const answer = streamed(chunks);
      up.answer(() => answer);
      await log();
      const res = await post("/proxy/v1/chat/completions", { model: "mock", stream: true, messages: [SYSTEM, { role: "user", content: "Where is order A7?" }] }, { user: "p-stream" });
      assert(res.status === 200, `status ${res.status}`);
      assert(res.text === answer.chunks.join(""), `the client got ${res.text}`);
      const response = await eventually(log, (l) => l.some((e) => e.phase === "response"), "no response-phase decision");
      const m = response.find((e) => e.phase === "response").metrics;
      assert(m["reins.total_tokens_out"] === 17 && m["reins.total_tokens_in"] === 31, `usage ${JSON.stringify(m)}`);
      assert(m["reins.tool_total_calls"] === 1, `tool calls ${m["reins.tool_total_calls"]}`);
    });

    await check("proxy: a client that hangs up mid-stream still keeps what its request taught", async () => {
      const chunks = Array.from({ length: 40 }, (_, i) => ({ choices: [{ index: 0, delta: { content: `part ${i} ` } }] }));
      up.answer(() => streamed(chunks, 25));
      const messages = [SYSTEM, { role: "user", content: "Summarise the incident report" }, { role: "assistant", content: "Summary: the database failed over twice." },
        { role: "user", content: "Wrong: it failed over three times." }];
      const abort = new AbortController();
      const res = await fetch(`${base}/proxy/v1/chat/completions`, {
        method: "POST", signal: abort.signal,
        headers: { "content-type": "application/json", "x-test-upstream": up.origin, "x-reins-user": "p-hangup" },
        body: JSON.stringify({ model: "mock", stream: true, messages }),
      });
      const reader = res.body.getReader();
      const first = await reader.read();
      assert(!first.done && first.value.length > 0, "no first chunk");
      abort.abort();
      const texts = await eventually(() => stored("p-hangup"), (t) => t.length === 1, "stored after the hang-up");
      assert(texts[0] === "Wrong: it failed over three times.", JSON.stringify(texts));
    });

    // One conversation in which the user corrects the agent three times;
    // each request re-sends the earlier corrections.
    const convo = [SYSTEM];
    const turns = [
      ["Make my auth module async", "The auth module is async now, with logging added.", "No, don't add logging."],
      ["Refactor auth to support async", "Auth supports async now; I added logging.", "Wrong, I said no logging."],
      ["Change my auth function to async", "The auth function is async, with log lines.", "Stop adding logging."],
    ];
    await check("proxy: each correction is learned once, though every request re-sends the earlier ones", async () => {
      up.answer(() => completion({ content: "Understood." }));
      for (const [i, [ask, answer, fix]] of turns.entries()) {
        convo.push({ role: "user", content: ask }, { role: "assistant", content: answer }, { role: "user", content: fix });
        const res = await post("/proxy/v1/chat/completions", { model: "mock", messages: convo }, { user: "p-memory" });
        assert(res.status === 200, `request ${i + 1}: ${res.status} ${res.text}`);
        convo.push({ role: "assistant", content: "Understood." });
        await eventually(() => stored("p-memory"), (t) => t.length === i + 1, `after request ${i + 1}, stored`);
      }
      const texts = await stored("p-memory");
      assert(texts.length === 3 && turns.every((t) => texts.includes(t[2])), `stored ${JSON.stringify(texts)}`);
    });

    await check("proxy: a new conversation on the topic gets the user's corrections in its system message", async () => {
      const res = await post("/proxy/v1/chat/completions", { model: "mock", messages: [SYSTEM, { role: "user", content: "Add async handling to my auth" }] }, { user: "p-memory" });
      assert(res.status === 200, `${res.status} ${res.text}`);
      const sent = JSON.parse(up.seen.at(-1).body).messages;
      assert(sent[0].role === "system" && sent[0].content.startsWith(SYSTEM.content), JSON.stringify(sent[0]));
      assert(turns.every((t) => sent[0].content.includes(t[2])), `system message: ${sent[0].content}`);
      assert(sent.length === 2 && sent[1].content === "Add async handling to my auth", JSON.stringify(sent));
      // Another user's request on the same topic gets none of them.
      await post("/proxy/v1/chat/completions", { model: "mock", messages: [SYSTEM, { role: "user", content: "Add async handling to my auth" }] }, { user: "p-other" });
      assert(JSON.parse(up.seen.at(-1).body).messages[0].content === SYSTEM.content, "another user's request carried this user's corrections");
    });

    await check("proxy: two concurrent requests for one user both keep what they taught", async () => {
      const ask = (topic, fix) => [SYSTEM, { role: "user", content: `Write the ${topic} report` }, { role: "assistant", content: `Here is the ${topic} report.` }, { role: "user", content: fix }];
      const results = await Promise.all([
        post("/proxy/v1/chat/completions", { model: "mock", messages: ask("sales", "The sales report needs the totals row.") }, { user: "p-race" }),
        post("/proxy/v1/chat/completions", { model: "mock", messages: ask("churn", "The churn report must use percentages.") }, { user: "p-race" }),
      ]);
      assert(results.every((r) => r.status === 200), results.map((r) => r.status).join());
      const texts = await eventually(() => stored("p-race"), (t) => t.length === 2, "stored");
      assert(texts.includes("The sales report needs the totals row.") && texts.includes("The churn report must use percentages."), JSON.stringify(texts));
    });

    await check("proxy: a request the upstream fails teaches nothing (its retry will)", async () => {
      up.answer(() => ({ status: 500, headers: { "content-type": "application/json" }, body: "{\"error\":{\"message\":\"boom\"}}" }));
      const messages = [SYSTEM, { role: "user", content: "Draft the newsletter" }, { role: "assistant", content: "Drafted, with emojis." }, { role: "user", content: "Wrong: I said no emojis." }];
      const res = await post("/proxy/v1/chat/completions", { model: "mock", messages }, { user: "p-fail" });
      assert(res.status === 500 && res.text.includes("boom"), `${res.status} ${res.text}`);
      up.answer(() => completion({ content: "Redrafted." }));
      const retry = await post("/proxy/v1/chat/completions", { model: "mock", messages }, { user: "p-fail" });
      assert(retry.status === 200, `retry: ${retry.status}`);
      const texts = await eventually(() => stored("p-fail"), (t) => t.length >= 1, "stored");
      await new Promise((ok) => setTimeout(ok, 100));
      const again = await stored("p-fail");
      assert(texts.length === 1 && again.length === 1 && again[0] === "Wrong: I said no emojis.", `stored ${JSON.stringify(again)}`);
    });

    await check("proxy: other paths, other methods and unreadable bodies go to the handler untouched", async () => {
      up.answer(() => completion({ content: "ok" }));
      const res = await fetch(`${base}/proxy/v1/models`, { headers: { "x-test-upstream": up.origin }, signal: AbortSignal.timeout(5000) });
      assert(res.status === 200 && !res.headers.has("x-reins-decision"), `GET: ${res.status} ${[...res.headers]}`);
      const raw = "{not json";
      const bad = await post("/proxy/v1/chat/completions", undefined, { user: "p-bad", raw });
      assert(bad.status === 200 && up.seen.at(-1).body === raw && !bad.headers.has("x-reins-decision"), `bad JSON: ${bad.status}`);
      // A message reins cannot read: passed on, and reported.
      await log();
      const odd = JSON.stringify({ model: "mock", messages: [{ role: "robot", content: "beep" }] });
      const res2 = await post("/proxy/v1/chat/completions", undefined, { user: "p-bad", raw: odd });
      assert(res2.status === 200 && up.seen.at(-1).body === odd, `odd role: ${res2.status}`);
      const errors = (await log()).filter((e) => e.phase === "error");
      assert(errors.length === 1 && errors[0].message.startsWith("messages[0].role"), JSON.stringify(errors));
    });
    notes.push(`proxy: the mock upstream answered ${up.seen.length} requests`);
  } finally {
    await up.close();
  }
}
