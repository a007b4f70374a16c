//! User messages: pushback on the previous answer (frustration or a
//! correction), and explicit standing preferences, in eight languages.

use serde::Deserialize;

use reins::detect::markers::analyze_after;

use super::baseline::{spool_preference, spool_pushback};
use super::metrics::{Table, report_named};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub lang: String,
    pub category: String,
    pub label: String,
    pub text: String,
    /// The answer the message replies to.
    #[serde(default)]
    pub previous: String,
}

pub fn evaluate(title: &str, cases: &[Case]) -> String {
    let (mut push, mut push_base, mut pref, mut pref_base) = (
        Table::default(),
        Table::default(),
        Table::default(),
        Table::default(),
    );
    let (mut lang, mut lang_base) = (Table::default(), Table::default());
    let mut wrong = Vec::new();
    for c in cases {
        let a = analyze_after(&c.text, &c.previous);
        let (p, q) = (!a.pushback.is_empty(), !a.preferences.is_empty());
        let (want_p, want_q) = (c.label == "pushback", c.label == "preference");
        push.add(&c.category, want_p, p);
        push_base.add(&c.category, want_p, spool_pushback(&c.text));
        lang.add(&c.lang, want_p, p);
        lang_base.add(&c.lang, want_p, spool_pushback(&c.text));
        pref.add(&c.category, want_q, q);
        pref_base.add(&c.category, want_q, spool_preference(&c.text));
        if p != want_p || q != want_q {
            wrong.push(c.id.as_str());
            if std::env::var_os("REINS_EVAL_VERBOSE").is_some() {
                let hits: Vec<_> = a.pushback.iter().map(|h| h.phrase).collect();
                eprintln!(
                    "{} [{}→{}] {:?} hits={hits:?} prefs={:?}\n    previous: {:?}",
                    c.id, c.category, c.label, c.text, a.preferences, c.previous
                );
            }
        }
    }
    let base = "reference lexicon (spool)";
    let mut out = format!("\n## {title} ({} messages)\n", cases.len());
    out += &report_named(
        "Pushback",
        "a message labelled pushback",
        &[("reins", &push), (base, &push_base)],
    );
    out += &report_named(
        "Pushback by language",
        "as above",
        &[("reins", &lang), (base, &lang_base)],
    );
    out += &report_named(
        "Preferences",
        "a message labelled preference",
        &[
            ("reins", &pref),
            ("reference self-tags (spool)", &pref_base),
        ],
    );
    out += &format!("\nreins got these wrong: {}\n", wrong.join(" "));
    out
}
