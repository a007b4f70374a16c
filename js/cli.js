#!/usr/bin/env node
// `npx reins replay <file|dir>…`: what reins would have decided on recorded
// agent runs, and what it would have saved. The reading, replaying and
// sweeping are the core's (src/replay/); this file finds files, shows
// progress and prints.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import "./replay-node.js";
import { Replayer } from "./reins_replay.js";

const USAGE = `usage: reins replay <file|dir>... [options]

Replays recorded agent runs through reins and prints, per run, the first
circuit break and what halting there would have saved, then a summary.
Reads reins traces, tau-bench and tau2-bench files, OpenTelemetry GenAI
spans (OTLP/JSON), AI SDK step results, SWE-agent and mini-swe-agent runs and
OpenAI chat transcripts (JSON or JSON lines; directories are searched for
.json, .jsonl, .ndjson and .traj files).

options:
  --json                 print the reports and the summary as JSON
  --all                  list every run (by default, past 40 runs only halted ones)
  --option name=value    a regulator option, e.g. --option toolLoopThreshold=4
  --sweep name=v1,v2,…   try each value (repeat for a grid, at most 256 combinations)
  --oracle policy        the context-pruning gap report of a keep-policy (recent:N or
                         incremental; repeat to compare) against the look-ahead oracle
  --budget tokens        the oracle's context budget (default 16000; repeat to compare)
  --horizon n            the oracle's look-ahead in messages (default 3)
  --no-estimate          do not estimate spend from text for runs that recorded none
  --progress             show progress on stderr (shown by default on a terminal)
  -h, --help             this text`;

class UsageError extends Error {}

/** A value as JSON when it reads as JSON (4, true, null), else the text. */
function value(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseArgs(argv) {
  const a = { paths: [], json: false, all: false, options: {}, grid: {}, oracle: [], budgets: [], horizon: 3, estimate: true, progress: process.stderr.isTTY === true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    const pair = (text) => {
      const at = text.indexOf("=");
      if (at <= 0) throw new UsageError(`${arg} ${text}: expected name=value`);
      return [text.slice(0, at), text.slice(at + 1)];
    };
    if (arg === "--json") a.json = true;
    else if (arg === "--all") a.all = true;
    else if (arg === "--no-estimate") a.estimate = false;
    else if (arg === "--progress") a.progress = true;
    else if (arg === "--option") {
      const [k, v] = pair(next());
      a.options[k] = value(v);
    } else if (arg === "--sweep") {
      const [k, v] = pair(next());
      a.grid[k] = v.split(",").map(value);
    } else if (arg === "--oracle") a.oracle.push(next());
    else if (arg === "--budget" || arg === "--horizon") {
      const n = Number(next());
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`${arg} must be a whole number`);
      if (arg === "--budget") a.budgets.push(n);
      else a.horizon = n;
    } else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
    else a.paths.push(arg);
  }
  if (a.paths.length === 0) throw new UsageError("name at least one file or directory");
  return a;
}

const RUN_FILE = /\.(json|jsonl|ndjson|traj)$/;

/** The files under `paths`, in order; directories searched (sorted), other paths as given. */
function files(paths) {
  const out = [];
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new UsageError(`cannot read ${p}: ${e.code === "ENOENT" ? "no such file or directory" : e.message}`);
    }
    if (!st.isDirectory()) return void out.push(p);
    for (const name of readdirSync(p).sort()) {
      const child = join(p, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (RUN_FILE.test(name)) out.push(child);
    }
  };
  paths.forEach(walk);
  return out;
}

function bar(done, total, label) {
  const width = 30;
  const full = Math.round((done / total) * width);
  process.stderr.write(`\r[${"#".repeat(full)}${" ".repeat(width - full)}] ${done}/${total} ${label.slice(-40).padEnd(40)}`);
  if (done === total) process.stderr.write("\n");
}

