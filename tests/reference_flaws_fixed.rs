//! Each flaw the behaviour document lists for the reference design (§19),
//! shown fixed. Every test here fails on the reference behaviour.

mod common;

use common::*;
use reins::{BreakReason, Config, DecisionKind, Event, Regulator, Verdict};

#[test]
fn cost_cap_fires_without_any_quality_feedback() {
    // §19.1: the reference stays silent 10× over budget when the app never grades.
    let mut r = reg(Config {
        cost_cap_tokens: 1000,
        ..Config::default()
    });
    for _ in 0..10 {
        start(&mut r, "keep going");
        out_tokens(&mut r, 1000);
    }
    let Some(BreakReason::CostCap {
        mean_quality,
        quality_samples,
        ..
    }) = r.decide().break_reason().cloned()
    else {
        panic!("expected a cost break")
    };
    assert_eq!((mean_quality, quality_samples), (None, 0));
    let mut lenient = reg(Config {
        cost_cap_tokens: 1000,
        halt_over_cap_without_quality: false,
        ..Config::default()
    });
    out_tokens(&mut lenient, 5000);
    assert!(
        lenient.decide().is_continue(),
        "configurable back to the reference rule"
    );
}

#[test]
fn one_response_is_corrected_implicitly_once() {
    // §19.2: one response followed by three retries counted as three corrections.
    let mut r = reg(Config {
        implicit_correction_window_ms: Some(1000),
        ..Config::default()
    });
    start_at(&mut r, "Refactor fetch_user to be async", 0);
    complete_at(&mut r, "done", 10);
    for t in [20, 30, 40] {
        start_at(&mut r, "Refactor fetch_user to be async", t);
    }
    assert_eq!(r.metrics()["reins.implicit_corrections_count"], 1.0);
    assert_eq!(r.corrections().count(), 1);
}

#[test]
fn explicit_correction_upgrades_the_implicit_one_instead_of_double_counting() {
    // §18: an app emitting both double-counted.
    let mut r = reg(Config {
        implicit_correction_window_ms: Some(1000),
        ..Config::default()
    });
    start_at(&mut r, "Refactor fetch_user to be async", 0);
    complete_at(&mut r, "done, with logging", 10);
    start_at(&mut r, "Refactor fetch_user to be async, again", 20);
    r.on_event(&Event::UserCorrection {
        message: "no logging!".into(),
        corrects_last: true,
        at_ms: Some(21),
    })
    .unwrap();
    let recs: Vec<_> = r.corrections().collect();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].text, "no logging!");
    correction(&mut r, "and no metrics");
    assert_eq!(
        r.corrections().count(),
        2,
        "further explicit corrections still count"
    );
}

#[test]
fn correction_after_a_new_turn_start_files_under_the_corrected_answer() {
    // §3.5 / §19.14: the reference files it under the correction message's own topic.
    let mut r = reg(Config::default());
    start(&mut r, "Refactor fetch_user to be async");
    complete(&mut r, "Done, and I added logging.");
    start(&mut r, "No, remove the logging");
    correction(&mut r, "No, remove the logging");
    let recs: Vec<_> = r.corrections().collect();
    assert_eq!(recs[0].topic, "async+fetch_user");
}

#[test]
fn turn_start_clears_the_buffered_response() {
    // §19.3: stale confidence and late feedback training the next turn's topic.
    let mut r = reg(Config::default());
    start(&mut r, "refactor this function to be async");
    complete(&mut r, "No.");
    assert_eq!(r.confidence(), 0.4);
    start(&mut r, "explain docker containers");
    assert_eq!(r.confidence(), 0.5, "no stale structural confidence");
    quality(&mut r, 0.9);
    assert_eq!(
        r.topic_stats("contain+docker").map(|s| s.feedback),
        Some(0),
        "late feedback trains nothing"
    );
    complete(&mut r, "Containers package an app with its dependencies.");
    quality(&mut r, 0.8);
    quality(&mut r, 0.1);
    let stats = r.topic_stats("contain+docker").unwrap();
    assert_eq!(
        (stats.feedback, stats.quality_sum),
        (1, 0.8),
        "one response learns once"
    );
}

