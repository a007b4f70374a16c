//! The session's hand-written reader (`json::typed`) against serde's
//! derived deserialisers, which the types keep in tests only.

use std::cell::Cell;

use serde::Deserialize;
use serde::de::{self, Visitor};
use serde_json::{Value, json};

use super::*;
use crate::detect::budget::Budget;
use crate::detect::confidence::{Shape, TokenStats};
use crate::detect::drift::{CodeShape, Form, Limits};
use crate::detect::failing::Failing;
use crate::detect::incidents::{Incident, PendingHit};
use crate::detect::insist::Raised;
use crate::detect::tools::{CallRecord, DoneCall, Listed};
use crate::event::Event;
use crate::regulator::Regulator;

/// A deserializer that only notes the field names a derived
/// `Deserialize` asks for.
struct Names(Cell<&'static [&'static str]>);

impl<'de> de::Deserializer<'de> for &Names {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> std::result::Result<V::Value, Self::Error> {
        Err(de::Error::custom("names only"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> std::result::Result<V::Value, Self::Error> {
        self.0.set(fields);
        Err(de::Error::custom("names only"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

fn sorted(names: &[&'static str]) -> Vec<&'static str> {
    let mut v = names.to_vec();
    v.sort_unstable();
    v
}

fn same_names<T: FromJson + for<'de> Deserialize<'de>>() {
    let names = Names(Cell::new(&[]));
    let _ = T::deserialize(&names);
    let serde = sorted(names.0.get());
    assert!(!serde.is_empty(), "{}", std::any::type_name::<T>());
    assert_eq!(sorted(T::FIELDS), serde, "{}", std::any::type_name::<T>());
}

#[test]
fn every_struct_reads_the_fields_serde_names() {
    same_names::<Session>();
    same_names::<Response>();
    same_names::<LastResponse>();
    same_names::<Budget>();
    same_names::<TokenStats>();
    same_names::<Shape>();
    same_names::<ToolTurn>();
    same_names::<CallRecord>();
    same_names::<Listed>();
    same_names::<DoneCall>();
    same_names::<Incidents>();
    same_names::<PendingHit>();
    same_names::<Incident>();
    same_names::<Failing>();
    same_names::<Raised>();
    same_names::<TaskFacts>();
    same_names::<Limits>();
    same_names::<Form>();
    same_names::<CodeShape>();
    same_names::<DriftReport>();
}

/// The enums read back every name serde writes for them.
#[test]
fn every_variant_reads_back() {
    use crate::detect::drift::Cause;
    use crate::detect::tools::Effect;
    fn back<T: FromJson + serde::Serialize + PartialEq + std::fmt::Debug>(all: &[T]) {
        for v in all {
            assert_eq!(
                T::from_json(&serde_json::to_value(v).unwrap()).as_ref(),
                Ok(v)
            );
        }
    }
    back(&[Effect::Read, Effect::Write, Effect::Action]);
    use Cause::*;
    back(&[OffTopic, Forbidden, Additions, Language, Framework]);
}

/// Every session state the development session set reaches, after each
/// event: the hand reader gives what serde gives.
#[test]
fn the_session_reader_reads_what_serde_reads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/eval/data/sessions.jsonl");
    let text = std::fs::read_to_string(path).expect("the development session set");
    let (mut states, mut fields) = (0, std::collections::BTreeSet::new());
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let mut r = Regulator::new("t", Config::default()).unwrap();
        for e in case["events"].as_array().unwrap() {
            let Ok(e) = Event::from_json(&e.to_string()) else {
                continue;
            };
            if r.on_event(&e).is_err() {
                continue;
            }
            let v = serde_json::to_value(&r.snapshot().session).unwrap();
            let serde: Session = serde_json::from_value(v.clone()).unwrap();
            assert_eq!(Session::from_json(&v), Ok(serde));
            fields.extend(v.as_object().unwrap().keys().cloned());
            states += 1;
        }
    }
    assert!(states > 1000, "{states}");
    // Fields left out at their default, seen set: failing, insistence, drift…
    assert_eq!(fields.len(), Session::FIELDS.len(), "{fields:?}");
}

fn session_error(v: Value) -> (String, String) {
    let mut snap = serde_json::to_value(Snapshot {
        format: FORMAT.into(),
        version: VERSION,
        user_id: "u".into(),
        config: Config::default(),
        memory: Memory::default(),
        session: Session::default(),
    })
    .unwrap();
    snap["session"] = v;
    let err = Snapshot::from_json(&snap.to_string()).unwrap_err();
    (err.field().to_string(), err.message().to_string())
}

#[test]
fn a_bad_session_is_refused_naming_its_field() {
    let good = serde_json::to_value(Session::default()).unwrap();
    let with = |path: &[&str], value: Value| {
        let mut v = good.clone();
        let (last, parents) = path.split_last().unwrap();
        let mut at = &mut v;
        for p in parents {
            at = &mut at[*p];
        }
        at[*last] = value;
        v
    };
    let at = |f: &str, m: &str| (f.to_string(), m.to_string());
    assert_eq!(
        session_error(with(&["turns"], json!(-1))),
        at("session.turns", "must be a whole number")
    );
    assert_eq!(
        session_error(with(&["tools", "steps"], json!(1e10))),
        at("session.tools.steps", "must be a whole number")
    );
    assert_eq!(
        session_error(with(&["budget", "sparkles"], json!(1))),
        at("session.budget.sparkles", "is not a field")
    );
    let mut no_topic = good.clone();
    no_topic.as_object_mut().unwrap().remove("topic");
    assert_eq!(session_error(no_topic), at("session.topic", "is missing"));
    let call = json!({"name": "search", "key": "not hex"});
    assert_eq!(
        session_error(with(&["tools", "recent"], json!([call]))),
        at(
            "session.tools.recent[0].key",
            "\"not hex\" is not 16 hex digits"
        )
    );
    assert_eq!(
        session_error(with(&["task"], json!([["a", "a", 0]]))),
        at("session.task", "keyword \"a\" has count 0")
    );
    assert_eq!(session_error(json!([])), at("session", "must be an object"));
    let effect = json!([{"key": "00000000000000ff", "turn": 1, "effect": "explode"}]);
    assert_eq!(
        session_error(with(&["earlierCalls"], effect)).1,
        "\"explode\" is not one of read, write, action"
    );
}
