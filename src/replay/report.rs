//! What reins would have decided on a recorded run, and what halting at its
//! first circuit break would have saved.
//!
//! The trace's events go to a fresh regulator in order; `decide()` is asked
//! after each accepted one. A refused event is reported with its index and
//! leaves the regulator as it was. Savings assume halting changes nothing
//! before the break: they are the spend, turns, tool calls and time recorded
//! *after* the event on which the first circuit break fired.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{REPLAY_USER, Trace, concern_key, reason_kind};
use crate::config::Config;
use crate::decision::Verdict;
use crate::event::Event;
use crate::regulator::Regulator;

/// Decision changes and refused events kept per report (the counts stay exact).
pub const MAX_LISTED: usize = 1000;

/// Spend, turns, tool calls and time over some stretch of a trace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spend {
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub turns: u64,
    pub tool_calls: u64,
    /// Recorded model and tool time (`cost.wallclockMs`, `toolResult.durationMs`).
    pub wallclock_ms: u64,
}

impl Spend {
    fn add(&mut self, e: &Event) {
        match e {
            Event::TurnStart { .. } => self.turns += 1,
            Event::ToolCall { .. } => self.tool_calls += 1,
            Event::ToolResult { duration_ms, .. } => {
                self.wallclock_ms = self.wallclock_ms.saturating_add(*duration_ms)
            }
            Event::Cost {
                tokens_in,
                tokens_out,
                wallclock_ms,
                ..
            } => {
                self.tokens_in = self.tokens_in.saturating_add(*tokens_in);
                self.tokens_out = self.tokens_out.saturating_add(*tokens_out);
                self.wallclock_ms = self.wallclock_ms.saturating_add(*wallclock_ms);
            }
            _ => {}
        }
    }

    /// Input plus output tokens.
    pub fn tokens(&self) -> u64 {
        self.tokens_in.saturating_add(self.tokens_out)
    }
}

/// The recorded outcome.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub success: Option<bool>,
    pub reward: Option<f64>,
}

/// A change of decision: after event `event` (in turn `turn`), the decision
/// became `kind`, with these concerns (keys as in [`concern_key`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub event: usize,
    pub turn: u64,
    pub kind: String,
    pub concerns: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// The first circuit break.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FirstBreak {
    pub turn: u64,
    pub event: usize,
    /// The reason's kind: `toolLoop`, `costCap`, `qualityDecline`, `repeatedFailure`.
    pub reason: String,
    pub suggestion: String,
}

/// One turn: its first event, what fired in it, the decision at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnReport {
    pub turn: u64,
    pub first_event: usize,
    pub decision: String,
    pub fired: Vec<String>,
    pub spend: Spend,
}

/// An event the regulator refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Refused {
    pub event: usize,
    pub message: String,
}

/// What replaying one trace showed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayReport {
    pub id: String,
    pub source: Option<String>,
    pub outcome: Option<Outcome>,
    /// Spend in the trace was (partly) estimated from text.
    pub estimated_tokens: bool,
    pub events: usize,
    pub turns: u64,
    pub first_break: Option<FirstBreak>,
    /// What halting at the first break would have saved.
    pub savings: Option<Spend>,
    /// The whole run.
    pub total: Spend,
    /// Per concern key, the turns it fired in.
    pub concerns: BTreeMap<String, u64>,
    pub per_turn: Vec<TurnReport>,
    /// Each change of decision, at most [`MAX_LISTED`].
    pub changes: Vec<Change>,
    pub refused_count: usize,
    /// At most [`MAX_LISTED`].
    pub refused: Vec<Refused>,
}

impl ReplayReport {
    pub fn halted(&self) -> bool {
        self.first_break.is_some()
    }
    pub fn success(&self) -> Option<bool> {
        self.outcome.and_then(|o| o.success)
    }
}

fn kind_of(v: &Verdict) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
        .unwrap_or_default()
}

fn suggestion_of(v: &Verdict) -> Option<String> {
    serde_json::to_value(v)
        .ok()?
        .get("suggestion")?
        .as_str()
        .map(str::to_string)
}

/// Replays `trace` under `config` (see the module documentation). An
/// invalid `config` refuses every event.
pub fn replay_report(trace: &Trace, config: &Config) -> ReplayReport {
    let outcome = (trace.success.is_some() || trace.reward.is_some()).then_some(Outcome {
        success: trace.success,
        reward: trace.reward,
    });
    let mut r = ReplayReport {
        id: trace.id.clone(),
        source: trace.source.clone(),
        outcome,
        estimated_tokens: trace.estimated_tokens,
        events: trace.events.len(),
        turns: 0,
        first_break: None,
        savings: None,
        total: Spend::default(),
        concerns: BTreeMap::new(),
        per_turn: Vec::new(),
        changes: Vec::new(),
        refused_count: 0,
        refused: Vec::new(),
    };
    let regulator = Regulator::new(REPLAY_USER, config.clone());
    let mut regulator = match regulator {
        Ok(reg) => reg,
        Err(e) => {
            r.refused_count = trace.events.len();
            r.refused.push(Refused {
                event: 0,
                message: e.to_string(),
            });
            return r;
        }
    };
    let mut heard = String::new();
    let mut this_turn: BTreeSet<String> = BTreeSet::new();
    let mut after = Spend::default();
    for (index, event) in trace.events.iter().enumerate() {
        r.total.add(event);
        if r.first_break.is_some() {
            after.add(event);
        }
        if let Err(e) = regulator.on_event(event) {
            r.refused_count += 1;
            if r.refused.len() < MAX_LISTED {
                r.refused.push(Refused {
                    event: index,
                    message: e.to_string(),
                });
            }
            continue;
        }
        if matches!(event, Event::TurnStart { .. }) {
            r.turns += 1;
            this_turn.clear();
            r.per_turn.push(TurnReport {
                turn: r.turns,
                first_event: index,
                decision: "continue".into(),
                fired: Vec::new(),
                spend: Spend::default(),
            });
        }
        if let Some(t) = r.per_turn.last_mut() {
            t.spend.add(event);
        }
        let d = regulator.decide();
        let keys: Vec<String> = d.concerns.iter().filter_map(concern_key).collect();
        if r.first_break.is_none()
            && let Some((reason, v)) = d.concerns.iter().find_map(|c| match c {
                Verdict::CircuitBreak { reason, .. } => Some((reason, c)),
                _ => None,
            })
        {
            r.first_break = Some(FirstBreak {
                turn: r.turns,
                event: index,
                reason: reason_kind(reason),
                suggestion: suggestion_of(v).unwrap_or_default(),
            });
        }
        for key in &keys {
            if this_turn.insert(key.clone()) {
                *r.concerns.entry(key.clone()).or_insert(0) += 1;
                if let Some(t) = r.per_turn.last_mut() {
                    t.fired.push(key.clone());
                }
            }
        }
        let kind = kind_of(&d.verdict);
        if let Some(t) = r.per_turn.last_mut() {
            t.decision.clone_from(&kind);
        }
        let now = keys.join("|");
        if now != heard {
            heard = now;
            if r.changes.len() < MAX_LISTED {
                r.changes.push(Change {
                    event: index,
                    turn: r.turns,
                    kind,
                    concerns: keys,
                    suggestion: suggestion_of(&d.verdict),
                });
            }
        }
    }
    r.savings = r.first_break.is_some().then_some(after);
    r
}
