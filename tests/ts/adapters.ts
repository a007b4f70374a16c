// Type test: reins/langchain and reins/openai-agents fit the real packages'
// types without casts, and both throw the one ReinsHaltError class.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import { Agent, Runner, run } from "@openai/agents";
import { Regulator, type Decision } from "reins";
import { ReinsCallbackHandler, ReinsHaltError } from "reins/langchain";
import { regulate, ReinsHaltError as AgentsHalt } from "reins/openai-agents";

declare const chat: BaseChatModel;
const r = new Regulator({ userId: "alice" });

export async function langchain(): Promise<void> {
  const reins = new ReinsCallbackHandler(r, { onDecision: (d: Decision) => d.kind });
  try {
    await chat.invoke([new HumanMessage("hi")], { callbacks: [reins], signal: reins.signal });
  } catch (e) {
    if (e instanceof ReinsHaltError) {
      const why: string = e.reason.kind;
      why;
    }
  }
  const halted: ReinsHaltError | null = reins.halted;
  halted;
}

export async function agents(): Promise<void> {
  const agent = new Agent({ name: "support", instructions: "Be brief." });
  const reins = regulate(r, agent, { onDecision: (d: Decision) => d.kind });
  await run(agent, "hi", { callModelInputFilter: reins.callModelInputFilter });
  const runner = new Runner();
  const other = regulate(r, runner);
  await runner.run(agent, "hi", { callModelInputFilter: other.callModelInputFilter });
  const same: AgentsHalt | null = reins.halted;
  const one: ReinsHaltError | null = same; // one class for both adapters
  one;
  other.detach();
}

// @ts-expect-error the handler takes a Regulator
new ReinsCallbackHandler({});
// @ts-expect-error onDecision takes a decision
new ReinsCallbackHandler(r, { onDecision: (d: number) => d });
