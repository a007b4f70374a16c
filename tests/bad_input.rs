//! Bad input gets a clear error naming the field, and loses nothing.

mod common;

use common::*;
use reins::{Config, ErrorKind, Event, Regulator};
use serde_json::json;

fn busy() -> Regulator {
    let mut r = reg(Config {
        implicit_correction_window_ms: Some(500),
        ..Config::default()
    });
    start_at(&mut r, "Refactor fetch_user to be async", 10);
    complete_at(&mut r, "Done; I also added logging.", 20);
    r.cost(10, 300, 900).unwrap();
    quality(&mut r, 0.4);
    correction(&mut r, "no logging");
    r.tool_call("search", Some(&json!({"q": 1}))).unwrap();
    r
}

#[test]
fn every_rejected_event_leaves_the_regulator_exactly_as_it_was() {
    let big = "y".repeat((1 << 20) + 1);
    let cases: Vec<(Event, &str, ErrorKind)> = vec![
        (
            Event::TurnStart {
                message: big.clone(),
                at_ms: None,
            },
            "turnStart.message",
            ErrorKind::Range,
        ),
        (
            Event::TurnComplete {
                response: big.clone(),
                at_ms: None,
            },
            "turnComplete.response",
            ErrorKind::Range,
        ),
        (
            Event::UserCorrection {
                message: big.clone(),
                corrects_last: true,
                at_ms: None,
            },
            "userCorrection.message",
            ErrorKind::Range,
        ),
        (
            Event::QualityFeedback {
                quality: f64::NAN,
                at_ms: None,
            },
            "qualityFeedback.quality",
            ErrorKind::Range,
        ),
        (
            Event::QualityFeedback {
                quality: -0.5,
                at_ms: None,
            },
            "qualityFeedback.quality",
            ErrorKind::Range,
        ),
        (
            Event::QualityFeedback {
                quality: f64::NEG_INFINITY,
                at_ms: None,
            },
            "qualityFeedback.quality",
            ErrorKind::Range,
        ),
        (
            Event::Token {
                logprob: Some(0.1),
                at_ms: None,
            },
            "token.logprob",
            ErrorKind::Range,
        ),
        (
            Event::Tokens {
                logprobs: vec![-1.0, -2.0, f64::NAN],
                unavailable: 0,
                at_ms: None,
            },
            "tokens.logprobs[2]",
            ErrorKind::Range,
        ),
        (
            Event::Tokens {
                logprobs: vec![],
                unavailable: u64::MAX,
                at_ms: None,
            },
            "tokens.unavailable",
            ErrorKind::Range,
        ),
        (
            Event::Cost {
                tokens_in: 1 << 60,
                tokens_out: 0,
                wallclock_ms: 0,
                provider: None,
                usd: None,
                at_ms: None,
            },
            "cost.tokensIn",
            ErrorKind::Range,
        ),
        (
            Event::Cost {
                tokens_in: 0,
                tokens_out: 0,
                wallclock_ms: 0,
                provider: None,
                usd: Some(-1.0),
                at_ms: None,
            },
            "cost.usd",
            ErrorKind::Range,
        ),
        (
            Event::Cost {
                tokens_in: 0,
                tokens_out: 0,
                wallclock_ms: 0,
                provider: Some("p".repeat(300)),
                usd: None,
                at_ms: None,
            },
            "cost.provider",
            ErrorKind::Range,
        ),
        (
            Event::ToolCall {
                name: "".into(),
                args: None,
                call_id: None,
                side_effect: None,
                read_only: None,
                at_ms: None,
            },
            "toolCall.name",
            ErrorKind::Range,
        ),
        (
            Event::ToolCall {
                name: "t".repeat(257),
                args: None,
                call_id: None,
                side_effect: None,
                read_only: None,
                at_ms: None,
            },
            "toolCall.name",
            ErrorKind::Range,
        ),
        (
            Event::ToolCall {
                name: "t".into(),
                args: Some(nested(100)),
                call_id: None,
                side_effect: None,
                read_only: None,
                at_ms: None,
            },
            "toolCall.args",
            ErrorKind::Range,
        ),
        (
            Event::ToolResult {
                name: "t".into(),
                ok: true,
                duration_ms: 1,
                error: None,
                result: Some(big),
                call_id: None,
                at_ms: None,
            },
            "toolResult.result",
            ErrorKind::Range,
        ),
        (
            Event::TurnStart {
                message: "hi".into(),
                at_ms: Some(1 << 60),
            },
            "turnStart.atMs",
            ErrorKind::Range,
        ),
    ];
    for (event, field, kind) in cases {
        let mut r = busy();
        let before = (r.export(), r.decide());
        let err = r.on_event(&event).unwrap_err();
        assert_eq!((err.field(), err.kind()), (field, kind), "{err}");
        assert!(err.to_string().starts_with(field), "{err}");
        assert_eq!((r.export(), r.decide()), before, "{field} changed state");
        r.turn_start("still works", None).unwrap();
    }
}

