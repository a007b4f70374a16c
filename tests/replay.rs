//! Replay: importing OpenAI transcripts and tau-bench files, replaying them
//! through a regulator, and summarising the reports.

use std::path::PathBuf;

use reins::replay::{
    CONCERN_KEYS, Outcomes, Trace, TraceReport, events_from_openai, replay, replay_all, summarize,
    tau_bench,
};
use reins::{Config, ErrorKind, Event, ToolLoopRule};
use serde_json::{Value, json};

fn fixture() -> Value {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay/library_chat.json");
    let text = std::fs::read_to_string(path).expect("fixture present");
    serde_json::from_str(&text).expect("fixture is JSON")
}

#[test]
fn fixture_imports_to_exact_events() {
    let events = events_from_openai(&fixture()).unwrap();
    let expected = vec![
        // Message 0 (system) is skipped; time is message index × 1000.
        Event::TurnStart {
            message: "Is Dune on the shelf at the Main Street branch?".into(),
            at_ms: Some(1000),
        },
        Event::ToolCall {
            name: "search_catalog".into(),
            args: Some(json!({"title": "Dune", "branch": "main-street"})),
            call_id: Some("call_a".into()),
            side_effect: None,
            read_only: None,
            at_ms: Some(2000),
        },
        Event::ToolResult {
            name: "search_catalog".into(),
            ok: true,
            duration_ms: 0,
            error: None,
            result: Some(
                r#"[{"copy": "D-1", "status": "on loan"}, {"copy": "D-2", "status": "on shelf"}]"#
                    .into(),
            ),
            call_id: Some("call_a".into()),
            at_ms: Some(3000),
        },
        Event::TurnComplete {
            response: "Yes: copy D-2 of Dune is on the shelf at Main Street.".into(),
            at_ms: Some(4000),
        },
        Event::TurnStart {
            message: "Please hold it for me, card 4417.".into(),
            at_ms: Some(5000),
        },
        // Content and a tool call in one message: the response first.
        Event::TurnComplete {
            response: "Placing the hold now.".into(),
            at_ms: Some(6000),
        },
        // `call_a` again, for another tool.
        Event::ToolCall {
            name: "place_hold".into(),
            args: Some(json!({"copy": "D-2", "card": "4417"})),
            call_id: Some("call_a".into()),
            side_effect: None,
            read_only: None,
            at_ms: Some(6000),
        },
        // No `name`: taken from the most recent call with this id; "Error…" fails.
        Event::ToolResult {
            name: "place_hold".into(),
            ok: false,
            duration_ms: 0,
            error: None,
            result: Some("Error: card 4417 has an unpaid fine".into()),
            call_id: Some("call_a".into()),
            at_ms: Some(7000),
        },
        // Text parts joined with newlines.
        Event::TurnComplete {
            response:
                "The hold failed: card 4417 has an unpaid fine.\nYou can pay it at the front desk."
                    .into(),
            at_ms: Some(8000),
        },
        Event::TurnStart {
            message: "OK, thanks.".into(),
            at_ms: Some(9000),
        },
        // Blank content gives no response; unparsable arguments stay a string.
        Event::ToolCall {
            name: "log_note".into(),
            args: Some(Value::String("fine reminder sent".into())),
            call_id: Some("call_b".into()),
            side_effect: None,
            read_only: None,
            at_ms: Some(10_000),
        },
        // "Errors: none" is not the word "Error".
        Event::ToolResult {
            name: "log_note".into(),
            ok: true,
            duration_ms: 0,
            error: None,
            result: Some("Errors: none".into()),
            call_id: Some("call_b".into()),
            at_ms: Some(11_000),
        },
    ];
    assert_eq!(events, expected);
}

#[test]
fn fixture_replays_without_rejections() {
    let trace = Trace {
        id: "library".into(),
        success: Some(true),
        events: events_from_openai(&fixture()).unwrap(),
        ..Trace::default()
    };
    let report = replay(&trace, &Config::default());
    assert_eq!(report.id, "library");
    assert_eq!(report.success, Some(true));
    assert_eq!(report.events, 12);
    assert_eq!(report.rejected, 0);
    assert_eq!(report.turns, 3);
    assert_eq!(report.first_break, None);
    // Every count is of distinct turns, so never above the number of turns.
    assert!(report.fired.values().all(|&n| (1..=3).contains(&n)));
}

