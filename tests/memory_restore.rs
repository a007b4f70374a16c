//! What an app persists is the user's memory, not the running task:
//! `export_memory` writes it, `restore` loads it under the app's current
//! options with a fresh session, and `memory_revision` says when to save.

mod common;
use common::*;
use reins::{Config, Regulator};

fn options(cap: u64) -> Config {
    Config {
        cost_cap_tokens: cap,
        ..Config::default()
    }
}

/// Three corrections of one request, spend over a small cap, quality feedback.
fn used(r: &mut Regulator) {
    for i in 0..3u64 {
        start_at(r, "Refactor fetch_user to be async", 1_000 + i * 10_000);
        complete_at(
            r,
            "Here is fetch_user, still synchronous.",
            2_000 + i * 10_000,
        );
        out_tokens(r, 900);
        quality(r, 0.4);
        correction(r, "No: fetch_user must use async def");
    }
}

#[test]
fn restore_keeps_the_memory_but_takes_current_options_and_a_fresh_session() {
    let mut a = Regulator::new("alice", options(2_000)).unwrap();
    used(&mut a);
    assert!(
        a.decide().break_reason().is_some(),
        "2,700 tokens against a cap of 2,000"
    );
    let saved = a.export_memory(true);
    assert!(
        !saved.contains("\"session\":"),
        "the running task is not persisted"
    );

    let b = Regulator::restore("alice", options(50_000), &saved).unwrap();
    assert_eq!(
        b.config().cost_cap_tokens,
        50_000,
        "the app's options, not the stored ones"
    );
    assert!(
        b.decide().break_reason().is_none(),
        "a fresh session starts under budget"
    );
    assert_eq!(b.metrics()["reins.total_tokens_out"], 0.0);
    let ids = |r: &Regulator| r.corrections().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(ids(&b), ids(&a));
    assert_eq!(b.topic_stats(a.topic()), a.topic_stats(a.topic()));
    assert_eq!(b.export_memory(true), {
        // The same memory, written under the new options.
        let mut c = Regulator::new("alice", options(50_000)).unwrap();
        c.merge(&saved).unwrap();
        c.export_memory(true)
    });

    // The whole-state round trip stays for replay and tests.
    let whole = Regulator::import(&a.export()).unwrap();
    assert!(whole.decide().break_reason().is_some());
}

#[test]
fn restore_refuses_another_users_memory_and_trims_to_smaller_caps() {
    let mut a = Regulator::new("alice", Config::default()).unwrap();
    used(&mut a);
    let saved = a.export_memory(true);
    let err = Regulator::restore("bob", Config::default(), &saved).unwrap_err();
    assert_eq!(err.field(), "snapshot.userId");

    let small = Config {
        max_corrections_per_topic: 1,
        pattern_threshold: 1,
        ..Config::default()
    };
    let b = Regulator::restore("alice", small, &saved).unwrap();
    assert_eq!(
        b.corrections().count(),
        1,
        "trimmed to the current cap, newest kept"
    );
    let newest = a.corrections().max_by_key(|c| (c.at_ms, c.seq)).unwrap();
    assert_eq!(b.corrections().next().unwrap().id, newest.id);
}

#[test]
fn memory_without_texts_holds_no_user_words() {
    let mut a = Regulator::new("alice", Config::default()).unwrap();
    start(&mut a, "From now on, answer in metric units");
    used(&mut a);
    assert!(a.preferences().count() > 0);
    let saved = a.export_memory(false);
    // Topic keys (a few stems of the request) remain; the texts do not.
    for word in ["async def", "units"] {
        assert!(!saved.contains(word), "{word:?} was stored: {saved}");
    }
    let b = Regulator::restore("alice", Config::default(), &saved).unwrap();
    assert_eq!(b.corrections().count(), a.corrections().count());
    assert!(b.corrections().all(|c| c.text.is_empty()));
    assert_eq!(b.preferences().count(), 0);
    // Merging the stripped copy back loses none of the texts held in memory.
    a.merge(&saved).unwrap();
    assert!(a.corrections().all(|c| !c.text.is_empty()));
}

#[test]
fn memory_revision_moves_with_the_memory_only() {
    let mut r = Regulator::new("alice", Config::default()).unwrap();
    let rev = |r: &Regulator| r.memory_revision();
    let r0 = rev(&r);
    r.tool_call("search", None).unwrap();
    r.tool_result("search", true, 10).unwrap();
    r.cost(10, 10, 5).unwrap();
    assert_eq!(rev(&r), r0, "tool traffic and spend are the session's");

    start(&mut r, "Refactor fetch_user to be async");
    let r1 = rev(&r);
    assert!(r1 > r0, "a turn counts in the topic's statistics");
    complete(&mut r, "Done.");
    assert_eq!(rev(&r), r1);
    correction(&mut r, "No, use async def");
    let r2 = rev(&r);
    assert!(r2 > r1, "a correction is memory");

    // Merging what is already held changes nothing; something new does.
    let same = r.export_memory(true);
    r.merge(&same).unwrap();
    assert_eq!(rev(&r), r2);
    let mut other = Regulator::restore("alice", Config::default(), &same)
        .unwrap()
        .with_id_seed(7);
    start(&mut other, "Write the changelog");
    correction(&mut other, "Keep it short");
    r.merge(&other.export_memory(true)).unwrap();
    assert!(rev(&r) > r2);
    r.reset_session();
    let r3 = rev(&r);
    assert_eq!(rev(&r), r3, "resetting the session leaves the memory");
}

#[test]
fn forget_memory_leaves_nothing_learned_and_keeps_the_session() {
    let mut r = Regulator::new("alice", options(50_000)).unwrap();
    start(&mut r, "From now on, answer in metric units");
    used(&mut r);
    let before = r.memory_revision();
    r.forget_memory();
    assert!(r.memory_revision() > before);
    assert_eq!(r.corrections().count(), 0);
    assert_eq!(r.preferences().count(), 0);
    assert_eq!(r.corrections_prelude(), None);
    assert_eq!(
        r.metrics()["reins.total_tokens_out"],
        2_700.0,
        "spend is the session's"
    );
    assert_eq!(
        r.export_memory(true),
        Regulator::new("alice", options(50_000))
            .unwrap()
            .export_memory(true)
    );
}

#[test]
fn merge_behind_says_when_the_other_copy_lacks_part_of_this_memory() {
    let mut a = Regulator::new("alice", Config::default()).unwrap();
    used(&mut a);
    let mut b = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(9);
    start(&mut b, "Write the changelog");
    correction(&mut b, "Keep it short");
    let a_saved = a.export_memory(true);
    // b lacks a's corrections; after merging, a's copy lacks b's.
    assert!(b.merge_behind(&a_saved, true).unwrap());
    let union = b.export_memory(true);
    assert!(!b.merge_behind(&union, true).unwrap(), "nothing missing");
    assert!(!a.clone().merge_behind(&union, true).unwrap());
    assert!(a.merge_behind(&a_saved, true).is_ok_and(|behind| !behind));
    // Copies stored without texts are compared without texts.
    assert!(!b.merge_behind(&b.export_memory(false), false).unwrap());
    assert!(b.merge_behind(&b.export_memory(false), true).unwrap());
}
