//! Per-turn tool history and the tool-loop rules.
//!
//! The history is plain bounded data; a loop rule is a pure function over it
//! (the `LoopRule` trait in `rules`), so rules can be swapped without touching
//! how events are recorded or persisted. Calls are grouped into steps the way
//! agents make them: calls issued before any of their results came back are
//! one step (a parallel fan-out), and a step is judged once all its results
//! are in. A call's identity is its tool name plus canonical arguments; what
//! it does (`effect`) and what came back (`gist`) decide whether repeating it
//! is progress, a loop, or a duplicate side effect.

pub mod effect;
pub mod gist;
mod rules;

use std::collections::VecDeque;

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use crate::hash::{combine, hash_bytes};
use crate::sorted_map::SortedMap;

pub use effect::Effect;
pub use rules::{ConsecutiveSameTool, Finding, Fingerprint, Level, LoopRule, detect_loop};

/// Most recent calls kept per turn.
pub const RECENT_CALLS: usize = 32;
/// Distinct tool names counted per turn; later names share one bucket.
pub const MAX_TOOL_NAMES: usize = 64;
/// The bucket for names beyond `MAX_TOOL_NAMES`.
pub const OTHER_TOOLS: &str = "(other)";
/// Returned calls remembered across turns, to spot repeats in a later turn.
pub const DONE_CALLS: usize = 128;
/// Id-like tokens of results remembered per generation (see `Listed`), to
/// tell a call on a listed item from a guess.
pub const LISTED_NAMES: usize = 256;
/// Id-like tokens taken from one result.
const NAMES_PER_RESULT: usize = 128;
/// A result at least this long (trimmed bytes) that comes back unchanged for
/// different arguments means the arguments made no difference.
pub const LONG_RESULT: usize = 64;

/// One call and, once it returned, its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
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
    /// Digest of the result with ids, timestamps and timings masked (`gist`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::hash::hex_opt"
    )]
    pub gist: Option<u64>,
    /// The result carried nothing: empty, `[]`, `null`, "not found", an
    /// error. A successful write is never empty: silence is its success.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
    /// The result was at least `LONG_RESULT` bytes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub long: bool,
    /// The step (batch of calls issued together) it belongs to, from 1.
    #[serde(default)]
    pub step: u32,
    #[serde(default, skip_serializing_if = "Effect::is_read")]
    pub effect: Effect,
    /// An argument names an item an earlier result listed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub listed: bool,
}

crate::json::typed::from_json!(CallRecord {
    req name: "name",
    opt call_id: "callId",
    hex key: "key",
    opt ok: "ok",
    hex_opt result: "result",
    hex_opt gist: "gist",
    opt empty: "empty",
    opt long: "long",
    opt step: "step",
    opt effect: "effect",
    opt listed: "listed",
});

impl CallRecord {
    pub fn returned(&self) -> bool {
        self.ok.is_some()
    }

    /// Failed, or came back empty (see `empty`).
    pub fn blank(&self) -> bool {
        self.ok == Some(false) || self.empty
    }

    /// Succeeded and changed something.
    pub fn changed(&self) -> bool {
        self.ok == Some(true) && !self.effect.is_read()
    }
}

/// The identity of a call: tool name plus argument fingerprint.
pub fn call_key(name: &str, args: Option<u64>) -> u64 {
    combine(hash_bytes(0x746f_6f6c, name.as_bytes()), args.unwrap_or(0))
}

/// Results that say "nothing here" count as no progress: an error, nothing
/// at all, an empty list or object, or a short "nothing found" message
/// (`No results.`, `(no matches)`, `0 results found`).
pub fn is_empty_result(ok: bool, text: &str) -> bool {
    if !ok {
        return true;
    }
    let t = text
        .trim()
        .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace());
    if t.is_empty() || t.eq_ignore_ascii_case("null") || t.eq_ignore_ascii_case("none") {
        return true;
    }
    if t.len() > 40 {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    let short = lower.strip_suffix(" found").unwrap_or(&lower);
    let nothing = [
        "no results",
        "no result",
        "not found",
        "0 results",
        "no matches",
        "no match",
        "nothing",
        "no data",
        "no records",
        "no items",
        "empty",
    ];
    nothing.contains(&lower.as_str()) || nothing.contains(&short)
}

/// A call as the regulator hands it over.
#[derive(Debug, Clone, Copy, Default)]
pub struct NewCall<'a> {
    pub name: &'a str,
    pub args: Option<u64>,
    pub call_id: Option<&'a str>,
    pub effect: Effect,
    /// Hashes of the id-like argument values (`gist::name_hash`).
    pub names: &'a [u32],
}

