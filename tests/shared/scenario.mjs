// One scenario, run unchanged in Node, Deno, Chromium and workerd. It takes
// the runtime's `Regulator` class and returns a list of failures (empty when
// every decision matched) plus the decisions it saw, so runners can report.

const T0 = 1_732_000_000_000;

function expectKind(fail, label, d, kind) {
  if (d.kind !== kind) fail(`${label}: expected ${kind}, got ${d.kind} ${JSON.stringify(d)}`);
}

export function runScenario(Regulator) {
  const failures = [];
  const fail = (m) => failures.push(m);
  const seen = [];
  const decide = (r, label) => {
    const d = r.decide();
    seen.push([label, d.kind]);
    return d;
  };

  // 1. Tool loop: search_orders five times with nothing found breaks at call 5.
  const loop = new Regulator({ userId: "alice" });
  loop.turnStart("Find my late orders", T0);
  for (const [i, days] of [7, 14, 30, 60, 90].entries()) {
    loop.toolCall("search_orders", { days }, { callId: `c${i}` });
    loop.toolResult("search_orders", { ok: true, durationMs: 95, result: "[]", callId: `c${i}` });
    const d = decide(loop, `loop call ${i + 1}`);
    // Empty results each time: a nudge at the third call, the break at the fifth.
    if (i < 2) expectKind(fail, `loop call ${i + 1}`, d, "continue");
    else if (i < 4) {
      expectKind(fail, `loop call ${i + 1}`, d, "toolNudge");
      if (d.pattern !== "noProgress" || d.count !== i + 1) fail(`nudge ${JSON.stringify(d)}`);
    } else {
      expectKind(fail, "loop call 5", d, "circuitBreak");
      if (d.reason?.kind !== "toolLoop" || d.reason.toolName !== "search_orders" || d.reason.count !== 5) {
        fail(`loop reason: ${JSON.stringify(d.reason)}`);
      }
    }
  }
  const m = loop.metrics();
  if (m["reins.tool_total_calls"] !== 5 || m["reins.tool_total_duration_ms"] !== 475) fail(`loop metrics ${JSON.stringify(m)}`);

  // 1b. A parallel batch is one step, judged once its results are in: six
  // reservations looked up at once, every result in, no nudge, no break.
  const fan = new Regulator({ userId: "alice" });
  fan.turnStart("Which of my reservations can I still cancel?", T0);
  const ids = ["ZFA04Y", "NO6JO3", "H9ZU1C", "XEWRD9", "GV1N64", "4WQ150"];
  ids.forEach((id, i) => fan.toolCall("get_reservation_details", { reservation_id: id }, { callId: `r${i}` }));
  ids.forEach((id, i) => {
    fan.toolResult("get_reservation_details", { ok: true, result: `{"reservation_id":"${id}","status":"active"}`, callId: `r${i}` });
    expectKind(fail, `fan-out result ${i + 1}`, decide(fan, `fan-out result ${i + 1}`), "continue");
  });
  // A repeated action halts at its second success, whatever id it returns;
  // the same call marked readOnly is a read, and a second read is fine.
  fan.toolCall("issue_voucher", { user: "alice", amount: 50 }, { callId: "v1", sideEffect: true });
  fan.toolResult("issue_voucher", { ok: true, result: '{"voucher":"vch_8f3k29"}', callId: "v1" });
  expectKind(fail, "first voucher", decide(fan, "first voucher"), "continue");
  fan.toolCall("issue_voucher", { user: "alice", amount: 50 }, { callId: "v2", sideEffect: true });
  fan.toolResult("issue_voucher", { ok: true, result: '{"voucher":"vch_1x8p07"}', callId: "v2" });
  const dup = decide(fan, "second voucher");
  expectKind(fail, "second voucher", dup, "circuitBreak");
  if (dup.reason?.pattern !== "repeatedSideEffect" || dup.reason.count !== 2) fail(`voucher reason ${JSON.stringify(dup.reason)}`);
  const reads = new Regulator({ userId: "alice" });
  reads.turnStart("Check my voucher", T0);
  for (const i of [1, 2]) {
    reads.event({ type: "toolCall", name: "issue_voucher", args: { user: "alice" }, callId: `q${i}`, readOnly: true });
    reads.toolResult("issue_voucher", { ok: true, result: `{"voucher":"vch_${i}a9x07"}`, callId: `q${i}` });
  }
  expectKind(fail, "readOnly twice", decide(reads, "readOnly twice"), "continue");
  try {
    reads.toolCall("t", {}, { sideEffect: true, readOnly: true });
    fail("sideEffect with readOnly: did not throw");
  } catch (e) {
    if (!(e instanceof TypeError) || !e.message.startsWith("toolCall.sideEffect")) fail(`sideEffect with readOnly: ${e?.message}`);
  }

  // 2. Correction memory: three corrections, then a warning before generation, after export/import.
  const mem = new Regulator({ userId: "alice" });
  const turns = [
    ["Make my auth module async", "The auth module is async now.", "Don't add logging."],
    ["Refactor auth to support async", "Auth supports async now.", "No tracing, please."],
    ["Change my auth function to async", "The auth function is async.", "Stop adding logs."],
  ];
  turns.forEach(([ask, answer, fix], i) => {
    mem.turnStart(ask, T0 + i * 10_000);
    expectKind(fail, `memory turn ${i + 1} before`, decide(mem, `memory turn ${i + 1}`), "continue");
    mem.turnComplete(answer, T0 + i * 10_000 + 900);
    mem.cost({ tokensIn: 25, tokensOut: 120, wallclockMs: 900 });
    mem.userCorrection(fix, { atMs: T0 + i * 10_000 + 1000 });
  });
  const saved = mem.export();
  const back = Regulator.import(saved);
  if (back.export() !== saved) fail("export → import → export is not byte-identical");
  back.turnStart("Add async handling to my auth", T0 + 99_000);
  const p = decide(back, "memory after import");
  expectKind(fail, "memory after import", p, "procedural");
  const pat = p.patterns?.[0];
  if (!pat || pat.topic !== "async+auth" || pat.count !== 3 || pat.examples.join("|") !== "Stop adding logs.|No tracing, please.|Don't add logging.") {
    fail(`pattern ${JSON.stringify(pat)}`);
  }
  const injected = back.injectCorrections("Add async handling to my auth");
  if (!injected.includes("\n- Stop adding logs.\n") || !injected.endsWith("Current request: Add async handling to my auth")) {
    fail(`injectCorrections: ${injected}`);
  }

  // 3. Budget: over the cap while quality declines, on turn 3.
  const budget = new Regulator({ userId: "alice", costCapTokens: 1000 });
  [0.5, 0.35, 0.2].forEach((q, i) => {
    budget.turnStart("Summarise the quarterly sales report", T0 + i * 10_000);
    budget.turnComplete("The quarterly sales report: sales grew.", T0 + i * 10_000 + 900);
    budget.cost({ tokensOut: 400 });
    budget.qualityFeedback(q);
    const d = decide(budget, `budget turn ${i + 1}`);
    if (i < 2 && d.kind === "circuitBreak") fail(`budget turn ${i + 1} broke early`);
    if (i === 2) {
      expectKind(fail, "budget turn 3", d, "circuitBreak");
      if (d.reason?.kind !== "costCap" || d.reason.tokensSpent !== 1200) fail(`budget reason ${JSON.stringify(d.reason)}`);
      if (!d.concerns.some((c) => c.kind === "circuitBreak" && c.reason.kind === "qualityDecline")) fail("decline not listed");
    }
  });

  // 4. Scope drift: an over-helpful refactor.
  const drift = new Regulator({ userId: "alice" });
  drift.turnStart("Refactor fetch_user to be async. Keep the database lookup logic unchanged.", T0);
  drift.turnComplete(
    "I refactored fetch_user to be async. I also added a call counter, duration metrics, doc comments " +
      "and structured logging around the db call, plus retry logic with exponential backoff.",
    T0 + 900,
  );
  const dd = decide(drift, "drift");
  expectKind(fail, "drift", dd, "scopeDrift");
  for (const w of ["logging", "retry", "backoff", "metrics"]) {
    if (!dd.driftTokens?.includes(w)) fail(`drift tokens lack ${w}: ${dd.driftTokens}`);
  }

  // 5. Bad input throws the right class, names the field, and changes nothing.
  const before = drift.export();
  const bad = [
    [() => drift.qualityFeedback(Number.NaN), RangeError, "qualityFeedback.quality"],
    [() => drift.turnStart(42), TypeError, "turnStart.message"],
    [() => drift.event({ type: "explode" }), TypeError, "event.type"],
    [() => drift.cost({ tokensOut: -1 }), RangeError, "cost.tokensOut"],
    [() => Regulator.import('{"format":"reins.state","version":99}'), RangeError, "snapshot.version"],
  ];
  for (const [call, cls, field] of bad) {
    try {
      call();
      fail(`${field}: did not throw`);
    } catch (e) {
      if (!(e instanceof cls) || !e.message.startsWith(field)) fail(`${field}: threw ${e?.constructor?.name} ${e?.message}`);
    }
  }
  if (drift.export() !== before) fail("bad input changed the regulator");

  // 6. Two tabs merge by union.
  const tab2 = Regulator.import(saved);
  tab2.turnStart("Make my auth module async", T0 + 200_000);
  tab2.userCorrection("Use the existing retry helper.", { atMs: T0 + 200_100 });
  mem.merge(tab2.export());
  if (mem.corrections().length !== 4) fail(`merge: ${mem.corrections().length} records`);

  for (const r of [loop, fan, reads, mem, back, budget, drift, tab2]) r.free();
  return { failures, seen };
}