fn nested(depth: usize) -> serde_json::Value {
    (0..depth).fold(json!(1), |v, _| json!([v]))
}

#[test]
fn malformed_event_json_names_the_field() {
    for (text, field) in [
        ("", "event"),
        ("[]", "event"),
        ("{}", "event.type"),
        ("{\"type\":\"boom\"}", "event.type"),
        (
            "{\"type\":\"turnStart\",\"message\":7}",
            "turnStart.message",
        ),
    ] {
        let err = Event::from_json(text).unwrap_err();
        assert_eq!(
            (err.kind(), err.field()),
            (ErrorKind::Type, field),
            "{text}: {err}"
        );
    }
}

#[test]
fn bad_constructor_arguments() {
    assert_eq!(
        Regulator::new("", Config::default()).unwrap_err().field(),
        "userId"
    );
    assert_eq!(
        Regulator::new("u".repeat(300), Config::default())
            .unwrap_err()
            .field(),
        "userId"
    );
    let err = Regulator::new(
        "a",
        Config {
            quality_window: 0,
            ..Config::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.field(), "config.qualityWindow");
    let mut r = busy();
    let before = r.export();
    assert!(
        r.set_config(Config {
            logprob_window: 0,
            ..Config::default()
        })
        .is_err()
    );
    assert_eq!(r.export(), before);
}

fn tamper(f: impl Fn(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&busy().export()).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn foreign_future_and_tampered_snapshots_are_refused() {
    let cases: Vec<(String, ErrorKind, &str)> = vec![
        ("not json".into(), ErrorKind::Type, "snapshot"),
        ("[1,2]".into(), ErrorKind::Type, "snapshot"),
        (r#"{"hello":"world"}"#.into(), ErrorKind::Type, "snapshot"),
        (
            tamper(|v| v["format"] = json!("automerge")),
            ErrorKind::Type,
            "snapshot.format",
        ),
        (
            tamper(|v| v["version"] = json!(2)),
            ErrorKind::Range,
            "snapshot.version",
        ),
        (
            tamper(|v| v["version"] = json!(0)),
            ErrorKind::Range,
            "snapshot.version",
        ),
        (
            tamper(|v| v["version"] = json!("1")),
            ErrorKind::Type,
            "snapshot.version",
        ),
        (
            tamper(|v| v["userId"] = json!("")),
            ErrorKind::Range,
            "snapshot.userId",
        ),
        (
            tamper(|v| v["surprise"] = json!(1)),
            ErrorKind::Type,
            "snapshot",
        ),
        (
            tamper(|v| v["config"]["qualityWindow"] = json!(1)),
            ErrorKind::Range,
            "snapshot.config.qualityWindow",
        ),
        (
            tamper(|v| v["config"]["toolLoopThreshold"] = json!(-1)),
            ErrorKind::Type,
            "snapshot",
        ),
        (
            tamper(|v| v["memory"]["corrections"]["async+fetch_user"][0][0] = json!("")),
            ErrorKind::Type,
            "snapshot",
        ),
        (
            tamper(|v| {
                let rec = v["memory"]["corrections"]["async+fetch_user"][0].clone();
                v["memory"]["corrections"]["other"] = json!([rec]);
            }),
            ErrorKind::Range,
            "memory.corrections.id",
        ),
        (
            tamper(|v| v["memory"]["corrections"]["async+fetch_user"][0][3] = json!("z")),
            ErrorKind::Type,
            "snapshot",
        ),
        (
            tamper(|v| v["session"]["budget"]["quality"] = json!([2.0])),
            ErrorKind::Range,
            "session.budget.quality",
        ),
        (
            tamper(|v| v["session"]["task"] = json!([["a", "a", 0]])),
            ErrorKind::Type,
            "session.task",
        ),
        (
            tamper(|v| v["session"]["tokens"]["unavailable"] = json!(99)),
            ErrorKind::Range,
            "session.tokens.unavailable",
        ),
        (
            tamper(|v| v["session"]["tools"]["runLen"] = json!(50)),
            ErrorKind::Range,
            "session.tools.runLen",
        ),
        (
            tamper(|v| v["session"]["facts"]["verbatim"] = json!(vec!["term"; 40])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["facts"]["numbers"] = json!(["9".repeat(500)])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["facts"]["figures"] = json!(vec!["8080"; 40])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["facts"]["editedLines"] = json!(vec![7u32; 500])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["facts"]["sides"] = json!([9_999])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["facts"]["ops"] = json!([60_000])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["facts"]["ops"] = json!(vec![1u16; 40])),
            ErrorKind::Range,
            "session.facts",
        ),
        (
            tamper(|v| v["session"]["episodeRecords"] = json!(vec!["00000000000000ff"; 33])),
            ErrorKind::Range,
            "session.episodeRecords",
        ),
        (
            tamper(|v| v["session"]["episodeRecords"] = json!(["not hex"])),
            ErrorKind::Type,
            "session.episodeRecords[0]",
        ),
        (
            tamper(|v| v["memory"]["topics"]["async+fetch_user"]["qualitySum"] = json!(50.0)),
            ErrorKind::Range,
            "memory.topics[\"async+fetch_user\"].qualitySum",
        ),
    ];
    for (text, kind, field) in cases {
        let err = Regulator::import(&text).unwrap_err();
        assert_eq!((err.kind(), err.field()), (kind, field), "{text}\n{err}");
    }
}

#[test]
fn the_reference_designs_snapshot_is_read() {
    let noos = json!({
        "user_id": "user_42",
        "learned": { "gain_mode": "neutral", "tick": 4, "response_success": {}, "response_strategies": {} },
        "correction_patterns": {
            "async+function": {
                "user_id": "user_42", "topic_cluster": "async+function",
                "pattern_name": "corrections_on_async+function", "learned_from_turns": 3, "confidence": 0.15,
                "example_corrections": ["no more logs", "stop adding logging please", "don't add logging"]
            }
        }
    });
    let mut r = Regulator::import(&noos.to_string()).unwrap();
    assert_eq!(r.user_id(), "user_42");
    start(&mut r, "refactor this function to be async");
    assert_eq!(procedural_count(&r.decide()), Some(3));
    assert!(
        r.corrections_prelude()
            .unwrap()
            .ends_with("- no more logs\n- stop adding logging please\n- don't add logging")
    );
    let legacy = json!({ "user_id": "u", "learned": {} });
    assert_eq!(
        Regulator::import(&legacy.to_string())
            .unwrap()
            .corrections()
            .count(),
        0
    );
    let empty = json!({ "user_id": "u", "learned": {}, "correction_patterns": null });
    assert_eq!(
        Regulator::import(&empty.to_string())
            .unwrap()
            .corrections()
            .count(),
        0
    );
    let broken = json!({ "user_id": "u", "learned": {}, "correction_patterns": { "a+b": { "example_corrections": 5 } } });
    let err = Regulator::import(&broken.to_string()).unwrap_err();
    assert_eq!((err.field(), err.kind()), ("snapshot", ErrorKind::Type));
    assert!(err.message().contains("noos"), "{err}");
}

#[test]
fn tool_arguments_as_json_text_are_fingerprinted_like_values() {
    use reins::{Args, EventRef};
    let mut a = reg(Config::default());
    let mut b = reg(Config::default());
    a.apply(EventRef::ToolCall {
        name: "search",
        args: Some(Args::Json(r#"{"q":"late","days":7}"#)),
        call_id: None,
        effect: None,
        at_ms: None,
    })
    .unwrap();
    b.tool_call("search", Some(&json!({ "days": 7.0, "q": "late" })))
        .unwrap();
    assert_eq!(
        a.export(),
        b.export(),
        "key order and number spelling do not matter"
    );
    let before = a.export();
    for (text, kind) in [
        ("{", ErrorKind::Type),
        ("[1] 2", ErrorKind::Type),
        (
            &*format!("{}{}", "[".repeat(80), "]".repeat(80)),
            ErrorKind::Range,
        ),
    ] {
        let err = a
            .apply(EventRef::ToolCall {
                name: "search",
                args: Some(Args::Json(text)),
                call_id: None,
                effect: None,
                at_ms: None,
            })
            .unwrap_err();
        assert_eq!((err.field(), err.kind()), ("toolCall.args", kind), "{err}");
    }
    assert_eq!(a.export(), before);
}
