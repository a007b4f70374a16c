// reins time fuzz: adversarial text families fed to every event at 64 KB,
// 256 KB and 1 MB, timed beside plain prose of the same size through the same
// event. A benchmark, not a test: it prints, it asserts nothing.
//
//   node benches/hostile.mjs                      # every family, every event (~15 min)
//   node benches/hostile.mjs --quick              # 16 KB and 64 KB only
//   node benches/hostile.mjs --only zh-mixed,deep-args --events turnStart
//   REINS_PKG=/other/pkg node benches/hostile.mjs # another build, same layout
//   node benches/hostile.mjs --dump /tmp/fam      # write the texts, to profile natively
//
// Each (family, event) runs in its own worker thread (its own wasm instance),
// sizes ascending; a call that runs past the deadline is killed and reported
// as "> N s", and the larger sizes of that pair are not tried. Each size is
// timed on fresh regulators (setup untimed) and the median of the runs kept
// (one untimed run first; at least five timed, more for calls under 20 ms).
//
// Pass criteria (issue 18): at 1 MB every family costs at most 4× prose
// through the same event, and no family grows more than 24× from 64 KB to
// 1 MB (16× the bytes; linear work grows 16×). A call under 1 ms at 1 MB is
// not judged (its ratios are printed in parentheses).

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, cpus } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const PKG = process.env.REINS_PKG
  ? new URL(`file://${process.env.REINS_PKG.replace(/\/?$/, "/")}`)
  : new URL("../pkg/", import.meta.url);

const KB = 1024;
const MAX_RATIO = 4;
const MAX_GROWTH = 24;
const FLOOR_MS = 1;

// ---------------------------------------------------------------- texts

const workload = (name) => readFileSync(new URL(`./workload/${name}`, import.meta.url), "utf8");

