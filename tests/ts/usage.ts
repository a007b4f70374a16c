// Type test: compiles only if the public types are exact. Each line marked
// as an expected error must fail to compile (tsc reports an unused marker).
import { Regulator } from "reins";
import type { BreakReason, Concern, Decision, LearnedRule, LoopPattern, ReinsEvent, Snapshot } from "reins";

const r = new Regulator({ userId: "alice", costCapTokens: 2000, tokenCapBasis: "total", costCapUsd: null });
new Regulator({ userId: "a", toolLoopRule: "consecutiveSameTool", toolLoopExempt: ["think"], toolLoopThresholds: { poll: 10 } });
new Regulator({ userId: "a", glossary: ["Pulse", "Seat"], markers: false, incidentWindowTurns: 4 });
new Regulator({ userId: "a", scopeDrift: false });
// @ts-expect-error scopeDrift is a boolean
new Regulator({ userId: "a", scopeDrift: "off" });
r.turnStart("Refactor fetch_user to be async");
r.turnStart("with a time", 1_732_000_000_000);
r.token(-0.2);
r.token(null);
r.tokens(new Float64Array([-0.1, -0.2]), { unavailable: 1 });
r.tokens([-0.1]);
r.turnComplete("Refactored.");
r.cost({ tokensIn: 25, tokensOut: 800, wallclockMs: 900, usd: 0.01, provider: "openai" });
r.toolCall("search_orders", { q: "late", days: [7, 14], nested: { ok: true, none: null } });
r.toolResult("search_orders", { ok: true, durationMs: 95, result: "[]" });
r.userCorrection("No logging", { correctsLast: false });
r.event({ type: "qualityFeedback", quality: 0.3 });
r.event({ type: "toolCall", name: "x", args: [1, "two"] });
r.toolCall("send_certificate", { user_id: "u1", amount: 50 }, { callId: "c1", sideEffect: true });
r.event({ type: "toolCall", name: "get_user", args: { id: 1 }, callId: "c2", readOnly: true });
const repeated: LoopPattern = "repeatedSideEffect";

function handle(d: Decision): string {
  switch (d.kind) {
    case "continue":
      return "ok";
    case "circuitBreak":
      return `${reason(d.reason)}: ${d.suggestion}`;
    case "incident":
      return `${d.topic}: ${d.markers.join("; ")} on turns ${d.evidenceTurns.join(",")} (${d.lexiconVersion}) ${d.summary}`;
    case "toolNudge":
      return `${d.toolName} ×${d.count} (${d.pattern}): ${d.suggestion}`;
    case "scopeDrift":
      return d.cause + d.driftTokens.join(",") + d.driftScore.toFixed(2) + d.taskTokens.length;
    case "procedural": {
      const p = d.patterns[0];
      return p ? p.examples.join("\n") + p.topic + p.count + p.confidence : "";
    }
    default: {
      const unreachable: never = d;
      return unreachable;
    }
  }
}

function reason(x: BreakReason): string {
  switch (x.kind) {
    case "costCap":
      return `${x.tokensSpent}/${x.tokensCap} ${x.meanQuality ?? "no quality"} ${x.usdCap ?? "no usd cap"}`;
    case "qualityDecline":
      return `${x.delta} over ${x.window}`;
    case "toolLoop":
      return `${x.toolName} ×${x.count} (${x.pattern})`;
    case "repeatedFailure":
      return `${x.topic} ×${x.failureCount}`;
    default: {
      const unreachable: never = x;
      return unreachable;
    }
  }
}

const d = r.decide();
handle(d);
const kinds: Concern["kind"][] = d.concerns.map((c) => c.kind);
kinds.length;
const snap: Snapshot = JSON.parse(r.export());
const v: 1 = snap.version;
v;
const m = r.metrics();
const conf: number = m["reins.confidence"];
conf;
const topic: string = r.topic;
topic;
const lines = r.corrections().map((c) => `${c.id} ${c.source} ${c.text}`);
lines;
const again = Regulator.import(r.export());
again.merge(r.export());
const prompt: string = again.injectCorrections("next");
const prelude: string | null = again.correctionsPrelude();
const prefs: string[] = again.preferences();
prefs;
const rules: LearnedRule[] = again.learnedRules();
const dismissed: boolean = again.dismissRule(rules[0]?.id ?? "0000000000000000", 1_732_000_000_000);
dismissed;
// @ts-expect-error: a rule's id is a string
again.dismissRule(42);
new Regulator({ userId: "a", repeatedFailureTurns: 4 });
prompt + prelude;
{
  using scoped = new Regulator({ userId: "bob" });
  scoped.decide();
}

// Narrowing is required before touching variant fields.
// @ts-expect-error reason exists only on circuit breaks
d.reason;
// @ts-expect-error a decision kind that does not exist
const bad: Decision["kind"] = "halt";
bad;
// @ts-expect-error userId is required
new Regulator({ costCapTokens: 5 });
// @ts-expect-error unknown options are rejected
new Regulator({ userId: "a", costCap: 5 });
// @ts-expect-error token counts are numbers
r.cost({ tokensOut: "5" });
// @ts-expect-error unknown event type
r.event({ type: "bogus" });
// @ts-expect-error qualityFeedback needs quality
r.event({ type: "qualityFeedback" });
// @ts-expect-error tool arguments must be JSON
r.toolCall("t", { when: new Date() });
// @ts-expect-error sideEffect is a boolean
r.toolCall("t", {}, { sideEffect: "yes" });
// @ts-expect-error toolResult needs ok
r.toolResult("t", { durationMs: 5 });
// @ts-expect-error config is read-only
r.config = r.config;
const ev: ReinsEvent = { type: "turnStart", message: "hi", atMs: 1 };
r.event(ev);
// Decisions heard once, and error codes.
const once: Decision | null = r.decide({ changedOnly: true });
once;
const code: import("reins").ReinsErrorCode = "REINS_INVALID_OPTION";
code;
r.injectCorrections("You are helpful.", { into: "system" });
// @ts-expect-error into is "request" or "system"
r.injectCorrections("x", { into: "user" });
