//! User messages: pushback on the previous answer, and explicit preferences.
//! reins has no marker detector yet; the reference lexicons (spool) are
//! measured so the baseline is on record.

use serde::Deserialize;

use super::baseline::{spool_preference, spool_pushback};
use super::metrics::{Table, report_named};

#[derive(Deserialize)]
pub struct Case {
    #[allow(dead_code)]
    pub id: String,
    pub lang: String,
    pub category: String,
    pub label: String,
    pub text: String,
}

pub fn evaluate(cases: &[Case]) -> String {
    let (mut push, mut pref, mut push_lang) =
        (Table::default(), Table::default(), Table::default());
    for c in cases {
        push.add(&c.category, c.label == "pushback", spool_pushback(&c.text));
        push_lang.add(&c.lang, c.label == "pushback", spool_pushback(&c.text));
        pref.add(
            &c.category,
            c.label == "preference",
            spool_preference(&c.text),
        );
    }
    let lex = "reference lexicon (spool)";
    let mut out = format!(
        "\n## Frustration and preference markers ({} messages)\n\nreins: no marker detector yet (issue 4, next step); \
         the columns below show the reference lexicons only.\n",
        cases.len()
    );
    out += &report_named("Pushback", "a message labelled pushback", &[(lex, &push)]);
    out += &report_named("Pushback by language", "as above", &[(lex, &push_lang)]);
    out += &report_named(
        "Preferences",
        "a message labelled preference",
        &[("reference self-tags (spool)", &pref)],
    );
    out
}
