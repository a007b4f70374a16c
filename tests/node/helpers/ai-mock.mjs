// What the AI SDK's mock model (ai/test, MockLanguageModelV3) is scripted
// with in the adapter tests: usage, finish reasons, tool-call parts.
export const usage = (input, output) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});
export const stop = { unified: "stop", raw: "stop" };
export const toolCalls = { unified: "tool-calls", raw: "tool_calls" };
let ids = 0;
export const call = (toolName, args) => ({ type: "tool-call", toolCallId: `call_${++ids}`, toolName, input: JSON.stringify(args) });
