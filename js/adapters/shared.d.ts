// Declarations shared by the adapters: the error a halted run throws, the
// same class from reins/langchain and reins/openai-agents.
import type { BreakReason, CircuitBreakConcern, Decision } from "../index.js";

/** A circuit break: what a regulated run throws (or rejects with) when reins halts it. */
export declare class ReinsHaltError extends Error {
  constructor(decision: CircuitBreakConcern & { readonly concerns: Decision["concerns"] });
  readonly name: "ReinsHaltError";
  readonly code: "REINS_HALT";
  /** The decision that halted the run. */
  readonly decision: CircuitBreakConcern & { readonly concerns: Decision["concerns"] };
  /** Why: `decision.reason` (`toolLoop`, `costCap`, …). */
  readonly reason: BreakReason;
}