const pct = (x) => (x === null ? "–" : `${(100 * x).toFixed(1)} %`);
const tokens = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)} k` : String(n));
const outcome = (r) => (r.outcome?.success === true ? "ok" : r.outcome?.success === false ? "failed" : "–");

/** Rows of cells as aligned lines; columns where `right(c)` are right-aligned. */
function columns(rows, right) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) => row.map((cell, c) => (right(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join("  ").trimEnd());
}

function table(reports, all) {
  const shown = all || reports.length <= 40 ? reports : reports.filter((r) => r.firstBreak);
  const rows = [["run", "outcome", "turns", "events", "first break", "saved tokens", "concerns"]];
  for (const r of shown) {
    const b = r.firstBreak;
    const concerns = Object.keys(r.concerns).filter((k) => !k.startsWith("circuitBreak")).join(" ");
    rows.push([r.id.length > 48 ? `…${r.id.slice(-47)}` : r.id, outcome(r), String(r.turns), String(r.events),
      b ? `turn ${b.turn}: ${b.reason}` : "", r.savings ? tokens(r.savings.tokensIn + r.savings.tokensOut) : "", concerns]);
  }
  const lines = columns(rows, (c) => c >= 2 && c <= 3);
  if (shown.length < reports.length) lines.push(`(${reports.length - shown.length} runs without a halt not listed; --all lists them)`);
  return lines.join("\n");
}

function summaryText(s, nFiles) {
  const by = (o) => `${o.succeeded} succeeded, ${o.failed} failed${o.unknown ? `, ${o.unknown} without an outcome` : ""}`;
  const lines = [
    `${s.runs.succeeded + s.runs.failed + s.runs.unknown} runs from ${nFiles} file${nFiles === 1 ? "" : "s"} (${by(s.runs)}); ${s.turns} turns, ${s.events} events${s.refused ? ` (${s.refused} refused)` : ""}`,
    `halted ${s.halted.succeeded + s.halted.failed + s.halted.unknown} runs (${pct(s.haltRate)}): ${by(s.halted)}; halt precision ${pct(s.haltPrecision)}, failed runs halted ${pct(s.failureRecall)}`,
    `tokens after the break: ${tokens(s.tokensSavedOnFailed)} saved on failed runs, ${tokens(s.tokensForgoneOnSucceeded)} forgone on successful ones, of ${tokens(s.tokensTotal)} in all`,
  ];
  if (s.estimatedRuns) lines.push(`spend estimated from text (about 4 bytes a token) on ${s.estimatedRuns} runs that recorded none`);
  const reasons = Object.entries(s.byReason).map(([k, n]) => `${k} ${n}`).join(", ");
  if (reasons) lines.push(`halts by reason: ${reasons}`);
  const concerns = Object.entries(s.concerns).map(([k, o]) => `${k} ${o.succeeded}/${o.failed}${o.unknown ? `/${o.unknown}` : ""}`).join(", ");
  if (concerns) lines.push(`runs each concern fired on (succeeded/failed${s.runs.unknown ? "/unknown" : ""}): ${concerns}`);
  return lines.join("\n");
}

function sweepText(points) {
  const rows = [["", "options", "halted ok/failed", "precision", "saved on failed", "forgone on ok"]];
  for (const p of points) {
    const s = p.summary;
    rows.push([p.pareto ? "*" : "", Object.entries(p.options).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" "),
      `${s.halted.succeeded}/${s.halted.failed}`, pct(s.haltPrecision), tokens(s.tokensSavedOnFailed), tokens(s.tokensForgoneOnSucceeded)]);
  }
  return `${columns(rows, () => false).join("\n")}\n* on the Pareto frontier (no other point saves more on failed runs while halting as few successful ones)`;
}

function oracleText(gaps) {
  const rows = [["policy", "budget", "references", "policy faults", "oracle faults", "gap", "unavoidable", "reading"]];
  for (const g of gaps) {
    const t = g.total;
    const reading = t.onlineFaults === 0 ? "fits" : t.gap > t.onlineFaults / 10 ? "a better policy would help" : "the budget is too small";
    rows.push([g.policy, String(g.budgetTokens), String(t.references), String(t.onlineFaults), String(t.oracleFaults), String(t.gap), String(t.unavoidableFaults), reading]);
  }
  const lines = columns(rows, (c) => c >= 1 && c <= 6);
  return `context pruning against the look-ahead oracle (horizon ${gaps[0].horizon} messages; docs/oracle.md):\n${lines.join("\n")}`;
}

function replayCommand(argv) {
  const a = parseArgs(argv);
  const list = files(a.paths);
  if (list.length === 0) throw new UsageError(`no .json, .jsonl, .ndjson or .traj files under ${a.paths.join(", ")}`);
  const r = new Replayer(JSON.stringify(a.options), a.estimate);
  const reports = [];
  const problems = [];
  const base = process.cwd();
  list.forEach((path, i) => {
    const name = relative(base, path) || path;
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      problems.push({ at: name, message: `cannot be read: ${e.message}` });
      return;
    }
    const got = JSON.parse(r.addFile(text, name, a.json));
    reports.push(...got.reports);
    problems.push(...got.problems);
    if (a.progress && list.length > 1) bar(i + 1, list.length, name);
  });
  const summary = JSON.parse(r.summary());
  const points = Object.keys(a.grid).length ? JSON.parse(r.sweep(JSON.stringify(a.options), JSON.stringify(a.grid))) : undefined;
  const budgets = a.budgets.length ? a.budgets : [16000];
  const gaps = a.oracle.flatMap((policy) => budgets.map((b) => JSON.parse(r.oracle(policy, a.horizon, b))));
  r.free();
  if (a.json) {
    console.log(JSON.stringify({ reports, summary, problems, ...(points ? { sweep: points } : {}), ...(gaps.length ? { oracle: gaps } : {}) }, null, 2));
  } else {
    if (reports.length) console.log(`${table(reports, a.all)}\n`);
    console.log(summaryText(summary, list.length));
    if (points) console.log(`\n${sweepText(points)}`);
    if (gaps.length) console.log(`\n${oracleText(gaps)}`);
  }
  if (problems.length) {
    console.error(`reins: ${problems.length} record${problems.length === 1 ? "" : "s"} could not be read:`);
    for (const p of problems.slice(0, 20)) console.error(`  ${p.at}: ${p.message}`);
    if (problems.length > 20) console.error(`  … and ${problems.length - 20} more (--json lists them all)`);
    return 1;
  }
  return 0;
}

function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || rest.includes("-h") || rest.includes("--help")) {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== "replay") throw new UsageError(`unknown command ${command}`);
  return replayCommand(rest);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError) && !(e instanceof TypeError || e instanceof RangeError)) throw e;
  console.error(`reins: ${e.message}${e instanceof UsageError ? "\n\n" + USAGE : ""}`);
  process.exitCode = 2;
}
