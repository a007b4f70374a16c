//! Replays tau-bench's gpt-4o airline trajectories through reins with the
//! default config and prints, per detector, how many successful (reward 1) and
//! failed (reward 0) runs it fired on, and how many of each it would have
//! halted.
//!
//! ```text
//! cargo run --release --example replay_tau [path/to/gpt-4o-airline.json]
//! ```
//!
//! Without an argument it reads `../shared/data/tau-bench/gpt-4o-airline.json`
//! relative to the repository root; when the file is absent it says so and
//! exits 0. The data (MIT, sierra-research/tau-bench) is never copied here.
//! With `REINS_TAU_DRIFT=1` it also prints every turn drift fired on: the
//! user's message, the start of the answer, the cause and the words; with
//! `REINS_TAU_PUSHBACK=1`, every user message read as pushback.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use reins::detect::markers::analyze_after;
use reins::replay::{Trace, replay_all, summarize, tau_bench};
use reins::{Config, Event, Regulator, ToolLoopRule, Verdict};

fn main() -> ExitCode {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../shared/data/tau-bench/gpt-4o-airline.json")
        });
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("tau-bench data not found at {}: skipping", path.display());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };

    let t0 = Instant::now();
    let traces = match tau_bench(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let imported = t0.elapsed();

    let config = Config::default();
    let t1 = Instant::now();
    let reports = replay_all(&traces, &config);
    let replayed = t1.elapsed();
    let summary = summarize(&reports);

    println!("{}, default config:", path.display());
    println!("{summary}\n");

    // Where the halts happened: the first break of each halted trace.
    let halted: Vec<_> = reports
        .iter()
        .filter_map(|r| r.first_break.as_ref().map(|b| (r, b)))
        .collect();
    if !halted.is_empty() {
        println!("first breaks (trace, reward, event index / events, reason):");
        for (r, (at, kind)) in halted {
            let reward = match r.success {
                Some(true) => "1",
                Some(false) => "0",
                None => "?",
            };
            println!("  {:<8} {reward}  {:>3} / {:<3} {kind}", r.id, at, r.events);
        }
    }

    // The same traces under the reference tool-loop rule (the same tool name
    // N times in a row, whatever the arguments and results), for comparison.
    let reference = Config {
        tool_loop_rule: ToolLoopRule::ConsecutiveSameTool,
        ..Config::default()
    };
    println!("\nfor comparison, toolLoopRule: consecutiveSameTool (the reference rule):");
    println!("{}\n", summarize(&replay_all(&traces, &reference)));

    pushback(&traces, std::env::var_os("REINS_TAU_PUSHBACK").is_some());
    if std::env::var_os("REINS_TAU_DRIFT").is_some() {
        print_drift(&traces, &config);
    }
    println!(
        "import {:.1} ms, replay {:.1} ms ({} traces, {} events)",
        imported.as_secs_f64() * 1e3,
        replayed.as_secs_f64() * 1e3,
        reports.len(),
        summary.events
    );
    ExitCode::SUCCESS
}

/// Every turn drift fired on, for reading the warnings real traffic gets.
fn print_drift(traces: &[Trace], config: &Config) {
    let clip = |t: &str, n: usize| t.chars().take(n).collect::<String>().replace('\n', " ");
    for trace in traces {
        let Ok(mut regulator) = Regulator::new("replay", config.clone()) else {
            continue;
        };
        let mut message = String::new();
        for event in &trace.events {
            if regulator.on_event(event).is_err() {
                continue;
            }
            match event {
                Event::TurnStart { message: m, .. } => message = m.clone(),
                Event::TurnComplete { response, .. } => {
                    let d = regulator.decide();
                    for c in &d.concerns {
                        if let Verdict::ScopeDrift {
                            cause,
                            drift_tokens,
                            ..
                        } = c
                        {
                            println!(
                                "{} ({:?}) {cause:?} {drift_tokens:?}\n  user: {}\n  answer: {}",
                                trace.id,
                                trace.success,
                                clip(&message, 160),
                                clip(response, 240)
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// How many runs and user messages the pushback markers fire on (the
/// simulated customers of tau-bench push back on a wrong booking too, so
/// failed runs should carry more). Messages are read against the answer
/// they reply to, as the regulator reads them.
fn pushback(traces: &[Trace], print: bool) {
    let (mut runs, mut messages) = ([0usize; 2], [0usize; 2]);
    let (mut total, mut preferences) = ([0usize; 2], 0);
    for trace in traces {
        let Some(ok) = trace.success else { continue };
        let side = usize::from(!ok);
        let (mut previous, mut fired) = ("", false);
        for event in &trace.events {
            match event {
                Event::TurnStart { message, .. } => {
                    total[side] += 1;
                    let analysis = analyze_after(message, previous);
                    preferences += usize::from(!analysis.preferences.is_empty());
                    let hits = analysis.pushback;
                    if !hits.is_empty() {
                        messages[side] += 1;
                        fired = true;
                        if print {
                            let phrases: Vec<&str> = hits.iter().map(|h| h.phrase).collect();
                            println!(
                                "{} ({ok}) {phrases:?}: {}",
                                trace.id,
                                message.replace('\n', " ")
                            );
                        }
                    }
                }
                Event::TurnComplete { response, .. } => previous = response,
                _ => {}
            }
        }
        runs[side] += usize::from(fired);
    }
    println!(
        "pushback markers: {} of successful runs' {} user messages ({} runs), {} of failed runs' {} ({} runs)",
        messages[0], total[0], runs[0], messages[1], total[1], runs[1]
    );
    // One-off wishes ("I'd prefer the morning flight") are not standing rules.
    println!(
        "standing preferences: {preferences} of {} user messages\n",
        total[0] + total[1]
    );
}