#[test]
fn export_is_lossless_where_the_reference_dropped_counts() {
    // §19.5: counts collapsed to 3 and below-threshold clusters vanished.
    let mut r = reg(Config {
        cost_cap_tokens: 777,
        ..Config::default()
    });
    start(&mut r, "refactor this function to be async");
    for i in 0..10 {
        correction(&mut r, &format!("correction {i}"));
    }
    start(&mut r, "explain docker containers");
    correction(&mut r, "shorter please");
    let saved = r.export();
    let back = Regulator::import(&saved).unwrap();
    assert_eq!(back.export(), saved);
    assert_eq!(
        back.corrections().filter(|c| c.topic == "async").count(),
        10
    );
    assert_eq!(
        back.corrections()
            .filter(|c| c.topic == "contain+docker")
            .count(),
        1
    );
    assert_eq!(back.config().cost_cap_tokens, 777, "config survives");
}

#[test]
fn float_edges_agree() {
    // §19.8
    for qs in [[0.35, 0.3, 0.2], [0.45, 0.3, 0.3]] {
        let mut r = reg(Config {
            cost_cap_tokens: 1 << 50,
            ..Config::default()
        });
        for q in qs {
            quality(&mut r, q);
        }
        assert!(
            matches!(
                r.decide().break_reason(),
                Some(BreakReason::QualityDecline { .. })
            ),
            "{qs:?}"
        );
    }
}

#[test]
fn bad_numbers_are_rejected_not_dropped_or_wrapped() {
    // §19.4, §19.10–12
    let mut r = reg(Config::default());
    start(&mut r, "x");
    complete(&mut r, "a response");
    let before = r.export();
    assert!(
        r.on_event(&Event::QualityFeedback {
            quality: f64::NAN,
            at_ms: None
        })
        .is_err()
    );
    assert!(
        r.on_event(&Event::QualityFeedback {
            quality: 5.0,
            at_ms: None
        })
        .is_err()
    );
    assert_eq!(r.export(), before, "nothing drained or recorded");
    r.cost(0, u64::MAX >> 11, 0).unwrap();
    r.cost(0, u64::MAX >> 11, 0).unwrap();
    assert!(
        r.metrics()["reins.total_tokens_out"] > 1e15,
        "no wrap-around"
    );
}

#[test]
fn prelude_survives_a_higher_priority_decision() {
    // Reference gotcha: a drift warning hid the procedural warning and the prelude.
    let mut r = reg(unanchored_warns());
    start(&mut r, "refactor this function to be async");
    for c in [
        "don't add logging",
        "stop adding logging please",
        "no more logs",
    ] {
        correction(&mut r, c);
    }
    complete(&mut r, "add logging and error handling");
    let d = r.decide();
    assert_eq!(d.kind(), DecisionKind::ScopeDrift);
    assert!(d.has(DecisionKind::Procedural));
    assert!(r.corrections_prelude().unwrap().contains("- no more logs"));
}

#[test]
fn cjk_messages_get_topics_and_drift_scores() {
    // §19.6: a Chinese sentence was one giant keyword.
    let mut r = reg(Config::default());
    start(&mut r, "请把这个函数改成异步");
    assert!(
        !r.topic().is_empty() && r.topic().chars().count() <= 5,
        "{}",
        r.topic()
    );
    complete(&mut r, "好的，这个函数现在是异步的");
    let s = r.drift_score().unwrap();
    assert!(s < 1.0, "shared bigrams anchor: {s}");
}

#[test]
fn secrets_are_redacted_before_they_are_stored() {
    let mut r = reg(Config::default());
    start(&mut r, "deploy the payment service");
    correction(
        &mut r,
        "use key sk-proj-abcdefghijklmnopqrstu1234 not the old one",
    );
    let text = &r.corrections().next().unwrap().text;
    assert_eq!(text, "use key [redacted] not the old one");
    assert!(!r.export().contains("sk-proj"));
}

#[test]
fn stored_text_is_capped() {
    let mut r = reg(Config::default());
    start(&mut r, "deploy the payment service");
    correction(&mut r, &"x".repeat(50_000));
    assert_eq!(r.corrections().next().unwrap().text.chars().count(), 1001);
}

#[test]
fn decide_is_pure_and_repeatable() {
    let mut r = reg(unanchored_warns());
    start(&mut r, "refactor this function to be async");
    complete(&mut r, "add logging and error handling");
    let before = r.export();
    let a = r.decide();
    let b = r.decide();
    assert_eq!(a, b);
    assert_eq!(r.export(), before);
    assert!(matches!(a.verdict, Verdict::ScopeDrift { .. }));
}

/// The answers above share no word with their request: a warning only with
/// the unanchored-share check on (it is off by default).
fn unanchored_warns() -> Config {
    Config {
        drift_warn_threshold: Some(0.85),
        ..Config::default()
    }
}
