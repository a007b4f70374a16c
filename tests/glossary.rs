//! The app-supplied glossary anchors its terms for scope drift, from the
//! constructor, after `set_config`, and after an export/import round trip.
//! The answer here shares no word with its request, which warns only with
//! `drift_warn_threshold` set (the check is off by default).

mod common;

use common::*;
use reins::{Config, DecisionKind, Regulator};

const TASK: &str = "Update the welcome email for new customers.";
const ANSWER: &str = "Kestrel halyard tamarind quokka zephyr marmot: \
    kestrel halyard tamarind quokka zephyr marmot.";

fn unanchored() -> Config {
    Config {
        drift_warn_threshold: Some(0.85),
        ..Config::default()
    }
}

fn glossary() -> Config {
    Config {
        glossary: ["Kestrel", "halyard", "tamarind", "quokka zephyr", "marmot"]
            .map(String::from)
            .to_vec(),
        ..unanchored()
    }
}

fn drift_after_turn(r: &mut Regulator) -> bool {
    start(r, TASK);
    complete(r, ANSWER);
    r.decide().has(DecisionKind::ScopeDrift)
}

#[test]
fn without_a_glossary_the_answer_drifts() {
    assert!(drift_after_turn(&mut reg(unanchored())));
}

#[test]
fn an_answer_sharing_no_word_is_no_warning_by_default() {
    assert!(!drift_after_turn(&mut reg(Config::default())));
}

#[test]
fn glossary_terms_are_anchored_from_the_constructor() {
    assert!(!drift_after_turn(&mut reg(glossary())));
}

#[test]
fn glossary_terms_are_anchored_after_set_config() {
    let mut r = reg(unanchored());
    r.set_config(glossary()).unwrap();
    assert!(!drift_after_turn(&mut r));
    r.set_config(unanchored()).unwrap();
    assert!(
        drift_after_turn(&mut r),
        "removing the glossary removes the anchors"
    );
}

#[test]
fn glossary_terms_are_anchored_after_import() {
    let r = reg(glossary());
    let mut back = Regulator::import(&r.export()).unwrap();
    assert!(!drift_after_turn(&mut back));
}