/// What the current turn's tools did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolTurn {
    pub recent: VecDeque<CallRecord>,
    pub calls: u64,
    pub results: u64,
    pub failures: u64,
    pub duration_ms: u64,
    pub counts: SortedMap<String, u64>,
    /// Length of the trailing run of calls to one tool (the last in `recent`).
    pub run_len: u64,
    /// Steps begun this turn.
    #[serde(default)]
    pub steps: u32,
    /// The last tool event was a call: the next call joins its step.
    #[serde(default)]
    pub open_step: bool,
    /// Consecutive settled steps after which a nudge stood (escalation).
    #[serde(default)]
    pub nudged_steps: u32,
    /// The app reports results (kept across turns): until it does, calls
    /// cannot wait for results to be judged.
    #[serde(default)]
    pub reports_results: bool,
    /// Id-like tokens of recent results (kept across turns).
    #[serde(default)]
    pub listed: Listed,
    /// The loop rule's finding on the settled steps, before escalation:
    /// computed when a step settles (`Regulator` keeps it current), so
    /// `decide()` only reads it. Not stored; recomputed on import.
    #[serde(skip)]
    pub finding: Option<Finding>,
}

crate::json::typed::from_json!(ToolTurn {
    req recent: "recent",
    req calls: "calls",
    req results: "results",
    req failures: "failures",
    req duration_ms: "durationMs",
    req counts: "counts",
    req run_len: "runLen",
    opt steps: "steps",
    opt open_step: "openStep",
    opt nudged_steps: "nudgedSteps",
    opt reports_results: "reportsResults",
    opt listed: "listed",
} ..Default::default());

/// The id-like tokens of recent results: two generations of sorted hashes,
/// so a lookup is two binary searches and the newest `LISTED_NAMES` to
/// `2 × LISTED_NAMES` are kept without a queue.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Listed {
    now: Vec<u32>,
    before: Vec<u32>,
}

crate::json::typed::from_json!(Listed {
    req now: "now",
    req before: "before",
});

impl Listed {
    pub fn contains(&self, h: u32) -> bool {
        self.now.binary_search(&h).is_ok() || self.before.binary_search(&h).is_ok()
    }

