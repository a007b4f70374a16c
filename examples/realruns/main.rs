//! What reins does on real recorded agent runs (`../shared/data`): for each
//! data set, how many successful and failed runs it halted or nudged, and
//! how many loops an independent rule finds (`oracle.rs`: the same call and
//! output three times within six calls; the same state-changing call
//! succeeding twice) that reins halted, only nudged, or missed.
//!
//! `cargo run --release --example realruns`; with `REINS_REALRUNS_LIST=1` it
//! also lists every run it intervened on (its first halt, else its first
//! nudge) and every missed loop,
//! to read by eye (`REINS_DECISIONS_RUN=<id> cargo run --release --example
//! decisions` prints one run's events). Without the data it says so and
//! exits 0.

mod load;
mod oracle;

use std::collections::BTreeMap;
use std::process::ExitCode;

use reins::{BreakReason, Config, Regulator, Verdict};

/// What reins did on one run.
#[derive(Default)]
struct Seen {
    /// Event indices of halts and nudges, with the tool and pattern.
    halts: Vec<(usize, String)>,
    nudges: Vec<(usize, String)>,
}

fn run_reins(run: &load::Run, config: &Config) -> Seen {
    let mut seen = Seen::default();
    let Ok(mut r) = Regulator::new("replay", config.clone()) else {
        return seen;
    };
    for (i, e) in run.events.iter().enumerate() {
        if r.on_event(e).is_err() {
            continue;
        }
        for v in r.decide().concerns {
            match v {
                Verdict::CircuitBreak { reason, .. } => {
                    let what = match reason {
                        BreakReason::ToolLoop {
                            tool_name, pattern, ..
                        } => format!("{tool_name} {pattern:?}"),
                        other => format!("{other:?}"),
                    };
                    seen.halts.push((i, what));
                }
                Verdict::ToolNudge {
                    tool_name, pattern, ..
                } => seen.nudges.push((i, format!("{tool_name} {pattern:?}"))),
                _ => {}
            }
        }
    }
    seen
}

/// Counts per data set.
#[derive(Default)]
struct Row {
    ok: usize,
    ok_halted: usize,
    ok_nudged: usize,
    bad: usize,
    bad_halted: usize,
    bad_nudged: usize,
    /// Successful runs halted where the independent rule found no loop.
    ok_halted_no_loop: usize,
    loops: usize,
    loops_halted: usize,
    loops_nudged: usize,
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        return "–".into();
    }
    format!("{n} ({:.1} %)", 100.0 * n as f64 / of as f64)
}

fn main() -> ExitCode {
    let Some(root) = load::root() else {
        println!("../shared/data not found: skipping");
        return ExitCode::SUCCESS;
    };
    let runs = match load::all(&root) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let list = std::env::var_os("REINS_REALRUNS_LIST").is_some();
    let config = Config::default();
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut listing = Vec::new();
    for run in &runs {
        let seen = run_reins(run, &config);
        let loops = oracle::loops(&run.events);
        let row = rows.entry(run.dataset.clone()).or_default();
        let (halted, nudged) = (!seen.halts.is_empty(), !seen.nudges.is_empty());
        if run.success {
            row.ok += 1;
            row.ok_halted += usize::from(halted);
            row.ok_nudged += usize::from(nudged);
            row.ok_halted_no_loop += usize::from(halted && loops.is_empty());
        } else {
            row.bad += 1;
            row.bad_halted += usize::from(halted);
            row.bad_nudged += usize::from(nudged);
        }
        if list && (halted || nudged) {
            let (i, what) = seen
                .halts
                .first()
                .or(seen.nudges.first())
                .cloned()
                .unwrap_or_default();
            let kind = if halted { "halt" } else { "nudge" };
            let real = if loops.is_empty() {
                ""
            } else {
                "; the independent rule finds a loop"
            };
            listing.push(format!(
                "intervention: {} ({}) #{i} {kind} {what}{real}",
                run.id, run.outcome
            ));
        }
        for l in &loops {
            row.loops += 1;
            let near = |h: &(usize, String)| h.0 >= l.from && h.0 <= l.at + 6;
            if seen.halts.iter().any(near) {
                row.loops_halted += 1;
            } else if seen.nudges.iter().any(near) {
                row.loops_nudged += 1;
            } else if list {
                listing.push(format!(
                    "missed loop: {} ({}) #{}..#{} {} ({})",
                    run.id, run.outcome, l.from, l.at, l.tool, l.rule
                ));
            }
        }
    }
    println!("# reins on real recorded runs\n");
    println!(
        "Halted / nudged: runs with at least one circuit break / tool nudge after any event (decide() after every event)."
    );
    println!(
        "Loops: found by the independent rule (same call and output 3× within 6 calls; a state-changing call succeeding twice with the same arguments).\n"
    );
    println!(
        "| data set | successful runs | halted | nudged | halted, no loop by the rule | failed runs | halted | nudged | loops | reins halted | only nudged | missed |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, r) in &rows {
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.ok,
            pct(r.ok_halted, r.ok),
            pct(r.ok_nudged, r.ok),
            pct(r.ok_halted_no_loop, r.ok),
            r.bad,
            pct(r.bad_halted, r.bad),
            pct(r.bad_nudged, r.bad),
            r.loops,
            r.loops_halted,
            r.loops_nudged,
            r.loops - r.loops_halted - r.loops_nudged,
        );
    }
    if list {
        println!();
        for l in listing {
            println!("{l}");
        }
    }
    ExitCode::SUCCESS
}
