//! Per-turn tool history and the tool-loop circuit break.
//!
//! The history is plain bounded data; a loop rule is a pure function over it
//! (the `LoopRule` trait), so a better rule replaces the reference one without
//! touching how events are recorded or persisted.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::config::{Config, ToolLoopRule};
use crate::decision::{BreakReason, LoopPattern};

/// Most recent calls kept per turn.
pub const RECENT_CALLS: usize = 32;
/// Distinct tool names counted per turn; later names share one bucket.
pub const MAX_TOOL_NAMES: usize = 64;
/// The bucket for names beyond `MAX_TOOL_NAMES`.
pub const OTHER_TOOLS: &str = "(other)";

/// One call and, once it returned, its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallRecord {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Canonical fingerprint of the arguments (see `detect::args`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::hash::hex_opt"
    )]
    pub args: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
}

/// What the current turn's tools did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolTurn {
    pub recent: VecDeque<CallRecord>,
    pub calls: u64,
    pub results: u64,
    pub failures: u64,
    pub duration_ms: u64,
    pub counts: BTreeMap<String, u64>,
    /// Length of the trailing run of calls to one tool (the last in `recent`).
    pub run_len: u64,
}

impl ToolTurn {
    pub fn record_call(&mut self, name: &str, args: Option<u64>, call_id: Option<&str>) {
        let same = self.recent.back().is_some_and(|last| last.name == name);
        self.run_len = if same {
            self.run_len.saturating_add(1)
        } else {
            1
        };
        self.calls = self.calls.saturating_add(1);
        let key = if self.counts.contains_key(name) || self.counts.len() < MAX_TOOL_NAMES {
            name
        } else {
            OTHER_TOOLS
        };
        match self.counts.get_mut(key) {
            Some(n) => *n = n.saturating_add(1),
            None => {
                self.counts.insert(key.to_string(), 1);
            }
        }
        self.recent.push_back(CallRecord {
            name: name.to_string(),
            call_id: call_id.map(str::to_string),
            args,
            ok: None,
        });
        if self.recent.len() > RECENT_CALLS {
            self.recent.pop_front();
        }
    }

    /// Records a result and attaches it to its call: by call id when given,
    /// else to the newest unanswered call of the same tool.
    pub fn record_result(&mut self, name: &str, ok: bool, duration_ms: u64, call_id: Option<&str>) {
        self.results = self.results.saturating_add(1);
        if !ok {
            self.failures = self.failures.saturating_add(1);
        }
        self.duration_ms = self.duration_ms.saturating_add(duration_ms);
        let call = match call_id {
            Some(id) => self
                .recent
                .iter_mut()
                .rev()
                .find(|c| c.call_id.as_deref() == Some(id)),
            None => self
                .recent
                .iter_mut()
                .rev()
                .find(|c| c.name == name && c.ok.is_none()),
        };
        if let Some(c) = call {
            c.ok = Some(ok);
        }
    }

    pub fn last_name(&self) -> Option<&str> {
        self.recent.back().map(|c| c.name.as_str())
    }
}

/// A tool-loop rule: a pure function of the turn's tool history.
pub trait LoopRule {
    fn detect(&self, turn: &ToolTurn) -> Option<BreakReason>;
}

/// The reference rule: N calls in a row to the same tool name, whatever the
/// arguments or results.
pub struct ConsecutiveSameTool {
    pub threshold: u64,
}

impl LoopRule for ConsecutiveSameTool {
    fn detect(&self, turn: &ToolTurn) -> Option<BreakReason> {
        if turn.run_len < self.threshold {
            return None;
        }
        Some(BreakReason::ToolLoop {
            tool_name: turn.last_name()?.to_string(),
            count: turn.run_len,
            pattern: LoopPattern::SameTool,
        })
    }
}

/// Runs the configured rule.
pub fn detect_loop(cfg: &Config, turn: &ToolTurn) -> Option<BreakReason> {
    match cfg.tool_loop_rule {
        ToolLoopRule::ConsecutiveSameTool => ConsecutiveSameTool {
            threshold: cfg.tool_loop_threshold.into(),
        }
        .detect(turn),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(names: &[&str]) -> ToolTurn {
        let mut t = ToolTurn::default();
        for n in names {
            t.record_call(n, None, None);
        }
        t
    }

    fn looped(names: &[&str]) -> Option<(String, u64)> {
        match detect_loop(&Config::default(), &turn(names)) {
            Some(BreakReason::ToolLoop {
                tool_name, count, ..
            }) => Some((tool_name, count)),
            _ => None,
        }
    }

    #[test]
    fn reference_threshold_boundary() {
        assert_eq!(looped(&["search"; 4]), None);
        assert_eq!(looped(&["search"; 5]), Some(("search".into(), 5)));
        assert_eq!(
            looped(&["search"; 8]),
            Some(("search".into(), 8)),
            "actual count, not the threshold"
        );
    }

    #[test]
    fn interleaving_and_resolved_runs() {
        let mut names = vec!["search"; 4];
        names.push("db.query");
        names.extend(["search"; 4]);
        assert_eq!(looped(&names), None);
        let mut tail = vec!["explore", "db.query"];
        tail.extend(["search"; 5]);
        assert_eq!(looped(&tail), Some(("search".into(), 5)));
        let mut resolved = vec!["search"; 5];
        resolved.extend(["db.query"; 2]);
        assert_eq!(looped(&resolved), None);
        let alternating: Vec<&str> = (0..20)
            .map(|i| if i % 2 == 0 { "a" } else { "b" })
            .collect();
        assert_eq!(looped(&alternating), None);
    }

    #[test]
    fn long_runs_stay_bounded() {
        let t = turn(&vec!["poll"; 10_000]);
        assert_eq!(t.recent.len(), RECENT_CALLS);
        assert_eq!(t.run_len, 10_000);
        assert_eq!(t.counts["poll"], 10_000);
    }

    #[test]
    fn names_beyond_the_cap_share_a_bucket() {
        let names: Vec<String> = (0..100).map(|i| format!("tool{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let t = turn(&refs);
        assert_eq!(t.counts.len(), MAX_TOOL_NAMES + 1);
        assert_eq!(t.counts[OTHER_TOOLS], 100 - MAX_TOOL_NAMES as u64);
    }

    #[test]
    fn results_pair_by_call_id_or_newest_open_call() {
        let mut t = ToolTurn::default();
        t.record_call("a", None, Some("c1"));
        t.record_call("a", None, Some("c2"));
        t.record_call("b", None, None);
        t.record_result("a", false, 120, Some("c1"));
        t.record_result("b", true, 250, None);
        t.record_result("zzz", true, 30, None);
        assert_eq!(t.recent[0].ok, Some(false));
        assert_eq!(t.recent[1].ok, None);
        assert_eq!(t.recent[2].ok, Some(true));
        assert_eq!((t.results, t.failures, t.duration_ms), (3, 1, 400));
    }
}
