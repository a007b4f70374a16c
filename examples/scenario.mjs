// The main job until the demo page exists: the reference design's four demo
// scenarios through the built package, printing each event and the decision
// it produced. Run with `bash scripts/main.sh`.
import { Regulator } from "../pkg/entry-node.js";

const T0 = 1_732_000_000_000;

function show(d) {
  const also = d.concerns.slice(1).map((c) => c.kind);
  const tail = also.length ? `  [also: ${also.join(", ")}]` : "";
  switch (d.kind) {
    case "continue": return "continue";
    case "circuitBreak": return `circuitBreak ${JSON.stringify(d.reason)} — ${d.suggestion}${tail}`;
    case "incident": return `incident on ${d.topic}: ${JSON.stringify(d.markers)} on turns ${d.evidenceTurns}${tail}`;
    case "toolNudge": return `toolNudge ${d.pattern} ×${d.count} — ${d.suggestion}${tail}`;
    case "scopeDrift": return `scopeDrift ${d.driftScore.toFixed(2)}, added: ${d.driftTokens.join(", ")}${tail}`;
    case "procedural": return `procedural ${d.patterns.map((p) => `${p.topic} (${p.count}): ${JSON.stringify(p.examples)}`).join("; ")}${tail}`;
  }
}

function run(title, r, events) {
  console.log(`\n== ${title}`);
  for (const e of events) {
    r.event(e);
    let line = JSON.stringify(e);
    if (line.length > 88) line = `${line.slice(0, 87)}…`;
    console.log(`  ${line.padEnd(90)} → ${show(r.decide())}`);
  }
}

const loop = [{ type: "turnStart", message: "Find my late orders", atMs: T0 }];
for (const days of [7, 14, 30, 60, 90]) {
  loop.push({ type: "toolCall", name: "search_orders", args: { days } });
  loop.push({ type: "toolResult", name: "search_orders", ok: true, durationMs: 95, result: "[]" });
}
run("tool loop: the same tool five times in a row", new Regulator({ userId: "demo" }), loop);

const mem = new Regulator({ userId: "demo" });
const turns = [
  ["Make my auth module async", "The auth module is async now, with debug logging added.", "Don't add logging."],
  ["Refactor auth to support async", "Auth supports async; I added tracing spans too.", "No tracing, please."],
  ["Change my auth function to async", "Done: the auth function is async and logs each call.", "Stop adding logs."],
];
run("correction memory: three corrections on one topic", mem, turns.flatMap(([ask, answer, fix], i) => [
  { type: "turnStart", message: ask, atMs: T0 + i * 10_000 },
  { type: "turnComplete", response: answer, atMs: T0 + i * 10_000 + 900 },
  { type: "cost", tokensIn: 25, tokensOut: 120, wallclockMs: 900 },
  { type: "userCorrection", message: fix, atMs: T0 + i * 10_000 + 1000 },
]));
const restored = Regulator.import(mem.export());
run("… after export/import, before generating", restored, [
  { type: "turnStart", message: "Add async handling to my auth", atMs: T0 + 99_000 },
]);
console.log(`\n  injectCorrections:\n    ${restored.injectCorrections("Add async handling to my auth").replaceAll("\n", "\n    ")}`);

run("budget: over the cap while quality declines", new Regulator({ userId: "demo", costCapTokens: 1000 }),
  [0.5, 0.35, 0.2].flatMap((quality, i) => [
    { type: "turnStart", message: "Summarise the quarterly sales report", atMs: T0 + i * 10_000 },
    { type: "turnComplete", response: "Sales grew in every region this quarter.", atMs: T0 + i * 10_000 + 900 },
    { type: "cost", tokensIn: 25, tokensOut: 400, wallclockMs: 900 },
    { type: "qualityFeedback", quality },
  ]));

run("scope drift: an over-helpful refactor", new Regulator({ userId: "demo" }), [
  { type: "turnStart", message: "Refactor fetch_user to be async. Keep the database lookup logic unchanged.", atMs: T0 },
  {
    type: "turnComplete",
    response: "I refactored fetch_user to be async. I also added a call counter, duration metrics, doc comments " +
      "and structured logging around the db call, plus retry logic with exponential backoff.",
    atMs: T0 + 900,
  },
]);