    pub fn insert(&mut self, h: u32) {
        if let Err(at) = self.now.binary_search(&h) {
            if self.now.len() >= LISTED_NAMES {
                self.before = std::mem::take(&mut self.now);
                self.now.push(h);
            } else {
                self.now.insert(at, h);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.now.len() + self.before.len()
    }

    pub fn is_empty(&self) -> bool {
        self.now.is_empty() && self.before.is_empty()
    }

    /// Within the caps and sorted, as `insert` keeps it (for imports).
    pub fn is_valid(&self) -> bool {
        let sorted =
            |v: &Vec<u32>| v.len() <= LISTED_NAMES && v.windows(2).all(|w| w.first() < w.get(1));
        sorted(&self.now) && sorted(&self.before)
    }
}

impl ToolTurn {
    /// The history a new turn starts with: what was learned about the app
    /// and the items results listed carries over; the calls do not.
    pub fn next_turn(&self) -> ToolTurn {
        ToolTurn {
            reports_results: self.reports_results,
            listed: self.listed.clone(),
            ..ToolTurn::default()
        }
    }

    pub fn record_call(&mut self, call: NewCall<'_>) {
        let name = call.name;
        let same = self.recent.back().is_some_and(|last| last.name == name);
        self.run_len = if same {
            self.run_len.saturating_add(1)
        } else {
            1
        };
        if !self.open_step {
            self.steps = self.steps.saturating_add(1);
            self.open_step = true;
        }
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
        let listed = call.names.iter().any(|&n| self.listed.contains(n));
        self.recent.push_back(CallRecord {
            name: name.to_string(),
            call_id: call.call_id.map(str::to_string),
            key: call_key(name, call.args),
            ok: None,
            result: None,
            gist: None,
            empty: false,
            long: false,
            step: self.steps,
            effect: call.effect,
            listed,
        });
        if self.recent.len() > RECENT_CALLS {
            self.recent.pop_front();
        }
    }

    /// Records a result and attaches it to its call: by call id when given,
    /// else to the oldest unanswered call of the same tool (results of a
    /// batch come back in the order it was issued). Returns the call when it
    /// was found.
    pub fn record_result(
        &mut self,
        name: &str,
        ok: bool,
        duration_ms: u64,
        text: &str,
        call_id: Option<&str>,
    ) -> Option<&CallRecord> {
        self.results = self.results.saturating_add(1);
        self.reports_results = true;
        self.open_step = false;
        if !ok {
            self.failures = self.failures.saturating_add(1);
        }
        self.duration_ms = self.duration_ms.saturating_add(duration_ms);
        let listed = &mut self.listed;
        gist::for_names(text, NAMES_PER_RESULT, |h| listed.insert(h));
        let index = match call_id {
            Some(id) => {
                let mine = |c: &CallRecord| c.call_id.as_deref() == Some(id);
                self.recent
                    .iter()
                    .position(|c| mine(c) && c.ok.is_none())
                    .or_else(|| self.recent.iter().rposition(mine))
            }
            None => self
                .recent
                .iter()
                .position(|c| c.ok.is_none() && c.name == name),
        }?;
        let call = self.recent.get_mut(index)?;
        call.ok = Some(ok);
        call.result = Some(combine(
            hash_bytes(u64::from(ok), text.as_bytes()),
            0x0072_6573,
        ));
        call.gist = Some(gist::gist(ok, text));
        // A write that succeeded in silence said all it had to.
        call.empty = (!ok || call.effect.is_read()) && is_empty_result(ok, text);
        call.long = text.trim().len() >= LONG_RESULT;
        Some(call)
    }

    /// Counts the settled steps after which a nudge stood; `level` is the
    /// rule's finding once the step's results are in, before escalation.
    pub fn note_step(&mut self, level: Option<Level>) {
        self.nudged_steps = match level {
            Some(Level::Nudge) => self.nudged_steps.saturating_add(1),
            Some(Level::Halt) => self.nudged_steps,
            None => 0,
        };
    }

    /// Whether every call of `step` still in view has returned.
    pub fn step_done(&self, step: u32) -> bool {
        self.recent
            .iter()
            .filter(|c| c.step == step)
            .all(CallRecord::returned)
    }

    /// The calls a rule may judge, oldest first, those `keep` accepts:
    /// the calls whose step has all its results in. Until the app has
    /// reported any result, all of them.
    pub fn settled(&self, keep: impl Fn(&CallRecord) -> bool) -> Vec<&CallRecord> {
        let mut out = Vec::with_capacity(self.recent.len());
        let mut start = 0;
        let mut done = true;
        let n = self.recent.len();
        for i in 0..=n {
            let call = self.recent.get(i);
            let step = call.map(|c| c.step);
            let group_step = self.recent.get(start).map(|c| c.step);
            if i > start && step != group_step {
                if done || !self.reports_results {
                    out.extend(self.recent.range(start..i).filter(|c| keep(c)));
                }
                start = i;
                done = true;
            }
            done &= call.is_none_or(CallRecord::returned);
        }
        out
    }

    pub fn last(&self) -> Option<&CallRecord> {
        self.recent.back()
    }
}

/// Calls that returned in earlier turns, oldest first, bounded.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(transparent)]
pub struct EarlierCalls(pub VecDeque<DoneCall>);

impl crate::json::typed::FromJson for EarlierCalls {
    fn from_json(v: &serde_json::Value) -> crate::json::typed::Got<EarlierCalls> {
        crate::json::typed::FromJson::from_json(v).map(EarlierCalls)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DoneCall {
    #[serde(with = "crate::hash::hex")]
    pub key: u64,
    pub turn: u64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::hash::hex_opt"
    )]
    pub gist: Option<u64>,
    #[serde(default, skip_serializing_if = "Effect::is_read")]
    pub effect: Effect,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

crate::json::typed::from_json!(DoneCall {
    hex key: "key",
    req turn: "turn",
    hex_opt gist: "gist",
    opt effect: "effect",
    opt failed: "failed",
});

impl EarlierCalls {
    /// Remembers a call that returned (once per turn and result).
    pub fn remember(&mut self, call: &CallRecord, turn: u64) {
        let done = DoneCall {
            key: call.key,
            turn,
            gist: call.gist,
            effect: call.effect,
            failed: call.ok == Some(false),
        };
        if self.0.contains(&done) {
            return;
        }
        self.0.push_back(done);
        while self.0.len() > DONE_CALLS {
            self.0.pop_front();
        }
    }

    /// Calls with `key` from turns before `turn`, newest first.
    pub fn before(&self, key: u64, turn: u64) -> impl Iterator<Item = &DoneCall> {
        self.0
            .iter()
            .rev()
            .filter(move |d| d.key == key && d.turn < turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ToolLoopRule};
    use crate::decision::LoopPattern;

    /// `(name, args, ok, result)`; `None` result means no result reported.
    type Call<'a> = (&'a str, u64, bool, Option<&'a str>);

    fn call(name: &str, args: u64) -> NewCall<'_> {
        NewCall {
            name,
            args: Some(args),
            effect: effect::from_name(name),
            ..NewCall::default()
        }
    }

    /// Each call is its own step: called, then answered.
    fn turn(calls: &[Call<'_>]) -> ToolTurn {
        let mut t = ToolTurn::default();
        for &(name, args, ok, result) in calls {
            t.record_call(call(name, args));
            if let Some(r) = result {
                t.record_result(name, ok, 10, r, None);
            }
        }
        t
    }

    fn find_in(cfg: &Config, t: &ToolTurn) -> Option<(Level, LoopPattern, u64)> {
        detect_loop(cfg, t, &EarlierCalls::default(), 1).map(|f| (f.level, f.pattern, f.count))
    }

    fn find(cfg: &Config, calls: &[Call<'_>]) -> Option<(Level, LoopPattern, u64)> {
        find_in(cfg, &turn(calls))
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
        let unanswered = vec![("get_order", 7, true, None); 5];
        assert_eq!(
            find(&cfg, &unanswered).map(|f| (f.0, f.1)),
            Some((Level::Halt, LoopPattern::IdenticalCall)),
            "an app that never reports results is judged on identity alone"
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
        let statuses: Vec<Call<'_>> = (0..6)
            .map(|f| ("get_flight_status", f, true, Some("available")))
            .collect();
        assert_eq!(
            find(&cfg, &statuses),
            None,
            "six different flights that are all available"
        );
    }

    #[test]
    fn a_parallel_batch_is_one_step_judged_when_its_results_are_in() {
        let cfg = Config::default();
        let mut t = ToolTurn::default();
        let ids = ["c1", "c2", "c3", "c4", "c5", "c6"];
        for (i, id) in ids.iter().enumerate() {
            t.record_call(NewCall {
                call_id: Some(id),
                ..call("get_reservation_details", i as u64)
            });
            assert_eq!(find_in(&cfg, &t), None, "issuing the batch");
        }
        for id in ids {
            t.record_result("get_reservation_details", true, 5, "[]", Some(id));
            assert_eq!(find_in(&cfg, &t), None, "while its results come in");
        }
        assert!(t.recent.iter().all(|c| c.step == 1));
        // Without call ids, results pair with calls in the order issued.
        let mut t = ToolTurn::default();
        for i in 0..3 {
            t.record_call(call("get_order_details", i));
        }
        for r in ["a", "b", "c"] {
            t.record_result("get_order_details", true, 5, r, None);
        }
        let gists: Vec<Option<u64>> = t.recent.iter().map(|c| c.gist).collect();
        assert_eq!(gists[0], Some(gist::gist(true, "a")));
        assert_eq!(gists[2], Some(gist::gist(true, "c")));
    }

    #[test]
    fn batches_of_misses_count_as_one_step_each() {
        let cfg = Config::default();
        let mut t = ToolTurn::default();
        let mut level = Vec::new();
        for step in 0..5u64 {
            for i in 0..4 {
                t.record_call(call("search_orders", step * 10 + i));
            }
            for _ in 0..4 {
                t.record_result("search_orders", true, 5, "[]", None);
            }
            level.push(find_in(&cfg, &t).map(|f| (f.0, f.2)));
        }
        assert_eq!(
            level,
            [
                None,
                None,
                Some((Level::Nudge, 3)),
                Some((Level::Nudge, 4)),
                Some((Level::Halt, 5))
            ]
        );
    }

    #[test]
    fn writes_with_empty_output_are_progress() {
        let cfg = Config::default();
        let mut t = ToolTurn::default();
        for i in 0..6 {
            t.record_call(NewCall {
                effect: Effect::Write,
                ..call("bash", i)
            });
            t.record_result("bash", true, 5, "", None);
        }
        assert_eq!(find_in(&cfg, &t), None);
        assert!(t.recent.iter().all(|c| !c.empty));
    }

    #[test]
    fn items_a_result_listed_are_answers_even_when_empty() {
        let cfg = Config::default();
        let mut t = ToolTurn::default();
        t.record_call(call("list_products", 0));
        t.record_result(
            "list_products",
            true,
            5,
            r#"["P-301","P-302","P-305","P-309","P-311","P-314"]"#,
            None,
        );
        for (i, p) in ["P-301", "P-302", "P-305", "P-309", "P-311", "P-314"]
            .iter()
            .enumerate()
        {
            let names = [gist::name_hash(p)];
            t.record_call(NewCall {
                names: &names,
                ..call("get_reviews", i as u64)
            });
            t.record_result("get_reviews", true, 5, "[]", None);
        }
        assert!(t.recent.iter().skip(1).all(|c| c.listed));
        assert_eq!(find_in(&cfg, &t), None);
        // Guessed ids that all miss are still a loop.
        let guesses: Vec<Call<'_>> = (0..6)
            .map(|i| ("get_order", i, false, Some("Error: order not found")))
            .collect();
        assert_eq!(find(&cfg, &guesses).map(|f| f.0), Some(Level::Halt));
    }

    #[test]
    fn a_rerun_identical_to_the_last_runs_is_no_progress_whatever_came_before() {
        let cfg = Config::default();
        let calls = [
            ("bash", 9, true, Some("FAILED: 3 errors")),
            ("edit_file", 1, true, Some("")),
            ("bash", 9, true, Some("FAILED: 1 error at 0x7f001a2b")),
            ("edit_file", 2, true, Some("")),
            ("bash", 9, true, Some("FAILED: 1 error at 0x7f00ffee")),
            ("edit_file", 3, true, Some("")),
            ("bash", 9, true, Some("FAILED: 1 error at 0x7f001234")),
        ];
        assert_eq!(
            find(&cfg, &calls),
            Some((Level::Nudge, LoopPattern::PollingNoChange, 3))
        );
        assert_eq!(find(&cfg, &calls[..5]), None);
    }

    #[test]
    fn a_repeated_action_halts_at_the_second_success_whatever_ids_it_returns() {
        let cfg = Config::default();
        let calls = [
            (
                "send_certificate",
                4,
                true,
                Some(r#"{"certificate_id":"cert_9f3k2"}"#),
            ),
            (
                "send_certificate",
                4,
                true,
                Some(r#"{"certificate_id":"cert_1x8p0"}"#),
            ),
        ];
        assert_eq!(
            find(&cfg, &calls),
            Some((Level::Halt, LoopPattern::RepeatedSideEffect, 2))
        );
        assert_eq!(find(&cfg, &calls[..1]), None);
        let retry = [
            ("send_certificate", 4, false, Some("Error: timeout")),
            ("send_certificate", 4, true, Some("sent")),
        ];
        assert_eq!(
            find(&cfg, &retry),
            None,
            "a failed try then a success is a retry"
        );
    }

    #[test]
    fn an_action_that_went_through_then_is_refused_twice_halts() {
        let cfg = Config::default();
        let booked = [
            (
                "book_reservation",
                1,
                true,
                Some("{\"reservation_id\": \"HATHAV\"}"),
            ),
            (
                "book_reservation",
                2,
                false,
                Some("Error: Too many reservations"),
            ),
        ];
        assert_eq!(find(&cfg, &booked), None);
        let mut again = booked.to_vec();
        again.push((
            "book_reservation",
            2,
            false,
            Some("Error: Too many reservations"),
        ));
        assert_eq!(
            find(&cfg, &again),
            Some((Level::Halt, LoopPattern::FailureStreak, 2))
        );
        let never_booked = [
            (
                "book_reservation",
                2,
                false,
                Some("Error: Not enough seats"),
            ),
            (
                "book_reservation",
                3,
                false,
                Some("Error: Not enough seats"),
            ),
        ];
        assert_eq!(
            find(&cfg, &never_booked),
            None,
            "no earlier success: a plain streak"
        );
    }

    #[test]
    fn a_nudge_the_agent_keeps_going_past_becomes_a_halt() {
        let cfg = Config::default();
        let mut t = ToolTurn::default();
        let mut seen = Vec::new();
        for i in 0..6 {
            t.record_call(call(["a", "b"][i % 2], i as u64));
            t.record_result(["a", "b"][i % 2], false, 5, "boom", None);
            let raw = Fingerprint { cfg: &cfg, turn: 1 }.raw(&t, &EarlierCalls::default());
            t.note_step(raw.as_ref().map(|f| f.level));
            seen.push(find_in(&cfg, &t).map(|f| f.0));
        }
        assert_eq!(
            seen,
            [
                None,
                None,
                Some(Level::Nudge),
                Some(Level::Nudge),
                Some(Level::Halt),
                Some(Level::Halt)
            ],
            "a failure streak nudges at 3 and, ignored for three steps, halts at 5 (not 6)"
        );
        let patient = Config {
            tool_nudge_patience: 0,
            ..Config::default()
        };
        assert_eq!(
            find_in(&patient, &t).map(|f| f.0),
            Some(Level::Halt),
            "6 halts anyway"
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
    fn repeats_of_earlier_turns_count_toward_the_ladder() {
        let cfg = Config::default();
        let first = turn(&[("get_user", 5, true, Some("{\"name\":\"Ann\"}"))]);
        let mut earlier = EarlierCalls::default();
        earlier.remember(first.last().unwrap(), 1);
        let mut t = first.next_turn();
        t.record_call(call("get_user", 5));
        t.record_result("get_user", true, 5, "{\"name\":\"Ann\"}", None);
        assert!(
            detect_loop(&cfg, &t, &earlier, 2).is_none(),
            "reading again once in a later turn is fine"
        );
        t.record_call(call("get_user", 5));
        t.record_result("get_user", true, 5, "{\"name\":\"Ann\"}", None);
        let f = detect_loop(&cfg, &t, &earlier, 2).unwrap();
        assert_eq!(
            (f.level, f.pattern, f.count),
            (Level::Nudge, LoopPattern::CrossTurnDuplicate, 3)
        );
        // An action repeated in a later turn halts at once.
        let sent = turn(&[("send_email", 8, true, Some("{\"id\":\"msg-3f1a\"}"))]);
        earlier.remember(sent.last().unwrap(), 1);
        let mut t = sent.next_turn();
        t.record_call(call("send_email", 8));
        t.record_result("send_email", true, 5, "{\"id\":\"msg-77b2\"}", None);
        let f = detect_loop(&cfg, &t, &earlier, 2).unwrap();
        assert_eq!(
            (f.level, f.pattern),
            (Level::Halt, LoopPattern::RepeatedSideEffect)
        );
    }

    #[test]
    fn nothing_found_in_its_usual_spellings() {
        for t in [
            "",
            " [] ",
            "{}",
            "null",
            "None",
            "No results.",
            "(no matches)",
            "0 results found",
            "Not found",
            "\"\"",
            "No matches found.",
        ] {
            assert!(is_empty_result(true, t), "{t:?}");
        }
        for t in [
            "[1]",
            "nothing to commit, working tree clean",
            "found 3",
            "ok",
            "0",
        ] {
            assert!(!is_empty_result(true, t), "{t:?}");
        }
        assert!(is_empty_result(false, "anything"));
    }

    #[test]
    fn history_is_bounded_and_results_pair_by_call_id() {
        let mut t = ToolTurn::default();
        for i in 0..10_000u64 {
            t.record_call(call("poll", i));
        }
        assert_eq!(t.recent.len(), RECENT_CALLS);
        assert_eq!(t.run_len, 10_000);
        let mut t = ToolTurn::default();
        t.record_call(NewCall {
            call_id: Some("c1"),
            ..call("a", 0)
        });
        t.record_call(NewCall {
            call_id: Some("c2"),
            ..call("a", 0)
        });
        t.record_result("a", false, 120, "boom", Some("c1"));
        t.record_result("zzz", true, 30, "", None);
        assert_eq!(t.recent[0].ok, Some(false));
        assert!(t.recent[0].empty);
        assert_eq!(t.recent[1].ok, None);
        assert_eq!((t.results, t.failures, t.duration_ms), (2, 1, 150));
        let mut e = EarlierCalls::default();
        let c = t.recent[0].clone();
        for i in 0..1000 {
            e.remember(&c, i);
        }
        assert_eq!(e.0.len(), DONE_CALLS);
        let mut t = ToolTurn::default();
        for i in 0..100 {
            let text: String = (0..50).map(|j| format!("ID_{i}_{j} ")).collect();
            t.record_result("x", true, 0, &text, None);
        }
        assert!(t.listed.len() <= 2 * LISTED_NAMES && t.listed.len() > LISTED_NAMES);
        assert!(t.listed.is_valid());
        assert!(
            t.listed.contains(gist::name_hash("ID_99_49")),
            "the newest are kept"
        );
        assert!(
            !t.listed.contains(gist::name_hash("ID_0_0")),
            "the oldest are not"
        );
    }
}
