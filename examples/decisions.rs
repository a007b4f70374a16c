//! Replays every recorded run in `../shared/data` (tau-bench, tau2-bench,
//! mini-swe-agent, SWE-agent) through reins with the default config and
//! prints one line per run: its id, outcome, the number of events, how many
//! times each decision kind was returned after an event, and a digest of the
//! whole sequence of decisions (every concern, as JSON). Two builds agree on
//! every decision when their outputs are identical, so
//!
//! ```text
//! cargo run --release --example decisions > before.txt
//! # … change something …
//! cargo run --release --example decisions > after.txt && diff before.txt after.txt
//! ```
//!
//! shows exactly which runs a change touched. With `REINS_DECISIONS_VERBOSE=1`
//! it also prints every non-continue decision (event index and JSON); with
//! `REINS_DECISIONS_RUN=<id>` it prints that one run's events, each with the
//! decision after it.
//!
//! The mappings are deliberately plain (issue 24 builds the real importers):
//! chat transcripts go through `events_from_openai` (tau2's flat tool calls
//! are put in OpenAI's nested form first); a mini-swe-agent step is a `bash`
//! call with `{command}` and a result that failed when the return code was
//! not 0; a SWE-agent step is a call named by the action's first word with
//! the whole action as argument, and its observation as the result. Each
//! run's task (or first user message) is its turn start, and the model's
//! thought or response, when recorded, its turn complete. When the data is
//! absent it says so and exits 0; the data is never copied here.

use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use reins::replay::{events_from_openai, tau_bench};
use reins::{Config, Event, Regulator};

/// Reads one dataset folder into runs.
type Loader = fn(&Path) -> Result<Vec<Run>, String>;