/// A system prompt, a user message, then five identical lookups, each
/// answered, then a sixth.
fn looping_transcript() -> Value {
    let mut messages = vec![
        json!({"role": "system", "content": "You answer questions about orders."}),
        json!({"role": "user", "content": "Where is order 77?"}),
    ];
    for i in 0..6 {
        let id = format!("call_{i}");
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"77\"}"}}
        ]}));
        messages.push(json!({"role": "tool", "tool_call_id": id, "name": "get_order", "content": "{\"status\": \"processing\"}"}));
    }
    Value::Array(messages)
}

#[test]
fn five_identical_calls_break_at_the_fifth_call_or_its_result() {
    let events = events_from_openai(&looping_transcript()).unwrap();
    // Events: 0 turnStart, then call/result pairs: calls at 1, 3, 5, 7, 9, 11.
    assert!(matches!(events[9], Event::ToolCall { .. }));
    let trace = Trace {
        id: "loop".into(),
        success: Some(false),
        events,
        ..Trace::default()
    };
    let reference = Config {
        tool_loop_rule: ToolLoopRule::ConsecutiveSameTool,
        ..Config::default()
    };
    // The reference rule counts calls by name; the default judges a call
    // once its result is in, so it breaks at the fifth result (event 10).
    for (config, at) in [(reference, 9), (Config::default(), 10)] {
        let report = replay(&trace, &config);
        assert_eq!(
            report.first_break,
            Some((at, "toolLoop".to_string())),
            "{:?}",
            config.tool_loop_rule
        );
        assert_eq!(report.rejected, 0);
        // One turn, counted once however many decisions carried the break.
        assert_eq!(report.fired.get("circuitBreak:toolLoop"), Some(&1));
        let summary = summarize(&[report]);
        assert_eq!(
            summary.halts,
            Outcomes {
                successes: 0,
                failures: 1,
                unknown: 0
            }
        );
    }
}

#[test]
fn fired_counts_turns_not_decisions() {
    // The same loop in two turns: two turns with a break.
    let mut messages = looping_transcript().as_array().unwrap().clone();
    let again: Vec<Value> = messages[1..].to_vec();
    messages.extend(again);
    let trace = Trace {
        id: "twice".into(),
        success: None,
        events: events_from_openai(&Value::Array(messages)).unwrap(),
        ..Trace::default()
    };
    let config = Config {
        tool_loop_rule: ToolLoopRule::ConsecutiveSameTool,
        ..Config::default()
    };
    let report = replay(&trace, &config);
    assert_eq!(report.turns, 2);
    assert_eq!(report.fired.get("circuitBreak:toolLoop"), Some(&2));
    assert_eq!(report.first_break, Some((9, "toolLoop".to_string())));
}

#[test]
fn replay_is_deterministic() {
    let mut events = events_from_openai(&fixture()).unwrap();
    events.extend(events_from_openai(&looping_transcript()).unwrap());
    let trace = Trace {
        id: "both".into(),
        success: Some(false),
        events,
        ..Trace::default()
    };
    let config = Config::default();
    let first = replay(&trace, &config);
    for _ in 0..3 {
        assert_eq!(replay(&trace, &config), first);
    }
    let traces = vec![trace.clone(), trace];
    assert_eq!(
        summarize(&replay_all(&traces, &config)),
        summarize(&replay_all(&traces, &config))
    );
    assert_eq!(
        summarize(&replay_all(&traces, &config)).to_string(),
        summarize(&replay_all(&traces, &config)).to_string()
    );
}

#[test]
fn rejected_events_are_skipped_and_counted() {
    let trace = Trace {
        id: "bad".into(),
        success: Some(true),
        events: vec![
            Event::TurnStart {
                message: "hello".into(),
                at_ms: Some(0),
            },
            // An empty tool name is rejected by the regulator, not the importer.
            Event::ToolCall {
                name: String::new(),
                args: None,
                call_id: None,
                side_effect: None,
                read_only: None,
                at_ms: Some(1000),
            },
            Event::TurnComplete {
                response: "hi".into(),
                at_ms: Some(2000),
            },
        ],
        ..Trace::default()
    };
    let report = replay(&trace, &Config::default());
    assert_eq!((report.events, report.rejected, report.turns), (3, 1, 1));
    // An invalid config rejects everything instead of panicking.
    let bad = Config {
        tool_loop_threshold: 0,
        ..Config::default()
    };
    let report = replay(&trace, &bad);
    assert_eq!((report.events, report.rejected, report.turns), (3, 3, 0));
}

