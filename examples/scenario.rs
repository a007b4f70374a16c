//! The main job until the demo page exists: runs the reference design's four
//! demo scenarios through reins and prints each event and the decision it
//! produced. `cargo run --example scenario`.

use reins::{Config, Decision, Event, Regulator, Verdict};
use serde_json::json;

fn show(d: &Decision) -> String {
    let extra = match &d.verdict {
        Verdict::Continue => String::new(),
        Verdict::CircuitBreak { reason, suggestion } => {
            format!(
                " {} — {suggestion}",
                serde_json::to_string(reason).unwrap_or_default()
            )
        }
        Verdict::ScopeDrift {
            drift_score,
            drift_tokens,
            ..
        } => {
            format!(
                " score {drift_score:.2}, added: {}",
                drift_tokens.join(", ")
            )
        }
        Verdict::Procedural { patterns } => patterns
            .iter()
            .map(|p| {
                format!(
                    " topic {} ({} corrections): {:?}",
                    p.topic, p.count, p.examples
                )
            })
            .collect(),
    };
    let others: Vec<String> = d
        .concerns
        .iter()
        .skip(1)
        .map(|c| format!("{:?}", c.kind()))
        .collect();
    let also = if others.is_empty() {
        String::new()
    } else {
        format!("  [also: {}]", others.join(", "))
    };
    format!("{:?}{extra}{also}", d.kind())
}

fn run(title: &str, r: &mut Regulator, events: &[Event]) {
    println!("\n== {title}");
    for e in events {
        r.on_event(e).expect("scenario events are valid");
        let line = serde_json::to_string(e).unwrap_or_default();
        let line = if line.len() > 90 {
            format!("{}…", &line[..line.floor_char_boundary(89)])
        } else {
            line
        };
        println!("  {line:<92} → {}", show(&r.decide()));
    }
}

fn start(m: &str, at: u64) -> Event {
    Event::TurnStart {
        message: m.into(),
        at_ms: Some(at),
    }
}
fn complete(m: &str, at: u64) -> Event {
    Event::TurnComplete {
        response: m.into(),
        at_ms: Some(at),
    }
}
fn cost(out: u64) -> Event {
    Event::Cost {
        tokens_in: 25,
        tokens_out: out,
        wallclock_ms: 900,
        provider: None,
        usd: None,
        at_ms: None,
    }
}
fn correction(m: &str) -> Event {
    Event::UserCorrection {
        message: m.into(),
        corrects_last: true,
        at_ms: None,
    }
}

fn main() -> Result<(), reins::Error> {
    let mut r = Regulator::new("demo", Config::default())?;
    let mut evs = vec![start("Find my late orders", 1_000)];
    for days in [7, 14, 30, 60, 90] {
        evs.push(Event::ToolCall {
            name: "search_orders".into(),
            args: Some(json!({ "days": days })),
            call_id: None,
            at_ms: None,
        });
        evs.push(Event::ToolResult {
            name: "search_orders".into(),
            ok: true,
            duration_ms: 95,
            error: None,
            result: Some("[]".into()),
            call_id: None,
            at_ms: None,
        });
    }
    run("tool loop: the same tool five times in a row", &mut r, &evs);

    let mut r = Regulator::new("demo", Config::default())?;
    let mut evs = Vec::new();
    let turns = [
        (
            "Make my auth module async",
            "The auth module is async now, with debug logging added.",
            "Don't add logging.",
        ),
        (
            "Refactor auth to support async",
            "Auth supports async; I added tracing spans too.",
            "No tracing, please.",
        ),
        (
            "Change my auth function to async",
            "Done: the auth function is async and logs each call.",
            "Stop adding logs.",
        ),
    ];
    for (i, (ask, answer, fix)) in (0u64..).zip(turns) {
        evs.extend([
            start(ask, i * 10_000),
            complete(answer, i * 10_000 + 900),
            cost(120),
            correction(fix),
        ]);
    }
    run(
        "correction memory: three corrections on one topic",
        &mut r,
        &evs,
    );
    let mut restored = Regulator::import(&r.export())?;
    run(
        "… after export/import, before generating",
        &mut restored,
        &[start("Add async handling to my auth", 99_000)],
    );
    println!(
        "\n  injectCorrections:\n    {}",
        restored
            .inject_corrections("Add async handling to my auth")
            .replace('\n', "\n    ")
    );

    let mut r = Regulator::new(
        "demo",
        Config {
            cost_cap_tokens: 1000,
            ..Config::default()
        },
    )?;
    let mut evs = Vec::new();
    for (i, q) in (0u64..).zip([0.5, 0.35, 0.2]) {
        evs.extend([
            start("Summarise the quarterly sales report", i * 10_000),
            complete("Sales grew in every region this quarter.", i * 10_000 + 900),
            cost(400),
            Event::QualityFeedback {
                quality: q,
                at_ms: None,
            },
        ]);
    }
    run("budget: over the cap while quality declines", &mut r, &evs);

    let mut r = Regulator::new("demo", Config::default())?;
    run(
        "scope drift: an over-helpful refactor",
        &mut r,
        &[
            start(
                "Refactor fetch_user to be async. Keep the database lookup logic unchanged.",
                0,
            ),
            complete(
                "I refactored fetch_user to be async. I also added a call counter, duration metrics, doc comments \
                 and structured logging around the db call, plus retry logic with exponential backoff.",
                900,
            ),
        ],
    );
    Ok(())
}
