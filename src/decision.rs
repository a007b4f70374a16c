//! What `decide()` answers: the winning verdict plus every concern that fired.

use serde::{Deserialize, Serialize};

/// How a tool loop showed itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LoopPattern {
    /// The same tool name, called again and again in a row (the reference
    /// rule, or the fallback when no results are reported).
    SameTool,
    /// The same name and arguments, repeatedly, results not reported.
    IdenticalCall,
    /// The same name and arguments, returning the same result each time.
    PollingNoChange,
    /// One tool with tweaked arguments, results empty, failing or unchanged.
    NoProgress,
    /// A,B,A,B… or A,B,C,A,B,C… with nothing new coming back.
    Cycle,
    /// Calls failing one after another.
    FailureStreak,
    /// A call that already succeeded in an earlier turn, made again (and
    /// again) with the same result.
    CrossTurnDuplicate,
    /// An action (send, book, pay…) that succeeded again with the same
    /// arguments: its side effect happened twice.
    RepeatedSideEffect,
}

/// Why a circuit break fired: machine-readable, one variant per rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum BreakReason {
    /// Over the token or money budget, with poor or absent quality signal.
    CostCap {
        tokens_spent: u64,
        tokens_cap: u64,
        usd_spent: f64,
        usd_cap: Option<f64>,
        /// Mean of the newest quality samples; `None` when none were ever sent.
        mean_quality: Option<f64>,
        quality_samples: u32,
    },
    /// Quality fell by at least the configured delta across the window and stayed poor.
    QualityDecline {
        window: u32,
        delta: f64,
        mean_quality: f64,
    },
    /// The same task keeps failing: the user pushed back again and again on
    /// the topic (`evidenceTurns` empty), or the agent hit the same obstacle
    /// on consecutive turns (`evidenceTurns` are those turns, `obstacle` its
    /// words).
    RepeatedFailure {
        topic: String,
        failure_count: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        evidence_turns: Vec<u64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        obstacle: Vec<String>,
    },
    /// The agent is calling tools without making progress.
    ToolLoop {
        tool_name: String,
        count: u64,
        pattern: LoopPattern,
    },
}

/// A learned correction pattern for one topic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionPattern {
    pub topic: String,
    /// Correction records held for the topic.
    pub count: u32,
    /// `count / maxCorrectionsPerTopic`, at most 1.
    pub confidence: f64,
    /// The newest corrections, newest first.
    pub examples: Vec<String>,
}

/// One predicate's answer. `Continue` only ever appears as the winner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Verdict {
    Continue,
    /// Halt: the loop is burning budget or going nowhere.
    CircuitBreak {
        reason: BreakReason,
        suggestion: String,
    },
    /// The user is repeatedly unhappy: pushback on several recent turns.
    Incident {
        evidence_turns: Vec<u64>,
        markers: Vec<String>,
        summary: String,
        topic: String,
        lexicon_version: String,
    },
    /// The agent's tool use looks like the start of a loop: tell it before
    /// the circuit break.
    ToolNudge {
        tool_name: String,
        count: u64,
        pattern: LoopPattern,
        suggestion: String,
    },
    /// The response wandered from what was asked.
    ScopeDrift {
        cause: crate::detect::drift::Cause,
        drift_score: f64,
        /// What to point at, most telling first; a count, a language or an
        /// amount comes first as a verdict ("5 items, asked for 3").
        drift_tokens: Vec<String>,
        task_tokens: Vec<String>,
    },
    /// This user has corrected answers on this topic before.
    Procedural {
        patterns: Vec<CorrectionPattern>,
    },
}

/// The kinds, in priority order (highest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DecisionKind {
    CircuitBreak,
    Incident,
    ToolNudge,
    ScopeDrift,
    Procedural,
    Continue,
}

impl Verdict {
    pub fn kind(&self) -> DecisionKind {
        match self {
            Verdict::Continue => DecisionKind::Continue,
            Verdict::CircuitBreak { .. } => DecisionKind::CircuitBreak,
            Verdict::Incident { .. } => DecisionKind::Incident,
            Verdict::ToolNudge { .. } => DecisionKind::ToolNudge,
            Verdict::ScopeDrift { .. } => DecisionKind::ScopeDrift,
            Verdict::Procedural { .. } => DecisionKind::Procedural,
        }
    }
}

/// The answer to one `decide()`: `verdict` is the highest-priority concern
/// (or `Continue`), `concerns` lists every one that fired, winner first, so an
/// app never loses a procedural warning because drift won.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    #[serde(flatten)]
    pub verdict: Verdict,
    pub concerns: Vec<Verdict>,
}

impl Decision {
    /// Builds a decision from concerns already in priority order.
    pub(crate) fn from_concerns(concerns: Vec<Verdict>) -> Self {
        let verdict = concerns.first().cloned().unwrap_or(Verdict::Continue);
        Self { verdict, concerns }
    }

    pub fn kind(&self) -> DecisionKind {
        self.verdict.kind()
    }

    pub fn is_continue(&self) -> bool {
        matches!(self.verdict, Verdict::Continue)
    }