#[test]
fn summary_tallies_by_outcome() {
    let report = |success: Option<bool>, fired: &[(&str, usize)], brk: bool| TraceReport {
        id: "t".into(),
        success,
        events: 10,
        rejected: 0,
        turns: 2,
        first_break: brk.then(|| (3, "toolLoop".to_string())),
        fired: fired.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
    };
    let s = summarize(&[
        report(Some(true), &[("scopeDrift", 2)], false),
        report(
            Some(false),
            &[("scopeDrift", 1), ("circuitBreak:toolLoop", 1)],
            true,
        ),
        report(Some(false), &[], false),
        report(None, &[("scopeDrift", 1)], false),
    ]);
    let o = |successes, failures, unknown| Outcomes {
        successes,
        failures,
        unknown,
    };
    assert_eq!(s.traces, o(1, 2, 1));
    assert_eq!(s.fired["scopeDrift"], o(1, 1, 1));
    assert_eq!(s.fired_turns["scopeDrift"], 4);
    assert_eq!(s.fired["circuitBreak:toolLoop"], o(0, 1, 0));
    assert_eq!(s.fired["procedural"], o(0, 0, 0));
    assert_eq!(s.halts, o(0, 1, 0));
    assert_eq!((s.events, s.turns, s.rejected), (40, 8, 0));
    for key in CONCERN_KEYS {
        assert!(s.fired.contains_key(key), "{key}");
    }
    let table = s.to_string();
    assert!(
        table.starts_with("4 traces: 1 successful, 2 failed, 1 without an outcome"),
        "{table}"
    );
    assert!(table.contains("halt (any circuit break)"), "{table}");
    // An empty summary prints too (no division by zero).
    assert!(summarize(&[]).to_string().starts_with("0 traces"));
}

#[track_caller]
fn field_of(messages: Value) -> String {
    let e = events_from_openai(&messages).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    e.field().to_string()
}

