//! Runs the replay oracle over the real runs in `../shared/data` and prints,
//! per data set, the look-ahead reference counts and the fault gap of a few
//! keep-policies against the oracle at a few budgets.
//!
//! ```text
//! cargo run --release --example oracle
//! ```
//!
//! Data sets (each skipped with a message when absent; never copied here):
//! * `tau-bench/gpt-4o-airline.json`: `traj` is an OpenAI chat array;
//! * `swe-agent/*.traj`: `history` is OpenAI-like, except that `tool_calls`
//!   and `tool_call_ids` are Python reprs (`"[{'id': 'call_…', …}]"`); the
//!   call ids are lifted out and the call's `action` stands for its arguments;
//! * `mini-swe-agent/*.jsonl`: `task`, then per step the bash `command` (an
//!   assistant message) and its `output` (a user message).

use std::path::{Path, PathBuf};
use std::time::Instant;

use reins::replay::oracle::{Gap, oracle_demand, oracle_gap, parse_policy};
use serde_json::{Value, json};

const HORIZONS: [usize; 3] = [0, 3, 10];
const GAP_HORIZON: usize = 3;
const POLICIES: [&str; 3] = ["recent:8", "recent:20", "incremental"];
const BUDGETS: [u64; 4] = [1_000, 4_000, 16_000, 64_000];

fn main() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !data.is_dir() {
        println!("no data at {}: skipping", data.display());
        return;
    }
    let sets = [
        ("tau-bench gpt-4o airline", tau_bench(&data)),
        ("SWE-agent demonstrations", swe_agent(&data)),
        ("mini-swe-agent gemini-3-pro", mini_swe_agent(&data)),
    ];
    for (name, runs) in sets {
        match runs {
            Some(runs) if !runs.is_empty() => report(name, &runs),
            _ => println!("## {name}\n\nnot found: skipping\n"),
        }
    }
}

fn report(name: &str, runs: &[Value]) {
    let started = Instant::now();
    let messages: usize = runs.iter().map(|r| r.as_array().map_or(0, Vec::len)).sum();
    println!("## {name}: {} runs, {messages} messages\n", runs.len());
    let counts: Vec<String> = HORIZONS
        .iter()
        .map(|&h| {
            let total: usize = runs
                .iter()
                .map(|r| oracle_demand(r, h).expect("demand").reference_count)
                .sum();
            format!("h={h}: {total}")
        })
        .collect();
    println!("references: {}\n", counts.join(", "));
    println!("| policy | budget | online | oracle (h={GAP_HORIZON}) | gap | unavoidable |");
    println!("|---|---:|---:|---:|---:|---:|");
    for policy in POLICIES {
        for budget in BUDGETS {
            let mut total = Gap {
                online_faults: 0,
                oracle_faults: 0,
                gap: 0,
                unavoidable_faults: 0,
                per_turn: Vec::new(),
                budget_tokens: budget,
                horizon: GAP_HORIZON,
            };
            for run in runs {
                let mut p = parse_policy(policy).expect("policy");
                let g = oracle_gap(run, &mut p, GAP_HORIZON, budget).expect("gap");
                total.online_faults += g.online_faults;
                total.oracle_faults += g.oracle_faults;
                total.gap += g.gap;
                total.unavoidable_faults += g.unavoidable_faults;
            }
            println!(
                "| {policy} | {}k | {} | {} | {} | {} |",
                budget / 1000,
                total.online_faults,
                total.oracle_faults,
                total.gap,
                total.unavoidable_faults
            );
        }
    }
    println!("\n({:.0} ms)\n", started.elapsed().as_secs_f64() * 1000.0);
}

fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

fn tau_bench(data: &Path) -> Option<Vec<Value>> {
    let all = read_json(&data.join("tau-bench/gpt-4o-airline.json"))?;
    Some(
        all.as_array()?
            .iter()
            .filter_map(|r| r.get("traj").cloned())
            .collect(),
    )
}

fn swe_agent(data: &Path) -> Option<Vec<Value>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("swe-agent"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "traj"))
        .collect();
    files.sort();
    Some(
        files
            .iter()
            .filter_map(|f| read_json(f))
            .filter_map(|t| t.get("history")?.as_array().map(|h| from_history(h)))
            .collect(),
    )
}

/// SWE-agent `history` → OpenAI messages.
fn from_history(history: &[Value]) -> Value {
    let messages = history
        .iter()
        .map(|m| {
            let role = m.get("role").cloned().unwrap_or(json!("user"));
            let mut out =
                json!({"role": role, "content": m.get("content").cloned().unwrap_or(Value::Null)});
            if let Some(calls) = m.get("tool_calls").and_then(Value::as_str) {
                let action = m.get("action").and_then(Value::as_str).unwrap_or("");
                let calls: Vec<Value> = repr_ids(calls, "'id': '")
                    .into_iter()
                    .map(
                        |id| json!({"id": id, "function": {"name": "action", "arguments": action}}),
                    )
                    .collect();
                out["tool_calls"] = Value::Array(calls);
            }
            if let Some(ids) = m.get("tool_call_ids").and_then(Value::as_str)
                && let Some(id) = repr_ids(ids, "'").into_iter().next()
            {
                out["tool_call_id"] = json!(id);
            }
            out
        })
        .collect();
    Value::Array(messages)
}

/// The quoted strings after each `marker` in a Python repr.
fn repr_ids(repr: &str, marker: &str) -> Vec<String> {
    repr.split(marker)
        .skip(1)
        .filter_map(|rest| rest.split('\'').next())
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect()
}

fn mini_swe_agent(data: &Path) -> Option<Vec<Value>> {
    let text =
        std::fs::read_to_string(data.join("mini-swe-agent/gemini-3-pro-swebench-verified.jsonl"))
            .ok()?;
    Some(
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|run| {
                let mut m = vec![json!({"role": "user", "content": run["task"]})];
                for step in run["steps"].as_array().into_iter().flatten() {
                    m.push(json!({"role": "assistant", "content": step.get("command")}));
                    m.push(json!({"role": "user", "content": step.get("output")}));
                }
                Value::Array(m)
            })
            .collect(),
    )
}