    /// The break reason when the decision is a circuit break.
    pub fn break_reason(&self) -> Option<&BreakReason> {
        match &self.verdict {
            Verdict::CircuitBreak { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// Whether any concern (not only the winner) is of this kind.
    pub fn has(&self, kind: DecisionKind) -> bool {
        self.concerns.iter().any(|c| c.kind() == kind)
    }
}

/// Short human advice for each halt, written for the agent's operator.
pub(crate) fn suggestion(reason: &BreakReason) -> String {
    match reason {
        BreakReason::CostCap { mean_quality: None, .. } => {
            "The budget is spent and nothing says the work is going well. Stop, show the user what you have, and ask before spending more.".into()
        }
        BreakReason::CostCap { .. } => {
            "The budget is spent while recent answers were rated poorly. Stop and ask the user to narrow the task or drop it.".into()
        }
        BreakReason::QualityDecline { .. } => {
            "Answer quality keeps falling. Change approach: simplify the task, re-plan, or ask the user what they need.".into()
        }
        BreakReason::RepeatedFailure {
            failure_count,
            obstacle,
            ..
        } if !obstacle.is_empty() => format!(
            "The same obstacle ({}) stopped the task {failure_count} turns running. Stop retrying: tell the user what blocks it and what they can do.",
            obstacle.join(" ")
        ),
        BreakReason::RepeatedFailure { topic, failure_count, .. } => format!(
            "The user has pushed back on \"{topic}\" {failure_count} times. Stop retrying: ask what they want, or hand over to a person."
        ),
        BreakReason::ToolLoop { tool_name, count, pattern } => format!(
            "{} Stop calling it: try another approach, ask the user, or report the task as unresolved.",
            loop_story(tool_name, *count, *pattern)
        ),
    }
}

/// One sentence on what the tool loop looks like.
fn loop_story(tool: &str, count: u64, pattern: LoopPattern) -> String {
    match pattern {
        LoopPattern::SameTool => format!("`{tool}` was called {count} times in a row."),
        LoopPattern::IdenticalCall => {
            format!("`{tool}` was called {count} times with the same arguments.")
        }
        LoopPattern::PollingNoChange => {
            format!(
                "`{tool}` was called {count} times with the same arguments and returned the same result each time."
            )
        }
        LoopPattern::NoProgress => {
            format!(
                "`{tool}` was called {count} times in a row and its results stayed empty, failing or unchanged."
            )
        }
        LoopPattern::Cycle => format!(
            "The agent went round the same cycle of tool calls {count} times ending at `{tool}`."
        ),
        LoopPattern::FailureStreak => {
            format!("{count} tool calls in a row failed (last: `{tool}`).")
        }
        LoopPattern::CrossTurnDuplicate => format!(
            "`{tool}` was called {count} times with the same arguments, in this turn and earlier ones, and returned the same result."
        ),
        LoopPattern::RepeatedSideEffect => format!(
            "`{tool}` succeeded {count} times with the same arguments: each call repeated its effect."
        ),
    }
}

/// Advice for a nudge: the agent can still recover by itself.
pub(crate) fn nudge_suggestion(tool: &str, count: u64, pattern: LoopPattern) -> String {
    let hint = match pattern {
        LoopPattern::CrossTurnDuplicate => "Reuse the earlier result instead of calling it again.",
        LoopPattern::FailureStreak => {
            "Check the error before retrying; change the approach if it repeats."
        }
        _ => "Use what it already returned, or change approach before calling it again.",
    };
    format!("{} {hint}", loop_story(tool, count, pattern))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_serialises_as_a_bare_kind_with_no_concerns() {
        let d = Decision::from_concerns(vec![]);
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"kind":"continue","concerns":[]}"#
        );
        assert!(d.is_continue());
    }

    #[test]
    fn winner_fields_sit_beside_the_full_concern_list() {
        let reason = BreakReason::ToolLoop {
            tool_name: "search".into(),
            count: 5,
            pattern: LoopPattern::SameTool,
        };
        let d = Decision::from_concerns(vec![
            Verdict::CircuitBreak {
                suggestion: suggestion(&reason),
                reason,
            },
            Verdict::ScopeDrift {
                cause: crate::detect::drift::Cause::Additions,
                drift_score: 1.0,
                drift_tokens: vec!["logging".into()],
                task_tokens: vec![],
            },
        ]);
        let v: serde_json::Value = serde_json::to_value(&d).unwrap();
        assert_eq!(v["kind"], "circuitBreak");
        assert_eq!(v["reason"]["kind"], "toolLoop");
        assert_eq!(v["reason"]["toolName"], "search");
        assert_eq!(v["reason"]["pattern"], "sameTool");
        assert_eq!(v["concerns"][1]["kind"], "scopeDrift");
        assert_eq!(v["concerns"][1]["driftTokens"][0], "logging");
        let back: Decision = serde_json::from_value(v).unwrap();
        assert_eq!(back, d);
        assert!(d.has(DecisionKind::ScopeDrift));
        assert!(!d.has(DecisionKind::Procedural));
    }
}
