//! Per-turn tool history and the tool-loop rules.
//!
//! The history is plain bounded data; a loop rule is a pure function over it
//! (the `LoopRule` trait), so rules can be swapped without touching how events
//! are recorded or persisted. The default rule follows what loop guards in the
//! field converged on: a call's identity is its tool name plus canonical
//! arguments, progress is judged from result digests, and the answer is a
//! two-step ladder (a nudge first, then the circuit break).

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::config::{Config, ToolLoopRule};
use crate::decision::LoopPattern;
use crate::hash::{combine, hash_bytes};

/// Most recent calls kept per turn.
pub const RECENT_CALLS: usize = 32;
/// Distinct tool names counted per turn; later names share one bucket.
pub const MAX_TOOL_NAMES: usize = 64;
/// The bucket for names beyond `MAX_TOOL_NAMES`.
pub const OTHER_TOOLS: &str = "(other)";
/// Successful calls remembered across turns, to spot repeats in a later turn.
pub const DONE_CALLS: usize = 128;
/// Longest cycle looked for (A,B,A,B is 2; A,B,C,A,B,C is 3).
const MAX_PERIOD: usize = 4;

/// One call and, once it returned, its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallRecord {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Name plus canonical arguments (see `detect::args`): the call's identity.
    #[serde(with = "crate::hash::hex")]
    pub key: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// Digest of what the call returned (result or error text).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::hash::hex_opt"
    )]
    pub result: Option<u64>,
    /// The result carried nothing: empty, `[]`, `null`, "not found", an error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
}

impl CallRecord {
    fn returned(&self) -> bool {
        self.ok.is_some()
    }
}

/// The identity of a call: tool name plus argument fingerprint.
pub fn call_key(name: &str, args: Option<u64>) -> u64 {
    combine(hash_bytes(0x746f_6f6c, name.as_bytes()), args.unwrap_or(0))
}

/// Results that say "nothing here" count as no progress.
pub fn is_empty_result(ok: bool, text: &str) -> bool {
    if !ok {
        return true;
    }
    let t = text.trim();
    t.is_empty()
        || [
            "[]",
            "{}",
            "null",
            "none",
            "no results",
            "not found",
            "0 results",
            "no matches",
            "\"\"",
        ]
        .iter()
        .any(|e| t.eq_ignore_ascii_case(e))
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
            key: call_key(name, args),
            ok: None,
            result: None,
            empty: false,
        });
        if self.recent.len() > RECENT_CALLS {
            self.recent.pop_front();
        }
    }

    /// Records a result and attaches it to its call: by call id when given,
    /// else to the newest unanswered call of the same tool. Returns the call's
    /// key when it was found.
    pub fn record_result(
        &mut self,
        name: &str,
        ok: bool,
        duration_ms: u64,
        text: &str,
        call_id: Option<&str>,
    ) -> Option<u64> {
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
        }?;
        call.ok = Some(ok);
        call.result = Some(combine(
            hash_bytes(u64::from(ok), text.as_bytes()),
            0x0072_6573,
        ));
        call.empty = is_empty_result(ok, text);
        Some(call.key)
    }

    pub fn last(&self) -> Option<&CallRecord> {
        self.recent.back()
    }
}

/// How strongly a finding asks to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Nudge,
    Halt,
}

/// One loop finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub level: Level,
    pub pattern: LoopPattern,
    pub tool_name: String,
    pub count: u64,
}

/// A tool-loop rule: a pure function of the turn's tool history (and of the
/// successful calls of earlier turns).
pub trait LoopRule {
    fn detect(&self, turn: &ToolTurn, earlier: &EarlierCalls) -> Option<Finding>;
}

/// Keys of successful calls from earlier turns, oldest first, bounded.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EarlierCalls(pub VecDeque<DoneCall>);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DoneCall {
    #[serde(with = "crate::hash::hex")]
    pub key: u64,
    pub turn: u64,
}

