//! Merging copies of one user's memory loses nothing distinct and keeps no
//! duplicates: preferences are one per wording, topics one per key, records
//! one per id. Property tests over random copies drawn from shared pools,
//! the way tabs and Worker instances come to hold them: the same wording
//! recorded again elsewhere (new id, new time), the same record in several
//! copies, a record upgraded in one copy, topic statistics that grew apart,
//! more topics than the cap.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use reins::detect::corrections::{Record, Source, Store};
use reins::detect::preferences::{MAX_PREFERENCES, Preference, Preferences};
use reins::state::{MAX_TOPICS, TopicStats};
use reins::{Config, Memory, Regulator};

/// Any fixed hash will do for ids made of content.
fn hash_bytes(seed: u64, bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (seed, bytes).hash(&mut h);
    h.finish()
}

fn cfg() -> Config {
    Config {
        max_corrections_per_topic: 4,
        max_correction_records: 10,
        ..Config::default()
    }
}

/// A preference as a regulator records it: the id hashes the copy's seed,
/// its sequence number and the words.
fn pref(seed: u64, seq: u64, at_ms: u64, words: usize, case: bool) -> Preference {
    let text = format!("From now on, use style {words}.");
    let text = if case { text.to_uppercase() } else { text };
    Preference {
        id: hash_bytes(seed ^ seq.rotate_left(17), text.as_bytes()),
        at_ms,
        seq,
        text,
    }
}

/// (seed, seq, at, which wording of 30, upper-case?)
fn prefs() -> impl Strategy<Value = Vec<(u64, u64, u64, usize, bool)>> {
    proptest::collection::vec(
        (0u64..4, 0u64..50, 0u64..40, 0usize..30, any::<bool>()),
        0..30,
    )
}

/// A record of the shared pool `k`, upgraded (explicit, new text) or not.
fn record(k: u64, upgraded: bool) -> Record {
    Record {
        id: hash_bytes(k, b"record"),
        topic: format!("topic{}", k % 5),
        at_ms: 100 + k * 7 % 50,
        seq: k,
        source: if upgraded {
            Source::Explicit
        } else {
            Source::Implicit
        },
        text: if upgraded {
            format!("no, do it this way {k}")
        } else {
            format!("retry {k}")
        },
    }
}

fn records() -> impl Strategy<Value = Vec<(u64, bool)>> {
    proptest::collection::vec((0u64..40, any::<bool>()), 0..25)
}

/// (key of 300, turns, feedback, quality ×10, last at)
fn topics() -> impl Strategy<Value = Vec<(usize, u64, u64, u64, u64)>> {
    proptest::collection::vec(
        (0usize..300, 0u64..9, 0u64..5, 0u64..=10, 0u64..1000),
        0..400,
    )
}

fn memory(
    ps: Vec<(u64, u64, u64, usize, bool)>,
    rs: Vec<(u64, bool)>,
    ts: Vec<(usize, u64, u64, u64, u64)>,
) -> Memory {
    let cfg = cfg();
    let mut preferences = Preferences::default();
    for (seed, seq, at, words, case) in ps {
        preferences.add(pref(seed, seq, at, words, case));
    }
    let mut by_id = BTreeMap::new();
    for (k, up) in rs {
        by_id.insert(k, record(k, up));
    }
    let mut topic_map = BTreeMap::new();
    for (key, turns, feedback, q, at) in ts {
        let quality_sum = (feedback * q) as f64 / 10.0;
        topic_map.insert(
            format!("key{key}"),
            TopicStats {
                turns,
                feedback,
                quality_sum,
                last_at_ms: at,
            },
        );
    }
    // A copy holds at most the caps, as one made by a regulator does.
    let mut m = Memory {
        corrections: Store::from_records(by_id.into_values().collect(), &cfg),
        preferences,
        ..Memory::default()
    };
    m = m.merge(
        &Memory {
            topics: topic_map.into_iter().collect(),
            ..Memory::default()
        },
        &cfg,
    );
    m
}

fn copy() -> impl Strategy<Value = Memory> {
    (prefs(), records(), topics()).prop_map(|(p, r, t)| memory(p, r, t))
}

