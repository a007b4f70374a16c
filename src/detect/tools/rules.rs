//! The tool-loop rules: pure functions of the turn's settled calls (and of
//! the successful calls of earlier turns).

use crate::config::{Config, ToolLoopRule};
use crate::decision::LoopPattern;

use super::{CallRecord, EarlierCalls, Effect, ToolTurn};

/// Longest cycle looked for (A,B,A,B is 2; A,B,C,A,B,C is 3).
const MAX_PERIOD: usize = 4;
/// Most steps between two repeats of a call that still make one loop
/// (edit, rerun: 2; edit, view, rerun: 3).
const MAX_GAP: u32 = 3;

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

/// A finding while the rules run: borrows the tool's name, so candidates
/// that lose cost no allocation.
#[derive(Clone, Copy)]
struct Hit<'c> {
    level: Level,
    pattern: LoopPattern,
    tool: &'c str,
    count: u64,
}

impl Hit<'_> {
    fn finding(self) -> Finding {
        Finding {
            level: self.level,
            pattern: self.pattern,
            tool_name: self.tool.to_string(),
            count: self.count,
        }
    }
}

/// A tool-loop rule: a pure function of the turn's tool history (and of the
/// successful calls of earlier turns).
pub trait LoopRule {
    fn detect(&self, turn: &ToolTurn, earlier: &EarlierCalls) -> Option<Finding>;
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

/// The default rule: identity by name + arguments, progress by results,
/// judged one settled step at a time.
pub struct Fingerprint<'a> {
    pub cfg: &'a Config,
    /// The current turn number (for repeats of earlier turns' calls).
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

    fn finding<'c>(&self, name: &'c str, count: u64, pattern: LoopPattern) -> Option<Hit<'c>> {
        let halt = self.halt_at(name);
        let nudge = u64::from(self.cfg.tool_nudge_threshold).min(halt);
        let level = if count >= halt {
            Level::Halt
        } else if count >= nudge {
            Level::Nudge
        } else {
            return None;
        };
        Some(Hit {
            level,
            pattern,
            tool: name,
            count,
        })
    }

    /// The same call (name + arguments) again and again, what it returns
    /// not changing. Counted back from `last` while the gist stays the same
    /// and the repeats come close together (at most `MAX_GAP` steps apart):
    /// an earlier run that said something else does not excuse three
    /// identical reruns now, and a re-check far apart is not a loop. The
    /// same call of earlier turns counts too, but one call per turn never
    /// halts: that is as often the user asking to check again.
    fn identical<'c>(
        &self,
        calls: &[&'c CallRecord],
        last: &'c CallRecord,
        earlier: &EarlierCalls,
    ) -> Option<Hit<'c>> {
        let mut count = 0u64;
        let mut answered = 0u64;
        let mut broke = false;
        let mut step = last.step;
        for c in calls.iter().rev().filter(|c| c.key == last.key) {
            if c.gist != last.gist || step.saturating_sub(c.step) > MAX_GAP {
                broke = true;
                break;
            }
            step = c.step;
            count += 1;
            answered += u64::from(c.returned());
        }
        let here = count;
        let mut across = false;
        if !broke && last.returned() {
            for d in earlier.before(last.key, self.turn) {
                if d.gist != last.gist {
                    break;
                }
                count += 1;
                across = true;
            }
        }
        let pattern = if across {
            LoopPattern::CrossTurnDuplicate
        } else if answered == 0 {
            LoopPattern::IdenticalCall
        } else {
            LoopPattern::PollingNoChange
        };
        let mut found = self.finding(&last.name, count, pattern)?;
        if here < 2 {
            found.level = Level::Nudge;
        }
        Some(found)
    }

    /// An action (send, book, pay…) that succeeded again with the same
    /// arguments: its effect happened twice. Halts at once.
    fn repeated_effect<'c>(
        &self,
        calls: &[&'c CallRecord],
        last: &'c CallRecord,
        earlier: &EarlierCalls,
    ) -> Option<Hit<'c>> {
        if last.effect != Effect::Action || last.ok != Some(true) {
            return None;
        }
        let done = |c: &&&CallRecord| c.key == last.key && c.ok == Some(true);
        let here = calls.iter().filter(done).count() as u64;
        let before = earlier
            .before(last.key, self.turn)
            .filter(|d| d.effect == Effect::Action && !d.failed)
            .count() as u64;
        let count = here + before;
        (count >= 2).then_some(Hit {
            level: Level::Halt,
            pattern: LoopPattern::RepeatedSideEffect,
            tool: &last.name,
            count,
        })
    }

    /// A trailing run of steps that call one tool with tweaked arguments and
    /// learn nothing: every result failing or empty (an empty result for an
    /// item an earlier result listed is an answer, not a miss), or the same
    /// long result whatever the arguments. Counted in steps: a parallel
    /// batch is one.
    fn no_progress<'c>(&self, steps: &[&[&'c CallRecord]]) -> Option<Hit<'c>> {
        let last = steps.last()?;
        let name = &last.first()?.name;
        let len = steps
            .iter()
            .rev()
            .take_while(|s| s.iter().all(|c| &c.name == name))
            .count();
        let run = steps.get(steps.len() - len..).unwrap_or(&[]);
        let calls = || run.iter().flat_map(|s| s.iter());
        if calls().any(|c| c.changed() || !c.returned()) {
            return None;
        }
        let learned_nothing = |c: &&&CallRecord| c.blank() && !(c.listed && c.ok == Some(true));
        let all_blank = calls().all(|c| learned_nothing(&c));
        let first = calls().next()?;
        let args_ignored = calls().all(|c| c.long && c.result == first.result)
            && calls().any(|c| c.key != first.key);
        if !(all_blank || args_ignored) {
            return None;
        }
        self.finding(name, run.len() as u64, LoopPattern::NoProgress)
    }

    /// A,B,A,B… or A,B,C,A,B,C… with nothing new coming back.
    fn cycle<'c>(&self, calls: &[&'c CallRecord]) -> Option<Hit<'c>> {
        let n = calls.len();
        let key = |i: usize| calls.get(i).map(|c| c.key);
        for period in 2..=MAX_PERIOD {
            if n < 2 * period {
                continue;
            }
            // Length of the periodic tail: extend while each key equals the
            // one a period later.
            let mut len = period;
            while len < n && key(n - 1 - len) == key(n - 1 - len + period) {
                len += 1;
            }
            let Some(tail) = calls.get(n - len..) else {
                continue;
            };
            let first = tail.first()?.key;
            if tail.iter().take(period).all(|c| c.key == first) {
                continue; // a single repeated call is `identical`
            }
            // Each call in the cycle must keep returning the same thing: a
            // call and its repeat a period later said the same.
            let changing = tail
                .iter()
                .zip(tail.iter().skip(period))
                .any(|(a, b)| a.gist != b.gist);
            let cycles = (len / period) as u64;
            if !changing && cycles >= 2 {
                // Count full cycles; the ladder starts at 2 and halts at 3.
                let level = if cycles >= 3 {
                    Level::Halt
                } else {
                    Level::Nudge
                };
                return Some(Hit {
                    level,
                    pattern: LoopPattern::Cycle,
                    tool: &calls.last()?.name,
                    count: cycles,
                });
            }
        }
        None
    }

    /// Consecutive failures, whatever the tool, that keep saying the same
    /// thing: counted are those of the trailing streak whose error matches
    /// the last one. Failures that each say something new (a reproduction
    /// script failing as designed, then a different traceback) are the
    /// agent learning, not a streak.
    fn failure_streak<'c>(&self, calls: &[&'c CallRecord]) -> Option<Hit<'c>> {
        let last = calls.last()?;
        let streak = calls
            .iter()
            .rev()
            .take_while(|c| c.ok == Some(false))
            .filter(|c| c.gist == last.gist)
            .count() as u64;
        let halt = u64::from(self.cfg.tool_failure_streak);
        // An action that already went through, tried again and refused twice
        // the same way ("Too many reservations"): the first try did the job,
        // or the agent is duplicating it. Stop now rather than at `halt`.
        let redo = last.effect == Effect::Action
            && streak >= 2
            && calls
                .iter()
                .any(|c| c.name == last.name && c.ok == Some(true));
        let level = if streak >= halt || redo {
            Level::Halt
        } else if streak >= halt.div_ceil(2).max(2) {
            Level::Nudge
        } else {
            return None;
        };
        Some(Hit {
            level,
            pattern: LoopPattern::FailureStreak,
            tool: &last.name,
            count: streak,
        })
    }
}

