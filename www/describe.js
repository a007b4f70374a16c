// Decisions and concerns in plain words, with the numbers behind them.
// Pure: returns strings; the page puts them in the DOM as text.

const LOOP = {
  sameTool: "the same tool again and again",
  identicalCall: "the same call with the same arguments",
  pollingNoChange: "polling, and the result never changes",
  noProgress: "calls that make no progress",
  cycle: "a cycle of calls that comes back to its start",
  failureStreak: "one failing call after another",
  crossTurnDuplicate: "a call already made and answered in an earlier turn",
  repeatedSideEffect: "an action with side effects, repeated",
};

const DRIFT = {
  offTopic: "off topic",
  forbidden: "does what the user ruled out",
  additions: "adds what nobody asked for",
  language: "answers in another language",
  framework: "answers with another technology",
};

export const KIND_LABEL = {
  continue: "continue",
  circuitBreak: "halt",
  incident: "incident",
  toolNudge: "nudge",
  scopeDrift: "drift",
  procedural: "seen before",
};

const pct = (x) => `${Math.round(x * 100)} %`;
const num = (x) => x.toLocaleString("en-US");
const q = (x) => (x === null || x === undefined ? "none" : x.toFixed(2));

/** One concern: a short headline and a line of detail. */
export function describe(c) {
  switch (c.kind) {
    case "circuitBreak":
      return { headline: `Halt: ${breakHeadline(c.reason)}`, detail: c.suggestion };
    case "incident":
      return {
        headline: `Incident: the user pushed back on turns ${c.evidenceTurns.join(", ")}`,
        detail: `Markers: ${c.markers.join(", ")}. Latest: “${c.summary}”`,
      };
    case "toolNudge":
      return { headline: `Nudge: ${c.toolName} ×${c.count}, ${LOOP[c.pattern] ?? c.pattern}`, detail: c.suggestion };
    case "scopeDrift":
      return {
        headline: `Drift: ${DRIFT[c.cause] ?? c.cause}`,
        detail: `${c.driftTokens.slice(0, 6).join(", ")}${c.driftTokens.length ? "; " : ""}${pct(c.driftScore)} of the answer anchored nowhere in the request`,
      };
    case "procedural": {
      const p = c.patterns[0];
      return {
        headline: `Seen before: corrected ${p.count} times on this topic`,
        detail: p.examples.length ? `Latest: “${p.examples[0]}”` : "",
      };
    }
    default:
      return { headline: "Continue", detail: "" };
  }
}

function breakHeadline(r) {
  switch (r.kind) {
    case "costCap":
      return `budget spent: ${num(r.tokensSpent)} of ${num(r.tokensCap)} tokens (mean quality ${q(r.meanQuality)})`;
    case "qualityDecline":
      return `quality fell by ${r.delta.toFixed(2)} over the last ${r.window} grades (mean ${q(r.meanQuality)})`;
    case "repeatedFailure":
      return r.obstacle?.length
        ? `the same task failed ${r.failureCount} times on “${r.obstacle.join(" ")}” (turns ${r.evidenceTurns.join(", ")})`
        : `the user pushed back ${r.failureCount} times on this topic`;
    case "toolLoop":
      return `${r.toolName} ×${r.count}, ${LOOP[r.pattern] ?? r.pattern}`;
    default:
      return r.kind;
  }
}
