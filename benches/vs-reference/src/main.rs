//! reins and the reference design (noos 0.4.1) on the same realistic turn:
//! turn start, 100 log-probabilities, turn complete, cost, decide, on one
//! live regulator, turn after turn. Two texts: reins' workload
//! (`benches/workload/task.txt`, `response.txt`: a 92 B request, a 1.6 KB
//! answer with code) and the reference benchmark's own
//! (`reference-task.txt`, `reference-response.txt`).
//!
//!   reins-vs-reference time [rounds]         interleaved timing, µs per turn
//!   reins-vs-reference count <reins|reins-nodrift|noos> <ours|reference> <turns>
//!                                            <turns> turns, for callgrind
//!
//! `reins-nodrift` is reins with `scope_drift: false`, for apps that do not
//! want answers judged for drift.

use std::hint::black_box;
use std::time::Instant;

use noos::{LLMEvent, Regulator as Noos};
use reins::{Config, EventRef, Regulator as Reins};

const TEXTS: [(&str, &str, &str); 2] = [
    (
        "ours",
        include_str!("../../workload/task.txt"),
        include_str!("../../workload/response.txt"),
    ),
    (
        "reference",
        include_str!("../../workload/reference-task.txt"),
        include_str!("../../workload/reference-response.txt"),
    ),
];

/// The log-probabilities every turn streams (the reference's benchmark uses -1.2).
fn logprobs() -> Vec<f64> {
    (0..100).map(|i| -0.05 - f64::from(i % 7) * 0.3).collect()
}

struct ReinsTurns {
    r: Reins,
    at: u64,
    lp: Vec<f64>,
}

impl ReinsTurns {
    fn new(scope_drift: bool) -> Self {
        let config = Config {
            cost_cap_tokens: u64::MAX >> 12,
            scope_drift,
            ..Config::default()
        };
        Self {
            r: Reins::new("bench", config).expect("config"),
            at: 0,
            lp: logprobs(),
        }
    }
    fn turn(&mut self, task: &str, response: &str) {
        self.at += 1000;
        let r = &mut self.r;
        r.turn_start(black_box(task), Some(self.at))
            .expect("turn start");
        r.apply(EventRef::Tokens {
            logprobs: &self.lp,
            unavailable: 0,
            at_ms: None,
        })
        .expect("tokens");
        r.turn_complete(black_box(response), Some(self.at + 900))
            .expect("turn complete");
        r.cost(25, 100, 500).expect("cost");
        black_box(r.decide());
    }
}

struct NoosTurns {
    r: Noos,
    lp: Vec<f64>,
}

impl NoosTurns {
    fn new() -> Self {
        Self {
            r: Noos::for_user("bench").with_cost_cap(u32::MAX),
            lp: logprobs(),
        }
    }
    fn turn(&mut self, task: &str, response: &str) {
        let r = &mut self.r;
        r.on_event(LLMEvent::TurnStart {
            user_message: black_box(task).into(),
        });
        for (index, &logprob) in self.lp.iter().enumerate() {
            r.on_event(LLMEvent::Token {
                token: "word".into(),
                logprob,
                index,
            });
        }
        r.on_event(LLMEvent::TurnComplete {
            full_response: black_box(response).into(),
        });
        r.on_event(LLMEvent::Cost {
            tokens_in: 25,
            tokens_out: 100,
            wallclock_ms: 500,
            provider: None,
        });
        let _ = black_box(r.decide());
    }
}

/// Median µs per turn of `batches` batches of `turns` turns.
fn time(batches: usize, turns: usize, mut f: impl FnMut()) -> f64 {
    let mut per: Vec<f64> = (0..batches)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..turns {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / turns as f64
        })
        .collect();
    per.sort_by(f64::total_cmp);
    per[batches / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("time") => {
            let rounds: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(7);
            for (name, task, response) in TEXTS {
                let (mut ours, mut quiet, mut theirs) = (
                    ReinsTurns::new(true),
                    ReinsTurns::new(false),
                    NoosTurns::new(),
                );
                // Warm all, then alternate rounds so machine load hits all alike.
                time(3, 200, || ours.turn(task, response));
                time(3, 200, || quiet.turn(task, response));
                time(3, 200, || theirs.turn(task, response));
                let (mut a, mut q, mut b) = (Vec::new(), Vec::new(), Vec::new());
                for _ in 0..rounds {
                    a.push(time(5, 400, || ours.turn(task, response)));
                    q.push(time(5, 400, || quiet.turn(task, response)));
                    b.push(time(5, 400, || theirs.turn(task, response)));
                }
                let median = |v: &mut Vec<f64>| {
                    v.sort_by(f64::total_cmp);
                    v[rounds / 2]
                };
                let (a, q, b) = (median(&mut a), median(&mut q), median(&mut b));
                println!(
                    "{name} reins {a:.2} noos {b:.2} ratio {:.2} nodrift {q:.2}",
                    a / b
                );
            }
        }
        Some("count") => {
            let who = args.get(1).map(String::as_str);
            let text = TEXTS
                .iter()
                .find(|t| Some(t.0) == args.get(2).map(String::as_str))
                .expect("ours or reference");
            let n: usize = args.get(3).and_then(|n| n.parse().ok()).expect("turns");
            match who {
                Some(who @ ("reins" | "reins-nodrift")) => {
                    let mut r = ReinsTurns::new(who == "reins");
                    (0..n).for_each(|_| r.turn(text.1, text.2));
                }
                Some("noos") => {
                    let mut r = NoosTurns::new();
                    (0..n).for_each(|_| r.turn(text.1, text.2));
                }
                _ => panic!("reins, reins-nodrift or noos"),
            }
        }
        _ => eprintln!(
            "usage: reins-vs-reference time [rounds] | count <reins|reins-nodrift|noos> <ours|reference> <turns>"
        ),
    }
}
