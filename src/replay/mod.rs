//! Replay recorded agent transcripts through a regulator, to see what reins
//! would have said, turn by turn, and how that lines up with whether the run
//! succeeded.
//!
//! * [`events_from_openai`] turns an OpenAI chat transcript into events (the
//!   exact mapping, synthetic time and the failed-result rule are in
//!   [`openai`]);
//! * [`tau_bench`] reads a tau-bench result file into [`Trace`]s;
//! * [`replay`] runs one trace through a fresh [`Regulator`] and reports what
//!   fired ([`TraceReport`]);
//! * [`summarize`] tallies many reports by outcome ([`Summary`], printable as
//!   a table).
//!
//! Everything here is pure: no clock, no I/O, and the same trace and config
//! always give the same report.

pub mod ai_sdk;
pub mod estimate;
pub mod format;
pub mod import;
pub mod many;
pub mod openai;
pub mod oracle;
pub mod otlp;
pub mod report;
pub mod swe;
pub mod tau;
pub mod tau2;
pub mod time;

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::config::Config;
use crate::decision::{BreakReason, Verdict};
use crate::event::Event;

pub use openai::{MS_PER_MESSAGE, events_from_openai, looks_like_error};
pub use tau::tau_bench;

/// The user id every replay regulator runs as (each trace gets a fresh one,
/// so no memory carries from one trace to the next).
pub const REPLAY_USER: &str = "replay";

/// The concern keys a [`TraceReport`] can count, in table order. A circuit
/// break is counted under `circuitBreak:` plus its reason kind.
pub const CONCERN_KEYS: [&str; 5] = [
    "circuitBreak:costCap",
    "circuitBreak:qualityDecline",
    "circuitBreak:toolLoop",
    "scopeDrift",
    "procedural",
];

/// One recorded run: its events and, when known, whether it succeeded.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Trace {
    pub id: String,
    pub success: Option<bool>,
    pub events: Vec<Event>,
    /// Where it came from: `tau-bench`, `tau2-bench`, `mini-swe-agent`,
    /// `swe-agent`, `otlp`, `ai-sdk`, `openai`, `reins` (the trace format).
    pub source: Option<String>,
    /// The recorded reward, when the source gives one.
    pub reward: Option<f64>,
    /// Some `Cost` events were estimated from text (the record had no usage).
    pub estimated_tokens: bool,
    /// Per event, the id of the message it came from, when known: empty, or
    /// as long as `events`.
    pub message_ids: Vec<Option<String>>,
}

/// What the regulator said over one trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraceReport {
    pub id: String,
    pub success: Option<bool>,
    /// Events in the trace.
    pub events: usize,
    /// Events the regulator rejected (skipped; its state was left unchanged).
    pub rejected: usize,
    /// Accepted `TurnStart` events.
    pub turns: usize,
    /// The index (into `Trace::events`) of the event after which `decide()`
    /// first returned a circuit break, and the break's reason kind
    /// (`"toolLoop"`, `"costCap"`, `"qualityDecline"`).
    pub first_break: Option<(usize, String)>,
    /// Per concern key (see [`CONCERN_KEYS`]), the number of distinct turns in
    /// which that concern was among `decide()`'s concerns at least once.
    /// Events before the first `TurnStart` count as one more turn. Keys that
    /// never fired are absent.
    pub fired: BTreeMap<String, usize>,
}

impl TraceReport {
    /// Whether any circuit break fired.
    pub fn halted(&self) -> bool {
        self.first_break.is_some()
    }
}

/// The key a concern is counted under: its `kind` as in JSON
/// (`"scopeDrift"`), and for a circuit break `circuitBreak:` plus the
/// reason's kind (`"circuitBreak:toolLoop"`); `None` for `Continue`. Read
/// from the serialised form so every verdict kind is covered.
pub fn concern_key(verdict: &Verdict) -> Option<String> {
    let value = serde_json::to_value(verdict).ok()?;
    match value.get("kind").and_then(Value::as_str)? {
        "continue" => None,
        "circuitBreak" => Some(format!(
            "circuitBreak:{}",
            value
                .get("reason")
                .and_then(|r| r.get("kind"))
                .and_then(Value::as_str)
                .unwrap_or("unknown")
        )),
        kind => Some(kind.to_string()),
    }
}

