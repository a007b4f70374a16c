// reins/workers and chatRequest/chatResponse as a Worker's code types them.
import { Regulator, type ChatMessage } from "reins";
import { withReins, durableObjectMemory, type DurableObjectNamespaceLike, type HaltedBody } from "reins/workers";

interface Env {
  REINS_MEMORY: DurableObjectNamespaceLike;
}

const worker = withReins<Env>(
  { fetch: (request) => fetch(new Request(`https://api.openai.com${new URL(request.url).pathname}`, request)) },
  {
    store: (env, userId) => durableObjectMemory(env.REINS_MEMORY, userId),
    userId: (request, body) => request.headers.get("x-user") ?? (typeof body.user === "string" ? body.user : undefined),
    regulator: { toolLoopThreshold: 4, costCapScope: "turn" },
    onDecision: (d, info) => {
      if (d.kind === "circuitBreak") console.log(info.phase, info.userId, d.reason.kind, info.metrics["reins.total_tokens_out"]);
    },
  },
);
export default worker;

export async function halted(res: Response): Promise<string> {
  const body = (await res.json()) as HaltedBody;
  return `${body.error.code}: ${body.suggestion}`;
}

const messages: ChatMessage[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: [{ type: "text", text: "Where is A7?" }, { type: "image_url" }] },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_order", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "c1", content: "{}" },
];
const r = new Regulator({ userId: "alice", costCapScope: "turn" });
r.chatRequest(messages, { atMs: Date.now() });
r.chatResponse({ choices: [{ message: { role: "assistant", content: "In transit." } }], usage: { prompt_tokens: 9, completion_tokens: 3 } }, { durationMs: 420 });
// @ts-expect-error: not a scope
new Regulator({ userId: "alice", costCapScope: "task" });
