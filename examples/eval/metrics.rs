//! Confusion counts and the figures the harness prints.

use std::collections::BTreeMap;
use std::fmt::Write;

/// Binary outcome counts: "positive" is whatever the section says should be flagged.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    pub tp: u32,
    pub fp: u32,
    pub tn: u32,
    pub fn_: u32,
}

impl Counts {
    pub fn add(&mut self, truth: bool, predicted: bool) {
        match (truth, predicted) {
            (true, true) => self.tp += 1,
            (false, true) => self.fp += 1,
            (false, false) => self.tn += 1,
            (true, false) => self.fn_ += 1,
        }
    }

    fn ratio(a: u32, b: u32) -> Option<f64> {
        (b > 0).then(|| f64::from(a) / f64::from(b))
    }

    pub fn precision(&self) -> Option<f64> {
        Self::ratio(self.tp, self.tp + self.fp)
    }

    pub fn recall(&self) -> Option<f64> {
        Self::ratio(self.tp, self.tp + self.fn_)
    }

    /// False alarms among the cases that should stay quiet.
    pub fn false_alarm_rate(&self) -> Option<f64> {
        Self::ratio(self.fp, self.fp + self.tn)
    }

    pub fn balanced_accuracy(&self) -> Option<f64> {
        let tpr = self.recall()?;
        let tnr = Self::ratio(self.tn, self.tn + self.fp)?;
        Some((tpr + tnr) / 2.0)
    }
}

pub fn pct(v: Option<f64>) -> String {
    v.map_or("—".into(), |x| format!("{:.1}%", 100.0 * x))
}

/// Per-category counts for one system.
#[derive(Debug, Default)]
pub struct Table {
    pub by_category: BTreeMap<String, Counts>,
    pub overall: Counts,
}

impl Table {
    pub fn add(&mut self, category: &str, truth: bool, predicted: bool) {
        self.by_category
            .entry(category.to_string())
            .or_default()
            .add(truth, predicted);
        self.overall.add(truth, predicted);
    }
}

/// Prints reins beside the reference baseline, per category and overall.
pub fn report(title: &str, positive: &str, ours: &Table, base: &Table) -> String {
    report_named(
        title,
        positive,
        &[
            ("reins", ours),
            ("reference (noos 0.4.1 rule, re-implemented)", base),
        ],
    )
}

/// Prints one or more systems, per category and overall.
pub fn report_named(title: &str, positive: &str, systems: &[(&str, &Table)]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n## {title}\n");
    let _ = writeln!(
        out,
        "Positive = {positive}. Per category: cases, and how many each system got right.\n"
    );
    let names: String = systems
        .iter()
        .map(|(n, _)| format!(" {n} correct |"))
        .collect();
    let _ = writeln!(out, "| category | cases | label |{names}");
    let _ = writeln!(out, "|---|---|---|{}", "---|".repeat(systems.len()));
    let Some((_, first)) = systems.first() else {
        return out;
    };
    for (cat, c) in &first.by_category {
        let n = c.tp + c.fp + c.tn + c.fn_;
        let label = match (c.tp + c.fn_ > 0, c.tn + c.fp > 0) {
            (true, false) => "flag",
            (false, true) => "quiet",
            _ => "mixed",
        };
        let cells: String = systems
            .iter()
            .map(|(_, t)| {
                let x = t.by_category.get(cat).copied().unwrap_or_default();
                format!(" {}/{n} |", x.tp + x.tn)
            })
            .collect();
        let _ = writeln!(out, "| {cat} | {n} | {label} |{cells}");
    }
    let _ = writeln!(
        out,
        "\n| overall | precision | recall | balanced accuracy | false-alarm rate |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for (name, t) in systems {
        let o = t.overall;
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} |",
            pct(o.precision()),
            pct(o.recall()),
            pct(o.balanced_accuracy()),
            pct(o.false_alarm_rate())
        );
    }
    out
}
