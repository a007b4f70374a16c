//! Frustration, correction and preference markers through the regulator:
//! implicit corrections, incidents, the repeatedFailure break, preferences.

mod common;

use common::*;
use reins::{BreakReason, Config, DecisionKind, Regulator, Verdict};

fn turn(r: &mut Regulator, ask: &str, answer: &str, t: u64) {
    start_at(r, ask, t * 60_000);
    complete_at(r, answer, t * 60_000 + 1000);
}

/// The incident the regulator decides now: evidence turns, markers, summary,
/// topic and lexicon version.
fn incident(r: &mut Regulator) -> (Vec<u64>, Vec<String>, String, String, String) {
    match r.decide().verdict {
        Verdict::Incident {
            evidence_turns,
            markers,
            summary,
            topic,
            lexicon_version,
        } => (evidence_turns, markers, summary, topic, lexicon_version),
        other => panic!("expected an incident, got {other:?}"),
    }
}

#[test]
fn repeated_pushback_makes_an_incident_then_a_repeated_failure_break() {
    let mut r = reg(Config::default());
    turn(
        &mut r,
        "Fix the login redirect bug in auth.ts",
        "I changed the redirect to /home.",
        1,
    );
    turn(
        &mut r,
        "That still doesn't work, the redirect loops.",
        "I added a guard on the redirect.",
        2,
    );
    assert!(
        !r.decide().has(DecisionKind::Incident),
        "one pushback is not an incident"
    );
    assert_eq!(
        r.corrections().count(),
        1,
        "pushback files an implicit correction"
    );
    start_at(
        &mut r,
        "Wrong again! It still loops after login.",
        3 * 60_000,
    );
    let (evidence_turns, markers, summary, topic, lexicon_version) = incident(&mut r);
    assert_eq!(evidence_turns, [2, 3]);
    assert!(!markers.is_empty() && !lexicon_version.is_empty());
    assert!(summary.starts_with("Wrong again"));
    assert!(!topic.is_empty());
    complete_at(&mut r, "I rewrote the guard.", 3 * 60_000 + 1000);
    assert!(
        r.decide().has(DecisionKind::Incident),
        "the incident stays for the rest of its turn"
    );
    start_at(
        &mut r,
        "This is still broken, it doesn't work at all.",
        4 * 60_000,
    );
    assert!(
        !r.decide().has(DecisionKind::Incident),
        "its hits were consumed; one new hit is not an incident"
    );
    complete_at(&mut r, "Let me try once more.", 4 * 60_000 + 1000);
    start_at(
        &mut r,
        "Still not working. You keep getting this wrong.",
        5 * 60_000,
    );
    let d = r.decide();
    assert!(
        matches!(
            d.break_reason(),
            Some(BreakReason::RepeatedFailure {
                failure_count: 2,
                ..
            })
        ),
        "a second incident on the topic halts: {d:?}"
    );
}

#[test]
fn pushback_read_against_the_previous_answer_counts_towards_an_incident() {
    let mut r = reg(Config::default());
    turn(
        &mut r,
        "Move my dentist appointment to this week.",
        "Done: your appointment is now on Thursday at 10:00.",
        1,
    );
    // No phrase of the packs: a contrast that rejects the answer's "Thursday".
    start_at(&mut r, "It has to be Friday, not Thursday.", 2 * 60_000);
    assert_eq!(
        r.corrections().count(),
        1,
        "filed as an implicit correction"
    );
    assert!(!r.decide().has(DecisionKind::Incident));
    complete_at(
        &mut r,
        "Moved to Friday at 10:00; the confirmation page is at /booking.",
        2 * 60_000 + 1000,
    );
    // A failure report tied to the answer ("still" and an HTTP error).
    start_at(
        &mut r,
        "Ugh, still getting the 500 on that page.",
        3 * 60_000,
    );
    let (evidence_turns, markers, ..) = incident(&mut r);
    assert_eq!(evidence_turns, [2, 3]);
    assert!(
        markers.iter().any(|m| m.contains("rejects a word")),
        "{markers:?}"
    );
    assert!(markers.iter().any(|m| m.contains("failing")), "{markers:?}");
}

#[test]
fn a_contrast_with_words_the_answer_never_used_is_a_request() {
    let mut r = reg(Config::default());
    turn(
        &mut r,
        "Write a function that parses dates.",
        "Here is parse_date().",
        1,
    );
    start_at(
        &mut r,
        "Now make it return a tuple, not a list.",
        2 * 60_000,
    );
    assert_eq!(r.corrections().count(), 0);
}

#[test]
fn false_positive_traps_and_new_questions_stay_quiet() {
    let mut r = reg(Config::default());
    for (i, msg) in [
        "没错了，就是这样，谢谢",
        "这个设计不错了",
        "There's nothing wrong with the first version.",
        "What's wrong with my regex? It matches too much.",
        "I provided the wrong reservation ID, it should be XYZ123.",
        "No problem, thanks!",
    ]
    .into_iter()
    .enumerate()
    {
        turn(&mut r, msg, "OK.", i as u64);
        assert!(!r.decide().has(DecisionKind::Incident), "{msg}");
    }
    assert_eq!(
        r.corrections().count(),
        0,
        "no implicit corrections from traps"
    );
}

#[test]
fn pushback_in_several_languages_is_recognised() {
    for msg in [
        "错了，不是这个意思",
        "Eso no funciona, sigue fallando",
        "Das funktioniert immer noch nicht",
        "Ça ne marche toujours pas",
        "Isso não funcionou",
        "Это не работает",
        "違います、そうじゃない",
    ] {
        let a = reins::detect::markers::analyze(msg);
        assert!(!a.pushback.is_empty(), "{msg}");
    }
}

#[test]
fn preferences_are_stored_injected_persisted_and_merged() {
    let mut r = reg(Config::default());
    turn(
        &mut r,
        "From now on, always answer in Spanish.",
        "De acuerdo.",
        1,
    );
    turn(&mut r, "以后都用 tabs 缩进。", "好的。", 2);
    let prefs: Vec<&str> = r.preferences().collect();
    assert_eq!(
        prefs,
        [
            "From now on, always answer in Spanish.",
            "以后都用 tabs 缩进。"
        ]
    );
    let prompt = r.inject_corrections("Summarise this file");
    assert!(
        prompt.starts_with(
            "The user's standing preferences:\n- From now on, always answer in Spanish."
        ),
        "{prompt}"
    );
    let saved = r.export();
    let back = Regulator::import(&saved).unwrap();
    assert_eq!(back.preferences().count(), 2);
    let mut other = Regulator::import(&saved).unwrap().with_id_seed(5);
    start(&mut other, "Going forward, never use emojis.");
    let mut merged = Regulator::import(&saved).unwrap();
    merged.merge(&other.export()).unwrap();
    assert_eq!(merged.preferences().count(), 3);
}

#[test]
fn markers_can_be_turned_off() {
    let mut r = reg(Config {
        markers: false,
        ..Config::default()
    });
    turn(&mut r, "Fix the login redirect bug", "Done.", 1);
    turn(&mut r, "That still doesn't work.", "Fixed.", 2);
    turn(&mut r, "Wrong again, it still doesn't work.", "Fixed.", 3);
    assert!(!r.decide().has(DecisionKind::Incident));
    assert_eq!(r.preferences().count(), 0);
}
