//! Reads the recorded runs in `../shared/data` into reins events, one
//! plain mapping per data set (issue 24 builds the real importers): chat
//! transcripts go through `events_from_openai` (tau2's flat tool calls are
//! put in OpenAI's nested form first); a mini-swe-agent step is a `bash`
//! call with `{command}` and a result that failed when the return code was
//! not 0; a SWE-agent step is a call named by the action's first word with
//! the whole action as argument, and its observation as the result. Each
//! run's task (or first user message) is its turn start, and the model's
//! thought or response, when recorded, its turn complete. Shared by the
//! `decisions` and `realruns` examples; the data is never copied here.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use reins::Event;
use reins::replay::{events_from_openai, tau_bench};

/// One recorded run, as events.
pub struct Run {
    pub id: String,
    /// The data set (a tau2 submission is its own).
    pub dataset: String,
    pub outcome: String,
    /// Whether the run succeeded (reward 1, resolved); demonstrations do.
    pub success: bool,
    pub events: Vec<Event>,
}

/// Reads one dataset folder into runs.
type Loader = fn(&Path) -> Result<Vec<Run>, String>;

/// The data folder beside the project, when it is there.
pub fn root() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    root.is_dir().then_some(root)
}

/// Every run of every data set, in a fixed order.
pub fn all(root: &Path) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    let loaders: [(&str, Loader); 4] = [
        ("tau-bench", tau),
        ("tau2-bench", tau2),
        ("mini-swe-agent", mini_swe),
        ("swe-agent", swe_agent),
    ];
    for (dir, load) in loaders {
        runs.append(&mut load(&root.join(dir)).map_err(|e| format!("{dir}: {e}"))?);
    }
    Ok(runs)
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
            dataset: "tau-bench".into(),
            outcome: format!("{:?}", t.success),
            success: t.success == Some(true),
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
            let reward = &sim["reward_info"]["reward"];
            runs.push(Run {
                id: format!("tau2/{name}/{k}"),
                dataset: format!("tau2/{name}"),
                outcome: format!("reward={reward}"),
                success: reward.as_f64() == Some(1.0),
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
                dataset: "mini-swe-agent".into(),
                outcome: format!("resolved={}", run["resolved"]),
                success: run["resolved"] == true,
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
            dataset: "swe-agent".into(),
            outcome: "demonstration".into(),
            success: true,
            events,
        });
    }
    Ok(runs)
}
