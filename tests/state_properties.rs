//! Property tests for the snapshot: round trips are lossless and behaviour-
//! preserving, and memory merge is commutative, associative and idempotent.

use proptest::prelude::*;
use reins::{Config, Event, Memory, Regulator, Snapshot};

const ASKS: &[&str] = &[
    "Refactor fetch_user to be async",
    "Make my auth module async",
    "explain docker containers",
    "请把这个函数改成异步",
    "Summarise the quarterly sales report",
    "ok",
];
const ANSWERS: &[&str] = &[
    "Here is fetch_user, now async.",
    "I added logging and metrics as well.",
    "Containers bundle an app with its dependencies?",
    "好的，这个函数现在是异步的",
    "No.",
];
const FIXES: &[&str] = &[
    "don't add logging",
    "shorter please",
    "no, async only",
    "不对",
    "use sk-abcdefghijklmnopqrstuvwx",
];
const TOOLS: &[&str] = &["search", "db.query", "read_file"];

fn event() -> impl Strategy<Value = Event> {
    let at = proptest::option::of(0u64..5_000);
    prop_oneof![
        (0..ASKS.len(), at.clone()).prop_map(|(i, at_ms)| Event::TurnStart {
            message: ASKS[i].into(),
            at_ms
        }),
        (0..ANSWERS.len(), at.clone()).prop_map(|(i, at_ms)| Event::TurnComplete {
            response: ANSWERS[i].into(),
            at_ms
        }),
        (0..FIXES.len(), any::<bool>(), at.clone()).prop_map(|(i, corrects_last, at_ms)| {
            Event::UserCorrection {
                message: FIXES[i].into(),
                corrects_last,
                at_ms,
            }
        }),
        (0u64..500, 0u64..800, proptest::option::of(0.0f64..0.05)).prop_map(|(i, o, usd)| {
            Event::Cost {
                tokens_in: i,
                tokens_out: o,
                wallclock_ms: 100,
                provider: None,
                usd,
                at_ms: None,
            }
        }),
        (0.0f64..=1.0).prop_map(|quality| Event::QualityFeedback {
            quality,
            at_ms: None
        }),
        (0..TOOLS.len()).prop_map(|i| Event::ToolCall {
            name: TOOLS[i].into(),
            args: Some(serde_json::json!({ "q": i })),
            call_id: None,
            side_effect: None,
            read_only: None,
            at_ms: None
        }),
        (0..TOOLS.len(), any::<bool>(), 0u64..300).prop_map(|(i, ok, d)| Event::ToolResult {
            name: TOOLS[i].into(),
            ok,
            duration_ms: d,
            error: None,
            result: None,
            call_id: None,
            at_ms: None
        }),
        proptest::option::of(-12.0f64..=0.0).prop_map(|logprob| Event::Token {
            logprob,
            at_ms: None
        }),
        (proptest::collection::vec(-12.0f64..=0.0, 0..20), 0u64..3).prop_map(
            |(logprobs, unavailable)| Event::Tokens {
                logprobs,
                unavailable,
                at_ms: None
            }
        ),
    ]
}

fn events(max: usize) -> impl Strategy<Value = Vec<Event>> {
    proptest::collection::vec(event(), 0..max)
}

/// Small caps so merges and long runs actually trim.
fn tight() -> Config {
    Config {
        max_corrections_per_topic: 4,
        max_correction_records: 10,
        pattern_threshold: 2,
        quality_history: 5,
        logprob_window: 8,
        implicit_correction_window_ms: Some(2_000),
        ..Config::default()
    }
}

fn run(r: &mut Regulator, evs: &[Event]) {
    for e in evs {
        r.on_event(e).expect("generated events are valid");
    }
}

fn branch(base: &str, seed: u64, evs: &[Event]) -> Memory {
    let mut r = Regulator::import(base).unwrap().with_id_seed(seed);
    run(&mut r, evs);
    r.snapshot().memory
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn export_import_export_is_byte_identical_and_behaviour_preserving(
        first in events(60), then in events(30), tight_caps in any::<bool>()
    ) {
        let cfg = if tight_caps { tight() } else { Config::default() };
        let mut a = Regulator::new("alice", cfg).unwrap();
        run(&mut a, &first);
        let saved = a.export();
        let mut b = Regulator::import(&saved).unwrap();
        prop_assert_eq!(&b.export(), &saved);
        prop_assert_eq!(b.decide(), a.decide());
        prop_assert_eq!(b.confidence(), a.confidence());
        prop_assert_eq!(b.corrections_prelude(), a.corrections_prelude());
        prop_assert_eq!(b.metrics(), a.metrics());
        run(&mut a, &then);
        run(&mut b, &then);
        prop_assert_eq!(b.export(), a.export());
        prop_assert_eq!(b.decide(), a.decide());
    }

    #[test]
    fn memory_merge_is_commutative_associative_and_idempotent(
        common in events(20), ea in events(30), eb in events(30), ec in events(30)
    ) {
        let cfg = tight();
        let mut root = Regulator::new("alice", cfg.clone()).unwrap();
        run(&mut root, &common);
        let base = root.export();
        let (a, b, c) = (branch(&base, 1, &ea), branch(&base, 2, &eb), branch(&base, 3, &ec));
        prop_assert_eq!(a.merge(&b, &cfg), b.merge(&a, &cfg));
        prop_assert_eq!(a.merge(&b, &cfg).merge(&c, &cfg), a.merge(&b.merge(&c, &cfg), &cfg));
        prop_assert_eq!(&a.merge(&a, &cfg), &a);
        let m = a.merge(&b, &cfg);
        prop_assert!(m.corrections.len() <= cfg.max_correction_records as usize);
        prop_assert!(m.corrections.records().all(|r| m.corrections.count(&r.topic) <= 4));
    }

    #[test]
    fn merged_memory_keeps_the_newest_records_of_the_union(ea in events(40), eb in events(40)) {
        let cfg = tight();
        let base = Regulator::new("alice", cfg.clone()).unwrap().export();
        let (a, b) = (branch(&base, 1, &ea), branch(&base, 2, &eb));
        let m = a.merge(&b, &cfg);
        // Every record dropped by the merge is older than every kept record of its topic,
        // or the total cap was reached.
        let kept: std::collections::BTreeSet<u64> = m.corrections.records().map(|r| r.id).collect();
        for r in a.corrections.records().chain(b.corrections.records()) {
            if kept.contains(&r.id) { continue; }
            let full_topic = m.corrections.count(&r.topic) == 4;
            let full_total = m.corrections.len() == cfg.max_correction_records as usize;
            prop_assert!(full_topic || full_total, "dropped {:?} without a full cap", r.id);
            if full_topic {
                prop_assert!(m.corrections.records().filter(|k| k.topic == r.topic).all(|k| (k.at_ms, k.seq) >= (r.at_ms, r.seq)));
            }
        }
    }
}

