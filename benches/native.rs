//! Native micro-benchmarks: the cost of each event kind, `decide()`, the
//! realistic turn from DESIGN.md's budget table, and export + import of a
//! mature state. Plain `Instant` timing, median of several batches, so it
//! needs no extra crates. Run with `cargo bench`.
//!
//! The budgets in DESIGN.md are for calls through the JS API in wasm; the
//! native figures here are the floor those calls stand on.

use std::hint::black_box;
use std::time::Instant;

use reins::{Config, Event, EventRef, Regulator};

/// The workload, shared with the JS benchmark (benches/bench.mjs): a ~100 B
/// request, a ~2 KB typical answer (prose and a code block), and twenty
/// typical corrections (~30 characters each).
const TASK: &str = include_str!("workload/task.txt");
const RESPONSE: &str = include_str!("workload/response.txt");
const FIXES: &str = include_str!("workload/fixes.txt");

/// Median nanoseconds per call over `samples` batches of `iters` calls.
fn measure(iters: u32, mut f: impl FnMut()) -> f64 {
    let samples = 9;
    let mut per_call: Vec<f64> = (0..samples)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_nanos() as f64 / f64::from(iters)
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[samples / 2]
}

fn row(name: &str, ns: f64, note: &str) {
    let shown = if ns >= 1000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else {
        format!("{ns:.0} ns")
    };
    println!("| {name:<48} | {shown:>10} | {note} |");
}

fn fresh() -> Regulator {
    Regulator::new(
        "bench",
        Config {
            cost_cap_tokens: u64::MAX >> 12,
            ..Config::default()
        },
    )
    .unwrap()
}

fn mature() -> Regulator {
    let mut r = fresh();
    for t in 0..50 {
        r.turn_start(
            &format!("Refactor module{t} handler{t} please"),
            Some(1_732_000_000_000 + t * 60_000),
        )
        .unwrap();
        for (c, fix) in (0u64..).zip(FIXES.lines()) {
            r.apply(EventRef::UserCorrection {
                message: fix,
                corrects_last: false,
                at_ms: Some(1_732_000_000_000 + t * 60_000 + c * 1000),
            })
            .unwrap();
        }
    }
    assert_eq!(r.corrections().count(), 1000);
    r
}

fn main() {
    let logprobs: Vec<f64> = (0..100).map(|i| -0.05 - f64::from(i % 7) * 0.3).collect();
    println!("reins native benchmarks (release, median of 9 batches)\n");
    println!("| {:<48} | {:>10} | note |", "operation", "per call");
    println!("|{}|{}|------|", "-".repeat(50), "-".repeat(12));

    let mut r = fresh();
    r.turn_start(TASK, None).unwrap();
    row(
        "turnStart (100 B message)",
        measure(20_000, || r.turn_start(black_box(TASK), None).unwrap()),
        "",
    );
    row(
        "turnComplete (2 KB response)",
        measure(5_000, || {
            r.turn_complete(black_box(RESPONSE), None).unwrap()
        }),
        "tokenise, stem, drift",
    );
    row(
        "token (one logprob)",
        measure(200_000, || {
            r.apply(EventRef::Token {
                logprob: Some(-0.3),
                at_ms: None,
            })
            .unwrap()
        }),
        "",
    );
    row(
        "tokens (batch of 100 logprobs)",
        measure(50_000, || {
            r.apply(EventRef::Tokens {
                logprobs: black_box(&logprobs),
                unavailable: 0,
                at_ms: None,
            })
            .unwrap()
        }),
        "",
    );
    row(
        "cost",
        measure(200_000, || r.cost(25, 800, 900).unwrap()),
        "",
    );
    row(
        "qualityFeedback",
        measure(200_000, || r.quality_feedback(0.8).unwrap()),
        "",
    );
    let args = serde_json::json!({ "q": "late", "days": 7 });
    let mut t = fresh();
    t.turn_start(TASK, None).unwrap();
    let mut i = 0u32;
    row(
        "toolCall (args object)",
        measure(200_000, || {
            i += 1;
            let name = if i.is_multiple_of(2) {
                "search_orders"
            } else {
                "get_order"
            };
            t.tool_call(black_box(name), Some(&args)).unwrap()
        }),
        "",
    );
    row(
        "toolResult",
        measure(200_000, || {
            t.tool_result(black_box("search_orders"), true, 95).unwrap()
        }),
        "",
    );
    let ev = Event::from_json(r#"{"type":"cost","tokensIn":25,"tokensOut":800,"wallclockMs":900}"#)
        .unwrap();
    row(
        "on_event(&Event::Cost) (owned event)",
        measure(200_000, || r.on_event(black_box(&ev)).unwrap()),
        "",
    );

    let mut quiet = fresh();
    quiet.turn_start(TASK, None).unwrap();
    quiet
        .turn_complete(
            "Refactored fetch_user: it is now async; the database lookup is unchanged.",
            None,
        )
        .unwrap();
    assert!(quiet.decide().is_continue());
    row(
        "decide() → continue",
        measure(500_000, || drop(black_box(quiet.decide()))),
        "",
    );
    let mut drift = fresh();
    drift
        .turn_start("How do I center a div horizontally in CSS?", None)
        .unwrap();
    drift.turn_complete(RESPONSE, None).unwrap();
    assert!(!drift.decide().is_continue());
    row(
        "decide() → scopeDrift (off topic)",
        measure(100_000, || drop(black_box(drift.decide()))),
        "",
    );

    let mut turn = fresh();
    let mut at = 0u64;
    row(
        "realistic turn",
        measure(5_000, || {
            at += 1000;
            turn.turn_start(black_box(TASK), Some(at)).unwrap();
            turn.apply(EventRef::Tokens {
                logprobs: &logprobs,
                unavailable: 0,
                at_ms: None,
            })
            .unwrap();
            turn.turn_complete(black_box(RESPONSE), Some(at + 900))
                .unwrap();
            turn.cost(25, 800, 900).unwrap();
            black_box(turn.decide());
        }),
        "start 100 B + 100 logprobs + complete 2 KB + cost + decide",
    );

    let m = mature();
    let json = m.export();
    row(
        &format!("export, mature state ({} KB)", json.len() / 1024),
        measure(200, || drop(black_box(m.export()))),
        "50 topics × 20 corrections",
    );
    row(
        "import, mature state",
        measure(200, || drop(black_box(Regulator::import(&json).unwrap()))),
        "",
    );
    row(
        "export + import, mature state",
        measure(200, || {
            drop(black_box(Regulator::import(&m.export()).unwrap()))
        }),
        "DESIGN budget ≤ 100 µs (from JS)",
    );
    let other = {
        let mut o = Regulator::import(&json).unwrap().with_id_seed(9);
        o.turn_start("Refactor module3 handler3 please", None)
            .unwrap();
        o.user_correction("one more").unwrap();
        o.export()
    };
    let mut merged = Regulator::import(&json).unwrap();
    row(
        "merge, mature state (parse + union + trim)",
        measure(100, || merged.merge(black_box(&other)).unwrap()),
        "",
    );
}
