// One conversation as the page shows it: the events fed to a regulator,
// grouped into turns, each with the decision reins returned after it.

export class Session {
  constructor(regulator) {
    this.r = regulator;
    /** { user, items: [{kind:"call"|"correction", …}], response, tokensIn, tokensOut, quality, drift, budget, decision } */
    this.turns = [];
  }

  get last() {
    return this.turns.at(-1);
  }

  #turn() {
    if (this.turns.length === 0) this.turns.push(blank(null));
    return this.last;
  }

  /** Feeds one event; returns the turn it belongs to. Throws what the regulator throws. */
  apply(e) {
    this.r.event(e);
    let t;
    switch (e.type) {
      case "turnStart":
        t = blank(e.message);
        this.turns.push(t);
        break;
      case "toolCall":
        t = this.#turn();
        t.items.push({ kind: "call", name: e.name, args: e.args, callId: e.callId, done: false });
        break;
      case "toolResult": {
        t = this.#turn();
        const call =
          t.items.find((c) => c.kind === "call" && !c.done && e.callId !== undefined && c.callId === e.callId) ??
          t.items.find((c) => c.kind === "call" && !c.done && c.name === e.name);
        const outcome = { done: true, ok: e.ok, result: e.result ?? e.error ?? "", durationMs: e.durationMs };
        if (call) Object.assign(call, outcome);
        else t.items.push({ kind: "call", name: e.name, ...outcome });
        break;
      }
      case "turnComplete":
        t = this.#turn();
        t.response = e.response;
        t.drift = this.r.driftScore();
        break;
      case "cost":
        t = this.#turn();
        t.tokensIn += e.tokensIn ?? 0;
        t.tokensOut += e.tokensOut ?? 0;
        break;
      case "qualityFeedback":
        t = this.#turn();
        t.quality = e.quality;
        break;
      case "userCorrection":
        t = this.#turn();
        t.items.push({ kind: "correction", message: e.message });
        break;
      default:
        t = this.#turn();
    }
    const m = this.r.metrics();
    const basis = this.r.config.tokenCapBasis === "total" ? m["reins.total_tokens_in"] + m["reins.total_tokens_out"] : m["reins.total_tokens_out"];
    t.budget = { used: basis, cap: this.r.config.costCapTokens };
    t.decision = this.r.decide();
    // How the decision moved within the turn: a nudge that became a halt
    // stays visible after the halt.
    t.events += 1;
    if (t.trail.at(-1)?.kind !== t.decision.kind) t.trail.push({ kind: t.decision.kind, event: t.events, type: e.type });
    return t;
  }
}

function blank(user) {
  return { user, items: [], trail: [], events: 0, response: null, tokensIn: 0, tokensOut: 0, quality: null, drift: null, budget: null, decision: null };
}