/// One recorded run, as events.
struct Run {
    id: String,
    outcome: String,
    events: Vec<Event>,
}

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !root.is_dir() {
        println!("{} not found: skipping", root.display());
        return ExitCode::SUCCESS;
    }
    let verbose = std::env::var_os("REINS_DECISIONS_VERBOSE").is_some();
    let mut runs = Vec::new();
    let loaders: [(&str, Loader); 4] = [
        ("tau-bench", tau),
        ("tau2-bench", tau2),
        ("mini-swe-agent", mini_swe),
        ("swe-agent", swe_agent),
    ];
    for (dir, load) in loaders {
        match load(&root.join(dir)) {
            Ok(mut r) => runs.append(&mut r),
            Err(e) => {
                eprintln!("{dir}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let config = Config::default();
    if let Some(want) = std::env::var_os("REINS_DECISIONS_RUN") {
        let want = want.to_string_lossy().to_string();
        for run in runs.iter().filter(|r| r.id == want) {
            trace(run, &config);
        }
        return ExitCode::SUCCESS;
    }
    for run in &runs {
        println!("{}", digest(run, &config, verbose));
    }
    ExitCode::SUCCESS
}

/// `id outcome events=N rejected=N kind=count… digest=hex`.
fn digest(run: &Run, config: &Config, verbose: bool) -> String {
    let mut r = match Regulator::new("replay", config.clone()) {
        Ok(r) => r,
        Err(e) => return format!("{}: {e}", run.id),
    };
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut rejected = 0;
    for (i, e) in run.events.iter().enumerate() {
        if r.on_event(e).is_err() {
            rejected += 1;
            continue;
        }
        let d = r.decide();
        let text = serde_json::to_string(&d.concerns).unwrap_or_default();
        h.write_usize(i);
        h.write(text.as_bytes());
        if let Some(first) = d.concerns.first() {
            let v = serde_json::to_value(first).unwrap_or(Value::Null);
            let kind = v["kind"].as_str().unwrap_or("?").to_string();
            *kinds.entry(kind).or_default() += 1;
            if verbose {
                println!("  {} #{i}: {text}", run.id);
            }
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}={n}")).collect();
    format!(
        "{} {} events={} rejected={rejected} {} digest={:016x}",
        run.id,
        run.outcome,
        run.events.len(),
        kinds.join(" "),
        h.finish()
    )
}

/// Prints every event of one run, shortened, with the decision after it.
fn trace(run: &Run, config: &Config) {
    let Ok(mut r) = Regulator::new("replay", config.clone()) else {
        return;
    };
    println!("{} {}", run.id, run.outcome);
    for (i, e) in run.events.iter().enumerate() {
        let mut text = serde_json::to_string(e).unwrap_or_default();
        if let Some((cut, _)) = text.char_indices().nth(240) {
            text.truncate(cut);
        }
        let _ = r.on_event(e);
        let d = r.decide();
        let kinds: Vec<String> = d
            .concerns
            .iter()
            .map(|c| {
                let v = serde_json::to_value(c).unwrap_or(Value::Null);
                let pattern = v["pattern"].as_str().or(v["reason"]["pattern"].as_str());
                format!(
                    "{}{}",
                    v["kind"].as_str().unwrap_or("?"),
                    pattern.map(|p| format!("/{p}")).unwrap_or_default()
                )
            })
            .collect();
        println!(
            "#{i:3} {text}{}",
            if kinds.is_empty() {
                String::new()
            } else {
                format!("\n     => {}", kinds.join(" "))
            }
        );
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Files of `dir` ending in `ext`, sorted by name (none when `dir` is absent).
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(ext))
        .collect();
    out.sort();
    out
}

fn tau(dir: &Path) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for path in files(dir, ".json") {
        let traces = tau_bench(&read(&path)?).map_err(|e| e.to_string())?;
        runs.extend(traces.into_iter().map(|t| Run {
            id: format!("tau/{}", t.id),
            outcome: format!("{:?}", t.success),
            events: t.events,
        }));
    }
    Ok(runs)
}

/// tau2 messages carry `tool_calls: [{id, name, arguments}]` (arguments an
/// object); OpenAI's form nests name and arguments under `function`.
fn tau2(dir: &Path) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for path in files(dir, ".json") {
        let file: Value = serde_json::from_str(&read(&path)?).map_err(|e| e.to_string())?;
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        // A submission is `{simulations: [...]}` or, in newer ones, the bare list.
        let sims = file["simulations"]
            .as_array()
            .or(file.as_array())
            .cloned()
            .unwrap_or_default();
        for (k, sim) in sims.iter().enumerate() {
            let messages: Vec<Value> = sim["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|m| {
                    let mut m = m.clone();
                    if let Some(calls) = m["tool_calls"].as_array() {
                        let calls: Vec<Value> = calls
                            .iter()
                            .map(|c| {
                                json!({"id": c["id"], "type": "function", "function": {
                                    "name": c["name"],
                                    "arguments": c["arguments"].to_string(),
                                }})
                            })
                            .collect();
                        m["tool_calls"] = Value::Array(calls);
                    }
                    if m["role"] == "tool" && m.get("tool_call_id").is_none() {
                        m["tool_call_id"] = m["id"].clone();
                    }
                    m
                })
                .collect();
            let events = events_from_openai(&Value::Array(messages))
                .map_err(|e| format!("{name} #{k}: {e}"))?;
            runs.push(Run {
                id: format!("tau2/{name}/{k}"),
                outcome: format!("reward={}", sim["reward_info"]["reward"]),
                events,
            });
        }
    }
    Ok(runs)
}

fn ev(v: Value) -> Event {
    serde_json::from_value(v).unwrap_or_else(|e| panic!("event: {e}"))
}

fn mini_swe(dir: &Path) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for path in files(dir, ".jsonl") {
        for line in read(&path)?.lines().filter(|l| !l.trim().is_empty()) {
            let run: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
            let mut at = 0u64;
            let mut tick = || {
                at += 1000;
                at
            };
            let mut events = vec![ev(json!({
                "type": "turnStart", "message": run["task"].as_str().unwrap_or(""), "atMs": tick()
            }))];
            for step in run["steps"].as_array().into_iter().flatten() {
                let Some(command) = step["command"].as_str() else {
                    continue;
                };
                events.push(ev(json!({
                    "type": "toolCall", "name": "bash", "args": {"command": command}, "atMs": tick()
                })));
                events.push(ev(json!({
                    "type": "toolResult", "name": "bash",
                    "ok": step["returncode"].as_i64() == Some(0),
                    "durationMs": 0,
                    "result": step["output"].as_str().unwrap_or(""),
                    "atMs": tick()
                })));
            }
            runs.push(Run {
                id: format!("mini-swe/{}", run["instanceId"].as_str().unwrap_or("?")),
                outcome: format!("resolved={}", run["resolved"]),
                events,
            });
        }
    }
    Ok(runs)
}

fn swe_agent(dir: &Path) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for path in files(dir, ".traj") {
        let traj: Value = serde_json::from_str(&read(&path)?).map_err(|e| e.to_string())?;
        let task = traj["history"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap_or("");
        let mut at = 0u64;
        let mut tick = || {
            at += 1000;
            at
        };
        let mut events = vec![ev(
            json!({"type": "turnStart", "message": task, "atMs": tick()}),
        )];
        for step in traj["trajectory"].as_array().into_iter().flatten() {
            let action = step["action"].as_str().unwrap_or("").trim();
            let name = action.split_whitespace().next().unwrap_or("noop");
            if let Some(thought) = step["thought"].as_str().filter(|t| !t.trim().is_empty()) {
                events.push(ev(
                    json!({"type": "turnComplete", "response": thought, "atMs": tick()}),
                ));
            }
            events.push(ev(json!({
                "type": "toolCall", "name": name, "args": {"action": action}, "atMs": tick()
            })));
            events.push(ev(json!({
                "type": "toolResult", "name": name, "ok": true, "durationMs": 0,
                "result": step["observation"].as_str().unwrap_or(""), "atMs": tick()
            })));
        }
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        runs.push(Run {
            id: format!("swe-agent/{name}"),
            outcome: "demonstration".into(),
            events,
        });
    }
    Ok(runs)
}
