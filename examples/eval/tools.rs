//! Tool-loop sequences: does the regulator nudge or halt where a careful
//! operator would, and stay quiet on legitimate work?

use serde::Deserialize;
use serde_json::Value;

use reins::{Config, DecisionKind, EventRef, Regulator, ToolLoopRule};

use super::metrics::{Table, report};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub category: String,
    pub label: String,
    pub turns: Vec<Vec<Call>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub name: String,
    #[serde(default)]
    pub args: Option<Value>,
    pub ok: bool,
    #[serde(default)]
    pub result: Option<String>,
}

/// 0 = quiet, 1 = nudge, 2 = halt: the strongest tool verdict seen at any point.
fn strongest(case: &Case, config: &Config) -> u8 {
    let mut r = Regulator::new("eval", config.clone()).expect("valid config");
    let mut level = 0;
    for (t, calls) in case.turns.iter().enumerate() {
        let _ = r.turn_start(&format!("turn {t} of {}", case.id), Some(t as u64 * 60_000));
        for (i, c) in calls.iter().enumerate() {
            let id = format!("c{t}-{i}");
            let _ = r.apply(EventRef::ToolCall {
                name: &c.name,
                args: c.args.as_ref().map(reins::Args::Value),
                call_id: Some(&id),
                effect: None,
                at_ms: None,
            });
            let text = c.result.as_deref().unwrap_or("");
            let _ = r.apply(EventRef::ToolResult {
                name: &c.name,
                ok: c.ok,
                duration_ms: 10,
                error: None,
                result: Some(text),
                call_id: Some(&id),
                at_ms: None,
            });
            let d = r.decide();
            let halted = d.concerns.iter().any(|v| {
                matches!(
                    v,
                    reins::Verdict::CircuitBreak {
                        reason: reins::BreakReason::ToolLoop { .. },
                        ..
                    }
                )
            });
            level = level.max(if halted {
                2
            } else if d.has(DecisionKind::ToolNudge) {
                1
            } else {
                0
            });
        }
    }
    level
}

pub fn evaluate(cases: &[Case]) -> String {
    let reference = Config {
        tool_loop_rule: ToolLoopRule::ConsecutiveSameTool,
        ..Config::default()
    };
    let ours_cfg = Config::default();
    // Any intervention (nudge or halt) where one was wanted.
    let (mut ours, mut base) = (Table::default(), Table::default());
    // Halts only: a halt is wanted exactly on `halt` cases.
    let (mut ours_halt, mut base_halt) = (Table::default(), Table::default());
    let mut wrong = Vec::new();
    for c in cases {
        let wants_flag = c.label != "ok";
        let wants_halt = c.label == "halt";
        let (o, b) = (strongest(c, &ours_cfg), strongest(c, &reference));
        if (o >= 1) != wants_flag || (o == 2) != wants_halt {
            wrong.push(format!(
                "{} ({} → {})",
                c.id,
                c.label,
                ["quiet", "nudge", "halt"][usize::from(o.min(2))]
            ));
        }
        ours.add(&c.category, wants_flag, o >= 1);
        base.add(&c.category, wants_flag, b >= 1);
        ours_halt.add(&c.category, wants_halt, o == 2);
        base_halt.add(&c.category, wants_halt, b == 2);
    }
    let mut out = report(
        &format!("Tool loops ({} sequences)", cases.len()),
        "a nudge or a halt on a sequence labelled nudge or halt",
        &ours,
        &base,
    );
    out += &report(
        "Tool loops, halts only",
        "a halt on a sequence labelled halt",
        &ours_halt,
        &base_halt,
    );
    out += &format!(
        "\nreins disagreed with the label on: {}\n",
        wrong.join(", ")
    );
    out
}