#[test]
fn merge_via_json_unions_two_tabs_and_refuses_other_users() {
    let mut tab1 = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(11);
    let mut tab2 = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(22);
    for (r, fix) in [
        (&mut tab1, "don't add logging"),
        (&mut tab2, "no tracing either"),
    ] {
        r.turn_start("Refactor fetch_user to be async", None)
            .unwrap();
        r.user_correction(fix).unwrap();
    }
    let t2 = tab2.export();
    tab1.merge(&t2).unwrap();
    assert_eq!(tab1.corrections().count(), 2);
    tab1.merge(&t2).unwrap();
    assert_eq!(tab1.corrections().count(), 2, "idempotent");
    let bob = Regulator::new("bob", Config::default()).unwrap().export();
    let before = tab1.export();
    let err = tab1.merge(&bob).unwrap_err();
    assert_eq!(err.field(), "snapshot.userId");
    assert_eq!(tab1.export(), before);
}

#[test]
fn same_events_and_seed_give_the_same_bytes() {
    let evs: Vec<Event> = vec![
        Event::TurnStart {
            message: "Refactor fetch_user to be async".into(),
            at_ms: Some(5),
        },
        Event::UserCorrection {
            message: "no logging".into(),
            corrects_last: true,
            at_ms: Some(9),
        },
    ];
    let mut a = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(7);
    let mut b = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(7);
    run(&mut a, &evs);
    run(&mut b, &evs);
    assert_eq!(a.export(), b.export());
    let mut c = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(8);
    run(&mut c, &evs);
    assert_ne!(
        a.corrections().next().unwrap().id,
        c.corrections().next().unwrap().id
    );
}

/// An id source is read once, when the first id is made, and seeds ids as
/// `with_id_seed` would: in wasm a regulator that files no record never
/// touches the platform's random source.
#[test]
fn an_id_source_is_read_once_and_only_when_an_id_is_made() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static READS: AtomicUsize = AtomicUsize::new(0);
    fn source() -> u64 {
        READS.fetch_add(1, Ordering::SeqCst);
        7
    }
    let mut lazy = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_source(source);
    let mut seeded = Regulator::new("alice", Config::default())
        .unwrap()
        .with_id_seed(7);
    for r in [&mut lazy, &mut seeded] {
        r.turn_start("Refactor fetch_user to be async", Some(5))
            .unwrap();
        r.turn_complete("Here is the async version.", Some(6))
            .unwrap();
    }
    assert_eq!(READS.load(Ordering::SeqCst), 0, "no id made yet");
    for r in [&mut lazy, &mut seeded] {
        r.user_correction("no logging").unwrap();
        r.user_correction("no tracing either").unwrap();
    }
    assert_eq!(READS.load(Ordering::SeqCst), 1);
    assert_eq!(lazy.export(), seeded.export());
}

#[test]
fn snapshot_shape_is_versioned_camel_case_json() {
    let mut r = Regulator::new("alice", Config::default()).unwrap();
    r.turn_start("Refactor fetch_user to be async", Some(1))
        .unwrap();
    r.user_correction("no logging").unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.export()).unwrap();
    assert_eq!(v["format"], "reins.state");
    assert_eq!(v["version"], 1);
    assert_eq!(v["userId"], "alice");
    assert_eq!(v["config"]["costCapTokens"], 10000);
    let rec = &v["memory"]["corrections"]["async+fetch_user"][0];
    assert_eq!(rec[0].as_str().unwrap().len(), 16, "id");
    assert_eq!(rec[3], "e", "explicit");
    assert_eq!(rec[4], "no logging");
    let snap = Snapshot::from_json(&v.to_string()).unwrap();
    assert_eq!(snap.user_id, "alice");
}
