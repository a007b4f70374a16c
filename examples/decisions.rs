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
//! The runs are read by `realruns/load.rs` (the mappings are described
//! there). When the data is absent it says so and exits 0; the data is never
//! copied here.

// The digest reads ids, outcomes and events; the per-data-set fields are
// for `realruns`.
#[allow(dead_code)]
#[path = "realruns/load.rs"]
mod load;

use std::hash::Hasher;
use std::process::ExitCode;

use serde_json::Value;

use load::Run;
use reins::{Config, Regulator};

fn main() -> ExitCode {
    let Some(root) = load::root() else {
        println!("../shared/data not found: skipping");
        return ExitCode::SUCCESS;
    };
    let verbose = std::env::var_os("REINS_DECISIONS_VERBOSE").is_some();
    let runs = match load::all(&root) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
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
    // What was filed as a correction, and under which topic.
    for c in r.corrections() {
        let text: String = c.text.chars().take(160).collect();
        println!("  correction [{}] {text}", c.topic);
    }
}