#[test]
fn bad_input_names_the_field() {
    assert_eq!(field_of(json!({"role": "user"})), "messages");
    assert_eq!(
        field_of(json!([{"role": "user", "content": "hi"}, {"content": "no role"}])),
        "messages[1].role"
    );
    assert_eq!(field_of(json!([{"role": 3}])), "messages[0].role");
    assert_eq!(field_of(json!([{"role": "robot"}])), "messages[0].role");
    assert_eq!(field_of(json!(["hello"])), "messages[0]");
    assert_eq!(
        field_of(json!([
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": null, "tool_calls": {"id": "x"}}
        ])),
        "messages[1].tool_calls"
    );
    assert_eq!(
        field_of(json!([{"role": "assistant", "tool_calls": [{"id": "x"}]}])),
        "messages[0].tool_calls[0].function"
    );
    assert_eq!(
        field_of(json!([{"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}])),
        "messages[0].tool_calls[0].function.name"
    );
    assert_eq!(
        field_of(json!([{"role": "user", "content": 5}])),
        "messages[0].content"
    );
    assert_eq!(
        field_of(json!([{"role": "tool", "tool_call_id": "nowhere", "content": "x"}])),
        "messages[0].name"
    );
    let e = events_from_openai(&json!([{"content": "x"}])).unwrap_err();
    assert_eq!(e.to_string(), "messages[0].role: is missing");

    // tau-bench files: paths run through the record and its trajectory.
    let e = tau_bench("{}").unwrap_err();
    assert_eq!(e.field(), "records");
    let e = tau_bench("not json").unwrap_err();
    assert_eq!(e.field(), "records");
    let e = tau_bench(r#"[{"task_id": 1, "trial": 0, "reward": 1.0, "traj": [{"content": "x"}]}]"#)
        .unwrap_err();
    assert_eq!(e.field(), "records[0].traj[0].role");
    let e = tau_bench(r#"[{"trial": 0, "traj": []}]"#).unwrap_err();
    assert_eq!(e.field(), "records[0].task_id");
    let e = tau_bench(r#"[{"task_id": 1, "trial": 0, "reward": "yes", "traj": []}]"#).unwrap_err();
    assert_eq!(e.field(), "records[0].reward");
    let e = tau_bench(r#"[{"task_id": 1, "trial": 0}]"#).unwrap_err();
    assert_eq!(e.field(), "records[0].traj");
}

#[test]
fn tau_bench_records_become_traces() {
    let traces = tau_bench(
        r#"[
            {"task_id": 4, "trial": 2, "reward": 1.0, "info": {}, "traj": [{"role": "user", "content": "hi"}]},
            {"task_id": 5, "trial": 0, "reward": 0.0, "traj": []},
            {"task_id": "x", "trial": 1, "traj": []}
        ]"#,
    )
    .unwrap();
    let ids: Vec<_> = traces.iter().map(|t| (t.id.as_str(), t.success)).collect();
    assert_eq!(
        ids,
        [("4-2", Some(true)), ("5-0", Some(false)), ("x-1", None)]
    );
    assert_eq!(traces[0].events.len(), 1);
}

/// The real data: tau-bench's gpt-4o airline results (MIT,
/// sierra-research/tau-bench), read from outside the repository.
#[test]
fn tau_bench_airline_file_imports_and_replays() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/tau-bench/gpt-4o-airline.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("skipped: tau-bench data not found at {}", path.display());
        return;
    };
    let traces = tau_bench(&text).unwrap();
    assert_eq!(traces.len(), 200);

    // Cross-check against the raw JSON, read independently.
    let raw: Value = serde_json::from_str(&text).unwrap();
    let records = raw.as_array().unwrap();
    let rewarded = records
        .iter()
        .filter(|r| r["reward"].as_f64().unwrap() >= 1.0)
        .count();
    assert_eq!(
        traces.iter().filter(|t| t.success == Some(true)).count(),
        rewarded
    );
    assert_eq!(
        traces.iter().filter(|t| t.success == Some(false)).count(),
        200 - rewarded
    );
    let error_results = records
        .iter()
        .flat_map(|r| r["traj"].as_array().unwrap())
        .filter(|m| m["role"] == "tool" && m["content"].as_str().unwrap().starts_with("Error"))
        .count();
    let failed_events = traces
        .iter()
        .flat_map(|t| &t.events)
        .filter(|e| matches!(e, Event::ToolResult { ok: false, .. }))
        .count();
    assert_eq!(failed_events, error_results);
    let mut ids: Vec<&str> = traces.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 200, "ids are unique");

    let reports = replay_all(&traces, &Config::default());
    assert!(reports.iter().all(|r| r.rejected == 0));
    let summary = summarize(&reports);
    assert_eq!(summary.traces.successes, rewarded);
    assert_eq!(
        summary.turns,
        traces
            .iter()
            .flat_map(|t| &t.events)
            .filter(|e| matches!(e, Event::TurnStart { .. }))
            .count()
    );
}

/// The real runs in `../shared/data`, when present: every file reads
/// without a problem, into the runs the data README lists.
#[test]
fn every_real_data_set_imports_without_problems() {
    use reins::replay::import::import;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !root.is_dir() {
        eprintln!("../shared/data is absent: skipped");
        return;
    }
    let mut counts = std::collections::BTreeMap::new();
    for dir in ["tau-bench", "tau2-bench", "mini-swe-agent", "swe-agent"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().is_some_and(|n| n != "LICENSE"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let got = import(&text, &name, true);
            assert!(
                got.problems.is_empty(),
                "{name}: {:?}",
                &got.problems[..got.problems.len().min(3)]
            );
            *counts.entry(dir).or_insert(0) += got.traces.len();
            for t in &got.traces {
                assert!(!t.events.is_empty(), "{}: no events", t.id);
                assert_eq!(t.source.as_deref(), Some(dir), "{}", t.id);
            }
        }
    }
    let want = [
        ("mini-swe-agent", 246),
        ("swe-agent", 22),
        ("tau-bench", 200),
        ("tau2-bench", 278),
    ];
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), want);
}

/// The same trace and options give byte-identical reports.
#[test]
fn a_report_is_the_same_bytes_every_time() {
    use reins::replay::{import::import, many::replay_many};
    let text = serde_json::to_string(&fixture()).unwrap();
    let traces = import(&text, "library", true).traces;
    let config = Config::default();
    let once = serde_json::to_string(&replay_many(&traces, &config)).unwrap();
    let twice = serde_json::to_string(&replay_many(&traces, &config)).unwrap();
    assert_eq!(once, twice);
    assert!(once.contains("\"estimatedTokens\":true"), "{once}");
}