/** A deterministic pseudo-random source (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plain English prose: sentences of 6–20 words drawn from the workload texts. */
function prose(bytes) {
  const words = `${workload("response.txt")} ${workload("task.txt")}`
    .split(/[^A-Za-z']+/)
    .filter((w) => w.length > 1);
  const next = rng(7);
  let out = "";
  while (out.length < bytes) {
    const n = 6 + Math.floor(next() * 15);
    const s = Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(" ");
    out += s[0].toUpperCase() + s.slice(1) + (next() < 0.1 ? "?\n" : next() < 0.2 ? ".\n\n" : ". ");
  }
  return out;
}

/** `unit` repeated to `bytes` UTF-8 bytes (cut at a character boundary). */
function repeat(unit, bytes) {
  const per = Buffer.byteLength(unit);
  let s = unit.repeat(Math.ceil(bytes / per));
  while (Buffer.byteLength(s) > bytes) s = s.slice(0, Math.max(1, s.length - Math.ceil((Buffer.byteLength(s) - bytes) / 4)));
  return s.isWellFormed() ? s : s.slice(0, -1);
}

// Each family: `text(bytes)` gives the text for the text events; `args(bytes)`
// (optional) the tool arguments object for toolCall, else { query: text }.
const unit = (u) => (bytes) => repeat(u, bytes);
const FAMILIES = {
  prose: { text: prose },
  // The issue's reports: Chinese preference + pushback, the bare opener,
  // English standing rules, pushback in several languages.
  "zh-mixed": { text: unit("别用pandas以后都用中文错了") },
  "zh-opener": { text: unit("以后都") },
  "en-standing": { text: unit("From now on, always use tabs. ") },
  "en-clauses": { text: unit("always use tabs, never use spaces, ") },
  "pushback-4-langs": { text: unit("That's wrong again. 错了！No funciona. Das ist falsch. ") },
  "ja-pushback": { text: unit("違います。まだ動きません。ダメです。毎回エラーになる、") },
  "ru-de-pushback": { text: unit("Это неправильно. Опять не работает! Immer noch falsch. Das funktioniert nicht. ") },
  "es-fr-pt-pushback": { text: unit("Sigue sin funcionar. Ça ne marche toujours pas. Ainda não funciona. ") },
  // Reply rules: contrasts, refusals, failure reports, sarcasm, absent things.
  contrasts: { text: unit("use pnpm, not npm, instead of yarn, rather than bun; ") },
  "cjk-contrasts": { text: unit("用pnpm而不是npm，别用yarn，") },
  "failure-reports": { text: unit("Your script still fails with KeyError again. The 403 is back, same error. ") },
  sarcasm: { text: unit("Great, now none of the tests compile. Wow, thanks a lot. ") },
  absent: { text: unit("there's no orderlines table. RETURNING não existe. ") },
  "wrong-openers": { text: unit("Wrong. No. Falsch. いいえ。 ") },
  // Drift cues in answers: additions, negations, money, numbers, code, lists.
  "drift-cues": { text: unit("Additionally, I also added logging and telemetry. I went ahead and updated the docs. ") },
  negations: { text: unit("Don't use pandas. Do not add logging. Without comments, no emojis. ") },
  money: { text: unit("$1,000 or €25.50 (USD 3.99), 12 % off 1,299.00; ") },
  numbers: { text: unit("3.11 2024 v1.2.3 #42 0x1F 10ms 5 ") },
  "code-fences": { text: unit("```python\ndef f(x):\n    return x  # added logging\n```\n") },
  "open-fence": { text: (bytes) => "```python\n" + repeat("import os; print(os.getcwd())\n", bytes - 10) },
  "list-items": { text: unit("- item one\n1. step two\n## Heading\n| a | b |\n") },
  // Shapes of text: spaced letters, widths, long words and lines, CJK runs.
  "spaced-letters": { text: unit("W R O N G ") },
  "spaced-words": { text: unit("i t   s t i l l   f a i l s   ") },
  "full-width": { text: unit("ＷＲＯＮＧ　ＡＧＡＩＮ！ ") },
  "half-width-kana": { text: unit("ﾀﾞﾒです ｴﾗｰ ﾊﾟｽ ") },
  "one-word": { text: unit("a") },
  "long-line": { text: unit("word ") },
  "cjk-run": { text: unit("这个函数还是不对你再改一下") },
  "punctuation": { text: unit(". ") },
  "question-marks": { text: unit("why? ") },
  newlines: { text: unit("\n") },
  "combining-marks": { text: unit("e\u0301") },
  emoji: { text: unit("😀") },
  "secrets-urls": { text: unit("sk-abcdefghijklmnopqrstuvwxyz012345 https://example.com/a/b?c=d ") },
  "key-blocks": { text: unit("-----BEGIN KEY-----abc-----END KEY----- password: hunter22 ") },
  identifiers: { text: unit("fetch_user_by_id_async ") },
  // Tool arguments: deep (64 levels, repeated) and wide (many keys).
  "deep-args": { args: (bytes) => argsOf(bytes, deep) },
  "wide-args": { args: (bytes) => argsOf(bytes, (i) => ({ [`key${i}`]: i })) },
};

function deep(i) {
  let v = i;
  for (let d = 0; d < 60; d++) v = d % 2 ? [v] : { a: v };
  return v;
}

/** An array of `part(i)` values whose JSON is at most `bytes` long. */
function argsOf(bytes, part) {
  const items = [];
  for (let i = 0, size = 12; ; i++) {
    const v = part(i);
    size += JSON.stringify(v).length + 1;
    if (size > bytes) break;
    items.push(v);
  }
  return { items };
}

const TASK = "Fix the login bug in auth.py so that expired sessions redirect to /login.";
const ANSWER =
  "I changed `check_session` in auth.py: an expired session now redirects to /login instead of raising. " +
  "Should I also add a test for the redirect?";

// Each event: `setup(r, text)` untimed, then `run(r, text, family, bytes)` timed.
const EVENTS = {
  turnStart: { setup: (r) => { r.turnStart(TASK, 1); r.turnComplete(ANSWER, 2); }, run: (r, t) => r.turnStart(t, 3) },
  "turnStart (reply to it)": {
    setup: (r, t) => { r.turnStart(TASK, 1); r.turnComplete(t, 2); },
    run: (r, t) => r.turnStart(t, 3),
  },
  turnComplete: { setup: (r) => r.turnStart(TASK, 1), run: (r, t) => r.turnComplete(t, 2) },
  "turnComplete (to it)": { setup: (r, t) => r.turnStart(t, 1), run: (r, t) => r.turnComplete(t, 2) },
  userCorrection: {
    setup: (r) => { r.turnStart(TASK, 1); r.turnComplete(ANSWER, 2); },
    run: (r, t) => r.userCorrection(t, { atMs: 3 }),
  },
  toolCall: { setup: () => {}, run: (r, _t, args) => r.toolCall("search", args) },
  "toolResult.result": { setup: (r) => r.toolCall("search", { q: "x" }), run: (r, t) => r.toolResult("search", { ok: true, durationMs: 1, result: t }) },
  "toolResult.error": { setup: (r) => r.toolCall("search", { q: "x" }), run: (r, t) => r.toolResult("search", { ok: false, durationMs: 1, error: t }) },
  injectCorrections: {
    setup: (r) => { r.turnStart(TASK, 1); r.turnComplete(ANSWER, 2); r.userCorrection("No, keep raising for API calls.", { atMs: 3 }); },
    run: (r, t) => r.injectCorrections(t),
  },
};

// ---------------------------------------------------------------- worker

async function worker({ family, event, sizes, runs }) {
  const { Regulator } = await import(new URL("entry-node.js", PKG));
  const ev = EVENTS[event];
  const fam = FAMILIES[family];
  // Warm-up: a fresh instance runs its first calls in V8's baseline tier
  // (Liftoff); hot functions tier up after some calls. Run this path on
  // small texts until it is fast and steady.
  const small = (b) => (fam.text ? fam.text(b) : JSON.stringify(fam.args(b)));
  for (const [text, args] of [[prose(4 * KB), { query: prose(4 * KB) }], [small(4 * KB), fam.args ? fam.args(4 * KB) : { query: small(4 * KB) }]]) {
    for (const end = performance.now() + 150; performance.now() < end; ) {
      const r = new Regulator({ userId: "warm", maxTextBytes: 4 << 20 });
      ev.setup(r, text);
      ev.run(r, text, args);
      r.free();
    }
  }
  for (const bytes of sizes) {
    const text = fam.text ? fam.text(bytes) : JSON.stringify(fam.args(bytes));
    const args = fam.args ? fam.args(bytes) : { query: text };
    const times = [];
    let spent = 0;
    const began = performance.now();
    // The first run at a size is untimed: it grows the module's memory to
    // fit (once per instance, as for a user) and warms V8's code for it.
    // Then at least `runs` runs, and more while they add up to under 100 ms
    // (up to 41): a call of a tenth of a millisecond is at the mercy of one
    // garbage collection of the megabyte strings around it.
    // (Set-ups count against a wall budget of 2 s for the extra runs.)
    for (let i = -1; i < runs || (spent < 100 && i < 41 && performance.now() - began < 2000); i++) {
      const r = new Regulator({ userId: "hostile", maxTextBytes: 4 << 20 });
      ev.setup(r, text);
      parentPort.postMessage({ bytes, phase: "timed" });
      const t = process.hrtime.bigint();
      ev.run(r, text, args);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (i >= 0) {
        times.push(ms);
        spent += ms;
      }
      parentPort.postMessage({ bytes, phase: "setup" });
      r.free();
    }
    times.sort((a, b) => a - b);
    parentPort.postMessage({ bytes, ms: times[times.length >> 1] });
  }
}

// ---------------------------------------------------------------- main

function parseArgs(argv) {
  const o = { quick: false, only: null, events: null, deadline: 20, runs: 5, dump: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--quick") o.quick = true;
    else if (a === "--only") o.only = argv[++i].split(",");
    else if (a === "--events") o.events = argv[++i].split(",");
    else if (a === "--deadline") o.deadline = Number(argv[++i]);
    else if (a === "--runs") o.runs = Number(argv[++i]);
    else if (a === "--dump") o.dump = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

/**
 * Runs one (family, event) pair; resolves to { [bytes]: ms, or null when the
 * timed call was killed, or "setup" when its set-up was }.
 */
function pair(family, event, sizes, opts) {
  return new Promise((resolve) => {
    const out = {};
    const w = new Worker(new URL(import.meta.url), { workerData: { family, event, sizes, runs: opts.runs } });
    let timer;
    let at = { bytes: sizes[0], phase: "setup" };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        out[at.bytes] = at.phase === "timed" ? null : "setup";
        w.terminate();
      }, opts.deadline * 1000);
    };
    arm();
    // Every phase re-arms the deadline: a slow set-up (the previous event of
    // the same text) is not charged to the timed call.
    w.on("message", (m) => {
      if (m.phase) at = m;
      else {
        out[m.bytes] = m.ms;
        at = { bytes: sizes[sizes.indexOf(m.bytes) + 1], phase: "setup" };
      }
      arm();
    });
    w.on("error", (e) => { out.error = e.message; });
    w.on("exit", () => { clearTimeout(timer); resolve(out); });
  });
}

const fmt = (ms) => (ms === undefined ? "—" : ms === null ? `killed` : ms === "setup" ? "set-up killed" : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : ms >= 0.1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sizes = opts.dump ? [4 * KB, 16 * KB, 64 * KB, 256 * KB, 1024 * KB] : opts.quick ? [16 * KB, 64 * KB] : [64 * KB, 256 * KB, 1024 * KB];
  const [small, big] = [sizes[0], sizes[sizes.length - 1]];
  const families = Object.keys(FAMILIES).filter((f) => f === "prose" || !opts.only || opts.only.includes(f));
  const events = Object.keys(EVENTS).filter((e) => !opts.events || opts.events.includes(e));
  if (opts.dump) {
    // <family>.<KB>.txt: the text events' text (tool-argument families: their JSON).
    mkdirSync(opts.dump, { recursive: true });
    for (const f of families) {
      for (const b of sizes) {
        const fam = FAMILIES[f];
        writeFileSync(`${opts.dump}/${f}.${b / KB}.txt`, fam.text ? fam.text(b) : JSON.stringify(fam.args(b)));
      }
    }
    return;
  }
  console.log(`# reins time fuzz — ${process.version}, ${cpus()[0].model}, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`sizes ${sizes.map((s) => `${s / KB} KB`).join(", ")}; median of ${opts.runs} to 41 runs on fresh regulators; a call (or its set-up) killed after ${opts.deadline} s`);
  let worstRatio = { v: 0 };
  let worstGrowth = { v: 0 };
  const failures = [];
  let quick = 0;
  for (const event of events) {
    console.log(`\n## ${event}\n`);
    console.log(`| family | ${sizes.map((s) => `${s / KB} KB`).join(" | ")} | growth ×${big / small} bytes | × prose at ${big / KB} KB |`);
    console.log(`|---|${sizes.map(() => "---:").join("|")}|---:|---:|`);
    let base;
    for (const family of families) {
      const t = await pair(family, event, sizes, opts);
      if (t.error) {
        console.log(`| ${family} | error: ${t.error.slice(0, 120)} |`);
        failures.push(`${event} / ${family}: ${t.error}`);
        continue;
      }
      if (family === "prose") base = t;
      const cells = sizes.map((s) => fmt(t[s]));
      const done = typeof t[big] === "number";
      const growth = done ? t[big] / t[small] : null;
      const ratio = done && typeof base?.[big] === "number" ? t[big] / base[big] : null;
      const weighed = done && t[big] >= FLOOR_MS;
      if (weighed && growth > worstGrowth.v) worstGrowth = { v: growth, at: `${event} / ${family}` };
      if (weighed && ratio !== null && ratio > worstRatio.v) worstRatio = { v: ratio, at: `${event} / ${family}` };
      // A call that takes under FLOOR_MS at the largest size is not judged:
      // it cannot stall anything, and at that scale a timer tick, one
      // garbage collection or V8's choice of string representation decides
      // the ratios (shown in parentheses).
      const judged = !done || t[big] >= FLOOR_MS;
      const bad = judged && (!done || growth > MAX_GROWTH || (ratio !== null && ratio > MAX_RATIO));
      if (bad) failures.push(`${event} / ${family}`);
      if (!judged) quick++;
      const mark = (s) => (bad ? `**${s}**` : judged ? s : `(${s})`);
      console.log(`| ${family} | ${cells.join(" | ")} | ${mark(growth === null ? "—" : `${growth.toFixed(1)}×`)} | ${mark(ratio === null ? "—" : `${ratio.toFixed(2)}×`)} |`);
    }
  }
  console.log(`\nworst × prose: ${worstRatio.v.toFixed(2)} (${worstRatio.at}); worst growth: ${worstGrowth.v.toFixed(1)}× (${worstGrowth.at}); not judged (under ${FLOOR_MS} ms at ${big / KB} KB): ${quick}`);
  console.log(failures.length ? `outside the bounds (≤ ${MAX_RATIO}× prose, ≤ ${MAX_GROWTH}× growth): ${failures.length}\n  ${failures.join("\n  ")}` : `every family within ≤ ${MAX_RATIO}× prose and ≤ ${MAX_GROWTH}× growth`);
}

if (isMainThread) await main();
else await worker(workerData);