fn words(m: &Memory) -> BTreeSet<String> {
    m.preferences.texts().map(str::to_lowercase).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn merge_is_commutative_associative_and_idempotent(a in copy(), b in copy(), c in copy()) {
        let cfg = cfg();
        prop_assert_eq!(a.merge(&b, &cfg), b.merge(&a, &cfg));
        prop_assert_eq!(a.merge(&b, &cfg).merge(&c, &cfg), a.merge(&b.merge(&c, &cfg), &cfg));
        prop_assert_eq!(&a.merge(&a, &cfg), &a);
        let ab = a.merge(&b, &cfg);
        prop_assert_eq!(&ab.merge(&b, &cfg), &ab);
    }

    #[test]
    fn nothing_distinct_is_lost_below_the_caps_and_nothing_is_kept_twice(a in copy(), b in copy()) {
        let cfg = cfg();
        let m = a.merge(&b, &cfg);
        // Preferences: one per wording; every wording while there is room,
        // else the newest.
        let all: BTreeSet<String> = words(&a).union(&words(&b)).cloned().collect();
        let kept = words(&m);
        prop_assert_eq!(kept.len(), m.preferences.0.len(), "a wording kept twice");
        prop_assert_eq!(kept.len(), all.len().min(MAX_PREFERENCES));
        if all.len() > MAX_PREFERENCES {
            let newest = |w: &String| a.preferences.0.iter().chain(&b.preferences.0)
                .filter(|p| p.text.to_lowercase() == *w)
                .map(|p| (p.at_ms, p.seq, p.id))
                .max();
            let floor = kept.iter().map(newest).min().flatten();
            for w in all.difference(&kept) {
                prop_assert!(newest(w) <= floor, "dropped {} though newer than a kept one", w);
            }
        }
        // Topics: every key while there is room.
        let keys: BTreeSet<&String> = a.topics.keys().chain(b.topics.keys()).collect();
        prop_assert_eq!(m.topics.len(), keys.len().min(MAX_TOPICS));
        for (k, t) in &m.topics {
            let copies = [a.topics.get(k), b.topics.get(k)];
            let latest = copies.iter().flatten().map(|t| t.last_at_ms).max();
            prop_assert_eq!(Some(t.last_at_ms), latest);
            prop_assert!(copies.contains(&Some(t)), "a topic is one copy's statistics");
        }
        // Records: every id while there is room, upgraded where either copy is.
        let ids: BTreeSet<u64> = a.corrections.records().chain(b.corrections.records()).map(|r| r.id).collect();
        let kept_ids: BTreeSet<u64> = m.corrections.records().map(|r| r.id).collect();
        prop_assert_eq!(kept_ids.len(), m.corrections.len());
        if ids.len() <= 4 {
            prop_assert_eq!(&kept_ids, &ids);
        }
        for r in m.corrections.records() {
            let upgraded = a.corrections.get(r.id).into_iter().chain(b.corrections.get(r.id))
                .any(|x| x.source == Source::Explicit);
            prop_assert_eq!(r.source == Source::Explicit, upgraded);
        }
    }
}

/// The cases from the issue: two tabs that each recorded one rule, and a
/// copy with rules 1–20 merged with one holding rules 11–20 said again later.
#[test]
fn preferences_said_again_in_another_copy_are_kept_once() {
    let tabs: Vec<Regulator> = [1u64, 2]
        .into_iter()
        .map(|seed| {
            let mut r = Regulator::new("alice", Config::default())
                .unwrap()
                .with_id_seed(seed);
            r.turn_start("From now on, use tabs.", Some(seed * 1000))
                .unwrap();
            r
        })
        .collect();
    let mut one = Regulator::import(&tabs[0].export()).unwrap();
    one.merge(&tabs[1].export()).unwrap();
    assert_eq!(
        one.preferences().collect::<Vec<_>>(),
        ["From now on, use tabs."]
    );

    let rules = |from: u64, at: u64, seed: u64| {
        let mut p = Preferences::default();
        for i in from..=20 {
            p.add(pref(seed, i, at + i, i as usize, false));
        }
        p
    };
    let (all, later) = (rules(1, 0, 1), rules(11, 1000, 2));
    for merged in [all.merge(&later), later.merge(&all)] {
        let kept: BTreeSet<String> = merged.texts().map(str::to_string).collect();
        assert_eq!(kept.len(), 20, "rules 1-10 must survive: {kept:?}");
        assert_eq!(merged.0.len(), 20);
    }
}

/// Topic statistics that grew apart: the copy active last is kept whole
/// (its count with its own sum, so the mean is one a copy saw).
#[test]
fn topic_statistics_keep_the_copy_active_last() {
    let t = |turns, feedback, quality_sum, last_at_ms| TopicStats {
        turns,
        feedback,
        quality_sum,
        last_at_ms,
    };
    let a = Memory {
        topics: [("k".to_string(), t(5, 1, 0.5, 100))].into(),
        ..Memory::default()
    };
    let b = Memory {
        topics: [("k".to_string(), t(3, 2, 1.5, 900))].into(),
        ..Memory::default()
    };
    let m = a.merge(&b, &cfg());
    assert_eq!(m.topics["k"], t(3, 2, 1.5, 900));
    assert_eq!(m, b.merge(&a, &cfg()));
}