/// Keeps the stronger of two findings; on a tie the newer.
fn keep<'c>(best: &mut Option<Hit<'c>>, h: Option<Hit<'c>>) {
    if let Some(h) = h
        && best.is_none_or(|b| (h.level, h.count) >= (b.level, b.count))
    {
        *best = Some(h);
    }
}

/// Splits calls (in order) into their steps.
fn steps<'c, 'r>(calls: &'c [&'r CallRecord]) -> Vec<&'c [&'r CallRecord]> {
    let mut out = Vec::new();
    let mut rest = calls;
    while let Some(first) = rest.first() {
        let n = rest
            .iter()
            .position(|c| c.step != first.step)
            .unwrap_or(rest.len());
        let (step, tail) = rest.split_at(n);
        out.push(step);
        rest = tail;
    }
    out
}

impl LoopRule for Fingerprint<'_> {
    fn detect(&self, turn: &ToolTurn, earlier: &EarlierCalls) -> Option<Finding> {
        self.escalate(turn, self.raw(turn, earlier)?)
    }
}

impl Fingerprint<'_> {
    /// A nudge the agent kept going past for `toolNudgePatience` settled
    /// steps becomes a halt.
    pub fn escalate(&self, turn: &ToolTurn, found: Finding) -> Option<Finding> {
        let patience = self.cfg.tool_nudge_patience;
        if found.level == Level::Nudge && patience > 0 && turn.nudged_steps >= patience {
            return Some(Finding {
                level: Level::Halt,
                ..found
            });
        }
        Some(found)
    }
}

impl Fingerprint<'_> {
    /// The strongest finding on the settled calls, before escalation.
    pub fn raw(&self, turn: &ToolTurn, earlier: &EarlierCalls) -> Option<Finding> {
        let calls = turn.settled(|c| !self.exempt(&c.name));
        let steps = steps(&calls);
        let last = steps.last()?;
        // Strongest finding wins; on a tie the more specific pattern (later
        // in this list) does.
        let mut best = None;
        keep(&mut best, self.failure_streak(&calls));
        keep(&mut best, self.no_progress(&steps));
        keep(&mut best, self.cycle(&calls));
        for c in last.iter() {
            keep(&mut best, self.identical(&calls, c, earlier));
            keep(&mut best, self.repeated_effect(&calls, c, earlier));
        }
        best.map(Hit::finding)
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
