// Type test: reins/ai-sdk spreads into the real `ai` 6 calls without casts.
import { generateText, streamText, stepCountIs, tool, jsonSchema, type LanguageModel } from "ai";
import { z } from "zod";
import { Regulator, type Decision } from "reins";
import { regulate, type RegulateOptions } from "reins/ai-sdk";

declare const model: LanguageModel;
const r = new Regulator({ userId: "alice" });

const tools = {
  weather: tool({
    description: "Weather in a city",
    inputSchema: z.object({ city: z.string(), unit: z.enum(["C", "F"]).optional() }),
    execute: async ({ city, unit }) => ({ city, temp: 21, unit: unit ?? "C" }),
  }),
  search: tool({
    inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
    execute: async ({ q }) => [q],
  }),
};

async function main(): Promise<string> {
  const a = await generateText({ model, tools, prompt: "Weather in Paris?", ...regulate(r) });
  const w: { city: string; temp: number; unit: "C" | "F" } | undefined = a.steps[0]?.toolResults.find((t) => t.toolName === "weather")?.output as never;
  void w;
  const b = await generateText({
    model,
    tools,
    system: "You are a helpful assistant.",
    messages: [{ role: "user", content: [{ type: "text", text: "Search for cats" }] }],
    ...regulate<typeof tools>(r, {
      stopWhen: stepCountIs(10),
      onDecision: (d: Decision) => {
        if (d.kind === "circuitBreak") console.log(d.reason.kind, d.suggestion);
      },
      haltText: (d) => `Stopped: ${d.reason.kind}`,
      onStepFinish: (step) => {
        for (const c of step.staticToolCalls) if (c.toolName === "weather") console.log(c.input.city);
      },
    }),
  });
  const s = streamText({ model, tools, prompt: "Hi", ...regulate(r, { finalAnswer: false }) });
  const options: RegulateOptions<typeof tools> = { turnStart: false, haltText: "Out of budget." };
  void options;
  return a.text + b.text + (await s.text);
}
void main;

// @ts-expect-error the first argument must be a Regulator
regulate({});
// @ts-expect-error unknown option
regulate(r, { maxSteps: 3 });
