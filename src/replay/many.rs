//! Many runs at once: how often reins would have halted, how often rightly
//! (against the recorded outcomes), what that saved on failed runs and what
//! it cost on successful ones; and a sweep of options over a grid, with the
//! Pareto frontier of those figures.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::Trace;
use super::report::{ReplayReport, replay_report};
use crate::config::Config;
use crate::error::{Error, Result};

/// Runs counted by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ByOutcome {
    pub succeeded: usize,
    pub failed: usize,
    pub unknown: usize,
}

impl ByOutcome {
    fn add(&mut self, success: Option<bool>) {
        match success {
            Some(true) => self.succeeded += 1,
            Some(false) => self.failed += 1,
            None => self.unknown += 1,
        }
    }
    pub fn total(&self) -> usize {
        self.succeeded + self.failed + self.unknown
    }
}

/// The figures over many replays.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub runs: ByOutcome,
    pub halted: ByOutcome,
    /// Halted runs / all runs.
    pub halt_rate: f64,
    /// Of the halted runs with an outcome, the share that failed (`null` with none).
    pub halt_precision: Option<f64>,
    /// Of the failed runs, the share halted (`null` with none).
    pub failure_recall: Option<f64>,
    /// Tokens (in + out) after the break, on failed runs: what halting saved.
    pub tokens_saved_on_failed: u64,
    /// The same on successful runs: spend on work that would have succeeded.
    pub tokens_forgone_on_succeeded: u64,
    /// Tokens of all runs.
    pub tokens_total: u64,
    /// Runs whose spend was (partly) estimated from text.
    pub estimated_runs: usize,
    /// Halts by the first break's reason.
    pub by_reason: BTreeMap<String, usize>,
    /// Per concern key, the runs it fired on, by outcome.
    pub concerns: BTreeMap<String, ByOutcome>,
    pub events: usize,
    pub refused: usize,
    pub turns: u64,
}

fn share(n: usize, of: usize) -> Option<f64> {
    (of > 0).then(|| n as f64 / of as f64)
}

impl Default for Summary {
    fn default() -> Self {
        Summary {
            runs: ByOutcome::default(),
            halted: ByOutcome::default(),
            halt_rate: 0.0,
            halt_precision: None,
            failure_recall: None,
            tokens_saved_on_failed: 0,
            tokens_forgone_on_succeeded: 0,
            tokens_total: 0,
            estimated_runs: 0,
            by_reason: BTreeMap::new(),
            concerns: BTreeMap::new(),
            events: 0,
            refused: 0,
            turns: 0,
        }
    }
}

impl Summary {
    /// Counts one more report in (the shares are updated too).
    pub fn add(&mut self, r: &ReplayReport) {
        let success = r.success();
        self.runs.add(success);
        self.tokens_total = self.tokens_total.saturating_add(r.total.tokens());
        self.estimated_runs += usize::from(r.estimated_tokens);
        self.events += r.events;
        self.refused += r.refused_count;
        self.turns += r.turns;
        for key in r.concerns.keys() {
            self.concerns.entry(key.clone()).or_default().add(success);
        }
        if let Some(b) = &r.first_break {
            self.halted.add(success);
            *self.by_reason.entry(b.reason.clone()).or_insert(0) += 1;
            let saved = r.savings.map_or(0, |x| x.tokens());
            match success {
                Some(false) => {
                    self.tokens_saved_on_failed = self.tokens_saved_on_failed.saturating_add(saved)
                }
                Some(true) => {
                    self.tokens_forgone_on_succeeded =
                        self.tokens_forgone_on_succeeded.saturating_add(saved)
                }
                None => {}
            }
        }
        self.halt_rate = share(self.halted.total(), self.runs.total()).unwrap_or(0.0);
        self.halt_precision = share(
            self.halted.failed,
            self.halted.failed + self.halted.succeeded,
        );
        self.failure_recall = share(self.halted.failed, self.runs.failed);
    }
}

/// Tallies reports (see [`Summary`]).
pub fn summarize_reports(reports: &[ReplayReport]) -> Summary {
    let mut s = Summary::default();
    reports.iter().for_each(|r| s.add(r));
    s
}

/// Replays every trace and tallies them.
pub fn replay_many(traces: &[Trace], config: &Config) -> (Vec<ReplayReport>, Summary) {
    let reports: Vec<ReplayReport> = traces.iter().map(|t| replay_report(t, config)).collect();
    let summary = summarize_reports(&reports);
    (reports, summary)
}

/// Option combinations a sweep runs at most.
pub const MAX_SWEEP_POINTS: usize = 256;

/// One point of a sweep: its options and figures, and whether no other
/// point is at least as good on every figure and better on one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    pub options: Map<String, Value>,
    pub summary: Summary,
    pub pareto: bool,
}

/// Replays `traces` under `base` with each combination of `grid`'s values
/// (option name → values to try), and marks the Pareto frontier of: tokens
/// saved on failed runs (more is better), failed runs halted (more),
/// successful runs halted (fewer), tokens forgone on them (fewer). Points
/// come frontier first, then by tokens saved.
pub fn sweep(
    traces: &[Trace],
    base: &Map<String, Value>,
    grid: &BTreeMap<String, Vec<Value>>,
) -> Result<Vec<SweepPoint>> {
    let mut combos: Vec<Map<String, Value>> = vec![Map::new()];
    for (name, values) in grid {
        if values.is_empty() {
            return Err(Error::range_error(
                format!("grid.{name}"),
                "must list at least one value",
            ));
        }
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.insert(name.clone(), v.clone());
                    c
                })
            })
            .collect();
        if combos.len() > MAX_SWEEP_POINTS {
            return Err(Error::range_error(
                "grid",
                format!("makes more than {MAX_SWEEP_POINTS} combinations"),
            ));
        }
    }
    let mut points = Vec::with_capacity(combos.len());
    for options in combos {
        let mut all = base.clone();
        all.extend(options.clone());
        let config = Config::from_json(&Value::Object(all).to_string())?;
        let (_, summary) = replay_many(traces, &config);
        points.push(SweepPoint {
            options,
            summary,
            pareto: false,
        });
    }
    let figures: Vec<[i128; 4]> = points.iter().map(|p| objectives(&p.summary)).collect();
    for (i, p) in points.iter_mut().enumerate() {
        let me = figures[i];
        p.pareto = !figures
            .iter()
            .any(|o| o.iter().zip(me).all(|(a, b)| *a >= b) && *o != me);
    }
    points.sort_by(|a, b| {
        b.pareto.cmp(&a.pareto).then(
            b.summary
                .tokens_saved_on_failed
                .cmp(&a.summary.tokens_saved_on_failed),
        )
    });
    Ok(points)
}

/// The figures to maximise (costs negated).
fn objectives(s: &Summary) -> [i128; 4] {
    [
        i128::from(s.tokens_saved_on_failed),
        s.halted.failed as i128,
        -(s.halted.succeeded as i128),
        -i128::from(s.tokens_forgone_on_succeeded),
    ]
}