/// A break reason's `kind` exactly as it appears in JSON (`"toolLoop"`).
pub fn reason_kind(reason: &BreakReason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.get("kind").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// Feeds every event of `trace` to a fresh regulator with `config`, calling
/// `decide()` after each accepted event. Rejected events are skipped and
/// counted (the regulator is unchanged by them, so its decision would be the
/// one already seen). An invalid `config` rejects every event.
pub fn replay(trace: &Trace, config: &Config) -> TraceReport {
    let r = report::replay_report(trace, config);
    TraceReport {
        id: r.id,
        success: trace.success,
        events: r.events,
        rejected: r.refused_count,
        turns: r.turns as usize,
        first_break: r.first_break.map(|b| (b.event, b.reason)),
        fired: r
            .concerns
            .into_iter()
            .map(|(k, n)| (k, n as usize))
            .collect(),
    }
}

/// [`replay`] over many traces, in order.
pub fn replay_all(traces: &[Trace], config: &Config) -> Vec<TraceReport> {
    traces.iter().map(|t| replay(t, config)).collect()
}

/// Traces counted by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Outcomes {
    pub successes: usize,
    pub failures: usize,
    /// Traces with no recorded outcome.
    pub unknown: usize,
}

impl Outcomes {
    fn add(&mut self, success: Option<bool>) {
        match success {
            Some(true) => self.successes += 1,
            Some(false) => self.failures += 1,
            None => self.unknown += 1,
        }
    }
}

/// Many reports tallied by outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// All traces.
    pub traces: Outcomes,
    /// Per concern key, the traces where it fired at least once. Every key of
    /// [`CONCERN_KEYS`] is present, plus any other key that fired.
    pub fired: BTreeMap<String, Outcomes>,
    /// Per concern key, the turns it fired in, summed over all traces.
    pub fired_turns: BTreeMap<String, usize>,
    /// Traces with any circuit break.
    pub halts: Outcomes,
    /// Events in all traces, and how many of them were rejected.
    pub events: usize,
    pub rejected: usize,
    /// Turns in all traces.
    pub turns: usize,
}

/// Tallies reports: per concern key and for halts, how many successful,
/// failed and unknown-outcome traces it fired on at least once.
pub fn summarize(reports: &[TraceReport]) -> Summary {
    let mut s = Summary::default();
    for key in CONCERN_KEYS {
        s.fired.insert(key.to_string(), Outcomes::default());
        s.fired_turns.insert(key.to_string(), 0);
    }
    for r in reports {
        s.traces.add(r.success);
        s.events += r.events;
        s.rejected += r.rejected;
        s.turns += r.turns;
        if r.halted() {
            s.halts.add(r.success);
        }
        for (key, &turns) in &r.fired {
            if turns > 0 {
                s.fired.entry(key.clone()).or_default().add(r.success);
                *s.fired_turns.entry(key.clone()).or_default() += turns;
            }
        }
    }
    s
}

/// A count and its share of `of`, right-aligned in 13 columns.
fn cell(n: usize, of: usize) -> String {
    if of == 0 {
        format!("{n:>4}        ")
    } else {
        format!("{n:>4} ({:>5.1}%)", 100.0 * n as f64 / of as f64)
    }
}

/// Prints the traces each concern fired on, by outcome, and the turns it
/// fired in; then the halts (traces with any circuit break).
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.traces;
        let unknown = t.unknown > 0;
        write!(
            f,
            "{} traces: {} successful, {} failed",
            t.successes + t.failures + t.unknown,
            t.successes,
            t.failures
        )?;
        if unknown {
            write!(f, ", {} without an outcome", t.unknown)?;
        }
        writeln!(
            f,
            "; {} turns, {} events ({} rejected)",
            self.turns, self.events, self.rejected
        )?;
        write!(
            f,
            "{:<28}  {:>14}  {:>14}",
            "traces it fired on",
            format!("successful ({})", t.successes),
            format!("failed ({})", t.failures)
        )?;
        if unknown {
            write!(f, "  {:>14}", format!("unknown ({})", t.unknown))?;
        }
        writeln!(f, "  {:>14}", format!("turns ({})", self.turns))?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, o: &Outcomes| -> fmt::Result {
            write!(
                f,
                "{name:<28}  {:>14}  {:>14}",
                cell(o.successes, t.successes),
                cell(o.failures, t.failures)
            )?;
            if unknown {
                write!(f, "  {:>14}", cell(o.unknown, t.unknown))?;
            }
            Ok(())
        };
        for (key, o) in &self.fired {
            row(f, key, o)?;
            let turns = self.fired_turns.get(key).copied().unwrap_or(0);
            writeln!(f, "  {:>14}", cell(turns, self.turns))?;
        }
        row(f, "halt (any circuit break)", &self.halts)
    }
}
