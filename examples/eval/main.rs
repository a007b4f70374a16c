//! The detector evaluation: runs the labelled cases in `eval/data/` through
//! reins and through the reference design's rules (re-implemented in
//! `baseline.rs`, clearly labelled), and prints per-category figures.
//!
//! `cargo run --release --example eval` (labelling guidelines: `eval/GUIDELINE-*.md`).
//! With `REINS_EVAL_VERBOSE=1` it prints each wrongly judged drift pair to
//! stderr; with `REINS_EVAL_TOKENS=1`, the words listed on each warned one.

mod baseline;
mod drift;
mod markers;
mod metrics;
mod sessions;
mod tools;

use std::path::Path;

use serde::de::DeserializeOwned;

fn load<T: DeserializeOwned>(name: &str) -> Option<Vec<T>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("eval/data")
        .join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    let rows = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1))
        })
        .collect();
    Some(rows)
}

/// A blind set's section; while tuning, `REINS_EVAL_NO_BLIND=1` keeps its
/// figures out of view.
fn blind_with<T: DeserializeOwned>(
    file: &str,
    name: &str,
    evaluate: impl Fn(&[T]) -> String,
) -> Option<String> {
    if std::env::var_os("REINS_EVAL_NO_BLIND").is_some() {
        return Some(format!(
            "\n({name} not shown: REINS_EVAL_NO_BLIND is set)\n"
        ));
    }
    load::<T>(file).map(|c| evaluate(&c))
}

/// A blind drift set's section.
fn blind(file: &str, name: &str) -> Option<String> {
    blind_with::<drift::Case>(file, name, |c| {
        drift::evaluate(&format!("Scope drift, {name}"), c)
    })
}

fn main() {
    println!("# reins detector evaluation");
    for (name, section) in [
        (
            "drift.jsonl",
            load::<drift::Case>("drift.jsonl").map(|c| drift::evaluate("Scope drift", &c)),
        ),
        (
            "drift-holdout.jsonl",
            load::<drift::Case>("drift-holdout.jsonl")
                .map(|c| drift::evaluate("Scope drift, held-out set", &c)),
        ),
        (
            "drift-extra.jsonl",
            load::<drift::Case>("drift-extra.jsonl")
                .map(|c| drift::evaluate("Scope drift, second development set", &c)),
        ),
        (
            "drift-extra2.jsonl",
            load::<drift::Case>("drift-extra2.jsonl")
                .map(|c| drift::evaluate("Scope drift, third development set", &c)),
        ),
        (
            "drift-extra3.jsonl",
            load::<drift::Case>("drift-extra3.jsonl")
                .map(|c| drift::evaluate("Scope drift, fourth development set", &c)),
        ),
        (
            "drift-extra4.jsonl",
            load::<drift::Case>("drift-extra4.jsonl")
                .map(|c| drift::evaluate("Scope drift, fifth development set", &c)),
        ),
        (
            "drift-extra5.jsonl",
            load::<drift::Case>("drift-extra5.jsonl")
                .map(|c| drift::evaluate("Scope drift, sixth development set", &c)),
        ),
        (
            "drift-extra6.jsonl",
            load::<drift::Case>("drift-extra6.jsonl")
                .map(|c| drift::evaluate("Scope drift, seventh development set", &c)),
        ),
        (
            "drift-extra7.jsonl",
            load::<drift::Case>("drift-extra7.jsonl")
                .map(|c| drift::evaluate("Scope drift, eighth development set", &c)),
        ),
        ("drift-blind.jsonl", blind("drift-blind.jsonl", "blind set")),
        (
            "drift-blind2.jsonl",
            blind("drift-blind2.jsonl", "second blind set"),
        ),
        (
            "drift-blind3.jsonl",
            blind("drift-blind3.jsonl", "third blind set"),
        ),
        (
            "tools.jsonl",
            load::<tools::Case>("tools.jsonl").map(|c| tools::evaluate(&c)),
        ),
        (
            "messages.jsonl",
            load::<markers::Case>("messages.jsonl")
                .map(|c| markers::evaluate("Frustration, correction and preference markers", &c)),
        ),
        (
            "messages-extra.jsonl",
            load::<markers::Case>("messages-extra.jsonl")
                .map(|c| markers::evaluate("Markers, second development set", &c)),
        ),
        (
            "messages-extra2.jsonl",
            load::<markers::Case>("messages-extra2.jsonl")
                .map(|c| markers::evaluate("Markers, third development set", &c)),
        ),
        (
            "messages-real.jsonl",
            load::<markers::Case>("messages-real.jsonl")
                .map(|c| markers::evaluate("Markers, real-style development set", &c)),
        ),
        (
            "messages-blind.jsonl",
            load::<markers::Case>("messages-blind.jsonl").map(|c| {
                markers::evaluate("Markers, first blind set (opened in the fifth round)", &c)
            }),
        ),
        (
            "messages-blind2.jsonl",
            blind_with::<markers::Case>("messages-blind2.jsonl", "second blind message set", |c| {
                markers::evaluate("Markers, second blind set", c)
            }),
        ),
        (
            "messages-real-blind.jsonl",
            load::<markers::Case>("messages-real-blind.jsonl").map(|c| {
                markers::evaluate(
                    "Markers, real-style blind set (opened in the fifth round)",
                    &c,
                )
            }),
        ),
        (
            "messages-real-blind2.jsonl",
            load::<markers::Case>("messages-real-blind2.jsonl").map(|c| {
                markers::evaluate(
                    "Markers, second real-style blind set (opened in the sixth round)",
                    &c,
                )
            }),
        ),
        (
            "messages-real-blind3.jsonl",
            blind_with::<markers::Case>(
                "messages-real-blind3.jsonl",
                "third real-style blind message set",
                |c| markers::evaluate("Markers, third real-style blind set", c),
            ),
        ),
        (
            "sessions.jsonl",
            load::<sessions::Case>("sessions.jsonl")
                .map(|c| sessions::evaluate("Whole sessions, development set", &c)),
        ),
        (
            "sessions-blind.jsonl",
            load::<sessions::Case>("sessions-blind.jsonl").map(|c| {
                sessions::evaluate(
                    "Whole sessions, first blind set (opened in issue 20's third round)",
                    &c,
                )
            }),
        ),
        (
            "sessions-blind2.jsonl",
            load::<sessions::Case>("sessions-blind2.jsonl").map(|c| {
                sessions::evaluate(
                    "Whole sessions, second blind set (opened in issue 20's fourth round)",
                    &c,
                )
            }),
        ),
        (
            "sessions-blind3.jsonl",
            load::<sessions::Case>("sessions-blind3.jsonl").map(|c| {
                sessions::evaluate(
                    "Whole sessions, third blind set (opened in issue 20's fifth round)",
                    &c,
                )
            }),
        ),
        (
            "sessions-blind4.jsonl",
            blind_with::<sessions::Case>(
                "sessions-blind4.jsonl",
                "fourth blind session set",
                |c| sessions::evaluate("Whole sessions, fourth blind set", c),
            ),
        ),
    ] {
        match section {
            Some(text) => print!("{text}"),
            None => println!("\n(eval/data/{name} not found: section skipped)"),
        }
    }
}
