//! Whole sessions (`eval/GUIDELINE-sessions.md`): every call reins makes
//! over a session — halt and its reason, a learned correction pattern, an
//! incident — against the outcome labelled before any run, beside the
//! reference design's rules.

use serde::Deserialize;
use serde_json::Value;

use reins::{Config, Event, Regulator};

use super::baseline::{noos_keywords, spool_pushback};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub lang: String,
    #[allow(dead_code)]
    pub domain: String,
    pub cause: String,
    #[serde(default)]
    #[allow(dead_code)]
    pub note: String,
    pub events: Vec<Value>,
    pub expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    halt: Option<Halt>,
    pattern: Option<Pattern>,
    incident: Option<At>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Halt {
    reason: String,
    turn: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Pattern {
    about: Vec<String>,
    turn: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct At {
    turn: u64,
}

/// What a system did over a session: the first of each call, by turn.
#[derive(Default, Debug)]
pub struct Observed {
    halt: Option<(u64, String)>,
    /// The first learned pattern: its turn and its words (topic, examples).
    pattern: Option<(u64, String)>,
    incident: Option<u64>,
    /// Events reins refused.
    rejected: usize,
}

/// A call is right when it comes at the labelled turn or one later.
fn on_time(at: u64, want: u64) -> bool {
    (want..=want + 1).contains(&at)
}

struct Score {
    halt: bool,
    pattern: bool,
    incident: bool,
}

fn score(e: &Expect, o: &Observed) -> Score {
    let halt = match (&e.halt, &o.halt) {
        (None, None) => true,
        (Some(w), Some((t, r))) => *r == w.reason && on_time(*t, w.turn),
        _ => false,
    };
    let pattern = match (&e.pattern, &o.pattern) {
        (None, None) => true,
        (Some(w), Some((t, text))) => {
            let text = text.to_lowercase();
            on_time(*t, w.turn) && w.about.iter().any(|a| text.contains(&a.to_lowercase()))
        }
        _ => false,
    };
    let incident = match (&e.incident, &o.incident) {
        (None, None) => true,
        (Some(w), Some(t)) => on_time(*t, w.turn),
        _ => false,
    };
    Score {
        halt,
        pattern,
        incident,
    }
}

/// reins with its defaults, deciding after every event.
pub fn observe_reins(case: &Case) -> Observed {
    let mut o = Observed::default();
    let Ok(mut r) = Regulator::new("eval", Config::default()) else {
        return o;
    };
    let mut turn = 0;
    for v in &case.events {
        if v["type"] == "turnStart" {
            turn += 1;
        }
        let ok = Event::from_json(&v.to_string()).and_then(|e| r.on_event(&e));
        if ok.is_err() {
            o.rejected += 1;
            continue;
        }
        let d = r.decide();
        let concerns = serde_json::to_value(&d.concerns).unwrap_or(Value::Null);
        for c in concerns.as_array().into_iter().flatten() {
            match c["kind"].as_str() {
                Some("circuitBreak") if o.halt.is_none() => {
                    let reason = c["reason"]["kind"].as_str().unwrap_or("?");
                    o.halt = Some((turn, reason.to_string()));
                }
                Some("incident") if o.incident.is_none() => o.incident = Some(turn),
                Some("procedural") if o.pattern.is_none() => {
                    o.pattern = Some((turn, c["patterns"].to_string()));
                }
                _ => {}
            }
        }
        if o.pattern.is_none()
            && let Some(rules) = learned(&r)
        {
            o.pattern = Some((turn, rules));
        }
    }
    o
}

/// The standing rules reins learned from corrections across requests, as
/// text; `None` when there are none.
fn learned(r: &Regulator) -> Option<String> {
    let rules: Vec<String> = r
        .learned_rules()
        .map(|l| format!("{} {}", l.about.join(" "), l.examples.join(" ")))
        .collect();
    (!rules.is_empty()).then(|| rules.join(" | "))
}

/// The reference design's rules over a session (noos 0.4.1 with its
/// defaults, spool's phrases for incidents): explicit corrections only,
/// filed under the two alphabetically first keywords of the turn's message;
/// a pattern at three on the current key; a tool loop at five consecutive
/// calls of one name; an incident at pushback phrases on two turns of six;
/// `repeatedFailure` never.
pub fn observe_reference(case: &Case) -> Observed {
    let mut o = Observed::default();
    let mut store: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let (mut turn, mut key, mut run, mut last_tool) = (0, String::new(), 0, String::new());
    let mut pushback_turns: Vec<u64> = Vec::new();
    for v in &case.events {
        match v["type"].as_str() {
            Some("turnStart") => {
                turn += 1;
                let msg = v["message"].as_str().unwrap_or("");
                let words = noos_keywords(msg);
                key = words.iter().take(2).cloned().collect::<Vec<_>>().join("+");
                (run, last_tool) = (0, String::new());
                if spool_pushback(msg) {
                    pushback_turns.retain(|t| turn - t < 6);
                    pushback_turns.push(turn);
                    if pushback_turns.len() >= 2 && o.incident.is_none() {
                        o.incident = Some(turn);
                    }
                }
            }
            Some("userCorrection")
                if v["correctsLast"].as_bool() != Some(false) && !key.is_empty() =>
            {
                let list = store.entry(key.clone()).or_default();
                list.push(v["message"].as_str().unwrap_or("").to_string());
            }
            Some("toolCall") => {
                let name = v["name"].as_str().unwrap_or("").to_string();
                run = if name == last_tool { run + 1 } else { 1 };
                last_tool = name;
                if run >= 5 && o.halt.is_none() {
                    o.halt = Some((turn, "toolLoop".into()));
                }
            }
            _ => {}
        }
        if o.pattern.is_none()
            && let Some(list) = store.get(&key).filter(|l| l.len() >= 3)
        {
            o.pattern = Some((turn, format!("{key} {}", list.join(" "))));
        }
    }
    o
}

#[derive(Default)]
struct Tally {
    n: usize,
    full: usize,
    halt: usize,
    pattern: usize,
    incident: usize,
}

impl Tally {
    fn add(&mut self, s: &Score) {
        self.n += 1;
        self.full += usize::from(s.halt && s.pattern && s.incident);
        self.halt += usize::from(s.halt);
        self.pattern += usize::from(s.pattern);
        self.incident += usize::from(s.incident);
    }

    fn row(&self, name: &str) -> String {
        let pct = |k: usize| 100.0 * k as f64 / self.n.max(1) as f64;
        format!(
            "| {name} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |\n",
            self.n,
            pct(self.full),
            pct(self.halt),
            pct(self.pattern),
            pct(self.incident)
        )
    }
}

pub fn evaluate(title: &str, cases: &[Case]) -> String {
    let mut by_cause: std::collections::BTreeMap<&str, (Tally, Tally)> = Default::default();
    let (mut all, mut all_ref, mut non_en) = (Tally::default(), Tally::default(), Tally::default());
    let (mut wrong, mut rejected) = (Vec::new(), 0);
    let verbose = std::env::var_os("REINS_EVAL_VERBOSE").is_some();
    for c in cases {
        let o = observe_reins(c);
        let s = score(&c.expect, &o);
        let reference = score(&c.expect, &observe_reference(c));
        rejected += o.rejected;
        all.add(&s);
        all_ref.add(&reference);
        if c.lang != "en" {
            non_en.add(&s);
        }
        let (t, t_ref) = by_cause.entry(c.cause.as_str()).or_default();
        t.add(&s);
        t_ref.add(&reference);
        if !(s.halt && s.pattern && s.incident) {
            let parts: Vec<&str> = [
                (s.halt, "halt"),
                (s.pattern, "pattern"),
                (s.incident, "incident"),
            ]
            .iter()
            .filter(|(ok, _)| !ok)
            .map(|(_, n)| *n)
            .collect();
            wrong.push(format!("{}({})", c.id, parts.join(",")));
            if verbose {
                eprintln!("{} [{}] {:?}", c.id, c.cause, o);
            }
        }
    }
    let head = "| sessions | n | fully right | halt (with reason) | pattern | incident |\n|---|---|---|---|---|---|\n";
    let mut out = format!("\n## {title} ({} sessions)\n\n{head}", cases.len());
    out += &all.row("reins");
    out += &all_ref.row("reference rules (noos 0.4.1, spool phrases)");
    out += &non_en.row("reins, not in English");
    out += &format!("\nBy cause (reins, then the reference rules):\n\n{head}");
    for (cause, (t, t_ref)) in &by_cause {
        out += &t.row(cause);
        out += &t_ref.row(&format!("{cause}, reference"));
    }
    if rejected > 0 {
        out += &format!("\nEvents reins refused: {rejected}\n");
    }
    out += &format!("\nreins got these wrong: {}\n", wrong.join(" "));
    out
}
