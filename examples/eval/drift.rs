//! Scope-drift pairs: does the regulator warn where a careful reviewer would
//! want the app told, and stay quiet on verbose, paraphrased or short answers?

use serde::Deserialize;
use serde_json::Value;

use reins::{Config, DecisionKind, EventRef, Regulator};

use super::baseline::noos_drifts;
use super::metrics::{Table, report};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub lang: String,
    pub category: String,
    pub task: String,
    pub response: String,
    pub label: String,
    #[serde(default)]
    pub history: Vec<String>,
    #[serde(default)]
    pub tools: Vec<ToolUse>,
    #[serde(default)]
    pub glossary: Vec<String>,
    #[serde(default)]
    pub expected_tokens: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolUse {
    pub name: String,
    #[serde(default)]
    pub args: Option<Value>,
    #[serde(default)]
    pub result: String,
}

/// Whether reins warns, and the words it lists; with `REINS_EVAL_VERBOSE` set,
/// prints each wrongly judged case with the score and cause.
fn reins_drifts(c: &Case) -> (bool, Vec<String>) {
    let cfg = Config {
        glossary: c.glossary.clone(),
        ..Config::default()
    };
    let mut r = Regulator::new("eval", cfg).expect("valid config");
    let mut at = 0;
    for h in &c.history {
        let _ = r.turn_start(h, Some(at));
        at += 60_000;
    }
    let _ = r.turn_start(&c.task, Some(at));
    for t in &c.tools {
        let _ = r.apply(EventRef::ToolCall {
            name: &t.name,
            args: t.args.as_ref().map(reins::Args::Value),
            call_id: None,
            effect: None,
            at_ms: None,
        });
        let _ = r.apply(EventRef::ToolResult {
            name: &t.name,
            ok: true,
            duration_ms: 10,
            error: None,
            result: Some(&t.result),
            call_id: None,
            at_ms: None,
        });
    }
    let _ = r.turn_complete(&c.response, Some(at + 1000));
    let d = r.decide();
    let tokens = d
        .concerns
        .iter()
        .find_map(|v| match v {
            reins::Verdict::ScopeDrift { drift_tokens, .. } => Some(drift_tokens.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let warned = d.has(DecisionKind::ScopeDrift);
    if std::env::var_os("REINS_EVAL_TOKENS").is_some() && warned && c.label == "drift" {
        eprintln!(
            "{} {:?} listed {:?} expected {:?}",
            c.id, c.category, &tokens, c.expected_tokens
        );
    }
    if std::env::var_os("REINS_EVAL_VERBOSE").is_some() && warned != (c.label == "drift") {
        let cause = d.concerns.iter().find_map(|v| match v {
            reins::Verdict::ScopeDrift { cause, .. } => Some(format!("{cause:?}")),
            _ => None,
        });
        eprintln!(
            "--- {} [{} {}] score {:.2} cause {:?} tokens {:?} expected {:?}\nTASK: {}\nRESP: {}\n",
            c.id,
            c.category,
            c.label,
            r.drift_score().unwrap_or(f64::NAN),
            cause,
            tokens,
            c.expected_tokens,
            c.task,
            c.response.chars().take(700).collect::<String>()
        );
    }
    (warned, tokens)
}

pub fn evaluate(title: &str, cases: &[Case]) -> String {
    let (mut ours, mut base) = (Table::default(), Table::default());
    let (mut ours_lang, mut base_lang) = (Table::default(), Table::default());
    let mut wrong = Vec::new();
    // (listed words agreeing, listed words, cases with any agreement, cases,
    // cases whose first word agrees)
    let mut agree = (0usize, 0usize, 0usize, 0usize, 0usize);
    for c in cases {
        let truth = c.label == "drift";
        let ((o, tokens), b) = (reins_drifts(c), noos_drifts(&c.task, &c.response));
        // Token agreement: on warned drift cases, how many of the five words
        // listed first are among the words the labeller said were added.
        if o && truth && !c.expected_tokens.is_empty() {
            let top: Vec<String> = tokens.iter().take(5).map(|t| t.to_lowercase()).collect();
            agree.0 += top
                .iter()
                .filter(|t| c.expected_tokens.iter().any(|e| e.to_lowercase() == **t))
                .count();
            agree.1 += top.len();
            agree.2 += usize::from(
                top.iter()
                    .any(|t| c.expected_tokens.iter().any(|e| e.to_lowercase() == *t)),
            );
            agree.3 += 1;
            agree.4 += usize::from(
                top.first()
                    .is_some_and(|t| c.expected_tokens.iter().any(|e| e.to_lowercase() == *t)),
            );
        }
        if o != truth {
            wrong.push(c.id.as_str());
        }
        ours.add(&c.category, truth, o);
        base.add(&c.category, truth, b);
        ours_lang.add(&c.lang, truth, o);
        base_lang.add(&c.lang, truth, b);
    }
    let mut out = report(
        &format!("{title} ({} pairs)", cases.len()),
        "a drift warning on a pair labelled drift",
        &ours,
        &base,
    );
    out += &report(
        &format!("{title}, by language"),
        "as above",
        &ours_lang,
        &base_lang,
    );
    out += &format!(
        "\nDrift words: on {} correctly warned pairs, {} of the {} words listed first were among the labeller's \
         added words ({:.0}%); {} pairs ({:.0}%) had at least one, {} ({:.0}%) as the first word listed.\n",
        agree.3,
        agree.0,
        agree.1,
        100.0 * agree.0 as f64 / agree.1.max(1) as f64,
        agree.2,
        100.0 * agree.2 as f64 / agree.3.max(1) as f64,
        agree.4,
        100.0 * agree.4 as f64 / agree.3.max(1) as f64
    );
    out += &format!("\nreins got these wrong: {}\n", wrong.join(" "));
    out
}