impl EarlierCalls {
    pub fn remember(&mut self, key: u64, turn: u64) {
        if self.0.iter().any(|d| d.key == key && d.turn == turn) {
            return;
        }
        self.0.push_back(DoneCall { key, turn });
        while self.0.len() > DONE_CALLS {
            self.0.pop_front();
        }
    }

    fn before(&self, key: u64, turn: u64) -> bool {
        self.0.iter().any(|d| d.key == key && d.turn < turn)
    }
}

/// The reference rule: N calls in a row to the same tool name, whatever the
/// arguments or results.
pub struct ConsecutiveSameTool {
    pub threshold: u64,
}

impl LoopRule for ConsecutiveSameTool {
    fn detect(&self, turn: &ToolTurn, _: &EarlierCalls) -> Option<Finding> {
        if turn.run_len < self.threshold {
            return None;
        }
        Some(Finding {
            level: Level::Halt,
            pattern: LoopPattern::SameTool,
            tool_name: turn.last()?.name.clone(),
            count: turn.run_len,
        })
    }
}

/// The default rule: identity by name + arguments, progress by results.
pub struct Fingerprint<'a> {
    pub cfg: &'a Config,
    /// The current turn number (for cross-turn duplicates).
    pub turn: u64,
}

impl Fingerprint<'_> {
    fn exempt(&self, name: &str) -> bool {
        self.cfg.tool_loop_exempt.iter().any(|n| n == name)
    }

    fn halt_at(&self, name: &str) -> u64 {
        self.cfg
            .tool_loop_thresholds
            .get(name)
            .copied()
            .unwrap_or(self.cfg.tool_loop_threshold)
            .into()
    }

    fn finding(&self, name: &str, count: u64, pattern: LoopPattern) -> Option<Finding> {
        let halt = self.halt_at(name);
        let nudge = u64::from(self.cfg.tool_nudge_threshold).min(halt);
        let level = if count >= halt {
            Level::Halt
        } else if count >= nudge {
            Level::Nudge
        } else {
            return None;
        };
        Some(Finding {
            level,
            pattern,
            tool_name: name.to_string(),
            count,
        })
    }

    /// The same call (name + arguments) again and again, its result never changing.
    fn identical(&self, calls: &[&CallRecord]) -> Option<Finding> {
        let last = calls.last()?;
        let same: Vec<&&CallRecord> = calls.iter().filter(|c| c.key == last.key).collect();
        let results: Vec<u64> = same.iter().filter_map(|c| c.result).collect();
        // A changing result is progress (polling that reaches a new state).
        if results.windows(2).any(|w| w[0] != w[1]) {
            return None;
        }
        let pattern = if results.is_empty() || same.len() > results.len() + 1 {
            LoopPattern::IdenticalCall
        } else {
            LoopPattern::PollingNoChange
        };
        self.finding(&last.name, same.len() as u64, pattern)
    }

    /// A trailing run of calls to one tool with tweaked arguments whose
    /// results show no progress: all empty or failing, or all the same.
    fn no_progress(&self, calls: &[&CallRecord]) -> Option<Finding> {
        let last = calls.last()?;
        let run: Vec<&&CallRecord> = calls
            .iter()
            .rev()
            .take_while(|c| c.name == last.name)
            .collect();
        let answered: Vec<&&&CallRecord> = run.iter().filter(|c| c.returned()).collect();
        if answered.is_empty() {
            // No results reported at all: fall back to the reference rule.
            return self
                .finding(&last.name, run.len() as u64, LoopPattern::SameTool)
                .filter(|f| f.level == Level::Halt);
        }
        let all_empty = answered.iter().all(|c| c.empty);
        let all_same = answered.windows(2).all(|w| w[0].result == w[1].result);
        if !(all_empty || all_same) {
            return None;
        }
        self.finding(&last.name, run.len() as u64, LoopPattern::NoProgress)
    }

    /// A,B,A,B… or A,B,C,A,B,C… with nothing new coming back.
    fn cycle(&self, calls: &[&CallRecord]) -> Option<Finding> {
        let keys: Vec<u64> = calls.iter().map(|c| c.key).collect();
        let n = keys.len();
        for period in 2..=MAX_PERIOD {
            if n < 2 * period {
                continue;
            }
            // Length of the periodic tail: extend while each key equals the
            // one a period later.
            let mut len = period;
            while len < n && keys.get(n - 1 - len) == keys.get(n - 1 - len + period) {
                len += 1;
            }
            let Some(tail) = calls.get(n - len..) else {
                continue;
            };
            let mut distinct: Vec<u64> = tail.iter().map(|c| c.key).collect();
            crate::sort::sort_u64(&mut distinct);
            distinct.dedup();
            if distinct.len() < 2 {
                continue; // a single repeated call is `identical`
            }
            // Each call in the cycle must keep returning the same thing.
            let changing = distinct.iter().any(|k| {
                let r: Vec<u64> = tail
                    .iter()
                    .filter(|c| c.key == *k)
                    .filter_map(|c| c.result)
                    .collect();
                r.windows(2).any(|w| w[0] != w[1])
            });
            let cycles = (len / period) as u64;
            if !changing && cycles >= 2 {
                let name = calls.last()?.name.clone();
                // Count full cycles; the ladder starts at 2 and halts at 3.
                let level = if cycles >= 3 {
                    Level::Halt
                } else {
                    Level::Nudge
                };
                return Some(Finding {
                    level,
                    pattern: LoopPattern::Cycle,
                    tool_name: name,
                    count: cycles,
                });
            }
        }
        None
    }

    /// Consecutive failures, whatever the tool.
    fn failure_streak(&self, calls: &[&CallRecord]) -> Option<Finding> {
        let streak = calls
            .iter()
            .rev()
            .take_while(|c| c.ok == Some(false))
            .count() as u64;
        let name = calls.last()?.name.clone();
        let halt = u64::from(self.cfg.tool_failure_streak);
        let level = if streak >= halt {
            Level::Halt
        } else if streak >= halt.div_ceil(2).max(2) {
            Level::Nudge
        } else {
            return None;
        };
        Some(Finding {
            level,
            pattern: LoopPattern::FailureStreak,
            tool_name: name,
            count: streak,
        })
    }

    /// An identical call that already succeeded in an earlier turn.
    fn cross_turn(&self, calls: &[&CallRecord], earlier: &EarlierCalls) -> Option<Finding> {
        let last = calls.last()?;
        earlier.before(last.key, self.turn).then(|| Finding {
            level: Level::Nudge,
            pattern: LoopPattern::CrossTurnDuplicate,
            tool_name: last.name.clone(),
            count: 1,
        })
    }
}

