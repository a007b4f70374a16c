// A mock OpenAI-compatible upstream on 127.0.0.1 for the proxy tests and
// the proxy benchmark: records every request, answers as told.
import { createServer } from "node:http";

/** A chat completion whose message is `message` (text, or tool calls). */
export function completion(message, usage = { prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 }) {
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: "mock", choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }], usage }),
  };
}

/** The same, as server-sent events in several chunks (`delayMs` apart). */
export function streamed(chunks, delayMs = 0) {
  return {
    delayMs,
    status: 200,
    headers: { "content-type": "text/event-stream" },
    chunks: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), "data: [DONE]\n\n"],
  };
}

export async function startUpstream() {
  const seen = [];
  let reply = () => completion({ content: "Done." });
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method, path: req.url, body });
    const r = reply({ path: req.url, body });
    res.writeHead(r.status, r.headers);
    if (r.chunks) {
      // One write per event, each in its own turn: a real stream's pieces.
      for (const c of r.chunks) {
        if (res.destroyed) return;
        res.write(c);
        await new Promise((ok) => (r.delayMs ? setTimeout(ok, r.delayMs) : setImmediate(ok)));
      }
      res.end();
    } else {
      res.end(r.body);
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    seen,
    answer(fn) {
      reply = fn;
    },
    close: () => new Promise((ok) => server.close(ok)),
  };
}