impl LoopRule for Fingerprint<'_> {
    fn detect(&self, turn: &ToolTurn, earlier: &EarlierCalls) -> Option<Finding> {
        let calls: Vec<&CallRecord> = turn
            .recent
            .iter()
            .filter(|c| !self.exempt(&c.name))
            .collect();
        if calls.is_empty() {
            return None;
        }
        // Strongest finding wins; on a tie the more specific pattern (later
        // in this list) does, since `max_by_key` keeps the last maximum.
        [
            self.cross_turn(&calls, earlier),
            self.failure_streak(&calls),
            self.no_progress(&calls),
            self.cycle(&calls),
            self.identical(&calls),
        ]
        .into_iter()
        .flatten()
        .max_by_key(|f| (f.level, f.count))
    }
}

/// Runs the configured rule.
pub fn detect_loop(
    cfg: &Config,
    turn: &ToolTurn,
    earlier: &EarlierCalls,
    turn_no: u64,
) -> Option<Finding> {
    match cfg.tool_loop_rule {
        ToolLoopRule::ConsecutiveSameTool => ConsecutiveSameTool {
            threshold: cfg.tool_loop_threshold.into(),
        }
        .detect(turn, earlier),
        ToolLoopRule::Fingerprint => Fingerprint { cfg, turn: turn_no }.detect(turn, earlier),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(name, args, ok, result)`; `None` result means no result reported.
    type Call<'a> = (&'a str, u64, bool, Option<&'a str>);

    fn turn(calls: &[Call<'_>]) -> ToolTurn {
        let mut t = ToolTurn::default();
        for &(name, args, ok, result) in calls {
            t.record_call(name, Some(args), None);
            if let Some(r) = result {
                t.record_result(name, ok, 10, r, None);
            }
        }
        t
    }

    fn find(cfg: &Config, calls: &[Call<'_>]) -> Option<(Level, LoopPattern, u64)> {
        detect_loop(cfg, &turn(calls), &EarlierCalls::default(), 1)
            .map(|f| (f.level, f.pattern, f.count))
    }

    fn reference() -> Config {
        Config {
            tool_loop_rule: ToolLoopRule::ConsecutiveSameTool,
            ..Config::default()
        }
    }

    #[test]
    fn reference_rule_boundary_and_interleaving() {
        let cfg = reference();
        let n = |k: usize| vec![("search", 1, true, None); k];
        assert_eq!(find(&cfg, &n(4)), None);
        assert_eq!(
            find(&cfg, &n(5)),
            Some((Level::Halt, LoopPattern::SameTool, 5))
        );
        assert_eq!(find(&cfg, &n(8)).map(|f| f.2), Some(8));
        let mut mixed = n(4);
        mixed.push(("db.query", 1, true, None));
        mixed.extend(n(4));
        assert_eq!(find(&cfg, &mixed), None);
    }

    #[test]
    fn identical_calls_nudge_then_halt() {
        let cfg = Config::default();
        let same = |k: usize| vec![("get_order", 7, true, Some("{\"id\":7}")); k];
        assert_eq!(find(&cfg, &same(2)), None);
        assert_eq!(find(&cfg, &same(3)).map(|f| f.0), Some(Level::Nudge));
        assert_eq!(
            find(&cfg, &same(5)).map(|f| (f.0, f.1)),
            Some((Level::Halt, LoopPattern::PollingNoChange))
        );
    }

    #[test]
    fn tweaked_arguments_with_empty_results_halt_like_the_reference_demo() {
        let cfg = Config::default();
        let calls: Vec<Call<'_>> = (0..5)
            .map(|d| ("search_orders", d, true, Some("[]")))
            .collect();
        assert_eq!(
            find(&cfg, &calls),
            Some((Level::Halt, LoopPattern::NoProgress, 5))
        );
        let failing: Vec<Call<'_>> = (0..5)
            .map(|d| ("book", d, false, Some("Error: seat taken")))
            .collect();
        assert_eq!(find(&cfg, &failing).map(|f| f.0), Some(Level::Halt));
    }

    #[test]
    fn legitimate_fan_out_pagination_and_progress_do_not_halt() {
        let cfg = Config::default();
        let files: Vec<(String, u64)> = (0..12)
            .map(|i| (format!("contents of file {i}"), i))
            .collect();
        let fan: Vec<Call<'_>> = files
            .iter()
            .map(|(r, i)| ("read_file", *i, true, Some(r.as_str())))
            .collect();
        assert_eq!(find(&cfg, &fan), None, "reading many different files");
        let pages: Vec<Call<'_>> = files
            .iter()
            .map(|(r, i)| ("list_orders", *i, true, Some(r.as_str())))
            .collect();
        assert_eq!(find(&cfg, &pages), None, "pagination with changing results");
        let polling = [
            ("job_status", 1, true, Some("queued")),
            ("job_status", 1, true, Some("queued")),
            ("job_status", 1, true, Some("running")),
            ("job_status", 1, true, Some("running")),
            ("job_status", 1, true, Some("running")),
            ("job_status", 1, true, Some("done")),
        ];
        assert_eq!(
            find(&cfg, &polling),
            None,
            "polling that reaches a new state"
        );
        let edit_test = [
            ("edit_file", 1, true, Some("ok")),
            ("run_tests", 0, true, Some("3 failed")),
            ("edit_file", 2, true, Some("ok")),
            ("run_tests", 0, true, Some("1 failed")),
            ("edit_file", 3, true, Some("ok")),
            ("run_tests", 0, true, Some("all passed")),
        ];
        assert_eq!(
            find(&cfg, &edit_test),
            None,
            "edit/test cycle whose results change"
        );
    }

    #[test]
    fn ping_pong_and_longer_cycles() {
        let cfg = Config::default();
        let pp: Vec<Call<'_>> = (0..6)
            .map(|i| {
                if i % 2 == 0 {
                    ("a", 1, true, Some("x"))
                } else {
                    ("b", 2, true, Some("y"))
                }
            })
            .collect();
        assert_eq!(find(&cfg, &pp), Some((Level::Halt, LoopPattern::Cycle, 3)));
        assert_eq!(
            find(&cfg, &pp[..4]).map(|f| (f.0, f.1)),
            Some((Level::Nudge, LoopPattern::Cycle))
        );
        let abc: Vec<Call<'_>> = (0..9)
            .map(|i| (["a", "b", "c"][i % 3], i as u64 % 3, true, Some("same")))
            .collect();
        assert_eq!(
            find(&cfg, &abc).map(|f| (f.0, f.1)),
            Some((Level::Halt, LoopPattern::Cycle))
        );
    }

    #[test]
    fn failure_streak_across_tools() {
        let cfg = Config::default();
        let fails: Vec<Call<'_>> = (0..8)
            .map(|i| (["a", "b"][i % 2], i as u64, false, Some("timeout")))
            .collect();
        let f = find(&cfg, &fails).unwrap();
        assert_eq!(f.0, Level::Halt);
    }

    #[test]
    fn exemptions_and_per_tool_thresholds() {
        let mut cfg = Config {
            tool_loop_exempt: vec!["think".into()],
            ..Config::default()
        };
        let think = vec![("think", 1, true, Some("hmm")); 10];
        assert_eq!(find(&cfg, &think), None);
        cfg.tool_loop_thresholds.insert("poll".into(), 10);
        let poll = vec![("poll", 1, true, Some("same")); 6];
        assert_eq!(
            find(&cfg, &poll).map(|f| f.0),
            Some(Level::Nudge),
            "threshold raised to 10"
        );
    }

    #[test]
    fn cross_turn_duplicate_of_a_successful_call_is_a_nudge() {
        let cfg = Config::default();
        let mut earlier = EarlierCalls::default();
        earlier.remember(call_key("get_user", Some(5)), 1);
        let mut t = ToolTurn::default();
        t.record_call("get_user", Some(5), None);
        let f = detect_loop(&cfg, &t, &earlier, 2).unwrap();
        assert_eq!(
            (f.level, f.pattern),
            (Level::Nudge, LoopPattern::CrossTurnDuplicate)
        );
        assert!(
            detect_loop(&cfg, &t, &earlier, 1).is_none(),
            "same turn is not cross-turn"
        );
    }

    #[test]
    fn history_is_bounded_and_results_pair_by_call_id() {
        let mut t = ToolTurn::default();
        for i in 0..10_000u64 {
            t.record_call("poll", Some(i), None);
        }
        assert_eq!(t.recent.len(), RECENT_CALLS);
        assert_eq!(t.run_len, 10_000);
        let mut t = ToolTurn::default();
        t.record_call("a", None, Some("c1"));
        t.record_call("a", None, Some("c2"));
        t.record_result("a", false, 120, "boom", Some("c1"));
        t.record_result("zzz", true, 30, "", None);
        assert_eq!(t.recent[0].ok, Some(false));
        assert!(t.recent[0].empty);
        assert_eq!(t.recent[1].ok, None);
        assert_eq!((t.results, t.failures, t.duration_ms), (2, 1, 150));
        let mut e = EarlierCalls::default();
        for i in 0..1000 {
            e.remember(i, i);
        }
        assert_eq!(e.0.len(), DONE_CALLS);
    }
}
